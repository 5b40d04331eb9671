"""Columns of its own on the base game's cards (issue 28 item 2): a spec declaring `kinds: cards` may
add typed columns (an ability keyword, a number), read wherever a card is.

Spec -> diagnostics (a column the engines cannot name, an unknown column, a keyword no card has:
each located), spec -> engine behaviour on tests/specs/card-abilities.yaml (the record `Card` and
the rules read the columns of a face-up card, a reserved card and the cards of a player's purchased
cards; the official engine is unchanged: tests/test_engine_fingerprints.py), and spec -> sheet and
diff text."""

from __future__ import annotations

import json
import pathlib
import random
import shutil

import pytest
from click.testing import CliRunner

from app import cli
from compiler import pipeline
from compiler.diagnostics import CompileError, SourceMap
from compiler.emit import counted
from compiler.emit.runtime import engine_text
from tests.helpers.engines import (
    ROOT,
    finish_forced_steps,
    give_card,
    give_tokens,
    legal_strings,
    load,
    load_engine,
    official_engine,
    position,
    put_in_market,
    set_noble_row,
    set_reserved,
)

SPECS = ROOT / "tests" / "specs"
SPEC = SPECS / "card-abilities.yaml"
TEXT = SPEC.read_text(encoding="utf-8")
# The test table's cards by ability (ids: level 1 is 0-7, level 2 is 8-15, level 3 is 16-23).
SCHOLARS, RELICS, DOUBLES = (1, 6, 10, 21), (3, 12, 17), (4, 9, 14, 19)


@pytest.fixture(scope="module")
def engine(tmp_path_factory):
    path = tmp_path_factory.mktemp("card_abilities") / "card_abilities.py"
    path.write_text(pipeline.compile_spec(str(SPEC)).text, encoding="utf-8")
    return load_engine(path)


def diagnostics(tmp_path: pathlib.Path, *changes: tuple[str, str]):
    """The diagnostics of the test spec with `changes` made: (code, line, message, the text under the caret)."""
    text = TEXT
    for old, new in changes:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    path = tmp_path / "spec.yaml"
    path.write_text(text, encoding="utf-8")
    for table in ("card-abilities.csv", "card-abilities-nobles.csv"):
        shutil.copy(SPECS / table, tmp_path / table)
    lines = text.split("\n")
    try:
        pipeline.load_rules(str(path), SourceMap())
    except CompileError as err:
        return [
            (d.code, d.span.line, d.message, lines[d.span.line - 1][d.span.col - 1 : d.span.end_col - 1])
            for d in err.diagnostics
        ]
    return []


# --------------------------------------------------------------------------- spec -> diagnostics


@pytest.mark.parametrize(
    "old, new, code, caret, says",
    [
        (
            "      bonuses: {",
            "      _bonuses: {header: bonuses, ",
            "E546",
            "_bonuses",
            "its extra column '_bonuses' cannot be a field of the engines' Card",
        ),
        (
            "      bonuses: {",
            "      id: {header: bonuses, ",
            "E546",
            "id",
            "its extra column 'id' cannot be a field",
        ),
        ("      bonuses: {", "      class: {header: bonuses, ", "E546", "class", "its extra column 'class' cannot"),
        (
            "take(card.bonus, card.bonuses)",
            "take(card.bonus, card.bonus_count)",
            "E403",
            "card.bonus_count",
            "a face-up card has no attribute 'bonus_count' (did you mean 'bonus'?) (it has: level, bonus, points, "
            "cost, ability, bonuses)",
        ),
        (
            "card.ability == 'relic'",
            "card.ability == 'relik'",
            "E412",
            "'relik'",
            "no card has the ability 'relik' (did you mean 'relic'?)",
        ),
        (
            "count(c.ability == 'scholar' for c in me.tableau)",
            "count(c.ability + 1 >= 2 for c in me.tableau)",
            "E410",
            "c.ability",
            "the left side of '+' must be a number, but this is a keyword of cards.ability",
        ),
        (
            "    bonus_count: bonuses  #",
            "    bonus_count: ability  #",
            "E122",
            "ability",
            "'bonus_count' must name a number column, and 'ability' is a keyword",
        ),
        (
            "    bonus_count: bonuses  #",
            "    bonus_count: bonus_total  #",
            "E122",
            "bonus_total",
            "'bonus_count' names no column of kind 'cards': 'bonus_total'",
        ),
        (
            "    table: card-abilities-nobles.csv\n",
            "    table: card-abilities-nobles.csv\n    bonus_count: points\n",
            "E122",
            "points",
            "'bonus_count' applies to the base kind 'cards' only, not to 'nobles'",
        ),
    ],
)
def test_a_column_of_the_cards_is_checked_where_it_is_written(tmp_path, old, new, code, caret, says):
    renamed = new.split(":")[0].strip() if code == "E546" else "bonuses"  # its uses follow the column
    text = TEXT.replace(old, new).replace("card.bonuses", f"card.{renamed}")
    text = text.replace("bonus_count: bonuses", f"bonus_count: {renamed}") if code == "E546" else text
    found = diagnostics(tmp_path, (TEXT, text))
    line = text[: text.index(new) + new.index(caret)].count("\n") + 1  # the caret's line, in the text changed
    assert len(found) == 1, found
    ((got, at, message, under),) = found
    assert (got, at, under) == (code, line, caret) and says in message, found


def test_the_test_spec_checks_clean_with_its_columns_typed():
    rules = pipeline.load_rules(str(SPEC), SourceMap())
    [cards] = [k for k in rules.kinds if k.name == "cards"]
    assert [(c.name, str(c.type)) for c in cards.columns][4:] == [("ability", "keyword"), ("bonuses", "number")]
    assert [cards.value(c, "ability") for c in cards.components if cards.value(c, "bonuses") == 2] == ["double"] * 4


# --------------------------------------------------------------------------- spec -> engine


def test_the_engines_card_carries_the_columns_and_the_officials_does_not(engine):
    E = engine
    assert E.Card._fields == ("id", "level", "bonus", "points", "cost", "ability", "bonuses")
    assert [c.id for c in E.CARDS if c.ability == "scholar"] == list(SCHOLARS)
    assert [c.id for c in E.CARDS if c.bonuses == 2] == list(DOUBLES)
    assert E.Noble._fields == ("id", "points", "requires", "favour") and E._nx_favour[0] == E.COLOURS.index("white")
    assert official_engine().Card._fields == ("id", "level", "bonus", "points", "cost")
    assert official_engine().Noble._fields == ("id", "points", "requires")


def _offered(game, word: str) -> list[str]:
    return [s for s in legal_strings(game) if s.startswith(word)]


def test_a_face_up_scholar_is_studied_by_a_player_who_owns_one(engine):
    E = engine
    state = position(E, 2)
    put_in_market(E, state, SCHOLARS[0], 1)  # a scholar at level 1, slot 1
    put_in_market(E, state, DOUBLES[1], 2)  # no scholar at level 2, slot 2
    assert not _offered(load(E, state), "study 1.1")  # owns no scholar yet
    give_card(E, state, 0, SCHOLARS[2])
    game = load(E, state)
    studied = [s for s in _offered(game, "study") if E.CARDS[_face_up(game, s)].ability != "scholar"]
    assert "study 1.1" in _offered(game, "study") and not studied
    colour = E.CARDS[SCHOLARS[0]].bonus
    before = game.supply[E.COLOURS.index(colour)]
    game.apply(E.string_to_action("study 1.1"))
    assert game.supply[E.COLOURS.index(colour)] == before - E.CARDS[SCHOLARS[0]].bonuses


def _face_up(game, text: str) -> int:
    level, slot = (int(x) for x in text.split()[1].split("."))
    return game.market[level - 1][slot - 1]


def test_a_reserved_relic_is_cashed_in_and_goes_under_its_deck(engine):
    E = engine
    state = position(E, 2)
    set_reserved(E, state, 0, [SCHOLARS[1], RELICS[1]])
    game = load(E, state)
    assert _offered(game, "cash") == ["cash 2"]  # the relic only
    game.apply(E.string_to_action("cash 2"))
    saved = json.loads(game.to_json())
    assert saved["seats"][0]["reserved"] == [SCHOLARS[1]] and saved["decks"]["2"][-1] == RELICS[1]
    assert saved["seats"][0]["tokens"]["gold"] == 1
    assert E.from_json(game.to_json()).to_json() == game.to_json()


def test_random_games_use_the_abilities_and_reload(engine):
    E = engine
    seen: set[str] = set()
    for seed in range(3):
        game = E.new_game(2 + seed, seed=seed)
        rng = random.Random(seed)
        while not game.is_over():
            legal = game.legal_actions()
            words = {a: E.action_to_string(a).split()[0] for a in legal}
            new = [a for a in legal if words[a] in ("study", "cash", "retire")]
            action = rng.choice(new) if new and rng.random() < 0.7 else rng.choice(legal)
            seen.add(words[action])
            game.apply(action)
            for p in range(game.num_players):  # every bonus a card gives, kept as cards come and go
                given = [sum(E.CARDS[c].bonuses for c in game._bought[p] if E.CARDS[c].bonus == g) for g in E.GEMS]
                assert list(game._bon[p]) == given
        assert E.from_json(game.to_json()).to_json() == game.to_json()
    assert {"study", "cash", "retire"} <= seen


def _bonus(E, game, seat: int, card: int) -> int:
    return game._bon[seat][E.GEMS.index(E.CARDS[card].bonus)]


def test_a_double_card_gives_two_bonuses_however_it_comes_and_goes(engine):
    E = engine
    white, red = DOUBLES[0], DOUBLES[1]  # a white double at level 1, a red one at level 2
    state = position(E, 2)
    give_card(E, state, 0, white)
    put_in_market(E, state, red, 1)
    # the red double costs 3 white, 2 blue, 2 black: two white bonuses leave 1 white to pay
    give_tokens(state, 0, white=1, blue=2, black=2)
    game = load(E, state)
    assert _bonus(E, game, 0, white) == 2  # counted as a saved game is loaded
    assert "buy 2.1" in legal_strings(game)  # the price counts both white bonuses
    game.apply(E.string_to_action("buy 2.1"))
    finish_forced_steps(game, 0)
    assert _bonus(E, game, 0, red) == 2 and list(game.tokens[0]) == [0] * len(E.COLOURS)
    while game.current_player != 0:
        game.apply(next(a for a in game.legal_actions() if E.action_to_string(a).startswith("take")))
        finish_forced_steps(game, game.current_player)
    retire = [s for s in legal_strings(game) if s.startswith("retire")]
    assert len(retire) == 2  # both doubles may be retired
    game.apply(E.string_to_action(retire[0]))  # the white one, bought first
    assert _bonus(E, game, 0, white) == 0 and _bonus(E, game, 0, red) == 2
    assert E.from_json(game.to_json()).to_json() == game.to_json()


def test_a_noble_counts_a_double_cards_two_bonuses_and_brings_its_favour(engine):
    E = engine
    state = position(E, 2)
    set_noble_row(state, [0, 4, 5])  # noble 0 asks 4 white and 4 blue
    assert E.NOBLES[0].requires[:2] == (4, 4) and not any(E.NOBLES[0].requires[2:])
    singles = [c.id for c in E.CARDS if c.bonuses == 1 and c.bonus in ("white", "blue")]
    whites = [c for c in singles if E.CARDS[c].bonus == "white"][:2]
    blues = [c for c in singles if E.CARDS[c].bonus == "blue"][:2]
    give_card(E, state, 0, DOUBLES[0], DOUBLES[3], *whites, *blues)  # 2 + 2 white, 2 + 2 blue bonuses
    game = load(E, state)
    assert list(game._bon[0][:2]) == [4, 4]
    game.apply(E.string_to_action("take green red black"))
    finish_forced_steps(game, 0)
    assert 0 in game._nob[0]
    assert E.NOBLES[0].favour == "white" and game.tokens[0][E.COLOURS.index("white")] == 1  # the noble's favour


# --------------------------------------------------------------------------- spec -> sheets, diff, tools


def _invoke(*args: str) -> str:
    result = CliRunner().invoke(cli.main, list(args))
    assert result.exit_code == 0, result.output
    return result.output


def test_the_sheets_and_the_diff_phrase_the_columns(tmp_path):
    _invoke("sheet", str(SPEC), "--lang", "en,fr,nl,sr", "--format", "md", "-o", str(tmp_path))
    said = {
        lang: (tmp_path / f"card-abilities.{lang}.md").read_text(encoding="utf-8") for lang in ("en", "fr", "nl", "sr")
    }
    assert "the “ability” of the chosen card is ‘scholar’" in said["en"]
    assert "as many tokens of the bonus colour of the chosen card as the “bonuses” of the chosen card" in said["en"]
    assert "la valeur « pouvoir » de la carte choisie est « scholar »" in said["fr"]
    assert "de ‘vermogen’ van de gekozen kaart ‘scholar’ is" in said["nl"]
    assert "вредност „моћ“ изабране карте јесте „scholar“" in said["sr"]
    assert "Each development card gives as many bonuses of its colour as its “bonuses” shows" in said["en"]
    assert "donne autant de bonus de sa couleur que l'indique sa valeur « bonus »" in said["fr"]
    assert "geeft zoveel bonussen van haar kleur als haar ‘bonussen’ aangeeft" in said["nl"]
    assert "даје онолико бонуса своје боје колико показује њен број „бонуси“" in said["sr"]
    result = CliRunner().invoke(cli.main, ["diff", "official", str(SPEC)])
    assert result.exit_code == 1
    assert (
        "after: level: number, bonus: gem, points: number, cost: gems, ability: keyword, bonuses: number"
        in result.output
    )
    assert "bonuses each card gives (its column)\n      before: none" in result.output
    assert "after: points: number, requires: gems, favour: gem" in result.output
    assert "take 1 token of the “favour” of the chosen noble if any is left" in said["en"]


def test_the_runtime_counts_a_cards_bonus_where_the_rewrite_expects_it():
    """compiler/emit/counted.py rewrites each runtime statement counting a card's bonus, and says so
    when the runtime no longer has them (never a count silently left at one)."""
    for module, sites in counted.SITES.items():
        text = engine_text(module)
        rewritten = counted.counted(module, text, "_cx_bonuses")
        assert rewritten.count("_cx_bonuses[") == sites and counted.counted(module, text, "") == text
    with pytest.raises(counted.CountedError):
        counted.counted("state", "x = 1\n", "_cx_bonuses")
