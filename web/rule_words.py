"""A RuleError's sentence in the players' language.

An engine stops a move with a RuleError where the spec made legal what cannot be carried out
(take two gold tokens with one left, move a component out of an empty pile, a step whose
`while` never turned false). Its message is the compiler's, in English, and of a few fixed
forms: the effect as written and its spec line (kept as it is: the spec's own text), then
what went wrong (compiler/emit/runtime/zones.py, compiler/lower/tokens.py, expressions.py,
variables.py and phases.py write them). Each form is read back here into catalogue Words
(``rule_error.*``, en/fr/nl/sr), so that a table stopped by one tells every seat why in its
own language; a message of no known form (an engine older or newer than this server) is said
as the engine wrote it. tests/test_web_i18n.py checks that every form the compiler writes is
one of these.
"""

from __future__ import annotations

import re

from .i18n import Words, words

NAME = r"(?P<{0}>'[^']*'|\"[^\"]*\")"
# what went wrong, after "EFFECT (FILE:LINE): ", each with its catalogue key
FORMS: tuple[tuple[str, str], ...] = (
    (r"(?P<kind>\S+) (?P<what>.+) is out of the game \(in no zone\)", "rule_error.out_of_game"),
    (r"zone " + NAME.format("zone") + r" is full", "rule_error.zone_full"),
    (r"there is no component to move", "rule_error.nothing_to_move"),
    (
        r"a level (?P<card_level>\S+) card cannot go to level (?P<level>\S+) of " + NAME.format("zone"),
        "rule_error.wrong_level",
    ),
    (r"there is no component to discard", "rule_error.nothing_to_discard"),
    (r"pile " + NAME.format("pile") + r" is empty", "rule_error.pile_empty"),
    (r"a negative number of tokens \((?P<amount>-?\d+)\)", "rule_error.negative_tokens"),
    (r"only (?P<n>\d+) (?P<colour>\S+) token\(s\) in the supply", "rule_error.short_supply"),
    (r"only (?P<n>\d+) (?P<colour>\S+) token\(s\) held by the player", "rule_error.short_held"),
    (r"the deck of level (?P<level>\d+) is empty", "rule_error.deck_empty"),
    (
        r"the player holds (?P<n>\d+) reserved cards, the most this spec's choices of a reserved card can name",
        "rule_error.reserved_most",
    ),
    (r"the number passed (?P<most>[\d,]+) \(either sign\)", "rule_error.number_too_large"),
)
LOCATED = tuple((re.compile(r"(?P<located>.+): " + form, re.S), key) for form, key in FORMS)
STEP_BUDGET = re.compile(
    r"step " + NAME.format("step") + r" was stopped after (?P<count>[\d,]+) actions in one turn: "
    r"its 'while' condition did not turn false"
)


def rule_error_words(message: str) -> str | Words:
    """The Words of a RuleError's `message` (printable already), or the message as it is when
    it is of no known form."""
    found = STEP_BUDGET.fullmatch(message)
    if found:
        return words("rule_error.step_budget", **found.groupdict())
    for pattern, key in LOCATED:
        found = pattern.fullmatch(message)
        if found:
            values: dict[str, object] = dict(found.groupdict())
            if "n" in values:
                values["n"] = int(str(values["n"]))  # a plural family's count
            return words(key, **values)
    return message
