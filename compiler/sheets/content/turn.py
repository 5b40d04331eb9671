"""Sheets, content: the section on a turn and the sections of its kinds of action -- tokens,
reserving, buying (with a purchase worked out) and nobles.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...diagnostics import Span
from ...front.expr import Int, unparse
from .. import example, pictures
from ..facts import effect_names, held_limit, rare
from ..phrases import Phraser, capitalise, join, sentence
from .tree import Item, Part, Section

if TYPE_CHECKING:  # the class these functions are bound to (the package re-exports it)
    from . import Builder


def turn(self: Builder) -> Section:
    r = self.rules
    usual = [(i + 1, d) for i, d in enumerate(r.actions) if not rare(d)]
    parts = [Part("para", [Item(sentence(self.text("sheet.turn.intro", n=len(usual))))])]
    parts.append(Part("list", [Item(self.headline(d, i, False)) for i, d in usual]))
    other = self.actions_of("other")
    if other:
        parts.append(Part("heading", title=self.text("sheet.turn.other")))
        parts.append(Part("list", [self.decision_item(d, i, "actions", False, False) for i, d in other]))
    stuck = [(i + 1, d) for i, d in enumerate(r.actions) if rare(d)]
    if stuck:
        parts.append(Part("para", [self.rare_item(d, i) for i, d in stuck]))
    if r.steps:
        steps = [d for d in r.steps if d is not self.limit_step() and "visit" not in effect_names(d.effects)]
        every = [(i + 1, d) for i, d in enumerate(r.steps) if d.given is None]  # a queued step runs when queued
        # the steps by name, quoted: a title is no word of the sentence ("then: “Return excess tokens” and ...")
        headlines = join(self.t, [self.text("sheet.quote", x=self.headline(d, i, True)) for i, d in every])
        said = [sentence(self.text("sheet.turn.steps", n=len(every), items=headlines))] if every else []
        queued = [self.headline(d, i + 1, True) for i, d in enumerate(r.steps) if d.given is not None]
        if queued:
            said.append(sentence(self.text("sheet.turn.queued", items=join(self.t, queued))))
        parts.append(Part("para", [Item(" ".join(said))]))
        if steps:
            parts.append(
                Part("list", [self.decision_item(d, r.steps.index(d) + 1, "end_of_turn", True, False) for d in steps])
            )
    return Section("turn", self.text("sheet.turn.title"), parts)


def tokens(self: Builder) -> Section | None:
    actions = self.actions_of("tokens")
    step, limit = held_limit(self.rules)
    if not actions and step is None:
        return None
    parts = []
    if actions:
        parts.append(Part("list", [self.decision_item(d, i, "actions", False, False) for i, d in actions]))
    if step is not None:
        item = self.decision_item(step, self.rules.steps.index(step) + 1, "end_of_turn", True, False)
        parts.append(Part("heading", title=self.text("sheet.tokens.limit", n=limit)))
        parts.append(Part("list", [item]))
    return Section("tokens", self.text("sheet.tokens.title"), parts)


def reserving(self: Builder) -> Section | None:
    actions = self.actions_of("reserve")
    if not actions:
        return None
    items = [self.decision_item(d, i, "actions", False, False) for i, d in actions]
    return Section("reserve", self.text("sheet.reserve.title"), [Part("list", items)])


def buying(self: Builder) -> Section | None:
    actions = self.actions_of("buy")
    if not actions:
        return None
    prices = {unparse(prm.price) for _, d in actions for prm in d.params if prm.domain == "payment"}
    shared = len(prices) == 1
    parts = [Part("list", [self.decision_item(d, i, "actions", False, shared) for i, d in actions])]
    facts = []
    if shared:  # a buying action may have no payment (a card acquired for free): the price is another's
        d, prm = next((d, prm) for _, d in actions for prm in d.params if prm.domain == "payment")
        p = Phraser(self.lang, self.rules, d, table=self.table)
        paths = [f"actions.{dd.name}" for _, dd in actions]
        facts.append(Item(sentence(self.price_sentence(p, prm)), self.text("sheet.buy.price_lead"), self.marks(*paths)))
        card = next((q.name for q in d.params if q.domain in ("face_up", "reserved")), None)
        bought = example.purchase(self.rules, prm.price, card) if card is not None else None
        if bought is not None:
            facts.append(Item(sentence(self.purchase_text(bought)), self.text("sheet.example.lead")))
    facts.append(Item(sentence(self.text("sheet.buy.bonus")), self.text("sheet.buy.bonus_lead")))
    worths = any(prm.worth is not None for _, d in actions for prm in d.params if prm.domain == "payment")
    facts.append(
        Item(
            sentence(self.text("sheet.buy.wild.worth" if worths else "sheet.buy.wild", n=1)),
            capitalise(self.text(f"colour.{self.rules.wild}")),
        )
    )
    parts.append(Part("para", facts))
    return Section("buy", self.text("sheet.buy.title"), parts)


def tokens_list(self: Builder, amounts: dict[str, int]) -> str:
    return join(
        self.t,
        [self.count("noun.token.lit", n, colour=self.t.form(f"colour.{g}.adj")) for g, n in amounts.items() if n > 0],
    ) or self.text("sheet.example.nothing")


def purchase_text(self: Builder, bought: example.Purchase) -> str:
    card = bought.card
    cost = dict(zip(self.rules.gems, card.cost, strict=True))
    bonus = join(
        self.t,
        [self.count("attr.bonus.noun.lit", n, colour=self.t.form(f"colour.{g}.adj")) for g, n in bought.bonus.items()],
    )
    return self.text(
        "sheet.example.purchase",
        **self.p.level(_int(card.level)),
        level_name=self.text("sheet.level.name", n=card.level),  # "de niveau 2": a kind of card, no article
        cost=self.tokens_list(cost),
        bonus=bonus,
        price=self.tokens_list(bought.price),
        wild=self.text(f"colour.{self.rules.wild}"),
    )


def nobles(self: Builder) -> Section | None:
    steps = [d for d in self.rules.steps if "visit" in effect_names(d.effects)]
    if not steps:
        return None
    items = [self.decision_item(d, self.rules.steps.index(d) + 1, "end_of_turn", True, False) for d in steps]
    points = sorted({n.points for n in self.rules.nobles})
    facts = []
    if points:
        if len(points) == 1:
            worth = self.text("sheet.nobles.worth", n=points[0])
        else:
            worth = self.text("sheet.nobles.worth_range", a=points[0], b=points[-1], n=points[-1])
        facts.append(Item(sentence(worth)))
    parts = [Part("list", items), Part("para", facts)]
    picture = self.noble_picture() if not self.compact else None
    if picture is not None:
        parts.append(Part("picture", picture=picture))
    return Section("nobles", self.text("sheet.nobles.title"), parts)


def noble_picture(self: Builder) -> pictures.NoblePicture | None:
    """The first noble tile of the spec's table that requires bonuses of two colours or more."""
    r = self.rules
    tile = next((n for n in r.nobles if sum(1 for x in n.requires if x) >= 2), None)
    if tile is None:
        return None
    requires = tuple((g, n) for g, n in zip(r.gems, tile.requires, strict=True) if n > 0)
    words = join(
        self.t,
        [self.count("attr.bonus.noun.lit", n, colour=self.t.form(f"colour.{g}.adj", n)) for g, n in requires],
    )
    return pictures.NoblePicture(
        title=sentence(self.text("sheet.picture.noble", points=self.count("noun.point", tile.points), requires=words)),
        points=tile.points,
        requires=requires,
        label_points=capitalise(self.text("sheet.picture.points")),
        label_requires=capitalise(self.text("sheet.picture.requires")),
    )


def _int(n: int) -> Int:
    """A number as an expression node, for the phrases of a level (no position: it is no spec's)."""
    return Int(n, Span("", 0, 0))
