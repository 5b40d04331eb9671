"""Expressions and effects compiled to Python: the ExprCompiler."""

from __future__ import annotations

import ast
import dataclasses
import itertools

from ..check.flow import token_bounds
from ..front.expr import (
    Aggregate,
    Attribute,
    Binary,
    Bool,
    Call,
    Compare,
    Conditional,
    Effect,
    ForEach,
    Index,
    Int,
    Logic,
    Name,
    Sequence,
    Unary,
    When,
    Word,
    children,
    unparse,
)
from ..language import AGGREGATES
from ..model import BUILTIN_SETUP_FIELDS, Decision, Param
from . import base_columns, fold, ir
from . import variables as state
from . import zones as lower_zones
from .collections import (
    component_table,
    components_with,
    constant_component,
    face_up_row,
    market_loop,
    market_row,
    members_where,
    membership,
)
from .effects import lower_effect
from .layout import EnginePlan, LoweringBug, spec_name, where
from .tokens import ME, G, _name_of, effect_located, mine, rule_error
from .tree import Assign, For, If, Raise


def _unmet(condition, plan: EnginePlan, decision: Decision) -> ast.expr:
    """Why an action is refused when `condition` fails, as the engine's `Refusal(rule, words,
    details)`: for a player, the rule's name and this part of it in each sheet language (as the
    sheets word them, through `plan.explain`; none where a condition has no phrase); for the
    spec's author, the condition as written and where. Every text is a literal (repr)."""
    details = f"{unparse(condition)}, {where(condition.span)}"
    words = plan.explain(condition, plan.rules, decision) if plan.explain else {}
    return ir.call("Refusal", ir.const(decision.name), ir.const(dict(words)), ir.const(details))


def _unpaid(plan: EnginePlan, decision: Decision) -> ast.expr:
    """Why a purchase is refused when no payment the rules accept is within the player's means:
    the Refusal of `_unmet`, its part of the rule the price (`plan.explain` of None)."""
    details = f"the player cannot pay the price of this card in any way the rules allow, {where(decision.span)}"
    words = plan.explain(None, plan.rules, decision) if plan.explain else {}
    return ir.call("Refusal", ir.const(decision.name), ir.const(dict(words)), ir.const(details))


def _substitute(node, target, replacement):
    """`node` with the subtree `target` (the very object) replaced."""
    if node is target:
        return replacement
    if not dataclasses.is_dataclass(node):
        return node
    changes = {}
    for f in dataclasses.fields(node):
        value = getattr(node, f.name)
        if isinstance(value, tuple):
            new = tuple(_substitute(v, target, replacement) for v in value)
        else:
            new = _substitute(value, target, replacement)
        if new is not value and new != value:
            changes[f.name] = new
    return dataclasses.replace(node, **changes) if changes else node


def conjuncts(node) -> list:
    if isinstance(node, Logic) and node.op == "and":
        return conjuncts(node.left) + conjuncts(node.right)
    if isinstance(node, Bool) and node.value:
        return []
    return [node]


def free_names(node) -> set[str]:
    """Names an expression refers to that are not bound inside it."""
    match node:
        case Name(id=i):
            return {i}
        case Aggregate(body=b, var=v, collection=c):
            return free_names(c) | (free_names(b) - {v})
        case ForEach(var=v, collection=c, body=b):
            return free_names(c) | (free_names(b) - {v})
    out: set[str] = set()
    for child in children(node):
        out |= free_names(child)
    return out


STATIC_COLLECTIONS = ("gems", "colours", "levels")


class ExprCompiler:
    """Compiles expressions and effects of one decision to expression nodes (:mod:`.ir`) and statements.

    `env` maps a name to ('const', value) for unrolled loop variables, or to
    ('param', kind, pyname) for choices and ('var', kind, pyname or node) for runtime loop
    variables. The generated code runs with these locals: `g` (the game), `me` (the
    acting seat), `sup` (supply), `tok`/`bon` (the acting player's tokens and bonuses).
    """

    def __init__(self, plan: EnginePlan, hoist=None, scalars: bool = False):
        self.plan = plan
        # scalars: read supply/tokens/bonus entries at constant indexes from locals (s0, t0, b0...)
        # bound once per call; only where nothing is written while the code runs.
        self.scalars = scalars
        self.used_scalars: set[str] = set()
        # the scalar locals: counts, never negative (see fold.never_negative)
        self.scalar_names = frozenset(f"{p}{i}" for p in "stb" for i in range(len(plan.colours)))
        # chosen components whose columns a legal loop unpacks into locals (kc_p_NAME_C1...): read from them
        self.component_rows: set[str] = set()
        self.values = {v.name: v.value for v in plan.rules.values}
        self.hoist = hoist  # callback(node, env) -> the name of a local holding its value, or None
        self.temps = itertools.count()
        # Token moves (see effect): what the decision's condition guarantees, and what the
        # tests of the `if`s around an effect do; loops open around it; pools already drawn on.
        self.condition_bounds: dict = {}
        self.when_bounds: list[tuple[dict, int]] = []  # (bounds, how many loops were open at the `if`)
        self.loops: dict[str, str] = {}  # loop variable -> its collection, outermost first
        self.drawn: set[str] = set()
        self.wild_params: dict[
            str, Param
        ] = {}  # payment local -> its Param, for a payment with `wilds` (lower/wilds.py)

    # -- players and collections

    def player_attr(self, seat: ast.expr, attr: str, me: bool) -> ast.expr:
        if attr == "prestige" and self.plan.rules.prestige:  # cards and nobles, and the prestige sources
            return ir.add(ir.sub(ir.attr(G, "_pts"), seat), ir.call("_xp", G, seat))
        own = state.player_code(self.plan.rules, seat, attr) if self.plan.rules.variables else None
        if own is not None:
            return own
        if me and attr in ("tokens", "bonus"):
            return ir.name("tok" if attr == "tokens" else "bon")

        def per_seat(attribute: str) -> ast.expr:
            return ir.sub(ir.attr(G, attribute), seat)

        match attr:
            case "tokens" | "bonus" | "prestige" | "turns":
                return per_seat({"tokens": "_tok", "bonus": "_bon", "prestige": "_pts", "turns": "turns"}[attr])
            case "purchased" | "reserved" | "nobles":
                return ir.call("len", per_seat({"purchased": "_bought", "reserved": "_res", "nobles": "_nob"}[attr]))
            case "held":
                return ir.call("sum", ir.name("tok") if me else per_seat("_tok"))
            case "seat":
                return ir.add(seat, 1)
        raise LoweringBug(f"no player attribute {attr}")

    def static_elements(self, coll, env) -> list | None:
        """The elements of a collection fixed at compile time (gems, colours, levels), else None."""
        if isinstance(coll, Name) and coll.id in STATIC_COLLECTIONS and coll.id not in env:
            if coll.id == "gems":
                return list(range(len(self.plan.gems)))
            if coll.id == "colours":
                return list(range(len(self.plan.colours)))
            return list(self.plan.levels)
        return None

    def collection(self, coll, env) -> ast.expr:
        declared = state.collection(self.plan.rules, coll, env, self.expr) if self.plan.rules.variables else None
        if declared is not None:
            return declared
        match coll:
            case Name(id="players") if "players" not in env:
                return ir.call("range", ir.attr(G, "_n"))
            case Name(id="others") if "others" not in env:
                return ir.listcomp("s", "s", ir.call("range", ir.attr(G, "_n")), ir.compare("s", "!=", ME))
            case Name(id=name) if name in env and env[name][0] in ("param", "var"):
                return ir.expr(env[name][2])
        elements = self.static_elements(coll, env)
        if elements is not None:
            return ir.const(tuple(elements))
        row = market_row(self, coll, env)
        if row is not None:  # the face-up cards of a level, its empty slots left out
            return ir.listcomp("_c", "_c", row, ir.compare("_c", "is not", ir.const(None)))
        zone = lower_zones.collection(self, coll, env) if self.plan.rules.zones else None
        if zone is not None:
            return zone
        raise LoweringBug(f"cannot iterate over '{unparse(coll)}'", coll.span)

    def size(self, coll, env) -> ast.expr:
        """The number of elements of a collection: known now for gems, colours and levels."""
        elements = self.static_elements(coll, env)
        if elements is not None:
            return ir.const(len(elements))
        match coll:
            case Name(id="players") if "players" not in env:
                return ir.attr(G, "_n")
            case Name(id="others") if "others" not in env:
                return ir.minus(ir.attr(G, "_n"), 1)
        zone = lower_zones.size(self, coll, env) if self.plan.rules.zones else None
        if zone is not None:
            return zone
        return ir.call("len", self.collection(coll, env))

    def element_kind(self, coll, env=None) -> str:
        """What the loop variable of an aggregate or a `for` over `coll` holds: a player (a seat)
        over players and others, a component over a zone, else a colour or a level (an int, as a colour is)."""
        if self.plan.rules.zones:
            component = lower_zones.element_kind(self, coll, env or {})
            if component is not None:
                return component
        if self.plan.rules.variables:
            component = state.element_kind(self.plan.rules, coll, env or {})
            if component is not None:
                return component
        if market_row(self, coll, env or {}) is not None:
            return "card"
        return "player" if isinstance(coll, Name) and coll.id in ("players", "others") else "colour"

    def kind_of(self, node, env) -> str:
        """A coarse type of a value-producing node: player, card, noble, payment, colour, int..."""
        match node:
            case Name(id="me"):
                return "player"
            case Name(id=name) if name in env:
                return env[name][1]  # every env entry is (how, kind, ...)
        if self.plan.rules.variables:
            return state.kind(self.plan.rules, node, env) or "int"
        return "int"

    # -- expressions

    GAME_NAMES = {"player_count": "_n", "round": "round", "turn": "turn", "passes": "passes"}

    def name(self, name: str, env) -> ast.expr:
        """A name of the spec: a loop variable or a choice, a named value, a colour, declared state..."""
        if name in env:
            entry = env[name]
            return ir.const(entry[2]) if entry[0] == "const" else ir.expr(entry[2])
        if name in self.values:
            return ir.const(self.values[name])
        if name in self.plan.gems or name == self.plan.rules.wild:
            return ir.const(self.plan.colours.index(name))
        declared = state.name_code(self.plan.rules, name) if self.plan.rules.variables else None
        if declared is not None:
            return declared
        if name in self.GAME_NAMES:
            return ir.attr(G, self.GAME_NAMES[name])
        return {"nobles_left": ir.call("len", ir.attr(G, "noble_row")), "none": ir.const(None), "me": ME}[name]

    def expr(self, node, env) -> ast.expr:  # noqa: C901 - one dispatch over node kinds
        if self.hoist is not None and not isinstance(node, (Int, Bool, Name)):
            hoisted = self.hoist(node, env)
            if hoisted is not None:
                return ir.name(hoisted)
        match node:
            case Int(value=v) | Bool(value=v):
                return ir.const(v)
            case Word(value=v):  # a keyword the check found among its column's values
                return ir.const(v)
            case Name(id=name):
                return self.name(name, env)
            case Attribute(obj=obj, name=attr):
                return self.attribute(node, obj, attr, env)
            case Index(obj=obj, index=idx):
                return self.index(node, obj, idx, env)
            case Call(func=("min" | "max") as func, args=(first, second)) if (
                self._constant(first, env) is not None or self._constant(second, env) is not None
            ):
                # min/max against a constant without a call: (t if (t := x) > k else k)
                k, other = (
                    (self._constant(first, env), second)
                    if self._constant(first, env) is not None
                    else (self._constant(second, env), first)
                )
                temp = f"_t{next(self.temps)}"
                test = ir.compare(ir.walrus(temp, self.expr(other, env)), ">" if func == "max" else "<", ir.const(k))
                return ir.ifexp(test, temp, ir.const(k))
            case Call(func="size", args=(coll,)):
                return self.size(coll, env)
            case Call(func=func, args=args):
                return ir.call(func, *(self.expr(a, env) for a in args))
            case Aggregate(func=func, body=body, var=var, collection=coll):
                return self.aggregate(func, body, var, coll, env)
            case Unary(op="-", operand=o):
                return ir.neg(self.expr(o, env))
            case Unary(op="not", operand=o):
                return ir.not_(self.expr(o, env))
            case Binary(op=op, left=l, right=r):
                return ir.binop(self.expr(l, env), op, self.expr(r, env))
            case Compare(op=("in" | "not in") as op, left=l, right=r):
                # the right side is a collection (gems, players, a chosen set...), iterated as a loop would
                return fold.membership(
                    self.expr(l, env), op, self.static_elements(r, env), lambda: self.collection(r, env)
                )
            case Compare(op=op, left=l, right=r):
                left, right = self.expr(l, env), self.expr(r, env)
                if op == ">=" and fold.is_const(right, 0) and fold.never_negative(left, self.scalar_names):
                    return ir.const(True)  # a count written out against 0
                return fold.compare(left, op, right)
            case Logic(op=op, left=l, right=r):
                return (ir.and_ if op == "and" else ir.or_)(self.expr(l, env), self.expr(r, env))
            case Conditional(test=t, then=a, otherwise=b):
                return ir.ifexp(self.expr(t, env), self.expr(a, env), self.expr(b, env))
        raise LoweringBug(f"cannot compile '{unparse(node)}'", getattr(node, "span", None))

    def index(self, node, obj, idx, env) -> ast.expr:
        """`obj[idx]`: a scalar local (s0, t0, b0...) where the engine binds one, else a table or list entry
        (an entry of a keyed variable among them)."""
        entry = (
            state.place(self.plan.rules, node, env, self.expr)
            if self.plan.rules.variables and state.keyed(self.plan.rules, node, env) is not None
            else None
        )
        if entry is not None:
            return entry
        i = self.expr(idx, env)
        k = fold.as_int(i)
        k = k if k is not None and k >= 0 else None  # an index known now
        if isinstance(obj, Attribute) and lower_zones.is_component(self.kind_of(obj.obj, env)):
            known = constant_component(obj.obj, env)
            if known is not None and k is not None:  # a component written out, a colour unrolled: its number
                return ir.const(lower_zones.constant_column(self.plan.rules, known[0], known[1], obj.name)[k])
            return ir.sub(self.attribute(obj, obj.obj, obj.name, env), i)
        if self.scalars and k is not None:
            prefix = {"supply": "s", "tokens": "t", "bonus": "b"}.get(
                obj.id
                if isinstance(obj, Name)
                else obj.name
                if isinstance(obj, Attribute) and obj.obj == Name("me", None) and "me" not in env
                else ""
            )
            if prefix:
                self.used_scalars.add(prefix)
                return ir.name(f"{prefix}{k}")
        match obj:
            case Name(id="supply"):
                return ir.sub("sup", i)
            case Name(id="deck"):
                return ir.call("len", ir.sub(ir.attr(G, "decks"), fold.plus(i, -1)))
            case Name(id="face_up"):  # the row's slots less its empty ones, counted in C (no call of Game's)
                row = ir.sub(ir.attr(G, "market"), ir.const(k - 1) if k is not None else ir.minus(i, 1))
                return ir.minus(ir.call("len", row), ir.method(row, "count", ir.const(None)))
            case Attribute(obj=Name(id=owner), name="cost") if owner in env and env[owner][0] == "param":
                if self.scalars and k is not None:  # legal loops unpack the cost into locals
                    return ir.name(f"cc_{env[owner][2]}_G{k}")
                return ir.sub(f"cc_{env[owner][2]}", i)
            case Attribute(obj=owner, name="cost"):
                return ir.sub(ir.sub("CARD_COST", self.expr(owner, env)), i)
            case Attribute(obj=Name(id=owner), name="requires") if owner in env and env[owner][0] == "param":
                return ir.sub(f"nr_{env[owner][2]}", i)
            case Attribute(obj=owner, name="requires"):
                return ir.sub(ir.sub("NOBLE_REQUIRES", self.expr(owner, env)), i)
            case Attribute(obj=owner, name=("gold" | "spent") as part):
                return ir.sub(self._derived(owner, env, part.upper()), i)
            case Attribute(obj=owner, name="covers"):  # without a worth, the gold covers itself
                return ir.sub(self._derived(owner, env, "COVERS" if self.plan.worth else "GOLD"), i)
            case Attribute(obj=owner, name=("tokens" | "bonus") as part):
                return ir.sub(self.attribute(obj, owner, part, env), i)
        raise LoweringBug(f"cannot compile '{unparse(node)}'", node.span)

    def _derived(self, owner, env, suffix: str) -> ast.Name:
        """A local derived from a chosen payment's name (`p_pay_GOLD`)."""
        return ir.name(f"{_name_of(self.expr(owner, env))}_{suffix}")

    def _constant(self, node, env) -> int | None:
        """The value of an integer literal or of a named value of the spec; None otherwise."""
        if isinstance(node, Int):
            return node.value
        if (
            isinstance(node, Name)
            and node.id not in env
            and isinstance(self.values.get(node.id), int)
            and not isinstance(self.values.get(node.id), bool)
        ):
            return self.values[node.id]
        return None

    def attribute(self, node, obj, attr, env) -> ast.expr:
        match obj:
            case Name(id="setup") if len({row.field(attr) for row in self.plan.rules.players}) == 1:
                return ir.const(self.plan.rules.players[0].field(attr))  # the same at every player count: known now
            case Name(id="setup") if attr in BUILTIN_SETUP_FIELDS:
                return ir.attr(G, f"setup_{attr}")
            case Name(id="setup"):  # a declared field: its table by player count (the emitter writes it)
                return ir.sub(spec_name("_pf_", attr, node.span), ir.attr(G, "_n"))
            case Name(id="me") if "me" not in env:
                return self.player_attr(ME, attr, me=True)
        kind = self.kind_of(obj, env)
        owner = self.expr(obj, env)
        if kind == "player":
            return self.player_attr(owner, attr, me=False)
        row = face_up_row(self.plan, obj, env) if kind == "card" and attr == "level" else None
        if row is not None:  # a face-up card's level is its row's: no table read
            return fold.plus(row, 1)
        if kind == "card" and attr in ("points", "bonus", "level", "cost"):
            return ir.sub(f"CARD_{attr.upper()}", owner)
        extra = base_columns.attribute(self.plan.rules, kind, attr, owner)
        if extra is not None:  # a column the spec gives the base cards or nobles (`card.ability`)
            return extra
        if kind == "noble" and attr in ("points", "requires"):
            return ir.sub(f"NOBLE_{attr.upper()}", owner)
        if kind == "payment":
            covers = "COVERS" if self.plan.worth else "GOLD"  # without a worth: the gold itself
            suffix = {"gold_total": "GT", "gold": "GOLD", "covers": covers, "spent": "SPENT"}[attr]
            return ir.name(f"{_name_of(owner)}_{suffix}")
        if lower_zones.is_component(kind):
            known = constant_component(obj, env)
            if known is not None:  # a component written out: its column's value
                return ir.const(lower_zones.constant_column(self.plan.rules, known[0], known[1], attr))
            return lower_zones.column(self, kind, owner, attr, node)
        raise LoweringBug(f"cannot compile '{unparse(node)}'", node.span)

    def aggregate(self, func, body, var, coll, env) -> ast.expr:
        elements = self.static_elements(coll, env)
        elem_kind = self.element_kind(coll, env)
        if elements is not None:
            return self._unrolled(
                func, [self.expr(body, {**env, var: ("const", elem_kind, e)}) for e in elements], body, var, coll, env
            )
        holders = components_with(self, func, body, var, elem_kind, env)
        if holders is not None:  # any(t.power == 'five_prestige' for t in S): is one of those components in S?
            source = self.collection(coll, env)
            if not holders:
                return ir.const(False)
            return ir.or_(*(ir.compare(ir.const(i), "in", source) for i in holders))
        members = members_where(self, func, body, var, elem_kind, env)
        if members is not None:  # all(card.points == 0 for card in S): is S within the cards it holds for?
            return membership(self, func, members, self.collection(coll, env), unparse(body))
        pyvar = spec_name("v_", var, body.span)
        table = component_table(self, func, body, var, elem_kind, env)
        if table is not None:  # the body's value per component worked out now: T[x] for each x
            runtime = AGGREGATES[func].runtime
            walk_ = ir.genexp(ir.sub(table, pyvar), pyvar, self.collection(coll, env))
            return ir.call(runtime, walk_, default=ir.const(0)) if func in ("min", "max") else ir.call(runtime, walk_)
        inner = self.expr(body, {**env, var: ("var", elem_kind, pyvar)})
        source = self.collection(coll, env)
        if func == "count":
            return ir.call("sum", ir.genexp(ir.const(1), pyvar, source, inner))
        if func in ("min", "max"):
            return ir.call(func, ir.genexp(inner, pyvar, source), default=ir.const(0))
        return ir.call(func, ir.genexp(inner, pyvar, source))

    def _unrolled(self, func: str, parts: list, body, var: str, coll, env) -> ast.expr:
        """An aggregate over gems, colours or levels written out, one part per element."""
        if not parts:
            return ir.const({"sum": 0, "count": 0, "all": True, "any": False}.get(func, 0))
        if func == "sum":
            whole = self._whole_list(parts, body, var, coll, env)
            return ir.call("sum", whole) if whole is not None else ir.total(parts)
        if func == "count":  # ints, not bools: int + int is the interpreter's fast path
            return ir.total(ir.ifexp(part, ir.const(1), ir.const(0)) for part in parts)
        if func == "all":
            return fold.conjunction(parts)  # (a component's zero requirements are True)
        if func == "any":
            return ir.or_(*parts)
        return ir.call(func, *parts) if len(parts) > 1 else parts[0]

    def negation(self, test: ast.expr) -> ast.expr:
        """`not test` as the generated code writes it (see fold.negate)."""
        return fold.negate(test)

    def _whole_list(self, parts: list, body, var: str, coll, env) -> ast.expr | None:
        """The list that `parts` index entry by entry from first to last (a bonus list over gems,
        a token list or the supply over colours), so that their sum is sum(list); else None."""
        over = coll.id if isinstance(coll, Name) else ""
        match body:
            case Index(obj=Name(id="supply"), index=Name(id=v)) if v == var and over == "colours":
                whole: ast.expr = ir.name("sup")
            case Index(obj=Attribute(obj=owner, name=attr) as obj, index=Name(id=v)) if v == var and (over, attr) in (
                ("gems", "bonus"),
                ("colours", "tokens"),
            ):
                whole = self.attribute(obj, owner, attr, env)
            case _:
                return None
        return whole if ir.same(parts, [ir.sub(whole, ir.const(i)) for i in range(len(parts))]) else None

    # -- effects

    def face_up_cost(self, card: str, cost: ast.expr) -> list:
        """After a write to a face-up slot: the same slot of Game.face_up_costs, when the engine keeps it."""
        if self.plan.face_up_costs:
            slot = ir.add(ir.mul(f"{card}_LI", self.plan.max_face_up), f"{card}_SI")
            return [Assign((ir.sub(ir.attr(G, "face_up_costs"), slot),), cost)]
        return []

    def stmt(self, node, env) -> list:
        """The statements of one effect statement of the spec (a `for`, an `if`, an effect)."""
        match node:
            case ForEach(var=var, collection=coll, body=body):
                outer = self.loops
                self.loops = {**outer, var: unparse(coll)}
                elements = self.static_elements(coll, env)
                kind = self.element_kind(coll, env)
                row = market_row(self, coll, env)
                if elements is not None:
                    out = [s for e in elements for s in self.stmt(body, {**env, var: ("const", kind, e)})]
                elif row is not None:  # each face-up card of a level, with its place
                    out = [market_loop(self, var, coll, body, env, node.span)]
                else:
                    pyvar = spec_name("v_", var, node.span)
                    source = self.collection(coll, env)
                    if (
                        self.plan.rules.variables
                        and state.walks_what_it_writes(body, coll)
                        or self.plan.rules.zones
                        and lower_zones.walks_what_it_moves(self, coll, env, body)
                    ):
                        source = ir.call("tuple", source)  # a snapshot: the body changes the set (the zone) it walks
                    out = [For(ir.name(pyvar), source, self.stmt(body, {**env, var: ("var", kind, pyvar)}))]
                self.loops = outer
                return out
            case When(test=test, then=then, otherwise=otherwise):
                test_code = self.expr(test, env)
                self.when_bounds.append((token_bounds(test, self.values), len(self.loops)))
                then_code = self.stmt(then, env)
                self.when_bounds.pop()
                return [If(test_code, then_code, self.stmt(otherwise, env) if otherwise is not None else [])]
            case Sequence(stmts=stmts):
                return [s for part in stmts for s in self.stmt(part, env)]
            case Effect(name=name, args=args):
                return self.effect(name, args, env, node)
        return []

    def guaranteed(self, pool: str, colour, amount) -> bool:
        """Does a test guarantee `amount` tokens of `colour` in `pool` ("supply", "tokens") here?

        The test of an `if` around the effect holds when the effect runs; the decision's
        condition held before the effects began, so it speaks only for the first effect
        that draws on the pool. Either speaks for one run of the effect: for none inside a
        `for` opened after the test, but the one `for c in S` whose test was `all(... for c in S)`
        (it draws each colour of S once).
        """
        n = (
            amount.value
            if isinstance(amount, Int)
            else self.values.get(amount.id)
            if isinstance(amount, Name) and amount.id not in self.loops
            else None
        )
        if not isinstance(n, int):
            return False
        loops = list(self.loops.items())
        sources = [(bounds, opened) for bounds, opened in self.when_bounds]
        if pool not in self.drawn:
            sources.append((self.condition_bounds, 0))
        for bounds, opened in sources:
            inner = loops[opened:]  # the loops opened since the test
            if not inner:
                key = (pool, unparse(colour))
            elif len(inner) == 1 and colour == Name(inner[0][0], None):
                key = (pool, "each " + inner[0][1])
            else:
                continue
            if bounds.get(key, -1) >= n:
                return True
        return False

    def reserve_room(self, node) -> list:
        """A reserve never takes a hand past MAX_RESERVED (the positions its choices can name),
        unless a test guarantees room: `me.reserved < k`, k at most that, before the first reserve."""
        most = self.plan.max_reserved
        if not most:  # no choice names reserved cards: no bound to keep
            return []
        sources = [bounds for bounds, opened in self.when_bounds if opened == len(self.loops)]
        if "reserved" not in self.drawn and not self.loops:
            sources.append(self.condition_bounds)
        if any(0 < bounds.get(("reserved", "room"), most + 1) <= most for bounds in sources):
            return []
        held = ir.call("len", mine("_res"))
        error = rule_error("reserved_most", effect_located(node, "reserve"), n=held)
        return [If(ir.compare(held, ">=", most), [Raise(error)])]

    def effect(self, name, args, env, node=None) -> list:
        """The statements of one effect, `name(args)`, by its declaration's routine (compiler/lower/effects.py)."""
        return lower_effect(self, name, args, env, node, effect_located(node, name))
