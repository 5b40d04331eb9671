"""Sheets, phrasing: numbers and quantities.

Bound into :class:`~.core.Phraser`: a quantity as a noun phrase ("your prestige", "the
number of ..."), a counted quantity compared with a number as a count sentence ("you hold
fewer than 3 reserved cards"), a payment's price and worth; and :func:`constant`, the fold
of what is the same in every game.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from ...front.expr import Aggregate, Attribute, Binary, Call, Conditional, Index, Int, Name, Unary, unparse
from ...language import AGGREGATES, FUNCTIONS
from ...model import BUILTIN_SETUP_FIELDS, Rules, Wilds, Zone
from .kinds import CARD, COLOURS, COMPONENT, COUNTED, LEVEL, NOBLE, OPS, PAYMENT, PLAYER, PhraseError, Ref, item_words
from .text import join

if TYPE_CHECKING:  # the class these functions are bound to (the package re-exports it)
    from . import Phraser


def count_form(self: Phraser, node) -> tuple[str, str, dict] | None:
    """(clause key, noun key, fields) for a quantity that counts things, else None.

    The clause has a ``{count}`` placeholder; the noun has plural forms. Both
    agree with the number they are compared with.
    """
    match node:
        case Index(obj=Name(id="supply"), index=c) if "supply" not in self.scope:
            variant, fields = self.colour(c)
            return "q.supply.count", f"noun.token.{variant}", fields
        case Index(obj=Name(id="deck"), index=lvl) if "deck" not in self.scope:
            return "q.deck.count", "noun.card", self.level(lvl)
        case Index(obj=Name(id="face_up"), index=lvl) if "face_up" not in self.scope:
            return "q.face_up.count", "noun.card", self.level(lvl)
        case Name(id="nobles_left" | "player_count" | "passes" as i) if i not in self.scope:
            return (
                f"q.{i}.count",
                {"nobles_left": "noun.noble", "player_count": "noun.player", "passes": "noun.pass"}[i],
                {},
            )
        case Call(func="size", args=(coll,)) if self.state_forms(coll) is not None and self.component_set(coll) is None:
            return "q.size_state.count", "noun.colour", self.named("state", self.state_forms(coll) or {})
        case Call(func="size", args=(Index() as coll,)) if (told := self.place_count(coll)) is not None:
            return told  # one level of the face-up cards or the decks: "at least 1 card is left in the deck of level 2"
        case Call(func="size", args=(coll,)) if (told := self.zone_count(coll)) is not None:
            return told  # "you have at least 1 claimed city": the zone's own item
        case Call(func="size", args=(coll,)) if (told := self.place_count(coll)) is not None:
            return told  # a base game's place, as the base game says it: "you have purchased 3 development cards"
        case Call(func="size", args=(coll,)) if self.rules.zones and self.zone(coll) is not None:
            holds = self.held_kind(coll)  # "holds at least 1 city": counted by the kind's item
            noun, item = ("noun.item", self.item_fields(holds)) if holds is not None else ("noun.piece", {})
            return "q.size_zone.count", noun, {**self.named("zone", self.zone(coll) or {}), **item}
        case Call(func="size", args=(Name(id=i),)) if (ref := self.lookup(i) or Ref("", "")).kind == COLOURS:
            return "q.size_chosen.count", "noun.colour", self.named("set", self.ref_forms(ref))
        case Attribute(obj=o, name=attr) if attr in COUNTED and self.kind(o) == PLAYER:
            person, who = self.player(o)
            return f"attr.{attr}.{person}.count", f"attr.{attr}.noun", who
        case Index(obj=Attribute(obj=o, name=attr), index=c) if attr in ("tokens", "bonus") and self.kind(o) == PLAYER:
            person, who = self.player(o)
            variant, fields = self.colour(c)
            return f"attr.{attr}.{person}.count", f"attr.{attr}.noun.{variant}", {**who, **fields}
        case Attribute(obj=o, name="points") if self.kind(o) in (CARD, NOBLE) or self.base_kind(o, "points"):
            k = self.base_kind(o, "points") or self.kind(o)
            return f"q.{k}.points.count", "noun.point", self.named(k, self.thing(o))
        case Aggregate(func="count", body=body, var=var, collection=coll):
            inner = self.bind(var, coll)
            _, coll_key = self.collection(coll)
            return "agg.count.count", f"{coll_key}.noun", {"body": inner.condition(body)}
    return None


# The base game's places a player has, and the player's counted attribute that says them.
_PLACE_ATTRIBUTES = {"purchased": "purchased", "reserved": "reserved", "visiting": "nobles"}


def place_count(self: Phraser, coll: object) -> tuple[str, str, dict[str, str]] | None:
    """A count of a zone that is a base game's place (`place:`), as the base game's own count says it:
    one level of the face-up cards or the decks ("at least 1 card is left in the deck of level 2", a
    piece called by the zone's item where the spec gives one), a player's purchased or reserved cards
    or visiting nobles ("you have purchased 3 development cards"), the noble row; else None."""
    zone = self.zone_of(coll) if self.rules.zones else None
    if zone is None or not zone.place:
        return None
    if isinstance(coll, Index) and zone.place in ("face_up", "decks"):
        key = "q.face_up.count" if zone.place == "face_up" else "q.deck.count"
        own = zone.item is not None and bool(zone.item.get(self.lang))
        noun, item = ("noun.item", _zone_item(self, zone)) if own else ("noun.card", {})
        return key, noun, {**item, **self.level(coll.index)}
    attr = _PLACE_ATTRIBUTES.get(zone.place)
    if attr is not None and isinstance(coll, Attribute):
        person, who = self.player(coll.obj)
        return f"attr.{attr}.{person}.count", f"attr.{attr}.noun", who
    if zone.place == "noble_row":
        return "q.nobles_left.count", "noun.noble", {}
    return None


def _zone_item(self: Phraser, zone: Zone) -> dict[str, str]:
    """What a phrase of one piece of `zone` agrees with, by the zone's own item in this language."""
    word = (zone.item.get(self.lang) if zone.item is not None else None) or ""
    words = zone.words(self.lang)
    return item_words(self.t.table, word, words.form("few"), words.form("other"), words.gender)


def zone_count(self: Phraser, coll: object) -> tuple[str, str, dict[str, str]] | None:
    """A count of a zone whose spec names what lies there (its `item`, in this language): said of
    its owner ("you have at least 1 claimed city", "Anne has 1 claimed city") or, for a shared
    zone, of the table ("at least 1 city on display is on the table"); else None (the zone by its title)."""
    zone = self.zone_of(coll) if self.rules.zones else None
    if zone is None or zone.item is None or not zone.item.get(self.lang):
        return None
    item = _zone_item(self, zone)
    if zone.per_player and isinstance(coll, Attribute):
        person, who = self.player(coll.obj)
        return f"q.size_zone.{person}.count", "noun.item", {**who, **item}
    return "q.size_zone.shared.count", "noun.item", item


def count(self: Phraser, node, op: str, n: int) -> str | None:
    """'you hold fewer than 3 reserved cards': a counted quantity compared with a number."""
    form = self.count_form(node)
    if form is None or op == "!=":
        return None
    clause, noun_key, fields = form
    exact = self.known.get(unparse(node))
    if exact is not None and _holds(op, exact, n):  # a worked example: "Anna has 15", not "at least 15"
        noun = self.t.text(noun_key, n=exact, **fields)
        return self.t.text(clause, n=exact, count=self.t.text("count.n", n=exact, noun=noun), **fields)
    noun = self.t.text(noun_key, n=n, **fields)
    quant = self.t.text(f"quant.{OPS[op]}", n=n, noun=noun)
    return self.t.text(clause, n=n, count=quant, **fields)


def _holds(op: str, value: int, n: int) -> bool:
    return {">=": value >= n, ">": value > n, "<=": value <= n, "<": value < n, "==": value == n}.get(op, False)


def number(self: Phraser, node) -> str:
    """A quantity as a noun phrase: '3', 'your prestige', 'the number of ...'."""
    v = self.const(node)
    if v is not None:
        return str(v)
    said = _read(self, node)
    return said if said is not None else _computed(self, node)


def _read(self: Phraser, node) -> str | None:  # noqa: C901 - one dispatch over node kinds
    """A quantity the game holds, as a noun phrase (a count of the game, a variable, the supply, a
    deck, the setup table, a player's, a component's or a card's number), else None."""
    t = self.t
    match node:
        case Call(func=f) if self.definition(f) is not None:
            return self.defined(node)
        case Name(id=i) if i in ("player_count", "round", "turn", "passes", "nobles_left") and i not in self.scope:
            return t.text(f"q.{i}.np")
        case Call(func="size", args=(coll,)) if self.state_forms(coll) is not None and self.component_set(coll) is None:
            return t.text("fn.size.state", **self.named("state", self.state_forms(coll) or {}))
        case Name() | Attribute() | Index() if self.state_forms(node) is not None:
            return (self.state_forms(node) or {})[""]
        case Index(obj=Name(id="supply"), index=c) if "supply" not in self.scope:
            variant, fields = self.colour(c)
            return t.text(f"q.supply.np.{variant}", **fields)
        case Index(obj=Name(id="deck" | "face_up" as i), index=lvl) if i not in self.scope:
            return t.text(f"q.{i}.np", **self.level(lvl))
        case Attribute(obj=Name(id="setup"), name=attr) if "setup" not in self.scope and attr in BUILTIN_SETUP_FIELDS:
            return t.text(f"q.setup.{attr}.np")
        case Attribute(obj=Name(id="setup"), name=attr) if "setup" not in self.scope:  # a declared field
            field = next(f for f in self.rules.player_fields if f.name == attr)
            return t.text("q.setup.field.np", title=field.title.get(self.lang) or field.title.en)
        case Attribute(obj=o, name=attr) if self.kind(o) == PLAYER:
            person, who = self.player(o)
            return t.text(f"attr.{attr}.{person}.np", **who)
        case Index(obj=Attribute(obj=o, name=attr), index=c) if self.kind(o) == PLAYER:
            person, who = self.player(o)
            variant, fields = self.colour(c)
            if t.table.has(f"attr.{attr}.{self.owner(person)}.np.{variant}"):  # "your own bonuses" (a price)
                person = self.owner(person)
            return t.text(f"attr.{attr}.{person}.np.{variant}", **who, **fields)
        case Attribute(obj=o, name=attr) if (k := self.base_kind(o, attr)) is not None:  # a base card in a zone
            return t.text(f"q.{k}.{attr}.np", **self.named(k, self.thing(o)))
        case Index(obj=Attribute(obj=o, name=attr), index=c) if (k := self.base_kind(o, attr)) is not None:
            variant, fields = self.colour(c)
            return t.text(f"q.{k}.{attr}.np.{variant}", **self.named(k, self.thing(o)), **fields)
        case Attribute(obj=o, name=attr) if self.kind(o) == COMPONENT or self.base_extra(o, attr) is not None:
            key = "q.component.np.keyword" if self._column_type(o, attr) == "keyword" else "q.component.np"
            return t.text(key, column=self.column(attr, o), **self.named("x", self.thing(o)))  # a word, no number
        case Index(obj=Attribute(obj=o, name=attr), index=c) if (
            self.kind(o) == COMPONENT or self.base_extra(o, attr) is not None
        ):
            variant, fields = self.colour(c)
            return t.text(
                f"q.component.np.{variant}", column=self.column(attr, o), **self.named("x", self.thing(o)), **fields
            )
        case Call(func="size", args=(coll,)) if self.zone(coll) is not None:  # a zone, a set of components
            return t.text("fn.size.zone", **self.named("zone", self.zone(coll) or {}))
        case Attribute(obj=o, name=attr) if self.kind(o) in (CARD, NOBLE, PAYMENT):
            k = self.kind(o)
            return t.text(f"q.{k}.{attr}.np", **self.named(k, self.thing(o)))
        case Index(obj=Attribute(obj=o, name=attr), index=c) if self.kind(o) in (CARD, NOBLE, PAYMENT):
            k = self.kind(o)
            variant, fields = self.colour(c)
            return t.text(f"q.{k}.{attr}.np.{variant}", **self.named(k, self.thing(o)), **fields)
    return None


def _computed(self: Phraser, node) -> str:  # noqa: C901 - one dispatch over node kinds
    """A quantity computed from others (a size, min, max, abs, an aggregate, arithmetic, a
    conditional value), as a noun phrase; a level's name."""
    t = self.t
    match node:
        case Call(func="size", args=(coll,)):
            ref = self.lookup(coll.id) if isinstance(coll, Name) else None
            if ref is not None and ref.kind == COLOURS:
                return t.text("fn.size.chosen", **self.named("set", self.ref_forms(ref)))
            _, key = self.collection(coll)
            return t.text("fn.size", items=t.text(f"{key}.noun", n=None))
        case Call(func="max", args=(a, b)) if self.const(a) == 0 or self.const(b) == 0:
            other = b if self.const(a) == 0 else a
            return t.text("fn.max0", x=self.number(other), zero=0)
        case Call(func="min" | "max" as f, args=args):
            parts = [self.number(a) for a in args]
            if len(parts) == 2:
                return t.text(f"fn.{f}2", a=parts[0], b=parts[1])
            return t.text(FUNCTIONS[f].phrase, items=join(t, parts))
        case Call(func="abs", args=(a,)):
            return t.text(FUNCTIONS["abs"].phrase, x=self.number(a))
        case Aggregate(func=f, body=body, var=var, collection=coll) if f in ("sum", "count", "min", "max"):
            inner = self.bind(var, coll)
            _, key = self.collection(coll)
            items = t.text(f"{key}.noun", n=None)
            what = inner.condition(body) if f == "count" else inner.number(body)
            return t.text(AGGREGATES[f].phrase, body=what, items=items, **self.each(key))
        case Binary(op=op, left=l, right=r):
            name = {"+": "add", "-": "sub", "*": "mul", "//": "floordiv", "%": "mod"}[op]
            return t.text(f"op.{name}", a=self.number(l), b=self.number(r))
        case Unary(op="-", operand=o):
            return t.text("op.neg", a=self.number(o))
        case Conditional(test=test, then=a, otherwise=b):
            return t.text("value.if", test=self.condition(test), then=self.number(a), otherwise=self.number(b))
        case Name(id=i) if (ref := self.lookup(i)) is not None and ref.kind == LEVEL:
            return self.level(node)["level"]
        case Name(id=i) if (ref := self.lookup(i)) is not None and ref.key == "ref.given":  # a queued step's
            return str(self.ref_forms(ref)[""])
    raise PhraseError(f"cannot phrase {type(node).__name__} as a number")


def worth(self: Phraser, node) -> str:
    """A payment's worth: how many gems of one colour each wild token may stand for."""
    most = self.const(node)
    if most is not None:
        return self.t.text("sheet.buy.worth", 1, most=most)
    return self.t.text("sheet.buy.worth.expr", 1, most=self.number(node))


def wilds(self: Phraser, spent: Wilds) -> str:
    """A payment's `wilds`: the player's components it may spend as wild tokens, and where they go."""
    zones = {z.name: z for z in self.rules.zones}
    source = zones[spent.source]
    kind = next(k for k in self.rules.kinds if k.name == source.holds)
    column = next(c for c in kind.columns if c.name == spent.units)
    units = (column.title.get(self.lang) or column.title.en) if column.title is not None else column.name
    holding = self.t.text("zone.you.of", zone=source.title.get(self.lang) or source.title.en)
    if spent.spent == "discard":
        return self.t.text("sheet.buy.wilds", 5, holding=holding, units=units)
    to = zones[spent.spent]
    where = self.t.text("zone.shared.acc", zone=to.title.get(self.lang) or to.title.en)
    return self.t.text("sheet.buy.wilds.to", 5, holding=holding, units=units, zone=where)


def price(self: Phraser, node) -> str:
    """A payment's price, an expression of the gem colour `c`: "for each gem colour, you pay ..."."""
    inner = self.bind("c", Name("gems", getattr(node, "span", None)))
    inner.reflexive = True  # you pay: your own bonuses (Serbian "својих бонуса")
    return self.t.text("sheet.buy.price", price=inner.number(node))


def constant(rules: Rules, node, bound: Mapping[str, object] = {}) -> int | None:  # noqa: B006 - read only
    """The value of a node that is the same in every game under `rules`, else None.

    Integers, the names of `values` (unless `bound` shadows them) and arithmetic,
    min, max, abs and the size of a fixed collection over those fold to a number.
    """
    values = {v.name: v.value for v in rules.values}

    def fold(node):
        match node:
            case Int(value=v):
                return v
            case Name(id=i) if i in values and i not in bound:
                return values[i]
            case Unary(op="-", operand=o):
                v = fold(o)
                return None if v is None else -v
            case Binary(op=op, left=l, right=r):
                a, b = fold(l), fold(r)
                if a is None or b is None or (op in ("//", "%") and b == 0):
                    return None
                return {"+": a + b, "-": a - b, "*": a * b, "//": a // b if b else 0, "%": a % b if b else 0}[op]
            case Call(func="min" | "max" as f, args=args) if args:
                vals = [fold(a) for a in args]
                return None if None in vals else (min(vals) if f == "min" else max(vals))
            case Call(func="abs", args=(a,)):
                v = fold(a)
                return None if v is None else abs(v)
            case Call(func="size", args=(Name(id=i),)) if i in ("gems", "colours", "levels") and i not in bound:
                return len({"gems": rules.gems, "colours": rules.colours, "levels": rules.levels}[i])
        return None

    return fold(node)
