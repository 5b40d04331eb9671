"""The effects that move a development card between the decks, the market and a player's hand or
purchases (refill, acquire, bury), as statements: helpers of compiler/lower/expressions.py, split
from it to keep each module small. `p` is the card's Python name; a face-up card also has its
place, `p_LI` and `p_SI`; the `compiler` is the ExprCompiler, which keeps Game.face_up_costs in
step with the market where the engine has it."""
from __future__ import annotations

from .tree import Append, Assign, Do, If


def refill(compiler, p: str) -> list:
    """The slot a face-up card left, filled from the top of its deck (left empty when the deck is)."""
    if not compiler.plan.face_up_costs:
        return [Assign(("_deck",), f"g.decks[{p}_LI]"),
                Assign((f"g.market[{p}_LI][{p}_SI]",), "_deck.pop() if _deck else None")]
    return [Assign(("_deck",), f"g.decks[{p}_LI]"),
            If("_deck", [Assign((f"g.market[{p}_LI][{p}_SI]", "_card"), "_deck.pop()"),
                         *compiler.face_up_cost(p, "CARD_COST[_card]")],
               [Assign((f"g.market[{p}_LI][{p}_SI]",), "None"), *compiler.face_up_cost(p, "_NO_CARD_COST")])]


def acquire(compiler, p: str, origin: str) -> list:
    """A card bought: off the market or out of the hand, into the purchases (bonus, points)."""
    if origin == "face_up":
        out = [If(f"g.market[{p}_LI][{p}_SI] == {p}", [Assign((f"g.market[{p}_LI][{p}_SI]",), "None"),
                                                      *compiler.face_up_cost(p, "_NO_CARD_COST")])]
    else:
        out = [If(f"{p} in g._res[me]", [Do(f"g._res[me].remove({p})"),
                                        If(f"{p} in g.blind[me]", [Do(f"g.blind[me].remove({p})")])])]
    return out + [Append("g._bought[me]", p), Assign((f"bon[CARD_BONUS[{p}]]",), "1", "+="),
                  Assign(("g._pts[me]",), f"CARD_POINTS[{p}]", "+=")]

def bury(compiler, p: str, origin: str) -> list:
    """A card to the bottom of its level's deck (drawn last), from the market or the hand."""
    if origin == "face_up":
        return [Do(f"g.decks[{p}_LI].insert(0, {p})"), Assign((f"g.market[{p}_LI][{p}_SI]",), "None"),
                *compiler.face_up_cost(p, "_NO_CARD_COST")]
    return [Do(f"g._res[me].remove({p})"), If(f"{p} in g.blind[me]", [Do(f"g.blind[me].remove({p})")]),
            Do(f"g.decks[CARD_LEVEL[{p}] - 1].insert(0, {p})")]
