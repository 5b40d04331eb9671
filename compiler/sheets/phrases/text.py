"""Sheets, phrasing: text helpers -- lists joined in a language, sentences, and the table of
words a phraser reads (with the wild colour's name filled in)."""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping

from ...model import Rules
from .. import tables

# Letters a word may open with where a table elides before it ("que il" -> "qu'il").
VOWELS = frozenset("aeiouyàâäéèêëîïôöùûüœæ")


def join(t, items: list[str], how: str = "and") -> str:
    """'A', 'A and B', 'A, B and C' (or 'or') in the table's language."""
    items = [i for i in items if i]
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    return t.text(f"list.{how}", first=t.text("list.sep").join(items[:-1]), last=items[-1])


def capitalise(text: str) -> str:
    return text[:1].upper() + text[1:] if text else text


def sentence(text: str) -> str:
    """A fragment made a sentence: capital first letter, full stop."""
    text = capitalise(text.strip())
    return text if not text or text[-1] in ".!?:" else text + "."


class Words:
    """A table whose texts may also use the wild colour's name (``{wild}``, ``{wild_adj}``)."""

    def __init__(self, table: tables.Table, rules: Rules):
        self.table = table
        self.lang = table.lang
        self.base = {"wild": table.text(f"colour.{rules.wild}"), "wild_adj": table.form(f"colour.{rules.wild}.adj")}

    def text(self, key: str, n: int | None = None, **fields) -> str:
        merged = {**self.base, **fields}
        return self.elide(self.table.text(self.gendered(key, merged), n, **merged))

    def elide(self, text: str) -> str:
        """The contractions the language makes where one phrase meets another (French "de une" ->
        "d'une", "si il" -> "s'il"): the table's ``sheet.elide``, pairs ``a => b`` split by ``;``."""
        for pair in self.elisions:
            text = pair[0].sub(pair[1], text)
        return text

    @functools.cached_property
    def elisions(self) -> list[tuple[re.Pattern[str], str]]:
        rule = self.table.text("sheet.elide") if self.table.has("sheet.elide") else ""
        out = []
        for pair in filter(None, (p.strip() for p in rule.split(";"))):
            a, _, b = pair.partition("=>")
            out.append((re.compile(r"\b" + re.escape(a.strip()) + r"\b"), b.strip()))
        return out

    def gendered(self, key: str, fields: Mapping[str, object]) -> str:
        """`key`'s form for the gender of the component it speaks of (``KEY@f``, or ``KEY@f.v`` before a
        vowel, where French elides: "l'élément"), if the table has one; else `key`."""
        gender = fields.get("gender")
        if not gender:
            return key
        item = str(fields.get("item", ""))
        if item[:1].lower() in VOWELS and self.table.has(f"{key}@{gender}.v"):
            return f"{key}@{gender}.v"
        return f"{key}@{gender}" if self.table.has(f"{key}@{gender}") else key

    def form(self, key: str, n: int | None = None):
        return self.table.form(key, n)
