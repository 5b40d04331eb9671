"""Loading a saved game: every problem of a state (from_json), the game it loads into, and replay.

Part of the runtime of every generated engine (see compiler/emit/runtime/__init__.py): pasted
into each engine whole. The spec's declared state and zones are checked and loaded by its hooks
(_state_problems, _load_state: compiler/emit/runtime/spec.py).
"""
from __future__ import annotations

import json
from typing import Any

from .aliases import CardList, Path, Problem, State
from .errors import IllegalAction, StateError, _shown
from .game import Game, _face_up_costs, new_game
from .spec import (
    _ACTION_MODE,
    _FACE_UP_COSTS,
    _N_ACTION_DECISIONS,
    _N_STEPS,
    _OVER_MODE,
    _PAY_BASE,
    _PAYOPTS,
    _STEPS,
    ACTION_PARAMS,
    ACTIONS,
    CARD_BONUS,
    CARD_LEVEL,
    CARD_POINTS,
    CARDS,
    COLOURS,
    DECISIONS,
    GEMS,
    LEVELS,
    MAX_RESERVED,
    MAX_TURNS,
    NOBLE_POINTS,
    NOBLES,
    NUM_ACTIONS,
    PLAYER_COUNTS,
    SETUP,
    SPEC_NAME,
    SPEC_SHA256,
    STATE_FORMAT,
    STATE_VERSION,
    STEPS,
    TRIGGERS,
    TRUNCATED,
    _load_state,
    _state_problems,
)


def _is_count(value: object, least: int = 0) -> bool:
    return type(value) is int and value >= least


def _problems(data: Any, nested: bool = False) -> list[Problem]:
    """Every inconsistency of a state dict, as (path, sentence) pairs (empty when it is sound).

    Types and ranges of every field, then the invariants between fields (tokens add up, each
    card in one place, phase and pending, step and step_count, ending and seats, end_reason
    and phase, turn and max_turns). `nested`: the state is another's `start`, which starts
    nowhere else. A state that passes loads into a game that plays on from there. Each path
    leads to the value the sentence is about (see StateError); a problem between fields
    points at the field that is most likely wrong, one of the whole state at ().
    """
    out: list[Problem] = []
    if not isinstance(data, dict):
        return [((), f"a state is a JSON object, not {_shown(data)}")]
    if data.get("format") != STATE_FORMAT:
        out.append((("format",), f"'format' must be {STATE_FORMAT!r}, not {_shown(data.get('format'))}"))
    if type(data.get("version")) is not int or data.get("version") != STATE_VERSION:
        out.append((("version",), f"'version' must be {STATE_VERSION}, not {_shown(data.get('version'))}"))
    spec = data.get("spec") or {}
    if not isinstance(spec, dict) or spec.get("name") != SPEC_NAME:
        out.append((("spec", "name"), f"the state is for spec "
                    f"{_shown(spec.get('name') if isinstance(spec, dict) else spec)}, this engine plays {SPEC_NAME!r}"))
    elif spec.get("sha256") != SPEC_SHA256:
        out.append((("spec", "sha256"), "the state was saved by an engine built from another version of the spec"))
    n = data.get("players")
    if type(n) is not int or n not in SETUP:
        out.append((("players",), f"'players' must be one of {', '.join(map(str, PLAYER_COUNTS))}, not {_shown(n)}"))
        return out
    gems, gold, nobles_shown, face_up = SETUP[n]

    def count(value: Any, path: Path, least: int = 0) -> int:
        if not _is_count(value, least):
            out.append((path, f"{_dotted(path)} must be a whole number of at least {least}, not {_shown(value)}"))
            return least
        return value

    def tokens(value: Any, path: Path) -> list[int]:
        if not isinstance(value, dict) or set(value) != set(COLOURS):
            out.append((path, f"{_dotted(path)} must give a count for each of {', '.join(COLOURS)}"))
            return [0] * len(COLOURS)
        return [count(value[c], path + (c,)) for c in COLOURS]

    def card_list(value: Any, path: Path, where: str) -> list[tuple[int, Path]]:
        """The card ids of a list, each with its path; `where` names the list in the sentences."""
        if not isinstance(value, list):
            out.append((path, f"{where} must be a list of card ids"))
            return []
        ids: list[tuple[int, Path]] = []
        for i, c in enumerate(value):
            if c is None and path[0] == "market":
                continue
            if type(c) is not int or not 0 <= c < len(CARDS):
                out.append((path + (i,), f"{where}: unknown card {_shown(c)} (cards are 0 to {len(CARDS) - 1})"))
            else:
                ids.append((c, path + (i,)))
        return ids

    seed = data.get("seed")
    if seed is not None and type(seed) is not int:
        out.append((("seed",), f"'seed' must be a whole number or null, not {_shown(seed)}"))
    supply = tokens(data.get("supply"), ("supply",))
    seats = data.get("seats")
    if not isinstance(seats, list) or len(seats) != n:
        out.append((("seats",), f"'seats' must list {n} players"))
        return out
    placed: list[tuple[int, Path]] = []  # (card id, path) of every card on the table, in the order a reader meets them
    owned_nobles: list[int] = []
    reserved_counts: list[int] = []
    totals = supply[:]
    for p, seat in enumerate(seats):
        at = ("seats", p)
        where = _dotted(at)
        if not isinstance(seat, dict):
            out.append((at, f"{where} must be an object"))
            reserved_counts.append(0)
            continue
        held = tokens(seat.get("tokens"), at + ("tokens",))
        totals = [a + b for a, b in zip(totals, held, strict=True)]
        placed += card_list(seat.get("purchased", []), at + ("purchased",), f"{where}.purchased")
        reserved = card_list(seat.get("reserved", []), at + ("reserved",), f"{where}.reserved")
        reserved_counts.append(len(reserved))
        placed += reserved
        if MAX_RESERVED and len(reserved) > MAX_RESERVED:
            out.append((at + ("reserved",),
                        f"{where} holds {len(reserved)} reserved cards, at most {MAX_RESERVED} are allowed"))
        reserved_ids = [c for c, _ in reserved]
        for c, path in card_list(seat.get("blind", []), at + ("blind",), f"{where}.blind"):
            if c not in reserved_ids:
                out.append((path, f"{where}.blind lists a card that is not reserved"))
                break
        noble_ids = seat.get("nobles", [])
        if not isinstance(noble_ids, list) or any(type(x) is not int or not 0 <= x < len(NOBLES) for x in noble_ids):
            out.append((at + ("nobles",), f"{where}.nobles must be a list of noble ids (0 to {len(NOBLES) - 1})"))
        else:
            owned_nobles += noble_ids
        count(seat.get("turns", 0), at + ("turns",))
    for i, colour in enumerate(COLOURS):
        expected = gold if i == len(GEMS) else gems
        if totals[i] != expected:
            out.append((("supply", colour), f"{colour} tokens add up to {_shown(totals[i])}, the game has {expected}"))
    market: Any = data.get("market")
    decks: Any = data.get("decks")
    market_ok = isinstance(market, dict) and set(market) == {str(lv) for lv in LEVELS}
    if not market_ok:
        out.append((("market",), f"'market' must have a row for each level {', '.join(map(str, LEVELS))}"))
    else:
        for lv in LEVELS:
            row = market[str(lv)]
            if not isinstance(row, list) or len(row) != face_up:
                out.append((("market", str(lv)), f"market row {lv} must have {face_up} slots"))
                market_ok = False
                continue
            for c, path in card_list(row, ("market", str(lv)), f"market[{lv}]"):
                placed.append((c, path))
                if CARD_LEVEL[c] != lv:
                    out.append((path, f"card {c} is of level {CARD_LEVEL[c]} but lies in market row {lv}"))
    if not isinstance(decks, dict) or set(decks) != {str(lv) for lv in LEVELS}:
        out.append((("decks",), f"'decks' must have a deck for each level {', '.join(map(str, LEVELS))}"))
    else:
        for lv in LEVELS:
            for c, path in card_list(decks[str(lv)], ("decks", str(lv)), f"decks[{lv}]"):
                placed.append((c, path))
                if CARD_LEVEL[c] != lv:
                    out.append((path, f"card {c} is of level {CARD_LEVEL[c]} but lies in deck {lv}"))
    placed += _out_of_play_cards(data.get("out_of_play"), card_list, out)
    seen: dict[int, Path] = {}  # card id: where the reader met it first
    for c, path in placed:
        if c in seen:
            out.append((path, f"card {c} appears more than once (at {_dotted(seen[c])} too)"))
        seen.setdefault(c, path)
    missing = [c.id for c in CARDS if c.id not in seen]
    if missing:
        out.append(((), f"{len(missing)} card(s) are nowhere: {', '.join(map(str, missing[:10]))}"
                    + ("..." if len(missing) > 10 else "")
                    + " (cards out of the game are listed in 'out_of_play', by level)"))
    row = data.get("nobles")
    if not isinstance(row, list) or any(type(x) is not int or not 0 <= x < len(NOBLES) for x in row):
        out.append((("nobles",), f"'nobles' must be a list of noble ids (0 to {len(NOBLES) - 1})"))
    else:
        everyone = row + owned_nobles
        if len(set(everyone)) != len(everyone):
            out.append((("nobles",), "a noble appears more than once"))
        if len(everyone) != nobles_shown:
            out.append((("nobles",), f"{len(everyone)} nobles are in play, {n} players reveal {nobles_shown}"))
    out += _state_problems(data, n)  # the spec's declared state and zones, when it has some
    out += _turn_problems(data, n, market if market_ok else None, reserved_counts)
    history = data.get("history", [])
    if not isinstance(history, list) or any(type(a) is not int or not 0 <= a < NUM_ACTIONS for a in history):
        out.append((("history",), "'history' must be a list of action ids"))
    start = data.get("start")
    if start is not None:
        if nested:
            out.append((("start",), "the state a game started from has no 'start' of its own (it must be null)"))
        else:
            out += [(("start",) + path, f"start: {p}") for path, p in _problems(start, nested=True)]
    return out


def _out_of_play_cards(value: Any, card_list: CardList, out: list[Problem]) -> list[tuple[int, Path]]:
    """The (card id, path) of each card a state says is out of the game ('out_of_play': level ->
    card ids; absent or null: none), each of its level; problems are added to `out`."""
    if value is None:
        return []
    levels = [str(lv) for lv in LEVELS]
    if not isinstance(value, dict) or not set(value) <= set(levels):
        out.append((("out_of_play",), f"'out_of_play' must be an object from levels ({', '.join(levels)}) "
                                      "to the ids of the cards out of the game"))
        return []
    placed: list[tuple[int, Path]] = []
    for lv in LEVELS:
        for c, path in card_list(value.get(str(lv), []), ("out_of_play", str(lv)), f"out_of_play[{lv}]"):
            placed.append((c, path))
            if CARD_LEVEL[c] != lv:
                out.append((path, f"card {c} is of level {CARD_LEVEL[c]} but is listed out of play at level {lv}"))
    return placed


def _dotted(path: Path) -> str:
    """A path as a message writes it: seats[1].tokens.red."""
    return "".join(f"[{key}]" if type(key) is int else f".{key}" for key in path).lstrip(".")


def _turn_problems(data: State, n: int, market: dict[str, Any] | None, reserved_counts: list[int]) -> list[Problem]:
    """Whose turn, which phase and how the game will end, each against the others (see _problems)."""
    out: list[Problem] = []
    cp = data.get("current_player")
    phase = data.get("phase")
    if type(phase) is not str or (phase not in ("action", "over") and phase not in STEPS):
        out.append((("phase",),
                    f"'phase' must be 'action', 'over' or a step ({', '.join(STEPS)}), not {_shown(phase)}"))
        phase = None
    if phase == "over":
        if cp != -1 or type(cp) is not int:
            out.append((("current_player",), f"a finished game has current_player -1, not {_shown(cp)}"))
    elif type(cp) is not int or not 0 <= cp < n:
        out.append((("current_player",), f"'current_player' must be a seat from 0 to {n - 1}, not {_shown(cp)}"))
        cp = None
    for key in ("round", "turn"):
        value = data.get(key)
        if not _is_count(value, 1):
            out.append(((key,), f"'{key}' must be a whole number of at least 1, not {_shown(value)}"))
    for key in ("passes", "step", "step_count"):
        value = data.get(key, 0)
        if not _is_count(value):
            out.append(((key,), f"'{key}' must be a whole number of at least 0, not {_shown(value)}"))
    step, step_count = data.get("step", 0), data.get("step_count", 0)
    pending = data.get("pending")
    if phase == "payment":
        if type(pending) is not int or not 0 <= pending < _PAY_BASE or _PAYOPTS[ACTIONS[pending][0]] is None:
            out.append((("pending",),
                        f"in the payment step, 'pending' must be the id of a purchase, not {_shown(pending)}"))
        elif cp is not None:
            out += _pending_problems(pending, cp, market, reserved_counts)
            d = ACTIONS[pending][0]
            if d < _N_ACTION_DECISIONS and step != 0:
                out.append((("step",), f"a payment for an action comes before the end-of-turn steps: "
                                       f"'step' must be 0, not {_shown(step)}"))
            elif d >= _N_ACTION_DECISIONS and (step not in range(_N_STEPS) or _STEPS[step] != d):
                out.append((("step",), f"'step' must be the position of step '{DECISIONS[d]}' among the steps, "
                                       f"not {_shown(step)}"))
    elif pending is not None:
        out.append((("pending",), f"'pending' is set only in the payment step, not in phase {_shown(phase)}"))
    if phase == "action" and (step, step_count) != (0, 0):
        out.append((("step" if step != 0 else "step_count",),
                    f"in the action phase 'step' and 'step_count' are 0, not {_shown(step)} and {_shown(step_count)}"))
    elif phase in STEPS and phase != "payment" and (step not in range(_N_STEPS) or DECISIONS[_STEPS[step]] != phase):
        out.append((("step",), f"in step '{phase}', 'step' must be its position among the steps, not {_shown(step)}"))
    elif phase == "over" and step not in (0, _N_STEPS):
        out.append((("step",), f"in a finished game 'step' is 0 or {_N_STEPS}, not {_shown(step)}"))
    ending = data.get("ending")
    rounds = [name for name, finish in TRIGGERS if finish != "immediately"]
    if ending is not None:
        if not isinstance(ending, dict) or set(ending) != {"trigger", "finish", "last_seat"}:
            out.append((("ending",), "'ending' must be null or {trigger, finish, last_seat}"))
        else:
            trigger, last = ending["trigger"], ending["last_seat"]
            if type(trigger) is not str or trigger not in rounds:
                out.append((("ending", "trigger"), f"'ending.trigger' must be a trigger that lets the round finish "
                           f"({', '.join(rounds) or 'this spec has none'}), not {_shown(trigger)}"))
            elif ending["finish"] != dict(TRIGGERS)[trigger]:
                out.append((("ending", "finish"), f"'ending.finish' of trigger {trigger!r} is "
                           f"{dict(TRIGGERS)[trigger]!r}, not {_shown(ending['finish'])}"))
            if type(last) is not int or not 0 <= last < n:
                out.append((("ending", "last_seat"),
                            f"'ending.last_seat' must be a seat from 0 to {n - 1}, not {_shown(last)}"))
    end_reason = data.get("end_reason")
    reasons = [name for name, _ in TRIGGERS] + ["stuck", TRUNCATED]
    if phase == "over" and (type(end_reason) is not str or end_reason not in reasons):
        out.append((("end_reason",),
                    f"a finished game has an 'end_reason' ({', '.join(reasons)}), not {_shown(end_reason)}"))
    elif phase not in ("over", None) and end_reason is not None:
        out.append((("end_reason",), f"'end_reason' is set only when the game is over, not in phase {_shown(phase)}"))
    cap = data.get("max_turns", MAX_TURNS)
    if cap is not None and not _is_count(cap, 1):
        out.append((("max_turns",), f"'max_turns' must be null or a whole number of at least 1, not {_shown(cap)}"))
    elif cap is not None and _is_count(data.get("turn"), 1) and data["turn"] > cap:
        out.append((("turn",), f"'turn' {data['turn']} is past the length cap, max_turns {cap}"))
    return out


def _pending_problems(pending: int, cp: int, market: dict[str, Any] | None,
                      reserved_counts: list[int]) -> list[Problem]:
    """Is the purchase waiting for its payment one that the current player can still make?"""
    d, args = ACTIONS[pending]
    for param, value in zip(ACTION_PARAMS[d], args, strict=True):
        if param.domain == "face_up" and market is not None and (
                value[1] >= len(market[str(LEVELS[value[0]])]) or market[str(LEVELS[value[0]])][value[1]] is None):
            return [(("pending",),
                     f"'pending' buys the card in slot {value[1] + 1} of level {LEVELS[value[0]]}, which is empty")]
        if param.domain == "reserved" and value >= reserved_counts[cp]:
            return [(("pending",),
                     f"'pending' buys reserved card {value + 1} of player {cp + 1}, who holds {reserved_counts[cp]}")]
    return []


def _json_problem(err: json.JSONDecodeError) -> str:
    """Where a state's JSON breaks: line and column, the line itself and a caret under the place."""
    lines = err.doc.splitlines()
    line = lines[err.lineno - 1] if err.lineno <= len(lines) else ""
    start = max(0, err.colno - 60)  # a long (compact) line: the 100 characters around the place
    shown = ("..." if start else "") + line[start:start + 100]
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
            raise _invalid([(("phase",), f"player {game._cp + 1} has no legal action in phase {game.phase!r} "
                                         "(the game could not go on)")])
    if game.start is not None:
        _check_replays(game)
    return game


def _check_replays(game: Game) -> None:
    """A state that says where it started must be what its moves make of that start: else record()
    and replay() would give another game than the one loaded (the state or its start was edited)."""
    try:
        again = replay(game.record())
    except StateError as err:
        raise _invalid([(("history",), "its 'history' cannot be played from its 'start': "
                                       + str(err).replace("\n", " "))]) from None
    if again.to_dict() != game.to_dict():
        raise _invalid([((), "playing its 'history' from its 'start' does not lead to this state "
                             "(the state or its start was edited)")])


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
        raise StateError(f"the record is for spec {record.get('spec')!r} ({str(record.get('sha256'))[:12]}), "
                         f"this engine plays {SPEC_NAME!r} ({SPEC_SHA256[:12]})")
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
