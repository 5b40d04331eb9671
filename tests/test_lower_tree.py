"""The lowering as a structured program: a package of small modules and functions, a statement
tree written by one printer that takes spec text only from compiler.lower.pysource, and liveness as
a pass over that tree (issue 15, items 1, 2 and 7)."""
import ast
from pathlib import Path

import pytest

from compiler.lower.pysource import comment, docstring
from compiler.lower.tree import Append, Assign, Comment, Continue, Def, Do, For, If, Return, render, tidy

LOWER = Path(__file__).resolve().parent.parent / "compiler" / "lower"
# The modules that build or rewrite code: none may read Python text with a regular expression
# or run it (layout.py reads the spec's notations, which are not code).
CODE_MODULES = ("tree", "shapes", "expressions", "legal", "decisions", "phases", "driver")


def test_the_lowering_is_a_package_of_modules():
    """One module per step (their sizes are measured with every package's, tests/test_sizes_of_code.py)."""
    modules = sorted(LOWER.glob("*.py"))
    assert {m.stem for m in modules} >= {"layout", "expressions", "decisions", "phases", "driver", "tree"}
    assert not (LOWER.parent / "lower.py").exists()


def test_no_module_that_writes_code_runs_it_or_reads_it_with_a_regular_expression():
    found = []
    for name in CODE_MODULES:
        tree = ast.parse((LOWER / f"{name}.py").read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                names = [a.name for a in node.names] + ([node.module] if isinstance(node, ast.ImportFrom) else [])
                found += [f"{name}: imports {n}" for n in names if n in ("re", "regex")]
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("eval", "exec"):
                found.append(f"{name}: calls {node.func.id}")
    assert not found, found


def test_the_printer_writes_every_kind_of_statement():
    body = [Comment(comment("spec line 3")),
            Assign(("x",), "g.n", note=comment("players")),
            Assign(("out[0]",), "1", "+="),
            For("i", "range(x)", [If("i == 2", [Continue(comment("skip"))], [Append("out", "i")])]),
            If("x", [Do("g.clear()")], [If("not x", [Return("None")], chained=True)])]
    assert render([Def("f", "g, out", body, docstring("Why."))]) == "\n".join([
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
    ])


@pytest.mark.parametrize("node", [
    Comment("raw spec text\nimport os"),
    Assign(("x",), "1", note="raw"),
    Def("f", "g", [], doc='"""raw"""'),
    If("x", [], note="raw"),
])
def test_the_printer_refuses_a_comment_or_docstring_not_made_by_pysource(node):
    with pytest.raises(TypeError, match="not Code"):
        render([node])


def test_liveness_drops_unread_pure_bindings_to_a_fixed_point_and_keeps_the_rest():
    body = [Assign(("me",), "g._cp", pure=True),
            Assign(("tok",), "g._tok[me]", pure=True),  # read by nothing but cc... below: all go
            Assign(("cc",), "CARD_COST[tok]", pure=True),
            Assign(("kept",), "g.pop()"),  # not pure: an effect stays even when unread
            Assign(("a, b",), "g.pair", pure=True),  # a tuple stays when one of its names is read
            Assign(("_g", "whole"), "PAYMENTS[0]", pure=True),  # a chain drops its unread target
            Append("out", "a + _g")]
    assert render(tidy(body)) == "\n".join(["kept = g.pop()", "a, b = g.pair", "_g = PAYMENTS[0]",
                                            "out.append(a + _g)"])


def test_liveness_forwards_a_binding_read_once_by_an_unpacking_and_names_unread_loop_targets():
    body = [Assign(("cc",), "CARD_COST[card]", pure=True),
            Assign(("c0, c1",), "cc", pure=True),
            For("_i, gold, spent", "_payments(p, tok)", [If("gold > c0 + c1", [Append("out", "_i")])]),
            For("card", "g._res[me]", [Append("out", "1")])]
    assert render(tidy(body)) == "\n".join(["c0, c1 = CARD_COST[card]",
                                            "for _i, gold, _ in _payments(p, tok):",
                                            "    if gold > c0 + c1:",
                                            "        out.append(_i)",
                                            "for _ in g._res[me]:",
                                            "    out.append(1)"])


def test_a_loop_target_read_after_the_loop_keeps_its_name():
    body = [For("card", "cards", [Do("g.f()")]), Append("out", "card")]
    assert render(tidy(body)) == "for card in cards:\n    g.f()\nout.append(card)"


def test_a_block_whose_every_statement_is_dropped_keeps_a_pass():
    body = [If("x", [Assign(("unread",), "g.n", pure=True)]), Do("g.f()")]
    assert render(tidy(body)) == "if x:\n    pass\ng.f()"
