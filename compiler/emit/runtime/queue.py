"""The queued steps waiting in a saved game (only in the engine of a spec that has queued steps).

Part of the runtime (see compiler/emit/runtime/__init__.py, SPEC_MODULES): pasted whole into
those engines only, whose hooks _state_json, _state_problems and _load_state call these functions
with the table of the spec's queued steps (compiler/lower/queue.py): for each, its position among
the steps, its name, the names it is given, their kinds (int, bool, colour, player, card, noble;
kind:NAME, a component of the spec's kind NAME) and its `limit` (0: none). Game.queued holds the
entries as tuples (position, chain, values...); a saved state lists them under `queued` as
{"step": name, "chain": n, "given": {name: value}}, a colour by its name, and under `queued_at`
the position of the end-of-turn step the queue runs before (Game.queued_at: where the steps go on
once it is empty).
"""

from __future__ import annotations

from typing import Any

from .aliases import Problem, State
from .errors import _shown
from .spec import _N_STEPS, CARDS, COLOURS, KINDS, NOBLES

_QueuedTable = tuple[tuple[int, str, tuple[str, ...], tuple[str, ...], int], ...]
_MOST_CHAIN = 10_000  # the longest chain a saved entry may claim without a `limit` (the engines' step budget)


def _queue_state(g: Any, state: State, table: _QueuedTable) -> None:
    """The queue under `queued` (the whole state and every observation: nothing in it is hidden)."""
    steps = {position: (name, given, kinds) for position, name, given, kinds, _ in table}
    out = []
    for position, chain, *values in g.queued:
        name, given, kinds = steps[position]
        shown = {p: COLOURS[v] if kind == "colour" else v for p, kind, v in zip(given, kinds, values, strict=True)}
        out.append({"step": name, "chain": chain, "given": shown})
    state["queued"] = out
    state["queued_at"] = g.queued_at


def _given_problem(kind: str, value: Any, players: Any) -> str | None:
    """Why `value` is not a value of this kind, or None."""
    if kind == "bool":
        return None if type(value) is bool else "true or false"
    if kind == "colour":
        return None if value in COLOURS else f"a colour ({', '.join(COLOURS)})"
    family, _, name = kind.partition(":")  # "kind:NAME": a component of the spec's kind NAME, by its id
    sizes = {"card": len(CARDS), "noble": len(NOBLES), "player": players if type(players) is int else 0}
    size = KINDS[name].size if family == "kind" else sizes.get(kind)
    if type(value) is not int:
        return "a whole number"
    if size is not None and not 0 <= value < size:
        what = f"a component of {name}" if family == "kind" else f"a {kind}"
        return f"{what} from 0 to {size - 1}"
    return None


def _entry_problems(i: int, entry: Any, table: _QueuedTable, players: Any) -> list[Problem]:
    """The problems of one saved entry of the queue."""
    where: tuple[Any, ...] = ("queued", i)
    if not isinstance(entry, dict) or set(entry) != {"step", "chain", "given"}:
        return [(where, f"queued[{i}] must be {{'step': ..., 'chain': ..., 'given': {{...}}}}, not {_shown(entry)}")]
    step = next((row for row in table if row[1] == entry["step"]), None)
    if step is None:
        known = ", ".join(row[1] for row in table)
        return [(where + ("step",), f"queued[{i}] names no queued step: {_shown(entry['step'])} (they are: {known})")]
    _, name, given, kinds, limit = step
    chain = entry["chain"]
    most = limit or _MOST_CHAIN
    if type(chain) is not int or not 1 <= chain <= most:
        return [(where + ("chain",), f"queued[{i}].chain must be a whole number from 1 to {most}, not {_shown(chain)}")]
    values = entry["given"]
    if not isinstance(values, dict) or set(values) != set(given):
        wanted = ", ".join(given)
        return [
            (where + ("given",), f"queued[{i}].given must give step {name!r} exactly: {wanted}, not {_shown(values)}")
        ]
    out: list[Problem] = []
    for p, kind in zip(given, kinds, strict=True):
        why = _given_problem(kind, values[p], players)
        if why is not None:
            out.append((where + ("given", p), f"queued[{i}].given.{p} must be {why}, not {_shown(values[p])}"))
    return out


def _queue_problems(data: State, table: _QueuedTable) -> list[Problem]:
    """Every problem of the saved queue: a list of entries, each of a queued step of the spec, given
    values of its kinds; and a queued step asking the player (the phase) at its head."""
    queued, at = data.get("queued", []), data.get("queued_at", 0)
    if not isinstance(queued, list):
        return [(("queued",), f"'queued' must be a list of queued steps, not {_shown(queued)}")]
    out: list[Problem] = []
    if type(at) is not int or not 0 <= at <= _N_STEPS:
        out.append((("queued_at",), f"'queued_at' must be a step's position, from 0 to {_N_STEPS}, not {_shown(at)}"))
    for i, entry in enumerate(queued):
        out += _entry_problems(i, entry, table, data.get("players"))
    phase = data.get("phase")
    if not out and any(row[1] == phase for row in table) and (not queued or queued[0]["step"] != phase):
        out.append((("queued",), f"in step {phase!r}, which runs when queued, 'queued' must begin with it"))
    return out


def _load_queue(g: Any, data: State, table: _QueuedTable) -> None:
    """Gives a loaded game the queue of a sound state dict (its entries as Game.queued holds them)."""
    steps = {name: (position, given, kinds) for position, name, given, kinds, _ in table}
    g.queued, g.queued_at = [], data.get("queued_at", 0)
    for entry in data.get("queued", []):
        position, given, kinds = steps[entry["step"]]
        values = [
            COLOURS.index(entry["given"][p]) if kind == "colour" else entry["given"][p]
            for p, kind in zip(given, kinds, strict=True)
        ]
        g.queued.append((position, entry["chain"], *values))
