"""A new game: the decks shuffled, the cards dealt and the nobles revealed with a seeded generator,
then the spec's own zones dealt and its setup run (the hooks _deal_spec_zones and _setup).

Part of the runtime of every generated engine (see compiler/emit/runtime/__init__.py): pasted
into each engine whole, after the Game class.
"""

from __future__ import annotations

import operator
import os
import random
from typing import Any

from .errors import _whole
from .face_up import _face_up_costs
from .game import Game
from .spec import (
    _FACE_UP_COSTS,
    LEVEL_CARDS,
    NOBLE_IDS,
    PLAYER_COUNTS,
    SETUP,
    _deal_spec_zones,
    _setup,
)


def _shuffle(rng: random.Random, items: list[Any]) -> None:
    """Shuffle `items` in place: Fisher-Yates drawing each index with getrandbits, exactly as
    random.shuffle does in Python 3.11, so that a seed deals what it always dealt. Written out
    because the module's shuffle may change between Python versions (only random() is promised
    to repeat), and a seed must deal the same game wherever the engine runs; also about twice
    as fast, with no method call per card."""
    getrandbits = rng.getrandbits
    steps = _SHUFFLE_STEPS.get(len(items))
    if steps is None:
        steps = _SHUFFLE_STEPS[len(items)] = tuple((i, (i + 1).bit_length()) for i in range(len(items) - 1, 0, -1))
    for i, k in steps:  # k: the bits of an index below i + 1
        j = getrandbits(k)
        while j > i:  # rejection keeps every index equally likely
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]


# length -> the (last index, bits) of each step of a Fisher-Yates shuffle of that many items
_SHUFFLE_STEPS: dict[int, tuple[tuple[int, int], ...]] = {}


def new_game(players: int, seed: int | None = None, max_turns: int | None = None) -> Game:
    """A new game: decks shuffled, cards dealt and nobles revealed with a generator seeded by `seed`.

    `players` is a player count of the spec, `seed` a whole number (None: one is picked and
    recorded), `max_turns` the length cap (None: the spec's, MAX_TURNS). Integer types of other
    libraries (numpy's) are taken as ints; anything else raises ValueError, saying why.
    """
    players = _whole(players, "the number of players")
    if players not in SETUP:
        raise ValueError(f"this engine plays with {', '.join(map(str, PLAYER_COUNTS))} players, not {players}")
    if seed is None:
        seed = int.from_bytes(os.urandom(8), "big")
    seed = _whole(seed, "a seed")
    if max_turns is not None and _whole(max_turns, "max_turns") < 1:
        raise ValueError(f"max_turns must be at least 1, not {max_turns}")
    game = Game(players)
    game.seed = seed
    if max_turns is not None:
        game.max_turns = operator.index(max_turns)
    rng = random.Random(seed)
    for li, cards in enumerate(LEVEL_CARDS):
        deck = list(cards)
        _shuffle(rng, deck)
        for si in range(game.setup_face_up):
            game.market[li][si] = deck.pop() if deck else None
        game.decks[li] = deck
    if _FACE_UP_COSTS:
        game.face_up_costs = _face_up_costs(game.market)
    nobles = list(NOBLE_IDS)
    _shuffle(rng, nobles)
    game.noble_row = nobles[: game.setup_nobles]
    _deal_spec_zones(game, rng)  # after the cards and nobles: a seed deals them as it did without zones
    _setup(game)
    game._legal = game._compute_legal()
    if not game._legal:
        game._finish("stuck")
    return game
