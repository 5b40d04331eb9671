"""Queued steps (issue 28, item 4): an end-of-turn step run when an effect queues it, with the values
it is given, checked.

A step that declares `given:` (its parameters, typed as a definition's are) runs only when an
effect queues it, `queue(free_card, level: 1)`, right after the action or step that queued it, in
the order queued, each with the values of its `queue(...)`; its condition, `while` and effects read
them by name. "Whenever you gain a card, apply its ability" is then written once (a procedure
queues the step), and a free card whose ability gives another resolves in order, each choice a
decision of the engine.

This pass reads the queued steps' `given:` before any effect is typed (an action, a procedure or
a step may queue a step written after it: :func:`declared`), types each `queue(...)` against them
(E576 and E410: :func:`check_effect`, the Inferrer's "queue" hook), and proves that every chain of
queued steps ends (E577: :func:`chains_end`): a step that can queue itself, directly or through
others, declares `limit: N`, the longest chain of it a turn, and the engines drop a queue() beyond
it, so every turn ends by construction.
"""

from __future__ import annotations

from typing import Any

from ..diagnostics import Diagnostic, did_you_mean
from ..front.expr import Effect, Name, walk
from ..front.source import MapNode, ScalarNode
from ..language.types import AnyType
from .definitions import PARAM_TYPES
from .flow import MOVES, REFILLS
from .reader import RESERVED_NAMES
from .types import assignable, component_type, noun, wanted

QUEUE = "queue"  # the effect a spec writes
MAX_LIMIT = 100  # the longest chain a `limit:` may allow (each link is one more run of a step in a turn)


def install(c: Any, root: Any) -> None:
    """The Inferrer's hook for queue(...), and the queued steps it checks them against."""
    c.types.hooks["queue"] = check_effect
    c.types.queued = declared(c, root)


def declared(c: Any, root: Any) -> dict[str, tuple[tuple[str, AnyType], ...]]:
    """The steps that declare `given:` (queued steps), by name, with their parameters' types in order;
    read before the definitions and the actions, which may queue them. E106 for a parameter without
    a type this language knows (a number, a flag, a gem, a colour, a player, a card, a noble, or a
    component of one of the spec's kinds, named by its kind: `given: {city: cities}`)."""
    table = root.get("end_of_turn") if isinstance(root, MapNode) else None
    kinds = {k.name: k for k in c.kinds}
    out: dict[str, tuple[tuple[str, AnyType], ...]] = {}
    for key, entry in table.entries if isinstance(table, MapNode) else ():
        given = entry.get("given") if isinstance(entry, MapNode) else None
        if given is None:
            continue
        if not isinstance(given, MapNode) or not given.entries:
            c.r.error("E103", f"'given' in step '{key.value}' must map each value it is given to its type", given.span)
            out[str(key.value)] = ()
            continue
        params = []
        for pkey, pnode in given.entries:
            word = pnode.value if isinstance(pnode, ScalarNode) else None
            t: AnyType | None = PARAM_TYPES.get(word) if isinstance(word, str) else None
            if t is None and isinstance(word, str) and word in kinds:
                t = component_type(kinds[word])
            if t is None:
                c.r.error(
                    "E106",
                    f"'{pkey.value}' given to step '{key.value}' must have a type: one of "
                    f"{', '.join([*PARAM_TYPES, *kinds])}",
                    pnode.span,
                )
                continue
            params.append((str(pkey.value), t))
        out[str(key.value)] = tuple(params)
    return out


def hidden_names(c: Any, entry: MapNode, step: str, scope_names: dict[str, Any]) -> None:
    """E406: a name a queued step is given may not hide a name of the game (`me`, a built-in, a
    colour, a state variable, a zone, a definition): the step's rules would be typed with the game's
    name while the engine reads the value given (a `given: {me: number}` once crashed the engine)."""
    given = entry.get("given")
    for pkey, _ in given.entries if isinstance(given, MapNode) else ():
        if pkey.value in scope_names or pkey.value in RESERVED_NAMES:
            c.r.error(
                "E406",
                f"'{pkey.value}' given to step '{step}' hides the name '{pkey.value}' of the game",
                pkey.span,
                "give the value another name, in `given:` and in each queue(...) of the step",
            )


def check_effect(inferrer: Any, node: Effect, scope: Any) -> None:
    """`queue(STEP, name: value, ...)`: STEP a queued step of the spec (E576), given a value of its
    type for each of its `given` names, by name, and nothing else (E576, E410)."""
    queued: dict[str, tuple[tuple[str, AnyType], ...]] = inferrer.queued
    named = dict(zip(node.keywords, node.args[len(node.args) - len(node.keywords) :], strict=True))
    plain = node.args[: len(node.args) - len(node.keywords)]
    step = plain[0] if len(plain) == 1 and isinstance(plain[0], Name) else None
    if step is None or step.id not in queued:
        said = (
            f"'{step.id}' is not a queued step (a step with `given:`){did_you_mean(step.id, list(queued))}"
            if step is not None
            else "queue(...) names a queued step (a step with `given:`) first, then the values it is given by name"
        )
        inferrer.r.error(
            "E576",
            said,
            (step or node).span,
            f"the queued steps of this spec: {', '.join(queued) or 'none (give a step `given:` to queue it)'}",
        )
        for value in node.args[1:] if step is None else named.values():
            inferrer.infer(value, scope)
        return
    params = dict(queued[step.id])
    for name, value in named.items():
        if name not in params:
            inferrer.r.error(
                "E576",
                f"step '{step.id}' is given no '{name}'{did_you_mean(name, list(params))} "
                f"(it is given: {', '.join(params) or 'nothing'})",
                value.span,
            )
            inferrer.infer(value, scope)
            continue
        t = inferrer.infer(value, scope, params[name])
        if not assignable(t, params[name]):
            inferrer.r.error(
                "E410", f"'{name}' of step '{step.id}' needs {wanted(params[name])}, but this is {noun(t)}", value.span
            )
    missing = [name for name in params if name not in named]
    if missing:
        inferrer.r.error(
            "E576",
            f"queue({step.id}, ...) gives no value for {', '.join(repr(m) for m in missing)}: a queued step is given "
            "every value it declares, by name",
            node.span,
        )


def queued_by(stmts: Any) -> list[Effect]:
    """The `queue(...)` effects among these effects (a procedure's calls written out), in order."""
    return [x for stmt in stmts for x in walk(stmt) if isinstance(x, Effect) and x.name == QUEUE and x.args]


def target(effect: Effect) -> str:
    """The step a checked `queue(...)` names."""
    step = effect.args[0]
    assert isinstance(step, Name)
    return step.id


def chains_end(c: Any, steps: Any) -> None:
    """E577: a queued step that can queue itself again (directly, or through the steps it queues)
    declares `limit: N`, the longest chain of it in a turn; without one a free card whose ability
    gives a free card could be written to run for ever."""
    limits = {s.name: s.limit for s in steps if s.limit is not None}
    graph = {s.name: {target(e) for e in queued_by(s.effects)} for s in steps if s.given is not None}
    for name in graph:
        if name in limits or not _reaches(graph, name, name):
            continue
        effect = next(
            e for s in steps if s.name in graph for e in queued_by(s.effects) if _on_cycle(graph, name, s.name, e)
        )
        c.r.error(
            "E577",
            f"step '{name}' can queue itself again (a chain of queued steps with no end): give it `limit: N`, "
            "the longest chain of it in one turn (a queue() beyond it does nothing)",
            effect.span,
            f"every loop a spec writes ends; step '{name}' is declared at {_where(c, name)}",
        )


def _reaches(graph: dict[str, set[str]], start: str, goal: str) -> bool:
    seen: set[str] = set()
    todo = list(graph.get(start, ()))
    while todo:
        k = todo.pop()
        if k == goal:
            return True
        if k not in seen:
            seen.add(k)
            todo += graph.get(k, ())
    return False


def _on_cycle(graph: dict[str, set[str]], name: str, owner: str, effect: Effect) -> bool:
    """Is this queue(...) of step `owner` a link of a chain from `name` back to itself?"""
    to = target(effect)
    return (owner == name or _reaches(graph, name, owner)) and (to == name or _reaches(graph, to, name))


def _where(c: Any, name: str) -> str:
    span = c.spans.get(f"end_of_turn.{name}")
    return f"{span.file}:{span.line}:{span.col}" if span is not None else "its entry"


def given_moved(c: Any, given: Any, effects: Any) -> None:
    """E576: a card or noble given to a queued step is a value (which card), not a place it was chosen
    from, so the base game's effects that move one from where it was chosen (acquire, reserve, bury,
    visit, refill) cannot take it: the step chooses the card it moves (`choose:`), and its condition
    may compare it with what it is given."""
    names = {name for name, _ in given or ()}
    for x in (x for stmt in effects for x in walk(stmt)):
        if isinstance(x, Effect) and x.name in (*MOVES, *REFILLS) and x.args and isinstance(x.args[0], Name):
            if x.args[0].id in names:
                c.r.error(
                    "E576",
                    f"{x.name}({x.args[0].id}) moves a card or noble given to this queued step: what a step is "
                    "given says which one, not where it lies; choose it in the step (`choose:`) and compare",
                    x.span,
                )


def read_limit(c: Any, entry: MapNode, name: str, given: Any) -> int | None:
    """A queued step's `limit:`, a whole number from 1 to MAX_LIMIT (E577 beside `given`'s absence)."""
    node = entry.get("limit")
    if node is None:
        return None
    value = node.value if isinstance(node, ScalarNode) else None
    if given is None or type(value) is not int or not 1 <= value <= MAX_LIMIT:
        why = (
            "applies to a queued step (one with `given:`)"
            if given is None
            else f"is a whole number from 1 to {MAX_LIMIT}, not {value!r}"
        )
        c.r.error("E577", f"'limit' of step '{name}' {why}", node.span)
        return None
    return value


def unqueued_steps(rules: Any) -> list[Diagnostic]:
    """E578 (warning, `check -W`): a queued step that no `queue(...)` names never runs; most often the
    step was renamed, or the effect that queues it was left out of a variant that replaced it."""
    bodies = [*(d.effects for d in (*rules.actions, *rules.steps)), *(b.effects for b in rules.setup)]
    bodies += [(d.body,) for d in rules.definitions]  # a value definition holds no effect: walks to none
    named = {target(e) for stmts in bodies for e in queued_by(stmts)}
    return [
        Diagnostic(
            "E578",
            f"step '{s.name}' runs only when a queue(...) names it, and none does: it never runs",
            s.span,
            (f"queue it from an action, a step or a procedure (`queue({s.name}, ...)`), or remove 'given:'",),
            severity="warning",
        )
        for s in rules.steps
        if s.given is not None and s.name not in named
    ]
