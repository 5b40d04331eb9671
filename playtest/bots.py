"""Bots that play any generated engine: random, greedy and Monte-Carlo tree search.

A bot sees a game only through the Engine API (``legal_actions``, ``apply``, ``clone``,
``observation``, ``from_json`` and the read-only state attributes), so it plays every
variant the compiler can build. Bots are deterministic given their seed: every random
choice, tie-breaks included, comes from the bot's own ``random.Random``.

- ``random``: uniform among the legal actions.
- ``greedy``: applies each legal action to a clone and keeps the one whose result scores
  best under :func:`evaluate` (prestige, bonuses, progress toward the visible nobles,
  and how close the best target cards are given the tokens in hand).
- ``mcts``: UCT over information sets. Each playout runs on a *determinization*: the
  acting player's observation with what it cannot see (the deck order, other players'
  blind reserves) dealt again at random from the cards it has not seen. The root is
  narrowed to the greedy's best few actions, playouts follow a cheap policy (buy when
  possible, otherwise uniform) for a few plies, and a non-final position is scored with
  :func:`evaluate` turned into a value in [-1, 1].

``make_bot("mcts:400", engine_module, seed)`` builds a bot from its command-line name.
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Callable

BOT_NAMES = ("random", "greedy", "mcts")
WIN = 1_000_000.0


class BotError(ValueError):
    """A bot name or parameter the user got wrong."""


# ----------------------------------------------------------------------------- engine facts

class Facts:
    """What the heuristics need from an engine module, in lists indexed by card/noble id."""

    def __init__(self, module):
        self.module = module
        self.gems = len(module.GEMS)
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
        self.card_ids = sorted(c.id for c in module.CARDS)
        self.card_level = {c.id: c.level for c in module.CARDS}
        # Which actions buy a card: their notation starts with "buy" (the contract's notation).
        self.is_buy = [module.action_to_string(a).startswith("buy") for a in range(module.NUM_ACTIONS)]


_FACTS: dict[int, Facts] = {}


def facts(module) -> Facts:
    f = _FACTS.get(id(module))
    if f is None or f.module is not module:
        f = _FACTS[id(module)] = Facts(module)
    return f


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
        for g, (r, x) in enumerate(zip(req, b)):
            if r > x:
                have += x
                useful[g] += f.noble_points[n] / total
            else:
                have += r
        score += w.noble * f.noble_points[n] * (have / total) ** 2
    # Targets: the market and this seat's reserved cards, by value over turns to buy.
    have = [x + y for x, y in zip(b, t)]
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
            for c, h in zip(costs[card], have):
                if c > h:
                    short += c - h
            turns = -(-short // tp) if short > 0 else 0
            rates.append((wp * points[card] + wb * useful[bonus[card]]) / (1 + turns))
            if mine:
                score -= w.reserved * (1 + turns)
    rates.sort(reverse=True)
    for weight, r in zip(w.target, rates):
        score += weight * r
    score += w.token * (sum(t) - gold) + w.gold * gold
    return score


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
    top = max(s for s, _ in scored)
    ties = [a for s, a in scored if s >= top - 1e-9]
    return ties[0] if len(ties) == 1 else rng.choice(ties)


def ranked_actions(game, f: Facts, w: Weights = WEIGHTS) -> list[tuple[float, int]]:
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
        return _best(ranked_actions(game, self.facts, self.weights), self.rng)


class _Node:
    __slots__ = ("children", "visits", "total", "avail", "player", "order")

    def __init__(self, player: int):
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.total = 0.0  # summed value for `player`, the seat that chose the move into this node
        self.avail = 0
        self.player = player
        self.order: list[int] | None = None  # the order in which this node's moves are tried


class MCTSBot(Bot):
    """Information-set UCT with a budget in playouts (see the module docstring).

    The root considers the greedy's `width` best actions. Below it, a node's moves are
    tried in the order the heuristic ranks them for the seat to move (down to
    `prior_depth`; in random order deeper), and a node opens a new move only when its
    visits allow it (progressive widening: at most 1 + sqrt(visits) moves), so that the
    budget goes to the replies that matter. Playouts then follow the cheap policy for
    `depth` plies and the position is scored with :func:`values`.
    """

    name = "mcts"

    def __init__(self, module, seed=None, playouts: int = 100, width: int = 8, depth: int = 4,
                 exploration: float = 0.7, determinizations: int = 16, prior_depth: int = 2,
                 widening: bool = True):
        super().__init__(module, seed)
        if playouts < 1:
            raise BotError("mcts needs at least one playout")
        self.playouts = playouts
        self.width = width
        self.depth = depth
        self.c = exploration
        self.determinizations = determinizations
        self.prior_depth = prior_depth
        self.widening = widening
        self.name = f"mcts:{playouts}"

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
        root = _Node(me)
        root.order = [a for _, a in ranked[: self.width]]
        worlds = [determinize(game, me, rng, self.module)
                  for _ in range(min(self.playouts, self.determinizations))]
        for i in range(self.playouts):
            g = worlds[i % len(worlds)].clone()
            path = [root]
            node = root
            level = 0
            while not g.is_over():
                if node.order is None:
                    node.order = self._order(g, level)
                legal_here = node.order if node is root else _legal_in(node.order, g)
                limit = (1 + int(math.sqrt(node.visits))) if self.widening and node is not root else len(legal_here)
                for a in legal_here:
                    child = node.children.get(a)
                    if child is not None:
                        child.avail += 1
                opened = sum(1 for a in legal_here if a in node.children)
                if opened < limit:
                    a = next((a for a in legal_here if a not in node.children), None)
                    if a is not None:
                        child = node.children[a] = _Node(g.current_player)
                        child.avail = 1
                        g.apply(a)
                        path.append(child)
                        break
                a = max((a for a in legal_here if a in node.children),
                        key=lambda x: _ucb(node.children[x], self.c))
                node = node.children[a]
                g.apply(a)
                path.append(node)
                level += 1
            g = self._rollout(g)
            v = values(g, f)
            for n in path:
                n.visits += 1
                n.total += v[n.player]
        opened = [a for a in root.order if a in root.children]
        best = max(root.children[a].visits for a in opened)
        choices = [a for a in opened if root.children[a].visits == best]
        if len(choices) > 1:
            means = {a: root.children[a].total / root.children[a].visits for a in choices}
            top = max(means.values())
            choices = [a for a in choices if means[a] >= top - 1e-12]
        return choices[0] if len(choices) == 1 else rng.choice(choices)

    def _order(self, g, level: int) -> list[int]:
        if level < self.prior_depth:
            return [a for _, a in sorted(ranked_actions(g, self.facts), key=lambda sa: -sa[0])]
        order = g.legal_actions()
        self.rng.shuffle(order)
        return order

    def _rollout(self, g):
        f = self.facts
        rng = self.rng
        is_buy = f.is_buy
        for _ in range(self.depth):
            if g.is_over():
                return g
            mode = getattr(self, "greedy_rollout", False)
            if mode == "sample":
                legal = g.legal_actions()
                if len(legal) == 1:
                    g.apply(legal[0])
                    continue
                picks = rng.sample(legal, min(4, len(legal)))
                buys = [a for a in legal if is_buy[a]]
                if buys:
                    picks.append(rng.choice(buys))
                p = g.current_player
                best = None
                for a in picks:
                    h = g.clone()
                    h.apply(a)
                    sc = evaluate(h, p, f)
                    if best is None or sc > best[0]:
                        best = (sc, h)
                g = best[1]
                continue
            if mode:
                legal = g.legal_actions()
                if len(legal) == 1:
                    g.apply(legal[0])
                else:
                    g.apply(max(ranked_actions(g, f))[1])
                continue
            legal = g.legal_actions()
            buys = [a for a in legal if is_buy[a]]
            g.apply(rng.choice(buys or legal))
        return g


def _legal_in(order: list[int], g) -> list[int]:
    """The node's moves that are legal in this determinization (hidden cards change a few)."""
    legal = g.legal_actions()
    allowed = set(legal)
    out = [a for a in order if a in allowed]
    if len(out) < len(legal):
        known = set(order)
        extra = [a for a in legal if a not in known]
        order.extend(extra)
        out += extra
    return out


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
    those places, and the result is rebuilt with the engine's ``from_json``.
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
    return module.from_json(obs)


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


def make_bot(text: str, module, seed: int | None = None) -> Bot:
    name, kwargs = parse_bot(text)
    return _MAKERS[name](module, seed, **kwargs)
