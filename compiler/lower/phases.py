"""The action phase's fused legal function, the end-of-turn steps and end triggers, and the ranking."""

from __future__ import annotations

import ast

from ..check.termination import rounds_budget
from ..front.expr import Aggregate, Attribute, Compare, Index, Name, unparse
from ..language import ColumnType
from . import fold, ir
from .decisions import DecisionLowering, decision_env, scalar_preamble, standard_locals
from .expressions import ExprCompiler, conjuncts, free_names
from .layout import DecisionPlan, EnginePlan, where
from .pysource import Code, comment, docstring, printable
from .queue import drain_before, queue_runner, resume_queue
from .tokens import rule_error
from .tree import Assign, Break, Comment, Def, Do, For, If, Node, Raise, Return, While
from .zones import kind_name


def lower_action_phase(plan: EnginePlan) -> list:
    """def _action_phase_legal(g, out): every action's legal ids, in one call with shared locals.

    The action phase asks every action for its legal ids at each turn; one function that
    runs each action's block in turn saves a call and the reading of the same locals per
    action. Each block is the code of `_legal_NAME`, its tests before the first choice
    written as `if`s around the rest (see :meth:`.legal.LegalLowering.emit`); a block whose
    first test is the one the block before ended in goes inside that block's `if`.
    """
    body: list = []
    used: set[str] = set()
    preamble: list = []  # per-call locals of the blocks (they read scalars only), each once
    guard = None  # the last block when that block is one `if` (else None)
    for dp in plan.decisions:
        if dp.is_step or dp.decision.only_when_stuck:
            continue
        low = DecisionLowering(plan, dp)
        block = low.legal(fused=True)
        used |= low.used_scalars
        preamble += [node for node in low.preamble if node not in preamble]
        heading = Comment(comment(f"{dp.decision.name} ({low.where}): {dp.id_range()}"))
        single = len(block) == 1 and isinstance(block[0], If) and not block[0].orelse
        if single and guard is not None and ir.same(block[0].test, guard.test) and block[0].note == guard.note:
            # The block before tested the same thing first: its `if` holds this block too
            # (legal code only appends ids, so the test still means the same; ids stay in order).
            guard.body += [heading, *block[0].body]
            continue
        body += [heading, *block]
        guard = block[0] if single else None
    head = standard_locals() + scalar_preamble(plan, used) + preamble
    doc = Code('"""Legal ids of every action of the action phase (the one taken when stuck excepted)."""')
    return [Def("_action_phase_legal", "g, out", head + body, doc)]


def lower_end_of_turn(plan: EnginePlan) -> Def:
    """def _end_of_turn(g, step, count): the end-of-turn steps from `step`, then the end triggers.

    The hook Game.apply calls after every action (compiler/emit/runtime/spec.py): each step,
    in spec order, runs while its loop test holds (its while-condition, `not count` for a step
    taken once, its `max`, and a cheap test its legal actions imply: _step_prefilter); a step
    with one legal action takes it, one with several asks the player (True: apply returns, to
    resume here with `step` and `count` saved in the game). Then the end triggers
    (:func:`lower_end_triggers`). The locals the tests read are bound once per call. The
    emitter inlines this body into Game.apply (compiler/emit/inline.py), as a call per turn
    costs the official engine about 0.7 % of its instructions per decision.
    """
    steps = [dp for dp in plan.decisions if dp.is_step]
    body: list = []
    step, count = ir.name("step"), ir.name("count")
    every_turn = [i for i, dp in enumerate(steps) if dp.decision.given is None]  # a queued step runs when queued
    queued = [i for i, dp in enumerate(steps) if i not in every_turn]
    body += resume_queue(queued)  # a queued step that asked the player resumes first
    first = every_turn[0] if every_turn else len(steps)
    if first:  # queued steps come first: the turn's steps begin at the first that runs every turn
        body.append(If(ir.compare(step, "<", first), [Assign((step,), ir.const(first))]))
    for k, i in enumerate(every_turn):
        dp = steps[i]
        after = every_turn[k + 1] if k + 1 < len(every_turn) else len(steps)
        loop = While(_loop_test(plan, dp), _step_round(dp, i))
        body.append(
            If(
                ir.compare(step, "==", i),
                [*drain_before(i, queued), loop, Assign((ir.tuple_(step, count),), ir.tuple_(after, 0))],
                note=comment(dp.decision.name),
            )
        )
    body += drain_before(len(steps), queued, last=True)
    body += lower_end_triggers(plan)
    body.append(Return(ir.const(False)))
    head = standard_locals()  # the ones nothing reads are dropped by tree.tidy
    doc = docstring(printable("The end-of-turn steps from `step`, then the end triggers; True: apply returns now."))
    return Def("_end_of_turn", "g, step, count", head + body, doc)


def lower_queue_runner(plan: EnginePlan) -> list[Def]:
    """def _run_queue(g, count): the queued steps (compiler/lower/queue.py); none without them."""
    steps = [dp for dp in plan.decisions if dp.is_step]
    runs = {
        i: (_loop_test(plan, dp), _step_round(dp, i)) for i, dp in enumerate(steps) if dp.decision.given is not None
    }
    return [queue_runner(plan.rules, runs, standard_locals())] if runs else []


def _loop_test(plan: EnginePlan, dp: DecisionPlan) -> ast.expr:
    """The test of a step's loop: every part that must hold for one more round of the step."""
    env = decision_env(plan, dp)
    count = ir.name("count")
    parts: list[ast.expr] = [ir.not_(count)] if dp.decision.repeat == "once" else []
    if dp.decision.while_ is not None:
        dp.while_inline = ExprCompiler(plan).expr(dp.decision.while_, env)
        parts.append(dp.while_inline)
    if dp.decision.max_ is not None:
        dp.max_inline = ExprCompiler(plan).expr(dp.decision.max_, env)
        parts.append(ir.compare(count, "<", dp.max_inline))
    dp.prefilter = _step_prefilter(plan, dp)
    if dp.prefilter is not None:
        parts.append(dp.prefilter)
    return fold.conjunction(parts)


def step_budget_error(dp: DecisionPlan) -> ast.expr | None:
    """The RuleError of a step stopped by the engines' step budget, or None for a step that
    needs none: one that runs at most once, or at most its `max` (compiler/check/termination.py:
    `check` proves that the others end; the budget stops a proof's mistake, never a hang)."""
    decision = dp.decision
    if decision.repeat != "while" or decision.resolve != "choice" or decision.max_ is not None:
        return None
    return rule_error("step_budget", None, step=ir.const(decision.name), count=ir.const(rounds_budget(dp.count)))


def _step_round(dp: DecisionPlan, position: int) -> list:
    """One round of a step's loop: its legal actions; none ends the step, one is taken, several ask
    the player (or, for a step that resolves all, every one is taken, later positions first)."""
    legal, apply = ir.name(dp.function("_legal_")), ir.name(dp.function("_do_"))
    g, out_, count = ir.name("g"), ir.name("out"), ir.name("count")
    out: list = []
    budget = step_budget_error(dp)
    if budget is not None:
        out.append(
            If(
                ir.compare(count, ">=", rounds_budget(dp.count)),
                [Raise(budget)],
                note=comment("the engines' step budget (see compiler/check/termination.py)"),
            )
        )
    out += [Assign((out_,), ir.list_()), Do(ir.call(legal, g, out_)), If(ir.not_(out_), [Break()])]
    if dp.decision.resolve == "all":
        a = ir.name("a")
        taken = ir.call("sorted", out_, reverse=ir.const(True))
        return out + [
            For(
                a,
                taken,
                [Do(ir.call(apply, g, ir.sub(ir.sub("ACTIONS", a), 1)))],
                note=comment("later positions first, so earlier ones stay valid"),
            ),
            Break(),
        ]
    saved = ir.tuple_(*(ir.attr(g, f) for f in ("step", "step_count", "mode", "_legal")))
    ask = [
        Do(ir.method(out_, "sort")),
        Assign((saved,), ir.tuple_(position, count, dp.index, out_)),
        Return(ir.const(True)),
    ]
    if dp.deferred is not None:
        return out + [If(ir.compare(ir.call("len", out_), ">", 1), ask), *_step_payment(dp, position)]
    return out + [
        If(ir.compare(ir.call("len", out_), ">", 1), ask),
        Do(ir.call(apply, g, ir.sub(ir.sub("ACTIONS", ir.sub(out_, 0)), 1))),
        Assign((count,), ir.const(1), "+="),
    ]


def _step_payment(dp: DecisionPlan, position: int) -> list[Node]:
    """The one legal action of a step whose payment is asked apart: the payments its rules accept;
    one is paid at once, several (or a component to set aside as wild tokens, which is never paid
    unasked) ask the player in the payment phase, as after an action, and the step resumes after
    it (Game.apply: the pending purchase's decision is the step's, so its mode comes back)."""
    g, out_, count = ir.name("g"), ir.name("out"), ir.name("count")
    action, args, accepted = ir.name("_a"), ir.name("_args"), ir.name("_paid")
    saved = ir.tuple_(*(ir.attr(g, f) for f in ("pending", "step", "step_count", "mode", "_legal")))
    options = ir.listcomp(ir.add("_PAY_BASE", "_i"), ir.name("_i"), accepted)
    asks = ir.or_(
        ir.compare(ir.call("len", accepted), ">", 1),
        ir.compare(ir.sub(accepted, 0), ">=", ir.call("len", "PAYMENTS")),
    )
    return [
        Assign((action,), ir.sub(out_, 0)),
        Assign((args,), ir.sub(ir.sub("ACTIONS", action), 1)),
        Assign((accepted,), ir.call(dp.function("_payopts_"), g, args)),
        If(asks, [Assign((saved,), ir.tuple_(action, position, count, "_PAY", options)), Return(ir.const(True))]),
        Do(ir.call(dp.function("_do_"), g, ir.add(args, ir.tuple_(ir.sub(accepted, 0))))),
        Assign((count,), ir.const(1), "+="),
    ]


def _step_prefilter(plan: EnginePlan, dp: DecisionPlan) -> ast.expr | None:
    """A test that every legal action of a step implies, cheap enough to run before asking for them.

    A step runs at every end of turn, and most turns it has nothing to offer: a noble
    visit needs bonuses no one has early in the game. When a conjunct of the step's
    condition is ``all(A(c) >= X.requires[c] for c in gems)`` (or ``X.cost``, or a
    table by gem colour of a component of a spec's own kind) for a chosen noble (or card,
    or component) X and an A that does not depend on the choices, a legal
    action implies sum(A(c) for c in gems) >= the smallest total of that table over
    every noble (card). And the conjuncts at the head of the condition that read no choice
    (see _leading_unchosen). Returns those tests joined, or None when there is none worth making.
    """
    chosen = {lay.param.name: lay.param.domain for lay in dp.layouts}
    tests = _leading_unchosen(plan, dp, chosen)
    requirement = _requirement_prefilter(plan, dp, chosen)
    if requirement is not None:
        tests.append(requirement)
    return ir.and_(*tests) if tests else None


def _leading_unchosen(plan: EnginePlan, dp: DecisionPlan, chosen: dict) -> list[ast.expr]:
    """The conjuncts at the head of a step's condition that read no choice (`bought`, `paired != none`,
    a definition of the acting player), joined: a turn on which one fails has no legal action, and
    apply then skips the step without asking for its actions. Only the head: a later conjunct may rely
    on a choice tested before it."""
    head = []
    for c in conjuncts(dp.decision.condition):
        if free_names(c) & set(chosen):
            break
        head.append(c)
    compiler = ExprCompiler(plan)
    return [compiler.expr(c, decision_env(plan, dp)) for c in head]


def _requirement_prefilter(plan: EnginePlan, dp: DecisionPlan, chosen: dict) -> ast.expr | None:
    """For a conjunct `all(A(c) >= X.requires[c] for c in gems)` of a chosen noble (or card) X: the
    total test described in _step_prefilter, or None."""
    for c in conjuncts(dp.decision.condition):
        if not (
            isinstance(c, Aggregate)
            and c.func == "all"
            and c.collection == Name("gems", None)
            and isinstance(c.body, Compare)
            and c.body.op in (">=", "<=")
        ):
            continue
        have, need = (c.body.left, c.body.right) if c.body.op == ">=" else (c.body.right, c.body.left)
        match need:
            case Index(obj=Attribute(obj=Name(id=x), name=attr), index=Name(id=v)) if v == c.var and x in chosen:
                pass
            case _:
                continue
        table = {
            ("noble", "requires"): [n.requires for n in plan.rules.nobles],
            **{(domain, "cost"): [k.cost for k in plan.rules.cards] for domain in ("face_up", "reserved")},
        }.get((chosen[x], attr))
        if chosen[x] == "component":  # a component of a kind of the spec's own: its table by gem colour
            table = _gems_column(plan, dp, x, attr)
        if not table or free_names(have) & (set(chosen) | {"gems"}):
            continue
        least = min(sum(row) for row in table)
        if least <= 0:
            continue
        total = Aggregate("sum", have, c.var, c.collection, c.span)
        return ir.compare(ExprCompiler(plan).expr(total, decision_env(plan, dp)), ">=", least)
    return None


def _gems_column(plan: EnginePlan, dp: DecisionPlan, choice: str, attr: str) -> list | None:
    """The values of column `attr` (a table by gem colour) of every component a `component` choice may
    take (every component of its kind: a bound for any zone of it), or None."""
    param = next(lay.param for lay in dp.layouts if lay.param.name == choice)
    kind = next(k for k in plan.rules.kinds if k.name == kind_name(plan.rules, param.source))
    index = next((i for i, c in enumerate(kind.columns) if c.name == attr and c.type is ColumnType.GEMS), None)
    return [c.values[index] for c in kind.components] if index is not None else None


def lower_end_triggers(plan: EnginePlan) -> list:
    """The end triggers as statements of _end_of_turn, after the steps: the first that holds acts.

    A trigger that finishes immediately ends the game here; one that completes the round
    records where the game will end (the last seat), unless an earlier trigger already did.
    """
    compiler = ExprCompiler(plan)
    chain: list = []
    into = chain
    for i, t in enumerate(plan.rules.end):
        test = compiler.expr(t.when, {})
        if t.finish == "immediately":
            body = [
                Assign(
                    (ir.tuple_(ir.dotted("g.step"), ir.dotted("g.step_count")),),
                    ir.tuple_("_N_STEPS", 0),
                    note=comment("every step done"),
                ),
                Do(ir.method("g", "_finish", ir.const(t.name))),
                Return(ir.const(True)),
            ]
        else:
            ending = ir.dotted("g.ending")
            body = [
                If(
                    ir.compare(ending, "is", ir.const(None)),
                    [
                        Assign(
                            (ending,), ir.tuple_(ir.const(t.name), ir.const(t.finish), ir.minus(ir.dotted("g._n"), 1))
                        )
                    ],
                )
            ]
        node = If(test, body, note=comment(f"{t.name}: {unparse(t.when)} ({where(t.span)})"), chained=i > 0)
        into.append(node)
        into = node.orelse
    return chain


def lower_ranking(plan: EnginePlan) -> list:
    """def _eligible(g, p) and def _rank_key(g, p): who may win, and the ranking chain."""
    w = plan.rules.winners
    compiler = ExprCompiler(plan)
    env = {"player": ("var", "player", "p")}
    eligible = Def(
        "_eligible",
        "g, p",
        standard_locals(ir.name("p"))[:2] + [Return(compiler.expr(w.eligible, env), note=comment(unparse(w.eligible)))],
    )
    body = standard_locals(ir.name("p"))[:2]
    keys = []
    for level in w.ranking:
        key = compiler.expr(level.by, env)
        keys.append(key if level.prefer == "highest" else ir.neg(key))
        body.append(Comment(comment(f"{level.name}: {level.prefer} {unparse(level.by)} ({where(level.span)})")))
    body.append(Return(ir.tuple_(*keys)))
    return [eligible, Def("_rank_key", "g, p", body, Code('"""Larger is better; levels in spec order."""'))]


def _n(i) -> ast.Name:
    return ir.name(f"n{i}")


def gold_loops(gems: int, leaf: list) -> list:
    """The loops of _payments over the gold spent on each gem (`v`, a tuple), `leaf` inside: each
    gem gets what the tokens cannot cover (n_i) and up to the rest of its price, while the
    gold left (r) lasts. Unrolled over the gem colours."""
    inner: list = [Assign((ir.name("v"),), ir.tuple_(*(ir.add(_n(i), f"e{i}") for i in range(gems)))), *leaf]
    for i in reversed(range(gems)):
        prev = ir.name("r" if i == 0 else f"r{i - 1}")
        room = ir.minus(f"p{i}", _n(i))
        most = ir.ifexp(ir.compare(room, "<", prev), room, prev)
        inner = [
            For(
                ir.name(f"e{i}"),
                ir.call("range", ir.add(most, 1)),
                [Assign((ir.name(f"r{i}"),), ir.minus(prev, f"e{i}")), *inner],
            )
        ]
    return inner


def shortfall(i: int) -> ast.expr:
    """What the tokens held cannot pay of gem i's price: `p_i - tok[i] if p_i > tok[i] else 0`."""
    held = ir.sub("tok", i)
    return ir.ifexp(ir.compare(f"p{i}", ">", held), ir.minus(f"p{i}", held), ir.const(0))


def payments_helper(gems: int) -> Def:
    """def _payments(price, tok): every payment of `price` by the holder of `tok`, as nested loops.

    A payment spends gold g[i] for gem i: at least what tokens cannot cover, at most the
    price, and no more gold than held. Loops are unrolled over the gem colours.
    """
    gold, short, out = ir.name("gold"), ir.name("short"), ir.name("out")
    body: list = [
        Assign((gold,), ir.sub("tok", gems)),
        Assign((ir.unpack(f"p{i}" for i in range(gems)),), ir.name("price")),
    ]
    body += [Assign((_n(i),), shortfall(i)) for i in range(gems)]
    body += [
        Assign((short,), ir.total(_n(i) for i in range(gems))),
        If(ir.compare(short, ">", gold), [Return(ir.tuple_())]),
        Assign((out,), ir.list_()),
        Assign((ir.name("r"),), ir.minus(gold, short)),
    ]
    v = ir.name("v")
    spent = ir.tuple_(*(ir.minus(f"p{i}", ir.sub(v, i)) for i in range(gems)))
    entry = ir.tuple_(ir.sub("_PAYMENT_INDEX", v), v, spent, ir.minus(gold, f"r{gems - 1}"))
    body += gold_loops(gems, [Do(ir.method(out, "append", entry))])
    body += [Do(ir.method(out, "sort")), Return(out)]
    doc = Code('"""(index, gold, spent, gold total) of every payment of `price` the holder of `tok` can make."""')
    return Def("_payments", "price, tok", body, doc)
