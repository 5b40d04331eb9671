"""The greedy bot as it was before the closed-form scorer (issue 18), frozen for comparison.

bench/bench_greedy.py plays it against today's ``greedy`` to measure that the fast bot is
at least as strong. It clones the game for every legal action and scores each result
with the original heuristic; nothing in playtest uses it.
"""

from __future__ import annotations

import pathlib
import random
import sys
from dataclasses import dataclass

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from playtest.bots import Bot  # noqa: E402

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


def evaluate(game, p: int, f, w: Weights = WEIGHTS) -> float:
    """How good `game` looks for seat `p`, in prestige points, from the state attributes only.

    Prestige, bonuses, progress toward the visible nobles, and the best *targets*: the
    market cards and this seat's reserved cards, each worth its points and the use of its
    bonus, divided by the turns still needed to afford it with the tokens in hand.
    """
    if game.is_over():
        winners = game.winners()
        if p in winners:
            return WIN / len(winners) + game.prestige[p]
        return -WIN + game.prestige[p]
    b = game.bonus[p]
    t = game.tokens[p]
    gold = t[f.wild]
    score = w.prestige * game.prestige[p] + w.bonus * sum(b)
    # Nobles in view: progress toward each, and how much each gem colour still helps.
    useful = [1.0] * f.gems
    for n in game.noble_row:
        req = f.noble_req[n]
        total = f.noble_total[n]
        if not total:
            continue
        have = 0
        for g, (r, x) in enumerate(zip(req, b, strict=False)):
            if r > x:
                have += x
                useful[g] += f.noble_points[n] / total
            else:
                have += r
        score += w.noble * f.noble_points[n] * (have / total) ** 2
    # Targets: the market and this seat's reserved cards, by value over turns to buy.
    have = [x + y for x, y in zip(b, t, strict=False)]
    rates = []
    reserved = game.reserved[p]
    tp = w.throughput
    wp, wb = w.prestige, w.bonus
    costs, points, bonus = f.cost, f.points, f.bonus
    for pool in (*game.market, reserved):
        mine = pool is reserved
        for card in pool:
            if card is None:
                continue
            short = -gold
            for c, h in zip(costs[card], have, strict=False):
                if c > h:
                    short += c - h
            turns = -(-short // tp) if short > 0 else 0
            rates.append((wp * points[card] + wb * useful[bonus[card]]) / (1 + turns))
            if mine:
                score -= w.reserved * (1 + turns)
    rates.sort(reverse=True)
    for weight, r in zip(w.target, rates, strict=False):
        score += weight * r
    score += w.token * (sum(t) - gold) + w.gold * gold
    return score


def _best(scored: list[tuple[float, int]], rng: random.Random) -> int:
    top = max(s for s, _ in scored)
    ties = [a for s, a in scored if s >= top - 1e-9]
    return ties[0] if len(ties) == 1 else rng.choice(ties)


def ranked_actions(game, f, w: Weights = WEIGHTS) -> list[tuple[float, int]]:
    """Every legal action with the heuristic score, for the acting seat, of the end of its turn.

    When an action leaves the same seat with more to decide this turn (returning tokens,
    choosing a noble), those steps are played greedily before scoring, so that taking
    tokens is judged by what is kept.
    """
    p = game.current_player
    out = []
    for a in game.legal_actions():
        g = game.clone()
        g.apply(a)
        out.append((evaluate(finish_turn(g, p, f, w), p, f, w), a))
    return out


def finish_turn(g, p: int, f, w: Weights = WEIGHTS):
    """Plays seat p's remaining steps of this turn greedily (first best, no randomness)."""
    while not g.is_over() and g.current_player == p and g.phase != "action":
        best = None
        for a in g.legal_actions():
            h = g.clone()
            h.apply(a)
            s = evaluate(h, p, f, w)
            if best is None or s > best[0]:
                best = (s, h)
        g = best[1]
    return g


class OldGreedyBot(Bot):
    name = "greedy-old"

    def __init__(self, module, seed=None, weights: Weights = WEIGHTS):
        super().__init__(module, seed)
        self.weights = weights

    def choose(self, game) -> int:
        legal = game.legal_actions()
        if len(legal) == 1:
            return legal[0]
        return _best(ranked_actions(game, self.facts, self.weights), self.rng)
