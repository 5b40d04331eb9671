"""The differences of two rule models in their kinds of component: beyond the base game's cards
and nobles, a kind added or removed, its title, columns or table changed; for those two, the
columns a spec adds to them."""

from __future__ import annotations

from typing import Any

from ..check.kinds import BASE_KINDS
from ..language import ColumnType
from ..model import Column, Kind, Rules
from .record import Difference


def kinds_differences(a: Rules, b: Rules) -> list[Difference]:
    """Kinds of component beyond the base game's cards and nobles (those are `components`): a kind
    added or removed, or its title, columns or table (its components' values) changed."""
    before = {k.name: k for k in a.kinds if k.name not in BASE_KINDS}
    after = {k.name: k for k in b.kinds if k.name not in BASE_KINDS}
    out = _base_columns(a, b)
    for name, k in before.items():
        if name not in after:
            out.append(Difference("removed", f"kinds.{name}", ("kind", name, k.title), None, before_at=k.span))
    for name, k in after.items():
        subject = ("kind", name, k.title)
        old = before.get(name)
        if old is None:
            out.append(
                Difference(
                    "added",
                    f"kinds.{name}",
                    subject,
                    None,
                    after_at=k.span,
                    details=(("columns", _columns(k), "list"), ("components", len(k.components), "components")),
                )
            )
            continue
        if old.title != k.title:
            out.append(
                Difference(
                    "changed",
                    f"kinds.{name}.title",
                    subject,
                    "title",
                    ("text", old.title),
                    ("text", k.title),
                    old.span,
                    k.span,
                )
            )
        if _columns(old) != _columns(k):
            out.append(
                Difference(
                    "changed",
                    f"kinds.{name}.columns",
                    subject,
                    "columns",
                    ("list", _columns(old)),
                    ("list", _columns(k)),
                    old.span,
                    k.span,
                )
            )
        if _rows(old, a) != _rows(k, b):
            out.append(
                Difference(
                    "changed",
                    f"kinds.{name}.table",
                    subject,
                    "components",
                    ("components", len(old.components)),
                    ("components", len(k.components)),
                    old.components[0].span if old.components else old.span,
                    k.components[0].span if k.components else k.span,
                )
            )
    return out


def _base_columns(a: Rules, b: Rules) -> list[Difference]:
    """The base cards' and nobles' columns, where a spec adds its own (`ability: keyword`) or drops
    them, and the column of the bonuses each card gives (their tables are `components`' differences)."""
    out = []
    for old in a.kinds:
        new = next((k for k in b.kinds if k.name == old.name), None)
        if old.name in BASE_KINDS and new is not None and old.bonus_count != new.bonus_count:
            out.append(
                Difference(
                    "changed",
                    f"kinds.{old.name}.bonus_count",
                    ("kind", new.name, new.title),
                    "bonus_count",
                    ("column", old.bonus_count or None),
                    ("column", new.bonus_count or None),
                    old.span,
                    new.span,
                )
            )
        if old.name in BASE_KINDS and new is not None and _series(old) != _series(new):
            out.append(
                Difference(
                    "changed",
                    f"kinds.{old.name}.series",
                    ("kind", new.name, new.title),
                    "series",
                    ("list", _series(old)),
                    ("list", _series(new)),
                    old.span,
                    new.series[0].span if new.series else new.span,
                )
            )
        if old.name in BASE_KINDS and new is not None and _columns(old) != _columns(new):
            out.append(
                Difference(
                    "changed",
                    f"kinds.{old.name}.columns",
                    ("kind", new.name, new.title),
                    "columns",
                    ("list", _columns(old)),
                    ("list", _columns(new)),
                    old.span,
                    new.span,
                )
            )
    return out


def _series(kind: Kind) -> tuple[str, ...]:
    """A kind's series as the spec names them, with how many components each has: 'east: 13 (east.csv)'."""
    return tuple(f"{s.name}: {s.count} ({s.table})" for s in kind.series)


def _columns(kind: Kind) -> tuple[str, ...]:
    """A kind's columns as the spec writes them: 'requires: gems'."""
    return tuple(f"{c.name}: {c.type}" for c in kind.columns)


def _rows(kind: Kind, rules: Rules) -> tuple[tuple[object, ...], ...]:
    """A kind's components by value, colours by name (two specs may order their colours otherwise)."""

    def named(column: Column, value: Any) -> object:
        if column.type is ColumnType.GEM and value is not None:
            return rules.gems[value]
        if column.type is ColumnType.COLOUR:
            return rules.colours[value]
        if column.type is ColumnType.GEMS:
            return tuple(zip(rules.gems, value, strict=True))
        return value

    return tuple(tuple(named(col, v) for col, v in zip(kind.columns, c.values, strict=True)) for c in kind.components)
