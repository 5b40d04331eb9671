"""Constant folding: a pass over one rule function's statement tree (:mod:`.tree`).

Takes a :class:`~.tree.Def`; returns it with every operation on values known at compile time
worked out, and every `if` whose test is known replaced by the branch it takes. The lowering
writes named values, the fields of the player-count table that are the same at every player
count (:meth:`.expressions.ExprCompiler.attribute`) and the arguments of a definition written out
as constants, so that `roomy(me, 2)` with `roomy(p, n) = p.reserved < n + reserve_limit - 2`
reads `len(g._res[me]) < 3`, and `setup.face_up * 2 >= 8` is no test at all.

Only what Python computes the same way now and at play is folded: integers and flags under
`+ - * // %` (a divisor known to be 0 is left for the checker's E513), unary `-` and `not`,
comparisons (`None is None` too), `x if True else y`, and `True and x` / `False or x` (which are `x` itself). One
walk of each expression, bottom up.
"""

from __future__ import annotations

import ast
import operator
from collections.abc import Callable
from typing import Any

from . import fold, ir
from .tree import Append, Assign, Def, Do, For, If, Node, Pass, Raise, Return, While

_BINARY: dict[type, Callable[[Any, Any], Any]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
}
_COMPARE: dict[type, Callable[[Any, Any], bool]] = {
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
}


def fold_constants(fn: Def) -> Def:
    """`fn` with what is known now computed, and the branches no game can take dropped."""
    return Def(fn.name, fn.params, _block(fn.body) or _pass(), fn.doc)


def _known(node: ast.expr) -> int | bool | None:
    """The int or bool a node is now (None: not known, or not one of those)."""
    try:
        value = fold.as_const(node)
    except fold.Unknown:
        return None
    return value if isinstance(value, (int, bool)) else None


def _block(body: list[Node]) -> list[Node]:
    out: list[Node] = []
    for node in body:
        node = _statement(node)
        if isinstance(node, If):
            test = _known(node.test)
            if test is not None:  # the branch every game takes, in place of the `if`
                out += node.body if test else node.orelse
                continue
        out.append(node)
    return out


def _statement(node: Node) -> Node:  # noqa: C901 - one dispatch over statement kinds
    match node:
        case Assign():
            targets = tuple(t if isinstance(t, ast.Name) else expression(t) for t in node.targets)
            return Assign(targets, expression(node.value), node.op, node.note, node.pure)
        case Append():
            return Append(node.into, expression(node.value), node.many, node.note)
        case Do():
            return Do(expression(node.value), node.note)
        case Return() if node.value is not None:
            return Return(expression(node.value), node.note)
        case Raise():
            return Raise(expression(node.value))
        case If():
            body = _block(node.body) or _pass()
            return If(expression(node.test), body, _block(node.orelse), node.note, node.chained, node.role)
        case For():
            return For(node.target, expression(node.iter), _block(node.body) or _pass(), _block(node.orelse), node.note)
        case While():
            return While(expression(node.test), _block(node.body) or _pass(), node.note)
    return node


def _pass() -> list[Node]:
    return [Pass()]


def expression(node: ast.expr) -> ast.expr:
    """`node` with its operations on known values worked out, bottom up (a node is rebuilt only
    where something inside it changed)."""
    return _local(_children(node))


def _children(node: ast.expr) -> ast.expr:
    changed = False
    fields: dict[str, Any] = {}
    for name in node._fields:
        value = getattr(node, name, None)
        if isinstance(value, ast.expr):
            new: object = expression(value)
            changed |= new is not value
        elif type(value) is list:
            items = [expression(v) if isinstance(v, ast.expr) else v for v in value]
            changed |= any(a is not b for a, b in zip(items, value, strict=True))
            new = items
        else:
            new = value
        fields[name] = new
    return type(node)(**fields) if changed else node


def _local(node: ast.expr) -> ast.expr:
    """One node folded, its children folded already."""
    match node:
        case ast.BinOp(left=left, op=op, right=right) if type(op) in _BINARY:
            a, b = _known(left), _known(right)
            if a is None or b is None or isinstance(a, bool) or isinstance(b, bool):
                return node
            if isinstance(op, (ast.FloorDiv, ast.Mod)) and b == 0:
                return node  # the checker's to refuse (E513), not the folder's to raise
            return ir.const(_BINARY[type(op)](a, b))
        case ast.UnaryOp(op=ast.Not(), operand=operand):
            a = _known(operand)
            return ir.const(not a) if a is not None else node
        case ast.Compare(left=ast.Constant() as left, ops=[ast.Is() | ast.IsNot() as op], comparators=[right]) if (
            isinstance(right, ast.Constant) and (left.value is None or right.value is None)
        ):
            return ir.const((left.value is right.value) == isinstance(op, ast.Is))  # a value is None or is not
        case ast.Compare(left=left, ops=ops, comparators=comparators):
            values = [_known(p) for p in [left, *comparators]]
            if any(v is None for v in values) or any(type(op) not in _COMPARE for op in ops):
                return node
            return ir.const(all(_COMPARE[type(op)](a, b) for op, a, b in zip(ops, values, values[1:], strict=False)))
        case ast.BoolOp(op=op, values=values):
            return _boolean(op, values) if _known(values[0]) is not None else node
        case ast.IfExp(test=test, body=body, orelse=orelse):
            known = _known(test)
            return node if known is None else body if known else orelse
    return node


def _boolean(op: ast.boolop, values: list[ast.expr]) -> ast.expr:
    """`True and x` is `x`, `False or x` is `x`; `False and x` is False, `True or x` is True."""
    skip = isinstance(op, ast.And)  # the known operand that adds nothing: True in `and`, False in `or`
    while len(values) > 1:
        first = _known(values[0])
        if first is None:
            break
        if bool(first) != skip:
            return values[0]  # `False and ...`, `True or ...`: the first operand is the value
        values = values[1:]
    return values[0] if len(values) == 1 else ast.BoolOp(op=op, values=values)


def truth(node: ast.expr) -> ast.expr:
    """`node` folded as a test, where only its truth counts: `x and False` is False and `x or True`
    is True (x read nothing it binds: no `:=` in it), a known True operand of `and` (False of
    `or`) adds nothing. What `if` does with it is what it did with `node`."""
    node = expression(node)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        inner = truth(node.operand)
        known = _known(inner)
        return ir.const(not known) if known is not None else ir.not_(inner)
    if not isinstance(node, ast.BoolOp):
        return node
    parts = [truth(v) for v in node.values]
    settles = not isinstance(node.op, ast.And)  # the value that settles the test: False in `and`, True in `or`
    if any(_known(p) is not None and bool(_known(p)) == settles for p in parts):
        if any(isinstance(x, ast.NamedExpr) for p in parts for x in ast.walk(p)):
            return ast.BoolOp(op=node.op, values=parts)
        return ir.const(settles)
    kept = [p for p in parts if _known(p) is None]
    if not kept:
        return ir.const(not settles)
    return kept[0] if len(kept) == 1 else ast.BoolOp(op=node.op, values=kept)
