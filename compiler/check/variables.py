"""Declared state (the `state` section): variables the rules remember, checked and typed.

A variable is per game (read as ``NAME``) or per player (read as ``me.NAME``, ``player.NAME``,
``p.NAME``); it holds a number, a flag, a gem or token colour, a player, or a set of colours;
keyed (``by: gem``, ``by: colour``, ``by: KIND``) it holds one such value (not a set) per colour or
per component, a table (``MapOf``) read and written one entry at a time (``me.satchels[c]``); it
lasts the game or a turn (``reset: turn``: back to its initial value when each turn begins).
Effects ``set``, ``add``, ``insert`` and ``drop`` write it; every expression reads it.

This module is called by the check pass (compiler/check/build.py) at three points:

* :func:`declare` reads the section into :class:`~compiler.model.Variable` values and makes
  their names known to the expressions (E540 for a name that means something already, E544 for
  a type, an initial value or an option that does not fit);
* :func:`check_effect` types one state effect (E545: its first argument is not a declared
  variable, or what it writes does not fit the variable);
* :func:`unset_turn_variables` warns of a ``reset: turn`` variable that no effect sets (E555).
"""

from __future__ import annotations

from typing import Any

from ..diagnostics import Diagnostic, Span, did_you_mean
from ..front.expr import Attribute, Effect, Index, Name, unparse, walk
from ..front.source import MapNode, ScalarNode, SeqNode
from ..model import RESETS, Variable
from .types import (
    ATTRIBUTES,
    BASE_COMPONENT_TYPES,
    BOOL,
    COLOUR,
    ERROR,
    GEM,
    INT,
    PLAYER,
    STATE_EFFECTS,
    Comp,
    MapOf,
    Scope,
    SetOf,
    assignable,
    component_type,
    noun,
    same_component,
    wanted,
)

SCALAR_TYPES = {"number": INT, "flag": BOOL, "gem": GEM, "colour": COLOUR, "player": PLAYER}
SET_ELEMENTS = {"gem": GEM, "colour": COLOUR}  # what {set_of: X} may hold
KEYS = {"gem": GEM, "colour": COLOUR}  # what `by:` may name besides a kind
_MAY_BE_NONE = (GEM, COLOUR, PLAYER)  # the types an optional variable may have


def _noun(t) -> str:
    """A variable's type in a message: 'a flag' where the language says 'a condition'."""
    return "a flag (true or false)" if t == BOOL else noun(t)


def type_words(t) -> str:
    """A variable's type as the spec writes it: number, flag, gem, colour, player, {set_of: gem}, {set_of: KIND};
    a keyed one's with its key ('number by gem', 'flag by cities')."""
    if isinstance(t, MapOf):
        return f"{type_words(t.value)} by {key_name(t.key)}"
    if isinstance(t, SetOf) and isinstance(t.elem, Comp):
        return "{set_of: " + t.elem.kind + "}"
    if isinstance(t, SetOf):
        return "{set_of: " + next(k for k, v in SET_ELEMENTS.items() if v == t.elem) + "}"
    return next(k for k, v in SCALAR_TYPES.items() if v == t)


def key_name(key: object) -> str:
    """What a keyed variable's `by:` names, as the spec writes it: gem, colour, or a kind (cards, nobles, a
    kind of the spec's own)."""
    if isinstance(key, Comp):
        return key.kind
    named = next((k for k, v in KEYS.items() if v == key), None)
    return named or {"card": "cards", "noble": "nobles"}.get(getattr(key, "name", ""), str(key))


def declare(checker, scope: dict, players: tuple, reserved) -> tuple[Variable, ...]:
    """The `state` section's variables, each name made known: a shared one in `scope` (the
    names of every expression), a per-player one as an attribute of players. `players`: the
    spec's player counts (a player's initial value is a seat every count has); `reserved`: the
    language's own words."""
    table = checker.node(checker.root, "state", MapNode, required=False)
    taken = _names_taken(checker, scope, reserved)
    out: list[Variable] = []
    for key, entry in table.entries if table else ():
        name = str(key.value)
        if not isinstance(entry, MapNode):
            checker.r.error("E103", f"variable '{name}' must be a mapping", entry.span)
            continue
        checker.spans[f"state.{name}"] = key.span
        where = f" in variable '{name}'"
        title = checker.text(entry, "title")
        per_player, _ = checker.scalar(entry, "per_player", bool, required=False, default=False, where=where)
        private, private_node = checker.scalar(entry, "private", bool, required=False, default=False, where=where)
        optional, _ = checker.scalar(entry, "optional", bool, required=False, default=False, where=where)
        reset = _reset(checker, entry, name, key.span, where)
        display, display_node = checker.scalar(entry, "display", bool, required=False, default=False, where=where)
        t = _type(checker, entry, name)
        before = len(checker.r.diagnostics)
        if display and reset != "turn":
            checker.r.error(
                "E544",
                f"variable '{name}' is marked for display, but it lasts the game: the board "
                "shows every such variable; 'display' marks a turn's variable (reset: turn)",
                display_node.span if display_node else key.span,
                "remove 'display', or give the variable 'reset: turn'",
            )
        by_node = entry.get("by")
        keyed_by = _key(checker, entry, name, t, by_node) if by_node is not None else None
        if private and not per_player:
            _shared_private(checker, name, private_node.span)
        if optional and t is not None and t not in _MAY_BE_NONE:
            checker.r.error(
                "E544",
                f"variable '{name}' is optional, but {noun(t)} is never none: only a gem, "
                "a colour or a player may be none",
                entry.key_span("optional"),
            )
        initial = _initial(checker, entry, name, t, bool(optional), players) if t is not None else None
        if keyed_by is not None and t is not None:
            t = MapOf(keyed_by, t)  # one value per key, each starting as `initial`
        bonus_colour = _bonus_colour(checker, entry, name, t, (bool(optional), bool(per_player), reset), out)
        clash = taken.get(name) if not per_player else _player_clash(name, taken)
        if clash:
            checker.r.error(
                "E540", f"'{name}' is already the name of {clash}", key.span, "choose another name for the variable"
            )
        if t is None or len(checker.r.diagnostics) > before:
            continue
        var = Variable(
            name,
            title,
            t,
            key.span,
            bool(per_player),
            initial,
            bool(optional),
            reset,
            bool(private),
            checker.note(entry),
            bool(display),
            bonus_colour=bool(bonus_colour),
        )
        out.append(var)
        if per_player:
            checker.types.attributes["player"] = {**checker.types.attributes["player"], name: t}
        else:
            scope[name] = t
        if optional:
            checker.types.optional_state.add(name)
    checker.types.variables = {v.name: v for v in out}
    return tuple(out)


def _bonus_colour(
    checker: Any, entry: MapNode, name: str, t: object, options: tuple[bool, bool, str], out: list[Variable]
) -> bool:
    """The variable's `bonus_colour`; E544 unless it is what a card's colour set in play is: a gem
    colour for each base card, none until set (`optional`), one for the game (a card has one owner at
    a time, whose bonus it counts in) that lasts the game (a turn's reset would take every bonus
    back), and the spec's only one. `options`: (optional, per_player, reset)."""
    where = f" in variable '{name}'"
    given, node = checker.scalar(entry, "bonus_colour", bool, required=False, default=False, where=where)
    if not given or t is None:
        return False
    optional, per_player, reset = options
    wrong = []
    if not (isinstance(t, MapOf) and t.value == GEM and key_name(t.key) == "cards"):
        wrong.append("'type: gem' and 'by: cards'")
    if not optional:
        wrong.append("'optional: true' (a card keeps its printed colour until its entry is set)")
    if per_player:
        wrong.append("no 'per_player' (a card has one colour, whoever holds it)")
    if reset != "game":
        wrong.append("'reset: game'")
    if wrong:
        checker.r.error(
            "E544",
            f"variable '{name}' sets the bonus colour of the cards ('bonus_colour: true'), so it needs "
            + ", ".join(wrong),
            node.span,
        )
    first = next((v.name for v in out if v.bonus_colour), None)
    if first is not None:
        checker.r.error(
            "E544",
            f"variable '{name}' is a second 'bonus_colour': a card's bonus colour is set in play by one "
            f"variable ('{first}')",
            node.span,
        )
    return True


def _reset(checker: Any, entry: MapNode, name: str, at: Span, where: str) -> str:
    """The variable's `reset` (how long a value lasts: "game" or "turn"); E544 for another word."""
    reset, reset_node = checker.scalar(entry, "reset", str, required=False, default="game", where=where)
    if reset in RESETS:
        return str(reset)
    checker.r.error(
        "E544",
        f"variable '{name}' has reset {reset!r}: a variable lasts the game or a turn ({', '.join(RESETS)})",
        reset_node.span if reset_node else at,
    )
    return "game"


def _shared_private(checker: Any, name: str, at: Span) -> None:
    """E544: `private` on a variable of the whole game, which no player owns to see alone."""
    checker.r.error(
        "E544",
        f"variable '{name}' is private, but it is one for the whole game: only a "
        "player's own variable can be hidden from the others",
        at,
        "give it 'per_player: true', or remove 'private'",
    )


def _key(checker: Any, entry: MapNode, name: str, t: object, node: ScalarNode | MapNode | SeqNode) -> Any:
    """What a keyed variable's `by:` names: a gem colour, a token colour or a component of a kind
    (the spec's own, or the base cards and nobles, which the engines name by their ids); None after an
    E544 (an unknown key, or a set: an entry holds one value, which an optional variable's may lack)."""
    kinds = {k.name: k for k in checker.kinds}
    value = node.value if isinstance(node, ScalarNode) else None
    if isinstance(t, SetOf):
        checker.r.error(
            "E544",
            f"variable '{name}' is keyed ('by: {value}') and holds a set: a keyed variable "
            "holds a number, a flag, a colour or a player for each key",
            node.span,
            "declare the set apart, or key a number",
        )
        return None
    if value in KEYS:
        return KEYS[value]
    if isinstance(value, str) and value in kinds:
        return component_type(kinds[value])
    hint = did_you_mean(str(value), list(KEYS) + list(kinds))
    checker.r.error(
        "E544",
        f"variable '{name}' is keyed by {value!r}: a variable is keyed by gem, colour or a kind "
        f"({', '.join(list(KEYS) + list(kinds))}){hint}",
        node.span,
    )
    return None


def _names_taken(checker, scope: dict, reserved) -> dict[str, str]:
    """What each name of the language and of the spec already means, in words (for E540)."""
    gems, wild = checker.gems_wild
    out: dict[str, str] = {n: "a built-in name of the rules language" for n in set(reserved) | set(STATE_EFFECTS)}
    out.update({n: "a built-in name of the rules language" for n in scope})
    out.update({g: "a gem colour" for g in gems})
    out[wild] = "the wild colour"
    for v in checker.value_table:
        out[v] = "a value of the spec (values:)"
    for section in ("actions", "end_of_turn"):
        decisions = checker.root.get(section) if isinstance(checker.root, MapNode) else None
        for dkey, entry in decisions.entries if isinstance(decisions, MapNode) else ():
            choose = entry.get("choose") if isinstance(entry, MapNode) else None
            for ckey, _ in choose.entries if isinstance(choose, MapNode) else ():
                out.setdefault(
                    str(ckey.value), f"a choice of {'step' if section == 'end_of_turn' else 'action'} '{dkey.value}'"
                )
    return out


def _player_clash(name: str, taken: dict[str, str]) -> str:
    """What a per-player variable's name already means: a player attribute (`me.reserved`), or a
    name of the language or the spec (`me.red` would read as the colour)."""
    if name in ATTRIBUTES["player"]:
        return f"a player attribute (me.{name})"
    return taken.get(name, "")


def _type(checker, entry: MapNode, name: str):
    """The declared type of a variable, or None after an E544."""
    node = entry.get("type")
    if node is None:
        checker.r.error("E102", f"missing key 'type' in variable '{name}'", entry.span)
        return None
    if isinstance(node, ScalarNode) and isinstance(node.value, str) and node.value in SCALAR_TYPES:
        return SCALAR_TYPES[node.value]
    if isinstance(node, MapNode) and len(node.entries) == 1:
        ((how, what),) = node.entries
        kinds = {k.name: k for k in checker.kinds}
        own = [k for k in kinds if k not in BASE_COMPONENT_TYPES]
        if how.value == "set_of" and isinstance(what, ScalarNode) and what.value in SET_ELEMENTS:
            return SetOf(SET_ELEMENTS[what.value])
        if how.value == "set_of" and isinstance(what, ScalarNode) and what.value in own:
            return SetOf(component_type(kinds[what.value]))
        if how.value == "set_of" and isinstance(what, ScalarNode) and what.value in BASE_COMPONENT_TYPES:
            # base cards or nobles, chosen in any place: components of their kind, kept as ids
            return SetOf(Comp(what.value, kinds[what.value].item.en))
        if how.value == "set_of" and isinstance(what, ScalarNode):
            hint = did_you_mean(str(what.value), list(SET_ELEMENTS) + own)
            kinds_said = "".join(f", set_of: {k}" for k in own)
            checker.r.error(
                "E544",
                f"variable '{name}' is a set of {what.value!r}: a set holds gem colours, "
                f"token colours or components of a kind (set_of: gem, set_of: colour{kinds_said}){hint}",
                what.span,
            )
            return None
    shown = node.value if isinstance(node, ScalarNode) else "that"
    checker.r.error(
        "E544",
        f"variable '{name}' has type {shown!r}: a variable is a number, flag, gem, colour, "
        "player or {set_of: gem|colour|KIND}"
        + (did_you_mean(str(shown), SCALAR_TYPES) if isinstance(node, ScalarNode) else ""),
        node.span,
    )
    return None


def _initial(checker, entry: MapNode, name: str, t, optional: bool, players: tuple):
    """The initial value as the engines hold it (a number, a flag, a colour index, a seat from
    0, None), or the type's default; E544 when it is missing or does not fit."""
    node = entry.get("initial")
    gems, wild = checker.gems_wild
    if node is None:
        if t in _MAY_BE_NONE and not optional:
            checker.r.error(
                "E544",
                f"variable '{name}' needs an initial value: {noun(t)} has no default",
                entry.span,
                "give it 'initial: ...', or 'optional: true' to start as none",
            )
        return {INT: 0, BOOL: False}.get(t, () if isinstance(t, SetOf) else None)
    value = node.value if isinstance(node, ScalarNode) else None

    def wrong(why: str) -> None:
        shown = ("true" if value else "false") if isinstance(value, bool) else repr(value)
        checker.r.error("E544", f"variable '{name}' starts as {shown}, {why}", node.span)

    if isinstance(t, SetOf):
        wrong("but a set starts empty (remove 'initial')")
    elif t == INT and (type(value) is not int):
        wrong("but it holds a number")
    elif t == BOOL and type(value) is not bool:
        wrong("but it is a flag: true or false")
    elif t in (GEM, COLOUR):
        allowed = gems if t == GEM else gems + (wild,)
        if value not in allowed:
            wrong(f"but it holds {noun(t)} ({', '.join(allowed)}){did_you_mean(str(value), allowed)}")
        else:
            return allowed.index(value)
    elif t == PLAYER:
        least = min((p.players for p in players), default=1)
        if type(value) is not int or not 1 <= value <= least:
            wrong(f"but it holds a player: a seat from 1 to {least} (every player count has it)")
        else:
            return value - 1
    else:
        return value
    return None


def variable_ref(checker_types, node, scope: Scope):
    """The variable the first argument of a state effect names (None when it names none); an entry
    of a keyed one (`me.satchels[c]`) names its variable."""
    variables = checker_types.variables
    match node:
        case Index(obj=obj) if isinstance(getattr(variable_ref(checker_types, obj, scope), "type", None), MapOf):
            return variable_ref(checker_types, obj, scope)
        case Name(id=name) if name in variables and not variables[name].per_player and scope.lookup(name) is not None:
            return variables[name]
        case Attribute(obj=obj, name=attr) if attr in variables and variables[attr].per_player:
            if checker_types.infer(obj, scope) == PLAYER:
                return variables[attr]
    return None


def check_effect(types, node: Effect, scope: Scope) -> None:
    """Types one state effect (E545: a first argument that is not a declared variable, or what is
    written does not fit its variable; E408: the number of arguments)."""
    name, args = node.name, node.args
    if len(args) != 2:
        types.r.error("E408", f"'{name}' takes 2 arguments ({len(args)} given)", node.span)
        for a in args:
            types.infer(a, scope)
        return
    target, value = args
    var = variable_ref(types, target, scope)
    if var is None:
        declared = ", ".join(types.variables) or "this spec declares none"
        builtin = isinstance(target, Attribute) and target.name in ATTRIBUTES["player"]
        what = "a player attribute the game keeps itself" if builtin else "not one"
        types.r.error(
            "E545",
            f"'{name}' changes a declared variable, and '{unparse(target)}' is {what} (declared: {declared})",
            target.span,
            "declare it in the spec's 'state' section, as in state: {NAME: {title: ..., type: number}}",
        )
        types.infer(value, scope)
        return
    t = var.type
    shown = unparse(target)
    if isinstance(t, MapOf) and not isinstance(target, Index):
        types.r.error(
            "E545",
            f"'{name}' changes one entry of '{shown}', which holds {_noun(t.value)} for each {t.key}: name the entry",
            target.span,
            f"name the entry by its key, {noun(t.key)}, as in '{name}({shown}[x], ...)'",
        )
        types.infer(value, scope)
        return
    if isinstance(t, MapOf):
        # the key's type (E410 at the key); the entry is written, not read: it may be none before
        types.infer(target, scope.knowing({unparse(target)}))
        t = t.value
    if name == "set" and var.optional and value == Name("none", None):
        return
    if name == "add" and t != INT:
        types.r.error(
            "E545",
            f"'add' adds to a number, but '{shown}' is {_noun(t)}",
            target.span,
            "use 'set' to give it another value"
            if not isinstance(t, SetOf)
            else "use 'insert' to add an element to a set",
        )
        types.infer(value, scope)
        return
    if name in ("insert", "drop") and not isinstance(t, SetOf):
        types.r.error(
            "E545",
            f"'{name}' {'adds an element to' if name == 'insert' else 'removes an element from'}"
            f" a set, but '{shown}' is {_noun(t)}",
            target.span,
            "use 'set' (or 'add' for a number) to change it",
        )
        types.infer(value, scope)
        return
    expected = t.elem if name in ("insert", "drop") else t
    actual = types.infer(value, scope, expected)
    element = name in ("insert", "drop") and same_component(actual, expected)  # a card is a card, from any place
    if not assignable(actual, expected) and not element and actual != ERROR:
        what = {
            "set": f"'set' gives '{shown}'",
            "add": f"'add' adds to '{shown}'",
            "insert": f"'insert' puts into '{shown}'",
            "drop": f"'drop' takes from '{shown}'",
        }[name]
        types.r.error(
            "E545",
            f"{what} {noun(actual)}, but it holds "
            + (f"{expected}s" if name in ("insert", "drop") else wanted(expected)),  # a set: its elements
            value.span,
        )


def written(stmts) -> set[str]:
    """The names of the variables the state effects of `stmts` write."""
    out: set[str] = set()
    for stmt in stmts:
        for node in walk(stmt):
            if isinstance(node, Effect) and node.name in STATE_EFFECTS and node.args:
                target = node.args[0]
                while isinstance(target, Index):  # an entry of a keyed variable writes the variable
                    target = target.obj
                if isinstance(target, Name):
                    out.add(target.id)
                elif isinstance(target, Attribute):
                    out.add(target.name)
    return out


def unset_turn_variables(rules) -> list[Diagnostic]:
    """E555 (warning, `check -W`): a `reset: turn` variable that no effect sets is its initial value always."""
    stmts = [s for d in rules.actions + rules.steps for s in d.effects] + [s for b in rules.setup for s in b.effects]
    done = written(stmts)
    return [
        Diagnostic(
            "E555",
            f"variable '{var.name}' goes back to its initial value when each turn begins, and no "
            "effect sets it: it is always its initial value",
            var.span,
            ("set it in an action's effects (set, add, insert), or remove 'reset: turn'",),
            severity="warning",
        )
        for var in rules.variables
        if var.reset == "turn" and var.name not in done
    ]
