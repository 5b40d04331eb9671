"""The statement tree the lowering builds, and the passes over it that need no knowledge of the
rules (liveness: unused bindings dropped, single-use aliases forwarded).

A node holds Python *expressions* as ``ast.expr`` nodes (built with :mod:`.ir`: names made by
:func:`compiler.lower.pysource.identifier` or by the compiler itself, spec text only as
constants); every text that may come from a spec and is not code (a comment, a docstring) must
be a :class:`~compiler.lower.pysource.Code` made by pysource. The one printer (:mod:`.printer`)
refuses anything else (a ``str`` in an expression slot included), so no spec text reaches an
engine raw. Statements are never written or rewritten as text: every shape of the engines' hot
loops is a transformation of these nodes (see :mod:`.shapes`), and liveness reads their ``Name``
nodes.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field, fields

from . import ir
from .pysource import Code


class Node:
    """A statement node: compared by structure (its expression nodes by what they say)."""

    def __eq__(self, other):
        return type(self) is type(other) and _key(self) == _key(other)

    __hash__ = None  # type: ignore[assignment]


def _key(value):
    if isinstance(value, Node):
        return (type(value).__name__,) + tuple(_key(getattr(value, f.name)) for f in fields(value))
    if isinstance(value, (list, tuple)):
        return tuple(_key(v) for v in value)
    return ir.key(value)


@dataclass(eq=False)
class Comment(Node):
    """`# text` on a line of its own (a spec line, a rule as written)."""

    text: Code


@dataclass(eq=False)
class Assign(Node):
    """`target = value` (`op` '+=', '-=' for an update); a chain `a = b = value` has several
    targets. `pure`: the value has no effect and cannot fail, so the binding may be dropped
    when nothing reads it (see :func:`prune`)."""

    targets: tuple[ast.expr, ...]
    value: ast.expr
    op: str = "="
    note: Code | None = None
    pure: bool = False


@dataclass(eq=False)
class Do(Node):
    """An expression evaluated for its effect (a call)."""

    value: ast.expr
    note: Code | None = None


@dataclass(eq=False)
class Append(Node):
    """`into.append(value)`, or `into.extend(value)` with `many`."""

    into: ast.expr
    value: ast.expr
    many: bool = False
    note: Code | None = None


@dataclass(eq=False)
class If(Node):
    """`if test:` body, then `else:` orelse; an orelse that is one If with `chained` prints as `elif`."""

    test: ast.expr
    body: list
    orelse: list = field(default_factory=list)
    note: Code | None = None
    chained: bool = False
    role: str = ""  # what the lowering made this test for ("unpayable": see shapes.flat_face_up_loop)


@dataclass(eq=False)
class For(Node):
    target: ast.expr
    iter: ast.expr
    body: list
    orelse: list = field(default_factory=list)
    note: Code | None = None


@dataclass(eq=False)
class While(Node):
    """`while test:` body (the end-of-turn steps' loops: compiler/lower/phases.py)."""

    test: ast.expr
    body: list
    note: Code | None = None


@dataclass(eq=False)
class FaceUpLoop(Node):
    """Every occupied face-up slot, card `name` at row `name`_LI, its action id counted in `name`_ID
    (`first` + row * row_stride, then `stride` more per slot), its cost unpacked into
    cc_`name`_G0... when the body reads them. Written as nested loops over the market, or in
    one of the cheaper shapes of :mod:`.shapes`, which expands every one before printing."""

    name: str
    first: ast.expr | None  # the id terms before the row's, None for none
    stride: int
    row_stride: int
    body: list


@dataclass(eq=False)
class Return(Node):
    value: ast.expr | None = None
    note: Code | None = None


@dataclass(eq=False)
class Raise(Node):
    value: ast.expr


@dataclass(eq=False)
class Continue(Node):
    note: Code | None = None


@dataclass(eq=False)
class Break(Node):
    note: Code | None = None


@dataclass(eq=False)
class Pass(Node):
    pass


@dataclass(eq=False)
class Def(Node):
    """`def name(params):` with an optional docstring (made by pysource.docstring)."""

    name: str
    params: str
    body: list
    doc: Code | None = None


@dataclass(eq=False)
class Table(Node):
    """A constant table written one row a line: `name = (  # note`, the rows, `)`."""

    name: str
    rows: list[ast.expr]
    note: Code | None = None


def _node(value) -> ast.expr:
    """An expression slot's node; a str there is refused (code is never text in the tree)."""
    if not isinstance(value, ast.expr):
        raise TypeError(f"an expression slot holds a {type(value).__name__}, not an ast.expr node: {value!r}")
    return value


# ----------------------------------------------------------------------------- names read and bound


def names_in(node: ast.expr) -> frozenset[str]:
    """The names an expression (or assignment target) mentions: its Name nodes."""
    return ir.names(_node(node))


def bound_names(target: ast.expr) -> tuple[str, ...]:
    """The plain names an assignment target binds (`a, b` binds a and b; `x[i]` binds none)."""
    node = _node(target)
    items = node.elts if isinstance(node, ast.Tuple) else [node]
    return tuple(n.id for n in items if isinstance(n, ast.Name))


def reads(node) -> set[str]:
    """Every name a statement (and the statements inside it) reads."""
    out: set[str] = set()
    match node:
        case Assign(targets=targets, value=value, op=op):
            out |= names_in(value)
            for t in targets:  # a subscript target reads its names; an update reads its target too
                out |= names_in(t) - (set(bound_names(t)) if op == "=" else set())
        case Do(value=value) | Raise(value=value):
            out |= names_in(value)
        case Return(value=value) if value is not None:
            out |= names_in(value)
        case Append(into=into, value=value):
            out |= names_in(into) | names_in(value)
        case If(test=test, body=body, orelse=orelse):
            out |= names_in(test)
            for child in body + orelse:
                out |= reads(child)
        case For(iter=it, body=body, orelse=orelse):
            out |= names_in(it)
            for child in body + orelse:
                out |= reads(child)
        case While(test=test, body=body):
            out |= names_in(test)
            for child in body:
                out |= reads(child)
        case Def(body=body):
            for child in body:
                out |= reads(child)
        case Table(rows=rows):
            for row in rows:
                out |= names_in(row)
        case FaceUpLoop(first=first, body=body):
            out |= names_in(first) if first is not None else set()
            for child in body:
                out |= reads(child)
    return out


def prune(body: list) -> list:
    """Drop every pure binding nothing in `body` reads, until none is left (a binding read only by
    a dropped one goes too); a chain keeps the targets that are read. A `for` target nothing
    reads is named `_`. Flow-insensitive, as a function of the lowering is small: a name read
    anywhere keeps every binding of it."""
    while True:
        read = set().union(*(reads(node) for node in body)) if body else set()
        new, changed = _prune_block(body, read)
        body = new
        if not changed:
            return _unused_loop_targets(body, set())


def _prune_block(body: list, read: set[str]) -> tuple[list, bool]:
    out, changed = [], False
    for node in body:
        if isinstance(node, Assign) and node.pure and node.op == "=":
            kept = tuple(t for t in node.targets if not bound_names(t) or set(bound_names(t)) & read)
            if not kept:
                changed = True
                continue
            if len(kept) != len(node.targets):
                node, changed = Assign(kept, node.value, node.op, node.note, node.pure), True
        elif isinstance(node, (If, For, While, FaceUpLoop)):
            body2, c1 = _prune_block(node.body, read)
            orelse2, c2 = _prune_block(getattr(node, "orelse", []), read)
            if c1 or c2:
                node = _replace_blocks(node, body2, orelse2)
                changed = True
        out.append(node)
    return out, changed


def _replace_blocks(node, body: list, orelse: list):
    body = body or [Pass()]  # a block whose every statement was dropped still needs one
    if isinstance(node, If):
        return If(node.test, body, orelse, node.note, node.chained, node.role)
    if isinstance(node, For):
        return For(node.target, node.iter, body, orelse, node.note)
    if isinstance(node, While):
        return While(node.test, body, node.note)
    return FaceUpLoop(node.name, node.first, node.stride, node.row_stride, body)


def _compiler_temporary(name: str) -> bool:
    """A name of the compiler's own made to be left unread (`_`, `_i`, `_x`): never renamed."""
    return name[:1] == "_"


def _unused_loop_targets(body: list, after: set[str]) -> list:
    """Each `for` target that neither its body nor the code after the loop reads is named `_`
    (`after`: what the code after `body` reads, and a loop around it)."""
    out = []
    for node, later in zip(body, read_after_each(body, after), strict=True):
        if isinstance(node, For):
            inside = set().union(*map(reads, node.body + node.orelse))
            parts = bound_names(node.target)
            if len(parts) == len(names_in(node.target)) and not set(parts) <= inside | later:
                kept = [p if p in inside | later or _compiler_temporary(p) else "_" for p in parts]
                target = ir.target(*kept) if len(kept) == 1 else ir.tuple_(*kept)
                node = For(target, node.iter, node.body, node.orelse, node.note)
            around = later | reads(node)
            node = For(
                node.target,
                node.iter,
                _unused_loop_targets(node.body, around),
                _unused_loop_targets(node.orelse, later),
                node.note,
            )
        elif isinstance(node, If):
            node = If(
                node.test,
                _unused_loop_targets(node.body, later),
                _unused_loop_targets(node.orelse, later),
                node.note,
                node.chained,
                node.role,
            )
        out.append(node)
    return out


def read_after_each(body: list, after: set[str]) -> list[set[str]]:
    """For each statement of `body`, what the statements after it (and `after`) read: built from
    the end, so a long block is read once and not once per statement."""
    out: list[set[str]] = []
    later = set(after)
    for node in reversed(body):
        out.append(later)
        later = later | reads(node)
    out.reverse()
    return out


def _own_reads(node) -> set[str]:
    """The names a statement reads itself (a compound statement's test or iterable, not its body)."""
    match node:
        case If(test=test):
            return set(names_in(test))
        case For(iter=it):
            return set(names_in(it))
        case While(test=test):
            return set(names_in(test))
        case FaceUpLoop(first=first):
            return set(names_in(first)) if first is not None else set()
        case Def():
            return set()
    return reads(node)


def statements(nodes):
    """Every statement of `nodes`, those inside compound statements too (outer first)."""
    for node in nodes:
        yield node
        for part in ("body", "orelse"):
            yield from statements(getattr(node, part, None) or [])


def _without(nodes: list, gone) -> list:
    out = []
    for node in nodes:
        if node is gone:
            continue
        for part in ("body", "orelse"):
            if getattr(node, part, None):
                setattr(node, part, _without(getattr(node, part), gone))
        out.append(node)
    return out


def _is_name(node, identifier: str) -> bool:
    return isinstance(node, ast.Name) and node.id == identifier


def forward_aliases(body: list) -> tuple[list, bool]:
    """`x = E` read by one statement only, `a, b = x`, becomes `a, b = E`: one binding less."""
    every = list(statements(body))
    own_reads = [_own_reads(s) for s in every]  # once per call, not once per alias
    for alias in every:
        if not (
            isinstance(alias, Assign)
            and alias.pure
            and alias.op == "="
            and len(alias.targets) == 1
            and isinstance(_node(alias.targets[0]), ast.Name)
        ):
            continue
        name = bound_names(alias.targets[0])[0]
        readers = [s for s, read in zip(every, own_reads, strict=True) if name in read]
        if (
            len(readers) == 1
            and isinstance(readers[0], Assign)
            and readers[0].pure
            and _is_name(_node(readers[0].value), name)
        ):
            readers[0].value = alias.value
            return _without(body, alias), True
    return body, False


def tidy(body: list) -> list:
    """Liveness to a fixed point: unused pure bindings dropped, single-use aliases forwarded."""
    while True:
        body = prune(body)
        body, changed = forward_aliases(body)
        if not changed:
            return body
