"""Queued steps lowered: the queue a spec's `queue(...)` effects fill, and its run at the end of a turn.

A spec with queued steps (steps with `given:`, compiler/check/queue.py) gives its games one more
slot, Game.queued: the steps waiting, in order, each entry a tuple (the step's position among the
steps, the length of the chain it ends, the values it is given in its `given` order). Nothing of
this exists in the engine of a spec without queued steps (its text is what it was).

* `queue(STEP, name: value)` appends an entry (:func:`lower_queue_effect`); a step with a `limit`
  is not queued past the chain it allows, so every chain ends.
* `_end_of_turn` runs the queue after the end-of-turn steps of every turn, before the end
  triggers (:func:`lower_drain`): its head's step, as any step runs (one legal action taken, several
  asking the player, who resumes it), then the next; what a queued step queues joins the tail.
* A queued step's rules read the values it is given from the head of the queue
  (:func:`given_env`), so its legal actions, its explanations and its effects are those of its entry,
  also in a game loaded from a saved state (the `queued` key: :func:`queue_state_hooks`).
"""

from __future__ import annotations

import ast
from typing import Any

from ..front.expr import Name
from ..model import Rules
from . import ir
from .pysource import comment
from .tree import Assign, Do, If, Node, While

SLOT = "queued"  # the Game attribute, and the key of a saved state
IN_QUEUED_STEP = " queued"  # an env key no spec name can be: the effects lowered are a queued step's
# the lowering's coarse kind of each type a queued step may be given (check/definitions.PARAM_TYPES), by its name
_KINDS = {
    "int": "int",
    "bool": "bool",
    "gem": "colour",
    "colour": "colour",
    "player": "player",
    "card": "card",
    "noble": "noble",
}


def _kind(t: Any) -> str:
    return _KINDS[t.name]


def has_queue(rules: Rules) -> bool:
    """Does the spec have queued steps (and so Game.queued)?"""
    return any(s.given is not None for s in rules.steps)


def _head() -> ast.expr:
    return ir.sub(ir.attr(ir.name("g"), SLOT), 0)


def given_env(rules: Rules, decision: Any) -> dict[str, Any]:
    """The names a queued step is given, read from the head of the queue (its entry: the values from
    the third item on), and the mark that its effects run in a queued step; {} for another decision."""
    if decision.given is None:
        return {}
    env: dict[str, Any] = {IN_QUEUED_STEP: ("mark", "int", ir.sub(_head(), 1))}
    for k, (name, t) in enumerate(decision.given):
        env[name] = ("var", _kind(t), ir.sub(_head(), 2 + k))
    return env


def positions(rules: Rules) -> dict[str, int]:
    """Each step's position among the steps (as Game.step names it), by name."""
    return {s.name: i for i, s in enumerate(rules.steps)}


def lower_queue_effect(compiler: Any, name: str, args: Any, env: dict[str, Any], node: Any, located: str) -> list[Any]:
    """queue(STEP, name: value, ...): the entry appended to Game.queued (chain length one more than the
    head's in a queued step, else 1); under the step's `limit`, only while the chain is that short."""
    rules = compiler.plan.rules
    step = args[0]
    assert isinstance(step, Name)
    target = next(s for s in rules.steps if s.name == step.id)
    values = dict(zip(node.keywords, args[len(args) - len(node.keywords) :], strict=True))
    ordered = [compiler.expr(values[p], env) for p, _ in target.given]
    chain = ir.add(env[IN_QUEUED_STEP][2], 1) if IN_QUEUED_STEP in env else ir.const(1)
    entry = ir.tuple_(ir.const(positions(rules)[step.id]), chain, *ordered)
    append = Do(ir.method(ir.attr(ir.name("g"), SLOT), "append", entry))
    if target.limit is None or IN_QUEUED_STEP not in env:
        return [append]
    return [If(ir.compare(chain, "<=", ir.const(target.limit)), [append], note=comment(f"the limit of {step.id}"))]


def lower_drain(rules: Rules, runs: dict[int, tuple[Any, list[Node]]]) -> list[Node]:
    """The queue run in _end_of_turn: while it has an entry, its head's step (`runs`: position -> (the
    loop test, one round) of each queued step), then the entry dropped and the next one begun; a step
    that asks the player returns from inside, its entry still at the head, to resume with `count`."""
    if not runs:
        return []
    queued, head, count = ir.name("_queued"), ir.name("_head"), ir.name("count")
    chain: list[Node] = []
    into = chain
    for k, (position, (test, round_)) in enumerate(sorted(runs.items())):
        node = If(
            ir.compare(head, "==", ir.const(position)),
            [While(test, round_)],
            note=comment(rules.steps[position].name),
            chained=k > 0,
        )
        into.append(node)
        into = node.orelse
    return [
        Assign((queued,), ir.attr(ir.name("g"), SLOT)),
        While(
            queued,
            [
                Assign((head,), ir.sub(ir.sub(queued, 0), 0)),
                *chain,
                Do(ir.method(queued, "pop", ir.const(0))),
                Assign((count,), ir.const(0)),
            ],
            note=comment("the queued steps, in order (queue(...)), after the end-of-turn steps"),
        ),
    ]


def queue_state_hooks(rules: Rules) -> tuple[list[Node], list[ast.expr], list[Node]]:
    """The statements of the queue in _state_json, _state_problems (a term of its sum) and _load_state:
    the entries under `queued` (a step's name, its chain, what it is given by name), checked entry by
    entry when a state is loaded (_queue_problems, runtime/queue.py). Nothing without queued steps."""
    if not has_queue(rules):
        return [], [], []
    table = ir.const(
        tuple(
            (i, s.name, tuple(p for p, _ in s.given), tuple(_kind(t) for _, t in s.given), s.limit or 0)
            for i, s in enumerate(rules.steps)
            if s.given is not None
        )
    )
    save: list[Node] = [Do(ir.call("_queue_state", "g", "state", table))]
    problems: list[ast.expr] = [ir.call("_queue_problems", "data", table)]
    load: list[Node] = [Do(ir.call("_load_queue", "g", "data", table))]
    return save, problems, load
