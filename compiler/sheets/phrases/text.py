"""Sheets, phrasing: text helpers -- lists joined in a language, sentences, and the table of
words a phraser reads (with the wild colour's name filled in)."""
from __future__ import annotations

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
        return self.table.text(key, n, **{**self.base, **fields})

    def form(self, key: str, n: int | None = None):
        return self.table.form(key, n)
