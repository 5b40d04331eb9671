"""The engine's exceptions, and how their messages show the values they are about.

Part of the runtime of every generated engine (see compiler/emit/runtime/__init__.py): pasted
into each engine whole, before the rules (which raise RuleError).
"""
from __future__ import annotations

import operator
from collections.abc import Iterable
from typing import Any

from .aliases import Problem


class IllegalAction(Exception):
    """An action that is not legal now; the message names the rule that forbids it."""


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


class RuleError(RuntimeError):
    """The spec asked for something impossible at run time (a bug in the spec)."""


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
