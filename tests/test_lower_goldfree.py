"""The likeliest payments first (compiler/lower/goldfree.py, issue 29 item 7): tests on a payment
with the payment without gold and the one with the least gold written in, and engines whose legal
scans take those shortcuts agreeing with the plain test of every action over random games."""

from __future__ import annotations

import ast

from compiler import pipeline
from compiler.lower.goldfree import hold_without_gold, least_gold, written_in
from compiler.lower.printer import render
from tests.helpers import ROOT
from tests.helpers.engines import load_engine
from tests.helpers.specs import check_games, engine_from_text

PRICES = [ast.Name(f"_p{gi}") for gi in range(5)]
# all(payment.gold[c] == 0 or payment.spent[c] == me.tokens[c] for c in gems), as the lowering compiles it
SHORTFALL_ONLY = ast.parse(
    " and ".join(f"(p_pay_GOLD[{gi}] == 0 or p_pay_SPENT[{gi}] == t{gi})" for gi in range(5)), mode="eval"
).body


def e(text: str) -> ast.expr:
    return ast.parse(text, mode="eval").body


def test_the_payment_without_gold_is_written_in_as_constants_and_the_prices():
    assert ast.unparse(written_in(e("p_pay_SPENT[1] >= p_pay_GOLD[1] + 2"), "p_pay", [e("0")] * 5, PRICES, e("0"))) == (
        "_p1 >= 2"
    )
    assert hold_without_gold([SHORTFALL_ONLY], "p_pay", PRICES)
    assert hold_without_gold([e("p_pay_GT <= 1")], "p_pay", PRICES)
    assert not hold_without_gold([e("p_pay_GT >= 1")], "p_pay", PRICES)  # the tests ask for gold
    assert not hold_without_gold([e("p_pay_SPENT[0] == t0")], "p_pay", PRICES)  # not known now
    assert not hold_without_gold([e("p_pay_COVERS[0] == 0")], "p_pay", PRICES)  # read in a way not written in


def test_the_payment_with_the_least_gold_is_written_out_on_locals():
    assigns, test = least_gold([e("p_pay_GT != 1"), e("p_pay_GOLD[2] == 0 or p_pay_SPENT[2] == t2")], "p_pay", 5)
    assert render(assigns).splitlines()[:2] == [
        "_lg0 = _p0 - t0 if _p0 > t0 else 0",
        "_lg1 = _p1 - t1 if _p1 > t1 else 0",
    ]
    assert ast.unparse(test) == "_lg0 + _lg1 + _lg2 + _lg3 + _lg4 != 1 and (_lg2 == 0 or _p2 - _lg2 == t2)"
    assert least_gold([e("p_pay_COVERS[0] == 0")], "p_pay", 5) is None
    assert least_gold([e("p_pay == 3")], "p_pay", 5) is None  # the payment's index


def _scan(text: str) -> str:
    """The action phase's legal function of an engine's text."""
    start = text.index("def _action_phase_legal")
    return text[start : text.index("\ndef ", start + 1)]


def test_gold_for_the_shortfall_scans_as_the_official_rules_do():
    """The payment with the least gold always meets its tests (compiler/lower/cases.py): a card is
    legal when the player can pay, the search is left to the payment step, and the scan is the
    official one's, slot by slot."""
    scan = _scan(pipeline.compile_spec(str(ROOT / "variants" / "gold-for-shortfall.yaml")).text)
    assert "_payments(" not in scan and "# the tokens fall short" not in scan
    official = _scan((ROOT / "generated" / "engines" / "official.py").read_text(encoding="utf-8"))
    assert (
        scan.replace("variants/gold-for-shortfall.yaml:18", "rulespec/official.yaml:135").replace(
            "variants/gold-for-shortfall.yaml:31", "rulespec/official.yaml:159"
        )
        == official
    )


def test_gold_for_the_shortfall_plays_as_its_plain_tests_say():
    engine = load_engine(ROOT / "generated" / "engines" / "gold_for_shortfall.py")
    assert check_games(engine, games=4, seed=29) > 100


def test_a_test_the_least_gold_fails_still_finds_the_other_payments(tmp_path):
    # Never exactly one gold: with one gold short the least payment fails, one with two gold passes.
    text = (ROOT / "variants" / "gold-for-shortfall.yaml").read_text(encoding="utf-8")
    text = text.replace("name: gold-for-shortfall", "name: never-one-gold")
    text = text.replace(
        'condition: "all(payment.gold[c] == 0 or payment.spent[c] == me.tokens[c] for c in gems)"',
        'condition: "payment.gold_total != 1"',
    )
    spec = tmp_path / "never-one-gold.yaml"
    spec.write_text(text, encoding="utf-8")
    engine_text = pipeline.compile_spec(str(spec)).text
    scan = _scan(engine_text)
    assert "# the tokens fall short" in scan and "_lg0 + _lg1" in scan
    engine = engine_from_text(tmp_path / "never_one_gold.py", engine_text)
    assert check_games(engine, games=6, seed=7) > 100


def test_no_shortcut_when_the_payment_must_hold_gold(tmp_path):
    text = (ROOT / "variants" / "gold-for-shortfall.yaml").read_text(encoding="utf-8")
    text = text.replace("name: gold-for-shortfall", "name: gold-only")
    text = text.replace(
        'condition: "all(payment.gold[c] == 0 or payment.spent[c] == me.tokens[c] for c in gems)"',
        'condition: "payment.gold_total >= 1"',
    )
    spec = tmp_path / "gold-only.yaml"
    spec.write_text(text, encoding="utf-8")
    engine_text = pipeline.compile_spec(str(spec)).text
    assert "# the tokens fall short" not in _scan(engine_text)
    engine = engine_from_text(tmp_path / "gold_only.py", engine_text)
    assert check_games(engine, games=4, seed=3) > 50
