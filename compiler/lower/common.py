"""Common subexpression elimination: a pass over one rule function's statement tree (:mod:`.tree`).

Takes a :class:`~.tree.Def`; returns it with each costly pure expression (a call of a built-in
function or aggregate, a definition written out: :func:`.purity.is_costly`) that two statements
of a block compute, with nothing between them changing what it reads, computed once into a local
bound before the first of them. A definition called by two conjuncts of a condition, or by a
condition and the price after it, is worked out once.

The rules are those of :mod:`.invariants`: the expression is pure; the statements from the first
that computes it to the last bind none of the names it reads and, when it reads the heap, change
no heap; each name it reads is bound before the first on every path; and it may be evaluated
where the first statement did not evaluate it (:func:`.purity.speculable`: an `if` around it, or
the right of an `and`, may have guarded it). A block's statements are taken outermost first:
what two statements share is named in their block, and a nested block then finds what its own
statements share.

Linear for each block level: one walk of each statement's expressions.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from . import ir
from .invariants import Temporaries, params_of, rewrite, statements
from .purity import Numbering, expressions, reads_heap, speculable, written
from .tree import Assign, Comment, Def, For, If, Node, While, bound_names


def share_common(fn: Def) -> Def:
    """`fn` with what two statements of a block both compute worked out once."""
    state = Temporaries(fn, "cse")
    return Def(fn.name, fn.params, _block(fn.body, params_of(fn.params), state, Numbering()), fn.doc)


def _block(body: list[Node], defined: set[str], state: Temporaries, numbering: Numbering) -> list[Node]:
    body = _shared(body, defined, state, numbering)
    out: list[Node] = []
    defined = set(defined)
    for node in body:
        match node:
            case For(target=target, iter=it, body=inner, orelse=orelse, note=note):
                node = For(
                    target,
                    it,
                    _block(inner, defined | ir.names(target), state, numbering),
                    _block(orelse, defined, state, numbering),
                    note,
                )
            case While(test=test, body=inner, note=note):
                node = While(test, _block(inner, defined, state, numbering), note)
            case If(test=test, body=inner, orelse=orelse, note=note, chained=chained, role=role):
                node = If(
                    test,
                    _block(inner, defined, state, numbering),
                    _block(orelse, defined, state, numbering),
                    note,
                    chained,
                    role,
                )
            case Assign(targets=targets):
                for t in targets:
                    defined.update(bound_names(t))
        out.append(node)
    return out


def _candidates(node: ast.AST, inner: frozenset[str], numbering: Numbering) -> Iterator[ast.expr]:
    """Every costly pure expression of `node` that reads no comprehension variable of `node`
    (those live inside their comprehension only), outer ones first."""
    if isinstance(node, ast.expr):
        _, pure, costly, names, _ = numbering.facts(node)
        if not costly:
            return
        if pure and not (names & inner):
            yield node
    if isinstance(node, (ast.GeneratorExp, ast.ListComp)):
        inner = inner | {n.id for g in node.generators for n in ast.walk(g.target) if isinstance(n, ast.Name)}
    for child in ast.iter_child_nodes(node):
        yield from _candidates(child, inner, numbering)


def _shared(body: list[Node], defined: set[str], state: Temporaries, numbering: Numbering) -> list[Node]:
    """The block with each expression two of its statements compute bound before the first
    (the largest first: what they share inside it is then shared already)."""
    if sum(1 for node in body if not isinstance(node, Comment)) < 2:
        return body
    seen: dict[int, list[tuple[int, ast.expr]]] = {}  # value number -> (statement index, node) of each time
    for index, node in enumerate(body):
        for e in (e for s in statements([node]) for e in expressions(s)):
            for found in _candidates(e, frozenset(), numbering):
                seen.setdefault(numbering.facts(found)[0], []).append((index, found))
    binds: dict[int, list[tuple[str, ast.expr]]] = {}
    replaced: dict[int, str] = {}
    consumed: set[int] = set()  # nodes inside an expression already replaced
    bound_before = _bound_before(body, defined)
    for number in sorted(seen, key=lambda n: -numbering.facts(seen[n][0][1])[4]):
        times = [(i, node) for i, node in seen[number] if id(node) not in consumed]
        if len({i for i, _ in times}) < 2:
            continue  # one statement: a nested block may share it, or it is computed once anyway
        first, last = times[0][0], times[-1][0]
        value = times[0][1]
        region = body[first : last + 1]
        names, heap = written(region[1:] if _named(body[first], value) else region)
        reads = numbering.facts(value)[3]
        if reads & names or (heap and reads_heap(value)):
            continue
        if any(n in state.assigned and n not in bound_before[first] for n in reads):
            continue
        if not speculable(value, state.maybe_none):
            continue
        name = _named(body[first], value)
        if name is not None and name in written([s for s in region[1:] if not _binds(s, name, number, numbering)])[0]:
            name = None  # the local is bound to something else before the last time: a local of its own
        if name is None:
            name = state.temporary()
            binds.setdefault(first, []).append((name, value))
        for _, occurrence in times:
            if occurrence is not value or name != _named(body[first], value):
                replaced[id(occurrence)] = name
            consumed.update(id(n) for n in ast.walk(occurrence))
    if not replaced:
        return body
    out: list[Node] = []
    for index, node in enumerate(body):
        out += [Assign((ir.name(name),), value, pure=True) for name, value in binds.get(index, [])]
        node = rewrite(node, replaced)
        if not (isinstance(node, Assign) and _is_self_assignment(node)):
            out.append(node)
    return out


def _named(node: Node, value: ast.expr) -> str | None:
    """The name `node` binds `value` to, when it is `name = value` (its value already has a local)."""
    if (
        isinstance(node, Assign)
        and node.op == "="
        and node.value is value
        and len(node.targets) == 1
        and isinstance(node.targets[0], ast.Name)
    ):
        return node.targets[0].id
    return None


def _binds(node: Node, name: str, number: int, numbering: Numbering) -> bool:
    """Is `node` `name = E` for an E of value number `number` (a second binding of the same value)?"""
    return (
        _named(node, node.value) == name and numbering.facts(node.value)[0] == number
        if isinstance(node, Assign)
        else False
    )


def _is_self_assignment(node: Assign) -> bool:
    """`x = x`: what a second `x = E` becomes once E is read from x."""
    return (
        node.op == "="
        and len(node.targets) == 1
        and isinstance(node.targets[0], ast.Name)
        and isinstance(node.value, ast.Name)
        and node.value.id == node.targets[0].id
    )


def _bound_before(body: list[Node], defined: set[str]) -> list[set[str]]:
    """For each statement of `body`, the names bound on every path to it."""
    out, now = [], set(defined)
    for node in body:
        out.append(set(now))
        if isinstance(node, Assign):
            for t in node.targets:
                now.update(bound_names(t))
    return out
