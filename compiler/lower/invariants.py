"""Loop-invariant code motion: a pass over one rule function's statement tree (:mod:`.tree`).

Takes a :class:`~.tree.Def`; returns it with every costly pure expression (a call of a built-in
function or aggregate, a definition written out: see :func:`.purity.is_costly`) that reads no
variable of a loop and nothing the loop writes computed once, into a local bound just before the
loop. The legal-action scan is the case it is made for: a condition over a chosen card that calls
a definition walking the player's cards (`count(x.colour == c for x in me.charm_hand)`) is
written out once per card and colour; after this pass the walk runs once per colour and decision.

Loops are taken outermost first, so an expression leaves every loop it does not depend on at once.
An expression moves only when:

* it is pure (:func:`.purity.is_pure`), and the loop changes no heap (no call made for its
  effect, no store into an index or an attribute: the legal scans and the explanations append
  to their own list only), and binds none of the names it reads;
* each name it reads is bound before the loop on every path (or is a global), so the local
  holds what the loop would have read;
* it cannot fail where the loop did not evaluate it (:func:`.purity.speculable`): a loop that
  runs no time, or an `if` inside it, may have guarded it.

The pass is linear in the size of the function for each loop level (one walk of each loop's
statements, one of each expression).
"""

from __future__ import annotations

import ast
import itertools
from collections.abc import Iterator
from functools import cached_property

from . import ir
from .purity import Keys, expressions, free_names, is_costly, is_pure, none_tested, speculable, written
from .tree import Append, Assign, Def, Do, For, If, Node, Raise, Return, While, bound_names

Loop = For | While


class Temporaries:
    """What a pass knows of the function it rewrites, each fact worked out when first asked
    (most functions have nothing to move, and are left as they are), and the locals it makes
    (`prefix`0, 1...: names the function does not use)."""

    def __init__(self, fn: Def, prefix: str):
        self.fn, self.prefix = fn, prefix
        self.fresh = itertools.count()

    @cached_property
    def assigned(self) -> set[str]:
        """Every name the function binds (a name it never binds is a global or a parameter)."""
        return written(self.fn.body)[0]

    @cached_property
    def maybe_none(self) -> Keys:
        """The keys of the values it tests against None."""
        return none_tested(self.fn.body)

    @cached_property
    def taken(self) -> set[str]:
        return set().union(*(ir.names(e) for node in statements(self.fn.body) for e in expressions(node)))

    def temporary(self) -> str:
        while True:
            name = f"{self.prefix}{next(self.fresh)}"
            if name not in self.taken:
                self.taken.add(name)
                return name


def params_of(params: str) -> set[str]:
    """The names of a Def's parameter list (`g, out`, `g, p=0`)."""
    return {p.split("=")[0].split(":")[0].strip().lstrip("*") for p in params.split(",") if p.strip()}


def hoist_invariants(fn: Def) -> Def:
    """`fn` with the invariant costly expressions of its loops computed before them."""
    if not any(isinstance(node, (For, While)) for node in statements(fn.body)):
        return fn
    body = _block(fn.body, params_of(fn.params), Temporaries(fn, "inv"))
    return Def(fn.name, fn.params, body, fn.doc)


def statements(body: list[Node]) -> Iterator[Node]:
    for node in body:
        yield node
        yield from statements(list(getattr(node, "body", None) or []) + list(getattr(node, "orelse", None) or []))


def _block(body: list[Node], defined: set[str], state: Temporaries) -> list[Node]:
    """A block rewritten: each loop preceded by its invariants; `defined`: the names bound on
    every path to the block's start."""
    out: list[Node] = []
    defined = set(defined)
    for node in body:
        if isinstance(node, (For, While)):
            hoisted, node = _hoist(node, defined, state)
            for name, value in hoisted:
                out.append(Assign((ir.name(name),), value, pure=True))
                defined.add(name)
        node = _inner(node, defined, state)
        out.append(node)
        if isinstance(node, Assign):
            for t in node.targets:
                defined.update(bound_names(t))
    return out


def _inner(node: Node, defined: set[str], state: Temporaries) -> Node:
    """The blocks inside a statement rewritten in turn (a loop's body sees its target bound)."""
    match node:
        case For(target=target, iter=it, body=body, orelse=orelse, note=note):
            return For(
                target, it, _block(body, defined | ir.names(target), state), _block(orelse, defined, state), note
            )
        case While(test=test, body=body, note=note):
            return While(test, _block(body, defined, state), note)
        case If(test=test, body=body, orelse=orelse, note=note, chained=chained, role=role):
            return If(test, _block(body, defined, state), _block(orelse, defined, state), note, chained, role)
    return node


def _hoist(loop: Loop, defined: set[str], state: Temporaries) -> tuple[list[tuple[str, ast.expr]], Loop]:
    """The invariants of `loop` (name, value) and the loop reading them."""
    inside = ([loop.test] if isinstance(loop, While) else []) + [
        e for node in statements(loop.body + getattr(loop, "orelse", [])) for e in expressions(node)
    ]
    if not any(is_costly(e) for e in inside):
        return [], loop
    names, heap = written([loop])
    if heap:
        return [], loop

    def movable(node: ast.expr, inner: frozenset[str]) -> bool:
        if not is_costly(node) or not is_pure(node):
            return False
        reads = free_names(node)
        if reads & (names | inner):
            return False
        if any(n in state.assigned and n not in defined for n in reads):  # bound later, or on some paths only
            return False
        return speculable(node, state.maybe_none)

    found: dict[int, str] = {}  # id of a node moved -> its local
    by_key: dict[object, str] = {}
    hoisted: list[tuple[str, ast.expr]] = []

    def visit(node: ast.AST, inner: frozenset[str]) -> None:
        if isinstance(node, ast.expr) and movable(node, inner):
            k = ir.key(node)
            if k not in by_key:
                by_key[k] = state.temporary()
                hoisted.append((by_key[k], node))
            found[id(node)] = by_key[k]
            return
        if isinstance(node, (ast.GeneratorExp, ast.ListComp)):
            inner = inner | {n.id for g in node.generators for n in ast.walk(g.target) if isinstance(n, ast.Name)}
        for child in ast.iter_child_nodes(node):
            visit(child, inner)

    for e in inside:
        visit(e, frozenset())
    if not found:
        return [], loop
    return hoisted, _rewrite_loop(loop, found)


def _rewrite_loop(loop: Loop, found: dict[int, str]) -> Loop:
    if isinstance(loop, While):
        return While(replace(loop.test, found), _rewrite_block(loop.body, found), loop.note)
    return For(loop.target, loop.iter, _rewrite_block(loop.body, found), _rewrite_block(loop.orelse, found), loop.note)


def _rewrite_block(body: list[Node], found: dict[int, str]) -> list[Node]:
    return [rewrite(node, found) for node in body]


def rewrite(node: Node, found: dict[int, str]) -> Node:  # noqa: C901 - one dispatch over statement kinds
    """A statement with the moved expressions read from their locals (new nodes: a tree's nodes
    are never changed in place)."""

    def r(e: ast.expr) -> ast.expr:
        return replace(e, found)

    match node:
        case Assign():
            targets = tuple(t if isinstance(t, ast.Name) else r(t) for t in node.targets)
            return Assign(targets, r(node.value), node.op, node.note, node.pure)
        case Append():
            return Append(r(node.into), r(node.value), node.many, node.note)
        case Do():
            return Do(r(node.value), node.note)
        case Return():
            return Return(r(node.value) if node.value is not None else None, node.note)
        case Raise():
            return Raise(r(node.value))
        case If():
            return If(
                r(node.test),
                _rewrite_block(node.body, found),
                _rewrite_block(node.orelse, found),
                node.note,
                node.chained,
                node.role,
            )
        case For():
            return For(
                node.target,
                r(node.iter),
                _rewrite_block(node.body, found),
                _rewrite_block(node.orelse, found),
                node.note,
            )
        case While():
            return While(r(node.test), _rewrite_block(node.body, found), node.note)
    return node


def replace(node: ast.expr, found: dict[int, str]) -> ast.expr:
    """`node` with each node of `found` (by identity) replaced by a read of its local."""
    if id(node) in found:
        return ir.name(found[id(node)])
    if not any(id(n) in found for n in ast.walk(node)):
        return node
    copied = _copy(node, found)
    assert isinstance(copied, ast.expr)
    return copied


def _copy(node: ast.AST, found: dict[int, str]) -> ast.AST:
    if id(node) in found:
        return ir.name(found[id(node)])
    kwargs: dict[str, object] = {}
    for name, value in ast.iter_fields(node):
        if isinstance(value, ast.AST):
            kwargs[name] = _copy(value, found)
        elif isinstance(value, list):
            kwargs[name] = [_copy(v, found) if isinstance(v, ast.AST) else v for v in value]
        else:
            kwargs[name] = value
    return type(node)(**kwargs)
