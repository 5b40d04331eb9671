"""The board in colour: drawn lines as a rich Text, on a terminal that wants colour.

Only on a terminal, with rich installed (the `play` extra), and unless NO_COLOR or
TERM=dumb say otherwise (:func:`colour_wanted`); rich is imported when first asked for, so
that playtest runs without it. The text of the segments is the board's
(:mod:`playtest.terminal.board`), already safe: a Text is built with append(text, style),
never from markup.
"""

from __future__ import annotations

from collections.abc import Callable

from .board import Line

STYLES = {"head": "bold", "you": "bold cyan", "to_play": "bold yellow", "buyable": "bold green", "number": "bold"}
# Gem names whose terminal colour is not the colour rich gives the same word (black text is
# invisible on a dark terminal; rich has no plain 'gold'); any other name is looked up in rich's
# colour names, and a name that is none (a variant's 'onyx') is drawn without colour.
GEM_COLOURS = {"black": "bright_black", "white": "bright_white", "gold": "gold1"}


def _rich():
    """rich's text and style modules, or None when rich is not installed (the `play` extra)."""
    try:
        from rich import color, style, text
    except ImportError:
        return None
    return color, style, text


def colour_available() -> bool:
    return _rich() is not None


def colour_wanted(stream, environ) -> bool:
    """Is the board drawn in colour on `stream`? Only on a terminal, when rich is installed, and
    unless NO_COLOR is set (https://no-color.org: to any non-empty value) or TERM is 'dumb'."""
    isatty = getattr(stream, "isatty", None)
    return (
        bool(isatty and isatty())
        and not environ.get("NO_COLOR")
        and environ.get("TERM") != "dumb"
        and colour_available()
    )


def coloured_say(say: Callable[[str], None], stream) -> Callable[[object], None]:
    """A Session's `say` in colour: a board (a rich Text) printed on `stream` by a rich Console
    (no markup, no highlighting: only the styles of the Text), any other text by `say`."""
    from rich.console import Console

    console = Console(file=stream, force_terminal=True, highlight=False, markup=False, emoji=False, soft_wrap=True)

    def tell(what) -> None:
        if isinstance(what, str):
            say(what)
        else:
            console.print(what)

    return tell


def rich_text(lines: list[Line]):
    """The board as a rich Text in colour (rich must be installed: see colour_wanted)."""
    color, style, text = _rich()
    out = text.Text()
    for i, line in enumerate(lines):
        if i:
            out.append("\n")
        for j, (piece, name) in enumerate(line):
            out.append(piece.rstrip() if j == len(line) - 1 else piece, style=_style(name, color, style))
    return out


def _style(name: str, color, style):
    """The rich Style of a segment's style name (None: plain)."""
    if not name:
        return None
    if name.startswith("gem:"):
        gem = name[4:]
        try:
            return style.Style(color=color.Color.parse(GEM_COLOURS.get(gem, gem)))
        except color.ColorParseError:
            return None
    return style.Style.parse(STYLES[name])
