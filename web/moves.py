"""What a move points at and what it would do, read from the engine, for the board.

The board never recomputes a rule: which cards a seat can buy or reserve, which noble or city
it may take, how many tokens it must return and what a purchase would cost it are all read
from the engine here, through its public API (``describe_action``, ``DECISION_INFO``,
``legal_actions``, ``clone``, ``apply``, ``tokens``, ``reserved``, ``blind``, ``purchased``):

- :func:`targets`: for every action id, what its choices point at on the board (a face-up card,
  a reserved card, a deck, a noble, a component) and whether it is a purchase or a payment;
- :func:`payments`: what each legal purchase (or payment) would take from the seat's tokens,
  by applying it to a clone of the game: the engine's own payment, bonuses and gold included;
- :func:`repeats`: how many times in a row the seat will be asked the step it is in;
- :func:`taken_card` and :func:`named_card`: the card a move bought or reserved, when everyone may
  know it, for a log that names cards by what they are rather than by a slot refilled since.
"""

from __future__ import annotations

import functools
from types import ModuleType
from typing import Any

MAX_REPEATS = 30  # a step asked more often than this in a row is shown as "30": a bound on the work


def _info(module: ModuleType) -> dict[str, Any]:
    """Each decision's metadata by name (DECISION_INFO: its choices' domains, whether it pays)."""
    return {d.name: d for d in getattr(module, "DECISION_INFO", ())}


@functools.lru_cache(maxsize=64)
def targets(module: ModuleType) -> tuple[dict[str, Any], ...]:
    """Per action id: the face-up card ([level, slot]), reserved card (from 1), deck (its level),
    noble (place in the row, from 1) and component (its place in the zone or its id in the kind
    it is chosen from) its choices name, or None; `pays`: a purchase whose payment the engine
    works out; `payment`: an action of the payment step."""
    info = _info(module)
    out = []
    for a in range(module.NUM_ACTIONS):
        rule, params = module.describe_action(a)
        decision = info.get(rule)
        domains = {p.name: p.domain for p in decision.params} if decision is not None else {}
        found: dict[str, Any] = {"card": None, "reserved": None, "deck": None, "noble": None, "component": None}
        for name, value in params.items():
            domain = domains.get(name)
            if domain == "face_up" and isinstance(value, tuple):
                found["card"] = [value[0], value[1]]
            elif domain in ("reserved", "deck", "noble", "component") and type(value) is int:
                found[domain] = value
        found["pays"] = bool(decision is not None and decision.pays)
        found["payment"] = "payment" in domains.values()
        out.append(found)
    return tuple(out)


def _spent(before: list[int], after: list[int], colours: tuple[str, ...]) -> dict[str, int] | None:
    """The tokens a move took, colour by colour; None when it also gave some (a step of the
    spec that ran by itself in the same move): then the difference is not the payment alone,
    and it may depend on what the move showed the mover only, so it is not said."""
    if any(after[i] > before[i] for i in range(len(colours))):
        return None
    return {c: before[i] - after[i] for i, c in enumerate(colours) if before[i] > after[i]}


def payments(module: ModuleType, game: Any, seat: int) -> dict[str, list[dict[str, int]]]:
    """For each legal purchase of `seat` (or each payment, in the payment step), the tokens it
    would take from the seat, one per payment the engine accepts (in the engine's order, the one
    without wild tokens first): the move applied to a clone, the seat's tokens compared. A move
    that also gives the seat tokens (a step that runs by itself) gets an empty list: no figure."""
    if game.is_over() or game.current_player != seat:
        return {}
    moves = targets(module)
    before = list(game.tokens[seat])
    out: dict[str, list[dict[str, int]]] = {}
    for action in game.legal_actions():
        if not (moves[action]["pays"] or moves[action]["payment"]):
            continue
        trial = game.clone()
        trial.apply(action)
        options = []
        if (
            not trial.is_over()
            and trial.current_player == seat
            and trial.legal_actions()
            and all(moves[p]["payment"] for p in trial.legal_actions())
        ):
            for pay in trial.legal_actions():  # several payments: each one's tokens
                paid = trial.clone()
                paid.apply(pay)
                options.append(_spent(before, paid.tokens[seat], module.COLOURS))
        else:
            options.append(_spent(before, trial.tokens[seat], module.COLOURS))
        out[str(action)] = [o for o in options if o is not None] if None not in options else []
    return out


def repeats(game: Any, seat: int) -> int:
    """How many actions of the step `seat` is in it will be asked in a row (1 outside a step):
    the engine's first legal option applied to a clone until the step is over or passes on."""
    if game.is_over() or game.current_player != seat or game.phase == "action":
        return 1
    phase = game.phase
    trial = game.clone()
    n = 0
    while n < MAX_REPEATS and not trial.is_over() and trial.current_player == seat and trial.phase == phase:
        legal = trial.legal_actions()
        if not legal:
            break
        trial.apply(legal[0])
        n += 1
    return max(n, 1)


def taken_card(module: ModuleType, game: Any, seat: int, action: int) -> tuple[int | None, bool]:
    """The card `action` of `seat` would take from the market or its reserve in `game` (before
    the move), and whether it is hidden from the other seats (reserved blind); (None, False) for
    any other move."""
    target = targets(module)[action]
    if target["card"] is not None:
        level, slot = target["card"]
        row = game.market[list(module.LEVELS).index(level)]
        return (row[slot - 1] if slot - 1 < len(row) else None), False
    if target["reserved"] is not None:
        held = game.reserved[seat]
        if 0 < target["reserved"] <= len(held):
            card = held[target["reserved"] - 1]
            return card, card in game.blind[seat]
    return None, False


def named_card(taken: tuple[int | None, bool], after: Any, seat: int) -> int | None:
    """The card a move took (:func:`taken_card` before it), when everyone may know it: a face-up
    card always, a reserved one unless it was reserved blind and is still hidden after the move
    (a purchase shows it). The log names cards by this, never by their slot."""
    card, hidden = taken
    if card is None or (hidden and card not in after.purchased[seat]):
        return None
    return card
