"""Sheets, content: the section "at a glance" -- players, who starts, a turn, the end and the
winner, each in a line.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...front.expr import Bool
from ..facts import action_kind, rare, rare_trigger, value_names
from ..phrases import capitalise, join, sentence
from .tree import Item, Part, Section

if TYPE_CHECKING:  # the class these functions are bound to (the package re-exports it)
    from . import Builder


def players_phrase(self: Builder) -> str:
    counts = [p.players for p in self.rules.players]
    if not counts:
        return ""
    if len(counts) == 1:
        return self.text("sheet.players.one", n=counts[0])
    if counts == list(range(counts[0], counts[-1] + 1)):
        return self.text("sheet.players.range", a=counts[0], b=counts[-1], n=counts[-1])
    return self.text("sheet.players.list", items=join(self.t, [str(c) for c in counts], "or"), n=counts[-1])


def glance(self: Builder) -> Section:
    r = self.rules
    items = [Item(sentence(self.players_phrase()), self.text("sheet.glance.players"), self.marks("players"))]
    items.append(Item(self.first_player(), self.text("sheet.glance.first"), self.marks("first_player")))
    kinds = {action_kind(d) for d in r.actions if not rare(d)}
    items.append(
        Item(
            sentence(self.text("sheet.glance.turn_text", n=len(kinds), steps=len(r.steps))),
            self.text("sheet.glance.turn"),
        )
    )
    # The end as it is played (the trigger, then how the game finishes); an end that only a
    # rare case brings is told in the section, not in the summary.
    headline_ends = [e for e in r.end if not rare_trigger(e, r)] or list(r.end)
    ends = [
        sentence(
            self.text(
                "sheet.glance.end_text", cond=self.you().condition(e.when), finish=self.text(f"sheet.finish.{e.finish}")
            )
        )
        for e in headline_ends
    ]
    items.append(Item(" ".join(ends), self.text("sheet.glance.end"), self.marks(*self.trigger_paths(headline_ends))))
    items.append(Item(sentence(self.winner_summary()), self.text("sheet.glance.winner"), self.marks("winners")))
    return Section("glance", self.text("sheet.glance.title"), [Part("para", items)])


def first_player(self: Builder) -> str:
    """Who starts (the spec's words, or: agree on it) and the order of play, which the language fixes."""
    who = self.spec_text(self.rules.first_player) or self.text("sheet.order.agree")
    return sentence(who) + " " + sentence(self.text("sheet.order.clockwise"))


def trigger_paths(self: Builder, triggers=None) -> list[str]:
    paths = []
    for e in self.rules.end if triggers is None else triggers:
        paths.append(f"end.{e.name}")
        paths += [f"values.{v}" for v in sorted(value_names(self.rules, [e.when]))]
    return paths


def winner_summary(self: Builder) -> str:
    w = self.rules.winners
    levels = [self.rank_phrase(level) for level in w.ranking]
    if not levels:
        text = self.text("sheet.winner.all_tied")
    else:
        text = self.text("sheet.winner.first", x=levels[0])
        for extra in levels[1:]:
            text += self.text("sheet.winner.then", x=extra)
        text += self.text("sheet.winner.shared_tail")
    if not (isinstance(w.eligible, Bool) and w.eligible.value):
        eligible = self.text("sheet.winner.eligible", cond=self.you_player().condition(w.eligible))
        text = sentence(eligible) + " " + capitalise(text)
    return text
