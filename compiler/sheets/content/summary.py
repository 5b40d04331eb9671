"""Sheets, content: the turn summary box -- one turn in order: the action, each end-of-turn
step and each end trigger as a check.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...front.expr import Bool, Name, unparse, walk
from ...model import Decision
from ..example import prestige_target
from ..facts import (
    action_kind,
    change_group,
    conjuncts,
    effect_names,
    held_limit,
    name_uses,
    rare,
    return_to_limit,
    shape,
    topic,
    value_names,
)
from ..phrases import Phraser, Ref, join, sentence
from ..phrases.kinds import DOMAIN_KINDS
from .tree import Item

if TYPE_CHECKING:  # the class these functions are bound to (the package re-exports it)
    from . import Builder


def rare_trigger(self: Builder, e) -> bool:
    """A trigger only stuck players can fire (every pass is allowed only when stuck): told in the
    end section, not in the summary of an ordinary turn."""
    passes = [d for d in self.rules.actions if shape(d) == "pass"]
    uses_passes = any(isinstance(n, Name) and n.id == "passes" for n in walk(e.when))
    return uses_passes and bool(passes) and all(d.only_when_stuck for d in passes)


def summary(self: Builder) -> list[Item]:
    """One turn, in order: the action, then each end-of-turn step and each end trigger as a check."""
    r = self.rules
    kinds: list[str] = []
    for i, d in enumerate(r.actions):
        if d.only_when_stuck:
            continue
        kind = topic(d, r)
        word = (
            self.text(f"sheet.summary.kind.{kind}")
            if kind != "other"
            else self.text("sheet.quote", x=self.headline(d, i + 1, False))
        )
        if word not in kinds:
            kinds.append(word)
    # the line lists kinds of action: a variant changes it by adding or removing an action
    added_or_removed = [
        c.path
        for c in r.changes
        if c.kind in ("add", "remove") and c.path.startswith("actions.") and c.path == change_group(c.path)
    ]
    lines = self.action_lines()
    intro = (
        self.text("sheet.summary.action_lines", n=len(lines))
        if len(lines) > 1
        else self.text("sheet.summary.action", items=join(self.t, kinds, "or"))
    )
    items = [
        Item(
            sentence(intro),
            self.text("sheet.summary.action_lead"),
            self.marks(*added_or_removed),
            lines=tuple(lines) if len(lines) > 1 else (),
        )
    ]
    limit_step, limit = held_limit(r)
    for i, d in enumerate(r.steps):
        paths = self.decision_paths(d, "end_of_turn")
        own = self.told(d)  # the rule's own words: its condition as players say it
        if own is not None and not _plain(self, d, limit_step):
            text = own
        elif d is limit_step and return_to_limit(d, r) is not None:  # "tokens of your choice": the plain return
            text = self.text("sheet.summary.limit", n=limit)
        elif shape(d) == "visit" and d.repeat == "once" and d.resolve == "choice":
            text = self.text("sheet.summary.visit")
        elif shape(d) == "visit":
            text = self.text("sheet.summary.visit_all")
        else:
            text = self.step_line(d, i + 1)
        lead = "sheet.summary.queued_lead" if d.given is not None else "sheet.summary.check_lead"
        items.append(Item(sentence(text), self.text(lead), self.marks(*paths)))
    trigger, target = prestige_target(r)
    for e in r.end:
        if self.rare_trigger(e):
            continue
        paths = [f"end.{e.name}"] + [f"values.{v}" for v in sorted(value_names(r, [e.when]))]
        if e is trigger and e.finish == "complete_round":
            text = self.text("sheet.summary.target", n=target)
        else:
            text = self.text(
                "sheet.summary.trigger", cond=self.you().condition(e.when), finish=self.text(f"sheet.finish.{e.finish}")
            )
        items.append(Item(sentence(text), self.text("sheet.summary.end_lead"), self.marks(*paths)))
    return items


def action_lines(self: Builder) -> list[str]:
    """The kinds of action of a turn (as the glance counts them), one line each, with their limits:
    "Take 3 tokens of different colours (never gold).", "Take 2 tokens of one colour, if 4 or more
    tokens of that colour are in the supply.", "Reserve a card, face up or the top card of a deck, and
    take 1 gold token if any is left; only if you hold fewer than 3 reserved cards."; a kind of another
    shape by its title."""
    groups: dict[str, list[Decision]] = {}
    for d in self.rules.actions:
        if not rare(d):
            groups.setdefault(action_kind(d), []).append(d)
    lines = []
    for kind, ds in groups.items():
        first = ds[0]
        index = self.rules.actions.index(first) + 1
        told = None
        if kind == "take_set":
            said = self.idiom(first, False)
            told = sentence(said[0]) if said else None
        elif kind == "take_same" and len(ds) == 1:
            told = self.folded_choice(first)
        elif kind in ("reserve", "buy"):
            told = _kind_line(self, kind, ds)
        own = self.told(first) if len(ds) == 1 else None  # the rule's own words before its bare title
        lines.append(told or own or sentence(self.headline(first, index, False)))
    return lines


def _plain(self: Builder, d: Decision, limit_step: Decision | None) -> bool:
    """A step the summary says in its short standing words (the return to the limit, a noble's
    visit): shorter than its text, and the same in every spec that has it."""
    return (d is limit_step and return_to_limit(d, self.rules) is not None) or shape(d) == "visit"


def _kind_line(self: Builder, kind: str, ds: list[Decision]) -> str:
    """Reserving or buying, whichever ways the spec has: the kind's words for those ways, the effects
    every way shares that take a token (the gold of a reserve), and the conditions they all share
    (the limit of reserved cards)."""
    shapes = sorted({shape(d) for d in ds})
    key = f"sheet.summary.line.{kind}" + (".both" if len(shapes) > 1 else "." + shapes[0])
    if not self.table.has(key):
        return ""
    p = Phraser(self.lang, self.rules, ds[0], table=self.table)
    shared = [
        stmt
        for stmt in ds[0].effects
        if "take" in effect_names([stmt])
        and all(any(unparse(stmt) == unparse(other) for other in d.effects) for d in ds)
    ]
    text = self.text(key)
    if shared:
        text = self.text("sheet.summary.line.and", x=text, y=p.effects(shared))
    limits = [
        c
        for c in conjuncts(ds[0].condition)
        if all(any(unparse(c) == unparse(o) for o in conjuncts(d.condition)) for d in ds)
    ]
    if limits and not (len(limits) == 1 and isinstance(limits[0], Bool)):
        text = self.text("sheet.summary.line.only_if", x=text, cond=join(self.t, [p.condition(c) for c in limits]))
    return sentence(text)


def step_line(self: Builder, d: Decision, index: int) -> str:
    """A step of another shape in the summary: its title and when it applies ("Claim a city, if you
    meet the requirements of a city in “Cities on display”"), its one choice said as "a city"; the title
    alone where the step has no condition or no such choice."""
    title = self.headline(d, index, True)
    if len(d.params) != 1 or isinstance(d.condition, Bool):
        return title
    prm = d.params[0]
    mentions = name_uses([d.condition], prm.name)
    if not self.table.has(f"ref.{prm.domain}.one") or mentions != 1:  # "a city" once, never twice
        return title
    p = Phraser(self.lang, self.rules, d, table=self.table)  # its choice said "a city" below; what it is given bound
    fields = p.item_fields(prm.source) if prm.domain == "component" else {}
    p.scope[prm.name] = Ref(
        DOMAIN_KINDS[prm.domain],
        f"ref.{prm.domain}.one",
        fields,
        holds=p.holds(prm.source) if prm.domain == "component" else "",
    )
    return self.text("sheet.summary.step", title=title, cond=p.condition(d.condition))
