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
from tests.helpers.engines import (
    ROOT,
    give_card,
    legal_strings,
    load,
    load_engine,
    official_engine,
    position,
    put_in_market,
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
    shutil.copy(SPECS / "card-abilities.csv", tmp_path / "card-abilities.csv")
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
    "old, new, code, line, caret, says",
    [
        (
            "      bonuses: {",
            "      _bonuses: {header: bonuses, ",
            "E546",
            29,
            "_bonuses",
            "its extra column '_bonuses' cannot be a field of the engines' Card",
        ),
        (
            "      bonuses: {",
            "      id: {header: bonuses, ",
            "E546",
            29,
            "id",
            "its extra column 'id' cannot be a field",
        ),
        ("      bonuses: {", "      class: {header: bonuses, ", "E546", 29, "class", "its extra column 'class' cannot"),
        (
            "take(card.bonus, card.bonuses)",
            "take(card.bonus, card.bonus_count)",
            "E403",
            47,
            "card.bonus_count",
            "a face-up card has no attribute 'bonus_count' (did you mean 'bonus'?) (it has: level, bonus, points, "
            "cost, ability, bonuses)",
        ),
        (
            "card.ability == 'relic'",
            "card.ability == 'relik'",
            "E412",
            53,
            "'relik'",
            "no card has the ability 'relik' (did you mean 'relic'?)",
        ),
        (
            "count(c.ability == 'scholar' for c in me.tableau)",
            "count(c.ability + 1 >= 2 for c in me.tableau)",
            "E410",
            46,
            "c.ability",
            "the left side of '+' must be a number, but this is a keyword of cards.ability",
        ),
    ],
)
def test_a_column_of_the_cards_is_checked_where_it_is_written(tmp_path, old, new, code, line, caret, says):
    renamed = new.split(":")[0].strip() if code == "E546" else "bonuses"  # its uses follow the column
    text = TEXT.replace(old, new).replace("card.bonuses", f"card.{renamed}")
    found = diagnostics(tmp_path, (TEXT, text))
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
    assert official_engine().Card._fields == ("id", "level", "bonus", "points", "cost")


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
            new = [a for a in legal if words[a] in ("study", "cash")]
            action = rng.choice(new) if new and rng.random() < 0.7 else rng.choice(legal)
            seen.add(words[action])
            game.apply(action)
        assert E.from_json(game.to_json()).to_json() == game.to_json()
    assert {"study", "cash"} <= seen


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
    result = CliRunner().invoke(cli.main, ["diff", "official", str(SPEC)])
    assert result.exit_code == 1
    assert (
        "after: level: number, bonus: gem, points: number, cost: gems, ability: keyword, bonuses: number"
        in result.output
    )
