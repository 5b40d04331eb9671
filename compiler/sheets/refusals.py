"""Sheets, refusals: what a player reads when the rules refuse a move, in each sheet language.

Takes a condition of an action or a step (one conjunct: the part of the rule the move fails),
the rule model and the decision; returns the rule's name and that part's phrase, as the sheets
word them, so that a refusal reads as the rule on the sheet does ("Take tokens of different
colours: ..."), never as the expression the spec's author wrote (that goes to the engine's
"details" line, made by the lowering).

:func:`rule_part` is the one place that words a part of a rule for a refusal: where a spec gives
its own text for that part, this is where the text is to be chosen over the generated phrase.
The emit stage hands :func:`refusal_words` to the lowering (``EnginePlan.explain``), which
writes the words into the engine as string literals (``repr``), never as code; :func:`told` is
what `play` and the web table show a player of an engine's refusal, in the player's language.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..front.expr import Expr
from ..model import Decision, Rules
from . import tables
from .moves import options_said
from .phrases import PhraseError, capitalise, describe
from .plurals import LANGUAGES
from .rule_names import rule_name


def rule_part(condition: Expr | None, lang: str, rules: Rules, decision: Decision) -> str | None:
    """The part `condition` of `decision`'s rule in players' words (a clause that stands on its
    own); None where the sheets have no phrase for it. `condition` None is the price of what the
    decision buys, which the player cannot pay in any way the rules accept."""
    if condition is None:
        return tables.load(lang).text("refusal.unpayable")
    try:
        part = describe(condition, lang, rules, decision, main_clause=True)
    except (PhraseError, KeyError, ValueError):
        return None
    # A condition's phrase is a clause the sheets put after "only if"; standing alone it needs a main
    # clause where the language orders a subordinate one otherwise (Dutch: "dat mag alleen als ...").
    return tables.load(lang).text("refusal.condition", cond=part)


def refusal_words(condition: Expr | None, rules: Rules, decision: Decision) -> dict[str, str]:
    """For each sheet language with a phrase for `condition`: the rule's name and the part it
    states ("Take tokens of different colours: ..."), the words an engine gives a player whose
    move fails that part."""
    words: dict[str, str] = {}
    for lang in LANGUAGES:
        part = rule_part(condition, lang, rules, decision)
        if part is not None:
            table = tables.load(lang)
            words[lang] = table.text("refusal.reason", rule=rule_name(decision, table), part=part)
    return words


def told(error: Any, lang: str, rules: Rules | None = None, module: Any = None) -> tuple[str, str | None]:
    """What a player reading `lang` is told of an engine's IllegalAction: the move and the rule's
    words ("coup refusé « take white » : Prendre des jetons ... : ..."), and apart, for a spec's
    author, the details (the condition as written and where; None when no condition of the rules
    refused the move). A move refused for another reason (out of turn, after the end, a payment
    waited for) is told from the reason's key and values (the table's ``refusal.engine.KEY``), a
    step it names by its title in `rules` (:func:`step_named`), the moves it lists as open in words
    where the engine `module` is given (:func:`.moves.options_said`); an engine built before refusals
    carried their reason keeps its own message."""
    table = tables.load(lang if lang in LANGUAGES else "en")
    refusal = getattr(error, "refusal", None)
    action = getattr(error, "action", None)
    if refusal is not None and action is not None:
        return (
            table.text("refusal.move", action=action, reason=refusal.reason(table.lang)),
            table.text("refusal.details", details=refusal.details),
        )
    refused = getattr(error, "refused", None)
    key = f"refusal.engine.{getattr(refused, 'key', '')}"
    if refused is None or not table.has(key):
        return str(error).split("\n", 1)[0], None
    fields = {k: v for k, v in refused.fields.items() if k != "action"}
    if "step" in fields:
        fields["step"] = step_named(str(fields["step"]), rules, table)
    if "options" in fields and module is not None and rules is not None:  # the open moves in words, as `play` says them
        fields["options"] = options_said(module, str(fields["options"]), rules, table.lang)
    reason = table.text(key, **fields)
    if "action" not in refused.fields:
        return capitalise(reason), None
    return table.text("refusal.move", action=refused.fields["action"], reason=reason), None


def step_named(name: str, rules: Rules | None, table: tables.Table) -> str:
    """The step an engine's reason names (by its name in the spec), as the sheets name it: its
    title in the table's language (:func:`rule_name`); without the rules, or for a step they do
    not have (an engine older than its spec), its name in plain words."""
    step = next((d for d in rules.steps if d.name == name), None) if rules is not None else None
    return rule_name(step, table) if step is not None else name.replace("_", " ")


def rule_error_values(fields: Mapping[str, Any]) -> dict[str, Any]:
    """An engine's RuleError fields as its words show them: a whole number of five digits or more
    grouped by thin spaces ("10 000", read alike in every language of the sheets), a count (`n`)
    as the number its plural form is chosen by, any other value as it is."""
    return {
        name: f"{value:,}".replace(",", "\u202f")
        if type(value) is int and abs(value) >= 10_000 and name != "n"
        else value
        for name, value in fields.items()
    }


def rule_error_told(error: Any, lang: str) -> str | None:
    """What a player reading `lang` is told of an engine's RuleError (an effect the rules made
    legal and cannot carry out), from its key and fields (the table's ``rule_error.KEY``): the
    effect as written and its spec line, then what went wrong. None for an error without a key
    the tables know (an engine older or newer than this tool): its own English words then."""
    table = tables.load(lang if lang in LANGUAGES else "en")
    key, fields = getattr(error, "key", None), getattr(error, "fields", None)
    if not isinstance(key, str) or not isinstance(fields, Mapping) or not table.has(f"rule_error.{key}"):
        return None
    values = rule_error_values(fields)
    n = values.pop("n", None)
    try:
        return table.text(f"rule_error.{key}", n=n if type(n) is int else None, **values)
    except KeyError:  # a field the phrase needs and this engine's error lacks
        return None
