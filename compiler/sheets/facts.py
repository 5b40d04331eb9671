"""Sheets, facts: what the rule model says, in no language.

Takes a :class:`~compiler.model.Rules`; answers the questions the sheet's layout
depends on: what a decision does (its *shape*, from its effects), which topic of the
sheet an action belongs to, where the wild colour can come from, whether a step is the
token limit, which rule element a variant's change belongs to. :mod:`.content` asks;
nothing here knows a word of any language.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import cast

from ..front.expr import Attribute, Compare, Effect, ForEach, Logic, Name, Origin, parse_expr, walk
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
        if (
            isinstance(w, Compare)
            and w.op in (">", ">=")
            and isinstance(w.left, Attribute)
            and w.left.name == "held"
            and isinstance(w.left.obj, Name)
            and w.left.obj.id == "me"
        ):
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
    if (
        parts[0]
        in (
            "players",
            "values",
            "actions",
            "end_of_turn",
            "end",
            "winners",
            "components",
            "setup",
            "define",
            "prestige",
            "state",
            "kinds",
        )
        and len(parts) >= 2
    ):
        return ".".join(parts[:2])
    return parts[0]


def related(a: str, b: str) -> bool:
    return a == b or a.startswith(b + ".") or b.startswith(a + ".")


# ---------------------------------------------------------------------------- common shapes
#
# A rule sheet says "take 3 tokens of different colours", not the condition that makes it so.
# The shapes below are recognised in the typed expressions (pattern trees parsed from the
# expression language, matched structurally with holes), so a variant that changes any part of
# them falls back to the general phrasing of :mod:`.phrases`, which is always correct.


@dataclass(frozen=True)
class TakeDifferent:
    """`for c in P: take(c, 1)` under "every chosen colour is in the supply and there are
    `count` of them" (`fallback`: "... or all the colours left, if fewer"; `up_to`: "at most
    `count` of them", as the player likes)."""

    count: int
    fallback: bool
    up_to: bool = False


@dataclass(frozen=True)
class ReturnToLimit:
    """The token limit: while you hold more than `limit`, return one token of your choice."""

    limit: int


@dataclass(frozen=True)
class NobleVisit:
    """A noble visits when your bonuses meet its requirements: `resolve` 'choice' (you choose
    among several, `once` a turn) or 'all' (every qualifying noble)."""

    resolve: str
    once: bool


# Holes: the chosen set, a chosen thing, a number, a loop variable.
_SET, _THING, _NUMBER, _VAR = "hole_set", "hole_thing", "hole_number", "hole_var"
_HOLES = (_SET, _THING, _NUMBER, _VAR)
_PATTERNS = {
    "available": "all(supply[hole_var] >= 1 for hole_var in hole_set)",
    "exact": "size(hole_set) == hole_number",
    "up_to": "size(hole_set) <= hole_number",
    "fallback": "size(hole_set) == min(hole_number, count(supply[hole_var] >= 1 for hole_var in gems))",
    "holds_one": "me.tokens[hole_thing] >= 1",
    "qualifies": "all(me.bonus[hole_var] >= hole_thing.requires[hole_var] for hole_var in gems)",
}


@functools.cache
def _pattern(key: str):
    text = _PATTERNS[key]
    return parse_expr(text, Origin.plain("<sheet pattern>", 1, 1, text))


def match(node, pattern, bound: dict | None = None) -> dict | None:
    """The holes of `pattern` bound to what `node` has in their place (a name's id, a number's
    node), or None when the trees differ. A hole names one thing throughout (a loop variable too)."""
    bound = {} if bound is None else bound
    return bound if _match(node, pattern, bound) else None


def _match(node, pattern, bound: dict) -> bool:
    if isinstance(pattern, Name) and pattern.id in _HOLES:
        return _bind(bound, pattern.id, node.id if isinstance(node, Name) and pattern.id != _NUMBER else node)
    if type(node) is not type(pattern):
        return False
    for f in dataclasses.fields(pattern):
        if f.name == "span":
            continue
        a, b = getattr(node, f.name), getattr(pattern, f.name)
        if f.name == "var" and b in _HOLES:
            if not _bind(bound, b, a):
                return False
        elif isinstance(b, tuple):
            if len(a) != len(b) or not all(_match(x, y, bound) for x, y in zip(a, b, strict=True)):
                return False
        elif dataclasses.is_dataclass(b):
            if not _match(a, b, bound):
                return False
        elif a != b:
            return False
    return True


def _bind(bound: dict, hole: str, value) -> bool:
    if hole in bound:
        return bound[hole] == value
    bound[hole] = value
    return True


def conjuncts(node: object) -> list[object]:
    """The parts of a chain of `and` (the node itself if it is none)."""
    if isinstance(node, Logic) and node.op == "and":
        return conjuncts(node.left) + conjuncts(node.right)
    return [node]


def name_uses(nodes: Iterable[object], name: str) -> int:
    """How often the name `name` occurs in `nodes` (a choice named by a condition or an effect)."""
    nodes_of = cast(Callable[[object], Iterable[object]], walk)
    return sum(1 for node in nodes for n in nodes_of(node) if isinstance(n, Name) and n.id == name)


def _conjuncts(node) -> list:
    if isinstance(node, Logic) and node.op == "and":
        return _conjuncts(node.left) + _conjuncts(node.right)
    return [node]


def take_different(d: Decision, rules: Rules) -> TakeDifferent | None:
    """The "take N tokens of different colours" shape, else None."""
    if len(d.params) != 1 or d.params[0].domain != "gem_set" or len(d.effects) != 1:
        return None
    chosen = d.params[0]
    loop = d.effects[0]
    if not (
        isinstance(loop, ForEach)
        and isinstance(loop.collection, Name)
        and loop.collection.id == chosen.name
        and isinstance(loop.body, Effect)
        and loop.body.name == "take"
        and loop.body.args[0] == Name(loop.var, loop.body.span)
        and constant(rules, loop.body.args[1]) == 1
    ):
        return None
    parts = _conjuncts(d.condition)
    available = match(parts[0], _pattern("available")) if len(parts) == 2 else None
    # the pattern binds the loop variable too: whatever it is named, the set must be the chosen one
    if available is None or available.get(_SET) != chosen.name or set(available) != {_SET, _VAR}:
        return None
    for key in ("fallback", "exact", "up_to"):
        got = match(parts[1], _pattern(key))
        if got is not None and got.get(_SET) == chosen.name:
            n = constant(rules, got[_NUMBER])
            if n is not None and 1 <= n and chosen.min <= n <= chosen.max and (key != "up_to" or chosen.min == 1):
                return TakeDifferent(n, key == "fallback", key == "up_to")
    return None


def return_to_limit(d: Decision, rules: Rules) -> ReturnToLimit | None:
    """The token-limit step in its usual shape: while `me.held > n`, choose a colour you hold and
    return one token of it, as often as needed, your choice."""
    step, limit = held_limit(rules)
    if step is not d or limit is None or len(d.params) != 1 or d.params[0].domain not in ("colour", "gem"):
        return None
    colour = d.params[0].name
    if d.repeat != "while" or d.resolve != "choice" or d.max_ is not None or len(d.effects) != 1:
        return None
    effect = d.effects[0]
    if not (
        isinstance(effect, Effect)
        and effect.name == "put_back"
        and effect.args[0] == Name(colour, effect.span)
        and constant(rules, effect.args[1]) == 1
    ):
        return None
    if match(d.condition, _pattern("holds_one")) != {_THING: colour}:
        return None
    return ReturnToLimit(limit)


def noble_visit(d: Decision) -> NobleVisit | None:
    """A visit that comes to whoever meets a noble's requirements (bonuses only)."""
    if len(d.params) != 1 or d.params[0].domain != "noble" or len(d.effects) != 1 or d.while_ is not None:
        return None
    noble = d.params[0].name
    effect = d.effects[0]
    if not (isinstance(effect, Effect) and effect.name == "visit" and effect.args[0] == Name(noble, effect.span)):
        return None
    got = match(d.condition, _pattern("qualifies"))
    if got is None or got.get(_THING) != noble:
        return None
    if d.resolve == "all":
        return NobleVisit("all", d.repeat == "once")
    if d.resolve == "choice" and d.repeat == "once":
        return NobleVisit("choice", True)
    return None


def rare(d: Decision) -> bool:
    """An action a player takes only when stuck (the pass of the base game): a rare case, told
    in a note, not counted among the kinds of action."""
    return d.only_when_stuck


def action_kind(d: Decision) -> str:
    """What the rule summaries count as one kind of action: reserving (from the display or a
    deck) is one kind, and so is buying; taking tokens one way or another are two."""
    s = shape(d)
    if s.startswith("reserve"):
        return "reserve"
    if s.startswith("buy"):
        return "buy"
    return s if s not in ("other", "pass") else f"{s}:{d.name}"


def rare_trigger(e, rules: Rules) -> bool:
    """An end that only a run of passes can bring (its condition counts passes) while passing is
    itself a rare case: a clarification, not a headline of the summary."""
    passes = any(isinstance(n, Name) and n.id == "passes" for n in walk(e.when))
    passers = [d for d in rules.actions if shape(d) == "pass"]
    return passes and bool(passers) and all(rare(d) for d in passers)
