"""Common subexpression elimination (compiler/lower/common.py, issue 29 item 1): trees before and
after the pass, and the cases where two statements computing the same thing must each keep it."""

import ast

import pytest

from compiler.lower.common import share_common
from compiler.lower.printer import render
from compiler.lower.tree import Append, Assign, Def, Do, For, If, Return


def e(text: str) -> ast.expr:
    """An expression node from its text: how a test writes the nodes the lowering builds with compiler.lower.ir."""
    return ast.parse(text, mode="eval").body


def lines(fn: Def) -> list[str]:
    return render([fn]).splitlines()


def test_what_two_statements_compute_is_computed_once_before_the_first():
    before = Def(
        "f",
        "g, out",
        [
            Assign((e("tok"),), e("g.tok")),
            Assign((e("size"),), e("min(3, g.n, 10 - sum(tok))")),
            If(e("sum(tok) + 2 <= 10"), [Append(e("out"), e("size"))]),
        ],
    )
    assert lines(share_common(before)) == [
        "def f(g, out):",
        "    tok = g.tok",
        "    cse0 = sum(tok)",
        "    size = min(3, g.n, 10 - cse0)",
        "    if cse0 + 2 <= 10:",
        "        out.append(size)",
    ]


def test_the_largest_shared_expression_is_named_and_a_local_that_holds_it_already_is_read():
    before = Def(
        "f",
        "g, out",
        [
            Assign((e("h0"),), e("sum(x for x in g.hand if x == 2) + len(g.row)")),
            For(e("c"), e("g.market"), [Append(e("out"), e("c + h0"))]),
            Assign((e("h0"),), e("sum(x for x in g.hand if x == 2) + len(g.row)")),
            Append(e("out"), e("len(g.row) * h0")),
        ],
    )
    assert lines(share_common(before)) == [
        "def f(g, out):",
        "    h0 = sum(x for x in g.hand if x == 2) + len(g.row)",
        "    for c in g.market:",
        "        out.append(c + h0)",
        "    out.append(len(g.row) * h0)",
    ]


@pytest.mark.parametrize(
    "between",
    [
        Do(e("g.row.append(1)")),  # a call made for its effect
        Assign((e("g.row[0]"),), e("2")),  # a store into an index
        Assign((e("tok"),), e("g.other")),  # the name it reads, bound again
    ],
    ids=["effect-call", "index-store", "rebound-name"],
)
def test_a_change_between_the_two_keeps_both(between):
    before = Def(
        "f",
        "g, out, tok",
        [Append(e("out"), e("sum(g.row, tok)")), between, Return(e("sum(g.row, tok)"))],
    )
    assert lines(share_common(before)) == lines(before)


def test_a_value_that_may_be_none_is_not_read_before_its_test():
    before = Def(
        "f",
        "g, out, tip",
        [
            If(e("tip is not None and len(g.hand[tip]) > 1"), [Append(e("out"), e("1"))]),
            If(e("tip is not None"), [Append(e("out"), e("len(g.hand[tip])"))]),
        ],
    )
    assert lines(share_common(before)) == lines(before)


def test_statements_inside_one_block_share_in_that_block():
    before = Def(
        "f",
        "g, out",
        [If(e("g.x"), [Append(e("out"), e("sum(g.row)")), Append(e("out"), e("sum(g.row) + 1"))])],
    )
    assert lines(share_common(before)) == [
        "def f(g, out):",
        "    if g.x:",
        "        cse0 = sum(g.row)",
        "        out.append(cse0)",
        "        out.append(cse0 + 1)",
    ]
