"""Proof by cases (compiler/lower/cases.py, issue 29 item 1): tests over locals defined by
conditionals, proven true in every game or left unknown, and the legal scan they shorten."""

from __future__ import annotations

import ast

import pytest

from compiler.lower.cases import always_true
from compiler.lower.goldfree import least_gold
from compiler.lower.printer import render

# all(payment.gold[c] == 0 or payment.spent[c] == me.tokens[c] for c in gems), as the lowering compiles it
SHORTFALL_ONLY = ast.parse(
    " and ".join(f"(p_pay_GOLD[{gi}] == 0 or p_pay_SPENT[{gi}] == t{gi})" for gi in range(5)), mode="eval"
).body


def e(text: str) -> ast.expr:
    return ast.parse(text, mode="eval").body


LG = {"lg": e("p - t if p > t else 0")}


@pytest.mark.parametrize(
    "test",
    [
        "lg == 0 or p - lg == t",  # the gold only where the tokens fall short: both cases fold to True
        "lg >= 0 or p > t",  # when p > t, the second part; else 0 >= 0
        "p - (p - t) == t",
        "not lg + 1 == lg",
        "(x if c else x + 0) == x",
    ],
)
def test_tests_true_in_every_case(test):
    assert always_true(e(test), LG)


@pytest.mark.parametrize(
    "test",
    [
        "lg == 0",  # when p > t: p - t == 0, not known
        "p - lg == t",  # when p <= t: p == t, not known
        "lg + lg == 2 * p",  # a product of operands: not understood
        "f(lg) == f(lg)",  # a call: not understood (it could return a new value each time)
        "(lg == 0 or p - lg == t) and lg == 0",  # an `and` one part of which is not proven
    ],
)
def test_tests_not_proven(test):
    assert not always_true(e(test), LG)


def test_the_least_gold_payment_before_and_after():
    """The payment with the least gold, written out on locals (goldfree.least_gold), before; the
    test with their definitions written in, split on each conditional and folded, after: True."""
    assigns, test = least_gold([SHORTFALL_ONLY], "p_pay", 5)
    assert render(assigns).splitlines()[0] == "_lg0 = _p0 - t0 if _p0 > t0 else 0"
    assert ast.unparse(test).startswith("(_lg0 == 0 or _p0 - _lg0 == t0) and (_lg1 == 0 or _p1 - _lg1 == t1)")
    definitions = {node.targets[0].id: node.value for node in assigns}
    assert always_true(test, definitions)
    # never exactly one gold: the least payment may have one, so the search stays
    assigns, test = least_gold([e("p_pay_GT != 1")], "p_pay", 5)
    assert not always_true(test, {node.targets[0].id: node.value for node in assigns})
