"""Specs made for a test: the clean spec of tests/broken/_clean.yaml with changes and card tables for
any gem colours (`spec`, `tables`), an engine imported from its text (`engine_from_text`), and the
legal actions an engine's plain _why_ functions find (`plain_legal`, to compare with its fast scan)."""

from __future__ import annotations

import importlib.util
import pathlib
import random

from compiler import pipeline
from tests.helpers import ROOT


def plain_legal(engine, game) -> list[int]:
    """The ids whose _why_ function (the plain compilation) finds nothing wrong, in the game's mode."""
    if game.mode == engine._OVER_MODE or game.mode == engine._PAY:
        return game.legal_actions()  # over: nothing; payment: the accepted payments themselves
    if game.mode == engine._ACTION_MODE:  # an action that does not end the turn: at most once a turn (Game.taken)
        taken = getattr(game, "taken", 0)
        decisions = {d for d in range(engine._N_ACTION_DECISIONS) if d != engine._STUCK and not taken >> d & 1}
    else:
        decisions = {game.mode}
    ids = [a for a, (d, args) in enumerate(engine.ACTIONS) if d in decisions and engine._WHY[d](game, args) is None]
    if not ids and game.mode == engine._ACTION_MODE and engine._STUCK >= 0:
        ids = [
            a for a, (d, args) in enumerate(engine.ACTIONS) if d == engine._STUCK and engine._WHY[d](game, args) is None
        ]
    return ids


CLEAN = (ROOT / "tests" / "broken" / "_clean.yaml").read_text(encoding="utf-8").replace("../../rulespec/", "")


FIVE = ("white", "blue", "green", "red", "black")


def tables(folder: pathlib.Path, gems: tuple[str, ...], per_level: int = 30) -> None:
    """Card and noble tables for any gem colours: `per_level` cards of each of 3 levels."""
    cards = ["level,bonus,points," + ",".join(gems)]
    for level in (1, 2, 3):
        for i in range(per_level):
            cost = [0] * len(gems)
            cost[i % len(gems)] = level
            cards.append(f"{level},{gems[(i + 1) % len(gems)]},{level - 1}," + ",".join(map(str, cost)))
    nobles = ["points," + ",".join(gems)] + [
        "3," + ",".join("3" if g == i % len(gems) else "0" for g in range(len(gems))) for i in range(10)
    ]
    (folder / "splendor_cards.csv").write_text("\n".join(cards) + "\n", encoding="utf-8")
    (folder / "splendor_nobles.csv").write_text("\n".join(nobles) + "\n", encoding="utf-8")


def spec(folder: pathlib.Path, *changes: tuple[str, str], gems: tuple[str, ...] = FIVE, per_level: int = 30):
    text = CLEAN.replace("gems: [white, blue, green, red, black]", f"gems: [{', '.join(gems)}]")
    for old, new in changes:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    tables(folder, gems, per_level)
    (folder / "spec.yaml").write_text(text, encoding="utf-8")
    return pipeline.load_rules(str(folder / "spec.yaml"))


def engine_from_text(path: pathlib.Path, text: str):
    path.write_text(text, encoding="utf-8")
    module_spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(module_spec)
    module_spec.loader.exec_module(module)
    return module


def check_games(engine, games: int, seed: int) -> int:
    """Play random games, comparing fast and plain legal ids at every decision; the decisions seen.

    Where the engine keeps derived state (the face-up cards' costs), it must match the
    market at every decision, also in a clone and in a game read back from JSON, and the
    game continues from one of those copies now and then.
    """
    rng = random.Random(seed)
    seen = 0
    derived = engine._FACE_UP_COSTS
    for i in range(games):
        players = engine.PLAYER_COUNTS[i % len(engine.PLAYER_COUNTS)]
        game = engine.new_game(players, seed=seed * 1000 + i)
        while not game.is_over():
            legal = game.legal_actions()
            assert legal == plain_legal(engine, game), (
                f"seed {seed * 1000 + i}, move {len(game.history) + 1}, phase {game.phase}: "
                f"fast {legal} != plain {plain_legal(engine, game)}"
            )
            if derived:
                assert game.face_up_costs == engine._face_up_costs(game.market), f"move {len(game.history) + 1}"
            if seen % 17 == 0:
                game = game.clone() if seen % 2 else engine.from_json(game.to_json())
                assert game.legal_actions() == legal
                if derived:
                    assert game.face_up_costs == engine._face_up_costs(game.market)
            game.apply(legal[rng.randrange(len(legal))])
            seen += 1
    return seen
