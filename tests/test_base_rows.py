"""The base game's face-up rows and decks as zones split by level (issue 28 items 1 and 2):
`place: face_up` and `place: decks` with `by: level`, read `rows[level]`, chosen from one level
(`from: "rows[1]"`), moved, drawn, turned to the bottom and refilled by the zone effects, and
bought, reserved and buried by the base effects (`acquire`, `reserve`, `bury` of a card of a place).

Spec -> diagnostics (a split place without its `by`, a choice from a split zone without its level or
from a level there is none of, an index of a zone that is not split, a level that can be none, a
deck's cards read: each located), spec -> engine behaviour on tests/specs/base-rows.yaml (a face-up
card taken for free leaves its slot refilled from its level's deck, a card turned back to the bottom
of its deck, a card drawn from a deck; random games keep every card in one place, the rows' levels,
the slots' costs and the saved state), spec -> sheet and diff text, and the tools (simulate with each bot, play --replay, the RL
environment) on the spec."""

from __future__ import annotations

import json
import pathlib
import random

import pytest
from click.testing import CliRunner

from app import cli
from compiler import pipeline
from compiler.diagnostics import CompileError, SourceMap
from compiler.diff import compare, render
from playtest import rl
from tests.helpers.engines import ROOT, give_card, load, load_engine, position, set_reserved, set_turn

SPEC = ROOT / "tests" / "specs" / "base-rows.yaml"
TEXT = SPEC.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def engine(tmp_path_factory):
    path = tmp_path_factory.mktemp("base_rows") / "base_rows.py"
    path.write_text(pipeline.compile_spec(str(SPEC)).text, encoding="utf-8")
    return load_engine(path)


def diagnostics(tmp_path: pathlib.Path, *changes: tuple[str, str]):
    """The diagnostics of the test spec with `changes` made: (code, message, the text under the
    caret), or the rules when it is clean."""
    text = TEXT
    for old, new in changes:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    path = tmp_path / "specs" / "spec.yaml"
    path.parent.mkdir(exist_ok=True)
    path.write_text(text, encoding="utf-8")
    lines = text.split("\n")
    try:
        return pipeline.load_rules(str(path), SourceMap())
    except CompileError as err:
        return [
            (d.code, d.message, lines[d.span.line - 1][d.span.col - 1 : d.span.end_col - 1]) for d in err.diagnostics
        ]


# --------------------------------------------------------------------------- spec -> diagnostics


@pytest.mark.parametrize(
    "old, new, code, caret, says",
    [
        ("    by: level\n    place: face_up\n", "    place: face_up\n", "E541", "face_up", "write 'by: level'"),
        (
            "    by: level\n    place: decks\n",
            "    by: bonus\n    place: decks\n",
            "E541",
            "bonus",
            "one zone per level",
        ),
        ('from: "rows[1]"', "from: rows", "E553", "rows", "one zone per level: name one"),
        ('from: "rows[1]"', 'from: "rows[4]"', "E514", '"rows[4]"', "there is no level 4 (levels run 1 to 3)"),
        ('from: "rows[1]"', 'from: "tableau[1]"', "E553", '"tableau[1]"', "only a zone split by a group column"),
        ('from: "rows[1]"', 'from: "piles[1]"', "E553", '"piles[1]"', "a face-down pile"),
        ("size(piles[2]) >= 1 and", "size(piles[5]) >= 1 and", "E514", "5", "piles[5]: there is no level 5"),
        ("refill(rows[card.level])", "refill(rows[card.level + 1])", "E514", "card.level + 1", "not always a level"),
        ("all(x.level == 1 for x in rows[1])", "all(x.level == 1 for x in piles[1])", "E551", "piles[1]", "face-down"),
        ("all(x.level == 1 for x in rows[1])", "all(x.level == 1 for x in rows)", "E410", "rows", "collection"),
        ('"acquire(card)", "refill(rows[1])"', '"acquire(card)", "bury(card)"', "E547", "bury(card)", "again"),
        ('["rows[2]", "rows[3]"]', '["rows[2]", "rows[2]"]', "E553", '["rows[2]", "rows[2]"]', "each named once"),
        ('["rows[2]", "rows[3]"]', '["rows[2]", "piles[3]"]', "E553", '"piles[3]"', "a face-down pile"),
        ('["rows[2]", "rows[3]"]', '["rows[2]", "rows[7]"]', "E514", '"rows[7]"', "there is no level 7"),
        ('"reserve(card)", "refill', '"visit(card)", "refill', "E410", "card", "'visit' needs a noble"),
    ],
)
def test_a_split_place_or_a_level_that_does_not_fit_is_refused_where_it_is_written(
    tmp_path, old, new, code, caret, says
):
    found = diagnostics(tmp_path, (old, new))
    assert isinstance(found, list) and len(found) == 1, found
    ((got, message, under),) = found
    assert got == code and says in message and under == caret, found


def test_the_test_spec_checks_clean_and_its_rows_and_decks_are_split_by_level():
    rules = pipeline.load_rules(str(SPEC), SourceMap())
    assert [(z.name, z.place, z.shape, z.by) for z in rules.zones] == [
        ("rows", "face_up", "display", "level"),
        ("piles", "decks", "pile", "level"),
        ("tableau", "purchased", "holding", ""),
    ]
    assert dict(rules.zones[0].sizes) == {p.players: p.face_up for p in rules.players}
    gift = next(a for a in rules.actions if a.name == "gift")
    assert [(p.source, p.group, p.slots) for p in gift.params] == [("rows", 1, 4)]


# --------------------------------------------------------------------------- spec -> engine


def _cards(E, level: int, points: int | None = None) -> list[int]:
    return [c for c in range(len(E.CARDS)) if E.CARD_LEVEL[c] == level and points in (None, E.CARD_POINTS[c])]


def test_a_face_up_card_taken_for_free_is_bought_and_its_slot_refilled_from_its_deck(engine):
    E = engine
    state = position(E, 2)
    give_card(E, state, 0, *_cards(E, 2)[-2:])
    game = load(E, state)
    slot = next(i for i, c in enumerate(game.market[0]) if E.CARD_POINTS[c] == 0)
    card, top, left = game.market[0][slot], game.decks[0][-1], len(game.decks[0])
    bonus = list(game._bon[0])
    assert f"gift {slot + 1}" in [E.action_to_string(a) for a in game.legal_actions()]
    game.apply(E.string_to_action(f"gift {slot + 1}"))
    assert game._bought[0][-1] == card and game._bon[0][E.CARD_BONUS[card]] == bonus[E.CARD_BONUS[card]] + 1
    assert game.market[0][slot] == top and len(game.decks[0]) == left - 1  # refilled as the base game refills
    if E._FACE_UP_COSTS:
        assert game.face_up_costs == E._face_up_costs(game.market)
    saved = json.loads(game.to_json())
    assert saved["zones"] == {} and card in saved["seats"][0]["purchased"]
    assert E.from_json(game.to_json()).to_json() == game.to_json()


def test_a_card_of_a_place_is_reserved_and_a_row_buried_by_the_base_effects(engine):
    E = engine
    state = position(E, 2)
    game = load(E, state)
    strong = [i for i, c in enumerate(game.market[2]) if E.CARD_POINTS[c] >= 4]
    offered = [E.action_to_string(a) for a in game.legal_actions() if E.action_to_string(a).startswith("hold")]
    assert offered == [f"hold {i + 1}" for i in strong]
    if strong:
        card, top = game.market[2][strong[0]], game.decks[2][-1]
        game.apply(E.string_to_action(offered[0]))
        assert game._res[0] == [card] and game.blind[0] == [] and game.market[2][strong[0]] == top
    state = position(E, 2)
    set_reserved(E, state, 0, [_cards(E, 1)[-1]])
    game = load(E, set_turn(state, 0, 4))
    row, deck = list(game.market[1]), list(game.decks[1])
    game.apply(E.string_to_action("sweep"))
    assert game.decks[1][: len(row)] == row[::-1] and game.market[1] == deck[::-1][: len(row)]
    assert E.from_json(game.to_json()).to_json() == game.to_json()


def test_a_card_turned_back_goes_under_its_deck_and_a_dug_card_is_drawn_from_the_top(engine):
    E = engine
    game = E.new_game(3, seed=11)
    card, top = game.market[1][2], game.decks[1][-1]
    game.apply(E.string_to_action("turn back 3"))
    assert game.decks[1][0] == card and game.market[1][2] == top and game._tok[0][-1] == 1
    card, top = game.market[2][0], game.decks[2][-1]  # the choice's positions 5 to 8: level 3's row
    game.apply(E.string_to_action("turn back 5"))
    assert game.decks[2][0] == card and game.market[2][0] == top
    state = position(E, 2)
    give_card(E, state, 0, *_cards(E, 1, points=0)[:4])
    game = load(E, state)
    level = next(lv for lv in (1, 2, 3) if all(E.CARD_POINTS[c] == 0 for c in game.market[lv - 1] if c is not None))
    top = game.decks[level - 1][-1]
    game.apply(E.string_to_action(f"dig {level}"))
    assert game._bought[0][-1] == top and top not in game.decks[level - 1]


def test_a_card_moved_to_another_levels_row_is_the_engines_rule_error(engine):
    E = engine
    game = E.new_game(2, seed=2)
    game.market[0][0] = None  # room in the level-1 row
    with pytest.raises(E.RuleError, match="a level 2 card cannot go to level 1 of 'rows'"):
        E._zone_move(game, game.market[1][0], 0, 0, "move")
    assert all(E.CARD_LEVEL[c] == 2 for c in game.market[1])  # refused before it left its slot


def test_random_games_keep_every_card_in_one_place_and_reload(engine):
    E = engine
    seen: set[str] = set()
    for seed in range(4):
        game = E.new_game(2 + seed % 3, seed=seed)
        rng = random.Random(seed)
        while not game.is_over():
            legal = game.legal_actions()
            words = {a: E.action_to_string(a).split()[0] for a in legal}
            new = [a for a in legal if words[a] in ("gift", "turn", "dig", "hold", "sweep")]
            action = rng.choice(new) if new and rng.random() < 0.6 else rng.choice(legal)
            seen.add(words[action])
            game.apply(action)
            laid = [c for row in game.market for c in row if c is not None] + [c for d in game.decks for c in d]
            held = [c for p in range(game.num_players) for c in game._bought[p] + game._res[p]]
            assert sorted(laid + held) == list(range(len(E.CARDS)))
            assert all(E.LEVELS[li] == E.CARD_LEVEL[c] for li, row in enumerate(game.market) for c in row if c)
            assert not E._FACE_UP_COSTS or game.face_up_costs == E._face_up_costs(game.market)
        assert E.from_json(game.to_json()).to_json() == game.to_json()
    assert {"gift", "turn", "hold"} <= seen


def test_the_sheets_and_diff_say_which_level_of_a_row(tmp_path):
    result = CliRunner().invoke(cli.main, ["sheet", str(SPEC), "--lang", "en,fr,nl,sr", "--format", "md",
                                           "-o", str(tmp_path)])  # fmt: skip
    assert result.exit_code == 0, result.output
    said = {lang: (tmp_path / f"base-rows.{lang}.md").read_text(encoding="utf-8") for lang in ("en", "fr", "nl", "sr")}
    assert "Choose a card from “Face-up cards” of level 2 or a card from “Face-up cards” of level 3." in said["en"]
    assert "at least 1 card is left in the deck of level 2" in said["en"]  # the decks' place, as the base game says it
    assert "fill the empty places of the “Face-up cards” of level 1 from its pile" in said["en"]
    assert "Choisissez une carte de la zone « Cartes visibles » du niveau 2 ou une carte de la zone" in said["fr"]
    assert "Kies een kaart uit ‘Open kaarten’ van niveau 2 of een kaart uit ‘Open kaarten’ van niveau 3." in said["nl"]
    assert "Изаберите једну карту из зоне „Отворене карте“ нивоа 2 или једну карту из зоне" in said["sr"]
    official = pipeline.load_rules(str(ROOT / "rulespec" / "official.yaml"), SourceMap())
    changed = pipeline.load_rules(str(SPEC), SourceMap())
    text = render(compare(official, changed), official, changed, "en")
    assert "the place of the base game it is: face_up" in text and "the place of the base game it is: decks" in text


def _invoke(*args: str) -> str:
    result = CliRunner().invoke(cli.main, list(args))
    assert result.exit_code == 0, result.output
    return result.output


def test_every_tool_takes_the_spec(tmp_path, monkeypatch):
    monkeypatch.setenv("SPLENDOR_RULES_CACHE", str(tmp_path / "cache"))
    _invoke("compile", str(SPEC), "-o", str(tmp_path))
    module = tmp_path / "base_rows.py"
    record = tmp_path / "games.jsonl"
    for bots in ("random", "greedy", "mcts:4"):
        _invoke("simulate", str(module), "--games", "1", "--bots", bots, "--seed", "1",
                "--max-turns", "30", "--jobs", "1", "--games-out", str(record))  # fmt: skip
    _invoke("play", str(module), "--replay", str(record), "--game", "0")
    env = rl.SplendorEnv(str(module), opponents="random", max_turns=20)
    _, info = env.reset(seed=1)
    env.step(int(info["action_mask"].nonzero()[0][0]))
