"""Sheets, content: the sheet tree -- sections, paragraphs, lists, tables and pictures, every
string final (phrased, plural forms chosen) but not yet marked up; :mod:`..render` lays it out."""

from __future__ import annotations

from dataclasses import dataclass, field

from .. import pictures


@dataclass
class Item:
    """A paragraph or a list entry: an optional bold lead, the text, the house-rule marks."""

    text: str
    lead: str = ""
    marks: tuple[int, ...] = ()
    note: str = ""  # a variant's note, shown in small type
    note_en: str = ""  # the same, written only in English: shown in English, marked as such
    precise: str = ""  # the generated phrase of a rule told in the spec's own words (`text`), shown on demand
    lines: tuple[str, ...] = ()  # lines under the item (the turn summary's kinds of action, one a line)


@dataclass
class Grid:
    header: list[str]
    rows: list[list[str]]
    marks: list[tuple[int, ...]]  # per row: a rule that changed the whole row (shown in its first cell)
    # (row, column) -> the marks of a rule that changed that one value (shown beside the value)
    cell_marks: dict[tuple[int, int], tuple[int, ...]] = field(default_factory=dict)


@dataclass
class Part:
    """One block of a section: a paragraph list, a bullet/numbered list, a sub-heading or a table."""

    # "para", "list", "steps" (numbered), "heading", "grid", "qa" (lead: a question),
    # "picture" (HTML and PDF only)
    kind: str
    items: list[Item] = field(default_factory=list)
    grid: Grid | None = None
    title: str = ""
    picture: pictures.CardPicture | pictures.NoblePicture | pictures.TablePicture | None = None


@dataclass
class Section:
    key: str
    title: str
    parts: list[Part]
    marks: tuple[int, ...] = ()


@dataclass
class HouseRule:
    number: int
    kind: str  # "set", "add", "remove" (as words)
    lead: str
    text: str
    note: str
    note_en: str = ""  # the notes written only in English (shown marked as English)


@dataclass
class Sheet:
    lang: str
    title: str
    subtitle: str
    source: str  # "rulespec/official.yaml"
    sha256: str
    bases: list[tuple[str, str]]  # (path, sha256), nearest first
    source_line: str  # the printed provenance line
    house_title: str
    house_intro: str
    house: list[HouseRule]
    sections: list[Section]
    labels: dict[str, str]  # a few words the templates need (mark, language name)
    summary_title: str = ""
    summary: list[Item] = field(default_factory=list)  # the turn summary box, in the order of a turn
    colour_words: pictures.Words | None = None  # the words that name a colour: a swatch goes beside them
    title_lang: str = ""  # "en" when the title is the English one (no text in the sheet's language)
    subtitle_en: str = ""  # the variant's description, when it has no text in the sheet's language
    left_out: str = ""  # a compact (printed) sheet: what it gave way to fit, and where the full sheet is
