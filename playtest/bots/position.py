"""One seat's position taken apart, so that each candidate move is scored by what it changes.

:class:`Position` holds what no token move changes (prestige, bonuses, nobles, each target's
value) and, per market card, what it lacks (:class:`_Cards`); a candidate move is then a few
list lookups per card. It gives the scores of :func:`playtest.bots.heuristic.evaluate` for the
positions a move leads to, returns over the token limit included, without playing the move.
"""

from __future__ import annotations

import operator

from .engine_facts import Facts
from .heuristic import Weights, _inverse_turns, _seat_terms, _short


class Position:
    """One seat's position, taken apart once so that each candidate move is scored by its changes.

    `score(gain, flip, extras)` is the heuristic after the seat gains `gain` tokens (colour ->
    count, negative to give back), with card `flip` moved from the market to its reserve and
    `extras` (card, reserved?) added to the targets. What a move cannot change (prestige,
    bonuses, nobles, each target's value) is computed here once, and so is, per market card
    and gem colour, how many tokens short the seat would be after gaining or returning one
    or two of that colour: a candidate is then a few list lookups per card.
    """

    __slots__ = (
        "f",
        "w",
        "fixed",
        "tok",
        "ntok",
        "gold",
        "have",
        "useful",
        "market",
        "likely",
        "mine",
        "inverse",
        "memo",
        "known",
        "kept",
        "shared",
        "short_of",
        "bar",
        "rated",
    )

    def __init__(self, f: Facts, w: Weights, pts: int, bon, tok, reserved, noble_row, market):
        self.f, self.w = f, w
        fixed, useful = _seat_terms(f, w, pts, bon, noble_row)
        self.fixed = fixed
        self.useful = useful
        self.tok = tok
        self.ntok = sum(tok)
        self.gold = tok[f.wild]
        self.have = held = [x + y for x, y in zip(bon, tok, strict=False)]
        self.inverse = _inverse_turns(f, w.throughput)
        cards = [card for row in market for card in row if card is not None]
        wp, wb, points, bonus, needs = w.prestige, w.bonus, f.points, f.bonus, f.needs
        shorts = []
        lacking = []
        for card in cards:  # tokens short of each, summed over the colours it costs (_short inlined)
            short = lack = 0
            for g, k in needs[card]:
                k -= held[g]
                if k > 0:
                    short += k
                    lack |= 1 << g
            shorts.append(short)
            lacking.append(lack)
        self.market = _Cards(
            [wp * points[card] + wb * useful[bonus[card]] for card in cards],
            [f.cost[card] for card in cards],
            shorts,
            held,
            lacking,
        )
        self.likely: dict[int, _Cards] = {}  # contenders by the tokens gained
        self.bar: float | None = None  # the len(target)-th best rate now (contenders)
        self.rated: dict[int, list[float]] = {}  # see ahead
        self.short_of = dict(zip(cards, shorts, strict=True))  # what a face-up reserve asks of its card
        self.known: dict[int, tuple] = {}
        self.mine = [self.target(card, True) for card in reserved]
        # score by the tokens gained, for moves that only change tokens (what tokens_only returns)
        self.memo: dict[tuple, tuple[float, list[float], tuple, int]] = {}
        self.kept: dict[tuple, float] = {}  # score after the greedy's returns, by the tokens held over the limit
        self.shared: dict[tuple, list[tuple]] = {}  # _return_options by (extras, gain)

    def target(self, card: int, mine: bool) -> tuple:
        """(card, value, cost minus what the seat has per gem colour, tokens short, reserved?)."""
        known = self.known.get(card)
        if known is None:
            f, w = self.f, self.w
            e = list(map(operator.sub, f.cost[card], self.have))
            known = self.known[card] = (
                w.prestige * f.points[card] + w.bonus * self.useful[f.bonus[card]],
                e,
                _short(f.needs[card], self.have),
            )
        return (card, *known, mine)

    def score(self, gain: dict[int, int], flip: int | None, extras) -> float:
        key = tuple(sorted(x for x in gain.items() if x[1]))
        base = self.memo.get(key)
        if base is None:
            base = self.memo[key] = self.tokens_only(key)
        if flip is None and not extras:
            return base[0]
        total, penalty = self.parts(base, flip, extras)
        return total - penalty

    def parts(self, base: tuple, flip: int | None, extras) -> tuple[float, float]:
        """:meth:`score` of a reserve as (the score before the reserved cards' penalty, that
        penalty), from `base`, the :meth:`tokens_only` of its gain. Reserving a level's top
        card and reserving a face-up card of that level add the same target: their scores
        differ by the penalty alone, which lets ranked_actions score both from one call."""
        total, top, changes, gold = base
        # A reserve: the reserved card's penalty, and the targets it adds, on top of the same gain.
        w = self.w
        tp = w.throughput
        penalty = 0.0
        rates = list(top)
        others = [self.target(card, mine) for card, mine in extras]
        if flip is not None:
            others.append(self.target(flip, True))
        for card, value, e, short, mine in others:
            s = short - gold
            for c, k in changes:
                s += _short_change(e[c], k)
            turns = (s + tp - 1) // tp if s > 0 else 0
            if mine:
                penalty += w.reserved * (1 + turns)
            if card != flip:  # the flipped card is a market card already among the rates
                rates.append(value / (1 + turns))
        rates.sort(reverse=True)
        for weight, old, new in zip(w.target, top, rates, strict=False):
            total += weight * (new - old)
        if len(rates) > len(top):  # fewer targets than weights before
            for weight, new in zip(w.target[len(top) :], rates[len(top) :], strict=False):
                total += weight * new
        return total, penalty

    def tokens_only(self, gain: tuple[tuple[int, int], ...]) -> tuple[float, list[float], tuple, int]:
        """The score after gaining `gain` ((colour, count) pairs), with the best len(target) rates,
        the gem changes and the wild tokens held, which a reserve's score starts from."""
        w = self.w
        changes, wild, count, positive = self.f.split(gain)
        gold = self.gold + wild
        cards = (self.likely.get(count) or self.contenders(count)) if positive else self.market
        rates = cards.rates(changes, gold, self.inverse)
        total = self.fixed  # less the reserved cards' penalty (0.0 without one: the same number)
        if self.mine:
            penalty = 0.0
            tp = w.throughput
            for _, value, e, short, _ in self.mine:
                s = short - gold
                for c, k in changes:
                    s += _short_change(e[c], k)
                turns = (s + tp - 1) // tp if s > 0 else 0
                penalty += w.reserved * (1 + turns)
                rates.append(value / (1 + turns))
            total -= penalty
        rates.sort(reverse=True)
        del rates[len(w.target) :]
        for weight, r in zip(w.target, rates, strict=False):
            total += weight * r
        total += w.token * (self.ntok + count - gold) + w.gold * gold
        return total, rates, changes, gold

    def take_sums(self, masks: list[int], count: int) -> list[float]:
        """Takes of `count` tokens, one each of distinct gem colours or two of one (as
        Facts.take_masks holds them), from a position with no reserved card, before the tokens are counted:
        per take, :meth:`tokens_only`'s score less its last term (the tokens in hand), made in
        the same order, so that adding that term gives the same number. In one pass: a card's
        rate after a take depends only on how many of the colours it lacks the take brings (0
        to `count`), so each card's rates are made once and each take reads them by the
        popcount of its mask and the card's (:meth:`_Cards.lacks`), or, for two of colour c, by
        what column (c, 2) says."""
        w = self.w
        cards = self.likely.get(count) or self.contenders(count)
        inv, gold = self.inverse, self.gold
        steps = range(count + 1)
        rows = [[v * inv[s - gold - j] for j in steps] for v, s in zip(cards.values, cards.shorts, strict=True)]
        pairs = list(zip(rows, cards.lacks(), strict=True))
        pc = self.f.popcount
        target = w.target
        fixed = self.fixed
        out = []
        two = len(target) == 2 and len(rows) >= 2  # the usual weights: the sum written out, same order
        if two:
            first, second = target
        for mask in masks:
            if mask >= 0:
                rates = [row[pc[lack & mask]] for row, lack in pairs]
            else:
                col = cards.columns.get((~mask, 2)) or cards.column(~mask, 2)
                rates = [row[-d] for row, d in zip(rows, col, strict=True)]  # type: ignore[arg-type]
            if two:
                rates.sort()
                out.append(fixed + first * rates[-1] + second * rates[-2])
                continue
            rates.sort(reverse=True)
            total = fixed
            for weight, r in zip(target, rates, strict=False):
                total += weight * r
            out.append(total)
        return out

    def ahead(self, count: int) -> list[float]:
        """Each market card's rate were it `count` tokens closer (0: as it is), made once per
        count: the contenders, the take bounds and the reserve bounds read them."""
        rates = self.rated.get(count)
        if rates is None:
            inv, reach = self.inverse, self.gold + count
            market = self.market
            rates = self.rated[count] = [v * inv[s - reach] for v, s in zip(market.values, market.shorts, strict=True)]
        return rates

    def contenders(self, count: int) -> _Cards:
        """The market cards that may be among the best targets after a move that only gains
        tokens, `count` of them: such a move leaves every card at least as close, and brings
        none closer than `count` tokens; a card that even then would rate below the current
        len(target)-th best cannot displace the cards rated above it (they only gain too).
        Kept per count (a decision meets two or three: a reserve's wild token, takes of two
        and of three)."""
        likely = self.likely.get(count)
        if likely is None:
            market = self.market
            if self.bar is None:
                now = sorted(self.ahead(0), reverse=True)
                k = len(self.w.target)
                self.bar = now[k - 1] if len(now) > k else -1.0  # every rate is at least 0: all kept
            bar = self.bar
            if bar < 0:
                likely = market
            else:
                keep = [i for i, r in enumerate(self.ahead(count)) if r >= bar]
                lacking = market.lacking
                likely = _Cards(
                    [market.values[i] for i in keep],
                    [market.costs[i] for i in keep],
                    [market.shorts[i] for i in keep],
                    market.have,
                    None if lacking is None else [lacking[i] for i in keep],
                )
            self.likely[count] = likely
        return likely

    def score_kept(self, gain: dict[int, int], flip: int | None, extras) -> float:
        """`score` after the tokens over the limit are given back one at a time, each time the
        colour whose loss scores best (first in colour order on a tie), as the return step
        would be played greedily."""
        f = self.f
        over = self.ntok + sum(gain.values()) - f.limit if f.limit is not None else 0
        if over <= 0:
            return self.score(gain, flip, extras)
        if flip is None and not extras:
            return self._kept_tokens(gain, over)
        return self._returned(gain, flip, extras, over)

    def _kept_tokens(self, gain: dict[int, int], over: int) -> float:
        """:meth:`score_kept` of a move that only gains tokens. The returns from a hand depend on
        the hand alone, and the takes of one decision meet the same hands on their way down
        (take white, blue, green then return white holds what take blue, green, red then
        return red holds): the final score is kept per hand met (`kept`) and shared."""
        kept = self.kept
        start, start_over = gain, over
        key = _key(gain)
        path = []
        final: float | None = None
        while over > 0:
            final = kept.get(key)
            if final is not None:
                break
            path.append(key)
            choice = None
            best = 0.0
            for trial, trial_key, s, _ in self._return_options((), (), gain, key):
                if choice is None or s > best:
                    best, choice, chosen = s, trial, trial_key
            if choice is None:  # nothing left to give back (a limit below zero): as the general walk does
                return self._returned(start, None, (), start_over)
            gain, key, final = choice, chosen, best
            over -= 1
        assert final is not None  # score_kept calls this only with over > 0: the loop ran
        for key in path:
            kept[key] = final
        return final

    def _returned(self, gain: dict[int, int], flip: int | None, extras, over: int) -> float:
        """`score` after `over` tokens are given back greedily, one at a time.

        A reserve's score is the score without its own card (the same for every face-up
        reserve of a level) less that card's penalty (:meth:`flip_penalty`), so the reserves
        of a level walk their returns through one set of options (:meth:`_return_options`).
        """
        tag = tuple(extras)
        key = _key(gain)
        best = 0.0
        for _ in range(over):
            choice = None
            for trial, trial_key, s, base in self._return_options(tag, extras, gain, key):
                if flip is not None:
                    s -= self.flip_penalty(flip, base)
                if choice is None or s > best:
                    best, choice, chosen = s, trial, trial_key
            if choice is None:
                break
            gain, key = choice, chosen
        return best

    def _return_options(self, tag: tuple, extras, gain: dict[int, int], key: tuple) -> list[tuple]:
        """The hands one returned token away from gaining `gain` (its `key`), in colour order, each
        as (gain, key, ``score(gain, None, extras)``, its :meth:`tokens_only`): made once per
        hand and `extras` (tagged `tag`) and shared by every move whose returns pass through it."""
        options = self.shared.get((tag, key))
        if options is None:
            options = []
            memo = self.memo
            for c in range(self.f.colours):
                if self.tok[c] + gain.get(c, 0) > 0:
                    trial = dict(gain)
                    trial[c] = trial.get(c, 0) - 1
                    trial_key = _key(trial)
                    base = memo.get(trial_key)
                    if base is None:
                        base = memo[trial_key] = self.tokens_only(trial_key)
                    if extras:
                        total, penalty = self.parts(base, None, extras)
                        options.append((trial, trial_key, total - penalty, base))
                    else:
                        options.append((trial, trial_key, base[0], base))
            self.shared[(tag, key)] = options
        return options

    def flip_penalty(self, flip: int, base: tuple) -> float:
        """What reserving market card `flip` costs on top of :meth:`score` without it, after the
        gain whose :meth:`tokens_only` is `base`: its penalty as a reserved card (``score``
        subtracts the same number)."""
        _, _, changes, gold = base
        _, _, e, short, _ = self.target(flip, True)
        s = short - gold
        for c, k in changes:
            s += _short_change(e[c], k)
        tp = self.w.throughput
        return self.w.reserved * (1 + ((s + tp - 1) // tp if s > 0 else 0))


def _key(gain: dict[int, int]) -> tuple[tuple[int, int], ...]:
    """A gain of tokens (colour -> count) as its sorted (colour, count) pairs, zeros left out:
    the key of :meth:`Position.tokens_only` and of the memos built on it."""
    return tuple(sorted(x for x in gain.items() if x[1]))


class _Cards:
    """Market cards as columns: each one's value, cost per gem colour and tokens short for a
    seat holding `have` (bonuses plus tokens); `rates` scores them all after a change of
    tokens. What a card needs of one colour (its cost less what the seat has) is read per
    column, when a move first changes that colour."""

    __slots__ = ("values", "costs", "shorts", "have", "columns", "lacking")

    def __init__(
        self,
        values: list[float],
        costs: list[tuple[int, ...]],
        shorts: list[int],
        have: list[int],
        lacking: list[int] | None = None,
    ):
        self.values, self.costs, self.shorts, self.have = values, costs, shorts, have
        self.columns: dict[tuple[int, int], list[int]] = {}
        self.lacking = lacking  # see lacks

    def lacks(self) -> list[int]:
        """Per card, the bitmask of the gem colours of which it costs more than the seat has: a
        take of one token of each colour of a mask brings it one token closer per colour the two
        masks share (what column (c, 1) says colour by colour). Made on first use."""
        lacking = self.lacking
        if lacking is None:
            have = self.have
            gems = range(len(have))
            lacking = self.lacking = [sum(1 << c for c in gems if cost[c] > have[c]) for cost in self.costs]
        return lacking

    def rates(self, changes: tuple[tuple[int, int], ...], gold: int, inv: list[float]) -> list[float]:
        """Each card's value / (1 + turns to buy it) after the seat gains k of colour c for each
        (c, k) in `changes` and holds `gold` wild tokens."""
        columns = self.columns
        cols = [columns.get(ck) or self.column(*ck) for ck in changes]
        known = [col for col in cols if col is not None]
        vals, shorts = self.values, self.shorts
        if len(known) < len(cols):  # a change of more than two tokens of a colour: card by card
            have = self.have
            return [
                v * inv[s - gold + sum(_short_change(cost[c] - have[c], k) for c, k in changes)]
                for v, s, cost in zip(vals, shorts, self.costs, strict=True)
            ]
        if not known:
            return [v * inv[s - gold] for v, s in zip(vals, shorts, strict=True)]
        if len(known) == 1:
            return [v * inv[s - gold + a] for v, s, a in zip(vals, shorts, known[0], strict=True)]
        if len(known) == 2:
            return [v * inv[s - gold + a + b] for v, s, a, b in zip(vals, shorts, known[0], known[1], strict=True)]
        if len(known) == 3:
            return [
                v * inv[s - gold + a + b + c]
                for v, s, a, b, c in zip(vals, shorts, known[0], known[1], known[2], strict=True)
            ]
        return [v * inv[s - gold + sum(d)] for v, s, *d in zip(vals, shorts, *known, strict=True)]

    def column(self, c: int, k: int) -> list[int] | None:
        """The change in tokens short of each card when the seat gains k tokens of colour c
        (k from -2 to 2; None otherwise), made on first use (_short_change inlined)."""
        key = (c, k)
        col = self.columns.get(key)
        if col is None:
            h = self.have[c]
            xs = [cost[c] - h for cost in self.costs]
            if k == 1:
                col = [-1 if x > 0 else 0 for x in xs]
            elif k == 2:
                col = [-2 if x > 1 else -x if x > 0 else 0 for x in xs]
            elif k == -1:
                col = [1 if x >= 0 else 0 for x in xs]
            elif k == -2:
                col = [2 if x >= 0 else 1 if x == -1 else 0 for x in xs]
            else:
                return None
            self.columns[key] = col
        return col


def _short_change(x: int, k: int) -> int:
    """How many more tokens a card is short after gaining k (negative: giving back -k) of a
    colour of which it needs x more than the seat has (x < 0: the seat has -x to spare)."""
    before = x if x > 0 else 0
    x -= k
    return (x if x > 0 else 0) - before
