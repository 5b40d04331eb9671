"""Pass 4, check: components a payment may spend as wild tokens (`wilds:` on a payment choice).

A payment spends the player's coloured tokens and wild tokens; with `wilds: {from: HOLDING,
units: COLUMN, spent: discard}` it may also spend components of the acting player's holding, each
standing for as many wild tokens as its COLUMN says (a card that stands for two gold), any number
of them, each one used going where `spent` says (`discard`: out of the game, or a zone of the same
kind). The engine numbers its payments in advance, so they must be bounded: the holding is a
per-player holding with a `limit` (at most that many components set aside in one payment) and
the column a number column whose values run from 1 to MAX_UNITS; anything else is E575, at the key.
The payment step then offers one action per place of the holding (`pay with HOLDING 2`) beside the
ways to pay, and E515 counts both (compiler/check/sizes.py).
"""

from __future__ import annotations

from ..diagnostics import did_you_mean
from ..front.source import MapNode, Node, ScalarNode
from ..language import ColumnType, Shape
from ..model import Wilds
from .reader import Checker

MAX_UNITS = 4  # the wild tokens one component may stand for: the payments grow fast with it (E515 bounds them)
DISCARD = "discard"


def read_wilds(c: Checker, pname: str, node: Node) -> Wilds | None:
    """The `wilds` of payment choice `pname`, or None after an E575 (or without the key)."""
    if not isinstance(node, MapNode):
        c.r.error("E575", f"'wilds' of choice '{pname}' is a mapping: {{from: HOLDING, units: COLUMN}}", node.span)
        return None
    source, source_node = c.scalar(node, "from", str, where=f" in 'wilds' of choice '{pname}'")
    units, units_node = c.scalar(node, "units", str, where=f" in 'wilds' of choice '{pname}'")
    spent, spent_node = c.scalar(node, "spent", str, required=False, default=DISCARD)
    for key in node.keys():
        if key not in ("from", "units", "spent"):
            c.r.error("E575", f"'wilds' takes 'from', 'units' and 'spent', not '{key}'", node.key_span(key))
    if source_node is None or units_node is None:
        return None
    zone = next((z for z in c.zones if z.name == source), None)
    if zone is None or zone.shape is not Shape.HOLDING or not zone.per_player or not zone.limit:
        what = "not a zone" if zone is None else "not a per-player holding with a 'limit'"
        known = [z.name for z in c.zones if z.shape is Shape.HOLDING and z.per_player]
        c.r.error(
            "E575",
            f"a payment spends the acting player's own components, from a per-player holding with a "
            f"'limit' (it bounds the payments), and '{source}' is {what}{did_you_mean(str(source), known)}",
            source_node.span,
            "declare the zone with `shape: holding`, `per_player: true` and a `limit`",
        )
        return None
    kind = next((k for k in c.kinds if k.name == zone.holds), None)
    if kind is None:  # its kind was refused, and reported
        return None
    column = next((col for col in kind.columns if col.name == units), None)
    if column is None or column.type is not ColumnType.NUMBER:
        numbers = [col.name for col in kind.columns if col.type is ColumnType.NUMBER]
        c.r.error(
            "E575",
            f"'units' names a number column of '{kind.name}' (the wild tokens one stands for), "
            f"and '{units}' is not one{did_you_mean(str(units), numbers)}",
            units_node.span,
        )
        return None
    values = [kind.value(x, units) for x in kind.components]
    if min(values) < 1 or max(values) > MAX_UNITS:
        c.r.error(
            "E575",
            f"each component stands for 1 to {MAX_UNITS} wild tokens, and column '{units}' of "
            f"'{kind.name}' holds {min(values)} to {max(values)}: the payments cannot be bounded",
            units_node.span,
        )
        return None
    if spent != DISCARD and not _same_kind_zone(c, spent, zone.holds, source):
        c.r.error(
            "E575",
            f"'spent' is 'discard' or a zone of '{zone.holds}' other than '{source}', not '{spent}'",
            spent_node.span if isinstance(spent_node, ScalarNode) else node.span,
        )
        return None
    return Wilds(source, units, spent, zone.limit, max(values), node.span)


def _same_kind_zone(c: Checker, name: str, kind: str, source: str) -> bool:
    zone = next((z for z in c.zones if z.name == name), None)
    return zone is not None and zone.holds == kind and name != source and not zone.per_player
