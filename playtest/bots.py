"""Bots that play any generated engine: random, greedy and Monte-Carlo tree search.

A bot sees a game only through the Engine API (``legal_actions``, ``apply``, ``clone``,
``observation``, ``from_json`` and the read-only state attributes), so it plays every
variant the compiler can build. Bots are deterministic given their seed: every random
choice, tie-breaks included, comes from the bot's own ``random.Random``.

- ``random``: uniform among the legal actions.
- ``greedy``: keeps the legal action whose outcome scores best under :func:`evaluate`
  (prestige, bonuses, progress toward the visible nobles, and how close the best target
  cards are given the tokens in hand). It scores each action from the state, without
  playing it (:func:`ranked_actions`): the same scores as playing each on a clone, a few
  times faster. Actions it cannot model (a house rule's own action, or one whose effects
  the engine's rules change, found by :func:`calibrate`) are still played on a clone.
  Choosing needs only the best move and its ties: takes and reserves whose upper bound
  (:func:`_take_bound`, :func:`_reserve_bound`, per level :func:`_level_bounds`, per take
  over the limit :meth:`Position.take_sums` plus :func:`_held_bound`, per return in the
  return step :func:`_returns_within_reach`) is below the best move already scored are not
  scored at all, which chooses exactly as the full list would; the takes kept whole are
  scored together (:meth:`Position.take_sums`).
- ``mcts``: UCT over information sets. Each playout runs on a *determinization*: the
  acting player's observation with what it cannot see (the deck order, other players'
  blind reserves) dealt again at random from the cards it has not seen. The root is
  narrowed to the greedy's best few actions; after the tree, the engine's own
  ``Game.playout`` plays random moves for a few turns, and the position reached is
  scored with :func:`evaluate` turned into a value in [-1, 1].

``make_bot("mcts:200", engine_module, seed)`` builds a bot from its command-line name.
"""
from __future__ import annotations

import math
import operator
import random
import time
from collections.abc import Callable
from dataclasses import dataclass

BOT_NAMES = ("random", "greedy", "mcts")
WIN = 1_000_000.0


class BotError(ValueError):
    """A bot name or parameter the user got wrong."""


# ----------------------------------------------------------------------------- engine facts

class Facts:
    """What the heuristics need from an engine module, in lists indexed by card/noble/action id.

    `moves` reads each action's notation (the contract every spec's notation keeps: ``take``,
    ``take2``, ``reserve``, ``buy``, ``return``, ``noble``, ``pass``) as a move the greedy can
    score from the state without playing it (see :func:`ranked_actions`); a form it does not
    know (a house rule's ``sweep``, ``reserve 1.2 paying red``, the payment step) is None and
    is scored by playing it on a clone. `untrusted` holds the kinds of move whose effects this
    engine's rules change (found by :func:`calibrate`): those are played on a clone too.
    """

    def __init__(self, module):
        self.module = module
        self.gems = len(module.GEMS)
        self.colours = len(module.COLOURS)
        self.wild = list(module.COLOURS).index(module.WILD)
        size = max(c.id for c in module.CARDS) + 1
        self.cost: list[tuple[int, ...]] = [()] * size
        self.points = [0] * size
        self.bonus = [0] * size
        gem_index = {g: i for i, g in enumerate(module.GEMS)}
        for c in module.CARDS:
            self.cost[c.id] = tuple(c.cost)
            self.points[c.id] = c.points
            self.bonus[c.id] = gem_index[c.bonus] if isinstance(c.bonus, str) else int(c.bonus)
        nsize = max((n.id for n in module.NOBLES), default=-1) + 1
        self.noble_req: list[tuple[int, ...]] = [()] * nsize
        self.noble_points = [0] * nsize
        self.noble_total = [0] * nsize
        for n in module.NOBLES:
            self.noble_req[n.id] = tuple(n.requires)
            self.noble_points[n.id] = n.points
            self.noble_total[n.id] = sum(n.requires)
        self.noble_needs = [tuple((g, r) for g, r in enumerate(req) if r) for req in self.noble_req]
        # each cost as its (gem colour, count) pairs with a count: a card asks for two or three
        # colours of five, so the tokens short of it are summed over those alone
        self.needs: list[tuple[tuple[int, int], ...]] = [tuple((g, k) for g, k in enumerate(cost) if k)
                                                         for cost in self.cost]
        self.card_ids = sorted(c.id for c in module.CARDS)
        self.card_level = {c.id: c.level for c in module.CARDS}
        values = getattr(module, "VALUES", None)
        limit = values.get("token_limit") if isinstance(values, dict) else None
        self.limit: int | None = limit if isinstance(limit, int) else None
        strings = [module.action_to_string(a) for a in range(module.NUM_ACTIONS)]
        # Which actions buy a card: a card chosen and paid for, as the engine declares the action
        # (its first choice a card, its decision one that pays), whatever its notation's words.
        self.is_buy = [_buys(module, a) for a in range(module.NUM_ACTIONS)]
        self.moves = [parse_move(s, module, action_domains(module, a)) for a, s in enumerate(strings)]
        # a take's or return's tokens as Position.score's memo key, and their number
        self.gain_keys = [tuple(sorted(m[1])) if m and m[0] == "tokens" else () for m in self.moves]
        self.gain_sizes = [sum(k for _, k in key) for key in self.gain_keys]
        # a take as Position.take_sums reads it (it scores a group of them at once): one token each
        # of distinct gem colours as the bitmask of those colours, two of gem colour c as ~c (< 0);
        # None for any other gain
        self.take_masks: list[int | None] = [_take_mask(key, self.wild) for key in self.gain_keys]
        # a return of one token (the return step's moves) as its colour, else None
        self.returns: list[int | None] = [key[0][0] if len(key) == 1 and key[0][1] == -1 else None
                                          for key in self.gain_keys]
        self.popcount = [bin(m).count("1") for m in range(1 << self.gems)]
        self.max_gain = 1 + max((sum(k for _, k in m[1] if k > 0) for m in self.moves if m and m[0] == "tokens"),
                                default=0)  # the most tokens one move brings: a take's, or a reserve's wild one
        # _seat_terms by (weights, prestige, bonuses, noble row): they change only when the seat buys
        # a card or a noble leaves, so most decisions (and the purchases they score) find them here
        self.terms: dict[tuple, tuple[float, tuple[float, ...]]] = {}
        self.splits: dict[tuple, tuple[tuple[tuple[int, int], ...], int, int, bool]] = {}
        self.untrusted: frozenset[str] = frozenset()
        self.untrusted = calibrate(self)
        self.groups = [_deferred_group(self, a, m) for a, m in enumerate(self.moves)]  # see ranked_actions
        self.plans: dict[tuple[int, ...], tuple] = {}  # see _plan

    def split(self, gain: tuple[tuple[int, int], ...]) -> tuple[tuple[tuple[int, int], ...], int, int, bool]:
        """A gain of tokens ((colour, count) pairs, sorted) as (the gem colours' changes, the wild
        tokens gained, the tokens gained in all, whether nothing is given back), made once per gain
        (a game meets a few hundred)."""
        out = self.splits.get(gain)
        if out is None:
            changes = tuple((c, k) for c, k in gain if c != self.wild)
            wild = sum(k for c, k in gain if c == self.wild)
            positive = all(k > 0 for _, k in changes) and wild >= 0
            out = self.splits[gain] = (changes, wild, sum(k for _, k in gain), positive)
        return out


_FACTS: dict[int, Facts] = {}


def facts(module) -> Facts:
    f = _FACTS.get(id(module))
    if f is None or f.module is not module:
        f = _FACTS[id(module)] = Facts(module)
    return f


def action_domains(module, action: int) -> tuple[str, ...] | None:
    """The domains of an action's choices, as its engine declares them (``("face_up",)`` for
    ``reserve 1.2``): what the words of its notation stand for. An optional choice left out
    (`none`) is not written, so it is not counted. None for an engine that declares none (one
    written by hand to the contract, such as the playtest tests' stand-in): its words are the
    contract's."""
    table, kinds = getattr(module, "ACTIONS", None), getattr(module, "_PARAM_KINDS", None)
    if table is None or kinds is None:
        return None
    decision, args = table[action]
    return tuple(kind for (_, kind), value in zip(kinds[decision], args, strict=True)
                 if value is not None)


def _buys(module, action: int) -> bool:
    """Does the action buy a card: a card chosen (face up or reserved) by a decision that pays?
    (An engine that declares no choices: its notation begins with the contract's word `buy`.)"""
    domains = action_domains(module, action)
    if domains is None:
        return module.action_to_string(action).startswith("buy")
    decision = module.ACTIONS[action][0]
    pays = decision < len(module._PAYOPTS) and module._PAYOPTS[decision] is not None  # the payment step has none
    return pays and domains[:1] in (("face_up",), ("reserved",))


# The forms of the contract's notation (see Facts): the first word(s), and the domains of the
# choices the rest stands for. A spec may write other choices with the same words (`noble {city}`
# for a city of a zone): an action is read as a move only when its choices are those the form means.
MEANINGS = {"take": ("gem_set",), "take2": ("gem",), "return": ("colour",), "pass": (),
            "reserve": ("face_up",), "reserve deck": ("deck",), "buy": ("face_up",), "buy reserved": ("reserved",),
            "noble": ("noble",)}


def parse_move(text: str, module, domains: tuple[str, ...] | None) -> tuple[str, object] | None:
    """An action's notation as a move: ``("tokens", ((colour, count), ...))`` for takes and
    returns, ``("reserve", (level, slot))``, ``("reserve_deck", level)``, ``("buy", (level,
    slot))``, ``("buy_reserved", k)``, ``("noble", k)``, ``("pass", None)`` (indexes from 0);
    None for any other form, and for a form whose choices (`domains`, the engine's; None: an
    engine that declares none) are not the ones the form means."""
    words = text.split()
    form = " ".join(words[:2]) if " ".join(words[:2]) in MEANINGS and len(words) > 2 else words[0]
    if domains is not None and MEANINGS.get(form) != domains and not (form == "return" and domains == ("gem",)):
        return None
    return _read_move(words, module)


def _read_move(words: list[str], module) -> tuple[str, object] | None:
    colour = {c: i for i, c in enumerate(module.COLOURS)}
    gems = set(module.GEMS)
    levels = [str(x) for x in module.LEVELS]
    head, rest = words[0], words[1:]

    def slot(word):
        level, _, k = word.partition(".")
        if level in levels and k.isdigit() and int(k) >= 1:
            return levels.index(level), int(k) - 1
        return None

    if head == "take" and rest and all(w in gems for w in rest) and len(set(rest)) == len(rest):
        return "tokens", tuple((colour[w], 1) for w in rest)
    if head == "take2" and len(rest) == 1 and rest[0] in gems:
        return "tokens", ((colour[rest[0]], 2),)
    if head == "return" and len(rest) == 1 and rest[0] in colour:
        return "tokens", ((colour[rest[0]], -1),)
    if head == "pass" and not rest:
        return "pass", None
    if head == "reserve" and len(rest) == 1 and slot(rest[0]):
        return "reserve", slot(rest[0])
    if head == "reserve" and len(rest) == 2 and rest[0] == "deck" and rest[1] in levels:
        return "reserve_deck", levels.index(rest[1])
    if head == "buy" and len(rest) == 1 and slot(rest[0]):
        return "buy", slot(rest[0])
    if head == "buy" and len(rest) == 2 and rest[0] == "reserved" and rest[1].isdigit() and int(rest[1]) >= 1:
        return "buy_reserved", int(rest[1]) - 1
    if head == "noble" and len(rest) == 1 and rest[0].isdigit() and int(rest[0]) >= 1:
        return "noble", int(rest[0]) - 1
    return None


# ----------------------------------------------------------------------------- what a move does

def token_change(game, p: int, move, f: Facts) -> tuple[dict[int, int], int | None, list[tuple[int, bool]]]:
    """A move that changes seat p's tokens and reserve only, as (tokens gained per colour, the
    face-up card it reserves or None, cards it adds to the targets as (card, reserved?)).

    A reserve takes a wild token while the supply has one and refills the slot from the top
    of the deck (the end of its list), which the heuristic sees as the clone saw it.
    """
    kind, arg = move
    if kind == "tokens":
        return dict(arg), None, []
    if kind == "pass":
        return {}, None, []
    gold = {f.wild: 1} if game.supply[f.wild] >= 1 else {}
    if kind == "reserve":
        level, k = arg
        deck = game.decks[level]
        return gold, game.market[level][k], [(deck[-1], False)] if deck else []
    # reserve_deck
    return gold, None, [(game.decks[arg][-1], True)]


def buy_outcome(game, p: int, move, f: Facts):
    """Seat p after a purchase, paid with coloured tokens first and wild ones for the rest
    (the payment the heuristic prefers: a wild token is worth at least a coloured one):
    (prestige, bonus, tokens, reserved, market)."""
    kind, arg = move
    reserved = game.reserved[p]
    market = game.market
    if kind == "buy":
        level, k = arg
        card = market[level][k]
        deck = game.decks[level]
        market = [row[:] for row in market]
        market[level][k] = deck[-1] if deck else None
    else:
        card = reserved[arg]
        reserved = reserved[:arg] + reserved[arg + 1:]
    bon = list(game.bonus[p])
    tok = list(game.tokens[p])
    short = 0
    for c, need in enumerate(f.cost[card]):
        need -= bon[c]
        if need > 0:
            paid = need if need < tok[c] else tok[c]
            tok[c] -= paid
            short += need - paid
    tok[f.wild] -= short
    bon[f.bonus[card]] += 1
    return game.prestige[p] + f.points[card], bon, tok, reserved, market


def qualifying(noble_row, bon, f: Facts) -> list[int]:
    """Positions in the row of the nobles whose requirements the bonuses `bon` meet (each
    requirement read as its (colour, count) pairs: a noble names two or three colours)."""
    out = []
    needs = f.noble_needs
    for i, n in enumerate(noble_row):
        for g, r in needs[n]:
            if bon[g] < r:
                break
        else:
            out.append(i)
    return out


def predict(game, p: int, move, f: Facts):
    """Seat p's (tokens, bonus, prestige, reserved) right after `move` and the end-of-turn steps
    that ask nothing, before any tokens are returned; None when a step would ask p to choose."""
    kind = move[0]
    if kind == "noble":
        n = game.noble_row[move[1]]
        return (list(game.tokens[p]), list(game.bonus[p]), game.prestige[p] + f.noble_points[n],
                list(game.reserved[p]))
    if kind in ("buy", "buy_reserved"):
        pts, bon, tok, reserved, _ = buy_outcome(game, p, move, f)
        options = qualifying(game.noble_row, bon, f)
        if len(options) > 1:
            return None
        if options:
            pts += f.noble_points[game.noble_row[options[0]]]
        return tok, bon, pts, list(reserved)
    gain, flip, extras = token_change(game, p, move, f)
    tok = list(game.tokens[p])
    for c, k in gain.items():
        tok[c] += k
    reserved = list(game.reserved[p]) + ([flip] if flip is not None else []) + [c for c, mine in extras if mine]
    return tok, list(game.bonus[p]), game.prestige[p], reserved


def calibrate(f: Facts, games: int = 3, decisions: int = 200) -> frozenset[str]:
    """The kinds of move whose effects under this engine's rules differ from :func:`predict`.

    Plays a few seeded games (a purchase whenever one is legal, else mostly a take, to fill
    the seat's hand to its limit, else a random action) and,
    at each decision, compares every modelled legal move with the engine applying it to a
    clone. The same engine always gives the same answer, in every worker.
    """
    module = f.module
    faults = getattr(module, "RuleError", ())  # an effect the spec made legal and cannot carry out
    bad: set[str] = set()
    rng = random.Random(18)
    players = min(module.PLAYER_COUNTS)
    for seed in range(games):
        g = module.new_game(players, seed=seed)
        for _ in range(decisions):
            if g.is_over():
                break
            p = g.current_player
            legal = g.legal_actions()
            pending = qualifying(g.noble_row, g.bonus[p], f)
            for a in legal:
                move = f.moves[a]
                if move is None or move[0] in bad or (pending and move[0] != "noble"):
                    continue
                expected = predict(g, p, move, f)
                if expected is None:
                    continue
                h = g.clone()
                try:
                    h.apply(a)
                except faults:  # a spec whose effect cannot be carried out here: not a move to model
                    bad.add(move[0])
                    continue
                asked = h.current_player == p and h.phase != "action"
                returning = asked and all((f.moves[x] or ("",))[0] == "tokens" and f.moves[x][1][0][1] < 0
                                          for x in h.legal_actions())
                if asked and not returning:
                    continue  # p chooses a noble or a payment: nothing to compare yet
                tok, bon, pts, reserved = expected
                over = f.limit is not None and sum(tok) > f.limit
                if over != returning and not (over and _returned_alone(tok, list(h.tokens[p]), f.limit)):
                    bad.add(move[0])
                elif (list(h.bonus[p]), h.prestige[p], list(h.reserved[p])) != (bon, pts, reserved):
                    bad.add(move[0])
                elif not over and list(h.tokens[p]) != tok:
                    bad.add(move[0])
            buys = [a for a in legal if f.is_buy[a]]
            takes = [a for a in legal if f.moves[a] is not None and f.moves[a][0] == "tokens"
                     and f.moves[a][1][0][1] > 0]
            try:
                if buys:
                    g.apply(buys[0])
                else:  # mostly takes, to reach the token limit, and now and then anything
                    g.apply(takes[rng.randrange(len(takes))] if takes and rng.random() < 0.7
                            else legal[rng.randrange(len(legal))])
            except faults:  # the spec's fault shows, and is reported, in the games that are played
                break
    return frozenset(bad)


def _take_mask(key: tuple[tuple[int, int], ...], wild: int) -> int | None:
    """A take's gain ((colour, count) pairs) as Facts.take_masks holds it."""
    if key and all(k == 1 and c != wild for c, k in key):
        return sum(1 << c for c, _ in key)
    if len(key) == 1 and key[0][1] == 2 and key[0][0] != wild:
        return ~key[0][0]
    return None


def _returned_alone(tok: list[int], after: list[int], limit: int | None) -> bool:
    """Were the tokens over the limit returned without asking, as a step with one legal option is?
    Only a hand of a single colour has one option (and without a limit nothing is returned)."""
    held = [c for c, k in enumerate(tok) if k]
    if limit is None or len(held) != 1:
        return False
    expected = list(tok)
    expected[held[0]] -= sum(tok) - limit
    return after == expected


# ----------------------------------------------------------------------------- evaluation

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
    return score_seat(f, w, game.prestige[p], game.bonus[p], game.tokens[p], game.reserved[p],
                      game.noble_row, game.market)


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


class Position:
    """One seat's position, taken apart once so that each candidate move is scored by its changes.

    `score(gain, flip, extras)` is the heuristic after the seat gains `gain` tokens (colour ->
    count, negative to give back), with card `flip` moved from the market to its reserve and
    `extras` (card, reserved?) added to the targets. What a move cannot change (prestige,
    bonuses, nobles, each target's value) is computed here once, and so is, per market card
    and gem colour, how many tokens short the seat would be after gaining or returning one
    or two of that colour: a candidate is then a few list lookups per card.
    """

    __slots__ = ("f", "w", "fixed", "tok", "ntok", "gold", "have", "useful", "market", "likely", "mine", "inverse",
                 "memo", "known", "kept", "shared", "short_of", "bar", "rated")

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
        self.market = _Cards([wp * points[card] + wb * useful[bonus[card]] for card in cards],
                             [f.cost[card] for card in cards], shorts, held, lacking)
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
            known = self.known[card] = (w.prestige * f.points[card] + w.bonus * self.useful[f.bonus[card]], e,
                                        _short(f.needs[card], self.have))
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
            for weight, new in zip(w.target[len(top):], rates[len(top):], strict=False):
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
        del rates[len(w.target):]
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
                likely = _Cards([market.values[i] for i in keep], [market.costs[i] for i in keep],
                                [market.shorts[i] for i in keep], market.have,
                                None if lacking is None else [lacking[i] for i in keep])
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

    def __init__(self, values: list[float], costs: list[tuple[int, ...]], shorts: list[int], have: list[int],
                 lacking: list[int] | None = None):
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
            return [v * inv[s - gold + sum(_short_change(cost[c] - have[c], k) for c, k in changes)]
                    for v, s, cost in zip(vals, shorts, self.costs, strict=True)]
        if not known:
            return [v * inv[s - gold] for v, s in zip(vals, shorts, strict=True)]
        if len(known) == 1:
            return [v * inv[s - gold + a] for v, s, a in zip(vals, shorts, known[0], strict=True)]
        if len(known) == 2:
            return [v * inv[s - gold + a + b] for v, s, a, b in zip(vals, shorts, known[0], known[1], strict=True)]
        if len(known) == 3:
            return [v * inv[s - gold + a + b + c]
                    for v, s, a, b, c in zip(vals, shorts, known[0], known[1], known[2], strict=True)]
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


def _best(scored: list[tuple[float, int]], rng: random.Random) -> int:
    top = max(scored)[0] - 1e-9  # the best score (the pairs compare by score first)
    ties = [a for s, a in scored if s >= top]
    return ties[0] if len(ties) == 1 else rng.choice(ties)


def ranked_actions(game, f: Facts, w: Weights = WEIGHTS, best_only: bool = False,
                   legal: list[int] | None = None) -> list[tuple[float, int]]:
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
    moves = f.moves
    bon = game.bonus[p]
    noble_row = game.noble_row
    pending = qualifying(noble_row, bon, f)  # nobles that will visit at the end of this turn whatever it does
    if pending and game.phase == "action":
        return _ranked_with_a_noble_to_come(game, p, pending, f, w)
    pos = Position(f, w, game.prestige[p], bon, game.tokens[p], game.reserved[p], noble_row, game.market)
    room = f.limit - pos.ntok if f.limit is not None else 1 << 30  # tokens the seat may gain and keep
    gain_keys, gain_sizes = f.gain_keys, f.gain_sizes
    memo = pos.memo
    market = game.market
    decks = game.decks
    wild_gain = ((f.wild, 1),) if game.supply[f.wild] >= 1 else ()
    reserves_kept = len(wild_gain) <= room  # a reserve's wild token is kept: no return to play
    by_level: dict[int, tuple[float, float]] = {}  # per level: _level_ahead
    short_of = pos.short_of  # tokens short of each market card
    gold = pos.gold + len(wild_gain)  # wild tokens after a reserve
    tp, per_turn = w.throughput, w.reserved
    untrusted = f.untrusted
    prune = best_only and not pos.mine and room >= 0 and _bounded(w)  # (a limit below 0 returns nothing)

    def exact(a: int, move) -> float:
        kind = move[0] if move is not None else None
        if kind is None or kind in untrusted:
            return _score_by_clone(game, a, p, f, w)
        if kind == "tokens" and gain_sizes[a] <= room:  # the common case, inlined: a take kept whole
            key = gain_keys[a]
            base = memo.get(key)
            if base is None:
                base = memo[key] = pos.tokens_only(key)
            return base[0]
        if kind == "reserve" and reserves_kept:  # the other common case: a face-up reserve
            level, k = move[1]
            ahead = by_level.get(level)
            if ahead is None:
                ahead = by_level[level] = _level_ahead(pos, wild_gain, decks[level])
            short = short_of[market[level][k]]
            return ahead[0] - per_turn * (1 + ((short - gold + tp - 1) // tp if short > gold else 0))
        if kind == "reserve_deck" and reserves_kept:  # the deck's top card, to the reserve
            ahead = by_level.get(move[1])
            if ahead is None:
                ahead = by_level[move[1]] = _level_ahead(pos, wild_gain, decks[move[1]])
            return ahead[0] - ahead[1]
        if kind == "noble":
            n = noble_row[move[1]]
            row = [x for x in noble_row if x != n]
            return score_seat(f, w, game.prestige[p] + f.noble_points[n], bon, game.tokens[p], game.reserved[p],
                              row, game.market)
        if kind in ("buy", "buy_reserved"):
            return _score_buy(game, p, move, f, w)
        gain, flip, extras = token_change(game, p, move, f)
        return pos.score_kept(gain, flip, extras)

    if not prune:
        if best_only and room < -1 and not pos.mine and "tokens" not in untrusted and _bounded(w):
            colours = [c for c in map(f.returns.__getitem__, legal) if c is not None]
            if len(colours) == len(legal):  # the return step, more than one token to give back
                return _returns_within_reach(pos, legal, colours, room, exact)
        return [(exact(a, moves[a]), a) for a in legal]
    # with best_only: the moves always scored first, then takes by the tokens they bring and
    # reserves (0), as indexes in out, made once per list of legal actions (_plan)
    first, deferred = _plan(f, legal)
    out: list[tuple[float, int] | None] = [None] * len(legal)
    best = -math.inf
    for i in first:
        a = legal[i]
        score = exact(a, moves[a])
        out[i] = (score, a)
        if score > best:
            best = score
    levels: list[float] = []
    for group, indexes, masks in deferred:  # takes of three first: their best may rule out the rest
        if group:
            bound = _take_bound(pos, group, room)
        else:
            levels = _level_bounds(pos, decks, room)
            bound = max(levels, default=-math.inf)
        if bound < best - 1e-6:
            continue
        if masks is not None:
            sums = pos.take_sums(masks, group)
            if group <= room:  # takes kept whole: their scores, made together
                held = w.token * (pos.ntok + group - pos.gold) + w.gold * pos.gold
                for i, total in zip(indexes, sums, strict=True):
                    score = total + held
                    out[i] = (score, legal[i])
                    if score > best:
                        best = score
                continue
            # over the limit: each take's own bound (_take_bound's, with the take's own rates),
            # its returns played only when the bound comes within reach, the best bounds first
            cap = _held_bound(pos, room)
            for j in sorted(range(len(indexes)), key=sums.__getitem__, reverse=True):
                if sums[j] + cap < best - 1e-6:
                    break
                i = indexes[j]
                a = legal[i]
                score = exact(a, moves[a])
                out[i] = (score, a)
                if score > best:
                    best = score
            continue
        for i in indexes:
            a = legal[i]
            move = moves[a]
            if not group and levels[move[1][0] if move[0] == "reserve" else move[1]] < best - 1e-6:
                continue  # a reserve at a level whose own bound is out of reach
            score = exact(a, move)
            out[i] = (score, a)
            if score > best:
                best = score
    return [sa for sa in out if sa is not None]


def _returns_within_reach(pos: Position, legal: list[int], colours: list[int], room: int,
                          exact: Callable[[int, object], float]) -> list[tuple[float, int]]:
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
        bounds.append(base[0] - (w.token * (pos.ntok - 1 - gold) + w.gold * gold)
                      + w.token * limit + max(0.0, w.gold - w.token) * gold)
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
        held = _BOUNDED[w] = (all(x >= 0 for x in weights)
                              and all(a >= b for a, b in zip(w.target, w.target[1:], strict=False)))
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


def _deferred_group(f: Facts, a: int, move) -> int | None:
    """Which bound rules on action `a` when the greedy asks for the best move only: a take of n
    gem tokens, n (:func:`_take_bound`); a reserve, 0 (:func:`_reserve_bound`); None for the
    moves always scored (a purchase, a noble, a return, a move played on a clone)."""
    if move is None or move[0] in f.untrusted:
        return None
    if move[0] == "tokens":
        return f.gain_sizes[a] if _plain_take(f, f.gain_keys[a]) else None
    if move[0] in ("reserve", "reserve_deck"):
        return 0
    return None


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
    del rates[len(w.target):]
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


def _plain_take(f: Facts, key: tuple) -> bool:
    """A gain of gem tokens only (no wild token, nothing given back): what :func:`_take_bound` bounds."""
    changes, wild, _, positive = f.split(key)
    return positive and not wild and bool(changes)


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
    after = [Position(f, w, game.prestige[p] + f.noble_points[row[i]], game.bonus[p], game.tokens[p],
                      game.reserved[p], row[:i] + row[i + 1:], game.market) for i in pending]
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
    return max(score_seat(f, w, pts + f.noble_points[row[i]], bon, tok, reserved, row[:i] + row[i + 1:], market)
               for i in options)


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


# ----------------------------------------------------------------------------- bots

class Bot:
    name = "bot"

    def __init__(self, module, seed: int | None = None):
        self.module = module
        self.facts = facts(module)
        self.rng = random.Random(seed)

    def choose(self, game) -> int:  # pragma: no cover - abstract
        raise NotImplementedError

    def __repr__(self) -> str:
        return self.name


class RandomBot(Bot):
    name = "random"

    def choose(self, game) -> int:
        return self.rng.choice(game.legal_actions())


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


class _Node:
    __slots__ = ("children", "visits", "total", "avail", "player")

    def __init__(self, player: int):
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.total = 0.0  # summed value for `player`, the seat that chose the move into this node
        self.avail = 0  # playouts in which this move was legal (information-set UCT)
        self.player = player


class MCTSBot(Bot):
    """Information-set UCT with a budget in playouts (see the module docstring).

    Each decision: rank the legal actions with the greedy heuristic and keep the best
    `width` at the root; deal `determinizations` worlds from the acting seat's
    observation; then each playout takes the next world, descends the tree (UCB1 over the
    moves legal in that world, untried moves first), lets Game.playout play `depth` turns
    of random moves and backs up :func:`values` of the position reached. The most visited root
    move is played (ties: better mean, then the bot's random generator).
    """

    name = "mcts"

    def __init__(self, module, seed=None, playouts: int = 64, width: int = 8, depth: int = 2,
                 exploration: float = 0.7, determinizations: int = 16):
        super().__init__(module, seed)
        if playouts < 1:
            raise BotError("mcts needs at least one playout")
        self.playouts = playouts
        self.width = width
        self.depth = depth
        self.c = exploration
        self.determinizations = determinizations
        self.name = f"mcts:{playouts}"
        self.playouts_run = 0  # playouts and the seconds they took, over the bot's life (bench/ reports playouts/s)
        self.seconds = 0.0

    def choose(self, game) -> int:
        legal = game.legal_actions()
        if len(legal) == 1:
            return legal[0]
        f = self.facts
        rng = self.rng
        me = game.current_player
        ranked = sorted(ranked_actions(game, f), key=lambda sa: -sa[0])
        if ranked[0][0] >= WIN:  # a move that wins the game outright
            return _best(ranked, rng)
        candidates = [a for _, a in ranked[: self.width]]
        start = time.perf_counter()
        worlds = [determinize(game, me, rng, self.module)
                  for _ in range(min(self.playouts, self.determinizations))]
        root = _Node(me)
        for i in range(self.playouts):
            g = worlds[i % len(worlds)].clone()
            path = [root]
            node = root
            while not g.is_over():
                # The root's moves are the candidates, legal in every world (what the acting
                # seat may do does not depend on what it cannot see).
                moves = candidates if node is root else g.legal_actions()
                for a in moves:
                    child = node.children.get(a)
                    if child is not None:
                        child.avail += 1
                untried = [a for a in moves if a not in node.children]
                if untried:
                    a = untried[0] if node is root else rng.choice(untried)
                    child = node.children[a] = _Node(g.current_player)
                    child.avail = 1
                    g.apply(a)
                    path.append(child)
                    break
                a = max(moves, key=lambda x: _ucb(node.children[x], self.c))
                node = node.children[a]
                g.apply(a)
                path.append(node)
            g = self._playout(g)
            v = values(g, f)
            for n in path:
                n.visits += 1
                n.total += v[n.player]
        self.playouts_run += self.playouts
        self.seconds += time.perf_counter() - start
        best = max(root.children[a].visits for a in root.children)
        choices = [a for a in candidates if a in root.children and root.children[a].visits == best]
        if len(choices) > 1:
            means = {a: root.children[a].total / root.children[a].visits for a in choices}
            top = max(means.values())
            choices = [a for a in choices if means[a] >= top - 1e-12]
        return choices[0] if len(choices) == 1 else rng.choice(choices)

    def _playout(self, g):
        """The rollout: `depth` more turns of uniformly random moves played by the engine's own
        Game.playout (no call per move from here), then the position is scored by :func:`values`."""
        if self.depth > 0 and not g.is_over():
            g.playout(self.rng, max_turns=g.turn + self.depth - 1)
        return g


def _ucb(node: _Node, c: float) -> float:
    """UCB1 as information-set MCTS uses it: exploration counts the times the move was available."""
    if not node.visits:
        return math.inf
    return node.total / node.visits + c * math.sqrt(math.log(max(1, node.avail)) / node.visits)


# ----------------------------------------------------------------------------- determinization

def determinize(game, player: int, rng: random.Random, module):
    """A game consistent with what `player` sees, with everything hidden dealt again at random.

    Reads ``game.observation(player)`` as the engines write it: a deck is a count of
    cards (or a list whose hidden entries are ``None``), another player's blind reserve
    is ``None`` in its ``reserved`` list, and that seat's ``blind`` list gives the level
    of each blind reserve in order (when it does not, the levels are inferred from the
    cards unaccounted for). The cards `player` has not seen are shuffled by level into
    those places, the spec's own hidden zones are dealt again (_determinize_zones), the other
    seats' private variables guessed (_determinize_vars), and the result is rebuilt with the
    engine's ``from_json``.
    """
    obs = game.observation(player)
    f = facts(module)
    seen: set[int] = set()
    for row in obs["market"].values():
        seen.update(c for c in row if isinstance(c, int))
    decks = obs["decks"]
    for key, deck in list(decks.items()):
        if isinstance(deck, int):
            decks[key] = deck = [None] * deck
        seen.update(c for c in deck if isinstance(c, int))
    hidden: list[tuple[int, int]] = []  # (seat, position in its reserved list)
    given_levels: dict[int, list[int]] = {}
    for s, seat in enumerate(obs["seats"]):
        seen.update(seat["purchased"])
        seen.update(c for c in seat["reserved"] if isinstance(c, int))
        mine = [i for i, c in enumerate(seat["reserved"]) if c is None]
        hidden += [(s, i) for i in mine]
        blind = seat.get("blind")
        if mine and isinstance(blind, list) and len(blind) == len(mine) and all(isinstance(x, int) for x in blind):
            given_levels[s] = list(blind)
    unseen: dict[int, list[int]] = {}
    for c in f.card_ids:
        if c not in seen:
            unseen.setdefault(f.card_level[c], []).append(c)
    for level in sorted(unseen):
        rng.shuffle(unseen[level])
    # Levels of the hidden reserves: as given, or what the decks cannot account for.
    deck_need = {int(k): sum(1 for c in d if c is None) for k, d in decks.items()}
    spare = []
    for level in sorted(unseen):
        spare += [level] * max(0, len(unseen[level]) - deck_need.get(level, 0))
    for levels in given_levels.values():
        for level in levels:
            if level in spare:
                spare.remove(level)
    rng.shuffle(spare)
    filled: dict[int, list[int]] = {}
    counters = {s: 0 for s in given_levels}
    for s, i in hidden:
        if s in given_levels:
            level = given_levels[s][counters[s]]
            counters[s] += 1
        else:
            level = spare.pop()
        card = unseen[level].pop()
        obs["seats"][s]["reserved"][i] = card
        filled.setdefault(s, []).append(card)
    for s, cards in filled.items():
        if s in given_levels:
            obs["seats"][s]["blind"] = cards
    for key, deck in decks.items():
        level = int(key)
        for i, c in enumerate(deck):
            if c is None:
                deck[i] = unseen[level].pop()
    _determinize_zones(module, obs, rng)
    _determinize_vars(module, obs)
    return module.from_json(obs)


def _determinize_vars(module, obs: dict) -> None:
    """Another seat's private variables, null in an observation, given their initial value: nothing
    tells what they became (no rule of the acting player reads them: E558), so every world guesses
    alike. Nothing for an engine without private variables."""
    for name, _attr, tag, per_player, private, _optional, initial in getattr(module, "_VARS", ()):
        if per_player and private:
            for seat in obs["seats"]:
                if seat["vars"].get(name) is None:
                    seat["vars"][name] = module._var_saved(tag, initial)


def _determinize_zones(module, obs: dict, rng: random.Random) -> None:
    """The spec's own zones in an observation, their hidden parts dealt again (state format 2): a
    face-down pile (shown as its count) and another seat's privately drawn components (None in its
    holding) take pieces of their kind that `player` has not seen, each showing one of its faces
    at random, as the deal does. Nothing for an engine without zones."""
    zones = getattr(module, "_ZONES", ())
    if not zones:
        return
    places = [(zone, obs["zones"], zone[0]) for zone in zones if not zone[3]]
    places += [(zone, seat["zones"], zone[0]) for zone in zones if zone[3] for seat in obs["seats"]]
    seen = {(zone[1], x) for zone, table, name in places if isinstance(table.get(name), list)
            for x in table[name] if isinstance(x, int)}
    spare = {kind: [piece for piece in faces if not any((kind, x) in seen for x in piece)]
             for kind, (_count, faces) in module._KIND_PIECES.items()}
    for pieces in spare.values():
        rng.shuffle(pieces)

    def draw(kind: str):
        piece = spare[kind].pop()
        return piece[rng.randrange(len(piece))]

    for zone, table, name in places:
        items = table.get(name)
        if isinstance(items, int):  # a face-down pile: its count only
            table[name] = [draw(zone[1]) for _ in range(items)]
        elif isinstance(items, list) and zone[2] != "display":  # a display's None is an empty slot
            table[name] = [draw(zone[1]) if x is None else x for x in items]


# ----------------------------------------------------------------------------- names

def parse_bot(text: str) -> tuple[str, dict]:
    """``"mcts:400"`` -> ``("mcts", {"playouts": 400})``; raises :class:`BotError`."""
    name, _, arg = text.strip().partition(":")
    name = name.strip().lower()
    if name not in BOT_NAMES:
        import difflib
        close = difflib.get_close_matches(name, BOT_NAMES, n=1)
        hint = f" (did you mean '{close[0]}'?)" if close else ""
        raise BotError(f"unknown bot '{text}'{hint}; expected one of: {', '.join(BOT_NAMES)}")
    if not arg:
        return name, {}
    if name != "mcts":
        raise BotError(f"bot '{name}' takes no parameter (got '{text}')")
    try:
        playouts = int(arg)
    except ValueError:
        raise BotError(f"'{text}': the mcts budget is a number of playouts, such as mcts:200") from None
    if playouts < 1:
        raise BotError(f"'{text}': the mcts budget must be at least 1 playout")
    return name, {"playouts": playouts}


_MAKERS: dict[str, Callable[..., Bot]] = {"random": RandomBot, "greedy": GreedyBot, "mcts": MCTSBot}


def make_bot(text: str, module, seed: int | str | None = None) -> Bot:
    name, kwargs = parse_bot(text)
    return _MAKERS[name](module, seed, **kwargs)
