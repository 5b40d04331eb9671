"""OpenSpiel-style golden playthroughs of the generated engine.

For a few seeds and every player count, a game is played by a seeded random choice
among the legal actions; the transcript records, decision by decision, a summary of
the state, the legal actions in notation and the action applied (the first
MAX_LOGGED decisions), then the result. Transcripts live in tests/playthroughs/.

Regenerate them (and read every diff before committing it) with:

    python -m pytest tests/test_playthroughs.py --update-goldens

`transcript(E, players, seed)` works for any engine module: every spec of the catalogue
(the official rules and each variant variants/index.yaml lists) keeps one seeded 2-player
playthrough of its generated engine (a solo variant: its one player count), so that a change
of behaviour in any variant shows in review as a diff of its transcript.
"""

from __future__ import annotations

import json
import pathlib
import random
import textwrap
from types import ModuleType

import pytest

import tests.helpers.engines as H

SEEDS = (1, 2)
MAX_LOGGED = 60
GOLDEN_DIR = H.ROOT / "tests" / "playthroughs"
CATALOGUE_SEED = 1  # each catalogue spec's playthrough


def catalogue() -> list[pathlib.Path]:
    """The official spec, then every variant variants/index.yaml lists (what `build` compiles)."""
    from compiler import pipeline

    index = H.ROOT / pipeline.VARIANT_INDEX
    return [H.OFFICIAL_SPEC] + [pathlib.Path(p) for p in pipeline.index_entries(str(index))]


CATALOGUE = catalogue()


def catalogue_engine(spec: pathlib.Path) -> ModuleType:
    """The committed engine of a catalogue spec (generated/ equals a rebuild: test_generated)."""
    from compiler.emit.engine import module_name

    return H.load_engine(H.ROOT / "generated" / "engines" / module_name(H.load_spec(spec)))


def catalogue_players(E: ModuleType) -> int:
    """2, or the spec's smallest player count when 2 players is not one of them (solo)."""
    return 2 if 2 in E.PLAYER_COUNTS else min(E.PLAYER_COUNTS)


def catalogue_file(E: ModuleType) -> str:
    return f"{E.SPEC_NAME}_{catalogue_players(E)}p_seed{CATALOGUE_SEED}.txt"


def card_text(E: ModuleType, card) -> str:
    if card is None:
        return "--"
    c = E.CARDS[card]
    return f"#{c.id} {c.bonus} {c.points}p {'/'.join(map(str, c.cost))}"


def noble_text(E: ModuleType, noble: int) -> str:
    n = E.NOBLES[noble]
    return f"#{n.id} {n.points}p {'/'.join(map(str, n.requires))}"


def summary(E: ModuleType, game) -> list[str]:
    """The state in a few lines, from the state JSON (the contract's shape)."""
    st = json.loads(game.to_json())
    lines = ["supply: " + " ".join(f"{c} {st['supply'][c]}" for c in E.COLOURS)]
    for level in E.LEVELS:
        shown = " | ".join(card_text(E, c) for c in st["market"][str(level)])
        lines.append(f"market {level}: {shown}  (deck {len(st['decks'][str(level)])})")
    lines.append("nobles: " + (" | ".join(noble_text(E, n) for n in st["nobles"]) or "none"))
    for p, s in enumerate(st["seats"]):
        tokens = "/".join(str(s["tokens"][c]) for c in E.COLOURS)
        bonus = "/".join(map(str, game.bonus[p]))
        reserved = ", ".join(card_text(E, c) for c in s["reserved"]) or "none"
        lines.append(
            f"seat {p}: prestige {game.prestige[p]}, tokens {tokens}, bonus {bonus}, "
            f"purchased {len(s['purchased'])}, nobles {s['nobles']}, turns {s['turns']}, "
            f"reserved: {reserved}"
        )
    return lines


def transcript(E: ModuleType, players: int, seed: int, max_logged: int = MAX_LOGGED) -> str:
    """The playthrough of one seeded game: new_game(players, seed), choices by random.Random(seed)."""
    game = E.new_game(players, seed=seed)
    rng = random.Random(seed)
    out = [
        f"# Playthrough: {E.SPEC_NAME}, {players} players, new_game seed {seed}, "
        f"actions chosen by random.Random({seed}) among the legal ones.",
        "# Regenerate: python -m pytest tests/test_playthroughs.py --update-goldens",
        f"# Tokens are {'/'.join(E.COLOURS)}; bonuses, card costs and noble requirements {'/'.join(E.GEMS)};",
        "# a card is #id bonus points cost.",
        "",
    ]
    decisions = 0
    while not game.is_over():
        legal = game.legal_actions()
        action = rng.choice(legal)
        if decisions < max_logged:
            out.append(
                f"decision {decisions + 1}: round {game.round}, turn {game.turn}, "
                f"seat {game.current_player} to play, phase {game.phase}"
            )
            out += ["  " + line for line in summary(E, game)]
            strings = ", ".join(E.action_to_string(a) for a in legal)
            out += textwrap.wrap(f"legal ({len(legal)}): {strings}", 100, initial_indent="  ", subsequent_indent="    ")
            out.append(f"  apply: {E.action_to_string(action)}")
            out.append("")
        game.apply(action)
        decisions += 1
    if decisions > max_logged:
        out.append(f"... {decisions - max_logged} more decisions not shown")
        out.append("")
    st = json.loads(game.to_json())
    out.append(f"final: over after {decisions} decisions, round {game.round}, turn {game.turn}, ending {st['ending']}")
    out += ["  " + line for line in summary(E, game)]
    out.append(f"  scores: {list(game.scores())}")
    out.append(f"  winners: {list(game.winners())}")
    out.append(f"  returns: {list(game.returns())}")
    return "\n".join(out) + "\n"


@pytest.fixture(scope="module")
def E():
    return H.official_engine()


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_playthrough(E, golden, players, seed):
    text = transcript(E, players, seed)
    assert transcript(E, players, seed) == text, "the same seed gave two different games"
    golden.check(GOLDEN_DIR / f"{E.SPEC_NAME}_{players}p_seed{seed}.txt", text)


@pytest.mark.parametrize("spec", CATALOGUE, ids=lambda path: path.stem)
def test_catalogue_playthrough(golden, spec):
    E = catalogue_engine(spec)
    text = transcript(E, catalogue_players(E), CATALOGUE_SEED)
    golden.check(GOLDEN_DIR / catalogue_file(E), text)


def test_every_catalogue_spec_has_its_own_playthrough():
    names = [catalogue_file(catalogue_engine(spec)) for spec in CATALOGUE]
    assert len(set(names)) == len(CATALOGUE) > 1, names  # one transcript each, the variants' too


def test_no_stale_playthroughs(E):
    """Every transcript on disk belongs to a playthrough this module checks."""
    expected = {f"{E.SPEC_NAME}_{p}p_seed{s}.txt" for p in (2, 3, 4) for s in SEEDS}
    expected |= {catalogue_file(catalogue_engine(spec)) for spec in CATALOGUE}
    on_disk = {p.name for p in GOLDEN_DIR.glob("*.txt")}
    assert on_disk <= expected, f"stale transcripts: {sorted(on_disk - expected)}"
