"""Zones that name a place of the base game (`place:` in `zones`, rulespec/README.md, Zones): the
place read and checked against what the base game fixes (compiler/language/places.py), and the
model.Zone it makes.

Called by the zones pass (compiler/check/zones.py, ZoneReader.zone) with the reader (`reader`): a
place of the base cards or nobles is laid out by the base game's deal, so a spec names it and its
kind, shape and ownership, and nothing else (E541 for each key that does not fit).
"""

from __future__ import annotations

from typing import Any, Literal, Protocol

from ..diagnostics import Reporter, Span, did_you_mean
from ..front.expr import Effect
from ..front.source import MapNode, ScalarNode
from ..language import Shape
from ..language.places import PLACES, PlaceDecl
from ..language.types import Comp
from ..model import PlayerCount, Text, Zone


class ZoneReader(Protocol):
    """What these read of the zones pass (compiler/check/zones.py, ZoneReader), which calls them."""

    c: Any  # the check pass (compiler/check/reader.py)
    r: Reporter
    players: tuple[PlayerCount, ...]

    def clash(self, name: str, span: Span, per_player: bool) -> bool: ...

    def limit(self, entry: MapNode, where: str) -> tuple[int, str]: ...


# What the base game's deal fixes for a zone that names one of its places (E541 when a spec gives it).
_PLACE_FIXED = ("start", "source", "size", "by", "private_when_drawn")


def read_place(
    reader: ZoneReader, name: str, entry: MapNode, holds: str, shape: Shape, earlier: dict[str, Zone]
) -> PlaceDecl | Literal[False] | None:
    """The base game's place a zone names (`place:`), None when it names none, False after an
    error: a place that is not one, of another kind or laid out otherwise, named twice, or given
    what the base game's deal fixes (E541)."""
    value, node = reader.c.scalar(entry, "place", str, required=False, default="", where=f" in zone '{name}'")
    if node is None:
        return None
    place = PLACES.get(str(value))
    if place is None:
        reader.r.error(
            "E541",
            f"zone '{name}' names no place of the base game: '{value}'{did_you_mean(str(value), PLACES)} "
            f"(places: {', '.join(PLACES)})",
            node.span,
        )
        return False
    laid = f"{'a per-player' if place.per_player else 'a shared'} {place.shape} of {place.kind}"
    problems: list[tuple[Span, str]] = []  # each where it is written, in the entry's order
    if holds != place.kind:
        problems.append((_span(entry, "holds", node), f"place '{place.name}' holds the {place.kind}, not '{holds}'"))
    per_player = entry.get("per_player")
    owned = isinstance(per_player, ScalarNode) and per_player.value is True
    if shape is not place.shape or owned != place.per_player:
        where = _span(entry, "shape" if shape is not place.shape or per_player is None else "per_player", node)
        hint = f"shape: {place.shape}" + (", per_player: true" if place.per_player else "")
        problems.append((where, f"place '{place.name}' is {laid}: write '{hint}'"))
    problems += _split_by(entry, place, node)
    for fixed in _PLACE_FIXED:
        if entry.get(fixed) is not None and not (fixed == "by" and place.by):
            problems.append(
                (entry.key_span(fixed), f"'{fixed}' in zone '{name}': the base game lays out place '{place.name}'")
            )
    twice = next((z for z in earlier.values() if z.place == place.name), None)
    if twice is not None:
        problems.append((node.span, f"place '{place.name}' is already zone '{twice.name}' (line {twice.span.line})"))
    for span, message in problems:
        reader.r.error("E541", message, span, f"place '{place.name}' is {place.meaning}")
    return False if problems else place


def _split_by(entry: MapNode, place: PlaceDecl, node: ScalarNode) -> list[tuple[Span, str]]:
    """A place the base game splits by a group column (the face-up rows, the decks by level) is
    named with that `by`, so that a rule reads it as the base game lays it out: `Z[level]`."""
    by = entry.get("by")
    if not place.by or (isinstance(by, ScalarNode) and by.value == place.by):
        return []
    where = by.span if by is not None else node.span
    return [(where, f"place '{place.name}' is one zone per {place.by}: write 'by: {place.by}' (read Z[{place.by}])")]


def place_zone(
    reader: ZoneReader, name: str, title: Text, key: ScalarNode, entry: MapNode, place: PlaceDecl
) -> Zone | None:
    """A zone that names a place of the base game: laid out as the base game lays it out."""
    limit, limit_name = reader.limit(entry, f" in zone '{name}'") if place.shape is Shape.HOLDING else (0, "")
    if reader.clash(name, key.span, place.per_player):
        return None
    sizes = tuple((p.players, p.field(place.size_field)) for p in reader.players) if place.size_field else ()
    reader.c.spans[f"zones.{name}"] = key.span
    return Zone(
        name,
        title,
        place.kind,
        place.shape,
        key.span,
        per_player=place.per_player,
        sizes=sizes,
        limit=limit,
        limit_name=limit_name,
        size_field=place.size_field,
        private_when_drawn=place.private_when_drawn,
        note=reader.c.note(entry),
        place=place.name,
        by=place.by,
    )


def _span(entry: MapNode, key: str, fallback: ScalarNode) -> Span:
    """Where an entry's value for `key` is written (the place's own node when it has none)."""
    found = entry.get(key)
    return found.span if found is not None else fallback.span


def refill_source(zone: Zone) -> str:
    """What `refill(Z)` fills zone `Z` from: its `source`, or for the base game's face-up rows, each
    level's deck (the base game's refill)."""
    return zone.source or ("the decks" if zone.place == "face_up" else "")


def check_discard(r: Reporter, node: Effect, what: object) -> None:
    """E581: `discard` of a base noble. A saved game holds as many nobles in play (the row's and the
    players') as the deal revealed, and the engines check it when they load one, so a noble never
    leaves the game (a card does: it is listed in `out_of_play`)."""
    if isinstance(what, Comp) and what.kind == "nobles":
        r.error(
            "E581",
            "a base noble cannot be taken out of the game: the nobles in play (the noble row's and the "
            "players') stay as many as the deal revealed, and a saved game is checked for them",
            node.span,
            "move the noble to another place of the base game instead (move(noble, me.ZONE))",
        )
