"""`optional: true` on every domain that can have no value (issue 28 item 2): a deck, a reserved
card and a noble, besides the colours, face-up cards and components that had it. Spec ->
diagnostics (E111 on a set or a payment, E410 where `none` is read before a test), spec -> engine
(every place, then `none` as the last id; the notation's optional part; the effect under its
test; a place that is empty explained), spec -> sheet text (the choice says it may be none), on
small specs written from the catalogue's clean base."""

from __future__ import annotations

import json
import pathlib
import shutil

import pytest

from compiler import pipeline
from compiler.diagnostics import CompileError, SourceMap
from tests.helpers import ROOT
from tests.helpers.engines import act, find_cards, legal_strings, load, load_engine, pay_for, position, put_in_market
from tests.helpers.sheets import phrase_text

CLEAN = (ROOT / "tests" / "broken" / "_clean.yaml").read_text(encoding="utf-8").replace("../../rulespec/", "")

# A noble that may be declined: `noble` lets every qualifying noble pass.
NOBLE = (
    "    notation: noble {noble}\n    choose:\n      noble: {domain: noble}\n"
    "    condition: all(me.bonus[c] >= noble.requires[c] for c in gems)\n    effects:\n      - visit(noble)\n",
    "    notation: noble [{noble}]\n    choose:\n      noble: {domain: noble, optional: true}\n"
    "    condition: noble == none or all(me.bonus[c] >= noble.requires[c] for c in gems)\n"
    '    effects:\n      - "if noble != none: visit(noble)"\n',
)
# A reserved card bought, or none: the action then does nothing but end the turn.
RESERVED = (
    "    notation: buy reserved {card} {payment}\n    choose:\n"
    "      card: {domain: reserved, slots: reserve_limit}\n"
    '      payment: {domain: payment, price: "max(0, card.cost[c] - me.bonus[c])"}\n'
    "    effects:\n      - pay(payment)\n      - acquire(card)\n",
    "    notation: buy reserved [{card}] {payment}\n    choose:\n"
    "      card: {domain: reserved, slots: reserve_limit, optional: true}\n"
    '      payment: {domain: payment, price: "if card != none then max(0, card.cost[c] - me.bonus[c]) else 0"}\n'
    '    effects:\n      - "if card != none: pay(payment); acquire(card)"\n',
)
# A blind reserve from a deck, or from none (the gold alone).
DECK = (
    "  pass:\n",
    "  reserve_deck:\n    title: Reserve from a deck\n    notation: blind [{level}]\n    choose:\n"
    "      level: {domain: deck, optional: true}\n"
    "    condition: me.reserved < reserve_limit and (level == none or deck[level] >= 1)\n"
    '    effects:\n      - "if level != none: reserve_top(level)"\n'
    '      - "if supply[gold] >= 1: take(gold, 1)"\n'
    "  pass:\n",
)


@pytest.fixture
def folder(tmp_path: pathlib.Path) -> pathlib.Path:
    for name in ("splendor_cards.csv", "splendor_nobles.csv"):
        shutil.copy(ROOT / "rulespec" / name, tmp_path / name)
    return tmp_path


def spec_text(*changes: tuple[str, str]) -> str:
    text = CLEAN
    for old, new in changes:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    return text


def found(folder: pathlib.Path, text: str) -> list[tuple[str, str]]:
    """(code, the text under the caret) of each diagnostic of `text`; [] when it is clean."""
    (folder / "spec.yaml").write_text(text, encoding="utf-8")
    lines = text.split("\n")
    try:
        pipeline.load_rules(str(folder / "spec.yaml"), SourceMap())
    except CompileError as err:
        return [(d.code, lines[d.span.line - 1][d.span.col - 1 : d.span.end_col - 1]) for d in err.diagnostics]
    return []


def engine(folder: pathlib.Path, text: str, name: str):
    (folder / f"{name}.yaml").write_text(text, encoding="utf-8")
    path = folder / f"{name}.py"
    path.write_text(pipeline.compile_spec(str(folder / f"{name}.yaml")).text, encoding="utf-8")
    return load_engine(path)


# -- spec -> diagnostics


@pytest.mark.parametrize("change", [NOBLE, RESERVED, DECK], ids=["noble", "reserved", "deck"])
def test_an_optional_choice_of_each_domain_checks(folder, change):
    assert found(folder, spec_text(change)) == []


@pytest.mark.parametrize(
    "change, unguarded, name",
    [
        (NOBLE, ("noble == none or all(", "all("), "noble"),
        (DECK, ("(level == none or deck[level] >= 1)", "deck[level] >= 1"), "level"),
        (RESERVED, ('"if card != none: pay(payment); acquire(card)"', "acquire(card)"), "card"),
    ],
    ids=["noble", "deck", "reserved"],
)
def test_an_optional_choice_is_read_only_after_a_test(folder, change, unguarded, name):
    assert ("E410", name) in found(folder, spec_text(change, unguarded))


@pytest.mark.parametrize(
    "old, new",
    [
        (
            "      picked: {domain: gem_set, min: 1, max: 3}",
            "      picked: {domain: gem_set, min: 1, max: 3, optional: true}",
        ),
        (
            '      payment: {domain: payment, price: "max(0, card.cost[c] - me.bonus[c])"}\n    effects:\n'
            "      - pay(payment)\n      - acquire(card)\n      - refill(card)",
            '      payment: {domain: payment, price: "max(0, card.cost[c] - me.bonus[c])", optional: true}\n'
            "    effects:\n      - pay(payment)\n      - acquire(card)\n      - refill(card)",
        ),
    ],
    ids=["gem_set", "payment"],
)
def test_optional_stays_refused_on_a_set_and_a_payment(folder, old, new):
    diagnostics = found(folder, spec_text((old, new)))
    assert [code for code, _ in diagnostics] == ["E111"]
    assert diagnostics[0][1] == "optional"


# -- spec -> engine


def qualifying(E, state: dict, seat: int = 0) -> None:
    """Seat `seat` holds the bonuses the first noble of the row requires."""
    noble = state["nobles"][0]
    needs = E.NOBLES[noble].requires
    for g, n in enumerate(needs):
        for card in find_cards(E, state, n, where="deck", bonus=E.GEMS[g]) if n else []:
            state["decks"][str(E.CARDS[card].level)].remove(card)
            state["seats"][seat]["purchased"].append(card)


def test_a_noble_may_be_declined_and_none_is_the_last_id(folder):
    E = engine(folder, spec_text(NOBLE), "noble")
    state = position(E, 2)
    qualifying(E, state)
    game = load(E, state)
    act(game, "take white blue green")
    assert game.phase == "noble_visit"
    assert legal_strings(game)[-1] == "noble" and "noble 1" in legal_strings(game)
    assert game.legal_actions()[-1] == E.string_to_action("noble")
    act(game, "noble")
    after = json.loads(game.to_json())
    assert after["seats"][0]["nobles"] == [] and len(after["nobles"]) == len(state["nobles"])


def test_a_noble_chosen_visits(folder):
    E = engine(folder, spec_text(NOBLE), "noble")
    state = position(E, 2)
    qualifying(E, state)
    first = state["nobles"][0]
    game = load(E, state)
    act(game, "take white blue green")
    act(game, "noble 1")
    assert json.loads(game.to_json())["seats"][0]["nobles"] == [first]


def test_none_buys_no_reserved_card_and_a_chosen_one_is_paid(folder):
    E = engine(folder, spec_text(RESERVED), "reserved")
    state = position(E, 2)
    card = find_cards(E, state, 1, where="deck", level=1, cost=lambda cost: sum(cost.values()) <= 3)[0]
    put_in_market(E, state, card, 1)
    pay_for(E, state, 0, card)
    game = load(E, state)
    act(game, "reserve 1.1")
    act(game, "take white blue green")  # the other seat
    assert "buy reserved 1" in legal_strings(game) and "buy reserved" in legal_strings(game)
    tokens = json.loads(game.to_json())["seats"][0]["tokens"]
    act(game, "buy reserved")
    after = json.loads(game.to_json())["seats"][0]
    assert after["reserved"] == [card] and after["tokens"] == tokens and after["purchased"] == []


def test_a_reserved_card_that_is_not_there_is_explained(folder):
    E = engine(folder, spec_text(RESERVED), "reserved")
    game = load(E, position(E, 2))
    assert "buy reserved 1" not in legal_strings(game)
    with pytest.raises(E.IllegalAction, match="no reserved card 1"):
        game.apply(E.string_to_action("buy reserved 1"))


def test_a_blind_reserve_from_no_deck_takes_the_gold_alone(folder):
    E = engine(folder, spec_text(DECK), "deck")
    state = position(E, 2)
    state["out_of_play"] = {"2": state["decks"]["2"]}  # level 2's deck is empty: not offered, none still is
    state["decks"]["2"] = []
    game = load(E, state)
    legal = legal_strings(game)
    assert "blind 1" in legal and "blind 3" in legal and "blind 2" not in legal and "blind" in legal
    act(game, "blind")
    after = json.loads(game.to_json())["seats"][0]
    assert after["reserved"] == [] and after["tokens"]["gold"] == 1


def test_a_blind_reserve_from_a_deck_takes_its_top_card(folder):
    E = engine(folder, spec_text(DECK), "deck")
    state = position(E, 2)
    top = state["decks"]["3"][0]
    game = load(E, state)
    act(game, "blind 3")
    assert json.loads(game.to_json())["seats"][0]["reserved"] == [top]


# -- spec -> sheet text


def test_the_sheet_says_each_choice_may_be_none(folder):
    text = spec_text(NOBLE, RESERVED, DECK)
    (folder / "optional.yaml").write_text(text, encoding="utf-8")
    sheets = {lang: phrase_text(str(folder / "optional.yaml"), lang) for lang in ("en", "fr", "nl", "sr")}
    marks = {"en": "(or none)", "fr": "(facultatif)", "nl": "(of geen)", "sr": "(или ништа)"}
    assert {lang: sheets[lang].count(marks[lang]) for lang in sheets} == {lang: 3 for lang in sheets}
