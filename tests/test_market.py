"""A whole face-up row as a collection (`market[LEVEL]`): read in aggregates, walked by `for`
effects that bury and refill each card in place, typed and bounded (E514), phrased on sheets;
variants/fresh-rows.yaml, the catalogue's house rule built on it."""

from __future__ import annotations

import json

import pytest

from compiler.pipeline import load_rules
from compiler.sheets import content, render
from tests.helpers.engines import ROOT, act, find_cards, legal_strings, load, load_engine, position, put_in_market

ENGINES = ROOT / "generated" / "engines"


@pytest.fixture(scope="module")
def fresh():
    return load_engine(ENGINES / "fresh_rows.py")


def a_row_without_prestige(E, state: dict, level: int = 1) -> list[int]:
    cards = find_cards(E, state, 4, where="deck", level=level, points=0)
    for slot, card in enumerate(cards, 1):
        put_in_market(E, state, card, slot)
    return cards


def test_a_row_without_prestige_can_be_refreshed_whole(fresh):
    state = position(fresh, 2)
    row = a_row_without_prestige(fresh, state)
    top = state["decks"]["1"][:4]  # the saved deck lists its top first
    game = load(fresh, state)
    assert "refresh 1" in legal_strings(game)
    act(game, "refresh 1")
    after = json.loads(game.to_json())
    assert after["market"]["1"] == top  # laid out again from the top
    assert after["decks"]["1"][-4:] == row  # the old row at the bottom, in its order
    assert sorted(after["decks"]["1"] + after["market"]["1"]) == sorted(state["decks"]["1"] + row)


def test_a_row_with_prestige_or_a_short_deck_cannot(fresh):
    state = position(fresh, 2)
    a_row_without_prestige(fresh, state)
    worth = find_cards(fresh, state, 1, where="deck", level=1, points=1)[0]
    put_in_market(fresh, state, worth, 2)
    assert "refresh 1" not in legal_strings(load(fresh, state))
    state = position(fresh, 2)
    a_row_without_prestige(fresh, state)
    state["seats"][1]["purchased"] += state["decks"]["1"][3:]  # three cards left in the deck
    state["decks"]["1"] = state["decks"]["1"][:3]
    assert "refresh 1" not in legal_strings(load(fresh, state))


def test_the_official_engine_has_no_refresh(fresh):
    official = load_engine(ENGINES / "official.py")
    assert not any(s.startswith("refresh") for s in legal_strings(official.new_game(2, seed=1)))


def test_the_sheets_phrase_a_whole_row_in_four_languages():
    rules = load_rules(str(ROOT / "variants" / "fresh-rows.yaml"))
    base = load_rules(rules.bases[0].path)
    for lang, words in (
        ("en", "For each face-up card of any level, put that card at the bottom of its deck"),
        ("fr", "Pour chaque carte face visible d'un niveau, placez cette carte sous sa pioche"),
        ("nl", "Voor elke open kaart van een niveau: leg die kaart onder"),
        ("sr", "За сваку отворену карту једног нивоа: ставите ту карту на дно"),
    ):
        assert words in render.markdown(content.build(rules, lang, base), rules), lang


def test_a_row_at_no_level_is_e514(tmp_path):
    from compiler.diagnostics import CompileError, SourceMap

    for name in ("splendor_cards.csv", "splendor_nobles.csv"):
        (tmp_path / name).write_text((ROOT / "rulespec" / name).read_text(encoding="utf-8"), encoding="utf-8")
    text = (ROOT / "variants" / "fresh-rows.yaml").read_text(encoding="utf-8")
    (tmp_path / "wrong.yaml").write_text(
        text.replace("name: fresh-rows", "name: wrong").replace("card in market[level]:", "card in market[level + 3]:"),
        encoding="utf-8",
    )
    with pytest.raises(CompileError) as err:
        load_rules(str(tmp_path / "wrong.yaml"), SourceMap())
    [d] = err.value.diagnostics
    assert d.code == "E514" and "market[level + 3]" in d.message and "levels run 1 to 3" in d.message
