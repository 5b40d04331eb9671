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

One module per bot, on top of what they share; each imports only the modules above it:

- :mod:`~playtest.bots.notation`        an action's notation read as a move the greedy models;
- :mod:`~playtest.bots.engine_facts`    what the heuristics know of an engine, what a move does;
- :mod:`~playtest.bots.heuristic`       the heuristic: a position's score for a seat;
- :mod:`~playtest.bots.position`        a seat's position taken apart, to score moves by their changes;
- :mod:`~playtest.bots.bounds`          the bounds that let the greedy skip moves out of reach;
- :mod:`~playtest.bots.base`            the Bot base class and BotError;
- :mod:`~playtest.bots.random_bot`, :mod:`~playtest.bots.greedy`, :mod:`~playtest.bots.mcts`
  (with :mod:`~playtest.bots.determinization`): the bots;
- :mod:`~playtest.bots.registry`        the bots by name (parse_bot, make_bot).

The names below are those the rest of the code imports from ``playtest.bots``; the helpers
whose names begin with an underscore are the package's own, imported from their modules.
"""

from __future__ import annotations

from .base import Bot, BotError
from .determinization import determinize
from .engine_facts import Facts, buy_outcome, calibrate, facts, predict, qualifying, token_change
from .greedy import GreedyBot, finish_turn, ranked_actions, ranked_actions_by_clone
from .heuristic import WEIGHTS, WIN, Weights, evaluate, score_seat, values
from .mcts import MCTSBot
from .notation import MEANINGS, action_domains, parse_move
from .position import Position
from .random_bot import RandomBot
from .registry import BOT_NAMES, make_bot, parse_bot

__all__ = [
    "BOT_NAMES",
    "MEANINGS",
    "WEIGHTS",
    "WIN",
    "Bot",
    "BotError",
    "Facts",
    "GreedyBot",
    "MCTSBot",
    "Position",
    "RandomBot",
    "Weights",
    "action_domains",
    "buy_outcome",
    "calibrate",
    "determinize",
    "evaluate",
    "facts",
    "finish_turn",
    "make_bot",
    "parse_bot",
    "parse_move",
    "predict",
    "qualifying",
    "ranked_actions",
    "ranked_actions_by_clone",
    "score_seat",
    "token_change",
    "values",
]
