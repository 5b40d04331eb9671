"""A kind's table file -> typed components: the CSV read (untrusted data: size, encoding and path
checked), its header matched to the declared columns, each cell typed by its column, each
problem an E107/E112 at the cell with its line and caret. Used by :mod:`compiler.check.kinds`,
which reads the declarations.
"""

from __future__ import annotations

import csv
import io
import os
import re
from dataclasses import dataclass, replace
from typing import Any

from ..diagnostics import Reporter, Span, did_you_mean
from ..front.reading import MAX_INPUT_BYTES, NotAFile, read_input
from ..front.source import MapNode, ScalarNode
from ..language import ColumnType
from ..model import Column, Component, ItemWords, Text

MAX_TABLE_NUMBER = 1000  # the largest number of a component table (rulespec/README.md)
_KEYWORD = re.compile(r"[a-z][a-z0-9_]*")
_BAD = object()  # a cell that does not fit its column (reported)
# What a column's default must be, by type (E120).
_DEFAULTS = {
    ColumnType.NUMBER: f"a whole number from 0 to {MAX_TABLE_NUMBER}",
    ColumnType.GEM: "a gem colour (none, when the column is optional)",
    ColumnType.COLOUR: "a gem colour or the wild colour",
    ColumnType.KEYWORD: "a lower-case name (a titled one, when the column titles its keywords)",
    ColumnType.PROSE: "a text",
}


def _present(columns: tuple[Column, ...], header: list[str], gems: tuple[str, ...]) -> list[Column] | None:
    """The columns a table's header gives, in order: each declared column's headers in turn, where a
    column with a default may be left out; None when the header is not so."""
    present: list[Column] = []
    at = 0
    for column in columns:
        names = headers(column, gems)
        if header[at : at + len(names)] == names:
            present.append(column)
            at += len(names)
        elif not column.defaulted:
            return None
    return present if at == len(header) else None


@dataclass(frozen=True)
class Declaration:
    """A kind as the spec declares it, before its table is read."""

    name: str
    title: Text
    item: Text
    table: ScalarNode | None  # the node naming the table (its file is the folder it is relative to)
    columns: tuple[Column, ...]
    span: Span  # the kind's key (or the shorthand's)
    columns_span: Span
    shorthand: bool = False  # written `components: NAME: FILE`
    key: str = ""
    key_span: Span | None = None
    faces_of: str = ""
    faces_span: Span | None = None
    bonus_count: str = ""  # the base cards: the number column saying how many bonuses each card gives
    bonus_count_span: Span | None = None
    note: Text | None = None
    grammar: tuple[ItemWords, ...] = ()  # the item's plural and gender per language, where given
    broken: bool = False  # a column declaration was refused: its table is not read (no follow-up errors)
    series: tuple[SeriesDeclaration, ...] = ()  # further tables of the kind (`series:`), in declared order
    series_span: Span | None = None  # where `series` is written


@dataclass(frozen=True)
class SeriesDeclaration:
    """A series of a kind as the spec declares it (`kinds: cards: series: NAME: {title, table}`)."""

    name: str
    title: Text
    table: ScalarNode | None
    span: Span  # its key


def headers(column: Column, gems: tuple[str, ...]) -> list[str]:
    """The CSV headers a column reads: one per gem colour for `gems`, else one."""
    if column.type is ColumnType.GEMS:
        return [column.prefix + g for g in gems]
    return [column.header or column.name]


class TableReader:
    """Reads the tables of one spec's kinds; `checker` is the check pass's reader (its reporter and sources)."""

    def __init__(self, checker: Any, gems: tuple[str, ...], wild: str) -> None:
        self.c = checker
        self.r: Reporter = checker.r
        self.gems = gems
        self.wild = wild

    def read(self, d: Declaration) -> tuple[str, str] | None:
        """(text, file shown) of a kind's table, or None after an E112."""
        node, name = d.table, d.name
        if node is None:
            return None
        value = str(node.value)
        if os.path.isabs(value) or os.path.splitdrive(value)[0]:
            self.r.error(
                "E112",
                f"the {name} table must be named by a path relative to the folder of the spec file, "
                f"not an absolute path: {value!r}",
                node.span,
            )
            return None
        path = os.path.join(os.path.dirname(node.span.file), value)
        shown = os.path.normpath(path).replace(os.sep, "/")
        try:
            data = read_input(path, MAX_INPUT_BYTES)
            if len(data) > MAX_INPUT_BYTES:
                raise ValueError(f"it is too large for a table (over {MAX_INPUT_BYTES // 1_000_000} MB)")
            text = data.decode("utf-8")
        except FileNotFoundError:
            self.r.error(
                "E112",
                f"{name} table not found: {shown}",
                node.span,
                "the path is relative to the folder of the spec file",
            )
            return None
        except (OSError, UnicodeDecodeError, ValueError) as err:
            if isinstance(err, UnicodeDecodeError):
                why = f"not valid UTF-8 (byte 0x{err.object[err.start]:02x} at offset {err.start})"
            elif isinstance(err, NotAFile):
                why = str(err)
            elif isinstance(err, OSError):
                why = (err.strerror or str(err)).lower()
            else:
                why = str(err)
            self.r.error("E112", f"cannot read the {name} table {shown}: {why}", node.span)
            return None
        return (text[1:] if text.startswith("\ufeff") else text), shown

    def defaulted(self, column: Column, entry: MapNode) -> Column:
        """`column` with the `default` its long form gives, typed as a cell of it is (E120 at the value
        when it does not fit, or on a group column: each component's group is its own)."""
        node = entry.get("default")
        value = node.value if isinstance(node, ScalarNode) else None
        span = node.span if node is not None else column.span
        typed = _BAD if column.group or isinstance(value, bool) else self.default_value(column, value)
        if typed is _BAD:
            why = (
                "a group column has no default: each component's group is its own"
                if column.group
                else (f"it must be {_DEFAULTS[column.type]}")
            )
            self.r.error("E120", f"the default of column '{column.name}' does not fit: {why}, not {value!r}", span)
            return column
        return replace(column, default=typed, defaulted=True)

    def default_value(self, column: Column, value: object) -> object:
        """A column's default as a cell of it is typed (None: an optional gem's `none`), or _BAD."""
        titled = [k for k, _ in column.titles]
        if column.type is ColumnType.NUMBER:
            return value if isinstance(value, int) and 0 <= value <= MAX_TABLE_NUMBER else _BAD
        if column.type in (ColumnType.GEM, ColumnType.COLOUR):
            if value == "none" and column.optional:
                return None
            allowed = self.gems if column.type is ColumnType.GEM else self.gems + (self.wild,)
            return allowed.index(value) if value in allowed else _BAD
        if column.type is ColumnType.KEYWORD:
            fits = isinstance(value, str) and _KEYWORD.fullmatch(value) and (not titled or value in titled)
            return value if fits else _BAD
        return value if isinstance(value, str) else _BAD

    def rows(self, d: Declaration) -> tuple[tuple[Component, ...], str, int] | None:
        """The typed components of a kind's table, the file shown and how many rows it has (bad ones
        too); None when it cannot be read at all."""
        read = self.read(d)
        if read is None:
            return None
        text, shown = read
        if self.c.sources is not None:
            self.c.sources.add(shown, text)
        lines = text.splitlines()
        reader = csv.reader(io.StringIO(text))
        try:
            rows = [(reader.line_num, row) for row in reader]
        except csv.Error as err:
            self.r.error("E107", f"the {d.name} table is not valid CSV: {err}", Span(shown, max(1, reader.line_num), 1))
            return None
        present = _present(d.columns, [h.strip() for h in rows[0][1]], self.gems) if rows else None
        if present is None:
            got = ",".join(rows[0][1]) if rows else "nothing"
            header = [h for c in d.columns for h in headers(c, self.gems)]
            left = [c.name for c in d.columns if c.defaulted]
            self.r.error(
                "E107",
                f"the {d.name} table must start with the header '{','.join(header)}'"
                + (f" (a table may leave out {', '.join(left)}: they have a default)" if left else "")
                + f", found '{got}'",
                Span(shown, 1, 1, 1, 1 + len(got)),
            )
            return None
        header = [h for c in d.columns if c in present for h in headers(c, self.gems)]
        out: list[Component] = []
        data_rows = 0
        for number, row in rows[1:]:
            if not row or all(not cell.strip() for cell in row):
                continue
            data_rows += 1
            if len(row) != len(header):
                self.r.error("E107", f"expected {len(header)} columns, found {len(row)}", Span(shown, number, 1))
                continue
            line = lines[number - 1] if number <= len(lines) else ""
            cells = [c.strip() for c in row]
            at = _cell_columns(line, cells)
            spans = [
                Span(shown, number, col, number, col + max(1, len(cell))) for cell, col in zip(cells, at, strict=True)
            ]
            values = self.values(d, cells, spans, Span(shown, number, 1), present)
            if values is not None:
                out.append(Component(len(out), values, Span(shown, number, 1)))
        return tuple(out), shown, data_rows

    def values(
        self, d: Declaration, cells: list[str], spans: list[Span], row: Span, present: list[Column]
    ) -> tuple[object, ...] | None:
        """A row's typed values, one per column (a column the table leaves out: its default); None (after
        an E107 per bad cell) when one does not fit."""
        out: list[object] = []
        ok = True
        i = 0
        for column in d.columns:
            if column not in present:
                out.append(column.default)
                continue
            names = headers(column, self.gems)
            got = [self.cell(d, column, h, cells[i + k], spans[i + k], row) for k, h in enumerate(names)]
            i += len(names)
            if any(v is _BAD for v in got):
                ok = False
                continue
            out.append(tuple(got) if column.type is ColumnType.GEMS else got[0])
        return tuple(out) if ok else None

    def cell(self, d: Declaration, column: Column, header: str, cell: str, span: Span, row: Span) -> object:
        if column.type in (ColumnType.NUMBER, ColumnType.GEMS):
            number = self.number(header, cell, span)
            if number is not None and column.group and number < 1:
                self.r.error("E107", f"{d.item.en} {column.name}s start at 1", row)
                return _BAD
            return _BAD if number is None else number
        if column.type in (ColumnType.GEM, ColumnType.COLOUR):
            if column.optional and not cell:
                return None
            allowed = self.gems if column.type is ColumnType.GEM else self.gems + (self.wild,)
            if cell not in allowed:
                self.r.error("E107", f"unknown {header} colour {cell!r}{did_you_mean(cell, allowed)}", span)
                return _BAD
            return allowed.index(cell)
        if column.type is ColumnType.KEYWORD and not _KEYWORD.fullmatch(cell):
            self.r.error("E107", f"'{header}' must be a lower-case name (letters, digits, '_'), not {cell!r}", span)
            return _BAD
        titled = [k for k, _ in column.titles]
        if titled and cell not in titled:
            self.r.error(
                "E107",
                f"'{header}' is {cell!r}, which column '{column.name}' gives no title"
                f"{did_you_mean(cell, titled)} (its titles: {', '.join(titled)})",
                span,
            )
            return _BAD
        return cell

    def number(self, column: str, cell: str, span: Span) -> int | None:
        """A table's number: ASCII digits, from 0 to MAX_TABLE_NUMBER; None (and an E107) otherwise."""
        if not re.fullmatch(r"[0-9]+", cell):
            self.r.error("E107", f"'{column}' must be a whole number, not {cell!r}", span)
            return None
        if len(cell) > len(str(MAX_TABLE_NUMBER)) or int(cell) > MAX_TABLE_NUMBER:
            shown = cell if len(cell) <= 20 else f"a number of {len(cell)} digits"
            self.r.error("E107", f"'{column}' must be a whole number from 0 to {MAX_TABLE_NUMBER}, not {shown}", span)
            return None
        return int(cell)


def _cell_columns(line: str, cells: list[str]) -> list[int]:
    """The 1-based column where each (stripped) cell of a CSV row starts in its line.

    Found by walking the line's commas when the row is written plainly on its line;
    a row with quotes (or spread over lines) gets each cell at column 1 of its line.
    """
    parts = line.split(",")
    if '"' in line or len(parts) != len(cells):
        return [1] * len(cells)
    columns, start = [], 1
    for part in parts:
        columns.append(start + len(part) - len(part.lstrip()))
        start += len(part) + 1
    return columns
