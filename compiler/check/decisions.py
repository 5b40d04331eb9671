"""Pass 4, check: the decisions - the `actions` a player chooses from and the `end_of_turn` steps.

Each decision is read into a :class:`~compiler.model.Decision`: its choices
(:mod:`compiler.check.choices`), a notation that shows every choice (E506), a condition and
effects that type (:mod:`compiler.check.types`) and move cards and tokens sensibly
(:mod:`compiler.check.flow`), a step's repetition that ends (:mod:`compiler.check.termination`).
Once a decision makes sense, what in it could stop an engine (:mod:`compiler.check.bounds`) or
can never hold (E507) is reported; across decisions, names (E519) and notations (E522) are
told apart.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from ..diagnostics import Diagnostic, did_you_mean
from ..front.expr import Bool, Expr
from ..front.source import MapNode, ScalarNode, SeqNode
from ..model import REPEATS, RESOLVES, Decision, Param
from . import bounds as bounds_mod
from . import notation as notation_mod
from . import queue as queue_mod
from . import termination
from . import zones as zones_mod
from .choices import choices, payment_last, price_below_zero, sized_worth
from .flow import card_flow, pay_flow
from .procedures import calls_broken, through_calls
from .reader import Checker
from .types import BOOL, INT, Scope, tested

# The phases an engine names of its own (Game.phase: the action phase, a game over, a purchase
# waiting for its payment); a step's name is a phase too, so no action or step may take one.
ENGINE_PHASES = {
    "action": "a player choosing an action",
    "over": "a game that has ended",
    "payment": "a purchase waiting for its payment",
}
_PLACEHOLDER = re.compile(r"\{([^{}]*)\}")


class _Repeat(NamedTuple):
    """How a step repeats in a turn (an action: once, by choice)."""

    while_: Expr | None = None
    max_: Expr | None = None
    repeat: str = "once"
    resolve: str = "choice"


def decisions(c: Checker, root, section, scope_names, facts, is_step, required=True) -> tuple[Decision, ...]:
    """The actions (`is_step` false) or the end-of-turn steps of a spec, in order."""
    table = c.node(root, section, MapNode, required=required)
    out = []
    for key, entry in table.entries if table else ():
        if not isinstance(entry, MapNode):
            c.r.error("E103", f"'{key.value}' must be a mapping", entry.span)
            continue
        decision = read_decision(c, str(key.value), key, entry, scope_names, facts, is_step, section)
        if decision is not None:
            out.append(decision)
    if required and table is not None and not out and not c.resolved.incomplete:
        c.r.error("E505", "a spec needs at least one action", table.span)
    if is_step:
        queue_mod.chains_end(c, out)
    else:
        stuck = [d for d in out if d.only_when_stuck]
        if len(stuck) > 1:
            c.r.error("E505", "only one action can be the one taken when stuck", stuck[1].span)
        _turns_end(c, out)
    return tuple(out)


def _turns_end(c: Checker, actions: list[Decision]) -> None:
    """E570: a turn always ends. An action with `ends_turn: false` is legal at most once a turn
    (the engine counts them), so a turn ends once some action that ends it is taken; the spec must
    have one, and the action taken when stuck (the one left when nothing else is) must be one."""
    free = [d for d in actions if not d.ends_turn]
    for d in free:
        if d.only_when_stuck:
            c.r.error(
                "E570",
                f"action '{d.name}' is taken only when stuck, so it must end the turn: a player "
                "with nothing else to do would be asked again",
                c.ends_turn_spans.get(d.name, d.span),
            )
    if free and len(free) == len(actions):
        c.r.error(
            "E570",
            "no action of this spec ends the turn: give at least one action `ends_turn: true` (the default)",
            c.ends_turn_spans.get(free[0].name, free[0].span),
            "an action with `ends_turn: false` is taken at most once a turn, before one that ends it",
        )


def read_decision(c: Checker, name, key, entry, scope_names, facts, is_step, section) -> Decision | None:
    """One action or step; None when its condition cannot be read (its problems reported)."""
    kind = "step" if is_step else "action"
    start = len(c.r.diagnostics)
    where = f" in {kind} '{name}'"
    path = f"{section}.{name}"
    c.spans[path] = key.span
    if name in ENGINE_PHASES:
        article = "an" if kind == "action" else "a"
        c.r.error(
            "E518",
            f"'{name}' is a phase of the engines ({ENGINE_PHASES[name]}) and cannot name {article} {kind}",
            key.span,
            f"the engines' own phases are {', '.join(repr(p) for p in ENGINE_PHASES)}: choose another name",
        )
    title = c.text(entry, "title", required=False, default=name.replace("_", " "))
    notation, notation_node = c.scalar(entry, "notation", str, default=name, where=where)
    if notation_node is not None:
        c.notation_spans[(is_step, name)] = notation_node.span
    given = c.types.queued.get(name) if is_step and entry.get("given") is not None else None
    if given is not None:  # a queued step reads what it is given by name (compiler/check/queue.py)
        scope_names = {**scope_names, **dict(given)}
    elif entry.get("given") is not None:
        c.r.error("E505", "'given' applies to end-of-turn steps (queued ones), not to actions", entry.key_span("given"))
    params, scope, set_sizes = choices(c, entry, scope_names, where, path)
    if notation_node is not None:
        notation_problems(c, notation, notation_node, params, kind)
    only_when_stuck, _ = c.scalar(entry, "only_when_stuck", bool, required=False, default=False)
    ends_turn, ends_turn_node = c.scalar(entry, "ends_turn", bool, required=False, default=True)
    if ends_turn_node is not None:
        c.ends_turn_spans[name] = ends_turn_node.span
    condition, condition_ok = _condition(c, entry, key, kind, name, bool(only_when_stuck), scope, path)
    effects = _effects(c, entry, scope, condition, params, path)
    queue_mod.given_moved(c, given, effects)
    how = _step_repeat(c, entry, key, scope, where, bool(only_when_stuck)) if is_step else _action_once(c, entry)
    payment_last(c, params, kind, how.resolve)
    levels = (min(facts.levels, default=1), max(facts.levels, default=1))
    facts_here = facts.but(set_sizes=set_sizes, ranges={p.name: levels for p in params if p.domain == "deck"})
    if len(c.r.diagnostics) == start:  # every expression makes sense: can one stop the engine?
        params = _hazards(c, name, key, condition, effects, params, how, facts_here)
    if condition_ok and c.base_tables_read:
        never = bounds_mod.never_reasons(condition, bounds_mod.Bounds(facts_here))
        if never:
            c.r.error(
                "E507",
                f"{kind} '{name}' can never be taken: this condition never holds in any game under this spec",
                never[0].span,
            )
    if condition is None:
        return None
    return Decision(
        name=name,
        title=title,
        notation=str(notation),
        params=tuple(params),
        condition=condition,
        effects=tuple(effects),
        span=key.span,
        only_when_stuck=bool(only_when_stuck),
        ends_turn=bool(ends_turn),
        while_=how.while_,
        repeat=how.repeat,
        max_=how.max_,
        resolve=how.resolve,
        note=c.note(entry),
        given=given,
        limit=queue_mod.read_limit(c, entry, name, given) if is_step else None,
    )


def notation_problems(c: Checker, notation: str, notation_node: ScalarNode, params: list[Param], kind: str) -> None:
    """E506: a notation shows each choice once as {name}, its optional parts [paired], and words."""
    stray = re.search(r"[{}]", _PLACEHOLDER.sub("", notation))
    if stray:  # one error for a broken brace, not one for each choice it hides
        c.r.error(
            "E506",
            f"notation has a '{stray[0]}' without its pair: write each choice as "
            f"{{name}} ({', '.join('{' + p.name + '}' for p in params) or 'no choices here'})",
            notation_node.span,
        )
        return
    if _bracket_problem(notation):
        c.r.error(
            "E506",
            f"notation {_bracket_problem(notation)}: an optional part is written "
            "[words {choice}], once, not inside another",
            notation_node.span,
        )
        return
    shown = _PLACEHOLDER.findall(notation)
    for placeholder in shown:
        if placeholder not in {p.name for p in params}:
            c.r.error(
                "E506",
                f"notation shows '{{{placeholder}}}', which is not a choice of this {kind}"
                f"{did_you_mean(placeholder, [p.name for p in params])}",
                notation_node.span,
            )
    for p in params:
        if p.name not in shown:
            c.r.error("E506", f"notation must show every choice; '{{{p.name}}}' is missing", notation_node.span)
    words = _PLACEHOLDER.sub("", notation).replace("[", " ").replace("]", " ").split()
    if not words or not all(re.fullmatch(r"[a-z0-9_]+", w) for w in words):
        c.r.error(
            "E506", "notation starts with a lower-case word and uses words and {choices} only", notation_node.span
        )


def _bracket_problem(notation: str) -> str:
    """What is wrong with the [optional parts] of a notation, or '' when they pair up."""
    depth = 0
    for ch in notation:
        if ch == "[":
            if depth:
                return "opens a '[' inside another"
            depth = 1
        elif ch == "]":
            if not depth:
                return "has a ']' without its '['"
            depth = 0
    return "has a '[' without its ']'" if depth else ""


def _condition(c: Checker, entry, key, kind, name, only_when_stuck: bool, scope: Scope, path: str):
    """The decision's condition (true when not given) and whether it typed as a truth. The action
    taken when stuck may have one too: it is then required only where its condition holds."""
    condition_node = entry.get("condition")
    condition = c.expression(condition_node, "condition") if condition_node is not None else Bool(True, key.span)
    condition_ok = False
    if condition is not None:
        before = len(c.r.diagnostics)
        c.types.expect(condition, scope, BOOL, "a condition")
        condition_ok = len(c.r.diagnostics) == before
        c.spans[f"{path}.condition"] = (condition_node or key).span
    return condition, condition_ok


def _effects(c: Checker, entry, scope: Scope, condition, params: list[Param], path: str) -> list:
    """The decision's effects, typed where its condition held; then where they move things."""
    effects = []
    typed = len(c.r.diagnostics)
    effects_node = c.node(entry, "effects", SeqNode, required=False)
    for item in effects_node.items if effects_node else ():
        stmt = c.statement(item, "effect")
        if stmt is not None:  # the effects run once the condition held
            c.types.statement(stmt, scope.knowing(tested(condition, none=False)) if condition else scope)
            effects.append(stmt)
    if effects_node is not None:
        c.spans[f"{path}.effects"] = effects_node.span
    if len(c.r.diagnostics) == typed and not calls_broken(effects, c.procedures):  # once every effect makes sense
        found = card_flow(effects, tuple(p for p in params if p is not None)) + pay_flow(effects)
        c.r.extend(through_calls(found + zones_mod.moved_twice(effects, tuple(params)), effects))
    return effects


def _step_repeat(c: Checker, entry, key, scope: Scope, where: str, only_when_stuck: bool) -> _Repeat:
    """A step's `while`, `repeat`, `resolve` and `max` (E531: a `max` bounds a repeated choice)."""
    while_ = max_ = None
    if entry.get("while") is not None:
        while_ = c.expression(entry.get("while"), "'while' condition")
        if while_ is not None:
            c.types.expect(while_, scope, BOOL, "a 'while' condition")
    repeat = c.choice(entry, "repeat", REPEATS, "once", where)
    resolve = c.choice(entry, "resolve", RESOLVES, "choice", where)
    if entry.get("max") is not None:
        max_ = c.expression(entry.get("max"), "'max'")
        if max_ is not None:
            c.types.expect(max_, scope, INT, "a step's 'max'")
        if repeat != "while" or resolve != "choice":
            c.r.error(
                "E531",
                "'max' bounds a step with `repeat: while` and `resolve: choice`; this one runs at most once a turn",
                entry.key_span("max"),
            )
    if only_when_stuck:
        c.r.error("E505", "'only_when_stuck' applies to actions, not to end-of-turn steps", key.span)
    return _Repeat(while_, max_, repeat, resolve)


def _action_once(c: Checker, entry) -> _Repeat:
    """An action runs once when chosen: E505 for a step's field on it."""
    for field in ("while", "repeat", "resolve", "max", "limit"):
        if entry.get(field) is not None:
            c.r.error("E505", f"'{field}' applies to end-of-turn steps, not to actions", entry.key_span(field))
    return _Repeat()


def _hazards(c: Checker, name, key, condition, effects, params: list[Param], how: _Repeat, facts) -> list[Param]:
    """What in a decision that makes sense could stop the engine (E513, E514, E517, E530, E531),
    and its choices with each payment's worth sized (E548)."""
    for node in (
        condition,
        how.while_,
        *effects,
        *(p.price for p in params if p.price is not None),
        *(p.worth for p in params if p.worth is not None),
    ):
        if node is not None:
            c.r.extend(bounds_mod.hazards(node, bounds_mod.Bounds(facts)))
    for p in params:
        if p.price is not None:
            price_below_zero(c, p.price, bounds_mod.Bounds(facts))
    params = [sized_worth(c, p, bounds_mod.Bounds(facts)) for p in params]
    c.r.extend(repeats_end(c, name, key, how, effects, params, bounds_mod.Bounds(facts)))
    return params


def repeats_end(c: Checker, name, key, how: _Repeat, effects, params, bounds) -> list[Diagnostic]:
    """E530/E531: a step repeated in one turn ends, by a proof of its condition or by its `max`
    (compiler/check/termination.py)."""
    if how.max_ is not None:
        problem = termination.max_problem(how.max_, bounds)
        if problem is None:  # weighed against the step's choices once they are all counted (sizes.action_space)
            c.step_max[name] = (int(bounds.number(how.max_)[1]), how.max_.span)
        return [Diagnostic("E531", problem, how.max_.span)] if problem else []
    if how.repeat != "while" or how.resolve != "choice":
        return []
    return termination.unending(
        name,
        how.while_ if how.while_ is not None else Bool(True, key.span),
        effects,
        params,
        bounds,
        (how.while_ or key).span,
    )


def decision_names(c: Checker, actions, steps) -> None:
    """E519 for a step named as an action: the engine knows both by their names (its phase, its
    rule functions), so the step would take the action's place."""
    action_names = {a.name for a in actions}
    for step in steps:
        if step.name in action_names:
            c.r.error(
                "E519",
                f"step '{step.name}' has the name of an action: an action and a step of one spec are named apart",
                step.span,
            )


def written_alike(c: Checker, gems, wild, levels, players, actions, steps) -> None:
    """E522 for two actions written the same way: an engine could not read the text back."""
    for text, first, other in notation_mod.collisions(actions + steps, gems, wild, levels, players):
        span = c.notation_spans.get((not any(other is a for a in actions), other.name), other.span)
        if first is None:
            c.r.error(
                "E522",
                f"two actions are written the same way, '{text}' ({other.name} and "
                f"{notation_mod.PAY_STEP_NAME}); make their notations differ",
                span,
                f"the payment step writes 'pay {wild} for' and the colours, and 'pay without {wild}'",
            )
        elif first is other:
            c.r.error(
                "E522",
                f"two actions of '{other.name}' are written the same way, '{text}'; make its "
                "notation tell its choices apart",
                span,
            )
        else:
            c.r.error(
                "E522",
                f"two actions are written the same way, '{text}' ({first.name} and "
                f"{other.name}); make their notations differ",
                span,
            )
