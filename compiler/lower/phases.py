"""The action phase's fused legal function, the end-of-turn steps and end triggers, and the ranking."""
from __future__ import annotations

from ..check.termination import rounds_budget
from ..front.expr import Aggregate, Attribute, Compare, Index, Name, unparse
from ..language import ColumnType
from .decisions import DecisionLowering, param_env, scalar_preamble, standard_locals
from .expressions import ExprCompiler, conjuncts, free_names
from .layout import DecisionPlan, EnginePlan, unpacking, where
from .pysource import Code, comment, docstring, literal, printable
from .tree import Assign, Break, Comment, Def, Do, For, If, Raise, Return, While
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
        heading = Comment(comment(f'{dp.decision.name} ({low.where}): {dp.id_range()}'))
        single = len(block) == 1 and isinstance(block[0], If) and not block[0].orelse
        if single and guard is not None and (block[0].test, block[0].note) == (guard.test, guard.note):
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
    for i, dp in enumerate(steps):
        loop = While(_loop_test(plan, dp), _step_round(dp, i))
        body.append(If(f"step == {i}", [loop, Assign(("step, count",), f"{i + 1}, 0")],
                       note=comment(dp.decision.name)))
    body += lower_end_triggers(plan)
    body.append(Return("False"))
    head = standard_locals()  # the ones nothing reads are dropped by tree.tidy
    doc = docstring(printable("The end-of-turn steps from `step`, then the end triggers; True: apply returns now."))
    return Def("_end_of_turn", "g, step, count", head + body, doc)


def _loop_test(plan: EnginePlan, dp: DecisionPlan) -> str:
    """The test of a step's loop: every part that must hold for one more round of the step."""
    env = param_env(dp.layouts)
    parts = ["not count"] if dp.decision.repeat == "once" else []
    if dp.decision.while_ is not None:
        dp.while_inline = ExprCompiler(plan).expr(dp.decision.while_, env)
        parts.append(dp.while_inline)
    if dp.decision.max_ is not None:
        dp.max_inline = ExprCompiler(plan).expr(dp.decision.max_, env)
        parts.append(f"count < ({dp.max_inline})")
    dp.prefilter = _step_prefilter(plan, dp)
    if dp.prefilter:
        parts.append(dp.prefilter)
    return " and ".join(parts) or "True"


def step_budget_error(dp: DecisionPlan) -> str | None:
    """The RuleError message of a step stopped by the engines' step budget, or None for a step
    that needs none: one that runs at most once, or at most its `max` (compiler/check/termination.py:
    `check` proves that the others end; the budget stops a proof's mistake, never a hang)."""
    decision = dp.decision
    if decision.repeat != "while" or decision.resolve != "choice" or decision.max_ is not None:
        return None
    return (f"step {decision.name!r} was stopped after {rounds_budget(dp.count):,} actions in one turn: its "
            "'while' condition did not turn false")


def _step_round(dp: DecisionPlan, position: int) -> list:
    """One round of a step's loop: its legal actions; none ends the step, one is taken, several ask
    the player (or, for a step that resolves all, every one is taken, later positions first)."""
    legal, apply = dp.function("_legal_"), dp.function("_do_")
    out: list = []
    budget = step_budget_error(dp)
    if budget is not None:
        out.append(If(f"count >= {rounds_budget(dp.count)}", [Raise(f"RuleError({literal(budget)})")],
                      note=comment("the engines' step budget (see compiler/check/termination.py)")))
    out += [Assign(("out",), "[]"), Do(f"{legal}(g, out)"), If("not out", [Break()])]
    if dp.decision.resolve == "all":
        return out + [For("a", "sorted(out, reverse=True)", [Do(f"{apply}(g, ACTIONS[a][1])")],
                          note=comment("later positions first, so earlier ones stay valid")), Break()]
    ask = [Do("out.sort()"), Assign(("g.step, g.step_count, g.mode, g._legal",), f"{position}, count, {dp.index}, out"),
           Return("True")]
    return out + [If("len(out) > 1", ask), Do(f"{apply}(g, ACTIONS[out[0]][1])"), Assign(("count",), "1", "+=")]


def _step_prefilter(plan: EnginePlan, dp: DecisionPlan) -> str:
    """A test that every legal action of a step implies, cheap enough to run before asking for them.

    A step runs at every end of turn, and most turns it has nothing to offer: a noble
    visit needs bonuses no one has early in the game. When a conjunct of the step's
    condition is ``all(A(c) >= X.requires[c] for c in gems)`` (or ``X.cost``, or a
    table by gem colour of a component of a spec's own kind) for a chosen noble (or card,
    or component) X and an A that does not depend on the choices, a legal
    action implies sum(A(c) for c in gems) >= the smallest total of that table over
    every noble (card). And the conjuncts at the head of the condition that read no choice
    (see _leading_unchosen). Returns those tests joined, or "" when there is none worth making.
    """
    chosen = {lay.param.name: lay.param.domain for lay in dp.layouts}
    leading = _leading_unchosen(plan, dp, chosen)
    requirement = _requirement_prefilter(plan, dp, chosen)
    return " and ".join(t for t in (leading, requirement) if t)


def _leading_unchosen(plan: EnginePlan, dp: DecisionPlan, chosen: dict) -> str:
    """The conjuncts at the head of a step's condition that read no choice (`bought`, `paired != none`,
    a definition of the acting player), joined: a turn on which one fails has no legal action, and
    apply then skips the step without asking for its actions. Only the head: a later conjunct may rely
    on a choice tested before it."""
    head = []
    for c in conjuncts(dp.decision.condition):
        if free_names(c) & set(chosen):
            break
        head.append(c)
    if not head:
        return ""
    compiler = ExprCompiler(plan)
    return " and ".join(f"({compiler.expr(c, param_env(dp.layouts))})" for c in head)


def _requirement_prefilter(plan: EnginePlan, dp: DecisionPlan, chosen: dict) -> str:
    """For a conjunct `all(A(c) >= X.requires[c] for c in gems)` of a chosen noble (or card) X: the
    total test described in _step_prefilter, or ""."""
    for c in conjuncts(dp.decision.condition):
        if not (isinstance(c, Aggregate) and c.func == "all" and c.collection == Name("gems", None)
                and isinstance(c.body, Compare) and c.body.op in (">=", "<=")):
            continue
        have, need = (c.body.left, c.body.right) if c.body.op == ">=" else (c.body.right, c.body.left)
        match need:
            case Index(obj=Attribute(obj=Name(id=x), name=attr), index=Name(id=v)) if v == c.var and x in chosen:
                pass
            case _:
                continue
        table = {("noble", "requires"): [n.requires for n in plan.rules.nobles],
                 **{(domain, "cost"): [k.cost for k in plan.rules.cards] for domain in ("face_up", "reserved")}
                 }.get((chosen[x], attr))
        if chosen[x] == "component":  # a component of a kind of the spec's own: its table by gem colour
            table = _gems_column(plan, dp, x, attr)
        if not table or free_names(have) & (set(chosen) | {"gems"}):
            continue
        least = min(sum(row) for row in table)
        if least <= 0:
            continue
        total = Aggregate("sum", have, c.var, c.collection, c.span)
        return f"{ExprCompiler(plan).expr(total, param_env(dp.layouts))} >= {least}"
    return ""


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
            body = [Assign(("g.step, g.step_count",), "_N_STEPS, 0", note=comment("every step done")),
                    Do(f"g._finish({literal(t.name)})"), Return("True")]
        else:
            body = [If("g.ending is None",
                       [Assign(("g.ending",), f"({literal(t.name)}, {literal(t.finish)}, g._n - 1)")])]
        node = If(test, body, note=comment(f"{t.name}: {unparse(t.when)} ({where(t.span)})"), chained=i > 0)
        into.append(node)
        into = node.orelse
    return chain


def lower_ranking(plan: EnginePlan) -> list:
    """def _eligible(g, p) and def _rank_key(g, p): who may win, and the ranking chain."""
    w = plan.rules.winners
    compiler = ExprCompiler(plan)
    env = {"player": ("var", "player", "p")}
    eligible = Def("_eligible", "g, p", standard_locals("p")[:2] + [
        Return(compiler.expr(w.eligible, env), note=comment(unparse(w.eligible)))])
    body = standard_locals("p")[:2]
    keys = []
    for level in w.ranking:
        sign = "" if level.prefer == "highest" else "-"
        keys.append(f"{sign}{compiler.expr(level.by, env)}")
        body.append(Comment(comment(f"{level.name}: {level.prefer} {unparse(level.by)} ({where(level.span)})")))
    body.append(Return(f"({unpacking(keys)})"))
    return [eligible, Def("_rank_key", "g, p", body, Code('"""Larger is better; levels in spec order."""'))]


def gold_loops(gems: int, leaf: list) -> list:
    """The loops of _payments over the gold spent on each gem (`v`, a tuple), `leaf` inside: each
    gem gets what the tokens cannot cover (n_i) and up to the rest of its price, while the
    gold left (r) lasts. Unrolled over the gem colours."""
    vec = ", ".join(f"n{i} + e{i}" for i in range(gems))
    inner: list = [Assign(("v",), f"({vec},)"), *leaf]
    for i in reversed(range(gems)):
        prev = "r" if i == 0 else f"r{i - 1}"
        inner = [For(f"e{i}", f"range((p{i} - n{i} if p{i} - n{i} < {prev} else {prev}) + 1)",
                     [Assign((f"r{i}",), f"{prev} - e{i}"), *inner])]
    return inner


def payments_helper(gems: int) -> Def:
    """def _payments(price, tok): every payment of `price` by the holder of `tok`, as nested loops.

    A payment spends gold g[i] for gem i: at least what tokens cannot cover, at most the
    price, and no more gold than held. Loops are unrolled over the gem colours.
    """
    body: list = [Assign(("gold",), f"tok[{gems}]"), Assign((unpacking(f"p{i}" for i in range(gems)),), "price")]
    body += [Assign((f"n{i}",), f"p{i} - tok[{i}] if p{i} > tok[{i}] else 0") for i in range(gems)]
    body += [Assign(("short",), " + ".join(f"n{i}" for i in range(gems))), If("short > gold", [Return("()")]),
             Assign(("out",), "[]"), Assign(("r",), "gold - short")]
    spent = ", ".join(f"p{i} - v[{i}]" for i in range(gems))
    body += gold_loops(gems, [Do(f"out.append((_PAYMENT_INDEX[v], v, ({spent},), gold - r{gems - 1}))")])
    body += [Do("out.sort()"), Return("out")]
    doc = Code('"""(index, gold, spent, gold total) of every payment of `price` the holder of `tok` can make."""')
    return Def("_payments", "price, tok", body, doc)
