"""One decision's legal-action generator as a statement tree: `_legal_NAME(g, out)`, or the
same code as a block of the action phase's fused function.

Each conjunct of the condition is tested at the outermost loop where every choice it
mentions is bound; a sub-expression that depends on no inner choice is hoisted into a local
of the block where its choices are bound; a gem set's `all(P(c) for c in set)` becomes a
bitmask of the colours that satisfy P, its `size(set) == E` a row of a table; a last choice
of a colour or a level is unrolled into one test per value (see :mod:`compiler.lower`).
"""

from __future__ import annotations

import ast
import itertools
from dataclasses import dataclass
from typing import Any

from ..front.expr import (
    Aggregate,
    Attribute,
    Binary,
    Bool,
    Call,
    Compare,
    Conditional,
    Expr,
    Index,
    Int,
    Logic,
    Name,
    Unary,
    unparse,
    walk,
)
from . import accepted, fold, ir
from . import zones as lower_zones
from .collections import members_where
from .constants import truth
from .expressions import ExprCompiler, conjuncts, free_names
from .layout import LoweringBug
from .optimise import enabled
from .optional import optional_places
from .purchase import PurchaseScan
from .pysource import Code, comment, docstring, printable
from .shapes import flat_face_up_loop, shape_face_up_loops
from .tree import Append, Assign, Comment, Continue, Def, FaceUpLoop, For, If, Node, Return


@dataclass
class Guard:
    """A test of the condition in a block: the block's code runs on only when `test` holds.
    Written `if not test: continue` in a loop, `return` in a function, or (a fused block's
    tests before any choice) as an `if test:` around the rest of the block."""

    test: ast.expr
    note: Code


def cheap(node) -> bool:
    """A test worth repeating per value rather than looping: no aggregate, call or conditional in it."""
    return not any(isinstance(x, (Aggregate, Call, Conditional)) for x in walk(node))


def cheap_over_static(node) -> bool:
    """A test worth writing out per component of a kind: no call or conditional, and aggregates only over
    the colours or the levels (unrolled in turn, each reading its table's values as constants)."""
    return not any(
        isinstance(x, (Call, Conditional))
        or (
            isinstance(x, Aggregate)
            and not (isinstance(x.collection, Name) and x.collection.id in ("gems", "colours", "levels"))
        )
        for x in walk(node)
    )


def position(node, order: list[str]) -> int:
    """The index of the innermost choice `node` mentions (-1 for none)."""
    deps = [order.index(n) for n in free_names(node) if n in order]
    return max(deps, default=-1)


def value_now(node, values: dict, counts: dict):
    """The value of a spec expression known at compile time (integers, named values, the local
    counts in `counts`), else None: how a gem set's size is read off each bitmask."""
    match node:
        case Int(value=v) | Bool(value=v):
            return v
        case Name(id=n):
            return counts.get(n, values.get(n))
        case Unary(op="-", operand=o):
            v = value_now(o, values, counts)
            return None if v is None else -v
        case Binary(op=op, left=left, right=right):
            a, b = value_now(left, values, counts), value_now(right, values, counts)
            if a is None or b is None or (op in ("//", "%") and b == 0):
                return None
            return {
                "+": lambda: a + b,
                "-": lambda: a - b,
                "*": lambda: a * b,
                "//": lambda: a // b,
                "%": lambda: a % b,
            }.get(op, lambda: None)()
        case Call(func=("min" | "max") as func, args=args) if args:
            vs = [value_now(a, values, counts) for a in args]
            return None if None in vs else (min(vs) if func == "min" else max(vs))
        case Conditional(test=t, then=a, otherwise=b):
            test = value_now(t, values, counts)
            return None if test is None else value_now(a if test else b, values, counts)
        case Compare(op=op, left=left, right=right) if op in ("==", "!=", "<", "<=", ">", ">="):
            a, b = value_now(left, values, counts), value_now(right, values, counts)
            if a is None or b is None:
                return None
            return {"==": a == b, "!=": a != b, "<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[op]
        case Logic(op=op, left=left, right=right):
            a, b = value_now(left, values, counts), value_now(right, values, counts)
            return None if a is None or b is None else (a and b) if op == "and" else (a or b)
    return None


class LegalLowering(PurchaseScan):
    """Builds the legal-action code of one decision (see DecisionLowering.legal)."""

    def __init__(self, low, fused: bool):
        self.low, self.plan, self.dp, self.fused = low, low.plan, low.dp, fused
        self.layouts = low.dp.layouts
        self.n = len(self.layouts)
        self.blocks: list[list[Any]] = [[] for _ in range(self.n + 1)]
        self.hoisted: dict[tuple[int, str], str] = {}
        self.counter = itertools.count()
        self.level = 0
        self.emitted: set[int] = set()  # levels whose block is already written out: nothing more goes there
        self.optional = {lay.param.name for lay in self.layouts if lay.param.optional}
        self.compiler = ExprCompiler(self.plan, self.hoist, scalars=True)
        # a component whose attributes the condition reads: its row is unpacked once per component into
        # locals (kc_p_NAME_C1...), as a noble's requirements are bound (nr_NAME); the compiler reads them
        self.compiler.component_rows = {
            low.param_name(lay.param)
            for lay in self.layouts
            if lay.param.domain == "component"
            and not lay.param.optional
            and any(
                low.reads_attribute(lay.param.name, c.name)
                for c in lower_zones.kind_of_param(self.plan.rules, lay.param).columns
            )
        }
        self.placed: list[list[Any]] = [[] for _ in range(self.n + 1)]
        self.masks: dict[int, ast.expr] = {}
        self.mask_tests: dict[int, list[ast.expr]] = {}  # the test of each colour, as compiled for the mask
        self.sizes: dict[int, ast.expr] = {}
        self.size_code: dict[int, ast.expr] = {}
        self.size_text: dict[int, str] = {}
        self.size_node: dict[int, tuple] = {}
        self.preamble: list[Any] = []  # per-call locals the loops need, after the scalars
        self.apart: ast.Name | None = None  # the accepted values of the last choice, worked out before (_last_apart)
        self.apart_values = 0  # how many values, when they are a bitmask too (compiler/lower/accepted.py)

    def hoist(self, node, env):
        if isinstance(node, (Attribute, Index)) and not isinstance(node, Aggregate):
            if not any(isinstance(x, (Aggregate, Call)) for x in walk(node)):
                return None  # cheap enough inline
        if any(isinstance(x, Name) and x.id in env and env[x.id][0] in ("const", "var") for x in walk(node)):
            return None  # depends on a loop variable of an enclosing aggregate
        if any(isinstance(x, Name) and x.id in self.optional for x in walk(node)):
            return None  # may be `none`: evaluating it early could fail where the spec guards it
        level = position(node, self.low.order) + 1
        if level >= self.level or level in self.emitted:
            return None  # (a price is compiled as its loop is written, after the blocks before it)
        key = (level, unparse(node))
        if key not in self.hoisted:
            name = f"h{next(self.counter)}"
            saved, self.compiler.hoist = self.compiler.hoist, None
            self.blocks[level].append(Assign((ir.name(name),), self.compiler.expr(node, env), pure=True))
            self.compiler.hoist = saved
            self.hoisted[key] = name
        return self.hoisted[key]

    # -- the tests, placed before any code is written

    def place(self) -> None:
        for c in conjuncts(self.low.d.condition):
            self.placed[position(c, self.low.order) + 1].append(c)
        for k, lay in enumerate(self.layouts):
            if lay.param.domain == "gem_set":
                self._place_mask(k, lay)
        for k, lay in enumerate(self.layouts):
            if lay.param.domain == "gem_set":
                self._place_size(k, lay)
        unpacked: set[str] = set()
        for level in range(self.n + 1):
            self.level = level
            if level == self.n and self._last_apart():
                continue
            for c in self.placed[level]:
                self._unpack_components(c, level, unpacked)
                self.blocks[level].append(Guard(self.compiler.expr(c, self.low.env), comment(unparse(c))))
        for k, lay in enumerate(self.layouts):  # read by no test, but by a payment's price: once bound
            if self.low.param_name(lay.param) in self.compiler.component_rows - unpacked:
                self._unpack_row(lay.param, k + 1, unpacked)

    def _last_apart(self) -> bool:
        """A last choice of a colour whose tests read no choice before it (`tax` of a reservation:
        `tax != none and me.tokens[tax] >= 1`): its accepted values are the same for every value of
        the choices before, so they are worked out once, where what the tests read is bound, as the
        offsets of their ids (`_ok1`), and each value of the choices before adds those offsets to
        its id (loop-invariant code motion at the level of choices)."""
        k = self.n - 1
        p = self.layouts[k].param if self.n > 1 else None
        tests = self.placed[self.n]
        if p is None or p.domain not in ("gem", "colour") or not tests or not all(map(cheap, tests)):
            return False
        if not enabled():  # (code motion: off with the optimisation passes, compiler/lower/optimise.py)
            return False
        level = max(position(c, self.low.order[:k]) for c in tests) + 1  # where all they read is bound
        if level >= k or self.low.strides()[k:] != [1]:  # (at level k: in the innermost loop, no gain)
            return False
        limit = len(self.plan.gems) if p.domain == "gem" else len(self.plan.colours)
        values: list[int | None] = [*range(limit), *([None] if p.optional else [])]
        name, note = ir.name(f"_ok{k}"), comment(" and ".join(unparse(c) for c in tests))
        bits: list[tuple[int, list[ast.expr]]] = []  # each accepted value's offset, and its tests left
        for offset, value in enumerate(values):
            env = {**self.low.env, p.name: ("const", "colour", value)}
            known = [truth(self.compiler.expr(c, env)) for c in tests]
            if not any(fold.is_const(t, False) for t in known):
                bits.append((offset, fold.drop_true(known)))
        if len(values) <= accepted.MOST_VALUES:  # as a bitmask (see compiler/lower/accepted.py)
            self.low.add_helper(accepted.offsets_table(len(values)))
            self.blocks[level] += accepted.mask_block(k, bits, len(values), note)
            self.apart_values = len(values)
        else:
            self.blocks[level].append(Assign((name,), ir.list_(), note=note))
            for offset, kept in bits:
                add = Append(name, ir.const(offset))
                self.blocks[level].append(If(ir.and_(*kept), [add]) if kept else add)
        self.apart = name
        return True

    def _unpack_components(self, test, level: int, unpacked: set[str]) -> None:
        """Before the first test that reads a chosen component's columns: its row of the kind's
        table unpacked into locals (the columns read; see compiler.component_rows), so that the
        tests before it (`post not in me.markers`) cost no table lookup."""
        for lay in self.layouts:
            p = lay.param
            name = self.low.param_name(p)
            if (
                name not in self.compiler.component_rows
                or name in unpacked
                or not any(isinstance(x, Attribute) and x.obj == Name(p.name, None) for x in walk(test))
            ):
                continue
            self._unpack_row(p, level, unpacked)

    def _unpack_row(self, p: Any, level: int, unpacked: set[str]) -> None:
        """A chosen component's row of its kind's table unpacked into locals (the columns read) in
        block `level`."""
        name = self.low.param_name(p)
        kind = lower_zones.kind_of_param(self.plan.rules, p)
        targets = [
            lower_zones.column_local(name, i) if self.low.reads_attribute(p.name, c.name) else "_"
            for i, c in enumerate(kind.columns)
        ]
        self.blocks[level].append(Assign((ir.target(*targets),), lower_zones.row(self.plan.rules, p, name), pure=True))
        unpacked.add(name)

    def _place_mask(self, k: int, lay) -> None:
        """gem_set masks: all(P(v) for v in set) tested per colour, once, before the loop."""
        for c in list(self.placed[k + 1]):
            if not (
                isinstance(c, Aggregate)
                and c.func == "all"
                and isinstance(c.collection, Name)
                and c.collection.id == lay.param.name
                and position(c.body, self.low.order) < k
            ):
                continue
            parts = []
            self.level = k
            for gi in range(len(self.plan.gems)):
                body, truth = self._colour_test(c.body, {**self.low.env, c.var: ("const", "colour", gi)})
                self.mask_tests.setdefault(k, []).append(body)
                parts.append(ir.ifexp(truth, ir.const(1 << gi), ir.const(0)))
            self.blocks[k].append(
                Assign((ir.name(f"mask_{k}"),), ir.total(parts, "|"), note=comment(unparse(c)), pure=True)
            )
            self.masks[k] = ir.name(f"mask_{k}")
            self.placed[k + 1].remove(c)

    def _colour_test(self, node, env) -> tuple[ast.expr, ast.expr]:
        """A colour's test as compiled, and as read for its truth only: a count at least 1 is the
        count itself (supply, tokens and bonuses are never negative)."""
        match node:
            case Compare(op=(">=" | ">") as op, left=left, right=Int(value=bound)) if (op, bound) in (
                (">=", 1),
                (">", 0),
            ):
                code = self.compiler.expr(left, env)
                test = ir.compare(code, op, bound)
                scalar = isinstance(code, ast.Name) and code.id in self.compiler.scalar_names
                return test, code if scalar else test
        code = self.compiler.expr(node, env)
        return code, code

    def _place_size(self, k: int, lay) -> None:
        """gem_set sizes: size(set) == E, E fixed before the loop, picks the subsets of that size only."""
        for c in list(self.placed[k + 1]):
            if not (isinstance(c, Compare) and c.op == "=="):
                continue
            for this, other in ((c.left, c.right), (c.right, c.left)):
                if (
                    isinstance(this, Call)
                    and this.func == "size"
                    and this.args == (Name(lay.param.name, None),)
                    and position(other, self.low.order) < k
                ):
                    self.level = k
                    other, env, counts = self.low.count_from_mask(other, self.compiler, self.mask_tests.get(k), k)
                    self.size_code[k] = self.compiler.expr(other, env)
                    self.size_node[k] = (other, counts)
                    self.size_text[k] = unparse(c)
                    self.blocks[k].append(
                        Assign((ir.name(f"size_{k}"),), self.size_code[k], note=comment(unparse(c)), pure=True)
                    )
                    self.sizes[k] = ir.name(f"size_{k}")
                    self.placed[k + 1].remove(c)
                    return

    def size_by_mask(self, k: int) -> list[int] | None:
        """The size a gem set must have for each bitmask, when it follows from the mask alone."""
        if k not in self.sizes or k not in self.masks:
            return None
        other, counts = self.size_node[k]
        if counts is None:
            return None
        sizes = []
        for mask in range(1 << len(self.plan.gems)):
            value = value_now(other, self.compiler.values, {counts: bin(mask).count("1")})
            if not isinstance(value, int):
                return None
            sizes.append(value)
        return sizes

    # -- the code

    def emit(self, level: int, into: list, in_loop: bool) -> list:
        """Write out a block's statements into `into`; returns where the code goes on (inside the
        `if`s of a fused block's first tests)."""
        self.emitted.add(level)
        for node in self.blocks[level]:
            if not isinstance(node, Guard):
                into.append(node)
            elif in_loop:
                into.append(If(self.compiler.negation(node.test), [Continue()], note=node.note))
            elif self.fused:  # one pass, no loop: the rest of the block under the test
                nested = If(node.test, [], note=node.note)
                into.append(nested)
                into = nested.body
            else:
                into.append(If(self.compiler.negation(node.test), [Return()], note=node.note))
        return into

    def build(self) -> list[Node]:
        """The statements: a Def, or the block's statements when fused."""
        self.place()
        body: list[Node] = []
        into = self.emit(0, body, False)
        terms: list[ast.expr] = [ir.const(self.dp.base)]
        strides = self.low.strides()
        for k, lay in enumerate(self.layouts):
            stride = strides[k] if k < len(strides) else 0  # 0: a deferred payment, not in the id
            step = self._choice(k, lay, stride, into, terms)
            if step is None:
                return self._finish(body)
            into, terms = step
        into.append(Append(ir.name("out"), ir.total(terms)))
        return self._finish(body)

    def _finish(self, body: list[Node]) -> list[Node]:
        self.low.used_scalars = set(self.compiler.used_scalars)
        self.low.preamble = list(self.preamble)
        body = shape_face_up_loops(body, self.plan, self._flat)
        if self.fused:
            return body
        d = self.low.d
        kind = "step" if self.dp.is_step else "action"
        doc = docstring(printable(f"Legal actions of {kind} '{d.name}' ({self.low.where}): {self.dp.id_range()}."))
        head = self.low.standard_locals() + self.low.scalar_preamble(self.compiler.used_scalars) + self.preamble
        return [Def(self.dp.function("_legal_"), "g, out", head + body, doc)]

    def _flat(self, loop: FaceUpLoop, after: set[str]) -> list[Node] | None:
        """A face-up loop of this decision in its flat shape, if it has one; then the effects keep
        Game.face_up_costs in step with the market."""
        shaped = flat_face_up_loop(loop, self.plan, after)
        self.plan.face_up_costs |= shaped is not None
        return shaped

    def _choice(self, k: int, lay, stride: int, into: list, terms: list[ast.expr]):
        """Write choice k: returns (where the code goes on, the id terms), or None when the
        choice wrote the rest of the function itself."""
        p, last = lay.param, k == self.n - 1
        if last and self.apart is not None:  # its accepted values worked out before (see _last_apart)
            into.append(
                Append(ir.name("out"), ir.call("map", ir.attr(ir.total(terms), "__add__"), self.apart), many=True)
            )
            return None
        if (
            p.domain in ("gem", "colour", "deck")
            and last
            and not p.optional
            and all(map(self._cheap, self.placed[k + 1]))
        ):
            self._unrolled_last(k, lay, stride, into, terms)
            return None
        if (
            p.domain == "component"
            and last
            and not p.optional
            and lower_zones.unrollable(self.plan.rules, p)
            and all(cheap_over_static(c) for c in self.placed[k + 1])
        ):
            self._unrolled_last(k, lay, stride, into, terms)
            return None
        if (
            p.domain == "gem_set"
            and last
            and not self.blocks[k + 1]
            and not p.optional
            and ir.same(terms, [ir.const(self.dp.base)])
            and stride == 1
        ):
            self._subset_ids(k, lay, into)
            return None
        if p.domain == "payment":
            self._payment(k, p, into, terms)
            return None
        if p.domain == "face_up" and p.optional:
            loop, idx = self._optional_face_up(p, into)
            return self.emit(k + 1, loop.body, True), terms + [ir.mul(idx, stride) if stride != 1 else ir.name(idx)]
        if p.domain == "face_up":
            face_up = self._face_up(p, stride, terms)
            shortcut = None
            if self.apart_values and k + 2 == self.n and not self.blocks[k + 1]:  # ids by the accepted values
                shortcut = accepted.full_market(self.low, k, self.apart_values, terms, stride, face_up)
            into.append(shortcut or face_up)
            return self.emit(k + 1, face_up.body, True), [ir.name(f"{face_up.name}_ID")]
        loop, idx = self._loop(k, lay, into)
        into.append(loop)
        return self.emit(k + 1, loop.body, True), terms + [ir.mul(idx, stride) if stride != 1 else ir.name(idx)]

    def _cheap(self, test: Expr) -> bool:
        """`cheap`, or its only aggregates are `all`/`any` over cards or nobles that the engine asks
        of a set (collections.members_where): worth repeating per value too."""
        if cheap(test):
            return True
        if any(isinstance(x, (Call, Conditional)) for x in walk(test)):
            return False
        env = self.low.env
        return all(
            members_where(self.compiler, x.func, x.body, x.var, self.compiler.element_kind(x.collection, env), env)
            is not None
            for x in walk(test)
            if isinstance(x, Aggregate)
        )

    def _unrolled_last(self, k: int, lay, stride: int, into: list, terms: list[ast.expr]) -> None:
        """The last choice is a colour (or a level, or a component of a small kind) and its tests are
        plain comparisons: one test per value, unrolled, so each reads its own scalar local (s0, t0...)
        without a loop, and a component's columns as the constants they are."""
        p, plan = lay.param, self.plan
        values = (
            list(plan.levels)
            if p.domain == "deck"
            else list(range(len(plan.gems) if p.domain == "gem" else len(plan.colours)))
        )
        labels = [f"level {lv}" for lv in plan.levels] if p.domain == "deck" else plan.colours
        kind = "int" if p.domain == "deck" else "colour"
        if p.domain == "component":  # a component of a kind: each by its id, its columns known now
            values = list(range(p.slots))
            labels = [f"{p.source} {v + 1}" for v in values]
            kind = lower_zones.COMPONENT + p.source
        saved, self.compiler.hoist = self.compiler.hoist, None
        if self.placed[k + 1]:
            spec_text = " and ".join(unparse(c) for c in self.placed[k + 1])
            into.append(Comment(comment(f"{spec_text}, for each {p.name}")))
        for v, value in enumerate(values):
            env = {**self.low.env, p.name: ("const", kind, value)}
            tests = fold.drop_true(self.compiler.expr(c, env) for c in self.placed[k + 1])
            ident = fold.sum_terms(terms + [ir.const(v * stride)])
            if tests:
                into.append(If(ir.and_(*tests), [Append(ir.name("out"), ident)], note=comment(labels[v])))
            else:
                into.append(Append(ir.name("out"), ident))
        self.compiler.hoist = saved

    def _subset_ids(self, k: int, lay, into: list) -> None:
        """Nothing more to test: the legal ids are a row of a table, added in one call."""
        plan, low = self.plan, self.low
        table = f"SUBSET_IDS_{self.dp.index}_{k}"
        mask = self.masks.get(k, ir.const((1 << len(plan.gems)) - 1))
        by_mask = self.size_by_mask(k)
        out = ir.name("out")
        if by_mask is not None:  # the size follows from the mask: one row of ids per mask
            low.add_helper(low.subset_table(table, lay, by_size=False, base=self.dp.base, sizes=by_mask))
            into.append(Append(out, ir.sub(table, mask), many=True, note=comment(self.size_text[k])))
            return
        low.add_helper(low.subset_table(table, lay, by_size=k in self.sizes, base=self.dp.base))
        if k in self.sizes:
            into.append(
                If(
                    ir.chain(ir.const(0), ("<=", self.sizes[k]), ("<=", ir.const(len(plan.gems)))),
                    [Append(out, ir.sub(ir.sub(table, mask), self.sizes[k]), many=True)],
                )
            )
        else:
            into.append(Append(out, ir.sub(table, mask), many=True))

    def _face_up(self, p, stride: int, terms: list[ast.expr]) -> FaceUpLoop:
        """The id of slot si of row li is (li * slots + si) * stride plus the ids of the choices
        before: all but si are fixed for a row, so added once per row, the slot's counted up."""
        name = self.low.param_name(p)
        first = fold.sum_terms(terms, -stride)
        return FaceUpLoop(name, None if fold.is_const(first, 0) else first, stride, self.plan.max_face_up * stride, [])

    def _optional_face_up(self, p, into: list) -> tuple[For, str]:
        """An optional face-up card: every occupied slot by its place (row * slots + slot, as the ids
        of a face-up choice count them), then `none` (the last id), each with its cost unpacked
        (cc_NAME_G0...) where there is a card; the tests that read it are guarded (`card != none`)."""
        name, idx = self.low.param_name(p), f"i_{p.name}"
        slots, rows = self.plan.max_face_up, len(self.plan.levels)
        cells = ast.ListComp(
            elt=ir.tuple_(ir.add(ir.mul("_li", slots), "_si"), "_si", "_li", "_c"),
            generators=[
                ir.comprehension(ir.tuple_("_li", "_row"), ir.call("enumerate", ir.dotted("g.market"))),
                ir.comprehension(
                    ir.tuple_("_si", "_c"), ir.call("enumerate", "_row"), ir.compare("_c", "is not", ir.const(None))
                ),
            ],
        )
        none = ir.list_(ir.tuple_(ir.const(rows * slots), ir.const(-1), ir.const(-1), ir.const(None)))
        # listed once a call (the market does not change while the legal actions are found), not once
        # for each value of the choices before it
        self.preamble.append(Assign((ir.name(f"{name}_CELLS"),), ir.add(cells, none), pure=True))
        cost = If(ir.compare(name, "is not", ir.const(None)), self.low.cost_bindings(name))
        target = ir.tuple_(idx, f"{name}_SI", f"{name}_LI", name)
        loop = For(target, ir.name(f"{name}_CELLS"), [cost])
        into.append(loop)
        return loop, idx

    def _loop(self, k: int, lay, into: list) -> tuple[For, str]:
        """The loop over choice k's values, and the name of its index."""
        p, plan, low = lay.param, self.plan, self.low
        name, idx = low.param_name(p), f"i_{k}"
        if p.domain in ("gem", "colour"):
            limit = len(plan.gems) if p.domain == "gem" else len(plan.colours)
            if not p.optional:
                return For(ir.name(name), ir.call("range", limit), []), name
            table = f"_WITH_NONE_{limit}"
            low.add_helper(Assign((ir.name(table),), ir.const(tuple(range(limit)) + (None,))))
            return For(ir.tuple_(idx, name), ir.call("enumerate", table), []), idx
        if p.domain == "gem_set":
            table = f"SUBSETS_{self.dp.index}_{k}"
            low.add_helper(low.subset_table(table, lay, by_size=k in self.sizes))
            mask = self.masks.get(k, ir.const((1 << len(plan.gems)) - 1))
            if p.optional:
                raise LoweringBug("an optional gem_set is not supported", p.span)
            target = ir.tuple_(idx, name)
            if k in self.sizes:
                within = ir.chain(ir.const(0), ("<=", self.sizes[k]), ("<=", ir.const(len(plan.gems))))
                return For(target, ir.ifexp(within, ir.sub(ir.sub(table, mask), self.sizes[k]), ir.tuple_()), []), idx
            return For(target, ir.sub(table, mask), []), idx
        if p.domain == "deck":
            levels = ir.add("LEVELS", ir.tuple_(ir.const(None))) if p.optional else ir.name("LEVELS")
            return For(ir.tuple_(idx, name), ir.call("enumerate", levels), []), idx
        if p.optional:  # a component, reserved card or noble: its places, then `none` (the last id)
            return optional_places(self.low, p, name, idx)
        # reserved cards and nobles: positions counted by hand, cheaper than enumerate
        into.append(Assign((ir.name(idx),), ir.const(-1)))
        body: list = [Assign((ir.name(idx),), ir.const(1), "+=")]
        if p.domain == "component":  # a zone's positions (compiler/lower/zones.py)
            source, gaps = lower_zones.legal_source(plan.rules, p)
            if gaps:
                body.append(If(ir.compare(name, "is", ir.const(None)), [Continue()]))
            return For(ir.name(name), source, body), idx
        if p.domain == "reserved":
            if low.reads_attribute(p.name, "cost"):
                body += low.cost_bindings(name)
            return For(ir.name(name), ir.sub(ir.dotted("g._res"), "me"), body), idx
        if low.reads_attribute(p.name, "requires"):
            body.append(Assign((ir.name(f"nr_{name}"),), ir.sub("NOBLE_REQUIRES", name), pure=True))
        return For(ir.name(name), ir.dotted("g.noble_row"), body), idx
