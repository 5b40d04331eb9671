"""Sheets, phrasing: the :class:`Phraser` and the entry points (:func:`describe`,
:func:`explain_definition`)."""

from __future__ import annotations

from collections.abc import Mapping

from ...check.types import Comp, Keyword
from ...front.expr import Effect, ForEach, Sequence, When, unparse
from ...model import Decision, Rules
from .. import tables
from . import conditions, definitions, names, quantities, references
from . import effects as effect_family  # not `effects`: the class binds a method of that name
from .kinds import BOOL, CARD, COLOUR, COMPONENT, NOBLE, NUMBER, PLAYER, PhraseError, Ref
from .text import Words


class Phraser:
    """Phrases nodes of one rule model in one language, within a scope of variables.

    Its methods live in the module of their node family (names, references, quantities,
    conditions, effects, definitions) and are bound here: each family reads as one module,
    and every method still reaches any other as ``self.x``, whichever family holds it."""

    def __init__(
        self,
        lang: str,
        rules: Rules,
        decision: Decision | None = None,
        table: tables.Table | None = None,
        scope: Mapping[str, Ref] | None = None,
        main_clause: bool = False,
    ):
        self.lang = lang
        self.rules = rules
        # A condition is phrased as a subordinate clause ("only if ...", "while ..."), where French
        # repeats "que" after "et"/"ou"; `main_clause` phrases it standing alone (the diff's "before").
        self.main_clause = main_clause
        self.t = Words(table or tables.load(lang), rules)
        self.values = {v.name: v.value for v in rules.values}
        self.scope: dict[str, Ref] = dict(scope or {})
        # Quantities whose value is known where the phrase is said (a worked example: Anna's prestige),
        # by their expression's text: a comparison that holds is said with the value itself
        # ("Anna has 15 prestige points"), never "at least 15" where the value is exact.
        self.known: dict[str, int] = {}
        # An effect's zones and variables are the objects of a verb whose subject is you: Serbian says
        # "свој" ("у своју зону"), not "ваш" (references.owner); set while an effect's objects are phrased.
        self.reflexive = False
        if not self.scope:
            self.scope["me"] = Ref(PLAYER, "ref.player.you", person="you")
            self.scope["player"] = Ref(PLAYER, "ref.player.the")
        if decision is not None:
            self.enter(decision)

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

    # names.py
    enter = names.enter
    holds = names.holds
    item = names.item
    item_fields = names.item_fields
    bind = names.bind
    bind_each = names.bind_each
    lookup = names.lookup
    kind = names.kind
    _column_type = names._column_type
    _column = names._column
    base_extra = names.base_extra
    base_kind = names.base_kind
    const = names.const
    is_you = names.is_you

    # references.py
    word = references.word
    zone_of = references.zone_of
    held_kind = references.held_kind
    zone = references.zone
    component_set = references.component_set
    column = references.column
    own_state = references.own_state
    keyed_state = references.keyed_state
    state_forms = references.state_forms
    collection = references.collection
    collection_phrase = references.collection_phrase
    forms = references.forms
    each = references.each
    named = references.named
    ref_forms = references.ref_forms
    thing = references.thing
    colour = references.colour
    level = references.level
    player = references.player
    owner = references.owner

    # quantities.py
    count_form = quantities.count_form
    zone_count = quantities.zone_count
    place_count = quantities.place_count
    count = quantities.count
    number = quantities.number
    worth = quantities.worth
    wilds = quantities.wilds
    price = quantities.price

    # conditions.py
    condition = conditions.condition
    joined_clause = conditions.joined_clause
    chain = conditions.chain
    negation = conditions.negation
    compare = conditions.compare
    compare_quantities = conditions.compare_quantities
    relative = conditions.relative

    # effects.py
    effects = effect_family.effects
    effect = effect_family.effect
    state_effect = effect_family.state_effect
    _zone = effect_family._zone
    fusable = effect_family.fusable
    tokens = effect_family.tokens

    # definitions.py
    definition = definitions.definition
    defined = definitions.defined
    performed = definitions.performed
    argument = definitions.argument
    takes_you = definitions.takes_you


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
_PARAM_REFS = {
    "player": (PLAYER, "ref.player.the"),
    "card": (CARD, "ref.card.the"),
    "noble": (NOBLE, "ref.noble.the"),
    "gem colour": (COLOUR, "ref.colour.that"),
    "token colour": (COLOUR, "ref.colour.that"),
}


def explain_definition(definition, lang: str, rules: Rules, table: tables.Table | None = None) -> tuple[str, str]:
    """(title, meaning) of a definition shown on its own: its title with each parameter in words
    ("the player has a bonus of every gem colour"), and its body phrased as the sheets phrase a
    condition or a quantity; the body as written where a parameter has no phrase of its own."""
    ph = Phraser(lang, rules, table=table, main_clause=True)  # it follows "means:", not "if"
    fields = {}
    case = ".acc" if str(definition.result) == "list of effects" else ""  # a procedure's title: objects of its verb
    for name, t in definition.params:
        kind, key = _PARAM_REFS.get(str(t), ("", ""))
        if key:
            ph.scope[name] = Ref(kind, key)
            fields[name] = ph.t.text(key + case)
        elif isinstance(t, Comp) and any(k.name == t.kind for k in rules.kinds):  # "the city"
            ph.scope[name] = Ref(COMPONENT, "ref.component.the", ph.item_fields(t.kind), holds=t.kind)
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
