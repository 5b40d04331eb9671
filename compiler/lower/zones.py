"""The spec's own zones lowered: the engine's tables (each kind's rows, KINDS and ZONES, made of
the metadata classes of compiler/emit/runtime/meta.py), its Game attributes (z_NAME:
compiler/emit/runtime/zones.py keeps them), and the code of zone names, component attributes,
component choices and zone effects in rules.

Nothing here runs for a spec without zones: its plan keeps no table, no attribute and state
version 1 (its engine's KINDS and ZONES are empty; compiler/lower/expressions.py asks here only
for names that are zones, components or zone effects)."""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable

from ..check.reach import reached
from ..front.expr import Attribute, Effect, Index, Name, unparse, walk
from ..language import ColumnType, Shape
from ..language.effects import ZONE_EFFECTS
from ..language.places import PLACES
from ..model import Kind, Rules, Zone
from . import fold, ir
from .layout import EnginePlan, LoweringBug, spec_name
from .printer import render
from .pysource import Code, comment, identifier
from .tree import Assign, Comment, Node, Table

# An env entry's kind for a component: "comp:" + the zone (or kind) it comes from.
COMPONENT = "comp:"


def is_component(kind: str) -> bool:
    """Does an env entry's kind (a tag of the lowering, never code) name a component ("comp:ZONE")?"""
    return kind.startswith(COMPONENT)


# The engine's own lists of the base game's places (compiler/language/places.py; compiler/emit/runtime/game.py):
# a zone naming one reads and moves them (the runtime keeps the bonuses and prestige they give), and the
# base game's deal and saved state keep them.
PLACE_ATTRIBUTES = {
    "purchased": "_bought",
    "reserved": "_res",
    "visiting": "_nob",
    "noble_row": "noble_row",
    "face_up": "market",
    "decks": "decks",
}
PLACE_PRIVATE = {"reserved": "blind"}  # the cards each seat reserved unseen by the others


def zone_attr(zone: Zone) -> str:
    """The Game attribute of a zone (a plain str: it is written as data in ZONES too)."""
    if zone.place in PLACE_ATTRIBUTES:
        return PLACE_ATTRIBUTES[zone.place]
    return str(spec_name("z_", zone.name, zone.span))


def private_attr(zone: Zone) -> str:
    if zone.place:
        return PLACE_PRIVATE.get(zone.place, "")
    return str(spec_name("zp_", zone.name, zone.span)) if zone.private_when_drawn and zone.per_player else ""


def kind_table(kind: str) -> str:
    return str(spec_name("_k_", kind))


def pieces(rules: Rules, kind) -> tuple[tuple[int, ...], ...]:
    """The faces of each piece of a kind, pieces in table order (without faces_of: one face each)."""
    if not kind.faces_of:
        return tuple((c.id,) for c in kind.components)
    out: dict[int, list[int]] = {}
    for c in kind.components:
        out.setdefault(c.piece, []).append(c.id)
    return tuple(tuple(ids) for ids in out.values())


# The engine's constant for each zone shape (compiler/emit/runtime/meta.py: PILE, DISPLAY, ROW, HOLDING).
SHAPE_CONSTANTS = {shape: shape.name for shape in Shape}


def plan_zones(plan: EnginePlan) -> None:
    """The tables of the kinds in use (their rows, and KINDS); for a spec with zones, ZONES and
    state version 2."""
    rules = plan.rules
    used = reached(rules)
    if not used:
        return
    plan.kinds_src = kinds_source(rules, used)
    if not rules.zones:
        return
    plan.zones_src = zones_source(rules)
    for z in rules.zones:
        if z.place in PLACE_ATTRIBUTES:  # the engine's own list
            continue
        plan.extra_slots.append((zone_attr(z), z.per_player, ()))
        if private_attr(z):
            plan.extra_slots.append((private_attr(z), True, ()))
    if any(p.wilds for d in (*rules.actions, *rules.steps) for p in d.params):  # see hooks._wild_hooks
        plan.extra_slots.append(("wild_spent", False, ()))
    if uses_chance(rules):  # the count of random events of play (compiler/emit/runtime/zones.py, _chance)
        plan.extra_slots.append((CHANCE_SLOT, False, 0))
    plan.state_version = 2


CHANCE_SLOT = "chance"  # the Game attribute counting the random events of play (runtime zones.py reads it)


def uses_chance(rules: Rules) -> bool:
    """Does anything random happen during play: a bag (a component put in goes in at random), or a
    `shuffle` effect? Only then does the engine count random events (and save the count)."""
    if any(z.shape is Shape.BAG for z in rules.zones):
        return True
    stmts = [s for d in rules.actions + rules.steps for s in d.effects] + [s for b in rules.setup for s in b.effects]
    nodes: Callable[[object], Iterable[object]] = walk  # every node of a statement, itself first
    return any(isinstance(n, Effect) and n.name == "shuffle" for s in stmts for n in nodes(s))


def kinds_source(rules: Rules, used: tuple[str, ...]) -> Code:
    """Each kind's table (``_k_NAME``, read by the rules) and KINDS, the kinds' metadata (meta.Kind): what a
    tool outside the rules (play's board, the RL observation) needs to read a row without the spec
    (a gem column's value is a colour's index, not a count)."""
    kinds = {k.name: k for k in rules.kinds}
    out: list[Node] = [
        Comment(
            comment(
                "The spec's own kinds: one row per component, its columns' values in declared "
                "order (a table by gem colour as a tuple in gem order; a prose column as None)."
            )
        )
    ]
    for name in used:
        kind = kinds[name]
        rows = tuple(
            tuple(None if col.type is ColumnType.PROSE else v for col, v in zip(kind.columns, c.values, strict=True))
            for c in kind.components
        )
        out.append(Comment(comment(", ".join(c.name for c in kind.columns))))
        out.append(Table(kind_table(name), [ir.const(row) for row in rows]))
    entries = ast.Dict(
        keys=[ir.const(name) for name in used], values=[_kind_entry(rules, kinds[name]) for name in used]
    )
    out += [
        Comment(
            comment(
                "The kinds the rules reach, by name: each one's size (ids 0 to size - 1), columns, "
                "pieces (the faces of each, in table order) and rows."
            )
        ),
        Assign((ir.name("KINDS"),), entries),
    ]
    return Code(render(out))


def _kind_entry(rules: Rules, kind: Kind) -> ast.expr:
    """A kind's meta.Kind row: its size, columns, pieces and the name of its table."""
    columns = ir.tuple_(*(ir.call("Column", ir.const(c.name), ir.const(c.type.value)) for c in kind.columns))
    return ir.call(
        "Kind",
        ir.const(kind.name),
        size=ir.const(len(kind.components)),
        columns=columns,
        pieces=ir.const(pieces(rules, kind)),
        rows=ir.name(kind_table(kind.name)),
    )


def zones_source(rules: Rules) -> Code:
    """ZONES: the spec's own zones (meta.Zone), in declaration order; a zone's index there is how
    the rules and a zone's `source` name it."""
    index = {z.name: i for i, z in enumerate(rules.zones)}
    rows: list[ast.expr] = [
        ir.call(
            "Zone",
            name=ir.const(z.name),
            kind=ir.const(z.holds),
            shape=ir.name(SHAPE_CONSTANTS[z.shape]),
            per_player=ir.const(z.per_player),
            attribute=ir.const(zone_attr(z)),
            start=ir.const(PLACES[z.place].start if z.place else z.start),
            sizes=ir.const(dict(z.sizes)),
            source=ir.const(index.get(z.source, -1)),
            limit=ir.const(z.limit),
            private_attribute=ir.const(private_attr(z)),
        )
        for z in rules.zones
    ]
    kinds = {k.name: k for k in rules.kinds}
    groups = ast.Dict(
        keys=[ir.const(z.name) for z in rules.zones if z.by and not z.place],
        values=[ir.const((z.by, split_groups(z, kinds[z.holds]))) for z in rules.zones if z.by and not z.place],
    )
    deals = ast.Dict(
        keys=[ir.const(z.name) for z in rules.zones if z.series],
        values=[ir.const(tuple(series_ids(kinds[z.holds], z.series))) for z in rules.zones if z.series],
    )
    return Code(
        render(
            [
                Comment(comment("The spec's own zones, in declaration order (ZONES[i] is zone i)")),
                Table("ZONES", rows),
                Comment(
                    comment(
                        "The zones split by a group column of their kind: name -> (the column, its groups). "
                        "Such a zone is a list per group, group g's at index g - 1."
                    )
                ),
                Assign((ir.name("ZONE_GROUPS"),), groups),
                Comment(comment("The zones that deal a series of the base cards: name -> the ids of its cards.")),
                Assign((ir.name("_ZONE_DEALS"),), deals),
            ]
        )
    )


def series_ids(kind: Kind, name: str) -> range:
    """The ids of the cards of series `name` of `kind`."""
    return next(s.ids for s in kind.series if s.name == name)


def split_groups(zone: Zone, kind: Kind) -> tuple[int, ...]:
    """The groups of a zone split by a column of its kind: the values that column holds, in order."""
    at = next(i for i, c in enumerate(kind.columns) if c.name == zone.by)
    return tuple(sorted({int(c.values[at]) for c in kind.components}))


# --------------------------------------------------------------------------- names and attributes


def _zone(rules: Rules, name: str) -> Zone | None:
    return next((z for z in rules.zones if z.name == name), None)


def _list(zone: Zone) -> ast.expr:
    """`g.z_NAME`: a zone's list (per player: a list of them)."""
    return ir.attr(ir.name("g"), zone_attr(zone))


def zone_of(compiler, node, env) -> tuple[Zone, ast.expr] | None:
    """The zone a node names and its list's code (`g.z_pile`, `g.z_claimed[me]`), or None."""
    rules = compiler.plan.rules
    match node:
        case Name(id=name) if name not in env:
            zone = _zone(rules, name)
            if zone is not None and not zone.per_player:
                return zone, _list(zone)
        case Attribute(obj=owner, name=name):
            zone = _zone(rules, name)
            if zone is not None and zone.per_player and compiler.kind_of(owner, env) == "player":
                return zone, ir.sub(_list(zone), compiler.expr(owner, env))
        case Index(obj=Name(id=name), index=group) if name not in env:
            zone = _zone(rules, name)
            if zone is not None and zone.by:
                return zone, ir.sub(_list(zone), group_index(compiler.expr(group, env)))
    return None


def group_index(group: ast.expr) -> ast.expr:
    """The index of a group in a split zone's lists (groups start at 1, as a group column's values do)."""
    known = fold.as_int(group)
    return ir.const(known - 1) if known is not None and known >= 1 else ir.minus(group, 1)


def _occupied(code: ast.expr) -> ast.expr:
    """The occupied slots of a display: `[_x for _x in code if _x is not None]`."""
    return ir.listcomp("_x", "_x", code, ir.compare("_x", "is not", ir.const(None)))


def collection(compiler, node, env) -> ast.expr | None:
    """A zone as a collection: its list (a display: its occupied slots)."""
    found = zone_of(compiler, node, env)
    if found is None:
        return None
    zone, code = found
    return _occupied(code) if zone.shape is Shape.DISPLAY else code


def walks_what_it_moves(compiler, node, env, body) -> bool:
    """Does a `for` over zone `node` move components (its own, maybe) in its body? Then it walks a
    snapshot: a live list would skip the component after each one moved out of it."""
    found = zone_of(compiler, node, env)
    return (
        found is not None
        and found[0].shape is not Shape.DISPLAY
        and any(isinstance(x, Effect) and x.name in ZONE_EFFECT_NAMES for x in walk(body))
    )


def size(compiler, node, env) -> ast.expr | None:
    found = zone_of(compiler, node, env)
    if found is None:
        return None
    zone, code = found
    if zone.shape is Shape.DISPLAY:
        return ir.minus(ir.call("len", code), ir.method(code, "count", ir.const(None)))
    return ir.call("len", code)


def element_kind(compiler, node, env) -> str | None:
    """What a loop over a zone binds: a component of it."""
    found = zone_of(compiler, node, env)
    return COMPONENT + found[0].name if found is not None else None


def kind_name(rules: Rules, source: str) -> str:
    """The kind of a component from `source` (a zone or a kind)."""
    zone = _zone(rules, source)
    return zone.holds if zone is not None else source


def column(compiler, kind_tag: str, owner: ast.expr, attr: str, node) -> ast.expr:
    """`x.attr` of a component: its kind's table, the column's index (or the local a legal loop
    unpacked it into, where there is one)."""
    kind = tag_kind(compiler.plan.rules, kind_tag)
    index = next((i for i, c in enumerate(kind.columns) if c.name == attr), None)
    if index is None:  # pragma: no cover - the checker refuses an unknown attribute
        raise LoweringBug(f"cannot compile '{unparse(node)}'", node.span)
    if isinstance(owner, ast.Name) and owner.id in compiler.component_rows:
        return ir.name(column_local(owner.id, index))
    return ir.sub(ir.sub(kind_table(kind.name), owner), index)


def column_local(owner: str, index: int) -> str:
    """The local a legal loop unpacks column `index` of chosen component `owner` (`p_NAME`) into."""
    return str(identifier("kc_p_", owner[len("p_") :], f"C{index}"))


UNROLLED_KIND_SIZE = 16  # a choice from a kind of at most this many components is written out per component


def unrollable(rules: Rules, param) -> bool:
    """Is `param` a choice from a kind itself (not a zone: its places change) that no zone holds (then
    every component is always offered), small enough to write its legal tests out component by component?"""
    return (
        _zone(rules, param.source) is None
        and not held_kind(rules, param)
        and len(kind_of_param(rules, param).components) <= UNROLLED_KIND_SIZE
    )


def held_kind(rules: Rules, param) -> ast.expr | None:
    """The code of the components a choice from a kind that zones hold may take, by id (None for the
    others): those face up in play (runtime/zones.py, _zone_shown); None for a zone's choice, or a kind no
    zone holds (every component, always: they lie nowhere)."""
    if _zone(rules, param.source) is not None or not any(z.holds == param.source for z in rules.zones):
        return None
    return ir.call("_zone_shown", "g", ir.const(param.source), "me")


def constant_column(rules: Rules, kind_tag: str, component: int, attr: str):
    """Column `attr` of component `component` (its id) of the kind of `kind_tag`: known at compile time."""
    kind = tag_kind(rules, kind_tag)
    row = next(c for c in kind.components if c.id == component)
    return row.values[next(i for i, c in enumerate(kind.columns) if c.name == attr)]


def kind_of_param(rules: Rules, param):
    """The kind a `component` choice takes its value from (a zone's kind, or the kind itself)."""
    return _kind(rules, param.source)


def tag_kind(rules: Rules, kind_tag: str):
    """The kind of a component an env entry's kind names ("comp:" + its zone or kind)."""
    return _kind(rules, kind_tag[len(COMPONENT) :])


def _kind(rules: Rules, source: str):
    """The model's kind of the components of `source`, a zone or a kind."""
    return next(k for k in rules.kinds if k.name == kind_name(rules, source))


def row(rules: Rules, param, name: str) -> ast.expr:
    """The row of the kind's table of the component `name` chosen by `param`."""
    return ir.sub(kind_table(kind_of_param(rules, param).name), name)


# --------------------------------------------------------------------------- choices


def positions(rules: Rules, param) -> ast.expr | None:
    """The list a component choice's positions index (a kind: None, its ids are its positions)."""
    zone = _zone(rules, param.source)
    if zone is None:
        return None
    if param.parts:  # several zones: each one's list padded to its positions, one after the other
        return ir.call("_places_of", ir.tuple_(*(_part_list(rules, part) for part in param.parts)))
    if zone.by:  # a zone split by a group column: the group chosen from (`from: row[1]`)
        return ir.sub(_list(zone), ir.const(param.group - 1))
    return ir.sub(_list(zone), "me") if zone.per_player else _list(zone)


def _part_list(rules: Rules, part: tuple[str, int, int]) -> ast.expr:
    """(the list, its positions) of one zone of a choice across several zones (the acting player's, a
    group's)."""
    zone = _zone(rules, part[0])
    assert zone is not None, part
    code = _list(zone)
    if zone.by:
        code = ir.sub(code, ir.const(part[1] - 1))
    elif zone.per_player:
        code = ir.sub(code, "me")
    return ir.tuple_(code, ir.const(part[2]))


def bind(rules: Rules, param, name: str, arg: str) -> ast.expr:
    """The component at a chosen position (None for `none`, or an empty position)."""
    where = positions(rules, param) or held_kind(rules, param)
    if where is None:
        return ir.name(arg)
    at = ir.ifexp(ir.compare(arg, "<", ir.call("len", where)), ir.sub(where, arg), ir.const(None))
    return ir.ifexp(ir.compare(arg, "is", ir.const(None)), ir.const(None), at) if param.optional else at


def missing(rules: Rules, param, arg: str) -> tuple[ast.expr, ast.expr] | None:
    """(test, message) of a chosen position that holds nothing (of a kind: a component not face up in play)."""
    where = positions(rules, param) or held_kind(rules, param)
    if where is None:
        return None
    test = ir.or_(ir.compare(arg, ">=", ir.call("len", where)), ir.compare(ir.sub(where, arg), "is", ir.const(None)))
    if param.optional:
        test = ir.and_(ir.compare(arg, "is not", ir.const(None)), test)
    place = ir.add(arg, 1)
    if positions(rules, param) is None:
        return test, ir.binop(ir.const(f"{param.source} %d is not face up in play"), "%", place)
    return test, ir.binop(ir.const(f"there is no component at place %d of {param.source}"), "%", place)


def legal_source(rules: Rules, param) -> tuple[ast.expr, bool]:
    """What a legal loop over a component choice walks, and whether empty positions must be skipped."""
    where = positions(rules, param)
    if where is None:
        held = held_kind(rules, param)
        return (held, True) if held is not None else (ir.call("range", param.slots), False)
    zone = _zone(rules, param.source)
    return where, bool(param.parts) or (zone is not None and zone.shape is Shape.DISPLAY)


# --------------------------------------------------------------------------- effects


def _helper(key: str) -> str:
    """The runtime helper (compiler/emit/runtime/zones.py) that the zone effect a spec writes as `key` calls, as the
    registry declares it (compiler/language/effects.py)."""
    runtime = ZONE_EFFECTS[key].runtime
    if runtime is None:
        raise LoweringBug(f"zone effect {key!r} declares no runtime helper")
    return runtime


def effect(compiler, name: str, args, env, node, located: str) -> list | None:
    """The statements of a zone effect, or None when `name(args)` is not one (refill(card))."""
    from .tree import Do

    rules = compiler.plan.rules
    index = {z.name: i for i, z in enumerate(rules.zones)}

    def zone_ref(arg) -> tuple[int, ast.expr]:
        found = zone_of(compiler, arg, env)
        assert found is not None, unparse(arg)
        zone, _ = found
        if isinstance(arg, Index):  # a zone split by a group column: the group's index
            return index[zone.name], group_index(compiler.expr(arg.index, env))
        seat = compiler.expr(arg.obj, env) if isinstance(arg, Attribute) else ir.const(0)
        return index[zone.name], seat

    def group(arg: object) -> tuple[ast.expr, ...]:
        """The group of a split pile or display as a last argument (none for another zone)."""
        return (zone_ref(arg)[1],) if isinstance(arg, Index) else ()

    def component(arg) -> ast.expr:
        return compiler.expr(arg, env)

    where = ir.const(located)
    if name == "refill":
        if zone_of(compiler, args[0], env) is None:
            return None
        return [Do(ir.call(_helper("refill"), "g", zone_ref(args[0])[0], *group(args[0])))]
    if name == "move":
        zi, seat = zone_ref(args[1])
        return [Do(ir.call(_helper("move"), "g", component(args[0]), zi, seat, where))]
    if name == "draw":
        (pi, _), (zi, seat) = zone_ref(args[0]), zone_ref(args[1])
        return [Do(ir.call(_helper("draw"), "g", pi, zi, seat, where, *group(args[0])))]
    if name == "reveal":
        (pi, pg), (zi, zg) = zone_ref(args[0]), zone_ref(args[1])
        groups = (pg, zg) if isinstance(args[0], Index) or isinstance(args[1], Index) else ()
        return [Do(ir.call(_helper("reveal"), "g", pi, zi, *groups))]
    if name == "shuffle":
        pi, _ = zone_ref(args[0])
        return [Do(ir.call(_helper("shuffle"), "g", pi, *group(args[0])))]
    if name == "to_bottom":
        pi, _ = zone_ref(args[1])
        return [Do(ir.call(_helper("to_bottom"), "g", component(args[0]), pi, where, *group(args[1])))]
    if name == "discard":
        kind = compiler.kind_of(args[0], env)
        if not is_component(kind):
            return None
        kind_text = ir.const(kind_name(rules, kind[len(COMPONENT) :]))
        return [Do(ir.call(_helper("discard"), "g", kind_text, component(args[0]), where))]
    return None


def place_card(name: str, card: ast.expr, located: str) -> list[Node]:
    """`acquire`, `reserve` or `bury` of a card of a place (a component of the kind `cards`): the
    runtime takes it out of the place it lies in and puts it where the base effect puts a card."""
    from .tree import Do

    helper = {"acquire": "_place_acquire", "reserve": "_place_reserve", "bury": "_place_bury"}[name]
    return [Do(ir.call(helper, "g", card, "me", ir.const(located)))]


ZONE_EFFECT_NAMES = tuple(ZONE_EFFECTS)  # the zone effects by name (compiler/language/effects.py)
