"""A kind's series: further tables of the base cards (`kinds: cards: series:`, rulespec/README.md,
Kinds), as The Orient adds thirty cards of its own to the ninety.

Called by the kinds pass (compiler/check/kinds.py): a series is read with the kind's columns, its
components numbered after the kind's own table (and the series before it), so that they are cards
of the same kind: bought, reserved, counted in bonuses, prices and nobles, read by the same columns,
wherever they lie. The base game's deal leaves them out (it deals the kind's own table); zones that
name the series (`series:` in `zones`, compiler/check/zones.py) deal them. Problems are located: in
the spec for a declaration (E127, E541 for a zone), in the CSV file for a table (E107, E112), E124 for one without rows.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Literal

from ..diagnostics import Span, did_you_mean
from ..front.source import MapNode, ScalarNode
from ..model import Component, Series
from .kind_tables import Declaration, SeriesDeclaration, TableReader

SERIES_KINDS = ("cards",)  # the kinds whose components the base game deals itself, so a series is left out


def read_series(checker: Any, kind: str, entry: MapNode) -> tuple[tuple[SeriesDeclaration, ...], Span | None]:
    """The series a kind's declaration gives (`series: NAME: {title, table}`), and where it is written;
    E127 on a kind that is not one of the base cards."""
    node = entry.get("series")
    if node is None:
        return (), None
    span = entry.key_span("series")
    if kind not in SERIES_KINDS:
        checker.r.error(
            "E127",
            f"'series' applies to the base kind 'cards' only, not to '{kind}'",
            span,
            "a series is a further table of development cards, which the base game's deal leaves out; "
            "a kind of the spec's own is dealt by its zones already",
        )
        return (), span
    if not isinstance(node, MapNode):
        checker.r.error("E103", "'series' must be a mapping of series names to {title, table}", node.span)
        return (), span
    out: list[SeriesDeclaration] = []
    for key, value in node.entries:
        name = str(key.value)  # a name: the schema says so (E105)
        if not isinstance(value, MapNode):
            checker.r.error("E103", f"series '{name}' must be a mapping {{title, table}}", value.span)
            continue
        where = f" in series '{name}'"
        title = checker.text(value, "title")
        table = checker.node(value, "table", ScalarNode, where=where)
        if table is not None and not isinstance(table.value, str):
            checker.r.error("E103", "'table' must be the path of a .csv file", table.span)
            table = None
        out.append(SeriesDeclaration(name, title, table, key.span))
    return tuple(out), span


def series_of(
    checker: Any, tables: TableReader, d: Declaration, components: tuple[Component, ...]
) -> tuple[tuple[Series, ...], tuple[Component, ...]]:
    """The kind's series, each table read with the kind's columns, and every component of the kind:
    its own table's, then each series' in declared order, numbered on. A series whose table cannot
    be read (reported) has no components."""
    out: list[Series] = []
    every = list(components)
    for s in d.series:
        read = tables.rows(replace(d, table=s.table)) if s.table is not None else None
        rows, shown, data_rows = read if read is not None else ((), "", 0)
        if read is not None and not data_rows:
            assert s.table is not None
            checker.r.error(
                "E124",
                f"the table of series '{s.name}' ({shown}) has no rows: a series needs at least one {d.item.en}",
                s.table.span,
            )
        first = len(every)
        every += [Component(first + i, c.values, c.span) for i, c in enumerate(rows)]
        out.append(Series(s.name, s.title, shown, first, len(rows), s.span))
    return tuple(out), tuple(every)


def read_zone_series(reader: Any, name: str, entry: MapNode, kind: Any, place: Any) -> Series | None | Literal[False]:
    """The series a zone names (`series:`), None when it names none, False after an E541: a series on a
    zone naming a place of the base game (the base game lays it out), of a kind without series, or
    a series the kind has not."""
    value, node = reader.c.scalar(entry, "series", str, required=False, default="", where=f" in zone '{name}'")
    if node is None:
        return None
    if place:
        reader.r.error(
            "E541",
            f"'series' in zone '{name}': a zone naming a place of the base game holds what the base game puts there",
            node.span,
            "a series is dealt by a zone of its own (a pile, and the rows dealt from it)",
        )
        return False
    known: tuple[Series, ...] = kind.series if kind is not None else ()
    found: Series | None = next((s for s in known if s.name == value), None)
    if found is None:
        holds = kind.name if kind is not None else "its kind"
        reader.r.error(
            "E541",
            f"zone '{name}' names the series '{value}', which {holds} have not"
            + (did_you_mean(str(value), [s.name for s in known]) if known else ""),
            node.span,
            f"the series of the {holds}: {', '.join(s.name for s in known)}"
            if known
            else "declare it under the kind: `kinds: cards: series: NAME: {title, table}`",
        )
        return False
    if not found.count:  # its table was refused (E107, E112, E124, reported): nothing to deal, nothing more said
        return False
    return found


def series_view(kind: Any, series: Series | None) -> Any:
    """What a zone's deal takes of its kind: for a zone naming a series, the kind with the series'
    components only (what its sizes and groups are checked against), else the kind itself."""
    if series is None:
        return kind
    return replace(kind, components=tuple(c for c in kind.components if c.id in series.ids))


def undealt(r: Any, kind: Any, zones: Any, deals_whole: Any) -> None:
    """E127 at each series of the cards that no zone deals (a `start: all` pile naming it, or a display
    or row dealt from it without a source): the base game's deal leaves its cards out, so they would lie
    nowhere."""
    for s in kind.series if kind is not None else ():
        if s.count and not any(z.series == s.name and deals_whole(z.shape, z.start, bool(z.source)) for z in zones):
            r.error(
                "E127",
                f"no zone deals the series '{s.name}': the base game's deal leaves its cards out, "
                "so they would lie nowhere",
                s.span,
                f"deal them to a pile of their own: `zones: NAME: {{holds: cards, series: {s.name}, shape: pile, "
                "start: all}` (by: level for a deck per level)",
            )
