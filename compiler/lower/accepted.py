"""The accepted values of a last choice worked out apart (:meth:`.legal.LegalLowering._last_apart`)
as a bitmask, and a face-up choice before it answered from a table when every slot holds a card
(issue 29, item 1: strength reduction).

A reservation that also chooses a token to pay (`tax`) has one id per card and token: the tokens
accepted are the same for every card, so the legal scan works them out once (`_ok1`, their
offsets) and each card adds them to its id (`out.extend(map(ID.__add__, _ok1))`): a call, a
`map` and an `extend` per face-up card, twelve a scan. Worked out as a bitmask instead
(`_okm1 = (1 if t0 >= 1 else 0) | ...`, one bit per value), the offsets are a row of a table
(`_OK_OFFSETS_7[_okm1]`), and when the market is full, the usual case, every card's ids are one
row of a table made when the engine is imported: one `extend` a scan. The ids come in the same
order as the loop's (slot by slot, each slot's values in increasing order), so the games are the
same move for move.

Nothing here knows a spec: any last choice whose values the tests accept apart, after a face-up
choice whose block tests nothing of the card, takes these shapes.
"""

from __future__ import annotations

import ast
from typing import Any

from . import fold, ir
from .pysource import Code, comment
from .tree import Append, Assign, If, Node, Table

MOST_VALUES = 8  # a bitmask of at most 8 values: tables of at most 256 rows


def offsets_table(values: int) -> Table:
    """`_OK_OFFSETS_n`: the set bits of each bitmask of `values` bits, in increasing order."""
    rows = [ir.const(tuple(v for v in range(values) if mask >> v & 1)) for mask in range(1 << values)]
    return Table(f"_OK_OFFSETS_{values}", rows, comment("the offsets of the values in each bitmask"))


def mask_block(k: int, bits: list[tuple[int, list[ast.expr]]], values: int, note: Code) -> list[Node]:
    """`_okmK`, the bitmask of the accepted values (each (offset, tests) of `bits`: accepted when
    its tests hold, always when it has none), and `_okK`, their offsets."""
    always = sum(1 << offset for offset, tests in bits if not tests)
    terms: list[ast.expr] = [ir.const(always)] if always else []
    terms += [ir.ifexp(ir.and_(*tests), ir.const(1 << offset), ir.const(0)) for offset, tests in bits if tests]
    mask = ir.total(terms, "|") if terms else ir.const(0)
    return [
        Assign((mask_name(k),), mask, note=note),
        Assign((ir.name(f"_ok{k}"),), ir.sub(f"_OK_OFFSETS_{values}", mask_name(k))),
    ]


def mask_name(k: int) -> ast.Name:
    return ir.name(f"_okm{k}")


def full_market_table(name: str, first: int, stride: int, slots: int, values: int) -> Assign:
    """`name`: for each bitmask of accepted values, the ids of every face-up slot (slot s's ids
    `first + s * stride` plus each accepted offset), made when the engine is imported."""
    ids = ast.GeneratorExp(
        elt=ir.add("_s", "_o"),
        generators=[
            ir.comprehension("_s", ir.call("range", first, first + slots * stride, stride)),
            ir.comprehension("_o", ir.sub(f"_OK_OFFSETS_{values}", "_m")),
        ],
    )
    rows = ir.genexp(ir.call("tuple", ids), "_m", ir.call("range", 1 << values))
    return Assign((ir.name(name),), ir.call("tuple", rows), note=comment("the face-up slots' ids, by bitmask"))


def full_market(low: Any, k: int, values: int, terms: list[ast.expr], stride: int, loop: Node) -> Node | None:
    """`loop` (a face-up choice k whose ids are `terms` + slot * `stride`, the accepted values of
    the last choice added) behind the full-market shortcut, or None when its first id is not
    known now."""
    first = fold.as_int(fold.sum_terms(terms))
    if first is None:
        return None
    plan = low.plan
    slots = len(plan.levels) * plan.max_face_up
    table = f"_FACE_UP_IDS_{low.dp.index}_{k}"
    low.add_helper(full_market_table(table, first, stride, slots, values))
    plan.face_up_costs = True  # the engine keeps Game.face_up_costs: an empty slot costs _NO_CARD_COST there
    return If(
        ir.compare("_NO_CARD_COST", "not in", ir.dotted("g.face_up_costs")),
        [Append(ir.name("out"), ir.sub(table, mask_name(k + 1)), many=True)],
        [loop],
        note=comment("every face-up slot holds a card"),
    )
