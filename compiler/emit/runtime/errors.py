"""The engine's exceptions, and how their messages show the values they are about.

Part of the runtime of every generated engine (see compiler/emit/runtime/__init__.py): pasted
into each engine whole, before the rules (which raise RuleError).
"""

from __future__ import annotations

import operator
from collections.abc import Iterable
from typing import Any, NamedTuple

from .aliases import Problem


class Refusal(NamedTuple):
    """Why the rules refuse a move, as a generated rule function returns it.

    For a player: `words` maps each sheet language the rule has a phrase in to the rule's name
    and the part of it the move fails, as the sheets word them ("Take tokens of different
    colours: ..."). For the spec's author: `details`, the condition as written and its spec
    location. `rule` is the decision's name in the spec.
    """

    rule: str
    words: dict[str, str]
    details: str

    def reason(self, lang: str = "en") -> str:
        """The rule's words in `lang` (else in English; else the condition as written, for a
        condition the sheets have no phrase for)."""
        text = self.words.get(lang) or self.words.get("en")
        return text if text is not None else f"{self.rule}: {self.details}"


class Refused(NamedTuple):
    """Why a move is refused when no rule of the spec refuses it (out of turn, after the end, a
    payment waited for): `key` names the reason and `fields` the values it is about (the move as
    written, a player's number from 1, a step's name, the legal moves), for a tool that words it in
    a player's language (the sheets' ``refusal.engine.KEY``); `message` says it in English.
    """

    key: str
    fields: dict[str, Any]
    message: str


def _refused(key: str, english: str, **fields: Any) -> Refused:
    """A :class:`Refused`, its English `message` filled from `fields` ("illegal action 'T': ...")."""
    said = english.format(**fields)
    return Refused(key, fields, f"illegal action '{fields['action']}': {said}" if "action" in fields else said)


class IllegalAction(Exception):
    """An action that is not legal now; the message names the rule that forbids it.

    `refusal` (and `action`, the move as written) is set when a condition of the rules refuses
    it (see :class:`Refusal`): the message is then "illegal action 'TEXT': RULE: PART" in English
    and, on a line of its own, "details: CONDITION, SPEC:LINE"; :meth:`reason` gives "RULE: PART"
    in another language of the sheets. `refused` is set when the move is refused for another
    reason (see :class:`Refused`): its key and fields, for words in a player's language.
    """

    def __init__(
        self, message: str, refusal: Refusal | None = None, action: str | None = None, refused: Refused | None = None
    ) -> None:
        super().__init__(message)
        self.refusal = refusal
        self.action = action  # the move as written (its notation), when a rule refuses it
        self.refused = refused  # the reason, when no rule refuses it (see Refused)

    def reason(self, lang: str = "en") -> str:
        """Why the move is refused, for a player reading `lang`: the rule's words where a rule
        refuses it, else the message (said in English by the runtime)."""
        if self.refusal is None:
            return str(self)
        return self.refusal.reason(lang)

    @property
    def details(self) -> str | None:
        """For a spec's author: the condition as written and where it is; None without one."""
        return self.refusal.details if self.refusal is not None else None


class NotationError(ValueError):
    """Text that is not an action in this engine's notation."""


class StateError(ValueError):
    """A state (from_json) or record (replay) that is corrupt or inconsistent.

    `problems` holds each problem of a refused state as (path, sentence): the path is the
    keys and list indexes that lead from the state to the value the problem is about
    (("ending", "last_seat"), ("seats", 1, "reserved", 2); () for the whole state), so that
    a tool that has the state's text can point at that value. The message lists the sentences.
    `problems` is empty when the text is no JSON at all (the message says where it breaks).
    """

    def __init__(self, message: str, problems: Iterable[Problem] = ()) -> None:
        super().__init__(message)
        self.problems = tuple(problems)


# What a RuleError says in English, by its key (its fields filled in). Every key but
# step_budget is about an effect: its message begins with `located`, the effect as written and
# its spec line. The sheets word the same keys in each language (``rule_error.KEY``).
_RULE_ERRORS = {
    "out_of_game": "{kind} {id} is out of the game (in no zone)",
    "zone_full": "zone {zone!r} is full",
    "nothing_to_move": "there is no component to move",
    "nothing_to_discard": "there is no component to discard",
    "pile_empty": "pile {pile!r} is empty",
    "negative_tokens": "a negative number of tokens ({amount})",
    "short_supply": "only {n} {colour} token(s) in the supply",
    "short_held": "only {n} {colour} token(s) held by the player",
    "deck_empty": "the deck of level {level} is empty",
    "reserved_most": "the player holds {n} reserved cards, the most this spec's choices of a reserved card can name",
    "number_too_large": "the number passed {most:,} (either sign)",
    "step_budget": (
        "step {step!r} was stopped after {count:,} actions in one turn: its 'while' condition did not turn false"
    ),
}


class RuleError(RuntimeError):
    """The spec asked for something impossible at run time (a bug in the spec).

    As :class:`Refused` does for a refusal: `key` names what went wrong (one of _RULE_ERRORS)
    and `fields` the values it is about (`located`, the effect as written and its spec line; a
    zone's or pile's name, a colour, a number), for a tool that words it in a player's language
    (the sheets' ``rule_error.KEY``); str() says it in English. The key and fields are the
    exception's args, so it survives pickling (a bot's worker process, a simulation's).
    """

    def __init__(self, key: str, fields: dict[str, Any]) -> None:
        super().__init__(key, fields)
        self.key = key
        self.fields = fields

    def __str__(self) -> str:
        said = _RULE_ERRORS[self.key].format(**self.fields)
        return f"{self.fields['located']}: {said}" if "located" in self.fields else said


def _whole(value: Any, what: str) -> int:
    """`value` as an int: an int, or another library's integer type (numpy's int64); else ValueError."""
    if type(value) is not int:
        try:
            if isinstance(value, bool):
                raise TypeError
            value = operator.index(value)
        except TypeError:
            raise ValueError(f"{what} must be a whole number, not {type(value).__name__} {_shown(value)}") from None
    return value


def _shown(value: object) -> str:
    """A value of a state or an argument as a message shows it: short whatever it is (a huge
    number, a long text, a list nested thousands deep)."""
    if isinstance(value, (list, tuple)):
        return f"a list of {len(value)}"
    if isinstance(value, dict):
        return f"an object of {len(value)} key{'' if len(value) == 1 else 's'}"
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 64:
        return f"a number of about {int(abs(value).bit_length() * 0.30103) + 1} digits"  # str() would refuse past 4,300
    if isinstance(value, (str, bytes)) and len(value) > 40:
        return repr(value[:40]) + "..."
    if value is None or isinstance(value, (bool, int, float, str, bytes)):
        return repr(value)
    return type(value).__name__
