"""Pass 4, check: the game's tables - the colours, the component kinds, the player-count table
and its declared fields, the named values - and the facts they give the analyses.

Each function reads one section through the pass's :class:`~compiler.check.reader.Checker`
`c`, notes where each entry is said (`c.spans`, `c.value_spans`) and reports what is wrong
with it: a gap in the player-count table (E502), too few nobles or cards for the face-up rows
(E503, E504), a field a row lacks (E543). :func:`facts` sums them up for
:mod:`compiler.check.bounds` (the most tokens, cards, points a game can hold).
"""

from __future__ import annotations

import re

from ..diagnostics import Span, did_you_mean
from ..front.source import MapNode, ScalarNode, SeqNode
from ..model import BUILTIN_SETUP_FIELDS, LENGTH_CAP, Kind, PlayerCount, PlayerField, Text, Value, setup_fields
from . import bounds as bounds_mod
from . import kinds as kinds_mod
from .reader import RESERVED_NAMES, Checker
from .sources import split

MAX_FIELD_VALUE = 1000  # a declared field of the player-count table is 0..1000, as the built-in counts


def components(c: Checker) -> tuple[tuple[str, ...], str]:
    """The gem colours and the wild colour (the official five and gold when not said)."""
    comp = c.node(c.root, "components", MapNode)
    gems: list[str] = []
    wild = "gold"
    if comp is None:
        return ("white", "blue", "green", "red", "black"), wild
    gem_list = c.node(comp, "gems", SeqNode)
    for item in gem_list.items if gem_list else ():
        if (
            not isinstance(item, ScalarNode)
            or not isinstance(item.value, str)
            or not re.fullmatch(r"[a-z][a-z0-9_]*", item.value)
        ):
            c.r.error("E105", "a gem colour is a lower-case name", item.span)
        elif item.value in gems:
            c.r.error("E501", f"gem colour '{item.value}' is listed twice", item.span)
        elif item.value in RESERVED_NAMES:
            c.r.error("E406", f"'{item.value}' is a built-in name and cannot be a colour", item.span)
        else:
            gems.append(item.value)
    if gem_list is not None and len(gems) < 1:
        c.r.error("E501", "at least one gem colour is needed", gem_list.span)
    wild_value, wild_node = c.scalar(comp, "wild", str, default="gold")
    if wild_node is not None and wild_value in gems:
        c.r.error("E501", f"the wild colour '{wild_value}' is also a gem colour", wild_node.span)
    if wild_node is not None and wild_value in RESERVED_NAMES:
        c.r.error("E406", f"'{wild_value}' is a built-in name and cannot be a colour", wild_node.span)
    return tuple(gems), str(wild_value)


def symbols(c: Checker, gems: tuple[str, ...], wild: str) -> tuple[tuple[str, Text], ...]:
    """`components.symbols`: the symbol a spec writes on a colour's gems, by colour, in spec order.
    E501 for a name that is no colour of the spec, a symbol that is empty or longer than 3
    characters, or two colours with the same symbol in one language (a colour the spec gives none
    gets its name's initial, which web/gems.py keeps apart from the declared ones)."""
    comp = c.node(c.root, "components", MapNode)
    table = c.node(comp, "symbols", MapNode, required=False) if comp is not None else None
    declared: dict[str, Text] = {}
    for key, _ in table.entries if table else ():
        colour = str(key.value)
        if colour not in (*gems, wild):
            c.r.error(
                "E501",
                f"'symbols' names '{colour}', which is not a colour of the spec{did_you_mean(colour, (*gems, wild))}",
                key.span,
            )
            continue
        text = c.text(table, colour)
        for lang, said in (("en", text.en), *text.translations):
            if not 1 <= len(said.strip()) <= 3 or said != said.strip():
                c.r.error(
                    "E501",
                    f"the symbol of '{colour}' in {lang} is {said!r}: a symbol is 1 to 3 characters, "
                    "without spaces around",
                    key.span,
                )
        declared[colour] = text
    if table is None:
        return ()
    langs = sorted({lang for t in declared.values() for lang, _ in t.translations} | {"en"})
    for lang in langs:
        seen: dict[str, str] = {}
        for colour, text in declared.items():
            said = text.get(lang) or text.en
            if said in seen:
                c.r.error(
                    "E501", f"colours '{seen[said]}' and '{colour}' have the same symbol {said!r} in {lang}", table.span
                )
            seen.setdefault(said, colour)
    return tuple((colour, declared[colour]) for colour in (*gems, wild) if colour in declared)


def tables(c: Checker, gems: tuple[str, ...], wild: str) -> tuple[Kind, ...]:
    """Every kind of component with its table read (compiler/check/kinds.py); the unread ones noted."""
    loader = kinds_mod.Loader(c, gems, wild)
    kinds = loader.load()
    c.unread |= loader.unread
    return kinds


def declared_fields(c: Checker) -> tuple[PlayerField, ...]:
    """The `player_fields` section: the player-count table's own fields (E540 for a name a row
    already has: a built-in field, or `note`). A field is read as `setup.NAME`, so it may share
    its name with a zone, a value or a variable (a zone `cities` sized `setup.cities`)."""
    table = c.node(c.root, "player_fields", MapNode, required=False)
    out = []
    for key, entry in table.entries if table else ():
        name = key.value
        if name in BUILTIN_SETUP_FIELDS or name == "note":
            meaning = "the remark of a row" if name == "note" else f"a field every row has (setup.{name})"
            c.r.error(
                "E540",
                f"'{name}' is already the name of {meaning}: choose another name for this player-count field",
                key.span,
            )
            c.refused_fields.add(str(name))
            continue
        if not isinstance(entry, MapNode):
            continue  # the schema said so
        c.spans[f"player_fields.{name}"] = key.span
        out.append(PlayerField(str(name), c.text(entry, "title"), key.span, c.note(entry)))
    return tuple(out)


def row_fields(c: Checker, players: int, entry: MapNode) -> tuple[tuple[str, int], ...]:
    """A row's values of the declared fields, in declaration order; E543 for a field the spec
    does not declare, a declared one the row lacks, or a value that is no whole number 0..1000."""
    declared = {f.name: f for f in c.player_fields}
    got: dict[str, int] = {}
    suggested: set[str] = set()  # declared names offered for a misspelt field: not reported missing too
    for key, node in entry.entries:
        name = key.value
        if name in BUILTIN_SETUP_FIELDS or name == "note":
            continue
        if name not in declared:
            hint = did_you_mean(str(name), declared)
            suggested |= {n for n in declared if hint and f"'{n}'" in hint}
            if name not in c.refused_fields:  # an E540 already: not undeclared
                c.r.error(
                    "E543",
                    f"the row for {players} players has a field '{name}' that 'player_fields' does not declare{hint}",
                    key.span,
                    "a row holds gems, gold, nobles, face_up and the fields declared in 'player_fields'",
                )
            continue
        value = node.value if isinstance(node, ScalarNode) else None
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_FIELD_VALUE:
            shown = repr(value) if isinstance(node, ScalarNode) else "a " + type(node).__name__[:-4].lower()
            c.r.error(
                "E543",
                f"'{name}' in the row for {players} players is a whole number from 0 to {MAX_FIELD_VALUE}, not {shown}",
                node.span,
            )
            continue
        got[str(name)] = value
        c.value_spans[(players, str(name))] = node.span
    for name, field in declared.items():
        if name not in got and entry.get(name) is None and name not in suggested:
            c.r.error(
                "E543",
                f"the row for {players} players gives no '{name}'",
                entry.span,
                f"'{name}' is declared in 'player_fields' (line {field.span.line}): every row gives it a whole number",
            )
    return tuple((name, got[name]) for name in declared if name in got)


def players(c: Checker) -> tuple[PlayerCount, ...]:
    """The player-count table, one row per count in order (E502 for a gap or an empty table)."""
    table = c.node(c.root, "players", MapNode)
    if table is None:
        return ()
    out = []
    for key, entry in table.entries:
        if not isinstance(key.value, int) or isinstance(key.value, bool) or key.value < 1:
            c.r.error("E501", f"a player count is a whole number of at least 1, not {key.value!r}", key.span)
            continue
        if not isinstance(entry, MapNode):
            c.r.error("E103", f"the row for {key.value} players must be a mapping", entry.span)
            continue
        out.append(_row(c, key.value, key, entry))
    out.sort(key=lambda p: p.players)
    _gaps(c, out)
    if not out:
        c.r.error("E502", "the player-count table is empty", table.span)
    return tuple(out)


def _row(c: Checker, count: int, key: ScalarNode, entry: MapNode) -> PlayerCount:
    """The row for `count` players: its built-in counts (0 when unreadable) and its fields."""
    where = f" in the row for {count} players"
    nums = {}
    for field in ("gems", "gold", "nobles", "face_up"):
        v, n = c.scalar(entry, field, int, default=0, where=where)
        if n is not None and isinstance(v, int) and v < 0:
            c.r.error("E501", f"'{field}' cannot be negative", n.span)
        nums[field] = v if isinstance(v, int) else 0
        if n is not None:
            c.value_spans[(count, field)] = n.span
    c.spans[f"players.{count}"] = key.span
    end = entry.span
    c.value_spans[(count, "row")] = Span(key.span.file, key.span.line, key.span.col, end.end_line, end.end_col)
    return PlayerCount(
        count,
        nums["gems"],
        nums["gold"],
        nums["nobles"],
        nums["face_up"],
        key.span,
        c.note(entry),
        row_fields(c, count, entry),
    )


def _gaps(c: Checker, rows: list[PlayerCount]) -> None:
    """E502 for each run of player counts missing between two rows (sorted by count)."""
    for a, b in zip(rows, rows[1:], strict=False):
        if b.players != a.players + 1:
            missing = [str(n) for n in range(a.players + 1, b.players)]
            rows_text = (
                f"a row for {missing[0]} players"
                if len(missing) == 1
                else f"rows for {', '.join(missing[:-1])} and {missing[-1]} players"
            )
            where = f"line {a.span.line}" if a.span.file == b.span.file else f"{a.span.file}:{a.span.line}"
            c.r.error(
                "E502",
                f"the player-count table has a gap: {a.players} and {b.players} players are listed"
                f" but not {', '.join(missing)}",
                c.value_spans.get((b.players, "row"), b.span),
                f"add {rows_text} (the row for {a.players} players is at {where}), or remove the "
                f"row for {b.players} players",
            )


def values(c: Checker) -> tuple[Value, ...]:
    """The `values` section: named whole numbers (the length cap at least 1, E108)."""
    table = c.node(c.root, "values", MapNode, required=False)
    out = []
    for key, entry in table.entries if table else ():
        name = key.value
        if not isinstance(name, str) or not re.fullmatch(r"[a-z_][a-z0-9_]*", name):
            c.r.error("E105", f"a value's name is a lower-case name, not {name!r}", key.span)
            continue
        if name in RESERVED_NAMES:
            c.r.error("E406", f"'{name}' is a built-in name and cannot name a value", key.span)
            continue
        note = None
        node = entry
        if isinstance(entry, MapNode):
            value = entry.get("value")
            note = c.note(entry)
            if value is None:
                c.r.error("E102", f"missing key 'value' in value '{name}'", entry.span)
                continue
            node = value
        if not isinstance(node, ScalarNode) or not isinstance(node.value, int) or isinstance(node.value, bool):
            c.r.error("E103", f"value '{name}' must be a whole number", node.span)
            continue
        if name == LENGTH_CAP and node.value < 1:
            c.r.error(
                "E108",
                f"value '{LENGTH_CAP}' is the engines' length cap in turns: at least 1, not {node.value}",
                node.span,
            )
            continue
        c.spans[f"values.{name}"] = key.span
        out.append(Value(name, node.value, key.span, note))
    return tuple(out)


def check_tables(c: Checker, players, cards, nobles, levels) -> None:
    """E503/E504: a row reveals more nobles, or shows more face-up cards of a level, than there are."""
    if not players:
        return
    biggest = max(players, key=lambda p: p.nobles)
    if biggest.nobles > len(nobles) and "nobles" not in c.unread:
        c.r.error(
            "E503",
            f"{biggest.players} players reveal {biggest.nobles} nobles, but there are only {len(nobles)} noble tiles",
            c.value_spans.get((biggest.players, "nobles"), biggest.span),
        )
    for p in players:
        for level in levels:
            n = sum(1 for card in cards if card.level == level and not card.series)  # the base deal's
            if p.face_up > n:
                c.r.error(
                    "E504",
                    f"{p.players} players show {p.face_up} face-up cards of level {level}, but "
                    f"level {level} has only {n} cards",
                    c.value_spans.get((p.players, "face_up"), p.span),
                )
                break


def facts(c: Checker, gems, wild, cards, nobles, levels, players, values) -> bounds_mod.Facts:
    """What the tables bound (compiler/check/bounds.py): the most tokens, cards, points a game holds."""
    per_level = {lv: sum(1 for card in cards if card.level == lv) for lv in levels}
    per_bonus = max((sum(card.gives for card in cards if card.bonus == i) for i in range(len(gems))), default=0)
    fields = setup_fields(c.player_fields, players)
    setup = {
        f: (min((p.field(f) for p in players), default=0), max((p.field(f) for p in players), default=0))
        for f in fields
    }
    return bounds_mod.Facts(
        values={v.name: v.value for v in values},
        gems=gems,
        wild=wild,
        max_gem_tokens=setup["gems"][1],
        max_gold=setup["gold"][1],
        max_players=max((p.players for p in players), default=1),
        min_players=min((p.players for p in players), default=1),
        cards_per_level=per_level,
        cards_per_bonus=per_bonus,
        total_points=sum(card.points for card in cards) + sum(n.points for n in nobles),
        max_cost=max((max(card.cost, default=0) for card in cards), default=0),
        max_card_points=max((card.points for card in cards), default=0),
        levels=levels,
        nobles=len(nobles),
        max_noble_requirement=max((max(n.requires, default=0) for n in nobles), default=0),
        max_noble_points=max((n.points for n in nobles), default=0),
        max_face_up=setup["face_up"][1],
        max_nobles_shown=setup["nobles"][1],
        setup=setup,
        set_sizes={},
        split_zones=split(c.zones, c.kinds),  # the zones are read before the facts (build.py)
    )
