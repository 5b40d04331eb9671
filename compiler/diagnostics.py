"""Diagnostics: the one error type every pass reports through.

A pass never raises a bare exception at the user and never prints. It collects
:class:`Diagnostic` values (code, message, span, notes) and, when it cannot go on,
raises :class:`CompileError` carrying all of them. Only the CLI renders them.

Rendering follows rustc and sqlglot::

    variants/quick.yaml:12:5: error[E104]: unknown gem colour 'purpel' (did you mean 'purple'?)
       12 |     colour: purpel
          |             ^^^^^^

Sources are registered in a :class:`SourceMap` so that a span (file, 1-based line
and column) can be drawn with its line and a caret without re-reading files.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TypeVar, cast

from . import codes, reads
from .safe_text import visible

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Span:
    """A region of a source file; lines and columns are 1-based, end is exclusive."""

    file: str
    line: int
    col: int
    end_line: int | None = None
    end_col: int | None = None

    def shifted(self, line_offset: int, col: int, length: int) -> Span:
        """A span inside this one, `line_offset` lines below, at column `col`."""
        return Span(self.file, self.line + line_offset, col, self.line + line_offset, col + max(1, length))

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One problem: its code (registered in :mod:`compiler.codes`, with the severity the
    registry gives it, or the diagnostic is refused), message, span and notes."""

    code: str
    message: str
    span: Span | None = None
    notes: tuple[str, ...] = ()
    severity: str = codes.ERROR

    def __post_init__(self) -> None:
        codes.require(self.code, self.severity)

    def to_dict(self) -> dict:
        data: dict = {"code": self.code, "severity": self.severity, "message": self.message}
        if self.span is not None:
            data.update(
                file=self.span.file,
                line=self.span.line,
                col=self.span.col,
                end_line=self.span.end_line,
                end_col=self.span.end_col,
            )
        if self.notes:
            data["notes"] = list(self.notes)
        return data


class CompileError(Exception):
    """Raised by a pass that found errors; carries every diagnostic it collected."""

    def __init__(self, diagnostics: Sequence[Diagnostic]):
        self.diagnostics = list(diagnostics)
        first = self.diagnostics[0] if self.diagnostics else None
        super().__init__(first.message if first else "compile error")


class Reporter:
    """Collects the diagnostics of one pass; `raise_if_errors` ends the pass."""

    def __init__(self) -> None:
        self.diagnostics: list[Diagnostic] = []

    def error(self, code: str, message: str, span: Span | None = None, *notes: str) -> None:
        self.diagnostics.append(Diagnostic(code, message, span, tuple(n for n in notes if n)))

    def extend(self, diagnostics: Iterable[Diagnostic]) -> None:
        self.diagnostics.extend(diagnostics)

    @property
    def has_errors(self) -> bool:
        return any(d.severity == "error" for d in self.diagnostics)

    def raise_if_errors(self) -> None:
        if self.has_errors:
            raise CompileError(sorted_diagnostics(self.diagnostics))


def sorted_diagnostics(diagnostics: Iterable[Diagnostic]) -> list[Diagnostic]:
    """Source order (file, line, col), then code; diagnostics without a span last."""

    def key(d: Diagnostic):
        if d.span is None:
            return (1, "", 0, 0, d.code, d.message)
        return (0, d.span.file, d.span.line, d.span.col, d.code, d.message)

    unique = list(dict.fromkeys(diagnostics))
    return sorted(unique, key=key)


def did_you_mean(name: str, candidates: Iterable[str]) -> str:
    """A ' (did you mean 'x'?)' suffix, or '' when nothing is close."""
    close = difflib.get_close_matches(name, sorted(set(candidates)), n=1, cutoff=0.6)
    return f" (did you mean '{close[0]}'?)" if close else ""


def one_of(candidates: Iterable[str]) -> str:
    return ", ".join(sorted(set(candidates)))


class SourceMap:
    """The text of every file a run read, by the name its spans use."""

    def __init__(self) -> None:
        self._lines: dict[str, list[str]] = {}
        self._derived: dict[object, object] = {}
        self._reads: dict[object, reads.Reads] = {}  # the files each derived value was made from

    def derived(self, key: object, make: Callable[[], T]) -> T:
        """What `make()` returns, made once per run for `key`: the rule model of a base that every
        variant of the run inherits texts from is built once, not once per variant (a server
        checking the whole catalogue checked the official rules 24 times). The key names what
        the value was made from (a file's path and the hash of its bytes)."""
        if key not in self._derived:
            with reads.recorded() as read:
                self._derived[key] = make()
            self._reads[key] = read
        else:
            reads.note_all(self._reads[key])  # a record open now depends on them too
        return cast(T, self._derived[key])

    def add(self, name: str, text: str) -> None:
        self._lines[name] = text.splitlines()

    def add_lines(self, name: str, lines: list[str]) -> None:
        """A file split into lines by its own format's rule (JSON ends lines at "\\n" only)."""
        self._lines[name] = list(lines)

    def lines(self, name: str) -> list[str] | None:
        """Every line of a file the run read, or None if it read no such file."""
        return self._lines.get(name)

    def line(self, name: str, number: int) -> str | None:
        lines = self._lines.get(name)
        if lines is None or not 1 <= number <= len(lines):
            return None
        return lines[number - 1]


def render(diagnostic: Diagnostic, sources: SourceMap | None = None) -> str:
    """The human form: location, severity, code, message, source line, caret, notes."""
    d = diagnostic
    head = f"{d.severity}[{d.code}]: {d.message}"
    if d.span is not None:
        head = f"{d.span}: {head}"
    # One line each: a file name or a text quoted in a message may hold a line break (a forged
    # `official.yaml: ok` line below it) or an escape sequence; shown as escapes.
    out = [visible(head)]
    span = d.span
    text = sources.line(span.file, span.line) if (sources and span) else None
    if text is not None and span is not None:
        text = text.replace("\t", " ")
        if len(text) > 200:  # a minified line: show the window around the caret
            start = 0 if span.col <= 120 else span.col - 80
            text = ("..." if start else "") + text[start : start + 160]
            col = span.col - start + (3 if start else 0)
        else:
            col = span.col
        width = 1
        if span.end_col is not None and (span.end_line in (None, span.line)):
            width = max(1, span.end_col - span.col)
        width = max(1, min(width, len(text) - col + 1)) if len(text) >= col else 1
        # A control character of the line (an escape sequence in a title) is shown as its escape,
        # never sent to the terminal; the caret moves with the text before it.
        col, width = len(visible(text[: col - 1])) + 1, max(1, len(visible(text[col - 1 : col - 1 + width])))
        text = visible(text)
        gutter = str(span.line)
        out.append(f" {gutter} | {text}")
        out.append(f" {' ' * len(gutter)} | {' ' * (col - 1)}{'^' * width}")
    for note in d.notes:
        out.append(visible(f"  = note: {note}"))
    return "\n".join(out)


def render_all(diagnostics: Sequence[Diagnostic], sources: SourceMap | None = None) -> str:
    return "\n".join(render(d, sources) for d in diagnostics)


def to_json(diagnostics: Sequence[Diagnostic]) -> str:
    return json.dumps([d.to_dict() for d in diagnostics], indent=2, sort_keys=True)
