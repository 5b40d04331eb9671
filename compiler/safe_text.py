"""Texts from a spec made safe for the plain-text outputs they reach: a terminal, a YAML comment.

A spec's texts (titles, notes, notation), its names and the names of its files are
untrusted: a title can hold an escape sequence (ESC ] 52 sets the clipboard, ESC [ 2 J
clears the screen, U+009B is a one-character CSI), a bidi control that reorders what the
reader sees, or a line break that ends a YAML comment early. Each output has one function
here, used wherever such a text is written; the Markdown and HTML of the sheets have theirs
in :mod:`compiler.sheets.render`.

A control character is not dropped but shown as its escape (``\\x1b``, ``\\u202e``), so that
the reader sees that the text holds one. HTML pages (the sheets, the web table, the simulation
report) escape every text of their templates through :func:`html_finalize`, their Jinja
environments' ``finalize``: autoescape alone keeps an ESC, which `cat`, `curl` and `less -R`
pass to the terminal.
"""

from __future__ import annotations

import re

from markupsafe import Markup

# C0 controls, DEL and the C1 controls (U+0080-U+009F, with U+0085 NEL and U+009B CSI); the
# Unicode line and paragraph separators; the bidi controls (marks, embeddings, overrides,
# isolates); lone surrogates (from undecodable file names) and the non-characters YAML refuses.
_CONTROLS = "\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff\ufffe\uffff"
_UNSAFE = re.compile(f"[{_CONTROLS}]")


def _escape(match: re.Match) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def visible(text: str) -> str:
    """`text` on one line with every control character shown as its escape (newlines too)."""
    return _UNSAFE.sub(_escape, text)


def line_text(text: str) -> str:
    """`text` for a line of a page: a line break is a space (as HTML and Markdown show one),
    every other control shown as its escape."""
    return visible(text.replace("\r\n", " ").replace("\n", " "))


def html_finalize(value):
    """What a Jinja environment of an HTML page writes for `{{ value }}` (its ``finalize``,
    applied before autoescape): a text as :func:`line_text`; markup already made (a picture, a
    text with its gem swatches) keeps its own line breaks and tabs, every other control shown
    escaped; any other value as it is."""
    if isinstance(value, Markup):
        return Markup(terminal_text(str(value)))
    if isinstance(value, str):
        return line_text(value)
    return value


def terminal_text(text: str) -> str:
    """`text` safe to write to a terminal: line breaks and tabs kept, every other control shown escaped."""
    return "\n".join("\t".join(visible(part) for part in line.split("\t")) for line in text.split("\n"))


def yaml_comment(text: str) -> str:
    """`text` safe inside a YAML comment: on one line (a line break would end the comment and
    start YAML of the spec's choosing) and free of the characters a YAML file may not hold."""
    return visible(text)


# A spreadsheet reads a cell that begins with one of these as a formula (=HYPERLINK(...), +cmd,
# -2+3, @SUM(...)) or, with a tab or a carriage return before it, still as one (OWASP's CSV
# injection advice). A quote first makes it text; a text that itself begins with a quote gets
# one more, so that :func:`csv_text` gives back exactly what was written.
CSV_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "'")


def csv_cell(value):
    """A value for a cell of a CSV file the tools write: a text beginning like a formula is
    quoted as text (``'=HYPERLINK(...)``); a number stays a number (a margin of -2 is -2)."""
    if isinstance(value, str) and value.startswith(CSV_FORMULA_STARTS):
        return "'" + value
    return value


def csv_text(cell: str) -> str:
    """A text cell of a CSV file the tools wrote, as it was before :func:`csv_cell`."""
    return cell[1:] if cell.startswith("'") else cell
