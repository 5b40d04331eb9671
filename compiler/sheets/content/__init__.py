"""Sheets, content: the rule model -> the text of a reference sheet in one language.

Takes a :class:`~compiler.model.Rules` and a language; returns a :class:`Sheet`, a
plain tree of sections, paragraphs, lists and one table, every string final (phrased,
plural forms chosen) but not yet marked up. The templates of :mod:`..render` only lay
it out. All decisions are made here, from the model: which actions belong to which
topic (by their effects), which common mistakes apply (by what the rules say), which
items a variant changed (by the paths of ``rules.changes``).

Every number is read from the model; the words come from the language table.

The package, one module per section of the sheet: :mod:`.glance`, :mod:`.scoring`, :mod:`.setup`,
:mod:`.turn` (with the sections of its kinds of action, and :mod:`.decisions` for one decision),
:mod:`.ending`, :mod:`.worked` (the worked example), :mod:`.faq`, :mod:`.mistakes`, :mod:`.summary`
(the turn summary box) and :mod:`.house` (the house rules box); :mod:`.sheet` assembles them. The
:class:`Builder` (:mod:`.builder`) binds their functions as its methods; :mod:`.tree` is the sheet's
tree of dataclasses.
"""

from __future__ import annotations

from .builder import COMPACT_LEVELS, Builder, build
from .tree import Grid, HouseRule, Item, Part, Section, Sheet

__all__ = ["COMPACT_LEVELS", "Builder", "Grid", "HouseRule", "Item", "Part", "Section", "Sheet", "build"]
