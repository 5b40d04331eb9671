"""Queued steps lowered: the queue a spec's `queue(...)` effects fill, and where the turn runs it.

A spec with queued steps (steps with `given:`, compiler/check/queue.py) gives its games two more
slots: Game.queued, the steps waiting, in order, each entry a tuple (the step's position among the
steps, the length of the chain it ends, the values it is given in its `given` order), and
Game.queued_at (below). Nothing of this exists in the engine of a spec without queued steps (its
text is what it was).

* `queue(STEP, name: value)` appends an entry (:func:`lower_queue_effect`); a step with a `limit`
  is not queued past the chain it allows, so every chain ends.
* `_end_of_turn` runs the queue (`_run_queue`, :func:`queue_runner`) before each end-of-turn step
  and before the end triggers (:func:`drain_before`), so what an action or a step queues runs right
  after it: its head's step, as any step runs (one legal action taken, several asking the player,
  who resumes it: :func:`resume_queue`), then the next; what a queued step queues joins the tail.
  Game.queued_at keeps where the queue runs, for the steps to go on from there.
* A queued step's rules read the values it is given from the head of the queue
  (:func:`given_env`), so its legal actions, its explanations and its effects are those of its entry,
  also in a game loaded from a saved state (the `queued` and `queued_at` keys: :func:`queue_state_hooks`).
"""

from __future__ import annotations

import ast
from typing import Any

from ..front.expr import Name
from ..language.types import Comp
from ..model import Rules
from . import ir
from .pysource import comment, docstring, printable
from .tree import Assign, Def, Do, If, Node, Return, While
from .zones import COMPONENT

SLOT = "queued"  # the Game attribute, and the key of a saved state
AT_SLOT = "queued_at"  # the position of the end-of-turn step the queue runs before (a saved state's key too)
RUNNER = "_run_queue"  # the function that runs the queue
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
    """A component of a spec's own kind is its id, checked against the kind's size: `kind:NAME`."""
    return f"kind:{t.kind}" if isinstance(t, Comp) else _KINDS[t.name]


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
        tag = COMPONENT + t.kind if isinstance(t, Comp) else _kind(t)  # a component: its kind's columns
        env[name] = ("var", tag, ir.sub(_head(), 2 + k))
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


def queue_runner(rules: Rules, runs: dict[int, tuple[Any, list[Node]]], head: list[Node]) -> Def:
    """def _run_queue(g, count): while the queue has an entry, its head's step (`runs`: position -> (the
    loop test, one round) of each queued step; `head`: the locals their tests read), then the entry
    dropped and the next one begun; True when a step asks the player (it returns from inside, its
    entry still at the head, to resume with `count`: resume_queue)."""
    queued, step, count = ir.name("_queued"), ir.name("_head"), ir.name("count")
    chain: list[Node] = []
    into = chain
    for k, (position, (test, round_)) in enumerate(sorted(runs.items())):
        node = If(
            ir.compare(step, "==", ir.const(position)),
            [While(test, round_)],
            note=comment(rules.steps[position].name),
            chained=k > 0,
        )
        into.append(node)
        into = node.orelse
    body: list[Node] = [
        *head,
        Assign((queued,), ir.attr(ir.name("g"), SLOT)),
        While(
            queued,
            [
                Assign((step,), ir.sub(ir.sub(queued, 0), 0)),
                *chain,
                Do(ir.method(queued, "pop", ir.const(0))),
                Assign((count,), ir.const(0)),
            ],
        ),
        Return(ir.const(False)),
    ]
    doc = docstring(printable("The queued steps, head first, until none is left; True: a step asks the player."))
    return Def(RUNNER, "g, count", body, doc)


def resume_queue(queued: list[int]) -> list[Node]:
    """At the head of _end_of_turn: a queued step that asked the player (Game.step its position) takes the
    answer and the queue runs on; the end-of-turn steps then go on from where the queue ran
    (Game.queued_at). Nothing without queued steps."""
    if not queued:
        return []
    step, count = ir.name("step"), ir.name("count")
    # `count`: an answer resumes a step (a turn's end-of-turn steps begin at 0 with count 0, and a
    # queued step may be the first step: that is no resumption)
    return [
        If(
            ir.and_(count, ir.compare(step, "in", ir.const(tuple(queued)))),
            [
                If(ir.call(RUNNER, "g", count), [Return(ir.const(True))]),
                Assign((ir.tuple_(step, count),), ir.tuple_(ir.attr(ir.name("g"), AT_SLOT), 0)),
            ],
            note=comment("a queued step resumes"),
        )
    ]


def drain_before(position: int, queued: list[int], last: bool = False) -> list[Node]:
    """The queue run before the end-of-turn step at `position` (or, `last`, before the end triggers),
    so that what an action or a step queues runs after it: where it runs is kept (Game.queued_at)
    for a step that asks the player. Not when a step resumes (`count`: its actions done), whose queue
    runs once it is over. Nothing without queued steps."""
    if not queued:
        return []
    g = ir.name("g")
    test = ir.attr(g, SLOT) if last else ir.and_(ir.not_(ir.name("count")), ir.attr(g, SLOT))
    return [
        If(
            test,
            [
                Assign((ir.attr(g, AT_SLOT),), ir.const(position)),
                If(ir.call(RUNNER, "g", 0), [Return(ir.const(True))]),
            ],
            note=comment("what was queued runs now (queue(...))"),
        )
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
