"""The greedy heuristic: how good a position looks for a seat, in prestige points.

:func:`evaluate` scores a game for a seat (prestige, bonuses, progress toward the visible
nobles, the best target cards and the turns to afford them); :func:`score_seat` is the same
arithmetic from a seat's parts, and :func:`values` turns the scores into the values in
[-1, 1] that the MCTS backs up. :class:`playtest.bots.position.Position` scores candidate
moves with the same terms, made here once per seat (:func:`_seat_terms`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .engine_facts import Facts

WIN = 1_000_000.0


@dataclass(frozen=True)
class Weights:
    """The heuristic's weights, in prestige points (see :func:`evaluate`)."""

    prestige: float = 1.0  # a point of prestige
    bonus: float = 0.8  # a permanent bonus (a discount on every later card)
    noble: float = 1.0  # times the noble's points, times the squared share of its requirement met
    target: tuple[float, ...] = (0.5, 0.2)  # the best targets' value per turn to buy them
    token: float = 0.05  # a coloured token in hand
    gold: float = 0.1  # a gold token in hand
    reserved: float = 1.0  # a reserved card, plus as much per turn it is from being bought
    throughput: int = 3  # tokens a turn can bring toward a card


WEIGHTS = Weights()


def evaluate(game, p: int, f: Facts, w: Weights = WEIGHTS) -> float:
    """How good `game` looks for seat `p`, in prestige points, from the state attributes only.

    Prestige, bonuses, progress toward the visible nobles, and the best *targets*: the
    market cards and this seat's reserved cards, each worth its points and the use of its
    bonus, divided by the turns still needed to afford it with the tokens in hand. A game
    over is worth WIN (shared among the winners) or -WIN, plus the seat's prestige.
    """
    if game.is_over():
        winners = game.winners()
        if p in winners:
            return WIN / len(winners) + game.prestige[p]
        return -WIN + game.prestige[p]
    return score_seat(
        f, w, game.prestige[p], game.bonus[p], game.tokens[p], game.reserved[p], game.noble_row, game.market
    )


def score_seat(f: Facts, w: Weights, pts: int, bon, tok, reserved, noble_row, market) -> float:
    """:func:`evaluate` of a seat given by its parts (a game not over).

    The same arithmetic, in the same order, as ``Position(...).score({}, None, ())`` (a
    purchase is scored this way, once per position: taking the position apart for
    candidate moves would cost more than the one score it gives).
    """
    fixed, useful = _seat_terms(f, w, pts, bon, noble_row)
    have = [x + y for x, y in zip(bon, tok, strict=False)]
    gold = tok[f.wild]
    inv = _inverse_turns(f, w.throughput)
    needs, points, bonus = f.needs, f.points, f.bonus
    wp, wb = w.prestige, w.bonus
    rates = []
    for row in market:
        for card in row:
            if card is not None:
                short = 0  # _short, inlined: a purchase scores every market card this way
                for g, k in needs[card]:
                    k -= have[g]
                    if k > 0:
                        short += k
                rates.append((wp * points[card] + wb * useful[bonus[card]]) * inv[short - gold])
    penalty = 0.0
    if reserved:
        tp = w.throughput
        for card in reserved:
            value = wp * points[card] + wb * useful[bonus[card]]
            s = _short(needs[card], have) - gold
            turns = (s + tp - 1) // tp if s > 0 else 0
            penalty += w.reserved * (1 + turns)
            rates.append(value / (1 + turns))
    rates.sort(reverse=True)
    total = fixed - penalty
    for weight, r in zip(w.target, rates, strict=False):
        total += weight * r
    return total + w.token * (sum(tok) - gold) + w.gold * gold


def _short(need: tuple[tuple[int, int], ...], have: list[int]) -> int:
    """Tokens short of a card whose cost is `need` ((colour, count) pairs) for a seat holding
    `have` (bonuses plus tokens) per colour, before any wild token."""
    short = 0
    for g, k in need:
        k -= have[g]
        if k > 0:
            short += k
    return short


def _seat_terms(f: Facts, w: Weights, pts: int, bon, noble_row) -> tuple[float, tuple[float, ...]]:
    """What no token move changes: (prestige, bonuses and noble progress in points, and each
    gem colour's usefulness: 1 plus its share of the nobles it still brings closer), kept in
    `f.terms` (a seat's bonuses and the noble row change a few times a game)."""
    key = (w, pts, tuple(bon), tuple(noble_row))
    terms = f.terms.get(key)
    if terms is None:
        if len(f.terms) >= 1 << 14:  # a bound on the memory a long run can hold
            f.terms.clear()
        terms = f.terms[key] = _seat_terms_made(f, w, pts, bon, noble_row)
    return terms


def _seat_terms_made(f: Facts, w: Weights, pts: int, bon, noble_row) -> tuple[float, tuple[float, ...]]:
    """:func:`_seat_terms`, computed."""
    useful = [1.0] * f.gems
    fixed = w.prestige * pts + w.bonus * sum(bon)
    for n in noble_row:
        total = f.noble_total[n]
        if not total:
            continue
        have = 0
        for g, r in f.noble_needs[n]:  # the colours it asks for (another adds 0 and changes nothing)
            x = bon[g]
            if r > x:
                have += x
                useful[g] += f.noble_points[n] / total
            else:
                have += r
        fixed += w.noble * f.noble_points[n] * (have / total) ** 2
    return fixed, tuple(useful)


_INVERSE: dict[tuple[int, int], list[float]] = {}


def _inverse_turns(f: Facts, tp: int) -> list[float]:
    """1 / (1 + turns to be s tokens short), indexed by s; negative s (tokens to spare) count
    from the end of the list, where every entry is 1 (no turn needed)."""
    key = (id(f), tp)
    table = _INVERSE.get(key)
    if table is None:
        most = max((sum(c) for c in f.cost if c), default=0) + 4 * f.colours + 8
        spare = sum(max(s[0] * f.gems + s[1], 0) for s in f.module.SETUP.values()) + 8 * f.colours + 8
        table = _INVERSE[key] = [1 / (1 + (s + tp - 1) // tp) for s in range(most)] + [1.0] * spare
    return table


def values(game, f: Facts, scale: float = 3.0) -> list[float]:
    """A value in [-1, 1] per seat: the final returns, or the heuristic's lead over the best rival."""
    if game.is_over():
        return list(game.returns())
    n = game.num_players
    e = [evaluate(game, p, f) for p in range(n)]
    out = []
    for p in range(n):
        rival = max(e[q] for q in range(n) if q != p) if n > 1 else 0.0
        out.append(math.tanh((e[p] - rival) / scale))
    return out
