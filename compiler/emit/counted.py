"""Bonuses counted by a column: the runtime's statements that count a purchased card's bonus, made
to add the card's `bonus_count` instead of one.

The runtime is pasted into engines whole (compiler/emit/runtime), and an engine whose cards each
give one bonus (the official) must keep its text. Where a spec's cards say how many bonuses each
gives (`kinds: cards: bonus_count: COLUMN`, rulespec/README.md, Kinds), the few runtime statements
that keep `Game._bon` as cards come and go (a saved game loaded, a card moved into or out of the
purchased cards by a zone effect, a card of a zone bought) add the card's count instead: each is
found in the module's tree, and printed again in place (as compiler/emit/inline.py prints
Game.apply); a module holding another number of them is a bug of the compiler (the runtime
changed), never a silently wrong count. The rules' own purchases add it in the lowering
(compiler/lower/cards.py).

Where a variable sets a card's bonus colour in play (`state: NAME: {bonus_colour: true}`, a satchel
attached under a card), the same statements count the card in its colour in play: the variable's
entry when set, else its printed colour (compiler/lower/base_columns.py, `colour_of`).
"""

from __future__ import annotations

import ast

from ..lower import ir
from ..lower.printer import unparse

# How many statements counting a card's bonus each runtime module holds (compiler/emit/runtime).
SITES = {"state": 1, "zones": 2}
# The modules whose counts read a card's colour in play: a loaded game (state) counts its bonuses
# before its variables are loaded, so the hook _load_state counts them again (compiler/lower/hooks.py).
COLOURED = ("zones",)


class CountedError(ValueError):
    """The runtime no longer holds the statements this module rewrites (a bug of the compiler)."""


def _card_of(node: ast.stmt) -> ast.expr | None:
    """The card of `game._bon[SEAT][CARD_BONUS[CARD]] += 1` (or `+= sign`); None for another statement."""
    match node:
        case ast.AugAssign(
            target=ast.Subscript(
                value=ast.Subscript(value=ast.Attribute(value=ast.Name(id="game"), attr="_bon")),
                slice=ast.Subscript(value=ast.Name(id="CARD_BONUS"), slice=card),
            ),
            op=ast.Add(),
            value=ast.Constant(value=1) | ast.Name(id="sign"),
        ):
            return card
    return None


def _colour_in_play(colour: str, card: ast.expr) -> ast.expr:
    """`game.COLOUR[card] if game.COLOUR[card] is not None else CARD_BONUS[card]`: a card's colour in play."""
    entry = ir.sub(ir.attr(ir.name("game"), colour), card)
    return ir.ifexp(ir.compare(entry, "is not", ir.const(None)), entry, ir.sub("CARD_BONUS", card))


def counted(module: str, text: str, table: str, colour: str = "") -> str:
    """Runtime module `module`'s text with each bonus it counts read from `table` (a tuple by card id)
    and, with `colour` (the Game attribute of a `bonus_colour` variable), in the card's colour in play."""
    colour = colour if module in COLOURED else ""
    if not (table or colour) or module not in SITES:
        return text
    lines = text.split("\n")
    sites = [node for node in ast.walk(ast.parse(text)) if isinstance(node, ast.stmt) and _card_of(node) is not None]
    if len(sites) != SITES[module]:
        raise CountedError(f"runtime {module}.py counts a card's bonus in {len(sites)} places, not {SITES[module]}")
    for node in sites:
        card = _card_of(node)
        assert isinstance(node, ast.AugAssign) and card is not None and node.lineno == node.end_lineno
        step = node.value
        if table:
            given = ir.sub(table, card)
            step = given if isinstance(node.value, ast.Constant) else ast.BinOp(node.value, ast.Mult(), given)
        target = node.target
        if colour:
            assert isinstance(target, ast.Subscript)
            target = ast.Subscript(target.value, _colour_in_play(colour, card), ast.Store())
        printed = unparse(ast.fix_missing_locations(ast.AugAssign(target, ast.Add(), step)))
        lines[node.lineno - 1] = lines[node.lineno - 1][: node.col_offset] + printed
    return "\n".join(lines)
