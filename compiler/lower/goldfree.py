"""The likeliest payments first: a purchase scan with tests on the payment tries the payment
without gold and the one with the least gold before it walks every payment.

A purchase with tests on its payment (`all(payment.gold[c] == 0 or ...)`) is legal when some
payment meets them, which the legal scan finds by walking `_payments(price, tok)`: a list
built, sorted and looked up for every card the player can pay. Two payments are known without
that walk, and either settles most cards:

* the payment without gold, which exists when the tokens held cover every gem of the price:
  no gold, the price spent in full. When the tests, with it written in as constants, fold to
  True (:func:`.constants.expression`), a card the tokens cover is legal as it is, and the rest
  of the search runs only behind the test that the tokens fall short of some gem;
* the payment with the least gold, which exists whenever the player can pay at all: on each
  gem, gold for what the tokens do not cover (`_lg0 = _p0 - t0 if _p0 > t0 else 0`), the rest
  in tokens. Its tests are written out on those locals and tried before the walk, which runs
  only when they fail; when they hold in every game (:mod:`.cases`: gold only for the shortfall),
  neither they nor the walk are written, and the scan is the one of a purchase without tests.

Nothing here knows a spec: the tests are the compiled guards, whatever they say; a test that
reads the payment in a way not written in here (a worth's covers) is not rewritten, and the
walk runs as it did.
"""

from __future__ import annotations

import ast
import copy
from collections.abc import Sequence

from . import ir
from .constants import expression
from .tree import Assign


class _Payment(ast.NodeTransformer):
    """A compiled test with the payment `name` written in: its gold and what it spends per gem,
    and its gold in total, as the expressions given."""

    def __init__(self, name: str, gold: Sequence[ast.expr], spent: Sequence[ast.expr], total: ast.expr):
        self.names = {f"{name}_GOLD": gold, f"{name}_SPENT": spent}
        self.total_name, self.total, self.payment = f"{name}_GT", total, name
        self.left: set[str] = set()  # the payment's names still read after the rewrite
        self.others = {name, f"{name}_COVERS"}  # what the payment's tests may read besides (its index, its covers)

    def visit_Subscript(self, node: ast.Subscript) -> ast.AST:
        if isinstance(node.value, ast.Name) and node.value.id in self.names and isinstance(node.slice, ast.Constant):
            index, parts = node.slice.value, self.names[node.value.id]
            if isinstance(index, int) and not isinstance(index, bool) and 0 <= index < len(parts):
                return copy.deepcopy(parts[index])
        return self.generic_visit(node)

    def visit_Name(self, node: ast.Name) -> ast.AST:
        if node.id in self.names:
            return ir.tuple_(*map(copy.deepcopy, self.names[node.id]))
        if node.id == self.total_name:
            return copy.deepcopy(self.total)
        if node.id in self.others:
            self.left.add(node.id)
        return node


def written_in(
    test: ast.expr, name: str, gold: Sequence[ast.expr], spent: Sequence[ast.expr], total: ast.expr
) -> ast.expr | None:
    """`test` of the payment `name` with that payment written in, folded; None when the test
    reads the payment in some other way."""
    rewrite = _Payment(name, gold, spent, total)
    done = rewrite.visit(copy.deepcopy(test))
    return None if rewrite.left else expression(ast.fix_missing_locations(done))


def hold_without_gold(tests: list[ast.expr], name: str, prices: list[ast.expr]) -> bool:
    """Does every test hold, whatever the price, for the payment made without gold?"""
    zeros = [ir.const(0)] * len(prices)
    for test in tests:
        folded = written_in(test, name, zeros, prices, ir.const(0))
        if not (isinstance(folded, ast.Constant) and folded.value is True):
            return False
    return True


def least_gold(tests: list[ast.expr], name: str, gems: int) -> tuple[list[Assign], ast.expr] | None:
    """The gold of the payment with the least gold, per gem (from the prices `_p0`... and the
    tokens `t0`...), and the tests written out on it; None when a test reads the payment
    otherwise."""
    gold = [ir.name(f"_lg{gi}") for gi in range(gems)]
    assigns = [
        Assign((gold[gi],), ir.ifexp(ir.compare(f"_p{gi}", ">", f"t{gi}"), ir.minus(f"_p{gi}", f"t{gi}"), ir.const(0)))
        for gi in range(gems)
    ]
    spent = [ir.minus(f"_p{gi}", gold[gi]) for gi in range(gems)]
    written = [written_in(test, name, gold, spent, ir.total(gold)) for test in tests]
    if any(w is None for w in written):
        return None
    return assigns, ir.and_(*(w for w in written if w is not None))
