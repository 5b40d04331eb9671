"""The random bot: uniform among the legal actions.

(Named random_bot, not random, so that no reader takes it for the standard library's module.)
"""

from __future__ import annotations

from .base import Bot


class RandomBot(Bot):
    name = "random"

    def choose(self, game) -> int:
        return self.rng.choice(game.legal_actions())
