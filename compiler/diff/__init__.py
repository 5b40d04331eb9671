"""Diff: two rule models -> the rules that differ, before and after, in words.

Takes two :class:`~compiler.model.Rules` (each already resolved through its chain of
variants and checked) and compares them rule by rule -- components, the kinds of component
beyond the cards and nobles, the player-count
table, values, actions and their choices, end-of-turn steps, end triggers, the winner
ranking and eligibility, who takes the first turn, the stated interpretations and handling lines -- never their
YAML. :func:`compare` returns
:class:`Difference` records (what, which field, the value on each side and where each
side defines it); :func:`render` phrases them in one of the sheet languages, with
expressions and effects in words through :func:`compiler.sheets.phrases.describe`
and its fixed words from the ``diff.*`` keys of the sheets' language tables
(:mod:`compiler.sheets.tables`, checked by :mod:`compiler.sheets.lint`). Notes come
from the variants' recorded changes (:attr:`Rules.changes`). Nothing here prints; the
CLI does.
"""

from __future__ import annotations

from .differences import compare
from .record import Difference
from .words import LANGUAGES, STRINGS, only_texts, render

__all__ = ["LANGUAGES", "STRINGS", "Difference", "compare", "only_texts", "render"]
