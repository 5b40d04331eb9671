"""A payment search skipped where the price is known to be zero: proof by cases on a choice that
may be `none` (issue 29, item 1: constant folding through a case split).

A step that offers an optional purchase (`card: {domain: face_up, optional: true}`, priced `if card
!= none then ... else 0`) is declined on most turns; its payments are still searched each time
(`_payments` over the price and the player's tokens) to find the one payment of nothing. With the
choice `none`, the price compiled for each gem colour reads the choice's local only as tested
against None: written in as None and folded (:mod:`.constants`), every colour costs 0, and the
only payment of a price of 0 is the one spending no gold, the first of PAYMENTS
(:func:`.layout.payment_vectors`). :func:`declined_is_free` returns the early return that says
so, for each such choice.

Nothing here knows a spec: the caller (:meth:`.decisions.DecisionLowering.payopts`) passes the
compiled price of each colour and the locals of the choices that may be `none`.
"""

from __future__ import annotations

import ast
import copy

from . import fold, ir
from .constants import expression
from .tree import If, Node, Return

FREE_PAYMENT = 0  # the zero vector comes first in PAYMENTS


def declined_is_free(prices: list[ast.expr], optional_locals: list[str]) -> list[Node]:
    """`if LOCAL is None: return [0]` for each local of `optional_locals` with which, as None,
    every price of `prices` folds to 0."""
    out: list[Node] = []
    for local in optional_locals:
        folded = [expression(_NoneFor(local).visit(copy.deepcopy(price))) for price in prices]
        if prices and all(fold.is_const(p, 0) for p in folded):
            out.append(If(ir.compare(local, "is", ir.const(None)), [Return(ir.list_(ir.const(FREE_PAYMENT)))]))
    return out


class _NoneFor(ast.NodeTransformer):
    """Each read of one local replaced by None."""

    def __init__(self, local: str):
        self.local = local

    def visit_Name(self, node: ast.Name) -> ast.AST:
        return ir.const(None) if node.id == self.local and isinstance(node.ctx, ast.Load) else node
