"""Sheets, worked examples: small game situations computed from the rule model.

Takes a :class:`~compiler.model.Rules`; returns plain data (numbers, card and noble
records, the outcome of each ranking level) that :mod:`.content` phrases. Nothing
here is written by hand: the cards and nobles are the spec's own, the target comes
from the end trigger, the prices and the ranking are computed by evaluating the
spec's expressions with :class:`Evaluator`.

The scoring example: Anna has earned the first noble by buying, in the spec's card
order, the cards of the colours that noble requires, then the cards that bring her to
the target (largest first); her reserved card is the best card left. Ben has the same
cards plus one card worth nothing, so the two tie on prestige and the ranking chain
has to separate them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..front.expr import (
    Aggregate,
    Attribute,
    Binary,
    Bool,
    Call,
    Compare,
    Conditional,
    Index,
    Int,
    Logic,
    Name,
    Unary,
)
from ..model import Card, EndTrigger, Noble, RankLevel, Rules


class Unsupported(Exception):
    """The expression needs a part of the game state the example does not have."""


@dataclass
class Player:
    """The part of a player's state the examples know."""

    purchased: list[Card]
    nobles: list[Noble]
    reserved: list[Card]
    seat: int
    gems: tuple[str, ...]
    wild: str
    points: int | None = None  # the prestige a game gave (other sources too); None: cards and nobles
    held: tuple[int, ...] = ()  # the tokens a game left the player, per colour; (): none
    own: tuple[tuple[str, tuple[int, ...]], ...] = ()  # the spec's own zones and sets a game left the player

    def attribute(self, name: str):
        if name == "prestige":
            if self.points is not None:
                return self.points
            return sum(c.points for c in self.purchased) + sum(n.points for n in self.nobles)
        if name == "purchased":
            return len(self.purchased)
        if name == "reserved":
            return len(self.reserved)
        if name == "nobles":
            return len(self.nobles)
        if name == "bonus":
            return {g: sum(1 for c in self.purchased if c.bonus == i) for i, g in enumerate(self.gems)}
        if name == "tokens":
            held = self.held or (0,) * (len(self.gems) + 1)
            return dict(zip(self.gems + (self.wild,), held, strict=False))  # the engine's colour order
        if name == "held":
            return sum(self.held)
        if name == "seat":
            return self.seat
        if name in dict(self.own):
            return dict(self.own)[name]
        raise Unsupported(name)


class Evaluator:
    """Evaluates expressions over the examples' small state (numbers, cards, players)."""

    def __init__(self, rules: Rules, env: dict):
        self.rules = rules
        self.env = env
        self.values = {v.name: v.value for v in rules.values}

    def card(self, card: Card) -> dict:
        return {
            "cost": dict(zip(self.rules.gems, card.cost, strict=True)),
            "points": card.points,
            "bonus": self.rules.gems[card.bonus],
            "level": card.level,
        }

    def __call__(self, node):  # noqa: C901 - one dispatch over node kinds
        match node:
            case Int(value=v) | Bool(value=v):
                return v
            case Name(id=i):
                if i in self.env:
                    return self.env[i]
                if i in self.values:
                    return self.values[i]
                if i in self.rules.colours:
                    return i
                if i in ("gems", "colours"):
                    return self.rules.gems if i == "gems" else self.rules.colours
                raise Unsupported(i)
            case Attribute(obj=o, name=a):
                obj = self(o)
                if isinstance(obj, Player):
                    return obj.attribute(a)
                if isinstance(obj, Card):
                    return self.card(obj)[a]
                if isinstance(obj, Noble):
                    return {"points": obj.points, "requires": dict(zip(self.rules.gems, obj.requires, strict=True))}[a]
                raise Unsupported(a)
            case Index(obj=o, index=i):
                table, key = self(o), self(i)
                if not isinstance(table, dict) or key not in table:
                    raise Unsupported("index")
                return table[key]
            case Call(func="min" | "max" as f, args=args):
                vals = [self(a) for a in args]
                return min(vals) if f == "min" else max(vals)
            case Call(func="abs", args=(a,)):
                return abs(self(a))
            case Call(func="size", args=(a,)):
                return len(self(a))
            case Binary(op=op, left=l, right=r):
                a, b = self(l), self(r)
                if op in ("//", "%") and b == 0:
                    raise Unsupported("division by zero")
                return {"+": a + b, "-": a - b, "*": a * b, "//": a // b if b else 0, "%": a % b if b else 0}[op]
            case Unary(op="-", operand=o):
                return -self(o)
            case Unary(op="not", operand=o):
                return not self(o)
            case Compare(op=op, left=l, right=r):
                a, b = self(l), self(r)
                if op == "in":
                    return a in b
                if op == "not in":
                    return a not in b
                return {"==": a == b, "!=": a != b, "<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[op]
            case Logic(op="and", left=l, right=r):
                return bool(self(l)) and bool(self(r))
            case Logic(op="or", left=l, right=r):
                return bool(self(l)) or bool(self(r))
            case Conditional(test=t, then=a, otherwise=b):
                return self(a) if self(t) else self(b)
            case Aggregate(func=f, body=body, var=var, collection=coll):
                items = list(self(coll))
                vals = [Evaluator(self.rules, {**self.env, var: x})(body) for x in items]
                if f == "all":
                    return all(vals)
                if f == "any":
                    return any(vals)
                if f == "count":
                    return sum(1 for v in vals if v)
                if f == "sum":
                    return sum(vals)
                if not vals:
                    raise Unsupported("empty aggregate")
                return min(vals) if f == "min" else max(vals)
        raise Unsupported(type(node).__name__)


# ---------------------------------------------------------------------------- scoring


@dataclass
class LevelOutcome:
    level: RankLevel
    values: tuple[int, int]  # Anna's, Ben's
    winner: int | None  # 0 Anna, 1 Ben, None tied


@dataclass
class Scoring:
    anna: Player
    ben: Player | None
    target: int | None  # the prestige that triggers the end, if a trigger says so
    trigger: EndTrigger | None
    levels: list[LevelOutcome] = field(default_factory=list)
    decided: int | None = None  # index into levels of the deciding level
    complete: bool = True  # every level could be evaluated


def prestige_target(rules: Rules):
    """The end trigger `me.prestige >= N` (or > N) and the prestige that fires it."""
    ev = Evaluator(rules, {})
    for trigger in rules.end:
        when = trigger.when
        if (
            isinstance(when, Compare)
            and when.op in (">=", ">")
            and isinstance(when.left, Attribute)
            and when.left.name == "prestige"
            and isinstance(when.left.obj, Name)
            and when.left.obj.id == "me"
        ):
            try:
                n = ev(when.right)
            except Unsupported:
                continue
            return trigger, n + (1 if when.op == ">" else 0)
    return None, None


def scoring(rules: Rules, with_nobles: bool) -> Scoring | None:
    """Anna's and Ben's final positions and how the ranking separates them."""
    if not rules.cards:
        return None
    trigger, target = prestige_target(rules)
    used: set[int] = set()
    bought: list[Card] = []
    nobles: list[Noble] = []
    if with_nobles and rules.nobles:
        noble = rules.nobles[0]
        need = list(noble.requires)
        for card in rules.cards:
            if need[card.bonus] > 0:
                need[card.bonus] -= 1
                bought.append(card)
                used.add(card.id)
        if not any(need):
            nobles.append(noble)
        else:  # the cards cannot earn it: no noble in the example
            bought.clear()
            used.clear()
    anna = Player(bought, nobles, [], 1, rules.gems, rules.wild)
    goal = target if target is not None else anna.attribute("prestige") + 1
    by_points = sorted((c for c in rules.cards if c.id not in used and c.points > 0), key=lambda c: (-c.points, c.id))
    while anna.attribute("prestige") < goal and by_points:
        missing = goal - anna.attribute("prestige")
        fitting = [c for c in by_points if c.points <= missing]
        card = fitting[0] if fitting else by_points[-1]
        by_points.remove(card)
        bought.append(card)
        used.add(card.id)
    if by_points:
        anna.reserved.append(by_points[0])
        used.add(by_points[0].id)
    result = Scoring(anna, None, target, trigger)
    zero = next((c for c in rules.cards if c.id not in used and c.points == 0), None)
    if zero is None or max((p.players for p in rules.players), default=1) < 2:
        return result
    ben = Player(bought + [zero], list(nobles), [], 2, rules.gems, rules.wild)
    result.ben = ben
    for level in rules.winners.ranking:
        try:
            a = Evaluator(rules, {"player": anna})(level.by)
            b = Evaluator(rules, {"player": ben})(level.by)
        except Unsupported:
            result.complete = False
            break
        winner = None
        if a != b:
            winner = 0 if (a > b) == (level.prefer == "highest") else 1
        result.levels.append(LevelOutcome(level, (a, b), winner))
        if winner is not None:
            result.decided = len(result.levels) - 1
            break
    return result


def last_card(player: Player) -> Card | None:
    """The card a player buys on the last turn of the final round: the last of their cards with points."""
    return next((c for c in reversed(player.purchased) if c.points > 0), None)


# ---------------------------------------------------------------------------- buying


@dataclass
class Purchase:
    card: Card
    bonus: dict[str, int]  # the buyer's bonuses (only the non-zero ones)
    price: dict[str, int]  # tokens to pay per gem


def purchase(rules: Rules, price_expr, card_param: str) -> Purchase | None:
    """A card with a cost in two colours or more, bought with a bonus in one of them."""
    for card in rules.cards:
        colours = [g for g, n in zip(rules.gems, card.cost, strict=True) if n > 0]
        if card.level != rules.levels[len(rules.levels) // 2] or len(colours) < 2:
            continue
        first = colours[0]
        owned = [c for c in rules.cards if rules.gems[c.bonus] == first][:1]
        buyer = Player(owned, [], [], 1, rules.gems, rules.wild)
        price = {}
        try:
            for g in rules.gems:
                price[g] = Evaluator(rules, {"me": buyer, card_param: card, "c": g})(price_expr)
        except Unsupported:
            return None
        bonus = {g: n for g, n in buyer.attribute("bonus").items() if n}
        return Purchase(card, bonus, price)
    return None
