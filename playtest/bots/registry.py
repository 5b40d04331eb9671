"""The bots by name: ``"mcts:200"`` read (:func:`parse_bot`) and built (:func:`make_bot`).

The one place that lists the bots; the command line, the simulation, the web tables and the
RL environments name bots through it.
"""

from __future__ import annotations

from collections.abc import Callable

from .base import Bot, BotError
from .greedy import GreedyBot
from .mcts import MCTSBot
from .random_bot import RandomBot

BOT_NAMES = ("random", "greedy", "mcts")


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
