"""Bonuses counted by a column: the runtime's statements that count a purchased card's bonus, made
to add the card's `bonus_count` instead of one.

The runtime is pasted into engines whole (compiler/emit/runtime), and an engine whose cards each
give one bonus (the official) must keep its text. Where a spec's cards say how many bonuses each
gives (`kinds: cards: bonus_count: COLUMN`, rulespec/README.md, Kinds), the few runtime statements
that keep `Game._bon` as cards come and go (a saved game loaded, a card moved into or out of the
purchased cards by a zone effect, a card of a zone bought) add the card's count instead: each is
listed here, and one that is not found is a bug of the compiler (the runtime changed), never a
silently wrong count. The rules' own purchases add it in the lowering (compiler/lower/cards.py).
"""

from __future__ import annotations

import re

# A runtime statement adding one card's bonus: `game._bon[SEAT][CARD_BONUS[CARD]] += 1` (or `+= sign`).
_SITE = re.compile(r"(?m)^(?P<head> +game\._bon\[\w+\]\[CARD_BONUS\[(?P<card>\w+)\]\] \+= )(?P<step>1|sign)$")
# How many such statements each runtime module holds (compiler/emit/runtime/state.py, zones.py).
SITES = {"state": 1, "zones": 2}


class CountedError(ValueError):
    """The runtime no longer holds the statements this module rewrites (a bug of the compiler)."""


def counted(module: str, text: str, table: str) -> str:
    """Runtime module `module`'s text with each bonus it counts read from `table` (a tuple by card id)."""
    if not table or module not in SITES:
        return text

    def rewrite(m: re.Match[str]) -> str:
        given = f"{table}[{m['card']}]"
        return m["head"] + (given if m["step"] == "1" else f"{m['step']} * {given}")

    out, found = _SITE.subn(rewrite, text)
    if found != SITES[module]:
        raise CountedError(f"runtime {module}.py counts a card's bonus in {found} places, not {SITES[module]}")
    return out
