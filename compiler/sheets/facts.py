"""Sheets, facts: what the rule model says, in no language.

Takes a :class:`~compiler.model.Rules`; answers the questions the sheet's layout
depends on: what a decision does (its *shape*, from its effects), which topic of the
sheet an action belongs to, where the wild colour can come from, whether a step is the
token limit, which rule element a variant's change belongs to. :mod:`.content` asks;
nothing here knows a word of any language.
"""
from __future__ import annotations

from typing import Iterable

from ..expr import Attribute, Compare, Effect, ForEach, Name, walk
from ..model import Decision, Rules
from .phrases import constant


def effect_names(stmts: Iterable) -> set[str]:
    return {n.name for s in stmts for n in walk(s) if isinstance(n, Effect)}


def value_names(rules: Rules, nodes: Iterable) -> set[str]:
    names = {v.name for v in rules.values}
    return {n.id for node in nodes if node is not None for n in walk(node) if isinstance(n, Name) and n.id in names}


def decision_nodes(d: Decision) -> list:
    return [d.condition, d.while_, *d.effects, *(p.price for p in d.params if p.price is not None)]


def shape(d: Decision) -> str:
    """What a decision does, by its effects: the key of its generated title."""
    names = effect_names(d.effects)
    domains = {p.domain for p in d.params}
    if "visit" in names:
        return "visit"
    if "acquire" in names:
        return "buy_reserved" if "reserved" in domains else "buy_face_up"
    if "reserve_top" in names:
        return "reserve_top"
    if "reserve" in names:
        return "reserve_face_up"
    if "take" in names and "gem_set" in domains:
        return "take_set"
    if "take" in names and ("gem" in domains or "colour" in domains):
        return "take_same"
    if names == {"put_back"}:
        return "return"
    if not names:
        return "pass"
    return "other"


def topic(d: Decision, rules: Rules) -> str:
    """The section of the sheet an action belongs to."""
    s = shape(d)
    if s in ("take_set", "take_same"):
        return "tokens"
    if s.startswith("reserve"):
        return "reserve"
    if s.startswith("buy"):
        return "buy"
    if "take" in effect_names(d.effects) and not _takes_only_wild(d, rules):
        return "tokens"
    return "other"


def _takes_only_wild(d: Decision, rules: Rules) -> bool:
    takes = [n for s in d.effects for n in walk(s) if isinstance(n, Effect) and n.name == "take"]
    return all(isinstance(t.args[0], Name) and t.args[0].id == rules.wild for t in takes)


def decisions(rules: Rules) -> list[tuple[str, Decision]]:
    """Every decision of the rules with its section ('actions', 'end_of_turn'), in sheet order.

    A fact about the game ("where gold comes from") is a fact about all of them: a step runs
    every turn as surely as an action is chosen, so no such fact may be read from actions alone.
    """
    return [("actions", d) for d in rules.actions] + [("end_of_turn", d) for d in rules.steps]


def wild_sources(rules: Rules) -> tuple[list[tuple[str, Decision]], bool]:
    """The decisions that give a wild token, with their sections, and whether an action of the
    'take tokens' kind can (a choice of colour that may be the wild one).

    A step that may give a wild token is a source whichever way it names the colour: it is not
    "taking tokens", which is an action.
    """
    givers: list[tuple[str, Decision]] = []
    from_taking = False
    for section, d in decisions(rules):
        for stmt in d.effects:
            for node in walk(stmt):
                if not (isinstance(node, Effect) and node.name == "take" and node.args):
                    continue
                colour = node.args[0]
                explicit = isinstance(colour, Name) and colour.id == rules.wild
                if not explicit and not _may_be_wild(colour, d, stmt):
                    continue
                if explicit or section != "actions":
                    if (section, d) not in givers:
                        givers.append((section, d))
                else:
                    from_taking = True
    return givers, from_taking


def _may_be_wild(colour, d: Decision, stmt) -> bool:
    if not isinstance(colour, Name):
        return True
    p = d.param(colour.id)
    if p is not None:
        return p.domain == "colour"
    for node in walk(stmt):  # a loop variable: over what?
        if isinstance(node, ForEach) and node.var == colour.id:
            coll = node.collection
            if isinstance(coll, Name):
                if coll.id == "gems":
                    return False
                q = d.param(coll.id)
                if q is not None and q.domain == "gem_set":
                    return False
            return True
    return True


def held_limit(rules: Rules):
    """(step, n) for a step that runs while `me.held > n` (the token limit), else (None, None)."""
    for d in rules.steps:
        w = d.while_
        if (isinstance(w, Compare) and w.op in (">", ">=") and isinstance(w.left, Attribute)
                and w.left.name == "held" and isinstance(w.left.obj, Name) and w.left.obj.id == "me"):
            n = constant(rules, w.right)
            if n is not None:
                return d, (n if w.op == ">" else n - 1)
    return None, None


def uses_attribute(nodes: Iterable, attr: str) -> bool:
    return any(isinstance(n, Attribute) and n.name == attr for node in nodes if node is not None for n in walk(node))


# ---------------------------------------------------------------------------- changes (variants)


def change_group(path: str) -> str:
    """The rule element a change belongs to: 'actions.take_pair', 'winners.ranking.nobles'..."""
    parts = path.split(".")
    if parts[0] == "winners" and len(parts) >= 3 and parts[1] == "ranking":
        return ".".join(parts[:3])
    if parts[0] in ("players", "values", "actions", "end_of_turn", "end", "winners", "components") and len(parts) >= 2:
        return ".".join(parts[:2])
    return parts[0]


def related(a: str, b: str) -> bool:
    return a == b or a.startswith(b + ".") or b.startswith(a + ".")
