"""The greedy bot: the legal action whose outcome scores best under the heuristic.

:func:`ranked_actions` scores each legal action from the state, without playing it (a
:class:`~playtest.bots.position.Position` per decision), and with ``best_only`` leaves out
the groups of moves whose bound (:mod:`playtest.bots.bounds`) is below the best move already
scored. A move it cannot model, or whose kind the engine's rules change, is played on a
clone (:func:`ranked_actions_by_clone` does so for every move: the reference the tests hold
the fast scoring to). :class:`GreedyBot` plays the best, ties broken by its own generator.
"""

from __future__ import annotations

import math
import random

from .base import Bot
from .bounds import _bounded, _held_bound, _level_bounds, _plan, _returns_within_reach, _take_bound
from .engine_facts import Facts, buy_outcome, qualifying, token_change
from .heuristic import WEIGHTS, Weights, evaluate, score_seat
from .position import Position


def _best(scored: list[tuple[float, int]], rng: random.Random) -> int:
    top = max(scored)[0] - 1e-9  # the best score (the pairs compare by score first)
    ties = [a for s, a in scored if s >= top]
    return ties[0] if len(ties) == 1 else rng.choice(ties)


def ranked_actions(
    game, f: Facts, w: Weights = WEIGHTS, best_only: bool = False, legal: list[int] | None = None
) -> list[tuple[float, int]]:
    """Every legal action with the heuristic score, for the acting seat, of the end of its turn.

    Scored from the state, without playing the move: the seat's position is taken apart
    once (:class:`Position`) and each move changes only what it touches. Returns over the
    token limit and the noble that visits are played as the greedy would play them. The
    score is that of :func:`ranked_actions_by_clone` for every move it models (tests hold
    them equal) except one that ends the game, which it scores like any other position. A
    move it does not model, or whose kind this engine's rules change, is played on a clone.

    `best_only` (what the greedy asks): the takes and reserves are scored last, and a take of
    n tokens (a reserve) is left out when no take of n tokens (no reserve) can score within
    1e-6 of the best move already scored (:func:`_take_bound`, :func:`_reserve_bound`): what
    is left holds the best move and every move :func:`_best` counts as tied with it, in the
    same order, so the greedy chooses as from the full list. `legal`: the game's legal actions
    when the caller has them already.
    """
    p = game.current_player
    if legal is None:
        legal = game.legal_actions()
    pending = qualifying(game.noble_row, game.bonus[p], f)  # nobles that visit at the end of this turn whatever it does
    if pending and game.phase == "action":
        return _ranked_with_a_noble_to_come(game, p, pending, f, w)
    turn = _Decision(game, p, f, w)
    pos, room = turn.pos, turn.room
    if best_only and not pos.mine and room >= 0 and _bounded(w):  # (a limit below 0 returns nothing)
        return _ranked_best_only(turn, legal)
    if best_only and room < -1 and not pos.mine and "tokens" not in f.untrusted and _bounded(w):
        colours = [c for c in map(f.returns.__getitem__, legal) if c is not None]
        if len(colours) == len(legal):  # the return step, more than one token to give back
            return _returns_within_reach(pos, legal, colours, room, turn.exact)
    moves = f.moves
    return [(turn.exact(a, moves[a]), a) for a in legal]


class _Decision:
    """One decision of the acting seat `p`, taken apart once: :meth:`exact` scores any of its
    legal actions from the state, and the bounds read its position (`pos`) and `room`."""

    __slots__ = ("game", "p", "f", "w", "pos", "room", "wild_gain", "reserves_kept", "by_level", "gold", "last_turn")

    def __init__(self, game, p: int, f: Facts, w: Weights):
        self.game, self.p, self.f, self.w = game, p, f, w
        self.pos = pos = Position(
            f, w, game.prestige[p], game.bonus[p], game.tokens[p], game.reserved[p], game.noble_row, game.market
        )
        self.room = f.limit - pos.ntok if f.limit is not None else 1 << 30  # tokens the seat may gain and keep
        self.wild_gain = ((f.wild, 1),) if game.supply[f.wild] >= 1 else ()
        self.reserves_kept = len(self.wild_gain) <= self.room  # a reserve's wild token is kept: no return to play
        self.by_level: dict[int, tuple[float, float]] = {}  # per level: _level_ahead
        self.gold = pos.gold + len(self.wild_gain)  # wild tokens after a reserve
        self.last_turn: bool | None = None  # does the game end with this turn? (trusted_within)

    def exact(self, a: int, move) -> float:
        """The score of action `a` (its move as Facts.moves reads it), the rest of the turn played greedily."""
        kind = move[0] if move is not None else None
        f = self.f
        if kind is None:
            return _score_by_clone(self.game, a, self.p, f, self.w)
        if kind in f.untrusted:
            if not self.within(a, kind):
                return _score_by_clone(self.game, a, self.p, f, self.w)
            if self.last_turn is not False:  # not known yet, or the game ends: on a clone, as it was
                return self.probe(a)
        if kind == "tokens" and f.gain_sizes[a] <= self.room:  # the common case: a take kept whole
            return self.kept_take(f.gain_keys[a])
        if kind == "reserve" and self.reserves_kept:  # the other common case: a face-up reserve
            return self.face_up_reserve(*move[1])
        if kind == "reserve_deck" and self.reserves_kept:  # the deck's top card, to the reserve
            ahead = self.level_ahead(move[1])
            return ahead[0] - ahead[1]
        if kind == "noble":
            return self.noble(move[1])
        if kind in ("buy", "buy_reserved"):
            return _score_buy(self.game, self.p, move, f, self.w)
        gain, flip, extras = token_change(self.game, self.p, move, f)
        return self.pos.score_kept(gain, flip, extras)

    def within(self, a: int, kind: str) -> bool:
        """May action `a`, of a kind this engine's rules change (Facts.untrusted), be scored from
        the state? When the rules change its kind over the token limit only (not in
        Facts.untrusted_within) and it leaves the seat within the limit, as
        :func:`~playtest.bots.engine_facts.predict` sees it; and the turn does not end the game
        (:meth:`probe`)."""
        f = self.f
        if kind in f.untrusted_within:
            return False
        if kind == "tokens":
            return bool(f.gain_sizes[a] <= self.room)
        if kind in ("reserve", "reserve_deck"):
            return self.reserves_kept
        return self.room >= 0  # a purchase, a noble or a pass brings no token

    def probe(self, a: int) -> float:
        """Action `a` scored on a clone (:func:`_score_by_clone`), noting whether the game is over
        after the turn: the first move of a decision that :meth:`within` admits is played so,
        and when the game ends with the turn every such move is (the clone reference sees the
        win, the scoring from the state does not)."""
        g = self.game.clone()
        g.apply(a)
        g = finish_turn(g, self.p, self.f, self.w)
        self.last_turn = g.is_over()
        return evaluate(g, self.p, self.f, self.w)

    def kept_take(self, key: tuple) -> float:
        """A take of the tokens `key` (Facts.gain_keys), all kept: its tokens_only score."""
        memo = self.pos.memo
        base = memo.get(key)
        if base is None:
            base = memo[key] = self.pos.tokens_only(key)
        return base[0]

    def level_ahead(self, level: int) -> tuple[float, float]:
        """:func:`_level_ahead` of a level, made once per decision."""
        ahead = self.by_level.get(level)
        if ahead is None:
            ahead = self.by_level[level] = _level_ahead(self.pos, self.wild_gain, self.game.decks[level])
        return ahead

    def face_up_reserve(self, level: int, k: int) -> float:
        """A reserve of face-up card `k` of `level`: the level's score less that card's penalty."""
        ahead = self.level_ahead(level)
        short = self.pos.short_of[self.game.market[level][k]]  # tokens short of the card
        tp, gold = self.w.throughput, self.gold
        return ahead[0] - self.w.reserved * (1 + ((short - gold + tp - 1) // tp if short > gold else 0))

    def noble(self, k: int) -> float:
        """Taking the noble at position `k` of the row."""
        game, p, f = self.game, self.p, self.f
        n = game.noble_row[k]
        row = [x for x in game.noble_row if x != n]
        return score_seat(
            f,
            self.w,
            game.prestige[p] + f.noble_points[n],
            game.bonus[p],
            game.tokens[p],
            game.reserved[p],
            row,
            game.market,
        )


class _Ranking:
    """The scores :func:`_ranked_best_only` has made, as (score, action) by position in the
    legal actions (None: not scored), and the best of them."""

    __slots__ = ("turn", "legal", "out", "best")

    def __init__(self, turn: _Decision, legal: list[int]):
        self.turn, self.legal = turn, legal
        self.out: list[tuple[float, int] | None] = [None] * len(legal)
        self.best = -math.inf

    def put(self, i: int, score: float) -> None:
        self.out[i] = (score, self.legal[i])
        if score > self.best:
            self.best = score

    def score(self, i: int) -> None:
        """Scores the action at position `i` (:meth:`_Decision.exact`)."""
        a = self.legal[i]
        self.put(i, self.turn.exact(a, self.turn.f.moves[a]))

    def scored(self) -> list[tuple[float, int]]:
        return [sa for sa in self.out if sa is not None]


def _ranked_best_only(turn: _Decision, legal: list[int]) -> list[tuple[float, int]]:
    """:func:`ranked_actions` with best_only, from a position with no reserved card and a limit
    not below 0: the moves always scored first, then takes by the tokens they bring and
    reserves (0), as positions in `legal` made once per list of legal actions (_plan); a group
    whose bound is below the best score so far (by 1e-6) is left out."""
    pos, room = turn.pos, turn.room
    first, deferred = _plan(turn.f, legal)
    ranking = _Ranking(turn, legal)
    for i in first:
        ranking.score(i)
    levels: list[float] = []
    for group, indexes, masks in deferred:  # takes of three first: their best may rule out the rest
        if group:
            bound = _take_bound(pos, group, room)
        else:
            levels = _level_bounds(pos, turn.game.decks, room)
            bound = max(levels, default=-math.inf)
        if bound < ranking.best - 1e-6:
            continue
        if masks is not None:
            _score_takes(ranking, group, indexes, masks)
        else:
            _score_group(ranking, group, indexes, levels)
    return ranking.scored()


def _score_takes(ranking: _Ranking, group: int, indexes: list[int], masks: list[int]) -> None:
    """The takes of `group` tokens that all have a take mask: scored together when they are kept
    whole; over the limit, each take's own bound (_take_bound's, with the take's own rates)
    first, best bounds first, its returns played only when that bound comes within reach."""
    turn = ranking.turn
    pos, w = turn.pos, turn.w
    sums = pos.take_sums(masks, group)
    if group <= turn.room:  # takes kept whole: their scores, made together
        held = w.token * (pos.ntok + group - pos.gold) + w.gold * pos.gold
        for i, total in zip(indexes, sums, strict=True):
            ranking.put(i, total + held)
        return
    cap = _held_bound(pos, turn.room)
    for j in sorted(range(len(indexes)), key=sums.__getitem__, reverse=True):
        if sums[j] + cap < ranking.best - 1e-6:
            break
        ranking.score(indexes[j])


def _score_group(ranking: _Ranking, group: int, indexes: list[int], levels: list[float]) -> None:
    """A group's moves one by one: takes of `group` tokens, or the reserves (group 0), but for
    a reserve at a level whose own bound (`levels`, :func:`_level_bounds`) is out of reach."""
    moves = ranking.turn.f.moves
    for i in indexes:
        move = moves[ranking.legal[i]]
        if not group and levels[move[1][0] if move[0] == "reserve" else move[1]] < ranking.best - 1e-6:
            continue  # a reserve at a level whose own bound is out of reach
        ranking.score(i)


def _level_ahead(pos: Position, wild_gain: tuple, deck: list[int]) -> tuple[float, float]:
    """A reserve at a level, as (the score before the penalty of the card reserved, and the
    penalty of the deck's top card when it is that card): the top card comes into view (to the
    market, or to the reserve from the deck) either way. A face-up reserve takes its own card's
    penalty off the first; reserving from the deck takes the second (the same numbers as
    ``pos.score(..., flip, [(top, False)])`` and ``pos.score(..., None, [(top, True)])``)."""
    key = wild_gain  # the wild token a reserve takes, as a tokens_only key
    base = pos.memo.get(key)
    if base is None:
        base = pos.memo[key] = pos.tokens_only(key)
    if not deck:
        return base[0], 0.0
    return pos.parts(base, None, [(deck[-1], True)])


def _ranked_with_a_noble_to_come(game, p: int, pending: list[int], f: Facts, w: Weights) -> list[tuple[float, int]]:
    """The actions of a seat that already qualifies for a noble (one a turn, or a tie between
    two): whatever it does, the noble step ends the turn with the best of them. A purchase
    is scored as always (the nobles it may add included); another move is scored in the
    position after each possible noble, the best kept, its returns (chosen before the noble
    comes) played on a clone."""
    row = game.noble_row
    after = [
        Position(
            f,
            w,
            game.prestige[p] + f.noble_points[row[i]],
            game.bonus[p],
            game.tokens[p],
            game.reserved[p],
            row[:i] + row[i + 1 :],
            game.market,
        )
        for i in pending
    ]
    tokens = sum(game.tokens[p])
    out = []
    for a in game.legal_actions():
        move = f.moves[a]
        kind = move[0] if move is not None else None
        if kind in ("buy", "buy_reserved") and kind not in f.untrusted:
            out.append((_score_buy(game, p, move, f, w), a))
            continue
        if kind in ("tokens", "pass", "reserve", "reserve_deck") and kind not in f.untrusted:
            gain, flip, extras = token_change(game, p, move, f)
            if f.limit is None or tokens + sum(gain.values()) <= f.limit:
                out.append((max(pos.score(gain, flip, extras) for pos in after), a))
                continue
        out.append((_score_by_clone(game, a, p, f, w), a))
    return out


def _score_buy(game, p: int, move, f: Facts, w: Weights) -> float:
    """A purchase, then the noble the greedy would take if any qualifies."""
    pts, bon, tok, reserved, market = buy_outcome(game, p, move, f)
    row = game.noble_row
    options = qualifying(row, bon, f)
    if not options:
        return score_seat(f, w, pts, bon, tok, reserved, row, market)
    return max(
        score_seat(f, w, pts + f.noble_points[row[i]], bon, tok, reserved, row[:i] + row[i + 1 :], market)
        for i in options
    )


def ranked_actions_by_clone(game, f: Facts, w: Weights = WEIGHTS) -> list[tuple[float, int]]:
    """The reference scoring: each legal action played on a clone, the rest of the turn played
    greedily (returns, a noble), and the result evaluated."""
    p = game.current_player
    return [(_score_by_clone(game, a, p, f, w), a) for a in game.legal_actions()]


def _score_by_clone(game, a: int, p: int, f: Facts, w: Weights) -> float:
    g = game.clone()
    g.apply(a)
    return evaluate(finish_turn(g, p, f, w), p, f, w)


def finish_turn(g, p: int, f: Facts, w: Weights = WEIGHTS):
    """Plays seat p's remaining steps of this turn greedily (first best, no randomness)."""
    while not g.is_over() and g.current_player == p and g.phase != "action":
        best = None
        for a in g.legal_actions():
            h = g.clone()
            h.apply(a)
            s = evaluate(h, p, f, w)
            if best is None or s > best[0]:
                best = (s, h)
        assert best is not None, "a game that is not over has a legal action"
        g = best[1]
    return g


class GreedyBot(Bot):
    name = "greedy"

    def __init__(self, module, seed=None, weights: Weights = WEIGHTS):
        super().__init__(module, seed)
        self.weights = weights

    def choose(self, game) -> int:
        legal = game.legal_actions()
        if len(legal) == 1:
            return legal[0]
        return _best(ranked_actions(game, self.facts, self.weights, best_only=True, legal=legal), self.rng)
