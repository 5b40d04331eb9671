"""Sheets, content: the common mistakes, each only where the rules make it possible."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..facts import effect_names, held_limit, uses_attribute, value_names, wild_sources
from ..phrases import join, sentence
from .tree import Item, Part, Section

if TYPE_CHECKING:  # the class these functions are bound to (the package re-exports it)
    from . import Builder


def mistakes(self: Builder) -> Section | None:
    r = self.rules
    items = []
    wild = self.text(f"colour.{r.wild}")
    givers, from_taking = wild_sources(r)
    token_actions = self.actions_of("tokens")
    if token_actions and not from_taking:
        paths = [f"actions.{d.name}" for _, d in token_actions] + [f"{s}.{d.name}" for s, d in givers]
        by_action = [d for s, d in givers if s == "actions"]
        by_step = [d for s, d in givers if s == "end_of_turn"]
        ways = join(
            self.t,
            [self.text("sheet.quote", x=self.headline(d, r.actions.index(d) + 1, False)) for d in by_action],
            "or",
        )
        steps = join(
            self.t, [self.text("sheet.quote", x=self.headline(d, r.steps.index(d) + 1, True)) for d in by_step], "and"
        )
        if by_action and by_step:
            text = self.text("sheet.mistake.wild_and_steps", wild=wild, ways=ways, steps=steps)
        elif by_step:
            text = self.text("sheet.mistake.wild_steps", wild=wild, steps=steps)
        elif by_action:
            text = self.text("sheet.mistake.wild", wild=wild, ways=ways)
        else:
            text = self.text("sheet.mistake.wild_never", wild=wild)
        items.append(Item(sentence(text), "", self.marks(*paths)))
    step, limit = held_limit(r)
    if step is not None:
        items.append(
            Item(
                sentence(self.text("sheet.mistake.limit", n=limit, wild=wild)),
                "",
                self.marks(f"end_of_turn.{step.name}", *(f"values.{v}" for v in value_names(r, [step.while_]))),
            )
        )
    reservers = [d for d in r.actions if effect_names(d.effects) & {"reserve", "reserve_top"}]
    if reservers:
        items.append(
            Item(
                sentence(self.text("sheet.mistake.reserved")), "", self.marks(*(f"actions.{d.name}" for d in reservers))
            )
        )
    visitors = [d for d in r.steps if "visit" in effect_names(d.effects)]
    if visitors and not any("visit" in effect_names(d.effects) for d in r.actions):
        key = (
            "sheet.mistake.noble_card"
            if any(uses_attribute([lv.by], "purchased") for lv in r.winners.ranking)
            else "sheet.mistake.noble"
        )
        items.append(
            Item(
                sentence(self.text(key)),
                "",
                self.marks(*(f"end_of_turn.{d.name}" for d in visitors), "winners.ranking"),
            )
        )
    for e in r.end:
        if e.finish == "complete_round":
            items.append(
                Item(
                    sentence(self.text("sheet.mistake.round", cond=self.you().condition(e.when))),
                    "",
                    self.marks(f"end.{e.name}", *(f"values.{v}" for v in value_names(r, [e.when]))),
                )
            )
    if not items:
        return None
    return Section("mistakes", self.text("sheet.mistakes.title"), [Part("list", items)])
