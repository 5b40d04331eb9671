"""The one printer: statement trees (:mod:`.tree`) written as Python text, expressions by
``ast.unparse`` (CPython's own unparser), every line kept within LIMIT columns by breaking a long
expression inside its brackets, one element a line with a hanging indent, into text that parses
to the same tree. Comments and docstrings are :class:`~compiler.lower.pysource.Code` made by
pysource; an expression slot holds an ``ast.expr``: the printer refuses anything else.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from typing import Any

from . import ir
from .pysource import Code, literal
from .tree import (
    Append,
    Assign,
    Break,
    Comment,
    Continue,
    Def,
    Do,
    For,
    If,
    Node,
    Pass,
    Raise,
    Return,
    Table,
    While,
    _node,
)

LIMIT = 120  # a printed line longer than this is broken inside its brackets: the formatter's line length
# (compiler/emit/formatting.py), so that what fits is left on its line for the formatter
# A string constant longer than this is printed as adjacent literals, each at most this long
# ("..." "...": one atom of the grammar, which parses to the one constant), so that the formatter can
# break it over lines.
STRING_PIECE = 60


class _Printer(ast._Unparser):  # type: ignore[name-defined,misc]  # CPython's own unparser (ast.unparse)
    """ast.unparse, but a generator that is a call's only argument is written in the call's own
    parentheses (`all(x for x in s)`), as Python allows and style asks, not in a second pair."""

    def visit_Call(self, node: ast.Call) -> None:
        if len(node.args) == 1 and not node.keywords and isinstance(node.args[0], ast.GeneratorExp):
            self.set_precedence(ast._Precedence.ATOM, node.func)  # type: ignore[attr-defined]
            self.traverse(node.func)
            self.traverse(node.args[0])
        else:
            super().visit_Call(node)

    def visit_Constant(self, node: ast.Constant) -> None:
        if isinstance(node.value, str) and len(node.value) > STRING_PIECE and not self._avoid_backslashes:
            self.write(" ".join(repr(piece) for piece in string_pieces(node.value)))
        else:
            super().visit_Constant(node)


def string_pieces(text: str, size: int = STRING_PIECE) -> list[str]:
    """`text` cut into pieces of at most `size` characters, after a space where there is one."""
    pieces: list[str] = []
    while len(text) > size:
        cut = text.rfind(" ", 0, size) + 1 or size
        pieces.append(text[:cut])
        text = text[cut:]
    return pieces + [text] if text else pieces


def unparse(node: ast.AST) -> str:
    """The Python text of a node: the one printer of expressions."""
    return str(_Printer().visit(node))


def _text(value: object, what: str) -> Code:
    if not isinstance(value, Code):
        raise TypeError(f"{what} is not Code (made by compiler.lower.pysource): {value!r}")
    return value


def render(nodes: Iterable[Node], depth: int = 0) -> str:
    """The Python text of a list of statements, at `depth` levels of indentation."""
    return "\n".join(lines(nodes, depth))


def lines(nodes: Iterable[Node], depth: int = 0) -> list[str]:
    out: list[str] = []
    for node in nodes:
        _write(node, depth, out)
    return out


def _line(out: list[str], pad: str, head: str, value: ast.expr, tail: str = "", note: Code | None = None) -> None:
    """`pad head value tail  # note`, the value broken over lines when too long (the note then
    goes on a line of its own above, where it would make the line too long)."""
    parts = expression(_node(value), pad, head, tail)
    if note is not None:
        noted = f"{parts[0]}  # {_text(note, 'a comment')}"
        if len(parts) == 1 and len(noted) <= LIMIT:
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
    loose = (
        isinstance(node, (ast.IfExp, ast.NamedExpr, ast.Lambda))
        or isinstance(node, ast.BoolOp)
        and isinstance(node.op, ast.Or)
    )
    return Code(f"({unparse(node)})" if loose else unparse(node))


def _comment(pad: str, text: Code) -> list[str]:
    """`# text`, over as many lines as it needs to keep each within LIMIT (cut after a space)."""
    return [f"{pad}# {piece.rstrip()}" for piece in _chunks(text, max(40, LIMIT - len(pad) - 2))]


def printed_literal(value: object) -> Code:
    """Plain data (see pysource.literal, which vets it) as a literal, broken over lines inside its
    brackets when long: what the engine template writes for a table."""
    literal(value)
    return Code("\n".join(expression(ir.const(value), "")))


def printed_names(names: Iterable[str | None]) -> Code:
    """A tuple of names (None where there is none) as the engine template writes a table of functions."""
    return Code("\n".join(expression(ir.tuple_(*(ir.const(None) if n is None else ir.name(n) for n in names)), "")))


def _target(node: ast.expr) -> str:
    """An assignment or loop target: a tuple without its parentheses (`a, b`; `a,` for one name)."""
    node = _node(node)
    if isinstance(node, ast.Tuple) and node.elts:
        return ", ".join(unparse(e) for e in node.elts) + ("," if len(node.elts) == 1 else "")
    return unparse(node)


def _noted(line: str, note: Code | None) -> str:
    return f"{line}  # {_text(note, 'a comment')}" if note is not None else line


def _write(node: Node, depth: int, out: list[str]) -> None:  # noqa: C901 - one case per kind of node
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
        case While(test=test, body=body, note=note):
            _line(out, pad, "while ", test, ":", note)
            out.extend(lines(body, depth + 1))
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

# A node broken over lines: (opening, [(prefix, element, suffix, in parentheses)], closing).
_Broken = tuple[str, list[tuple[str, Any, str, bool]], str]
_ATOMS = (
    ast.Name,
    ast.Constant,
    ast.Attribute,
    ast.Subscript,
    ast.Call,
    ast.Tuple,
    ast.List,
    ast.Dict,
    ast.Set,
    ast.ListComp,
    ast.SetComp,
    ast.DictComp,
    ast.GeneratorExp,
    ast.JoinedStr,
)


def expression(node: ast.expr, pad: str, head: str = "", tail: str = "", grouped: bool = False) -> list[str]:
    """The lines of `pad head <node> tail` (`grouped`: the node in parentheses): one when it fits
    in LIMIT characters, else the node broken inside its brackets, one element a line with a
    hanging indent (each element broken in turn when it is still too long). What is printed
    parses to the same tree."""
    text = f"({unparse(node)})" if grouped else unparse(node)
    line = f"{pad}{head}{text}{tail}"
    if len(line) <= LIMIT:
        return [line]
    parts = _parts(node, len(pad) + 4)
    if parts is None:
        return [line]
    opening, items, closing = parts
    if grouped and opening != "(":  # a bracket of the node's own (a call's) inside the parentheses
        opening, closing = "(" + opening, closing + ")"
    inner = pad + "    "
    out = [f"{pad}{head}{opening}"]
    for prefix, item, suffix, group in items:
        if isinstance(item, ast.expr):
            out += expression(item, inner, prefix, suffix, group)
        else:
            out.append(inner + prefix + item + suffix)
    out.append(f"{pad}{closing}{tail}")
    return out


def _grouped(node: ast.expr) -> str:
    """A node's text as an element of an operator chain: in parentheses unless it is an atom."""
    return unparse(node) if isinstance(node, _ATOMS) else f"({unparse(node)})"


def _element(node: ast.expr, suffix: str = ",") -> tuple[str, ast.expr, str, bool]:
    """An element of a bracketed list: a generator or an assignment expression in parentheses."""
    return "", node, suffix, isinstance(node, (ast.GeneratorExp, ast.NamedExpr))


def _item(prefix: str, node: ast.expr, suffix: str = "") -> tuple[str, ast.expr, str, bool]:
    """An element of an operator chain: in parentheses unless it is an atom."""
    return prefix, node, suffix, not isinstance(node, _ATOMS)


def _parts(node: ast.expr, width: int) -> _Broken | None:  # noqa: C901 - one case per kind of bracket
    """(opening, [(prefix, element: node or text, suffix)], closing) of a node broken over lines, or None."""
    match node:
        case ast.Call(func=func, args=args, keywords=keywords) if args or keywords:
            items = [_element(a) for a in args]
            items += [(f"{k.arg}=" if k.arg else "**", k.value, ",", False) for k in keywords]
            return f"{_grouped(func)}(", items, ")"
        case ast.Tuple(elts=elts) if elts:
            return "(", [_element(e) for e in elts], ")"
        case ast.List(elts=elts) if elts:
            return "[", [_element(e) for e in elts], "]"
        case ast.Dict(keys=keys, values=values) if keys:
            return (
                "{",
                [
                    (f"{_grouped(k)}: " if k is not None else "**", v, ",", False)
                    for k, v in zip(keys, values, strict=True)
                ],
                "}",
            )
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
            return "(", [("", repr(chunk), "", False) for chunk in _chunks(text, max(40, LIMIT - width - 8))], ")"
        case ast.ListComp(elt=elt, generators=generators) | ast.GeneratorExp(elt=elt, generators=generators):
            items = [_item("", elt)]
            for g in generators:
                items.append(_item(f"for {unparse(g.target)} in ", g.iter))
                items += [_item("if ", i) for i in g.ifs]
            return ("[", items, "]") if isinstance(node, ast.ListComp) else ("(", items, ")")
    return None


def _prefixed(opening: str, operand: ast.expr, width: int) -> _Broken:
    """`not (`, `x := (`: the operand's own items where it opens a bracket of its own, else the operand."""
    inner = _parts(operand, width)
    if inner is not None and inner[0] == "(":
        return opening, inner[1], ")"
    return opening, [("", operand, "", False)], ")"


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
