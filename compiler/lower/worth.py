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

from ..model import Rules
from .layout import unpacking
from .phases import gold_loops
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
    body: list = [Assign(("gold",), f"tok[{gems}]"), Assign((unpacking(f"p{i}" for i in g),), "price")]
    body += [Assign((f"n{i}",), f"p{i} - tok[{i}] if p{i} > tok[{i}] else 0") for i in g]
    spent = ", ".join(f"p{i} - v[{i}]" for i in g)
    body += [If("worth == 1", [  # each token one gem: the gold vectors' loops, each covering its own gold
        Assign(("short",), " + ".join(f"n{i}" for i in g)), If("short > gold", [Return("()")]),
        Assign(("out",), "[]"), Assign(("r",), "gold - short"),
        *gold_loops(gems, [Do(f"out.append((_PAYMENT_INDEX[v + v], v, v, ({spent},), gold - r{gems - 1}))")]),
        Do("out.sort()"), Return("out")])]
    body += [Assign((f"m{i}",), f"-(-n{i} // worth)") for i in g]
    body += [If(" + ".join(f"m{i}" for i in g) + " > gold", [Return("()")]), Assign(("out",), "[]")]
    for i in g:  # the (tokens, covers) each colour may take, with at most the gold left for it
        later = " - ".join(["gold"] + [f"m{j}" for j in g if j != i])
        body.append(Assign((f"o{i}",), f"[(t, c) for c in range(n{i}, p{i} + 1) "
                                      f"for t in range(-(-c // worth), (c if c < ({later}) else ({later})) + 1)]"))
    vec = ", ".join([f"t{i}" for i in g] + [f"c{i}" for i in g])
    spent = ", ".join(f"p{i} - c{i}" for i in g)
    inner: list = [Do(f"out.append((_PAYMENT_INDEX[({vec},)], ({', '.join(f't{i}' for i in g)},), "
                      f"({', '.join(f'c{i}' for i in g)},), ({spent},), gold - r{gems - 1}))")]
    for i in reversed(g):
        prev = "gold" if i == 0 else f"r{i - 1}"
        need = " + ".join(f"m{j}" for j in range(i + 1, gems)) or "0"
        inner = [For(f"t{i}, c{i}", f"o{i}", [Assign((f"r{i}",), f"{prev} - t{i}"),
                                             If(f"r{i} < {need}", [Continue()]), *inner])]
    body += inner + [Do("out.sort()"), Return("out")]
    doc = Code('"""(index, gold, covers, spent, gold total) of every payment of `price` the holder of `tok` can '
               'make, each wild token standing for 1 to `worth` gems."""')
    return Def("_payments", "price, tok, worth", body, doc)
