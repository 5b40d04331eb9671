"""Zone shapes: the five ways a zone lays out its components (`shape:` in a spec's `zones`).

A :class:`Shape` is a ``StrEnum``, so a shape read from YAML or JSON (``"pile"``) equals its
member and prints as its name: messages and sheets say ``pile`` as before. Each shape is
declared once, in :data:`SHAPES`, with the zone keys that fit it (E541 for another), read by
the zones check (compiler/check/zones.py), the lowering and the sheets.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Shape(StrEnum):
    """A zone's shape, in the order rulespec/README.md lists them (the order of E541's list)."""

    PILE = "pile"
    DISPLAY = "display"
    ROW = "row"
    HOLDING = "holding"
    BAG = "bag"

    @property
    def face_down(self) -> bool:
        """A pile or a bag: its contents hidden (only its size is read: E551), drawn from, dealt from."""
        return self in (Shape.PILE, Shape.BAG)

    @property
    def laid_out(self) -> bool:
        """A display or a row: face up, with a size, dealt and refilled from a source pile."""
        return self in (Shape.DISPLAY, Shape.ROW)


@dataclass(frozen=True, slots=True)
class ShapeDecl:
    """One shape: the keys of a zone that fit it, what it is (the README's words), its phrase key."""

    shape: Shape
    keys: tuple[str, ...]  # the zone keys that only some shapes take, that this one takes
    meaning: str
    phrase: str | None = None  # compiler/sheets/lang/*.yaml: how the setup lays it out, if it has words of its own


SHAPES: dict[Shape, ShapeDecl] = {
    d.shape: d
    for d in (
        ShapeDecl(Shape.PILE, ("by",), "face down, ordered, drawn from the top", "sheet.setup.pile"),
        ShapeDecl(Shape.DISPLAY, ("by", "size", "source"), "face up, fixed slots that stay empty until refilled"),
        ShapeDecl(Shape.ROW, ("by", "size", "source"), "face up, closes up when a component leaves"),
        ShapeDecl(Shape.HOLDING, ("per_player", "limit", "private_when_drawn"), "a player's, or shared"),
        ShapeDecl(
            Shape.BAG,
            (),
            "face down, in no order: a draw takes a component at random, and one put in goes in "
            "at random (the game's seeded generator)",
            "sheet.setup.bag",
        ),
    )
}


def shapes_taking(key: str) -> tuple[Shape, ...]:
    """The shapes a zone key fits, in declaration order ('size': display and row)."""
    return tuple(d.shape for d in SHAPES.values() if key in d.keys)


# Every key that fits some shapes only, in the order E541 checks them.
SHAPE_KEYS: tuple[str, ...] = ("by", "size", "source", "per_player", "limit", "private_when_drawn")
