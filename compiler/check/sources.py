"""Where a component choice takes its component from (`domain: component, from: ...`): a zone, a
kind of the spec's own, one zone of a zone split by a group column (`from: rows[1]`, the base
game's face-up row of level 1), or several zones of one kind (`from: [rows[1], rows[2]]`) -> the
choice's source, its positions, its group and its parts.

Called by the choices pass (compiler/check/choices.py) for each `component` choice: a source that
is no zone or kind, a face-down one, a holding without a bound, a split zone without its group or a
group that is none, several zones of different kinds or one named twice (E553, E514), each located
at `from`.
"""

from __future__ import annotations

import re

from ..diagnostics import did_you_mean
from ..front.source import MapNode, Node, ScalarNode, SeqNode
from ..language import Shape
from ..model import Kind, Param, Zone
from .kinds import BASE_KINDS
from .reader import Checker
from .types import ERROR, Comp, Type

Part = tuple[str, int, int]  # a zone (or kind), the group of a split zone (0: none), its positions


def component_source(
    checker: Checker, pname: str, pnode: MapNode, zones: tuple[Zone, ...], kinds: tuple[Kind, ...], where: str
) -> tuple[str, int, int, tuple[Part, ...]]:
    """`from` of a component choice: (the zone or kind, its number of positions, the group of a split
    zone or 0, and for a choice across several zones each one's part); ("", 0, 0, ()) after an error.
    Several zones (`from: [rows[1], rows[2]]`) hold one kind, each face up with its positions bounded
    (E553): the choice's positions are theirs one after the other."""
    listed = pnode.get("from")
    if not isinstance(listed, SeqNode):
        return (*component_param(checker, pname, pnode, zones, kinds, where), ())
    parts = [_part(checker, pname, item, zones, kinds) for item in listed.items]
    if any(not part[0] for part in parts):
        return "", 0, 0, ()
    holds = {next(z.holds for z in zones if z.name == part[0]) for part in parts}
    if len(holds) > 1 or len({(part[0], part[1]) for part in parts}) < len(parts):
        checker.r.error(
            "E553",
            f"choice '{pname}' is of one component from several zones: they hold one kind, each named once"
            f" (these hold {' and '.join(sorted(holds))})",
            listed.span,
        )
        return "", 0, 0, ()
    first = parts[0]
    return first[0], sum(part[2] for part in parts), first[1], tuple(parts)


def _part(checker: Checker, pname: str, node: Node, zones: tuple[Zone, ...], kinds: tuple[Kind, ...]) -> Part:
    """One zone of a choice across several zones: a zone, not a kind (E553)."""
    if not isinstance(node, ScalarNode) or not isinstance(node.value, str):
        checker.r.error("E553", f"choice '{pname}': each place it takes from is a zone, written as a name", node.span)
        return "", 0, 0
    source, slots, group = _resolved(checker, pname, str(node.value), node, zones, kinds)
    if source and not any(z.name == source for z in zones):
        checker.r.error("E553", f"choice '{pname}': '{source}' is a kind; several places are zones", node.span)
        return "", 0, 0
    return source, group, slots


def component_param(
    checker: Checker, pname: str, pnode: MapNode, zones: tuple[Zone, ...], kinds: tuple[Kind, ...], where: str
) -> tuple[str, int, int]:
    """`from` of a component choice naming one zone or kind: (the zone or kind, its number of positions,
    the group of a split zone or 0); ("", 0, 0) after an error."""
    written, node = checker.scalar(pnode, "from", str, where=f" in choice '{pname}'{where}")
    if node is None:
        return "", 0, 0
    return _resolved(checker, pname, str(written), node, zones, kinds)


def _resolved(
    checker: Checker, pname: str, written: str, node: ScalarNode, zones: tuple[Zone, ...], kinds: tuple[Kind, ...]
) -> tuple[str, int, int]:
    """A zone or kind written as `from` (`rows[1]`: one group of a split zone), checked: (the zone or
    kind, its positions, its group); ("", 0, 0) after an error."""
    source, group = _split(written)
    if source in getattr(checker, "refused_zones", ()):
        return "", 0, 0
    zone = next((z for z in zones if z.name == source), None)
    kind = next((k for k in kinds if k.name == source and k.name not in BASE_KINDS), None)
    if zone is None and kind is None:
        known = [z.name for z in zones] + [k.name for k in kinds if k.name not in BASE_KINDS]
        checker.r.error(
            "E553",
            f"choice '{pname}' is of a component from '{source}', which is neither a zone nor a "
            f"kind of the spec{did_you_mean(source, known)}",
            node.span,
        )
        return "", 0, 0
    if kind is not None or zone is None:
        return (kind.name, len(kind.components), 0) if kind is not None and not group else _no_group(checker, node)
    if not _group_fits(checker, pname, zone, group, node, kinds):
        return "", 0, 0
    slots = _positions(checker, pname, zone, node, kinds)
    return (zone.name, slots, group) if slots else ("", 0, 0)


def _split(written: str) -> tuple[str, int]:
    """`row[2]` -> ('row', 2); a plain name -> (name, 0); a malformed index -> (the text, 0)."""
    found = re.fullmatch(r"\s*([a-z_][a-z0-9_]*)\s*\[\s*([0-9]{1,3})\s*\]\s*", written)
    return (found.group(1), int(found.group(2))) if found else (written, 0)


def _no_group(checker: Checker, node: ScalarNode) -> tuple[str, int, int]:
    checker.r.error("E553", f"'{node.value}': only a zone split by a group column ('by:') is indexed", node.span)
    return "", 0, 0


def groups(zone: Zone, kinds: tuple[Kind, ...]) -> tuple[int, ...]:
    """The groups of a split zone: the values its `by` column holds in the kind's table."""
    kind = next(k for k in kinds if k.name == zone.holds)
    at = next(i for i, c in enumerate(kind.columns) if c.name == zone.by)
    return tuple(sorted({int(c.values[at]) for c in kind.components}))


def split(zones: tuple[Zone, ...], kinds: tuple[Kind, ...]) -> dict[str, tuple[str, tuple[int, ...]]]:
    """The zones split by a group column: name -> (the column, its groups), for the bounds' E514."""
    return {z.name: (z.by, groups(z, kinds)) for z in zones if z.by}


def _group_fits(
    checker: Checker, pname: str, zone: Zone, group: int, node: ScalarNode, kinds: tuple[Kind, ...]
) -> bool:
    """A split zone is chosen from one group at a time (E553 without one), a group it has (E514)."""
    if not zone.by:
        if group:
            _no_group(checker, node)
        return not group
    if not group:
        checker.r.error(
            "E553",
            f"choice '{pname}' is of a component from '{zone.name}', one zone per {zone.by}: name one",
            node.span,
            f"write 'from: {zone.name}[1]' (the {zone.by} 1 {zone.shape})",
        )
        return False
    have = groups(zone, kinds)
    if group not in have:
        checker.r.error(
            "E514",
            f"'{node.value}': there is no {zone.by} {group} ({zone.by}s run {have[0]} to {have[-1]})",
            node.span,
        )
        return False
    return True


def _positions(checker: Checker, pname: str, zone: Zone, node: ScalarNode, kinds: tuple[Kind, ...]) -> int:
    """The positions of a choice from a zone (0 after an error): a face-down one offers none, and a
    holding needs a bound (E553)."""
    source = zone.name
    if zone.shape.face_down:
        checker.r.error(
            "E553",
            f"choice '{pname}' is of a component from '{source}', a face-down {zone.shape}: "
            "a player cannot choose what they cannot see",
            node.span,
            "draw from the pile instead (draw, reveal), or choose from a display, a row or a holding",
        )
        return 0
    if zone.shape is Shape.HOLDING and not zone.limit and not zone.place:
        checker.r.error(
            "E553",
            f"choice '{pname}' is of a component from '{source}', a holding without a 'limit': "
            "the actions need a bound on its positions",
            node.span,
            f"give zone '{source}' a 'limit' (the most it holds)",
        )
        return 0
    if zone.shape is Shape.HOLDING:  # a base place without a limit: as many places as there are components
        return zone.limit or len(next(k for k in kinds if k.name == zone.holds).components)
    return max(n for _, n in zone.sizes)


def param_type(param: Param, zones: tuple[Zone, ...], kinds: tuple[Kind, ...]) -> Comp | Type:
    """The type of a component choice: a component of its zone's (or kind's) kind."""
    holds = next((z.holds for z in zones if z.name == param.source), param.source)
    kind = next((k for k in kinds if k.name == holds), None)
    return Comp(kind.name, kind.item.en) if kind is not None else ERROR  # its source was refused, and reported
