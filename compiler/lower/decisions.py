"""One decision lowered to statement trees: its legal-action generator (see :mod:`.legal`),
its effects, why an action is illegal, and the payments a purchase accepts."""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import Any

from ..check.flow import DRAWS, token_bounds
from ..front.expr import Aggregate, Attribute, Binary, Call, Effect, Int, Name, unparse, walk
from ..model import Param
from . import ir, wilds
from . import zones as lower_zones
from .expressions import ExprCompiler, _substitute, _unmet, _unpaid, conjuncts, free_names
from .layout import DecisionPlan, EnginePlan, ParamLayout, spec_name, where
from .legal import LegalLowering, position
from .optimise import enabled
from .pysource import comment, docstring, printable
from .queue import given_env
from .tree import Append, Assign, Comment, Continue, Def, For, If, Node, Pass, Return, Table
from .zeroprice import declined_is_free


def standard_locals(player: ast.expr | None = None) -> list:
    """The locals every generated rule function may read: the acting seat (`g._cp` unless
    `player` says), the supply, its tokens and bonuses; the ones a function does not read are
    dropped by tree.tidy."""
    return [
        Assign((ir.name("me"),), player if player is not None else ir.dotted("g._cp"), pure=True),
        Assign((ir.name("sup"),), ir.dotted("g.supply"), pure=True),
        Assign((ir.name("tok"),), ir.sub(ir.dotted("g._tok"), "me"), pure=True),
        Assign((ir.name("bon"),), ir.sub(ir.dotted("g._bon"), "me"), pure=True),
    ]


def scalar_preamble(plan: EnginePlan, used: set[str]) -> list:
    """Bindings of s0.. (supply), t0.. (tokens) and b0.. (bonuses) for a scalarized function."""
    sources = {"s": ("sup", len(plan.colours)), "t": ("tok", len(plan.colours)), "b": ("bon", len(plan.gems))}
    out = []
    for prefix in sorted(used):
        source, n = sources[prefix]
        out.append(Assign((ir.unpack(f"{prefix}{i}" for i in range(n)),), ir.name(source), pure=True))
    return out


def param_env(layouts: list[ParamLayout]) -> dict:
    env = {}
    for lay in layouts:
        p = lay.param
        kind = (
            lower_zones.COMPONENT + p.source
            if p.domain == "component"
            else {
                "gem": "colour",
                "colour": "colour",
                "gem_set": "set",
                "face_up": "card",
                "reserved": "card",
                "deck": "int",
                "noble": "noble",
                "payment": "payment",
            }[p.domain]
        )
        env[p.name] = ("param", kind, spec_name("p_", p.name, p.span), p.domain)
    return env


def decision_env(plan: EnginePlan, dp: DecisionPlan) -> dict[str, Any]:
    """The names a decision's rules read: its choices, and what a queued step is given (compiler/lower/queue.py)."""
    return {**param_env(dp.layouts), **given_env(plan.rules, dp.decision)}


class DecisionLowering:
    """Builds the legal-action generator, the effect and the explanation of one decision."""

    def __init__(self, plan: EnginePlan, dp: DecisionPlan):
        self.plan = plan
        self.dp = dp
        self.d = dp.decision
        self.order = [lay.param.name for lay in dp.layouts]
        self.env = decision_env(plan, dp)
        self.where = where(self.d.span)
        self.used_scalars: set[str] = set()
        self.preamble: list = []

    def strides(self) -> list[int]:
        out, stride = [], 1
        for lay in reversed(self.dp.id_layouts):
            out.append(stride)
            stride *= lay.size
        return list(reversed(out))

    def standard_locals(self) -> list:
        return standard_locals()

    def scalar_preamble(self, used: set[str]) -> list:
        return scalar_preamble(self.plan, used)

    @staticmethod
    def param_name(p: Param) -> str:
        return spec_name("p_", p.name, p.span)

    def legal(self, fused: bool = False) -> list:
        """def _legal_NAME(g, out): append the id of every legal action of this decision.

        With `fused`, the same code as a block of the action phase's single legal function
        (see :func:`.phases.lower_action_phase`): no def, no locals of its own, its tests before
        any choice as `if`s around the rest. `self.used_scalars` then says which scalar locals
        it reads and `self.preamble` which per-call locals it needs.
        """
        return LegalLowering(self, fused).build()

    def count_from_mask(self, node, compiler: ExprCompiler, tests: list[ast.expr] | None, k: int):
        """`node`, with a count over the gems of the very test the mask of choice k was built
        from replaced by that mask's number of bits (a table lookup instead of one test per gem),
        the environment that reads it, and the name of that count (None when there is none)."""
        if tests is None:
            return node, self.env, None
        saved, compiler.hoist = compiler.hoist, None
        try:
            for x in walk(node):
                if not (isinstance(x, Aggregate) and x.func == "count" and x.collection == Name("gems", None)):
                    continue
                mine = [
                    compiler.expr(x.body, {**self.env, x.var: ("const", "colour", gi)})
                    for gi in range(len(self.plan.gems))
                ]
                if ir.same(mine, tests):
                    bits = tuple(bin(m).count("1") for m in range(1 << len(tests)))
                    self.add_helper(
                        Assign(
                            (ir.name("_BITS"),), ir.const(bits), note=comment("the number of colours in each bitmask")
                        )
                    )
                    local = f"bits_{k}"
                    return (
                        _substitute(node, x, Name(local, x.span)),
                        {**self.env, local: ("var", "int", ir.sub("_BITS", f"mask_{k}"))},
                        local,
                    )
        finally:
            compiler.hoist = saved
        return node, self.env, None

    def cost_bindings(self, card: str) -> list:
        """A legal loop's card cost: the tuple, then one local per gem (tree.tidy keeps what is read)."""
        gems = ir.unpack(f"cc_{card}_G{gi}" for gi in range(len(self.plan.gems)))
        return [
            Assign((ir.name(f"cc_{card}"),), ir.sub("CARD_COST", card), pure=True),
            Assign((gems,), ir.name(f"cc_{card}"), pure=True),
        ]

    def mentions(self, param: str, attr: str) -> bool:
        """Does anything of this decision (condition, prices, effects) read `param.attr`?"""
        return self.reads_attribute(param, attr, in_effects=True)

    def reads_attribute(self, param: str, attr: str, in_effects: bool = False) -> bool:
        """Does the condition or a price (and, with `in_effects`, an effect) of this decision read `param.attr`?"""
        nodes: list = [self.d.condition] + [p.price for p in self.d.params if p.price is not None]  # Expr, Stmt
        if in_effects:
            nodes += self.d.effects
        return any(
            isinstance(x, Attribute) and x.name == attr and x.obj == Name(param, None)
            for node in nodes
            for x in walk(node)
        )

    def cannot_pay(
        self, p: Param, compiler: ExprCompiler, k: int, keep_prices: bool, into: list, preamble: list
    ) -> tuple[ast.expr, list[ast.expr] | None, ast.expr]:
        """A condition: the player cannot pay this price even with all the gold they hold; in its
        plain form (each gem's price, a local, against the tokens and a cover local), the
        compiled price of each gem (see shapes.flat_face_up_loop), else None; and the condition
        that the tokens held fall short of some gem (no payment without gold: see .goldfree).

        The general form computes each gem's price, then max(0, price - tokens). When the
        price is max(0, X - Y) and nothing needs the prices themselves, max(0, max(0, X - Y)
        - tokens) is max(0, X - (Y + tokens)) since tokens are never negative; Y + tokens is
        computed once per call when Y does not depend on the card.
        """
        gold = ir.name(f"t{len(self.plan.gems)}")
        if p.wilds is not None:  # the components of the holding stand for wild tokens too
            gold = ir.name(f"wild_{p.wilds.source}")
            held = ir.add(f"t{len(self.plan.gems)}", wilds.held_units(self.plan.rules, p.wilds))
            assign = Assign((gold,), held, note=comment("the gold held and what the components stand for"))
            if assign not in preamble:
                preamble.append(assign)
            keep_prices = True  # the general form: the shortcut of cannot_pay reads the gold held
        if not self.plan.worth or p.worth is None:
            return self._cannot_pay_one_for_one(p, compiler, k, keep_prices, into, preamble, gold)
        # With a worth: each wild token covers up to `worth` gems of one colour, so the least gold
        # a colour needs is its shortfall divided by the worth, rounded up. The test of the total
        # shortfall against the gems the gold may cover (gold * worth, once per call) comes first:
        # it settles every purchase but the nearly payable, at the cost of today's test.
        worth = self._worth_local(p, compiler, into, preamble)
        covers = ir.name(f"{worth.id}_gems")
        (preamble if worth.id != "_w" else into).append(Assign((covers,), ir.mul(gold, worth)))

        def rounded(terms: list) -> ast.expr:  # each shortfall divided by the worth, rounded up
            least = ir.total(ir.neg(ir.binop(ir.neg(t), "//", worth)) for t in terms)
            return ir.and_(ir.compare(worth, ">", 1), ir.compare(least, ">", gold))

        return self._cannot_pay_one_for_one(p, compiler, k, keep_prices, into, preamble, covers, rounded)

    def _worth_local(self, p: Param, compiler: ExprCompiler, into: list, preamble: list) -> ast.Name:
        """The local holding the worth of payment `p`: computed once per call (in the preamble)
        when it reads no choice, else in the loop, where the choices are bound."""
        assert p.worth is not None
        value = compiler.expr(p.worth, self.env)
        note = comment(f"worth: {unparse(p.worth)}")
        if free_names(p.worth) & {q.name for q in self.d.params}:
            into.append(Assign((ir.name("_w"),), value, note=note))
            return ir.name("_w")
        name = self.plan.worth_names.setdefault(ir.key(value), f"ww{len(self.plan.worth_names)}")
        preamble.append(Assign((ir.name(name),), value, note=note))
        return ir.name(name)

    def _cannot_pay_one_for_one(
        self,
        p: Param,
        compiler: ExprCompiler,
        k: int,
        keep_prices: bool,
        into: list,
        preamble: list,
        gold_covers: ast.expr,
        rounded: Callable[[list], ast.expr] | None = None,
    ) -> tuple[ast.expr, list[ast.expr] | None, ast.expr]:
        """cannot_pay: the total shortfall after the tokens held is more than the gems the gold
        may cover (`gold_covers`: the gold held, or gold times worth); with `rounded`, or that test
        of the shortfalls (the exact test with a worth, which divides each)."""
        gems = range(len(self.plan.gems))
        inner = None
        match p.price:
            case Call(func="max", args=(Int(value=0), other)) | Call(func="max", args=(other, Int(value=0))):
                inner = other
        if keep_prices or inner is None:
            for gi in gems:
                into.append(
                    Assign((ir.name(f"_p{gi}"),), compiler.expr(p.price, {**self.env, "c": ("const", "colour", gi)}))
                )
            terms = [
                ir.ifexp(ir.compare(f"_p{gi}", ">", f"t{gi}"), ir.minus(f"_p{gi}", f"t{gi}"), ir.const(0))
                for gi in gems
            ]
            short = ir.compare(ir.total(terms), ">", gold_covers)
            short_of_a_gem = ir.or_(*(ir.compare(f"_p{gi}", ">", f"t{gi}") for gi in gems))
            return (ir.or_(short, rounded(terms)) if rounded else short), None, short_of_a_gem
        covered = (
            isinstance(inner, Binary)
            and inner.op == "-"
            and position(inner.right, self.order) < k - 1
            and not any(isinstance(x, Name) and x.id in self.order for x in walk(inner.right))
        )
        over, terms, lefts = self._shortfalls(inner, compiler, covered, preamble)
        wild = len(self.plan.gems)
        # Short of some gem (tested gem by gem, stopping at the first), and the gold held does
        # not cover the total shortfall: the purchase is impossible.
        plain = lefts if covered and None not in lefts else None
        uncovered = [ir.not_(f"t{wild}"), ir.compare(ir.total(terms), ">", gold_covers)]
        if p.wilds is not None:  # no gold, but components: the total test alone
            uncovered = uncovered[1:]
        if rounded:
            uncovered.append(rounded(terms))
        return ir.and_(ir.or_(*over), ir.or_(*uncovered)), plain, ir.or_(*over)

    def _shortfalls(self, inner, compiler: ExprCompiler, covered: bool, preamble: list) -> tuple[list, list, list]:
        """Per gem: the test that the player is short of it, the shortfall, and the price when
        the test compares it with a local (None where it computes a difference first)."""
        gems = range(len(self.plan.gems))
        terms: list[ast.expr] = []
        over: list[ast.expr] = []
        lefts: list[ast.expr | None] = []
        if covered:
            rights = tuple(compiler.expr(inner.right, {**self.env, "c": ("const", "colour", gi)}) for gi in gems)
            cover = self.plan.cover_names.setdefault(
                ir.key(rights), "w" if not self.plan.cover_names else f"w{len(self.plan.cover_names)}_"
            )
        for gi in gems:
            env = {**self.env, "c": ("const", "colour", gi)}
            left_node = inner.left if covered else inner
            if covered:
                preamble.append(
                    Assign(
                        (ir.name(f"{cover}{gi}"),),
                        ir.add(rights[gi], f"t{gi}"),
                        note=comment(f"{unparse(inner.right)} plus the tokens held"),
                    )
                )
                left, right = compiler.expr(inner.left, env), ir.name(f"{cover}{gi}")
            else:
                left, right = compiler.expr(inner, env), ir.name(f"t{gi}")
            if not any(isinstance(x, Binary) and x.op == "-" for x in walk(left_node)):
                # X - w: plain locals, cheaper to repeat than to name
                over.append(ir.compare(left, ">", right))
                terms.append(ir.ifexp(over[-1], ir.minus(left, right), ir.const(0)))
                lefts.append(left)
            else:
                lefts.append(None)
                over.append(ir.compare(ir.minus(left, right), ">", 0))
                terms.append(
                    ir.ifexp(ir.compare(ir.walrus(f"_d{gi}", ir.minus(left, right)), ">", 0), f"_d{gi}", ir.const(0))
                )
        return over, terms, lefts

    def add_helper(self, node) -> None:
        if node not in self.plan.helpers:  # each decision is lowered twice (alone and fused)
            self.plan.helpers.append(node)

    def subset_table(
        self, table: str, lay: ParamLayout, by_size: bool, base: int | None = None, sizes: list[int] | None = None
    ) -> Table:
        """The subsets of the colours in each bitmask, with their index (by size if `by_size`).

        With `base`, each entry is the action id of the subset (base + index) instead. With
        `sizes` (one per bitmask), only the subsets of that bitmask's size.
        """
        n = len(self.plan.gems)
        rows: list = []
        members = [(i, s, sum(1 << g for g in s)) for i, s in enumerate(lay.values)]  # each subset as a bitmask
        for mask in range(1 << n):
            entries = [(i, s) for i, s, bits in members if bits & ~mask == 0]
            if sizes is not None:
                entries = [(i, s) for i, s in entries if len(s) == sizes[mask]]
            by = [[e for e in entries if len(e[1]) == size] for size in range(n + 1)] if by_size else [entries]
            groups = tuple(tuple(base + i if base is not None else (i, tuple(s)) for i, s in group) for group in by)
            rows.append(ir.const(groups if by_size else groups[0]))
        what = (
            "by bitmask, then by size"
            if by_size
            else "by bitmask, of the size the rules allow with it"
            if sizes is not None
            else "by bitmask"
        )
        content = (
            "action ids of the subsets of the colours"
            if base is not None
            else "subsets of the colours, with their index"
        )
        return Table(table, rows, comment(f"{content}, {what}"))

    def bind_params(self, args: ast.expr | None, layouts=None) -> list:
        """Decode the action's args tuple into the locals the effects use."""
        layouts = self.dp.layouts if layouts is None else layouts
        names = [spec_name("a_", lay.param.name, lay.param.span) for lay in layouts]
        out: list = []
        if names and args is not None:
            out.append(Assign((ir.unpack(names),), args, pure=True))
        for lay in layouts:
            p = lay.param
            name, arg = spec_name("p_", p.name, p.span), spec_name("a_", p.name, p.span)
            local = ir.name(name)
            if p.domain in ("gem", "colour", "gem_set", "deck"):
                out.append(Assign((local,), ir.name(arg), pure=True))
            elif p.domain == "face_up":
                card: list = [
                    Assign((ir.tuple_(f"{name}_LI", f"{name}_SI"),), ir.name(arg), pure=True),
                    Assign((local,), ir.sub(ir.sub(ir.dotted("g.market"), f"{name}_LI"), f"{name}_SI"), pure=True),
                    Assign((ir.name(f"cc_{name}"),), ir.sub("CARD_COST", name), pure=True),
                ]
                if p.optional:  # `none`: no card, and nothing of it read but after a test
                    card = [If(ir.compare(arg, "is", ir.const(None)), [Assign((local,), ir.const(None))], card)]
                out += card
            elif p.domain in ("reserved", "noble"):
                place: list[Node] = (
                    [
                        Assign((local,), ir.sub(ir.sub(ir.dotted("g._res"), "me"), arg), pure=True),
                        Assign((ir.name(f"cc_{name}"),), ir.sub("CARD_COST", name), pure=True),
                    ]
                    if p.domain == "reserved"
                    else [
                        Assign((local,), ir.sub(ir.dotted("g.noble_row"), arg), pure=True),
                        Assign((ir.name(f"nr_{name}"),), ir.sub("NOBLE_REQUIRES", name), pure=True),
                    ]
                )
                if p.optional:  # `none`: nothing of it read but after a test
                    place = [If(ir.compare(arg, "is", ir.const(None)), [Assign((local,), ir.const(None))], place)]
                out += place
            elif p.domain == "payment":
                out += self._bind_payment(p, name, arg)
            elif p.domain == "component":
                out.append(Assign((local,), lower_zones.bind(self.plan.rules, p, name, arg), pure=True))
        return out

    def _bind_payment(self, p: Param, name: str, arg: str) -> list:
        compiler = ExprCompiler(self.plan)
        gems = range(len(self.plan.gems))
        prices = [compiler.expr(p.price, {**self.env, "c": ("const", "colour", gi)}) for gi in gems]
        if self.plan.worth:  # gold + covers vectors: the tokens of each gem spent are its price less the covers
            return self._bind_worth_payment(p, name, arg, prices)
        gold = ir.unpack(f"_g{gi}" for gi in gems)
        targets = (
            (gold, ir.name(f"{name}_GOLD"))
            if self.mentions(p.name, "gold") or self.mentions(p.name, "covers")
            else (gold,)
        )
        out: list = [Assign(targets, ir.sub("PAYMENTS", arg), note=comment("gold spent on each gem"), pure=True)]
        for gi in gems:  # the tokens of each gem spent: its price less the gold paid for it
            out.append(Assign((ir.name(f"{name}_S{gi}"),), ir.minus(prices[gi], f"_g{gi}"), pure=True))
        out.append(Assign((ir.name(f"{name}_GT"),), ir.total(f"_g{gi}" for gi in gems), pure=True))
        if p.wilds is not None:  # the components set aside cover part of the wild tokens placed
            out += wilds.bind_spent(self.plan.rules, p, name)
        if self.mentions(p.name, "spent"):
            out.append(Assign((ir.name(f"{name}_SPENT"),), ir.tuple_(*(f"{name}_S{gi}" for gi in gems)), pure=True))
        return out

    def _bind_worth_payment(self, p: Param, name: str, arg: str, prices: list[ast.expr]) -> list:
        """A payment of a table with a worth: gold per gem, then the gems it covers."""
        gems = range(len(self.plan.gems))
        vec = ir.unpack([f"_g{gi}" for gi in gems] + [f"_c{gi}" for gi in gems])
        out: list = [
            Assign(
                (vec,),
                ir.sub("PAYMENTS", arg),
                note=comment("gold spent on each gem, then the gems it covers"),
                pure=True,
            )
        ]
        for gi in gems:  # the tokens of each gem spent: its price less the gems the gold covers
            out.append(Assign((ir.name(f"{name}_S{gi}"),), ir.minus(prices[gi], f"_c{gi}"), pure=True))
        out.append(Assign((ir.name(f"{name}_GT"),), ir.total(f"_g{gi}" for gi in gems), pure=True))
        if p.wilds is not None:
            out += wilds.bind_spent(self.plan.rules, p, name)
        for attr, local in (("gold", "_g"), ("covers", "_c"), ("spent", f"{name}_S")):
            if self.mentions(p.name, attr):
                out.append(
                    Assign((ir.name(f"{name}_{attr.upper()}"),), ir.tuple_(*(f"{local}{gi}" for gi in gems)), pure=True)
                )
        return out

    def worth_arg(self, p: Param, compiler: ExprCompiler) -> list[ast.expr]:
        """The worth of payment `p` as the last argument of _payments (none in a table without a worth)."""
        if not self.plan.worth:
            return []
        return [compiler.expr(p.worth, self.env) if p.worth is not None else ir.const(1)]

    def apply(self) -> list:
        """def _do_NAME(g, args): the effects, in spec order, each under its text."""
        d = self.d
        kind = "step" if self.dp.is_step else "action"
        body = standard_locals() + self.bind_params(ir.name("args"))
        compiler = ExprCompiler(self.plan)
        compiler.wild_params = {self.param_name(p): p for p in d.params if p.wilds is not None}
        if d.resolve != "all":  # a step resolved whole applies actions all found legal before the first
            compiler.condition_bounds = token_bounds(d.condition, compiler.values)
        for stmt in d.effects:
            body.append(Comment(comment(unparse(stmt))))
            body += compiler.stmt(stmt, self.env)
            compiler.drawn |= {DRAWS[x.name] for x in walk(stmt) if isinstance(x, Effect) and x.name in DRAWS}
        if not d.effects:
            body.append(Pass())
        return [
            Def(
                self.dp.function("_do_"),
                "g, args",
                body,
                docstring(printable(f"Effects of {kind} '{d.name}' ({self.where}).")),
            )
        ]

    def why(self) -> list:
        """def _why_NAME(g, args): the first reason the action is not legal, in words."""
        d = self.d
        body = standard_locals()
        layouts = self.dp.id_layouts
        names = [spec_name("a_", lay.param.name, lay.param.span) for lay in layouts]
        if names:
            body.append(Assign((ir.unpack(names),), ir.name("args"), pure=True))
        body += self._missing_places(layouts, self.plan)
        body += self.bind_params(None, layouts)
        compiler = ExprCompiler(self.plan)
        deferred = self.dp.deferred
        for c in conjuncts(d.condition):
            if deferred is not None and deferred.param.name in free_names(c):
                continue  # a condition on the payment: checked below, over every payment
            body.append(If(compiler.negation(compiler.expr(c, self.env)), [Return(_unmet(c, self.plan, d))]))
        if deferred is not None:
            body.append(
                If(ir.not_(ir.call(self.dp.function("_payopts_"), "g", "args")), [Return(_unpaid(self.plan, d))])
            )
        body.append(Return(ir.const(None)))
        return [Def(self.dp.function("_why_"), "g, args", body)]

    @staticmethod
    def _missing_places(layouts, plan) -> list:
        """Tests of the choices that name a place that may be empty."""
        out: list = []
        for lay in layouts:
            p = lay.param
            arg = spec_name("a_", p.name, p.span)
            if p.domain == "face_up":
                row, slot = ir.sub(arg, 0), ir.sub(arg, 1)
                market_row = ir.sub(ir.dotted("g.market"), row)
                vacant = ir.or_(
                    ir.compare(slot, ">=", ir.call("len", market_row)),
                    ir.compare(ir.sub(market_row, slot), "is", ir.const(None)),
                )
                if p.optional:  # `none` names no place
                    vacant = ir.and_(ir.compare(arg, "is not", ir.const(None)), vacant)
                out.append(
                    If(
                        vacant,
                        [
                            Return(
                                ir.binop(
                                    ir.const("there is no face-up card at %d.%d"),
                                    "%",
                                    ir.tuple_(ir.sub("LEVELS", row), ir.add(slot, 1)),
                                )
                            )
                        ],
                    )
                )
            elif p.domain == "reserved":
                out.append(
                    If(
                        _named(p, arg, ir.compare(arg, ">=", ir.call("len", ir.sub(ir.dotted("g._res"), "me")))),
                        [Return(ir.binop(ir.const("you have no reserved card %d"), "%", ir.add(arg, 1)))],
                    )
                )
            elif p.domain == "noble":
                out.append(
                    If(
                        _named(p, arg, ir.compare(arg, ">=", ir.call("len", ir.dotted("g.noble_row")))),
                        [Return(ir.binop(ir.const("there is no noble %d in the row"), "%", ir.add(arg, 1)))],
                    )
                )
            elif p.domain == "component":
                empty = lower_zones.missing(plan.rules, p, arg)
                if empty is not None:
                    out.append(If(empty[0], [Return(empty[1])]))
        return out

    def payopts(self) -> list:
        """def _payopts_NAME(g, args): the payments (indexes) the rules accept for this purchase."""
        d, deferred = self.d, self.dp.deferred
        assert deferred is not None  # written only for a decision whose payment is deferred
        p = deferred.param
        name = spec_name("p_", p.name, p.span)
        body = standard_locals() + self.bind_params(ir.name("args"), self.dp.id_layouts)
        compiler = ExprCompiler(self.plan)
        prices = [
            compiler.expr(p.price, {**self.env, "c": ("const", "colour", gi)}) for gi in range(len(self.plan.gems))
        ]
        tests = [c for c in conjuncts(d.condition) if p.name in free_names(c)]
        worth = self.worth_arg(p, compiler)
        if not tests and p.wilds is None and not worth and enabled():  # a declined choice pays nothing
            optional = [
                spec_name("p_", lay.param.name, lay.param.span) for lay in self.dp.id_layouts if lay.param.optional
            ]
            body += declined_is_free(prices, optional)
        body.append(Assign((ir.name("_price"),), ir.tuple_(*prices), note=comment(unparse(p.price))))
        payments = ir.call("_payments", "_price", "tok", *worth)
        if p.wilds is not None:  # components set aside stand for wild tokens: see compiler/lower/wilds.py
            body += wilds.set_aside_units(self.plan.rules, p.wilds) + wilds.budget()
            payments = ir.call("_payments", "_price", "_tok", *worth)
        if not tests and p.wilds is None:
            names = ["_i", *(["_c"] if worth else []), "_g", "_s", "_t"]
            body.append(Return(ir.listcomp(ir.name("_i"), ir.tuple_(*names), payments)))
        else:
            covers = [f"{name}_COVERS"] if worth else []
            loop = For(ir.tuple_("_i", f"{name}_GOLD", *covers, f"{name}_SPENT", f"{name}_GT"), payments, [])
            if p.wilds is not None:
                loop.body.append(wilds.nothing_wasted(ir.name(f"{name}_GT")))
            for c in tests:
                loop.body.append(
                    If(compiler.negation(compiler.expr(c, self.env)), [Continue()], note=comment(unparse(c)))
                )
            found = ir.name("found")
            loop.body.append(Append(found, ir.name("_i")))
            body += [Assign((found,), ir.list_()), loop]
            if p.wilds is not None:
                first = self.plan.wild_firsts[p.wilds.source]
                body += wilds.options_tail(first, self.dp.function("_payopts_"))
            else:
                body.append(Return(found))
        doc = docstring(printable(f"Payments accepted for '{d.name}' ({self.where}), as indexes of PAYMENTS."))
        return [Def(self.dp.function("_payopts_"), "g, args", body, doc)]


def _named(p: Param, arg: str, vacant: ast.expr) -> ast.expr:
    """A place that may be empty is tested only when the choice names one (an optional one may be `none`)."""
    return ir.and_(ir.compare(arg, "is not", ir.const(None)), vacant) if p.optional else vacant
