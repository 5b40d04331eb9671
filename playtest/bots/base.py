"""What every bot shares: the :class:`Bot` base class and :class:`BotError`.

A bot is built from an engine module and a seed, and ``choose(game)`` returns an action id;
every random choice it makes comes from its own ``random.Random``.
"""

from __future__ import annotations

import random

from .engine_facts import facts


class BotError(ValueError):
    """A bot name or parameter the user got wrong."""


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
