"""Tree passes over expression nodes (:mod:`.ir`) that need no knowledge of the rules: what a node
is worth when it is known now, its negation as the engines write it, the counts that are never
negative, and the folding of sums of constant terms.

In the manner of Jinja2's ``optimizer.py`` and ``nodes.as_const``: a question about an
expression is asked of its node, never of the text it prints as (no ``isdigit()`` on code,
no ``startswith("len(")``). Every function takes nodes and returns nodes (or a value).
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Container, Iterable
from typing import Any

from . import ir


class Unknown(Exception):
    """The value of a node is not known at compile time."""


def as_const(node: ast.expr) -> Any:
    """The value of a node known now: a constant, `-constant`, a tuple of them; else raises Unknown."""
    match node:
        case ast.Constant(value=v):
            return v
        case ast.UnaryOp(op=ast.USub(), operand=ast.Constant(value=int() as v)) if not isinstance(v, bool):
            return -v
        case ast.Tuple(elts=elts):
            return tuple(as_const(e) for e in elts)
    raise Unknown


def as_int(node: ast.expr) -> int | None:
    """The integer a node is known to be now (not a bool), else None."""
    try:
        value = as_const(node)
    except Unknown:
        return None
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def is_const(node: ast.expr, value: object) -> bool:
    """Is the node the constant `value` (True, None, 0...), of its very type?"""
    try:
        known = as_const(node)
    except Unknown:
        return False
    return type(known) is type(value) and known == value


def is_true(node: ast.expr) -> bool:
    return is_const(node, True)


def drop_true(tests: Iterable[ast.expr]) -> list[ast.expr]:
    """The tests that are not `True` (a test known to hold adds nothing to a conjunction)."""
    return [t for t in tests if not is_true(t)]


def conjunction(tests: Iterable[ast.expr]) -> ast.expr:
    """`a and b and c` of the tests that are not `True`; `True` when none is left."""
    kept = drop_true(tests)
    return ir.and_(*kept) if kept else ir.const(True)


_INVERSE = {ast.In: ast.NotIn, ast.NotIn: ast.In, ast.Is: ast.IsNot, ast.IsNot: ast.Is}


def negate(node: ast.expr) -> ast.expr:
    """`not node` as the engines write it: a membership or identity test inverted (`x not in S`,
    which is what Python style asks and what CPython compiles `not (x in S)` to anyway), a
    negation undone, anything else under `not`."""
    match node:
        case ast.Compare(left=left, ops=[op], comparators=[right]) if type(op) in _INVERSE:
            return ast.Compare(left=left, ops=[_INVERSE[type(op)]()], comparators=[right])
        case ast.UnaryOp(op=ast.Not(), operand=operand) if isinstance(operand, ast.Compare):
            return operand
    return ir.not_(node)


def never_negative(node: ast.expr, counts: Container[str] = ()) -> bool:
    """Is the node a count that is never below 0: a length, or one of `counts` (the scalar locals
    of the supply, a player's tokens or bonuses that the expression compiler binds: s0, t1, b2)?"""
    match node:
        case ast.Name(id=n):
            return n in counts
        case ast.Call(func=ast.Name(id="len"), args=[_], keywords=[]):
            return True
    return False


def compare(left: ast.expr, op: str, right: ast.expr) -> ast.expr:
    """`left op right`, folded where the answer is known now: a count against 0 (`len(x) >= 0`
    is True), `== None` of a constant; `== None` written `is None` otherwise."""
    if op in ("==", "!=") and (is_const(left, None) or is_const(right, None)):
        if is_const(left, None):
            left, right = right, left
        value = as_int(left)
        if value is not None and value >= 0 or is_const(left, None):  # a value unrolled: known now
            return ir.const(is_const(left, None) == (op == "=="))
        return ir.compare(left, "is" if op == "==" else "is not", right)
    return ir.compare(left, op, right)


def membership(
    left: ast.expr, op: str, elements: list[Any] | None, collection: Callable[[], ast.expr] | ast.expr
) -> ast.expr:
    """`left in S` (`not in`): known now when `left` is a constant and S is (`elements`)."""
    value = as_int(left)
    if elements is not None and value is not None:
        return ir.const((value in elements) == (op == "in"))
    return ir.compare(left, op, collection() if callable(collection) else collection)


def sum_terms(terms: Iterable[ast.expr], extra: int = 0) -> ast.expr:
    """`a + b + k`: the terms that are not constants in order, then the sum of the constant ones
    (with `extra`), when it is not 0 (or when nothing else is left)."""
    terms = list(terms)
    fixed = sum(v for v in map(as_int, terms) if v is not None) + extra
    variable = [t for t in terms if as_int(t) is None]
    return ir.total(variable + ([ir.const(fixed)] if fixed or not variable else []))


def plus(node: ast.expr, offset: int) -> ast.expr:
    """`node + offset`, folded when `node` is a constant (`node - 1` for an offset of -1)."""
    value = as_int(node)
    if value is not None:
        return ir.const(value + offset)
    match node:  # (x + k) + offset is x + (k + offset): `row + 1 - 1` is `row`
        case ast.BinOp(left=inner, op=ast.Add(), right=right) if as_int(right) is not None:
            total = as_int(right) + offset  # type: ignore[operator]  # tested just above
            return inner if total == 0 else plus(inner, total)
    if offset < 0:
        return ir.minus(node, -offset)
    return ir.add(node, offset)
