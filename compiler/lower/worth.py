"""Payments with a worth (`worth:` on a payment choice): each wild token may stand for 1 to
`worth` gems of one colour.

A spec with a worth gets a table of gold + covers vectors (layout.payment_vectors) and this
module's `_payments(price, tok, worth)`, which walks only the feasible payments of a purchase
(per colour: the gems the gold covers, from what the tokens held cannot pay up to the price; the
tokens placed on them, from covers/worth rounded up to covers, never more than the gold held) and
finds each one's id in _PAYMENT_INDEX, so a purchase costs what its own payments cost, not the
table's thousands. A spec without a worth keeps phases.payments_helper, untouched.
"""

from __future__ import annotations

import ast

from ..model import Rules
from . import ir
from .phases import gold_loops, shortfall
from .pysource import Code
from .tree import Assign, Continue, Def, Do, For, If, Return


def spec_worth(rules: Rules) -> int:
    """0 when no payment has a worth; else the largest worth a game reaches (check proves it)."""
    worths = [p.worth_max for d in (*rules.actions, *rules.steps) for p in d.params if p.worth is not None]
    return max(worths) if worths else 0


def worth_payments_helper(gems: int) -> Def:
    """def _payments(price, tok, worth): (index, gold, covers, spent, gold total) of every payment
    of `price` the holder of `tok` can make when a wild token stands for 1 to `worth` gems.

    Per colour i: n_i = what the tokens held cannot pay; the gold covers c_i in n_i..p_i gems
    with g_i in ceil(c_i / worth)..c_i tokens (none for none). The least gold each colour needs,
    ceil(n_i / worth), summed over the colours after i, is kept back while choosing g_i.
    """
    g = range(gems)
    gold, worth, out, short, v = ir.name("gold"), ir.name("worth"), ir.name("out"), ir.name("short"), ir.name("v")
    body: list = [Assign((gold,), ir.sub("tok", gems)), Assign((ir.unpack(f"p{i}" for i in g),), ir.name("price"))]
    body += [Assign((ir.name(f"n{i}"),), shortfall(i)) for i in g]
    spent = ir.tuple_(*(ir.minus(f"p{i}", ir.sub(v, i)) for i in g))
    entry = ir.tuple_(ir.sub("_PAYMENT_INDEX", ir.add(v, v)), v, v, spent, ir.minus(gold, f"r{gems - 1}"))
    body += [
        If(
            ir.compare(worth, "==", 1),
            [  # each token one gem: the gold vectors' loops, each covering its own gold
                Assign((short,), ir.total(f"n{i}" for i in g)),
                If(ir.compare(short, ">", gold), [Return(ir.tuple_())]),
                Assign((out,), ir.list_()),
                Assign((ir.name("r"),), ir.minus(gold, short)),
                *gold_loops(gems, [Do(ir.method(out, "append", entry))]),
                Do(ir.method(out, "sort")),
                Return(out),
            ],
        )
    ]
    body += [Assign((ir.name(f"m{i}"),), ir.neg(ir.binop(ir.neg(f"n{i}"), "//", worth))) for i in g]
    body += [If(ir.compare(ir.total(f"m{i}" for i in g), ">", gold), [Return(ir.tuple_())]), Assign((out,), ir.list_())]
    for i in g:  # the (tokens, covers) each colour may take, with at most the gold left for it
        later = ir.total(["gold"] + [f"m{j}" for j in g if j != i], "-")
        least = ir.neg(ir.binop(ir.neg("c"), "//", worth))
        most = ir.ifexp(ir.compare("c", "<", later), "c", later)
        options = ast.ListComp(
            elt=ir.tuple_("t", "c"),
            generators=[
                ir.comprehension("c", ir.call("range", f"n{i}", ir.add(f"p{i}", 1))),
                ir.comprehension("t", ir.call("range", least, ir.add(most, 1))),
            ],
        )
        body.append(Assign((ir.name(f"o{i}"),), options))
    vec = ir.tuple_(*([f"t{i}" for i in g] + [f"c{i}" for i in g]))
    spent = ir.tuple_(*(ir.minus(f"p{i}", f"c{i}") for i in g))
    found = ir.tuple_(
        ir.sub("_PAYMENT_INDEX", vec),
        ir.tuple_(*(f"t{i}" for i in g)),
        ir.tuple_(*(f"c{i}" for i in g)),
        spent,
        ir.minus(gold, f"r{gems - 1}"),
    )
    inner: list = [Do(ir.method(out, "append", found))]
    for i in reversed(g):
        prev = ir.name("gold" if i == 0 else f"r{i - 1}")
        need = ir.total(f"m{j}" for j in range(i + 1, gems)) if i + 1 < gems else ir.const(0)
        left = ir.name(f"r{i}")
        inner = [
            For(
                ir.tuple_(f"t{i}", f"c{i}"),
                ir.name(f"o{i}"),
                [Assign((left,), ir.minus(prev, f"t{i}")), If(ir.compare(left, "<", need), [Continue()]), *inner],
            )
        ]
    body += inner + [Do(ir.method(out, "sort")), Return(out)]
    doc = Code(
        '"""(index, gold, covers, spent, gold total) of every payment of `price` the holder of `tok`\n'
        '    can make, each wild token standing for 1 to `worth` gems."""'
    )
    return Def("_payments", "price, tok, worth", body, doc)
