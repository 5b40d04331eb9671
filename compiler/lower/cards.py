"""The effects that move a development card between the decks, the market and a player's hand or
purchases (refill, acquire, bury), as statements: helpers of compiler/lower/expressions.py, split
from it to keep each module small. `p` is the card's Python name; a face-up card also has its
place, `p_LI` and `p_SI`; the `compiler` is the ExprCompiler, which keeps Game.face_up_costs in
step with the market where the engine has it."""

from __future__ import annotations

import ast

from . import base_columns, ir
from .tree import Append, Assign, Do, If

NONE = ir.const(None)
NO_CARD_COST = ir.name("_NO_CARD_COST")


def _slot(p: str) -> ast.expr:
    """`g.market[p_LI][p_SI]`: the face-up slot of card `p`."""
    return ir.sub(ir.sub(ir.dotted("g.market"), f"{p}_LI"), f"{p}_SI")


def _mine(attribute: str) -> ast.expr:
    return ir.sub(ir.dotted(f"g.{attribute}"), "me")


def refill(compiler, p: str) -> list:
    """The slot a face-up card left, filled from the top of its deck (left empty when the deck is)."""
    deck = ir.name("_deck")
    top = ir.method(deck, "pop")
    if not compiler.plan.face_up_costs:
        return [
            Assign((deck,), ir.sub(ir.dotted("g.decks"), f"{p}_LI")),
            Assign((_slot(p),), ir.ifexp(deck, top, NONE)),
        ]
    return [
        Assign((deck,), ir.sub(ir.dotted("g.decks"), f"{p}_LI")),
        If(
            deck,
            [Assign((_slot(p), ir.name("_card")), top), *compiler.face_up_cost(p, ir.sub("CARD_COST", "_card"))],
            [Assign((_slot(p),), NONE), *compiler.face_up_cost(p, NO_CARD_COST)],
        ),
    ]


def acquire(compiler, p: str, origin: str) -> list:
    """A card bought: off the market or out of the hand, into the purchases (bonus, points)."""
    if origin == "face_up":
        out = [If(ir.compare(_slot(p), "==", p), [Assign((_slot(p),), NONE), *compiler.face_up_cost(p, NO_CARD_COST)])]
    else:
        out = [
            If(
                ir.compare(p, "in", _mine("_res")),
                [
                    Do(ir.method(_mine("_res"), "remove", p)),
                    If(ir.compare(p, "in", _mine("blind")), [Do(ir.method(_mine("blind"), "remove", p))]),
                ],
            )
        ]
    bonus = ir.sub("bon", base_columns.colour_of(compiler.plan.rules, ir.name(p)))
    return out + [
        Append(_mine("_bought"), ir.name(p)),
        Assign((bonus,), base_columns.bonus_given(compiler.plan.rules, p), "+="),
        Assign((_mine("_pts"),), ir.sub("CARD_POINTS", p), "+="),
    ]


def bury(compiler, p: str, origin: str) -> list:
    """A card to the bottom of its level's deck (drawn last), from the market or the hand."""
    if origin == "face_up":
        return [
            Do(ir.method(ir.sub(ir.dotted("g.decks"), f"{p}_LI"), "insert", 0, p)),
            Assign((_slot(p),), NONE),
            *compiler.face_up_cost(p, NO_CARD_COST),
        ]
    return [
        Do(ir.method(_mine("_res"), "remove", p)),
        If(ir.compare(p, "in", _mine("blind")), [Do(ir.method(_mine("blind"), "remove", p))]),
        Do(ir.method(ir.sub(ir.dotted("g.decks"), ir.minus(ir.sub("CARD_LEVEL", p), 1)), "insert", 0, p)),
    ]
