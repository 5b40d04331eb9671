"""The setup blocks lowered to one function, ``_setup(g)``, that new_game runs once after the
deal: each block's effects in spec order, a block marked ``each_player`` once for each seat in
seat order with that seat acting. It is a hook of the runtime (compiler/emit/runtime/spec.py): new_game
calls it in every engine, and for a spec with no setup :mod:`.hooks` writes one that does nothing."""

from __future__ import annotations

from ..check.flow import DRAWS
from ..front.expr import Effect, unparse, walk
from . import ir
from .decisions import standard_locals
from .expressions import ExprCompiler
from .layout import EnginePlan
from .pysource import comment, docstring, printable
from .tree import Comment, Def, For, Pass

SETUP_FUNCTION = "_setup"


def lower_setup(plan: EnginePlan) -> list:
    """def _setup(g): every setup block of the spec, or nothing when the spec has none."""
    blocks = plan.rules.setup
    if not blocks:
        return []
    body: list = []
    for block in blocks:
        compiler = ExprCompiler(plan)  # nothing is guaranteed: setup has no condition
        statements: list = []
        for stmt in block.effects:
            statements.append(Comment(comment(unparse(stmt))))
            statements += compiler.stmt(stmt, {})
            compiler.drawn |= {DRAWS[x.name] for x in walk(stmt) if isinstance(x, Effect) and x.name in DRAWS}
        each = ", for each player" if block.each_player else ""
        body.append(Comment(comment(f"setup block '{block.name}'{each}")))
        if block.each_player:
            seat = ir.name("_seat")
            seat_body = standard_locals(seat) + (statements or [Pass()])
            body.append(For(seat, ir.call("range", ir.dotted("g._n")), seat_body))
        else:
            body += standard_locals() + statements
    return [
        Def(
            SETUP_FUNCTION,
            "g",
            body or [Pass()],
            docstring(printable("The spec's setup, run once by new_game after the deal.")),
        )
    ]
