"""Zones of the spec's own kinds split by a group column (`by:` in `zones`, rulespec/README.md,
Zones): one pile, display or row per value of a `group: true` column of the kind, read `Z[group]`.

Called by the zones pass (compiler/check/zones.py, ZoneReader.zone) with the reader: the column a
zone is split by must be a group column of its kind (E541), and a display or row split so is dealt
and refilled group by group, so its source is a pile split by the same column (E541 otherwise, and
for a split source of a zone that is not split). Its size is each group's (E542 when a group has
fewer components than that to deal).
"""

from __future__ import annotations

from typing import Any

from ..diagnostics import did_you_mean
from ..front.source import MapNode, ScalarNode
from ..model import Kind, Zone


def read_by(reader: Any, name: str, entry: MapNode, kind: Kind) -> str:
    """The group column zone `name` is split by (`by:`), or '' (none, or after an E541)."""
    by, node = reader.c.scalar(entry, "by", str, required=False, default="", where=f" in zone '{name}'")
    if node is None:
        return ""
    column = next((c for c in kind.columns if c.name == by), None)
    if column is None or not column.group:
        grouping = [c.name for c in kind.columns if c.group]
        what = "is not a column of" if column is None else "is not a group column ('group: true') of"
        reader.r.error(
            "E541",
            f"zone '{name}' is split by '{by}', which {what} kind '{kind.name}'{did_you_mean(str(by), grouping)}",
            node.span,
            f"split it by a group column ({', '.join(grouping)})"
            if grouping
            else f"give a number column of kind '{kind.name}' 'group: true' (its values start at 1)",
        )
        return ""
    return str(by)


def check_split_source(reader: Any, name: str, by: str, source: Zone, node: ScalarNode) -> None:
    """E541: a display or row split by a column is dealt and refilled from a pile split by the same
    column (each group from its own group's pile), and one not split from a pile not split."""
    if source.by == by:
        return
    if not by:
        message = f"zone '{name}' is dealt from '{source.name}', which is split by '{source.by}': name one {source.by}"
        hint = f"split zone '{name}' too ('by: {source.by}'): each {source.by}'s from its own pile"
    else:
        split = f"split by '{source.by}'" if source.by else "not split"
        message = f"zone '{name}' is split by '{by}', but its source '{source.name}' is {split}"
        hint = f"split the pile by the same column ('by: {by}'): each {by} is refilled from its own pile"
    reader.r.error("E541", message, node.span, hint)


def group_counts(kind: Kind, by: str) -> dict[int, int]:
    """How many components of `kind` each group of column `by` holds, by group."""
    at = next(i for i, c in enumerate(kind.columns) if c.name == by)
    out: dict[int, int] = {}
    for component in kind.components:
        out[int(component.values[at])] = out.get(int(component.values[at]), 0) + 1
    return dict(sorted(out.items()))


def fewest(kind: Kind, by: str) -> tuple[int, int]:
    """(the group with the fewest components, how many): what a size of each group is bounded by."""
    counts = group_counts(kind, by)
    group = min(counts, key=lambda g: (counts[g], g))
    return group, counts[group]
