"""The base game's cards and nobles lying in holdings of the spec's own (only in the engine of a spec
that has such a holding: `zones: kept: {holds: nobles, shape: holding, per_player: true}`).

Part of the runtime (see compiler/emit/runtime/__init__.py, SPEC_MODULES): pasted whole into those
engines only. The base game's components are dealt to its places, and the rules move some into a
holding of the spec's (a noble kept aside); a saved state lists that holding under `zones` (a
player's under its seat), and the saved-state check (compiler/emit/runtime/problems.py) counts what
lies there among the cards and nobles in play: each once, none missing. Its two statements that
gather them call these functions in such engines (compiler/emit/held.py rewrites them, so that the
other engines keep their text). Malformed lists are skipped here: the zones' own check reports them.
"""

from __future__ import annotations

from typing import Any

from .aliases import Path, State
from .spec import CARDS, NOBLES, ZONES

# The holdings of the spec's own that hold base cards or nobles: not a place of the base game, not the
# nobles' box (their `start`: compiler/language/places.py, BASE_PLACE and BOX_PLACE).
_HELD = tuple(zone for zone in ZONES if zone.kind in ("cards", "nobles") and zone.start not in ("base", "box"))


def _held_lists(data: State, kind: str) -> list[tuple[Path, list[Any]]]:
    """Each list of a state's holdings of the spec's own that hold base kind `kind`, with its path."""
    out: list[tuple[Path, list[Any]]] = []
    shared, seats = data.get("zones"), data.get("seats")
    for zone in _HELD:
        if zone.kind != kind:
            continue
        if not zone.per_player:
            items = shared.get(zone.name) if isinstance(shared, dict) else None
            out += [(("zones", zone.name), items)] if isinstance(items, list) else []
            continue
        for p, seat in enumerate(seats if isinstance(seats, list) else []):
            table = seat.get("zones") if isinstance(seat, dict) else None
            items = table.get(zone.name) if isinstance(table, dict) else None
            out += [(("seats", p, "zones", zone.name), items)] if isinstance(items, list) else []
    return out


def _held_cards(data: State) -> list[tuple[int, Path]]:
    """The base cards lying in the spec's own holdings, each with its path (as the places' cards are)."""
    return [
        (x, path + (i,))
        for path, items in _held_lists(data, "cards")
        for i, x in enumerate(items)
        if type(x) is int and 0 <= x < len(CARDS)
    ]


def _held_nobles(data: State) -> list[int]:
    """The base nobles lying in the spec's own holdings (a noble kept aside is in play)."""
    return [x for _, items in _held_lists(data, "nobles") for x in items if type(x) is int and 0 <= x < len(NOBLES)]
