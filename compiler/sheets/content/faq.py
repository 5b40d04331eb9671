"""Sheets, content: the questions every table asks, each only where the rules make it arise,
answered from the rules.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...front.expr import Effect, Index, Name, When, unparse, walk
from ...model import Decision
from ..facts import effect_names, held_limit, shape, value_names
from ..phrases import sentence
from .tree import Item, Part, Section

if TYPE_CHECKING:  # the class these functions are bound to (the package re-exports it)
    from . import Builder


def _conjuncts(node) -> list:
    """The parts of a condition joined by 'and'."""
    if getattr(node, "op", None) == "and":
        return _conjuncts(node.left) + _conjuncts(node.right)
    return [node]


def faq(self: Builder) -> Section | None:
    """Questions and answers, each only where the rules make it arise, answered from the rules."""
    r = self.rules
    items = []
    wild = self.text(f"colour.{r.wild}")
    step, limit = held_limit(r)
    if step is not None:
        # "tokens of your choice, even those just taken": a colour choice whose condition asks
        # only that the player holds a token of it (no-churn's, which reads what was taken, asks more)
        chosen = [p.name for p in step.params if p.domain == "colour"]
        returns_any = bool(chosen) and all(
            unparse(c) in ("true", f"me.tokens[{chosen[0]}] >= 1") for c in _conjuncts(step.condition)
        )
        items.append(
            Item(
                sentence(
                    self.text("sheet.faq.limit.a_any" if returns_any else "sheet.faq.limit.a", n=limit, wild=wild)
                ),
                self.text("sheet.faq.limit.q", n=limit),
                self.marks(f"end_of_turn.{step.name}", *(f"values.{v}" for v in value_names(r, [step.while_]))),
            )
        )
    gold_if_left = [
        d for d in r.actions if effect_names(d.effects) & {"reserve", "reserve_top"} and self.wild_only_if_left(d)
    ]
    if gold_if_left:
        items.append(
            Item(
                sentence(self.text("sheet.faq.no_gold.a", n=1)),
                self.text("sheet.faq.no_gold.q"),
                self.marks(*(f"actions.{d.name}" for d in gold_if_left)),
            )
        )
    refills = [d for d in r.actions if "refill" in effect_names(d.effects)]
    blind = [d for d in r.actions if "reserve_top" in effect_names(d.effects) and self.needs_deck(d)]
    if refills or blind:
        answers = ([self.text("sheet.faq.deck.a_refill")] if refills else []) + (
            [self.text("sheet.faq.deck.a_blind")] if blind else []
        )
        items.append(
            Item(
                " ".join(sentence(a) for a in answers),
                self.text("sheet.faq.deck.q"),
                self.marks(*(f"actions.{d.name}" for d in refills + blind)),
            )
        )
    visitors = [d for d in r.steps if shape(d) == "visit"]
    for d in visitors:
        key = (
            "sheet.faq.two_nobles.a_one"
            if d.repeat == "once" and d.resolve == "choice"
            else "sheet.faq.two_nobles.a_all"
        )
        items.append(
            Item(sentence(self.text(key)), self.text("sheet.faq.two_nobles.q"), self.marks(f"end_of_turn.{d.name}"))
        )
    if visitors or any(shape(d) == "visit" for d in r.actions):
        items.append(Item(sentence(self.text("sheet.faq.replaced.a")), self.text("sheet.faq.replaced.q")))
    if not items:
        return None
    return Section("faq", self.text("sheet.faq.title"), [Part("qa", items)])


def wild_only_if_left(self: Builder, d: Decision) -> bool:
    """The action gives a wild token under `if supply[wild] ...` and does not itself require one."""
    wild = self.rules.wild

    def names_wild_supply(node) -> bool:
        return any(
            isinstance(n, Index)
            and isinstance(n.obj, Name)
            and n.obj.id == "supply"
            and isinstance(n.index, Name)
            and n.index.id == wild
            for n in walk(node)
        )

    guarded = any(
        isinstance(n, When)
        and names_wild_supply(n.test)
        and any(
            isinstance(e, Effect)
            and e.name == "take"
            and e.args
            and isinstance(e.args[0], Name)
            and e.args[0].id == wild
            for e in walk(n.then)
        )
        for s in d.effects
        for n in walk(s)
    )
    return guarded and not names_wild_supply(d.condition)


def needs_deck(d: Decision) -> bool:
    """The action's condition reads the size of a deck (so an empty deck forbids it)."""
    return any(isinstance(n, Index) and isinstance(n.obj, Name) and n.obj.id == "deck" for n in walk(d.condition))
