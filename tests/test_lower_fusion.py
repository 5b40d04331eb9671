"""Loop fusion (compiler/lower/fusion.py, issue 29 item 1): a loop over a list comprehension read
once, before and after the pass, and the loops it leaves as they are."""

import ast

from compiler.lower.fusion import fuse_comprehension_loops
from compiler.lower.printer import render
from compiler.lower.tree import Append, Assign, Def, Do, For, If, Return


def e(text: str) -> ast.expr:
    """An expression node from its text: how a test writes the nodes the lowering builds with compiler.lower.ir."""
    return ast.parse(text, mode="eval").body


def lines(fn: Def) -> list[str]:
    return render([fn]).splitlines()


CELLS = "[(li * 4 + si, c) for li, row in enumerate(g.market) for si, c in enumerate(row) if c is not None]"


def scan(*body, after=()) -> Def:
    return Def(
        "f",
        "g, out",
        [
            Assign((e("cells"),), e(CELLS), pure=True),
            Assign((e("n"),), e("g.n"), pure=True),
            For(e("i, card"), e("cells"), list(body or [If(e("g.holder[card] == n"), [Append(e("out"), e("i"))])])),
            *after,
        ],
    )


def test_the_comprehension_becomes_the_loops_around_the_body():
    assert lines(fuse_comprehension_loops(scan())) == [
        "def f(g, out):",
        "    n = g.n",
        "    for li, row in enumerate(g.market):",
        "        for si, c in enumerate(row):",
        "            if c is None:",
        "                continue",
        "            i = li * 4 + si",
        "            card = c",
        "            if g.holder[card] == n:",
        "                out.append(i)",
    ]


def test_its_variables_are_renamed_when_the_function_uses_them():
    fn = scan(For(e("row"), e("g.rows"), [Append(e("out"), e("row"))]))
    assert lines(fuse_comprehension_loops(fn))[2] == "    for li, _e0 in enumerate(g.market):"


def test_a_list_read_again_or_a_body_with_an_effect_keeps_its_comprehension():
    read_again = scan(after=[Return(e("cells"))])
    assert lines(fuse_comprehension_loops(read_again)) == lines(read_again)
    effect = scan(Do(e("g.market.pop()")))
    assert lines(fuse_comprehension_loops(effect)) == lines(effect)
