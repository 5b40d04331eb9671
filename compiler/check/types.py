"""Types of the expression language, the names a rule may use, and what inference leans on.

Used by the check pass (which reports every mismatch) and by the lowering pass (which
needs to know, say, that `picked` is a set of gems). Inference is a pure function of
an expression and a :class:`Scope`; errors go to a :class:`~compiler.diagnostics.Reporter`.
The inference itself, the :class:`~compiler.check.inference.Inferrer`, is :mod:`.inference`.

Types are small frozen values, declared with the language registry (compiler/language/types.py)
and imported here for the passes that know them by this module: ``INT``, ``BOOL``, ``GEM`` (one
of the gem colours), ``COLOUR`` (a gem or the wild colour), ``PLAYER``, ``CARD`` (with the place
it comes from), ``NOBLE``, ``PAYMENT``, ``SETUP``, ``NONE``, ``SetOf(T)`` and ``MapOf(K, V)``.
The tables of effects, functions, aggregates, domains and column types below are read from the
registry (compiler/language/), where each construct is declared once.
"""

from __future__ import annotations

from ..front.expr import (
    Attribute,
    Compare,
    Index,
    Logic,
    Name,
    unparse,
)
from ..language import AGGREGATES as _AGGREGATES
from ..language import COLUMN_TYPES as _COLUMN_TYPES
from ..language import DOMAINS as _DOMAINS
from ..language import FUNCTIONS as _FUNCTIONS
from ..language import ColumnType
from ..language.effects import BASE_EFFECTS
from ..language.effects import STATE_EFFECTS as STATE_EFFECTS
from ..language.types import (
    BOOL as BOOL,
)
from ..language.types import (
    CARD as CARD,
)
from ..language.types import (
    COLOUR as COLOUR,
)
from ..language.types import (
    ERROR as ERROR,
)
from ..language.types import (
    FACE_UP_CARD as FACE_UP_CARD,
)
from ..language.types import (
    GEM as GEM,
)
from ..language.types import (
    INT as INT,
)
from ..language.types import (
    NOBLE as NOBLE,
)
from ..language.types import (
    NONE as NONE,
)
from ..language.types import (
    PAYMENT as PAYMENT,
)
from ..language.types import (
    PLAYER as PLAYER,
)
from ..language.types import (
    RESERVED_CARD as RESERVED_CARD,
)
from ..language.types import (
    SETUP as SETUP,
)
from ..language.types import (
    AnyType as AnyType,
)
from ..language.types import (
    Comp as Comp,
)
from ..language.types import (
    Keyword as Keyword,
)
from ..language.types import (
    MapOf as MapOf,
)
from ..language.types import (
    SetOf as SetOf,
)
from ..language.types import (
    Type as Type,
)
from ..language.types import (
    ZoneT as ZoneT,
)
from ..language.types import (
    noun as noun,
)
from ..language.types import (
    wanted as wanted,
)
from .kinds import base_columns

# The type a column of a component table gives its attribute (`prose` gives none: shown on sheets only;
# a keyword column's is its own, Keyword).
COLUMN_TYPES: dict[str, AnyType] = {t: d.attribute for t, d in _COLUMN_TYPES.items() if d.attribute is not None}
# The type of a component of the base game's kinds (the engines know them by these types).
BASE_COMPONENT_TYPES = {"cards": "card", "nobles": "noble"}


def column_attributes(kind: str, columns) -> dict[str, AnyType]:
    """The attributes a kind's declared columns give its components: `card.points` is a number."""
    return {
        c.name: Keyword(kind, c.name) if c.type == ColumnType.KEYWORD else COLUMN_TYPES[c.type]
        for c in columns
        if c.type != ColumnType.PROSE
    }


def _base_attributes() -> dict[str, dict[str, AnyType]]:
    """card and noble attributes from the base kinds' standard columns (rulespec/base_kinds.yaml)."""
    return {BASE_COMPONENT_TYPES[k]: column_attributes(k, base_columns(k)) for k in BASE_COMPONENT_TYPES}


ATTRIBUTES: dict[str, dict[str, AnyType]] = {
    "player": {
        "tokens": MapOf(COLOUR, INT),
        "bonus": MapOf(GEM, INT),
        "prestige": INT,
        "purchased": INT,
        "reserved": INT,
        "nobles": INT,
        "held": INT,
        "turns": INT,
        "seat": INT,
    },
    **_base_attributes(),
    "payment": {"gold": MapOf(GEM, INT), "covers": MapOf(GEM, INT), "spent": MapOf(GEM, INT), "gold_total": INT},
    "setup": {"gems": INT, "gold": INT, "nobles": INT, "face_up": INT},
}

GLOBALS: dict[str, AnyType] = {
    "supply": MapOf(COLOUR, INT),
    "players": SetOf(PLAYER),
    "others": SetOf(PLAYER),
    "gems": SetOf(GEM),
    "colours": SetOf(COLOUR),
    "levels": SetOf(INT),
    "deck": MapOf(INT, INT),
    "face_up": MapOf(INT, INT),
    "market": MapOf(INT, SetOf(FACE_UP_CARD)),
    "nobles_left": INT,
    "player_count": INT,
    "round": INT,
    "turn": INT,
    "passes": INT,
    "setup": SETUP,
    "none": NONE,
}
# Functions: name -> what they take, in words; aggregates: name -> the type of their body.
FUNCTIONS = {name: d.takes for name, d in _FUNCTIONS.items()}
AGGREGATES = {name: d.body for name, d in _AGGREGATES.items()}

# The effects of the base game: name -> parameter types (CARD accepts either origin). STATE_EFFECTS
# (imported above) write the spec's declared state (compiler/check/variables.py types them).
EFFECTS = {name: d.params for name, d in BASE_EFFECTS.items()}

DOMAIN_TYPES = {name: d.type for name, d in _DOMAINS.items()}  # component: its zone's kind (zones.param_type)


def component_type(kind) -> AnyType:
    """The type of one component of `kind` (a model.Kind): today's card and noble for the base kinds."""
    if kind.name in BASE_COMPONENT_TYPES:
        return Type(BASE_COMPONENT_TYPES[kind.name])
    return Comp(kind.name, kind.item.en)


def assignable(actual, expected) -> bool:
    """May a value of type `actual` stand where `expected` is wanted?"""
    if actual == ERROR or expected == ERROR or actual == expected:
        return True
    if isinstance(actual, Type) and isinstance(expected, Type):
        if actual.name == "gem" and expected.name == "colour":
            return True
        if actual.name == "card" and expected.name == "card":
            return expected.origin == "" or actual.origin == expected.origin
    if isinstance(actual, SetOf) and isinstance(expected, SetOf):
        return assignable(actual.elem, expected.elem)
    return False


def takes_place_card(effect: str, t: object) -> bool:
    """May `effect` take a card of a place (a component of the kind `cards`, rulespec/README.md,
    Zones)? `acquire`, `reserve` and `bury` take it out of the place it lies in, as a face-up card's."""
    return effect in ("acquire", "reserve", "bury") and isinstance(t, Comp) and t.kind == "cards"


def base_kind_of(t: object) -> str:
    """The base kind (cards, nobles) of a value of type `t`, whatever place it was chosen in ('' for others)."""
    if isinstance(t, Type) and t.name in ("card", "noble"):
        return t.name + "s"
    return t.kind if isinstance(t, Comp) and t.kind in BASE_COMPONENT_TYPES else ""


def same_component(actual: object, expected: object) -> bool:
    """Is `actual` a base card (or noble) where one is wanted as a component: a key of a `by: cards`
    variable, an element of a `{set_of: cards}` one? A face-up card, a reserved card and a card of a
    zone naming a place of the base game are one card, its id, whatever place it was chosen in."""
    kind = base_kind_of(actual)
    return bool(kind) and kind == base_kind_of(expected)


def comparable(a, b) -> bool:
    return assignable(a, b) or assignable(b, a) or NONE in (a, b)


class Scope:
    """The names an expression may use: globals, colour names, values, params, bound variables."""

    def __init__(
        self,
        names: dict[str, object],
        optional: frozenset[str] = frozenset(),
        choices: frozenset[str] = frozenset(),
        told: set | None = None,
        not_none: frozenset[str] = frozenset(),
    ):
        self.names = names
        self.optional = optional  # the choices that may be `none`
        self.choices = choices  # every choice of the decision
        self.told = told if told is not None else set()  # (problem, choice) already reported
        self.not_none = not_none  # optional choices a test here has found not none

    def bind(self, name: str, type_) -> Scope:
        return Scope(
            {**self.names, name: type_},
            self.optional - {name},
            self.choices - {name},
            self.told,
            self.not_none - {name},
        )

    def knowing(self, not_none: set[str]) -> Scope:
        """This scope where the optional choices `not_none` are known not to be none."""
        if not not_none - self.not_none:
            return self
        return Scope(self.names, self.optional, self.choices, self.told, self.not_none | frozenset(not_none))

    def lookup(self, name: str):
        return self.names.get(name)


def tested(test, none: bool) -> set[str]:
    """The names a condition proves `none` (none=True) or not none (none=False) when it holds.

    `x != none` (or `none != x`) proves x is not none; `x == none` that it is; through `and`.
    """
    match test:
        case Logic(op="and", left=left, right=right):
            return tested(left, none) | tested(right, none)
        case Compare(op="==" | "!=" as op, left=left, right=right) if (op == "==") == none:
            return {
                unparse(side)
                for side, other in ((left, right), (right, left))
                if isinstance(side, (Name, Attribute, Index)) and other == Name("none", None)
            }
    return set()


def failed(test) -> set[str]:
    """The names a condition proves not none when it fails: `x == none or ...` fails only with x set."""
    match test:
        case Logic(op="or", left=left, right=right):
            return failed(left) | failed(right)
        case Compare(op="=="):
            return tested(test, none=True)
    return set()


def base_scope(gems: tuple[str, ...], wild: str, values: tuple[str, ...]) -> dict[str, object]:
    names: dict[str, object] = dict(GLOBALS)
    names.update({g: GEM for g in gems})
    names[wild] = COLOUR
    names.update({v: INT for v in values})
    return names


def attribute_key(t: object) -> object:
    """Where the attributes of type `t` are kept: by name for the fixed types (a face-up card is a card)."""
    if isinstance(t, Comp) and t.kind in BASE_COMPONENT_TYPES:  # a base card or noble lying in a zone
        return BASE_COMPONENT_TYPES[t.kind]
    return t.name if isinstance(t, Type) else t


def not_equated(t: object) -> tuple[str, str] | None:
    """(what, hint) when values of type `t` are not compared with '==' / '!=' (None when they are)."""
    if t == BOOL:
        return "conditions", "write the two cases with 'and', 'or' and 'not'"
    if isinstance(t, MapOf):
        return "tables", "compare their entries, as in 'all(me.tokens[c] == supply[c] for c in gems)'"
    if isinstance(t, SetOf):
        return "collections", "compare their sizes with size(...), or their elements with all(... in ...)"
    if t == SETUP:
        return "the player-count row", "compare its numbers, as in 'setup.gems'"
    return None


def chosen_by_if(t: object) -> bool:
    """May an 'if ... then ... else' value have type `t`? A number, a condition or a colour: not a player,
    a collection, a table or the setup row (the sheets phrase values), nor a card, a noble or a payment
    (the engines read a chosen one, and move it, by its choice's name)."""
    return t in (INT, BOOL, GEM, COLOUR, ERROR)
