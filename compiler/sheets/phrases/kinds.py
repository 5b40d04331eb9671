"""Sheets, phrasing: the vocabulary every family of phrases shares -- the kinds of value a node
can denote, how a variable is referred to (:class:`Ref`), the case forms and the operators' names."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..tables import Table

Fields = dict[str, Any]
"""A phrase's named forms, spread into a message's fields (`text(key, **fields)`). Any, not str: a
spread dict[str, str] would be matched by mypy against `text`'s `n: int | None` as well."""

CASES = ("", "_of", "_in", "_acc")  # "_name" is a fifth form of a colour written by name
CASE_KEYS = ("", ".of", ".in", ".acc")

# The comparison operators, their names in the tables, and their mirror image.
OPS = {">=": "ge", ">": "gt", "<=": "le", "<": "lt", "==": "eq", "!=": "ne"}
FLIP = {">=": "<=", ">": "<", "<=": ">=", "<": ">", "==": "==", "!=": "!="}
NEGATE = {">=": "<", ">": "<=", "<=": ">", "<": ">=", "==": "!=", "!=": "=="}

# Kinds of values an expression can denote (beyond numbers and conditions).
COLOUR, COLOURS, CARD, LEVEL, NOBLE, PAYMENT, PLAYER, NONE, NUMBER, BOOL = (
    "colour",
    "colours",
    "card",
    "level",
    "noble",
    "payment",
    "player",
    "none",
    "number",
    "bool",
)
COMPONENT = "component"  # a component of a kind of the spec's own (a city): issue 16, zones

DOMAIN_KINDS = {
    "gem": COLOUR,
    "colour": COLOUR,
    "gem_set": COLOURS,
    "face_up": CARD,
    "reserved": CARD,
    "deck": LEVEL,
    "noble": NOBLE,
    "payment": PAYMENT,
    "component": COMPONENT,
}


# A declared variable's type (compiler/check/types.py) -> the kind of value it phrases as.
def state_kind(t) -> str:
    name = getattr(t, "name", "")
    if hasattr(t, "key"):  # a keyed variable: a table, read one entry at a time
        return "table"
    if hasattr(t, "elem") and hasattr(t.elem, "kind"):  # a set of components: read as a zone is
        return "zone"
    return (
        COLOURS
        if hasattr(t, "elem")
        else {"int": NUMBER, "bool": BOOL, "gem": COLOUR, "colour": COLOUR, "player": PLAYER}[name]
    )


def state_type_key(t) -> str:
    """A declared variable's type as the tables name it (state.type.KEY): number, flag, ..., set_colour (a
    keyed variable's: its entries' type)."""
    if hasattr(t, "key"):
        return state_type_key(t.value)
    if hasattr(t, "elem"):
        return "set_comp" if hasattr(t.elem, "kind") else "set_" + t.elem.name
    return {"int": "number", "bool": "flag"}.get(t.name, t.name)


# Player attributes that count things (and so have a count sentence and a noun).
COUNTED = ("tokens", "bonus", "prestige", "purchased", "reserved", "nobles", "held", "turns")

# What a call of a definition denotes, by its result type (compiler/check/types.py, as a noun).
RESULT_KINDS = {"number": NUMBER, "condition": BOOL, "gem colour": COLOUR, "token colour": COLOUR, "player": PLAYER}

# Global collections: name -> kind of element.
COLLECTIONS = {"gems": COLOUR, "colours": COLOUR, "levels": LEVEL, "players": PLAYER, "others": PLAYER}


class PhraseError(ValueError):
    """A node the phrases cannot phrase (only raised for nodes the checker rejects)."""


@dataclass(frozen=True)
class Ref:
    """How to refer to a variable: its kind and the table key of its phrase.

    ``key`` names a phrase with the four case forms (``key``, ``key.of``, ``key.in``,
    ``key.acc``). A player is ``you`` (second person) or ``they`` (third person).
    """

    kind: str
    key: str
    fields: Mapping[str, object] = field(default_factory=dict)
    person: str = "they"  # players only
    coll: str | None = None  # loop variables: the collection phrase key
    suffix: str = ""  # " (2)" for the second of two choices of one kind
    holds: str = ""  # components of a spec's kind (a chosen city, a loop over a zone): the kind's name


def item_words(table: Table, word: str, few: str | None, other: str | None, gender: str) -> Fields:
    """The fields a phrase of one component agrees with, from its word, its `few` and `other` forms and
    its gender: ``item_acc`` is its object form where the table's ``item.acc@GENDER`` rule makes one
    (Serbian "карта" -> "карту": an ending ``а => у``, on each word, so that an adjective agrees:
    "трговачка станица" -> "трговачку станицу"), else the word itself."""
    acc = word
    rule = f"item.acc@{gender}" if gender and table.has(f"item.acc@{gender}") else "item.acc"
    if table.has(rule):
        ending, _, replaced = table.text(rule).partition("=>")
        old, new = ending.strip(), replaced.strip()
        if old:  # each word of the item that takes the ending: "трговачка станица" -> "трговачку станицу"
            acc = " ".join(w[: -len(old)] + new if w.endswith(old) else w for w in word.split(" "))
    return {
        "item": word,
        "item_of": few or table.text("item.of", item=word),
        "item_acc": acc,
        "plural": other or table.text("item.plural", item=word),
        "gender": gender,
    }
