"""The game loop: the Game class (its state, legal actions, apply and playout, saving); a new game is
dealt by compiler/emit/runtime/deal.py.

Part of the runtime of every generated engine (see compiler/emit/runtime/__init__.py): pasted
into each engine whole. What a spec adds to these functions they run by calling its hooks
(compiler/emit/runtime/spec.py): Game.apply its end-of-turn steps and end triggers
(_end_of_turn), its turn resets (_reset_turn), its actions that do not end the turn (_keep_turn) and
its extra turns (_turn_again), Game._state its declared state and zones
(_state_json).
"""

from __future__ import annotations

import json
import operator
import random
from typing import Any

from .aliases import State
from .errors import IllegalAction, Refusal
from .explain import _explain
from .face_up import _NO_CARD_COST
from .spec import (
    _ACTION_MODE,
    _APPLY,
    _EXTRA_SLOTS,
    _EXTRA_TURNS,
    _FACE_UP_COSTS,
    _FACE_UP_SLOTS,
    _KEEPS_TURN,
    _LEGAL,
    _N_ACTION_DECISIONS,
    _N_STEPS,
    _OVER_MODE,
    _PAY,
    _PAY_BASE,
    _PAYOPTS,
    _SPEND_BASE,
    _STUCK,
    _WILD_INDEX,
    _WILD_PLACES,
    ACTION_STRINGS,
    ACTIONS,
    CARD_LEVEL,
    COLOURS,
    DECISIONS,
    GEMS,
    LEVELS,
    MAX_TURNS,
    NUM_ACTIONS,
    PLAYER_COUNTS,
    SETUP,
    SPEC_NAME,
    SPEC_SHA256,
    STATE_FORMAT,
    STATE_VERSION,
    TRUNCATED,
    _action_phase_legal,
    _eligible,
    _end_of_turn,
    _keep_turn,
    _prestige_totals,
    _rank_key,
    _reset_turn,
    _set_aside,
    _state_json,
    _turn_again,
)

# Game.extra, as a saved state names it: no extra turn; one owed after this turn (extra_turn());
# this turn is the extra one (extra_turn() does nothing in it: extra turns never chain).
EXTRA_TURN_STATES = ("none", "owed", "playing")


def _fresh(value: Any) -> Any:
    """A game's own copy of an extra slot's value: tuples and lists become new lists, all the way
    down; numbers, flags, names and None are shared (they are immutable)."""
    return [_fresh(x) for x in value] if isinstance(value, (list, tuple)) else value


class Game:
    """A game in progress. Read the state from the attributes; change it only with apply()."""

    __slots__ = (
        (
            "_n",
            "_cp",
            "mode",
            "step",
            "step_count",
            "supply",
            "_tok",
            "_bon",
            "_pts",
            "_bought",
            "_res",
            "blind",
            "_nob",
            "market",
            "decks",
            "noble_row",
            "round",
            "turn",
            "turns",
            "passes",
            "ending",
            "end_reason",
            "seed",
            "start",
            "origin",
            "history",
            "pending",
            "max_turns",
            "_legal",
            "out_of_play",
            "taken",
            "extra",
            "setup_gems",
            "setup_gold",
            "setup_nobles",
            "setup_face_up",
        )
        + (("face_up_costs",) if _FACE_UP_COSTS else ())
        # chosen once, when the class is made (a list, not a generator: a native build compiles
        # this class body as a cdef class's, where a generator would be read as a method)
        + tuple([name for name, _, _ in _EXTRA_SLOTS])
    )

    def __init__(self, players: int) -> None:
        if players not in SETUP:
            raise ValueError(f"this engine plays with {', '.join(map(str, PLAYER_COUNTS))} players, not {players!r}")
        self._n = players
        self.setup_gems, self.setup_gold, self.setup_nobles, self.setup_face_up = SETUP[players]
        self._cp: int = 0
        self.mode = _ACTION_MODE
        self.step = 0
        self.step_count = 0
        self.supply: list[int] = [self.setup_gems] * len(GEMS) + [self.setup_gold]
        # one new list per player (map(list, ...) makes them without a Python-level loop)
        self._tok: list[list[int]] = list(map(list, [(0,) * len(COLOURS)] * players))
        self._bon: list[list[int]] = list(map(list, [(0,) * len(GEMS)] * players))
        self._pts: list[int] = [0] * players
        self._bought: list[list[int]] = list(map(list, [()] * players))
        self._res: list[list[int]] = list(map(list, [()] * players))
        self.blind: list[list[int]] = list(map(list, [()] * players))
        self._nob: list[list[int]] = list(map(list, [()] * players))
        self.market: list[list[int | None]] = list(map(list, [(None,) * self.setup_face_up] * len(LEVELS)))
        if _FACE_UP_COSTS:
            self.face_up_costs: list[tuple[int, ...]] = [_NO_CARD_COST] * (
                len(LEVELS) * _FACE_UP_SLOTS
            )  # kept in step with market by the effects
        self.decks: list[list[int]] = list(map(list, [()] * len(LEVELS)))
        self.noble_row: list[int] = []
        self.round = 1
        self.turn = 1
        self.turns = [1] + [0] * (players - 1)
        self.passes = 0
        self.taken = 0  # bit d: the action of decision d, which does not end the turn, was taken this turn
        self.extra = 0  # an index of EXTRA_TURN_STATES: is an extra turn owed, or being played?
        self.ending: tuple[str, str, int] | None = None  # (trigger, finish, last seat) once a trigger holds
        self.end_reason: str | None = None
        self.seed: int | None = None
        self.start: State | None = None
        for name, per_player, initial in _EXTRA_SLOTS:  # the spec's own zones and state, when it has some
            setattr(self, name, [_fresh(initial) for _ in range(players)] if per_player else _fresh(initial))
        self.origin: State | None = None
        self.history: list[int] = []
        self.pending: int | None = None  # the purchase waiting for its payment (an action id), in the payment step
        self.max_turns: int | None = MAX_TURNS  # the length cap (new_game and from_json may change it)
        self.out_of_play: tuple[tuple[int, ...], ...] | None = (
            None  # per level, the ids of the cards out of the game (from_json); None: none
        )
        self._legal: list[int] | None = None

    # -- reading the state

    @property
    def num_players(self) -> int:
        return self._n

    @property
    def current_player(self) -> int:
        return self._cp

    @property
    def phase(self) -> str:
        if self.mode == _OVER_MODE:
            return "over"
        if self.mode == _ACTION_MODE:
            return "action"
        return DECISIONS[self.mode]

    @property
    def tokens(self) -> list[list[int]]:
        return self._tok

    @property
    def bonus(self) -> list[list[int]]:
        return self._bon

    @property
    def prestige(self) -> list[int]:
        return _prestige_totals(self)  # the hook: the cards' and nobles' alone, or with the spec's sources

    @property
    def purchased(self) -> list[list[int]]:
        return self._bought

    @property
    def reserved(self) -> list[list[int]]:
        return self._res

    @property
    def nobles(self) -> list[list[int]]:
        return self._nob

    def face_up_count(self, level: int) -> int:
        return sum(1 for c in self.market[level - 1] if c is not None)

    # -- playing

    def legal_actions(self) -> list[int]:
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        return list(legal)

    def legal_mask(self) -> list[bool]:
        mask = [False] * NUM_ACTIONS
        for a in self.legal_actions():
            mask[a] = True
        return mask

    def _compute_legal(self) -> list[int]:
        mode = self.mode
        out: list[int] = []
        if mode == _ACTION_MODE:
            _action_phase_legal(self, out)
            if self.taken:  # an action that does not end the turn is taken at most once a turn
                taken = self.taken
                out = [a for a in out if not taken >> ACTIONS[a][0] & 1]
            if not out and _STUCK >= 0:
                _LEGAL[_STUCK](self, out)  # type: ignore[misc]  # the action taken when stuck has one
            return out  # sorted by construction: decisions in id order, each in increasing ids
        elif mode == _PAY:
            d, args = ACTIONS[self.pending]  # type: ignore[index]  # set in the payment step
            out = [_PAY_BASE + i for i in _PAYOPTS[d](self, args)]  # type: ignore[misc]  # a purchase's
        elif mode >= 0:
            _LEGAL[mode](self, out)  # type: ignore[misc]  # a step's: never None
        out.sort()
        return out

    def apply(self, action: int) -> None:
        """Play `action` (a legal id; another library's integer type is taken as an int), then the
        end of the turn: the end-of-turn steps from the one it was taken in, the end triggers and
        the next turn (IllegalAction, saying why, for an action that is not legal now).

        An action with `ends_turn: false` (_KEEPS_TURN) returns to the same player's choice while some
        action is legal (each at most once a turn: Game.taken); a player owed an extra turn (Game.extra,
        set by extra_turn()) plays again after the end triggers, in the same round, unless the end is due.

        The steps run from `step` (`count` of its actions done), in spec order (_end_of_turn): a step is
        skipped when its while-condition fails (or, at most once, after one action); one legal option is
        applied without asking, several ask the player and apply() returns, to resume there with the
        answer. In an engine, the hooks' bodies are inlined (compiler/emit/inline.py): no call per turn.
        """
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        if type(action) is not int or action not in legal:  # the type first: `in` on an array compares elementwise
            action = self._as_legal_id(action, legal)
        self._legal = None
        self.history.append(action)
        d, args = ACTIONS[action]
        if d == _PAY:  # the payment of the purchase chosen just before
            d, args = ACTIONS[self.pending]  # type: ignore[index]  # a purchase waits in the payment step
            if action >= _SPEND_BASE:  # a component set aside as wild tokens (`wilds`): the player pays on
                _set_aside(self, action - _SPEND_BASE, d, args)
                return
            args = args + (action - _PAY_BASE,)
            self.pending = None
            self.mode = _ACTION_MODE if d < _N_ACTION_DECISIONS else d
        elif _PAYOPTS[d] is not None:
            if self._tok[self._cp][_WILD_INDEX] or _WILD_PLACES:  # wild tokens held, or components may stand for them
                accepted = _PAYOPTS[d](self, args)  # type: ignore[misc]  # not None: tested above
                if (
                    len(accepted) > 1 or _PAY_BASE + accepted[0] >= _SPEND_BASE
                ):  # several ways, or a component to set aside
                    self.pending = action
                    self.mode = _PAY
                    self._legal = [_PAY_BASE + i for i in accepted]
                    return
                args = args + (accepted[0],)
            else:  # no wild token held: the only payment is PAYMENTS[0], and the action is legal
                args = args + (0,)
        _APPLY[d](self, args)
        if self.mode == _ACTION_MODE:
            if _keep_turn(self, d):  # an action that does not end the turn: the player chooses again
                return
            self.passes = self.passes + 1 if d == _STUCK else 0
            step = count = 0
        else:  # an action of the end-of-turn step self.step
            step, count = self.step, self.step_count + 1
        if _end_of_turn(self, step, count):  # a step asks the player, or a trigger ended the game
            return
        if self.ending is not None and self._cp == self.ending[2]:
            self.step, self.step_count = _N_STEPS, 0
            self._finish(self.ending[0])
            return
        if self.max_turns is not None and self.turn >= self.max_turns:  # the length cap: no turn max_turns + 1
            self.step, self.step_count = _N_STEPS, 0
            self._finish(TRUNCATED)
            return
        _turn_again(self)  # an extra turn owed: the seat below is this one again, in the same round
        cp = self._cp + 1
        if cp == self._n:
            cp = 0
            self.round += 1
        self._cp = cp
        self.turn += 1
        self.turns[cp] += 1
        self.mode = _ACTION_MODE
        self.step = 0
        self.step_count = 0
        _reset_turn(self)
        out = self._legal = []
        _action_phase_legal(self, out)
        if not out:
            if _STUCK >= 0:
                _LEGAL[_STUCK](self, out)  # type: ignore[misc]  # the action taken when stuck has one
            if not out:
                self._finish("stuck")

    def playout(self, rng: random.Random | None = None, max_turns: int | None = None) -> int:
        """Play uniformly random legal actions until the game is over; the number applied.

        The rollout of Monte Carlo tree search and of random-play statistics, without a
        call per decision from outside: each action is legal_actions()[i] for i drawn as
        rng.randrange(len(legal)) draws it, so that a playout makes the same choices as
        that loop with the same generator. `rng` is a random.Random (a fresh one when
        None); with `max_turns`, the playout also stops before turn max_turns + 1.
        """
        getrandbits = (rng if rng is not None else random.Random()).getrandbits
        apply = self.apply
        applied = 0
        while self.mode != _OVER_MODE and (max_turns is None or self.turn <= max_turns):
            legal = self._legal
            if legal is None:
                legal = self._legal = self._compute_legal()
            n = len(legal)
            if not n:  # a position set up with no legal action (new games never reach one)
                break
            k = n.bit_length()
            i = getrandbits(k)
            while i >= n:  # what randrange(n) does: rejection keeps every index equally likely
                i = getrandbits(k)
            apply(legal[i])
            applied += 1
        return applied

    def payment_options(self, action: int) -> list[int]:
        """The payment-step actions a purchase would offer now (one per accepted payment); [] otherwise.

        A purchase with a single accepted payment is paid at once; with several, applying it
        enters the "payment" phase, whose legal actions are these.
        """
        d, args = ACTIONS[action]
        payopts = _PAYOPTS[d] if d != _PAY else None
        if payopts is None:
            return []
        return [_PAY_BASE + i for i in payopts(self, args)]

    def _as_legal_id(self, action: Any, legal: list[int]) -> int:
        """A legal id given as another integer type (numpy's, from an RL policy) as an int;
        anything else that is not a legal id raises IllegalAction, saying why."""
        try:
            index = operator.index(action) if type(action) is not bool else None
        except TypeError:
            index = None
        if index is None:
            hint = " (string_to_action reads the notation)" if isinstance(action, str) else ""
            raise IllegalAction(f"an action is an int id, not {type(action).__name__} {action!r}{hint}")
        if index in legal:
            return index
        why = _explain(self, index)
        if isinstance(why, Refusal):
            text = ACTION_STRINGS[index]
            raise IllegalAction(f"illegal action '{text}': {why.reason()}\ndetails: {why.details}", why, text)
        raise IllegalAction(why.message, refused=why)

    def _finish(self, reason: str) -> None:
        self.mode = _OVER_MODE
        self.end_reason = reason
        self._cp = -1
        self._legal = []

    def is_over(self) -> bool:
        return self.mode == _OVER_MODE

    def is_truncated(self) -> bool:
        """Did the game end at its length cap (max_turns) rather than by the rules? Nobody wins it."""
        return self.mode == _OVER_MODE and self.end_reason == TRUNCATED

    def winners(self) -> list[int]:
        if self.mode != _OVER_MODE or self.end_reason == TRUNCATED:
            return []
        eligible = [p for p in range(self._n) if _eligible(self, p)]
        if not eligible:
            return []
        keys = {p: _rank_key(self, p) for p in eligible}
        best = max(keys.values())
        return [p for p in eligible if keys[p] == best]

    def scores(self) -> list[int]:
        return list(_prestige_totals(self))

    def returns(self) -> list[float]:
        if self.mode != _OVER_MODE or self.end_reason == TRUNCATED:  # not over, or stopped unfinished: 0 for all
            return [0.0] * self._n
        won = set(self.winners())
        return [1.0 if p in won else -1.0 for p in range(self._n)]

    def clone(self) -> Game:
        g = Game.__new__(Game)
        g._n = self._n
        g.setup_gems, g.setup_gold, g.setup_nobles, g.setup_face_up = (
            self.setup_gems,
            self.setup_gold,
            self.setup_nobles,
            self.setup_face_up,
        )
        g._cp = self._cp
        g.mode = self.mode
        g.step = self.step
        g.step_count = self.step_count
        g.supply = self.supply[:]
        g._tok = [t[:] for t in self._tok]
        g._bon = [b[:] for b in self._bon]
        g._pts = self._pts[:]
        g._bought = [b[:] for b in self._bought]
        g._res = [r[:] for r in self._res]
        g.blind = [b[:] for b in self.blind]
        g._nob = [n[:] for n in self._nob]
        g.market = [m[:] for m in self.market]
        if _FACE_UP_COSTS:
            g.face_up_costs = self.face_up_costs[:]
        g.decks = [d[:] for d in self.decks]
        g.noble_row = self.noble_row[:]
        g.round = self.round
        g.turn = self.turn
        g.turns = self.turns[:]
        g.passes = self.passes
        g.taken = self.taken
        g.extra = self.extra
        g.ending = self.ending
        g.end_reason = self.end_reason
        g.seed = self.seed
        g.start = self.start
        g.origin = self.origin
        g.history = self.history[:]
        g.pending = self.pending
        g.max_turns = self.max_turns
        for name, _, _ in _EXTRA_SLOTS:
            setattr(g, name, _fresh(getattr(self, name)))
        g.out_of_play = self.out_of_play  # a tuple of tuples: shared
        g._legal = None if self._legal is None else self._legal[:]
        return g

    # -- saving and loading

    def to_dict(self) -> State:
        return self._state(None)

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), sort_keys=True)

    def observation(self, player: int) -> State:
        """What `player` may know: deck order and other players' blind reserves are hidden."""
        if not (type(player) is int and 0 <= player < self._n):
            raise ValueError(f"no player {player!r} in a game of {self._n}")
        return self._state(player)

    def _state(self, observer: int | None) -> State:
        """The whole state (observer None: to_dict), or what `observer` may know (observation).

        One builder for both, so that an observation never copies what it then hides (the
        decks, the history): RL environments ask for one at every step.
        """
        whole = observer is None
        state: State = {
            "format": STATE_FORMAT,
            "version": STATE_VERSION,
            "spec": {"name": SPEC_NAME, "sha256": SPEC_SHA256},
            "players": self._n,
        }
        if whole:
            state["seed"] = self.seed
        state.update(
            {
                "current_player": self._cp,
                "phase": self.phase,
                "step": self.step,
                "step_count": self.step_count,
                "round": self.round,
                "turn": self.turn,
                "passes": self.passes,
                "ending": None
                if self.ending is None
                else {"trigger": self.ending[0], "finish": self.ending[1], "last_seat": self.ending[2]},
                "end_reason": self.end_reason,
                "supply": {c: self.supply[i] for i, c in enumerate(COLOURS)},
                "market": {str(lv): list(self.market[i]) for i, lv in enumerate(LEVELS)},
                "decks": {
                    str(lv): list(reversed(self.decks[i])) if whole else len(self.decks[i])
                    for i, lv in enumerate(LEVELS)
                },
                "nobles": list(self.noble_row),
                "seats": [self._seat(p, whole or p == observer) for p in range(self._n)],
                "pending": self.pending,
            }
        )
        _state_json(self, state, observer)  # the spec's declared state and zones, when it has some
        if _KEEPS_TURN:  # absent for a spec without such actions (so its states are as before)
            state["taken"] = [DECISIONS[d] for d in _KEEPS_TURN if self.taken >> d & 1]
        if _EXTRA_TURNS:  # absent for a spec that gives no extra turn
            state["extra_turn"] = EXTRA_TURN_STATES[self.extra]
        if self.max_turns is not None:  # absent: no cap (so the states of specs without one are as before)
            state["max_turns"] = self.max_turns
        if self.out_of_play is not None:  # absent: every card is in play (the states of a new game are as before)
            state["out_of_play"] = {str(lv): list(self.out_of_play[i]) for i, lv in enumerate(LEVELS)}
        if whole:
            state["start"] = self.start
            state["history"] = list(self.history)
        else:
            state["observer"] = observer
        return state

    def _seat(self, p: int, seen: bool) -> State:
        """A seat's part of the state; its blind reserves hidden (None, and their levels) unless `seen`."""
        blind = self.blind[p]
        return {
            "tokens": {c: self._tok[p][i] for i, c in enumerate(COLOURS)},
            "purchased": list(self._bought[p]),
            "reserved": list(self._res[p]) if seen or not blind else [None if c in blind else c for c in self._res[p]],
            "blind": list(blind) if seen else [CARD_LEVEL[c] for c in blind],
            "nobles": list(self._nob[p]),
            "turns": self.turns[p],
        }

    def record(self) -> State:
        """Everything replay() needs to reproduce this game exactly."""
        start = self.start if self.start is not None else self.origin
        done_before = len(start.get("history", [])) if start is not None else 0
        return {
            "spec": SPEC_NAME,
            "sha256": SPEC_SHA256,
            "seed": self.seed,
            "players": self._n,
            "start": start,
            "actions": self.history[done_before:],
        }
