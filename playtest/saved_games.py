"""A saved game's problems drawn as the compiler draws a spec's: `FILE:line:col: error[E7xx]:
message`, the line of the file and a caret under the value, then the count.

The engine says what is wrong with a state as (path, sentence) pairs (StateError.problems);
:mod:`compiler.front.json_position` turns each path into a place in the file's text. The codes
(documented in rulespec/README.md, Diagnostics):

- E701 the file is not UTF-8 text (the caret under the first byte that is not);
- E702 the file is not JSON (the caret where it breaks);
- E703 JSON past what a saved game may hold: nested too deeply (the caret under the first
  bracket at the deepest level) or a whole number of thousands of digits;
- E710 a state the engine refuses: one diagnostic per problem, under the value it is about
  (the opening brace of the state for a problem of the whole state);
- E711 a sound state that does not fit the game in progress (`load FILE` during play).

Nothing here prints: the functions return the text, which the command line writes through
its terminal-safe echo (the source lines are already shown with their control characters
escaped by :func:`compiler.diagnostics.render`).
"""

from __future__ import annotations

import json

from compiler.diagnostics import Diagnostic, SourceMap, Span, render_all, sorted_diagnostics
from compiler.front import json_position

NOT_UTF8, NOT_JSON, TOO_LARGE, INVALID_STATE, MISFIT = "E701", "E702", "E703", "E710", "E711"
WHOLE_WIDTH = 40  # an object or list up to this long, on one line, is underlined whole


def report(name: str, text: str, diagnostics: list[Diagnostic]) -> str:
    """The diagnostics of one saved game in the file's order, with the lines of `text`, then how many."""
    sources = SourceMap()
    sources.add_lines(name, json_position.lines(text))
    diagnostics = sorted_diagnostics(diagnostics)
    n = len(diagnostics)
    return render_all(diagnostics, sources) + f"\n{n} error{'s' if n != 1 else ''}"


def not_utf8(name: str, data: bytes, error: UnicodeDecodeError) -> str:
    """A file that is not UTF-8 text, with the caret under the first byte that is not."""
    before = data[: error.start].decode("utf-8-sig")
    text = data.decode("utf-8-sig", errors="replace")
    line, col = json_position.line_col(before, len(before))
    message = f"not a saved game (not UTF-8 text: byte {error.start + 1} is {data[error.start : error.start + 1]!r})"
    return report(name, text, [Diagnostic(NOT_UTF8, message, Span(name, line, col))])


def not_json(name: str, text: str, error: json.JSONDecodeError) -> str:
    """Where the JSON of a saved game breaks."""
    reason = error.msg[:1].lower() + error.msg[1:]
    return report(
        name,
        text,
        [
            Diagnostic(
                NOT_JSON, f"not a saved game: the JSON breaks here ({reason})", Span(name, error.lineno, error.colno)
            )
        ],
    )


def too_deep(name: str, text: str) -> str:
    """JSON nested past what json.loads reads, at the first bracket of the deepest level."""
    offset, depth = json_position.too_deep(text)
    line, col = json_position.line_col(text, offset)
    return report(
        name,
        text,
        [
            Diagnostic(
                TOO_LARGE, f"not a saved game (its JSON is nested too deeply: {depth} levels)", Span(name, line, col)
            )
        ],
    )


def too_long(name: str, text: str, error: ValueError) -> str:
    """A number json.loads refuses to convert (thousands of digits), under the number."""
    span = json_position.too_long_number(text)
    if span is None:  # another ValueError of json.loads: its own words, at the start of the file
        return report(name, text, [Diagnostic(TOO_LARGE, f"not a saved game ({error})", Span(name, 1, 1))])
    digits = len(text[span[0] : span[1]].lstrip("-"))
    return report(
        name,
        text,
        [
            Diagnostic(
                TOO_LARGE,
                f"not a saved game (a number of {digits} digits; a saved "
                f"game's numbers have at most {json_position.max_digits()})",
                _span(name, text, *span),
            )
        ],
    )


def invalid_state(name: str, text: str, problems) -> str:
    """Each (path, sentence) problem of a refused state, under the value its path leads to."""
    diagnostics = []
    for path, sentence in problems:
        diagnostics.append(
            Diagnostic(INVALID_STATE, sentence, _span(name, text, *json_position.value_span(text, path)))
        )
    return report(name, text, diagnostics)


def misfit(name: str, text: str, path, sentence: str) -> str:
    """A sound state that cannot be loaded here, under the value that says why."""
    return report(name, text, [Diagnostic(MISFIT, sentence, _span(name, text, *json_position.value_span(text, path)))])


def _span(name: str, text: str, start: int, end: int) -> Span:
    """The span of text[start:end]: a number, a text or a literal whole; an object or a list whole
    when it is short and on one line, else its opening bracket."""
    line, col = json_position.line_col(text, start)
    value = text[start:end]
    if value[:1] in ("[", "{") and ("\n" in value or len(value) > WHOLE_WIDTH):
        end = start + 1  # (a scalar never spans lines: JSON texts hold no raw line break)
    return Span(name, line, col, line, col + max(1, end - start))
