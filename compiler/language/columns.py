"""Column types: how a cell of a kind's CSV table is read, and the attribute it gives a component.

:class:`ColumnType` is a ``StrEnum`` (``"gems"`` from YAML equals ``ColumnType.GEMS`` and prints
as ``gems``). Each type is declared once in :data:`COLUMN_TYPES` with the expression type its
attribute has (None: a keyword column's type is that column's own, a prose column gives none).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from .types import COLOUR, GEM, INT, AnyType, MapOf


class ColumnType(StrEnum):
    NUMBER = "number"
    GEM = "gem"
    COLOUR = "colour"
    GEMS = "gems"
    KEYWORD = "keyword"
    PROSE = "prose"


@dataclass(frozen=True, slots=True)
class ColumnDecl:
    """One column type: the attribute's type in expressions (None: see the module), its cells, its phrase key."""

    type: ColumnType
    attribute: AnyType | None
    noun: str  # as messages name it (E120, E122)
    keys: tuple[str, ...]  # the keys of a column's long form beside `type`, `title` that fit it (E120 else)
    phrase: str | None = None  # no phrase of its own: the sheets show a column by its title


COLUMN_TYPES: dict[ColumnType, ColumnDecl] = {
    d.type: d
    for d in (
        ColumnDecl(ColumnType.NUMBER, INT, "a number", ("group", "header", "default")),
        ColumnDecl(ColumnType.GEM, GEM, "a gem colour", ("optional", "header", "default")),
        ColumnDecl(ColumnType.COLOUR, COLOUR, "a colour", ("header", "default")),
        ColumnDecl(ColumnType.GEMS, MapOf(GEM, INT), "a table by gem colour", ("prefix",)),
        ColumnDecl(ColumnType.KEYWORD, None, "a keyword", ("header", "default")),
        ColumnDecl(ColumnType.PROSE, None, "a prose text", ("header", "default")),
    )
}


def types_taking(key: str) -> tuple[ColumnType, ...]:
    """The column types a key of a column's long form fits, in declaration order ('prefix': gems)."""
    return tuple(d.type for d in COLUMN_TYPES.values() if key in d.keys)


# Every key of a column's long form that fits some types only, in the order E120 checks them.
COLUMN_KEYS: tuple[str, ...] = ("group", "optional", "prefix", "header", "default")
