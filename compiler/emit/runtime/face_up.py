"""The face-up slots' costs: Game.face_up_costs of a market, and the cost of an empty slot.

Part of the runtime of every generated engine (see compiler/emit/runtime/__init__.py): pasted
into each engine whole, before the Game class, which keeps the costs as a game's market changes
(a new game and a loaded one build them here).
"""

from __future__ import annotations

from .spec import _FACE_UP_SLOTS, CARD_COST, GEMS, LEVELS

# Game.face_up_costs, kept when _FACE_UP_COSTS says so (when some legal loop of the spec walks
# it), holds the cost of the card in each face-up slot, level by level, _FACE_UP_SLOTS slots each,
# so that a purchase loop unpacks costs without looking up cards. An empty slot costs
# _NO_CARD_COST, which no one can pay.
_NO_CARD_COST = (10**9,) + (0,) * (len(GEMS) - 1)


def _face_up_costs(market: list[list[int | None]]) -> list[tuple[int, ...]]:
    """Game.face_up_costs of a market (a new game, a loaded one): the cost of each card, slot by slot."""
    costs = [_NO_CARD_COST] * (len(LEVELS) * _FACE_UP_SLOTS)
    for li, row in enumerate(market):
        for si, card in enumerate(row):
            if card is not None:
                costs[li * _FACE_UP_SLOTS + si] = CARD_COST[card]
    return costs
