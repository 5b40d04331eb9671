"""The statement tree the lowering builds, the one printer that writes it as Python, and the
passes over it that need no knowledge of the rules (liveness: unused bindings dropped).

A node holds Python *expressions* as text the expression compiler made (from names made by
:func:`compiler.lower.pysource.identifier` and literals made by :func:`compiler.lower.pysource.literal`);
every text that may come from a spec and is not code (a comment, a docstring) must be a
:class:`~compiler.lower.pysource.Code` made by pysource: the printer refuses anything else, so no
spec text reaches an engine raw. Statements are never written or rewritten as text: every
shape of the engines' hot loops is a transformation of these nodes (see :mod:`.shapes`).
"""
from __future__ import annotations

import ast
from dataclasses import dataclass, field
from functools import cache

from .pysource import Code


@dataclass
class Comment:
    """`# text` on a line of its own (a spec line, a rule as written)."""
    text: Code


@dataclass
class Assign:
    """`target = value` (`op` '+=', '-=' for an update); a chain `a = b = value` has several
    targets. `pure`: the value has no effect and cannot fail, so the binding may be dropped
    when nothing reads it (see :func:`prune`)."""
    targets: tuple[str, ...]
    value: str
    op: str = "="
    note: Code | None = None
    pure: bool = False


@dataclass
class Do:
    """An expression evaluated for its effect (a call)."""
    value: str
    note: Code | None = None


@dataclass
class Append:
    """`into.append(value)`, or `into.extend(value)` with `many`."""
    into: str
    value: str
    many: bool = False
    note: Code | None = None


@dataclass
class If:
    """`if test:` body, then `else:` orelse; an orelse that is one If with `chained` prints as `elif`."""
    test: str
    body: list
    orelse: list = field(default_factory=list)
    note: Code | None = None
    chained: bool = False
    role: str = ""  # what the lowering made this test for ("unpayable": see shapes.flat_face_up_loop)


@dataclass
class For:
    target: str
    iter: str
    body: list
    orelse: list = field(default_factory=list)
    note: Code | None = None


@dataclass
class FaceUpLoop:
    """Every occupied face-up slot, card `name` at row `name`_LI, its action id counted in `name`_ID
    (`first` + row * row_stride, then `stride` more per slot), its cost unpacked into
    cc_`name`_G0... when the body reads them. Written as nested loops over the market, or in
    one of the cheaper shapes of :mod:`.shapes`, which expands every one before printing."""
    name: str
    first: str  # the id terms before the row's, "" for none
    stride: int
    row_stride: int
    body: list


@dataclass
class Return:
    value: str | None = None
    note: Code | None = None


@dataclass
class Raise:
    value: str


@dataclass
class Continue:
    note: Code | None = None


@dataclass
class Break:
    note: Code | None = None


@dataclass
class Pass:
    pass


@dataclass
class Def:
    """`def name(params):` with an optional docstring (made by pysource.docstring)."""
    name: str
    params: str
    body: list
    doc: Code | None = None


@dataclass
class Table:
    """A constant table written one row a line: `name = (  # note`, the rows, `)`."""
    name: str
    rows: list[str]
    note: Code


def _text(value, what: str) -> Code:
    if not isinstance(value, Code):
        raise TypeError(f"{what} is not Code (made by compiler.lower.pysource): {value!r}")
    return value


def _noted(line: str, note) -> str:
    return f"{line}  # {_text(note, 'a comment')}" if note is not None else line


def render(nodes, depth: int = 0) -> str:
    """The Python text of a list of statements, at `depth` levels of indentation."""
    return "\n".join(lines(nodes, depth))


def lines(nodes, depth: int = 0) -> list[str]:
    out: list[str] = []
    for node in nodes:
        _write(node, depth, out)
    return out


def _write(node, depth: int, out: list[str]) -> None:  # one case per kind of node
    pad = "    " * depth
    match node:
        case Comment(text=text):
            out.append(f"{pad}# {_text(text, 'a comment')}")
        case Assign(targets=targets, value=value, op=op, note=note):
            joined = " = ".join(targets)
            out.append(_noted(f"{pad}{joined} {op} {value}", note))
        case Do(value=value, note=note):
            out.append(_noted(pad + value, note))
        case Append(into=into, value=value, many=many, note=note):
            out.append(_noted(f"{pad}{into}.{'extend' if many else 'append'}({value})", note))
        case If():
            _write_if(node, depth, out, "if")
        case For(target=target, iter=it, body=body, orelse=orelse, note=note):
            out.append(_noted(f"{pad}for {target} in {it}:", note))
            out.extend(lines(body, depth + 1))
            if orelse:
                out.append(pad + "else:")
                out.extend(lines(orelse, depth + 1))
        case Return(value=value, note=note):
            out.append(_noted(pad + ("return" if value is None else f"return {value}"), note))
        case Raise(value=value):
            out.append(f"{pad}raise {value}")
        case Continue(note=note):
            out.append(_noted(pad + "continue", note))
        case Break(note=note):
            out.append(_noted(pad + "break", note))
        case Pass():
            out.append(pad + "pass")
        case Def(name=name, params=params, body=body, doc=doc):
            out.append(f"{pad}def {name}({params}):")
            if doc is not None:
                out.append(pad + "    " + _text(doc, "a docstring"))
            out.extend(lines(body, depth + 1))
        case Table(name=name, rows=rows, note=note):
            out.append(_noted(f"{pad}{name} = (", note))
            out.extend(f"{pad}    {row}" for row in rows)
            out.append(pad + ")")
        case _:
            raise TypeError(f"not a statement node: {node!r}")


def _write_if(node: If, depth: int, out: list[str], keyword: str) -> None:
    pad = "    " * depth
    out.append(_noted(f"{pad}{keyword} {node.test}:", node.note))
    out.extend(lines(node.body, depth + 1))
    if len(node.orelse) == 1 and isinstance(node.orelse[0], If) and node.orelse[0].chained:
        _write_if(node.orelse[0], depth, out, "elif")
    elif node.orelse:
        out.append(pad + "else:")
        out.extend(lines(node.orelse, depth + 1))


# ----------------------------------------------------------------------------- names read and bound


@cache
def names_in(code: str) -> frozenset[str]:
    """The names a Python expression (or assignment target) mentions, from its syntax tree."""
    return frozenset(n.id for n in ast.walk(ast.parse(code, mode="eval")) if isinstance(n, ast.Name))


def bound_names(target: str) -> tuple[str, ...]:
    """The plain names an assignment target binds (`a, b` binds a and b; `x[i]` binds none)."""
    tree = ast.parse(target, mode="eval").body
    items = tree.elts if isinstance(tree, ast.Tuple) else [tree]
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
        case Def(body=body):
            for child in body:
                out |= reads(child)
        case Table(rows=rows):
            for row in rows:
                out |= names_in(row.rstrip(","))
        case FaceUpLoop(first=first, body=body):
            out |= names_in(first) if first else set()
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
            if kept != node.targets:
                node, changed = Assign(kept, node.value, node.op, node.note, node.pure), True
        elif isinstance(node, (If, For, FaceUpLoop)):
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
    return FaceUpLoop(node.name, node.first, node.stride, node.row_stride, body)


def _unused_loop_targets(body: list, after: set[str]) -> list:
    """Each `for` target that neither its body nor the code after the loop reads is named `_`
    (`after`: what the code after `body` reads, and a loop around it)."""
    out = []
    for k, node in enumerate(body):
        later = after.union(*map(reads, body[k + 1:]))
        if isinstance(node, For):
            inside = set().union(*map(reads, node.body + node.orelse))
            parts = bound_names(node.target)
            if len(parts) == len(names_in(node.target)) and not set(parts) <= inside | later:
                target = ", ".join(p if p in inside | later or p.startswith("_") else "_" for p in parts)
                node = For(target, node.iter, node.body, node.orelse, node.note)
            around = later | reads(node)
            node = For(node.target, node.iter, _unused_loop_targets(node.body, around),
                       _unused_loop_targets(node.orelse, later), node.note)
        elif isinstance(node, If):
            node = If(node.test, _unused_loop_targets(node.body, later), _unused_loop_targets(node.orelse, later),
                      node.note, node.chained, node.role)
        out.append(node)
    return out


def _own_reads(node) -> set[str]:
    """The names a statement reads itself (a compound statement's test or iterable, not its body)."""
    match node:
        case If(test=test):
            return set(names_in(test))
        case For(iter=it):
            return set(names_in(it))
        case FaceUpLoop(first=first):
            return set(names_in(first)) if first else set()
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


def forward_aliases(body: list) -> tuple[list, bool]:
    """`x = E` read by one statement only, `a, b = x`, becomes `a, b = E`: one binding less."""
    every = list(statements(body))
    for alias in every:
        if not (isinstance(alias, Assign) and alias.pure and alias.op == "=" and len(alias.targets) == 1
                and bound_names(alias.targets[0]) == (alias.targets[0],)):
            continue
        name = alias.targets[0]
        readers = [s for s in every if name in _own_reads(s)]
        if len(readers) == 1 and isinstance(readers[0], Assign) and readers[0].pure and readers[0].value == name:
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
