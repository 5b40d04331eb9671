"""Sheets, phrasing: effects -- what a decision does, in order.

Bound into :class:`~.core.Phraser`: every effect keyword, loops (fused into their only use
where they can be: "take 1 token of each chosen colour"), ``if`` and the effects on the
spec's own variables.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ...front.expr import Bool, Compare, Effect, ForEach, Index, Name, Performed, Sequence, When, unparse, walk
from ...language import EFFECTS, EffectDecl, Role
from ...language.effects import BASE_EFFECTS, STATE_EFFECTS, ZONE_EFFECTS, named
from ...language.types import CARD as CARD_T
from ...language.types import FACE_UP_CARD
from .kinds import BOOL, COLOURS, NUMBER, Fields, PhraseError
from .text import join

if TYPE_CHECKING:  # the class these functions are bound to (the package re-exports it)
    from . import Phraser


def effects(self: Phraser, stmts) -> str:
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


def effect(self: Phraser, node) -> str:
    t = self.t
    match node:
        # a zone effect by its declaration (compiler/language/effects.py): its phrase key, and the placeholder each
        # argument fills; refill(ZONE) before refill(card), the same name told apart by its argument
        case Effect(args=args) if (decl := _zone_effect(self, node)) is not None:
            bag = decl.name in ("draw", "reveal") and _is_bag(self, args[0])  # drawn at random
            return t.text(decl.phrase + (".bag" if bag else ""), **_as_subject(self, _zone_fields, decl, args))
        case Effect(name="take" | "put_back" as name, args=(c, amount)):
            return t.text(EFFECTS[name].phrase, count=self.tokens(c, amount))
        case Effect(name=name, args=(card,)) if name in _CARD_EFFECTS:
            return t.text(EFFECTS[name].phrase, **self.named("card", self.thing(card)))
        case Effect(name="reserve_top", args=(lvl,)):
            return t.text(EFFECTS["reserve_top"].phrase, **self.level(lvl))
        case Effect(name="pay", args=(payment,)):
            return t.text(EFFECTS["pay"].phrase, **self.named("payment", self.thing(payment)))
        case Effect(name="extra_turn", args=()):
            return t.text(EFFECTS["extra_turn"].phrase)
        case Effect(name="queue", args=(Name(), *_)):
            return _queued(self, node)
        case Effect(name="visit", args=(noble,)):
            return t.text(EFFECTS["visit"].phrase, **self.named("noble", self.thing(noble)))
        case Effect(name=name, args=(var, value)) if name in STATE_EFFECTS:
            return str(_as_subject(self, self.state_effect, name, var, value))
        case ForEach(var=var, collection=coll, body=body):
            if self.fusable(var, body):
                return self.bind_each(var, coll).effect(body)
            _, key = self.collection(coll)
            return t.text("eff.for", body=self.bind(var, coll).effect(body), **self.each(key))
        case Performed():  # a procedure's call: its title, as a definition's call reads (never its body)
            return self.performed(node)
        case Sequence(stmts=stmts):  # the effects of a body, joined as a list of effects is
            return self.effects(stmts)
        case When(
            test=Compare(op=">=", left=Index(obj=Name(id="supply"), index=c), right=k),
            then=Effect(name="take", args=(c2, amount)),
            otherwise=None,
        ) if (
            "supply" not in self.scope
            and unparse(c) == unparse(c2)
            and self.const(k) is not None
            and self.const(k) == self.const(amount)
        ):
            # "if at least 1 gold token is in the supply, take 1 gold token": "take 1 gold token if any is left"
            return t.text("eff.take.if_left", n=self.const(k), count=self.tokens(c2, amount))
        case When(test=test, then=then, otherwise=None):
            return t.text("eff.if", test=self.condition(test), then=self.effect(then))
        case When(test=test, then=then, otherwise=other):
            return t.text(
                "eff.if_else", test=self.condition(test), then=self.effect(then), otherwise=self.effect(other)
            )
    raise PhraseError(f"cannot phrase the effect {getattr(node, 'name', type(node).__name__)}")


def _as_subject(self: Phraser, phrase: Callable[..., Any], *args: Any) -> Any:
    """`phrase(self, *args)` (or a bound `phrase(*args)`) with you the subject of the clause: your zones
    and variables in it are said reflexively where the language does (references.owner)."""
    before, self.reflexive = self.reflexive, True
    try:
        return phrase(*args) if getattr(phrase, "__self__", None) is self else phrase(self, *args)
    finally:
        self.reflexive = before


def _queued(self: Phraser, node: Effect) -> str:
    """queue(STEP, name: value): "then resolve “Take a free card” (level 1)": the step by its title in
    this language, quoted, and each value it is given by its name as the spec writes it."""
    step = next(s for s in self.rules.steps if s.name == node.args[0].id)  # type: ignore[union-attr]
    title = self.t.text("sheet.quote", x=step.title.get(self.lang) or step.title.en)
    values = node.args[len(node.args) - len(node.keywords) :]
    given = [f"{n.replace('_', ' ')}: {self.argument(v)}" for n, v in zip(node.keywords, values, strict=True)]
    if not given:
        return self.t.text("eff.queue.bare", step=title)
    return self.t.text("eff.queue", step=title, given=", ".join(given))


def state_effect(self: Phraser, name: str, var, value) -> str:
    """set, add, insert, drop: "add the chosen colour to "Colours taken this turn""."""
    forms = self.named("var", self.state_forms(var) or {})
    if name == "add":
        taken = self.const(value)
        if taken is not None and taken < 0:  # add(favours, -1): "take 1 from your “Favours”"
            return self.t.text("eff.add.less", amount=str(-taken), **forms)
        return self.t.text(EFFECTS["add"].phrase, amount=self.number(value), **forms)
    if name != "set":
        return self.t.text(EFFECTS[name].phrase, **forms, **self.named("x", self.thing(value)))
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


def _zone(self: Phraser, node) -> Fields:
    found = self.zone(node)
    if found is None:
        raise PhraseError("a zone effect names a zone")
    return found


def fusable(self: Phraser, var: str, body) -> bool:
    """`for c in X: take(c, 1)` reads "take 1 token of each ...": one effect, one use of c."""
    if not isinstance(body, Effect) or body.name not in ("take", "put_back"):
        return False
    uses = [n for n in walk(body) if isinstance(n, Name) and n.id == var]
    return len(uses) == 1 and isinstance(body.args[0], Name) and body.args[0].id == var


def tokens(self: Phraser, colour, amount) -> str:
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
    if isinstance(stmt, Effect) and stmt.name in _CARD_EFFECTS and stmt.args:
        return stmt.args[0] if isinstance(stmt.args[0], Name) else None
    return None


# The base game's effects on the card given first (reserve, refill, acquire, bury): "reserve the chosen card".
_CARD_EFFECTS = tuple(name for name, d in BASE_EFFECTS.items() if d.params[:1] in ((CARD_T,), (FACE_UP_CARD,)))


def _zone_effect(self, node) -> EffectDecl | None:
    """The zone effect `node` is, by its declaration; a name declared twice (refill) is the zones' only
    when its argument is a zone of the spec."""
    decl = ZONE_EFFECTS.get(node.name)
    if decl is None or len(node.args) != len(decl.fields):
        return None
    if len(named(node.name)) > 1 and not (self.rules.zones and self.zone(node.args[0]) is not None):
        return None
    return decl


def _is_bag(self: Phraser, node: object) -> bool:
    """Does `node` name a bag (a zone drawn from at random)?"""
    return (
        isinstance(node, Name)
        and node.id not in self.scope
        and any(z.name == node.id and z.shape == "bag" for z in self.rules.zones)
    )


def _zone_fields(self, decl: EffectDecl, args) -> dict:
    """The placeholders of a zone effect's phrase: a component as a thing, a zone by its words."""
    out: dict = {}
    for placeholder, role, arg in zip(decl.fields, decl.params, args, strict=True):
        out.update(self.named(placeholder, self.thing(arg) if role is Role.COMPONENT else self._zone(arg)))
    holds = self.held_kind(args[0]) if decl.name in ("draw", "reveal") else None
    if holds is not None:  # the piece drawn by its kind's item: "draw the top card of ..."
        out.update(self.item_fields(holds))
    return out
