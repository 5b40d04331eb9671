"""A declined choice pays nothing (compiler/lower/zeroprice.py, issue 29 item 1): the early return
of the payments of a price that folds to 0 when an optional choice is none."""

import ast

from compiler.lower.printer import render
from compiler.lower.zeroprice import declined_is_free


def e(text: str) -> ast.expr:
    return ast.parse(text, mode="eval").body


def test_a_price_zero_without_the_card_returns_the_free_payment():
    prices = [e("(c0 - b0 if c0 > b0 else 0) if p_card is not None else 0"), e("0 if p_card is None else c1")]
    assert render(declined_is_free(prices, ["p_card"])).splitlines() == ["if p_card is None:", "    return [0]"]


def test_a_price_that_costs_something_without_the_card_keeps_its_search():
    assert declined_is_free([e("c0 if p_card is not None else 1")], ["p_card"]) == []
    assert declined_is_free([e("g.tax")], ["p_card"]) == []
