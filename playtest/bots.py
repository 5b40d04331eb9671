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
  narrowed to the greedy's best few actions, playouts follow a cheap policy (the
  heuristic's best of a few sampled moves) for a few plies, and the position reached is
  scored with :func:`evaluate` turned into a value in [-1, 1].

``make_bot("mcts:200", engine_module, seed)`` builds a bot from its command-line name.
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
    moves legal in that world, untried moves first), plays `depth` plies with the cheap
    policy and backs up :func:`values` of the position reached. The most visited root
    move is played (ties: better mean, then the bot's random generator).
    """

    name = "mcts"

    def __init__(self, module, seed=None, playouts: int = 64, width: int = 8, depth: int = 3,
                 exploration: float = 0.7, determinizations: int = 16, sample: int = 4):
        super().__init__(module, seed)
        if playouts < 1:
            raise BotError("mcts needs at least one playout")
        self.playouts = playouts
        self.width = width
        self.depth = depth
        self.c = exploration
        self.determinizations = determinizations
        self.sample = sample
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
        candidates = [a for _, a in ranked[: self.width]]
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
        best = max(root.children[a].visits for a in root.children)
        choices = [a for a in candidates if a in root.children and root.children[a].visits == best]
        if len(choices) > 1:
            means = {a: root.children[a].total / root.children[a].visits for a in choices}
            top = max(means.values())
            choices = [a for a in choices if means[a] >= top - 1e-12]
        return choices[0] if len(choices) == 1 else rng.choice(choices)

    def _playout(self, g):
        """`depth` plies of the cheap policy: the heuristic's best of a few sampled moves.

        Each ply samples `sample` legal moves, adds one purchase when there is one (notation
        ``buy ...``), and plays the one whose result the mover scores best; a handful of
        clones a ply instead of the greedy's one per legal move.
        """
        f = self.facts
        rng = self.rng
        is_buy = f.is_buy
        for _ in range(self.depth):
            if g.is_over():
                break
            legal = g.legal_actions()
            if len(legal) == 1:
                g.apply(legal[0])
                continue
            picks = rng.sample(legal, min(self.sample, len(legal)))
            buys = [a for a in legal if is_buy[a]]
            if buys:
                picks.append(rng.choice(buys))
            mover = g.current_player
            best = None
            for a in picks:
                h = g.clone()
                h.apply(a)
                score = evaluate(h, mover, f)
                if best is None or score > best[0]:
                    best = (score, h)
            g = best[1]
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
