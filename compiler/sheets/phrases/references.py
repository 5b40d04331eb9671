"""Sheets, phrasing: references -- values that are not numbers, in their four case forms.

Bound into :class:`~.core.Phraser`: colours, cards, levels, nobles, players, zones, the
spec's variables and collections, each as the forms a template needs (``{x}``, ``{x_of}``,
``{x_in}``, ``{x_acc}``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ...front.expr import Attribute, Call, Conditional, Index, Name, Word
from ...language import ColumnType
from .kinds import (
    CARD,
    CASE_KEYS,
    CASES,
    COLLECTIONS,
    COLOUR,
    COLOURS,
    COMPONENT,
    NUMBER,
    PLAYER,
    Fields,
    PhraseError,
    Ref,
    state_kind,
)

if TYPE_CHECKING:  # the class these functions are bound to (the package re-exports it)
    from . import Phraser


def word(self: Phraser, node: Word, keyword_type=None) -> str:
    """A keyword: where one component of a kind with a `key` has it in its column, that component
    by its item and key ("trading post 3", "comptoir 3"): the words a table uses for it; else the
    keyword itself, quoted as the language quotes."""
    columns = [
        (k, i)
        for k in self.rules.kinds
        for i, c in enumerate(k.columns)
        if c.type is ColumnType.KEYWORD
        and (keyword_type is None or (k.name, c.name) == (keyword_type.kind, keyword_type.column))
    ]
    holders = [(k, c) for k, i in columns for c in k.components if c.values[i] == node.value]
    if len(holders) == 1 and holders[0][0].key:
        kind, component = holders[0]
        return self.t.text(
            "word.component", item=kind.item.get(self.lang) or kind.item.en, id=str(kind.value(component, kind.key))
        )
    return self.t.text("word.keyword", x=node.value)


def zone_of(self: Phraser, node):
    """The model's zone `node` names (a shared zone's name, a player's zone, one level of a zone split
    by level), else None."""
    match node:
        case Name(id=i) if i not in self.scope:
            return next((z for z in self.rules.zones if z.name == i and not z.per_player), None)
        case Attribute(obj=o, name=i) if self.kind(o) == PLAYER:
            return next((z for z in self.rules.zones if z.name == i and z.per_player), None)
        case Index(obj=Name(id=i)) if i not in self.scope:  # one zone of a zone split by level
            return next((z for z in self.rules.zones if z.name == i and z.by), None)
    return None


def held_kind(self: Phraser, node) -> str | None:
    """The kind of the components a zone or a set of components (`me.markers`) holds, else None."""
    zone = self.zone_of(node)
    if zone is not None:
        return zone.holds
    var = self.component_set(node)
    return var.type.elem.kind if var is not None else None


def zone(self: Phraser, node) -> Fields | None:
    """A zone of the spec's own in its four forms ("your “Claimed cities”"), or None."""
    match node:
        case Name(id=i) if i not in self.scope:
            zone = next((z for z in self.rules.zones if z.name == i and not z.per_player), None)
            if zone is not None:
                return self.forms("zone.shared", zone=zone.title.get(self.lang) or zone.title.en)
        case Index(obj=Name(id=i), index=group) if i not in self.scope:  # one zone of a zone split by level
            zone = next((z for z in self.rules.zones if z.name == i and z.by), None)
            if zone is not None:
                return self.forms("zone.group", zone=zone.title.get(self.lang) or zone.title.en, **self.level(group))
        case Attribute(obj=o, name=i):
            zone = next((z for z in self.rules.zones if z.name == i and z.per_player), None)
            if zone is not None and self.kind(o) == PLAYER:
                person, who = self.player(o)
                return self.forms(f"zone.{self.owner(person)}", zone=zone.title.get(self.lang) or zone.title.en, **who)
    var = self.component_set(node)
    if var is not None:  # a set of components reads as a zone does: its title, quoted
        title = var.title.get(self.lang) or var.title.en
        if not var.per_player:
            return self.forms("zone.shared", zone=title)
        person, who = self.player(node.obj)
        return self.forms(f"zone.{self.owner(person)}", zone=title, **who)
    return None


def component_set(self: Phraser, node):
    """The variable holding a set of components that `node` reads (`me.markers`), else None."""
    var = (
        self.own_state(node)
        if isinstance(node, Attribute)
        else next(
            (
                v
                for v in self.rules.variables
                if isinstance(node, Name) and node.id not in self.scope and v.name == node.id and not v.per_player
            ),
            None,
        )
    )
    return var if var is not None and state_kind(var.type) == "zone" else None


def column(self: Phraser, attr: str, owner=None) -> str:
    """A column of a kind: its title in this language where the spec gives one (the kind of the
    component `owner`), else its name as it reads."""
    found = self._column(owner, attr) if owner is not None else None
    if found is not None and found.title is not None:
        return found.title.get(self.lang) or found.title.en
    return attr.replace("_", " ")


def own_state(self: Phraser, node):
    """The per-player variable `node` reads (`me.taken`, `player.markers`), else None."""
    if isinstance(node, Attribute) and self.kind(node.obj) == PLAYER:
        return next((v for v in self.rules.variables if v.name == node.name and v.per_player), None)
    return None


def keyed_state(self: Phraser, node: object) -> Any:
    """The keyed variable `node` names (`me.satchels`, `forts`), whose entries `node[key]` are read, else None."""
    var = (
        self.own_state(node)
        if isinstance(node, Attribute)
        else next(
            (
                v
                for v in self.rules.variables
                if isinstance(node, Name) and node.id not in self.scope and v.name == node.id and not v.per_player
            ),
            None,
        )
    )
    return var if var is not None and hasattr(var.type, "key") else None


def state_forms(self: Phraser, node) -> Fields | None:
    """A variable's four forms (your "Markers", "Colours taken"), an entry of a keyed one's (your
    "Satchels" for red), else None."""
    if isinstance(node, Index) and self.keyed_state(node.obj) is not None:
        whole = self.state_forms(node.obj) or {}
        variant, fields = self.colour(node.index) if self.kind(node.index) == COLOUR else ("ref", {})
        if variant == "lit":  # a colour written by name: "for gold", "pour la couleur or"
            return {case: self.t.text("ref.state.by.lit", state=whole[case], **fields) for case in CASES}
        entry = self.named("entry", self.thing(node.index))
        return {case: self.t.text("ref.state.by", state=whole[case], **entry) for case in CASES}
    if isinstance(node, Name) and node.id not in self.scope:
        ref = self.lookup(node.id)
        return self.ref_forms(ref) if ref is not None and ref.key == "ref.state" else None
    var = self.own_state(node)
    if var is None:
        return None
    title = var.title.get(self.lang) or var.title.en
    person, who = self.player(node.obj)
    return self.forms(f"ref.state.{self.owner(person)}", title=title, **who)


def collection(self: Phraser, node) -> tuple[str, str]:
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
        self.t.base.update({**self.named("zone", self.zone(node) or {}), **self.item_fields(holds)})
        return COMPONENT, "coll.zone"
    if isinstance(node, Name):
        if node.id in COLLECTIONS and node.id not in self.scope:
            return COLLECTIONS[node.id], f"coll.{node.id}"
        ref = self.lookup(node.id)
        if ref is not None and ref.kind == COLOURS:
            return COLOUR, "coll.chosen_colours"
    raise PhraseError(
        "a loop runs over the gem colours, the colours, the levels, the players, the other "
        "players, a chosen set of colours, a declared set or a zone"
    )


def collection_phrase(self: Phraser, node) -> str:
    state = self.state_forms(node)
    if state is not None:
        return state[""]
    if isinstance(node, Name):
        ref = self.lookup(node.id)
        if ref is not None and ref.kind == COLOURS:
            return self.ref_forms(ref)[""]
        if node.id in COLLECTIONS:
            return self.t.text(f"coll.{node.id}.all")
    zone = self.zone(node)
    if zone is not None:  # "the chosen city is one of the pieces in “Cities on display”"
        self.collection(node)
        return self.t.text("coll.zone.all.acc")  # Serbian: "спада у елементе ..."
    raise PhraseError("membership is tested in a collection")


def forms(self: Phraser, key: str, **fields) -> Fields:
    """The four case forms of a reference phrase, keyed '', '_of', '_in', '_acc'."""
    return {case: self.t.text(key + suffix, **fields) for case, suffix in zip(CASES, CASE_KEYS, strict=True)}


def each(self: Phraser, coll_key: str) -> Fields:
    """'each gem colour' and 'the gem colours' in their four forms (each, each_of..., all, all_of...)."""
    return {**self.named("each", self.forms(f"{coll_key}.each")), **self.named("all", self.forms(f"{coll_key}.all"))}


def named(self: Phraser, prefix: str, forms: Mapping[str, str]) -> Fields:
    return {prefix + case: text for case, text in forms.items()}


def ref_forms(self: Phraser, ref: Ref) -> Fields:
    return {case: text + ref.suffix for case, text in self.forms(ref.key, **ref.fields).items()}


def thing(self: Phraser, node) -> Fields:
    """A non-number value (colour, card, level, noble, payment, player) in its four forms."""
    kind = self.kind(node)
    match node:
        case Name(id=i) if i in self.rules.colours and i not in self.scope:
            name = self.t.text(f"colour.{i}")
            return {case: name for case in CASES}
        case Name(id=i) if (ref := self.lookup(i)) is not None:
            return self.ref_forms(ref)
        case Name(id=i) if i in COLLECTIONS:
            return self.forms(f"coll.{i}.all")
        case Attribute() if self.own_state(node) is not None:
            return self.state_forms(node) or {}
        case Index() if self.keyed_state(node.obj) is not None:  # an entry of a keyed variable: `holder[card]`
            return self.state_forms(node) or {}
        case Attribute(obj=o, name="bonus") if kind == COLOUR and (self.kind(o) == CARD or self.base_kind(o, "bonus")):
            return self.forms("q.card.bonus", **self.named("card", self.thing(o)))
        case Attribute(obj=o, name=attr) if kind == COLOUR and (
            self.kind(o) == COMPONENT or self.base_extra(o, attr) is not None
        ):  # a colour column of a kind, or one a spec adds to the base cards or nobles
            return self.forms("q.component.colour", column=self.column(attr, o), **self.named("x", self.thing(o)))
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


def colour(self: Phraser, node) -> tuple[str, Fields]:
    """('lit', {colour: adjective}) for a colour written by name, else ('ref', four forms)."""
    if isinstance(node, Name) and node.id in self.rules.colours and node.id not in self.scope:
        return "lit", {"colour": self.t.form(f"colour.{node.id}.adj"), "colour_name": self.t.text(f"colour.{node.id}")}
    return "ref", self.named("colour", self.thing(node))


def level(self: Phraser, node) -> Fields:
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


def owner(self: Phraser, person: str) -> str:
    """Whose a zone or a variable is, as its phrase key says it: "self" for yours where you are the
    subject of the clause (an effect: Serbian "у своју зону", not "у вашу зону"), else `person`."""
    return "self" if person == "you" and self.reflexive else person


def player(self: Phraser, node) -> tuple[str, Fields]:
    """('you', {}) or ('they', {who, who_of, who_in, who_acc})."""
    if isinstance(node, Name):
        ref = self.lookup(node.id)
        if ref is not None and ref.kind == PLAYER:
            if ref.person == "you":
                return "you", {}
            return "they", self.named("who", self.ref_forms(ref))
    raise PhraseError("a player is 'me', 'player' or a loop variable over players")
