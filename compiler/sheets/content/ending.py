"""Sheets, content: the section on the end of the game -- the triggers, the end as it is
played, and the ranking that decides the winner.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...front.expr import Bool
from ..facts import rare_trigger, value_names
from ..phrases import sentence
from .tree import Item, Part, Section

if TYPE_CHECKING:  # the class these functions are bound to (the package re-exports it)
    from . import Builder


def ending(self: Builder) -> Section:
    r = self.rules
    items = []
    for e in r.end:
        cond = self.you().condition(e.when)
        text = self.text("sheet.end.trigger", cond=cond, finish=self.text(f"sheet.finish.{e.finish}"))
        paths = [f"end.{e.name}"] + [f"values.{v}" for v in sorted(value_names(r, [e.when]))]
        marks = self.marks(*paths)
        lead = self.text("sheet.rare") if rare_trigger(e, r) else ""
        items.append(self.with_text(self.note_item(sentence(text), lead, marks, e.note), e))
    parts = [Part("list", items)]
    played = [
        Item(
            sentence(self.text("sheet.end.played", cond=self.you().condition(e.when))),
            self.text("sheet.end.played_lead"),
            self.marks(f"end.{e.name}", *(f"values.{v}" for v in sorted(value_names(r, [e.when])))),
        )
        for e in r.end
        if e.finish == "complete_round"
    ]
    if played and self.compact < 4:  # it tells the rule above again, as it is played
        parts.append(Part("para", played))
    ranking = []
    w = r.winners
    if not (isinstance(w.eligible, Bool) and w.eligible.value):
        ranking.append(
            Item(
                sentence(self.text("sheet.winner.eligible", cond=self.you_player().condition(w.eligible))),
                "",
                self.marks("winners.eligible"),
            )
        )
    for i, level in enumerate(w.ranking):
        key = "sheet.rank.level_first" if i == 0 else "sheet.rank.level_next"
        marks = self.marks(
            f"winners.ranking.{level.name}", *(f"values.{v}" for v in sorted(value_names(r, [level.by])))
        )
        ranking.append(self.note_item(sentence(self.text(key, x=self.rank_phrase(level))), "", marks, level.note))
    ranking.append(Item(sentence(self.text("sheet.rank.shared")), "", self.marks("winners.ties")))
    parts.append(Part("heading", title=self.text("sheet.rank.title")))
    parts.append(Part("steps", ranking))
    return Section("end", self.text("sheet.end.title"), parts)
