"""Sheets, phrasing: expression and effect nodes -> sentence fragments in each language.

Takes a node of :mod:`compiler.front.expr` (a condition, a quantity or an effect), the
language and the rule model; returns a fragment such as "you hold fewer than 3
reserved cards", never code. Every number comes from the model (``rules.value``),
every word from the language table (:mod:`.tables`): this module only decides which
phrase fits which shape of node, and fills it in.

The phrasing is compositional, with a few richer patterns where a shape is common:

* A comparison of a *countable* quantity with a constant becomes a count sentence:
  ``me.reserved < reserve_limit`` -> "you hold fewer than 3 reserved cards";
  ``supply[colour] >= pair_minimum`` -> "at least 4 tokens of the chosen colour are
  in the supply". The noun agrees with the number (CLDR plural forms).
* Any other comparison is "{quantity} is at least {quantity}", each side phrased as a
  noun phrase ("the number of ...").
* ``for c in picked: take(c, 1)`` -> "take 1 token of each chosen colour" (the loop
  variable is fused into its only use); any other loop is "for each ..., ...".
* Aggregates, ``min``/``max``/``abs``/``size``, arithmetic, ``if ... then ... else``,
  ``and``/``or``/``not``, membership and ``none`` all have a general phrase.

Variables are referred to by what they are: a choice of the decision ("the chosen
colour"), a loop variable ("that colour"), ``me`` ("you"), ``player`` in the winners
section ("the player").

Serbian needs cases, so every reference comes in four forms, passed to the templates
as ``{x}`` (subject), ``{x_of}`` (genitive: "of ..."), ``{x_in}`` (locative: "in ...")
and ``{x_acc}`` (object); English, French and Dutch mostly use the same text for all.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..check.types import Comp, Keyword
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
    unparse,
    walk,
)
from ..model import BUILTIN_SETUP_FIELDS, Decision, Rules
from . import tables

Fields = dict[str, Any]
"""A phrase's named forms, spread into a message's fields (`text(key, **fields)`). Any, not str: a
spread dict[str, str] would be matched by mypy against `text`'s `n: int | None` as well."""

CASES = ("", "_of", "_in", "_acc")  # "_name" is a fifth form of a colour written by name
_CASE_KEYS = ("", ".of", ".in", ".acc")

# The comparison operators, their names in the tables, and their mirror image.
_OPS = {">=": "ge", ">": "gt", "<=": "le", "<": "lt", "==": "eq", "!=": "ne"}
_FLIP = {">=": "<=", ">": "<", "<=": ">=", "<": ">", "==": "==", "!=": "!="}
_NEGATE = {">=": "<", ">": "<=", "<=": ">", "<": ">=", "==": "!=", "!=": "=="}

# Kinds of values an expression can denote (beyond numbers and conditions).
COLOUR, COLOURS, CARD, LEVEL, NOBLE, PAYMENT, PLAYER, NONE, NUMBER, BOOL = (
    "colour", "colours", "card", "level", "noble", "payment", "player", "none", "number", "bool")
COMPONENT = "component"  # a component of a kind of the spec's own (a city): issue 16, zones

_DOMAIN_KINDS = {"gem": COLOUR, "colour": COLOUR, "gem_set": COLOURS, "face_up": CARD, "reserved": CARD,
                 "deck": LEVEL, "noble": NOBLE, "payment": PAYMENT, "component": COMPONENT}

# A declared variable's type (compiler/check/types.py) -> the kind of value it phrases as.
def _state_kind(t) -> str:
    name = getattr(t, "name", "")
    if hasattr(t, "elem") and hasattr(t.elem, "kind"):  # a set of components: read as a zone is
        return "zone"
    return COLOURS if hasattr(t, "elem") else {"int": NUMBER, "bool": BOOL, "gem": COLOUR, "colour": COLOUR,
                                               "player": PLAYER}[name]


def state_type_key(t) -> str:
    """A declared variable's type as the tables name it (state.type.KEY): number, flag, ..., set_colour."""
    if hasattr(t, "elem"):
        return "set_comp" if hasattr(t.elem, "kind") else "set_" + t.elem.name
    return {"int": "number", "bool": "flag"}.get(t.name, t.name)


# Player attributes that count things (and so have a count sentence and a noun).
_COUNTED = ("tokens", "bonus", "prestige", "purchased", "reserved", "nobles", "held", "turns")
# What a call of a definition denotes, by its result type (compiler/check/types.py, as a noun).
_RESULT_KINDS = {"number": NUMBER, "condition": BOOL, "gem colour": COLOUR, "token colour": COLOUR, "player": PLAYER}
# Global collections: name -> kind of element.
_COLLECTIONS = {"gems": COLOUR, "colours": COLOUR, "levels": LEVEL, "players": PLAYER, "others": PLAYER}


class PhraseError(ValueError):
    """A node this module cannot phrase (only raised for nodes the checker rejects)."""


@dataclass(frozen=True)
class Ref:
    """How to refer to a variable: its kind and the table key of its phrase.

    ``key`` names a phrase with the four case forms (``key``, ``key.of``, ``key.in``,
    ``key.acc``). A player is ``you`` (second person) or ``they`` (third person).
    """

    kind: str
    key: str
    fields: Mapping[str, object] = field(default_factory=dict)
    person: str = "they"  # players only
    coll: str | None = None  # loop variables: the collection phrase key
    suffix: str = ""  # " (2)" for the second of two choices of one kind
    holds: str = ""  # components of a spec's kind (a chosen city, a loop over a zone): the kind's name


# Letters a word may open with where a table elides before it ("que il" -> "qu'il").
_VOWELS = frozenset("aeiouyàâäéèêëîïôöùûüœæ")


def join(t, items: list[str], how: str = "and") -> str:
    """'A', 'A and B', 'A, B and C' (or 'or') in the table's language."""
    items = [i for i in items if i]
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    return t.text(f"list.{how}", first=t.text("list.sep").join(items[:-1]), last=items[-1])


def capitalise(text: str) -> str:
    return text[:1].upper() + text[1:] if text else text


def sentence(text: str) -> str:
    """A fragment made a sentence: capital first letter, full stop."""
    text = capitalise(text.strip())
    return text if not text or text[-1] in ".!?:" else text + "."


class _Words:
    """A table whose texts may also use the wild colour's name (``{wild}``, ``{wild_adj}``)."""

    def __init__(self, table: tables.Table, rules: Rules):
        self.table = table
        self.lang = table.lang
        self.base = {"wild": table.text(f"colour.{rules.wild}"), "wild_adj": table.form(f"colour.{rules.wild}.adj")}

    def text(self, key: str, n: int | None = None, **fields) -> str:
        return self.table.text(key, n, **{**self.base, **fields})

    def form(self, key: str, n: int | None = None):
        return self.table.form(key, n)


class Phraser:
    """Phrases nodes of one rule model in one language, within a scope of variables."""

    def __init__(self, lang: str, rules: Rules, decision: Decision | None = None,
                 table: tables.Table | None = None, scope: Mapping[str, Ref] | None = None,
                 main_clause: bool = False):
        self.lang = lang
        self.rules = rules
        # A condition is phrased as a subordinate clause ("only if ...", "while ..."), where French
        # repeats "que" after "et"/"ou"; `main_clause` phrases it standing alone (the diff's "before").
        self.main_clause = main_clause
        self.t = _Words(table or tables.load(lang), rules)
        self.values = {v.name: v.value for v in rules.values}
        self.scope: dict[str, Ref] = dict(scope or {})
        if not self.scope:
            self.scope["me"] = Ref(PLAYER, "ref.player.you", person="you")
            self.scope["player"] = Ref(PLAYER, "ref.player.the")
        if decision is not None:
            self.enter(decision)

    # ------------------------------------------------------------------ scope

    def enter(self, decision: Decision) -> None:
        """Bind the choices of a decision ("the chosen colour", "the chosen card")."""
        seen: dict[str, int] = {}
        for p in decision.params:
            kind = _DOMAIN_KINDS[p.domain]
            seen[kind] = seen.get(kind, 0) + 1
        counter: dict[str, int] = {}
        for p in decision.params:
            kind = _DOMAIN_KINDS[p.domain]
            counter[kind] = counter.get(kind, 0) + 1
            suffix = f" ({counter[kind]})" if seen[kind] > 1 else ""
            fields = {"item": self.item(p.source)} if p.domain == "component" else {}
            holds = self.holds(p.source) if p.domain == "component" else ""
            self.scope[p.name] = Ref(kind, f"ref.{p.domain}.chosen", fields, suffix=suffix, holds=holds)

    def holds(self, source: str) -> str:
        """The kind a zone holds (a kind's own name stands for itself)."""
        return next((z.holds for z in self.rules.zones if z.name == source), source)

    def word(self, node: Word, keyword_type=None) -> str:
        """A keyword: where one component of a kind with a `key` has it in its column, that component
        by its item and key ("trading post 3", "comptoir 3"): the words a table uses for it; else the
        keyword itself, quoted as the language quotes."""
        columns = [(k, i) for k in self.rules.kinds for i, c in enumerate(k.columns) if c.type == "keyword"
                   and (keyword_type is None or (k.name, c.name) == (keyword_type.kind, keyword_type.column))]
        holders = [(k, c) for k, i in columns for c in k.components if c.values[i] == node.value]
        if len(holders) == 1 and holders[0][0].key:
            kind, component = holders[0]
            return self.t.text("word.component", item=kind.item.get(self.lang) or kind.item.en,
                               id=str(kind.value(component, kind.key)))
        return self.t.text("word.keyword", x=node.value)

    def item(self, source: str) -> str:
        """One component of a zone's (or a kind's) kind, in this language ("city", "cité")."""
        holds = self.holds(source)
        kind = next((k for k in self.rules.kinds if k.name == holds), None)
        if kind is None:
            raise PhraseError(f"no kind '{holds}'")
        return kind.item.get(self.lang) or kind.item.en

    def zone_of(self, node):
        """The model's zone `node` names (a shared zone's name, a player's zone), else None."""
        match node:
            case Name(id=i) if i not in self.scope:
                return next((z for z in self.rules.zones if z.name == i and not z.per_player), None)
            case Attribute(obj=o, name=i) if self.kind(o) == PLAYER:
                return next((z for z in self.rules.zones if z.name == i and z.per_player), None)
        return None

    def held_kind(self, node) -> str | None:
        """The kind of the components a zone or a set of components (`me.markers`) holds, else None."""
        zone = self.zone_of(node)
        if zone is not None:
            return zone.holds
        var = self.component_set(node)
        return var.type.elem.kind if var is not None else None

    def zone(self, node) -> Fields | None:
        """A zone of the spec's own in its four forms ("your “Claimed cities”"), or None."""
        match node:
            case Name(id=i) if i not in self.scope:
                zone = next((z for z in self.rules.zones if z.name == i and not z.per_player), None)
                if zone is not None:
                    return self.forms("zone.shared", zone=zone.title.get(self.lang) or zone.title.en)
            case Attribute(obj=o, name=i):
                zone = next((z for z in self.rules.zones if z.name == i and z.per_player), None)
                if zone is not None and self.kind(o) == PLAYER:
                    person, who = self.player(o)
                    return self.forms(f"zone.{person}", zone=zone.title.get(self.lang) or zone.title.en, **who)
        var = self.component_set(node)
        if var is not None:  # a set of components reads as a zone does: its title, quoted
            title = var.title.get(self.lang) or var.title.en
            if not var.per_player:
                return self.forms("zone.shared", zone=title)
            person, who = self.player(node.obj)
            return self.forms(f"zone.{person}", zone=title, **who)
        return None

    def component_set(self, node):
        """The variable holding a set of components that `node` reads (`me.markers`), else None."""
        var = self.own_state(node) if isinstance(node, Attribute) else next(
            (v for v in self.rules.variables if isinstance(node, Name) and node.id not in self.scope
             and v.name == node.id and not v.per_player), None)
        return var if var is not None and _state_kind(var.type) == "zone" else None

    def column(self, attr: str, owner=None) -> str:
        """A column of a kind: its title in this language where the spec gives one (the kind of the
        component `owner`), else its name as it reads."""
        found = self._column(owner, attr) if owner is not None else None
        if found is not None and found.title is not None:
            return found.title.get(self.lang) or found.title.en
        return attr.replace("_", " ")

    def bind(self, var: str, collection) -> Phraser:
        """A phraser in which `var` is an element of `collection` ("that colour")."""
        kind, coll_key = self.collection(collection)
        child = Phraser(self.lang, self.rules, table=self.t.table, scope=self.scope)
        holds = self.held_kind(collection) if kind == COMPONENT else None
        if holds is not None:  # "that city" (fr, nl, sr: "that piece (city)"), of the zone's (or set's) kind
            child.scope[var] = Ref(kind, "ref.component.that", {"item": self.item(holds)}, coll=coll_key,
                                   holds=holds)
        else:
            child.scope[var] = Ref(kind, f"ref.{kind}.that", coll=coll_key)
        return child

    def bind_each(self, var: str, collection) -> Phraser:
        """A phraser in which `var` reads as "each element of collection" (a fused loop)."""
        kind, coll_key = self.collection(collection)
        child = Phraser(self.lang, self.rules, table=self.t.table, scope=self.scope)
        child.scope[var] = Ref(kind, f"{coll_key}.each", coll=coll_key)
        return child

    def own_state(self, node):
        """The per-player variable `node` reads (`me.taken`, `player.markers`), else None."""
        if isinstance(node, Attribute) and self.kind(node.obj) == PLAYER:
            return next((v for v in self.rules.variables if v.name == node.name and v.per_player), None)
        return None

    def state_forms(self, node) -> Fields | None:
        """A variable's four forms (your "Markers", "Colours taken"), else None."""
        if isinstance(node, Name) and node.id not in self.scope:
            ref = self.lookup(node.id)
            return self.ref_forms(ref) if ref is not None and ref.key == "ref.state" else None
        var = self.own_state(node)
        if var is None:
            return None
        title = var.title.get(self.lang) or var.title.en
        person, who = self.player(node.obj)
        return self.forms(f"ref.state.{person}", title=title, **who)

    def collection(self, node) -> tuple[str, str]:
        """The element kind of a collection and the key prefix of its phrases."""
        state = self.state_forms(node)
        if state is not None and self.kind(node) == COLOURS:  # a set variable: "each colour of "Taken""
            self.t.base.update(self.named("state", state))
            return COLOUR, "coll.state"
        if isinstance(node, Index) and node.obj == Name("market", None) and "market" not in self.scope:
            self.t.base.update(self.level(node.index))  # "each face-up card of level 2"
            return CARD, "coll.market"
        holds = self.held_kind(node)
        if holds is not None:  # a zone or a set of components: "each city in your “Claimed cities”", by its
            # kind's item and its title
            self.t.base.update({**self.named("zone", self.zone(node) or {}), "item": self.item(holds)})
            return COMPONENT, "coll.zone"
        if isinstance(node, Name):
            if node.id in _COLLECTIONS and node.id not in self.scope:
                return _COLLECTIONS[node.id], f"coll.{node.id}"
            ref = self.lookup(node.id)
            if ref is not None and ref.kind == COLOURS:
                return COLOUR, "coll.chosen_colours"
        raise PhraseError("a loop runs over the gem colours, the colours, the levels, the players, the other "
                          "players, a chosen set of colours, a declared set or a zone")

    def lookup(self, name: str) -> Ref | None:
        if name in self.scope:
            return self.scope[name]
        var = next((v for v in self.rules.variables if v.name == name and not v.per_player), None)
        if var is not None:  # a shared variable: its title, quoted ("the "Colours taken this turn"")
            return Ref(_state_kind(var.type), "ref.state", {"title": var.title.get(self.lang) or var.title.en})
        # A choice named outside its decision (the diff phrases single conditions).
        for d in self.rules.actions + self.rules.steps:
            p = d.param(name)
            if p is not None and p.domain == "component":
                return Ref(COMPONENT, "ref.component.chosen", {"item": self.item(p.source)}, holds=self.holds(p.source))
            if p is not None:
                return Ref(_DOMAIN_KINDS[p.domain], f"ref.{p.domain}.chosen")
        return None

    # ------------------------------------------------------------------ entry points

    def describe(self, node) -> str:
        """Any expression or statement node, as a fragment."""
        if isinstance(node, (Effect, ForEach, When, Sequence)):
            return self.effect(node)
        if isinstance(node, (tuple, list)):
            return self.effects(node)
        kind = self.kind(node)
        if kind == BOOL:
            return self.condition(node)
        if kind == NUMBER:
            return self.number(node)
        return self.thing(node)[""]

    def effects(self, stmts) -> str:
        """The effects in order; a card the previous effect named is "it" ("reserve the chosen card
        and replace it ..."), where the table has that effect's pronoun form (``eff.NAME.it``)."""
        if not stmts:
            return self.t.text("eff.nothing")
        said, previous = [], None
        for stmt in stmts:
            card = _card_of(stmt)
            if card is not None and card == previous and self.t.table.has(f"eff.{stmt.name}.it"):
                said.append(self.t.text(f"eff.{stmt.name}.it"))
            else:
                said.append(self.effect(stmt))
            previous = card
        return join(self.t, said)

    def worth(self, node) -> str:
        """A payment's worth: how many gems of one colour each wild token may stand for."""
        most = self.const(node)
        if most is not None:
            return self.t.text("sheet.buy.worth", 1, most=most)
        return self.t.text("sheet.buy.worth.expr", 1, most=self.number(node))

    def price(self, node) -> str:
        """A payment's price, an expression of the gem colour `c`: "for each gem colour, you pay ..."."""
        inner = self.bind("c", Name("gems", getattr(node, "span", None)))
        return self.t.text("sheet.buy.price", price=inner.number(node))

    # ------------------------------------------------------------------ definitions

    def definition(self, name: str):
        """The spec's definition `name`, or None (a built-in function, or no such definition)."""
        return next((d for d in self.rules.definitions if d.name == name), None)

    def defined(self, node) -> str:
        """A call of a definition: its title in this language, each placeholder {param} replaced
        by its argument in words ("the player has a bonus of every gem colour"), not its body."""
        d = self.definition(node.func)
        fields = {p: self.argument(a, t) for (p, t), a in zip(d.params, node.args, strict=False)}
        title = d.title.get(self.lang) or d.title.en
        return tables.PLACEHOLDER.sub(lambda m: fields.get(m.group(1), m.group(0)), title)

    def argument(self, node, param_type=None) -> str:
        """An argument of a call, as the title's placeholder stands for it: a player in the third
        person (a title is written of "{p}", never of "you"); a keyword by the component it names."""
        if isinstance(node, Word):
            return self.word(node, param_type)
        kind = self.kind(node)
        if kind == BOOL:
            return self.condition(node)
        if kind == NUMBER:
            return self.number(node)
        if kind == PLAYER and self.is_you(node):
            return self.t.text("ref.player.the")
        return self.thing(node)[""]

    # ------------------------------------------------------------------ kinds and constants

    def kind(self, node) -> str:  # noqa: C901 - one dispatch over node kinds
        match node:
            case Call(func=f) if self.definition(f) is not None:
                return _RESULT_KINDS.get(str(self.definition(f).result), NUMBER)
            case Int() | Binary() | Aggregate(func="sum" | "count" | "min" | "max") | Call():
                return NUMBER
            case Unary(op="-"):
                return NUMBER
            case Bool() | Compare() | Logic() | Unary(op="not") | Aggregate():
                return BOOL
            case Word():
                return "keyword"
            case Conditional(then=a):
                return self.kind(a)
            case Attribute() if self.own_state(node) is not None:
                return _state_kind(self.own_state(node).type)
            case Name(id=i):
                if i in self.values:
                    return NUMBER
                if i == "none":
                    return NONE
                if i in self.rules.colours and i not in self.scope:
                    return COLOUR
                ref = self.lookup(i)
                if ref is not None:
                    return ref.kind
                if i in _COLLECTIONS:
                    return COLOURS if _COLLECTIONS[i] == COLOUR else i
                return NUMBER
            case Attribute(obj=o, name="bonus") if self.kind(o) == CARD:
                return COLOUR
            case Attribute(obj=o, name=attr) if self.rules.zones and self.zone(node) is not None:
                return "zone"
            case Attribute(obj=o, name=attr) if self.rules.zones and self.kind(o) == COMPONENT:
                return "table" if self._column_type(o, attr) == "gems" else NUMBER
            case Attribute(obj=Name(id="setup"), name="gold") if "setup" not in self.scope:
                return NUMBER  # the wild tokens at setup, not a payment's table
            case Attribute(name="cost" | "requires" | "tokens" | "gold" | "spent" | "covers"):
                return "table"
            case Attribute() | Index():
                return NUMBER
        raise PhraseError(f"cannot phrase {type(node).__name__}")

    def _column_type(self, owner, attr: str) -> str:
        found = self._column(owner, attr)
        return found.type if found is not None else ""

    def _column(self, owner, attr: str):
        """The declared column `attr` of the kind of component `owner` (a name in scope), or None."""
        ref = self.lookup(owner.id) if isinstance(owner, Name) else None
        holds = ref.holds if ref is not None else ""
        kind = next((k for k in self.rules.kinds if k.name == holds), None)
        return next((c for c in kind.columns if c.name == attr), None) if kind is not None else None

    def const(self, node) -> int | None:
        """The value of a node that is the same in every game under these rules, else None."""
        return constant(self.rules, node, self.scope)

    # ------------------------------------------------------------------ references

    def forms(self, key: str, **fields) -> Fields:
        """The four case forms of a reference phrase, keyed '', '_of', '_in', '_acc'."""
        return {case: self.t.text(key + suffix, **fields) for case, suffix in zip(CASES, _CASE_KEYS, strict=True)}

    def each(self, coll_key: str) -> Fields:
        """'each gem colour' and 'the gem colours' in their four forms (each, each_of..., all, all_of...)."""
        return {**self.named("each", self.forms(f"{coll_key}.each")),
                **self.named("all", self.forms(f"{coll_key}.all"))}

    def named(self, prefix: str, forms: Mapping[str, str]) -> Fields:
        return {prefix + case: text for case, text in forms.items()}

    def ref_forms(self, ref: Ref) -> Fields:
        return {case: text + ref.suffix for case, text in self.forms(ref.key, **ref.fields).items()}

    def thing(self, node) -> Fields:
        """A non-number value (colour, card, level, noble, payment, player) in its four forms."""
        kind = self.kind(node)
        match node:
            case Name(id=i) if i in self.rules.colours and i not in self.scope:
                name = self.t.text(f"colour.{i}")
                return {case: name for case in CASES}
            case Name(id=i) if (ref := self.lookup(i)) is not None:
                return self.ref_forms(ref)
            case Name(id=i) if i in _COLLECTIONS:
                return self.forms(f"coll.{i}.all")
            case Attribute() if self.own_state(node) is not None:
                return self.state_forms(node) or {}
            case Attribute(obj=o, name="bonus") if kind == COLOUR:
                return self.forms("q.card.bonus", **self.named("card", self.thing(o)))
            case Call(func=f) if self.definition(f) is not None:
                text = self.defined(node)
                return {case: text for case in CASES}
            case Word():
                text = self.word(node)
                return {case: text for case in CASES}
            case Conditional(test=test, then=a, otherwise=b):
                ta, tb = self.thing(a), self.thing(b)
                cond = self.condition(test)
                return {case: self.t.text("value.if", then=ta[case], test=cond, otherwise=tb[case]) for case in CASES}
        if kind == NUMBER:
            text = self.number(node)
            return {case: text for case in CASES}
        raise PhraseError(f"cannot phrase {type(node).__name__} as a value")

    def colour(self, node) -> tuple[str, Fields]:
        """('lit', {colour: adjective}) for a colour written by name, else ('ref', four forms)."""
        if isinstance(node, Name) and node.id in self.rules.colours and node.id not in self.scope:
            return "lit", {"colour": self.t.form(f"colour.{node.id}.adj"),
                           "colour_name": self.t.text(f"colour.{node.id}")}
        return "ref", self.named("colour", self.thing(node))

    def level(self, node) -> Fields:
        """A level: 'level 2', 'the chosen level', 'that level', 'the level of the card'."""
        v = self.const(node)
        if v is not None:
            return self.named("level", self.forms("ref.level.number", n=v))
        if isinstance(node, Name) and (ref := self.lookup(node.id)) is not None:
            return self.named("level", self.ref_forms(ref))
        if isinstance(node, Attribute) and node.name == "level":
            return self.named("level", self.forms("q.card.level.ref", **self.named("card", self.thing(node.obj))))
        if isinstance(node, Conditional):  # "level 2 if ..., otherwise level 1"
            a, b, test = self.level(node.then), self.level(node.otherwise), self.condition(node.test)
            return {key: self.t.text("value.if", then=a[key], test=test, otherwise=b[key]) for key in a}
        return self.named("level", self.forms("ref.level.whose", x=self.number(node)))

    def player(self, node) -> tuple[str, Fields]:
        """('you', {}) or ('they', {who, who_of, who_in, who_acc})."""
        if isinstance(node, Name):
            ref = self.lookup(node.id)
            if ref is not None and ref.kind == PLAYER:
                if ref.person == "you":
                    return "you", {}
                return "they", self.named("who", self.ref_forms(ref))
        raise PhraseError("a player is 'me', 'player' or a loop variable over players")

    # ------------------------------------------------------------------ quantities

    def count_form(self, node) -> tuple[str, str, dict] | None:
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
                return f"q.{i}.count", {"nobles_left": "noun.noble", "player_count": "noun.player",
                                        "passes": "noun.pass"}[i], {}
            case Call(func="size", args=(coll,)) if self.state_forms(coll) is not None \
                    and self.component_set(coll) is None:
                return "q.size_state.count", "noun.colour", self.named("state", self.state_forms(coll) or {})
            case Call(func="size", args=(coll,)) if self.rules.zones and self.zone(coll) is not None:
                return "q.size_zone.count", "noun.piece", self.named("zone", self.zone(coll) or {})
            case Call(func="size", args=(Name(id=i),)) if (ref := self.lookup(i) or Ref("", "")).kind == COLOURS:
                return "q.size_chosen.count", "noun.colour", self.named("set", self.ref_forms(ref))
            case Attribute(obj=o, name=attr) if attr in _COUNTED and self.kind(o) == PLAYER:
                person, who = self.player(o)
                return f"attr.{attr}.{person}.count", f"attr.{attr}.noun", who
            case Index(obj=Attribute(obj=o, name=attr), index=c) if (attr in ("tokens", "bonus")
                                                                     and self.kind(o) == PLAYER):
                person, who = self.player(o)
                variant, fields = self.colour(c)
                return f"attr.{attr}.{person}.count", f"attr.{attr}.noun.{variant}", {**who, **fields}
            case Attribute(obj=o, name="points") if self.kind(o) in (CARD, NOBLE):
                k = self.kind(o)
                return f"q.{k}.points.count", "noun.point", self.named(k, self.thing(o))
            case Aggregate(func="count", body=body, var=var, collection=coll):
                inner = self.bind(var, coll)
                _, coll_key = self.collection(coll)
                return "agg.count.count", f"{coll_key}.noun", {"body": inner.condition(body)}
        return None

    def count(self, node, op: str, n: int) -> str | None:
        """'you hold fewer than 3 reserved cards': a counted quantity compared with a number."""
        form = self.count_form(node)
        if form is None or op == "!=":
            return None
        clause, noun_key, fields = form
        noun = self.t.text(noun_key, n=n, **fields)
        quant = self.t.text(f"quant.{_OPS[op]}", n=n, noun=noun)
        return self.t.text(clause, n=n, count=quant, **fields)

    def number(self, node) -> str:  # noqa: C901 - one dispatch over node kinds
        """A quantity as a noun phrase: '3', 'your prestige', 'the number of ...'."""
        v = self.const(node)
        if v is not None:
            return str(v)
        t = self.t
        match node:
            case Call(func=f) if self.definition(f) is not None:
                return self.defined(node)
            case Name(id=i) if i in ("player_count", "round", "turn", "passes", "nobles_left") and i not in self.scope:
                return t.text(f"q.{i}.np")
            case Call(func="size", args=(coll,)) if self.state_forms(coll) is not None \
                    and self.component_set(coll) is None:
                return t.text("fn.size.state", **self.named("state", self.state_forms(coll) or {}))
            case Name() | Attribute() if self.state_forms(node) is not None:
                return (self.state_forms(node) or {})[""]
            case Index(obj=Name(id="supply"), index=c) if "supply" not in self.scope:
                variant, fields = self.colour(c)
                return t.text(f"q.supply.np.{variant}", **fields)
            case Index(obj=Name(id="deck" | "face_up" as i), index=lvl) if i not in self.scope:
                return t.text(f"q.{i}.np", **self.level(lvl))
            case Attribute(obj=Name(id="setup"), name=attr) if "setup" not in self.scope \
                    and attr in BUILTIN_SETUP_FIELDS:
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
                return t.text(f"attr.{attr}.{person}.np.{variant}", **who, **fields)
            case Attribute(obj=o, name=attr) if self.kind(o) == COMPONENT:
                return t.text("q.component.np", column=self.column(attr, o), **self.named("x", self.thing(o)))
            case Index(obj=Attribute(obj=o, name=attr), index=c) if self.kind(o) == COMPONENT:
                variant, fields = self.colour(c)
                return t.text(f"q.component.np.{variant}", column=self.column(attr, o),
                              **self.named("x", self.thing(o)), **fields)
            case Call(func="size", args=(coll,)) if self.zone(coll) is not None:  # a zone, a set of components
                return t.text("fn.size.zone", **self.named("zone", self.zone(coll) or {}))
            case Attribute(obj=o, name=attr) if self.kind(o) in (CARD, NOBLE, PAYMENT):
                k = self.kind(o)
                return t.text(f"q.{k}.{attr}.np", **self.named(k, self.thing(o)))
            case Index(obj=Attribute(obj=o, name=attr), index=c) if self.kind(o) in (CARD, NOBLE, PAYMENT):
                k = self.kind(o)
                variant, fields = self.colour(c)
                return t.text(f"q.{k}.{attr}.np.{variant}", **self.named(k, self.thing(o)), **fields)
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
                return t.text(f"fn.{f}", items=join(t, parts))
            case Call(func="abs", args=(a,)):
                return t.text("fn.abs", x=self.number(a))
            case Aggregate(func=f, body=body, var=var, collection=coll) if f in ("sum", "count", "min", "max"):
                inner = self.bind(var, coll)
                _, key = self.collection(coll)
                items = t.text(f"{key}.noun", n=None)
                what = inner.condition(body) if f == "count" else inner.number(body)
                return t.text(f"agg.{f}", body=what, items=items, **self.each(key))
            case Binary(op=op, left=l, right=r):
                name = {"+": "add", "-": "sub", "*": "mul", "//": "floordiv", "%": "mod"}[op]
                return t.text(f"op.{name}", a=self.number(l), b=self.number(r))
            case Unary(op="-", operand=o):
                return t.text("op.neg", a=self.number(o))
            case Conditional(test=test, then=a, otherwise=b):
                return t.text("value.if", test=self.condition(test), then=self.number(a), otherwise=self.number(b))
            case Name(id=i) if (ref := self.lookup(i)) is not None and ref.kind == LEVEL:
                return self.level(node)["level"]
        raise PhraseError(f"cannot phrase {type(node).__name__} as a number")

    # ------------------------------------------------------------------ conditions

    def condition(self, node) -> str:  # noqa: C901 - one dispatch over node kinds
        t = self.t
        match node:
            case Call(func=f) if self.definition(f) is not None:
                return self.defined(node)
            case Bool(value=v):
                return t.text("cond.always" if v else "cond.never")
            case Logic(op=op):
                items: list[str] = []
                for part in self.chain(node, op):
                    text = self.condition(part)
                    if isinstance(part, Logic):  # the other operator, nested
                        text = t.text(f"logic.nested_{part.op}", x=text)
                    if items and not self.main_clause:
                        text = self.joined_clause(text)
                    items.append(text)
                return join(t, items, op)
            case Unary(op="not", operand=o):
                return self.negation(o)
            case Name() | Attribute() if self.state_forms(node) is not None:  # a flag
                return t.text("cond.flag", **self.named("x", self.state_forms(node) or {}))
            case Compare(op="in" | "not in" as op, left=left, right=right):
                coll = self.collection_phrase(right)
                key = "cond.in" if op == "in" else "cond.not_in"
                if self.is_you(left):  # "you are one of the players"
                    return t.text(f"{key}.you", coll=coll)
                return t.text(key, x=self.thing(left)[""], coll=coll)
            case Compare(op=op, left=left, right=right):
                return self.compare(op, left, right)
            case Aggregate(func="all" | "any" as f, body=body, var=var, collection=coll):
                inner = self.bind(var, coll)
                _, key = self.collection(coll)
                return t.text(f"agg.{f}", body=inner.condition(body), some=t.text(f"{key}.some"), **self.each(key))
            case Conditional(test=test, then=a, otherwise=b):
                return t.text("cond.if", test=self.condition(test), then=self.condition(a),
                              otherwise=self.condition(b))
        raise PhraseError(f"cannot phrase {type(node).__name__} as a condition")

    def joined_clause(self, text: str) -> str:
        """A clause joined to a subordinate clause after the first ("... et qu'il reste ..."):
        the table's `logic.clause`, or `logic.clause.elided` before a vowel."""
        key = "logic.clause.elided" if text[:1].lower() in _VOWELS else "logic.clause"
        return self.t.text(key, x=text)

    def chain(self, node, op: str) -> list:
        if isinstance(node, Logic) and node.op == op:
            return self.chain(node.left, op) + self.chain(node.right, op)
        return [node]

    def negation(self, node) -> str:
        match node:
            case Bool(value=v):
                return self.condition(Bool(not v, node.span))
            case Unary(op="not", operand=o):
                return self.condition(o)
            case Compare(op="in" | "not in" as op, left=left, right=right):
                return self.condition(Compare("not in" if op == "in" else "in", left, right, node.span))
            case Compare(op=op, left=left, right=right):
                return self.compare(_NEGATE[op], left, right)
        return self.t.text("logic.not", x=self.condition(node))

    def is_you(self, node) -> bool:
        """Is `node` the player the sheet speaks to ("you")?"""
        ref = self.lookup(node.id) if isinstance(node, Name) else None
        return ref is not None and ref.kind == PLAYER and ref.person == "you"

    def collection_phrase(self, node) -> str:
        state = self.state_forms(node)
        if state is not None:
            return state[""]
        if isinstance(node, Name):
            ref = self.lookup(node.id)
            if ref is not None and ref.kind == COLOURS:
                return self.ref_forms(ref)[""]
            if node.id in _COLLECTIONS:
                return self.t.text(f"coll.{node.id}.all")
        zone = self.zone(node)
        if zone is not None:  # "the chosen city is one of the pieces in “Cities on display”"
            self.collection(node)
            return self.t.text("coll.zone.all.acc")  # Serbian: "спада у елементе ..."
        raise PhraseError("membership is tested in a collection")

    def compare(self, op: str, left, right) -> str:
        t = self.t
        lk, rk = self.kind(left), self.kind(right)
        lk, rk = (NUMBER if k == LEVEL else k for k in (lk, rk))
        if NONE in (lk, rk) and self.state_forms(right if lk == NONE else left) is not None:  # an optional variable
            state = self.state_forms(right if lk == NONE else left) or {}
            return t.text(f"cond.state.{'none' if op == '==' else 'some'}", **self.named("x", state))
        if NONE in (lk, rk) and isinstance(right if lk == NONE else left, Attribute):  # an optional column
            return t.text(f"cond.column.{'none' if op == '==' else 'some'}",
                          **self.named("x", self.thing(right if lk == NONE else left)))
        if NONE in (lk, rk):
            other = right if lk == NONE else left
            kind = self.kind(other)
            ref = self.lookup(other.id) if isinstance(other, Name) else None
            item: Fields = {"item": ref.fields["item"]} if ref is not None and "item" in ref.fields else {}
            return t.text(f"cond.{'none' if op == '==' else 'some'}.{kind}", **self.named("x", self.thing(other)),
                          **item)
        if lk != NUMBER or rk != NUMBER:
            if self.is_you(left) and self.is_you(right):  # you are always you
                return t.text("cond.always" if op == "==" else "cond.never")
            if self.is_you(left):  # "that player is you", never "you is that player"
                left, right = right, left
            key = "cond.same" if op == "==" else "cond.not_same"
            return t.text(key, a=self.thing(left)[""], b=self.thing(right)[""])
        lc, rc = self.const(left), self.const(right)
        if lc is None and rc is None:
            said = self.compare_quantities(op, left, right) or self.compare_quantities(_FLIP[op], right, left)
            if said is not None:
                return said
        if rc is not None and lc is None:
            said = self.count(left, op, rc)
            if said is not None:
                return said
            return t.text(f"cmp.num.{_OPS[op]}", a=self.number(left), n=rc)
        if lc is not None and rc is None:
            said = self.count(right, _FLIP[op], lc)
            if said is not None:
                return said
            return t.text(f"cmp.num.{_OPS[_FLIP[op]]}", a=self.number(right), n=lc)
        return t.text(f"cmp.{_OPS[op]}", a=self.number(left), b=self.number(right))

    def compare_quantities(self, op: str, left, right) -> str | None:
        """Two patterns for quantities compared with quantities.

        ``me.bonus[c] >= noble.requires[c]`` -> "you have at least as many bonuses of that
        colour as the chosen noble requires" (a counted quantity against a requirement);
        ``x == min(k, y)`` -> "x is k, or y if that is smaller".
        """
        form = self.count_form(left)
        rel = self.relative(right)
        if form is not None and rel is not None and op != "!=":
            clause, noun_key, fields = form
            noun = self.t.text(noun_key, n=None, **fields)
            quant = self.t.text(f"quant.{_OPS[op]}.as", noun=noun, b=rel)
            return self.t.text(clause, n=None, count=quant, **fields)
        if op == "==" and isinstance(right, Call) and right.func in ("min", "max") and len(right.args) == 2:
            a, b = right.args
            if self.const(b) is not None and self.const(a) is None:
                a, b = b, a
            return self.t.text(f"cmp.eq_{right.func}", a=self.number(left), b=self.number(a), c=self.number(b))
        return None

    def relative(self, node) -> str | None:
        """'the chosen noble requires', 'the chosen card costs': a quantity as a relative clause."""
        match node:
            case Index(obj=Attribute(obj=o, name="requires" | "cost" as attr)) if self.kind(o) in (CARD, NOBLE):
                k = self.kind(o)
                return self.t.text(f"q.{k}.{attr}.rel", **self.named(k, self.thing(o)))
        return None

    # ------------------------------------------------------------------ effects

    def effect(self, node) -> str:
        t = self.t
        match node:
            case Effect(name="take" | "put_back" as name, args=(c, amount)):
                return t.text(f"eff.{name}", count=self.tokens(c, amount))
            # refill(ZONE) before refill(card): the same effect, told apart by its argument
            case Effect(name="refill", args=(zone,)) if self.rules.zones and self.zone(zone) is not None:
                return t.text("eff.refill_zone", **self.named("zone", self.zone(zone) or {}))
            case Effect(name="reserve" | "refill" | "acquire" | "bury" as name, args=(card,)):
                return t.text(f"eff.{name}", **self.named("card", self.thing(card)))
            case Effect(name="reserve_top", args=(lvl,)):
                return t.text("eff.reserve_top", **self.level(lvl))
            case Effect(name="pay", args=(payment,)):
                return t.text("eff.pay", **self.named("payment", self.thing(payment)))
            case Effect(name="visit", args=(noble,)):
                return t.text("eff.visit", **self.named("noble", self.thing(noble)))
            case Effect(name="set" | "add" | "insert" | "drop" as name, args=(var, value)):
                return self.state_effect(name, var, value)
            case Effect(name="move" | "to_bottom" as name, args=(x, zone)):
                return t.text(f"eff.{name}", **self.named("x", self.thing(x)), **self.named("zone", self._zone(zone)))
            case Effect(name="draw" | "reveal" as name, args=(pile, zone)):
                return t.text(f"eff.{name}", **self.named("pile", self._zone(pile)),
                              **self.named("zone", self._zone(zone)))
            case Effect(name="discard", args=(x,)):
                return t.text("eff.discard", **self.named("x", self.thing(x)))
            case ForEach(var=var, collection=coll, body=body):
                if self.fusable(var, body):
                    return self.bind_each(var, coll).effect(body)
                _, key = self.collection(coll)
                return t.text("eff.for", body=self.bind(var, coll).effect(body), **self.each(key))
            case Sequence(stmts=stmts):  # the effects of a body, joined as a list of effects is
                return self.effects(stmts)
            case When(test=test, then=then, otherwise=None):
                return t.text("eff.if", test=self.condition(test), then=self.effect(then))
            case When(test=test, then=then, otherwise=other):
                return t.text("eff.if_else", test=self.condition(test), then=self.effect(then),
                              otherwise=self.effect(other))
        raise PhraseError(f"cannot phrase the effect {getattr(node, 'name', type(node).__name__)}")

    def state_effect(self, name: str, var, value) -> str:
        """set, add, insert, drop: "add the chosen colour to "Colours taken this turn""."""
        forms = self.named("var", self.state_forms(var) or {})
        if name == "add":
            return self.t.text("eff.add", amount=self.number(value), **forms)
        if name != "set":
            return self.t.text(f"eff.{name}", **forms, **self.named("x", self.thing(value)))
        if value == Name("none", None):
            return self.t.text("eff.set.none", **forms)
        kind = self.kind(value)
        if isinstance(value, Bool):
            return self.t.text("eff.set.value", value=self.t.text(f"state.value.{str(value.value).lower()}"), **forms)
        if kind == BOOL:
            return self.t.text("eff.set.whether", test=self.condition(value), **forms)
        if self.held_kind(value) is not None:  # a zone or a set of components: "the pieces in “Cities on display”"
            state = self.state_forms(value)
            if state is None:
                self.collection(value)  # the zone's words, for the phrase
            shown = state[""] if state is not None else self.t.text("coll.zone.all")
            return self.t.text("eff.set.value", value=shown, **forms)
        if kind in (NUMBER, COLOURS):
            shown = self.number(value) if kind == NUMBER else self.collection_phrase(value)
            return self.t.text("eff.set.value", value=shown, **forms)
        return self.t.text("eff.set", **forms, **self.named("x", self.thing(value)))

    def _zone(self, node) -> Fields:
        found = self.zone(node)
        if found is None:
            raise PhraseError("a zone effect names a zone")
        return found

    def fusable(self, var: str, body) -> bool:
        """`for c in X: take(c, 1)` reads "take 1 token of each ...": one effect, one use of c."""
        if not isinstance(body, Effect) or body.name not in ("take", "put_back"):
            return False
        uses = [n for n in walk(body) if isinstance(n, Name) and n.id == var]
        return len(uses) == 1 and isinstance(body.args[0], Name) and body.args[0].id == var

    def tokens(self, colour, amount) -> str:
        """'2 tokens of the chosen colour', '1 gold token'."""
        variant, fields = self.colour(colour)
        n = self.const(amount)
        if n is not None:
            noun = self.t.text(f"noun.token.{variant}", n=n, **fields)
            return self.t.text("count.n", n=n, noun=noun)
        noun = self.t.text(f"noun.token.{variant}", n=None, **fields)
        return self.t.text("count.expr", x=self.number(amount), noun=noun)


def _card_of(stmt):
    """The card an effect acts on (`reserve(card)`, `refill(card)`...), if it names one."""
    if isinstance(stmt, Effect) and stmt.name in ("reserve", "refill", "acquire", "bury") and stmt.args:
        return stmt.args[0] if isinstance(stmt.args[0], Name) else None
    return None


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


def describe(node, lang: str, rules: Rules, decision: Decision | None = None, main_clause: bool = False) -> str:
    """Phrase any expression or effect node (or a list of effects) in `lang`.

    `decision` gives the choices the node may name ("the chosen colour"); without it
    a choice is found among the rules' actions and steps by name. A condition is phrased to
    follow "if"/"only if"/"while" unless `main_clause` (a condition shown on its own).
    """
    return Phraser(lang, rules, decision, main_clause=main_clause).describe(node)


# What a parameter of a definition reads as where a sheet or a diff explains the definition on its
# own: a player is "the player", a colour "that colour", a component of a spec's kind "the city";
# other parameters have no such phrase.
_PARAM_REFS = {"player": (PLAYER, "ref.player.the"), "gem colour": (COLOUR, "ref.colour.that"),
               "token colour": (COLOUR, "ref.colour.that")}


def explain_definition(definition, lang: str, rules: Rules, table: tables.Table | None = None) -> tuple[str, str]:
    """(title, meaning) of a definition shown on its own: its title with each parameter in words
    ("the player has a bonus of every gem colour"), and its body phrased as the sheets phrase a
    condition or a quantity; the body as written where a parameter has no phrase of its own."""
    ph = Phraser(lang, rules, table=table, main_clause=True)  # it follows "means:", not "if"
    fields = {}
    for name, t in definition.params:
        kind, key = _PARAM_REFS.get(str(t), ("", ""))
        if key:
            ph.scope[name] = Ref(kind, key)
            fields[name] = ph.t.text(key)
        elif isinstance(t, Comp) and any(k.name == t.kind for k in rules.kinds):  # "the city"
            ph.scope[name] = Ref(COMPONENT, "ref.component.the", {"item": ph.item(t.kind)}, holds=t.kind)
            fields[name] = ph.ref_forms(ph.scope[name])[""]
        elif isinstance(t, Keyword):  # "a given “power”": a keyword of that column
            column = next(c for k in rules.kinds if k.name == t.kind for c in k.columns if c.name == t.column)
            said = (column.title.get(lang) or column.title.en) if column.title is not None else ph.column(t.column)
            ph.scope[name] = Ref("keyword", "ref.keyword.given", {"column": said})
            fields[name] = ph.ref_forms(ph.scope[name])[""]
    title = definition.title.get(lang) or definition.title.en
    title = tables.PLACEHOLDER.sub(lambda m: fields.get(m.group(1), m.group(0)), title)
    try:
        if len(fields) != len(definition.params):
            raise PhraseError("a parameter without a phrase")
        return title, ph.describe(definition.body)
    except (PhraseError, KeyError, ValueError):
        return title, unparse(definition.body)
