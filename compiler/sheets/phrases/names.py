"""Sheets, phrasing: names and scope -- what a name denotes where a node is phrased.

Bound into :class:`~.core.Phraser`: the choices of a decision ("the chosen colour"), loop
variables ("that colour") and the spec's own variables, and the kind of value any node
denotes (a number, a condition, a colour, a card, a player...), which every other family reads
to choose its phrase.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...check.kinds import base_declarations
from ...front.expr import (
    Aggregate,
    Attribute,
    Binary,
    Bool,
    Call,
    Compare,
    Conditional,
    Index,
    Int,
    Logic,
    Name,
    Unary,
    Word,
)
from ...language import ColumnType
from ...language.types import Comp
from ...model import Column, Decision
from .kinds import (
    BOOL,
    CARD,
    COLLECTIONS,
    COLOUR,
    COLOURS,
    COMPONENT,
    DOMAIN_KINDS,
    NOBLE,
    NONE,
    NUMBER,
    PLAYER,
    RESULT_KINDS,
    Fields,
    PhraseError,
    Ref,
    item_words,
    state_kind,
)
from .quantities import constant

if TYPE_CHECKING:  # the class these functions are bound to (the package re-exports it)
    from . import Phraser


# The phrase kind of each type a queued step may be given (compiler/check/definitions.PARAM_TYPES), by its name.
_GIVEN_KINDS = {
    "int": NUMBER,
    "bool": BOOL,
    "gem": COLOUR,
    "colour": COLOUR,
    "player": PLAYER,
    "card": CARD,
    "noble": NOBLE,
}


def enter(self: Phraser, decision: Decision) -> None:
    """Bind the choices of a decision ("the chosen colour", "the chosen card")."""
    seen: dict[str, int] = {}
    for p in decision.params:
        kind = DOMAIN_KINDS[p.domain]
        seen[kind] = seen.get(kind, 0) + 1
    counter: dict[str, int] = {}
    for p in decision.params:
        kind = DOMAIN_KINDS[p.domain]
        counter[kind] = counter.get(kind, 0) + 1
        suffix = f" ({counter[kind]})" if seen[kind] > 1 else ""
        fields = self.item_fields(p.source) if p.domain == "component" else {}
        holds = self.holds(p.source) if p.domain == "component" else ""
        self.scope[p.name] = Ref(kind, f"ref.{p.domain}.chosen", fields, suffix=suffix, holds=holds)
    for name, t in decision.given or ():  # what a queued step is given: "the given level" (queue(...))
        if isinstance(t, Comp):  # "the given city"
            self.scope[name] = Ref(COMPONENT, "ref.component.given", self.item_fields(t.kind), holds=t.kind)
            continue
        self.scope[name] = Ref(_GIVEN_KINDS.get(t.name, NUMBER), "ref.given", {"name": name.replace("_", " ")})


def holds(self: Phraser, source: str) -> str:
    """The kind a zone holds (a kind's own name stands for itself)."""
    return next((z.holds for z in self.rules.zones if z.name == source), source)


def item(self: Phraser, source: str) -> str:
    """One component of a zone's (or a kind's) kind, in this language ("city", "cité")."""
    holds = self.holds(source)
    kind = next((k for k in self.rules.kinds if k.name == holds), None)
    if kind is None:
        raise PhraseError(f"no kind '{holds}'")
    return kind.item.get(self.lang) or kind.item.en


def item_fields(self: Phraser, source: str) -> Fields:
    """What a phrase of one component of a zone's (or a kind's) kind agrees with: ``item`` (the word),
    ``item_of`` (Serbian: its genitive, the spec's `few` form), ``plural`` and ``gender``. A phrase whose
    table has a form for that gender (``KEY@GENDER``) uses it ("la cité choisie"); without the spec's
    forms, the table's neutral words stand in ("pièces (cité)")."""
    holds = self.holds(source)
    kind = next((k for k in self.rules.kinds if k.name == holds), None)
    if kind is None:
        raise PhraseError(f"no kind '{holds}'")
    word = kind.item.get(self.lang) or kind.item.en
    words = kind.words(self.lang) if kind.item.get(self.lang) else kind.words("en")
    gender = words.gender if words.lang == self.lang else ""
    return item_words(self.t.table, word, words.form("few"), words.form("other"), gender)


def bind(self: Phraser, var: str, collection) -> Phraser:
    """A phraser in which `var` is an element of `collection` ("that colour")."""
    kind, coll_key = self.collection(collection)
    child = type(self)(self.lang, self.rules, table=self.t.table, scope=self.scope)
    holds = self.held_kind(collection) if kind == COMPONENT else None
    if holds is not None:  # "that city" (fr, nl, sr: "that piece (city)"), of the zone's (or set's) kind
        child.scope[var] = Ref(kind, "ref.component.that", self.item_fields(holds), coll=coll_key, holds=holds)
    else:
        child.scope[var] = Ref(kind, f"ref.{kind}.that", coll=coll_key)
    return child


def bind_each(self: Phraser, var: str, collection) -> Phraser:
    """A phraser in which `var` reads as "each element of collection" (a fused loop)."""
    kind, coll_key = self.collection(collection)
    child = type(self)(self.lang, self.rules, table=self.t.table, scope=self.scope)
    child.scope[var] = Ref(kind, f"{coll_key}.each", coll=coll_key)
    return child


def lookup(self: Phraser, name: str) -> Ref | None:
    if name in self.scope:
        return self.scope[name]
    var = next((v for v in self.rules.variables if v.name == name and not v.per_player), None)
    if var is not None:  # a shared variable: its title, quoted ("the "Colours taken this turn"")
        return Ref(state_kind(var.type), "ref.state", {"title": var.title.get(self.lang) or var.title.en})
    # A choice named outside its decision (the diff phrases single conditions).
    for d in self.rules.actions + self.rules.steps:
        p = d.param(name)
        if p is not None and p.domain == "component":
            return Ref(COMPONENT, "ref.component.chosen", self.item_fields(p.source), holds=self.holds(p.source))
        if p is not None:
            return Ref(DOMAIN_KINDS[p.domain], f"ref.{p.domain}.chosen")
    return None


def kind(self: Phraser, node) -> str:  # noqa: C901 - one dispatch over node kinds
    match node:
        case Call(func=f) if self.definition(f) is not None:
            return RESULT_KINDS.get(str(self.definition(f).result), NUMBER)
        case Int() | Binary() | Aggregate(func="sum" | "count" | "min" | "max") | Call():
            return NUMBER
        case Unary(op="-"):
            return NUMBER
        case Bool() | Compare() | Logic() | Unary(op="not") | Aggregate():
            return BOOL
        case Word():
            return "keyword"
        case Conditional(then=a):
            return self.kind(a)
        case Attribute() if self.own_state(node) is not None:
            return state_kind(self.own_state(node).type)
        case Index(obj=o) if self.keyed_state(o) is not None:  # an entry of a keyed variable
            return state_kind(self.keyed_state(o).type.value)
        case Name(id=i):
            if i in self.values:
                return NUMBER
            if i == "none":
                return NONE
            if i in self.rules.colours and i not in self.scope:
                return COLOUR
            ref = self.lookup(i)
            if ref is not None:
                return ref.kind
            if i in COLLECTIONS:
                return COLOURS if COLLECTIONS[i] == COLOUR else i
            return NUMBER
        case Attribute(obj=o, name="bonus") if self.kind(o) == CARD:
            return COLOUR
        case Attribute(obj=o, name=attr) if (extra := self.base_extra(o, attr)) is not None:  # a column the spec adds
            if extra.type in (ColumnType.GEM, ColumnType.COLOUR):  # as a kind's own: a colour
                return COLOUR
            return "table" if extra.type == ColumnType.GEMS else NUMBER
        case Attribute(obj=o, name=attr) if self.rules.zones and self.zone(node) is not None:
            return "zone"
        case Attribute(obj=o, name=attr) if self.rules.zones and self.kind(o) == COMPONENT:
            column_type = self._column_type(o, attr)
            if column_type in (ColumnType.GEM, ColumnType.COLOUR):  # a colour, not a number: "1 token of its colour"
                return COLOUR
            return "table" if column_type == ColumnType.GEMS else NUMBER
        case Attribute(obj=Name(id="setup"), name="gold") if "setup" not in self.scope:
            return NUMBER  # the wild tokens at setup, not a payment's table
        case Attribute(name="cost" | "requires" | "tokens" | "gold" | "spent" | "covers"):
            return "table"
        case Attribute() | Index():
            return NUMBER
    raise PhraseError(f"cannot phrase {type(node).__name__}")


def base_kind(self: Phraser, owner: object, attr: str) -> str | None:
    """CARD or NOBLE where `owner` is a component of a zone of the base game's cards or nobles (a card of
    a face-up row declared as a zone) and `attr` one of their standard columns: it then reads as a card's
    does ("the level of that card", "that card is worth 0 points"); else None."""
    ref = self.lookup(owner.id) if isinstance(owner, Name) else None
    if ref is None or ref.kind != COMPONENT or ref.holds not in ("cards", "nobles"):
        return None
    return (CARD if ref.holds == "cards" else NOBLE) if attr in base_declarations()[ref.holds]["columns"] else None


def base_extra(self: Phraser, owner: object, attr: str) -> Column | None:
    """The column `attr` a spec adds to the base cards or nobles (`card.ability`), when `owner` is one
    of them and `attr` one of those; else None (a standard column has phrases of its own)."""
    kind = self.kind(owner)
    if kind not in (CARD, NOBLE) or attr in base_declarations()["cards" if kind == CARD else "nobles"]["columns"]:
        return None
    found: Column | None = self._column(owner, attr)
    return found


def _column_type(self: Phraser, owner, attr: str) -> str:
    found = self._column(owner, attr)
    return found.type if found is not None else ""


def _column(self: Phraser, owner, attr: str):
    """The declared column `attr` of the kind of component `owner` (a name in scope), or None."""
    ref = self.lookup(owner.id) if isinstance(owner, Name) else None
    holds = ref.holds if ref is not None else ""
    if not holds and self.kind(owner) in (CARD, NOBLE):  # a base card or noble: its kind's own columns
        holds = "cards" if self.kind(owner) == CARD else "nobles"
    kind = next((k for k in self.rules.kinds if k.name == holds), None)
    return next((c for c in kind.columns if c.name == attr), None) if kind is not None else None


def const(self: Phraser, node) -> int | None:
    """The value of a node that is the same in every game under these rules, else None."""
    return constant(self.rules, node, self.scope)


def is_you(self: Phraser, node) -> bool:
    """Is `node` the player the sheet speaks to ("you")?"""
    ref = self.lookup(node.id) if isinstance(node, Name) else None
    return ref is not None and ref.kind == PLAYER and ref.person == "you"
