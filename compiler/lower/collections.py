"""Collections of cards and components the expressions pass reads specially: a whole face-up
row (`market[L]`), a component known at compile time (a choice written out per component), the
components whose column has a given value (`any(t.power == 'five_prestige' for t in S)` asks
whether one of them is in S), an aggregate whose body reads only the component's columns (a table
of its value by component, worked out now), `all`/`any` over cards or nobles whose body reads only
their columns (a set of the ids it holds for, asked about the collection in one call: a strength
reduction), (the counts that are never negative: fold.never_negative).

Pure helpers of compiler/lower/expressions.py, split from it to keep each module small; the
`compiler` they take is its ExprCompiler."""

from __future__ import annotations

import ast
from typing import Any

from ..front.expr import Aggregate, Attribute, Compare, Expr, Index, Name, Word, walk
from ..language import ColumnType
from . import base_columns, fold, ir
from .constants import expression as constant_expression
from .layout import spec_name
from .optimise import enabled
from .pysource import comment
from .tree import Assign, Continue, For, If, bound_names
from .zones import is_component, tag_kind


def market_row(compiler, coll, env) -> ast.expr | None:
    """`market[L]`: the list of level L's face-up slots (None where a slot is empty), else None."""
    index = _market_index(compiler, coll, env)
    return ir.sub(ir.dotted("g.market"), index) if index is not None else None


def _market_index(compiler, coll, env) -> ast.expr | None:
    """The index in g.market of the row `market[L]` names (level L - 1), else None."""
    if isinstance(coll, Index) and coll.obj == Name("market", None) and "market" not in env:
        level = compiler.expr(coll.index, env)
        known = fold.as_int(level)
        return ir.const(known - 1) if known is not None and known >= 0 else ir.minus(level, 1)
    return None


def market_loop(compiler, var: str, coll, body, env, span) -> For:
    """`for var in market[L]: body`: each face-up card of the row with its place (var_LI, var_SI, as a
    face-up choice has), empty slots skipped; over a snapshot, since the body may empty or refill
    the slots it walks (bury, refill)."""
    pyvar = spec_name("v_", var, span)
    index = _market_index(compiler, coll, env)
    assert index is not None, "a market loop walks a row of the market"
    head = [
        If(ir.compare(pyvar, "is", ir.const(None)), [Continue()]),
        Assign((ir.name(f"{pyvar}_LI"),), index, pure=True),
    ]
    body_code = compiler.stmt(body, {**env, var: ("var", "card", pyvar, "face_up")})
    row = ir.sub(ir.dotted("g.market"), index)
    return For(ir.tuple_(f"{pyvar}_SI", pyvar), ir.call("list", ir.call("enumerate", row)), head + body_code)


def face_up_row(plan: Any, node: Expr, env: dict[str, Any]) -> ast.expr | None:
    """The row index (`NAME_LI`, bound wherever a face-up card is) of a face-up card named by `node`,
    a choice or a market loop's card, when the levels are 1, 2, 3...: its level is that index plus
    one. Else None."""
    if not (isinstance(node, Name) and node.id in env and len(env[node.id]) > 3 and env[node.id][3] == "face_up"):
        return None
    if list(plan.levels) != list(range(1, len(plan.levels) + 1)):
        return None
    return ir.name(f"{env[node.id][2]}_LI")


def constant_component(node, env) -> tuple[str, int] | None:
    """(kind tag, id) of a component known at compile time (a choice written out per component)."""
    if isinstance(node, Name) and node.id in env and env[node.id][0] == "const" and is_component(str(env[node.id][1])):
        return env[node.id][1], env[node.id][2]
    return None


def components_with(compiler, func, body, var: str, elem_kind: str, env) -> list[int] | None:
    """For `any(t.COLUMN == VALUE for t in S)` over components of a kind, VALUE a keyword or a
    number known now: the ids of the components whose COLUMN is VALUE (the table is known at
    compile time), so the engine asks whether one of them is in S instead of walking S. None
    for any other aggregate."""
    if func != "any" or not is_component(elem_kind) or not isinstance(body, Compare) or body.op != "==":
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


def component_table(compiler: Any, func: str, body: Expr, var: str, elem_kind: str, env: dict[str, Any]) -> str | None:
    """For an aggregate over components of a kind whose body reads nothing but the component's
    columns and what is known now (`count(x.colour == red for x in me.charm_hand)`): the name of a
    table, by component id, of the body's value for each component (worked out now from the
    kind's table), so that the engine reads `T[x]` for each component of the collection instead
    of working the body out. None when the body reads anything else, or is not a number or flag."""
    if func not in ("sum", "count", "any", "all", "min", "max") or not is_component(elem_kind) or not enabled():
        return None  # (a strength reduction: off with the optimisation passes, compiler/lower/optimise.py)
    inner = {x.var for x in walk(body) if isinstance(x, Aggregate)}
    for name in {x.id for x in walk(body) if isinstance(x, Name)} - {var} - inner:
        known = env.get(name)
        if not (known is not None and known[0] == "const") and name not in compiler.values and name != "none":
            if name not in compiler.plan.rules.gems and name != compiler.plan.rules.wild:
                return None
    kind = tag_kind(compiler.plan.rules, elem_kind)
    saved, compiler.hoist = compiler.hoist, None
    try:
        values = {}
        for component in kind.components:
            node = constant_expression(compiler.expr(body, {**env, var: ("const", elem_kind, component.id)}))
            try:
                value = fold.as_const(node)
            except fold.Unknown:
                return None
            if not isinstance(value, (int, bool)):
                return None
            values[component.id] = int(value) if func in ("sum", "count") else value
    finally:
        compiler.hoist = saved
    row = tuple(values.get(i, 0) for i in range(max(values, default=-1) + 1))
    return _table_named(compiler, row, f"{func} over {kind.name}: the body's value by component")


def _table_named(compiler: Any, row: tuple[int | bool, ...], note: str) -> str:
    """The helper table holding `row` (`_ct0`, `_ct1`...: names the compiler makes), made the first
    time it is asked for."""
    made = {f"_ct{i}" for i in range(len(compiler.plan.helpers))}
    tables = [h for h in compiler.plan.helpers if isinstance(h, Assign) and bound_names(h.targets[0])[0] in made]
    for helper in tables:
        if ir.same(helper.value, ir.const(row)):
            return bound_names(helper.targets[0])[0]
    name = f"_ct{len(tables)}"
    compiler.plan.helpers.append(Assign((ir.name(name),), ir.const(row), note=comment(note)))
    return name


class _KnownTables(ast.NodeTransformer):
    """An expression with the cards' and nobles' tables read at constant ids written in as their
    values (`CARD_POINTS[7]` is 1), so that constant folding can finish it."""

    def __init__(self, rules: Any):
        self.rows: dict[str, tuple[Any, ...]] = {
            "CARD_POINTS": tuple(c.points for c in rules.cards),
            "CARD_LEVEL": tuple(c.level for c in rules.cards),
            "CARD_BONUS": tuple(c.bonus for c in rules.cards),
            "CARD_COST": tuple(c.cost for c in rules.cards),
            "NOBLE_POINTS": tuple(n.points for n in rules.nobles),
            "NOBLE_REQUIRES": tuple(n.requires for n in rules.nobles),
            **base_columns.known_rows(rules),
        }

    def visit_Subscript(self, node: ast.Subscript) -> ast.AST:
        node = self.generic_visit(node)  # type: ignore[assignment]  # a Subscript's children stay expressions
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
            index = node.slice.value
            if isinstance(node.value, ast.Name) and node.value.id in self.rows and isinstance(index, int):
                return ir.const(self.rows[node.value.id][index])
            try:
                row = fold.as_const(node.value)
            except fold.Unknown:
                return node
            if isinstance(row, tuple) and isinstance(index, int):
                return ir.const(row[index])
        return node


def members_where(
    compiler: Any, func: str, body: Expr, var: str, elem_kind: str, env: dict[str, Any]
) -> tuple[int, ...] | None:
    """For `all(P(x) for x in S)` or `any(...)` over cards or nobles, P reading nothing but the
    element's columns and what is known now: the ids for which P holds (worked out now from the
    tables), so that the engine asks one set about S instead of running P per element. None for
    any other aggregate."""
    if func not in ("all", "any") or elem_kind not in ("card", "noble") or not enabled():
        return None  # (a strength reduction: off with the optimisation passes, compiler/lower/optimise.py)
    inner = {x.var for x in walk(body) if isinstance(x, Aggregate)}
    for name in {x.id for x in walk(body) if isinstance(x, Name)} - {var} - inner:
        known = env.get(name)
        if not (known is not None and known[0] == "const") and name not in compiler.values and name != "none":
            if name not in compiler.plan.rules.gems:
                return None
    rules = compiler.plan.rules
    ids = range(len(rules.cards if elem_kind == "card" else rules.nobles))
    saved, compiler.hoist = compiler.hoist, None
    try:
        holds: list[int] = []
        for i in ids:
            code = compiler.expr(body, {**env, var: ("const", elem_kind, i)})
            node = constant_expression(ast.fix_missing_locations(_KnownTables(rules).visit(code)))
            try:
                value = fold.as_const(node)
            except fold.Unknown:
                return None
            if not isinstance(value, bool):
                return None
            if value:
                holds.append(i)
    finally:
        compiler.hoist = saved
    return tuple(holds)


def set_named(compiler: Any, members: tuple[int | None, ...], note: str) -> str:
    """The helper frozenset of `members` (`_cs0`, `_cs1`...), made the first time it is asked for."""
    value = ir.call("frozenset", ir.const(members))
    made = {f"_cs{i}" for i in range(len(compiler.plan.helpers))}
    sets = [h for h in compiler.plan.helpers if isinstance(h, Assign) and bound_names(h.targets[0])[0] in made]
    for helper in sets:
        if ir.same(helper.value, value):
            return bound_names(helper.targets[0])[0]
    name = f"_cs{len(sets)}"
    compiler.plan.helpers.append(Assign((ir.name(name),), value, note=comment(note)))
    return name


def without_empty_slots(source: ast.expr) -> tuple[ast.expr, bool]:
    """`[_c for _c in R if _c is not None]` (a face-up row, its empty slots left out) as R and True;
    any other collection as it is and False."""
    match source:
        case ast.ListComp(
            elt=ast.Name(id=elt),
            generators=[
                ast.comprehension(
                    target=ast.Name(id=target),
                    iter=row,
                    ifs=[ast.Compare(left=ast.Name(id=tested), ops=[ast.IsNot()], comparators=[ast.Constant(None)])],
                )
            ],
        ) if elt == target == tested:
            return row, True
    return source, False


def membership(compiler: Any, func: str, members: tuple[int, ...], source: ast.expr, text: str) -> ast.expr:
    """`all` over `source` as a subset test (its empty slots allowed), `any` as a disjointness
    test, against the frozenset of the ids (`members`) the body holds for."""
    raw, gaps = without_empty_slots(source)
    if func == "all":
        allowed = set_named(compiler, members + ((None,) if gaps else ()), f"the ids for which {text}")
        return ir.method(allowed, "issuperset", raw)
    found = set_named(compiler, members, f"the ids for which {text}")
    return ir.not_(ir.method(found, "isdisjoint", raw))
