"""The notation: an action id as text (action_to_string, describe_action) and text as an id.

Part of the runtime of every generated engine (see compiler/emit/runtime/__init__.py): pasted
into each engine whole.
"""

from __future__ import annotations

import difflib
import operator
from typing import Any

from .errors import NotationError, _whole
from .spec import (
    _WILD_PLACES,
    ACTION_PARAMS,
    ACTION_STRINGS,
    ACTIONS,
    COLOURS,
    DECISIONS,
    GEMS,
    LEVELS,
    NOTATION_FORMS,
    NUM_ACTIONS,
    PAYMENTS,
    WILD,
)


def action_to_string(action: int) -> str:
    """The notation of an action id (an int, or another library's integer type as apply takes)."""
    if type(action) is not int:
        try:
            action = _whole(action, "an action id")
        except ValueError as err:
            raise NotationError(str(err)) from None
    if not 0 <= action < NUM_ACTIONS:
        raise NotationError(f"no action has id {action} (ids run from 0 to {NUM_ACTIONS - 1})")
    return ACTION_STRINGS[action]


_STRING_INDEX: dict[str, int] = {}

# The kinds of choice whose value is a set (a multiset for a payment): written in one order
# (the table's), read in any. Every other kind is written as one word, whose place matters.
# Each kind of choice is in one of the two (tests/test_runtime.py holds them to the schema's
# domains), so that a new kind of set is read in any order as soon as it is declared here.
_SET_KINDS = ("gem_set", "payment")
_WORD_KINDS = ("gem", "colour", "face_up", "deck", "reserved", "noble")
# (number of words, the (start, length) of each set's words): the places where sets are written
_SET_LAYOUTS: dict[tuple[int, tuple[tuple[int, int], ...]], None] = {}
# (layout, the words with each set's words sorted) -> the ids written so; one id, or None
# where two actions read alike in any order (only their texts as written reach them then)
_SET_INDEX: dict[tuple[Any, ...], int | None] = {}
_WORDS: set[str] = set()  # every word of every action's text


def _set_words(kind: str, value: Any) -> list[str]:
    """The words that write the value of a set-valued choice, in the order the notation has them."""
    if kind == "gem_set":
        return [GEMS[g] for g in value]
    if value >= len(PAYMENTS):  # a component set aside as wild tokens: one word, its place
        return []
    return [GEMS[g] + (f"*{k}" if k > 1 else "") for g, each in _token_worths(PAYMENTS[value]) for k in each]


def _token_worths(vec: tuple[int, ...]) -> list[tuple[int, tuple[int, ...]]]:
    """(gem index, the gems each wild token on it stands for) of each gem a payment puts gold on.
    A table of gold vectors: each token stands for one gem. A table with a worth (gold per gem,
    then the gems it covers): the covers spread as evenly as the tokens allow, largest first
    (2 tokens for 3 red: (2, 1), written 'red*2 red'; compiler/check/notation.py writes the same)."""
    n = len(GEMS)
    out = []
    for g in range(n):
        if vec[g]:
            each, extra = divmod(vec[n + g] if len(vec) > n else vec[g], vec[g])
            out.append((g, (each + 1,) * extra + (each,) * (vec[g] - extra)))
    return out


def _set_places(words: list[str], sets: list[list[str]]) -> list[tuple[tuple[int, int], ...]]:
    """Each way to place the sets' words (lists) in the text's `words`: tuples of (start, length),
    one per set, in order and without overlap."""
    places: list[tuple[tuple[int, int], ...]] = [()]
    for found in sets:
        k = len(found)
        starts = [i for i in range(len(words) - k + 1) if words[i : i + k] == found]
        places = [p + ((i, k),) for p in places for i in starts if not p or i >= sum(p[-1])]
    return places


def _unordered(words: list[str], runs: tuple[tuple[int, int], ...]) -> tuple[str, ...]:
    """`words` with the words of each (start, length) run sorted: the same for any order of a set."""
    words = list(words)
    for start, k in runs:
        words[start : start + k] = sorted(words[start : start + k])
    return tuple(words)


def _build_set_index() -> None:
    """Fills _SET_LAYOUTS and _SET_INDEX from the action table (and marks the index built: key ())."""
    _SET_INDEX[()] = None
    for action, text in enumerate(ACTION_STRINGS):
        d, args = ACTIONS[action]
        sets = [
            _set_words(param.domain, v)
            for param, v in zip(ACTION_PARAMS[d], args, strict=True)
            if param.domain in _SET_KINDS and v is not None
        ]
        sets = [found for found in sets if len(found) > 1]
        if not sets:
            continue
        words = text.split()
        for runs in _set_places(words, sets):
            layout = (len(words), runs)
            _SET_LAYOUTS[layout] = None
            key = (layout, _unordered(words, runs))
            _SET_INDEX[key] = action if _SET_INDEX.get(key, action) == action else None


def _read(words: list[str]) -> int | None:
    """The id written `words` (a list), a set's words in any order; None if none or several."""
    text = " ".join(words)
    if text in _STRING_INDEX:
        return _STRING_INDEX[text]
    found = {
        _SET_INDEX.get((layout, _unordered(words, layout[1]))) for layout in _SET_LAYOUTS if layout[0] == len(words)
    } - {None}
    return found.pop() if len(found) == 1 else None


def _respelt(words: list[str]) -> list[str]:
    """`words` with each word no action has (and no number) replaced by the closest one actions have."""
    if not _WORDS:
        _WORDS.update(w for s in ACTION_STRINGS for w in s.split())
    return [
        w
        if w in _WORDS or any(ch.isdigit() for ch in w)
        else next(iter(difflib.get_close_matches(w, _WORDS, n=1, cutoff=0.6)), w)
        for w in words
    ]


def string_to_action(text: str) -> int:
    """The action id of a text in this engine's notation (case and spacing do not matter, nor the
    order of the colours of a set: 'take red black green' is 'take green red black')."""
    if not _STRING_INDEX:
        _STRING_INDEX.update((s, i) for i, s in enumerate(ACTION_STRINGS))
    key = " ".join(str(text).lower().split())
    if key in _STRING_INDEX:
        return _STRING_INDEX[key]
    if () not in _SET_INDEX:  # built at the first text not written as the engine writes it
        _build_set_index()
    found = _read(key.split())
    if found is not None:
        return found
    verbs = sorted({s.split()[0] for s in ACTION_STRINGS})
    meant = _read(_respelt(key.split()))  # a misspelt word, in any order: the text as the engine writes it
    close = (
        [ACTION_STRINGS[meant]]
        if meant is not None
        else difflib.get_close_matches(key, ACTION_STRINGS, n=1, cutoff=0.75)
    )
    verb = key.split()[0] if key else ""
    forms = [
        (f"'{form}'" + (f", where {meaning}" if meaning else ""), later)
        for form, meaning, later in NOTATION_FORMS
        if form.split()[0] == verb
    ]
    if meant is None and close and forms and not _a_typo(key.split(), close[0].split()):
        close = []  # 'sweep 9.9' is not a slip for 'sweep 3.4': the form says more
    hint = f" (did you mean '{close[0]}'?)" if close else ""
    if forms:  # the right verb: say how its actions are written
        hint += f"; {verb} is written " + ", or ".join(form for form, _ in forms)
        if any(later for _, later in forms):
            hint += f" (how to pay is asked next, when {WILD} gives a choice)"
    elif not close:
        hint = f" (actions start with: {', '.join(verbs)})"
    raise NotationError(f"not an action: {str(text)!r}{hint}")


def _a_typo(said: list[str], meant: list[str]) -> bool:
    """Is `said` `meant` with a word or two misspelt (not another number or another colour)?"""
    return len(said) == len(meant) and all(
        a == b or (not any(ch.isdigit() for ch in a) and difflib.SequenceMatcher(None, a, b).ratio() >= 0.6)
        for a, b in zip(said, meant, strict=True)
    )


def describe_action(action: int) -> tuple[str, dict[str, Any]]:
    """(decision name, {choice: value}) of an action id, with values people read."""
    name = action_to_string(action) and DECISIONS[ACTIONS[operator.index(action)][0]]
    d, args = ACTIONS[operator.index(action)]
    return name, {param.name: _describe_value(param.domain, v) for param, v in zip(ACTION_PARAMS[d], args, strict=True)}


def _describe_value(kind: str, value: Any) -> Any:
    if value is None:
        return None
    if kind in ("gem", "colour"):
        return COLOURS[value]
    if kind == "gem_set":
        return tuple(GEMS[g] for g in value)
    if kind == "face_up":
        return (LEVELS[value[0]], value[1] + 1)
    if kind in ("reserved", "noble"):
        return value + 1
    if kind == "payment" and value >= len(PAYMENTS):  # a component set aside as wild tokens: {holding: place}
        return dict([_WILD_PLACES[value - len(PAYMENTS)]])
    if kind == "payment":  # the gold per gem; with a worth, the gems each of those tokens stands for
        worths = len(PAYMENTS[value]) > len(GEMS)
        return {GEMS[g]: each if worths else len(each) for g, each in _token_worths(PAYMENTS[value])}
    return value
