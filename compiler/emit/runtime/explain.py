"""Why a move is refused: the reason Game.apply gives for an action that is not legal now.

Part of the runtime of every generated engine (see compiler/emit/runtime/__init__.py): pasted
into each engine whole, before the Game class, whose apply calls it for an illegal action only
(so its cost is never a legal move's). The engine's own reasons are Refused values, worded in the
players' languages by the sheets (compiler/sheets/refusals.py); a condition of the rules gives
its Refusal (compiler/emit/runtime/errors.py).
"""

from __future__ import annotations

from typing import Any

from .errors import Refusal, Refused, _refused
from .spec import (
    _ACTION_MODE,
    _N_ACTION_DECISIONS,
    _OVER_MODE,
    _PAY,
    _STUCK,
    _WHY,
    ACTION_STRINGS,
    ACTIONS,
    DECISIONS,
    NUM_ACTIONS,
    _action_phase_legal,
)


def _explain(self: Any, action: int) -> Refused | Refusal:
    """Why `action` is not legal for the game `self` (a Game: this module comes before the class,
    which calls it) now: a Refused (the engine's own reason, out of turn, after the end, a payment
    missing) or the Refusal of the rule that refuses it."""
    if type(action) is not int or not 0 <= action < NUM_ACTIONS:
        return _refused("no_id", "no action has id {id!r} (ids run from 0 to {last})", id=action, last=NUM_ACTIONS - 1)
    text = ACTION_STRINGS[action]
    if self.mode == _OVER_MODE:
        return _refused("over", "the game is over", action=text)
    d, args = ACTIONS[action]
    if d == _PAY:
        if self.mode != _PAY:
            return _refused("no_purchase", "no purchase is waiting for its payment", action=text)
        return _refused("bad_payment", "not a payment the rules accept for this purchase", action=text)
    player = self._cp + 1
    options = ", ".join(ACTION_STRINGS[a] for a in self.legal_actions()[:8])
    if self.mode == _PAY:
        waiting = ACTION_STRINGS[self.pending]  # a purchase waits
        english = "player {player} must first choose how to pay for '{waiting}' ({options})"
        return _refused("pay_first", english, action=text, player=player, waiting=waiting, options=options)
    is_step = d >= _N_ACTION_DECISIONS
    if (self.mode == _ACTION_MODE and is_step) or (self.mode >= 0 and d != self.mode):
        if self.mode == _ACTION_MODE:
            return _refused("choose_action", "player {player} must now choose an action", action=text, player=player)
        english = "player {player} must first finish step '{step}' ({options})"
        return _refused("finish_step", english, action=text, player=player, step=DECISIONS[self.mode], options=options)
    if d == _STUCK:  # required when no other action is legal, where its own condition holds
        others: list[int] = []
        _action_phase_legal(self, others)
        if any(not self.taken >> ACTIONS[a][0] & 1 for a in others):
            return _refused("only_stuck", "it is allowed only when no other action is", action=text)
    if self.taken >> d & 1:
        english = "it does not end the turn, and it was taken once this turn already"
        return _refused("taken_once", english, action=text)
    reason = _WHY[d](self, args)
    if isinstance(reason, Refusal):
        return reason
    if reason:  # a reason the rules' functions give in English only
        return _refused("other", "{reason}", action=text, reason=reason)
    return _refused("not_legal", "not legal in this position", action=text)
