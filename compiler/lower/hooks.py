"""The hooks: what a spec adds to the runtime's functions, lowered to functions every engine defines.

The runtime (compiler/emit/runtime) is pasted into engines whole; where a spec adds code to one of
its functions, that function calls a hook, declared with its signature in
compiler/emit/runtime/spec.py. This pass builds each hook as a statement tree, printed by the one
printer: the body for what the spec has, a body that does nothing for what it has not (so every
engine defines every hook, and the runtime reads the same names in every engine).

* ``_end_of_turn(g, step, count)``: the end-of-turn steps and end triggers (:mod:`.phases`);
* ``_reset_turn(g)``: the `reset: turn` variables given their initial values back (:mod:`.variables`);
* ``_state_json``, ``_state_problems``, ``_load_state``: the declared state and zones in a saved
  game (the runtime modules variables.py and zones.py, pasted into the engines that have them);
* ``_deal_spec_zones(g, rng)`` and ``_setup(g)``: the deal of the zones and the setup blocks (:mod:`.setup`).
"""
from __future__ import annotations

import ast

from . import ir
from .layout import EnginePlan
from .phases import lower_end_of_turn
from .pysource import docstring, printable
from .setup import lower_setup
from .tree import Def, Do, Pass, Return
from .variables import turn_resets


def _hook(name: str, params: str, body: list, doc: str) -> Def:
    return Def(name, params, body or [Pass()], docstring(printable(doc)))


def _state_calls(plan: EnginePlan, of_vars: str, of_zones: str, *args: str) -> list[ast.expr]:
    """The calls `f(args)` of the runtime's functions for the declared state (`of_vars`) and the
    zones (`of_zones`), of what the spec has, in that order."""
    names = ([of_vars] if plan.vars_table else []) + ([of_zones] if plan.zones_src else [])
    return [ir.call(f, *args) for f in names]


def lower_hooks(plan: EnginePlan) -> list[Def]:
    """Every hook of the spec interface, in the order compiler/emit/runtime/spec.py declares them."""
    problems = _state_calls(plan, "_vars_problems", "_zone_problems", "data", "n")
    saved = _state_calls(plan, "_vars_state", "_zones_state", "g", "state", "observer")
    setup = lower_setup(plan) or [_hook("_setup", "g", [], "The spec's setup blocks, run once by new_game.")]
    return [
        lower_end_of_turn(plan),
        _hook("_reset_turn", "g", turn_resets(plan.rules),
              "Every `reset: turn` variable back to its initial value, as the next turn begins."),
        _hook("_state_json", "g, state, observer",
              [Do(c) for c in saved],
              "The spec's declared state and zones, added to a saved state."),
        _hook("_state_problems", "data, n", [Return(ir.total(problems) if problems else ir.list_())],
              "Every problem of the spec's declared state and zones in a state dict."),
        _hook("_load_state", "g, data",
              [Do(c) for c in _state_calls(plan, "_load_vars", "_load_zones", "g", "data")],
              "Gives a loaded game the declared state and zones of its state dict."),
        _hook("_deal_spec_zones", "g, rng", [Do(ir.call("_deal_zones", "g", "rng"))] if plan.zones_src else [],
              "Deals the spec's own zones, after the cards and nobles."),
        *setup,
    ]
