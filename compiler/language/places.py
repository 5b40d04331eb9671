"""The base game's places: where the engines keep the base cards and nobles, declared once, so that
a spec can name one as a zone (`place:` in `zones`, rulespec/README.md, Zones) and every zone
construct reaches it: a `component` choice, `move`, `discard`, `for`, aggregates.

A place is fixed by the base game: its kind, its shape and whether each player has one; the deal
fills it (a zone naming it takes no `start`, `source` or `size`). The zones check
(compiler/check/zones.py) reads this table, the lowering (compiler/lower/zones.py) maps each place
to the engine's own lists, and the runtime keeps the base game's counts (a player's bonuses and
prestige, a face-up slot's cost) as components come and go (compiler/emit/runtime/zones.py).

A place split by level (the face-up rows, the decks) is one zone per level, as the base game lays them
out: its name is indexed by a level (`row[1]`, `deck_of[card.level]`), which must be one (E514).
"""

from __future__ import annotations

from dataclasses import dataclass

from .shapes import Shape

# A zone's `start` in an engine's ZONES when it names a place (compiler/lower/zones.py): the base game
# deals it and its state saves it where it always has (`purchased`, `reserved`, `nobles`), not under
# "zones"; a tool reading ZONES (the RL observation, the web table) finds it there.
BASE_PLACE = "base"
# The `start` of a zone naming the nobles' box (`place: noble_box`): the nobles the base game's deal
# did not reveal, in a pile of the spec's zones (saved under "zones"; the base game drops them).
BOX_PLACE = "box"


@dataclass(frozen=True, slots=True)
class PlaceDecl:
    """One place of the base game: what it holds and how it is laid out (the README's words)."""

    name: str
    kind: str  # the base kind it holds: cards or nobles
    shape: Shape
    per_player: bool
    meaning: str
    private_when_drawn: bool = False  # a card drawn into it unseen (a blind reserve) is its owner's alone
    size_field: str = ""  # a row: the field of the player-count table that sizes it
    by: str = ""  # the group column splitting it, one zone per group (`by: level`): read `Z[level]`
    start: str = BASE_PLACE  # how its zone starts in ZONES: the base game's own list, or the nobles' box


PLACES: dict[str, PlaceDecl] = {
    d.name: d
    for d in (
        PlaceDecl(
            "purchased",
            "cards",
            Shape.HOLDING,
            True,
            "each player's purchased cards: what lies there gives the player's bonuses and prestige",
        ),
        PlaceDecl(
            "reserved",
            "cards",
            Shape.HOLDING,
            True,
            "each player's reserved cards (a blind reserve is seen by its owner only)",
            private_when_drawn=True,
        ),
        PlaceDecl(
            "visiting",
            "nobles",
            Shape.HOLDING,
            True,
            "the nobles visiting each player: their points count in the player's prestige",
        ),
        PlaceDecl(
            "noble_row", "nobles", Shape.ROW, False, "the nobles revealed at setup, in a row", size_field="nobles"
        ),
        PlaceDecl(
            "face_up",
            "cards",
            Shape.DISPLAY,
            False,
            "the face-up cards, a display per level (read Z[level]), each refilled from its level's deck",
            size_field="face_up",
            by="level",
        ),
        PlaceDecl("decks", "cards", Shape.PILE, False, "the decks, a pile per level (read Z[level])", by="level"),
        PlaceDecl(
            "noble_box",
            "nobles",
            Shape.PILE,
            False,
            "the nobles the deal did not reveal, face down, shuffled: a rule draws from it",
            start=BOX_PLACE,
        ),
    )
}
