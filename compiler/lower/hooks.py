"""The hooks: what a spec adds to the runtime's functions, lowered to functions every engine defines.

The runtime (compiler/emit/runtime) is pasted into engines whole; where a spec adds code to one of
its functions, that function calls a hook, declared with its signature in
compiler/emit/runtime/spec.py. This pass builds each hook as a statement tree, printed by the one
printer: the body for what the spec has, a body that does nothing for what it has not (so every
engine defines every hook, and the runtime reads the same names in every engine).

* ``_end_of_turn(g, step, count)``: the end-of-turn steps and end triggers (:mod:`.phases`);
* ``_reset_turn(g)``: the `reset: turn` variables given their initial values back (:mod:`.variables`),
  and the actions that do not end the turn forgotten (Game.taken);
* ``_keep_turn(g, d)`` and ``_turn_again(g)``: an action that does not end the turn (`ends_turn:
  false`) and an extra turn (`extra_turn()`): see "The turn" in rulespec/README.md;
* ``_state_json``, ``_state_problems``, ``_load_state``: the declared state and zones in a saved
  game (the runtime modules variables.py and zones.py, pasted into the engines that have them);
* ``_deal_spec_zones(g, rng)`` and ``_setup(g)``: the deal of the zones and the setup blocks (:mod:`.setup`).
"""

from __future__ import annotations

import ast

from ..front.expr import Effect, walk
from ..language.effects import named
from ..model import Rules
from . import base_columns, ir
from .layout import EnginePlan
from .phases import lower_end_of_turn, lower_queue_runner
from .pysource import docstring, printable
from .queue import queue_state_hooks
from .setup import lower_setup
from .tree import Assign, Def, Do, For, If, Node, Pass, Return
from .variables import turn_resets


def _hook(name: str, params: str, body: list, doc: str) -> Def:
    return Def(name, params, body or [Pass()], docstring(printable(doc)))


def _state_calls(plan: EnginePlan, of_vars: str, of_zones: str, *args: str) -> list[ast.expr]:
    """The calls `f(args)` of the runtime's functions for the declared state (`of_vars`) and the
    zones (`of_zones`), of what the spec has, in that order."""
    names = ([of_vars] if plan.vars_table else []) + ([of_zones] if plan.zones_src else [])
    return [ir.call(f, *args) for f in names]


def keeps_turn(rules: Rules) -> tuple[int, ...]:
    """The decision indexes of the actions that do not end the turn (`ends_turn: false`)."""
    return tuple(i for i, a in enumerate(rules.actions) if not a.ends_turn)


def gives_turns(rules: Rules) -> bool:
    """Does an action or step give a turn (an effect such as extra_turn())? The engine then counts
    extra turns (Game.extra), and its saved games say whether one is owed."""
    return any(
        isinstance(node, Effect) and any(d.gives_turn for d in named(node.name))
        for decision in rules.actions + rules.steps
        for stmt in decision.effects
        for node in walk(stmt)
    )


def _keep_turn(rules: Rules) -> list:
    """After an action that does not end the turn, the same player chooses again while some action is
    legal: Game.taken remembers it (legal at most once a turn, so a turn always ends)."""
    if not keeps_turn(rules):
        return [Return(ir.const(False))]
    g, d, legal = ir.name("g"), ir.name("d"), ir.name("legal")
    return [
        If(
            ir.compare(d, "in", ir.name("_KEEPS_TURN")),
            [
                Assign((ir.attr(g, "taken"),), ir.binop(ir.const(1), "<<", d), "|="),
                Assign((legal,), ir.method(g, "_compute_legal")),
                If(legal, [Assign((ir.attr(g, "_legal"),), legal), Return(ir.const(True))]),
            ],
        ),
        Return(ir.const(False)),
    ]


def _turn_again(rules: Rules) -> list:
    """An extra turn owed (Game.extra 1) is played now (2): Game.apply's advance to the next seat,
    which follows, then comes back to the same seat in the same round (one seat back first; the
    seat before the first is -1, so no round is counted). Otherwise no extra turn is played (0)."""
    if not gives_turns(rules):
        return []
    extra = ir.attr(ir.name("g"), "extra")
    return [
        If(
            ir.compare(extra, "==", ir.const(1)),
            [Assign((extra,), ir.const(2)), Assign((ir.attr(ir.name("g"), "_cp"),), ir.const(1), "-=")],
            [Assign((extra,), ir.const(0))],
        )
    ]


WILD_SPENT = "wild_spent"  # the Game attribute of the places set aside for the payment waiting (`wilds`)


def _wild_hooks(plan: EnginePlan) -> tuple[list[Node], list[Node], list[ast.expr], list[Node]]:
    """The statements of the set-aside components of a payment (`wilds`) in _set_aside, _state_json,
    _state_problems (terms of its sum) and _load_state: the places of the acting player's holding set
    aside so far, kept in the saved game (`wild_spent`) while the payment waits. Nothing without."""
    if not plan.wild_places:
        return [], [], [], []
    g = ir.name("g")
    spent = ir.attr(g, WILD_SPENT)
    options = ir.listcomp(ir.add("_PAY_BASE", "i"), "i", ir.call(ir.sub("_PAYOPTS", "d"), g, "args"))
    set_aside = [
        Do(ir.method(spent, "append", ir.minus(ir.sub(ir.sub("_WILD_PLACES", "place"), 1), 1))),
        Assign((ir.attr(g, "_legal"),), options),
    ]
    save: list[Node] = [Assign((ir.sub("state", ir.const(WILD_SPENT)),), ir.call("list", spent))]
    problems: list[ast.expr] = [ir.call("_wild_spent_problems", "data")]
    load: list[Node] = [Assign((spent,), ir.call("list", ir.method("data", "get", ir.const(WILD_SPENT), ir.tuple_())))]
    return set_aside, save, problems, load


def _recount(plan: EnginePlan) -> list[Node]:
    """Where a variable sets a card's bonus colour in play (`bonus_colour: true`), the bonuses of a
    loaded game counted again once its variables are loaded, each card in its colour in play (the
    runtime counted them in their printed colours). Nothing without one."""
    rules = plan.rules
    if base_columns.colour_variable(rules) is None:
        return []
    g, seat, card = ir.name("g"), ir.name("_p"), ir.name("_c")
    bonuses = ir.sub(ir.attr(g, "_bon"), seat)
    return [
        For(
            seat,
            ir.call("range", ir.attr(g, "_n")),
            [
                Assign((bonuses,), ir.mul(ir.list_(ir.const(0)), ir.call("len", "GEMS"))),
                For(
                    card,
                    ir.sub(ir.attr(g, "_bought"), seat),
                    [
                        Assign(
                            (ir.sub(bonuses, base_columns.colour_of(rules, card)),),
                            base_columns.bonus_given(rules, card),
                            "+=",
                        )
                    ],
                ),
            ],
        )
    ]


def lower_hooks(plan: EnginePlan) -> list[Def]:
    """Every hook of the spec interface, in the order compiler/emit/runtime/spec.py declares them."""
    set_aside, save_spent, spent_problems, load_spent = _wild_hooks(plan)
    save_queue, queue_problems, load_queue = queue_state_hooks(plan.rules)
    save_spent, load_spent = save_spent + save_queue, load_spent + load_queue
    problems = _state_calls(plan, "_vars_problems", "_zone_problems", "data", "n") + spent_problems + queue_problems
    saved = _state_calls(plan, "_vars_state", "_zones_state", "g", "state", "observer")
    setup = lower_setup(plan) or [_hook("_setup", "g", [], "The spec's setup blocks, run once by new_game.")]
    return [
        lower_end_of_turn(plan),
        *lower_queue_runner(plan),
        _hook(
            "_reset_turn",
            "g",
            turn_resets(plan.rules)
            + ([Assign((ir.attr(ir.name("g"), "taken"),), ir.const(0))] if keeps_turn(plan.rules) else []),
            "Every `reset: turn` variable back to its initial value, as the next turn begins.",
        ),
        _hook(
            "_keep_turn",
            "g, d",
            _keep_turn(plan.rules),
            "Does the action of decision d leave the turn to its player (ends_turn: false)?",
        ),
        _hook(
            "_turn_again",
            "g",
            _turn_again(plan.rules),
            "Before the next seat is found: an extra turn owed is played (extra_turn()).",
        ),
        _hook(
            "_set_aside",
            "g, place, d, args",
            set_aside,
            "A component set aside to be spent as wild tokens by the payment waiting (wilds).",
        ),
        _hook(
            "_state_json",
            "g, state, observer",
            [Do(c) for c in saved] + save_spent,
            "The spec's declared state and zones, added to a saved state.",
        ),
        _hook(
            "_state_problems",
            "data, n",
            [Return(ir.total(problems) if problems else ir.list_())],
            "Every problem of the spec's declared state and zones in a state dict.",
        ),
        _hook(
            "_load_state",
            "g, data",
            [Do(c) for c in _state_calls(plan, "_load_vars", "_load_zones", "g", "data")] + load_spent + _recount(plan),
            "Gives a loaded game the declared state and zones of its state dict.",
        ),
        _hook(
            "_deal_spec_zones",
            "g, rng",
            [Do(ir.call("_deal_zones", "g", "rng"))] if plan.zones_src else [],
            "Deals the spec's own zones, after the cards and nobles.",
        ),
        *setup,
    ]
