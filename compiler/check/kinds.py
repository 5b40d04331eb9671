"""Kinds of component: the `kinds` section (and its `components` shorthand) -> typed tables.

One pass, called by :mod:`compiler.check` once the gem colours are known: each kind's
declaration is read (its columns and what they mean), its CSV table is loaded and every
cell typed by its column (a number, a gem, a colour, a table by gem colour, a keyword, a
prose text), each component keeping the span of its row. Problems are located: in the spec
for a declaration (E120-E122, E124, E546, E549), in the CSV file at the cell for a table
(E107, E112, E123), with the line and a caret.

The base game's two kinds, ``cards`` and ``nobles``, are declared as data in
``rulespec/base_kinds.yaml``: that file is what the shorthand ``components: cards: FILE``
means, and what a spec declaring ``kinds: cards`` itself must give the engines (E546). No
column is known to Python: the type checker's ``card.points`` comes from the declared
column (:func:`compiler.check.types.kind_attributes`).

A kind other than the base two is put in play by the zones that hold it (compiler/check/zones.py); one
that no zone holds changes nothing: compiler/check/zones.py's :func:`unreachable` says so (warning E125).
"""

from __future__ import annotations

import functools
import keyword as python_keyword
import re
from importlib import resources

import yaml

from ..diagnostics import Reporter, Span, did_you_mean
from ..front.source import MapNode, Node, ScalarNode
from ..language import COLUMN_TYPES as COLUMN_DECLS
from ..language import ColumnType
from ..language.columns import COLUMN_KEYS, types_taking
from ..model import COLUMN_TYPES, Card, Column, Component, ItemWords, Kind, Noble, Text
from .kind_tables import Declaration, TableReader, headers
from .series import read_series, series_of

BASE_KINDS = ("cards", "nobles")  # the base game's kinds, in the order of Rules.kinds
_KEYWORD = re.compile(r"[a-z][a-z0-9_]*")
# Which keys of a column's long form fit which types (E120 otherwise).
_KEY_TYPES = {key: types_taking(key) for key in COLUMN_KEYS}  # compiler/language/columns.py


# --------------------------------------------------------------------------- the base kinds, as data


@functools.cache
def base_declarations() -> dict[str, dict]:
    """rulespec/base_kinds.yaml: the base kinds' titles and standard columns (trusted package data)."""
    data = yaml.safe_load(resources.files("rulespec").joinpath("base_kinds.yaml").read_text(encoding="utf-8"))
    return {name: data[name] for name in BASE_KINDS}


def _base_text(value) -> Text:
    return Text(value["en"], tuple(sorted((k, v) for k, v in value.items() if k != "en")))


def _base_item(value: dict[str, str | dict[str, str]]) -> tuple[Text, tuple[ItemWords, ...]]:
    """A base kind's item: its word in each language (the `one` form), and its plural forms and
    gender where the language needs them, as a spec's `item` gives them (compiler/check/reader.py)."""
    words = {lang: forms if isinstance(forms, dict) else {"one": forms} for lang, forms in value.items()}
    grammar = tuple(
        ItemWords(lang, tuple((k, v) for k, v in forms.items() if k != "gender"), forms.get("gender", ""))
        for lang, forms in words.items()
        if len(forms) > 1
    )
    return _base_text({lang: forms["one"] for lang, forms in words.items()}), grammar


def _base_column(name: str, value) -> Column:
    spec = value if isinstance(value, dict) else {"type": value}
    return Column(
        name,
        ColumnType(spec["type"]),
        Span("rulespec/base_kinds.yaml", 1, 1),
        group=bool(spec.get("group")),
        optional=bool(spec.get("optional")),
        prefix=spec.get("prefix", ""),
        header=spec.get("header", ""),
    )


def _with_base_grammar(d: Declaration) -> tuple[ItemWords, ...]:
    """A declaration's item grammar; for a base kind declared in full (`kinds: cards: ...`), the base
    kind's plural and gender in each language whose word it keeps and gives no grammar for: the
    official spec's "carte" is feminine as the shorthand's is."""
    if d.name not in BASE_KINDS:
        return d.grammar
    given = {w.lang for w in d.grammar}
    base_item, base_grammar = _base_item(base_declarations()[d.name]["item"])
    kept = tuple(
        w for w in base_grammar if w.lang not in given and (d.item.get(w.lang) or d.item.en) == base_item.get(w.lang)
    )
    return d.grammar + kept


def base_columns(name: str) -> tuple[Column, ...]:
    """The standard columns of base kind `name` (`cards`, `nobles`)."""
    return tuple(_base_column(k, v) for k, v in base_declarations()[name]["columns"].items())


# The record type each base kind's rows are in the engines (`CARDS`, `NOBLES`): its extra columns
# become fields of it, after the standard ones (compiler/lower/base_columns.py).
BASE_RECORDS = {"cards": "Card", "nobles": "Noble"}


def field_name(name: str) -> bool:
    """May a column named `name` be a field of a base kind's record in the engines (a namedtuple's
    field: not `id`, which the record has, not a Python keyword, not starting with '_')?"""
    return name != "id" and not python_keyword.iskeyword(name) and not name.startswith("_")


def extra_columns(kind: Kind) -> tuple[Column, ...]:
    """A base kind's columns beyond its standard ones that expressions read (not prose), in
    declared order: what the engines add to its record (`Card.ability`), empty for the official."""
    standard = set(base_declarations()[kind.name]["columns"])
    return tuple(c for c in kind.columns if c.name not in standard and c.type is not ColumnType.PROSE)


def _describe(column: Column) -> str:
    """A column's type as the messages name it: "a number with 'group: true'", 'a table by gem colour'."""
    return COLUMN_DECLS[column.type].noun + (" with 'group: true'" if column.group else "")


# --------------------------------------------------------------------------- declarations


class Loader:
    """Reads the kinds of one resolved spec; `checker` is the check pass's reader of nodes and texts."""

    def __init__(self, checker, gems: tuple[str, ...], wild: str):
        self.c = checker
        self.r: Reporter = checker.r
        self.gems = gems
        self.wild = wild
        self.unread: set[str] = set()  # kinds whose table could not be read: no follow-up errors about sizes
        self.tables = TableReader(checker, gems, wild)

    def load(self) -> tuple[Kind, ...]:
        """Every kind the spec declares, base kinds first, each with its table read (or left out)."""
        declared = self.declarations()
        kinds = [self.kind(d) for d in declared]
        return tuple(k for k in kinds if k is not None)

    def declarations(self) -> list[Declaration]:
        root = self.c.root
        comp = root.get("components") if isinstance(root, MapNode) else None
        table = root.get("kinds") if isinstance(root, MapNode) else None
        written: dict[str, Declaration] = {}
        if isinstance(table, MapNode):
            for key, entry in table.entries:
                if not isinstance(entry, MapNode):
                    self.r.error("E103", f"kind '{key.value}' must be a mapping", entry.span)
                    continue
                written[str(key.value)] = self.declaration(str(key.value), key, entry)
        for name in BASE_KINDS:
            node = comp.get(name) if isinstance(comp, MapNode) else None
            if node is None or not isinstance(comp, MapNode):
                continue
            short = self.shorthand(name, comp.key_span(name), node)
            if name not in written:
                written[name] = short
                continue
            # Given twice: in one file that is a mistake; along a chain of variants the nearer file wins.
            long = written[name]
            rank = self.c.file_rank
            if rank(short.span.file) == rank(long.span.file):
                self.r.error(
                    "E121",
                    f"the kind '{name}' is given twice: as components.{name} and in kinds (line {long.span.line})",
                    short.span,
                    f"keep one: `kinds: {name}` declares its columns, `components: {name}: FILE` "
                    "means the standard ones",
                )
            elif rank(short.span.file) < rank(long.span.file):
                written[name] = short
        for name in BASE_KINDS:
            if name not in written:
                where = root.key_span("components") if isinstance(root, MapNode) else None
                self.unread.add(name)
                what = {"cards": "development cards", "nobles": "noble tiles"}[name]
                self.r.error(
                    "E549",
                    f"the spec declares no {what}: the engines are built around the base kind '{name}'",
                    where,
                    f"declare it in `kinds: {name}`, or write `components: {name}: FILE` for its standard columns",
                )
        bases = [written[n] for n in BASE_KINDS if n in written]
        return bases + [d for n, d in written.items() if n not in BASE_KINDS]

    def shorthand(self, name: str, key: Span, node: Node) -> Declaration:
        """`components: NAME: FILE`: the base kind with its standard columns and texts."""
        base = base_declarations()[name]
        item, grammar = _base_item(base["item"])
        table = node if isinstance(node, ScalarNode) and isinstance(node.value, str) else None
        if table is None:
            self.r.error("E103", f"'{name}' must be a text, the path of a .csv file", node.span)
        return Declaration(
            name,
            _base_text(base["title"]),
            item,
            table,
            base_columns(name),
            key,
            node.span,
            shorthand=True,
            grammar=grammar,
        )

    def declaration(self, name: str, key: ScalarNode, entry: MapNode) -> Declaration:
        where = f" in kind '{name}'"
        title = self.c.text(entry, "title")
        item, grammar = self.c.item(entry, "item")
        table = self.c.node(entry, "table", ScalarNode, where=where)
        if table is not None and not isinstance(table.value, str):
            self.r.error("E103", "'table' must be the path of a .csv file", table.span)
            table = None
        node = self.c.node(entry, "columns", MapNode, where=where)
        before = len(self.r.diagnostics)
        columns = self.columns(name, node) if node is not None else ()
        broken = len(self.r.diagnostics) > before
        key_name, key_node = self.c.scalar(entry, "key", str, required=False, default="")
        faces, faces_node = self.c.scalar(entry, "faces_of", str, required=False, default="")
        counted, counted_node = self.c.scalar(entry, "bonus_count", str, required=False, default="")
        series, series_span = read_series(self.c, name, entry)
        return Declaration(
            name,
            title,
            item,
            table,
            columns,
            key.span,
            node.span if node else entry.span,
            key=str(key_name or ""),
            key_span=key_node.span if key_node else None,
            faces_of=str(faces or ""),
            faces_span=faces_node.span if faces_node else None,
            bonus_count=str(counted or ""),
            bonus_count_span=counted_node.span if counted_node else None,
            note=self.c.note(entry),
            grammar=grammar,
            broken=broken,
            series=series,
            series_span=series_span,
        )

    def columns(self, kind: str, node: MapNode) -> tuple[Column, ...]:
        out: list[Column] = []
        read_by: dict[str, str] = {}  # header -> the column that reads it
        for key, value in node.entries:
            column = self.column(str(key.value), key, value)
            if column is None:
                continue
            for h in headers(column, self.gems):
                if h in read_by:
                    self.r.error(
                        "E120",
                        f"columns '{read_by[h]}' and '{column.name}' of kind '{kind}' both read the header '{h}'",
                        key.span,
                        "give one of them another `header` (or `prefix` for a table by gem colour)",
                    )
                    break
                read_by[h] = column.name
            else:
                out.append(column)
        return tuple(out)

    def column(self, name: str, key: ScalarNode, value: Node) -> Column | None:
        if isinstance(value, ScalarNode):
            if value.value not in COLUMN_TYPES:  # the schema refuses it first; defensive
                self.r.error(
                    "E120",
                    f"unknown column type {value.value!r}{did_you_mean(str(value.value), COLUMN_TYPES)}",
                    value.span,
                )
                return None
            return Column(name, ColumnType(str(value.value)), key.span)
        if not isinstance(value, MapNode):
            self.r.error("E103", f"column '{name}' must be a column type or a mapping {{type, ...}}", value.span)
            return None
        type_, _ = self.c.scalar(value, "type", str, where=f" in column '{name}'")
        if type_ not in COLUMN_TYPES:
            return None
        fields = {}
        for field, allowed in _KEY_TYPES.items():
            node = value.get(field)
            if node is None:
                continue
            if type_ not in allowed:
                self.r.error(
                    "E120",
                    f"'{field}' applies to a column of type {' or '.join(allowed)}, not to '{type_}'",
                    value.key_span(field),
                )
                continue
            fields[field] = node.value if isinstance(node, ScalarNode) else None
        titles = self.keyword_titles(name, type_, value)
        column = Column(
            name,
            ColumnType(type_),
            key.span,
            group=fields.get("group") is True,
            optional=fields.get("optional") is True,
            prefix=str(fields.get("prefix") or ""),
            header=str(fields.get("header") or ""),
            titles=titles,
            title=self.c.text(value, "title") if value.get("title") is not None else None,
        )
        return self.tables.defaulted(column, value) if "default" in fields else column

    def keyword_titles(self, name: str, type_: str, value: MapNode) -> tuple:
        """A keyword column's `titles`: (keyword, Text) pairs, in the order written (E120 on another type)."""
        node = value.get("titles")
        if node is None:
            return ()
        if type_ != ColumnType.KEYWORD:
            self.r.error(
                "E120", f"'titles' applies to a column of type keyword, not to '{type_}'", value.key_span("titles")
            )
            return ()
        if not isinstance(node, MapNode):
            self.r.error("E103", f"'titles' of column '{name}' must be a mapping of its keywords to texts", node.span)
            return ()
        out = []
        for key, _ in node.entries:
            if not _KEYWORD.fullmatch(str(key.value)):
                self.r.error(
                    "E120",
                    f"'titles' of column '{name}' names {str(key.value)!r}, which is not a keyword "
                    "(a lower-case name: letters, digits, '_')",
                    key.span,
                )
                continue
            out.append((str(key.value), self.c.text(node, key.value)))
        return tuple(out)

    # ----------------------------------------------------------------------- what the engines need

    def base_problems(self, d: Declaration) -> bool:
        """E546 for a base kind declared without the columns the engines read (True: its table is then
        not read), or with an extra column the engines cannot name as a field of their record."""
        want = {c.name: c for c in base_columns(d.name)}
        have = {c.name: c for c in d.columns}
        found = False
        needs = ", ".join(f"{c.name} ({_describe(c)})" for c in want.values())
        for name, column in want.items():
            got = have.get(name)
            if got is None:
                self.r.error(
                    "E546",
                    f"the kind '{d.name}' belongs to the base game: it needs the column '{name}' ({_describe(column)})",
                    d.columns_span,
                    f"the engines read {needs}",
                )
                found = True
            elif (got.type, got.group, got.optional) != (column.type, column.group, column.optional):
                optional = " that may be empty" if got.optional else ""
                self.r.error(
                    "E546",
                    f"the kind '{d.name}' belongs to the base game: its column '{name}' must be "
                    f"{_describe(column)}, not {_describe(got)}{optional}",
                    got.span,
                    f"the engines read {needs}",
                )
                found = True
        for column in d.columns:
            if column.name not in want and column.type is not ColumnType.PROSE and not field_name(column.name):
                self.r.error(
                    "E546",
                    f"the kind '{d.name}' belongs to the base game: its extra column "
                    f"'{column.name}' cannot be a field of the engines' {BASE_RECORDS[d.name]}",
                    column.span,
                    f"the engines read {needs}, and carry an extra column as a field of their "
                    f"{BASE_RECORDS[d.name]}: name it otherwise than 'id', a Python keyword or a name "
                    "starting with '_'",
                )  # its table is still read: the column is typed, and no follow-up error is said
        return found

    # ----------------------------------------------------------------------- tables

    def kind(self, d: Declaration) -> Kind | None:
        if not d.shorthand and d.name in BASE_KINDS and self.base_problems(d):
            self.unread.add(d.name)
            return None
        if self.references(d) or d.broken:
            self.unread.add(d.name)
            return None
        rows = self.tables.rows(d) if d.columns else None
        if rows is None:
            self.unread.add(d.name)
            return None
        components, shown, data_rows = rows
        if not data_rows:
            self.unread.add(d.name)
            assert d.table is not None
            self.r.error(
                "E124", f"the {d.name} table {shown} has no rows: a kind needs at least one {d.item.en}", d.table.span
            )
            return None
        series, components = series_of(self.c, self.tables, d, components)
        self.distinct_key(d, components)
        self.titles_used(d, components)
        pieces = _faces(d, components)
        components = tuple(Component(c.id, c.values, c.span, p) for c, p in zip(components, pieces, strict=True))
        return Kind(
            d.name,
            d.title,
            d.item,
            shown,
            d.columns,
            components,
            d.span,
            d.key,
            d.faces_of,
            d.note,
            _with_base_grammar(d),
            self.bonus_column(d),
            series,
        )

    def references(self, d: Declaration) -> bool:
        """E122: `key` naming no number or keyword column, `faces_of` naming no number column; True if one."""
        return self.named_columns(
            d,
            (
                (d.key, d.key_span, (ColumnType.NUMBER, ColumnType.KEYWORD), "key"),
                (d.faces_of, d.faces_span, (ColumnType.NUMBER,), "faces_of"),
            ),
        )

    def bonus_column(self, d: Declaration) -> str:
        """The cards' `bonus_count` column, or '' (none, or E122: on another kind, naming no number
        column; the kind is still read, each card then giving one bonus, and no follow-up error said)."""
        if d.bonus_count and d.name != "cards":
            self.r.error(
                "E122",
                f"'bonus_count' applies to the base kind 'cards' only, not to '{d.name}'",
                d.bonus_count_span,
                "it names the number column saying how many bonuses of its colour each card gives",
            )
            return ""
        bad = self.named_columns(d, ((d.bonus_count, d.bonus_count_span, (ColumnType.NUMBER,), "bonus_count"),))
        return "" if bad else d.bonus_count

    def named_columns(
        self, d: Declaration, names: tuple[tuple[str, Span | None, tuple[ColumnType, ...], str], ...]
    ) -> bool:
        """E122 for each (name, span, allowed types, key) whose name is no column of `d` of those types."""
        found = False
        for name, span, allowed, what in names:
            if not name:
                continue
            column = next((c for c in d.columns if c.name == name), None)
            if column is None:
                self.r.error(
                    "E122",
                    f"'{what}' names no column of kind '{d.name}': '{name}'"
                    f"{did_you_mean(name, [c.name for c in d.columns])}",
                    span,
                    f"its columns: {', '.join(c.name for c in d.columns)}",
                )
                found = True
            elif column.type not in allowed:
                self.r.error(
                    "E122",
                    f"'{what}' must name a {' or '.join(allowed)} column, and '{name}' is {_describe(column)}",
                    span,
                )
                found = True
        return found

    def distinct_key(self, d: Declaration, components: tuple[Component, ...]) -> None:
        """E123 at the second component whose key is the first's."""
        keyed = (ColumnType.NUMBER, ColumnType.KEYWORD)
        if not d.key or not any(c.name == d.key and c.type in keyed for c in d.columns):
            return
        i = next(i for i, c in enumerate(d.columns) if c.name == d.key)
        seen: dict[object, Component] = {}
        for c in components:
            value = c.values[i]
            if value in seen:
                self.r.error(
                    "E123",
                    f"two {d.name} have the {d.key} {value}: the key of a {d.item.en} names one",
                    c.span,
                    f"the first is on line {seen[value].span.line}",
                )
            else:
                seen[value] = c

    def titles_used(self, d: Declaration, components) -> None:
        """E120 for a keyword's title that no row of the table holds (a typo, or a row removed)."""
        for i, column in enumerate(d.columns):
            held = {c.values[i] for c in components}
            for keyword, _ in column.titles:
                if keyword not in held:
                    self.r.error(
                        "E120",
                        f"column '{column.name}' of kind '{d.name}' titles '{keyword}', which no row "
                        f"of {d.table.value if d.table is not None else 'its table'}"
                        f"{' or of its series' if d.series else ''} holds"
                        f"{did_you_mean(keyword, sorted(held))}",
                        column.span,
                    )


def _faces(d: Declaration, components: tuple[Component, ...]) -> list[int]:
    """Each component's piece: the value of its `faces_of` column, or -1."""
    i = next((i for i, c in enumerate(d.columns) if c.name == d.faces_of and c.type is ColumnType.NUMBER), None)
    return [c.values[i] if i is not None else -1 for c in components]


# --------------------------------------------------------------------------- views for the engines


def cards_of(kinds: tuple[Kind, ...]) -> tuple[Card, ...]:
    """The development cards as the lowering reads them (Rules.cards): from the kind `cards`."""
    kind = next((k for k in kinds if k.name == "cards"), None)
    if kind is None:
        return ()
    return tuple(
        Card(
            c.id,
            kind.value(c, "level"),
            kind.value(c, "bonus"),
            kind.value(c, "points"),
            kind.value(c, "cost"),
            c.span,
            kind.value(c, kind.bonus_count) if kind.bonus_count else 1,
            next((s.name for s in kind.series if c.id in s.ids), ""),
        )
        for c in kind.components
    )


def nobles_of(kinds: tuple[Kind, ...]) -> tuple[Noble, ...]:
    """The noble tiles as the lowering reads them (Rules.nobles): from the kind `nobles`."""
    kind = next((k for k in kinds if k.name == "nobles"), None)
    if kind is None:
        return ()
    return tuple(Noble(c.id, kind.value(c, "points"), kind.value(c, "requires"), c.span) for c in kind.components)
