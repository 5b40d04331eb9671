"""Loop peeling (compiler/lower/peeling.py, issue 29 item 1): an optional choice's loop over its
places then `none`, before and after the pass, and the loops it leaves as they are."""

import ast

from compiler.lower.peeling import peel_constant_tails
from compiler.lower.printer import render
from compiler.lower.tree import Append, Assign, Break, Continue, Def, For, If, Return


def e(text: str) -> ast.expr:
    """An expression node from its text: how a test writes the nodes the lowering builds with compiler.lower.ir."""
    return ast.parse(text, mode="eval").body


def lines(fn: Def) -> list[str]:
    return render([fn]).splitlines()


PLACES = "[(i, c) for i, c in enumerate(g.row) if c is not None]"


def optional_scan(*tail) -> Def:
    """The legal scan of an optional card: each place, then none (id 12)."""
    return Def(
        "f",
        "g, out",
        [
            Assign((e("CELLS"),), e(f"{PLACES} + [(12, None)]"), pure=True),
            For(
                e("i, card"),
                e("CELLS"),
                [
                    If(e("card is not None"), [Assign((e("c0"),), e("COST[card]"), pure=True)]),
                    If(e("not (card is None or g.holder[card] == g.me)"), [Continue()]),
                    If(e("(c0 if card is not None else 0) > g.gold"), [Continue()]),
                    Append(e("out"), e("100 + i")),
                    *tail,
                ],
            ),
        ],
    )


def test_none_is_written_after_the_loop_and_each_copy_is_folded():
    assert lines(peel_constant_tails(optional_scan())) == [
        "def f(g, out):",
        "    CELLS = [(i, c) for i, c in enumerate(g.row) if c is not None]",
        "    for i, card in CELLS:",
        "        c0 = COST[card]",
        "        if not g.holder[card] == g.me:",
        "            continue",
        "        if c0 > g.gold:",
        "            continue",
        "        out.append(100 + i)",
        "    if not 0 > g.gold:",
        "        out.append(112)",
    ]


def test_the_loop_names_are_bound_after_it_when_read_there():
    fn = optional_scan()
    fn = Def(fn.name, fn.params, fn.body + [Return(e("i"))])
    assert lines(peel_constant_tails(fn))[-2:] == ["    i, card = (12, None)", "    return i"]


def test_a_loop_left_by_break_or_with_a_list_read_twice_is_not_peeled():
    with_break = optional_scan(If(e("g.done"), [Break()]))
    assert lines(peel_constant_tails(with_break)) == lines(with_break)
    read_twice = optional_scan()
    read_twice = Def(read_twice.name, read_twice.params, read_twice.body + [Return(e("len(CELLS)"))])
    assert lines(peel_constant_tails(read_twice)) == lines(read_twice)


def test_a_loop_that_binds_its_own_name_again_is_not_peeled():
    fn = Def(
        "f",
        "g, out",
        [For(e("card"), e("g.row + [None]"), [Assign((e("card"),), e("1"), pure=True), Append(e("out"), e("card"))])],
    )
    assert lines(peel_constant_tails(fn)) == lines(fn)
