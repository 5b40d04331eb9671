"""Components spent as wild tokens (`wilds:` on a payment choice), lowered.

A payment with `wilds` may spend, beside the player's tokens, components of the acting player's
holding, each standing for the wild tokens its `units` column says (compiler/check/wilds.py). The
engine asks for them in the payment step, one at a time, in the holding's order: an action per
place (`pay with vault 2`, ids from _SPEND_BASE) sets a component aside (Game.wild_spent, the places
so far; saved as `wild_spent` while the payment waits), then a way to pay ends the payment. The
components set aside are wild tokens of the payment: the ways to pay offered are those of the gold
held plus their units, where no component is spent for nothing (all its units above what the
payment places), and the gold spent is what the components do not cover. A place is offered only
when some payment can still be completed with it (feasible only: the options' own function, called
with it set aside). Paying spends them: each goes where `spent` says (out of the game, or a zone).
"""

from __future__ import annotations

import ast

from ..model import Param, Rules, Wilds, Zone
from . import ir
from .pysource import comment
from .tree import Append, Assign, Continue, Do, For, If, Node, Return
from .zones import kind_table, zone_attr

DISCARD = "discard"  # compiler/check/wilds.py: `spent: discard`, the default


def _zone(rules: Rules, name: str) -> Zone:
    return next(z for z in rules.zones if z.name == name)


def _units(rules: Rules, wilds: Wilds, component: ast.expr) -> ast.expr:
    """`component.UNITS`: the wild tokens the component stands for, from its kind's table."""
    zone = _zone(rules, wilds.source)
    kind = next(k for k in rules.kinds if k.name == zone.holds)
    index = next(i for i, c in enumerate(kind.columns) if c.name == wilds.units)
    return ir.sub(ir.sub(kind_table(kind.name), component), index)


def holding(rules: Rules, wilds: Wilds) -> ast.expr:
    """`g.z_HOLDING[me]`: the acting player's holding the payment spends components from."""
    return ir.sub(ir.attr(ir.name("g"), zone_attr(_zone(rules, wilds.source))), "me")


def held_units(rules: Rules, wilds: Wilds) -> ast.expr:
    """The wild tokens every component of the acting player's holding stands for, together: what a
    purchase test adds to the gold held (can the player pay at all?)."""
    x = ir.name("_x")
    return ir.call(
        "sum", ast.GeneratorExp(elt=_units(rules, wilds, x), generators=[ir.comprehension(x, holding(rules, wilds))])
    )


def set_aside_units(rules: Rules, wilds: Wilds) -> list[Node]:
    """`_held`, `_spent` (the places set aside), `_units` (the wild tokens they stand for) and
    `_least` (the fewest of one of them: a payment placing `_units - _least` tokens or fewer spends
    one for nothing)."""
    held, spent, units, least, u = (ir.name(n) for n in ("_held", "_spent", "_units", "_least", "_u"))
    return [
        Assign((held,), holding(rules, wilds)),
        Assign((spent,), ir.dotted("g.wild_spent")),
        Assign((units,), ir.const(0)),
        Assign((least,), ir.const(wilds.most_units + 1)),
        For(
            ir.name("_k"),
            spent,
            [
                Assign((u,), _units(rules, wilds, ir.sub(held, "_k"))),
                Assign((units,), u, "+="),
                If(ir.compare(u, "<", least), [Assign((least,), u)]),
            ],
        ),
    ]


def budget() -> list[Node]:
    """`_tok`: the tokens held with the set-aside components' units added to the wild ones, as the
    payments helper reads a holder's tokens."""
    wild = ir.name("_WILD_INDEX")
    return [
        Assign((ir.name("_tok"),), ir.call("list", "tok")),
        Assign((ir.sub("_tok", wild),), ir.name("_units"), "+="),
    ]


def nothing_wasted(total: ast.expr) -> If:
    """Skip a payment that places `total` wild tokens when a component set aside would be spent for
    nothing (the others cover all it places)."""
    wasted = ir.and_(ir.name("_spent"), ir.compare(ir.minus("_units", total), ">=", "_least"))
    return If(wasted, [Continue()], note=comment("a component set aside would be spent for nothing"))


def more_places(function: str, first: int) -> list[Node]:
    """The places after the last set aside whose component may be set aside too: some payment can
    still be completed with it (this decision's options function, called with it set aside)."""
    spent, k = ir.name("_spent"), ir.name("_k")
    last = ir.ifexp(spent, ir.sub(spent, -1), ir.const(-1))
    return [
        For(
            k,
            ir.call("range", ir.add(last, 1), ir.call("len", "_held")),
            [
                Do(ir.method(spent, "append", k)),
                Assign((ir.name("_more"),), ir.call(function, "g", "args")),
                Do(ir.method(spent, "pop")),
                If(ir.name("_more"), [Append(ir.name("found"), ir.add(ir.add(ir.call("len", "PAYMENTS"), first), k))]),
            ],
        )
    ]


def bind_spent(rules: Rules, p: Param, name: str) -> list[Node]:
    """In a purchase's effects: the components set aside for its payment (`NAME_WILD`, taken from
    the holding's places, which the game forgets at once) and the gold spent, `NAME_GT`: what the
    payment places less what they stand for."""
    wilds = p.wilds
    assert wilds is not None
    held, spent = ir.name("_held"), ir.name(f"{name}_WILD")
    places = ir.dotted("g.wild_spent")
    x = ir.name("_x")
    units = ir.call("sum", ast.GeneratorExp(elt=_units(rules, wilds, x), generators=[ir.comprehension(x, spent)]))
    gold = ir.name(f"{name}_GT")
    return [
        Assign((held,), holding(rules, wilds)),
        Assign((spent,), ast.ListComp(elt=ir.sub(held, "_k"), generators=[ir.comprehension("_k", places)])),
        Assign((places,), ir.list_()),
        Assign((gold,), ir.call("max", ir.const(0), ir.minus(gold, units))),
    ]


def spend(rules: Rules, p: Param, name: str, located: str) -> list[Node]:
    """pay(payment), after the tokens: each component set aside goes where `spent` says."""
    wilds = p.wilds
    assert wilds is not None
    x = ir.name("_x")
    zone = _zone(rules, wilds.source)
    if wilds.spent == DISCARD:
        effect = ir.call("_zone_discard", "g", ir.const(zone.holds), x, ir.const(located))
    else:
        index = next(i for i, z in enumerate(rules.zones) if z.name == wilds.spent)
        effect = ir.call("_zone_move", "g", x, index, 0, ir.const(located))
    return [For(x, ir.name(f"{name}_WILD"), [Do(effect)])]


def options_tail(first: int, function: str) -> list[Node]:
    """The end of a wild payment's options function: the places still open, then the list."""
    return [*more_places(function, first), Return(ir.name("found"))]
