"""The expression IR of the lowering: Python's own ``ast.expr`` nodes, and small constructors
that keep the lowering readable (``add(name("a"), const(1))`` for ``a + 1``).

Why Python's nodes and not a family of our own: the printer is ``ast.unparse`` (one printer,
with Python's own precedence and quoting), and the tree passes of :mod:`.fold` and the liveness
of :mod:`.tree` read the same nodes CPython compiles. The safety rule of :mod:`.pysource` holds
by construction: a text of a spec reaches an engine only as an ``ast.Constant`` (printed by
``repr``) or inside a name that :func:`compiler.lower.pysource.identifier` made; :func:`name`
refuses anything that is not a Python identifier, so no text becomes code through it.

Nodes are values: they are built fresh and never changed once a statement holds them (a pass
that rewrites one builds a new node); :func:`same` compares two by structure.
"""

from __future__ import annotations

import ast
import keyword
from collections.abc import Iterable
from typing import Any

Expr = ast.expr
# What a constructor takes for an operand: a node, a name of the compiler's own (a str), or an int.
Operand = ast.expr | str | int

_BINOPS: dict[str, type[ast.operator]] = {
    "+": ast.Add,
    "-": ast.Sub,
    "*": ast.Mult,
    "//": ast.FloorDiv,
    "%": ast.Mod,
    "/": ast.Div,
    "|": ast.BitOr,
    "&": ast.BitAnd,
    "^": ast.BitXor,
    "<<": ast.LShift,
    ">>": ast.RShift,
    "**": ast.Pow,
}
_COMPARES: dict[str, type[ast.cmpop]] = {
    "==": ast.Eq,
    "!=": ast.NotEq,
    "<": ast.Lt,
    "<=": ast.LtE,
    ">": ast.Gt,
    ">=": ast.GtE,
    "in": ast.In,
    "not in": ast.NotIn,
    "is": ast.Is,
    "is not": ast.IsNot,
}
COMPARE_OPS = {cls: op for op, cls in _COMPARES.items()}
BINARY_OPS = {cls: op for op, cls in _BINOPS.items()}


def name(identifier: str) -> ast.Name:
    """A name: one the compiler makes itself, or one :func:`compiler.lower.pysource.identifier` made."""
    if not isinstance(identifier, str) or not identifier.isidentifier() or keyword.iskeyword(identifier):
        raise ValueError(f"not a Python name: {identifier!r}")
    return ast.Name(id=str(identifier), ctx=ast.Load())


def dotted(path: str) -> ast.expr:
    """`g.market` as a Name with Attributes: a path of the compiler's own names, split at its dots."""
    first, *rest = path.split(".")
    return attr(name(first), *rest)


def const(value: object) -> ast.expr:
    """A literal: None, a bool, an int, a str, or a tuple, list or dict of them (a negative number
    as `-n`, as Python parses it)."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return ast.Constant(value=str(value) if isinstance(value, str) else value)
    if isinstance(value, (int, float)):
        number = float(value) if isinstance(value, float) else int(value)
        return (
            ast.UnaryOp(op=ast.USub(), operand=ast.Constant(value=-number))
            if number < 0
            else ast.Constant(value=number)
        )
    if isinstance(value, tuple):
        return ast.Tuple(elts=[const(v) for v in value], ctx=ast.Load())
    if isinstance(value, list):
        return ast.List(elts=[const(v) for v in value], ctx=ast.Load())
    if isinstance(value, dict):
        return ast.Dict(keys=[const(k) for k in value], values=[const(v) for v in value.values()])
    raise TypeError(f"not plain data, so not written as a literal: {type(value).__name__}")


def expr(value: Operand) -> ast.expr:
    """A node as it is; a name (a str) as a Name; an int as a constant."""
    if isinstance(value, ast.expr):
        return value
    if isinstance(value, str):
        return name(value)
    if isinstance(value, int):
        return const(value)
    raise TypeError(f"not an expression: {value!r}")


def attr(value: Operand, *names: str) -> ast.expr:
    node = expr(value)
    for n in names:
        if not n.isidentifier():
            raise ValueError(f"not an attribute name: {n!r}")
        node = ast.Attribute(value=node, attr=str(n), ctx=ast.Load())
    return node


def sub(value: Operand, index: Operand) -> ast.Subscript:
    """`value[index]`."""
    return ast.Subscript(value=expr(value), slice=expr(index), ctx=ast.Load())


def call(func: Operand, *args: Operand, **keywords: Operand) -> ast.Call:
    return ast.Call(
        func=expr(func),
        args=[expr(a) for a in args],
        keywords=[ast.keyword(arg=k, value=expr(v)) for k, v in keywords.items()],
    )


def method(obj: Operand, method_name: str, *args: Operand) -> ast.Call:
    """`obj.method_name(args)`."""
    return call(attr(obj, method_name), *args)


def binop(left: Operand, op: str, right: Operand) -> ast.BinOp:
    return ast.BinOp(left=expr(left), op=_BINOPS[op](), right=expr(right))


def add(left: Operand, right: Operand) -> ast.BinOp:
    return binop(left, "+", right)


def minus(left: Operand, right: Operand) -> ast.BinOp:
    return binop(left, "-", right)


def mul(left: Operand, right: Operand) -> ast.BinOp:
    return binop(left, "*", right)


def total(terms: Iterable[Operand], op: str = "+") -> ast.expr:
    """`a + b + c` (left to right, as Python reads it); one term is itself."""
    nodes = [expr(t) for t in terms]
    out = nodes[0]
    for t in nodes[1:]:
        out = binop(out, op, t)
    return out


def neg(operand: Operand) -> ast.UnaryOp:
    return ast.UnaryOp(op=ast.USub(), operand=expr(operand))


def compare(left: Operand, op: str, right: Operand) -> ast.Compare:
    return ast.Compare(left=expr(left), ops=[_COMPARES[op]()], comparators=[expr(right)])


def chain(left: Operand, *pairs: tuple[str, Operand]) -> ast.Compare:
    """`a <= b <= c`: pairs of (op, value)."""
    return ast.Compare(
        left=expr(left), ops=[_COMPARES[op]() for op, _ in pairs], comparators=[expr(v) for _, v in pairs]
    )


def and_(*values: Operand) -> ast.expr:
    nodes = [expr(v) for v in values]
    return nodes[0] if len(nodes) == 1 else ast.BoolOp(op=ast.And(), values=nodes)


def or_(*values: Operand) -> ast.expr:
    nodes = [expr(v) for v in values]
    return nodes[0] if len(nodes) == 1 else ast.BoolOp(op=ast.Or(), values=nodes)


def not_(operand: Operand) -> ast.UnaryOp:
    return ast.UnaryOp(op=ast.Not(), operand=expr(operand))


def ifexp(test: Operand, body: Operand, orelse: Operand) -> ast.IfExp:
    """`body if test else orelse`."""
    return ast.IfExp(test=expr(test), body=expr(body), orelse=expr(orelse))


def walrus(target: str, value: Operand) -> ast.NamedExpr:
    return ast.NamedExpr(target=ast.Name(id=name(target).id, ctx=ast.Store()), value=expr(value))


def tuple_(*elts: Operand) -> ast.Tuple:
    return ast.Tuple(elts=[expr(e) for e in elts], ctx=ast.Load())


def list_(*elts: Operand) -> ast.List:
    return ast.List(elts=[expr(e) for e in elts], ctx=ast.Load())


def target(*names: Operand) -> ast.expr:
    """An assignment or loop target: one name (or subscript, attribute), or a tuple of names (`a, b`,
    and `a,` for one name in a sequence: see :func:`unpack`)."""
    return expr(names[0]) if len(names) == 1 else tuple_(*names)


def unpack(names: Iterable[Operand]) -> ast.Tuple:
    """Names as the target of a tuple unpacking (or the items of a tuple display), always a tuple:
    a spec may have one gem colour, one level or one face-up slot, where `a = t` would bind the
    whole tuple instead of its one item."""
    return tuple_(*names)


def comprehension(target_: Operand, iter_: Operand, *ifs: Operand) -> ast.comprehension:
    return ast.comprehension(target=expr(target_), iter=expr(iter_), ifs=[expr(i) for i in ifs], is_async=0)


def genexp(elt: Operand, target_: Operand, iter_: Operand, *ifs: Operand) -> ast.GeneratorExp:
    """`(elt for target in iter if ...)`."""
    return ast.GeneratorExp(elt=expr(elt), generators=[comprehension(target_, iter_, *ifs)])


def listcomp(elt: Operand, target_: Operand, iter_: Operand, *ifs: Operand) -> ast.ListComp:
    return ast.ListComp(elt=expr(elt), generators=[comprehension(target_, iter_, *ifs)])


def formatted(*parts: Operand) -> ast.expr:
    """An f-string: each part a str (its text as it is, never code) or a node (its value, formatted)."""
    values: list[ast.expr] = []
    for p in parts:
        if isinstance(p, str):
            values.append(ast.Constant(value=str(p)))
        else:
            values.append(ast.FormattedValue(value=expr(p), conversion=-1, format_spec=None))
    return ast.JoinedStr(values=values)


def same(a: object, b: object) -> bool:
    """Are two nodes (or lists, tuples of them) the same expression?"""
    return bool(key(a) == key(b))


def key(value: object) -> Any:
    """A value to compare or hash nodes by structure (ast nodes compare by identity)."""
    if isinstance(value, ast.AST):
        return ast.dump(value)
    if isinstance(value, (list, tuple)):
        return tuple(key(v) for v in value)
    return value


def names(node: ast.AST) -> frozenset[str]:
    """Every name a node mentions (read or bound).

    Kept on the node once found: the tree passes ask again for the same expressions at every
    round of liveness (a large table's rows, hundreds of times), and an expression node is never
    changed once built (every pass builds new nodes), so what it mentions cannot change."""
    found = getattr(node, "_names", None)
    if found is None:
        found = frozenset(n.id for n in ast.walk(node) if isinstance(n, ast.Name))
        node._names = found  # type: ignore[attr-defined]  # a cache beside the node's fields
    return found


def text(node: ast.expr) -> str:
    """The node as Python (``ast.unparse``): for messages and tests, never read back."""
    return ast.unparse(node)
