"""Sheets, phrasing: expression and effect nodes -> sentence fragments in each language.

Takes a node of :mod:`compiler.front.expr` (a condition, a quantity or an effect), the
language and the rule model; returns a fragment such as "you hold fewer than 3
reserved cards", never code. Every number comes from the model (``rules.value``),
every word from the language table (:mod:`..tables`): this package only decides which
phrase fits which shape of node, and fills it in.

The phrasing is compositional, with a few richer patterns where a shape is common:

* A comparison of a *countable* quantity with a constant becomes a count sentence:
  ``me.reserved < reserve_limit`` -> "you hold fewer than 3 reserved cards";
  ``supply[colour] >= pair_minimum`` -> "at least 4 tokens of the chosen colour are
  in the supply". The noun agrees with the number (CLDR plural forms).
* Any other comparison is "{quantity} is at least {quantity}", each side phrased as a
  noun phrase ("the number of ...").
* ``for c in picked: take(c, 1)`` -> "take 1 token of each chosen colour" (the loop
  variable is fused into its only use); any other loop is "for each ..., ...".
* Aggregates, ``min``/``max``/``abs``/``size``, arithmetic, ``if ... then ... else``,
  ``and``/``or``/``not``, membership and ``none`` all have a general phrase.

Variables are referred to by what they are: a choice of the decision ("the chosen
colour"), a loop variable ("that colour"), ``me`` ("you"), ``player`` in the winners
section ("the player").

Serbian needs cases, so every reference comes in four forms, passed to the templates
as ``{x}`` (subject), ``{x_of}`` (genitive: "of ..."), ``{x_in}`` (locative: "in ...")
and ``{x_acc}`` (object); English, French and Dutch mostly use the same text for all.

The package, one module per family of nodes: :mod:`.names` (scope, and the kind of value a node
denotes), :mod:`.references` (values in their case forms), :mod:`.quantities`, :mod:`.conditions`,
:mod:`.effects`, :mod:`.definitions`; the :class:`Phraser` (:mod:`.core`) binds their functions as
its methods. :mod:`.kinds` and :mod:`.text` hold what they share.
"""

from __future__ import annotations

from .core import Phraser, describe, explain_definition
from .kinds import (
    BOOL,
    CARD,
    CASES,
    COLOUR,
    COLOURS,
    COMPONENT,
    LEVEL,
    NOBLE,
    NONE,
    NUMBER,
    PAYMENT,
    PLAYER,
    Fields,
    PhraseError,
    Ref,
    state_type_key,
)
from .quantities import constant
from .text import capitalise, join, sentence

__all__ = [
    "BOOL",
    "CARD",
    "CASES",
    "COLOUR",
    "COLOURS",
    "COMPONENT",
    "LEVEL",
    "NOBLE",
    "NONE",
    "NUMBER",
    "PAYMENT",
    "PLAYER",
    "Fields",
    "PhraseError",
    "Phraser",
    "Ref",
    "capitalise",
    "constant",
    "describe",
    "explain_definition",
    "join",
    "sentence",
    "state_type_key",
]
