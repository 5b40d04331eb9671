"""What may be none, for the type inference (compiler/check/inference.py): an optional choice, an
optional variable or an entry of a keyed optional one, an optional column. Such a value is read only
after a test has found it set (E410 at the read, once per place), and `none` is compared only with
what may be none (E410 at the comparison). A mixin of :class:`~.inference.Inferrer`, which holds
`variables`, `optional_reads` and the reporter `r`.
"""

from __future__ import annotations

from typing import Any

from ..diagnostics import Reporter
from ..front.expr import Attribute, Compare, Index, Name, unparse
from ..language.types import NONE, MapOf, noun
from .types import Scope, comparable, not_equated


class NoneReads:
    """E410 where a value that may be none is read before a test, or `none` compared with what never is."""

    r: Reporter
    variables: dict[str, Any]
    optional_reads: set[Any]

    def maybe_none(self, node, scope: Scope, name: str, why: str = "") -> None:
        """E410, once per place: an optional variable (or column) read before a test shows it is not none."""
        shown = unparse(node)
        if ("maybe", shown) not in scope.told:
            scope.told.add(("maybe", shown))
            self.r.error(
                "E410",
                f"'{shown}' may be none here ({why or f'variable {name!r} is optional'}): test "
                f"'{shown} != none' first, as in \"{shown} != none and ...\"",
                node.span,
            )

    def is_optional_state(self, node) -> bool:
        """Is `node` an optional variable read (`pair_colour`, `me.pair_colour`), or an entry of a keyed
        optional one (`holder[card]`, `p.holder[card]`)?"""
        keyed = isinstance(node, Index)
        if keyed:
            node = node.obj
        if isinstance(node, Name):
            var = self.variables.get(node.id)
            return var is not None and var.optional and not var.per_player and keyed == isinstance(var.type, MapOf)
        if isinstance(node, Attribute):
            var = self.variables.get(node.name)
            return var is not None and var.optional and var.per_player and keyed == isinstance(var.type, MapOf)
        return False

    @staticmethod
    def keyed_name(node: Index) -> str:
        """The variable an entry `holder[card]` (or `p.holder[card]`) is read from."""
        obj = node.obj
        return obj.id if isinstance(obj, Name) else obj.name if isinstance(obj, Attribute) else unparse(obj)

    def equality(self, node: Compare, scope: Scope, lt, rt) -> None:
        """`==` and `!=` compare values of one type (E410), `none` only with what may be none."""
        op, left, right = node.op, node.left, node.right
        unequal = [why for why in map(not_equated, (lt, rt)) if why]
        if unequal:  # the sheets phrase no condition, table or collection as a value
            what, hint = unequal[0]
            self.r.error(
                "E410", f"'{op}' compares numbers, colours, players, cards or nobles, not {what}: {hint}", node.span
            )
            return
        if lt == rt == NONE:
            self.r.error(
                "E410",
                f"'none {op} none' tests nothing: compare an optional choice with none, as in 'x == none'",
                node.span,
            )
            return
        if not comparable(lt, rt):
            self.r.error("E410", f"cannot compare {noun(lt)} with {noun(rt)}", node.span)
        for side, other in ((left, rt), (right, lt)):
            optional = (
                (isinstance(side, Name) and side.id in scope.optional)
                or self.is_optional_state(side)
                or side in self.optional_reads
            )
            if other != NONE or side == Name("none", None) or optional:
                continue
            choice = isinstance(side, Name) and side.id in scope.choices
            if ("never", unparse(side)) in scope.told:
                continue
            scope.told.add(("never", unparse(side)))  # once per decision: one cause
            self.r.error(
                "E410",
                f"'{unparse(side)}' is never none: "
                + (
                    "its choice is not optional (write optional: true in the choice to offer none)"
                    if choice
                    else "only an optional choice can be none"
                ),
                node.span,
            )
