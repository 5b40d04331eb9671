"""Expressions and effects compiled to Python: the ExprCompiler."""
from __future__ import annotations

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
from ..model import BUILTIN_SETUP_FIELDS, Decision
from . import variables as state
from . import zones as lower_zones
from .collections import components_with, constant_component, market_loop, market_row, never_negative
from .effects import lower_effect
from .layout import EnginePlan, LoweringBug, spec_name, where
from .pysource import literal
from .tree import Append, Assign, For, If, Raise, render


def _unmet(condition, plan: EnginePlan, decision: Decision) -> str:
    """Why an action is refused when `condition` fails: the rule in players' words (as the
    sheets phrase it, through `plan.explain`), then the condition as written and where (for the
    spec's author)."""
    written = f"{unparse(condition)}, {where(condition.span)}"
    words = plan.explain(condition, plan.rules, decision) if plan.explain else None
    if words is None:  # no phrase for it: the condition as written says it
        return f"condition not met: {written}"
    return f"condition not met: {words} ({written})"


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


def effect_located(node, name: str) -> str:
    """An effect as written, and its spec line, for the RuleError an engine raises there."""
    return f"{unparse(node)} ({where(node.span)})" if node is not None else name


def rule_error(located: str, template: str, values: str) -> str:
    """The RuleError of an effect: the effect's text as it is (it may hold a '%', as the spec's
    `turn % 2` or a file name may), then a message of the compiler's own formatted with
    `values` (Python code)."""
    return f"RuleError({literal(located)} + {literal(template)} % ({values}))"


def raise_rule_error(located: str, template: str, values: str) -> str:
    """The statement raising that RuleError, as the printer writes a Raise of it."""
    return render([Raise(rule_error(located, template, values))])


class ExprCompiler:
    """Compiles expressions and effects of one decision to Python source text.

    `env` maps a name to ('const', value) for unrolled loop variables, or to
    ('param', kind, pyname) for choices and ('var', kind, pyname) for runtime loop
    variables. The generated code runs with these locals: `g` (the game), `me` (the
    acting seat), `sup` (supply), `tok`/`bon` (the acting player's tokens and bonuses).
    """

    def __init__(self, plan: EnginePlan, hoist=None, scalars: bool = False):
        self.plan = plan
        # scalars: read supply/tokens/bonus entries at constant indexes from locals (s0, t0, b0...)
        # bound once per call; only where nothing is written while the code runs.
        self.scalars = scalars
        self.used_scalars: set[str] = set()
        # chosen components whose columns a legal loop unpacks into locals (kc_p_NAME_C1...): read from them
        self.component_rows: set[str] = set()
        # the negation of a test this compiler wrote as a membership, `(3 in S)` -> `(3 not in S)`
        self.negations: dict[str, str] = {}
        self.values = {v.name: v.value for v in plan.rules.values}
        self.hoist = hoist  # callback(node, python) -> python name, or None
        self.temps = itertools.count()
        # Token moves (see effect): what the decision's condition guarantees, and what the
        # tests of the `if`s around an effect do; loops open around it; pools already drawn on.
        self.condition_bounds: dict = {}
        self.when_bounds: list[tuple[dict, int]] = []  # (bounds, how many loops were open at the `if`)
        self.loops: dict[str, str] = {}  # loop variable -> its collection, outermost first
        self.drawn: set[str] = set()

    # -- players and collections

    def player_attr(self, seat: str, attr: str, me: bool) -> str:
        if attr == "prestige" and self.plan.rules.prestige:  # cards and nobles, and the prestige sources
            return f"(g._pts[{seat}] + _xp(g, {seat}))"
        own = state.player_code(self.plan.rules, seat, attr) if self.plan.rules.variables else None
        if own is not None:
            return own
        if me:
            table = {"tokens": "tok", "bonus": "bon"}
            if attr in table:
                return table[attr]
        return {
            "tokens": f"g._tok[{seat}]", "bonus": f"g._bon[{seat}]", "prestige": f"g._pts[{seat}]",
            "purchased": f"len(g._bought[{seat}])", "reserved": f"len(g._res[{seat}])",
            "nobles": f"len(g._nob[{seat}])", "held": f"sum({'tok' if me else f'g._tok[{seat}]'})",
            "turns": f"g.turns[{seat}]", "seat": f"({seat} + 1)",
        }[attr]

    def static_elements(self, coll, env) -> list | None:
        """The elements of a collection fixed at compile time (gems, colours, levels), else None."""
        if isinstance(coll, Name) and coll.id in STATIC_COLLECTIONS and coll.id not in env:
            if coll.id == "gems":
                return list(range(len(self.plan.gems)))
            if coll.id == "colours":
                return list(range(len(self.plan.colours)))
            return list(self.plan.levels)
        return None

    def collection(self, coll, env) -> str:
        declared = state.collection(self.plan.rules, coll, env, self.expr) if self.plan.rules.variables else None
        if declared is not None:
            return declared
        match coll:
            case Name(id="players") if "players" not in env:
                return "range(g._n)"
            case Name(id="others") if "others" not in env:
                return "[s for s in range(g._n) if s != me]"
            case Name(id=name) if name in env and env[name][0] in ("param", "var"):
                return env[name][2]
        elements = self.static_elements(coll, env)
        if elements is not None:
            return repr(tuple(elements))
        row = market_row(self, coll, env)
        if row is not None:  # the face-up cards of a level, its empty slots left out
            return f"[_c for _c in {row} if _c is not None]"
        zone = lower_zones.collection(self, coll, env) if self.plan.rules.zones else None
        if zone is not None:
            return zone
        raise LoweringBug(f"cannot iterate over '{unparse(coll)}'", coll.span)

    def size(self, coll, env) -> str:
        """The number of elements of a collection: known now for gems, colours and levels."""
        elements = self.static_elements(coll, env)
        if elements is not None:
            return str(len(elements))
        match coll:
            case Name(id="players") if "players" not in env:
                return "g._n"
            case Name(id="others") if "others" not in env:
                return "(g._n - 1)"
        zone = lower_zones.size(self, coll, env) if self.plan.rules.zones else None
        if zone is not None:
            return zone
        return f"len({self.collection(coll, env)})"

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

    def expr(self, node, env) -> str:  # noqa: C901 - one dispatch over node kinds
        if self.hoist is not None and not isinstance(node, (Int, Bool, Name)):
            name = self.hoist(node, env)
            if name is not None:
                return name
        match node:
            case Int(value=v):
                return str(v)
            case Bool(value=v):
                return "True" if v else "False"
            case Word(value=v):  # a keyword the check found among its column's values
                return literal(v)
            case Name(id=name):
                if name in env:
                    entry = env[name]
                    return repr(entry[2]) if entry[0] == "const" else entry[2]
                if name in self.values:
                    return str(self.values[name])
                if name in self.plan.gems or name == self.plan.rules.wild:
                    return str(self.plan.colours.index(name))
                declared = state.name_code(self.plan.rules, name) if self.plan.rules.variables else None
                if declared is not None:
                    return declared
                return {
                    "player_count": "g._n", "round": "g.round", "turn": "g.turn", "passes": "g.passes",
                    "nobles_left": "len(g.noble_row)", "none": "None", "me": "me",
                }[name]
            case Attribute(obj=obj, name=attr):
                return self.attribute(node, obj, attr, env)
            case Index(obj=obj, index=idx):
                return self.index(node, obj, idx, env)
            case Call(func=("min" | "max") as func, args=(first, second)) \
                    if self._constant(first, env) is not None or self._constant(second, env) is not None:
                # min/max against a constant without a call: (t if (t := x) > k else k)
                k, other = (self._constant(first, env), second) if self._constant(first, env) is not None \
                    else (self._constant(second, env), first)
                temp = f"_t{next(self.temps)}"
                op = ">" if func == "max" else "<"
                return f"({temp} if ({temp} := {self.expr(other, env)}) {op} {k} else {k})"
            case Call(func="size", args=(coll,)):
                return self.size(coll, env)
            case Call(func=func, args=args):
                return f"{func}({', '.join(self.expr(a, env) for a in args)})"
            case Aggregate(func=func, body=body, var=var, collection=coll):
                return self.aggregate(func, body, var, coll, env)
            case Unary(op="-", operand=o):
                return f"(-{self.expr(o, env)})"
            case Unary(op="not", operand=o):
                return f"(not {self.expr(o, env)})"
            case Binary(op=op, left=l, right=r):
                return f"({self.expr(l, env)} {op} {self.expr(r, env)})"
            case Compare(op=("in" | "not in") as op, left=l, right=r):
                # the right side is a collection (gems, players, a chosen set...), iterated as a loop would
                left, elements = self.expr(l, env), self.static_elements(r, env)
                if elements is not None and left.lstrip("-").isdigit():  # both known now
                    return str((int(left) in elements) == (op == "in"))
                return f"({left} {op} {self.collection(r, env)})"
            case Compare(op=op, left=l, right=r):
                left, right = self.expr(l, env), self.expr(r, env)
                if op == ">=" and right == "0" and never_negative(left):  # a count written out against 0
                    return "True"
                if "None" in (left, right) and op in ("==", "!="):
                    if left == "None":
                        left, right = right, left
                    if left.isdigit() or left == "None":  # a value unrolled into a constant: known now
                        return str((left == "None") == (op == "=="))
                    op = "is" if op == "==" else "is not"
                return f"({left} {op} {right})"
            case Logic(op=op, left=l, right=r):
                return f"({self.expr(l, env)} {op} {self.expr(r, env)})"
            case Conditional(test=t, then=a, otherwise=b):
                return f"({self.expr(a, env)} if {self.expr(t, env)} else {self.expr(b, env)})"
        raise LoweringBug(f"cannot compile '{unparse(node)}'", getattr(node, "span", None))

    def index(self, node, obj, idx, env) -> str:
        """`obj[idx]`: a scalar local (s0, t0, b0...) where the engine binds one, else a table or list entry."""
        i = self.expr(idx, env)
        if isinstance(obj, Attribute) and self.kind_of(obj.obj, env).startswith(lower_zones.COMPONENT):
            known = constant_component(obj.obj, env)
            if known is not None and i.isdigit():  # a component written out, a colour unrolled: its number
                return literal(lower_zones.constant_column(self.plan.rules, known[0], known[1], obj.name)[int(i)])
            return f"{self.attribute(obj, obj.obj, obj.name, env)}[{i}]"
        if self.scalars and i.isdigit():
            prefix = {"supply": "s", "tokens": "t", "bonus": "b"}.get(
                obj.id if isinstance(obj, Name) else obj.name if isinstance(obj, Attribute)
                and obj.obj == Name("me", None) and "me" not in env else "")
            if prefix:
                self.used_scalars.add(prefix)
                return f"{prefix}{i}"
        match obj:
            case Name(id="supply"):
                return f"sup[{i}]"
            case Name(id="deck"):
                return f"len(g.decks[{int(i) - 1}])" if i.isdigit() else f"len(g.decks[{i} - 1])"
            case Name(id="face_up"):
                return f"(g.face_up_count({i}))"
            case Attribute(obj=Name(id=owner), name="cost") if owner in env and env[owner][0] == "param":
                if self.scalars and i.isdigit():  # legal loops unpack the cost into locals
                    return f"cc_{env[owner][2]}_G{i}"
                return f"cc_{env[owner][2]}[{i}]"
            case Attribute(obj=owner, name="cost"):
                return f"CARD_COST[{self.expr(owner, env)}][{i}]"
            case Attribute(obj=Name(id=owner), name="requires") if owner in env and env[owner][0] == "param":
                return f"nr_{env[owner][2]}[{i}]"
            case Attribute(obj=owner, name="requires"):
                return f"NOBLE_REQUIRES[{self.expr(owner, env)}][{i}]"
            case Attribute(obj=owner, name=("gold" | "spent") as part):
                return f"{self.expr(owner, env)}_{part.upper()}[{i}]"
            case Attribute(obj=owner, name="covers"):  # without a worth, the gold covers itself
                return f"{self.expr(owner, env)}_{'COVERS' if self.plan.worth else 'GOLD'}[{i}]"
            case Attribute(obj=owner, name=("tokens" | "bonus") as part):
                return f"{self.attribute(obj, owner, part, env)}[{i}]"
        raise LoweringBug(f"cannot compile '{unparse(node)}'", node.span)

    def _constant(self, node, env) -> int | None:
        """The value of an integer literal or of a named value of the spec; None otherwise."""
        if isinstance(node, Int):
            return node.value
        if isinstance(node, Name) and node.id not in env and isinstance(self.values.get(node.id), int) \
                and not isinstance(self.values.get(node.id), bool):
            return self.values[node.id]
        return None

    def attribute(self, node, obj, attr, env) -> str:
        match obj:
            case Name(id="setup") if attr in BUILTIN_SETUP_FIELDS:
                return f"g.setup_{attr}"
            case Name(id="setup"):  # a declared field: its table by player count (the emitter writes it)
                return f"{spec_name('_pf_', attr, node.span)}[g._n]"
            case Name(id="me") if "me" not in env:
                return self.player_attr("me", attr, me=True)
        kind = self.kind_of(obj, env)
        owner = self.expr(obj, env)
        if kind == "player":
            return self.player_attr(owner, attr, me=False)
        if kind == "card":
            return {"points": f"CARD_POINTS[{owner}]", "bonus": f"CARD_BONUS[{owner}]",
                    "level": f"CARD_LEVEL[{owner}]", "cost": f"CARD_COST[{owner}]"}[attr]
        if kind == "noble":
            return {"points": f"NOBLE_POINTS[{owner}]", "requires": f"NOBLE_REQUIRES[{owner}]"}[attr]
        if kind == "payment":
            covers = f"{owner}_COVERS" if self.plan.worth else f"{owner}_GOLD"  # without a worth: the gold itself
            return {"gold_total": f"{owner}_GT", "gold": f"{owner}_GOLD", "covers": covers,
                    "spent": f"{owner}_SPENT"}[attr]
        if kind.startswith(lower_zones.COMPONENT):
            known = constant_component(obj, env)
            if known is not None:  # a component written out: its column's value
                return literal(lower_zones.constant_column(self.plan.rules, known[0], known[1], attr))
            return lower_zones.column(self, kind, owner, attr, node)
        raise LoweringBug(f"cannot compile '{unparse(node)}'", node.span)

    def aggregate(self, func, body, var, coll, env) -> str:
        elements = self.static_elements(coll, env)
        elem_kind = self.element_kind(coll, env)
        if elements is not None:
            parts = [self.expr(body, {**env, var: ("const", elem_kind, e)}) for e in elements]
            if not parts:
                return {"sum": "0", "count": "0", "all": "True", "any": "False"}.get(func, "0")
            if func == "sum":
                whole = self._whole_list(parts, body, var, coll, env)
                return f"sum({whole})" if whole else "(" + " + ".join(parts) + ")"
            if func == "count":  # ints, not bools: int + int is the interpreter's fast path
                return "(" + " + ".join(f"(1 if {part} else 0)" for part in parts) + ")"
            if func == "all":
                parts = [part for part in parts if part != "True"]  # (a component's zero requirements)
                return "(" + " and ".join(parts) + ")" if parts else "True"
            if func == "any":
                return "(" + " or ".join(parts) + ")"
            return f"{func}({', '.join(parts)})" if len(parts) > 1 else parts[0]
        holders = components_with(self, func, body, var, elem_kind, env)
        if holders is not None:  # any(t.power == 'five_prestige' for t in S): is one of those components in S?
            source = self.collection(coll, env)
            if len(holders) == 1:
                code = f"({holders[0]} in {source})"
                self.negations[code] = f"({holders[0]} not in {source})"
                return code
            return "(" + " or ".join(f"{i} in {source}" for i in holders) + ")" if holders else "False"
        pyvar = spec_name("v_", var, body.span)
        inner = self.expr(body, {**env, var: ("var", elem_kind, pyvar)})
        source = self.collection(coll, env)
        if func == "count":
            return f"sum(1 for {pyvar} in {source} if {inner})"
        if func in ("min", "max"):
            return f"{func}(({inner} for {pyvar} in {source}), default=0)"
        return f"{func}({inner} for {pyvar} in {source})"

    def negation(self, code: str) -> str:
        """`not code` as the generated code writes it: a membership this compiler wrote is negated
        with `not in` (what Python style, and the engines' linting, asks)."""
        return self.negations.get(code) or f"not {code}"

    def _whole_list(self, parts: list[str], body, var: str, coll, env) -> str | None:
        """The list that `parts` index entry by entry from first to last (a bonus list over gems,
        a token list or the supply over colours), so that their sum is sum(list); else None."""
        over = coll.id if isinstance(coll, Name) else ""
        match body:
            case Index(obj=Name(id="supply"), index=Name(id=v)) if v == var and over == "colours":
                whole = "sup"
            case Index(obj=Attribute(obj=owner, name=attr) as obj, index=Name(id=v)) \
                    if v == var and (over, attr) in (("gems", "bonus"), ("colours", "tokens")):
                whole = self.attribute(obj, owner, attr, env)
            case _:
                return None
        return whole if parts == [f"{whole}[{i}]" for i in range(len(parts))] else None

    # -- effects

    def face_up_cost(self, card: str, cost: str) -> list:
        """After a write to a face-up slot: the same slot of Game.face_up_costs, when the engine keeps it."""
        if self.plan.face_up_costs:
            return [Assign((f"g.face_up_costs[{card}_LI * {self.plan.max_face_up} + {card}_SI]",), cost)]
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
                    if self.plan.rules.variables and state.walks_what_it_writes(body, coll) or \
                            self.plan.rules.zones and lower_zones.walks_what_it_moves(self, coll, env, body):
                        source = f"tuple({source})"  # a snapshot: the body changes the set (the zone) it walks
                    out = [For(pyvar, source, self.stmt(body, {**env, var: ("var", kind, pyvar)}))]
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
        n = amount.value if isinstance(amount, Int) else self.values.get(amount.id) \
            if isinstance(amount, Name) and amount.id not in self.loops else None
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
        message = ": the player holds %d reserved cards, the most this spec's choices of a reserved card can name"
        return [If(f"len(g._res[me]) >= {most}",
                   [Raise(rule_error(effect_located(node, 'reserve'), message, "len(g._res[me])"))])]

    def effect(self, name, args, env, node=None) -> list:
        """The statements of one effect, `name(args)`, by its declaration's routine (compiler/lower/effects.py)."""
        return lower_effect(self, name, args, env, node, effect_located(node, name))

    def _move_tokens(self, name, args, a, node) -> list:
        """take (supply to tokens) or put_back (tokens to supply), never below 0."""
        source, dest = ("sup", "tok") if name == "take" else ("tok", "sup")
        out: list = []
        amount = a[1]
        if not amount.isdigit():  # an expression: evaluated once
            amount = "_n"
            # a negative amount would move tokens the other way and take that pool below 0
            out += [Assign(("_n",), a[1]),
                    If("_n < 0", [Raise(rule_error(effect_located(node, name), ": a negative number of tokens (%d)",
                                                         "_n"))])]
        pool = "supply" if name == "take" else "tokens"
        if not self.guaranteed(pool, args[0], args[1]):
            # a spec whose tests do not ensure the tokens are there: say so, never go below 0
            held = "in the supply" if name == "take" else "held by the player"
            message = f": only %d %s token(s) {held}"
            out.append(If(f"{source}[{a[0]}] < {amount}",
                          [Raise(rule_error(effect_located(node, name), message,
                                            f"{source}[{a[0]}], COLOURS[{a[0]}]"))]))
        return out + [Assign((f"{source}[{a[0]}]",), amount, "-="), Assign((f"{dest}[{a[0]}]",), amount, "+=")]

    def _reserve_top(self, level: str, node) -> list:
        return [*self.reserve_room(node), Assign(("_deck",), f"g.decks[{level} - 1]"),
                If("not _deck", [Raise(rule_error(effect_located(node, 'reserve_top'),
                                                        ": the deck of level %d is empty", level))]),
                Assign(("_card",), "_deck.pop()"), Append("g._res[me]", "_card"), Append("g.blind[me]", "_card")]

    def _pay(self, p: str) -> list:
        out: list = []
        for gi in range(len(self.plan.gems)):
            out.append(If(f"{p}_S{gi}", [Assign((f"tok[{gi}]",), f"{p}_S{gi}", "-="),
                                         Assign((f"sup[{gi}]",), f"{p}_S{gi}", "+=")]))
        wild = len(self.plan.gems)
        out.append(If(f"{p}_GT", [Assign((f"tok[{wild}]",), f"{p}_GT", "-="),
                                  Assign((f"sup[{wild}]",), f"{p}_GT", "+=")]))
        return out
