"""Pass 2, schema: what later passes may still check of a spec with schema errors.

An entry of a keyed collection with a schema error (a misspelt key in one action) is left out of
the tree the later passes check, so that the other entries are still checked: a misspelt key
does not hide a misspelt name in another action. An error about anything else (the components,
the player counts, the spec's own keys) leaves nothing to check, since every later check depends
on it. Used by :mod:`compiler.front.overlay` and the driver (:mod:`compiler.pipeline`).
"""

from __future__ import annotations

from ..diagnostics import Diagnostic, Span
from .source import MapNode, Node, ScalarNode, SeqNode

# The keyed collections whose entries the later passes check one by one: an entry with a schema
# error is left out of them, and the others are still checked (an action's misspelt key does not
# hide a misspelt name in another action).
UNITS = (("actions",), ("end_of_turn",), ("end",), ("winners", "ranking"))
UNCHECKED = ("E100", "E113")  # no tree to validate, or one not validated: nothing of it is left to check


def leave_out(root: Node | None, diagnostics: list[Diagnostic], variant: bool, strict: bool = True) -> MapNode | None:
    """`root` without the entries (of :data:`UNITS`) the `diagnostics` are about, for the later
    passes to check the rest; None when one of them is about anything else (the components, the
    player counts, the values, the spec's own keys...), which every later check depends on.
    Not `strict` (a variant's changes in error, which were not applied): one about anything else
    leaves the tree as it is.

    A variant's change left out leaves the base's entry as it is. In a variant, an entry placed
    `before` or `after` one left out is left out too (it could not be placed). A collection may be
    left empty: the resolved spec says it is incomplete (``Resolved.incomplete``).
    """
    if not isinstance(root, MapNode) or any(d.code in UNCHECKED for d in diagnostics):
        return None
    units = {path: _entries_at(root, path) for path in UNITS}
    out: dict[tuple, set] = {path: set() for path in UNITS}
    for d in diagnostics:
        hit = next(
            (
                (path, key.value)
                for path, entries in units.items()
                for key, value in entries
                if d.span is not None and _holds(key, value, d.span)
            ),
            None,
        )
        if hit is None and strict:
            return None
        if hit is not None:
            out[hit[0]].add(hit[1])
    for path, left in out.items():
        while variant:  # an entry placed next to one left out cannot be placed
            placed = {
                key.value
                for key, value in units[path]
                if key.value not in left
                and isinstance(value, MapNode)
                and any(_scalar(value.get(word)) in left for word in ("before", "after"))
            }
            if not placed:
                break
            left |= placed
    return _without(root, (), out)


def _entries_at(root: MapNode, path: tuple) -> tuple:
    node: Node | None = root
    for part in path:
        node = node.get(part) if isinstance(node, MapNode) else None
    return node.entries if isinstance(node, MapNode) else ()


def _scalar(node: Node | None) -> object:
    return node.value if isinstance(node, ScalarNode) else None


def _holds(key: ScalarNode, value: Node, span: Span) -> bool:
    """Whether `span` lies within the entry `key: value` (its key, or a node of its value)."""
    if _contains(key.span, span):
        return True
    stack = [value]
    while stack:
        node = stack.pop()
        if _contains(node.span, span):
            return True
        if isinstance(node, MapNode):
            stack += [k for k, _ in node.entries] + [v for _, v in node.entries]
        elif isinstance(node, SeqNode):
            stack += node.items
    return False


def overlaps(one: Span | None, other: Span | None) -> bool:
    """Whether two spans share a character (a diagnostic about the same node as another)."""
    if one is None or other is None or one.file != other.file:
        return False
    return (one.line, one.col) < _end(other) and (other.line, other.col) < _end(one)


def _end(span: Span) -> tuple[int, int]:
    return span.end_line or span.line, span.end_col or span.col + 1


def _contains(outer: Span, inner: Span) -> bool:
    if outer.file != inner.file:
        return False
    return (outer.line, outer.col) <= (inner.line, inner.col) and _end(inner) <= _end(outer)


def _without(node: MapNode, path: tuple, out: dict[tuple, set]) -> MapNode:
    """`node` (at `path`) without the entries `out` names, down the paths of :data:`UNITS`."""
    left = out.get(path, set())
    entries = []
    for key, value in node.entries:
        if key.value in left:
            continue
        below = path + (key.value,)
        if isinstance(value, MapNode) and any(unit[: len(below)] == below for unit in UNITS):
            value = _without(value, below, out)
        entries.append((key, value))
    return MapNode(tuple(entries), node.span)
