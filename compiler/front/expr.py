"""Pass 3, expressions: text written in a spec -> typed expression nodes with spans.

Takes the text of a condition, a quantity or an effect, and where it stands in its
YAML file; returns frozen dataclasses (``Compare``, ``Aggregate``, ``Effect``...), each
carrying the :class:`Span` of its own text *in the YAML file*, so that a later pass
can point a caret at ``supply[purpel]`` on line 40, column 23. No ``lark.Tree``
leaves this module.

The grammar lives in ``rulespec/expr.lark`` (LALR). Parser failures are turned into
messages that say what was expected, in words rather than terminal names.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

import lark
from lark import Lark, Transformer, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from ..diagnostics import CompileError, Diagnostic, Span
from .origin import Origin as Origin  # where a node's text stands in its YAML file (re-exported)

MAX_EXPR_CHARS = 4000
MAX_NESTING = 40

# --------------------------------------------------------------------------- nodes


@dataclass(frozen=True, slots=True)
class Int:
    value: int
    span: Span = field(compare=False)


@dataclass(frozen=True, slots=True)
class Bool:
    value: bool
    span: Span = field(compare=False)


@dataclass(frozen=True, slots=True)
class Name:
    id: str
    span: Span | None = field(compare=False)  # None: a name made by the compiler (`none`, a bound)


@dataclass(frozen=True, slots=True)
class Word:
    """A keyword, ``'five_prestige'``: a value of a keyword column of a kind, typed by the place
    it stands in (compared with such a column, or passed where one is wanted)."""

    value: str  # without its quotes: lower-case letters, digits and '_'
    span: Span = field(compare=False)


@dataclass(frozen=True, slots=True)
class Attribute:
    obj: Expr
    name: str
    span: Span = field(compare=False)


@dataclass(frozen=True, slots=True)
class Index:
    obj: Expr
    index: Expr
    span: Span = field(compare=False)


@dataclass(frozen=True, slots=True)
class Call:
    func: str
    args: tuple[Expr, ...]
    span: Span = field(compare=False)


@dataclass(frozen=True, slots=True)
class Aggregate:
    """``func(body for var in collection)``: sum, count, all, any, min, max."""

    func: str
    body: Expr
    var: str
    collection: Expr
    span: Span = field(compare=False)


@dataclass(frozen=True, slots=True)
class Unary:
    op: str  # "-" or "not"
    operand: Expr
    span: Span = field(compare=False)


@dataclass(frozen=True, slots=True)
class Binary:
    op: str  # + - * // %
    left: Expr
    right: Expr
    span: Span = field(compare=False)


@dataclass(frozen=True, slots=True)
class Compare:
    op: str  # == != < <= > >= in "not in"
    left: Expr
    right: Expr
    span: Span = field(compare=False)


@dataclass(frozen=True, slots=True)
class Logic:
    op: str  # "and" | "or"
    left: Expr
    right: Expr
    span: Span = field(compare=False)


@dataclass(frozen=True, slots=True)
class Conditional:
    test: Expr
    then: Expr
    otherwise: Expr
    span: Span = field(compare=False)


Expr = Int | Bool | Name | Word | Attribute | Index | Call | Aggregate | Unary | Binary | Compare | Logic | Conditional


@dataclass(frozen=True, slots=True)
class Effect:
    name: str
    args: tuple[Expr, ...]
    span: Span = field(compare=False)
    # the names of the last len(keywords) arguments, written `name: value` (only `queue` takes them:
    # `queue(free_card, level: 1)`, compiler/check/queue.py); () for every other effect
    keywords: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ForEach:
    var: str
    collection: Expr
    body: Stmt
    span: Span = field(compare=False)


@dataclass(frozen=True, slots=True)
class When:
    test: Expr
    then: Stmt
    otherwise: Stmt | None
    span: Span = field(compare=False)


@dataclass(frozen=True, slots=True)
class Sequence:
    """Effects joined by ';' in the body of an `if` or a `for`, run in order (two or more)."""

    stmts: tuple[Stmt, ...]
    span: Span = field(compare=False)


@dataclass(frozen=True, slots=True)
class Performed(Sequence):
    """A call of a procedure (a definition with `do:`, compiler/check/procedures.py) as an effect:
    `stmts` is its body with the arguments in place of its parameters, so that every pass that
    walks statements sees the effects it stands for (a `Sequence` of them); `name` and `args` are
    the call as written, for the sheets, `diff` and the messages. Two calls are equal when they are
    written alike (`diff` compares the call, and the procedure apart), whatever the body stands for."""

    stmts: tuple[Stmt, ...] = field(compare=False)
    name: str = ""
    args: tuple[Expr, ...] = ()


Stmt = Effect | ForEach | When | Sequence


def children(node: Any) -> tuple[Any, ...]:
    """The direct sub-expressions and sub-statements of a node, in source order."""
    match node:
        case Attribute(obj=o):
            return (o,)
        case Index(obj=o, index=i):
            return (o, i)
        case Call(args=a) | Effect(args=a):
            return a
        case Aggregate(body=b, collection=c):
            return (c, b)
        case Unary(operand=o):
            return (o,)
        case Binary(left=l, right=r) | Compare(left=l, right=r) | Logic(left=l, right=r):
            return (l, r)
        case Conditional(test=t, then=a, otherwise=b):
            return (t, a, b)
        case ForEach(collection=c, body=b):
            return (c, b)
        case When(test=t, then=a, otherwise=b):
            return (t, a) if b is None else (t, a, b)
        case Sequence(stmts=s):
            return s
    return ()


def walk(node: Any) -> Iterator[Any]:
    """Every node below and including `node`, depth first, in source order."""
    yield node
    for child in children(node):
        yield from walk(child)


# --------------------------------------------------------------------------- parsing


@functools.cache
def _parser() -> Lark:
    grammar = resources.files("rulespec").joinpath("expr.lark").read_text(encoding="utf-8")
    return Lark(grammar, start=["expr", "stmt"], parser="lalr", propagate_positions=True, maybe_placeholders=True)


_TERMINAL_WORDS = {
    "RPAR": "')'",
    "LPAR": "'('",
    "RSQB": "']'",
    "LSQB": "'['",
    "COMMA": "','",
    "COLON": "':'",
    "DOT": "'.'",
    "NAME": "a name",
    "WORD": "a keyword",
    "INT": "a number",
    "COMPARE": "a comparison",
    "ADD_OP": "'+' or '-'",
    "MUL_OP": "'*', '//' or '%'",
    "MINUS": "'-'",
    "IN": "'in'",
    "FOR": "'for'",
    "IF": "'if'",
    "THEN": "'then'",
    "ELSE": "'else'",
    "AND": "'and'",
    "OR": "'or'",
    "NOT": "'not'",
    "TRUE": "'true'",
    "FALSE": "'false'",
    "SEMICOLON": "';'",
    "$END": "the end of the text",
}


def _expected(names) -> str:
    words = sorted({_TERMINAL_WORDS.get(n, n.lower()) for n in names})
    if not words or len(words) > 6:
        return ""
    return " (expected " + ", ".join(words[:-1]) + (" or " if len(words) > 1 else "") + words[-1] + ")"


def _token_text(token) -> str:
    if token.type == "$END":
        return "end of text"
    return repr(str(token))


def _syntax_error(err: UnexpectedInput, text: str, origin: Origin, what: str) -> Diagnostic:
    if isinstance(err, UnexpectedCharacters):
        start = err.pos_in_stream or 0
        notes: tuple[str, ...] = (
            ("a keyword is written in single quotes, in lower-case letters, digits and '_': 'gold_counts_double'",)
            if text[start] == "'"
            else ()
        )
        return Diagnostic("E201", f"unexpected character {text[start]!r} in {what}", origin.at(start, start + 1), notes)
    if isinstance(err, UnexpectedEOF) or (isinstance(err, UnexpectedToken) and err.token.type == "$END"):
        return Diagnostic(
            "E202",
            f"{what} ends too early{_expected(err.expected)}",
            origin.at(len(text)),
            _unclosed(text, len(text), origin, "is never closed"),
        )
    assert isinstance(err, UnexpectedToken)
    token = err.token
    start = token.start_pos or 0
    hint = " (use '==' to compare)" if str(token) == "=" else ""
    if str(token) == ";":
        hint = " (';' joins the effects of the body of an 'if' or a 'for'; write other effects as items of their own)"
    closers = {_CLOSERS[n] for n in err.expected if n in _CLOSERS}
    notes = _unclosed(text, start, origin, "is still open here", closers) if closers else ()
    return Diagnostic(
        "E203",
        f"unexpected {_token_text(token)} in {what}{_expected(err.expected)}{hint}",
        origin.at(start, start + len(str(token))),
        notes,
    )


_CLOSERS = {"RPAR": ")", "RSQB": "]"}
_PAIRS = {"(": ")", "[": "]"}


def _unclosed(text: str, end: int, origin: Origin, says: str, closers=None) -> tuple[str, ...]:
    """A note naming the innermost bracket still open at `end` (when one is, and, if
    `closers` is given, when the parser was waiting for its closing bracket)."""
    stack: list[int] = []
    i = 0
    while i < end:
        ch = text[i]
        if ch == "#":  # a comment runs to the end of its line
            newline = text.find("\n", i)
            i = end if newline < 0 else newline
            continue
        if ch in _PAIRS:
            stack.append(i)
        elif ch in ")]" and stack:
            stack.pop()
        i += 1
    if not stack or (closers is not None and _PAIRS[text[stack[-1]]] not in closers):
        return ()
    at = origin.at(stack[-1])
    return (f"the '{text[stack[-1]]}' at line {at.line}, column {at.col} {says}",)


def _precheck(text: str, origin: Origin, what: str) -> None:
    if not text.strip():
        raise CompileError([Diagnostic("E200", f"empty {what}", origin.at(0))])
    if len(text) > MAX_EXPR_CHARS:
        raise CompileError(
            [Diagnostic("E204", f"{what} is too long ({len(text)} characters, at most {MAX_EXPR_CHARS})", origin.at(0))]
        )
    depth = 0
    for i, ch in enumerate(text):
        if ch in "([":
            depth += 1
            if depth > MAX_NESTING:
                raise CompileError(
                    [
                        Diagnostic(
                            "E204",
                            f"{what} is nested too deeply (more than {MAX_NESTING} brackets)",
                            origin.at(i, i + 1),
                        )
                    ]
                )
        elif ch in ")]":
            depth -= 1
    if text.count("=") and "=" in text.replace("==", "").replace("!=", "").replace("<=", "").replace(">=", ""):
        lone = _lone_equals(text)
        if lone is not None:
            raise CompileError(
                [Diagnostic("E203", f"unexpected '=' in {what} (use '==' to compare)", origin.at(lone, lone + 1))]
            )


def _lone_equals(text: str) -> int | None:
    for i, ch in enumerate(text):
        if ch == "=" and (i == 0 or text[i - 1] not in "=!<>") and (i + 1 >= len(text) or text[i + 1] != "="):
            return i
    return None


def parse_expr(text: str, origin: Origin, what: str = "expression") -> Expr:
    """Parse a condition or quantity; raise CompileError with a located diagnostic."""
    return _parse(text, origin, "expr", what)


def parse_stmt(text: str, origin: Origin, what: str = "effect") -> Stmt:
    """Parse one effect statement; raise CompileError with a located diagnostic."""
    return _parse(text, origin, "stmt", what)


def _parse(text: str, origin: Origin, start: str, what: str):
    _precheck(text, origin, what)
    try:
        tree = _parser().parse(text, start=start)
    except UnexpectedInput as err:
        raise CompileError([_syntax_error(err, text, origin, what)]) from None
    try:
        return _Builder(origin).transform(tree)
    except RecursionError:  # pragma: no cover - guarded by _precheck
        raise CompileError([Diagnostic("E204", f"{what} is nested too deeply", origin.at(0))]) from None
    except lark.exceptions.VisitError as err:
        if isinstance(err.orig_exc, CompileError):
            raise err.orig_exc from None
        raise


@v_args(meta=True, inline=True)
class _Builder(Transformer):
    """Lark tree -> typed nodes; each node's span comes from the tree's meta."""

    def __init__(self, origin: Origin):
        super().__init__()
        self.origin = origin

    def _span(self, meta) -> Span:
        return self.origin.at(meta.start_pos, meta.end_pos)

    def _tok(self, token) -> Span:
        return self.origin.at(token.start_pos, token.end_pos)

    def integer(self, meta, token):
        return Int(int(token), self._span(meta))

    def true(self, meta):
        return Bool(True, self._span(meta))

    def false(self, meta):
        return Bool(False, self._span(meta))

    def name(self, meta, token):
        return Name(str(token), self._span(meta))

    def word(self, meta, token):
        return Word(str(token)[1:-1], self._span(meta))

    def attribute(self, meta, obj, token):
        return Attribute(obj, str(token), self._span(meta))

    def index(self, meta, obj, idx):
        return Index(obj, idx, self._span(meta))

    def args(self, meta, *items):
        return tuple(items)

    def call(self, meta, token, args):
        return Call(str(token), args or (), self._span(meta))

    def aggregate(self, meta, func, body, var, collection):
        return Aggregate(str(func), body, str(var), collection, self._span(meta))

    def negate(self, meta, operand):
        if isinstance(operand, Int):
            return Int(-operand.value, self._span(meta))
        return Unary("-", operand, self._span(meta))

    def not_(self, meta, operand):
        return Unary("not", operand, self._span(meta))

    def binary(self, meta, left, op, right):
        return Binary(str(op), left, right, self._span(meta))

    def compare(self, meta, left, op, right):
        return Compare(str(op), left, right, self._span(meta))

    def member(self, meta, left, right):
        return Compare("in", left, right, self._span(meta))

    def not_member(self, meta, left, right):
        return Compare("not in", left, right, self._span(meta))

    def and_(self, meta, left, right):
        return Logic("and", left, right, self._span(meta))

    def or_(self, meta, left, right):
        return Logic("or", left, right, self._span(meta))

    def conditional(self, meta, test, then, otherwise):
        return Conditional(test, then, otherwise, self._span(meta))

    def effect_args(self, meta: Any, *items: Any) -> tuple[Any, ...]:
        return tuple(items)

    def named_arg(self, meta: Any, token: Any, value: Any) -> tuple[str, Any]:
        return (str(token), value)

    def effect(self, meta, token, args):
        items = args or ()
        values = tuple(x[1] if isinstance(x, tuple) else x for x in items)
        names = tuple(x[0] for x in items if isinstance(x, tuple))
        first = next((k for k, x in enumerate(items) if isinstance(x, tuple)), len(items))
        if any(not isinstance(x, tuple) for x in items[first:]):
            raise CompileError(
                [
                    Diagnostic(
                        "E203", "a named argument (`name: value`) comes after every other argument", self._span(meta)
                    )
                ]
            )
        return Effect(str(token), values, self._span(meta), names)

    def for_stmt(self, meta, var, collection, body):
        return ForEach(str(var), collection, body, self._span(meta))

    def if_stmt(self, meta, test, then, otherwise):
        return When(test, then, otherwise, self._span(meta))

    def sequence(self, meta, *stmts):
        return Sequence(tuple(stmts), self._span(meta))


# --------------------------------------------------------------------------- printing


_PRECEDENCE = {"or": 1, "and": 2, "not": 3, "cmp": 4, "+": 5, "-": 5, "*": 6, "//": 6, "%": 6, "neg": 7}


def unparse(node, parent: int = 0) -> str:
    """Canonical text of a node (used in diffs, comments of generated code and tests)."""

    def wrap(text: str, prec: int) -> str:
        return f"({text})" if prec < parent else text

    match node:
        case Int(value=v):
            return str(v)
        case Bool(value=v):
            return "true" if v else "false"
        case Name(id=i):
            return i
        case Word(value=v):
            return f"'{v}'"
        case Attribute(obj=o, name=n):
            return f"{unparse(o, 9)}.{n}"
        case Index(obj=o, index=i):
            return f"{unparse(o, 9)}[{unparse(i)}]"
        case Effect(name=f, args=a, keywords=k) if k:
            shown = [unparse(x) for x in a[: len(a) - len(k)]] + [
                f"{n}: {unparse(x)}" for n, x in zip(k, a[-len(k) :], strict=True)
            ]
            return f"{f}({', '.join(shown)})"
        case Call(func=f, args=a) | Effect(name=f, args=a):
            return f"{f}({', '.join(unparse(x) for x in a)})"
        case Aggregate(func=f, body=b, var=v, collection=c):
            return f"{f}({unparse(b)} for {v} in {unparse(c)})"
        case Unary(op="-", operand=o):
            return wrap(f"-{unparse(o, 7)}", 7)
        case Unary(op="not", operand=o):
            return wrap(f"not {unparse(o, 3)}", 3)
        case Binary(op=op, left=l, right=r):
            p = _PRECEDENCE[op]
            return wrap(f"{unparse(l, p)} {op} {unparse(r, p + 1)}", p)
        case Compare(op=op, left=l, right=r):
            return wrap(f"{unparse(l, 5)} {op} {unparse(r, 5)}", 4)
        case Logic(op=op, left=l, right=r):
            p = _PRECEDENCE[op]
            return wrap(f"{unparse(l, p)} {op} {unparse(r, p + 1)}", p)
        case Conditional(test=t, then=a, otherwise=b):
            return wrap(f"if {unparse(t)} then {unparse(a)} else {unparse(b)}", 0 if parent == 0 else 10)
        case ForEach(var=v, collection=c, body=b):
            return f"for {v} in {unparse(c)}: {unparse(b)}"
        case When(test=t, then=a, otherwise=b):
            tail = f" else: {unparse(b)}" if b is not None else ""
            return f"if {unparse(t)}: {unparse(a)}{tail}"
        case Performed(name=f, args=a):
            return f"{f}({', '.join(unparse(x) for x in a)})"
        case Sequence(stmts=s):
            return "; ".join(unparse(x) for x in s)
    raise TypeError(f"not an expression node: {node!r}")
