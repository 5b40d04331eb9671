"""A stand-in game module for the playtest tests, and the tests that keep it honest.

The top half is a small Splendor with the Engine API of the contract (module constants,
``new_game``/``from_json``/``replay``, ``Game`` with ``legal_actions``, ``apply``,
``clone``, ``observation`` ...). It exists so that the simulation machinery (statistics,
job splitting, determinism, progress, interruption) can be tested quickly and on its own;
it is a test fixture, not an engine: the real engines are generated from the spec, and
the playtest tests also run those (tests/test_playtest_engines.py).

Simplifications against the published rules: a card is paid automatically (coloured
tokens first, then gold), and the rule numbers below are fixed in the module (tests make
a variant by rewriting ``TARGET``). The bottom half checks the fixture itself: tokens
and cards are conserved, JSON round-trips, observations hide what they must.
"""

from __future__ import annotations

import csv
import itertools
import json
import pathlib
import random

SPEC_NAME = "standin"
SPEC_SHA256 = "0" * 64
GEMS = ("white", "blue", "green", "red", "black")
WILD = "gold"
COLOURS = GEMS + (WILD,)
LEVELS = (1, 2, 3)
PLAYER_COUNTS = (2, 3, 4)

TARGET = 15
TOKEN_LIMIT = 10
RESERVE_LIMIT = 3
PAIR_MINIMUM = 4
SETUP = {2: (4, 5, 3), 3: (5, 5, 4), 4: (7, 5, 5)}  # gems, gold, nobles per player count
FACE_UP = 4


class Card(tuple):
    __slots__ = ()
    _fields = ("id", "level", "bonus", "points", "cost")

    def __new__(cls, id, level, bonus, points, cost):
        return tuple.__new__(cls, (id, level, bonus, points, cost))

    id = property(lambda s: s[0])
    level = property(lambda s: s[1])
    bonus = property(lambda s: s[2])
    points = property(lambda s: s[3])
    cost = property(lambda s: s[4])


class Noble(tuple):
    __slots__ = ()

    def __new__(cls, id, points, requires):
        return tuple.__new__(cls, (id, points, requires))

    id = property(lambda s: s[0])
    points = property(lambda s: s[1])
    requires = property(lambda s: s[2])


DATA = pathlib.Path(__file__).resolve().parent.parent / "rulespec"  # the card and noble tables


def _read(name):
    with open(DATA / name, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


CARDS = tuple(
    Card(i, int(r["level"]), r["bonus"], int(r["points"]), tuple(int(r[g]) for g in GEMS))
    for i, r in enumerate(_read("splendor_cards.csv"))
)
NOBLES = tuple(
    Noble(i, int(r["points"]), tuple(int(r[g]) for g in GEMS)) for i, r in enumerate(_read("splendor_nobles.csv"))
)
_BONUS = tuple(GEMS.index(c.bonus) for c in CARDS)

# The action table: every action a seat can ever take, by number.
_TABLE = []
for _n in (3, 2, 1):
    for _s in itertools.combinations(range(5), _n):
        _TABLE.append(("take_different", {"picked": [GEMS[g] for g in _s]}, ("take", _s)))
for _g in range(5):
    _TABLE.append(("take_pair", {"colour": GEMS[_g]}, ("take2", _g)))
for _l in range(3):
    for _slot in range(FACE_UP):
        _TABLE.append(("reserve_face_up", {"card": f"{_l + 1}.{_slot + 1}"}, ("reserve", _l, _slot)))
for _l in range(3):
    _TABLE.append(("reserve_blind", {"level": _l + 1}, ("reserve_deck", _l)))
for _l in range(3):
    for _slot in range(FACE_UP):
        _TABLE.append(("buy_face_up", {"card": f"{_l + 1}.{_slot + 1}"}, ("buy", _l, _slot)))
for _i in range(RESERVE_LIMIT):
    _TABLE.append(("buy_reserved", {"card": _i + 1}, ("buy_reserved", _i)))
for _c in range(6):
    _TABLE.append(("return_tokens", {"colour": COLOURS[_c]}, ("return", _c)))
for _i in range(5):
    _TABLE.append(("noble_visit", {"noble": _i + 1}, ("noble", _i)))
_TABLE.append(("pass", {}, ("pass",)))
NUM_ACTIONS = len(_TABLE)
DECISIONS = (
    "take_different",
    "take_pair",
    "reserve_face_up",
    "reserve_blind",
    "buy_face_up",
    "buy_reserved",
    "pass",
    "return_tokens",
    "noble_visit",
)


def _notation(a):
    op = _TABLE[a][2]
    kind = op[0]
    if kind == "take":
        return "take " + " ".join(GEMS[g] for g in op[1])
    if kind == "take2":
        return f"take2 {GEMS[op[1]]}"
    if kind == "reserve":
        return f"reserve {op[1] + 1}.{op[2] + 1}"
    if kind == "reserve_deck":
        return f"reserve deck {op[1] + 1}"
    if kind == "buy":
        return f"buy {op[1] + 1}.{op[2] + 1}"
    if kind == "buy_reserved":
        return f"buy reserved {op[1] + 1}"
    if kind == "return":
        return f"return {COLOURS[op[1]]}"
    if kind == "noble":
        return f"noble {op[1] + 1}"
    return "pass"


_NOTATIONS = tuple(_notation(a) for a in range(NUM_ACTIONS))
_BY_NOTATION = {n: a for a, n in enumerate(_NOTATIONS)}


class IllegalAction(Exception):
    pass


class NotationError(ValueError):
    pass


class StateError(ValueError):
    pass


def action_to_string(a):
    return _NOTATIONS[a]


def string_to_action(text):
    key = " ".join(str(text).split())
    if key not in _BY_NOTATION:
        raise NotationError(f"unknown action {text!r}")
    return _BY_NOTATION[key]


def describe_action(a):
    name, params, _ = _TABLE[a]
    return name, dict(params)


class Game:
    def __init__(self, players):
        self.num_players = players
        self.seed = None
        self.supply = []
        self.tokens = [[0] * 6 for _ in range(players)]
        self.bonus = [[0] * 5 for _ in range(players)]
        self.prestige = [0] * players
        self.purchased = [[] for _ in range(players)]
        self.reserved = [[] for _ in range(players)]
        self.blind = [[] for _ in range(players)]  # the reserved cards that came from a deck
        self.nobles = [[] for _ in range(players)]
        self.turns = [0] * players
        self.market = [[None] * FACE_UP for _ in range(3)]
        self.decks = [[] for _ in range(3)]
        self.noble_row = []
        self.current_player = 0
        self.phase = "action"
        self.step_count = 0
        self.round = 1
        self.turn = 1
        self.passes = 0
        self.ending = None
        self.end_reason = None
        self.max_turns = None  # the length cap: the game ends truncated instead of starting turn max_turns + 1
        self.history = []
        self._legal = None

    # -- queries
    def is_over(self):
        return self.phase == "over"

    def is_truncated(self):
        return self.end_reason == "truncated"

    def scores(self):
        return list(self.prestige)

    def winners(self):
        if not self.is_over() or self.is_truncated():
            return []
        key = [(self.prestige[p], -len(self.purchased[p])) for p in range(self.num_players)]
        best = max(key)
        return [p for p in range(self.num_players) if key[p] == best]

    def returns(self):
        if not self.is_over() or self.is_truncated():
            return [0.0] * self.num_players
        w = set(self.winners())
        return [1.0 if p in w else -1.0 for p in range(self.num_players)]

    def legal_mask(self):
        legal = set(self.legal_actions())
        return [a in legal for a in range(NUM_ACTIONS)]

    def legal_actions(self):
        if self._legal is None:
            self._legal = self._compute_legal()
        return list(self._legal)

    def _price(self, p, card):
        """Gold needed to buy `card` for seat p, or None when it cannot be bought."""
        c = CARDS[card]
        short = 0
        for g in range(5):
            need = c.cost[g] - self.bonus[p][g]
            if need > self.tokens[p][g]:
                short += need - self.tokens[p][g]
        return short if short <= self.tokens[p][5] else None

    def _compute_legal(self):
        if self.phase == "over":
            return []
        p = self.current_player
        out = []
        if self.phase == "return_tokens":
            return [60 + c for c in range(6) if self.tokens[p][c] >= 1]
        if self.phase == "noble_visit":
            return [66 + i for i, n in enumerate(self.noble_row) if self._qualifies(p, n)]
        available = [g for g in range(5) if self.supply[g] >= 1]
        want = min(3, len(available))
        for a in range(25):
            s = _TABLE[a][2][1]
            if len(s) == want and all(self.supply[g] >= 1 for g in s):
                out.append(a)
        out += [25 + g for g in range(5) if self.supply[g] >= PAIR_MINIMUM]
        if len(self.reserved[p]) < RESERVE_LIMIT:
            out += [30 + 4 * lv + s for lv in range(3) for s in range(FACE_UP) if self.market[lv][s] is not None]
            out += [42 + lv for lv in range(3) if self.decks[lv]]
        out += [
            45 + 4 * lv + s
            for lv in range(3)
            for s in range(FACE_UP)
            if self.market[lv][s] is not None and self._price(p, self.market[lv][s]) is not None
        ]
        out += [57 + i for i, c in enumerate(self.reserved[p]) if self._price(p, c) is not None]
        if not out:
            out = [NUM_ACTIONS - 1]
        return sorted(out)

    def _qualifies(self, p, noble):
        return all(self.bonus[p][g] >= NOBLES[noble].requires[g] for g in range(5))

    # -- moves
    def apply(self, a):
        if a not in self.legal_actions():
            raise IllegalAction(f"{action_to_string(a) if 0 <= a < NUM_ACTIONS else a} is not legal now")
        self._legal = None
        self.history.append(a)
        self.step_count += 1
        p = self.current_player
        op = _TABLE[a][2]
        kind = op[0]
        if kind != "pass" and self.phase == "action":
            self.passes = 0
        if kind == "take":
            for g in op[1]:
                self.supply[g] -= 1
                self.tokens[p][g] += 1
        elif kind == "take2":
            self.supply[op[1]] -= 2
            self.tokens[p][op[1]] += 2
        elif kind == "reserve":
            card = self.market[op[1]][op[2]]
            self.reserved[p].append(card)
            self._refill(op[1], op[2])
            self._gold(p)
        elif kind == "reserve_deck":
            self.reserved[p].append(self.decks[op[1]].pop())
            self.blind[p].append(self.reserved[p][-1])
            self._gold(p)
        elif kind == "buy":
            self._buy(p, self.market[op[1]][op[2]])
            self._refill(op[1], op[2])
        elif kind == "buy_reserved":
            card = self.reserved[p].pop(op[1])
            if card in self.blind[p]:
                self.blind[p].remove(card)
            self._buy(p, card)
        elif kind == "return":
            self.tokens[p][op[1]] -= 1
            self.supply[op[1]] += 1
        elif kind == "noble":
            n = self.noble_row.pop(op[1])
            self.nobles[p].append(n)
            self.prestige[p] += NOBLES[n].points
            self._end_turn()
            return
        elif kind == "pass":
            self.passes += 1
        self._after_action()

    def _gold(self, p):
        if self.supply[5] >= 1:
            self.supply[5] -= 1
            self.tokens[p][5] += 1

    def _refill(self, level, slot):
        self.market[level][slot] = self.decks[level].pop() if self.decks[level] else None

    def _buy(self, p, card):
        c = CARDS[card]
        for g in range(5):
            need = max(0, c.cost[g] - self.bonus[p][g])
            coloured = min(need, self.tokens[p][g])
            self.tokens[p][g] -= coloured
            self.supply[g] += coloured
            self.tokens[p][5] -= need - coloured
            self.supply[5] += need - coloured
        self.purchased[p].append(card)
        self.bonus[p][_BONUS[card]] += 1
        self.prestige[p] += c.points

    def _after_action(self):
        p = self.current_player
        if sum(self.tokens[p]) > TOKEN_LIMIT:
            self.phase = "return_tokens"
            return
        if self.phase != "noble_visit" and any(self._qualifies(p, n) for n in self.noble_row):
            self.phase = "noble_visit"
            return
        self._end_turn()

    def _end_turn(self):
        p = self.current_player
        n = self.num_players
        if self.ending is None and self.prestige[p] >= TARGET:
            self.ending = {"trigger": "target", "finish": "complete_round", "last_seat": n - 1}
        if self.passes >= n:
            self.ending = {"trigger": "deadlock", "finish": "immediately", "last_seat": p}
            self.phase = "over"
            return
        if self.ending is not None and p == self.ending["last_seat"]:
            self.phase = "over"
            return
        if self.max_turns is not None and self.turn >= self.max_turns:
            self.phase, self.end_reason, self.current_player = "over", "truncated", -1
            return
        self.phase = "action"
        self.current_player = (p + 1) % n
        if self.current_player == 0:
            self.round += 1
        self.turn += 1
        self.turns[self.current_player] += 1

    def playout(self, rng=None, max_turns=None):
        """Random legal actions to the end (or before turn max_turns + 1), as the engines' playout."""
        rng = rng if rng is not None else random.Random()
        applied = 0
        while not self.is_over() and (max_turns is None or self.turn <= max_turns):
            legal = self.legal_actions()
            self.apply(legal[rng.randrange(len(legal))])
            applied += 1
        return applied

    def clone(self):
        g = Game.__new__(Game)
        g.__dict__.update(self.__dict__)
        for name in ("tokens", "bonus", "purchased", "reserved", "blind", "nobles", "market", "decks"):
            setattr(g, name, [list(x) for x in getattr(self, name)])
        for name in ("supply", "prestige", "turns", "noble_row", "history"):
            setattr(g, name, list(getattr(self, name)))
        g.ending = dict(self.ending) if self.ending else None
        g._legal = None
        return g

    # -- serialisation
    def _dict(self):
        return {
            "format": "splendor-rules/state",
            "version": 1,
            "spec": {"name": SPEC_NAME, "sha256": SPEC_SHA256},
            "players": self.num_players,
            "seed": self.seed,
            "current_player": self.current_player,
            "phase": self.phase,
            "step_count": self.step_count,
            "round": self.round,
            "turn": self.turn,
            "passes": self.passes,
            "ending": self.ending,
            "end_reason": self.end_reason,
            "supply": dict(zip(COLOURS, self.supply, strict=True)),
            "market": {str(lv + 1): list(self.market[lv]) for lv in range(3)},
            "decks": {str(lv + 1): list(reversed(self.decks[lv])) for lv in range(3)},
            "nobles": list(self.noble_row),
            "seats": [
                {
                    "tokens": dict(zip(COLOURS, self.tokens[p], strict=True)),
                    "purchased": list(self.purchased[p]),
                    "reserved": list(self.reserved[p]),
                    "blind": list(self.blind[p]),
                    "nobles": list(self.nobles[p]),
                    "turns": self.turns[p],
                }
                for p in range(self.num_players)
            ],
            "history": list(self.history),
        }

    def to_json(self):
        return json.dumps(self._dict(), sort_keys=True)

    def observation(self, player):
        d = self._dict()
        d["decks"] = {k: len(v) for k, v in d["decks"].items()}
        for p, seat in enumerate(d["seats"]):
            if p != player:
                seat["reserved"] = [None if c in self.blind[p] else c for c in seat["reserved"]]
                seat["blind"] = [CARDS[c].level for c in self.blind[p]]
        del d["history"], d["seed"]
        return d

    def record(self):
        return {
            "spec": SPEC_NAME,
            "sha256": SPEC_SHA256,
            "seed": self.seed,
            "players": self.num_players,
            "actions": list(self.history),
        }


def new_game(players, seed=None, max_turns=None):
    if players not in SETUP:
        raise ValueError(f"{players} players: the stand-in plays 2 to 4")
    gems, gold, nobles = SETUP[players]
    rng = random.Random(seed)
    g = Game(players)
    g.seed = seed
    g.supply = [gems] * 5 + [gold]
    for lv in range(3):
        deck = [c.id for c in CARDS if c.level == lv + 1]
        rng.shuffle(deck)
        g.decks[lv] = deck
        for s in range(FACE_UP):
            g.market[lv][s] = deck.pop()
    row = list(range(len(NOBLES)))
    rng.shuffle(row)
    g.noble_row = row[:nobles]
    g.turns[0] = 1
    g.max_turns = max_turns
    return g


def from_json(data):
    d = json.loads(data) if isinstance(data, str) else data
    problems = []
    n = d.get("players")
    if n not in SETUP:
        raise StateError(f"players: {n!r} is not a player count of this game")
    g = Game(n)
    g.seed = d.get("seed")
    g.current_player, g.phase, g.step_count = d["current_player"], d["phase"], d["step_count"]
    g.round, g.turn, g.passes, g.ending = d["round"], d["turn"], d["passes"], d["ending"]
    g.end_reason = d.get("end_reason")
    g.supply = [d["supply"][c] for c in COLOURS]
    g.market = [list(d["market"][str(lv + 1)]) for lv in range(3)]
    g.decks = [list(reversed(d["decks"][str(lv + 1)])) for lv in range(3)]
    g.noble_row = list(d["nobles"])
    for p, seat in enumerate(d["seats"]):
        g.tokens[p] = [seat["tokens"][c] for c in COLOURS]
        g.purchased[p] = list(seat["purchased"])
        g.reserved[p] = list(seat["reserved"])
        g.blind[p] = list(seat.get("blind", []))
        g.nobles[p] = list(seat["nobles"])
        g.turns[p] = seat["turns"]
        for c in g.purchased[p]:
            g.bonus[p][_BONUS[c]] += 1
        g.prestige[p] = sum(CARDS[c].points for c in g.purchased[p]) + sum(NOBLES[x].points for x in g.nobles[p])
    g.history = list(d.get("history", []))
    seen = [c for lv in range(3) for c in g.market[lv] if c is not None]
    seen += [c for deck in g.decks for c in deck]
    for p in range(n):
        seen += g.purchased[p] + g.reserved[p]
    if sorted(seen) != list(range(len(CARDS))):
        problems.append("every card must appear exactly once")
    gems, gold, _ = SETUP[n]
    for c, colour in enumerate(COLOURS):
        total = g.supply[c] + sum(g.tokens[p][c] for p in range(n))
        if total != (gold if c == 5 else gems):
            problems.append(f"{colour} tokens add up to {total}")
    if problems:
        raise StateError("; ".join(problems))
    return g


def replay(record):
    g = new_game(record["players"], record["seed"])
    for a in record["actions"]:
        g.apply(a)
    return g


# --------------------------------------------------------------------------- tests of the fixture


def _random_game(seed, players=2, limit=3000):
    rng = random.Random(seed)
    g = new_game(players, seed)
    while not g.is_over() and len(g.history) < limit:
        g.apply(rng.choice(g.legal_actions()))
    return g


def _check_conserved(g):
    gems, gold, _ = SETUP[g.num_players]
    for c in range(6):
        assert g.supply[c] + sum(t[c] for t in g.tokens) == (gold if c == 5 else gems)
    cards = [c for row in g.market for c in row if c is not None] + [c for d in g.decks for c in d]
    cards += [c for p in range(g.num_players) for c in g.purchased[p] + g.reserved[p]]
    assert sorted(cards) == list(range(90))
    for p in range(g.num_players):
        assert sum(g.tokens[p]) <= TOKEN_LIMIT or g.phase == "return_tokens"


def test_standin_random_games_conserve_tokens_and_cards():
    for seed in range(6):
        g = _random_game(seed, players=2 + seed % 3)
        _check_conserved(g)


def test_standin_json_round_trip_and_replay():
    g = _random_game(3, limit=80)
    again = from_json(g.to_json())
    assert again.to_json() == g.to_json()
    assert replay(g.record()).to_json() == g.to_json()


def test_standin_observation_hides_decks_and_blind_reserves():
    g = new_game(2, seed=1)
    g.apply(42)  # reserve deck 1
    obs = g.observation(1)
    assert obs["seats"][0]["reserved"] == [None]
    assert obs["seats"][0]["blind"] == [1]
    assert obs["decks"] == {"1": len(g.decks[0]), "2": len(g.decks[1]), "3": len(g.decks[2])}
    assert g.observation(0)["seats"][0]["reserved"] == g.reserved[0]


def test_standin_illegal_action_leaves_the_state_unchanged():
    g = new_game(2, seed=2)
    before = g.to_json()
    try:
        g.apply(NUM_ACTIONS - 1)  # pass, legal only when stuck
    except IllegalAction as e:
        assert "pass" in str(e)
    else:
        raise AssertionError("pass was accepted")
    assert g.to_json() == before
