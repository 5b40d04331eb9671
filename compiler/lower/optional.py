"""The legal loop of an optional component, reserved card or noble (a part of
:class:`.legal.LegalLowering`, apart to keep each module small): each occupied place with its
position, then `none`, the id after the last place."""

from __future__ import annotations

import ast
from typing import Any

from ..model import Param
from . import ir
from . import zones as lower_zones
from .tree import Assign, Continue, For, If, Node


def optional_places(low: Any, p: Param, name: str, idx: str) -> tuple[For, str]:
    """An optional component, reserved card or noble: each occupied place with its position,
    then `none` with the id after the last place (as the action table counts them); what the
    tests read of it (a card's cost, a noble's requirements) bound only where it is set."""
    plan = low.plan
    if p.domain == "component":  # its places, then `none`: a tuple built in C, empty places skipped if any
        source, gaps = lower_zones.legal_source(plan.rules, p)
        each = ir.tuple_(ast.Starred(ir.call("enumerate", source), ast.Load()), ir.tuple_(p.slots, ir.const(None)))
        empty = ir.and_(ir.compare(name, "is", ir.const(None)), ir.compare(idx, "!=", p.slots))
        return For(ir.tuple_(idx, name), each, [If(empty, [Continue()])] if gaps else []), idx
    if p.domain == "reserved":
        source, after = ir.sub(ir.dotted("g._res"), "me"), p.slots
    else:
        source, after = ir.dotted("g.noble_row"), plan.max_nobles
    places = ir.listcomp(
        ir.tuple_("_i", "_x"),
        ir.tuple_("_i", "_x"),
        ir.call("enumerate", source),
        ir.compare("_x", "is not", ir.const(None)),
    )
    bindings: list[Node] = []
    if p.domain == "reserved" and low.reads_attribute(p.name, "cost"):
        bindings = low.cost_bindings(name)
    elif p.domain == "noble" and low.reads_attribute(p.name, "requires"):
        bindings = [Assign((ir.name(f"nr_{name}"),), ir.sub("NOBLE_REQUIRES", name), pure=True)]
    body: list[Node] = [If(ir.compare(name, "is not", ir.const(None)), bindings)] if bindings else []
    return For(ir.tuple_(idx, name), ir.add(places, ir.list_(ir.tuple_(after, ir.const(None)))), body), idx
