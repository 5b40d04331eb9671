"""What the optimisation passes (:mod:`.invariants`, :mod:`.common`) ask of a rule function's
tree: which expressions are pure, which names an expression reads, which names and which heap a
block of statements writes, and whether an expression may be evaluated where the code did not
evaluate it (before a loop, or once for several places).

Purity comes from the language registry: the calls an engine's expressions may make without an
effect are the runtime functions of the built-in functions and aggregates
(:data:`compiler.language.FUNCTIONS`, :data:`compiler.language.AGGREGATES`); any other call (a
runtime helper, a method) is impure. An expression is pure when it is built of names, constants,
attribute and index reads, operators, conditionals, those calls and comprehensions over pure
parts: it reads state and changes none.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator
from typing import Any

from ..language import AGGREGATES, FUNCTIONS
from . import ir
from .tree import Append, Assign, Do, For, If, Node, While, bound_names

Keys = set[Any]  # keys of expressions (ir.key): what a pass compares nodes by

PURE_CALLS: frozenset[str] = frozenset(
    {d.runtime for d in FUNCTIONS.values()} | {d.runtime for d in AGGREGATES.values()}
)

_PURE_NODES = (
    ast.Name,
    ast.Constant,
    ast.Attribute,
    ast.Subscript,
    ast.BinOp,
    ast.UnaryOp,
    ast.BoolOp,
    ast.Compare,
    ast.IfExp,
    ast.Tuple,
    ast.GeneratorExp,
    ast.ListComp,
    ast.comprehension,
    ast.keyword,
    ast.expr_context,
    ast.operator,
    ast.unaryop,
    ast.boolop,
    ast.cmpop,
)


def is_pure(node: ast.expr, walrus: bool = False) -> bool:
    """No effect and no binding: every node a read, an operator or a call of :data:`PURE_CALLS`
    (with `walrus`, a local bound by `:=` too: a binding statement's own temporaries)."""
    for part in ast.walk(node):
        if isinstance(part, ast.Call):
            if not (isinstance(part.func, ast.Name) and part.func.id in PURE_CALLS):
                return False
        elif isinstance(part, ast.NamedExpr):
            if not walrus:
                return False
        elif not isinstance(part, _PURE_NODES):
            return False
    return True


def is_costly(node: ast.expr) -> bool:
    """Worth a local of its own: a call (an aggregate, a definition written out) or a comprehension."""
    return any(isinstance(part, (ast.Call, ast.GeneratorExp, ast.ListComp)) for part in ast.walk(node))


def reads_heap(node: ast.expr) -> bool:
    """Does the value depend on more than local names (an attribute, an index, an iteration)?"""
    return any(isinstance(part, (ast.Attribute, ast.Subscript, ast.Call, ast.comprehension)) for part in ast.walk(node))


def free_names(node: ast.expr) -> frozenset[str]:
    """The names an expression reads from its function: its names but a comprehension's own variables."""
    inner = {
        n.id
        for c in ast.walk(node)
        if isinstance(c, ast.comprehension)
        for n in ast.walk(c.target)
        if isinstance(n, ast.Name)
    }
    return frozenset(n for n in ir.names(node) if n not in inner)


def walrus_names(node: ast.expr) -> set[str]:
    return {n.target.id for n in ast.walk(node) if isinstance(n, ast.NamedExpr)}


def expressions(node: Node) -> Iterator[ast.expr]:
    """The expression slots of one statement (not of the statements inside it)."""
    match node:
        case Assign(targets=targets, value=value):
            yield value
            yield from (t for t in targets if not isinstance(t, ast.Name))
        case Append(into=into, value=value):
            yield into
            yield value
        case If(test=test) | While(test=test):
            yield test
        case For(iter=it):
            yield it
        case _:
            other = getattr(node, "value", None)
            if isinstance(other, ast.expr):
                yield other


def children(node: Node) -> list[Node]:
    return list(getattr(node, "body", None) or []) + list(getattr(node, "orelse", None) or [])


def written(body: Iterable[Node]) -> tuple[set[str], bool]:
    """The names a block binds (loop targets, assignments, walruses, a list appended to) and
    whether it may change anything else (a call made for its effect, a store into an index or an
    attribute): then no read of the heap is invariant across it."""
    names: set[str] = set()
    heap = False
    for node in body:
        match node:
            case Assign(targets=targets):
                for t in targets:
                    names.update(bound_names(t))
                    heap |= not isinstance(t, ast.Name) and not (
                        isinstance(t, ast.Tuple) and all(isinstance(e, ast.Name) for e in t.elts)
                    )
            case Append(into=into):
                names.update(ir.names(into))
            case Do():
                heap = True
            case For(target=target):
                names.update(ir.names(target))
        for e in expressions(node):
            names |= walrus_names(e)
        inner, inner_heap = written(children(node))
        names |= inner
        heap |= inner_heap
    return names, heap


def own_names(node: Node) -> set[str]:
    """The names a statement reads itself (not the statements inside it); a local its own `:=`
    binds is not read from before it."""
    return _own_names(node) - set().union(*(walrus_names(e) for e in expressions(node)))


def _own_names(node: Node) -> set[str]:
    match node:
        case Assign(targets=targets, value=value):
            found = set(ir.names(value))
            for t in targets:
                if not isinstance(t, ast.Name) and not (
                    isinstance(t, ast.Tuple) and all(isinstance(e, ast.Name) for e in t.elts)
                ):
                    found |= ir.names(t)
            if node.op != "=":
                found |= {n for t in targets for n in bound_names(t)}
            return found
        case For(iter=it):
            return set(ir.names(it))
    return set().union(*(ir.names(e) for e in expressions(node)))


def none_tested(body: Iterable[Node]) -> Keys:
    """The keys of every expression a function compares with None (`x is None`, `x is not None`):
    values that may be None, which an operation other than that test may fail on."""
    out: Keys = set()
    stack = list(body)
    while stack:
        node = stack.pop()
        stack.extend(children(node))
        for e in expressions(node):
            for part in ast.walk(e):
                if isinstance(part, ast.Compare) and any(isinstance(op, (ast.Is, ast.IsNot)) for op in part.ops):
                    out.add(ir.key(part.left))
    return out


def _guards(test: ast.expr, when_true: bool) -> Keys:
    """The keys of the values known not to be None where `test` is `when_true`."""
    match test:
        case ast.Compare(left=left, ops=[ast.IsNot()], comparators=[ast.Constant(value=None)]) if when_true:
            return {ir.key(left)}
        case ast.Compare(left=left, ops=[ast.Is()], comparators=[ast.Constant(value=None)]) if not when_true:
            return {ir.key(left)}
        case ast.BoolOp(op=ast.And(), values=values) if when_true:
            return set().union(*(_guards(v, True) for v in values))
        case ast.BoolOp(op=ast.Or(), values=values) if not when_true:
            return set().union(*(_guards(v, False) for v in values))
    return set()


def speculable(node: ast.expr, maybe_none: Keys, known: Keys | None = None) -> bool:
    """May `node` be evaluated where the code did not (before a loop that runs no time, outside the
    `if` that guarded it) without failing? It may not when it uses a value that may be None (one
    the function tests against None) other than under its own test of it (`x is not None and
    x == 2`). Division and indexing are proved safe by the checker (E513, E514) for every state."""
    if not maybe_none:
        return True
    return _speculable(node, maybe_none, set(known or ()))


def _speculable(node: ast.AST, maybe_none: Keys, known: Keys) -> bool:  # noqa: C901 - one dispatch over node kinds
    match node:
        case ast.Compare(left=left, ops=[ast.Is() | ast.IsNot()], comparators=[ast.Constant(value=None)]):
            return isinstance(left, (ast.Name, ast.Constant)) or _parts_speculable(left, maybe_none, known)
        case ast.BoolOp(op=op, values=values):
            seen = set(known)
            for v in values:
                if not _speculable(v, maybe_none, seen):
                    return False
                seen |= _guards(v, isinstance(op, ast.And))
            return True
        case ast.IfExp(test=test, body=body, orelse=orelse):
            return (
                _speculable(test, maybe_none, known)
                and _speculable(body, maybe_none, known | _guards(test, True))
                and _speculable(orelse, maybe_none, known | _guards(test, False))
            )
        case ast.GeneratorExp(elt=elt, generators=generators) | ast.ListComp(elt=elt, generators=generators):
            seen = set(known)
            for gen in generators:
                if not _speculable(gen.iter, maybe_none, seen):
                    return False
                for test in gen.ifs:
                    if not _speculable(test, maybe_none, seen):
                        return False
                    seen |= _guards(test, True)
            return _speculable(elt, maybe_none, seen)
    if isinstance(node, ast.expr) and ir.key(node) in maybe_none and ir.key(node) not in known:
        return False  # a value that may be None, used unguarded
    return _parts_speculable(node, maybe_none, known)


def _parts_speculable(node: ast.AST, maybe_none: Keys, known: Keys) -> bool:
    return all(_speculable(child, maybe_none, known) for child in ast.iter_child_nodes(node))


_PURE_KINDS: dict[type, bool] = {}


def _pure_kind(kind: type) -> bool:
    """Is a node of this type pure in itself (its children aside)? A call is, when it calls a pure function."""
    known = _PURE_KINDS.get(kind)
    if known is None:
        known = _PURE_KINDS[kind] = issubclass(kind, _PURE_NODES) or kind is ast.Call
    return known


class Numbering:
    """Value numbers of expression nodes, with their purity, cost and free names, worked out bottom-up
    once per node (hash-consing: a node's number is that of its type, its own fields and its
    children's numbers), so that a pass finds equal expressions in time linear in the tree."""

    def __init__(self) -> None:
        self._numbers: dict[tuple[Any, ...], int] = {}
        self._facts: dict[int, tuple[int, bool, bool, frozenset[str], int]] = {}
        self._held: list[ast.AST] = []  # every node numbered, kept alive: its id is not reused

    def facts(self, node: ast.AST) -> tuple[int, bool, bool, frozenset[str], int]:
        """(number, pure, costly, free names, size) of `node`."""
        known = self._facts.get(id(node))
        if known is not None:
            return known
        kind = type(node)
        own: list[Any] = [kind]
        pure = _pure_kind(kind)
        costly = kind is ast.Call or kind is ast.GeneratorExp or kind is ast.ListComp
        names: frozenset[str] = frozenset({node.id}) if kind is ast.Name else frozenset()  # type: ignore[attr-defined]
        size = 1
        for field in kind._fields:
            value = getattr(node, field, None)
            if type(value) is list:
                own.append(len(value))  # where one list of children ends and the next begins
            for item in value if type(value) is list else (value,):
                if isinstance(item, ast.AST):
                    number, p, c, n, s = self.facts(item)
                    own.append(number)
                    pure, costly, size = pure and p, costly or c, size + s
                    if n:
                        names = names | n
                else:
                    own.append((type(item), item))
        if isinstance(node, ast.Call):
            pure = pure and isinstance(node.func, ast.Name) and node.func.id in PURE_CALLS
        if isinstance(node, (ast.GeneratorExp, ast.ListComp)):
            names = names - {n.id for g in node.generators for n in ast.walk(g.target) if isinstance(n, ast.Name)}
        number = self._numbers.setdefault(tuple(own), len(self._numbers))
        facts = (number, pure, costly, names, size)
        self._facts[id(node)] = facts
        self._held.append(node)
        return facts
