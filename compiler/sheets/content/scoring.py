"""Sheets, content: the section on the goal and scoring -- what gives prestige (the cards'
points by level, the nobles', the spec's own prestige sources), with a card pictured.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...front.expr import Conditional
from .. import pictures
from ..facts import effect_names
from ..phrases import capitalise, join, sentence
from .tree import Item, Part, Section

if TYPE_CHECKING:  # the class these functions are bound to (the package re-exports it)
    from . import Builder


def scoring(self: Builder) -> Section | None:
    """What gives prestige: the points on the spec's cards, level by level, and its nobles' points
    when a rule makes nobles visit (a player's prestige is the sum of the two)."""
    r = self.rules
    if not r.cards:
        return None
    visits = any("visit" in effect_names(d.effects) for d in r.actions + r.steps)
    key = "sheet.goal.sources_nobles" if visits and r.nobles else "sheet.goal.sources"
    items = [Item(sentence(self.text(key)), self.text("sheet.goal.lead"), self.marks("components"))]
    ranges = []
    for level in r.levels:
        points = [c.points for c in r.cards if c.level == level]
        lo, hi = min(points), max(points)
        ranges.append(
            self.text("sheet.goal.level_range" if lo != hi else "sheet.goal.level_one", level=level, a=lo, b=hi, n=hi)
        )
    items.append(Item(sentence(join(self.t, ranges)), self.text("sheet.goal.cards_lead")))
    if visits and r.nobles:
        points = sorted({n.points for n in r.nobles})
        worth = (
            self.text("sheet.nobles.worth", n=points[0])
            if len(points) == 1
            else self.text("sheet.nobles.worth_range", a=points[0], b=points[-1], n=points[-1])
        )
        items.append(Item(sentence(worth), self.text("sheet.goal.nobles_lead")))
    items += [self.prestige_item(source) for source in r.prestige]
    parts = [Part("para", items)]
    picture = self.card_picture() if not self.compact else None
    if picture is not None:
        parts.append(Part("picture", picture=picture))
    return Section("goal", self.text("sheet.goal.title"), parts)


def card_picture(self: Builder) -> pictures.CardPicture | None:
    """The first card of the spec's table with prestige points and a cost in two colours or more."""
    r = self.rules
    card = next((c for c in r.cards if c.points > 0 and sum(1 for n in c.cost if n) >= 2), None)
    if card is None:
        return None
    cost = tuple((g, n) for g, n in zip(r.gems, card.cost, strict=True) if n > 0)
    cost_words = join(
        self.t, [self.count("noun.token.lit", n, colour=self.t.form(f"colour.{g}.adj", n)) for g, n in cost]
    )
    title = self.text(
        "sheet.picture.card",
        level=card.level,
        points=self.count("noun.point", card.points),
        bonus=self.text(f"colour.{r.gems[card.bonus]}"),
        cost=cost_words,
    )
    return pictures.CardPicture(
        title=sentence(title),
        points=card.points,
        bonus=r.gems[card.bonus],
        cost=cost,
        label_points=capitalise(self.text("sheet.picture.points")),
        label_bonus=capitalise(self.text("sheet.picture.bonus")),
        label_cost=capitalise(self.text("sheet.picture.cost")),
    )


def prestige_item(self: Builder, source) -> Item:
    """A prestige source of the spec, where the sheet says what prestige is made of."""
    said = _points_if(self, source.by)
    if said is None:
        said = self.text("sheet.prestige.source", by=self.you().number(source.by))
    return self.with_text(
        self.note_item(
            sentence(said),
            self.spec_text(source.title),
            self.marks(f"prestige.{source.name}"),
            source.note,
        ),
        source,
    )


def _points_if(self: Builder, by: object) -> str | None:
    """A source worth a fixed number of points under a condition and none otherwise (`N if TEST else 0`),
    as players say it: "also includes 3 prestige points if ...", not "3 if ..., otherwise 0"; else None."""
    if not isinstance(by, Conditional):
        return None
    ph = self.you()
    points, otherwise = ph.const(by.then), ph.const(by.otherwise)
    if points is None or otherwise != 0:
        return None
    return self.text("sheet.prestige.source.if", count=self.count("noun.point", points), test=ph.condition(by.test))
