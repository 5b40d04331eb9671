"""Sheets, content: a rule's own text (`text:`, :mod:`compiler.check.texts`) in place of its generated phrase.

A text the spec gives for a rule is what a published rule sheet says; the generated phrase stays
the fallback (a text that is stale, or has no version in the sheet's language) and the precise
form, which the HTML sheet shows on demand. A placeholder is filled with the rules' own number, so
a variant that changes a value prints its number in the text it inherits.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from ...check import texts
from .tree import Item

if TYPE_CHECKING:  # the class these functions are bound to (the package re-exports it)
    from ...model import Rules
    from . import Builder


def told(self: Builder, rule: object) -> str | None:
    """The rule's own text in this language, its placeholders filled; None where the phrase applies."""
    return own_text(rule, self.lang, self.rules)


def own_text(rule: object, lang: str, rules: Rules) -> str | None:
    """The rule's own text in `lang`, its placeholders filled from `rules`; None where it has none
    (or a stale one), so the generated phrase applies: what a sheet prints, for any reader of it."""
    said = getattr(rule, "text", None)
    if said is None or said.stale:
        return None
    text = said.get(lang)
    if not text:
        return None
    return texts.fill(text, texts.numbers(rules.values, rules.players, rules.player_fields))


def with_text(self: Builder, item: Item, rule: object) -> Item:
    """`item` with the rule's own text as its text and the generated phrase as its precise form,
    when the rule has a fresh text in this language; else `item` as it is."""
    text = self.told(rule)
    if text is None:
        return item
    return dataclasses.replace(item, text=text, precise=item.text)
