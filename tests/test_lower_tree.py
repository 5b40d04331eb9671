"""The lowering as a structured program: a package of small modules and functions, a statement
tree written by one printer that takes spec text only from compiler.lower.pysource, and liveness as
a pass over that tree (issue 15, items 1, 2 and 7)."""

import ast
from pathlib import Path

import pytest

from compiler.lower.printer import LIMIT, render
from compiler.lower.pysource import comment, docstring
from compiler.lower.tree import Append, Assign, Comment, Continue, Def, Do, For, If, Return, tidy

LOWER = Path(__file__).resolve().parent.parent / "compiler" / "lower"


def e(text: str) -> ast.expr:
    """An expression node from its text: how a test writes the nodes the lowering builds with compiler.lower.ir."""
    return ast.parse(text, mode="eval").body


def test_the_lowering_is_a_package_of_modules():
    """One module per step (their sizes are measured with every package's, tests/test_sizes_of_code.py)."""
    modules = sorted(LOWER.glob("*.py"))
    assert {m.stem for m in modules} >= {"layout", "expressions", "decisions", "phases", "driver", "tree"}
    assert not (LOWER.parent / "lower.py").exists()


def test_the_printer_writes_every_kind_of_statement():
    body = [
        Comment(comment("spec line 3")),
        Assign((e("x"),), e("g.n"), note=comment("players")),
        Assign((e("out[0]"),), e("1"), "+="),
        For(e("i"), e("range(x)"), [If(e("i == 2"), [Continue(comment("skip"))], [Append(e("out"), e("i"))])]),
        If(e("x"), [Do(e("g.clear()"))], [If(e("not x"), [Return(e("None"))], chained=True)]),
    ]
    assert render([Def("f", "g, out", body, docstring("Why."))]) == "\n".join(
        [
            "def f(g, out):",
            '    """Why."""',
            "    # spec line 3",
            "    x = g.n  # players",
            "    out[0] += 1",
            "    for i in range(x):",
            "        if i == 2:",
            "            continue  # skip",
            "        else:",
            "            out.append(i)",
            "    if x:",
            "        g.clear()",
            "    elif not x:",
            "        return None",
        ]
    )


@pytest.mark.parametrize(
    "node",
    [
        Comment("raw spec text\nimport os"),
        Assign((e("x"),), e("1"), note="raw"),
        Def("f", "g", [], doc='"""raw"""'),
        If(e("x"), [], note="raw"),
    ],
)
def test_the_printer_refuses_a_comment_or_docstring_not_made_by_pysource(node):
    with pytest.raises(TypeError, match="not Code"):
        render([node])


@pytest.mark.parametrize(
    "node",
    [
        Assign(("x",), e("1")),
        Assign((e("x"),), "__import__('os').system('id')"),
        Do("g.clear()"),
        If("x", []),
        For(e("i"), "range(3)", []),
        Return("None"),
        Append(e("out"), "1"),
    ],
)
def test_the_printer_refuses_text_in_an_expression_slot(node):
    """Code is never text in the tree: a str where an expression goes is refused, so no text (a spec's
    above all) becomes code by being written there."""
    with pytest.raises(TypeError, match="not an ast.expr"):
        render([node])


def test_the_printer_breaks_a_long_line_inside_its_brackets_into_the_same_tree():
    value = e(
        "("
        + " + ".join(f"(1 if supply[{i}] >= 1 else 0)" for i in range(9))
        + ") or "
        + "f("
        + ", ".join(f"argument_{i}" for i in range(12))
        + ")"
    )
    text = render([If(value, [Return(e("'" + "a long message " * 12 + "'"))])], 1)
    assert max(map(len, text.splitlines())) <= LIMIT
    tree = ast.parse("def f():\n" + text)
    assert ast.dump(tree.body[0].body[0].test) == ast.dump(value)


def test_liveness_drops_unread_pure_bindings_to_a_fixed_point_and_keeps_the_rest():
    body = [
        Assign((e("me"),), e("g._cp"), pure=True),
        Assign((e("tok"),), e("g._tok[me]"), pure=True),  # read by nothing but cc... below: all go
        Assign((e("cc"),), e("CARD_COST[tok]"), pure=True),
        Assign((e("kept"),), e("g.pop()")),  # not pure: an effect stays even when unread
        Assign((e("a, b"),), e("g.pair"), pure=True),  # a tuple stays when one of its names is read
        Assign((e("_g"), e("whole")), e("PAYMENTS[0]"), pure=True),  # a chain drops its unread target
        Append(e("out"), e("a + _g")),
    ]
    assert render(tidy(body)) == "\n".join(
        ["kept = g.pop()", "a, b = g.pair", "_g = PAYMENTS[0]", "out.append(a + _g)"]
    )


def test_liveness_forwards_a_binding_read_once_by_an_unpacking_and_names_unread_loop_targets():
    body = [
        Assign((e("cc"),), e("CARD_COST[card]"), pure=True),
        Assign((e("c0, c1"),), e("cc"), pure=True),
        For(e("_i, gold, spent"), e("_payments(p, tok)"), [If(e("gold > c0 + c1"), [Append(e("out"), e("_i"))])]),
        For(e("card"), e("g._res[me]"), [Append(e("out"), e("1"))]),
    ]
    assert render(tidy(body)) == "\n".join(
        [
            "c0, c1 = CARD_COST[card]",
            "for _i, gold, _ in _payments(p, tok):",
            "    if gold > c0 + c1:",
            "        out.append(_i)",
            "for _ in g._res[me]:",
            "    out.append(1)",
        ]
    )


def test_a_loop_target_read_after_the_loop_keeps_its_name():
    body = [For(e("card"), e("cards"), [Do(e("g.f()"))]), Append(e("out"), e("card"))]
    assert render(tidy(body)) == "for card in cards:\n    g.f()\nout.append(card)"


def test_a_block_whose_every_statement_is_dropped_keeps_a_pass():
    body = [If(e("x"), [Assign((e("unread"),), e("g.n"), pure=True)]), Do(e("g.f()"))]
    assert render(tidy(body)) == "if x:\n    pass\ng.f()"
