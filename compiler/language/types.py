"""The types of the expression language: small frozen values that the registry's signatures
(compiler/language/) are written in, the checker infers (compiler/check/types.py) and the
lowering reads.

They sit in the language package, before the check stage, so that an effect's or a
function's declaration can name its parameter and result types without importing the checker.

``INT``, ``BOOL``, ``GEM`` (one of the gem colours), ``COLOUR`` (a gem or the wild colour),
``PLAYER``, ``CARD`` (with the place it comes from), ``NOBLE``, ``PAYMENT``, ``SETUP``, ``NONE``,
``SetOf(T)``, ``MapOf(K, V)``, ``Comp`` (a component of a spec's own kind), ``Keyword`` (a value
of a keyword column) and ``ZoneT`` (a zone of the spec's own).
"""

from __future__ import annotations

from dataclasses import dataclass

from .shapes import Shape


@dataclass(frozen=True, slots=True)
class Type:
    name: str
    origin: str = ""  # for cards: "face_up" or "reserved"

    def __str__(self) -> str:
        """The type as a noun: 'number', 'gem colour', 'face-up card' (see :func:`noun`)."""
        if self.name == "card" and self.origin:
            return f"{self.origin.replace('_', '-')} card"
        return _NOUNS.get(self.name, self.name)


@dataclass(frozen=True, slots=True)
class SetOf:
    elem: AnyType

    def __str__(self) -> str:
        return f"collection of {self.elem}s"  # every noun of _NOUNS takes an 's'


@dataclass(frozen=True, slots=True)
class MapOf:
    key: AnyType
    value: AnyType

    def __str__(self) -> str:
        return f"table of {self.value}s by {self.key}"


@dataclass(frozen=True, slots=True)
class Comp:
    """A component of a kind other than the base game's cards and nobles (a city)."""

    kind: str
    noun: str  # the kind's item, in English ("city")

    def __str__(self) -> str:
        return self.noun


@dataclass(frozen=True, slots=True)
class Keyword:
    """A value of a keyword column: comparable with the same column's values only."""

    kind: str
    column: str

    def __str__(self) -> str:
        return f"keyword of {self.kind}.{self.column}"


@dataclass(frozen=True, slots=True)
class ZoneT(SetOf):
    """A zone of the spec's own (compiler/check/zones.py): a collection of its kind's components that
    also knows its name and shape (a pile's contents may not be read: E551)."""

    zone: str
    shape: Shape
    per_player: bool = False

    def __str__(self) -> str:
        return f"zone of {self.elem}s"


AnyType = Type | SetOf | MapOf | Comp | Keyword  # a type of the expression language

_NOUNS = {
    "gem": "gem colour",
    "colour": "token colour",
    "int": "number",
    "bool": "condition",
    "setup": "player-count row",
    "none": "none",
    "?": "value",
    "effects": "list of effects",
}


def noun(t: object) -> str:
    """A type as a message names what it found: 'a number', 'a condition', 'an end ...', 'none'."""
    text = str(t)
    if text == "none":
        return "none"
    return f"{'an' if text[0] in 'aeiou' else 'a'} {text}"


def wanted(t: object) -> str:
    """A type as a message names what a place needs: 'true or false' for a condition, else :func:`noun`."""
    return "true or false" if t == BOOL else noun(t)


INT = Type("int")
BOOL = Type("bool")
GEM = Type("gem")
COLOUR = Type("colour")
PLAYER = Type("player")
CARD = Type("card")
FACE_UP_CARD = Type("card", "face_up")
RESERVED_CARD = Type("card", "reserved")
NOBLE = Type("noble")
PAYMENT = Type("payment")
SETUP = Type("setup")
NONE = Type("none")
EFFECTS = Type("effects")  # what a procedure (a definition with `do:`) gives: effects, no value
ERROR = Type("?")  # already reported; silences follow-up errors
