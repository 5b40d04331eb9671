"""Sheets, content: the turn summary box -- one turn in order: the action, each end-of-turn
step and each end trigger as a check.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ...front.expr import Name, walk
from ..example import prestige_target
from ..facts import change_group, held_limit, return_to_limit, shape, topic, value_names
from ..phrases import join, sentence
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
        word = (self.text(f"sheet.summary.kind.{kind}") if kind != "other"
                else self.text("sheet.quote", x=self.headline(d, i + 1, False)))
        if word not in kinds:
            kinds.append(word)
    # the line lists kinds of action: a variant changes it by adding or removing an action
    added_or_removed = [c.path for c in r.changes if c.kind in ("add", "remove") and c.path.startswith("actions.")
                        and c.path == change_group(c.path)]
    items = [Item(sentence(self.text("sheet.summary.action", items=join(self.t, kinds, "or"))),
                  self.text("sheet.summary.action_lead"), self.marks(*added_or_removed))]
    limit_step, limit = held_limit(r)
    for i, d in enumerate(r.steps):
        paths = self.decision_paths(d, "end_of_turn")
        if d is limit_step and return_to_limit(d, r) is not None:  # "tokens of your choice": the plain return
            text = self.text("sheet.summary.limit", n=limit)
        elif shape(d) == "visit" and d.repeat == "once" and d.resolve == "choice":
            text = self.text("sheet.summary.visit")
        elif shape(d) == "visit":
            text = self.text("sheet.summary.visit_all")
        else:
            text = self.headline(d, i + 1, True)
        items.append(Item(sentence(text), self.text("sheet.summary.check_lead"), self.marks(*paths)))
    trigger, target = prestige_target(r)
    for e in r.end:
        if self.rare_trigger(e):
            continue
        paths = [f"end.{e.name}"] + [f"values.{v}" for v in sorted(value_names(r, [e.when]))]
        if e is trigger and e.finish == "complete_round":
            text = self.text("sheet.summary.target", n=target)
        else:
            text = self.text("sheet.summary.trigger", cond=self.you().condition(e.when),
                             finish=self.text(f"sheet.finish.{e.finish}"))
        items.append(Item(sentence(text), self.text("sheet.summary.end_lead"), self.marks(*paths)))
    return items
