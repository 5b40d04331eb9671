"""The legal scan of a purchase: the cannot-pay test, and with tests on the payment, the search
for a payment they accept, the likeliest payments first (:mod:`.goldfree`). A part of
:class:`.legal.LegalLowering`, apart to keep each module small."""

from __future__ import annotations

import ast
from typing import Any

from ..front.expr import unparse
from ..model import Param
from . import ir
from .cases import always_true
from .goldfree import hold_without_gold, least_gold
from .layout import LoweringBug
from .optimise import enabled
from .pysource import comment
from .tree import Append, Assign, Break, Comment, Continue, For, If, Node, bound_names


class PurchaseScan:
    """The purchase part of the legal scan; the attributes are LegalLowering's."""

    low: Any
    plan: Any
    compiler: Any
    blocks: list[list[Any]]
    layouts: list[Any]
    n: int
    preamble: list[Any]

    def emit(self, level: int, into: list[Any], in_loop: bool) -> list[Any]:
        raise NotImplementedError  # LegalLowering.emit

    def _payment(self, k: int, p: Param, into: list[Node], terms: list[ast.expr]) -> None:
        """A purchase is legal when the player can pay (and, with tests on the payment, when some
        payment meets them, the likeliest tried first: see :mod:`.goldfree`): the payment itself
        is chosen in a step of its own."""
        low, compiler = self.low, self.compiler
        compiler.used_scalars.add("t")
        into.append(Comment(comment(f"price: {unparse(p.price)}")))
        tests = self.blocks[k + 1]
        likely = bool(tests) and self._likely_first(p, tests)
        gold_free = likely and hold_without_gold([node.test for node in tests], low.param_name(p), self._price_names())
        # The price is compiled here, in the loop: a part of it hoisted to a block already
        # written would never be bound (price 'size(levels)': NameError in the engine).
        saved, compiler.hoist = compiler.hoist, None
        written = len(into)
        short, plain, short_of_a_gem = low.cannot_pay(
            p, compiler, k, bool(tests) and not gold_free, into, self.preamble
        )
        priced = any(isinstance(n, Assign) and ir.same(n.targets, (ir.name("_p0"),)) for n in into[written:])
        prices = self._prices(p) if gold_free and not priced else []
        compiler.hoist = saved
        card = self.low.param_name(self.layouts[k - 1].param) if k else ""
        costs = [ir.name(f"cc_{card}_G{gi}") for gi in range(len(self.plan.gems))] if card else []
        into.append(
            If(
                short,
                [Continue(comment("the player cannot pay, even with all the gold they hold"))],
                role="unpayable" if plain is not None and ir.same(plain, costs) else "",
            )
        )
        if k != self.n - 1 or k == 0:
            raise LoweringBug("a payment must be the last choice of its action, after the card", p.span)
        if tests:  # conditions on the payment: is there one payment they accept?
            search = self._search(k, p)
            if gold_free and search:  # a payment without gold (the price in full), when there is one, passes
                note = comment("the tokens fall short: gold is spent (the tests hold for a payment without)")
                into.append(If(short_of_a_gem, [*prices, *search], note=note))
            elif not gold_free:
                into += search
        into.append(Append(ir.name("out"), ir.total(terms)))

    def _search(self, k: int, p: Param) -> list[Node]:
        """The walk of the payments for one the tests accept (`continue` when none does), behind
        the tests of the payment with the least gold when they can be written out; nothing at all
        when those tests hold in every game (:func:`.cases.always_true`): that payment exists
        whenever the player can pay."""
        low, compiler = self.low, self.compiler
        name = low.param_name(p)
        price = ir.tuple_(*self._price_names())
        worth = low.worth_arg(p, compiler)
        covers = [f"{name}_COVERS"] if worth else []
        loop = For(
            ir.tuple_("_i", f"{name}_GOLD", *covers, f"{name}_SPENT", f"{name}_GT"),
            ir.call("_payments", price, "tok", *worth),
            [],
            [Continue(comment("no payment meets the conditions"))],
        )
        self.emit(k + 1, loop.body, True).append(Break())
        tests = self.blocks[k + 1]
        least = (
            least_gold([node.test for node in tests], name, len(self.plan.gems))
            if self._likely_first(p, tests)
            else None
        )
        if least is None:
            return [loop]
        assigns, test = least
        if enabled() and always_true(test, {bound_names(node.targets[0])[0]: node.value for node in assigns}):
            return []  # the payment with the least gold, there whenever the player can pay, passes the tests
        return [*assigns, If(compiler.negation(test), [loop], note=comment("the payment with the least gold first"))]

    def _likely_first(self, p: Param, tests: list[object]) -> bool:
        """May the likeliest payments be tried first (see :mod:`.goldfree`)? Only of a payment in
        gold alone, one gem a token (no components standing for gold, no worth), and only when the
        block on the payment holds tests alone."""
        if p.wilds is not None or (self.plan.worth and p.worth is not None):
            return False
        return not any(isinstance(node, Node) for node in tests)  # Guards alone, no statement

    def _price_names(self) -> list[ast.expr]:
        return [ir.name(f"_p{gi}") for gi in range(len(self.plan.gems))]

    def _prices(self, p: Param) -> list[Node]:
        """`_p0 = ...`: the price of each gem, computed where the search for a payment needs it."""
        return [
            Assign((ir.name(f"_p{gi}"),), self.compiler.expr(p.price, {**self.low.env, "c": ("const", "colour", gi)}))
            for gi in range(len(self.plan.gems))
        ]
