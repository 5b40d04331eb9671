"""Pass 6, emit: an engine plan -> the source of a standalone Python module, written safely.

Takes the :class:`~compiler.lower.EnginePlan` of a spec; returns module text laid out
by ``templates/engine.py.j2``. The template only lays out: every rule decision was made
by :mod:`compiler.lower`, and the part of the engine that no spec changes (the Game class,
new_game, from_json, the notation) is the text of the :mod:`compiler.emit.runtime` modules,
pasted whole (Game.apply with the bodies of two hooks inlined: :mod:`.inline`), so that the
engine stays one standalone file. The text is parsed with :func:`ast.parse` before it is
returned, and :func:`write_atomic` replaces the target file only once the new text is
complete, so a failed compile leaves no file behind and never a half-written one.

Output is deterministic: spec order or sorted order only, no timestamps, no absolute
paths, no tool versions.

No text of the spec or of a file name is pasted into the module as it is: the template
writes only :class:`~compiler.lower.pysource.Code` (a literal, a comment text, a docstring or an
identifier made by :mod:`compiler.lower.pysource`, or code that the lowering built with it), and
refuses any other value, so a template edit cannot open a way for text to become code.
"""

from __future__ import annotations

import ast

import jinja2

from ..diagnostics import CompileError, Diagnostic
from ..files import write_atomic  # noqa: F401 - the writer of engine modules
from ..front.source import shown_path
from ..lower import EnginePlan, base_columns, ir, lower
from ..lower.hooks import gives_turns, keeps_turn
from ..lower.printer import printed_literal, printed_names, render
from ..lower.pysource import Code, comment, constant, docstring, identifier, literal, printable
from ..lower.queue import has_queue
from ..lower.tree import Comment, Table
from ..model import Rules
from ..sheets.refusals import refusal_words
from . import formatting
from .counted import counted
from .inline import game_text
from .runtime import MODULES, SPEC_MODULES, engine_text


def _only_code(value):
    """Jinja's finalize hook: what a `{{ }}` writes must have gone through compiler.lower.pysource."""
    if isinstance(value, Code):
        return value
    raise TypeError(
        f"the engine template writes a {type(value).__name__} that is not Code: write it "
        "with a filter (literal, tuple_literal or comment)"
    )


def _environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("compiler.emit", "templates"),
        autoescape=False,
        keep_trailing_newline=True,
        trim_blocks=False,
        lstrip_blocks=False,
        undefined=jinja2.StrictUndefined,
        finalize=_only_code,
    )
    env.filters["literal"] = printed_literal  # broken over lines inside its brackets when long
    env.filters["line_literal"] = literal  # on one line: an argument, in the brackets of a call already
    env.filters["tuple_literal"] = lambda items: printed_literal(tuple(items))
    env.filters["comment"] = comment
    return env


def _text_environment() -> jinja2.Environment:
    """For the text of the module's docstring, which then becomes one literal (pysource.docstring)."""
    return jinja2.Environment(
        loader=jinja2.PackageLoader("compiler.emit", "templates"),
        autoescape=False,
        keep_trailing_newline=True,
        undefined=jinja2.StrictUndefined,
    )


def module_docstring(plan: EnginePlan) -> Code:
    """The engine's docstring: the spec's title and file, the API and the notation. Each text
    of the spec is one line of printable characters (a title cannot add lines of its own)."""
    text = (
        _text_environment()
        .get_template("engine_doc.txt.j2")
        .render(
            title=printable(plan.rules.title.en),
            path=printable(shown_path(plan.rules.source.path)),
            notation_help=[printable(line) for line in notation_help(plan)],
        )
    )
    return docstring(text)


def notation_help(plan: EnginePlan) -> list[str]:
    lines = []
    for dp in plan.decisions:
        example = next(s for (d, _), s in zip(plan.actions, plan.action_strings, strict=True) if d == dp.index)
        lines.append(f"{dp.decision.notation:<34} e.g. {example!r}")
    if plan.pay_index >= 0:
        wild = plan.rules.wild
        lines.append(f"{'pay ... (when several payments)':<34} e.g. 'pay {wild} for red', 'pay without {wild}'")
    return lines


def runtime_text(hooks_src: str, rules: Rules | None = None) -> dict[str, Code]:
    """The text of each runtime module that the template pastes (see compiler/emit/runtime), and
    game.py's with the hooks of `hooks_src` inlined into Game.apply (compiler/emit/inline.py); for
    the spec `rules`, the bonuses a card gives read from its `bonus_count` column, in the card's colour
    in play (compiler/emit/counted.py). It is the project's own code, read from its files, and the
    lowering's printed hooks: no text of a spec."""
    table = base_columns.count_table(rules) if rules is not None else ""
    colour = base_columns.colour_attribute(rules) if rules is not None else ""
    text = {name: Code(counted(name, engine_text(name), table, colour)) for name in MODULES + SPEC_MODULES}
    text["game"] = Code(game_text(text["game"], hooks_src))
    return text


PAYMENT_STEP = "payment"  # the phase of a purchase waiting for its payment


def player_field_tables(rules: Rules) -> list[tuple[Code, dict[int, int]]]:
    """The spec's declared player-count fields as engine constants (Python name, players -> value):
    derived from the player count, never saved; none for a spec that declares none, whose engine
    text stays as it was."""
    return [
        (identifier("_pf_", f.name), {p.players: p.field(f.name) for p in rules.players}) for f in rules.player_fields
    ]


def function_tables(decisions) -> dict[str, Code]:
    """The tables of each decision's functions, by decision index (None where it has none)."""
    return dict(
        legal=printed_names([dp.function("_legal_") if dp.legal_src else None for dp in decisions]),
        apply=printed_names([dp.function("_do_") for dp in decisions]),
        why=printed_names([dp.function("_why_") for dp in decisions]),
        payopts=printed_names([dp.function("_payopts_") if dp.payopts_src else None for dp in decisions]),
    )


def decision_info(plan: EnginePlan) -> Code:
    """DECISION_INFO (compiler/emit/runtime/meta.py): per decision, in index order, its name, its
    block of action ids, its choices (as an action's arguments: a deferred payment is not one) and
    whether the payment step follows; then the payment step's, when a purchase can be paid in
    several ways."""

    def row(name: str, first_id: int, size: int, params: list[tuple[str, str]], pays: bool) -> ast.expr:
        return ir.call(
            "DecisionInfo",
            ir.const(name),
            first_id=ir.const(first_id),
            size=ir.const(size),
            params=ir.tuple_(*(ir.call("Param", ir.const(p), ir.const(d)) for p, d in params)),
            pays=ir.const(pays),
        )

    rows = [
        row(
            dp.decision.name,
            dp.base,
            dp.count,
            [(lay.param.name, lay.param.domain) for lay in dp.id_layouts],
            dp.deferred is not None,
        )
        for dp in plan.decisions
    ]
    if plan.pay_index >= 0:
        rows.append(row(PAYMENT_STEP, plan.pay_base, len(plan.payments), [("payment", "payment")], False))
    note = (
        "Per decision index (DECISIONS): its block of action ids (first_id to first_id + size - 1), its "
        "choices (the arguments of its actions, as describe_action names them) and whether the payment is "
        "asked next."
    )
    return Code(render([Comment(comment(note)), Table("DECISION_INFO", rows)]))


def render_module(plan: EnginePlan) -> str:
    rules = plan.rules
    decisions = plan.decisions
    actions = [dp for dp in decisions if not dp.is_step]
    stuck = next((dp for dp in actions if dp.decision.only_when_stuck), None)
    context = dict(
        runtime=runtime_text(plan.hooks_src, rules),
        source=rules.source,
        path=shown_path(rules.source.path),
        docstring=module_docstring(plan),
        bases=[dict(path=shown_path(b.path), sha256=b.sha256) for b in rules.bases],
        base_names=tuple(b.name for b in rules.bases),
        name=rules.name,
        colours=rules.colours,
        gems=rules.gems,
        wild=rules.wild,
        levels=rules.levels,
        player_counts=tuple(p.players for p in rules.players),
        setup={p.players: (p.gems, p.gold, p.nobles, p.face_up) for p in rules.players},
        player_fields=player_field_tables(rules),
        values={v.name: v.value for v in rules.values},
        max_reserved=plan.max_reserved,
        triggers=tuple((t.name, t.finish) for t in rules.end),
        max_turns=rules.max_turns,
        cards=rules.cards,
        dealt_cards=base_columns.base_dealt(rules),
        nobles=rules.nobles,
        card_fields=base_columns.record_fields(rules, "cards"),
        noble_fields=base_columns.record_fields(rules, "nobles"),
        card_extras=base_columns.record_extras(rules, "cards") or [()] * len(rules.cards),
        noble_extras=base_columns.record_extras(rules, "nobles") or [()] * len(rules.nobles),
        base_columns_src=base_columns.tables_source(rules),
        payments=tuple(plan.payments),
        decision_names=tuple(dp.decision.name for dp in decisions) + ((PAYMENT_STEP,) if plan.pay_index >= 0 else ()),
        step_names=(
            tuple(dp.decision.name for dp in decisions if dp.is_step) + ((PAYMENT_STEP,) if plan.pay_index >= 0 else ())
        ),
        actions=plan.actions,
        action_strings=plan.action_strings,
        notation_forms=plan.notation_forms,
        pay_index=plan.pay_index,
        pay_base=plan.pay_base,
        wild_places=tuple(plan.wild_places),
        function_tables=function_tables(decisions),
        helpers=plan.helpers,
        decisions=decisions,
        action_phase_src=plan.action_phase_src,
        rank_src=plan.rank_src,
        hooks_src=plan.hooks_src,
        prestige_src=plan.prestige_src,
        zones_src=plan.zones_src,
        kinds_src=plan.kinds_src,
        face_up_costs=plan.face_up_costs,
        max_face_up=plan.max_face_up,
        extra_slots=tuple(plan.extra_slots),
        state_version=plan.state_version,
        vars_table=plan.vars_table,
        stuck_index=stuck.index if stuck else -1,
        keeps_turn=keeps_turn(rules),
        extra_turns=gives_turns(rules),
        has_queue=has_queue(rules),
        n_action_decisions=len(actions),
        step_table=[dict(index=dp.index, name=dp.decision.name) for dp in decisions if dp.is_step],
        decision_info=decision_info(plan),
        colour_constants=[(constant("COLOUR_", c), i) for i, c in enumerate(rules.colours)],
        base_constants=[
            (
                Code(dp.base_constant()),
                dp.base,
                comment(f"ids {dp.base} to {dp.base + dp.count - 1}" if dp.count > 1 else "its one id"),
            )
            for dp in decisions
        ],
    )
    text = _environment().get_template("engine.py.j2").render(**context)
    text = "\n".join(line.rstrip() for line in text.splitlines()) + "\n"
    while "\n\n\n\n" in text:
        text = text.replace("\n\n\n\n", "\n\n\n")
    return text


def compile_to_module(rules: Rules) -> str:
    """The engine module's source for a checked rule model. `check` is the whole gate: a model
    it accepts is lowered (lower.LoweringBug, exit 3, would be a bug of the compiler); only a
    text that does not parse is refused here (E599, a bug too, never written out). The text is laid
    out by the formatter (compiler/emit/formatting.py) before anything writes, hashes or imports it;
    a formatter that cannot be run is E598."""
    plan = lower(rules, explain=refusal_words)
    text = render_module(plan)
    try:
        ast.parse(text, filename=rules.source.path)
    except SyntaxError as err:  # a compiler bug, reported as such rather than written out
        raise CompileError(
            [
                Diagnostic(
                    "E599",
                    f"internal error: the generated engine does not parse ({err.msg} at line {err.lineno}); "
                    "please report this with the spec",
                    None,
                )
            ]
        ) from None
    try:
        return formatting.laid_out(text)
    except formatting.LayoutError as err:
        raise CompileError([Diagnostic("E598", f"cannot lay out the engine: {err}", None)]) from None


def module_name(rules: Rules) -> str:
    """The file name of a spec's engine: its name with dashes turned into underscores."""
    return rules.name.replace("-", "_") + ".py"
