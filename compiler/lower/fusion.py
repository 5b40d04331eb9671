"""Loop fusion: a pass over one rule function's statement tree (:mod:`.tree`).

Takes a :class:`~.tree.Def`; returns it with each loop over a list comprehension that nothing
else reads (`cells = [(li * 4 + si, c) for li, row in enumerate(g.market) for si, c in
enumerate(row) if c is not None]`, then `for i, card in cells:`) written as the comprehension's
own loops around the loop's body: each element is taken where it is made, and no list of tuples
is built, filled and read again (deforestation). The legal scan of an optional face-up choice
lists its places so; once :mod:`.peeling` has taken `none` off the list, the list is read by the
one loop.

A loop is fused when:

* its iterable is a pure list comprehension, or a local bound once to one, in the same block,
  read by this loop alone, with only pure bindings between that bind none of the names the
  comprehension reads;
* its body changes no heap and binds no name the comprehension reads (the places are taken
  while the body runs, no longer all before it), and it has no `else` and no `break` (a break
  would leave the inner loop only);
* its target is plain names (`_` for a part not read).

The comprehension's filters become `if not test: continue`; the loop's names are bound from the
element, one assignment each (no tuple built to be unpacked); the comprehension's own variables
get fresh names when the function uses theirs already. Linear in the size of the function.
"""

from __future__ import annotations

import ast
import copy
from collections.abc import Iterator

from . import fold, ir
from .invariants import Temporaries, statements
from .purity import expressions, is_pure, written
from .tree import Assign, Break, Comment, Continue, Def, For, If, Node, While, bound_names, reads


def fuse_comprehension_loops(fn: Def) -> Def:
    """`fn` with its loops over a comprehension read once written as the comprehension's loops."""
    if not any(isinstance(n, For) and _comprehension_of(n.iter) for n in statements(fn.body)) and not any(
        isinstance(n, Assign) and isinstance(n.value, ast.ListComp) for n in statements(fn.body)
    ):
        return fn
    state = Temporaries(fn, "_e")
    counts = _read_counts(fn.body)
    return Def(fn.name, fn.params, _block(fn.body, counts, state), fn.doc)


def _used_apart(state: Temporaries, comp: ast.ListComp) -> set[str]:
    """The names the function uses outside the comprehension `comp`."""
    out: set[str] = set()
    for node in statements(state.fn.body):
        for e in expressions(node):
            if e is comp:
                continue
            out |= {n.id for n in _walk_apart(e, comp) if isinstance(n, ast.Name)}
        if isinstance(node, For):
            out |= ir.names(node.target)
    return out


def _walk_apart(node: ast.AST, comp: ast.ListComp) -> Iterator[ast.AST]:
    """ast.walk without the nodes of `comp`."""
    todo = [node]
    while todo:
        part = todo.pop()
        if part is comp:
            continue
        yield part
        todo.extend(ast.iter_child_nodes(part))


_ITERATORS = frozenset({"enumerate", "range"})  # built-ins that read what they walk and change nothing


def _comprehension_of(node: ast.expr) -> ast.ListComp | None:
    """`node` if it is a pure list comprehension (walking with `enumerate` or `range` too)."""
    if not isinstance(node, ast.ListComp):
        return None
    calls = [p for p in ast.walk(node) if isinstance(p, ast.Call)]
    if any(isinstance(c.func, ast.Name) and c.func.id in _ITERATORS for c in calls):
        node_without = _WithoutIterators().visit(copy.deepcopy(node))
        return node if is_pure(node_without) else None
    return node if is_pure(node) else None


class _WithoutIterators(ast.NodeTransformer):
    """`enumerate(x)` and `range(x)` as the tuple of what they read (for the purity test alone)."""

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        if isinstance(node.func, ast.Name) and node.func.id in _ITERATORS and not node.keywords:
            return ast.Tuple(elts=list(node.args), ctx=ast.Load())
        return node


def _read_counts(body: list[Node]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for node in statements(body):
        own = _own_reads(node)
        for n in own:
            counts[n] = counts.get(n, 0) + 1
    return counts


def _own_reads(node: Node) -> set[str]:
    if isinstance(node, (If, While)):
        return set(ir.names(node.test))
    if isinstance(node, For):
        return set(ir.names(node.iter))
    return reads(node) if not hasattr(node, "body") else set()


def _block(body: list[Node], counts: dict[str, int], state: Temporaries) -> list[Node]:
    out: list[Node] = []
    for node in body:
        node = _inner(node, counts, state)
        if isinstance(node, For):
            fused = _fused(node, out, counts, state)
            if fused is not None:
                out, node = fused
        out.append(node)
    return out


def _inner(node: Node, counts: dict[str, int], state: Temporaries) -> Node:
    match node:
        case If(test=test, body=body, orelse=orelse, note=note, chained=chained, role=role):
            return If(test, _block(body, counts, state), _block(orelse, counts, state), note, chained, role)
        case For(target=target, iter=it, body=body, orelse=orelse, note=note):
            return For(target, it, _block(body, counts, state), _block(orelse, counts, state), note)
        case While(test=test, body=body, note=note):
            return While(test, _block(body, counts, state), note)
    return node


def _fused(loop: For, before: list[Node], counts: dict[str, int], state: Temporaries) -> tuple[list[Node], Node] | None:
    """(the statements before the loop, without the comprehension's binding; the fused loops), or
    None when the loop cannot be fused."""
    comp, at = _comprehension_of(loop.iter), None
    if comp is None and isinstance(loop.iter, ast.Name) and counts.get(loop.iter.id) == 1:
        at = _binding_at(before, loop.iter.id)
        if at is None:
            return None
        node = before[at]
        assert isinstance(node, Assign)
        comp = _comprehension_of(node.value)
    if comp is None or loop.orelse or not _plain(loop.target):
        return None
    names, heap = written(loop.body)
    if heap or names & _free(comp) or any(isinstance(n, Break) for n in _own_level(loop.body)):
        return None
    if at is not None and not _clear_between(before[at + 1 :], _free(comp)):
        return None
    kept = before[:at] + before[at + 1 :] if at is not None else before
    return kept, _loops(comp, loop, state)


def _binding_at(before: list[Node], name: str) -> int | None:
    """Where in `before` the local is bound by a pure assignment of itself alone."""
    for k in range(len(before) - 1, -1, -1):
        node = before[k]
        if isinstance(node, Assign) and node.pure and node.op == "=" and len(node.targets) == 1:
            if isinstance(node.targets[0], ast.Name) and node.targets[0].id == name:
                return k
    return None


def _clear_between(between: list[Node], read: set[str]) -> bool:
    """Only comments and pure bindings of names the comprehension does not read."""
    for node in between:
        if isinstance(node, Comment):
            continue
        if not (isinstance(node, Assign) and node.pure and node.op == "=" and is_pure(node.value)):
            return False
        if {n for t in node.targets for n in bound_names(t)} & read:
            return False
    return True


def _plain(target: ast.expr) -> bool:
    return isinstance(target, ast.Name) or (
        isinstance(target, ast.Tuple) and all(isinstance(e, ast.Name) for e in target.elts)
    )


def _free(comp: ast.ListComp) -> set[str]:
    inner = {n for g in comp.generators for n in ir.names(g.target)}
    return set(ir.names(comp)) - inner


def _own_level(body: list[Node]) -> list[Node]:
    """The statements of a loop's body not inside a loop of their own."""
    out: list[Node] = []
    for node in body:
        out.append(node)
        if isinstance(node, If):
            out += _own_level(node.body + node.orelse)
    return out


def _loops(comp: ast.ListComp, loop: For, state: Temporaries) -> Node:
    """The comprehension's generators as nested loops, its filters as `continue`, the loop's
    names bound from its element, then the loop's body."""
    apart = _used_apart(state, comp)
    renames = {n: state.temporary() for g in comp.generators for n in sorted(ir.names(g.target)) if n in apart}
    comp = _Rename(renames).visit(copy.deepcopy(comp))
    targets = loop.target.elts if isinstance(loop.target, ast.Tuple) else [loop.target]
    values = comp.elt.elts if isinstance(comp.elt, ast.Tuple) and len(targets) > 1 else [comp.elt]
    if len(values) != len(targets):
        values = [comp.elt]
        targets = [loop.target]
    body: list[Node] = [
        Assign((t,), v, pure=True)
        for t, v in zip(targets, values, strict=True)
        if not (isinstance(t, ast.Name) and t.id == "_")
    ] + list(loop.body)
    for gen in reversed(comp.generators):
        filters: list[Node] = [If(fold.negate(test), [Continue()]) for test in gen.ifs]
        body = [For(gen.target, gen.iter, filters + body)]
    result = body[0]
    assert isinstance(result, For)
    return For(result.target, result.iter, result.body, [], loop.note)


class _Rename(ast.NodeTransformer):
    def __init__(self, renames: dict[str, str]):
        self.renames = renames

    def visit_Name(self, node: ast.Name) -> ast.AST:
        new = self.renames.get(node.id)
        return ast.Name(id=new, ctx=node.ctx) if new else node
