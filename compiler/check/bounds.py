"""Interval analysis: what values a quantity can take in any game under a spec.

The check pass uses it to find conditions that can never hold (an action that is
never legal, an end trigger that never fires): ``supply[colour] >= 9`` when no
player count puts more than 7 tokens of a colour in the supply, or
``me.prestige >= 99`` when all cards and nobles together are worth 58.

Numbers are closed intervals ``(lo, hi)`` (``hi`` may be ``INF``); conditions are
three-valued: ``ALWAYS``, ``NEVER`` or ``MAYBE``. Anything the analysis does not
understand is ``MAYBE`` or the widest interval, so it never reports a false alarm.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from ..diagnostics import Diagnostic
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
    Unary,
    children,
    unparse,
)
from .types import BOOL, COLOUR, GEM, INT

INF = float("inf")
ALWAYS, NEVER, MAYBE = "always", "never", "maybe"
TOP = (-INF, INF)


@dataclass(frozen=True)
class Facts:
    """Upper bounds of the game's quantities, derived from the components and tables."""

    values: dict[str, int]
    gems: tuple[str, ...]
    wild: str
    max_gem_tokens: int
    max_gold: int
    max_players: int
    min_players: int
    cards_per_level: dict[int, int]
    cards_per_bonus: int
    total_points: int
    max_cost: int
    max_card_points: int
    levels: tuple[int, ...]
    nobles: int
    max_noble_requirement: int
    max_noble_points: int
    max_face_up: int
    max_nobles_shown: int
    setup: dict[str, tuple[int, int]]
    set_sizes: dict[str, tuple[int, int]]  # params of domain gem_set: (min, max) size
    ranges: dict[str, tuple[float, float]] = field(default_factory=dict)  # number choices (domain deck): their range
    definitions: dict = field(default_factory=dict)  # the spec's definitions by name: a call is bounded as its body
    # zones split by a group column (`by:`): name -> (the column, its groups)
    split_zones: dict[str, tuple[str, tuple[int, ...]]] = field(default_factory=dict)
    extra_prestige: tuple[float, float] = (0, 0)  # what the spec's prestige sources add to a player's prestige
    # what a call of a definition gives, by its signature (see Bounds.call): filled as the checks go
    calls: dict = field(default_factory=dict, compare=False, repr=False)

    def but(self, **changes) -> Facts:
        """These facts with `changes`. What a definition's body gives depends on the definitions and on
        the prestige sources (it may read prestige), never on a decision's choices (a body reads its
        parameters and the game's names only), so the calls worked out stay unless those change."""
        calls = {} if {"definitions", "extra_prestige"} & set(changes) else self.calls
        return dataclasses.replace(self, calls=calls, **changes)

    @property
    def total_tokens(self) -> int:
        return self.max_gem_tokens * len(self.gems) + self.max_gold


def _add(a, b):
    return (a[0] + b[0], a[1] + b[1])


def _mul(a, b):
    products = [x * y for x in a for y in b if not (x == 0 and abs(y) == INF) and not (y == 0 and abs(x) == INF)]
    return (min(products, default=0), max(products, default=0))


class Bounds:
    def __init__(self, facts: Facts, bound: dict[str, tuple[float, float]] | None = None):
        self.f = facts
        self.bound = {**facts.ranges, **(bound or {})}  # names with a known range: choices, loop variables
        self.flags: dict[str, str] = {}  # a definition's condition parameters: what their argument is
        self.colours: dict[str, str] = {}  # a definition's colour parameters: 'wild', 'gem' or '' (either)

    def binding(self, name: str, range_: tuple[float, float] | None) -> Bounds:
        """These bounds inside a loop over `name` (a level when range_ is given, else no number)."""
        bound = {k: v for k, v in self.bound.items() if k != name}
        inner = Bounds(self.f, {**bound, name: range_} if range_ is not None else bound)
        inner.flags = {k: v for k, v in self.flags.items() if k != name}
        inner.colours = {k: v for k, v in self.colours.items() if k != name}
        return inner

    # ---- calls of definitions, each worked out once per signature

    def signature(self, call) -> tuple:
        """What the bounds of a call's body depend on: for each parameter, what its argument is
        to this analysis (a number's range, a condition's truth, a colour's sort); a player, a
        card or a component is any one."""
        definition = self.f.definitions[call.func]
        out: list[object] = []
        for (_, t), arg in zip(definition.params, call.args, strict=False):
            if t == INT:
                out.append(self.number(arg))
            elif t == BOOL:
                out.append(self.truth(arg))
            elif t in (GEM, COLOUR):
                out.append(self.colour_sort(arg))
            else:
                out.append(None)
        return tuple(out)

    def body(self, call, signature: tuple) -> Bounds:
        """The bounds inside the body of the definition `call` calls, its parameters bound to `signature`:
        the body reads its parameters and the game's names only, none of the caller's."""
        definition = self.f.definitions[call.func]
        inner = Bounds(self.f)
        inner.bound = {}
        for (name, t), value in zip(definition.params, signature, strict=False):
            if t == INT:
                inner.bound[name] = value
            elif t == BOOL:
                inner.flags[name] = value
            elif t in (GEM, COLOUR):
                inner.colours[name] = value
        return inner

    def call(self, what: str, call):
        """`what` ('number', 'truth' or 'hazards') of a call of a definition: its body with the
        parameters bound to what the arguments are, worked out once per definition and signature,
        however many times it is called (a definition calling another twice costs twice, not 2^N)."""
        signature = self.signature(call)
        key = (what, call.func, signature)
        if key not in self.f.calls:
            body = self.f.definitions[call.func].body
            inner = self.body(call, signature)
            if what == "number":
                self.f.calls[key] = inner.number(body)
            elif what == "truth":
                self.f.calls[key] = inner.truth(body)
            else:  # found in the body: said once, with the first call that gives its arguments these ranges
                where = f" ({call.span.file}:{call.span.line})" if call.span is not None else ""
                said = f"in '{call.func}' as {unparse(call)}{where} calls it"
                self.f.calls[key] = [
                    dataclasses.replace(d, notes=(*d.notes, said)) if call.args else d for d in hazards(body, inner)
                ]
        return self.f.calls[key]

    def inlined(self, call):
        """A call of a definition written out, for an analysis that needs the expression and not only
        its bounds (compiler/check/termination.py); each body written out once. None when the call would be
        written out past MAX_WRITTEN_OUT nodes (E556 refuses it): nothing is proved through it."""
        from .definitions import MAX_WRITTEN_OUT, written_size
        from .inlining import inline

        sizes = self.f.calls.setdefault(("written sizes",), {})
        if written_size(call, self.f.definitions, sizes) > MAX_WRITTEN_OUT:
            return None
        bodies = self.f.calls.setdefault(("written bodies",), {})
        return inline(call, self.f.definitions[call.func], self.f.definitions, bodies)

    def colour_sort(self, node) -> str:
        """'wild' for the wild colour, 'gem' for a gem colour, '' for a colour that may be either."""
        if isinstance(node, Name) and node.id in self.colours:
            return self.colours[node.id]
        if isinstance(node, Name) and node.id == self.f.wild:
            return "wild"
        if isinstance(node, Name) and node.id in self.f.gems:
            return "gem"
        return ""

    @property
    def level_range(self) -> tuple[float, float]:
        return (min(self.f.levels, default=1), max(self.f.levels, default=0))

    def colour_range(self, node) -> tuple[float, float]:
        sort = self.colour_sort(node)
        if sort == "wild":
            return (0, self.f.max_gold)
        if sort == "gem":
            return (0, self.f.max_gem_tokens)
        return (0, max(self.f.max_gem_tokens, self.f.max_gold))

    def number(self, node) -> tuple[float, float]:
        """The range of a number in every game under the spec (TOP when nothing is known of it)."""
        match node:
            case Int(value=v):
                return (v, v)
            case Name(id=name) if name in self.bound:
                return self.bound[name]
            case Name(id=name):
                return self.name_range(name)
            case Index():
                return self.index_range(node)
            case Attribute():
                return self.attribute_range(node)
            case Unary() | Binary():
                return self.arithmetic_range(node)
            case Call():
                return self.call_range(node)
            case Aggregate():
                return self.aggregate_range(node)
            case Conditional(then=a, otherwise=b):
                ra, rb = self.number(a), self.number(b)
                return (min(ra[0], rb[0]), max(ra[1], rb[1]))
        return TOP

    def name_range(self, name: str) -> tuple[float, float]:
        """A value of the spec, or a number the game counts (players, nobles left, rounds...)."""
        f = self.f
        if name in f.values:
            return (f.values[name], f.values[name])
        return {
            "player_count": (f.min_players, f.max_players),
            "nobles_left": (0, f.max_nobles_shown),
            "round": (1, INF),
            "turn": (1, INF),
            "passes": (0, INF),
        }.get(name, TOP)

    def index_range(self, node: Index) -> tuple[float, float]:
        """An entry of a table: tokens of a colour, cards of a deck or a row, a cost or a requirement."""
        f = self.f
        match node:
            case Index(obj=Name(id="supply"), index=idx):
                return self.colour_range(idx)
            case Index(obj=Name(id="deck")):
                return (0, max(f.cards_per_level.values(), default=0))
            case Index(obj=Name(id="face_up")):
                return (0, f.max_face_up)
            case Index(obj=Attribute(name="tokens"), index=idx):
                return self.colour_range(idx)
            case Index(obj=Attribute(name="bonus")):
                return (0, f.cards_per_bonus)
            case Index(obj=Attribute(name="cost")):
                return (0, f.max_cost)
            case Index(obj=Attribute(name="requires")):
                return (0, f.max_noble_requirement)
            case Index(obj=Attribute(name="gold" | "spent" | "covers")):
                return (0, max(f.max_gold, f.max_cost))
        return TOP

    def attribute_range(self, node: Attribute) -> tuple[float, float]:
        """A field of the player-count table, or an attribute of a player, a card or a noble."""
        f = self.f
        match node:
            case Attribute(obj=Name(id="setup"), name=attr):
                return f.setup.get(attr, TOP)
            case Attribute(name="prestige"):
                return _add((0, f.total_points), f.extra_prestige)
        return {
            "prestige": (0, f.total_points),
            "purchased": (0, sum(f.cards_per_level.values())),
            "reserved": (0, sum(f.cards_per_level.values())),
            "nobles": (0, f.nobles),
            "held": (0, f.total_tokens),
            "turns": (1, INF),
            "seat": (1, f.max_players),
            "points": (0, max(f.max_card_points, f.max_noble_points)),
            "level": (min(f.levels, default=0), max(f.levels, default=0)),
            "gold_total": (0, f.max_gold),
        }.get(node.name, TOP)

    def arithmetic_range(self, node: Unary | Binary) -> tuple[float, float]:
        """`-x`, `a + b`, `a - b`, `a * b`, `a // b` (TOP for a divisor that may be 0 or less), `a % b`."""
        match node:
            case Unary(op="-", operand=o):
                lo, hi = self.number(o)
                return (-hi, -lo)
            case Binary(op="+", left=l, right=r):
                return _add(self.number(l), self.number(r))
            case Binary(op="-", left=l, right=r):
                lo, hi = self.number(r)
                return _add(self.number(l), (-hi, -lo))
            case Binary(op="*", left=l, right=r):
                return _mul(self.number(l), self.number(r))
            case Binary(op="//", left=l, right=r):
                (a_lo, a_hi), (b_lo, b_hi) = self.number(l), self.number(r)
                if b_lo <= 0:
                    return TOP
                if INF in (abs(a_lo), abs(a_hi), b_hi):  # a divisor of 1 or more never moves a number away from 0
                    return (min(0, a_lo), max(0, a_hi))
                corners = [a // b for a in (a_lo, a_hi) for b in (b_lo, b_hi)]  # monotonic in each side
                return (min(corners), max(corners))
            case Binary(op="%", right=r):
                b_lo, b_hi = self.number(r)
                return (0, b_hi - 1) if b_lo > 0 else TOP
        return TOP

    def call_range(self, node: Call) -> tuple[float, float]:
        """A call of a definition (through its body), of min or max, or the size of a set."""
        f = self.f
        match node:
            case Call(func=name) if name in f.definitions:
                return self.call("number", node)
            case Call(func="min", args=args) if args:
                rs = [self.number(a) for a in args]
                return (min(r[0] for r in rs), min(r[1] for r in rs))
            case Call(func="max", args=args) if args:
                rs = [self.number(a) for a in args]
                return (max(r[0] for r in rs), max(r[1] for r in rs))
            case Call(func="size", args=(Name(id=name),)):
                if name in f.set_sizes:
                    return f.set_sizes[name]
                if name == "gems":
                    return (len(f.gems), len(f.gems))
                if name == "colours":
                    return (len(f.gems) + 1, len(f.gems) + 1)
                return (0, INF)
        return TOP

    def aggregate_range(self, node: Aggregate) -> tuple[float, float]:
        """`count`, `sum`, `min` and `max` over a collection, by its largest size."""
        match node:
            case Aggregate(func="count", collection=coll):
                return (0, self.collection_size(coll))
            case Aggregate(func="sum", body=body, collection=coll):
                lo, hi = self.number(body)
                n = self.collection_size(coll)
                return (min(0, lo * n) if lo < 0 else 0, hi * n if hi > 0 else 0)
            case Aggregate(func="min" | "max", body=body):
                return self.number(body)
        return TOP

    def collection_size(self, node) -> float:
        match node:
            case Name(id="gems"):
                return len(self.f.gems)
            case Name(id="colours"):
                return len(self.f.gems) + 1
            case Name(id="levels"):
                return len(self.f.levels)
            case Name(id="players" | "others"):
                return self.f.max_players
            case Name(id=name) if name in self.f.set_sizes:
                return self.f.set_sizes[name][1]
        return INF

    def truth(self, node) -> str:  # noqa: C901
        match node:
            case Bool(value=v):
                return ALWAYS if v else NEVER
            case Unary(op="not", operand=o):
                return {ALWAYS: NEVER, NEVER: ALWAYS}.get(self.truth(o), MAYBE)
            case Logic(op="and", left=l, right=r):
                a, b = self.truth(l), self.truth(r)
                if NEVER in (a, b):
                    return NEVER
                return ALWAYS if a == b == ALWAYS else MAYBE
            case Logic(op="or", left=l, right=r):
                a, b = self.truth(l), self.truth(r)
                if ALWAYS in (a, b):
                    return ALWAYS
                return NEVER if a == b == NEVER else MAYBE
            case Compare(op=op, left=l, right=r) if op in ("<", "<=", ">", ">=", "==", "!="):
                if op in ("==", "!=") and not self._numeric(l) and not self._numeric(r):
                    return MAYBE
                (a_lo, a_hi), (b_lo, b_hi) = self.number(l), self.number(r)
                if (a_lo, a_hi) == TOP or (b_lo, b_hi) == TOP:
                    return MAYBE
                if op == "<":
                    return ALWAYS if a_hi < b_lo else NEVER if a_lo >= b_hi else MAYBE
                if op == "<=":
                    return ALWAYS if a_hi <= b_lo else NEVER if a_lo > b_hi else MAYBE
                if op == ">":
                    return ALWAYS if a_lo > b_hi else NEVER if a_hi <= b_lo else MAYBE
                if op == ">=":
                    return ALWAYS if a_lo >= b_hi else NEVER if a_hi < b_lo else MAYBE
                disjoint = a_hi < b_lo or b_hi < a_lo
                same = a_lo == a_hi == b_lo == b_hi
                if op == "==":
                    return NEVER if disjoint else ALWAYS if same else MAYBE
                return ALWAYS if disjoint else NEVER if same else MAYBE
            case Aggregate(func="all", body=body):
                return (
                    ALWAYS
                    if self.truth(body) == ALWAYS
                    else NEVER
                    if self.truth(body) == NEVER and self._nonempty(node.collection)
                    else MAYBE
                )
            case Aggregate(func="any", body=body):
                t = self.truth(body)
                return NEVER if t == NEVER else ALWAYS if t == ALWAYS and self._nonempty(node.collection) else MAYBE
            case Call(func=name) if name in self.f.definitions:
                return self.call("truth", node)
            case Name(id=name) if name in self.flags:
                return self.flags[name]
            case Conditional(test=t, then=a, otherwise=b):
                tt, ta, tb = self.truth(t), self.truth(a), self.truth(b)
                if tt == ALWAYS:
                    return ta
                if tt == NEVER:
                    return tb
                return ta if ta == tb else MAYBE
        return MAYBE

    def _numeric(self, node) -> bool:
        return self.number(node) != TOP

    def _nonempty(self, coll) -> bool:
        return isinstance(coll, Name) and coll.id in ("gems", "colours", "levels", "players")


def never_reasons(node, bounds: Bounds) -> list:
    """The conjuncts of a condition that can never hold (innermost first), for a caret."""
    if bounds.truth(node) != NEVER:
        return []
    if isinstance(node, Logic) and node.op == "and":
        for part in (node.left, node.right):
            inner = never_reasons(part, bounds)
            if inner:
                return inner
    return [node]


def range_text(range_: tuple[float, float]) -> str:
    """A range as a message says it: '0', '0 to 7', '1 or more', 'any number'."""
    lo, hi = range_
    if lo == hi:
        return f"always {lo:g}"
    if (lo, hi) == TOP:
        return "any number"
    if hi == INF:
        return f"{lo:g} or more"
    if lo == -INF:
        return f"{hi:g} or less"
    return f"{lo:g} to {hi:g}"


def hazards(node, bounds: Bounds) -> list[Diagnostic]:
    """What would stop the engine in the middle of a game: a divisor that can be 0 (E513), a
    deck, face-up row (a count or `market[...]`, its cards) or blind reserve at a number that can be
    no level (E514).

    The engine computes what the spec writes, so these are the spec's mistakes, found here
    from the ranges of the numbers, with the loop variables and number choices bound to theirs.
    """
    found: list[Diagnostic] = []
    _hazards(node, bounds, found)
    return found


def _hazards(node, bounds: Bounds, found: list) -> None:
    match node:
        case Aggregate(var=var, body=body, collection=coll) | ForEach(var=var, body=body, collection=coll):
            _hazards(coll, bounds, found)
            inner = bounds.binding(var, bounds.level_range if coll == Name("levels", None) else None)
            _hazards(body, inner, found)
            return
        case Binary(op="//" | "%" as op, right=divisor):
            lo, hi = bounds.number(divisor)
            if lo <= 0 <= hi:
                found.append(
                    Diagnostic(
                        "E513",
                        f"'{op}' by {unparse(divisor)}: the divisor can be 0 in a game under "
                        f"this spec (it is {range_text((lo, hi))}), and nothing divides by 0",
                        divisor.span,
                        ("divide by a number that is never 0, such as a value or player_count, or write max(1, ...)",),
                    )
                )
        case Index(obj=Name(id="deck" | "face_up" | "market" as table), index=level):
            _level(level, f"{table}[{unparse(level)}]", bounds, found)
        case Index(obj=Name(id=table), index=level) if table in bounds.f.split_zones:
            _level(level, f"{table}[{unparse(level)}]", bounds, found, bounds.f.split_zones[table])
        case Effect(name="reserve_top", args=(level, *_)):
            _level(level, f"reserve_top({unparse(level)})", bounds, found)
        case Call(func=name) if name in bounds.f.definitions:  # the body, with what these arguments are
            found.extend(bounds.call("hazards", node))
    for child in children(node):
        _hazards(child, bounds, found)


def _level(node, where: str, bounds: Bounds, found: list, split: tuple[str, tuple[int, ...]] = ("", ())) -> None:
    """E514 unless `node` is always one of the card levels (or of the groups of a zone split by a
    column, `split`: the column and its values)."""
    if not bounds.f.levels:  # the card table was not read: reported already
        return
    word = split[0] if split[0] and split[0] != "level" else "level"
    levels = (min(split[1]), max(split[1])) if split[1] else bounds.level_range
    lo, hi = bounds.number(node)
    if levels[0] <= lo and hi <= levels[1]:
        return
    shown = f"{word}s run {levels[0]:g} to {levels[1]:g}"
    what = (
        f"there is no {word} {lo:g}"
        if lo == hi
        else f"{unparse(node)} is not always a {word}: it can be {range_text((lo, hi))}"
    )
    found.append(
        Diagnostic(
            "E514",
            f"{where}: {what} ({shown})",
            node.span,
            (
                "a level is a choice of domain deck, a card's .level, a loop variable over levels, "
                "or a number within the levels",
            ),
        )
    )


COUNTERS = ("turn", "round", "passes")  # grow by one as play goes on, never reset by the game


def endless(rules) -> list[Diagnostic]:
    """E516 (warning): no end trigger bounds the length of a game.

    A trigger on the players' scores can be out of reach in a game (everybody stuck, or
    taking and returning tokens for ever), so `Game.playout()` would never return. A
    trigger that fires once `turn`, `round` or `passes` (everybody passing in a row)
    reaches a number does end every game; without one, check warns (`check -W`).
    """
    if any(_bounded(t.when) for t in rules.end) or not rules.end:
        return []
    span = rules.spans.get(f"end.{rules.end[0].name}", rules.end[0].span)
    return [
        Diagnostic(
            "E516",
            "no end trigger is sure to fire: a game where nobody satisfies "
            f"{' or '.join(repr(t.name) for t in rules.end)} never ends",
            span,
            (
                "add a trigger on a number that grows as play goes on, such as `passes >= player_count` "
                "(everybody passed in a row) or `round > 50`",
            ),
            severity="warning",
        )
    ]


def _bounded(node) -> bool:
    """Whether a condition surely holds once some counter is large enough: `turn >= N`, `N <= round`,
    `passes >= player_count`, through `or` (either side) and `and` (both sides)."""
    match node:
        case Logic(op="or", left=l, right=r):
            return _bounded(l) or _bounded(r)
        case Logic(op="and", left=l, right=r):
            return _bounded(l) and _bounded(r)
        case Compare(op=">=" | ">", left=Name(id=counter), right=limit) if counter in COUNTERS:
            return _constant(limit)
        case Compare(op="<=" | "<", left=limit, right=Name(id=counter)) if counter in COUNTERS:
            return _constant(limit)
    return False


def _constant(node) -> bool:
    """A number that does not grow during a game: a literal, a value, the player count, setup."""
    return all(
        isinstance(x, (Int, Binary))
        or (isinstance(x, Name) and x.id not in COUNTERS and x.id != "me")
        or isinstance(x, Attribute)
        and x.obj == Name("setup", None)
        for x in _walk(node)
        if not (isinstance(x, Name) and x.id == "setup")
    )


def _walk(node):
    yield node
    for child in children(node):
        yield from _walk(child)
