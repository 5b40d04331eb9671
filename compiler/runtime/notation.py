"""The notation: an action id as text (action_to_string, describe_action) and text as an id.

Part of the runtime of every generated engine (see compiler/runtime/__init__.py): the text
below the marker line is pasted into each engine verbatim.
"""
import difflib
import operator

from .errors import NotationError, _whole
from .spec import (
    _PARAM_KINDS, ACTION_STRINGS, ACTIONS, COLOURS, DECISIONS, GEMS, LEVELS, NOTATION_FORMS, NUM_ACTIONS,
    PAYMENTS, WILD)


# ---- engine text: from here on, this module is pasted into every engine ----


def action_to_string(action):
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


def string_to_action(text):
    """The action id of a text in this engine's notation (case and spacing do not matter)."""
    if not _STRING_INDEX:
        _STRING_INDEX.update((s, i) for i, s in enumerate(ACTION_STRINGS))
    key = " ".join(str(text).lower().split())
    if key in _STRING_INDEX:
        return _STRING_INDEX[key]
    verbs = sorted({s.split()[0] for s in ACTION_STRINGS})
    close = difflib.get_close_matches(key, ACTION_STRINGS, n=1, cutoff=0.75)
    verb = key.split()[0] if key else ""
    forms = [(f"'{form}'" + (f", where {meaning}" if meaning else ""), later)
             for form, meaning, later in NOTATION_FORMS if form.split()[0] == verb]
    if close and forms and not _a_typo(key.split(), close[0].split()):
        close = []  # 'sweep 9.9' is not a slip for 'sweep 3.4': the form says more
    hint = f" (did you mean '{close[0]}'?)" if close else ""
    if forms:  # the right verb: say how its actions are written
        hint += f"; {verb} is written " + ", or ".join(form for form, _ in forms)
        if any(later for _, later in forms):
            hint += f" (how to pay is asked next, when {WILD} gives a choice)"
    elif not close:
        hint = f" (actions start with: {', '.join(verbs)})"
    raise NotationError(f"not an action: {str(text)!r}{hint}")


def _a_typo(said, meant):
    """Is `said` `meant` with a word or two misspelt (not another number or another colour)?"""
    return len(said) == len(meant) and all(
        a == b or (not any(ch.isdigit() for ch in a) and difflib.SequenceMatcher(None, a, b).ratio() >= 0.6)
        for a, b in zip(said, meant, strict=True))


def describe_action(action):
    """(decision name, {choice: value}) of an action id, with values people read."""
    name = action_to_string(action) and DECISIONS[ACTIONS[operator.index(action)][0]]
    d, args = ACTIONS[operator.index(action)]
    return name, {p: _describe_value(kind, v) for (p, kind), v in zip(_PARAM_KINDS[d], args, strict=True)}


def _describe_value(kind, value):
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
    if kind == "payment":
        return {GEMS[g]: n for g, n in enumerate(PAYMENTS[value]) if n}
    return value
