"""Declared state lowered: each variable a Game attribute, its reads and the effects that write it.

A variable NAME is the Game attribute ``v_NAME`` (pysource.identifier): one value for a shared
variable, a list of one value per seat for a per-player one (``g.v_NAME[me]``). Values are
what the rules compare: numbers, True/False, a colour's index, a seat (from 0), None for an
optional variable that holds nothing. A set of colours is a sorted list of colour indexes: the
rules read it with ``in``, ``len`` and ``for`` as they read a chosen set of gems, a turn resets
it by making a new empty list, and a saved game lists it in the order it is held.

The engine keeps the variables in ``_EXTRA_SLOTS`` (made per game, copied by clone) and
describes them in ``VARIABLES`` for saving, loading and observation (compiler/emit/runtime/variables.py);
a ``reset: turn`` variable gets one statement in the hook _reset_turn (:func:`turn_resets`).
A spec without state has none of this: no slot, no table, no line, its engine as it was.

A keyed variable (``by:``) is a list of one value per key, each starting as its initial value: per
gem colour or per token colour (a colour's index is its place), per component of a kind (its id: the
row of its kind's table; a base card or noble by its id, as the engines name them); `me.satchels[c]`
reads ``g.v_satchels[me][c]``, and an effect writes that entry.
"""

from __future__ import annotations

import ast
from typing import Any

from ..check.types import BOOL, COLOUR, GEM, INT, PLAYER, Comp, MapOf, SetOf
from ..check.variables import key_name, written
from ..front.expr import Attribute, Index, Name, unparse
from ..model import Rules, Variable
from . import base_columns, ir
from .layout import LoweringBug
from .printer import render
from .pysource import Code, comment, identifier
from .tokens import rule_error
from .tree import Append, Assign, Comment, Do, For, If, Node, Raise, Table

STATE_VERSION = 2  # the version of a saved game that carries declared state


def attribute(var: Variable) -> str:
    """The Game attribute of a variable."""
    return str(identifier("s_", var.name))


def tag(var: Variable, rules: Rules) -> str:
    """How the runtime saves and checks a value: int, bool, gem, colour, player, set:gem, set:colour, or
    ids:KIND:N for a set of components of KIND, a kind of N components (each its id: its row of the kind's
    table, _k_KIND in the engine)."""
    t = var.type
    if isinstance(t, MapOf):
        inner = tag(Variable(var.name, var.title, t.value, var.span), rules)
        return f"by:{key_name(t.key)}:{key_count(t.key, rules)}:{inner}"
    if isinstance(t, SetOf) and isinstance(t.elem, Comp):
        kind = next(k for k in rules.kinds if k.name == t.elem.kind)
        return f"ids:{kind.name}:{len(kind.components)}"
    if isinstance(t, SetOf):
        return "set:" + ("gem" if t.elem == GEM else "colour")
    tags: dict[object, str] = {INT: "int", BOOL: "bool", GEM: "gem", COLOUR: "colour", PLAYER: "player"}
    return tags[t]


def key_count(key: object, rules: Rules) -> int:
    """How many keys a keyed variable has: the gem or token colours, or the components of its kind."""
    if key in (GEM, COLOUR):
        return len(rules.gems) + int(key == COLOUR)
    kind = next(k for k in rules.kinds if k.name == key_name(key))
    return len(kind.components)


def _initial(var: Variable, rules: Rules | None = None) -> object:
    """The initial value as the engine holds it (a tuple: a list each game makes its own; a keyed
    variable: one initial value per key)."""
    if isinstance(var.type, MapOf) and rules is not None:
        return (var.initial,) * key_count(var.type.key, rules)
    return () if isinstance(var.type, SetOf) else var.initial


def extra_slots(rules: Rules) -> list[tuple[str, bool, object]]:
    """(attribute, one per player, initial value) of every variable, for _EXTRA_SLOTS."""
    return [(attribute(v), v.per_player, _initial(v, rules)) for v in rules.variables]


def vars_table(rules: Rules) -> Code:
    """VARIABLES: every variable as a meta.Variable (name, attribute, type tag, per player, private,
    optional, initial value, and the kind of a set of components)."""
    rows: list[ast.expr] = []
    for v in rules.variables:
        elem = getattr(v.type, "elem", None)
        rows.append(
            ir.call(
                "Variable",
                name=ir.const(v.name),
                attribute=ir.const(attribute(v)),
                type=ir.const(tag(v, rules)),
                per_player=ir.const(v.per_player),
                private=ir.const(v.private),
                optional=ir.const(v.optional),
                initial=ir.const(_initial(v, rules)),
                kind=ir.const(elem.kind if isinstance(elem, Comp) else ""),
            )
        )
    return Code(
        render(
            [
                Comment(comment("The spec's declared state (compiler/emit/runtime/meta.py, Variable)")),
                Table("VARIABLES", rows),
            ]
        )
    )


def turn_resets(rules: Rules) -> list:
    """The statements of the hook _reset_turn (`g` the game) that give every `reset: turn` variable
    its initial value back when the next turn begins: every seat's value of a per-player one."""
    out: list = []
    for v in rules.variables:
        if v.reset != "turn":
            continue
        slot = ir.attr(ir.name("g"), attribute(v))
        value = ir.list_() if isinstance(v.type, SetOf) else ir.const(v.initial)
        if isinstance(v.type, MapOf):  # a new list of one initial value per key
            value = ir.mul(ir.list_(ir.const(v.initial)), ir.const(key_count(v.type.key, rules)))
        seats = ir.dotted("g._n")
        if not v.per_player:
            out.append(Assign((slot,), value))
        elif isinstance(v.type, (SetOf, MapOf)):  # a new list for each seat
            out.append(Assign((slot,), ir.listcomp(value, "_", ir.call("range", seats))))
        else:
            out.append(Assign((slot,), ir.mul(ir.list_(value), seats)))
    return out


def _shared(rules: Rules, name: str) -> Variable | None:
    return next((v for v in rules.variables if v.name == name and not v.per_player), None)


def _own(rules: Rules, name: str) -> Variable | None:
    return next((v for v in rules.variables if v.name == name and v.per_player), None)


def _slot(var: Variable) -> ast.expr:
    return ir.attr(ir.name("g"), attribute(var))


def name_code(rules: Rules, name: str) -> ast.expr | None:
    """A shared variable read by its name (not hidden by a loop variable: the caller checks)."""
    var = _shared(rules, name)
    return _slot(var) if var is not None else None


def player_code(rules: Rules, seat: ast.expr, attr: str) -> ast.expr | None:
    """A per-player variable of seat `seat` (`me.taken`, `player.markers`)."""
    var = _own(rules, attr)
    return ir.sub(_slot(var), seat) if var is not None else None


def read(rules: Rules, node, env) -> tuple[Variable, object] | None:
    """(the variable, the node of its player or None) that `node` reads: a shared variable by its
    name (not hidden by a loop variable), a per-player one as an attribute of a player; else None."""
    if isinstance(node, Name) and node.id not in env:
        var = _shared(rules, node.id)
        return (var, None) if var is not None else None
    if isinstance(node, Attribute):
        var = _own(rules, node.name)
        return (var, node.obj) if var is not None else None
    return None


def keyed(rules: Rules, node: object, env: Any) -> Variable | None:
    """The keyed variable whose entry `node` reads (`me.satchels[c]`), else None."""
    found = read(rules, node.obj, env) if isinstance(node, Index) else None
    return found[0] if found is not None and isinstance(found[0].type, MapOf) else None


def _written(rules: Rules, node: object, env: Any) -> tuple[Variable, object] | None:
    """(the variable, the type of what is written) that an effect's first argument names: a variable,
    or an entry of a keyed one."""
    var = keyed(rules, node, env)
    if var is not None:
        return var, getattr(var.type, "value", None)
    found = read(rules, node, env)
    return (found[0], found[0].type) if found is not None else None


def kind(rules: Rules, node: object, env: Any) -> str | None:
    """'player' for a variable (or a keyed variable's entry) that holds a player (its attributes are a
    player's), else None."""
    found = _written(rules, node, env)
    return "player" if found is not None and found[1] == PLAYER else None


def element_kind(rules: Rules, coll, env) -> str | None:
    """What a loop over a set of components binds: a component of its kind ("comp:KIND"), else None."""
    found = read(rules, coll, env)
    elem = getattr(found[0].type, "elem", None) if found is not None else None
    return "comp:" + elem.kind if isinstance(elem, Comp) else None


def place(rules: Rules, node, env, expr) -> ast.expr | None:
    """Where the variable `node` reads is kept: `g.v_NAME` or `g.v_NAME[seat]`, an entry of a keyed one
    `g.v_NAME[seat][key]` (None: no variable)."""
    if keyed(rules, node, env) is not None:
        whole = place(rules, node.obj, env, expr)
        return ir.sub(whole, expr(node.index, env)) if whole is not None else None
    found = read(rules, node, env)
    if found is None:
        return None
    var, owner = found
    if owner is None:
        return _slot(var)
    seat = ir.name("me") if owner == Name("me", None) and "me" not in env else expr(owner, env)
    return ir.sub(_slot(var), seat)


# The largest number a variable may hold (either sign). A number the rules multiply by itself
# (`set(heat, heat * heat)`) grows past what a saved game can write (Python refuses to print an
# int of more than 4,300 digits) within a few turns: the engine stops it with a RuleError.
MAX_NUMBER = 10**12


def effect(compiler, name: str, args, env, located: str = "") -> list:
    """set, add, insert, drop: the statements writing a declared variable (a number kept
    within MAX_NUMBER: a RuleError naming the effect past it)."""
    rules = compiler.plan.rules
    found = _written(rules, args[0], env)
    target = place(rules, args[0], env, compiler.expr)
    if found is None or target is None:
        raise LoweringBug(f"'{unparse(args[0])}' is not a declared variable", getattr(args[0], "span", None))
    held = found[1]
    if name == "set" and found[0].bonus_colour:
        return _recolour(compiler, args[0], target, compiler.expr(args[1], env), env)
    if name == "set" and isinstance(held, SetOf):  # a set of its own, held sorted: the collection's elements
        return [Assign((target,), ir.call("sorted", ir.call("set", compiler.collection(args[1], env))))]
    value = compiler.expr(args[1], env)
    kept: list = []
    if name in ("set", "add") and held == INT:
        within = ir.chain(ir.const(-MAX_NUMBER), ("<=", target), ("<=", ir.const(MAX_NUMBER)))
        kept = [If(ir.not_(within), [Raise(rule_error("number_too_large", located, most=ir.const(MAX_NUMBER)))])]
    if name == "set":
        return [Assign((target,), value)] + kept
    if name == "add":
        return [Assign((target,), value, "+=")] + kept
    if name == "insert":  # held sorted, each colour once
        return [If(ir.compare(value, "not in", target), [Append(target, value), Do(ir.method(target, "sort"))])]
    return [If(ir.compare(value, "in", target), [Do(ir.method(target, "remove", value))])]


def _recolour(compiler: Any, entry: Index, target: ast.expr, value: ast.expr, env: Any) -> list[Node]:
    """`set(NAME[card], colour)` of the variable that sets a card's bonus colour in play
    (`bonus_colour: true`): the entry written, and the card's bonuses moved from its colour before to
    its colour now for the player whose purchased cards hold it (none: nothing counts it yet). So
    `me.bonus`, the prices and the nobles' requirements read the colour in play at once."""
    rules = compiler.plan.rules
    card = ir.name("_tinted")
    was, now, seat = ir.name("_was"), ir.name("_now"), ir.name("_holder")
    bonuses = ir.sub(ir.dotted("g._bon"), seat)
    given = base_columns.bonus_given(rules, card)
    return [
        Assign((card,), compiler.expr(entry.index, env)),
        Assign((was,), base_columns.colour_of(rules, card)),
        Assign((target,), value),
        Assign((now,), base_columns.colour_of(rules, card)),
        If(
            ir.compare(was, "!=", now),
            [
                For(
                    seat,
                    ir.call("range", ir.dotted("g._n")),
                    [
                        If(
                            ir.compare(card, "in", ir.sub(ir.dotted("g._bought"), seat)),
                            [
                                Assign((ir.sub(bonuses, was),), given, "-="),
                                Assign((ir.sub(bonuses, now),), given, "+="),
                            ],
                        )
                    ],
                )
            ],
        ),
    ]


def collection(rules: Rules, coll, env, expr) -> ast.expr | None:
    """A set variable as a collection (for `in`, `size`, aggregates and `for`), else None."""
    found = read(rules, coll, env)
    return place(rules, coll, env, expr) if found is not None and isinstance(found[0].type, SetOf) else None


def walks_what_it_writes(body, coll) -> bool:
    """Does a `for` over a set variable write that variable (then it walks a copy)?"""
    name = coll.id if isinstance(coll, Name) else coll.name if isinstance(coll, Attribute) else None
    return name is not None and name in written([body])
