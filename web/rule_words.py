"""A RuleError's sentence in the players' language, from the key and fields the engine gave it.

An engine stops a move with a RuleError where the spec made legal what cannot be carried out
(take two gold tokens with one left, move a component out of an empty pile, a step whose
`while` never turned false). Its `key` names what went wrong and its `fields` the values it is
about (compiler/emit/runtime/errors.py): `located`, the effect as written and its spec line
(the spec's own text, said as it is), a zone's name, a colour, a number. Those become catalogue
Words (``rule_error.KEY``, the sheets' own words for it, which `play` says too: web.i18n takes
them from the sheets' tables), kept as key and values until each seat says them in its own
language, and stored so (a stopped table's problem, web.store) to be said again after a restart.
An error of an engine without a key (built before RuleErrors had one) is said in its own words.
"""

from __future__ import annotations

from compiler.safe_text import visible
from compiler.sheets.refusals import rule_error_values

from .i18n import Words, catalogue, words

LONGEST = 300  # characters of a text field kept (the effect as written is the longest)


def rule_error_words(error: BaseException) -> str | Words:
    """The Words of a RuleError `error` (its fields printable), or its message, printable, when
    the catalogues have no words for its key."""
    key, fields = getattr(error, "key", None), getattr(error, "fields", None)
    english = catalogue("en")
    if not isinstance(key, str) or not isinstance(fields, dict):
        return visible(str(error))[:500]
    if f"rule_error.{key}" not in english and f"rule_error.{key}.other" not in english:
        return visible(str(error))[:500]
    values = {
        str(name): value if type(value) in (int, float) else visible(str(value))[:LONGEST]
        for name, value in rule_error_values(fields).items()
    }
    return words(f"rule_error.{key}", **values)


def rule_failure(error: BaseException) -> str | Words:
    """An engine's failure in a sentence for the players: a RuleError's (:func:`rule_error_words`),
    a move over its time (in the players' words), or any other error's type and message, printable."""
    if isinstance(error, TimeoutError):
        return words("problem.overran")
    if type(error).__name__ == "RuleError":
        return rule_error_words(error)
    return visible(f"{type(error).__name__}: {error}")[:500]
