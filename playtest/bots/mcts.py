"""The MCTS bot: information-set UCT, a budget in playouts, narrowed at the root by the greedy.

Each playout runs on a *determinization* (:mod:`playtest.bots.determinization`): the acting
player's observation with what it cannot see dealt again at random. The root keeps the
greedy's best few actions (:func:`playtest.bots.greedy.ranked_actions`); after the tree, the
engine's own ``Game.playout`` plays random moves for a few turns, and the position reached
is scored by :func:`playtest.bots.heuristic.values`.
"""

from __future__ import annotations

import math
import time

from .base import Bot, BotError
from .determinization import determinize
from .greedy import _best, ranked_actions
from .heuristic import WIN, values


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

    def __init__(
        self,
        module,
        seed=None,
        playouts: int = 64,
        width: int = 8,
        depth: int = 2,
        exploration: float = 0.7,
        determinizations: int = 16,
    ):
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
        worlds = [determinize(game, me, rng, self.module) for _ in range(min(self.playouts, self.determinizations))]
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
