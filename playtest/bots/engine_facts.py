"""What the heuristics know of an engine, and what a move does to the seat that plays it.

:class:`Facts` reads an engine module once (cards, nobles, each action as a move: see
:mod:`playtest.bots.notation`) into lists indexed by card, noble and action id, and keeps the
memos the greedy's scoring shares across decisions. :func:`token_change`, :func:`buy_outcome`
and :func:`predict` say what a modelled move does to a seat without playing it;
:func:`calibrate` checks those predictions against the engine on a few seeded games, so that
the kinds of move a spec's rules change are played on a clone instead.
"""

from __future__ import annotations

import random

from .notation import _buys, action_domains, parse_move


class Facts:
    """What the heuristics need from an engine module, in lists indexed by card/noble/action id.

    `moves` reads each action's notation (the contract every spec's notation keeps: ``take``,
    ``take2``, ``reserve``, ``buy``, ``return``, ``noble``, ``pass``) as a move the greedy can
    score from the state without playing it (see :func:`ranked_actions`); a form it does not
    know (a house rule's ``sweep``, ``reserve 1.2 paying red``, the payment step) is None and
    is scored by playing it on a clone. `untrusted` holds the kinds of move whose effects this
    engine's rules change (found by :func:`calibrate`): those are played on a clone too, but for
    a kind whose moves were predicted right whenever they left the seat within its token limit
    (not in `untrusted_within`: a rule that changes only what happens over the limit, such as
    which tokens go back first or a reserve's gold refused at the cap): such a move that keeps
    the seat within the limit is scored from the state like a trusted one.
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
        self.needs: list[tuple[tuple[int, int], ...]] = [
            tuple((g, k) for g, k in enumerate(cost) if k) for cost in self.cost
        ]
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
        self.returns: list[int | None] = [
            key[0][0] if len(key) == 1 and key[0][1] == -1 else None for key in self.gain_keys
        ]
        self.popcount = [bin(m).count("1") for m in range(1 << self.gems)]
        self.max_gain = 1 + max(
            (sum(k for _, k in m[1] if k > 0) for m in self.moves if m and m[0] == "tokens"), default=0
        )  # the most tokens one move brings: a take's, or a reserve's wild one
        # _seat_terms by (weights, prestige, bonuses, noble row): they change only when the seat buys
        # a card or a noble leaves, so most decisions (and the purchases they score) find them here
        self.terms: dict[tuple, tuple[float, tuple[float, ...]]] = {}
        self.splits: dict[tuple, tuple[tuple[tuple[int, int], ...], int, int, bool]] = {}
        self.untrusted: frozenset[str] = frozenset()
        self.untrusted_within: frozenset[str] = frozenset()
        faults = calibrate(self)
        self.untrusted = frozenset(kind for kind, _ in faults)
        self.untrusted_within = frozenset(kind for kind, over in faults if not over)
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
        reserved = reserved[:arg] + reserved[arg + 1 :]
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
        return (list(game.tokens[p]), list(game.bonus[p]), game.prestige[p] + f.noble_points[n], list(game.reserved[p]))
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


def calibrate(f: Facts, games: int = 3, decisions: int = 200) -> frozenset[tuple[str, bool]]:
    """The kinds of move whose effects under this engine's rules differ from :func:`predict`,
    as (kind, over) pairs: `over` when the move that differed took the seat over its token
    limit as predicted (a move the engine could not carry out counts both ways).

    Plays a few seeded games (a purchase whenever one is legal, else mostly a take, to fill
    the seat's hand to its limit, else a random action) and,
    at each decision, compares every modelled legal move with the engine applying it to a
    clone. The same engine always gives the same answer, in every worker.
    """
    module = f.module
    faults = getattr(module, "RuleError", ())  # an effect the spec made legal and cannot carry out
    bad: set[tuple[str, bool]] = set()
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
                if move is None or (pending and move[0] != "noble"):
                    continue
                expected = predict(g, p, move, f)
                if expected is None:
                    continue
                tok, bon, pts, reserved = expected
                over = f.limit is not None and sum(tok) > f.limit
                if (move[0], over) in bad:
                    continue
                h = g.clone()
                try:
                    h.apply(a)
                except faults:  # a spec whose effect cannot be carried out here: not a move to model
                    bad.update(((move[0], False), (move[0], True)))
                    continue
                asked = h.current_player == p and h.phase != "action"
                returning = asked and all(
                    (f.moves[x] or ("",))[0] == "tokens" and f.moves[x][1][0][1] < 0 for x in h.legal_actions()
                )
                if asked and not returning:
                    continue  # p chooses a noble or a payment: nothing to compare yet
                if over != returning and not (over and _returned_alone(tok, list(h.tokens[p]), f.limit)):
                    bad.add((move[0], over))
                elif (list(h.bonus[p]), h.prestige[p], list(h.reserved[p])) != (bon, pts, reserved):
                    bad.add((move[0], over))
                elif not over and list(h.tokens[p]) != tok:
                    bad.add((move[0], over))
            buys = [a for a in legal if f.is_buy[a]]
            takes = [
                a for a in legal if f.moves[a] is not None and f.moves[a][0] == "tokens" and f.moves[a][1][0][1] > 0
            ]
            try:
                if buys:
                    g.apply(buys[0])
                else:  # mostly takes, to reach the token limit, and now and then anything
                    g.apply(
                        takes[rng.randrange(len(takes))]
                        if takes and rng.random() < 0.7
                        else legal[rng.randrange(len(legal))]
                    )
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


def _plain_take(f: Facts, key: tuple) -> bool:
    """A gain of gem tokens only (no wild token, nothing given back): what :func:`_take_bound` bounds."""
    changes, wild, _, positive = f.split(key)
    return positive and not wild and bool(changes)
