"""A hand-written engine for the official rules, to calibrate the generated one (bench only).

The issue that asked for the generated engine quotes a hand-tuned pure-Python engine with
the full rules at about 280,000 decisions/s "here". This module is a hand-written engine
for the official rules only, written plainly (flat lists, cost tuples unpacked, the cheap
tests first; none of the compiler's lowering tricks): the same action ids, the same seeded
deal, the same decisions (a payment step when several payments are possible, tokens
returned one at a time, the noble choice; a step with one option applied at once), so that

    python bench/bench_engine.py --engine bench/reference_engine.py --engine generated/engines/official.py

compares the two in one command, as a ratio that does not depend on how busy the machine
is. `python bench/reference_engine.py` plays both side by side and checks that they agree
on every legal action list and on the state after every move.

It borrows only data from the generated module (cards, nobles, the action and payment
tables, the setup table); every rule below is hand-written. It implements what the
benchmark calls: new_game, legal_actions, apply, is_over, mode, round.
"""
from __future__ import annotations

import importlib.util
import pathlib
import random
import sys

_GENERATED = pathlib.Path(__file__).resolve().parent.parent / "generated" / "engines" / "official.py"
_spec = importlib.util.spec_from_file_location("_official_tables", _GENERATED)
_tables = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_tables)

CARDS = _tables.CARDS
NOBLES = _tables.NOBLES
COST = _tables.CARD_COST
BONUS = _tables.CARD_BONUS
POINTS = _tables.CARD_POINTS
REQUIRES = _tables.NOBLE_REQUIRES
NOBLE_POINTS = _tables.NOBLE_POINTS
SETUP = _tables.SETUP
PAYMENTS = _tables.PAYMENTS
PAYMENT_INDEX = {p: i for i, p in enumerate(PAYMENTS)}
ACTIONS = _tables.ACTIONS
NUM_ACTIONS = len(ACTIONS)

# The id layout of the official spec's action table (checked against ACTIONS below).
TAKE3, TAKE2, RESERVE, BLIND, BUY, BUY_RESERVED, PASS, RETURN, NOBLE, PAY = 0, 25, 30, 42, 45, 57, 60, 61, 67, 72
ACTION_MODE, OVER, RETURN_MODE, NOBLE_MODE, PAY_MODE = -1, -2, 7, 8, 9
TARGET, TOKEN_LIMIT, RESERVE_LIMIT, PAIR_MINIMUM = 15, 10, 3, 4

# Ids of the take-3 action by supply bitmask (at most 3 colours, as many as the supply has).
_SUBSETS = [args[0] for d, args in ACTIONS if d == 0]
TAKE3_IDS = tuple(
    tuple(TAKE3 + i for i, s in enumerate(_SUBSETS)
          if all(mask >> c & 1 for c in s) and len(s) == min(3, bin(mask).count("1")))
    for mask in range(32))
BUY_IDS = tuple(range(BUY, BUY + 12)) + tuple(range(BUY_RESERVED, BUY_RESERVED + RESERVE_LIMIT))
assert [ACTIONS[a][0] for a in (TAKE3, TAKE2, RESERVE, BLIND, BUY, BUY_RESERVED, PASS, RETURN, NOBLE, PAY)] == \
    list(range(10)), "the official action table changed: update the id layout"


class IllegalAction(Exception):
    pass


class Game:
    __slots__ = ("n", "cp", "mode", "supply", "tok", "bon", "pts", "res", "market", "decks", "row", "round",
                 "last", "passes", "pending", "noble_done", "_legal", "history")

    def legal_actions(self):
        return self._legal[:]

    def is_over(self):
        return self.mode == OVER

    # -- legal actions

    def _main_legal(self):
        me = self.cp
        s = self.supply
        t = self.tok[me]
        b = self.bon[me]
        out = list(TAKE3_IDS[(1 if s[0] else 0) | (2 if s[1] else 0) | (4 if s[2] else 0) | (8 if s[3] else 0)
                             | (16 if s[4] else 0)])
        for c in range(5):
            if s[c] >= PAIR_MINIMUM:
                out.append(TAKE2 + c)
        market = self.market
        if len(self.res[me]) < RESERVE_LIMIT:
            out += [RESERVE + slot for slot, card in enumerate(market) if card >= 0]
            decks = self.decks
            if decks[0]:
                out.append(BLIND)
            if decks[1]:
                out.append(BLIND + 1)
            if decks[2]:
                out.append(BLIND + 2)
        w0, w1, w2, w3, w4, gold = b[0] + t[0], b[1] + t[1], b[2] + t[2], b[3] + t[3], b[4] + t[4], t[5]
        # the face-up cards (empty slots are -1), then the player's reserved cards
        for action, card in zip(BUY_IDS, market + self.res[me], strict=False):
            if card >= 0:
                c0, c1, c2, c3, c4 = COST[card]
                if c0 > w0 or c1 > w1 or c2 > w2 or c3 > w3 or c4 > w4:
                    if not gold or ((c0 - w0 if c0 > w0 else 0) + (c1 - w1 if c1 > w1 else 0) + (c2 - w2 if c2 > w2 else 0)
                                    + (c3 - w3 if c3 > w3 else 0) + (c4 - w4 if c4 > w4 else 0)) > gold:
                        continue
                out.append(action)
        return out or [PASS]

    def _payments(self, card):
        """Indexes of PAYMENTS (gold per gem) the acting player can pay `card` with, in order."""
        me = self.cp
        t, b = self.tok[me], self.bon[me]
        price = [max(0, COST[card][c] - b[c]) for c in range(5)]
        short = [max(0, price[c] - t[c]) for c in range(5)]
        spare = t[5] - sum(short)
        found = []

        def extend(c, left, vec):
            if c == 5:
                found.append(PAYMENT_INDEX[tuple(vec)])
                return
            for extra in range(min(price[c] - short[c], left) + 1):
                extend(c + 1, left - extra, vec + [short[c] + extra])

        if spare >= 0:
            extend(0, spare, [])
        return sorted(found)

    # -- moves

    def apply(self, action):
        if action not in self._legal or type(action) is not int:
            raise IllegalAction(action)
        self.history.append(action)
        me = self.cp
        if self.mode == ACTION_MODE:
            self.passes = self.passes + 1 if action == PASS else 0
            if action >= BUY and action < PASS:
                card = self.market[action - BUY] if action < BUY_RESERVED else self.res[me][action - BUY_RESERVED]
                options = self._payments(card) if self.tok[me][5] else [0]
                if len(options) > 1:
                    self.pending = action
                    self.mode = PAY_MODE
                    self._legal = [PAY + i for i in options]
                    return
                self._buy(action, options[0])
            else:
                self._main(action)
            self.noble_done = False
        elif self.mode == PAY_MODE:
            self._buy(self.pending, action - PAY)
            self.pending = None
            self.noble_done = False
        elif self.mode == RETURN_MODE:
            c = action - RETURN
            self.tok[me][c] -= 1
            self.supply[c] += 1
        else:  # NOBLE_MODE
            self._visit(self.row[action - NOBLE])
            self.noble_done = True
        self._after()

    def _main(self, action):
        me = self.cp
        s, t = self.supply, self.tok[me]
        if action < TAKE2:
            for c in _SUBSETS[action - TAKE3]:
                s[c] -= 1
                t[c] += 1
        elif action < RESERVE:
            c = action - TAKE2
            s[c] -= 2
            t[c] += 2
        elif action < BLIND:
            slot = action - RESERVE
            self.res[me].append(self.market[slot])
            deck = self.decks[slot // 4]
            self.market[slot] = deck.pop() if deck else -1
            if s[5]:
                s[5] -= 1
                t[5] += 1
        elif action < BUY:
            self.res[me].append(self.decks[action - BLIND].pop())
            if s[5]:
                s[5] -= 1
                t[5] += 1

    def _buy(self, action, payment):
        me = self.cp
        s, t, b = self.supply, self.tok[me], self.bon[me]
        if action < BUY_RESERVED:
            slot = action - BUY
            card = self.market[slot]
            deck = self.decks[slot // 4]
            self.market[slot] = deck.pop() if deck else -1
        else:
            card = self.res[me].pop(action - BUY_RESERVED)
        gold = PAYMENTS[payment]
        cost = COST[card]
        for c in range(5):
            paid = max(0, cost[c] - b[c]) - gold[c]
            if paid:
                t[c] -= paid
                s[c] += paid
        spent = sum(gold)
        t[5] -= spent
        s[5] += spent
        b[BONUS[card]] += 1
        self.pts[me] += POINTS[card]

    def _visit(self, noble):
        self.row.remove(noble)
        self.pts[self.cp] += NOBLE_POINTS[noble]

    def _after(self):
        """The end-of-turn steps (tokens over the limit, one noble), the end, the next turn."""
        me = self.cp
        t = self.tok[me]
        while sum(t) > TOKEN_LIMIT:
            options = [RETURN + c for c in range(6) if t[c]]
            if len(options) > 1:
                self.mode, self._legal = RETURN_MODE, options
                return
            c = options[0] - RETURN
            t[c] -= 1
            self.supply[c] += 1
        if not self.noble_done:
            self.noble_done = True
            b = self.bon[me]
            if b[0] + b[1] + b[2] + b[3] + b[4] >= 8:
                options = [NOBLE + i for i, x in enumerate(self.row)
                           if all(b[c] >= REQUIRES[x][c] for c in range(5))]
                if len(options) > 1:
                    self.mode, self._legal = NOBLE_MODE, options
                    return
                if options:
                    self._visit(self.row[options[0] - NOBLE])
        if self.pts[me] >= TARGET:
            if self.last is None:
                self.last = self.n - 1
        elif self.passes >= self.n:
            self.mode, self._legal = OVER, []
            return
        if self.last is not None and me == self.last:
            self.mode, self._legal = OVER, []
            return
        me += 1
        if me == self.n:
            me = 0
            self.round += 1
        self.cp = me
        self.mode = ACTION_MODE
        self._legal = self._main_legal()


def new_game(players, seed=None):
    gems, gold, nobles, face_up = SETUP[players]
    g = Game()
    g.n, g.cp, g.mode, g.round, g.last, g.passes, g.pending, g.noble_done = players, 0, ACTION_MODE, 1, None, 0, None, False
    g.supply = [gems] * 5 + [gold]
    g.tok = [[0] * 6 for _ in range(players)]
    g.bon = [[0] * 5 for _ in range(players)]
    g.pts = [0] * players
    g.res = [[] for _ in range(players)]
    g.history = []
    rng = random.Random(seed)
    g.market, g.decks = [], []
    for lv in (1, 2, 3):  # the generated engine's deal, card for card
        deck = [c.id for c in CARDS if c.level == lv]
        rng.shuffle(deck)
        g.market += [deck.pop() if deck else -1 for _ in range(face_up)]
        g.decks.append(deck)
    row = [x.id for x in NOBLES]
    rng.shuffle(row)
    g.row = row[:nobles]
    g._legal = g._main_legal()
    return g


def _agree(games: int) -> int:
    """Play random games on both engines; every legal list and the state after each move must match."""
    moves = 0
    for players in (2, 3, 4):
        for seed in range(games):
            a, b = new_game(players, seed), _tables.new_game(players, seed=seed)
            rng = random.Random(seed)
            while not b.is_over():
                assert a.legal_actions() == b.legal_actions(), (players, seed, len(b.history))
                x = rng.choice(b.legal_actions())
                a.apply(x)
                b.apply(x)
                moves += 1
                market = [c if c is not None else -1 for row in b.market for c in row]
                assert (a.supply, a.tok, a.bon, a.pts, a.res, a.market, a.row, a.round) == \
                    (b.supply, b.tokens, b.bonus, b.prestige, b.reserved, market, b.noble_row, b.round), (players, seed, len(b.history))
            assert a.is_over()
    return moves


if __name__ == "__main__":
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    print(f"the hand-written and the generated engine agree on {_agree(n):,} moves "
          f"({n} games per player count)")
