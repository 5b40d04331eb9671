"""Pass 4, check: a resolved spec tree -> the rule model, or every problem with it (the driver).

Takes the :class:`~compiler.front.overlay.Resolved` tree (schema-valid, variant applied),
parses every expression and effect (:mod:`compiler.front.expr`), loads the component tables
(:mod:`compiler.check.kinds`: the cards, the nobles and any other kind), and checks names, types
(:mod:`compiler.check.types`) and sense: a player-count table with gaps, too few cards for the
face-up rows, too few nobles, a notation that does not show every choice, an action that can
never be legal or an end trigger that can never fire (:mod:`compiler.check.bounds`). Returns an
immutable :class:`~compiler.model.Rules`; raises :class:`CompileError` with all diagnostics of
the pass otherwise.

:func:`build` runs the sections in the order they depend on each other - the tables
(:mod:`.tables`), zones, variables and definitions, the decisions (:mod:`.decisions`), setup
(:mod:`.setup`), the end and the ranking (:mod:`.ending`) - then the analyses across sections
(:mod:`.hidden`, :mod:`.sizes`, :mod:`.notation`, :mod:`.definitions`), each only once the
sections before it make sense. The state they share is one :class:`~.reader.Checker`.
"""

from __future__ import annotations

import dataclasses
from typing import Any, TypedDict

from ..diagnostics import SourceMap
from ..front.overlay import Resolved
from ..front.source import MapNode
from ..model import Decision, PlayerCount, Rules, Text, Zone
from . import bounds as bounds_mod
from . import definitions as definitions_mod
from . import hidden as hidden_mod
from . import kinds as kinds_mod
from . import queue as queue_mod
from . import sizes
from . import tables as tables_mod
from . import texts as texts_mod
from . import variables as variables_mod
from . import zones as zones_mod
from .decisions import decision_names, decisions, written_alike
from .ending import end_triggers, handling, interpretations, winners
from .inference import Inferrer
from .reader import RESERVED_NAMES, Checker
from .setup import setup_blocks, setup_overdraws
from .types import INT, base_scope


def build(resolved: Resolved, sources: SourceMap | None = None) -> Rules:
    """Check a resolved spec and build its rule model; raise CompileError with every problem."""
    return rules_of(Checker(resolved, sources))


def rules_of(c: Checker) -> Rules:
    """Every section read and checked in order, then the analyses across them; the rule model."""
    root = c.root
    name, _ = c.scalar(root, "name", str, default=c.resolved.source.name)
    title = c.text(root, "title")
    description = c.text(root, "description", required=False)
    first_player = c.text(root, "first_player", required=False)
    said = root.get("first_player")
    if said is not None:  # where it is said (diff shows it)
        c.spans["first_player"] = said.span
    gems, wild = tables_mod.components(c)
    kinds = tables_mod.tables(c, gems, wild)
    c.types = Inferrer(c.r, gems, wild, kinds)
    cards, nobles = kinds_mod.cards_of(kinds), kinds_mod.nobles_of(kinds)
    levels = tuple(sorted({card.level for card in cards}))
    c.player_fields = tables_mod.declared_fields(c)
    players = tables_mod.players(c)
    c.types.attributes["setup"] = {**c.types.attributes["setup"], **{f.name: INT for f in c.player_fields}}
    values = tables_mod.values(c)
    c.value_table = {v.name: v.value for v in values}
    if levels and levels != tuple(range(1, len(levels) + 1)):
        c.r.error(
            "E504", f"card levels must run 1, 2, ... without gaps, found {', '.join(map(str, levels))}", cards[0].span
        )
    tables_mod.check_tables(c, players, cards, nobles, levels)
    scope = base_scope(gems, wild, tuple(v.name for v in values))
    c.kinds, c.zones = kinds, read_zones(c, kinds, players, scope)
    facts = tables_mod.facts(c, gems, wild, cards, nobles, levels, players, values)
    c.gems_wild = (gems, wild)
    symbols = tables_mod.symbols(c, gems, wild)
    c.types.hooks["state"] = variables_mod.check_effect
    queue_mod.install(c, root)  # before any effect is typed: an action or a procedure may queue a step
    variables = variables_mod.declare(c, scope, players, RESERVED_NAMES)
    definitions, prestige, facts = defined(c, scope, gems, wild, kinds, values, facts)
    actions = decisions(c, root, "actions", scope, facts, is_step=False)
    steps = decisions(c, root, "end_of_turn", scope, facts, is_step=True, required=False)
    setup = setup_blocks(c, scope, facts)
    if not c.r.has_errors:
        setup_overdraws(c, setup, players, cards, gems, wild)
    end = end_triggers(c, scope, facts)
    ranking = winners(c, scope, facts)
    as_said = across(c, gems, wild, levels, players, (variables, definitions, prestige, setup, end), actions, steps)
    actions, steps, end, definitions, prestige, variables = texts_mod.told(
        c, texts_mod.numbers(values, players, c.player_fields), actions, steps, end, definitions, prestige, variables
    )
    c.r.raise_if_errors()
    rules = Rules(
        name=str(name),
        title=title,
        description=description,
        source=c.resolved.source,
        bases=c.resolved.bases,
        gems=gems,
        wild=wild,
        levels=levels,
        cards=cards,
        nobles=nobles,
        players=players,
        values=values,
        actions=actions,
        steps=steps,
        end=end,
        winners=ranking,
        **as_said,
        changes=c.resolved.changes,
        spans=dict(c.spans),
        kinds=kinds,
        first_player=first_player if first_player.en else None,
        setup=setup,
        definitions=definitions,
        prestige=prestige,
        variables=variables,
        zones=c.zones,
        player_fields=c.player_fields,
        symbols=symbols,
    )
    if definitions:  # what the engine writes out stays within bounds (a call stands for its body)
        c.r.extend(definitions_mod.written_out(rules))
        c.r.raise_if_errors()
    return texts_mod.sections(c, rules)  # whole sections told in words, over the rules they state


class SaidTexts(TypedDict):
    """The texts a sheet prints as written, read by :func:`across`: the readings and the handling lines."""

    interpretations: tuple[Text, ...]
    handling: tuple[Text, ...]


def across(
    c: Checker,
    gems: tuple[str, ...],
    wild: str,
    levels: tuple[int, ...],
    players: tuple[PlayerCount, ...],
    read: tuple[Any, ...],
    actions: tuple[Decision, ...],
    steps: tuple[Decision, ...],
) -> SaidTexts:
    """The analyses across sections, once every expression is typed: which player's private data each
    rule reads, the decisions' names, the sizes of choices and of the action space, rules written alike;
    the `interpretations` and `handling` sections are read between them, in the order their diagnostics
    have always come.
    `read` holds the variables, definitions, prestige sources, setup blocks and end triggers; returns the
    interpretations and the handling lines."""
    variables, definitions, prestige, setup, end = read
    if not c.r.has_errors:
        c.r.extend(hidden_mod.leaks(variables, c.zones, definitions, prestige, actions + steps, setup, end))
    said = SaidTexts(interpretations=interpretations(c), handling=handling(c))
    decision_names(c, actions, steps)
    if not c.r.has_errors:
        sizes.choices_with_values(c, gems, levels, players, actions, steps)
        sizes.action_space(c, gems, levels, players, actions + steps)
    if not c.r.has_errors:
        written_alike(c, gems, wild, levels, players, actions, steps)
    return said


def defined(c: Checker, scope, gems, wild, kinds, values, facts):
    """The `define` and `prestige` sections (compiler/check/definitions.py), and the facts that see
    through calls and count the sources in a player's prestige."""
    sections = definitions_mod.Sections(c, scope, gems, wild, kinds, values)
    definitions = sections.definitions()
    facts = facts.but(definitions={d.name: d for d in definitions})
    prestige = sections.prestige(definitions)
    if prestige:
        bounds = bounds_mod.Bounds(facts)
        ranges = [bounds.number(source.by) for source in prestige]
        facts = facts.but(extra_prestige=(sum(r[0] for r in ranges), sum(r[1] for r in ranges)))
    return definitions, prestige, facts


def read_zones(c: Checker, kinds, players, scope) -> tuple:
    """The `zones` section (compiler/check/zones.py), made known to expressions (names added to `scope`)."""
    taken = zones_mod.taken_names(scope, kinds, RESERVED_NAMES)
    reader = zones_mod.ZoneReader(c, kinds, players, c.value_table, taken, c.types.attributes["player"])
    zones = tuple(with_item(c, z) for z in reader.read())
    c.types.refused_zones = reader.refused
    zones_mod.install(c.types, zones, kinds, scope)
    return zones


def with_item(c: Checker, zone: Zone) -> Zone:
    """`zone` with what one component lying there is called (its `item`, read as a kind's: E126),
    where the spec says: a count of the zone is then said by it ("you have 1 claimed city")."""
    section = c.root.get("zones")
    entry = section.get(zone.name) if isinstance(section, MapNode) else None
    if not isinstance(entry, MapNode) or entry.get("item") is None:
        return zone
    item, grammar = c.item(entry, "item")
    return dataclasses.replace(zone, item=item, grammar=grammar)
