"""Zones: the `zones` section (where the components of the spec's own kinds lie) -> model.Zone,
the names zones give expressions, the zone effects' types, and the checks that need the zones.

One pass, called by :mod:`compiler.check` once the kinds, the player-count table and the values
are known. Each zone is read and checked against its shape (E541: a key that does not fit it, a
kind that is not one, a source that is not a pile of the same kind), its size is computed for
every player count (E542: outside 0..100, or more than its source can ever hold). The names a
zone adds (a shared zone as a name, a per-player zone as a player attribute: `me.claimed`) must
not hide anything already named (E540). The base game's cards and nobles keep their built-in
layout (decks, market, hands, noble row): a zone of theirs is refused, located.

Then, for expressions and effects (compiler/check/types.py calls back here): the zone effects
declared in compiler/language/effects.py, each typed by its arguments' roles; a choice of a
component (`domain: component, from: ZONE`, E553 when its positions are not bounded); and a
chosen component moved twice in one list of effects (E547).
"""

from __future__ import annotations

import re

from ..diagnostics import Diagnostic, Span, did_you_mean
from ..front.expr import Effect, ForEach, Name, Sequence, When
from ..front.source import MapNode, ScalarNode
from ..language import EFFECTS, Role, Shape
from ..language.effects import ZONE_EFFECTS as _ZONE_EFFECTS
from ..language.places import PLACES, PlaceDecl
from ..language.shapes import SHAPE_KEYS, shapes_taking
from ..model import SHAPES, STARTS, Kind, Param, PlayerCount, Zone, setup_fields
from .inference import Inferrer
from .kinds import BASE_KINDS
from .places import check_discard, place_zone, read_place, refill_source
from .series import read_zone_series, series_view, undealt
from .splits import check_split_source, fewest, read_by
from .types import ERROR, INT, Comp, MapOf, Scope, ZoneT, noun

MAX_ZONE_SIZE = 100
# Which keys fit which shapes (E541 otherwise), from the shapes' declarations (compiler/language/shapes.py).
_SHAPE_KEYS = {key: shapes_taking(key) for key in SHAPE_KEYS}
# The zone effects (compiler/language/effects.py): name -> what each argument is (a component, a zone, a
# pile, a display or row), and those that move the component given first.
ZONE_EFFECTS = {name: tuple(p for p in d.params if isinstance(p, Role)) for name, d in _ZONE_EFFECTS.items()}
MOVES = tuple(dict.fromkeys(d.name for d in EFFECTS.values() if d.moves))  # a card of a place: acquire too


def _an(text: str) -> str:
    return f"{'an' if text[:1] in 'aeiou' else 'a'} {text}"


class ZoneReader:
    """Reads the `zones` section of one resolved spec; `checker` is the check pass (compiler/check/reader.py)."""

    def __init__(
        self,
        checker,
        kinds: tuple[Kind, ...],
        players: tuple[PlayerCount, ...],
        values: dict[str, int],
        taken: dict[str, str],
        player_attributes: dict,
    ):
        self.c = checker
        self.r = checker.r
        self.kinds = {k.name: k for k in kinds}
        self.players = players
        self.values = values
        self.taken = taken  # name -> what it already names, for E540
        self.player_attributes = player_attributes
        self.refused: set[str] = set()  # zones refused (and reported): no follow-up errors about them

    def read(self) -> tuple[Zone, ...]:
        table = self.c.node(self.c.root, "zones", MapNode, required=False)
        out: list[Zone] = []
        for key, entry in table.entries if table else ():
            name = key.value
            if not isinstance(name, str) or not re.fullmatch(r"[a-z_][a-z0-9_]*", name):
                self.r.error("E105", f"a zone's name is a lower-case name, not {name!r}", key.span)
                continue
            if not isinstance(entry, MapNode):
                self.r.error("E103", f"zone '{name}' must be a mapping", entry.span)
                continue
            zone = self.zone(name, key, entry, {z.name: z for z in out})
            if zone is not None:
                out.append(zone)
            else:
                self.refused.add(name)
        self.c.refused_zones = self.refused
        if not self.refused:  # a refused zone may have been the series' deal: nothing more said
            undealt(self.r, self.kinds.get("cards"), out, _deals_whole)
        return tuple(out)

    def clash(self, name: str, span: Span, per_player: bool) -> bool:
        """E540 when the zone's name is already a name of the language or of the spec."""
        what = self.taken.get(name)
        if per_player and what is None and name in self.player_attributes:
            what = "a player attribute (me." + name + ")"
        if what is None:
            return False
        self.r.error("E540", f"'{name}' is already the name of {what}", span, "give the zone another name")
        return True

    def zone(self, name: str, key: ScalarNode, entry: MapNode, earlier: dict[str, Zone]) -> Zone | None:
        where = f" in zone '{name}'"
        start_errors = len(self.r.diagnostics)
        title = self.c.text(entry, "title")
        holds, holds_node = self.c.scalar(entry, "holds", str, where=where)
        shape, shape_node = self.c.scalar(entry, "shape", str, where=where)
        if holds_node is None or shape_node is None:
            return None
        if shape not in SHAPES:
            self.r.error(
                "E541",
                f"unknown shape '{shape}'{did_you_mean(str(shape), SHAPES)} (shapes: {', '.join(SHAPES)})",
                shape_node.span,
            )
            return None
        shape = Shape(shape)
        place = read_place(self, name, entry, str(holds), shape, earlier)
        series = read_zone_series(self, name, entry, self.kinds.get(str(holds)), place)
        if series is False:
            return None
        kind = (
            self.held(name, str(holds), holds_node, place is not None or series is not None or shape is Shape.HOLDING)
            if place is not False
            else None
        )
        if kind is None:
            return None
        dealt = series_view(kind, series)  # what the zone's deal takes of the kind: a series, or all of it
        for field, shapes in _SHAPE_KEYS.items():
            if entry.get(field) is not None and shape not in shapes:
                self.r.error(
                    "E541",
                    f"'{field}'{where} applies to {' and '.join(s + 's' for s in shapes)}, not to {_an(shape)}",
                    entry.key_span(field),
                )
        if isinstance(place, PlaceDecl):
            return place_zone(self, name, title, key, entry, place) if len(self.r.diagnostics) == start_errors else None
        per_player, private = self.ownership(entry, shape, where)
        by = read_by(self, name, entry, kind) if shape in _SHAPE_KEYS["by"] else ""
        refused_by = entry.get("by") is not None and not by  # reported: its source is not checked against it
        start, source = self.start_and_source(
            name, entry, shape, dealt, earlier, None if refused_by else by, series.name if series else ""
        )
        sizes = self.sizes(name, entry, shape, dealt, str(source), earlier, by) if shape.laid_out else ()
        limit, limit_name = self.limit(entry, where) if shape is Shape.HOLDING else (0, "")
        if len(self.r.diagnostics) != start_errors:
            return None
        if self.clash(name, key.span, bool(per_player)):
            return None
        self.c.spans[f"zones.{name}"] = key.span
        return Zone(
            name,
            title,
            str(holds),
            shape,
            key.span,
            per_player=bool(per_player),
            sizes=sizes,
            source=str(source),
            start=str(start),
            limit=limit,
            limit_name=limit_name,
            size_field=_size_field(entry),
            private_when_drawn=bool(private),
            note=self.c.note(entry),
            by=by,
            series=series.name if series is not None else "",
        )

    def ownership(self, entry: MapNode, shape: Shape, where: str) -> tuple[bool, bool]:
        """Whether each player has the zone, and whether what is drawn into it is its owner's alone."""
        per_player, _ = self.c.scalar(entry, "per_player", bool, required=False, default=False, where=where)
        private, private_node = self.c.scalar(
            entry, "private_when_drawn", bool, required=False, default=False, where=where
        )
        if private and not per_player and shape is Shape.HOLDING:
            # A shared holding has no owner to see what is drawn into it: said, never silently ignored.
            self.r.error(
                "E541",
                f"'private_when_drawn'{where}: a shared holding has no owner to keep its drawn "
                "components from the others",
                entry.key_span("private_when_drawn"),
                "give the zone 'per_player: true' (each player's own), or drop 'private_when_drawn'",
            )
        return bool(per_player), bool(private)

    def held(self, name: str, holds: str, node: ScalarNode, placed: bool = False) -> Kind | None:
        """The kind a zone holds: one the spec declares, or, for a zone naming a place of the base
        game or a holding of the spec's own (`placed`: the base game deals the base components
        elsewhere, and only the rules' moves bring them there), the base cards or nobles."""
        if holds in BASE_KINDS and not placed:
            places = [p.name for p in PLACES.values() if p.kind == holds]
            series = [s.name for s in self.kinds[holds].series] if holds in self.kinds else []
            self.r.error(
                "E541",
                f"zone '{name}' holds the {holds} but names no place of the base game"
                + (" and no series" if series else "")
                + f": the base game's {holds} lie where its deal puts them, or in a holding the rules move them into",
                node.span,
                f"name the place the zone is: 'place: {places[0]}' (the places of the {holds}: {', '.join(places)})"
                + (f", or the series it deals: 'series: {series[0]}'" if series else "")
                + ", or make it a holding",
            )
            return None
        kind = self.kinds.get(holds)
        if kind is None:
            self.r.error(
                "E541",
                f"zone '{name}' holds '{holds}', which is not a kind"
                f"{did_you_mean(holds, [k for k in self.kinds if k not in BASE_KINDS])}",
                node.span,
                "declare the kind in 'kinds' (its table and columns)",
            )
            return None
        return kind

    def start_and_source(
        self,
        name: str,
        entry: MapNode,
        shape: Shape,
        kind: Kind,
        earlier: dict[str, Zone],
        by: str | None = "",
        series: str = "",
    ) -> tuple[str, str]:
        """How a zone starts (empty, all, dealt) and the pile it is dealt from, checked together."""
        where = f" in zone '{name}'"
        start, start_node = self.c.scalar(entry, "start", str, required=False, default="empty", where=where)
        if start not in STARTS:
            self.r.error("E541", f"unknown start '{start}' (starts: {', '.join(STARTS)})", start_node.span)
            start = "empty"
        source, source_node = self.c.scalar(entry, "source", str, required=False, default="", where=where)
        if source_node is not None and shape.laid_out:
            self.check_source(name, str(source), source_node, kind, earlier, by)
        if start == "dealt" and not shape.laid_out:
            self.r.error(
                "E541",
                f"'start: dealt'{where}: only a display or a row is dealt (a pile starts with 'all', a holding empty)",
                start_node.span,
            )
        if start == "all" and shape.laid_out:
            self.r.error(
                "E541", f"'start: all'{where}: a {shape} has a size; deal it with 'start: dealt'", start_node.span
            )
        elif _deals_whole(shape, str(start), source_node is not None):
            self.dealt_twice(name, kind, start_node, earlier, series)
        return str(start), str(source)

    def dealt_twice(self, name: str, kind: Kind, node: ScalarNode, earlier: dict[str, Zone], series: str = "") -> None:
        """E560: a second zone dealt from the kind itself (a `start: all` pile, a `start: dealt`
        display or row without a source) would deal every component of the kind again."""
        first = next(
            (
                z
                for z in earlier.values()
                if z.holds == kind.name and z.series == series and _deals_whole(z.shape, z.start, bool(z.source))
            ),
            None,
        )
        if first is None:
            return
        took = "takes every one of them" if first.start == "all" else "is dealt from the kind itself"
        hint = (
            f"deal it from that pile ('source: {first.name}'), or let it start empty (no 'start')"
            if first.shape.face_down and node.value == "dealt"
            else f"let it start empty (no 'start') and fill it from zone '{first.name}'"
            " by an effect (draw, reveal, move)"
        )
        at = f"line {first.span.line}" if first.span.file == node.span.file else f"{first.span.file}:{first.span.line}"
        self.r.error(
            "E560",
            f"zone '{name}' deals the {kind.name} again: zone '{first.name}' ({at})"
            f" already {took}, and a component lies in one place at a time",
            node.span,
            hint,
        )

    def check_source(
        self, name: str, source: str, node: ScalarNode, kind: Kind, earlier: dict[str, Zone], by: str | None = ""
    ) -> None:
        pile = earlier.get(source)
        if source in self.refused:
            return
        if pile is None:
            self.r.error(
                "E541",
                f"zone '{name}' is dealt from '{source}', which is not a zone declared before it"
                f"{did_you_mean(source, earlier)}",
                node.span,
            )
        elif not pile.shape.face_down or pile.holds != kind.name:
            self.r.error(
                "E541",
                f"zone '{name}' is dealt from '{source}', which is {_an(pile.shape)} of "
                f"{pile.holds}: a source is a pile or a bag of the same kind ({kind.name})",
                node.span,
            )
        elif by is not None:  # None: its `by` was refused (reported)
            check_split_source(self, name, by, pile, node)

    def sizes(
        self, name: str, entry: MapNode, shape: Shape, kind: Kind, source: str, earlier: dict[str, Zone], by: str = ""
    ) -> tuple[tuple[int, int], ...]:
        """(players, size) for each player count: a number, a value, or a field of the player-count table."""
        node = entry.get("size")
        if node is None:
            self.r.error("E102", f"missing key 'size' in zone '{name}' (a {shape} has a size)", entry.span)
            return ()
        value = node.value if isinstance(node, ScalarNode) else None
        if isinstance(value, bool) or not isinstance(value, (int, str)):
            self.r.error("E542", f"the size of zone '{name}' is a whole number, a value or setup.FIELD", node.span)
            return ()
        if isinstance(value, int):
            sizes = tuple((p.players, value) for p in self.players)
        elif value.startswith("setup."):
            field = value[len("setup.") :]
            fields = setup_fields(self.c.player_fields, self.players)
            if field not in fields:
                self.r.error(
                    "E542",
                    f"the player-count table has no field '{field}'"
                    f"{did_you_mean(field, fields)} (fields: {', '.join(fields)})",
                    node.span,
                )
                return ()
            sizes = tuple((p.players, p.field(field)) for p in self.players)
        elif value in self.values:
            sizes = tuple((p.players, self.values[value]) for p in self.players)
        else:
            self.r.error(
                "E542",
                f"the size of zone '{name}' names no value: '{value}'"
                f"{did_you_mean(value, self.values)} (a size is fixed before play: a number, a value or "
                "setup.FIELD, never the state of a game)",
                node.span,
            )
            return ()
        most = pieces(kind) if source in earlier else len(kind.components)
        group, most = fewest(kind, by) if by else (0, most)
        for players, size in sizes:
            if not 0 <= size <= MAX_ZONE_SIZE:
                self.r.error(
                    "E542",
                    f"zone '{name}' has {size} places with {players} players: a size is 0 to {MAX_ZONE_SIZE}",
                    node.span,
                )
                return ()
            if size > most:
                self.r.error(
                    "E542",
                    f"zone '{name}' has {size} places with {players} players, but there are only "
                    f"{most} {kind.name} to deal" + (f" of {by} {group}" if by else ""),
                    node.span,
                    f"the {kind.name} table ({kind.table}) has {len(kind.components)} rows"
                    + (f", {most} pieces ('faces_of: {kind.faces_of}')" if kind.faces_of else ""),
                )
                return ()
        return sizes

    def limit(self, entry: MapNode, where: str) -> tuple[int, str]:
        value, node = self.c.scalar(entry, "limit", (int, str), required=False, default=0, where=where)
        if node is None:
            return 0, ""
        name = value if isinstance(value, str) else ""
        if name and name not in self.values:
            self.r.error("E401", f"unknown value '{name}'{did_you_mean(name, self.values)}", node.span)
            return 0, ""
        limit = self.values[name] if name else int(value)
        if not 1 <= limit <= MAX_ZONE_SIZE:
            self.r.error("E542", f"the limit of a holding is 1 to {MAX_ZONE_SIZE}, not {limit}", node.span)
            return 0, ""
        return limit, name


def _deals_whole(shape: Shape, start: str, sourced: bool) -> bool:
    """Is a zone dealt from its kind itself: a `start: all` pile, a `start: dealt` display or row without a source?"""
    return (shape.face_down and start == "all") or (shape.laid_out and start == "dealt" and not sourced)


def _size_field(entry: MapNode) -> str:
    """The field of the player-count table a zone's `size` reads (`setup.cities`: 'cities'), or ''."""
    node = entry.get("size")
    value = node.value if isinstance(node, ScalarNode) else None
    return value[len("setup.") :] if isinstance(value, str) and value.startswith("setup.") else ""


def pieces(kind: Kind) -> int:
    """How many pieces a kind has: one per component, or one per value of its faces_of column."""
    return len({c.piece for c in kind.components}) if kind.faces_of else len(kind.components)


# --------------------------------------------------------------------------- names and types


def zone_type(zone: Zone, kinds: dict[str, Kind]) -> ZoneT | MapOf:
    """A zone's type: a collection of its kind's components (a base place's too, read by the kind's columns)."""
    kind = kinds[zone.holds]
    one = ZoneT(Comp(kind.name, kind.item.en), zone.name, zone.shape, zone.per_player)
    return MapOf(INT, one) if zone.by else one  # split by a group column: one zone per group, `Z[level]`


def install(inferrer: Inferrer, zones: tuple[Zone, ...], kinds: tuple[Kind, ...], names: dict) -> None:
    """Make the zones known to expressions: shared zones as names (added to `names`), per-player
    ones as player attributes, and the zone effects."""
    refused = tuple(getattr(inferrer, "refused_zones", ()))
    for name in refused:
        names.setdefault(name, ERROR)  # refused and reported: its uses are not unknown names (me.NAME neither)
    inferrer.add_player_attributes({n: ERROR for n in refused if n not in inferrer.attributes["player"]})
    if not zones:
        return
    by_name = {k.name: k for k in kinds}
    for zone in zones:
        if not zone.per_player:
            names[zone.name] = zone_type(zone, by_name)
    inferrer.add_player_attributes({z.name: zone_type(z, by_name) for z in zones if z.per_player})
    inferrer.hooks["zone"] = _check_effect
    inferrer.zone_sources = {z.name: refill_source(z) for z in zones}


def _argument(inferrer: Inferrer, node, scope: Scope, what: Role, name: str):
    """The type of a zone effect's argument, reported when it is not `what` it must be."""
    # A pile named as a source (draw, reveal) or as where a component goes (move, to_bottom, draw):
    # writing to a pile, or taking its top unseen, reads nothing of it (E551 is for reading).
    inferrer.pile_ok, saved = what in (Role.PILE, Role.FACE_DOWN, Role.ZONE), inferrer.pile_ok
    try:
        t = inferrer.infer(node, scope)
    finally:
        inferrer.pile_ok = saved
    if t == ERROR:
        return ERROR
    wanted = {
        Role.COMPONENT: "a component of a zone",
        Role.ZONE: "a zone",
        Role.PILE: "a pile",
        Role.FACE_DOWN: "a pile or a bag",
        Role.SHOWN: "a display or a row",
    }[what]
    ok = (
        isinstance(t, Comp)
        if what is Role.COMPONENT
        else isinstance(t, ZoneT)
        and (
            what is Role.ZONE
            or (what is Role.PILE and t.shape is Shape.PILE)
            or (what is Role.FACE_DOWN and t.shape.face_down)
            or (what is Role.SHOWN and t.shape.laid_out)
        )
    )
    if not ok and isinstance(t, ZoneT) and t.shape is Shape.BAG and what is Role.PILE:
        inferrer.r.error(
            "E410",
            f"'{name}' needs a pile here, but '{t.zone}' is a bag: a bag has no order (no bottom, nothing to shuffle)",
            node.span,
            "move(x, BAG) puts a component into a bag at random; make the zone a pile to keep an order",
        )
        return ERROR
    if not ok:
        found = f"{_an(t.shape)} ({t.zone})" if isinstance(t, ZoneT) else noun(t)
        inferrer.r.error("E410", f"'{name}' needs {wanted} here, but this is {found}", node.span)
        return ERROR
    return t


def _check_effect(inferrer: Inferrer, node: Effect, scope: Scope) -> None:
    params = ZONE_EFFECTS[node.name]
    if len(node.args) != len(params):
        inferrer.r.error(
            "E408",
            f"'{node.name}' takes {len(params)} argument{'s' if len(params) != 1 else ''} ({len(node.args)} given)",
            node.span,
        )
        return
    types = [_argument(inferrer, a, scope, what, node.name) for a, what in zip(node.args, params, strict=True)]
    if ERROR in types:
        return
    held = [str(t) if isinstance(t, Comp) else str(t.elem) for t in types if isinstance(t, (Comp, ZoneT))]
    if len(set(held)) > 1:
        inferrer.r.error(
            "E410",
            f"'{node.name}' moves a component between zones of one kind, but these are "
            f"of {' and '.join(h + 's' for h in dict.fromkeys(held))}",
            node.span,
        )
    if node.name == "discard":
        check_discard(inferrer.r, node, types[0])
    if node.name == "refill":
        zone = types[0]
        assert isinstance(zone, ZoneT)
        if not inferrer.zone_sources.get(zone.zone):
            inferrer.r.error(
                "E541",
                f"'refill({zone.zone})' needs a source: zone '{zone.zone}' names no pile to "
                "refill from ('source: PILE')",
                node.span,
            )


# --------------------------------------------------------------------------- flow


def moved_twice(effects, params: tuple[Param, ...]) -> list[Diagnostic]:
    """E547: a chosen component moved by two effects of one list (or by one inside a `for`):
    once it has left its place, the choice no longer names where it is."""
    chosen = {p.name for p in params if p.domain == "component"}
    out: list[Diagnostic] = []
    seen: dict[str, Effect] = {}

    def walk(stmt, looped: bool) -> None:
        match stmt:
            case Effect(name=name, args=(Name(id=x), *_)) if name in MOVES and x in chosen:
                if x in seen or looped:
                    first = seen.get(x, stmt)
                    how = (
                        "inside a 'for', once for each element"
                        if looped and x not in seen
                        else f"'{first.name}' already moved it (line {first.span.line})"
                    )
                    out.append(
                        Diagnostic(
                            "E547",
                            f"'{name}' moves the chosen component '{x}' again: {how}",
                            stmt.span,
                            ("a chosen component moves at most once in a list of effects",),
                        )
                    )
                seen.setdefault(x, stmt)
            case ForEach(body=body):
                walk(body, True)
            case Sequence(stmts=stmts):  # a body joined by ';', or a procedure's call written out
                for part in stmts:
                    walk(part, looped)
            case When(then=then, otherwise=otherwise):
                before = dict(seen)
                walk(then, looped)
                after_then = dict(seen)
                seen.clear()
                seen.update(before)
                if otherwise is not None:
                    walk(otherwise, looped)
                seen.update(after_then)

    for stmt in effects:
        walk(stmt, False)
    return out


def taken_names(scope_names: dict, kinds: tuple[Kind, ...], reserved: set[str]) -> dict[str, str]:
    """What each name of the language or the spec already names, for E540's message."""
    out: dict[str, str] = {}
    for name in reserved:
        out[name] = "something built into the language"
    for name, t in scope_names.items():
        out.setdefault(
            name,
            "something built into the language"
            if name in reserved
            else f"a {t}"
            if str(t) in ("gem colour", "token colour")
            else "a value of the spec",
        )
    for kind in kinds:
        out[kind.name] = f"a kind (kind '{kind.name}')"
    return out


__all__ = [
    "MOVES",
    "ZONE_EFFECTS",
    "ZoneReader",
    "install",
    "moved_twice",
    "pieces",
    "taken_names",
    "zone_type",
]
