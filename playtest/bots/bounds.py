"""The greedy's upper bounds: which takes and reserves cannot beat the best move already scored.

Choosing needs only the best move and its ties. :func:`_take_bound`, :func:`_reserve_bound`
(per level :func:`_level_bounds`), :func:`_held_bound` (a take over the limit, with
:meth:`Position.take_sums`) and :func:`_returns_within_reach` (the return step) bound what a
group of moves can score, so that :func:`playtest.bots.greedy.ranked_actions` skips the
groups out of reach and chooses exactly as from the full list; :func:`_plan` orders a list of
legal actions into those groups once.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from .engine_facts import Facts
from .heuristic import Weights
from .position import Position


def _returns_within_reach(
    pos: Position, legal: list[int], colours: list[int], room: int, exact: Callable[[int, object], float]
) -> list[tuple[float, int]]:
    """The return step, best_only, with more tokens to give back after this one: a return of
    colour c, then the greedy's returns down to the limit, scores at most the rates after
    returning c (a later return brings no card closer) plus the limit's worth of tokens, the
    wild ones held worth more if a wild token weighs more (:func:`_held_bound`'s argument).
    The returns are scored from the best bound down, and those whose bound is out of reach of
    the best score (by 1e-6) are left out: the rest hold the best and its ties, in order."""
    f, w = pos.f, pos.w
    memo = pos.memo
    limit = pos.ntok + room
    bounds = []
    for a, c in zip(legal, colours, strict=True):
        key = f.gain_keys[a]
        base = memo.get(key)
        if base is None:
            base = memo[key] = pos.tokens_only(key)
        gold = pos.gold - (c == f.wild)
        bounds.append(
            base[0]
            - (w.token * (pos.ntok - 1 - gold) + w.gold * gold)
            + w.token * limit
            + max(0.0, w.gold - w.token) * gold
        )
    out: list[tuple[float, int] | None] = [None] * len(legal)
    best = -math.inf
    for i in sorted(range(len(legal)), key=bounds.__getitem__, reverse=True):
        if bounds[i] < best - 1e-6:
            break
        a = legal[i]
        score = exact(a, f.moves[a])
        out[i] = (score, a)
        if score > best:
            best = score
    return [sa for sa in out if sa is not None]


_BOUNDED: dict[Weights, bool] = {}


def _bounded(w: Weights) -> bool:
    """Do :func:`_take_bound`'s bounds hold for these weights? They need every weight at least
    0 and the targets' weights in decreasing order (a better target never weighs less).
    Answered once per weights."""
    held = _BOUNDED.get(w)
    if held is None:
        weights = (w.prestige, w.bonus, w.noble, w.token, w.gold, w.reserved, *w.target)
        held = _BOUNDED[w] = all(x >= 0 for x in weights) and all(
            a >= b for a, b in zip(w.target, w.target[1:], strict=False)
        )
    return held


def _plan(f: Facts, legal: list[int]) -> tuple[list[int], list[tuple[int, list[int], list[int] | None]]]:
    """How ranked_actions scores `legal` with best_only: (the positions in `legal` of the moves
    always scored, in order; then per deferral group (:func:`_deferred_group`), from the most
    tokens down to the reserves' 0, the positions of its moves, in order, and their take masks
    when every one has one (Position.take_scores), else None). Made once per list
    of legal actions and engine (a game meets a few hundred lists, and many again)."""
    key = tuple(legal)
    plan = f.plans.get(key)
    if plan is None:
        if len(f.plans) >= 1 << 14:  # a bound on the memory a long run can hold
            f.plans.clear()
        groups = f.groups
        first = []
        deferred: dict[int, list[int]] = {}
        for i, a in enumerate(legal):
            group = groups[a]
            if group is None:
                first.append(i)
            else:
                deferred.setdefault(group, []).append(i)
        masks = f.take_masks
        batches = []
        for group, indexes in sorted(deferred.items(), reverse=True):
            taken = [masks[legal[i]] for i in indexes]
            batches.append((group, indexes, None if not group or None in taken else taken))
        plan = f.plans[key] = (first, batches)
    return plan


def _held_bound(pos: Position, room: int) -> float:
    """The most the tokens in hand add to a score once tokens over the limit are given back (a
    take of more than `room`): the limit's worth of tokens, the wild ones held worth more if a
    wild token weighs more. With :meth:`Position.take_sums` of a take, a bound on its score, its
    returns included: they bring no card closer."""
    w = pos.w
    return w.token * (pos.ntok + room) + max(0.0, w.gold - w.token) * pos.gold


def _reserve_bound(pos: Position, decks, room: int) -> float:
    """No reserve scores more than this, from a position with no reserved card, the return over
    the limit included: the best of :func:`_level_bounds`."""
    return max(_level_bounds(pos, decks, room), default=-math.inf)


def _level_bounds(pos: Position, decks, room: int) -> list[float]:
    """Per level, no reserve of a card of that level (face up or the deck's top) scores more
    than this, from a position with no reserved card, the return over the limit included: it
    brings each card at most one token (a wild one) closer, puts one card into view (the
    level's deck top, rated at most its value; none when the deck is empty), and costs at
    least one reserved card's penalty."""
    w, f = pos.w, pos.f
    gold = pos.gold
    rates = sorted(pos.ahead(1), reverse=True)
    del rates[len(w.target) :]
    if room >= 1:
        held = w.token * (pos.ntok - gold) + w.gold * (gold + 1)
    else:
        held = w.token * (pos.ntok + room) + max(0.0, w.gold - w.token) * (gold + 1)
    out = []
    for d in decks:
        top = w.prestige * f.points[d[-1]] + w.bonus * pos.useful[f.bonus[d[-1]]] if d else 0.0
        best = sorted([*rates, top], reverse=True)
        total = pos.fixed - w.reserved
        for weight, r in zip(w.target, best, strict=False):
            total += weight * r
        out.append(total + held)
    return out


def _take_bound(pos: Position, count: int, room: int) -> float:
    """No take of `count` gem tokens scores more than this, from a position with no reserved
    card, the returns over the limit included. A take brings each card at most `count` tokens
    closer (and a return none), so a card's rate is at most its rate `count` tokens closer,
    and the best targets' weighted sum at most that of those rates; the tokens in hand are
    then what the take leaves, or the limit, at most the wild tokens held being wild."""
    w = pos.w
    gold = pos.gold
    rates = sorted(pos.ahead(count), reverse=True)
    total = pos.fixed
    for weight, r in zip(w.target, rates, strict=False):
        total += weight * r
    if count <= room:
        return total + w.token * (pos.ntok + count - gold) + w.gold * gold
    return total + w.token * (pos.ntok + room) + max(0.0, w.gold - w.token) * gold
