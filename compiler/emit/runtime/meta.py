"""The engine's metadata API: the types of the tables that describe a spec's own zones, kinds,
declared variables and the choices of its decisions (README.md, "The engine API").

Part of the runtime of every engine, pasted before the spec's tables (which are calls of these
classes, written by the lowering: compiler/lower/zones.py, compiler/lower/variables.py,
compiler/emit/engine.py). A tool outside the rules (playtest's bots, the board, the RL
observation, the web table) reads these tables by field name, never by position, and only
through their public names: ``ZONES``, ``KINDS``, ``VARIABLES``, ``ACTION_PARAMS`` and
``DECISION_INFO``. They are named tuples, as ``Card`` and ``Noble`` are: immutable, cheap, and
still plain tuples for whoever compares or prints them.

A zone's shape is one of the constants below (``zone.shape == PILE``), never a bare string in
code that reads it.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from .spec import COLOURS

# The shapes of a zone (rulespec/README.md, Zones): a pile is a list whose end is its top; a display
# a list of slots, None where empty; a row and a holding lists in order.
PILE = "pile"
DISPLAY = "display"
ROW = "row"
HOLDING = "holding"
BAG = "bag"  # face down, in no order: a list in random order, drawn from its end as a pile is
SHAPES = (PILE, DISPLAY, ROW, HOLDING, BAG)


class Zone(NamedTuple):
    """One of the spec's own zones; ZONES holds them in declaration order, and a zone's index
    there is how the rules and `source` name it."""

    name: str
    kind: str  # the kind of the components it holds (a key of KINDS)
    shape: str  # PILE, DISPLAY, ROW or HOLDING
    per_player: bool  # one per seat (the Game attribute is then a list of one list per seat)
    attribute: str  # the Game attribute that holds its list
    start: str  # how the deal fills it: 'all' (every piece), 'dealt' (its size from its source) or 'empty'
    sizes: dict[int, int]  # players -> its size (a display's slots, a row's length, what is dealt)
    source: int  # the index in ZONES of the pile it is dealt and refilled from, or -1
    limit: int  # the most a holding holds (0: no limit)
    private_attribute: str  # the Game attribute of the components each seat drew unseen, or ''


class Column(NamedTuple):
    """A column of a kind's table."""

    name: str
    type: str  # number, gems (a tuple in gem order), gem, colour, keyword, prose (None in the rows)


class Kind(NamedTuple):
    """One of the spec's own kinds of component that the rules reach. A component is its id: its
    row's index in `rows`."""

    name: str
    size: int  # how many components: their ids are 0 to size - 1 (`count` would hide tuple.count)
    columns: tuple[Column, ...]
    pieces: tuple[tuple[int, ...], ...]  # the faces (ids) of each physical piece, in table order
    rows: tuple[tuple[object, ...], ...]  # per component, its columns' values in `columns` order


class Variable(NamedTuple):
    """A variable of the spec's declared state (``state:``), as a saved game holds it."""

    name: str
    attribute: str  # the Game attribute that holds it (per player: a list of one value per seat)
    type: str  # int, bool, gem, colour, player, set:gem, set:colour, or ids:KIND:N (a set of components)
    per_player: bool
    private: bool  # another seat's value is hidden in an observation
    optional: bool  # may hold none (None)
    initial: object  # its value at the start, as the game holds it (a colour: its index)
    kind: str  # the kind of a set of components, else ''


class Param(NamedTuple):
    """One choice of a decision, in the order of an action's arguments."""

    name: str
    domain: str  # gem_set, gem, colour, face_up, deck, reserved, noble, component, payment...


class DecisionInfo(NamedTuple):
    """A decision (an action, a step, or the payment step) and its block of action ids."""

    name: str
    first_id: int  # the action id of its first action: its ids are first_id to first_id + size - 1
    size: int  # how many actions it has
    params: tuple[Param, ...]  # its choices (ACTION_PARAMS[d] is the same)
    pays: bool  # is the payment asked next, in the payment step (the price has several payments)?


def saved_value(variable: Variable, value: Any) -> Any:
    """`value`, a value of `variable` (one of VARIABLES) as the game holds it, as a saved game and an
    observation write it (a colour by its name): for a tool outside the rules, such as a bot that
    guesses a hidden value to be `variable.initial`."""
    return _var_saved(variable.type, value)


def _var_saved(tag: str, value: Any) -> Any:
    """A value of a variable of type `tag` as a saved game writes it (compiler/emit/runtime/variables.py)."""
    if tag in ("gem", "colour"):
        return None if value is None else COLOURS[value]
    if tag.startswith("set:"):
        return [COLOURS[i] for i in value]
    if tag.startswith("ids:"):
        return list(value)
    return value
