"""Definitions and prestige sources, lowered.

Calls of definitions are inlined before anything else is lowered (:func:`inline_rules`): every
expression of the rules is replaced by the same expression with each call written out as the
definition's body, its arguments in place (compiler/check/definitions.py), so the later passes (the
legal-action shapes, the prefilters, the scalar locals) see plain expressions and optimise
them as if the spec had written the body there. A spec without definitions is returned as it
is, so its engine is byte for byte what it was.

Prestige sources become one function, ``_xp(g, p)``: the prestige seat `p` has besides its cards
and nobles. The rules read a player's prestige as ``(g._pts[p] + _xp(g, p))`` (see
ExprCompiler.player_attr), and the engine's ``Game.prestige`` and ``Game.scores`` are set to the
same total after the Game class, so every reader (the terminal, the bots, the web API, the RL
observation's scores) sees one number. A spec without sources has none of it.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from ..check.inlining import inline_all
from ..front.expr import Call, unparse, walk
from ..model import Rules
from . import ir
from .expressions import ExprCompiler
from .layout import EnginePlan, where
from .pysource import comment, docstring, printable
from .tree import Assign, Comment, Def, Return, names_in

EXTRA_PRESTIGE = "_xp"


def inline_rules(rules: Rules) -> Rules:
    """`rules` with every call of a definition written out; the same object without definitions."""
    if not rules.definitions:
        return rules
    table = {d.name: d for d in rules.definitions}
    bodies: dict = {}  # each definition's body written out once, for all its calls

    def inl(node):
        return inline_all(node, table, bodies) if node is not None else None

    def decision(d):
        params = tuple(dataclasses.replace(p, price=inl(p.price), worth=inl(p.worth)) for p in d.params)
        return dataclasses.replace(
            d, params=params, condition=inl(d.condition), while_=inl(d.while_), effects=tuple(map(inl, d.effects))
        )

    winners = rules.winners
    winners = dataclasses.replace(
        winners,
        eligible=inl(winners.eligible),
        ranking=tuple(dataclasses.replace(level, by=inl(level.by)) for level in winners.ranking),
    )
    return dataclasses.replace(
        rules,
        actions=tuple(map(decision, rules.actions)),
        steps=tuple(map(decision, rules.steps)),
        end=tuple(dataclasses.replace(t, when=inl(t.when)) for t in rules.end),
        winners=winners,
        setup=tuple(dataclasses.replace(b, effects=tuple(map(inl, b.effects))) for b in rules.setup),
    )


def lower_prestige(plan: EnginePlan) -> list[list[Any]]:
    """The hook _prestige_totals(g) (the runtime's Game.prestige and Game.scores read it), and
    def _xp(g, p) before it when the spec has prestige sources, as the trees the printer writes
    (each list printed as one piece). Without sources the hook returns Game._pts itself, the
    list the effects keep, as Game.prestige always did."""
    sources = plan.rules.prestige
    doc = "Each seat's prestige: its cards and nobles"
    if not sources:
        return [[Def("_prestige_totals", "g", [Return(ir.dotted("g._pts"))], docstring(printable(doc + ".")))]]
    compiler = ExprCompiler(plan)
    env = {"player": ("var", "player", "p")}
    table = {d.name: d for d in plan.rules.definitions}
    called = sorted({x.func for s in sources for x in walk(s.by) if isinstance(x, Call) and x.func in table})
    body: list = []
    for source in sources:
        body.append(Comment(comment(f"prestige source '{source.name}': {unparse(source.by)} ({where(source.span)})")))
    if called:
        body.append(Comment(comment(f"(with {', '.join(called)} written out)")))
    total_xp = ir.total(compiler.expr(inline_all(s.by, table), env) for s in sources)
    if "sup" in names_in(total_xp):  # the supply, as every rule function reads it (a source such as supply[white])
        body.append(Assign((ir.name("sup"),), ir.dotted("g.supply")))
    body.append(Return(total_xp))
    xp = Def(
        EXTRA_PRESTIGE,
        "g, p",
        body,
        docstring(printable("The prestige seat p has besides its cards and nobles: the spec's prestige sources.")),
    )
    each = ir.add(ir.sub(ir.dotted("g._pts"), "p"), ir.call(EXTRA_PRESTIGE, "g", "p"))
    total = Def(
        "_prestige_totals",
        "g",
        [Return(ir.listcomp(each, "p", ir.call("range", ir.dotted("g._n"))))],
        docstring(printable(doc + ", and the prestige sources.")),
    )
    return [[xp], [total]]
