"""A spec's declared state in a saved game: written by to_json and observation, checked and read
back by from_json.

Part of the runtime of the engines whose spec declares state (see compiler/emit/runtime/__init__.py,
SPEC_MODULES): pasted whole into those engines only, whose hooks _state_json, _state_problems
and _load_state call it from Game._state, _problems and _load (an engine without state has
neither the text nor the calls, and saves version 1 as it always did).

A saved game of version 2 has ``"vars"``: the shared variables by name, and in each seat
``"vars"``: that player's. A number or a flag is itself, a colour its name (null: none), a
player a seat from 0 (as ``current_player``), a set of colours a list of names in colour order, a
set of components a list of their ids (rows of their kind's table) in increasing order, a keyed
variable (``by:``) a list of one value per key (in colour order, or by component id).
An observation shows another seat's private variables as null.

A keyed variable's type tag is ``by:KEY:N:TYPE`` (meta.Variable.type): keyed by gem, colour or a kind
KEY, N keys, each entry a value of the tag TYPE.
"""

from __future__ import annotations

from typing import Any

from .aliases import Path, Problem, State
from .errors import _shown
from .game import Game
from .meta import Variable, _var_saved
from .problems import _dotted
from .spec import COLOURS, GEMS, VARIABLES


def _saved(tag: str, value: Any) -> Any:
    """A value of a variable of type `tag` as a saved game writes it: meta._var_saved's, or a keyed
    variable's entries in key order (here, so that meta, which every engine holds, is as it was)."""
    parts = tag.split(":", 3)  # a keyed variable's tag: by:KEY:N:TYPE
    if parts[0] == "by":
        return [_var_saved(parts[3], x) for x in value]
    return _var_saved(tag, value)


def _vars_state(game: Game, state: State, observer: int | None) -> None:
    """Adds the declared state to a state dict (observer None: the whole state)."""
    shared = {v.name: _saved(v.type, getattr(game, v.attribute)) for v in VARIABLES if not v.per_player}
    if shared:
        state["vars"] = shared
    own = [v for v in VARIABLES if v.per_player]
    if own:
        for p, seat in enumerate(state["seats"]):
            seat["vars"] = {
                v.name: None
                if v.private and observer is not None and observer != p
                else _saved(v.type, getattr(game, v.attribute)[p])
                for v in own
            }


def _var_problem(tag: str, optional: bool, value: Any, n: int, path: Path) -> str:
    """The sentence saying why `value` cannot be a variable's value ('' when it can)."""
    where = _dotted(path)
    if tag.startswith("by:"):
        _, _, keys, inner = tag.split(":", 3)
        if not isinstance(value, list) or len(value) != int(keys):
            return f"{where} must be a list of {keys} values, one for each key, not {_shown(value)}"
        return next((p for i, x in enumerate(value) if (p := _var_problem(inner, optional, x, n, path + (i,)))), "")
    if tag == "int":
        return "" if type(value) is int else f"{where} must be a whole number, not {_shown(value)}"
    if tag == "bool":
        return "" if type(value) is bool else f"{where} must be true or false, not {_shown(value)}"
    if value is None and optional and not tag.startswith(("set:", "ids:")):
        return ""
    if tag.startswith("ids:"):
        count = int(tag.rsplit(":", 1)[1])
        if (
            not isinstance(value, list)
            or any(type(x) is not int or not 0 <= x < count for x in value)
            or len(set(value)) != len(value)
        ):
            return f"{where} must be a list of distinct component ids from 0 to {count - 1}, not {_shown(value)}"
        return ""
    if tag in ("gem", "colour"):
        allowed = GEMS if tag == "gem" else COLOURS
        return "" if value in allowed else f"{where} must be one of {', '.join(allowed)}, not {_shown(value)}"
    if tag == "player":
        return (
            ""
            if type(value) is int and 0 <= value < n
            else f"{where} must be a seat from 0 to {n - 1}, not {_shown(value)}"
        )
    allowed = GEMS if tag == "set:gem" else COLOURS
    if not isinstance(value, list) or any(c not in allowed for c in value) or len(set(value)) != len(value):
        return f"{where} must be a list of distinct colours of {', '.join(allowed)}, not {_shown(value)}"
    return ""


def _vars_problems(data: State, n: int) -> list[Problem]:
    """Every problem of the declared state of a state dict, as (path, sentence) pairs."""
    out: list[Problem] = []

    def check(table: Any, path: Path, entries: list[Variable]) -> None:
        if not isinstance(table, dict) or set(table) != {v.name for v in entries}:
            names = ", ".join(v.name for v in entries)
            out.append((path, f"{_dotted(path)} must give a value for each of {names}, not {_shown(table)}"))
            return
        for v in entries:
            problem = _var_problem(v.type, v.optional, table[v.name], n, path + (v.name,))
            if problem:
                out.append((path + (v.name,), problem))

    shared = [v for v in VARIABLES if not v.per_player]
    if shared:
        check(data.get("vars"), ("vars",), shared)
    own = [v for v in VARIABLES if v.per_player]
    seats = data.get("seats")
    for p, seat in enumerate(seats if own and isinstance(seats, list) else ()):
        if isinstance(seat, dict):
            check(seat.get("vars"), ("seats", p, "vars"), own)
    return out


def _var_loaded(tag: str, value: Any) -> Any:
    """A saved value (one _vars_problems found sound) as the game holds it."""
    if tag.startswith("by:"):
        return [_var_loaded(tag.split(":", 3)[3], x) for x in value]
    if tag in ("gem", "colour"):
        return None if value is None else COLOURS.index(value)
    if tag.startswith("set:"):
        return sorted(COLOURS.index(c) for c in value)
    if tag.startswith("ids:"):
        return sorted(value)
    return value


def _load_vars(game: Game, data: State) -> None:
    """Gives a loaded game the declared state of its state dict."""
    for v in VARIABLES:
        if v.per_player:
            setattr(game, v.attribute, [_var_loaded(v.type, seat["vars"][v.name]) for seat in data["seats"]])
        else:
            setattr(game, v.attribute, _var_loaded(v.type, data["vars"][v.name]))
