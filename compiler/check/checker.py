"""Pass 4, check: a resolved spec tree -> the rule model, or every problem with it.

Takes the :class:`~compiler.front.overlay.Resolved` tree (schema-valid, variant applied),
parses every expression and effect (:mod:`compiler.front.expr`), loads the component tables
(:mod:`compiler.check.kinds`: the cards, the nobles and any other kind), and checks names, types
(:mod:`compiler.check.types`) and sense: a player-count
table with gaps, too few cards for the face-up rows, too few nobles, a notation that
does not show every choice, an action that can never be legal or an end trigger that
can never fire (:mod:`compiler.check.bounds`). Returns an immutable
:class:`~compiler.model.Rules`; raises :class:`CompileError` with all diagnostics of
the pass otherwise. It is defensive about structure too: the schema pass should have
caught a malformed tree, but this pass never crashes on one.
"""
from __future__ import annotations

import math
import re
from dataclasses import replace
from typing import TypeVar, overload

from ..diagnostics import CompileError, Diagnostic, Reporter, SourceMap, Span, did_you_mean
from ..front.expr import Bool, Effect, Int, Name, Origin, parse_expr, parse_stmt, walk
from ..front.overlay import Resolved
from ..front.reading import read_input
from ..front.source import MapNode, Node, ScalarNode, SeqNode
from ..model import (
    BUILTIN_SETUP_FIELDS,
    DOMAINS,
    FINISHES,
    LENGTH_CAP,
    PREFERS,
    REPEATS,
    RESOLVES,
    Decision,
    EndTrigger,
    Kind,
    Param,
    PlayerCount,
    PlayerField,
    RankLevel,
    Rules,
    SetupBlock,
    Text,
    Value,
    Winners,
    setup_fields,
)
from . import bounds as bounds_mod
from . import deal as deal_mod
from . import definitions as definitions_mod
from . import hidden as hidden_mod
from . import kinds as kinds_mod
from . import notation as notation_mod
from . import termination
from . import variables as variables_mod
from . import zones as zones_mod
from .flow import card_flow, pay_flow
from .types import (
    AGGREGATES,
    BOOL,
    DOMAIN_TYPES,
    EFFECTS,
    FUNCTIONS,
    GEM,
    GLOBALS,
    INT,
    PLAYER,
    STATE_EFFECTS,
    Inferrer,
    Scope,
    base_scope,
    tested,
)
from .worth import worth_problems, worth_range

_N = TypeVar("_N", ScalarNode, SeqNode, MapNode)  # the kind of node Checker.node is asked for

LANGS = ("en", "fr", "nl", "sr")
MAX_FIELD_VALUE = 1000  # a declared field of the player-count table is 0..1000, as the built-in counts
RESERVED_NAMES = set(GLOBALS) | set(FUNCTIONS) | set(AGGREGATES) | set(EFFECTS) | {
    "me", "player", "true", "false", "if", "then", "else", "and", "or", "not", "in", "for", "c"}
# The end reasons an engine gives of its own (Game.end_reason); a trigger named so would be mistaken for one.
ENGINE_END_REASONS = {"stuck": "ends because no one can act", "truncated": "reaches its length cap"}
# The phases an engine names of its own (Game.phase: the action phase, a game over, a purchase
# waiting for its payment); a step's name is a phase too, so no action or step may take one.
ENGINE_PHASES = {"action": "a player choosing an action", "over": "a game that has ended",
                 "payment": "a purchase waiting for its payment"}
OPTIONAL_DOMAINS = ("gem", "colour")  # the domains whose choice may be `none` (rulespec/README.md, optional)
_PLACEHOLDER = re.compile(r"\{([^{}]*)\}")
# The engine numbers every action up front (one id per combination of choices, plus one per way
# to pay with the wild colour); past this many, compiling takes more than a second or two and
# the engine grows by megabytes, so check refuses the spec (E515) rather than let it explode.
MAX_ACTIONS = 10_000


def _bracket_problem(notation: str) -> str:
    """What is wrong with the [optional parts] of a notation, or '' when they pair up."""
    depth = 0
    for ch in notation:
        if ch == "[":
            if depth:
                return "opens a '[' inside another"
            depth = 1
        elif ch == "]":
            if not depth:
                return "has a ']' without its '['"
            depth = 0
    return "has a '[' without its ']'" if depth else ""


class Checker:
    def __init__(self, resolved: Resolved, sources: SourceMap | None):
        self.resolved = resolved
        self.root = resolved.root
        self.sources = sources
        self.r = Reporter()
        self.step_max: dict[str, tuple[int, Span]] = {}  # a repeated step's `max` (its largest value), by step
        self.types = Inferrer(self.r)
        self.spans: dict[str, Span] = {}
        self.value_spans: dict[tuple[int, str], Span] = {}  # (players, field) -> span of the number in the row
        self.unread: set[str] = set()  # tables that could not be read: no follow-up errors about their size
        self.refused_zones: set[str] = set()  # zones refused (compiler/check/zones.py): no follow-up errors about them
        self.zones: tuple = ()
        self.notation_spans: dict[tuple[bool, str], Span] = {}  # (is a step, name) -> the span of its notation
        self.gems_wild: tuple[tuple[str, ...], str] = ((), "gold")  # the colours, once read (state reads them)
        self.kinds: tuple[Kind, ...] = ()
        self.player_fields: tuple[PlayerField, ...] = ()  # the player-count table's declared fields, once read
        self.refused_fields: set[str] = set()  # declared fields refused (E540): their values are not reported again

    # ------------------------------------------------------------------ helpers

    @overload
    def node(self, parent: Node | None, key: str, kind: type[_N],
             required: bool = ..., where: str = ...) -> _N | None:
        ...

    @overload
    def node(self, parent: Node | None, key: str, kind: None = ...,
             required: bool = ..., where: str = ...) -> Node | None:
        ...

    def node(self, parent: Node | None, key: str, kind=None, required=True, where="") -> Node | None:
        """The value under `key` of a mapping, when it is one of `kind` (typed as that kind)."""
        if not isinstance(parent, MapNode):
            return None
        value = parent.get(key)
        if value is None:
            if required:
                self.r.error("E102", f"missing key '{key}'{where}", parent.span)
            return None
        if kind is not None and not isinstance(value, kind):
            want = {MapNode: "a mapping", SeqNode: "a list", ScalarNode: "a single value"}[kind]
            self.r.error("E103", f"'{key}' must be {want}", value.span)
            return None
        return value

    def scalar(self, parent, key, types, required=True, default=None, where=""):
        node = self.node(parent, key, ScalarNode, required, where)
        if node is None:
            return default, None
        if not isinstance(node.value, types) or (isinstance(node.value, bool) and bool not in _tuple(types)):
            want = " or ".join(t.__name__.replace("str", "text").replace("int", "whole number") for t in _tuple(types))
            self.r.error("E103", f"'{key}' must be a {want}, not {node.value!r}", node.span)
            return default, node
        return node.value, node

    def text(self, parent, key, required=True, default="") -> Text:
        node = self.node(parent, key, None, required)
        if node is None:
            return Text(default)
        if isinstance(node, ScalarNode):
            return Text(str(node.value) if node.value is not None else "")
        if isinstance(node, MapNode):
            entries = {}
            for k, v in node.entries:
                if k.value not in LANGS:
                    self.r.error("E104", f"unknown language '{k.value}'{did_you_mean(str(k.value), LANGS)}"
                                 f" (languages: {', '.join(LANGS)})", k.span)
                elif isinstance(v, ScalarNode):
                    entries[k.value] = str(v.value)
            if "en" not in entries:
                self.r.error("E104", f"'{key}' needs an English text ('en')", node.span)
            return Text(entries.get("en", default), tuple(sorted((k, v) for k, v in entries.items() if k != "en")))
        self.r.error("E103", f"'{key}' must be a text or a mapping of languages to texts", node.span)
        return Text(default)

    def note(self, entry: MapNode) -> Text | None:
        return self.text(entry, "note") if isinstance(entry, MapNode) and entry.get("note") is not None else None

    def expression(self, node: Node | None, what: str):
        if node is None:
            return None
        if not isinstance(node, ScalarNode) or isinstance(node.value, (list, dict)):
            self.r.error("E103", f"{what} must be an expression written as text", node.span)
            return None
        if isinstance(node.value, bool):
            return Bool(node.value, node.span)
        text = str(node.value) if node.value is not None else ""
        origin = Origin.of_scalar(text, node.span, self._raw_lines(node.span.file))
        try:
            return parse_expr(text, origin, what)
        except CompileError as err:
            self.r.extend(err.diagnostics)
            return None

    def statement(self, node: Node, what: str):
        if not isinstance(node, ScalarNode) or not isinstance(node.value, str):
            self.r.error("E103", f"{what} must be an effect written as text", node.span)
            return None
        origin = Origin.of_scalar(node.value, node.span, self._raw_lines(node.span.file))
        try:
            return parse_stmt(node.value, origin, what)
        except CompileError as err:
            self.r.extend(err.diagnostics)
            return None

    def _raw_lines(self, file: str) -> list[str]:
        if self.sources is not None:
            lines = self.sources.lines(file)
            if lines is not None:
                return lines
        try:
            return read_input(file).decode("utf-8").splitlines()
        except (OSError, UnicodeDecodeError):
            return []

    # ------------------------------------------------------------------ sections

    def build(self) -> Rules:
        root = self.root
        name, _ = self.scalar(root, "name", str, default=self.resolved.source.name)
        title = self.text(root, "title")
        description = self.text(root, "description", required=False)
        first_player = self.text(root, "first_player", required=False)
        said = root.get("first_player")
        if said is not None:  # where it is said (diff shows it)
            self.spans["first_player"] = said.span
        gems, wild = self.components()
        kinds = self.tables(gems, wild)
        self.types = Inferrer(self.r, gems, wild, kinds)
        cards, nobles = kinds_mod.cards_of(kinds), kinds_mod.nobles_of(kinds)
        levels = tuple(sorted({c.level for c in cards}))
        self.player_fields = self.declared_fields()
        players = self.players()
        self.types.attributes["setup"] = {**self.types.attributes["setup"],
                                          **{f.name: INT for f in self.player_fields}}
        values = self.values()
        self.value_table = {v.name: v.value for v in values}
        if levels and levels != tuple(range(1, len(levels) + 1)):
            self.r.error("E504", f"card levels must run 1, 2, ... without gaps, found {', '.join(map(str, levels))}",
                         cards[0].span)
        self.check_tables(players, cards, nobles, levels)
        scope = base_scope(gems, wild, tuple(v.name for v in values))
        self.kinds, self.zones = kinds, self.read_zones(kinds, players, scope)
        facts = self.facts(gems, wild, cards, nobles, levels, players, values)
        self.gems_wild = (gems, wild)
        self.types.hooks["state"] = variables_mod.check_effect
        variables = variables_mod.declare(self, scope, players, RESERVED_NAMES)
        definitions, prestige, facts = self.defined(scope, gems, wild, kinds, values, facts)
        actions = self.decisions(root, "actions", scope, facts, is_step=False)
        steps = self.decisions(root, "end_of_turn", scope, facts, is_step=True, required=False)
        setup = self.setup_blocks(scope, facts)
        if not self.r.has_errors:
            self.setup_overdraws(setup, players, cards, gems, wild)
        end = self.end_triggers(scope, facts)
        winners = self.winners(scope, facts)
        if not self.r.has_errors:  # every expression typed: which player's private data does each rule read?
            self.r.extend(hidden_mod.leaks(variables, self.zones, definitions, prestige, actions + steps, setup, end))
        interpretations = self.interpretations()
        self.decision_names(actions, steps)
        if not self.r.has_errors:
            self.choices_with_values(gems, levels, players, actions, steps)
            self.action_space(gems, levels, players, actions + steps)
        if not self.r.has_errors:
            self.written_alike(gems, wild, levels, players, actions, steps)
        self.r.raise_if_errors()
        rules = Rules(
            name=str(name), title=title, description=description, source=self.resolved.source,
            bases=self.resolved.bases, gems=gems, wild=wild, levels=levels, cards=cards, nobles=nobles,
            players=players, values=values, actions=actions, steps=steps, end=end, winners=winners,
            interpretations=interpretations, changes=self.resolved.changes, spans=dict(self.spans), kinds=kinds,
            first_player=first_player if first_player.en else None, setup=setup, definitions=definitions,
            prestige=prestige, variables=variables, zones=self.zones, player_fields=self.player_fields)
        if definitions:  # what the engine writes out stays within bounds (a call stands for its body)
            self.r.extend(definitions_mod.written_out(rules))
            self.r.raise_if_errors()
        return rules

    def defined(self, scope, gems, wild, kinds, values, facts):
        """The `define` and `prestige` sections (compiler/check/definitions.py), and the facts that see
        through calls and count the sources in a player's prestige."""
        sections = definitions_mod.Sections(self, scope, gems, wild, kinds, values)
        definitions = sections.definitions()
        facts = facts.but(definitions={d.name: d for d in definitions})
        prestige = sections.prestige(definitions)
        if prestige:
            bounds = bounds_mod.Bounds(facts)
            ranges = [bounds.number(source.by) for source in prestige]
            facts = facts.but(extra_prestige=(sum(r[0] for r in ranges), sum(r[1] for r in ranges)))
        return definitions, prestige, facts


    def read_zones(self, kinds, players, scope) -> tuple:
        """The `zones` section (compiler/check/zones.py), made known to expressions (names added to `scope`)."""
        taken = zones_mod.taken_names(scope, kinds, RESERVED_NAMES)
        reader = zones_mod.ZoneReader(self, kinds, players, self.value_table, taken, self.types.attributes["player"])
        zones = reader.read()
        self.types.refused_zones = reader.refused
        zones_mod.install(self.types, zones, kinds, scope)
        return zones

    def components(self) -> tuple[tuple[str, ...], str]:
        comp = self.node(self.root, "components", MapNode)
        gems: list[str] = []
        wild = "gold"
        if comp is None:
            return ("white", "blue", "green", "red", "black"), wild
        gem_list = self.node(comp, "gems", SeqNode)
        for item in gem_list.items if gem_list else ():
            if (not isinstance(item, ScalarNode) or not isinstance(item.value, str)
                    or not re.fullmatch(r"[a-z][a-z0-9_]*", item.value)):
                self.r.error("E105", "a gem colour is a lower-case name", item.span)
            elif item.value in gems:
                self.r.error("E501", f"gem colour '{item.value}' is listed twice", item.span)
            elif item.value in RESERVED_NAMES:
                self.r.error("E406", f"'{item.value}' is a built-in name and cannot be a colour", item.span)
            else:
                gems.append(item.value)
        if gem_list is not None and len(gems) < 1:
            self.r.error("E501", "at least one gem colour is needed", gem_list.span)
        wild_value, wild_node = self.scalar(comp, "wild", str, default="gold")
        if wild_node is not None and wild_value in gems:
            self.r.error("E501", f"the wild colour '{wild_value}' is also a gem colour", wild_node.span)
        if wild_node is not None and wild_value in RESERVED_NAMES:
            self.r.error("E406", f"'{wild_value}' is a built-in name and cannot be a colour", wild_node.span)
        return tuple(gems), str(wild_value)

    def file_rank(self, file: str) -> int:
        """How far a file is along the chain of variants: 0 for the spec given, 1 for its base..."""
        chain = [self.resolved.source.path] + [b.path for b in self.resolved.bases]
        return chain.index(file) if file in chain else len(chain)

    @property
    def base_tables_read(self) -> bool:
        """Whether the cards and nobles were read: without them, what can never happen is not known."""
        return not self.unread & set(kinds_mod.BASE_KINDS)

    def tables(self, gems: tuple[str, ...], wild: str) -> tuple[Kind, ...]:
        """Every kind of component with its table read (compiler/check/kinds.py); the unread ones noted."""
        loader = kinds_mod.Loader(self, gems, wild)
        kinds = loader.load()
        self.unread |= loader.unread
        return kinds

    def declared_fields(self) -> tuple[PlayerField, ...]:
        """The `player_fields` section: the player-count table's own fields (E540 for a name a row
        already has: a built-in field, or `note`). A field is read as `setup.NAME`, so it may share
        its name with a zone, a value or a variable (a zone `cities` sized `setup.cities`)."""
        table = self.node(self.root, "player_fields", MapNode, required=False)
        out = []
        for key, entry in table.entries if table else ():
            name = key.value
            if name in BUILTIN_SETUP_FIELDS or name == "note":
                meaning = "the remark of a row" if name == "note" else f"a field every row has (setup.{name})"
                self.r.error("E540", f"'{name}' is already the name of {meaning}: choose another name for this "
                             "player-count field", key.span)
                self.refused_fields.add(str(name))
                continue
            if not isinstance(entry, MapNode):
                continue  # the schema said so
            self.spans[f"player_fields.{name}"] = key.span
            out.append(PlayerField(str(name), self.text(entry, "title"), key.span, self.note(entry)))
        return tuple(out)

    def row_fields(self, players: int, entry: MapNode) -> tuple[tuple[str, int], ...]:
        """A row's values of the declared fields, in declaration order; E543 for a field the spec
        does not declare, a declared one the row lacks, or a value that is no whole number 0..1000."""
        declared = {f.name: f for f in self.player_fields}
        got: dict[str, int] = {}
        suggested: set[str] = set()  # declared names offered for a misspelt field: not reported missing too
        for key, node in entry.entries:
            name = key.value
            if name in BUILTIN_SETUP_FIELDS or name == "note":
                continue
            if name not in declared:
                hint = did_you_mean(str(name), declared)
                suggested |= {n for n in declared if hint and f"'{n}'" in hint}
                if name not in self.refused_fields:  # an E540 already: not undeclared
                    self.r.error("E543", f"the row for {players} players has a field '{name}' that 'player_fields' "
                                 f"does not declare{hint}", key.span,
                                 "a row holds gems, gold, nobles, face_up and the fields declared in 'player_fields'")
                continue
            value = node.value if isinstance(node, ScalarNode) else None
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_FIELD_VALUE:
                shown = repr(value) if isinstance(node, ScalarNode) else "a " + type(node).__name__[:-4].lower()
                self.r.error("E543", f"'{name}' in the row for {players} players is a whole number from 0 to "
                             f"{MAX_FIELD_VALUE}, not {shown}", node.span)
                continue
            got[str(name)] = value
            self.value_spans[(players, str(name))] = node.span
        for name, field in declared.items():
            if name not in got and entry.get(name) is None and name not in suggested:
                self.r.error("E543", f"the row for {players} players gives no '{name}'", entry.span,
                             f"'{name}' is declared in 'player_fields' (line {field.span.line}): every row gives it "
                             "a whole number")
        return tuple((name, got[name]) for name in declared if name in got)

    def players(self) -> tuple[PlayerCount, ...]:
        table = self.node(self.root, "players", MapNode)
        if table is None:
            return ()
        out = []
        for key, entry in table.entries:
            if not isinstance(key.value, int) or isinstance(key.value, bool) or key.value < 1:
                self.r.error("E501", f"a player count is a whole number of at least 1, not {key.value!r}", key.span)
                continue
            if not isinstance(entry, MapNode):
                self.r.error("E103", f"the row for {key.value} players must be a mapping", entry.span)
                continue
            where = f" in the row for {key.value} players"
            nums = {}
            for field in ("gems", "gold", "nobles", "face_up"):
                v, n = self.scalar(entry, field, int, default=0, where=where)
                if n is not None and isinstance(v, int) and v < 0:
                    self.r.error("E501", f"'{field}' cannot be negative", n.span)
                nums[field] = v if isinstance(v, int) else 0
                if n is not None:
                    self.value_spans[(key.value, field)] = n.span
            self.spans[f"players.{key.value}"] = key.span
            end = entry.span
            self.value_spans[(key.value, "row")] = Span(key.span.file, key.span.line, key.span.col,
                                                        end.end_line, end.end_col)
            out.append(PlayerCount(key.value, nums["gems"], nums["gold"], nums["nobles"], nums["face_up"], key.span,
                                   self.note(entry), self.row_fields(key.value, entry)))
        out.sort(key=lambda p: p.players)
        for a, b in zip(out, out[1:], strict=False):
            if b.players != a.players + 1:
                missing = [str(n) for n in range(a.players + 1, b.players)]
                rows = f"a row for {missing[0]} players" if len(missing) == 1 else \
                    f"rows for {', '.join(missing[:-1])} and {missing[-1]} players"
                where = f"line {a.span.line}" if a.span.file == b.span.file else f"{a.span.file}:{a.span.line}"
                self.r.error("E502", f"the player-count table has a gap: {a.players} and {b.players} players are listed"
                             f" but not {', '.join(missing)}", self.value_spans.get((b.players, "row"), b.span),
                             f"add {rows} (the row for {a.players} players is at {where}), or remove the "
                             f"row for {b.players} players")
        if not out:
            self.r.error("E502", "the player-count table is empty", table.span)
        return tuple(out)

    def values(self) -> tuple[Value, ...]:
        table = self.node(self.root, "values", MapNode, required=False)
        out = []
        for key, entry in table.entries if table else ():
            name = key.value
            if not isinstance(name, str) or not re.fullmatch(r"[a-z_][a-z0-9_]*", name):
                self.r.error("E105", f"a value's name is a lower-case name, not {name!r}", key.span)
                continue
            if name in RESERVED_NAMES:
                self.r.error("E406", f"'{name}' is a built-in name and cannot name a value", key.span)
                continue
            note = None
            node = entry
            if isinstance(entry, MapNode):
                value = entry.get("value")
                note = self.note(entry)
                if value is None:
                    self.r.error("E102", f"missing key 'value' in value '{name}'", entry.span)
                    continue
                node = value
            if not isinstance(node, ScalarNode) or not isinstance(node.value, int) or isinstance(node.value, bool):
                self.r.error("E103", f"value '{name}' must be a whole number", node.span)
                continue
            if name == LENGTH_CAP and node.value < 1:
                self.r.error("E108", f"value '{LENGTH_CAP}' is the engines' length cap in turns: at least 1, "
                             f"not {node.value}", node.span)
                continue
            self.spans[f"values.{name}"] = key.span
            out.append(Value(name, node.value, key.span, note))
        return tuple(out)

    def check_tables(self, players, cards, nobles, levels) -> None:
        if not players:
            return
        biggest = max(players, key=lambda p: p.nobles)
        if biggest.nobles > len(nobles) and "nobles" not in self.unread:
            self.r.error("E503", f"{biggest.players} players reveal {biggest.nobles} nobles, but there are only "
                         f"{len(nobles)} noble tiles", self.value_spans.get((biggest.players, "nobles"), biggest.span))
        for p in players:
            for level in levels:
                n = sum(1 for c in cards if c.level == level)
                if p.face_up > n:
                    self.r.error("E504", f"{p.players} players show {p.face_up} face-up cards of level {level}, but "
                                 f"level {level} has only {n} cards",
                                 self.value_spans.get((p.players, "face_up"), p.span))
                    break

    def facts(self, gems, wild, cards, nobles, levels, players, values) -> bounds_mod.Facts:
        per_level = {lv: sum(1 for c in cards if c.level == lv) for lv in levels}
        per_bonus = max((sum(1 for c in cards if c.bonus == i) for i in range(len(gems))), default=0)
        fields = setup_fields(self.player_fields, players)
        setup = {f: (min((p.field(f) for p in players), default=0), max((p.field(f) for p in players), default=0))
                 for f in fields}
        return bounds_mod.Facts(
            values={v.name: v.value for v in values}, gems=gems, wild=wild,
            max_gem_tokens=setup["gems"][1], max_gold=setup["gold"][1],
            max_players=max((p.players for p in players), default=1),
            min_players=min((p.players for p in players), default=1),
            cards_per_level=per_level, cards_per_bonus=per_bonus,
            total_points=sum(c.points for c in cards) + sum(n.points for n in nobles),
            max_cost=max((max(c.cost, default=0) for c in cards), default=0),
            max_card_points=max((c.points for c in cards), default=0), levels=levels, nobles=len(nobles),
            max_noble_requirement=max((max(n.requires, default=0) for n in nobles), default=0),
            max_noble_points=max((n.points for n in nobles), default=0), max_face_up=setup["face_up"][1],
            max_nobles_shown=setup["nobles"][1], setup=setup, set_sizes={})

    # ------------------------------------------------------------------ decisions

    def decisions(self, root, section, scope_names, facts, is_step, required=True) -> tuple[Decision, ...]:
        table = self.node(root, section, MapNode, required=required)
        out = []
        for key, entry in table.entries if table else ():
            if not isinstance(entry, MapNode):
                self.r.error("E103", f"'{key.value}' must be a mapping", entry.span)
                continue
            decision = self.decision(str(key.value), key, entry, scope_names, facts, is_step, section)
            if decision is not None:
                out.append(decision)
        if required and table is not None and not out and not self.resolved.incomplete:
            self.r.error("E505", "a spec needs at least one action", table.span)
        if not is_step:
            stuck = [d for d in out if d.only_when_stuck]
            if len(stuck) > 1:
                self.r.error("E505", "only one action can be the one taken when stuck", stuck[1].span)
        return tuple(out)

    def decision(self, name, key, entry, scope_names, facts, is_step, section) -> Decision | None:
        kind = "step" if is_step else "action"
        start = len(self.r.diagnostics)
        where = f" in {kind} '{name}'"
        path = f"{section}.{name}"
        self.spans[path] = key.span
        if name in ENGINE_PHASES:
            article = "an" if kind == "action" else "a"
            self.r.error("E518", f"'{name}' is a phase of the engines ({ENGINE_PHASES[name]}) and cannot name "
                         f"{article} {kind}", key.span,
                         f"the engines' own phases are {', '.join(repr(p) for p in ENGINE_PHASES)}: "
                         "choose another name")
        title = self.text(entry, "title", required=False, default=name.replace("_", " "))
        notation, notation_node = self.scalar(entry, "notation", str, default=name, where=where)
        if notation_node is not None:
            self.notation_spans[(is_step, name)] = notation_node.span
        names = dict(scope_names)
        names["me"] = PLAYER
        params: list[Param] = []
        set_sizes: dict[str, tuple[int, int]] = {}
        choose = self.node(entry, "choose", MapNode, required=False)
        optional: set[str] = set()
        for pkey, pnode in choose.entries if choose else ():
            pname = pkey.value
            if not isinstance(pname, str) or not re.fullmatch(r"[a-z_][a-z0-9_]*", pname):
                self.r.error("E105", f"a choice is named with a lower-case name, not {pname!r}", pkey.span)
                continue
            if pname in names or pname in RESERVED_NAMES:
                self.r.error("E406", f"choice '{pname}'{where} hides the name '{pname}' of the game", pkey.span)
                continue
            # the choices before it, as a price or a worth reads them (an optional one: after a test)
            earlier = Scope(names, frozenset(optional), frozenset(p.name for p in params))
            param = self.param(pname, pnode, earlier, where)
            if param is None:
                continue
            params.append(param)
            names[pname] = zones_mod.param_type(param, self.zones, self.kinds) if param.domain == "component" \
                else DOMAIN_TYPES[param.domain]
            if param.optional:
                optional.add(pname)
            if param.domain == "gem_set":
                set_sizes[pname] = (param.min, param.max)
            self.spans[f"{path}.choose.{pname}"] = pkey.span
        scope = Scope(names, frozenset(optional), frozenset(p.name for p in params))
        self.payment_last(params, kind)
        stray = notation_node is not None and re.search(r"[{}]", _PLACEHOLDER.sub("", notation))
        if stray:  # one error for a broken brace, not one for each choice it hides
            self.r.error("E506", f"notation has a '{stray[0]}' without its pair: write each choice as "
                         f"{{name}} ({', '.join('{' + p.name + '}' for p in params) or 'no choices here'})",
                         notation_node.span)
        elif notation_node is not None and _bracket_problem(notation):
            self.r.error("E506", f"notation {_bracket_problem(notation)}: an optional part is written "
                                 "[words {choice}], once, not inside another", notation_node.span)
        elif notation_node is not None:
            shown = _PLACEHOLDER.findall(notation)
            for placeholder in shown:
                if placeholder not in {p.name for p in params}:
                    self.r.error("E506", f"notation shows '{{{placeholder}}}', which is not a choice of this {kind}"
                                 f"{did_you_mean(placeholder, [p.name for p in params])}", notation_node.span)
            for p in params:
                if p.name not in shown:
                    self.r.error("E506", f"notation must show every choice; '{{{p.name}}}' is missing",
                                 notation_node.span)
            words = _PLACEHOLDER.sub("", notation).replace("[", " ").replace("]", " ").split()
            if not words or not all(re.fullmatch(r"[a-z0-9_]+", w) for w in words):
                self.r.error("E506", "notation starts with a lower-case word and uses words and {choices} only",
                             notation_node.span)
        only_when_stuck, _ = self.scalar(entry, "only_when_stuck", bool, required=False, default=False)
        condition_node = entry.get("condition")
        if only_when_stuck and condition_node is not None:
            self.r.error("E505", f"{kind} '{name}' is taken only when stuck; it cannot have its own condition",
                         condition_node.span)
        condition = self.expression(condition_node, "condition") if condition_node is not None else Bool(True, key.span)
        condition_ok = False
        if condition is not None:
            before = len(self.r.diagnostics)
            self.types.expect(condition, scope, BOOL, "a condition")
            condition_ok = len(self.r.diagnostics) == before
            self.spans[f"{path}.condition"] = (condition_node or key).span
        effects = []
        typed = len(self.r.diagnostics)
        effects_node = self.node(entry, "effects", SeqNode, required=False)
        for item in effects_node.items if effects_node else ():
            stmt = self.statement(item, "effect")
            if stmt is not None:  # the effects run once the condition held
                self.types.statement(stmt, scope.knowing(tested(condition, none=False)) if condition else scope)
                effects.append(stmt)
        if effects_node is not None:
            self.spans[f"{path}.effects"] = effects_node.span
        if len(self.r.diagnostics) == typed:  # where the cards go, once every effect makes sense
            self.r.extend(card_flow(effects, tuple(p for p in params if p is not None)))
            self.r.extend(pay_flow(effects))
            self.r.extend(zones_mod.moved_twice(effects, tuple(params)))
        while_ = max_ = None
        repeat, resolve = "once", "choice"
        if is_step:
            if entry.get("while") is not None:
                while_ = self.expression(entry.get("while"), "'while' condition")
                if while_ is not None:
                    self.types.expect(while_, scope, BOOL, "a 'while' condition")
            repeat = self.choice(entry, "repeat", REPEATS, "once", where)
            resolve = self.choice(entry, "resolve", RESOLVES, "choice", where)
            if entry.get("max") is not None:
                max_ = self.expression(entry.get("max"), "'max'")
                if max_ is not None:
                    self.types.expect(max_, scope, INT, "a step's 'max'")
                if repeat != "while" or resolve != "choice":
                    self.r.error("E531", "'max' bounds a step with `repeat: while` and `resolve: choice`; this one "
                                 "runs at most once a turn", entry.key_span("max"))
            if only_when_stuck:
                self.r.error("E505", "'only_when_stuck' applies to actions, not to end-of-turn steps", key.span)
        else:
            for field in ("while", "repeat", "resolve", "max"):
                if entry.get(field) is not None:
                    self.r.error("E505", f"'{field}' applies to end-of-turn steps, not to actions",
                                 entry.key_span(field))
        levels = (min(facts.levels, default=1), max(facts.levels, default=1))
        facts_here = facts.but(set_sizes=set_sizes, ranges={p.name: levels for p in params if p.domain == "deck"})
        if len(self.r.diagnostics) == start:  # every expression makes sense: can one stop the engine?
            for node in (condition, while_, *effects, *(p.price for p in params if p.price is not None),
                         *(p.worth for p in params if p.worth is not None)):
                if node is not None:
                    self.r.extend(bounds_mod.hazards(node, bounds_mod.Bounds(facts_here)))
            for p in params:
                if p.price is not None:
                    self.price_below_zero(p.price, bounds_mod.Bounds(facts_here))
            params[:] = [self.sized_worth(p, bounds_mod.Bounds(facts_here)) for p in params]
            self.r.extend(self.repeats_end(name, key, while_, max_, repeat, resolve, effects, params,
                                           bounds_mod.Bounds(facts_here)))
        if condition_ok and self.base_tables_read:
            never = bounds_mod.never_reasons(condition, bounds_mod.Bounds(facts_here))
            if never:
                self.r.error("E507", f"{kind} '{name}' can never be taken: this condition never holds in any game "
                             f"under this spec", never[0].span)
        if condition is None:
            return None
        return Decision(name=name, title=title, notation=str(notation), params=tuple(params), condition=condition,
                        effects=tuple(effects), span=key.span, only_when_stuck=bool(only_when_stuck), while_=while_,
                        repeat=repeat, max_=max_, resolve=resolve, note=self.note(entry))

    def repeats_end(self, name, key, while_, max_, repeat, resolve, effects, params, bounds) -> list[Diagnostic]:
        """E530/E531: a step repeated in one turn ends, by a proof of its condition or by its `max`
        (compiler/check/termination.py)."""
        if max_ is not None:
            problem = termination.max_problem(max_, bounds)
            if problem is None:  # weighed against the step's choices once they are all counted (action_space)
                self.step_max[name] = (int(bounds.number(max_)[1]), max_.span)
            return [Diagnostic("E531", problem, max_.span)] if problem else []
        if repeat != "while" or resolve != "choice":
            return []
        return termination.unending(name, while_ if while_ is not None else Bool(True, key.span), effects, params,
                                    bounds, (while_ or key).span)

    def param(self, pname: str, node, scope: Scope, where: str) -> Param | None:
        if isinstance(node, ScalarNode) and isinstance(node.value, str):
            domain, dnode, pnode = node.value, node, None  # shorthand: `colour: gem`
        elif isinstance(node, MapNode):
            domain, dnode = self.scalar(node, "domain", str, where=f" in choice '{pname}'{where}")
            pnode = node
        else:
            self.r.error("E103", f"choice '{pname}' must name a domain", node.span)
            return None
        if dnode is None or domain is None:
            return None
        if domain not in DOMAINS:
            self.r.error("E411", f"unknown domain '{domain}'{did_you_mean(str(domain), DOMAINS)}"
                         f" (domains: {', '.join(DOMAINS)})", dnode.span)
            return None
        lo, hi, optional, price, slots, slots_name, source, worth = 1, 1, False, None, 0, "", "", None
        if pnode is not None:
            optional, _ = self.scalar(pnode, "optional", bool, required=False, default=False)
            if domain == "gem_set":
                lo, lo_node = self.scalar(pnode, "min", int, required=False, default=1)
                hi, hi_node = self.scalar(pnode, "max", int, required=False, default=1)
                if isinstance(lo, int) and isinstance(hi, int) and not (0 <= lo <= hi):
                    self.r.error("E508", f"choice '{pname}': min {lo} and max {hi} do not make a range",
                                 (lo_node or hi_node or pnode).span)
            else:
                for field in ("min", "max"):
                    if pnode.get(field) is not None:
                        self.r.error("E508", f"'{field}' applies to the gem_set domain, not to '{domain}'",
                                     pnode.key_span(field))
            if domain == "payment":
                price_node = pnode.get("price")
                if price_node is None:
                    self.r.error("E102", f"missing key 'price' in choice '{pname}' (the price of gem `c`)", pnode.span)
                else:
                    price = self.expression(price_node, "price")
                    if price is not None:
                        self.types.expect(price, scope.bind("c", GEM), INT, "a price")
                if pnode.get("worth") is not None:
                    worth = self.expression(pnode.get("worth"), "worth")
                    if worth is not None:
                        self.types.expect(worth, scope, INT, "a worth")
            for field in ("price", "worth"):
                if domain != "payment" and pnode.get(field) is not None:
                    self.r.error("E508", f"'{field}' applies to the payment domain, not to '{domain}'",
                                 pnode.key_span(field))
            if domain == "reserved":
                slots_value, slots_node = self.scalar(pnode, "slots", (str, int), where=f" in choice '{pname}'{where}")
                if isinstance(slots_value, str):
                    if slots_value not in self.value_table:
                        self.r.error("E401", f"unknown value '{slots_value}'"
                                     f"{did_you_mean(slots_value, self.value_table)}",
                                     slots_node.span)
                    else:
                        slots, slots_name = self.value_table[slots_value], slots_value
                elif isinstance(slots_value, int):
                    slots = slots_value
                if slots_node is not None and slots < 1 and not self.r.has_errors:
                    self.r.error("E508", "a player must be able to hold at least 1 reserved card", slots_node.span)
            elif pnode.get("slots") is not None:
                self.r.error("E508", f"'slots' applies to the reserved domain, not to '{domain}'",
                             pnode.key_span("slots"))
            if domain == "component":
                source, slots = zones_mod.component_param(self, pname, pnode, self.zones, self.kinds, where)
            elif pnode.get("from") is not None:
                self.r.error("E508", f"'from' applies to the component domain, not to '{domain}'",
                             pnode.key_span("from"))
        elif domain in ("payment", "reserved", "component"):
            needs = {"payment": "a 'price'", "reserved": "'slots'", "component": "'from' (a zone or a kind)"}[domain]
            self.r.error("E102", f"choice '{pname}' of domain {domain} needs {needs}", node.span)
        if optional and domain not in OPTIONAL_DOMAINS and domain != "component":
            self.r.error("E508", f"'optional' applies to the domains {' and '.join(OPTIONAL_DOMAINS)}, not to "
                         f"'{domain}'", pnode.key_span("optional") if pnode is not None else node.span,
                         "the engines offer `none` for a colour only; leave 'optional' out, or choose a colour")
        return Param(pname, domain, node.span, int(lo) if isinstance(lo, int) else 1,
                     int(hi) if isinstance(hi, int) else 1, bool(optional), price, slots, slots_name, source,
                     worth=worth)

    def payment_last(self, params: list[Param], kind: str) -> None:
        """E521 for a payment that is not the last choice, after the card it pays for: the engine
        numbers the other choices and asks for the payment afterwards (its payment step)."""
        for i, p in enumerate(params):
            if p.domain != "payment":
                continue
            if kind == "step":  # the payment phase follows an action; a step's choices are all in its ids
                self.r.error("E521", f"choice '{p.name}' is a payment, and an end-of-turn step cannot ask for one: "
                             "the engine asks for a payment in its payment phase, after an action", p.span,
                             "buy in an action, or make the step take a price it fixes (put_back)")
            elif i != len(params) - 1:
                self.r.error("E521", f"choice '{p.name}' is a payment: it must be the last choice of its {kind} "
                             f"(the engine asks for it after '{params[-1].name}')", p.span)
            elif i == 0:
                self.r.error("E521", f"choice '{p.name}' is a payment: it must come after the choice of what it pays "
                             f"for (a card), and this {kind} chooses nothing before it", p.span)

    def choice(self, entry, key, allowed, default, where) -> str:
        value, node = self.scalar(entry, key, str, required=False, default=default, where=where)
        if node is not None and value not in allowed:
            self.r.error("E106", f"'{key}' must be one of: {', '.join(allowed)}{did_you_mean(str(value), allowed)}",
                         node.span)
            return default
        return str(value)

    def sized_worth(self, p: Param, bounds: bounds_mod.Bounds) -> Param:
        """A payment with a worth, with the largest worth a game reaches (E548 when it is not
        proved within 1..4, or reads the payment itself); any other choice as it is."""
        if p.worth is None:
            return p
        problems = worth_problems(p, bounds)
        self.r.extend(problems)
        return p if problems else replace(p, worth_max=int(worth_range(p, bounds)[1]))

    def price_below_zero(self, price, bounds) -> None:
        """E517 when a price can be below 0 in a game: paying it would give the player tokens from
        the supply (which could go below 0), which no payment means."""
        lo, hi = bounds.number(price)
        if lo < 0:
            self.r.error("E517", f"this price can be below 0 in a game under this spec (it is "
                         f"{bounds_mod.range_text((lo, hi))}), and paying it would give the player tokens",
                         price.span, "write max(0, ...) around it, as in max(0, card.cost[c] - me.bonus[c])")

    def choices_with_values(self, gems, levels, players, actions, steps) -> None:
        """E507 for a decision with a choice that takes no value under this spec (no nobles or no
        face-up cards in any row of the player-count table, no reserved slots, gem sets larger than
        the colours): the engine would number no action for it, so it could never be taken."""
        for kind, decisions in (("action", actions), ("step", steps)):
            for d in decisions:
                for p in d.params:
                    if choice_size(p, len(gems), len(levels), players):
                        continue
                    hint = {"noble": "no row of the player-count table reveals a noble (nobles: 0)",
                            "face_up": "no row of the player-count table has face-up cards (face_up: 0)",
                            "reserved": "it names none of the player's reserved cards (slots: 0)",
                            "component": "its zone has no place at any player count",
                            "gem_set": f"a set of {p.min} to {p.max} different gem colours, and there are {len(gems)}",
                            }.get(p.domain, "")
                    self.r.error("E507", f"{kind} '{d.name}' can never be taken: its choice '{p.name}' has no value "
                                 "under this spec", p.span, hint)

    def action_space(self, gems, levels, players, decisions) -> None:
        """E515 when the engine would number more than MAX_ACTIONS actions, at what makes most of them."""
        sizes = action_sizes(gems, levels, players, decisions)
        for name, (high, span) in self.step_max.items():
            problem = termination.max_work_problem(high, sizes.get(name, 1))
            if problem:
                self.r.error("E531", problem, span)
        total = sum(sizes.values())
        if total <= MAX_ACTIONS:
            return
        biggest = max(sizes, key=lambda k: sizes[k])
        ranked = sorted(sizes.items(), key=lambda kv: -kv[1])
        parts = ", ".join(f"{n:,} for {k}" for k, n in ranked[:2]) + (", ..." if len(ranked) > 2 else "")
        if biggest == PAY_STEP:
            row = max(players, key=lambda p: p.gold)
            span = self.value_spans.get((row.players, "gold"), row.span)
            hint = (f"the ways to pay with {self.types.wild} grow fast with its tokens and the gem colours: "
                    f"with {len(gems)} gem colours, at most {max_gold(len(gems), table_worth(decisions))} "
                    f"{self.types.wild} tokens" + (f" of worth {table_worth(decisions)}" if table_worth(decisions) > 1
                                                   else ""))
        else:
            decision = next(d for d in decisions if d.name == biggest)
            span = max(decision.params, key=lambda p: choice_size(p, len(gems), len(levels), players)).span
            hint = "each combination of the choices is one action: choose from fewer values, or split the action"
        self.r.error("E515", f"the engine would number {total:,} actions ({parts}); at most {MAX_ACTIONS:,} compile "
                     "in reasonable time and size", span, hint)

    def decision_names(self, actions, steps) -> None:
        """E519 for a step named as an action: the engine knows both by their names (its phase, its
        rule functions), so the step would take the action's place."""
        action_names = {a.name for a in actions}
        for step in steps:
            if step.name in action_names:
                self.r.error("E519", f"step '{step.name}' has the name of an action: an action and a step of one "
                             "spec are named apart", step.span)

    def written_alike(self, gems, wild, levels, players, actions, steps) -> None:
        """E522 for two actions written the same way: an engine could not read the text back."""
        for text, first, other in notation_mod.collisions(actions + steps, gems, wild, levels, players):
            span = self.notation_spans.get((not any(other is a for a in actions), other.name), other.span)
            if first is None:
                self.r.error("E522", f"two actions are written the same way, '{text}' ({other.name} and "
                             f"{notation_mod.PAY_STEP_NAME}); make their notations differ", span,
                             f"the payment step writes 'pay {wild} for' and the colours, and 'pay without {wild}'")
            elif first is other:
                self.r.error("E522", f"two actions of '{other.name}' are written the same way, '{text}'; make its "
                             "notation tell its choices apart", span)
            else:
                self.r.error("E522", f"two actions are written the same way, '{text}' ({first.name} and "
                             f"{other.name}); make their notations differ", span)

    # ------------------------------------------------------------------ end and winners

    def setup_blocks(self, scope_names, facts) -> tuple[SetupBlock, ...]:
        """The `setup` section: blocks of effects run once after the deal. Setup asks nobody, so
        no block has choices; every effect acts for a player, so a block names `me` (and may
        carry effects) only when it runs for each player (E552)."""
        table = self.node(self.root, "setup", MapNode, required=False)
        out = []
        for key, entry in table.entries if table else ():
            if not isinstance(entry, MapNode):
                self.r.error("E103", f"setup block '{key.value}' must be a mapping", entry.span)
                continue
            where = f" in setup block '{key.value}'"
            self.spans[f"setup.{key.value}"] = key.span
            each_player, _ = self.scalar(entry, "each_player", bool, required=False, default=False, where=where)
            scope = Scope({**scope_names, "me": PLAYER}) if each_player else Scope(dict(scope_names))
            effects = []
            before = len(self.r.diagnostics)
            effects_node = self.node(entry, "effects", SeqNode, where=where)
            for item in effects_node.items if effects_node else ():
                stmt = self.statement(item, "effect")
                if stmt is None:
                    continue
                acting = next((x for x in walk(stmt) if isinstance(x, Effect) and x.name not in FOR_NOBODY), None)
                if acting is not None and not each_player:
                    self.r.error("E552", f"effect '{acting.name}'{where} acts for a player, and this block runs once "
                                 "for nobody in particular", acting.span,
                                 "give the block 'each_player: true' to run it once for each player in seat order")
                    continue
                self.types.statement(stmt, scope)
                effects.append(stmt)
            if len(self.r.diagnostics) == before:
                self.r.extend(card_flow(effects, ()))
                for stmt in effects:
                    self.r.extend(bounds_mod.hazards(stmt, bounds_mod.Bounds(facts)))
            if effects_node is not None:
                self.spans[f"setup.{key.value}.effects"] = effects_node.span
            out.append(SetupBlock(str(key.value), self.text(entry, "title"), tuple(effects), key.span,
                                  bool(each_player), self.note(entry)))
        return tuple(out)

    def setup_overdraws(self, setup, players, cards, gems, wild) -> None:
        """Setup that takes more tokens than the supply holds, or reserves more cards than a
        deck holds after the deal, at some player count (E552): said by `check`, not found by
        the first `new_game`. Counts the effects with constant arguments outside any `if` or
        `for`; the others are guarded when they run (a RuleError at the effect)."""
        colours = gems + (wild,)
        for pc in players:
            supply = {c: pc.gems for c in gems} | {wild: pc.gold}
            decks: dict[int, int] = {}
            for card in cards:
                decks[card.level] = decks.get(card.level, 0) + 1
            decks = {level: n - pc.face_up for level, n in decks.items()}
            for block in setup:
                for _ in range(pc.players if block.each_player else 1):
                    for stmt in block.effects:
                        problem = _setup_draw(stmt, colours, supply, decks)
                        if problem:
                            self.r.error("E552", f"setup {problem} with {pc.players} players", stmt.span,
                                         "the setup blocks run in order, each_player blocks once for each player")
                            return
        self.r.extend(deal_mod.setup_overdraws(self.zones, self.kinds, setup, players))

    def end_triggers(self, scope_names, facts) -> tuple[EndTrigger, ...]:
        table = self.node(self.root, "end", MapNode)
        out = []
        scope = Scope({**scope_names, "me": PLAYER})
        for key, entry in table.entries if table else ():
            if not isinstance(entry, MapNode):
                self.r.error("E103", f"end trigger '{key.value}' must be a mapping", entry.span)
                continue
            if key.value in ENGINE_END_REASONS:
                self.r.error("E406", f"'{key.value}' is an end reason of the engines (a game that "
                             f"{ENGINE_END_REASONS[key.value]}) and cannot name an end trigger", key.span)
            where = f" in end trigger '{key.value}'"
            when = self.expression(self.node(entry, "when", where=where), "end condition")
            finish = self.choice(entry, "finish", FINISHES, "complete_round", where)
            if entry.get("finish") is None:
                self.r.error("E102", f"missing key 'finish'{where}", entry.span)
            self.spans[f"end.{key.value}"] = key.span
            if when is None:
                continue
            before = len(self.r.diagnostics)
            self.types.expect(when, scope, BOOL, "an end condition")
            if len(self.r.diagnostics) == before:
                self.r.extend(bounds_mod.hazards(when, bounds_mod.Bounds(facts)))
            if len(self.r.diagnostics) == before and self.base_tables_read and \
                    bounds_mod.Bounds(facts).truth(when) == bounds_mod.NEVER:
                never = bounds_mod.never_reasons(when, bounds_mod.Bounds(facts))
                self.r.error("E509", f"end trigger '{key.value}' can never fire: its condition never holds in any game"
                             " under this spec", never[0].span,
                             f"all cards and nobles together are worth {facts.total_points} prestige")
            out.append(EndTrigger(str(key.value), self.text(entry, "title", required=False, default=str(key.value)),
                                  when, finish, key.span, self.note(entry)))
        if table is not None and not out and not self.r.has_errors and not self.resolved.incomplete:
            self.r.error("E509", "a spec needs at least one end trigger", table.span)
        return tuple(out)

    def winners(self, scope_names, facts) -> Winners:
        node = self.node(self.root, "winners", MapNode)
        scope = Scope({**scope_names, "player": PLAYER})
        if node is None:
            return Winners(Bool(True, self.root.span), (), "shared", self.root.span)
        eligible_node = node.get("eligible")
        eligible = self.expression(eligible_node, "eligibility") if eligible_node is not None else Bool(True, node.span)
        if eligible is not None:
            self.typed_hazards(eligible, scope, BOOL, "eligibility", facts)
        levels = []
        ranking = self.node(node, "ranking", MapNode, required=False)
        for key, entry in ranking.entries if ranking else ():
            if not isinstance(entry, MapNode):
                self.r.error("E103", f"ranking level '{key.value}' must be a mapping", entry.span)
                continue
            where = f" in ranking level '{key.value}'"
            by = self.expression(self.node(entry, "by", where=where), "ranking key")
            prefer = self.choice(entry, "prefer", PREFERS, "highest", where)
            if entry.get("prefer") is None:
                self.r.error("E102", f"missing key 'prefer'{where}", entry.span)
            if by is not None:
                self.typed_hazards(by, scope, INT, "a ranking key", facts)
                title = self.text(entry, "title", required=False, default=str(key.value))
                levels.append(RankLevel(str(key.value), title,
                                        by, prefer, key.span, self.note(entry)))
            self.spans[f"winners.ranking.{key.value}"] = key.span
        ties = self.choice(node, "ties", ("shared",), "shared", " in winners")
        self.spans["winners"] = node.span
        return Winners(eligible or Bool(True, node.span), tuple(levels), ties, node.span)

    def typed_hazards(self, node, scope: Scope, expected, what: str, facts) -> None:
        """Type `node`; once it makes sense, report what in it would stop the engine (E513, E514)."""
        before = len(self.r.diagnostics)
        self.types.expect(node, scope, expected, what)
        if len(self.r.diagnostics) == before:
            self.r.extend(bounds_mod.hazards(node, bounds_mod.Bounds(facts)))

    def interpretations(self) -> tuple[Text, ...]:
        node = self.node(self.root, "interpretations", SeqNode, required=False)
        out = []
        for item in node.items if node else ():
            if isinstance(item, ScalarNode):
                out.append(Text(str(item.value)))
            elif isinstance(item, MapNode):
                wrapper = MapNode(((ScalarNode("text", item.span), item),), item.span)
                out.append(self.text(wrapper, "text"))
            else:
                continue
            self.spans[f"interpretations.{len(out) - 1}"] = item.span
        return tuple(out)


PAY_STEP = "the payment step"
# The effects that act for no player unless told which (a zone's, a variable's: `me.hand` is no name in
# a block run once), so a setup block run once may hold them (E552 is for the others).
FOR_NOBODY = frozenset(zones_mod.ZONE_EFFECTS) | frozenset(STATE_EFFECTS)


def _setup_draw(stmt, colours, supply: dict, decks: dict) -> str:
    """Apply one setup effect with constant arguments to the counts of the supply and the
    decks; what it cannot take, in words ('' when it can, or when its arguments are not constants)."""
    if not isinstance(stmt, Effect):
        return ""
    args = stmt.args
    if stmt.name in ("take", "put_back") and len(args) == 2 and isinstance(args[0], Name) \
            and args[0].id in colours and isinstance(args[1], Int):
        if stmt.name == "take":
            supply[args[0].id] -= args[1].value
            if supply[args[0].id] < 0:
                return f"takes more {args[0].id} tokens than the supply holds"
        return ""
    if stmt.name == "reserve_top" and len(args) == 1 and isinstance(args[0], Int) and args[0].value in decks:
        decks[args[0].value] -= 1
        if decks[args[0].value] < 0:
            return f"reserves more cards of level {args[0].value} than its deck holds after the deal"
    return ""


def payment_count(gems: int, gold: int, worth: int = 1) -> int:
    """How many ways to spend up to `gold` wild tokens over `gems` colours (the engine's PAYMENTS),
    each token standing for 1 to `worth` gems: g tokens on a colour cover g to worth*g of its gems."""
    if worth == 1:
        return math.comb(gold + gems, gems)
    ways = [1] + [0] * gold  # ways[t]: the payments over the colours so far that place t tokens
    for _ in range(gems):
        ways = [sum(ways[t - g] * ((worth - 1) * g + 1) for g in range(t + 1)) for t in range(gold + 1)]
    return sum(ways)


def table_worth(decisions) -> int:
    """The largest worth of any payment of these decisions (1 without `worth`): it sizes PAYMENTS."""
    return max((p.worth_max for d in decisions for p in d.params if p.worth is not None), default=1)


def max_gold(gems: int, worth: int = 1) -> int:
    """The most wild tokens whose payments alone stay within MAX_ACTIONS."""
    gold = 0
    while payment_count(gems, gold + 1, worth) <= MAX_ACTIONS:
        gold += 1
    return gold


def choice_size(param: Param, gems: int, levels: int, players) -> int:
    """How many values a choice takes in the engine's action table (`none` included)."""
    size = {
        "gem": gems, "colour": gems + 1, "deck": levels, "reserved": param.slots, "component": param.slots,
        "gem_set": sum(math.comb(gems, k) for k in range(param.min, min(param.max, gems) + 1)),
        "face_up": levels * max((p.face_up for p in players), default=0),
        "noble": max((p.nobles for p in players), default=0),
        "payment": payment_count(gems, max((p.gold for p in players), default=0), param.worth_max),
    }[param.domain]
    return size + (1 if param.optional else 0)


def action_sizes(gems, levels, players, decisions) -> dict[str, int]:
    """The engine's action ids by decision (and the payment step): as the lowering lays them out,
    computed without listing them. A payment chosen last is asked in the payment step."""
    sizes: dict[str, int] = {}
    deferred = False
    for d in decisions:
        params = list(d.params)
        if params and params[-1].domain == "payment":
            params, deferred = params[:-1], True
        sizes[d.name] = math.prod(choice_size(p, len(gems), len(levels), players) for p in params)
    if deferred:
        sizes[PAY_STEP] = payment_count(len(gems), max((p.gold for p in players), default=0), table_worth(decisions))
    return sizes


def _tuple(types) -> tuple:
    return types if isinstance(types, tuple) else (types,)


def build(resolved: Resolved, sources: SourceMap | None = None) -> Rules:
    """Check a resolved spec and build its rule model; raise CompileError with every problem."""
    return Checker(resolved, sources).build()
