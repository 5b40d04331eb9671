"""Pass 6, emit: an engine plan -> the source of a standalone Python module, written safely.

Takes the :class:`~compiler.lower.EnginePlan` of a spec; returns module text laid out
by ``templates/engine.py.j2``. The template only lays out: every rule decision was made
by :mod:`compiler.lower`. The text is parsed with :func:`ast.parse` before it is
returned, and :func:`write_atomic` replaces the target file only once the new text is
complete, so a failed compile leaves no file behind and never a half-written one.

Output is deterministic: spec order or sorted order only, no timestamps, no absolute
paths, no tool versions.
"""
from __future__ import annotations

import ast

import jinja2

from .diagnostics import CompileError, Diagnostic
from .files import write_atomic  # noqa: F401 - the writer of engine modules
from .lower import EnginePlan, LoweringError, lower
from .model import Rules


def _environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("compiler", "templates"),
        autoescape=False, keep_trailing_newline=True, trim_blocks=False, lstrip_blocks=False,
        undefined=jinja2.StrictUndefined)
    env.filters["pyrepr"] = repr
    env.filters["tuple_repr"] = lambda items: repr(tuple(items))
    return env


def notation_help(plan: EnginePlan) -> list[str]:
    lines = []
    for dp in plan.decisions:
        example = next(s for (d, _), s in zip(plan.actions, plan.action_strings) if d == dp.index)
        lines.append(f"{dp.decision.notation:<34} e.g. {example!r}")
    if plan.pay_index >= 0:
        wild = plan.rules.wild
        lines.append(f"{'pay ... (when several payments)':<34} e.g. 'pay {wild} for red', 'pay without {wild}'")
    return lines


PAYMENT_STEP = "payment"  # the phase of a purchase waiting for its payment


def render_module(plan: EnginePlan) -> str:
    rules = plan.rules
    decisions = plan.decisions
    actions = [dp for dp in decisions if not dp.is_step]
    stuck = next((dp for dp in actions if dp.decision.only_when_stuck), None)
    context = dict(
        source=rules.source, bases=rules.bases, base_names=tuple(b.name for b in rules.bases),
        title=rules.title.en, name=rules.name,
        colours=rules.colours, gems=rules.gems, wild=rules.wild, levels=rules.levels,
        player_counts=tuple(p.players for p in rules.players),
        setup={p.players: (p.gems, p.gold, p.nobles, p.face_up) for p in rules.players},
        values={v.name: v.value for v in rules.values}, max_reserved=plan.max_reserved,
        triggers=tuple((t.name, t.finish) for t in rules.end),
        cards=rules.cards, nobles=rules.nobles, payments=tuple(plan.payments),
        decision_names=tuple(dp.decision.name for dp in decisions) + ((PAYMENT_STEP,) if plan.pay_index >= 0 else ()),
        step_names=tuple(dp.decision.name for dp in decisions if dp.is_step) + ((PAYMENT_STEP,) if plan.pay_index >= 0 else ()),
        actions=plan.actions, action_strings=plan.action_strings, notation_forms=plan.notation_forms,
        pay_index=plan.pay_index, pay_base=plan.pay_base,
        helpers=plan.helpers, decisions=decisions, advance_locals=plan.advance_locals, end_inline=plan.end_inline,
        action_phase_src=plan.action_phase_src, rank_src=plan.rank_src,
        face_up_costs=plan.face_up_costs, max_face_up=plan.max_face_up,
        stuck_index=stuck.index if stuck else -1,
        n_action_decisions=len(actions),
        step_table=[dict(index=dp.index, name=dp.decision.name, resolve_all=dp.decision.resolve == "all",
                         loop_test=" and ".join(
                             (["not count"] if dp.decision.repeat == "once" else [])
                             + ([dp.while_inline] if dp.decision.while_ is not None else [])
                             + ([dp.prefilter] if dp.prefilter else [])
                         ) or "True")
                    for dp in decisions if dp.is_step],
        param_kinds={**{dp.index: tuple((lay.param.name, lay.param.domain) for lay in dp.id_layouts) for dp in decisions},
                     **({plan.pay_index: (("payment", "payment"),)} if plan.pay_index >= 0 else {})},
        notation_help=notation_help(plan),
    )
    text = _environment().get_template("engine.py.j2").render(**context)
    text = "\n".join(line.rstrip() for line in text.splitlines()) + "\n"
    while "\n\n\n\n" in text:
        text = text.replace("\n\n\n\n", "\n\n\n")
    return text


def compile_to_module(rules: Rules) -> str:
    """The engine module's source for a checked rule model; raises CompileError if it cannot be built."""
    try:
        plan = lower(rules)
    except LoweringError as err:
        raise CompileError([Diagnostic("E520", str(err), err.span)]) from None
    text = render_module(plan)
    try:
        ast.parse(text, filename=rules.source.path)
    except SyntaxError as err:  # a compiler bug, reported as such rather than written out
        raise CompileError([Diagnostic(
            "E599", f"internal error: the generated engine does not parse ({err.msg} at line {err.lineno}); "
            "please report this with the spec", None)]) from None
    return text


def module_name(rules: Rules) -> str:
    """The file name of a spec's engine: its name with dashes turned into underscores."""
    return rules.name.replace("-", "_") + ".py"
