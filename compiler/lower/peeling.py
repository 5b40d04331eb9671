"""Loop peeling: a pass over one rule function's statement tree (:mod:`.tree`).

Takes a :class:`~.tree.Def`; returns it with each loop over a list that ends with a constant
(`for i, x in places + [(12, None)]`) split in two: the loop over the places alone, then its
body once more with the loop's names replaced by the constant's values, folded
(:func:`.constants.fold_constants`). An optional choice is such a loop: its places, then `none`.
In the peeled body `x is None` is True, so the conditions written for a chosen place fall away
and `none`'s id is a constant; and when the places are a comprehension that keeps only what is
not None (`[... for c in row if c is not None]`), `x is not None` is True inside the loop, so the
cost of a card is unpacked without a test, and the tests for `none` fall away there too.

The list may be the loop's own expression, or a local bound to it once and read by that loop
alone (the legal scans list the places once a call, before the loops of the choices before).
A loop is peeled only when:

* its names are plain names its body does not bind again, and it has no `else`;
* the peeled body, folded, has no `continue` or `break` of the loop left but filters at its
  head level (`if test: continue`, which then guard what follows them), and reads none of the
  loop's names;
* no comprehension inside it binds one of the loop's names.

After the split, a name of the loop read after it is bound to the constant (as the last round
left it). Linear in the size of the function, plus one folding of each peeled body.
"""

from __future__ import annotations

import ast
import copy
from typing import Any

from . import fold, ir
from .constants import fold_constants
from .invariants import statements
from .purity import written
from .tree import Assign, Break, Continue, Def, For, If, Node, While, bound_names, read_after_each, reads


def peel_constant_tails(fn: Def) -> Def:
    """`fn` with the constant last round of its loops written after them."""
    if not any(isinstance(node, For) for node in statements(fn.body)):
        return fn
    lists = _lists_read_once(fn.body)
    body, shortened = _block(fn.body, lists, set())
    if shortened:
        body = _shorten(body, shortened)
    return Def(fn.name, fn.params, body, fn.doc)


def _lists_read_once(body: list[Node]) -> dict[str, ast.expr]:
    """The locals bound once, by a pure `name = A + [constant]`, and read by one statement."""
    bindings: dict[str, list[ast.expr | None]] = {}
    readers: dict[str, int] = {}
    for node in statements(body):
        if isinstance(node, Assign):
            for t in node.targets:
                for n in bound_names(t):
                    bindings.setdefault(n, []).append(node.value if node.pure and isinstance(t, ast.Name) else None)
        if isinstance(node, For):
            for n in ir.names(node.target):
                bindings.setdefault(n, []).append(None)
        for n in _own(node):
            readers[n] = readers.get(n, 0) + 1
    return {
        n: values[0]
        for n, values in bindings.items()
        if len(values) == 1 and values[0] is not None and readers.get(n) == 1 and _split(values[0]) is not None
    }


def _own(node: Node) -> set[str]:
    """The names a statement reads itself (a compound statement's test or iterable)."""
    if isinstance(node, (If, While)):
        return set(ir.names(node.test))
    if isinstance(node, For):
        return set(ir.names(node.iter))
    return reads(node) if not hasattr(node, "body") else set()


def _split(value: ast.expr | None) -> tuple[ast.expr, Any] | None:
    """(the places, the constant) of `places + [constant]`, else None."""
    match value:
        case ast.BinOp(left=left, op=ast.Add(), right=ast.List(elts=[last])):
            try:
                return left, fold.as_const(last)
            except fold.Unknown:
                return None
    return None


def _block(body: list[Node], lists: dict[str, ast.expr], later: set[str]) -> tuple[list[Node], set[str]]:
    """The block with its loops peeled; the locals whose list lost its constant. `later`: what the
    function may read after the block (a loop around it reads its body again)."""
    out: list[Node] = []
    shortened: set[str] = set()
    for node, after in zip(body, read_after_each(body, later), strict=True):
        nodes, lost = _inner(node, lists, after)
        out += nodes
        shortened |= lost
    return out, shortened


def _inner(node: Node, lists: dict[str, ast.expr], later: set[str]) -> tuple[list[Node], set[str]]:
    match node:
        case If(test=test, body=body, orelse=orelse, note=note, chained=chained, role=role):
            b, s1 = _block(body, lists, later)
            o, s2 = _block(orelse, lists, later)
            return [If(test, b, o, note, chained, role)], s1 | s2
        case While(test=test, body=body, note=note):
            b, s = _block(body, lists, later | reads(node))
            return [While(test, b, note)], s
        case For(target=target, iter=it, body=body, orelse=orelse, note=note):
            b, s1 = _block(body, lists, later | reads(node))
            o, s2 = _block(orelse, lists, later)
            loop = For(target, it, b, o, note)
            peeled = _peel(loop, lists, later)
            if peeled is None:
                return [loop], s1 | s2
            return peeled[0], s1 | s2 | peeled[1]
    return [node], set()


def _peel(loop: For, lists: dict[str, ast.expr], later: set[str]) -> tuple[list[Node], set[str]] | None:
    """The loop over its places, then its last round written out (None: it cannot be peeled)."""
    local = loop.iter.id if isinstance(loop.iter, ast.Name) else None
    parts = _split(lists[local] if local in lists else loop.iter)
    names = _names(loop.target)
    if parts is None or names is None or loop.orelse:
        return None
    places, last = parts
    values = last if isinstance(last, tuple) and len(names) > 1 else (last,)
    if len(values) != len(names) or set(names) & (written(loop.body)[0] | _comprehension_names(loop.body)):
        return None
    known = {n: v for n, v in zip(names, values, strict=True) if n != "_"}
    tail = _folded(loop.body, _Substitute(known), alone=True)
    if tail is None or set(known) & set().union(*map(reads, tail)):
        return None
    facts = _not_none(places, names)
    body = _folded(loop.body, _Assume(facts), alone=False) if facts else loop.body
    shortened = {local} if local in lists else set()
    head = For(loop.target, ir.name(local) if local in lists else places, body if body is not None else loop.body)
    after = [Assign((loop.target,), _const_node(last), pure=True)] if set(known) & later else []
    return [head, *tail, *after], shortened


def _names(target: ast.expr) -> tuple[str, ...] | None:
    if isinstance(target, ast.Name):
        return (target.id,)
    if isinstance(target, ast.Tuple) and all(isinstance(e, ast.Name) for e in target.elts):
        return tuple(e.id for e in target.elts)  # type: ignore[attr-defined]
    return None


def _comprehension_names(body: list[Node]) -> set[str]:
    out: set[str] = set()
    for node in statements(body):
        for e in _expressions(node):
            for part in ast.walk(e):
                if isinstance(part, ast.comprehension):
                    out |= ir.names(part.target)
    return out


def _expressions(node: Node) -> list[ast.expr]:
    return [v for v in vars(node).values() if isinstance(v, ast.expr)] + [
        t for t in getattr(node, "targets", ()) if isinstance(t, ast.expr)
    ]


def _not_none(places: ast.expr, names: tuple[str, ...]) -> set[str]:
    """The loop's names that every element of `places` holds a value in (not None): those of a
    comprehension's element that its filter tests with `is not None`."""
    if not isinstance(places, ast.ListComp):
        return set()
    elts = places.elt.elts if isinstance(places.elt, ast.Tuple) else [places.elt]
    if len(elts) != len(names):
        return set()
    tested = {
        test.left.id
        for gen in places.generators
        for test in gen.ifs
        if isinstance(test, ast.Compare)
        and isinstance(test.left, ast.Name)
        and [type(op) for op in test.ops] == [ast.IsNot]
        and fold.is_const(test.comparators[0], None)
    }
    return {n for n, e in zip(names, elts, strict=True) if isinstance(e, ast.Name) and e.id in tested and n != "_"}


def _const_node(value: Any) -> ast.expr:
    return ir.tuple_(*(ir.const(v) for v in value)) if isinstance(value, tuple) else ir.const(value)


class _Substitute(ast.NodeTransformer):
    """Each read of a loop name replaced by its value in the last round."""

    def __init__(self, known: dict[str, Any]):
        self.known = known

    def visit_Name(self, node: ast.Name) -> ast.AST:
        if isinstance(node.ctx, ast.Load) and node.id in self.known:
            return _const_node(self.known[node.id])
        return node


class _Assume(ast.NodeTransformer):
    """`x is not None` True (and `x is None` False) for each name known to hold a value."""

    def __init__(self, names: set[str]):
        self.names = names

    def visit_Compare(self, node: ast.Compare) -> ast.AST:
        self.generic_visit(node)
        if (
            len(node.ops) == 1
            and isinstance(node.ops[0], (ast.Is, ast.IsNot))
            and isinstance(node.left, ast.Name)
            and node.left.id in self.names
            and fold.is_const(node.comparators[0], None)
        ):
            return ir.const(isinstance(node.ops[0], ast.IsNot))
        return node


def _folded(body: list[Node], change: ast.NodeTransformer, alone: bool) -> list[Node] | None:
    """A copy of `body` with `change` made to every expression, folded; `alone`: written out of
    the loop, its filters (`if test: continue`) then guard what follows them (`if not test:`).
    None when a `continue` or `break` of the loop is left in it."""
    done = fold_constants(Def("_", "", [_rewrite(copy.deepcopy(node), change) for node in body])).body
    if alone:
        return _guarded(done)
    return done


def _guarded(body: list[Node]) -> list[Node] | None:
    """`body` out of its loop: each `if test: continue` at its head level turned into `if not
    test:` around the statements after it; None when another leaves the loop."""
    for k, node in enumerate(body):
        if isinstance(node, If) and not node.orelse and len(node.body) == 1 and isinstance(node.body[0], Continue):
            rest = _guarded(body[k + 1 :])
            if rest is None:
                return None
            return body[:k] + ([If(fold.negate(node.test), rest, note=node.note)] if rest else [])
        if _leaves_loop(node):
            return None
    return body


def _leaves_loop(node: Node) -> bool:
    """Does `node` hold a `continue` or `break` of the loop around it (not of a loop inside it)?"""
    if isinstance(node, (Continue, Break)):
        return True
    if isinstance(node, If):
        return any(_leaves_loop(n) for n in node.body + node.orelse)
    return False


def _rewrite(node: Node, change: ast.NodeTransformer) -> Node:
    """`node` (a fresh copy) with `change` made to its expression slots and those of the statements
    inside it."""
    for field, value in list(vars(node).items()):
        if isinstance(value, ast.expr) and not (field == "target" and isinstance(node, For)):
            setattr(node, field, _expr(value, change))
        elif field == "targets":
            setattr(node, field, tuple(t if isinstance(t, ast.Name) else _expr(t, change) for t in value))
        elif field in ("body", "orelse"):
            setattr(node, field, [_rewrite(n, change) for n in value])
    return node


def _expr(node: ast.expr, change: ast.NodeTransformer) -> ast.expr:
    done = change.visit(node)
    assert isinstance(done, ast.expr)
    return done


def _shorten(body: list[Node], shortened: set[str]) -> list[Node]:
    """The bindings of the peeled loops' lists without their constant."""
    out: list[Node] = []
    for node in body:
        if (
            isinstance(node, Assign)
            and len(node.targets) == 1
            and bound_names(node.targets[0])[0:1]
            and (bound_names(node.targets[0])[0] in shortened)
        ):
            parts = _split(node.value)
            assert parts is not None
            node = Assign(node.targets, parts[0], node.op, node.note, node.pure)
        if getattr(node, "body", None) or getattr(node, "orelse", None):
            node = copy.copy(node)  # a new node: the tree's own are never changed in place
            for field in ("body", "orelse"):
                if getattr(node, field, None):
                    setattr(node, field, _shorten(getattr(node, field), shortened))
        out.append(node)
    return out
