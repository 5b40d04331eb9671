"""An optional face-up choice (`{domain: face_up, optional: true}`, issue 28 item 2, built for The
Strongholds' conquest and the stronghold moved from another card): spec -> diagnostics (E410 where `none` is read before a test), spec -> engine
(every occupied slot, then `none` as the last id; the notation's optional part; an effect under
`card != none`; a payment whose price reads the card after the test) on small specs written here
from the catalogue's clean base; and a queued step written first among the end-of-turn steps."""

from __future__ import annotations

import json
import pathlib
import shutil

import pytest

from compiler import pipeline
from compiler.diagnostics import CompileError, SourceMap
from tests.helpers import ROOT
from tests.helpers.engines import act, find_cards, legal_strings, load, load_engine, pay_for, position, put_in_market

CLEAN = (ROOT / "tests" / "broken" / "_clean.yaml").read_text(encoding="utf-8").replace("../../rulespec/", "")
STEPS_END = "      - visit(noble)\nend:\n"
# a step after the noble visit: buy a face-up card of level 1 for free, or none
FREE_CARD = (
    "  free_card:\n    title: A free card\n    notation: free [{card}]\n"
    "    choose:\n      card: {domain: face_up, optional: true}\n"
    "    condition: card == none or card.level == 1\n"
    '    effects: ["if card != none: acquire(card); refill(card)"]\n'
)


@pytest.fixture
def folder(tmp_path: pathlib.Path) -> pathlib.Path:
    for name in ("splendor_cards.csv", "splendor_nobles.csv"):
        shutil.copy(ROOT / "rulespec" / name, tmp_path / name)
    return tmp_path


def spec_text(step: str = FREE_CARD, *changes: tuple[str, str]) -> str:
    text = CLEAN.replace(STEPS_END, "      - visit(noble)\n" + step + "end:\n")
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


def test_an_optional_face_up_choice_checks(folder):
    assert found(folder, spec_text()) == []


def test_an_optional_face_up_card_is_read_only_after_a_test(folder):
    unguarded = spec_text(FREE_CARD, ("card == none or card.level == 1", "card.level == 1"))
    assert ("E410", "card") in found(folder, unguarded)


# -- spec -> engine


def test_none_is_the_last_id_and_the_notation_leaves_the_card_out(folder):
    E = engine(folder, spec_text(), "free_card")
    state = position(E, 2)
    game = load(E, state)
    act(game, "take white blue green")
    assert game.phase == "free_card"
    legal = legal_strings(game)
    assert legal == [f"free 1.{slot}" for slot in range(1, 5)] + ["free"]
    assert game.legal_actions()[-1] == E.string_to_action("free")
    act(game, "free")  # none: nothing bought
    assert json.loads(game.to_json())["seats"][0]["purchased"] == []


def test_a_chosen_card_is_moved_under_the_test(folder):
    E = engine(folder, spec_text(), "free_card")
    state = position(E, 2)
    wanted = state["market"]["1"][2]
    game = load(E, state)
    act(game, "take white blue green")
    act(game, "free 1.3")
    after = json.loads(game.to_json())
    assert after["seats"][0]["purchased"] == [wanted] and after["market"]["1"][2] not in (None, wanted)


def test_a_payment_reads_the_card_after_the_test(folder):
    paid = FREE_CARD.replace(
        "      card: {domain: face_up, optional: true}\n",
        "      card: {domain: face_up, optional: true}\n"
        '      payment: {domain: payment, price: "if card != none then card.cost[c] else 0"}\n',
    ).replace("free [{card}]", "free [{card}] {payment}")
    paid = paid.replace("if card != none: acquire(card)", "if card != none: pay(payment); acquire(card)")
    E = engine(folder, spec_text(paid), "paid_card")
    state = position(E, 2)
    card = find_cards(E, state, 1, where="deck", level=1, cost=lambda cost: sum(cost.values()) <= 3)[0]
    put_in_market(E, state, card, 1)
    pay_for(E, state, 0, card)
    tokens = sum(state["seats"][0]["tokens"].values())
    game = load(E, state)
    act(game, "reserve 3.1")  # one gold more
    assert legal_strings(game)[0] == "free 1.1" and legal_strings(game)[-1] == "free"
    act(game, "free 1.1")
    while game.phase == "payment":
        game.apply(game.legal_actions()[0])
    after = json.loads(game.to_json())
    assert card in after["seats"][0]["purchased"]
    assert sum(after["seats"][0]["tokens"].values()) == tokens + 1 - sum(E.CARD_COST[card])


def test_the_illegal_choice_of_an_empty_slot_is_explained(folder):
    E = engine(folder, spec_text(), "free_card")
    state = position(E, 2)
    state["seats"][1]["purchased"].append(state["market"]["1"][1])
    state["market"]["1"][1] = None
    game = load(E, state)
    act(game, "take white blue green")
    assert "free 1.2" not in legal_strings(game)
    with pytest.raises(E.IllegalAction, match="no face-up card at 1.2"):
        game.apply(E.string_to_action("free 1.2"))


def test_a_queued_step_written_first_runs_when_queued_and_the_turns_steps_still_run(folder):
    queued = FREE_CARD.replace("    notation:", "    given: {level: number}\n    notation:").replace(
        "card == none or card.level == 1", "card == none or card.level == level"
    )
    text = spec_text(
        "",
        ("  return_tokens:\n", queued + "  return_tokens:\n"),
        ("      - reserve(card)\n", '      - "queue(free_card, level: card.level)"\n      - reserve(card)\n'),
    )
    E = engine(folder, text, "first_queued")
    state = position(E, 2)
    for colour in ("white", "blue", "green", "red"):  # 8 tokens: the reserve's gold and 2 more go over 10
        state["seats"][0]["tokens"][colour] += 2
        state["supply"][colour] -= 2
    state["seats"][0]["tokens"]["black"] += 2
    state["supply"]["black"] -= 2
    game = load(E, state)
    act(game, "take white blue green")  # not queued: the token limit still asks
    assert game.phase == "return_tokens"
    game = load(E, position(E, 2))
    act(game, "reserve 2.1")
    assert game.phase == "free_card" and legal_strings(game)[0] == "free 2.1"
