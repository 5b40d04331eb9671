"""Loading a saved game: a state read (from_json), refused with its problems (compiler/emit/runtime/problems.py)
or loaded into the game it describes, and replay.

Part of the runtime of every generated engine (see compiler/emit/runtime/__init__.py): pasted
into each engine whole. The spec's declared state and zones are checked and loaded by its hooks
(_state_problems, _load_state: compiler/emit/runtime/spec.py).
"""

from __future__ import annotations

import json
from typing import Any

from .aliases import Problem, State
from .deal import new_game
from .errors import IllegalAction, StateError
from .face_up import _face_up_costs
from .game import EXTRA_TURN_STATES, Game
from .problems import _problems
from .spec import (
    _ACTION_MODE,
    _FACE_UP_COSTS,
    _OVER_MODE,
    CARD_BONUS,
    CARD_POINTS,
    COLOURS,
    DECISIONS,
    LEVELS,
    MAX_TURNS,
    NOBLE_POINTS,
    SPEC_NAME,
    SPEC_SHA256,
    _load_state,
)


def _json_problem(err: json.JSONDecodeError) -> str:
    """Where a state's JSON breaks: line and column, the line itself and a caret under the place."""
    lines = err.doc.splitlines()
    line = lines[err.lineno - 1] if err.lineno <= len(lines) else ""
    start = max(0, err.colno - 60)  # a long (compact) line: the 100 characters around the place
    shown = ("..." if start else "") + line[start : start + 100]
    caret = " " * (err.colno - 1 - start + (3 if start else 0)) + "^"
    reason = err.msg[:1].lower() + err.msg[1:]
    return f"the state is not valid JSON: line {err.lineno}, column {err.colno}: {reason}\n  {shown}\n  {caret}"


def from_json(state: str | bytes | State) -> Game:
    """A game from to_json() text or its dict; raises StateError listing every problem.

    Nothing outside the new game is changed, so a failed load leaves every game as it was.
    """
    if isinstance(state, (str, bytes)):
        if isinstance(state, str) and state.startswith("\ufeff"):  # a file read with its byte-order mark
            state = state[1:]
        try:
            data = json.loads(state)
        except json.JSONDecodeError as err:
            raise StateError(_json_problem(err)) from None
        except RecursionError:
            raise StateError("the state is not a saved game: its JSON is nested too deeply") from None
        except ValueError as err:  # bytes that are not UTF-8 text, a number of thousands of digits
            raise StateError(f"the state is not valid JSON: {err}") from None
    else:
        data = state
    try:
        problems = _problems(data)
    except RecursionError:  # a dict built in Python, nested past what the checks can walk
        problems = [((), "the state is nested too deeply")]
    if problems:
        raise _invalid(problems)
    game = _load(data)
    if game.mode != _OVER_MODE:
        game._legal = game._compute_legal()
        if not game._legal:
            raise _invalid(
                [
                    (
                        ("phase",),
                        f"player {game._cp + 1} has no legal action in phase {game.phase!r} (the game could not go on)",
                    )
                ]
            )
    if game.start is not None:
        _check_replays(game)
    return game


def _check_replays(game: Game) -> None:
    """A state that says where it started must be what its moves make of that start: else record()
    and replay() would give another game than the one loaded (the state or its start was edited)."""
    try:
        again = replay(game.record())
    except StateError as err:
        raise _invalid(
            [(("history",), "its 'history' cannot be played from its 'start': " + str(err).replace("\n", " "))]
        ) from None
    if again.to_dict() != game.to_dict():
        raise _invalid(
            [
                (
                    (),
                    "playing its 'history' from its 'start' does not lead to this state "
                    "(the state or its start was edited)",
                )
            ]
        )


def _invalid(problems: list[Problem]) -> StateError:
    """The StateError of a state with these (path, sentence) problems: one sentence a line."""
    return StateError("invalid state:\n" + "\n".join(f"  - {sentence}" for _, sentence in problems), problems)


def _load(data: State) -> Game:
    """The game of a state dict that _problems found sound."""
    n = data["players"]
    game = Game(n)
    game.seed = data.get("seed")
    game.supply = [data["supply"][c] for c in COLOURS]
    for p, seat in enumerate(data["seats"]):
        game._tok[p] = [seat["tokens"][c] for c in COLOURS]
        game._bought[p] = list(seat.get("purchased", []))
        game._res[p] = list(seat.get("reserved", []))
        game.blind[p] = list(seat.get("blind", []))
        game._nob[p] = list(seat.get("nobles", []))
        game.turns[p] = seat.get("turns", 0)
        for c in game._bought[p]:
            game._bon[p][CARD_BONUS[c]] += 1
        game._pts[p] = sum(CARD_POINTS[c] for c in game._bought[p]) + sum(NOBLE_POINTS[x] for x in game._nob[p])
    game.market = [list(data["market"][str(lv)]) for lv in LEVELS]
    if _FACE_UP_COSTS:
        game.face_up_costs = _face_up_costs(game.market)
    game.decks = [list(reversed(data["decks"][str(lv)])) for lv in LEVELS]
    game.noble_row = list(data["nobles"])
    game._cp = data["current_player"]
    phase = data["phase"]
    game.mode = _OVER_MODE if phase == "over" else _ACTION_MODE if phase == "action" else DECISIONS.index(phase)
    game.step = data.get("step", 0)
    game.step_count = data.get("step_count", 0)
    game.round = data["round"]
    game.turn = data["turn"]
    game.passes = data.get("passes", 0)
    game.taken = sum(1 << DECISIONS.index(name) for name in data.get("taken", []))
    game.extra = EXTRA_TURN_STATES.index(data.get("extra_turn", "none"))
    ending = data.get("ending")
    game.ending = None if ending is None else (ending["trigger"], ending["finish"], ending["last_seat"])
    game.end_reason = data.get("end_reason")
    game.history = list(data.get("history", []))
    game.pending = data.get("pending")
    game.max_turns = data.get("max_turns", MAX_TURNS)
    game.start = data.get("start")
    out_of_play = data.get("out_of_play") or {}
    if any(out_of_play.values()):
        game.out_of_play = tuple(tuple(out_of_play.get(str(lv), ())) for lv in LEVELS)
    _load_state(game, data)  # the spec's declared state and zones, when it has some
    # A record replays from the position this state started from, or else from this one
    # (it may have been edited, so its seed and history are not trusted to rebuild it).
    game.origin = game.to_dict() if game.start is None else None
    if game.mode == _OVER_MODE:
        game._legal = []
    return game


def replay(record: Any) -> Game:
    """The game a record() describes, reproduced move by move."""
    if not isinstance(record, dict):
        raise StateError("a record is a JSON object with spec, sha256, seed, players and actions")
    if record.get("spec") != SPEC_NAME or record.get("sha256") != SPEC_SHA256:
        raise StateError(
            f"the record is for spec {record.get('spec')!r} ({str(record.get('sha256'))[:12]}), "
            f"this engine plays {SPEC_NAME!r} ({SPEC_SHA256[:12]})"
        )
    if record.get("start") is not None:
        game = from_json(record["start"])
    else:
        game = new_game(record.get("players"), seed=record.get("seed"))  # type: ignore[arg-type]  # new_game checks them
    for i, action in enumerate(record.get("actions", [])):
        try:
            game.apply(action)
        except IllegalAction as err:
            raise StateError(f"move {i + 1} of the record cannot be played: {err}") from None
    return game
