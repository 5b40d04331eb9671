"""Pass 4, check: how a game ends and who wins - the `end` triggers, the `winners` ranking,
and the texts a sheet prints as written: the `interpretations` and the `handling` lines.

An end trigger's condition types as a truth and can fire in some game under the spec (E509,
:mod:`compiler.check.bounds`); a ranking key is a number; each names its finish or its
preference (E102, E106). A trigger may not take the name of an end reason the engines give of
their own (E406).
"""

from __future__ import annotations

from ..front.expr import Bool
from ..front.source import MapNode, ScalarNode, SeqNode
from ..model import FINISHES, PREFERS, EndTrigger, RankLevel, Text, Winners
from . import bounds as bounds_mod
from .reader import Checker
from .types import BOOL, INT, PLAYER, Scope

# The end reasons an engine gives of its own (Game.end_reason); a trigger named so would be mistaken for one.
ENGINE_END_REASONS = {"stuck": "ends because no one can act", "truncated": "reaches its length cap"}


def end_triggers(c: Checker, scope_names, facts) -> tuple[EndTrigger, ...]:
    """The `end` section: conditions checked for each player (E509 when one can never fire)."""
    table = c.node(c.root, "end", MapNode)
    out = []
    scope = Scope({**scope_names, "me": PLAYER})
    for key, entry in table.entries if table else ():
        if not isinstance(entry, MapNode):
            c.r.error("E103", f"end trigger '{key.value}' must be a mapping", entry.span)
            continue
        if key.value in ENGINE_END_REASONS:
            c.r.error(
                "E406",
                f"'{key.value}' is an end reason of the engines (a game that "
                f"{ENGINE_END_REASONS[key.value]}) and cannot name an end trigger",
                key.span,
            )
        where = f" in end trigger '{key.value}'"
        when = c.expression(c.node(entry, "when", where=where), "end condition")
        finish = c.choice(entry, "finish", FINISHES, "complete_round", where)
        if entry.get("finish") is None:
            c.r.error("E102", f"missing key 'finish'{where}", entry.span)
        c.spans[f"end.{key.value}"] = key.span
        if when is None:
            continue
        _can_fire(c, str(key.value), when, scope, facts)
        out.append(
            EndTrigger(
                str(key.value),
                c.text(entry, "title", required=False, default=str(key.value)),
                when,
                finish,
                key.span,
                c.note(entry),
            )
        )
    if table is not None and not out and not c.r.has_errors and not c.resolved.incomplete:
        c.r.error("E509", "a spec needs at least one end trigger", table.span)
    return tuple(out)


def _can_fire(c: Checker, name: str, when, scope: Scope, facts) -> None:
    """Type an end condition; once it makes sense, its hazards and E509 when it never holds."""
    before = len(c.r.diagnostics)
    c.types.expect(when, scope, BOOL, "an end condition")
    if len(c.r.diagnostics) == before:
        c.r.extend(bounds_mod.hazards(when, bounds_mod.Bounds(facts)))
    if (
        len(c.r.diagnostics) == before
        and c.base_tables_read
        and bounds_mod.Bounds(facts).truth(when) == bounds_mod.NEVER
    ):
        never = bounds_mod.never_reasons(when, bounds_mod.Bounds(facts))
        c.r.error(
            "E509",
            f"end trigger '{name}' can never fire: its condition never holds in any game under this spec",
            never[0].span,
            f"all cards and nobles together are worth {facts.total_points} prestige",
        )


def winners(c: Checker, scope_names, facts) -> Winners:
    """The `winners` section: who may win, the ranking levels in order, and how ties share."""
    node = c.node(c.root, "winners", MapNode)
    scope = Scope({**scope_names, "player": PLAYER})
    if node is None:
        return Winners(Bool(True, c.root.span), (), "shared", c.root.span)
    eligible_node = node.get("eligible")
    eligible = c.expression(eligible_node, "eligibility") if eligible_node is not None else Bool(True, node.span)
    if eligible is not None:
        c.typed_hazards(eligible, scope, BOOL, "eligibility", facts)
    levels = []
    ranking = c.node(node, "ranking", MapNode, required=False)
    for key, entry in ranking.entries if ranking else ():
        if not isinstance(entry, MapNode):
            c.r.error("E103", f"ranking level '{key.value}' must be a mapping", entry.span)
            continue
        where = f" in ranking level '{key.value}'"
        by = c.expression(c.node(entry, "by", where=where), "ranking key")
        prefer = c.choice(entry, "prefer", PREFERS, "highest", where)
        if entry.get("prefer") is None:
            c.r.error("E102", f"missing key 'prefer'{where}", entry.span)
        if by is not None:
            c.typed_hazards(by, scope, INT, "a ranking key", facts)
            title = c.text(entry, "title", required=False, default=str(key.value))
            levels.append(RankLevel(str(key.value), title, by, prefer, key.span, c.note(entry)))
        c.spans[f"winners.ranking.{key.value}"] = key.span
    ties = c.choice(node, "ties", ("shared",), "shared", " in winners")
    c.spans["winners"] = node.span
    return Winners(eligible or Bool(True, node.span), tuple(levels), ties, node.span)


def interpretations(c: Checker) -> tuple[Text, ...]:
    """The `interpretations` section: texts (one language or several) a sheet prints as they are."""
    return said_texts(c, "interpretations")


def handling(c: Checker) -> tuple[Text, ...]:
    """The `handling` section: how the pieces are handled at the table (what stays hidden, what
    stays in view), texts a sheet prints as they are; no rule of the engine reads them."""
    return said_texts(c, "handling")


def said_texts(c: Checker, section: str) -> tuple[Text, ...]:
    """A top-level list of texts (one language or several), each located at `SECTION.N`."""
    node = c.node(c.root, section, SeqNode, required=False)
    out = []
    for item in node.items if node else ():
        if isinstance(item, ScalarNode):
            out.append(Text(str(item.value)))
        elif isinstance(item, MapNode):
            wrapper = MapNode(((ScalarNode("text", item.span), item),), item.span)
            out.append(c.text(wrapper, "text"))
        else:
            continue
        c.spans[f"{section}.{len(out) - 1}"] = item.span
    return tuple(out)
