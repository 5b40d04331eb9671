"""The lowering builds code as nodes (issue 27, item 1): every expression slot of every statement
tree the lowering makes for the catalogue holds an ``ast.expr``, never text; no module of the
lowering or of emit reads code back as text (regular expressions, eval/exec, ``isdigit`` or
``startswith`` on code); and the tree passes of compiler/lower/fold.py, tree before and after."""

from __future__ import annotations

import ast
import dataclasses
import os
from pathlib import Path

import pytest

from compiler.emit.engine import refusal_words
from compiler.lower import driver, fold, ir
from compiler.lower.pysource import Code
from compiler.lower.tree import Assign, Node, statements
from compiler.pipeline import catalogue, load_rules
from tests.helpers import ROOT

COMPILER = Path(__file__).resolve().parent.parent / "compiler"


def e(text: str) -> ast.expr:
    """A node from its text: how a test writes what the lowering builds with compiler.lower.ir."""
    return ast.parse(text, mode="eval").body


def same(a: ast.expr, b: str) -> bool:
    return ast.dump(a) == ast.dump(e(b))


# ----------------------------------------------------------------------------- no text in an expression slot

# The fields of a statement node that are not expressions: names the compiler made (a function's,
# a table's), a parameter list, an operator, flags, and text made by pysource (comments, docstrings).
NOT_EXPRESSIONS = {
    ("Def", "name"),
    ("Def", "params"),
    ("Table", "name"),
    ("FaceUpLoop", "name"),
    ("Assign", "op"),
    ("If", "role"),
}


def _slot_problems(node, where: str) -> list[str]:
    out = []
    for f in dataclasses.fields(node):
        value = getattr(node, f.name)
        kind = type(node).__name__
        if f.name in ("body", "orelse"):
            continue  # statements: walked by tree.statements
        if (
            isinstance(value, Code)
            or (kind, f.name) in NOT_EXPRESSIONS
            or value is None
            or isinstance(value, (bool, int))
        ):
            continue
        items = value if isinstance(value, (tuple, list)) else [value]
        for item in items:
            if not isinstance(item, ast.expr):
                out.append(f"{where}: {kind}.{f.name} holds a {type(item).__name__}: {item!r}")
    return out


def _catalogue() -> list[str]:
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        return catalogue()
    finally:
        os.chdir(cwd)


@pytest.mark.parametrize("spec", _catalogue())
def test_every_expression_slot_of_every_tree_holds_a_node(spec, monkeypatch):
    seen: list = []
    write = driver._write

    def keep(plan, trees, prestige):
        seen.extend(node for nodes in trees.values() for node in nodes)
        seen.extend(node for part in prestige for node in part)  # the prestige sources are trees too
        seen.extend(plan.helpers)  # the hooks (the end-of-turn loops, the turn resets) are trees too
        inline = [t for dp in plan.decisions for t in (dp.while_inline, dp.max_inline, dp.prefilter) if t is not None]
        assert all(isinstance(t, ast.expr) for t in inline), inline
        write(plan, trees, prestige)

    monkeypatch.setattr(driver, "_write", keep)
    monkeypatch.chdir(ROOT)
    driver.lower(load_rules(spec), explain=refusal_words)  # the lowering itself (the tests cache engines)
    nodes = [s for s in statements(seen) if isinstance(s, Node)]
    assert len(nodes) > 100
    problems = [p for s in nodes for p in _slot_problems(s, spec)]
    assert not problems, problems[:10]


def test_a_spec_s_text_reaches_a_tree_only_as_a_constant_or_in_a_name_made_for_it():
    """Names are identifiers (ir.name refuses anything else); text is a constant, printed by repr."""
    with pytest.raises(ValueError):
        ir.name("x); import os; (y")
    with pytest.raises(ValueError):
        ir.attr(ir.name("g"), "a.b")
    hostile = "'); import os; ('\n"
    assert ast.literal_eval(ast.unparse(ir.const(hostile))) == hostile


# ----------------------------------------------------------------------------- no code read as text

# Each use of a str method the scan flags, on text that is not code, with why (module, function, method).
# The runtime (emit/runtime) is the engines' own code: what it reads is players' text, saved games and
# the metadata's tags, never code the compiler made.
NOT_CODE = {
    ("lower/zones.py", "is_component", "startswith"): "an env entry's kind tag ('comp:ZONE'), made by the lowering",
    ("lower/layout.py", "<module>", "re"): "the spec's notation templates ({colour}), text for players",
    ("lower/pysource.py", "<module>", "re"): "checks a spec name before it becomes part of an identifier",
    ("emit/runtime/__init__.py", "split_parts", "startswith"): "the runtime's own source, at its marker lines",
    ("emit/runtime/notation.py", "_respelt", "isdigit"): "an action typed by a player",
    ("emit/runtime/notation.py", "_a_typo", "isdigit"): "an action typed by a player",
    ("emit/runtime/state.py", "from_json", "startswith"): "a saved game's text (a byte-order mark)",
    ("emit/runtime/variables.py", "_var_saved", "startswith"): "a variable's type tag in VARIABLES",
    ("emit/runtime/meta.py", "_var_saved", "startswith"): "a variable's type tag in VARIABLES",
    ("emit/runtime/variables.py", "_var_problem", "startswith"): "a variable's type tag in VARIABLES",
    ("emit/runtime/variables.py", "_var_loaded", "startswith"): "a variable's type tag in VARIABLES",
}
FLAGGED_METHODS = ("isdigit", "isnumeric", "isdecimal", "startswith", "endswith")


def _uses(path: Path) -> list[tuple[str, str, int]]:
    """(function, what, line) of every regular expression, eval/exec/compile and flagged str method."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    owner: dict[int, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for inner in ast.walk(node):
                owner.setdefault(id(inner), node.name)
    found = []
    for node in ast.walk(tree):
        where = owner.get(id(node), "<module>")
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            names = [a.name for a in node.names] + ([node.module] if isinstance(node, ast.ImportFrom) else [])
            found += [(where, "re", node.lineno) for n in names if n in ("re", "regex")]
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("eval", "exec"):
            found.append((where, node.func.id, node.lineno))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in FLAGGED_METHODS:
            found.append((where, node.func.attr, node.lineno))
    return found


def test_no_module_of_the_lowering_or_of_emit_reads_code_as_text():
    modules = sorted([*COMPILER.glob("lower/**/*.py"), *COMPILER.glob("emit/**/*.py")])
    assert len(modules) > 20 and any(m.name == "fold.py" for m in modules)
    found = [
        f"{m.relative_to(COMPILER)}:{line}: {what} in {function}"
        for m in modules
        for function, what, line in _uses(m)
        if (str(m.relative_to(COMPILER)), function, what) not in NOT_CODE
    ]
    assert not found, found


# ----------------------------------------------------------------------------- fold.py, tree before and after


@pytest.mark.parametrize(
    "before, after",
    [
        ("3 in S", "3 not in S"),
        ("x not in S", "x in S"),
        ("x is None", "x is not None"),
        ("a >= b", "not a >= b"),
    ],
)
def test_negation_inverts_a_membership_or_identity_and_puts_the_rest_under_not(before, after):
    assert same(fold.negate(e(before)), after)


@pytest.mark.parametrize(
    "code, counts, expected",
    [
        ("len(g._res[me])", (), True),
        ("s0", ("s0", "t1"), True),
        ("s0", (), False),
        ("len(a) - len(b)", (), False),
        ("g.round", (), False),
    ],
)
def test_never_negative_counts(code, counts, expected):
    assert fold.never_negative(e(code), counts) is expected


@pytest.mark.parametrize(
    "left, op, right, after",
    [
        ("3", "==", "None", "False"),
        ("None", "!=", "None", "False"),
        ("None", "==", "p_card", "p_card is None"),
        ("p_card", "!=", "None", "p_card is not None"),
        ("a", "<", "b", "a < b"),
    ],
)
def test_comparisons_with_none_fold_or_become_identity_tests(left, op, right, after):
    assert same(fold.compare(e(left), op, e(right)), after)


def test_membership_of_a_constant_in_a_collection_known_now_folds():
    assert same(fold.membership(e("2"), "in", [0, 1, 2], e("(0, 1, 2)")), "True")
    assert same(fold.membership(e("-1"), "not in", [0, 1], e("(0, 1)")), "True")
    assert same(fold.membership(e("c"), "in", [0, 1], e("(0, 1)")), "c in (0, 1)")


@pytest.mark.parametrize(
    "terms, extra, after",
    [
        (["30", "i_0", "5"], 0, "i_0 + 35"),
        (["30", "4"], -1, "33"),
        (["29", "i_0 * 5"], -29, "i_0 * 5"),
        (["0"], 0, "0"),
        (["x", "-3"], 0, "x + -3"),
    ],
)
def test_sums_of_constant_id_terms_fold(terms, extra, after):
    assert same(fold.sum_terms([e(t) for t in terms], extra), after)


def test_a_true_test_drops_out_of_a_conjunction():
    assert same(fold.conjunction([e("True"), e("a"), e("True"), e("b")]), "a and b")
    assert same(fold.conjunction([e("True")]), "True")
    assert fold.drop_true([e("True"), e("x")])[0].id == "x"


def test_constants_are_read_from_nodes():
    assert fold.as_int(e("-4")) == -4 and fold.as_int(e("True")) is None and fold.as_int(e("x")) is None
    assert fold.as_const(e("(1, (2, None))")) == (1, (2, None))
    assert same(fold.plus(e("3"), 4), "7") and same(fold.plus(e("x"), -1), "x - 1")


def test_statements_compare_by_what_their_nodes_say():
    assert Assign((ir.name("a"),), ir.add("b", 1)) == Assign((e("a"),), e("b + 1"))
    assert Assign((ir.name("a"),), ir.add("b", 1)) != Assign((e("a"),), e("b + 2"))
