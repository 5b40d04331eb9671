"""The only ways a text reaches the source of a generated engine: safe by construction.

A spec and its file name are untrusted input, and the engine made from them is Python
that ``play``, ``simulate`` and the RL environments import. So no text from them is ever
pasted into the engine's source as it is; it goes through one of these functions, each
for one kind of place, and each gives a :class:`Code` (the only kind of value the engine
template accepts, see :func:`compiler.emit.engine._environment`):

* :func:`literal`: a Python literal made by ``repr`` (strings, numbers, tuples...);
* :func:`comment`: the text of a ``#`` comment, with every character that is not
  printable written as an escape, so a comment can never end early (a newline, a CR, a
  form feed, U+2028), hide code (bidi controls such as U+202E) or break the file (NUL, a
  lone surrogate);
* :func:`docstring`: a triple-quoted literal whose value is the text exactly (checked
  with :func:`ast.literal_eval`), in which no quote can close the string early;
* :func:`identifier`: a spec name inside a Python name, in a namespace that the
  compiler's own names never use (see the rule there).
"""

from __future__ import annotations

import ast
import re
import textwrap


class Code(str):
    """Python source text that came out of this module (or out of the lowering, which builds
    its code with it): the one kind of value the engine template writes."""


class UnsafeName(ValueError):
    """A spec name that is not of the form the schema allows for names (see :func:`identifier`)."""


def printable(text: str) -> str:
    """`text` with every character that is not printable written as a Python escape (``\\n``,
    ``\\x00``, ``\\u202e``, ``\\ud800``...): one visible line, whatever the text holds."""
    return "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in str(text))


def comment(text: str) -> Code:
    """The text of a ``#`` comment: one line of printable characters (see :func:`printable`)."""
    return Code(printable(text))


_PLAIN_DATA = (str, int, float, bool, type(None))


def literal(value) -> Code:
    """`value` as a Python literal (``repr``), for plain data only: str, int, float, bool,
    None, and tuples, lists, dicts of them. repr of these is a literal that evaluates to the
    value, with every non-printable character of a string escaped."""
    _check_plain(value)
    return Code(repr(value))


def _check_plain(value) -> None:
    if isinstance(value, (tuple, list)):
        for item in value:
            _check_plain(item)
    elif isinstance(value, dict):
        for key, item in value.items():
            _check_plain(key)
            _check_plain(item)
    elif type(value) not in _PLAIN_DATA:  # not a subclass, whose repr could be anything
        raise TypeError(f"not plain data, so not written as a literal: {type(value).__name__}")


# A named constant for a reader of the rules: PREFIX + the spec name in upper case (upper() keeps two
# spec names apart, as they hold no upper-case letter). The compiler's own names start with neither
# prefix (tests/test_engine_metadata.py checks every committed engine).
CONSTANT_PREFIXES = (
    "BASE_",  # the first action id of a decision (DECISION_INFO[d].first_id)
    "COLOUR_",  # a colour's index in COLOURS: in the supply, a player's tokens and bonuses, a cost
)


def constant(prefix: str, name: str) -> Code:
    """The engine constant of spec name `name` used as `prefix` says (see CONSTANT_PREFIXES)."""
    if prefix not in CONSTANT_PREFIXES:
        raise ValueError(f"unknown prefix for a constant: {prefix!r}")
    if not isinstance(name, str) or not _SPEC_NAME.fullmatch(name):
        raise UnsafeName(
            f"'{printable(name)}' is not a name (lower-case letters, digits and '_', starting with a letter or '_')"
        )
    return Code(prefix + name.upper())


DOC_WIDTH = 96  # the longest line of a docstring the compiler writes (indentation aside)


def _wrapped(text: str, indent: str) -> str:
    """`text` with each line longer than DOC_WIDTH broken at its spaces (a word is never cut)."""
    lines: list[str] = []
    for line in text.split("\n"):
        if len(line) <= DOC_WIDTH:
            lines.append(line)
        else:
            lines += textwrap.wrap(
                line,
                DOC_WIDTH,
                break_long_words=False,
                break_on_hyphens=False,
                expand_tabs=False,
                replace_whitespace=False,
            ) or [line]
    return ("\n" + indent).join(lines) if indent else "\n".join(lines)


def docstring(text: str, indent: str = "") -> Code:
    """A triple-quoted literal (``\"\"\"...\"\"\"``) whose value is `text`.

    The text keeps its line breaks (``\\n``); a backslash is doubled, every other character
    that is not printable is escaped, and a ``"`` is escaped when it follows another ``"``,
    starts or ends the text, so no two quotes in a row appear unescaped and the opening and
    closing quotes are the first and last three characters. A line longer than DOC_WIDTH is
    wrapped at its spaces (continued at `indent`), so that no line of an engine passes the
    linter's length. The result is checked: it evaluates to the wrapped text.
    """
    text = _wrapped(text, indent)
    out: list[str] = []
    for i, ch in enumerate(text):
        if ch == "\\":
            out.append("\\\\")
        elif ch == "\n":
            out.append("\n")
        elif ch == '"' and (i == 0 or i + 1 == len(text) or out[-1] == '"'):
            out.append('\\"')
        elif not ch.isprintable():
            out.append(repr(ch)[1:-1])
        else:
            out.append(ch)
    source = '"""' + "".join(out) + '"""'
    if ast.literal_eval(source) != text:  # pragma: no cover - would be a bug in the loop above
        raise AssertionError("a docstring literal does not evaluate to its text")
    return Code(source)


# A spec name is what the schema's `name` allows (and the expression grammar's NAME):
# lower-case letters, digits and '_'. It enters a Python name only as PREFIX + NAME, then
# optionally '_' + SUFFIX, where PREFIX is one of SPEC_PREFIXES and SUFFIX starts with an
# upper-case letter. No prefix is the start of another, and the compiler's own names start
# with none of them (tests/test_pysource.py checks every committed engine), so the prefix
# tells what a name is for; a spec name holds no upper-case letter, so it ends where the
# suffix starts. Two different (prefix, name, suffix) never spell the same Python name, and
# a spec name never spells one of the compiler's own: `card_li` is `p_card_li`, the row of
# a choice `card` is `p_card_LI`.
SPEC_PREFIXES = (
    "p_",  # a choice (the value the rules read)
    "a_",  # a choice's argument as held in the action table
    "v_",  # a loop variable of an expression
    "cc_p_",  # the cost of a chosen card (cc_p_NAME, one gem: cc_p_NAME_G0...)
    "nr_p_",  # the requirements of a chosen noble
    "kc_p_",  # a column of a chosen component, unpacked in a legal loop (kc_p_NAME_C1: its column 1)
    "_legal_",  # a decision's legal-action function
    "_do_",  # a decision's effects
    "_why_",  # why a decision's action is illegal
    "_payopts_",  # the payments a purchase accepts
    "z_",  # a zone of the spec's own, as a Game attribute
    "zp_",  # the components drawn unseen into a private_when_drawn holding (a Game attribute)
    "_k_",  # a kind's table: one row of its columns' values per component
    "_cx_",  # an extra column of the base cards: its value per card id (compiler/lower/base_columns.py)
    "_nx_",  # an extra column of the base nobles: its value per noble id
    "s_",  # a declared variable (state) of the spec, as a Game attribute
    "_pf_",  # a declared field of the player-count table: a module constant, players -> value (setup.NAME)
)
_SPEC_NAME = re.compile(r"[a-z_][a-z0-9_]*")
_SUFFIX = re.compile(r"[A-Z][A-Z0-9]*")


def identifier(prefix: str, name: str, suffix: str = "") -> Code:
    """The Python name for spec name `name` used as `prefix` says (see SPEC_PREFIXES), with
    an upper-case `suffix` for a name the compiler derives from it (``LI``: the level of a
    face-up choice). Raises UnsafeName when `name` is not a spec name."""
    if prefix not in SPEC_PREFIXES:
        raise ValueError(f"unknown prefix for a spec name: {prefix!r}")
    if not isinstance(name, str) or not _SPEC_NAME.fullmatch(name):
        raise UnsafeName(
            f"'{printable(name)}' is not a name (lower-case letters, digits and '_', starting with a letter or '_')"
        )
    if suffix and not _SUFFIX.fullmatch(suffix):
        raise ValueError(f"a derived name's suffix is upper-case: {suffix!r}")
    return Code(prefix + name + ("_" + suffix if suffix else ""))
