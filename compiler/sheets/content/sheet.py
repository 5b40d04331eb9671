"""Sheets, content: the sheet assembled -- title, subtitle, provenance, the sections in their
order (those a compact sheet gives way dropped), the house rules box and the summary.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...front.source import shown_path
from .. import pictures, tables
from ..phrases import join, sentence
from .tree import Section, Sheet

if TYPE_CHECKING:  # the class these functions are bound to (the package re-exports it)
    from . import Builder


def build(self: Builder) -> Sheet:
    r = self.rules
    title = self.spec_text(r.title)
    subtitle = r.description.get(self.lang) or ""
    # A description written only in English is shown (in English, marked as such), never dropped.
    subtitle_en = sentence(r.description.en) if not subtitle and r.description.en else ""
    if r.bases:
        base_title = self.spec_text(self.base.title) if self.base is not None else r.bases[0].name
        variant_of = sentence(self.text("sheet.variant_of", base=base_title))
        if subtitle and sentence(subtitle).casefold() == variant_of.casefold():
            subtitle = ""  # `new` writes this very description: said once
        base_title_en = self.base.title.en if self.base is not None else r.bases[0].name
        english = sentence(tables.load("en").text("sheet.variant_of", base=base_title_en))
        if subtitle_en.casefold() == english.casefold():
            subtitle_en = ""  # `new` writes this description in English: the line above says it
        subtitle = variant_of + (" " + sentence(subtitle) if subtitle else "")
    bases = [(shown_path(b.path), b.sha256) for b in r.bases]  # never an absolute path in a sheet
    source_line = self.text("sheet.source", path=shown_path(r.source.path), sha=r.source.sha256)
    for path, sha in bases:
        source_line += " " + self.text("sheet.source_base", path=path, sha=sha)
    sections = [self.glance(), self.scoring(), self.setup(), self.turn()]
    sections += [s for s in (self.tokens(), self.reserving(), self.buying(), self.nobles()) if s is not None]
    sections += [
        self.ending(),
        self.worked_example() if self.compact < 2 else None,
        self.faq() if self.compact < 3 else None,
        self.mistakes() if self.compact < 4 else None,
    ]
    shown = [self.told_section(s) for s in sections if s is not None and s.parts]
    left_out = self.left_out(shown)
    return Sheet(
        lang=self.lang,
        title=title,
        subtitle=subtitle,
        source=shown_path(r.source.path),
        sha256=r.source.sha256,
        bases=bases,
        source_line=source_line,
        house_title=self.text("sheet.house.title"),
        house_intro=self.text("sheet.house.intro", mark=self.text("sheet.mark")) if self.groups else "",
        house=self.house_rules(),
        sections=shown,
        labels={
            "mark": self.text("sheet.mark"),
            "lang": self.lang,
            "note": self.text("sheet.note"),
            "colon": self.text("sheet.colon"),
            "in_english": self.text("sheet.in_english"),
            "precise": self.text("sheet.precise"),
        },
        summary_title=self.text("sheet.summary.title"),
        summary=self.summary(),
        colour_words=self.colour_words(),
        title_lang="en" if self.is_english_only(r.title) else "",
        subtitle_en=subtitle_en,
        left_out=left_out,
    )


def left_out(self: Builder, shown: list[Section]) -> str:
    """What a compact (printed) sheet gave way to fit two pages, in words, and where the whole sheet
    is: the pictures and the sections the full sheet has and this one does not; "" when nothing."""
    if not self.compact:
        return ""
    what = []
    if self.table_picture() is not None or self.card_picture() is not None:
        what.append(self.text("sheet.left_out.pictures"))
    keys = {s.key for s in shown}
    for section in (self.worked_example(), self.faq(), self.mistakes()):
        if section is not None and section.parts and section.key not in keys:
            what.append(self.text("sheet.left_out.section", title=section.title))
    if not what:
        return ""
    return sentence(self.text("sheet.left_out", what=join(self.t, what), file=f"{self.rules.name}.{self.lang}.html"))


def colour_words(self: Builder) -> pictures.Words:
    """Every form of every colour's name in this language (the words a swatch goes beside)."""
    forms: dict[str, list[str]] = {}
    for colour in self.rules.colours:
        texts = forms.setdefault(colour, [])
        for key in (f"colour.{colour}", f"colour.{colour}.adj"):
            if self.table.has(key):
                entry = self.table.entries[key]
                texts += [entry] if isinstance(entry, str) else list(entry.values())
    return pictures.words(forms)
