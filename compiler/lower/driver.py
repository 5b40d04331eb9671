"""lower(): the rule model to an EnginePlan, pass by pass: the action table, the statement
trees of every rule, the shapes of the face-up loops, liveness, then the one printer."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

from ..check.notation import fill as notation_text  # check reads the same texts (E522)
from ..check.notation import payment_words
from ..check.sizes import wild_extra, wild_places
from ..front.expr import Expr
from ..model import Decision, Rules
from . import variables as state
from .decisions import DecisionLowering
from .definitions import inline_rules, lower_prestige
from .hooks import lower_hooks
from .layout import DecisionPlan, EnginePlan, LoweringBug, layout_param, notation_form, payment_vectors
from .optimise import optimise
from .phases import lower_action_phase, lower_ranking, payments_helper
from .printer import render
from .pysource import Code
from .queue import AT_SLOT as QUEUE_AT_SLOT
from .queue import SLOT as QUEUE_SLOT
from .queue import has_queue
from .shapes import every_face_up_slot, expanded, shape_face_up_loops
from .tree import Def, Table, bound_names, reads, tidy
from .worth import spec_worth, worth_payments_helper
from .zones import plan_zones


def lower(rules: Rules, explain: Callable[[Expr | None, Rules, Decision], dict[str, str]] | None = None) -> EnginePlan:
    """Lay out the action table and generate the code of every rule. `explain` words a condition
    an action fails for a player, per sheet language (:func:`compiler.sheets.refusals.refusal_words`)."""
    rules = inline_rules(rules)  # calls of definitions written out: every pass below sees plain expressions
    plan = EnginePlan(
        rules=rules,
        gems=rules.gems,
        colours=rules.colours,
        levels=rules.levels,
        max_face_up=max(p.face_up for p in rules.players),
        max_nobles=max(p.nobles for p in rules.players),
        max_gold=max(p.gold for p in rules.players),
        payments=[],
        decisions=[],
        actions=[],
        action_strings=[],
        explain=explain,
    )
    if rules.variables:  # the declared state: Game slots, the saved game's version 2, the turn resets
        plan.extra_slots += state.extra_slots(rules)
        plan.vars_table = state.vars_table(rules)
        plan.state_version = state.STATE_VERSION
    plan_zones(plan)  # nothing for a spec without zones
    if has_queue(rules):  # the steps waiting to run (compiler/lower/queue.py)
        plan.extra_slots += [(QUEUE_SLOT, False, ()), (QUEUE_AT_SLOT, False, 0)]
    plan.worth = spec_worth(rules)
    decisions = (*rules.actions, *rules.steps)
    plan.payments = payment_vectors(len(rules.gems), plan.max_gold + wild_extra(decisions), plan.worth)
    for zone, limit in wild_places(decisions).items():  # the places components are spent from
        plan.wild_firsts[zone] = len(plan.wild_places)
        plan.wild_places += [(zone, k + 1) for k in range(limit)]
    plan.helpers.append(payments_helper(len(rules.gems)) if not plan.worth else worth_payments_helper(len(rules.gems)))
    _lay_out_actions(plan)
    _lay_out_payment_step(plan)
    _refuse_actions_written_alike(plan)
    trees = _lower_rules(plan)
    prestige = lower_prestige(plan)  # before the helpers are kept and printed: it may make a table
    _drop_unused_helpers(plan, trees, [node for part in prestige for node in part])
    _write(plan, trees, prestige)
    return plan


def _lay_out_actions(plan: EnginePlan) -> None:
    """One id per action of every decision, and how each is written."""
    rules, base = plan.rules, 0
    for index, (decision, is_step) in enumerate([(a, False) for a in rules.actions] + [(s, True) for s in rules.steps]):
        layouts = [layout_param(p, plan) for p in decision.params]
        dp = DecisionPlan(decision, index, is_step, base, 0, layouts)
        ids = dp.id_layouts
        count = 1
        for lay in ids:
            count *= lay.size
        dp.count = count
        for combo in itertools.product(*[range(lay.size) for lay in ids]):
            args = tuple(lay.values[i] for lay, i in zip(ids, combo, strict=True))
            labels = {lay.param.name: lay.labels[i] for lay, i in zip(ids, combo, strict=True)}
            if dp.deferred is not None:
                labels[dp.deferred.param.name] = ""  # chosen in the payment step
            plan.actions.append((index, args))
            plan.action_strings.append(notation_text(decision.notation, labels))
        base += count
        plan.decisions.append(dp)
        plan.notation_forms.append(notation_form(dp, plan))
        for p in decision.params:
            if p.domain == "reserved":
                plan.max_reserved = max(plan.max_reserved, p.slots)
    plan.pay_base = base


def _lay_out_payment_step(plan: EnginePlan) -> None:
    """The payment step: when a purchase can be paid in several ways, the player then chooses
    one (every distinct payment stays reachable, one decision each)."""
    rules = plan.rules
    if not any(dp.deferred is not None for dp in plan.decisions):
        plan.pay_base = -1
        return
    clash = next((dp.decision for dp in plan.decisions if dp.decision.name == "payment"), None)
    if clash is not None:
        raise LoweringBug(
            "'payment' names the step in which a purchase is paid; give this one another name", clash.span
        )
    plan.pay_index = len(plan.decisions)
    for pi, vec in enumerate(plan.payments):
        plan.actions.append((plan.pay_index, (pi,)))
        paid = " ".join(payment_words(rules.gems, vec))
        wild = rules.wild  # the payment step is written with the spec's wild colour
        plan.action_strings.append(f"pay {wild} for {paid}" if paid else f"pay without {wild}")
    for zone, place in plan.wild_places:  # a component set aside as wild tokens, by its place
        plan.actions.append((plan.pay_index, (len(plan.actions) - plan.pay_base,)))
        plan.action_strings.append(f"pay with {zone} {place}")
    example = max(range(len(plan.payments)), key=lambda i: (min(2, len([n for n in plan.payments[i] if n])), -i))
    stands = f"GEMS is the gem colour each {rules.wild} token stands for"
    if plan.worth:
        stands += f", written {rules.gems[0]}*2 when it stands for 2 gems"
    plan.notation_forms += [
        (f"pay {rules.wild} for GEMS", f"{stands}, as in '{plan.action_strings[plan.pay_base + example]}'", False),
        (f"pay without {rules.wild}", "", False),
    ]
    if plan.wild_places:
        plan.notation_forms.append(
            ("pay with ZONE PLACE", "a component of yours at PLACE (from 1) of ZONE, spent as wild tokens", False)
        )


def _refuse_actions_written_alike(plan: EnginePlan) -> None:
    seen: dict[str, int] = {}
    for a, text in enumerate(plan.action_strings):
        if text in seen:
            names = [
                plan.decisions[plan.actions[i][0]].decision.name
                if plan.actions[i][0] != plan.pay_index
                else "the payment step"
                for i in (seen[text], a)
            ]
            span = plan.decisions[plan.actions[a][0]].decision.span if plan.actions[a][0] != plan.pay_index else None
            raise LoweringBug(
                f"two actions are written the same way, '{text}' ({names[0]} and {names[1]}); "
                "make their notations differ",
                span,
            )
        seen[text] = a


def _lower_rules(plan: EnginePlan) -> dict:
    """The statement tree of every rule function, keyed by (decision index or None, kind)."""
    trees: dict = {}
    # Legal code first: it decides whether the effects keep Game.face_up_costs in step.
    for dp in plan.decisions:
        if dp.is_step or dp.decision.only_when_stuck:  # the other actions are blocks of the fused function
            trees[dp.index, "legal"] = DecisionLowering(plan, dp).legal()
    trees[None, "action_phase"] = lower_action_phase(plan)
    _shape_face_up_loops(plan, trees)
    for dp in plan.decisions:
        low = DecisionLowering(plan, dp)
        trees[dp.index, "apply"] = low.apply()
        trees[dp.index, "why"] = low.why()
        if dp.deferred is not None:
            trees[dp.index, "payopts"] = low.payopts()
    trees[None, "rank"] = lower_ranking(plan)
    trees[None, "hooks"] = lower_hooks(plan)
    return {key: [_tidy(node) for node in nodes] for key, nodes in trees.items()}


def _shape_face_up_loops(plan: EnginePlan, trees: dict) -> None:
    """The face-up loops the legal code left nested (see LegalLowering._flat): the full-market
    shortcut where the engine keeps Game.face_up_costs, else nested loops over the market."""
    if plan.face_up_costs:
        for key in trees:
            trees[key] = shape_face_up_loops(trees[key], plan, lambda loop, after: every_face_up_slot(loop, plan))
    for key in trees:
        trees[key] = shape_face_up_loops(trees[key], plan, lambda loop, after: expanded(loop, plan))


def _tidy(node):
    """A rule function optimised (:mod:`.optimise`), then its unused bindings dropped."""
    if not isinstance(node, Def):
        return node
    node = optimise(node)
    return Def(node.name, node.params, tidy(node.body), node.doc)


def _helper_name(node) -> str:
    if isinstance(node, (Def, Table)):
        return node.name
    return bound_names(node.targets[0])[0]


def _drop_unused_helpers(plan: EnginePlan, trees: dict, apart: list[Any]) -> None:
    """Drop the helper tables that no generated code reads (a lowering may make one and then
    find a cheaper form, e.g. bit counts folded into a table of ids); `apart`: the statements
    lowered apart from the rule functions (the prestige sources)."""
    read = set().union(*(reads(node) for nodes in [*trees.values(), apart] for node in nodes))
    kept = []
    for helper in plan.helpers:
        others = set().union(*(reads(h) for h in plan.helpers if h is not helper))
        if _helper_name(helper) in read | others:
            kept.append(helper)
    plan.helpers = kept


def _write(plan: EnginePlan, trees: dict, prestige: list[list[Any]]) -> None:
    """The one printer writes every tree: pysource.Code, the only text the engine template writes
    (built from compiled expressions, names made by pysource.identifier, literals and comments
    made by pysource, never from a spec's text as it is)."""

    def text(key) -> Code:
        return Code("\n\n\n".join(render([node]) for node in trees[key])) if key in trees else Code("")

    plan.action_phase_src, plan.rank_src = text((None, "action_phase")), text((None, "rank"))
    plan.hooks_src = text((None, "hooks"))
    plan.helpers = [Code(render([h])) for h in plan.helpers]
    plan.prestige_src = Code("\n\n\n".join(render(part) for part in prestige))
    for dp in plan.decisions:
        dp.legal_src, dp.apply_src = text((dp.index, "legal")), text((dp.index, "apply"))
        dp.why_src, dp.payopts_src = text((dp.index, "why")), text((dp.index, "payopts"))
