"""Zones of the spec's own kinds split by a group column (issue 28 item 2): `by: level` on a pile and
a display of a kind with a level column, as The Orient lays out its cards (tests/specs/relics.yaml:
a deck per level, two relics face up per level, each level's slots refilled from its own deck).

Spec -> diagnostics (a `by` that is no group column, a split display dealt from a pile that is not
split the same way, a size more than a group can deal, a choice without its group or from a group
there is none of, a literal index that is no group: each located, file:line:col and caret), spec ->
engine behaviour (the deal by group, a face-up relic taken from one level's row and its slot refilled
from that level's deck, a draw, a relic turned back under its own deck, a relic refused by another
level's row, a saved state's groups checked and reloaded, random games), spec -> sheet text in four
languages and the diff's."""

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
from tests.helpers.engines import ROOT, load, load_engine, position

SPECS = ROOT / "tests" / "specs"
SPEC = SPECS / "relics.yaml"
TEXT = SPEC.read_text(encoding="utf-8")
LEVELS = {1: 4, 2: 4, 3: 3}  # relics.csv: how many relics of each level


@pytest.fixture(scope="module")
def engine(tmp_path_factory):
    path = tmp_path_factory.mktemp("relics") / "relics.py"
    path.write_text(pipeline.compile_spec(str(SPEC)).text, encoding="utf-8")
    return load_engine(path)


def _spec(tmp_path: pathlib.Path, *changes: tuple[str, str]) -> pathlib.Path:
    text = TEXT
    for old, new in changes:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    path = tmp_path / "spec.yaml"
    path.write_text(text, encoding="utf-8")
    (tmp_path / "relics.csv").write_bytes((SPECS / "relics.csv").read_bytes())
    return path


def diagnostics(tmp_path: pathlib.Path, *changes: tuple[str, str]):
    """(code, message, the text under the caret) of each diagnostic of the spec with `changes` made."""
    path = _spec(tmp_path, *changes)
    lines = path.read_text(encoding="utf-8").split("\n")
    try:
        pipeline.load_rules(str(path), SourceMap())
    except CompileError as err:
        return [
            (d.code, d.message, lines[d.span.line - 1][d.span.col - 1 : d.span.end_col - 1]) for d in err.diagnostics
        ]
    return []


# --------------------------------------------------------------------------- spec -> diagnostics

DISPLAY = "    shape: display\n    by: level\n"


@pytest.mark.parametrize(
    "old, new, code, caret, says",
    [
        (DISPLAY, "    shape: display\n    by: name\n", "E541", "name", "'name', which is not a group column"),
        (DISPLAY, "    shape: display\n    by: levle\n", "E541", "levle", "did you mean 'level'?"),
        (DISPLAY, "    shape: display\n", "E541", "relic_decks", "which is split by 'level': name one level"),
        # (then each `relic_decks[...]` of the rules is an E404 too: a pile not split is not indexed)
        ("    shape: pile\n    by: level\n", "    shape: pile\n", "E541", "relic_decks", "its source 'relic_decks'"),
        ("    size: 2\n", "    size: 4\n", "E542", "4", "only 3 relics to deal of level 3"),
        ('from: "relic_rows[1]"', "from: relic_rows", "E553", "relic_rows", "one zone per level: name one"),
        ('from: "relic_rows[1]"', 'from: "relic_rows[4]"', "E514", '"relic_rows[4]"', "there is no level 4"),
        ("size(me.shrine) < 2", "size(relic_decks[4]) < 2", "E514", "4", "relic_decks[4]"),
        ("    per_player: true\n", "    per_player: true\n    by: level\n", "E541", "by", "not to a holding"),
    ],
)
def test_a_split_zone_that_cannot_be_is_refused_where_it_is_written(tmp_path, old, new, code, caret, says):
    found = diagnostics(tmp_path, (old, new))
    assert len(found) == 1 or {c for c, _, _ in found[1:]} == {"E404"}, found
    got, message, under = found[0]
    assert got == code and says in message and under == caret, found


def test_check_prints_the_split_zones_error_at_its_line_and_column_with_a_caret(tmp_path):
    path = _spec(tmp_path, (DISPLAY, "    shape: display\n    by: name\n"))
    result = CliRunner().invoke(cli.main, ["check", str(path)])
    assert result.exit_code == 1
    assert (
        f"{path}:41:9: error[E541]: zone 'relic_rows' is split by 'name', which is not a group column "
        "('group: true') of kind 'relics'\n 41 |     by: name\n    |         ^^^^\n"
        "  = note: split it by a group column (level)\n"
    ) in result.output


def test_the_spec_is_read_with_its_zones_split_by_level():
    rules = pipeline.load_rules(str(SPEC), SourceMap())
    assert [(z.name, z.shape, z.by, z.source) for z in rules.zones] == [
        ("relic_decks", "pile", "level", ""),
        ("relic_rows", "display", "level", "relic_decks"),
        ("shrine", "holding", "", ""),
    ]
    take = next(a for a in rules.actions if a.name == "take_relic")
    turn = next(a for a in rules.actions if a.name == "turn_relic")
    assert [(p.source, p.group, p.slots) for p in take.params] == [("relic_rows", 1, 2)]
    assert [p.parts for p in turn.params] == [(("relic_rows", 2, 2), ("relic_rows", 3, 2))]


# --------------------------------------------------------------------------- spec -> engine


def _level(E, x: int) -> int:
    return E.KINDS["relics"].rows[x][0]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_each_relic_is_dealt_to_its_own_levels_deck_and_two_of_each_level_face_up(engine, players):
    E = engine
    assert E.ZONE_GROUPS == {"relic_decks": ("level", (1, 2, 3)), "relic_rows": ("level", (1, 2, 3))}
    for seed in range(3):
        game = E.new_game(players, seed=seed)
        decks, rows = game.z_relic_decks, game.z_relic_rows
        assert [len(r) for r in rows] == [2, 2, 2] and None not in (x for r in rows for x in r)
        for level in (1, 2, 3):
            assert {_level(E, x) for x in decks[level - 1] + rows[level - 1]} == {level}
            assert len(decks[level - 1]) == LEVELS[level] - 2
        assert sorted(x for part in decks + rows for x in part) == list(range(11))
    assert E.new_game(2, seed=1).z_relic_decks != E.new_game(2, seed=4).z_relic_decks  # shuffled by the seed


def test_a_relic_taken_from_one_levels_row_leaves_its_slot_refilled_from_that_levels_deck(engine):
    E = engine
    game = load(E, position(E, 2, seed=3))
    relic, top = game.z_relic_rows[0][1], game.z_relic_decks[0][-1]
    others = [list(r) for r in game.z_relic_rows[1:]]
    offered = sorted(E.action_to_string(a) for a in game.legal_actions() if E.action_to_string(a).startswith("relic"))
    assert offered == ["relic 1", "relic 2"]  # a choice from level 1's row only: its two slots
    game.apply(E.string_to_action("relic 2"))
    assert game.z_shrine[0] == [relic]
    assert game.z_relic_rows[0][1] == top and top not in game.z_relic_decks[0]
    assert [list(r) for r in game.z_relic_rows[1:]] == others  # the other levels' rows did not move
    saved = json.loads(game.to_json())
    assert saved["zones"]["relic_rows"] == [list(r) for r in game.z_relic_rows]
    assert saved["zones"]["relic_decks"] == [list(reversed(d)) for d in game.z_relic_decks]  # top first
    assert game.observation(0)["zones"]["relic_decks"] == [len(d) for d in game.z_relic_decks]
    assert E.from_json(game.to_json()).to_json() == game.to_json()


def test_a_relic_turned_back_goes_under_its_own_deck_and_a_dug_relic_comes_off_the_top(engine):
    E = engine
    state = position(E, 2, seed=5)
    state["seats"][0]["zones"]["shrine"] = [state["zones"]["relic_decks"][0].pop()]
    game = load(E, state)
    relic, top = game.z_relic_rows[2][0], game.z_relic_decks[2][-1]
    game.apply(E.string_to_action("turn 3"))  # the choice's positions 3 and 4: level 3's row
    assert game.z_relic_decks[2][0] == relic and game.z_relic_rows[2][0] == top
    # a dig takes the top of a level's deck when no relic of that level's row scores: only level 1's can
    game = next(g for g in (E.new_game(2, seed=s) for s in range(20)) if 2 not in g.z_relic_rows[0])  # no comb
    top = game.z_relic_decks[0][-1]
    assert [E.action_to_string(a) for a in game.legal_actions() if E.action_to_string(a).startswith("dig")] == ["dig 1"]
    game.apply(E.string_to_action("dig 1"))
    assert game.z_shrine[0] == [top] and top not in game.z_relic_decks[0]


def test_a_stir_shuffles_one_levels_deck_on_the_games_seeded_generator(engine):
    E = engine
    state = position(E, 2, seed=8)
    state["seats"][0]["zones"]["shrine"] = [state["zones"]["relic_decks"][0].pop()]
    game = load(E, state)
    before = [list(d) for d in game.z_relic_decks]
    game.apply(E.string_to_action("stir"))
    assert sorted(game.z_relic_decks[1]) == sorted(before[1])
    assert [game.z_relic_decks[0], game.z_relic_decks[2]] == [before[0], before[2]]  # the other levels' decks
    assert json.loads(game.to_json())["chance"] == 1
    again = load(E, state)
    again.apply(E.string_to_action("stir"))
    assert again.z_relic_decks == game.z_relic_decks  # the same seed and count: the same order


def test_a_relic_moved_to_another_levels_row_is_the_engines_rule_error(engine):
    E = engine
    game = E.new_game(2, seed=2)
    game.z_relic_rows[0][0] = None  # room in level 1's row
    level2 = game.z_relic_rows[1][0]
    with pytest.raises(E.RuleError, match="a component of level 2 cannot go to level 1 of 'relic_rows'") as err:
        E._zone_move(game, level2, 1, 0, "move")
    assert err.value.key == "wrong_group" and err.value.fields["column"] == "level"  # the group column's
    assert game.z_relic_rows[1][0] == level2  # refused before it left its slot


def test_a_saved_state_holds_each_group_apart_and_is_checked(engine):
    E = engine
    state = position(E, 2, seed=1)
    state["zones"]["relic_decks"] = state["zones"]["relic_decks"][:2]
    with pytest.raises(E.StateError, match=r"zones.relic_decks must be a list of 3 lists, one per level"):
        E.from_json(json.dumps(state))
    state = position(E, 2, seed=1)
    decks = state["zones"]["relic_decks"]
    decks[0].append(decks[2].pop())  # a level-3 relic in level 1's deck
    with pytest.raises(E.StateError, match=r"has level 3: it lies in relic_decks's level 3 list, not the level 1"):
        E.from_json(json.dumps(state))


def test_random_games_keep_every_relic_in_its_own_level_and_reload(engine):
    E = engine
    seen: set[str] = set()
    for seed in range(4):
        game = E.new_game(2 + seed % 3, seed=seed)
        rng = random.Random(seed)
        while not game.is_over():
            legal = game.legal_actions()
            words = {a: E.action_to_string(a).split()[0] for a in legal}
            new = [a for a in legal if words[a] in ("relic", "dig", "turn", "stir")]
            action = rng.choice(new) if new and rng.random() < 0.5 else rng.choice(legal)
            seen.add(words[action])
            game.apply(action)
            laid = [x for part in game.z_relic_decks + game.z_relic_rows for x in part if x is not None]
            assert sorted(laid + [x for s in game.z_shrine for x in s]) == list(range(11))
            for zone in (game.z_relic_decks, game.z_relic_rows):
                assert all(_level(E, x) == g + 1 for g, part in enumerate(zone) for x in part if x is not None)
        assert E.from_json(game.to_json()).to_json() == game.to_json()
    assert {"relic", "turn"} <= seen


# --------------------------------------------------------------------------- spec -> sheet and diff text


def test_the_sheets_say_each_level_is_dealt_and_refilled_apart(tmp_path):
    result = CliRunner().invoke(cli.main, ["sheet", str(SPEC), "--lang", "en,fr,nl,sr", "--format", "md",
                                           "-o", str(tmp_path)])  # fmt: skip
    assert result.exit_code == 0, result.output
    said = {lang: (tmp_path / f"relics.{lang}.md").read_text(encoding="utf-8") for lang in ("en", "fr", "nl", "sr")}
    assert (
        "Sort the relics by their “level” and shuffle each group into its own face-down pile: “Relic decks”, "
        "one pile per “level”." in said["en"]
    )
    assert "For each “level”, lay out 2 relics of that “level” from its own pile of “Relic decks”" in said["en"]
    assert "fill the empty places of the “Face-up relics” of level 1 from its pile" in said["en"]
    assert "Choose a relic from “Face-up relics” of level 2 or a relic from “Face-up relics” of level 3." in said["en"]
    assert "Triez les reliques selon leur « niveau » et mélangez chaque groupe en sa propre pile" in said["fr"]
    assert "Pour chaque « niveau », disposez dans la zone « Reliques visibles » 2 reliques de ce" in said["fr"]
    assert "Sorteer de relikwieën op ‘niveau’ en schud elke groep tot een eigen gesloten stapel" in said["nl"]
    assert "Leg per ‘niveau’ 2 relikwieën van de eigen stapel ‘Relikwiestapels’ uit in ‘Open relikwieën’." in said["nl"]
    assert "Разврстајте делове врсте „реликвије“ по вредности „ниво“" in said["sr"]
    assert "За сваку вредност „ниво“ изложите 2 реликвије те вредности из њене гомиле „Шпилови реликвија“" in said["sr"]


def test_the_diff_says_a_zone_is_split_by_its_column():
    official = pipeline.load_rules(str(ROOT / "rulespec" / "official.yaml"), SourceMap())
    changed = pipeline.load_rules(str(SPEC), SourceMap())
    text = render(compare(official, changed), official, changed, "en")
    assert text.count("one zone for each value of the column: level") == 2
    french = render(compare(official, changed), official, changed, "fr")
    assert french.count("une zone par valeur de la colonne : level") == 2


# --------------------------------------------------------------------------- the tools: each group apart


def test_play_the_web_table_the_rl_observation_and_the_bots_see_each_levels_zone(engine):
    from playtest import rl
    from playtest.bots.determinization import determinize
    from playtest.terminal.board import board_lines, full_view, plain
    from web.views import extras, full_state

    E = engine
    game = E.new_game(2, seed=7)
    counts = [len(d) for d in game.z_relic_decks]
    assert full_view(E, game)["zones"]["relic_decks"] == counts == full_state(game, E)["zones"]["relic_decks"]
    shown = plain(board_lines(E, game, ["a", "b"], None))
    assert "relic_decks[3]   1 piece, face down" in shown and "relic_rows[2]   1) level 2" in shown
    assert [z for z in extras(E)["zones"] if "groups" in z] == [
        {"name": "relic_decks", "kind": "relics", "shape": "pile", "per_player": False, "by": "level",
         "groups": [1, 2, 3]},
        {"name": "relic_rows", "kind": "relics", "shape": "display", "per_player": False, "by": "level",
         "groups": [1, 2, 3]},
    ]  # fmt: skip
    enc = rl.Encoder(E, 2)
    vector = enc.encode(game.observation(0), game.prestige)
    parts = {f.name: vector[f.start : f.stop].tolist() for f in enc.fields if "zone[relic" in f.name}
    assert [parts[f"zone[relic_decks[{g}]]"] for g in (1, 2, 3)] == [[float(n)] for n in counts]
    assert parts["zone[relic_rows[3]][2]"][:3] == [1.0, 0.0, 3.0]  # present, not hidden, its level
    for seed in range(3):
        guessed = determinize(game, 0, random.Random(seed), E)
        assert [len(d) for d in guessed.z_relic_decks] == counts and guessed.z_relic_rows == game.z_relic_rows
        assert all(_level(E, x) == g + 1 for g, deck in enumerate(guessed.z_relic_decks) for x in deck)
