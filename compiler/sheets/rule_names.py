"""Sheets, rule names: a rule as a player reads its name, in each sheet language -- shared by the
words of a move (:mod:`.moves`) and of a refusal (:mod:`.refusals`)."""

from __future__ import annotations

from ..model import Decision
from . import tables
from .facts import shape


def rule_name(decision: Decision, table: tables.Table) -> str:
    """The rule's name in the table's language: its title there, else the title the sheets
    give what it does ("Take tokens of one colour"), else its English title."""
    own = decision.title.get(table.lang)
    if own:
        return own
    kind = shape(decision)
    if kind != "other" and table.has(f"sheet.headline.{kind}"):
        return table.text(f"sheet.headline.{kind}")
    return decision.title.en or decision.name
