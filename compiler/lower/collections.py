"""Collections of cards and components the expressions pass reads specially: a whole face-up
row (`market[L]`), a component known at compile time (a choice written out per component), the
components whose column has a given value (`any(t.power == 'five_prestige' for t in S)` asks
whether one of them is in S), and the counts that are never negative (a test `x >= 0` is true).

Pure helpers of compiler/lower/expressions.py, split from it to keep each module small; the
`compiler` they take is its ExprCompiler."""
from __future__ import annotations

from ..front.expr import Attribute, Compare, Index, Name, Word
from ..language import ColumnType
from .layout import spec_name
from .tree import Assign, Continue, For, If
from .zones import COMPONENT, tag_kind


def market_row(compiler, coll, env) -> str | None:
    """`market[L]`: the list of level L's face-up slots (None where a slot is empty), else None."""
    index = _market_index(compiler, coll, env)
    return f"g.market[{index}]" if index is not None else None


def _market_index(compiler, coll, env) -> str | None:
    """The index in g.market of the row `market[L]` names (level L - 1), else None."""
    if isinstance(coll, Index) and coll.obj == Name("market", None) and "market" not in env:
        level = compiler.expr(coll.index, env)
        return str(int(level) - 1) if level.isdigit() else f"{level} - 1"
    return None


def market_loop(compiler, var: str, coll, body, env, span) -> For:
    """`for var in market[L]: body`: each face-up card of the row with its place (var_LI, var_SI, as a
    face-up choice has), empty slots skipped; over a snapshot, since the body may empty or refill
    the slots it walks (bury, refill)."""
    pyvar = spec_name("v_", var, span)
    index = _market_index(compiler, coll, env)
    head = [If(f"{pyvar} is None", [Continue()]), Assign((f"{pyvar}_LI",), str(index), pure=True)]
    body_code = compiler.stmt(body, {**env, var: ("var", "card", pyvar, "face_up")})
    return For(f"{pyvar}_SI, {pyvar}", f"list(enumerate(g.market[{index}]))", head + body_code)


def constant_component(node, env) -> tuple[str, int] | None:
    """(kind tag, id) of a component known at compile time (a choice written out per component)."""
    if isinstance(node, Name) and node.id in env and env[node.id][0] == "const" \
            and str(env[node.id][1]).startswith(COMPONENT):
        return env[node.id][1], env[node.id][2]
    return None


def components_with(compiler, func, body, var: str, elem_kind: str, env) -> list[int] | None:
    """For `any(t.COLUMN == VALUE for t in S)` over components of a kind, VALUE a keyword or a
    number known now: the ids of the components whose COLUMN is VALUE (the table is known at
    compile time), so the engine asks whether one of them is in S instead of walking S. None
    for any other aggregate."""
    if func != "any" or not elem_kind.startswith(COMPONENT) or not isinstance(body, Compare) \
            or body.op != "==":
        return None
    for side, other in ((body.left, body.right), (body.right, body.left)):
        if not (isinstance(side, Attribute) and side.obj == Name(var, None)):
            continue
        value = other.value if isinstance(other, Word) else compiler._constant(other, env)
        if value is None:
            return None
        kind = tag_kind(compiler.plan.rules, elem_kind)
        index = next((i for i, c in enumerate(kind.columns) if c.name == side.name), None)
        if index is None or kind.columns[index].type not in (ColumnType.NUMBER, ColumnType.KEYWORD):
            return None
        return [c.id for c in kind.components if c.values[index] == value]
    return None


def never_negative(code: str) -> bool:
    """Is this compiled code a count that is never below 0: a scalar local of the supply, a player's
    tokens or bonuses (s0, t1, b2), or a length?"""
    return (len(code) >= 2 and code[0] in "stb" and code[1:].isdigit()) or (
        code.startswith("len(") and code.endswith(")") and code.count("(") == 1)
