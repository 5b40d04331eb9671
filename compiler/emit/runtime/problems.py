"""Every problem of a saved state, located: what from_json refuses, and why.

Part of the runtime of every generated engine (see compiler/emit/runtime/__init__.py): pasted
into each engine whole. A saved game is untrusted data (people share them), so every field is
checked for its type and range, then against the others, and each problem is a (path, sentence)
pair whose path leads to the value the sentence is about (see StateError). The readers go on
after a problem, with a default in place of the wrong value, so that one load says everything
that is wrong at once. The spec's declared state and zones are checked by its hook
(_state_problems: compiler/emit/runtime/spec.py).
"""

from __future__ import annotations

from typing import Any

from .aliases import Path, Problem, State
from .errors import _shown
from .game import EXTRA_TURN_STATES
from .spec import (
    _EXTRA_TURNS,
    _KEEPS_TURN,
    _N_ACTION_DECISIONS,
    _N_STEPS,
    _PAY_BASE,
    _PAYOPTS,
    _STEPS,
    ACTION_PARAMS,
    ACTIONS,
    CARD_LEVEL,
    CARDS,
    COLOURS,
    DECISIONS,
    GEMS,
    LEVELS,
    MAX_RESERVED,
    MAX_TURNS,
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
    ZONES,
    _state_problems,
)

Placed = list[tuple[int, Path]]  # (card id, path) of cards on the table, in the order a reader meets them


def _is_count(value: object, least: int = 0) -> bool:
    return type(value) is int and value >= least


def _dotted(path: Path) -> str:
    """A path as a message writes it: seats[1].tokens.red."""
    return "".join(f"[{key}]" if type(key) is int else f".{key}" for key in path).lstrip(".")


class _Reader:
    """Reads the parts of one state that recur (counts, token tables, lists of cards), adding a
    problem to `out` for each wrong value and returning a default in its place."""

    def __init__(self, out: list[Problem]) -> None:
        self.out = out

    def count(self, value: Any, path: Path, least: int = 0) -> int:
        if not _is_count(value, least):
            self.out.append((path, f"{_dotted(path)} must be a whole number of at least {least}, not {_shown(value)}"))
            return least
        return value  # type: ignore[no-any-return]  # _is_count: an int

    def tokens(self, value: Any, path: Path) -> list[int]:
        if not isinstance(value, dict) or set(value) != set(COLOURS):
            self.out.append((path, f"{_dotted(path)} must give a count for each of {', '.join(COLOURS)}"))
            return [0] * len(COLOURS)
        return [self.count(value[c], path + (c,)) for c in COLOURS]

    def card_list(self, value: Any, path: Path, where: str) -> Placed:
        """The card ids of a list, each with its path; `where` names the list in the sentences."""
        if not isinstance(value, list):
            self.out.append((path, f"{where} must be a list of card ids"))
            return []
        ids: Placed = []
        for i, c in enumerate(value):
            if c is None and path[0] == "market":
                continue
            if type(c) is not int or not 0 <= c < len(CARDS):
                self.out.append((path + (i,), f"{where}: unknown card {_shown(c)} (cards are 0 to {len(CARDS) - 1})"))
            else:
                ids.append((c, path + (i,)))
        return ids


def _problems(data: Any, nested: bool = False) -> list[Problem]:
    """Every inconsistency of a state dict, as (path, sentence) pairs (empty when it is sound).

    Types and ranges of every field, then the invariants between fields (tokens add up, each
    card in one place, phase and pending, step and step_count, ending and seats, end_reason
    and phase, turn and max_turns). `nested`: the state is another's `start`, which starts
    nowhere else. A state that passes loads into a game that plays on from there. A problem
    between fields points at the field that is most likely wrong, one of the whole state at ().
    """
    if not isinstance(data, dict):
        return [((), f"a state is a JSON object, not {_shown(data)}")]
    out = _header_problems(data)
    n = data.get("players")
    if type(n) is not int or n not in SETUP:
        out.append((("players",), f"'players' must be one of {', '.join(map(str, PLAYER_COUNTS))}, not {_shown(n)}"))
        return out
    gems, gold, nobles_shown, face_up = SETUP[n]
    read = _Reader(out)
    seed = data.get("seed")
    if seed is not None and type(seed) is not int:
        out.append((("seed",), f"'seed' must be a whole number or null, not {_shown(seed)}"))
    supply = read.tokens(data.get("supply"), ("supply",))
    seats = data.get("seats")
    if not isinstance(seats, list) or len(seats) != n:
        out.append((("seats",), f"'seats' must list {n} players"))
        return out
    placed, owned_nobles, reserved_counts, totals = _seats_problems(read, seats, supply)
    for i, colour in enumerate(COLOURS):
        expected = gold if i == len(GEMS) else gems
        if totals[i] != expected:
            out.append((("supply", colour), f"{colour} tokens add up to {_shown(totals[i])}, the game has {expected}"))
    market: Any = data.get("market")
    market_ok = _market_problems(read, market, face_up, placed)
    _deck_problems(read, data.get("decks"), placed)
    placed += _out_of_play_cards(read, data.get("out_of_play"))
    placed += _zoned_cards(data)
    _placement_problems(placed, out)
    _noble_problems(data.get("nobles"), owned_nobles + _boxed(data) + _zoned_nobles(data), n, nobles_shown, out)
    out += _state_problems(data, n)  # the spec's declared state and zones, when it has some
    out += _turn_problems(data, n, market if market_ok else None, reserved_counts)
    out += _history_problems(data, nested)
    return out


def _header_problems(data: State) -> list[Problem]:
    """The format, its version and the spec a state was saved for."""
    out: list[Problem] = []
    if data.get("format") != STATE_FORMAT:
        out.append((("format",), f"'format' must be {STATE_FORMAT!r}, not {_shown(data.get('format'))}"))
    if type(data.get("version")) is not int or data.get("version") != STATE_VERSION:
        out.append((("version",), f"'version' must be {STATE_VERSION}, not {_shown(data.get('version'))}"))
    spec = data.get("spec") or {}
    if not isinstance(spec, dict) or spec.get("name") != SPEC_NAME:
        out.append(
            (
                ("spec", "name"),
                f"the state is for spec "
                f"{_shown(spec.get('name') if isinstance(spec, dict) else spec)}, this engine plays {SPEC_NAME!r}",
            )
        )
    elif spec.get("sha256") != SPEC_SHA256:
        out.append((("spec", "sha256"), "the state was saved by an engine built from another version of the spec"))
    return out


def _seats_problems(
    read: _Reader, seats: list[Any], supply: list[int]
) -> tuple[Placed, list[int], list[int], list[int]]:
    """Each seat's tokens, cards and nobles: (the cards placed, the nobles owned, how many cards each
    seat has reserved, the tokens of the supply and the seats added up by colour)."""
    out = read.out
    placed: Placed = []
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
        held = read.tokens(seat.get("tokens"), at + ("tokens",))
        totals = [a + b for a, b in zip(totals, held, strict=True)]
        placed += read.card_list(seat.get("purchased", []), at + ("purchased",), f"{where}.purchased")
        reserved = read.card_list(seat.get("reserved", []), at + ("reserved",), f"{where}.reserved")
        reserved_counts.append(len(reserved))
        placed += reserved
        if MAX_RESERVED and len(reserved) > MAX_RESERVED:
            out.append(
                (
                    at + ("reserved",),
                    f"{where} holds {len(reserved)} reserved cards, at most {MAX_RESERVED} are allowed",
                )
            )
        reserved_ids = [c for c, _ in reserved]
        for c, path in read.card_list(seat.get("blind", []), at + ("blind",), f"{where}.blind"):
            if c not in reserved_ids:
                out.append((path, f"{where}.blind lists a card that is not reserved"))
                break
        noble_ids = seat.get("nobles", [])
        if not isinstance(noble_ids, list) or any(type(x) is not int or not 0 <= x < len(NOBLES) for x in noble_ids):
            out.append((at + ("nobles",), f"{where}.nobles must be a list of noble ids (0 to {len(NOBLES) - 1})"))
        else:
            owned_nobles += noble_ids
        read.count(seat.get("turns", 0), at + ("turns",))
    return placed, owned_nobles, reserved_counts, totals


def _market_problems(read: _Reader, market: Any, face_up: int, placed: Placed) -> bool:
    """The face-up rows, a row per level with its slots (the cards are added to `placed`); True when
    the rows are whole (a pending purchase is then checked against them)."""
    out = read.out
    if not (isinstance(market, dict) and set(market) == {str(lv) for lv in LEVELS}):
        out.append((("market",), f"'market' must have a row for each level {', '.join(map(str, LEVELS))}"))
        return False
    market_ok = True
    for lv in LEVELS:
        row = market[str(lv)]
        if not isinstance(row, list) or len(row) != face_up:
            out.append((("market", str(lv)), f"market row {lv} must have {face_up} slots"))
            market_ok = False
            continue
        for c, path in read.card_list(row, ("market", str(lv)), f"market[{lv}]"):
            placed.append((c, path))
            if CARD_LEVEL[c] != lv:
                out.append((path, f"card {c} is of level {CARD_LEVEL[c]} but lies in market row {lv}"))
    return market_ok


def _deck_problems(read: _Reader, decks: Any, placed: Placed) -> None:
    """The decks, one per level (the cards are added to `placed`)."""
    if not isinstance(decks, dict) or set(decks) != {str(lv) for lv in LEVELS}:
        read.out.append((("decks",), f"'decks' must have a deck for each level {', '.join(map(str, LEVELS))}"))
        return
    for lv in LEVELS:
        for c, path in read.card_list(decks[str(lv)], ("decks", str(lv)), f"decks[{lv}]"):
            placed.append((c, path))
            if CARD_LEVEL[c] != lv:
                read.out.append((path, f"card {c} is of level {CARD_LEVEL[c]} but lies in deck {lv}"))


def _out_of_play_cards(read: _Reader, value: Any) -> Placed:
    """The (card id, path) of each card a state says is out of the game ('out_of_play': level ->
    card ids; absent or null: none), each of its level."""
    if value is None:
        return []
    levels = [str(lv) for lv in LEVELS]
    if not isinstance(value, dict) or not set(value) <= set(levels):
        read.out.append(
            (
                ("out_of_play",),
                f"'out_of_play' must be an object from levels ({', '.join(levels)}) "
                "to the ids of the cards out of the game",
            )
        )
        return []
    placed: Placed = []
    for lv in LEVELS:
        for c, path in read.card_list(value.get(str(lv), []), ("out_of_play", str(lv)), f"out_of_play[{lv}]"):
            placed.append((c, path))
            if CARD_LEVEL[c] != lv:
                read.out.append((path, f"card {c} is of level {CARD_LEVEL[c]} but is listed out of play at level {lv}"))
    return placed


def _placement_problems(placed: Placed, out: list[Problem]) -> None:
    """Every card in exactly one place."""
    seen: dict[int, Path] = {}  # card id: where the reader met it first
    for c, path in placed:
        if c in seen:
            out.append((path, f"card {c} appears more than once (at {_dotted(seen[c])} too)"))
        seen.setdefault(c, path)
    missing = [c.id for c in CARDS if c.id not in seen]
    if missing:
        out.append(
            (
                (),
                f"{len(missing)} card(s) are nowhere: {', '.join(map(str, missing[:10]))}"
                + ("..." if len(missing) > 10 else "")
                + " (cards out of the game are listed in 'out_of_play', by level)",
            )
        )


# The spec's own zones of the base cards (a series' decks and rows, `series:`; a holding the rules move
# cards into), and of the base nobles (a holding: a noble kept aside; the box is read by _boxed): what
# they hold is in play.
_CARD_ZONES = tuple(zone for zone in ZONES if zone.kind == "cards" and zone.start != "base")
_NOBLE_ZONES = tuple(zone for zone in ZONES if zone.kind == "nobles" and zone.start not in ("base", "box"))


def _state_zone_lists(data: State, zones: tuple[Any, ...]) -> list[tuple[Path, Any]]:
    """Each list of a state's zones `zones`, with its path: a player's zone under each seat, a zone
    split by a column group by group (what is not a list: its zone's problem, reported with the zones)."""
    lists: list[tuple[Path, Any]] = []
    shared, seats = data.get("zones"), data.get("seats")
    for zone in zones:
        if zone.per_player:
            for p, s in enumerate(seats if isinstance(seats, list) else []):
                if isinstance(s, dict) and isinstance(s.get("zones", {}), dict):
                    lists.append((("seats", p, "zones", zone.name), s.get("zones", {}).get(zone.name)))
        else:
            value = shared.get(zone.name) if isinstance(shared, dict) else None
            if isinstance(value, list) and any(isinstance(x, list) for x in value):  # split by level
                lists += [(("zones", zone.name, g), v) for g, v in enumerate(value)]
            else:
                lists.append((("zones", zone.name), value))
    return lists


def _zoned_cards(data: State) -> Placed:
    """The (card id, path) of each card a state's own zones of the base cards hold."""
    return [
        (x, path + (i,))
        for path, items in _state_zone_lists(data, _CARD_ZONES)
        for i, x in enumerate(items if isinstance(items, list) else [])
        if type(x) is int and 0 <= x < len(CARDS)
    ]


def _zoned_nobles(data: State) -> list[int]:
    """The nobles a state's own holdings of the base nobles hold (a noble kept aside is in play)."""
    return [
        x
        for _, items in _state_zone_lists(data, _NOBLE_ZONES)
        for x in (items if isinstance(items, list) else [])
        if type(x) is int and 0 <= x < len(NOBLES)
    ]


# The zones keeping the nobles the deal did not reveal (`place: noble_box`): with one, every noble is in play.
_BOXES = tuple(zone.name for zone in ZONES if zone.start == "box")


def _boxed(data: State) -> list[int]:
    """The nobles of a state's box (none without one; a box that is not a list of ids: its zone's problem)."""
    zones = data.get("zones")
    boxed: list[int] = []
    for name in _BOXES:
        items = zones.get(name) if isinstance(zones, dict) else None
        boxed += items if isinstance(items, list) else []
    return boxed if all(type(x) is int and 0 <= x < len(NOBLES) for x in boxed) else []


def _noble_problems(row: Any, owned_nobles: list[int], n: int, nobles_shown: int, out: list[Problem]) -> None:
    """The noble row, and the nobles in play (the row's and the seats', and the box's when a zone keeps
    it) as many as the table reveals (with a box: every noble)."""
    if not isinstance(row, list) or any(type(x) is not int or not 0 <= x < len(NOBLES) for x in row):
        out.append((("nobles",), f"'nobles' must be a list of noble ids (0 to {len(NOBLES) - 1})"))
        return
    everyone = row + owned_nobles
    if len(set(everyone)) != len(everyone):
        out.append((("nobles",), "a noble appears more than once"))
    expected = len(NOBLES) if _BOXES else nobles_shown
    if len(everyone) != expected:
        told = f"the game has {expected} (the box's too)" if _BOXES else f"{n} players reveal {expected}"
        out.append((("nobles",), f"{len(everyone)} nobles are in play, {told}"))


def _history_problems(data: State, nested: bool) -> list[Problem]:
    """The moves played, and the state the game started from (checked as a state of its own)."""
    out: list[Problem] = []
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


def _turn_problems(data: State, n: int, market: dict[str, Any] | None, reserved_counts: list[int]) -> list[Problem]:
    """Whose turn, which phase and how the game will end, each against the others (see _problems)."""
    out: list[Problem] = []
    phase, cp = _phase_and_seat(data, n, out)
    for key in ("round", "turn"):
        value = data.get(key)
        if not _is_count(value, 1):
            out.append(((key,), f"'{key}' must be a whole number of at least 1, not {_shown(value)}"))
    for key in ("passes", "step", "step_count"):
        value = data.get(key, 0)
        if not _is_count(value):
            out.append(((key,), f"'{key}' must be a whole number of at least 0, not {_shown(value)}"))
    out += _step_problems(data, phase, cp, market, reserved_counts)
    out += _ending_problems(data, n, phase)
    out += _more_turn_problems(data)
    return out


def _more_turn_problems(data: State) -> list[Problem]:
    """The actions taken this turn that do not end it (`taken`), and the extra turn (`extra_turn`):
    each absent (none; a state saved before they existed), or a value this spec can hold."""
    out: list[Problem] = []
    taken = data.get("taken", [])
    keeping = [DECISIONS[d] for d in _KEEPS_TURN]
    if (
        type(taken) is not list
        or any(type(t) is not str or t not in keeping for t in taken)
        or len(set(taken)) != len(taken)
    ):
        out.append(
            (
                ("taken",),
                f"'taken' must list actions that do not end the turn "
                f"({', '.join(keeping) or 'this spec has none'}), each once, not {_shown(taken)}",
            )
        )
    extra = data.get("extra_turn", "none")
    if type(extra) is not str or extra not in (EXTRA_TURN_STATES if _EXTRA_TURNS else ("none",)):
        allowed = ", ".join(repr(x) for x in EXTRA_TURN_STATES) if _EXTRA_TURNS else "'none' (no rule gives one)"
        out.append((("extra_turn",), f"'extra_turn' must be {allowed}, not {_shown(extra)}"))
    return out


def _phase_and_seat(data: State, n: int, out: list[Problem]) -> tuple[str | None, int | None]:
    """The phase and the current player, each None when it is wrong (the checks that need it skip)."""
    cp = data.get("current_player")
    phase = data.get("phase")
    if type(phase) is not str or (phase not in ("action", "over") and phase not in STEPS):
        out.append(
            (("phase",), f"'phase' must be 'action', 'over' or a step ({', '.join(STEPS)}), not {_shown(phase)}")
        )
        phase = None
    if phase == "over":
        if cp != -1 or type(cp) is not int:
            out.append((("current_player",), f"a finished game has current_player -1, not {_shown(cp)}"))
    elif type(cp) is not int or not 0 <= cp < n:
        out.append((("current_player",), f"'current_player' must be a seat from 0 to {n - 1}, not {_shown(cp)}"))
        cp = None
    return phase, cp


def _step_problems(
    data: State, phase: str | None, cp: int | None, market: dict[str, Any] | None, reserved_counts: list[int]
) -> list[Problem]:
    """The step, its count and the purchase waiting for its payment, against the phase."""
    out: list[Problem] = []
    step, step_count = data.get("step", 0), data.get("step_count", 0)
    pending = data.get("pending")
    if phase == "payment":
        if type(pending) is not int or not 0 <= pending < _PAY_BASE or _PAYOPTS[ACTIONS[pending][0]] is None:
            out.append(
                (("pending",), f"in the payment step, 'pending' must be the id of a purchase, not {_shown(pending)}")
            )
        elif cp is not None:
            out += _pending_problems(pending, cp, market, reserved_counts)
            d = ACTIONS[pending][0]
            if d < _N_ACTION_DECISIONS and step != 0:
                out.append(
                    (
                        ("step",),
                        f"a payment for an action comes before the end-of-turn steps: "
                        f"'step' must be 0, not {_shown(step)}",
                    )
                )
            elif d >= _N_ACTION_DECISIONS and (step not in range(_N_STEPS) or _STEPS[step] != d):
                out.append(
                    (
                        ("step",),
                        f"'step' must be the position of step '{DECISIONS[d]}' among the steps, not {_shown(step)}",
                    )
                )
    elif pending is not None:
        out.append((("pending",), f"'pending' is set only in the payment step, not in phase {_shown(phase)}"))
    if phase == "action" and (step, step_count) != (0, 0):
        out.append(
            (
                ("step" if step != 0 else "step_count",),
                f"in the action phase 'step' and 'step_count' are 0, not {_shown(step)} and {_shown(step_count)}",
            )
        )
    elif phase in STEPS and phase != "payment" and (step not in range(_N_STEPS) or DECISIONS[_STEPS[step]] != phase):
        out.append((("step",), f"in step '{phase}', 'step' must be its position among the steps, not {_shown(step)}"))
    elif phase == "over" and step not in (0, _N_STEPS):
        out.append((("step",), f"in a finished game 'step' is 0 or {_N_STEPS}, not {_shown(step)}"))
    return out


def _ending_problems(data: State, n: int, phase: str | None) -> list[Problem]:
    """The end triggered (its trigger, how the round finishes, the last seat), why a finished game
    ended, and the length cap."""
    out: list[Problem] = []
    ending = data.get("ending")
    rounds = [name for name, finish in TRIGGERS if finish != "immediately"]
    if ending is not None:
        if not isinstance(ending, dict) or set(ending) != {"trigger", "finish", "last_seat"}:
            out.append((("ending",), "'ending' must be null or {trigger, finish, last_seat}"))
        else:
            trigger, last = ending["trigger"], ending["last_seat"]
            if type(trigger) is not str or trigger not in rounds:
                out.append(
                    (
                        ("ending", "trigger"),
                        f"'ending.trigger' must be a trigger that lets the round finish "
                        f"({', '.join(rounds) or 'this spec has none'}), not {_shown(trigger)}",
                    )
                )
            elif ending["finish"] != dict(TRIGGERS)[trigger]:
                out.append(
                    (
                        ("ending", "finish"),
                        f"'ending.finish' of trigger {trigger!r} is "
                        f"{dict(TRIGGERS)[trigger]!r}, not {_shown(ending['finish'])}",
                    )
                )
            if type(last) is not int or not 0 <= last < n:
                out.append(
                    (
                        ("ending", "last_seat"),
                        f"'ending.last_seat' must be a seat from 0 to {n - 1}, not {_shown(last)}",
                    )
                )
    end_reason = data.get("end_reason")
    reasons = [name for name, _ in TRIGGERS] + ["stuck", TRUNCATED]
    if phase == "over" and (type(end_reason) is not str or end_reason not in reasons):
        out.append(
            (("end_reason",), f"a finished game has an 'end_reason' ({', '.join(reasons)}), not {_shown(end_reason)}")
        )
    elif phase not in ("over", None) and end_reason is not None:
        out.append((("end_reason",), f"'end_reason' is set only when the game is over, not in phase {_shown(phase)}"))
    cap = data.get("max_turns", MAX_TURNS)
    if cap is not None and not _is_count(cap, 1):
        out.append((("max_turns",), f"'max_turns' must be null or a whole number of at least 1, not {_shown(cap)}"))
    elif cap is not None and _is_count(data.get("turn"), 1) and data["turn"] > cap:
        out.append((("turn",), f"'turn' {data['turn']} is past the length cap, max_turns {cap}"))
    return out


def _pending_problems(
    pending: int, cp: int, market: dict[str, Any] | None, reserved_counts: list[int]
) -> list[Problem]:
    """Is the purchase waiting for its payment one that the current player can still make?"""
    d, args = ACTIONS[pending]
    for param, value in zip(ACTION_PARAMS[d], args, strict=True):
        if value is None:  # an optional choice's `none` names no place
            continue
        if (
            param.domain == "face_up"
            and market is not None
            and (value[1] >= len(market[str(LEVELS[value[0]])]) or market[str(LEVELS[value[0]])][value[1]] is None)
        ):
            return [
                (
                    ("pending",),
                    f"'pending' buys the card in slot {value[1] + 1} of level {LEVELS[value[0]]}, which is empty",
                )
            ]
        if param.domain == "reserved" and value >= reserved_counts[cp]:
            return [
                (
                    ("pending",),
                    f"'pending' buys reserved card {value + 1} of player {cp + 1}, who holds {reserved_counts[cp]}",
                )
            ]
    return []
