"""A last choice whose tests read no choice before it (compiler/lower/legal.LegalLowering._last_apart,
issue 29 items 1 and 7): its accepted values worked out once, before the loops of the choices
before it, and each of their values adding those offsets to its id; tests folded for their truth
(compiler/lower/constants.truth); the engine plays as its plain tests say."""

from __future__ import annotations

import ast

from compiler import pipeline
from compiler.lower.constants import truth
from compiler.lower.optimise import unoptimised
from tests.helpers import ROOT
from tests.helpers.engines import load_engine
from tests.helpers.specs import check_games

RESERVE_TAX = ROOT / "variants" / "reserve-tax.yaml"


def t(text: str) -> str:
    return ast.unparse(truth(ast.parse(text, mode="eval").body))


def test_a_test_folds_for_its_truth():
    assert t("h0 and False or t0 >= 1") == "t0 >= 1"
    assert t("h0 and True or False") == "h0"
    assert t("not (x or True)") == "False"
    assert t("a and (b or c)") == "a and (b or c)"
    assert t("(y := f()) and False or y") == "(y := f()) and False or y"  # a binding is kept


def _block(text: str, start: str, end: str) -> list[str]:
    scan = text[text.index("def _action_phase_legal") :]
    return [line.strip() for line in scan[scan.index(start) : scan.index(end)].splitlines()]


def test_the_tax_is_chosen_once_a_decision_and_every_card_adds_its_offsets():
    with unoptimised():
        before = _block(pipeline.compile_spec(str(RESERVE_TAX)).text, "# reserve_face_up (", "# reserve_blind (")
    after = _block(pipeline.compile_spec(str(RESERVE_TAX)).text, "# reserve_face_up (", "# reserve_blind (")
    assert "for i_1, p_tax in enumerate(_WITH_NONE_6):" in before
    assert not any("p_tax" in line for line in after)
    head = after.index("# me.held == 0 and tax == none or tax != none and me.tokens[tax] >= 1")
    assert after[head + 1 : head + 3] == ["_okm1 = (", "(1 if t0 >= 1 else 0)"]  # a bit per value
    assert after[head + 8] == "| (64 if h0 else 0)"  # `none`, the last value
    assert after[head + 10] == "_ok1 = _OK_OFFSETS_7[_okm1]"
    assert "out.extend(map(p_card_ID.__add__, _ok1))" in after


def test_reserve_tax_plays_as_its_plain_tests_say():
    assert check_games(load_engine(ROOT / "generated" / "engines" / "reserve_tax.py"), games=4, seed=23) > 100
