"""Where a value lies in a JSON text: positions for the located errors of a saved game.

`json.loads` gives values without positions, and an engine's StateError says which value of a
state is wrong only as a path of keys and list indexes (("seats", 1, "reserved", 2)). This
module walks the text along such a path and returns where the value is, so that the error can
be drawn as the compiler draws a spec's: file:line:col, the line and a caret under the value.

The walk descends only along the path, skipping the siblings on the way with a loop (no
recursion, no value built), so it works on any text that `json.loads` accepts (a leading
byte-order mark, any JSON whitespace, duplicate keys -- the last one counts, as json.loads
keeps it -- NaN and Infinity, nesting as deep as json.loads reads). Lines are counted as
json.JSONDecodeError counts them: only "\\n" ends a line (a "\\u2028" inside a string does not).

For a text that `json.loads` refuses for its size rather than its syntax, :func:`too_deep` and
:func:`too_long_number` find the place.
"""

from __future__ import annotations

import re
import sys
from json.decoder import WHITESPACE, scanstring  # type: ignore[attr-defined]  # public in CPython, not in typeshed

_SCALAR = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?|true|false|null|NaN|-?Infinity")
BOM = "\ufeff"


def value_span(text: str, path) -> tuple[int, int]:
    """The offsets (start, end) in `text` of the value that `path` (keys and indexes) leads to,
    or of the deepest value on the way that exists (a key that is missing, an index past the
    end, a step into a number). `text` is one that json.loads accepts."""
    start = _skip_space(text, 1 if text.startswith(BOM) else 0)
    span = (start, _value_end(text, start))
    for key in path:
        child = _child(text, span[0], key)
        if child is None:
            break
        span = child
    return span


def line_col(text: str, offset: int) -> tuple[int, int]:
    """1-based line and column of `offset`, counted as json.JSONDecodeError counts them."""
    line_start = text.rfind("\n", 0, offset) + 1
    return text.count("\n", 0, offset) + 1, offset - line_start + 1


def lines(text: str) -> list[str]:
    """The lines of `text` as line_col numbers them (a "\\r" before a "\\n" is no part of a line)."""
    return [line[:-1] if line.endswith("\r") else line for line in text.split("\n")]


def _skip_space(text: str, pos: int) -> int:
    return WHITESPACE.match(text, pos).end()


def _child(text: str, pos: int, key) -> tuple[int, int] | None:
    """The span of member `key` of the object, or item `key` of the array, that starts at `pos`."""
    if text[pos] == "{" and isinstance(key, str):
        found = None
        i = _skip_space(text, pos + 1)
        while text[i] != "}":
            name, i = scanstring(text, i + 1)
            i = _skip_space(text, _skip_space(text, i) + 1)  # past the colon
            end = _value_end(text, i)
            if name == key:
                found = (i, end)  # a later duplicate replaces it, as in json.loads
            i = _skip_space(text, end)
            if text[i] == ",":
                i = _skip_space(text, i + 1)
        return found
    if text[pos] == "[" and type(key) is int and key >= 0:
        i = _skip_space(text, pos + 1)
        index = 0
        while text[i] != "]":
            end = _value_end(text, i)
            if index == key:
                return i, end
            i = _skip_space(text, end)
            if text[i] == ",":
                i = _skip_space(text, i + 1)
            index += 1
    return None


def _value_end(text: str, pos: int) -> int:
    """The offset just past the value that starts at `pos` (a loop over its tokens, however deep)."""
    depth = 0
    i = pos
    while True:
        ch = text[i]
        if ch == '"':
            i = scanstring(text, i + 1)[1]
        elif ch in "[{":
            depth += 1
            i += 1
            continue
        elif ch in "]}":
            depth -= 1
            i += 1
        elif ch in ",: \t\n\r":
            i += 1
            continue
        else:
            scalar = _SCALAR.match(text, i)
            assert scalar is not None  # the text was read by json.loads: a number or a literal starts here
            i = scalar.end()
        if depth == 0:
            return i


# A tolerant tokenizer for texts that json.loads refused: a string is skipped whole (even an
# unterminated one, to the end of the text), brackets and numbers are tokens, the rest is passed.
_TOKEN = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?|[\[{]|[\]}]|-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?', re.S)


def too_deep(text: str) -> tuple[int, int]:
    """The offset of the first bracket at the deepest nesting of `text`, and that depth."""
    depth = deepest = 0
    at = 0
    for token in _TOKEN.finditer(text):
        kind = token.group()[0]
        if kind in "[{":
            depth += 1
            if depth > deepest:
                deepest, at = depth, token.start()
        elif kind in "]}":
            depth -= 1
    return at, deepest


def too_long_number(text: str) -> tuple[int, int] | None:
    """The span of the first whole number with more digits than Python converts (json.loads
    refuses it), or None."""
    limit = max_digits()
    for token in _TOKEN.finditer(text):
        number = token.group()
        if number[0] in '"[]{}' or "." in number or "e" in number or "E" in number:
            continue
        if len(number.lstrip("-")) > limit:
            return token.start(), token.end()
    return None


def max_digits() -> int:
    """The most digits of a whole number that json.loads converts (Python's int limit)."""
    return sys.get_int_max_str_digits() or sys.maxsize  # 0: no limit
