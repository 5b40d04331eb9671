"""The statement tree the lowering builds, the one printer that writes it as Python, and the
passes over it that need no knowledge of the rules (liveness: unused bindings dropped).

A node holds Python *expressions* as ``ast.expr`` nodes (built with :mod:`.ir`: names made by
:func:`compiler.lower.pysource.identifier` or by the compiler itself, spec text only as
constants), printed by ``ast.unparse`` (:func:`expression` breaks a long one inside its
brackets); every text that may come from a spec and is not code (a comment, a docstring) must
be a :class:`~compiler.lower.pysource.Code` made by pysource: the printer refuses anything
else (a ``str`` in an expression slot included), so no spec text reaches an engine raw.
Statements are never written or rewritten as text: every shape of the engines' hot loops is a
transformation of these nodes (see :mod:`.shapes`), and liveness reads their ``Name`` nodes.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass, field, fields

from . import ir
from .pysource import Code, literal

LIMIT = 100  # a printed line longer than this is broken inside its brackets


class _Printer(ast._Unparser):  # type: ignore[name-defined]  # CPython's own unparser (ast.unparse)
    """ast.unparse, but a generator that is a call's only argument is written in the call's own
    parentheses (`all(x for x in s)`), as Python allows and style asks, not in a second pair."""

    def visit_Call(self, node):
        if len(node.args) == 1 and not node.keywords and isinstance(node.args[0], ast.GeneratorExp):
            self.set_precedence(ast._Precedence.ATOM, node.func)  # type: ignore[attr-defined]
            self.traverse(node.func)
            self.traverse(node.args[0])
        else:
            super().visit_Call(node)


def unparse(node: ast.AST) -> str:
    """The Python text of a node: the one printer of expressions."""
    return _Printer().visit(node)


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
    note: Code


def _text(value, what: str) -> Code:
    if not isinstance(value, Code):
        raise TypeError(f"{what} is not Code (made by compiler.lower.pysource): {value!r}")
    return value


def _node(value) -> ast.expr:
    """An expression slot's node; a str there is refused (code is never text in the tree)."""
    if not isinstance(value, ast.expr):
        raise TypeError(f"an expression slot holds a {type(value).__name__}, not an ast.expr node: {value!r}")
    return value


def render(nodes, depth: int = 0) -> str:
    """The Python text of a list of statements, at `depth` levels of indentation."""
    return "\n".join(lines(nodes, depth))


def lines(nodes, depth: int = 0) -> list[str]:
    out: list[str] = []
    for node in nodes:
        _write(node, depth, out)
    return out


def _line(out: list[str], pad: str, head: str, value, tail: str = "", note=None) -> None:
    """`pad head value tail  # note`, the value broken over lines when too long (the note then
    goes on a line of its own above, where it would make the line too long)."""
    parts = expression(_node(value), pad, head, tail)
    if note is not None:
        noted = f"{parts[0]}  # {_text(note, 'a comment')}"
        if len(parts) == 1 and len(noted) <= LIMIT + 20:
            parts = [noted]
        else:
            out.extend(_comment(pad, note))
    out.extend(parts)


def inline(node: ast.expr | None) -> Code:
    """An expression as the template writes it in a test it joins with others by `and` (a step's
    loop test): in parentheses where it binds less tightly than `and` (`or`, a conditional, `:=`),
    so that joining keeps its meaning; '' for None."""
    if node is None:
        return Code("")
    node = _node(node)
    loose = isinstance(node, (ast.IfExp, ast.NamedExpr, ast.Lambda)) or \
        isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or)
    return Code(f"({unparse(node)})" if loose else unparse(node))


def _comment(pad: str, text: Code) -> list[str]:
    """`# text`, over as many lines as it needs to keep each within LIMIT (cut after a space)."""
    return [f"{pad}# {piece.rstrip()}" for piece in _chunks(text, max(40, LIMIT - len(pad) - 2))]


def printed_literal(value) -> Code:
    """Plain data (see pysource.literal, which vets it) as a literal, broken over lines inside its
    brackets when long: what the engine template writes for a table."""
    literal(value)
    return Code("\n".join(expression(ir.const(value), "")))


def printed_names(names) -> Code:
    """A tuple of names (None where there is none) as the engine template writes a table of functions."""
    return Code("\n".join(expression(ir.tuple_(*(ir.const(None) if n is None else ir.name(n) for n in names)), "")))


def _target(node) -> str:
    """An assignment or loop target: a tuple without its parentheses (`a, b`; `a,` for one name)."""
    node = _node(node)
    if isinstance(node, ast.Tuple) and node.elts:
        return ", ".join(unparse(e) for e in node.elts) + ("," if len(node.elts) == 1 else "")
    return unparse(node)


def _noted(line: str, note) -> str:
    return f"{line}  # {_text(note, 'a comment')}" if note is not None else line


def _write(node, depth: int, out: list[str]) -> None:  # noqa: C901 - one case per kind of node
    pad = "    " * depth
    match node:
        case Comment(text=text):
            out.extend(_comment(pad, _text(text, "a comment")))
        case Assign(targets=targets, value=value, op=op, note=note):
            joined = " = ".join(_target(t) for t in targets)
            _line(out, pad, f"{joined} {op} ", value, note=note)
        case Do(value=value, note=note):
            _line(out, pad, "", value, note=note)
        case Append(into=into, value=value, many=many, note=note):
            _line(out, pad, "", ir.method(_node(into), "extend" if many else "append", _node(value)), note=note)
        case If():
            _write_if(node, depth, out, "if")
        case For(target=target, iter=it, body=body, orelse=orelse, note=note):
            _line(out, pad, f"for {_target(target)} in ", it, ":", note)
            out.extend(lines(body, depth + 1))
            if orelse:
                out.append(pad + "else:")
                out.extend(lines(orelse, depth + 1))
        case Return(value=value, note=note):
            if value is None:
                out.append(_noted(pad + "return", note))
            else:
                _line(out, pad, "return ", value, note=note)
        case Raise(value=value):
            _line(out, pad, "raise ", value)
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
            for row in rows:
                out.extend(expression(_node(row), pad + "    ", "", ","))
            out.append(pad + ")")
        case _:
            raise TypeError(f"not a statement node: {node!r}")


def _write_if(node: If, depth: int, out: list[str], keyword: str) -> None:
    pad = "    " * depth
    _line(out, pad, f"{keyword} ", node.test, ":", node.note)
    out.extend(lines(node.body, depth + 1))
    if len(node.orelse) == 1 and isinstance(node.orelse[0], If) and node.orelse[0].chained:
        _write_if(node.orelse[0], depth, out, "elif")
    elif node.orelse:
        out.append(pad + "else:")
        out.extend(lines(node.orelse, depth + 1))


# ----------------------------------------------------------------------------- long lines broken

_ATOMS = (ast.Name, ast.Constant, ast.Attribute, ast.Subscript, ast.Call, ast.Tuple, ast.List, ast.Dict,
          ast.Set, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp, ast.JoinedStr)


def expression(node: ast.expr, pad: str, head: str = "", tail: str = "") -> list[str]:
    """The lines of `pad head <node> tail`: one when it fits in LIMIT characters, else the node
    broken inside its brackets, one element a line with a hanging indent (each element broken
    in turn when it is still too long). What is printed parses to the same tree."""
    line = f"{pad}{head}{unparse(node)}{tail}"
    if len(line) <= LIMIT:
        return [line]
    parts = _parts(node, len(pad) + 4)
    if parts is None:
        return [line]
    opening, items, closing = parts
    if head.endswith("(") and tail.startswith(")") and opening.startswith("(") and closing == ")":
        head, tail = head[:-1], tail[1:]  # the brackets of the broken node are the pair around it
    inner = pad + "    "
    out = [f"{pad}{head}{opening}"]
    for prefix, item, suffix in items:
        if isinstance(item, ast.expr):
            out += expression(item, inner, prefix, suffix)
        else:
            out.append(inner + prefix + item + suffix)
    out.append(f"{pad}{closing}{tail}")
    return out


def _grouped(node: ast.expr) -> str:
    """A node's text as an element of an operator chain: in parentheses unless it is an atom."""
    return unparse(node) if isinstance(node, _ATOMS) else f"({unparse(node)})"


def _element(node: ast.expr, suffix: str = ",") -> tuple[str, ast.expr, str]:
    """An element of a bracketed list: a generator or an assignment expression in parentheses."""
    return ("(", node, ")" + suffix) if isinstance(node, (ast.GeneratorExp, ast.NamedExpr)) else ("", node, suffix)


def _item(prefix: str, node: ast.expr, suffix: str = "") -> tuple[str, ast.expr, str]:
    """An element of an operator chain: in parentheses unless it is an atom."""
    return (prefix, node, suffix) if isinstance(node, _ATOMS) else (prefix + "(", node, ")" + suffix)


def _parts(node: ast.expr, width: int):  # noqa: C901 - one case per kind of bracket
    """(opening, [(prefix, element: node or text, suffix)], closing) of a node broken over lines, or None."""
    match node:
        case ast.Call(func=func, args=args, keywords=keywords) if args or keywords:
            items = [_element(a) for a in args]
            items += [(f"{k.arg}=" if k.arg else "**", k.value, ",") for k in keywords]
            return f"{_grouped(func)}(", items, ")"
        case ast.Tuple(elts=elts) if elts:
            return "(", [_element(e) for e in elts], ")"
        case ast.List(elts=elts) if elts:
            return "[", [_element(e) for e in elts], "]"
        case ast.Dict(keys=keys, values=values) if keys:
            return "{", [(f"{_grouped(k)}: " if k is not None else "**", v, ",")
                         for k, v in zip(keys, values, strict=True)], "}"
        case ast.BoolOp(op=op, values=values):
            word = "and " if isinstance(op, ast.And) else "or "
            return "(", [_item("" if i == 0 else word, v) for i, v in enumerate(values)], ")"
        case ast.BinOp():
            terms, ops = _flatten(node)
            return "(", [_item("" if i == 0 else f"{ops[i - 1]} ", t) for i, t in enumerate(terms)], ")"
        case ast.Compare(left=left, ops=ops, comparators=comparators):
            items = [_item("", left)]
            items += [_item(f"{ir.COMPARE_OPS[type(o)]} ", c) for o, c in zip(ops, comparators, strict=True)]
            return "(", items, ")"
        case ast.IfExp(test=test, body=body, orelse=orelse):
            return "(", [_item("", body), _item("if ", test), _item("else ", orelse)], ")"
        case ast.NamedExpr(target=target, value=value):
            return _prefixed(f"{unparse(target)} := (", value, width)
        case ast.UnaryOp(op=ast.Not(), operand=operand):
            return _prefixed("not (", operand, width)
        case ast.Constant(value=str() as text) if len(text) > 20:
            return "(", [("", repr(chunk), "") for chunk in _chunks(text, max(40, LIMIT - width - 8))], ")"
        case ast.ListComp(elt=elt, generators=generators) | ast.GeneratorExp(elt=elt, generators=generators):
            items = [_item("", elt)]
            for g in generators:
                items.append(_item(f"for {unparse(g.target)} in ", g.iter))
                items += [_item("if ", i) for i in g.ifs]
            return ("[", items, "]") if isinstance(node, ast.ListComp) else ("(", items, ")")
    return None


def _prefixed(opening: str, operand: ast.expr, width: int):
    """`not (`, `x := (`: the operand's own items where it opens a bracket of its own, else the operand."""
    inner = _parts(operand, width)
    if inner is not None and inner[0] == "(":
        return opening, inner[1], ")"
    return opening, [("", operand, "")], ")"


def _flatten(node: ast.expr) -> tuple[list[ast.expr], list[str]]:
    """The terms of a left-leaning chain of one operator (`a + b + c`), and the operators between them."""
    if isinstance(node, ast.BinOp) and isinstance(node.left, ast.BinOp) and type(node.left.op) is type(node.op):
        terms, ops = _flatten(node.left)
        return terms + [node.right], ops + [ir.BINARY_OPS[type(node.op)]]
    if isinstance(node, ast.BinOp):
        return [node.left, node.right], [ir.BINARY_OPS[type(node.op)]]
    return [node], []


def _chunks(text: str, size: int) -> list[str]:
    """`text` in pieces of about `size` characters, cut after a space where there is one."""
    out, rest = [], text
    while len(rest) > size:
        cut = rest.rfind(" ", size // 2, size) + 1 or size
        out.append(rest[:cut])
        rest = rest[cut:]
    return out + [rest] if rest else out


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


def _compiler_temporary(name: str) -> bool:
    """A name of the compiler's own made to be left unread (`_`, `_i`, `_x`): never renamed."""
    return name[:1] == "_"


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
                kept = [p if p in inside | later or _compiler_temporary(p) else "_" for p in parts]
                target = ir.target(*kept) if len(kept) == 1 else ir.tuple_(*kept)
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
    for alias in every:
        if not (isinstance(alias, Assign) and alias.pure and alias.op == "=" and len(alias.targets) == 1
                and isinstance(_node(alias.targets[0]), ast.Name)):
            continue
        name = bound_names(alias.targets[0])[0]
        readers = [s for s in every if name in _own_reads(s)]
        if len(readers) == 1 and isinstance(readers[0], Assign) and readers[0].pure \
                and _is_name(_node(readers[0].value), name):
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
