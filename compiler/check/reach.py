"""Reach: which of the spec's kinds the rules can reach, and E125 (a warning) for the others.

A kind's table is loaded and checked whatever the rules do with it; the engines get a table only
for the kinds a zone holds, a variable holds or a choice is made from, and the sheets tell how
those are laid out. Read after :mod:`compiler.check.zones` has built the rules' zones.
"""

from __future__ import annotations

from ..diagnostics import Diagnostic
from ..model import Rules
from .kinds import BASE_KINDS
from .types import Comp


def reached(rules: Rules) -> tuple[str, ...]:
    """The spec's kinds the rules reach, in declaration order: held by a zone, by a variable (a set of
    components), or chosen from (`component` from a kind). E125 is for the others; the engines get
    a table for these only."""
    used = {z.holds for z in rules.zones}
    elements = (getattr(v.type, "elem", None) for v in rules.variables)
    used |= {e.kind for e in elements if isinstance(e, Comp)}
    zones = {z.name: z.holds for z in rules.zones}
    used |= {
        zones.get(p.source, p.source) for d in rules.actions + rules.steps for p in d.params if p.domain == "component"
    }
    return tuple(k.name for k in rules.kinds if k.name in used)


def unreachable(rules: Rules) -> list[Diagnostic]:
    """E125 (warning) for each kind no rule can reach: a kind beyond the base game's that no zone
    holds, no variable holds and no choice is made from (:func:`reached`)."""
    held = set(reached(rules))
    return [
        Diagnostic(
            "E125",
            f"no rule can reach the {k.name} (kind '{k.name}'): its table is loaded and checked, "
            "but no zone or variable holds them and no choice is made from them",
            k.span,
            (
                f"declare a zone with 'holds: {k.name}' (a pile, a display, a row or a holding), a variable "
                f"of type {{set_of: {k.name}}}, or a choice from it, to put them in play",
            ),
            severity="warning",
        )
        for k in rules.kinds
        if k.name not in BASE_KINDS and k.name not in held
    ]
