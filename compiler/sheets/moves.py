"""Sheets, moves: an engine's move in players' words, in each sheet language.

Takes what an engine's ``describe_action`` says of a move (the decision's name and its choices'
values, as people read them) with the domain of each choice (``DECISION_INFO``), and the rule
model; returns the rule's name as the sheets give it and the choices in words ("Prendre des
jetons de couleurs différentes : blanc, bleu et vert"), for the lines a player reads of a game
(`play`, the web table's log). The notation (``take white blue green``) stays what a player types
and what records store; these words are for reading only. A value this module has no words for
(a payment of tokens worth several gems, say) is told as the engine gives it, never dropped.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..model import Rules
from . import tables
from .phrases import join
from .plurals import LANGUAGES
from .rule_names import rule_name

PAYMENT = "payment"  # the engine's payment step: a decision of the runtime, not of the spec


def said(rules: Rules, lang: str, name: str, values: Mapping[str, Any], domains: Mapping[str, str]) -> str:
    """The move `name` with its choices `values` (choice -> value, as ``describe_action`` gives
    them; `domains`: choice -> its domain) in `lang`: the rule's name, then its choices in words."""
    table = tables.load(lang if lang in LANGUAGES else "en")
    decision = next((d for d in rules.actions + rules.steps if d.name == name), None)
    if decision is not None:
        rule = rule_name(decision, table)
    elif name == PAYMENT:
        rule = table.text("move.rule.payment")
    else:
        rule = name
    words = choice_words(table, rules, name, values, domains)
    if not words:
        return rule
    return table.text("move.said", rule=rule, choices=table.text("list.sep").join(words))


def choice_words(
    table: tables.Table, rules: Rules, name: str, values: Mapping[str, Any], domains: Mapping[str, str]
) -> list[str]:
    """The choices `values` of the move `name` in words, one each (none chosen: an empty list)."""
    decision = next((d for d in rules.actions + rules.steps if d.name == name), None)
    sources = {p.name: p.source for p in decision.params} if decision is not None else {}
    return [
        component(table, rules, sources.get(choice), v)
        if domains.get(choice) == "component" and type(v) is int
        else value_words(table, rules, domains.get(choice, ""), v)
        for choice, v in values.items()
        if v is not None
    ]


def value_words(table: tables.Table, rules: Rules, domain: str, value: Any) -> str:
    """One choice's value in words: a colour's name, colours joined, a card by level and place, a
    reserved card or a noble by its number, a deck by its level, a payment by the wild tokens it
    spends for each colour (with what they are worth, where a wild token may count for more than
    one: the engine gives each colour the worth of each token it spends)."""
    if domain in ("gem", "colour") and isinstance(value, str):
        return colour(table, value)
    if domain == "gem_set" and isinstance(value, tuple):
        return join(table, [colour(table, c) for c in value])
    if domain == "face_up" and isinstance(value, tuple) and len(value) == 2:
        return table.text("move.value.face_up", level=value[0], slot=value[1])
    if domain in ("reserved", "noble", "deck") and type(value) is int:
        return table.text(f"move.value.{domain}", n=value)
    if domain == "payment" and isinstance(value, dict) and all(map(is_spent, value.values())):
        if not value:
            return table.text("move.value.no_wild", wild=colour(table, rules.wild))
        return join(table, [wild_for(table, rules.wild, c, n) for c, n in value.items()])
    return str(value)


def is_spent(spent: Any) -> bool:
    """What a payment spends for one colour: a number of wild tokens, or the worth of each."""
    if isinstance(spent, tuple):
        return bool(spent) and all(type(w) is int and w > 0 for w in spent)
    return type(spent) is int


def colour(table: tables.Table, name: str) -> str:
    key = f"colour.{name}"
    return table.text(key) if table.has(key) else name


def wild_for(table: tables.Table, wild: str, gem: str, spent: int | tuple[int, ...]) -> str:
    """'1 gold token for white': the wild tokens a payment spends in place of one gem colour
    (`spent`: their number, or the worth of each); '2 gold tokens worth 3 for white' where one
    counts for more than one gem."""
    n, worth = (len(spent), sum(spent)) if isinstance(spent, tuple) else (spent, spent)
    adj = table.form(f"colour.{wild}.adj", n) if table.has(f"colour.{wild}.adj") else wild
    tokens = table.text("count.n", n=n, noun=table.text("noun.token.lit", n=n, colour=adj))
    if worth != n:
        return table.text("move.value.wild_worth", tokens=tokens, colour=colour(table, gem), worth=worth)
    return table.text("move.value.wild_for", tokens=tokens, colour=colour(table, gem))


def component(table: tables.Table, rules: Rules, source: str | None, value: int) -> str:
    """A chosen component as the notation counts it ("city 1": the engine's place or id, from 0,
    counted from 1), called by its kind's item in the table's language."""
    holds = next((z.holds for z in rules.zones if z.name == source), source)
    kind = next((k for k in rules.kinds if k.name == holds), None)
    if kind is None:
        return str(value + 1)
    return table.text("word.component", item=kind.item.get(table.lang) or kind.item.en, id=str(value + 1))


def of_engine(module: Any, action: int, rules: Rules, lang: str) -> str:
    """The move `action` of the engine `module` in `lang` (through its ``describe_action`` and
    ``DECISION_INFO``)."""
    name, values = module.describe_action(action)
    decision = module.DECISION_INFO[module.ACTIONS[action][0]]
    return said(rules, lang, name, values, {p.name: p.domain for p in decision.params})


def options_said(module: Any, options: str, rules: Rules, lang: str) -> str:
    """The moves an engine's refusal lists as open (`options`: their notations, joined by ", ", as
    the engine's reason gives them) in `lang`: the choices alone where they are all of one rule
    (the step the player must finish: "blanc, bleu et vert"), else each move in words; the
    notations as given where one does not read as a move of `module`."""
    try:
        actions = [module.string_to_action(n) for n in options.split(", ") if n]
    except module.NotationError:
        return options
    table = tables.load(lang if lang in LANGUAGES else "en")
    if not actions or len({module.ACTIONS[a][0] for a in actions}) > 1:
        return table.text("list.sep").join(of_engine(module, a, rules, lang) for a in actions)
    info = module.DECISION_INFO[module.ACTIONS[actions[0]][0]]
    domains = {p.name: p.domain for p in info.params}
    words = []
    for a in actions:
        name, values = module.describe_action(a)
        words.append(table.text("list.sep").join(choice_words(table, rules, name, values, domains)))
    return join(table, words, "or") if all(words) else options  # one of them is to be chosen
