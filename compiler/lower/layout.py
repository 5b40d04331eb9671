"""The action table's layout: each choice's values and notation, the plans the lowering fills in."""

from __future__ import annotations

import ast
import itertools
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from ..check.notation import payment_words
from ..front.expr import Expr
from ..front.source import shown_path
from ..model import Decision, Param, Rules
from .pysource import UnsafeName, constant, identifier


class LoweringBug(AssertionError):
    """What the lowering cannot build although `check` refuses every spec that would need it
    (E4xx types, E507, E508, E517-E519, E521, E522): reaching it is a bug of the compiler (exit 3), not of
    the spec. tests/test_gate.py holds check and compile to this."""

    def __init__(self, message: str, span=None):
        super().__init__(message)
        self.span = span


def spec_name(prefix: str, name: str, span=None) -> str:
    """The Python name of a spec name (a choice, a loop variable...): see pysource.identifier,
    which keeps it apart from every name the compiler makes itself."""
    try:
        return identifier(prefix, name)
    except UnsafeName as err:
        raise LoweringBug(str(err), span) from None


def unpacking(names) -> str:
    """Names as the target of a tuple unpacking (or the items of a tuple display): `a, b`, and
    `a,` for one name, where `a = t` would bind the whole tuple instead of its one item. Every
    unpacking the lowering writes goes through here, since a spec may have one gem colour, one
    level or one face-up slot."""
    names = list(names)
    return ", ".join(names) + ("," if len(names) == 1 else "")


def where(span) -> str:
    """A spec location as the engine shows it (in comments and messages): file:line, the file
    as pysource.shown_path gives it (never an absolute path)."""
    return f"{shown_path(span.file)}:{span.line}"


# ----------------------------------------------------------------------------- layout


@dataclass
class ParamLayout:
    param: Param
    size: int  # number of values in the action table
    values: list  # the runtime value of each index (what the effect function receives)
    labels: list[str]  # notation text of each index


@dataclass
class DecisionPlan:
    decision: Decision
    index: int  # position in DECISIONS
    is_step: bool
    base: int  # first action id
    count: int
    layouts: list[ParamLayout]
    legal_src: str = ""
    apply_src: str = ""
    why_src: str = ""
    # the while-condition as an expression over the standard locals (a node)
    while_inline: ast.expr | None = None
    max_inline: ast.expr | None = None  # a repeated step's `max` (its actions a turn, at most), likewise
    prefilter: ast.expr | None = None  # a cheap test that holds whenever a step has a legal action

    payopts_src: str = ""  # only for a decision whose payment is chosen in a step of its own

    def function(self, prefix: str) -> str:
        """The name of this decision's function of one kind: '_legal_', '_do_', '_why_', '_payopts_'."""
        return spec_name(prefix, self.decision.name, self.decision.span)

    def base_constant(self) -> str:
        """The engine constant of this decision's first action id (BASE_NAME: pysource.constant)."""
        try:
            return constant("BASE_", self.decision.name)
        except UnsafeName as err:
            raise LoweringBug(str(err), self.decision.span) from None

    def id_range(self) -> str:
        """Its action ids, for a comment of its legal code: 'ids BASE_TAKE_PAIR = 25 to 29'."""
        if self.count == 1:
            return f"id {self.base_constant()} = {self.base}"
        return f"ids {self.base_constant()} = {self.base} to {self.base + self.count - 1}"

    @property
    def deferred(self) -> ParamLayout | None:
        """The payment choice, asked separately when several payments are possible (always last)."""
        last = self.layouts[-1] if self.layouts else None
        return last if last is not None and last.param.domain == "payment" else None

    @property
    def id_layouts(self) -> list[ParamLayout]:
        """The choices that make up the action id: all but a deferred payment."""
        return self.layouts[:-1] if self.deferred is not None else self.layouts


@dataclass
class EnginePlan:
    rules: Rules
    gems: tuple[str, ...]
    colours: tuple[str, ...]
    levels: tuple[int, ...]
    max_face_up: int
    max_nobles: int
    max_gold: int
    payments: list[tuple[int, ...]]
    decisions: list[DecisionPlan]
    actions: list[tuple[int, tuple]]  # id -> (decision index, args)
    action_strings: list[str]
    # how each decision's actions are written: (form, what its placeholders stand for, payment asked next)
    notation_forms: list[tuple[str, str, bool]] = field(default_factory=list)
    action_phase_src: str = ""
    rank_src: str = ""
    hooks_src: str = ""  # the hooks the runtime calls (lower/hooks.py): _end_of_turn, _reset_turn, ..., _setup
    prestige_src: str = ""  # the hook _prestige_totals(g), with def _xp(g, p) when the spec has prestige sources
    kinds_src: str = ""  # the tables of the spec's own kinds the rules reach without any zone (lower/zones.py)
    zones_src: str = ""  # the tables of the spec's own zones and kinds (lower/zones.py), when it has zones
    # The spec's own zones and state as Game attributes: (attribute, one per player?, initial value:
    # an int, bool, str or None, or a tuple (a list, copied for each game)); runtime/game.py, _fresh.
    extra_slots: list[tuple[str, bool, object]] = field(default_factory=list)
    state_version: int = 1  # 2 when the saved state carries the spec's own zones or state
    vars_table: str = ""  # VARIABLES: the spec's declared state (lower/variables.py), '' when it has none
    max_reserved: int = 0
    # Statement trees while the lowering runs, then the printer's text (driver._write).
    helpers: list = field(default_factory=list)  # tables and functions the rule functions read
    pay_index: int = -1  # decision index of the payment step, when some action has a payment
    # 0: no payment has a worth (PAYMENTS holds gold vectors); else the largest worth, and PAYMENTS
    # holds gold + covers vectors (see payment_vectors)
    worth: int = 0
    # A refused action's reason in players' words: for each sheet language that has a phrase for
    # the failing condition (None: the price, when no payment is within the player's means), the
    # rule's name and that part of it, as the sheets word them; given
    # by the caller (compiler.sheets.refusals) so that the lowering imports no later stage.
    explain: Callable[[Expr | None, Rules, Decision], dict[str, str]] | None = None
    pay_base: int = -1
    # The places of the holdings payments may spend components from (`wilds`): (zone, place from 1),
    # one payment-step action each after the ways to pay (`pay with vault 2`), and each zone's first
    # index among them. Empty for a spec without `wilds`.
    wild_places: list[tuple[str, int]] = field(default_factory=list)
    wild_firsts: dict[str, int] = field(default_factory=dict)
    # Some legal loop walks Game.face_up_costs (see shapes.flat_face_up_loop): effects keep it in step.
    face_up_costs: bool = False
    # The per-call locals a purchase test adds the tokens held to (see DecisionLowering.cannot_pay),
    # named by what they hold: `w0 = b0 + t0`...; purchases whose prices differ there get names of their own.
    cover_names: dict[tuple[str, ...], str] = field(default_factory=dict)
    # The per-call locals holding a payment's worth (see DecisionLowering.cannot_pay), by compiled expression.
    worth_names: dict[str, str] = field(default_factory=dict)

    @property
    def num_actions(self) -> int:
        return len(self.actions)


def gem_subsets(n: int, lo: int, hi: int) -> list[tuple[int, ...]]:
    """Subsets of range(n) with lo..hi members: by size, then in gem order."""
    return [s for k in range(lo, hi + 1) for s in itertools.combinations(range(n), k)]


def payment_vectors(gems: int, max_gold: int, worth: int = 0) -> list[tuple[int, ...]]:
    """Every way to spend up to `max_gold` gold across the gem colours; the zero vector first.

    With a `worth` (a spec with a payment whose wild tokens may stand for up to `worth` gems),
    each entry is the gold per colour followed by the gems it covers (g tokens cover g to
    worth*g): today's gold vectors in today's order, each followed by its covers in
    lexicographic order. Without (0), today's table, untouched: its ids stay the same."""
    golds = _gold_vectors(gems, max_gold)
    if not worth:
        return golds
    return [gold + covers for gold in golds for covers in itertools.product(*(range(n, worth * n + 1) for n in gold))]


def _gold_vectors(gems: int, max_gold: int) -> list[tuple[int, ...]]:
    out = []
    for total in range(max_gold + 1):
        for combo in itertools.combinations_with_replacement(range(gems), total):
            vec = [0] * gems
            for g in combo:
                vec[g] += 1
            out.append(tuple(vec))
    return sorted(set(out), key=lambda v: (sum(v), tuple(-x for x in v)))


def layout_param(param: Param, plan: EnginePlan) -> ParamLayout:
    gems, colours = plan.gems, plan.colours
    values: list  # ints, gem subsets, (level, slot) pairs or levels, by domain; None for "no choice"
    labels: list[str]
    if param.domain == "gem":
        values, labels = list(range(len(gems))), list(gems)
    elif param.domain == "colour":
        values, labels = list(range(len(colours))), list(colours)
    elif param.domain == "gem_set":
        subsets = gem_subsets(len(gems), param.min, param.max)
        values, labels = subsets, [" ".join(gems[g] for g in s) for s in subsets]
    elif param.domain == "face_up":
        values = [(li, si) for li in range(len(plan.levels)) for si in range(plan.max_face_up)]
        labels = [f"{plan.levels[li]}.{si + 1}" for li, si in values]
    elif param.domain == "deck":
        values, labels = list(plan.levels), [str(lv) for lv in plan.levels]
    elif param.domain == "reserved":
        values, labels = list(range(param.slots)), [str(i + 1) for i in range(param.slots)]
    elif param.domain == "noble":
        values, labels = list(range(plan.max_nobles)), [str(i + 1) for i in range(plan.max_nobles)]
    elif param.domain == "payment":
        values = list(range(len(plan.payments)))
        labels = [
            "" if sum(v) == 0 else f"paying {plan.rules.wild} for " + " ".join(payment_words(gems, v))
            for v in plan.payments
        ]
    elif param.domain == "component":  # one per place of its zone, or per component of its kind
        values, labels = list(range(param.slots)), [str(i + 1) for i in range(param.slots)]
    else:  # pragma: no cover - the checker rejects other domains
        raise LoweringBug(f"unknown domain {param.domain}", param.span)
    if param.optional:
        values, labels = values + [None], labels + [""]
    return ParamLayout(param, len(values), values, labels)


def _either(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def placeholder_meaning(lay: ParamLayout, plan: EnginePlan) -> str:
    """What a choice's placeholder in a notation form stands for, in words."""
    p = lay.param
    if p.domain == "gem":
        return f"a gem colour ({_either(list(plan.gems))})"
    if p.domain == "colour":
        return f"a colour ({_either(list(plan.colours))})"
    if p.domain == "gem_set":
        many = f"{p.min} to {p.max}" if p.min != p.max else str(p.min)
        return f"{many} different gem colours among {', '.join(plan.gems)}"
    if p.domain == "face_up":
        return f"a face-up card as level.slot ({lay.labels[0]} to {lay.labels[-1 - p.optional]})"
    if p.domain == "deck":
        return f"a level ({_either([str(v) for v in plan.levels])})"
    if p.domain == "reserved":
        return f"one of your reserved cards (1 to {p.slots})"
    if p.domain == "noble":
        return f"a noble of the row (1 to {plan.max_nobles})"
    if p.domain == "component":
        return f"a place of {p.source} (1 to {p.slots})"
    return ""


def notation_form(dp: DecisionPlan, plan: EnginePlan) -> tuple[str, str, bool]:
    """How a decision's actions are written, with a placeholder (its name in capitals) for
    each choice; what the placeholders stand for; whether a payment is asked next:
    `('buy CARD', 'CARD is a face-up card as level.slot (1.1 to 3.4)', True)`."""
    labels, meanings = {}, []
    for lay in dp.id_layouts:
        name = lay.param.name.upper()
        labels[lay.param.name] = name
        meanings.append(f"{name} is {placeholder_meaning(lay, plan)}" + (", or nothing" if lay.param.optional else ""))
    if dp.deferred is not None:
        labels[dp.deferred.param.name] = ""  # chosen in the payment step

    def group(match: re.Match) -> str:  # an optional [group] keeps its brackets, unless it is all payment
        names = re.findall(r"\{(\w+)\}", match.group(1))
        if names and not any(labels[n] for n in names):
            return ""
        return "[" + re.sub(r"\{(\w+)\}", lambda m: labels[m.group(1)], match.group(1)).strip() + "]"

    form = re.sub(r"\[([^\]]*)\]", group, dp.decision.notation)
    form = re.sub(r"\{(\w+)\}", lambda m: labels[m.group(1)], form)
    return " ".join(form.split()), " and ".join(meanings), dp.deferred is not None
