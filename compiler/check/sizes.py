"""Pass 4, check: how many actions the engine numbers, counted without listing them.

The engine numbers every action up front: one id per combination of a decision's choices, plus
one per way to pay with the wild colour (its payment step). :func:`choice_size`,
:func:`payment_count` and :func:`action_sizes` count them as the lowering lays them out (the
lowering's tables are compared with them in tests/test_sizes.py); :func:`choices_with_values`
(E507) and :func:`action_space` (E515, and a step's `max` against its choices, E531) report on
a checked spec through the pass's :class:`~compiler.check.reader.Checker`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from ..model import Decision, Param
from . import termination
from .reader import Checker

# Past this many actions, compiling takes more than a second or two and the engine grows by
# megabytes, so check refuses the spec (E515) rather than let it explode.
MAX_ACTIONS = 10_000
PAY_STEP = "the payment step"


def payment_count(gems: int, gold: int, worth: int = 1) -> int:
    """How many ways to spend up to `gold` wild tokens over `gems` colours (the engine's PAYMENTS),
    each token standing for 1 to `worth` gems: g tokens on a colour cover g to worth*g of its gems."""
    if worth == 1:
        return math.comb(gold + gems, gems)
    ways = [1] + [0] * gold  # ways[t]: the payments over the colours so far that place t tokens
    for _ in range(gems):
        ways = [sum(ways[t - g] * ((worth - 1) * g + 1) for g in range(t + 1)) for t in range(gold + 1)]
    return sum(ways)


def table_worth(decisions) -> int:
    """The largest worth of any payment of these decisions (1 without `worth`): it sizes PAYMENTS."""
    return max((p.worth_max for d in decisions for p in d.params if p.worth is not None), default=1)


def wild_extra(decisions: Iterable[Decision]) -> int:
    """The most wild tokens components may add to one payment (`wilds`: a full holding of the
    components worth most): the engine's PAYMENTS reach the gold held plus these."""
    return max((p.wilds.limit * p.wilds.most_units for d in decisions for p in d.params if p.wilds), default=0)


def wild_places(decisions: Iterable[Decision]) -> dict[str, int]:
    """The holdings payments take components from, with their limits: the payment step has one
    action per place of each (`pay with vault 2`), in the order the decisions name them."""
    return {p.wilds.source: p.wilds.limit for d in decisions for p in d.params if p.wilds}


def max_gold(gems: int, worth: int = 1) -> int:
    """The most wild tokens whose payments alone stay within MAX_ACTIONS."""
    gold = 0
    while payment_count(gems, gold + 1, worth) <= MAX_ACTIONS:
        gold += 1
    return gold


def choice_size(param: Param, gems: int, levels: int, players) -> int:
    """How many values a choice takes in the engine's action table (`none` included)."""
    size = {
        "gem": gems,
        "colour": gems + 1,
        "deck": levels,
        "reserved": param.slots,
        "component": param.slots,
        "gem_set": sum(math.comb(gems, k) for k in range(param.min, min(param.max, gems) + 1)),
        "face_up": levels * max((p.face_up for p in players), default=0),
        "noble": max((p.nobles for p in players), default=0),
        "payment": payment_count(gems, max((p.gold for p in players), default=0), param.worth_max),
    }[param.domain]
    return size + (1 if param.optional else 0)


def action_sizes(gems, levels, players, decisions) -> dict[str, int]:
    """The engine's action ids by decision (and the payment step): as the lowering lays them out,
    computed without listing them. A payment chosen last is asked in the payment step."""
    sizes: dict[str, int] = {}
    deferred = False
    for d in decisions:
        params = list(d.params)
        if params and params[-1].domain == "payment":
            params, deferred = params[:-1], True
        sizes[d.name] = math.prod(choice_size(p, len(gems), len(levels), players) for p in params)
    if deferred:
        gold = max((p.gold for p in players), default=0) + wild_extra(decisions)
        sizes[PAY_STEP] = payment_count(len(gems), gold, table_worth(decisions)) + sum(wild_places(decisions).values())
    return sizes


def choices_with_values(c: Checker, gems, levels, players, actions, steps) -> None:
    """E507 for a decision with a choice that takes no value under this spec (no nobles or no
    face-up cards in any row of the player-count table, no reserved slots, gem sets larger than
    the colours): the engine would number no action for it, so it could never be taken."""
    for kind, decisions in (("action", actions), ("step", steps)):
        for d in decisions:
            for p in d.params:
                if choice_size(p, len(gems), len(levels), players):
                    continue
                hint = {
                    "noble": "no row of the player-count table reveals a noble (nobles: 0)",
                    "face_up": "no row of the player-count table has face-up cards (face_up: 0)",
                    "reserved": "it names none of the player's reserved cards (slots: 0)",
                    "component": "its zone has no place at any player count",
                    "gem_set": f"a set of {p.min} to {p.max} different gem colours, and there are {len(gems)}",
                }.get(p.domain, "")
                c.r.error(
                    "E507",
                    f"{kind} '{d.name}' can never be taken: its choice '{p.name}' has no value under this spec",
                    p.span,
                    hint,
                )


def action_space(c: Checker, gems, levels, players, decisions) -> None:
    """E515 when the engine would number more than MAX_ACTIONS actions, at what makes most of them;
    E531 for a step's `max` that would make the engine weigh too many choices."""
    sizes = action_sizes(gems, levels, players, decisions)
    for name, (high, span) in c.step_max.items():
        problem = termination.max_work_problem(high, sizes.get(name, 1))
        if problem:
            c.r.error("E531", problem, span)
    total = sum(sizes.values())
    if total <= MAX_ACTIONS:
        return
    biggest = max(sizes, key=lambda k: sizes[k])
    ranked = sorted(sizes.items(), key=lambda kv: -kv[1])
    parts = ", ".join(f"{n:,} for {k}" for k, n in ranked[:2]) + (", ..." if len(ranked) > 2 else "")
    if biggest == PAY_STEP:
        row = max(players, key=lambda p: p.gold)
        span = c.value_spans.get((row.players, "gold"), row.span)
        worth = table_worth(decisions)
        hint = (
            f"the ways to pay with {c.types.wild} grow fast with its tokens and the gem colours: "
            f"with {len(gems)} gem colours, at most {max_gold(len(gems), worth)} "
            f"{c.types.wild} tokens" + (f" of worth {worth}" if worth > 1 else "")
        )
        wilds = [p.wilds for d in decisions for p in d.params if p.wilds]
        if wilds:  # the components a payment may spend count as wild tokens too
            most = max(wilds, key=lambda w: w.limit * w.most_units)
            span = most.span
            hint += (
                f", components spent included ({most.limit} in '{most.source}' may stand for "
                f"{most.limit * most.most_units}): lower the holding's limit or the units"
            )
    else:
        decision = next(d for d in decisions if d.name == biggest)
        span = max(decision.params, key=lambda p: choice_size(p, len(gems), len(levels), players)).span
        hint = "each combination of the choices is one action: choose from fewer values, or split the action"
    c.r.error(
        "E515",
        f"the engine would number {total:,} actions ({parts}); at most {MAX_ACTIONS:,} compile "
        "in reasonable time and size",
        span,
        hint,
    )
