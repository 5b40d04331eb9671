"""The effects of the spec language, each declared once (in the manner of sqlglot's one class per
expression): what it is called, what it takes, what it does to the flow of a turn, which pass
checks it, which routine lowers it, which runtime helper the engine calls, and its phrase.

Every pass that needs to know about effects reads :data:`EFFECTS` instead of keeping a list of
its own: the types (compiler/check/types.py), the flow analyses (compiler/check/flow.py,
compiler/check/zones.py), the lowering's dispatch (compiler/lower/effects.py), the sheets'
phrases and rulespec/README.md's tables (tests/test_language.py checks both ways).

Adding an effect costs one :class:`EffectDecl` here, its phrase (the ``phrase`` key) in the four
files compiler/sheets/lang/{en,fr,nl,sr}.yaml, its lowering routine (and runtime helper), its row
in rulespec/README.md and one focused test (tests/test_effects.py): the README's contributor
section ("Adding an effect") walks `to_bottom` through them.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from .types import CARD, COLOUR, FACE_UP_CARD, INT, NOBLE, PAYMENT, AnyType


class Family(StrEnum):
    """Which part of the language an effect belongs to; it says who checks its arguments."""

    BASE = "base"  # the base game's tokens, cards and nobles: its signature is checked as it stands
    STATE = "state"  # writes a declared variable (compiler/check/variables.py types it)
    ZONE = "zone"  # moves a component of a spec's own kind between zones (compiler/check/zones.py)


class Role(StrEnum):
    """What an argument must be where no expression type says it: a zone's, or a variable's."""

    COMPONENT = "component"  # a component of a zone
    ZONE = "zone"  # any zone
    PILE = "pile"  # a zone of shape pile (in order: to its bottom, shuffled)
    FACE_DOWN = "face_down"  # a pile or a bag (drawn from)
    SHOWN = "shown"  # a display or a row
    VARIABLE = "variable"  # a declared variable (set, add, insert, drop write it)
    VALUE = "value"  # what the variable's type takes


Param = AnyType | Role


@dataclass(frozen=True, slots=True)
class EffectDecl:
    """One effect. `key` is unique; `name` is what a spec writes (`refill` is two effects: the base
    game's `refill(card)` and the zones' `refill(ZONE)`, told apart by their argument)."""

    key: str
    name: str
    family: Family
    params: tuple[Param, ...]  # the argument types in order (CARD accepts either origin)
    # flow facts
    moves: bool = False  # moves the card, noble or component given first from where it was chosen (E510, E547)
    refills: bool = False  # fills the place its card left, or a zone's empty places (E510, E557)
    puts_in: bool = False  # puts a component into the zone given second (E557: a loop's collection filled again)
    draws: str | None = None  # the pool it takes from: after it a condition's guarantee no longer holds (E512)
    pays: bool = False  # spends the payment chosen when the action began (E511: before tokens leave)
    gives_turn: bool = False  # changes who plays next (extra_turn): only in a turn, never in setup (E571)
    # the passes
    # the check hook, by the name its pass installs it under (Inferrer.hooks in compiler/check/types.py: "state" by
    # compiler/check/variables.py, "zone" by compiler/check/zones.py); None: compiler/check/types.py checks the
    # arguments against `params`. A name, not a function: this stage comes before check and imports none of it.
    check: str | None = None
    lowering: str = ""  # the routine that lowers it: its name in compiler/lower/effects.py LOWERINGS (this stage
    # comes before the lowering too)
    runtime: str | None = None  # the runtime helper (compiler/emit/runtime) the engine calls, if any
    phrase: str = ""  # its phrase key in compiler/sheets/lang/*.yaml
    fields: tuple[str, ...] = ()  # a zone effect's: the placeholder of its phrase each argument fills, in order
    signature: str = ""  # as rulespec/README.md heads its row: `take(colour, n)`


def _base(key: str, params: tuple[Param, ...], signature: str, **facts: Any) -> EffectDecl:
    return EffectDecl(
        key,
        key,
        Family.BASE,
        params,
        lowering=facts.pop("lowering", key),
        phrase=f"eff.{key}",
        signature=signature,
        **facts,
    )


def _state(key: str, value: Param, signature: str) -> EffectDecl:
    return EffectDecl(
        key,
        key,
        Family.STATE,
        (Role.VARIABLE, value),
        check="state",
        lowering="state",
        phrase=f"eff.{key}",
        signature=signature,
    )


def _zone(
    key: str,
    params: tuple[Role, ...],
    fields: tuple[str, ...],
    signature: str,
    runtime: str,
    name: str = "",
    **facts: Any,
) -> EffectDecl:
    return EffectDecl(
        key,
        name or key,
        Family.ZONE,
        params,
        check="zone",
        lowering="zone",
        runtime=runtime,
        phrase=f"eff.{key}",
        signature=signature,
        fields=fields,
        **facts,
    )


# In the order the messages list them (E409: the base game's effects).
EFFECTS: dict[str, EffectDecl] = {
    d.key: d
    for d in (
        _base("take", (COLOUR, INT), "take(colour, n)", draws="supply", lowering="tokens"),
        _base("put_back", (COLOUR, INT), "put_back(colour, n)", draws="tokens", lowering="tokens"),
        _base("reserve", (FACE_UP_CARD,), "reserve(card)", moves=True, draws="reserved"),
        _base("reserve_top", (INT,), "reserve_top(level)", draws="reserved"),
        _base("refill", (FACE_UP_CARD,), "refill(card)", refills=True),
        _base("pay", (PAYMENT,), "pay(payment)", draws="tokens", pays=True),
        _base("acquire", (CARD,), "acquire(card)", moves=True),
        _base("visit", (NOBLE,), "visit(noble)", moves=True),
        _base("bury", (CARD,), "bury(card)", moves=True),
        _base("extra_turn", (), "extra_turn()", gives_turn=True),
        _base("queue", (), "queue(STEP, name: value)", check="queue"),
        _state("set", Role.VALUE, "set(V, x)"),
        _state("add", INT, "add(V, n)"),
        _state("insert", Role.VALUE, "insert(V, x)"),
        _state("drop", Role.VALUE, "drop(V, x)"),
        _zone("move", (Role.COMPONENT, Role.ZONE), ("x", "zone"), "move(x, Z)", "_zone_move", moves=True, puts_in=True),
        _zone("draw", (Role.FACE_DOWN, Role.ZONE), ("pile", "zone"), "draw(P, Z)", "_zone_draw", puts_in=True),
        _zone("reveal", (Role.FACE_DOWN, Role.SHOWN), ("pile", "zone"), "reveal(P, D)", "_zone_reveal", puts_in=True),
        _zone("refill_zone", (Role.SHOWN,), ("zone",), "refill(D)", "_zone_refill", name="refill", refills=True),
        _zone(
            "to_bottom",
            (Role.COMPONENT, Role.PILE),
            ("x", "zone"),
            "to_bottom(x, P)",
            "_zone_to_bottom",
            moves=True,
            puts_in=True,
        ),
        _zone("discard", (Role.COMPONENT,), ("x",), "discard(x)", "_zone_discard", moves=True),
        _zone("shuffle", (Role.PILE,), ("zone",), "shuffle(P)", "_zone_shuffle"),
    )
}


def of_family(family: Family) -> dict[str, EffectDecl]:
    """The effects of one family by the name a spec writes, in declaration order."""
    return {d.name: d for d in EFFECTS.values() if d.family is family}


def named(name: str) -> tuple[EffectDecl, ...]:
    """Every effect a spec writes as `name` (refill: the base game's and the zones')."""
    return tuple(d for d in EFFECTS.values() if d.name == name)


# The names a spec writes, by family, in declaration order: what the checker's tables were.
BASE_EFFECTS = of_family(Family.BASE)
STATE_EFFECTS = tuple(of_family(Family.STATE))
ZONE_EFFECTS = of_family(Family.ZONE)
EFFECT_NAMES = tuple(dict.fromkeys(d.name for d in EFFECTS.values()))
