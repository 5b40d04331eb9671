"""Code sinking (compiler/lower/sinking.py, issue 29 item 1): trees before and after the pass, and
the cases where a binding must stay where it is."""

import ast

import pytest

from compiler.lower.printer import render
from compiler.lower.pysource import comment
from compiler.lower.sinking import sink_bindings
from compiler.lower.tree import Append, Assign, Comment, Continue, Def, Do, For, If, Return


def e(text: str) -> ast.expr:
    """An expression node from its text: how a test writes the nodes the lowering builds with compiler.lower.ir."""
    return ast.parse(text, mode="eval").body


def lines(fn: Def) -> list[str]:
    return render([fn]).splitlines()


def scan(*between) -> Def:
    """A legal scan: a card's cost unpacked, then its other tests, then the cost read."""
    return Def(
        "f",
        "g, out",
        [
            For(
                e("card"),
                e("g.row"),
                [
                    Assign((e("c0, c1"),), e("COST[card]"), pure=True),
                    *between,
                    If(e("c0 + c1 > g.tokens"), [Continue()]),
                    Append(e("out"), e("card")),
                ],
            )
        ],
    )


def test_a_binding_moves_past_the_filters_that_do_not_read_it():
    before = scan(Comment(comment("held by another player?")), If(e("g.holder[card] != g.me"), [Continue()]))
    assert lines(sink_bindings(before)) == [
        "def f(g, out):",
        "    for card in g.row:",
        "        # held by another player?",
        "        if g.holder[card] != g.me:",
        "            continue",
        "        c0, c1 = COST[card]",
        "        if c0 + c1 > g.tokens:",
        "            continue",
        "        out.append(card)",
    ]


def test_a_binding_read_by_one_branch_alone_goes_into_it():
    before = Def(
        "f",
        "g, card, paid",
        [
            Assign((e("s0"),), e("COST[card][0] - paid"), pure=True),
            Assign((e("total"),), e("paid + 1"), pure=True),
            If(e("card is not None"), [Do(e("g.pay(s0, total)"))]),
            Return(e("paid")),
        ],
    )
    assert lines(sink_bindings(before)) == [
        "def f(g, card, paid):",
        "    if card is not None:",
        "        s0 = COST[card][0] - paid",
        "        total = paid + 1",
        "        g.pay(s0, total)",
        "    return paid",
    ]


@pytest.mark.parametrize(
    "between",
    [
        If(e("c0 > 3"), [Continue()]),  # the filter reads it
        Do(e("g.row.append(1)")),  # a call made for its effect
        If(e("(x := g.n) > 1"), [Continue()]),  # a test that binds a name
        Assign((e("card"),), e("g.other"), pure=True),  # the name it reads, bound again
    ],
    ids=["filter-reads-it", "effect-call", "walrus-test", "rebound-name"],
)
def test_a_binding_stays_before_what_reads_or_changes_it(between):
    before = scan(between, If(e("g.holder[card] != g.me"), [Continue()]))
    assert lines(sink_bindings(before))[2] == "        c0, c1 = COST[card]"


def test_a_binding_read_after_the_loop_or_in_the_next_round_stays():
    read_later = Def(
        "f",
        "g, out",
        [
            For(e("card"), e("g.row"), [Assign((e("last"),), e("card"), pure=True), If(e("card > 2"), [Continue()])]),
            Return(e("last")),
        ],
    )
    assert lines(sink_bindings(read_later)) == lines(read_later)
    next_round = Def(
        "f",
        "g, out",
        [
            For(
                e("card"),
                e("g.row"),
                [
                    Append(e("out"), e("prev")),
                    Assign((e("prev"),), e("card"), pure=True),
                    If(e("card > 2"), [Continue()]),
                    Append(e("out"), e("prev")),
                ],
            ),
        ],
    )
    assert lines(sink_bindings(next_round)) == lines(next_round)


def test_a_binding_read_by_both_branches_or_after_the_if_stays():
    both = Def(
        "f",
        "g, card",
        [
            Assign((e("s0"),), e("g.n - 1"), pure=True),
            If(e("card is not None"), [Do(e("g.pay(s0)"))], [Do(e("g.pay(s0 + 1)"))]),
        ],
    )
    assert lines(sink_bindings(both)) == lines(both)
    after = Def(
        "f",
        "g, card",
        [
            Assign((e("s0"),), e("g.n - 1"), pure=True),
            If(e("card is not None"), [Do(e("g.pay(s0)"))]),
            Return(e("s0")),
        ],
    )
    assert lines(sink_bindings(after)) == lines(after)


def test_a_binding_never_enters_a_loop():
    before = Def(
        "f",
        "g, out",
        [Assign((e("n"),), e("len(g.row)"), pure=True), For(e("x"), e("g.row"), [Append(e("out"), e("x + n"))])],
    )
    assert lines(sink_bindings(before)) == lines(before)
