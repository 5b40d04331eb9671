"""The extra columns of the base kinds (`cards`, `nobles`) in the engines: fields of their records
and a table per column that the rules read.

A spec may give the base game's cards or nobles columns of its own (`ability: keyword`,
rulespec/README.md, Kinds). The engines then add them to the records `Card` and `Noble` after
the standard fields (a colour by its name, as `Card.bonus`), so that a tool reading `CARDS`
sees them, and the rules read each through a tuple indexed by id, as they read `CARD_POINTS`:
``_cx_NAME`` for a card's column, ``_nx_NAME`` for a noble's (a colour as its index, as a
kind's own table holds it). Without extra columns nothing here writes a line: the official
engine's text is the same.
"""

from __future__ import annotations

import ast

from ..check.kinds import BASE_RECORDS, extra_columns
from ..language import ColumnType
from ..model import Column, Kind, Rules, Variable
from . import ir
from .printer import render
from .pysource import Code, comment, identifier
from .tree import Comment, Node, Table

# The standard fields of each base kind's record, in the engines' order (the template writes them).
STANDARD_FIELDS = {"cards": ("id", "level", "bonus", "points", "cost"), "nobles": ("id", "points", "requires")}
# The prefix of a column's table, by the env tag the lowering gives a base component (`card`, `noble`).
_PREFIX = {"cards": "_cx_", "nobles": "_nx_"}
_TAG = {"card": "cards", "noble": "nobles"}


def _kind(rules: Rules, name: str) -> Kind | None:
    return next((k for k in rules.kinds if k.name == name), None)


def extras(rules: Rules, name: str) -> tuple[tuple[int, Column], ...]:
    """The extra columns of base kind `name` (with their indexes in its table), in declared order."""
    kind = _kind(rules, name)
    if kind is None:
        return ()
    wanted = {c.name for c in extra_columns(kind)}
    return tuple((i, c) for i, c in enumerate(kind.columns) if c.name in wanted)


def _values(rules: Rules, name: str) -> list[tuple[str, tuple[object, ...]]]:
    """Each extra column of base kind `name`: (its name, its values by component id)."""
    kind = _kind(rules, name)
    if kind is None:
        return []
    return [(c.name, tuple(row.values[i] for row in kind.components)) for i, c in extras(rules, name)]


def record_fields(rules: Rules, name: str) -> str:
    """The fields of the record `Card` or `Noble`, as namedtuple takes them: "id level bonus points cost"."""
    return " ".join(STANDARD_FIELDS[name] + tuple(c.name for _, c in extras(rules, name)))


def _shown(rules: Rules, column: Column, value: object) -> object:
    """A value as the record shows it: a colour by its name (as `Card.bonus`), the others as they are."""
    if column.type in (ColumnType.GEM, ColumnType.COLOUR) and isinstance(value, int):
        return rules.colours[value]
    return value


def record_extras(rules: Rules, name: str) -> list[tuple[object, ...]]:
    """Each component's extra values as its record shows them, in table order (empty tuples without any)."""
    kind = _kind(rules, name)
    if kind is None:
        return []
    columns = extras(rules, name)
    return [tuple(_shown(rules, col, c.values[i]) for i, col in columns) for c in kind.components]


def table_name(name: str, column: str) -> str:
    """The engine's tuple of a base kind's extra column, indexed by id."""
    return str(identifier(_PREFIX[name], column))


def tables_source(rules: Rules) -> Code:
    """The tuples of the base kinds' extra columns ('' without any: the official engine's text)."""
    out: list[Node] = []
    for name in _PREFIX:
        colours = {c.name for _, c in extras(rules, name) if c.type in (ColumnType.GEM, ColumnType.COLOUR)}
        for column, values in _values(rules, name):
            note = f"{BASE_RECORDS[name]}.{column} of each id" + (
                " (a colour's index in COLOURS)" if column in colours else ""
            )
            out.append(Comment(comment(note)))
            out.append(Table(table_name(name, column), [ir.const(v) for v in values]))
    return Code(render(out)) if out else Code("")


def known_rows(rules: Rules) -> dict[str, tuple[object, ...]]:
    """The extra columns' tuples by name, for constant folding (`_cx_ability[7]` is 'double')."""
    return {table_name(name, column): values for name in _PREFIX for column, values in _values(rules, name)}


def attribute(rules: Rules, tag: str, attr: str, owner: ast.expr) -> ast.expr | None:
    """`card.NAME` of a base card (or noble) where NAME is an extra column: its table at the id; None
    for the standard columns and other tags."""
    name = _TAG.get(tag)
    if name is None or not any(c.name == attr for _, c in extras(rules, name)):
        return None
    return ir.sub(table_name(name, attr), owner)


def counted_column(rules: Rules) -> str:
    """The number column of the base cards that says how many bonuses each gives (`bonus_count`),
    '' when each gives one (the official)."""
    kind = _kind(rules, "cards")
    return kind.bonus_count if kind is not None else ""


def count_table(rules: Rules) -> str:
    """The engine's tuple of the bonuses each card gives (its `bonus_count` column: a column of its
    own, or a standard one such as `CARD_POINTS`), '' when each gives one."""
    column = counted_column(rules)
    if not column:
        return ""
    return f"CARD_{column.upper()}" if column in STANDARD_FIELDS["cards"] else table_name("cards", column)


def bonus_given(rules: Rules, card: ast.expr | str) -> ast.expr:
    """How many bonuses card `card` (an id) gives its owner: 1, or its `bonus_count` column."""
    table = count_table(rules)
    return ir.sub(table, card) if table else ir.const(1)


def colour_variable(rules: Rules) -> Variable | None:
    """The variable that sets a card's bonus colour in play (`bonus_colour: true`), None without one."""
    return next((v for v in rules.variables if v.bonus_colour), None)


def colour_attribute(rules: Rules) -> str:
    """The Game attribute of that variable ('' without one: cards count in their printed colour)."""
    var = colour_variable(rules)
    return str(identifier("s_", var.name)) if var is not None else ""


def colour_of(rules: Rules, card: ast.expr | str, game: str = "g") -> ast.expr:
    """The colour card `card` (an id) gives its bonus in: its printed one (`CARD_BONUS[card]`), or,
    where a variable sets it in play, that variable's entry once set."""
    printed = ir.sub("CARD_BONUS", card)
    attribute = colour_attribute(rules)
    if not attribute:
        return printed
    entry = ir.sub(ir.attr(ir.name(game), attribute), card)
    return ir.ifexp(ir.compare(entry, "is not", ir.const(None)), entry, printed)


def base_dealt(rules: Rules) -> int | None:
    """How many cards the base game's deal deals (the kind's own table), when the cards have series
    (their cards after those, dealt by their zones); None without series (the deal takes every card)."""
    kind = _kind(rules, "cards")
    if kind is None or not kind.series:
        return None
    return len(kind.components) - sum(s.count for s in kind.series)
