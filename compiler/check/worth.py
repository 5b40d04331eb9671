"""A wild token's worth (`worth:` on a payment choice): the checks that make it safe to lower.

A payment with a worth lets each wild token stand for 1 to `worth` gems of one colour. The
engine numbers every distinct payment (the gold placed on each colour and the gems it covers),
so the table is sized by the largest worth a game can reach: the worth must be proved within
1..MAX_WORTH from the spec's numbers (E548). It is computed before the payment is chosen, from
`me` and the choices before the payment (the payment itself is not a name there).
"""

from __future__ import annotations

from ..diagnostics import Diagnostic
from ..front.expr import unparse
from ..model import Param
from .bounds import Bounds, range_text

MAX_WORTH = 4  # the payment table grows fast with it (5 gold over 5 colours: 3,003 at worth 2); E515 bounds it


def worth_range(param: Param, bounds: Bounds) -> tuple[float, float]:
    """The values the worth of `param` can take in a game under the spec."""
    assert param.worth is not None
    return bounds.number(param.worth)


def worth_problems(param: Param, bounds: Bounds) -> list[Diagnostic]:
    """E548 for a worth not proved within 1..MAX_WORTH. (It cannot read the payment it sizes: a
    choice's keys see the choices before it only, so that is an unknown name, E401.)"""
    worth = param.worth
    assert worth is not None
    lo, hi = worth_range(param, bounds)
    if 1 <= lo and hi <= MAX_WORTH:
        return []
    return [
        Diagnostic(
            "E548",
            f"a wild token's worth must be 1 to {MAX_WORTH} gems in every game under this spec, "
            f"and '{unparse(worth)}' is {range_text((lo, hi))}",
            worth.span,
            (
                f"write a number from 1 to {MAX_WORTH}, or bound it, as in "
                f"'if me.nobles >= 1 then 2 else 1' or 'min({MAX_WORTH}, max(1, ...))'",
            ),
        )
    ]
