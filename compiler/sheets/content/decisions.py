"""Sheets, content: one decision (an action or an end-of-turn step) as a list item -- its
choices, condition, effects and price, or the idiom a rule sheet uses for its shape.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ...front.expr import Bool, Effect, Name
from ...model import Decision
from ..facts import held_limit, name_uses, noble_visit, rare, return_to_limit, take_different, topic
from ..phrases import Phraser, Ref, join, sentence
from ..phrases.kinds import DOMAIN_KINDS
from .tree import Item

if TYPE_CHECKING:  # the class these functions are bound to (the package re-exports it)
    from . import Builder


def choice_phrase(self: Builder, d: Decision) -> list[str]:
    out = []
    for prm in d.params:
        if prm.domain == "payment":
            continue
        key = f"sheet.choose.{prm.domain}"
        if prm.domain == "gem_set":
            key += ".exact" if prm.min == prm.max else ".range"
            text = self.text(key, a=prm.min, b=prm.max, n=prm.max)
        elif prm.domain == "component":  # from a zone (or a kind) of the spec's own; one level of a split
            # zone; several zones: "one piece of A or one piece of B"
            parts = prm.parts or ((prm.source, prm.group, prm.slots),)
            said = [
                self.text(key + (".group" if g else ""), zone=self.source_title(z), n=g, one=self.one_of(z))
                for z, g, _ in parts
            ]
            text = join(self.t, said, "or")
        else:
            text = self.text(key)
        if prm.optional:
            text = self.text("sheet.choose.optional", x=text)
        out.append(text)
    return out


def one_of(self: Builder, source: str) -> str:
    """One component of the zone (or kind) `source`, as the object of "choose": by its kind's item with
    its article ("une carte", "једну карту"); "one piece (charm)" where the language needs a gender the
    spec does not give."""
    return self.t.text("ref.component.one.acc", **self.p.item_fields(source))


def source_title(self: Builder, source: str) -> str:
    """The title of the zone (or kind) a component is chosen from, in this language."""
    found = next((z.title for z in self.rules.zones if z.name == source), None) or next(
        (k.title for k in self.rules.kinds if k.name == source), None
    )
    return (found.get(self.lang) or found.en) if found is not None else source


def idiom(self: Builder, d: Decision, is_step: bool) -> list[str] | None:
    """The phrases (one per sentence) a rule sheet uses for a decision of a common shape (see the shapes of
    :mod:`..facts`), else None (the general phrasing applies). A part the printed rules leave
    open (the fallback of "take 3 different") is marked as a clarification."""
    r = self.rules
    wild = self.text(f"colour.{r.wild}")
    if not is_step:
        take = take_different(d, r)
        if take is None:
            return None
        key = "sheet.idiom.take_up_to" if take.up_to else "sheet.idiom.take_different"
        said = [self.text(key, n=take.count, wild=wild)]
        if take.fallback:
            said.append(
                self.text("sheet.clarification", x=self.text("sheet.idiom.take_different.fallback", n=take.count))
            )
        return said
    limit = return_to_limit(d, r)
    if limit is not None:
        return [self.text("sheet.idiom.limit", n=limit.limit, wild=wild)]
    visit = noble_visit(d)
    if visit is not None:
        return [self.text(f"sheet.idiom.visit.{visit.resolve}")]
    return None


def decision_item(self: Builder, d: Decision, index: int, section: str, is_step: bool, price_shown: bool) -> Item:
    p = Phraser(self.lang, self.rules, d, table=self.table)
    paths = self.decision_paths(d, "end_of_turn" if is_step else "actions")
    said = self.idiom(d, is_step)
    if said is not None:
        return self.with_text(
            self.note_item(
                " ".join(sentence(x) for x in said), self.headline(d, index, is_step), self.marks(*paths), d.note
            ),
            d,
        )
    folded = None if is_step else self.folded_choice(d)
    if folded is not None:
        return self.with_text(self.note_item(folded, self.headline(d, index, is_step), self.marks(*paths), d.note), d)
    sentences = []
    if is_step and d.while_ is not None:
        sentences.append(sentence(self.text("sheet.step.while", cond=p.condition(d.while_))))
    chosen = self.choice_phrase(d)
    if chosen:
        sentences.append(sentence(self.text("sheet.choose", items=join(self.t, chosen))))
    if d.only_when_stuck:
        sentences.append(sentence(self.text("sheet.only_when_stuck")))
    if not d.ends_turn:
        sentences.append(sentence(self.text("sheet.ends_turn")))
    if not (isinstance(d.condition, Bool) and d.condition.value):
        sentences.append(sentence(self.text("sheet.condition", cond=p.condition(d.condition))))
    sentences.append(sentence(p.effects(d.effects)))
    for prm in d.params:
        if prm.domain == "payment" and not price_shown:
            sentences.append(sentence(self.price_sentence(p, prm)))
        if prm.domain == "payment" and prm.worth is not None:
            sentences.append(sentence(p.worth(prm.worth)))
        if prm.domain == "payment" and prm.wilds is not None:
            sentences.append(sentence(p.wilds(prm.wilds)))
    if is_step and d.given is not None:  # a queued step (queue(...)): once each time it is queued
        limit = {"n": d.limit} if d.limit is not None else {}
        sentences.append(sentence(self.text("sheet.step.queued" + (".limit" if limit else ""), **limit)))
    if is_step:
        if d.repeat == "once" and d.resolve == "choice" and d.given is None:
            sentences.append(sentence(self.text("sheet.step.once")))
        elif d.max_ is not None:
            sentences.append(sentence(self.text("sheet.step.max", times=p.number(d.max_))))
        if d.params and d.resolve == "choice":
            sentences.append(sentence(self.text("sheet.step.choice")))
        elif d.params and d.resolve == "all":
            sentences.append(sentence(self.text("sheet.step.all")))
    return self.with_text(
        self.note_item(" ".join(sentences), self.headline(d, index, is_step), self.marks(*paths), d.note), d
    )


def folded_choice(self: Builder, d: Decision) -> str | None:
    """An action of one choice told as players say it: the choice folded into what is done with it
    ("Take 2 tokens of one colour, if 4 or more tokens of that colour are in the supply"), instead
    of "Choose a gem colour. You may do this only if ... Take 2 tokens of the chosen colour."

    Only for an action whose one choice (no payment, not optional) its effects name, from a domain
    the language table has an indefinite form for (``ref.DOMAIN.one``); a condition that names the
    choice follows a single effect ("..., if ..."); after several effects, or a condition that does not
    name the choice, it is the usual "You may do this only if" (the choice then "that colour")."""
    if len(d.params) != 1 or d.only_when_stuck:
        return None
    prm = d.params[0]
    kind = DOMAIN_KINDS.get(prm.domain, "")
    if prm.optional or not self.table.has(f"ref.{prm.domain}.one") or not self.table.has(f"ref.{kind}.that"):
        return None
    if _mentions(self, d.effects, prm.name) != 1:  # "one colour" once; a second mention would need "that colour"
        return None
    fields = self.p.item_fields(prm.source) if prm.domain == "component" else {}
    holds = self.p.holds(prm.source) if prm.domain == "component" else ""
    told = Phraser(self.lang, self.rules, table=self.table)
    told.scope[prm.name] = Ref(kind, f"ref.{prm.domain}.one", fields, holds=holds)
    that = Phraser(self.lang, self.rules, table=self.table)
    that.scope[prm.name] = Ref(kind, f"ref.{kind}.that", fields, holds=holds)
    done = told.effects(d.effects)
    if isinstance(d.condition, Bool) and d.condition.value:
        return sentence(done)
    if len(d.effects) == 1 and name_uses([d.condition], prm.name) > 0:
        return sentence(self.text("sheet.fold", effects=done, cond=that.condition(d.condition)))
    return sentence(done) + " " + sentence(self.text("sheet.condition", cond=that.condition(d.condition)))


def _mentions(self: Builder, stmts: Sequence[object], name: str) -> int:
    """How often effects name the choice `name` in words: a card effect on the card the effect before it
    names is "it" (``eff.NAME.it``: "replace it ..."), which does not name it again."""
    count, previous = 0, None
    for stmt in stmts:
        card = stmt.args[0] if isinstance(stmt, Effect) and stmt.args and isinstance(stmt.args[0], Name) else None
        pronoun = (
            isinstance(stmt, Effect) and card is not None and card == previous and self.table.has(f"eff.{stmt.name}.it")
        )
        if not pronoun:
            count += name_uses([stmt], name)
        previous = card
    return count


def price_sentence(self: Builder, p: Phraser, prm) -> str:
    return p.price(prm.price)


def actions_of(self: Builder, kind: str) -> list[tuple[int, Decision]]:
    return [(i + 1, d) for i, d in enumerate(self.rules.actions) if topic(d, self.rules) == kind and not rare(d)]


def rare_item(self: Builder, d: Decision, index: int) -> Item:
    """A rare-case action (taken only when stuck), told as a short note."""
    p = Phraser(self.lang, self.rules, d, table=self.table)
    if not d.effects:  # passing: "you pass your turn", not "you take the action Pass: nothing happens"
        text = sentence(self.text("sheet.rare.stuck.pass"))
    else:
        text = sentence(
            self.text(
                "sheet.rare.stuck",
                action=self.text("sheet.quote", x=self.headline(d, index, False)),
                effects=p.effects(d.effects),
            )
        )
    if not (isinstance(d.condition, Bool) and d.condition.value):
        text += " " + sentence(self.text("sheet.condition", cond=p.condition(d.condition)))
    paths = self.decision_paths(d, "actions")
    return self.with_text(self.note_item(text, self.text("sheet.rare"), self.marks(*paths), d.note), d)


def limit_step(self: Builder):
    return held_limit(self.rules)[0]
