"""Pass 1, load: where a YAML node or error is, and a YAML error in words (E010).

PyYAML reports a failure with its own terms ("expected <block end>, but found '<scalar>'", "while
parsing a flow sequence") and a mark; this module turns it into one diagnostic a spec's writer
can act on: the place, clamped to a line the report can show, what the parser was reading in
words, and the likely cause when one is plain (a tab, a quote never closed, a lone carriage
return). :mod:`compiler.front.source` reports through it.
"""

from __future__ import annotations

import re

import yaml
import yaml.parser
import yaml.reader

from ..diagnostics import Diagnostic, Span

# --------------------------------------------------------------------------- positions


_BREAK = re.compile("\r\n|[\r\n\x85\u2028\u2029]")  # the line breaks of YAML 1.1


def position(text: str, offset: int) -> tuple[int, int]:
    """The 1-based line and column of a character offset, counting lines as YAML does."""
    line, start = 1, 0
    for match in _BREAK.finditer(text, 0, offset):
        line, start = line + 1, match.end()
    return line, offset - start + 1


def clamp(span: Span, lines: list[str]) -> Span:
    """A span that starts past the last line (an error at the end of the file) moved to the
    end of the last line that holds anything, so that the report can draw a caret there."""
    if span.line <= len(lines) and (span.line < len(lines) or span.col <= len(lines[-1]) + 1):
        return span
    last = next((i for i in range(len(lines), 0, -1) if lines[i - 1].strip()), 0)
    if last == 0:
        return Span(span.file, 1, 1)
    col = len(lines[last - 1].rstrip()) + 1
    return Span(span.file, last, col, last, col + 1)


def mark_span(name: str, start, end, lines: list[str]) -> Span:
    return clamp(Span(name, start.line + 1, start.column + 1, end.line + 1, end.column + 1), lines)


def place(mark) -> tuple[int, int]:
    """A PyYAML mark as (line, column) from 1; the parser's events always carry one, the types allow none."""
    return (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)


def where(mark) -> str:
    return f"line {mark.line + 1}, column {mark.column + 1}"


# --------------------------------------------------------------------------- YAML errors


# What PyYAML was reading when it failed ("while parsing a flow sequence"), in words.
_CONTEXTS = {
    "while scanning a quoted scalar": "the quoted text that starts at {}",
    "while scanning a simple key": "the key that starts at {}",
    "while scanning a plain scalar": "the text that starts at {}",
    "while scanning a block scalar": "the block text that starts at {}",
    "while scanning an anchor": "the anchor at {}",
    "while scanning an alias": "the alias at {}",
    "while scanning a tag": "the tag at {}",
    "while scanning a directive": "the directive at {}",
    "while parsing a flow sequence": "the list opened with '[' at {}",
    "while parsing a flow mapping": "the mapping opened with '{{' at {}",
    "while parsing a block mapping": "the mapping that starts at {}",
    "while parsing a block collection": "the list that starts at {}",
    "while parsing a block node": "the value that starts at {}",
    "while parsing a flow node": "the value that starts at {}",
    "while parsing a node": "the value that starts at {}",
}
_UNCLOSED = ("while scanning a quoted scalar", "while parsing a flow sequence", "while parsing a flow mapping")
# PyYAML's names of tokens, as a reader would say them.
_TOKENS = {  # quoted forms first: "expected <block end>, but found '<scalar>'"
    "'<stream end>'": "the end of the file",
    "'<block end>'": "the end of an indented block",
    "'<scalar>'": "a value",
    "'<block mapping start>'": "a mapping",
    "'<block sequence start>'": "a list",
    "'<alias>'": "an alias",
    "'<anchor>'": "an anchor",
    "'<tag>'": "a tag",
    "'<directive>'": "a directive",
    "'<document start>'": "'---'",
    "'<document end>'": "'...'",
    "<stream end>": "the end of the file",
    "<block end>": "the end of the indented block",
}


def yaml_error(err: yaml.YAMLError, text: str, name: str, lines: list[str]) -> Diagnostic:
    if isinstance(err, yaml.reader.ReaderError):  # a character YAML does not allow; it knows only the offset
        line, col = position(text, err.position)
        char = err.character if isinstance(err.character, str) else chr(err.character)
        return Diagnostic(
            "E010",
            f"invalid YAML: the character U+{ord(char):04X} is not allowed in a YAML file",
            clamp(Span(name, line, col, line, col + 1), lines),
        )
    if not isinstance(err, yaml.MarkedYAMLError):
        first = str(err).strip().splitlines()[0] if str(err).strip() else "invalid YAML"
        return Diagnostic("E010", f"invalid YAML: {first}", Span(name, 1, 1))
    mark = err.problem_mark or err.context_mark
    span = clamp(Span(name, mark.line + 1, mark.column + 1), lines) if mark else Span(name, 1, 1)
    problem, context, notes = err.problem or "", err.context or "", []
    if problem.startswith("found character '\\t'"):
        source_line = lines[span.line - 1] if span.line <= len(lines) else ""
        if not source_line[: span.col - 1].strip(" \t"):
            return Diagnostic("E010", "invalid YAML: tabs cannot indent YAML; use spaces", span)
        return Diagnostic("E010", "invalid YAML: a tab cannot stand here in YAML; use spaces", span)
    if context.endswith("; first occurrence") and err.context_mark:  # a duplicate anchor
        return Diagnostic(
            "E010",
            f"invalid YAML: {context[: -len('; first occurrence')]}",
            span,
            (f"its first occurrence is at {where(err.context_mark)}",),
        )
    for token, words in _TOKENS.items():
        problem = problem.replace(token, words)
    problem = problem.replace("found unexpected end of stream", "the file ends too early")
    message = problem or context or "invalid YAML"
    if context and err.context_mark and err.problem_mark and problem:
        phrase = _CONTEXTS.get(context, context + " that starts at {}").format(where(err.context_mark))
        if context in _UNCLOSED and ("end of the file" in problem or "ends too early" in problem):
            notes.append(f"{phrase} is never closed")
        elif (err.context_mark.line, err.context_mark.column) != (err.problem_mark.line, err.problem_mark.column):
            notes.append(f"while reading {phrase}")
    elif context and problem and context != "while scanning for the next token":
        message = f"{problem} ({context})"
    if err.problem_mark is not None and isinstance(err, yaml.parser.ParserError):
        last, opened = _tokens_before(text, err.problem_mark)
        runaway = _runaway_quote(last, err.problem_mark)
        if runaway:  # it explains the error better than the structure around it
            notes = [runaway]
        elif opened and "end of the file" in problem and not any("never closed" in n for n in notes):
            kind = (
                "list opened with '['" if isinstance(opened, yaml.FlowSequenceStartToken) else "mapping opened with '{'"
            )
            notes = [f"the {kind} at {where(opened.start_mark)} is never closed"]
    lone = _lone_carriage_return(text)
    if lone:
        notes.append(lone)
    return Diagnostic("E010", f"invalid YAML: {message}", span, tuple(notes))


def _lone_carriage_return(text: str) -> str:
    """A note when a file with ordinary line ends holds a carriage return on its own: YAML
    (and the report) break the line there, which is seldom what the writer saw."""
    at = re.search("\r(?!\n)", text)
    if at is None or "\n" not in text:
        return ""
    line, _ = position(text, at.start())
    return f"line {line} ends with a lone carriage return (\\r), which YAML reads as a line break"


def _tokens_before(text: str, problem) -> tuple[yaml.Token | None, yaml.Token | None]:
    """The last token before a parse error, and the innermost '[' or '{' still open there."""
    last, stack = None, []
    try:
        for token in yaml.scan(text, Loader=yaml.SafeLoader):
            if token.start_mark.index >= problem.index:
                break
            if isinstance(token, (yaml.FlowSequenceStartToken, yaml.FlowMappingStartToken)):
                stack.append(token)
            elif isinstance(token, (yaml.FlowSequenceEndToken, yaml.FlowMappingEndToken)) and stack:
                stack.pop()
            last = token
    except yaml.YAMLError:
        pass
    return last, (stack[-1] if stack else None)


def _runaway_quote(last, problem) -> str:
    """A note when the token just before a parse error is a quoted text running over several
    lines: the classic missing closing quote, whose text swallowed the lines up to the next quote."""
    if (
        isinstance(last, yaml.ScalarToken)
        and last.style in ('"', "'")
        and last.start_mark.line < last.end_mark.line == problem.line
    ):
        return (
            f"the quoted text opened at {where(last.start_mark)} runs to line {last.end_mark.line + 1}: "
            f"is its closing quote missing?"
        )
    return ""
