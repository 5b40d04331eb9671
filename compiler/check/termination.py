"""Pass: every `repeat: while` step ends (E530), by a proof or by its `max` (E531).

A step that repeats while a condition holds runs inside one call of the engine's ``apply()``
for as long as each of its rounds has one legal choice: a condition its actions never make
false (``while: "true"``, a counter that only grows) holds the engine, and the bot, the
simulation or the server that called it, for ever. So `check` proves that each such step ends,
as E516 proves that a game does, from the step's text alone:

- the condition is a comparison of sums, ``A > B``, ``A >= B``, ``A < B``, ``A <= B``
  (through ``not``, ``and``: one side proved, ``or``: both sides, and the spec's definitions);
- ``A - B`` is a *measure*: every action of the step moves it by at least 1 toward falsity
  and no path through its effects (``if``, ``for``) moves it the other way. A whole number
  that moves by at least 1 each round crosses any fixed bound in finitely many rounds.

What a measure may be made of: the acting player's tokens (``me.held``, ``me.tokens[red]``),
the supply by colour, the acting player's reserved cards, purchased cards and nobles, number
variables (the game's, the acting player's), and what no action of a step changes (numbers,
values, the player count, ``setup``, ``turn``, ``round``, ``passes``). The effects' amounts
are ranged by :mod:`compiler.check.bounds`. A step the proof cannot cover states its bound with
``max: N`` (at most N of its actions a turn, N fixed for the game), and the engines stop it
there. The proof is the first line of defence; each engine also stops a step at
:func:`rounds_budget` actions in one turn (:data:`STEP_WORK` legality tests in all) with a
RuleError naming it (never a hang, never minutes in one move).
"""

from __future__ import annotations

from ..diagnostics import Diagnostic
from ..front.expr import (
    Attribute,
    Binary,
    Bool,
    Call,
    Compare,
    Effect,
    ForEach,
    Index,
    Int,
    Logic,
    Name,
    Sequence,
    Unary,
    When,
    unparse,
    walk,
)
from .bounds import INF, Bounds

STEP_BUDGET = 10_000  # the largest `max`: actions of one step in one turn
# What one step may weigh in one turn: its actions times its choices, each round finding the legal
# ones among all of them (a step of 8,000 choices run 10,000 times took minutes in one move). A
# `max` beyond it is E531; a proved step is stopped there by the engines (RuleError).
STEP_WORK = 200_000


def rounds_budget(choices: int) -> int:
    """The actions of one step in one turn after which an engine stops it: STEP_WORK shared among
    its `choices` (the step's action ids), and never more than STEP_BUDGET."""
    return max(1, min(STEP_BUDGET, STEP_WORK // max(1, choices)))


ZERO = (0.0, 0.0)
ANY = (-INF, INF)
# Names whose value no action of an end-of-turn step changes (besides numbers and the spec's values).
STEADY_NAMES = ("player_count", "turn", "round", "passes")
STEADY_ATTRIBUTES = ("seat", "turns")  # of the acting player
COUNTED_ATTRIBUTES = ("held", "reserved", "purchased", "nobles")  # of the acting player: effects move them
FLIPPED = {">": "<=", ">=": "<", "<": ">=", "<=": ">"}


def _add(a, b):
    return (a[0] + b[0], a[1] + b[1])


def _hull(a, b):
    return (min(a[0], b[0]), max(a[1], b[1]))


def _scale(r, k: int):
    lo, hi = r[0] * k, r[1] * k
    return (min(lo, hi), max(lo, hi))


class Measure:
    """A linear sum of counted quantities: {atom: coefficient}, atoms as tuples such as
    ("held",), ("tokens", "red"), ("supply", "red"), ("var", "score"), ("me_var", "markers")."""

    def __init__(self, bounds: Bounds, params: frozenset[str]):
        self.bounds = bounds
        self.params = params  # the step's choices: a condition reading one measures nothing fixed

    def linear(self, node) -> dict[tuple, int] | None:  # noqa: C901 - one case per form
        """`node` as {atom: coefficient}, or None when it is not a sum of what a measure counts."""
        f = self.bounds.f
        match node:
            case Int():
                return {}
            case Name(id=name) if name in self.params:
                return None
            case Name(id=name) if name in f.values or name in STEADY_NAMES:
                return {}
            case Name(id=name) if name not in ("me", "supply", "deck", "face_up", "nobles_left", "setup"):
                return {("var", name): 1}
            case Attribute(obj=Name(id="setup")):
                return {}
            case Attribute(obj=Name(id="me"), name=attr) if attr in STEADY_ATTRIBUTES:
                return {}
            case Attribute(obj=Name(id="me"), name=attr) if attr in COUNTED_ATTRIBUTES:
                return {(attr,): 1}
            case Attribute(obj=Name(id="me"), name=attr) if attr not in ("tokens", "bonus", "prestige"):
                return {("me_var", attr): 1}
            case Index(obj=Attribute(obj=Name(id="me"), name="tokens"), index=Name(id=colour)) if (
                colour in f.gems or colour == f.wild
            ):
                return {("tokens", colour): 1}
            case Index(obj=Name(id="supply"), index=Name(id=colour)) if colour in f.gems or colour == f.wild:
                return {("supply", colour): 1}
            case Call(func=func) if func in f.definitions:
                written = self.bounds.inlined(node)  # None: too large to write out (E556)
                return None if written is None else self.linear(written)
            case Unary(op="-", operand=o):
                inner = self.linear(o)
                return None if inner is None else {k: -v for k, v in inner.items()}
            case Binary(op="+" | "-" as op, left=l, right=r):
                a, b = self.linear(l), self.linear(r)
                if a is None or b is None:
                    return None
                out = dict(a)
                for k, v in b.items():
                    out[k] = out.get(k, 0) + (v if op == "+" else -v)
                return out
            case Binary(op="*", left=Int(value=k), right=o) | Binary(op="*", left=o, right=Int(value=k)):
                inner = self.linear(o)
                return None if inner is None else {a: v * k for a, v in inner.items()}
        return None

    # -- how far the effects of one action move an atom

    def moved(self, stmts, atom: tuple) -> tuple[float, float]:
        """The least and most change of `atom` over one run of `stmts`, whatever path it takes."""
        total = ZERO
        for stmt in stmts:
            total = _add(total, self.stmt_moves(stmt, atom))
        return total

    def stmt_moves(self, stmt, atom: tuple) -> tuple[float, float]:
        match stmt:
            case Sequence(stmts=stmts):
                return self.moved(stmts, atom)
            case When(then=then, otherwise=otherwise):
                return _hull(
                    self.stmt_moves(then, atom), self.stmt_moves(otherwise, atom) if otherwise is not None else ZERO
                )
            case ForEach(body=body):  # any number of times, none included
                lo, hi = self.stmt_moves(body, atom)
                return (-INF if lo < 0 else 0.0, INF if hi > 0 else 0.0)
            case Effect():
                return self.effect_moves(stmt, atom)
        return ANY

    def effect_moves(self, effect: Effect, atom: tuple) -> tuple[float, float]:  # noqa: C901
        kind = atom[0]
        args = effect.args
        match effect.name:
            case "take" | "put_back":
                amount = self.bounds.number(args[1])
                if effect.name == "put_back":
                    amount = (-amount[1], -amount[0])
                if kind == "held":
                    return amount
                if kind in ("tokens", "supply"):
                    signed = amount if kind == "tokens" else (-amount[1], -amount[0])
                    colour = args[0].id if isinstance(args[0], Name) else None
                    if colour == atom[1]:
                        return signed
                    if colour in self.bounds.f.gems or colour == self.bounds.f.wild:
                        return ZERO  # another colour
                    return _hull(ZERO, signed)  # a chosen colour: this one or another
                return ZERO
            case "pay":
                return {"held": (-INF, 0.0), "tokens": (-INF, 0.0), "supply": (0.0, INF)}.get(kind, ZERO)
            case "reserve" | "reserve_top":
                return (0.0, 1.0) if kind == "reserved" else ZERO
            case "acquire":
                return {"purchased": (1.0, 1.0), "reserved": (-1.0, 0.0)}.get(kind, ZERO)
            case "bury":
                return (-1.0, 0.0) if kind == "reserved" else ZERO
            case "visit":
                return (1.0, 1.0) if kind == "nobles" else ZERO
            case "refill" | "insert" | "drop":
                return ZERO
            case "set" | "add":
                return self.written(effect, atom)
        # the zones' effects move components, never tokens nor numbers; built-in places maybe
        return ANY if kind in ("reserved", "purchased", "nobles") else ZERO

    def written(self, effect: Effect, atom: tuple) -> tuple[float, float]:
        """What `set(V, x)` or `add(V, n)` does to `atom`."""
        target = effect.args[0]
        change = ANY if effect.name == "set" else self.bounds.number(effect.args[1])
        match target, atom:
            case Name(id=name), ("var", var):
                return change if name == var else ZERO
            case Attribute(obj=Name(id="me"), name=name), ("me_var", var):
                return change if name == var else ZERO
            case Attribute(name=name), ("me_var", var):  # another player's, or maybe the acting one's
                return _hull(ZERO, change) if name == var else ZERO
        return ZERO

    # -- the proof

    def falls(self, node, effects) -> bool:
        """Whether every action of `effects` brings the condition `node` closer to false, so
        that it is false after finitely many rounds (and a false one stays false)."""
        match node:
            case Bool(value=False):
                return True
            case Logic(op="and", left=l, right=r):
                return self.falls(l, effects) or self.falls(r, effects)
            case Logic(op="or", left=l, right=r):
                return self.falls(l, effects) and self.falls(r, effects)
            case Unary(op="not", operand=Compare(op=op, left=l, right=r)) if op in FLIPPED:
                return self.falls(Compare(FLIPPED[op], l, r, node.span), effects)
            case Unary(op="not", operand=Unary(op="not", operand=inner)):
                return self.falls(inner, effects)
            case Call(func=func) if func in self.bounds.f.definitions:
                written = self.bounds.inlined(node)  # None: too large to write out (E556)
                return written is not None and self.falls(written, effects)
            case Compare(op=">" | ">=" | "<" | "<=" as op):
                change = self.change(node, effects)
                # A - B must fall for `>`/`>=`, rise for `<`/`<=`: by at least 1 on every path
                return change is not None and (change[1] <= -1 if op in (">", ">=") else change[0] >= 1)
        return False

    def change(self, node: Compare, effects) -> tuple[float, float] | None:
        """How far one action of `effects` moves `A - B` for the comparison `A op B`, or None when
        a side is not a sum of counted quantities."""
        a, b = self.linear(node.left), self.linear(node.right)
        if a is None or b is None:
            return None
        measure = dict(a)
        for k, v in b.items():
            measure[k] = measure.get(k, 0) - v
        change = ZERO
        for atom, coefficient in measure.items():
            if coefficient:
                change = _add(change, _scale(self.moved(effects, atom), coefficient))
        return change

    def why_not(self, node, effects) -> str:
        """A sentence on why `node` is not proved to turn false (E530's note)."""
        if isinstance(node, Compare) and node.op in FLIPPED:
            change = self.change(node, effects)
            if change is not None:
                toward = "fall" if node.op in (">", ">=") else "rise"
                return (
                    f"one action of this step changes `{unparse(node.left)} - {unparse(node.right)}` by "
                    f"{_range_text(change)}; for the step to end it must {toward} by at least 1 with every action"
                )
            return (
                "a condition that ends a step compares sums of counts (tokens, cards, nobles, number "
                "variables) that the step's actions change"
            )
        if isinstance(node, Bool) and node.value:
            return "`true` never turns false"
        return "a condition that ends a step compares counts that the step's actions bring toward its bound"


def unending(name: str, while_, effects, params, bounds: Bounds, span) -> list[Diagnostic]:
    """E530 for a `repeat: while` step without `max` whose condition nothing proves will fail."""
    measure = Measure(bounds, frozenset(p.name for p in params))
    if measure.falls(while_, effects):
        return []
    return [
        Diagnostic(
            "E530",
            f"step '{name}' may repeat for ever: nothing shows that its actions make its 'while' condition false",
            span,
            (
                measure.why_not(while_, effects),
                "each action must bring a count closer to its bound, as `put_back(colour, 1)` does for "
                "`me.held > token_limit`; otherwise say how often the step may run a turn: `max: 3`",
            ),
        )
    ]


def _range_text(r: tuple[float, float]) -> str:
    def one(x: float) -> str:
        return ("+" if x > 0 else "") + (str(int(x)) if abs(x) != INF else ("any amount" if x > 0 else "-any amount"))

    if r[0] == r[1]:
        return one(r[0])
    if r == ANY:
        return "any amount"
    return f"{one(r[0])} to {one(r[1])}"


def max_work_problem(high: int, choices: int) -> str | None:
    """Why a step's `max` (at most `high`) weighs too much with its `choices` (E531), or None."""
    if high * choices <= STEP_WORK:
        return None
    return (
        f"a step's 'max' times its choices is at most {STEP_WORK:,} (each action finds the legal one among "
        f"them all): with {choices:,} choices this step may run at most {rounds_budget(choices):,} times a turn"
    )


def max_problem(node, bounds: Bounds) -> str | None:
    """Why a step's `max` is not a number of actions fixed for the game, at least 1 (E531), or None."""
    steady = Measure(bounds, frozenset()).linear(node)
    if steady is None or steady or any(isinstance(n, Name) and n.id in ("turn", "round", "passes") for n in walk(node)):
        return "a step's 'max' is a number fixed for the game (numbers, values, setup, the player count)"
    low, high = bounds.number(node)
    if low < 1:
        return f"a step's 'max' is at least 1, but this can be {int(low) if low > -INF else 'below 0'}"
    if high > STEP_BUDGET:
        return f"a step's 'max' is at most {STEP_BUDGET:,}, the engines' own bound"
    return None


__all__ = ["STEP_BUDGET", "STEP_WORK", "Measure", "max_problem", "max_work_problem", "rounds_budget", "unending"]
