"""Proof by cases: is a compiled test true in every game, given the definitions of the locals it
reads? Constant folding through definitions (issue 29, item 1).

A test that reads locals defined by conditional expressions (`_lg0 = _p0 - t0 if _p0 > t0 else 0`)
may hold whatever the values: `_lg0 == 0 or _p0 - _lg0 == t0` is `_p0 - t0 == 0 or t0 == t0`
when `_p0 > t0` and `0 == 0` otherwise. Such a test costs a scan its work for nothing, and
worse, keeps the code around it from the shapes that need a plain body (the slots written out,
:func:`.shapes.unrolled_slots`). :func:`always_true` writes the definitions in, splits on each
conditional (its test assumed true, then false, wherever it occurs), and folds what is left:
integer sums as linear forms over the names and other operands (`p - (p - t)` is `t`), so that
an equality or order of two forms that differ by a constant is known, and `and`, `or`, `not`
and `x if c else y` of known values. A test is proven only when every case folds to True;
anything not understood stays unknown, and the test is kept.

Nothing here knows a spec: the callers pass the compiled test and the definitions they wrote
(:func:`.purchase.PurchaseScan._search`, the payment with the least gold).
"""

from __future__ import annotations

import ast
import copy
import operator
from collections.abc import Callable, Mapping

_ORDER: dict[type, Callable[[int, int], bool]] = {
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
}
_SPLITS = 8  # conditionals split on, at most, per conjunct (2 ** _SPLITS cases)

Linear = tuple[dict[str, int], int]  # coefficients by operand (its ast.dump), and a constant


def always_true(test: ast.expr, definitions: Mapping[str, ast.expr]) -> bool:
    """Is `test` true whatever the values of what it reads, with each name of `definitions`
    standing for its expression (the definitions may not read each other)?"""
    return _holds(_rewritten(_Substitute(definitions), test), _SPLITS)


def _rewritten(transformer: ast.NodeTransformer, node: ast.expr) -> ast.expr:
    """A copy of `node` through `transformer` (an expression stays an expression)."""
    done = transformer.visit(copy.deepcopy(node))
    assert isinstance(done, ast.expr)
    return done


class _Substitute(ast.NodeTransformer):
    def __init__(self, definitions: Mapping[str, ast.expr]):
        self.definitions = definitions

    def visit_Name(self, node: ast.Name) -> ast.AST:
        value = self.definitions.get(node.id)
        return copy.deepcopy(value) if value is not None else node


def _holds(node: ast.expr, splits: int) -> bool:
    node = _rewritten(_Fold(), node)
    if isinstance(node, ast.Constant):
        return node.value is True
    if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.And):  # each conjunct on its own
        return all(_holds(value, splits) for value in node.values)
    branch = next((n for n in ast.walk(node) if isinstance(n, ast.IfExp)), None)
    if branch is None or splits == 0:
        return False
    return all(_holds(_rewritten(_Assume(branch.test, truth), node), splits - 1) for truth in (True, False))


class _Assume(ast.NodeTransformer):
    """The expression with `test` known to be `truth`: the test itself a constant wherever it
    occurs, and so each conditional on it its branch."""

    def __init__(self, test: ast.expr, truth: bool):
        self.key, self.truth = ast.dump(test), truth

    def visit(self, node: ast.AST) -> ast.AST:
        if isinstance(node, ast.expr) and ast.dump(node) == self.key:
            return ast.Constant(self.truth)
        done: ast.AST = super().visit(node)
        return done


class _Fold(ast.NodeTransformer):
    """Bottom up: comparisons of linear forms that differ by a constant, and the logic of known
    values."""

    def visit_Compare(self, node: ast.Compare) -> ast.AST:
        self.generic_visit(node)
        if len(node.ops) != 1 or type(node.ops[0]) not in _ORDER:
            return node
        left, right = _linear(node.left), _linear(node.comparators[0])
        if left is None or right is None:
            return node
        coefficients = {k: left[0].get(k, 0) - right[0].get(k, 0) for k in {*left[0], *right[0]}}
        if any(coefficients.values()):
            return node
        return ast.Constant(_ORDER[type(node.ops[0])](left[1] - right[1], 0))

    def visit_BoolOp(self, node: ast.BoolOp) -> ast.AST:
        self.generic_visit(node)
        absorbing = isinstance(node.op, ast.Or)  # True absorbs an `or`, False an `and`
        values = []
        for value in node.values:
            if isinstance(value, ast.Constant) and isinstance(value.value, bool):
                if value.value is absorbing:
                    return ast.Constant(absorbing)
                continue
            values.append(value)
        if not values:
            return ast.Constant(not absorbing)
        return values[0] if len(values) == 1 else ast.BoolOp(node.op, values)

    def visit_UnaryOp(self, node: ast.UnaryOp) -> ast.AST:
        self.generic_visit(node)
        if isinstance(node.op, ast.Not) and isinstance(node.operand, ast.Constant):
            return ast.Constant(not node.operand.value)
        return node

    def visit_IfExp(self, node: ast.IfExp) -> ast.AST:
        self.generic_visit(node)
        if isinstance(node.test, ast.Constant) and isinstance(node.test.value, bool):
            return node.body if node.test.value else node.orelse
        return node


def _linear(node: ast.expr) -> Linear | None:
    """`node` as a sum of operands times integers plus a constant; None for a value that may not
    be an integer (a flag, a conditional)."""
    match node:
        case ast.Constant(value=bool()):
            return None
        case ast.Constant(value=int() as value):
            return {}, value
        case ast.BinOp(op=ast.Add() | ast.Sub() as op, left=left, right=right):
            a, b = _linear(left), _linear(right)
            if a is None or b is None:
                return None
            sign = 1 if isinstance(op, ast.Add) else -1
            terms = dict(a[0])
            for k, v in b[0].items():
                terms[k] = terms.get(k, 0) + sign * v
            return terms, a[1] + sign * b[1]
        case ast.UnaryOp(op=ast.USub(), operand=operand):
            inner = _linear(operand)
            return None if inner is None else ({k: -v for k, v in inner[0].items()}, -inner[1])
        case ast.Name() | ast.Subscript() | ast.Attribute():
            return {ast.dump(node): 1}, 0
    return None
