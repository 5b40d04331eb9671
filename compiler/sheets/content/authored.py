"""Sheets, content: a rule's own text (`text:`, :mod:`compiler.check.texts`) in place of its generated phrase.

A text the spec gives for a rule is what a published rule sheet says; the generated phrase stays
the fallback (a text that is stale, or has no version in the sheet's language) and the precise
form, which the HTML sheet shows on demand. A placeholder is filled with the rules' own number, so
a variant that changes a value prints its number in the text it inherits. A whole section may be
told so too (`sections`): its text stands for the section's sentences, its tables and pictures stay.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from ...check import texts
from .tree import Item, Part, Section

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


# The parts of a section that state its rules in sentences (a section's own text stands for them);
# its tables, headings over them and pictures stay.
_SENTENCES = ("para", "list", "steps")


def told_section(self: Builder, section: Section) -> Section:
    """`section` told by the spec's own text for it (`sections`), when it has a fresh one in this
    language: one paragraph with the text, the sentences it stands for as its precise form (shown on
    demand) and their house-rule marks; the tables and pictures after it. Else `section` as it is."""
    own = next((s for s in self.rules.sections if s.name == section.key), None)
    text = own_text(own, self.lang, self.rules) if own is not None else None
    if text is None:
        return section
    said: list[str] = []
    marks: list[int] = []
    kept: list[Part] = []
    at = -1  # where the text goes: where the first of the sentences it stands for was
    for i, part in enumerate(section.parts):
        if part.kind in _SENTENCES:
            at = len(kept) if at < 0 else at
            for item in part.items:
                said.append(f"{item.lead}{self.text('sheet.colon')}{item.text}" if item.lead else item.text)
                marks += [m for m in item.marks if m not in marks]
        elif not (part.kind == "heading" and i + 1 < len(section.parts) and section.parts[i + 1].kind in _SENTENCES):
            kept.append(part)  # a heading over sentences goes with them
    told = Part("para", [Item(text, marks=tuple(sorted(marks)), precise=" ".join(said))])
    at = max(at, 0)
    return dataclasses.replace(section, parts=[*kept[:at], told, *kept[at:]])
