"""The spec's own zones (rulespec/README.md, Zones): the deal, the moves, and the zones' part of a
saved state (to_json, observation, from_json).

Part of the runtime of an engine whose spec declares zones, pasted after the other modules (an
engine without zones holds none of it). Generic over the tables the lowering writes from the
spec, read by field name (compiler/emit/runtime/meta.py): ZONES, one Zone per zone in
declaration order (a zone's index there is how the rules name it), and KINDS, one Kind per kind
(its number of components, and the faces of each piece in table order: a kind without
faces_of has one face per piece).

A pile is a list whose end is its top (drawn with pop, as the decks are); a display is a list
of slots, None where empty; a row and a holding are lists in order. A per-player zone is a
list of those, one per seat. A private_when_drawn holding keeps, beside it (its own attribute),
the components its owner drew unseen by the others. A component is its id: its row of the kind's table.

A bag is a pile in random order: a draw takes its end, which is a component at random; a component
put in goes in at a random place. Randomness during play (a component put into a bag, `shuffle`)
draws from a generator made for each such event from the game's seed and the count of events before
it (_chance), the count saved with the state ("chance"): a game replayed from its seed, or reloaded
from a saved state, draws what it drew, with no generator state to save. The count is saved only by
an engine whose spec has a bag or a shuffle (its "chance" slot: compiler/lower/zones.py).
"""

from __future__ import annotations

import random
from typing import Any

from .aliases import Problem, State
from .deal import _shuffle
from .errors import _RULE_ERRORS, RuleError, _shown
from .face_up import _NO_CARD_COST
from .game import Game
from .meta import BAG, DISPLAY, PILE, ROW, Zone
from .spec import (
    _EXTRA_SLOTS,
    _FACE_UP_COSTS,
    _FACE_UP_SLOTS,
    _WILD_PLACES,
    _ZONE_DEALS,
    CARD_BONUS,
    CARD_COST,
    CARD_LEVEL,
    CARD_POINTS,
    KINDS,
    LEVELS,
    NOBLE_POINTS,
    ZONE_GROUPS,
    ZONES,
)


def _below(rng: random.Random, n: int) -> int:
    """A whole number in 0..n-1 drawn with getrandbits and rejection, as _shuffle draws (the same on
    every Python, unlike randrange, whose method may change)."""
    k = n.bit_length()
    j = rng.getrandbits(k)
    while j >= n:
        j = rng.getrandbits(k)
    return j


_FACE_DOWN = (PILE, BAG)  # the shapes whose contents only their size shows
# A zone naming a place of the base game (`place:` in the spec) starts so: its list is the engine's own
# (the purchased cards, the reserved cards, the visiting nobles, the noble row), dealt by the base game's
# deal and saved in the base game's part of a state.
_BASE = "base"  # compiler/language/places.py, BASE_PLACE
_BOX = "box"  # compiler/language/places.py, BOX_PLACE: the nobles' box, a pile of the spec's zones
_OWN_ZONES = tuple(zone for zone in ZONES if zone.start != _BASE)  # saved as zones (the base places: as before)
# The base game's lists split by level (the face-up rows, the decks): a zone naming one is a list per
# level, indexed by a level's index (its `group`) as a per-player zone's lists are by seat.
_BY_LEVEL = ("market", "decks")
_RULE_ERRORS["wrong_group"] = "a component of {column} {value} cannot go to {column} {group} of {zone!r}"  # +sheets


def _split(zone: Zone) -> bool:
    """Is the zone's attribute a list of lists (one per seat, one per level, or one per group of the
    column it is split by)?"""
    return zone.per_player or zone.attribute in _BY_LEVEL or zone.name in ZONE_GROUPS


def _group_of(zone: Zone, x: int) -> int:
    """The group of component `x` in the column zone `zone` is split by (ZONE_GROUPS)."""
    kind = KINDS[zone.kind]
    column = ZONE_GROUPS[zone.name][0]
    at = next(i for i, c in enumerate(kind.columns) if c.name == column)
    group: int = kind.rows[x][at]
    return group


def _groups(zone: Zone) -> int:
    """How many lists a zone split by a column holds (its column's largest value: group g's at g - 1)."""
    return max(ZONE_GROUPS[zone.name][1])


def _by_group(zone: Zone, components: list[int]) -> list[list[int]]:
    """`components` dealt to the lists of a zone split by a column, each to its group's, in order."""
    out: list[list[int]] = [[] for _ in range(_groups(zone))]
    for x in components:
        out[_group_of(zone, x) - 1].append(x)
    return out


def _items(game: Game, zone: Zone, group: int) -> list[Any]:
    """The list of zone `zone`: its own, or that of seat or level `group`."""
    value: list[Any] = getattr(game, zone.attribute)
    return value[group] if _split(zone) else value


_CHANCE = "chance"  # the Game attribute counting the random events of play, when the spec has any
_CHANCE_USED = any(slot[0] == _CHANCE for slot in _EXTRA_SLOTS)


def _chance(game: Game) -> random.Random:
    """The generator of the next random event of play: seeded by the game's seed (0 for a state
    without one) and the number of events before it, which it counts."""
    n = getattr(game, _CHANCE)
    setattr(game, _CHANCE, n + 1)
    return random.Random(f"chance:{game.seed or 0}:{n}")


def _zone_shuffle(game: Game, pi: int, pg: int = 0) -> None:
    """shuffle(P): pile `pi` (split by level: of level `pg`) in a new random order."""
    _shuffle(_chance(game), _items(game, ZONES[pi], pg))


def _pieces_shown(zone: Zone, rng: random.Random) -> list[int]:
    """The pieces of its kind zone `zone` deals (a series' zone: _ZONE_DEALS), each showing one of its
    faces at random (one face: no draw), in table order."""
    dealt = set(_ZONE_DEALS.get(zone.name, ()))
    pieces = [piece for piece in KINDS[zone.kind].pieces if not dealt or piece[0] in dealt]
    return [piece[_below(rng, len(piece))] if len(piece) > 1 else piece[0] for piece in pieces]


def _deal_zones(game: Game, rng: random.Random) -> None:
    """Deal every zone with a start, in declaration order, after the base game's deal (so a seed deals
    the cards and nobles it deals without zones): a pile takes every piece of its kind, each showing
    one of its faces at random, shuffled; a display or row its size from the top of its source (or,
    without a source, the kind's pieces, shuffled: the rest are out of the game). `check` lets one
    zone of a kind at most be dealt from the kind itself (E560): each component in one place. A
    display that starts empty has its slots, empty; other zones start empty lists. A zone split by a
    group column is dealt group by group: a pile each piece to its group's pile (in the shuffled
    order), a display or row each group's from that group's pile (or from that group's pieces)."""
    for zone in ZONES:
        if zone.per_player or zone.start == _BASE:
            continue
        if zone.start == _BOX:  # the nobles the base game's deal did not reveal, shuffled
            box = [x for x in range(KINDS[zone.kind].size) if x not in game.noble_row]
            _shuffle(rng, box)
            setattr(game, zone.attribute, box)
            continue
        groups = _groups(zone) if zone.name in ZONE_GROUPS else 0
        if zone.start == "empty":
            if zone.shape == DISPLAY:
                slots = [None] * zone.sizes[game._n]
                setattr(game, zone.attribute, [list(slots) for _ in range(groups)] if groups else slots)
            elif groups:
                setattr(game, zone.attribute, [[] for _ in range(groups)])
            continue
        if zone.start == "all":
            pile = _pieces_shown(zone, rng)
            _shuffle(rng, pile)
            setattr(game, zone.attribute, _by_group(zone, pile) if groups else pile)
            continue
        if zone.source >= 0:
            piles = getattr(game, ZONES[zone.source].attribute)
        else:
            piles = _pieces_shown(zone, rng)
            _shuffle(rng, piles)
            piles.reverse()  # the first of the shuffled order is dealt first
        if groups:  # each group's from the top of that group's pile (without a source: its pieces)
            piles = piles if zone.source >= 0 else _by_group(zone, piles)
            setattr(game, zone.attribute, [_dealt(zone, game._n, pile) for pile in piles])
        else:
            setattr(game, zone.attribute, _dealt(zone, game._n, piles))


def _dealt(zone: Zone, players: int, pile: list[int]) -> list[int | None]:
    """A display's or row's size taken from the top of `pile` (a display's slots past them: empty)."""
    size = zone.sizes[players]
    dealt: list[int | None] = [pile.pop() for _ in range(min(size, len(pile)))]
    return dealt + [None] * (size - len(dealt)) if zone.shape == DISPLAY else dealt


def _zone_lists(game: Game, zi: int) -> list[list[Any]]:
    """The lists of zone `zi`: one, or one per seat."""
    zone = ZONES[zi]
    value = getattr(game, zone.attribute)
    return value if _split(zone) else [value]


def _base_counts(game: Game, zone: Zone, seat: int, x: int, sign: int) -> None:
    """Keep the base game's counts as component `x` enters (sign 1) or leaves (-1) one of its places:
    a purchased card gives its owner its bonus and points, a visiting noble its points."""
    if zone.attribute == "_bought":
        game._bon[seat][CARD_BONUS[x]] += sign
        game._pts[seat] += sign * CARD_POINTS[x]
    elif zone.attribute == "_nob":
        game._pts[seat] += sign * NOBLE_POINTS[x]


def _level_fits(zone: Zone, group: int, x: int, located: str) -> None:
    """RuleError unless component `x` may go to group index `group` of a zone split by a column (a
    base place split by level, or a zone of the spec's own split by a group column): a group's
    pile, display or row holds that group's components only."""
    if zone.attribute in _BY_LEVEL and LEVELS.index(CARD_LEVEL[x]) != group:
        raise RuleError(
            "wrong_level", {"located": located, "card_level": CARD_LEVEL[x], "level": LEVELS[group], "zone": zone.name}
        )
    if zone.name in ZONE_GROUPS and _group_of(zone, x) != group + 1:
        told = {"column": ZONE_GROUPS[zone.name][0], "value": _group_of(zone, x), "group": group + 1, "zone": zone.name}
        raise RuleError("wrong_group", {"located": located, **told})


def _slot_cost(game: Game, zone: Zone, level: int, slot: int, x: int | None) -> None:
    """Keep Game.face_up_costs, when the engine keeps it, as a face-up slot of the base game changes."""
    if _FACE_UP_COSTS and zone.attribute == "market":
        game.face_up_costs[level * _FACE_UP_SLOTS + slot] = _NO_CARD_COST if x is None else CARD_COST[x]


def _card_out(game: Game, x: int) -> None:
    """A base card discarded: listed out of the game at its level, as a saved state says (out_of_play)."""
    out = list(game.out_of_play or ((),) * len(LEVELS))
    level = LEVELS.index(CARD_LEVEL[x])
    out[level] = tuple(sorted(out[level] + (x,)))
    game.out_of_play = tuple(out)


def _zone_remove(game: Game, kind: str, x: int, located: str, strict: bool = True) -> bool:
    """Take component `x` out of whatever zone holds it (a display's slot is left empty); when no zone
    does, a RuleError (strict: a component out of the game, a face not dealt or one discarded, is
    never moved back in), or nothing (discard: it is out already). Whether a zone held it."""
    for zi, zone in enumerate(ZONES):
        if zone.kind != kind:
            continue
        for seat, items in enumerate(_zone_lists(game, zi)):
            if x in items:
                if zone.shape == DISPLAY:
                    _slot_cost(game, zone, seat, items.index(x), None)
                    items[items.index(x)] = None
                else:
                    items.remove(x)
                if zone.private_attribute:
                    hidden = getattr(game, zone.private_attribute)[seat]
                    if x in hidden:
                        hidden.remove(x)
                if zone.start == _BASE:
                    _base_counts(game, zone, seat, x, -1)
                return True
    if strict:
        raise RuleError("out_of_game", {"located": located, "kind": kind, "id": x})
    return False


def _places_of(parts: tuple[tuple[list[Any], int], ...]) -> list[Any]:
    """The positions of a choice across several zones: each zone's list padded with None to its
    positions, one after the other (so each zone's positions keep their numbers as the others change)."""
    out: list[Any] = []
    for items, places in parts:
        out += items
        out += [None] * (places - len(items))
    return out


def _zone_shown(game: Game, kind: str, seat: int) -> list[int | None]:
    """The components of `kind` that `seat` sees face up in play, by id (None for the others): in a
    display, a row or a holding; not in a pile, not out of the game, not drawn unseen by another
    seat. A choice from a kind that zones hold offers these (one action per component)."""
    shown: list[int | None] = [None] * KINDS[kind].size
    for zi, zone in enumerate(ZONES):
        if zone.kind != kind or zone.shape in _FACE_DOWN:
            continue
        for s, items in enumerate(_zone_lists(game, zi)):
            hidden = getattr(game, zone.private_attribute)[s] if zone.private_attribute and s != seat else ()
            for x in items:
                if x is not None and x not in hidden:
                    shown[x] = x
    return shown


def _zone_room(game: Game, zi: int, items: list[Any]) -> bool:
    """Can zone `zi` (its list `items`) take one more component?"""
    zone = ZONES[zi]
    if zone.shape == DISPLAY:
        return None in items
    if zone.shape == ROW:
        return len(items) < zone.sizes[game._n]
    return not zone.limit or len(items) < zone.limit


def _zone_put(game: Game, zi: int, seat: int, x: int, located: str, private: bool = False) -> None:
    """Put component `x` into zone `zi` (a per-player zone: `seat`'s; one split by level: that
    level's): a display's first empty slot, a pile's top, a row's or holding's end. RuleError,
    naming the effect, when it is full, or when a card goes to another level's row or deck."""
    zone = ZONES[zi]
    items = _items(game, zone, seat)
    if not _zone_room(game, zi, items):
        raise RuleError("zone_full", {"located": located, "zone": zone.name})
    _level_fits(zone, seat, x, located)
    if zone.shape == DISPLAY:
        _slot_cost(game, zone, seat, items.index(None), x)
        items[items.index(None)] = x
    elif zone.shape == BAG:  # at a random place: what a draw takes stays unknown
        items.insert(_below(_chance(game), len(items) + 1), x)
    else:
        items.append(x)
    if private and zone.private_attribute:
        getattr(game, zone.private_attribute)[seat].append(x)
    if zone.start == _BASE:
        _base_counts(game, zone, seat, x, 1)


def _zone_move(game: Game, x: int | None, zi: int, seat: int, located: str) -> None:
    """move(x, Z): `x` from where it is to zone `zi`."""
    if x is None:
        raise RuleError("nothing_to_move", {"located": located})
    zone = ZONES[zi]
    if not _zone_room(game, zi, _items(game, zone, seat)):
        raise RuleError("zone_full", {"located": located, "zone": zone.name})
    _level_fits(zone, seat, x, located)  # before it leaves its place: a refused move changes nothing
    _zone_remove(game, zone.kind, x, located)
    _zone_put(game, zi, seat, x, located)


def _zone_draw(game: Game, pi: int, zi: int, seat: int, located: str, pg: int = 0) -> None:
    """draw(P, Z): the top of pile `pi` (split by level: of level `pg`) to zone `zi`; RuleError when
    the pile is empty."""
    pile = _items(game, ZONES[pi], pg)
    if not pile:
        raise RuleError("pile_empty", {"located": located, "pile": ZONES[pi].name})
    x = pile[-1]
    _zone_put(game, zi, seat, x, located, private=True)
    pile.pop()


def _zone_reveal(game: Game, pi: int, zi: int, pg: int = 0, zg: int = 0) -> None:
    """reveal(P, D): the top of pile `pi` into display or row `zi` (`pg`, `zg`: their levels, when
    split by level); nothing when the pile is empty or D full."""
    pile = _items(game, ZONES[pi], pg)
    if pile and _zone_room(game, zi, _items(game, ZONES[zi], zg)):
        _zone_put(game, zi, zg, pile[-1], "")
        pile.pop()


def _zone_refill(game: Game, zi: int, zg: int = 0) -> None:
    """refill(D): every empty place of display or row `zi` (split by level: of level `zg`) from its
    source, while the pile lasts; the base game's face-up row of a level from that level's deck."""
    zone = ZONES[zi]
    items = _items(game, zone, zg)
    pile = game.decks[zg] if zone.attribute == "market" else _items(game, ZONES[zone.source], zg)
    while pile and _zone_room(game, zi, items):
        _zone_put(game, zi, zg, pile[-1], "")
        pile.pop()


def _zone_to_bottom(game: Game, x: int | None, pi: int, located: str, pg: int = 0) -> None:
    """to_bottom(x, P): `x` to the bottom of pile `pi` (split by level: of level `pg`), drawn last."""
    if x is None:
        raise RuleError("nothing_to_move", {"located": located})
    zone = ZONES[pi]
    _level_fits(zone, pg, x, located)
    _zone_remove(game, zone.kind, x, located)
    _items(game, zone, pg).insert(0, x)


def _zone_discard(game: Game, kind: str, x: int | None, located: str) -> None:
    """discard(x): `x` out of the game."""
    if x is None:
        raise RuleError("nothing_to_discard", {"located": located})
    if _zone_remove(game, kind, x, located, strict=False) and kind == "cards":
        _card_out(game, x)


def _place_out(game: Game, x: int | None, located: str) -> int:
    """A card of a place (a component of the kind `cards`) taken out of the place it lies in, for a
    base effect that puts it elsewhere (RuleError when there is none, or it lies in no place)."""
    if x is None:
        raise RuleError("nothing_to_move", {"located": located})
    _zone_remove(game, "cards", x, located)
    return x


def _place_acquire(game: Game, x: int | None, seat: int, located: str) -> None:
    """acquire(card) of a card of a place: into `seat`'s purchased cards, its bonus and points counted."""
    card = _place_out(game, x, located)
    game._bought[seat].append(card)
    game._bon[seat][CARD_BONUS[card]] += 1
    game._pts[seat] += CARD_POINTS[card]


def _place_reserve(game: Game, x: int | None, seat: int, located: str) -> None:
    """reserve(card) of a card of a place: into `seat`'s reserved cards, face up."""
    game._res[seat].append(_place_out(game, x, located))


def _place_bury(game: Game, x: int | None, seat: int, located: str) -> None:
    """bury(card) of a card of a place: to the bottom of its level's deck, drawn last."""
    card = _place_out(game, x, located)
    game.decks[LEVELS.index(CARD_LEVEL[card])].insert(0, card)


def _shown_zone(zone: Zone, items: list[Any], whole: bool) -> list[Any] | int:
    """A zone as a state shows it: a pile or a bag top first (to an observer: its count), else its list."""
    if zone.shape in _FACE_DOWN:
        return list(reversed(items)) if whole else len(items)
    return list(items)


def _zones_state(game: Game, state: State, observer: int | None) -> None:
    """The zones' part of a state: top-level 'zones' (shared zones) and each seat's 'zones' (its own);
    another seat's privately drawn components show as null (as blind reserves do)."""
    whole = observer is None
    if _CHANCE_USED and whole:
        state["chance"] = getattr(game, _CHANCE)
    state["zones"] = {
        zone.name: [_shown_zone(zone, items, whole) for items in getattr(game, zone.attribute)]
        if zone.name in ZONE_GROUPS
        else _shown_zone(zone, getattr(game, zone.attribute), whole)
        for zone in _OWN_ZONES
        if not zone.per_player
    }
    for p, seat in enumerate(state["seats"]):
        mine: dict[str, Any] = {}
        for zone in _OWN_ZONES:
            if not zone.per_player:
                continue
            items = getattr(game, zone.attribute)[p]
            hidden = getattr(game, zone.private_attribute)[p] if zone.private_attribute else ()
            if whole or p == observer or not hidden:
                mine[zone.name] = list(items)
            else:
                mine[zone.name] = [None if x in hidden else x for x in items]
            if zone.private_attribute and (whole or p == observer):
                mine[zone.name + "_private"] = list(hidden)
        seat["zones"] = mine


def _zone_problems(data: State, n: int) -> list[Problem]:
    """Every problem of the zones' part of a state dict, as (path, sentence) pairs."""
    out: list[Problem] = _chance_problems(data)
    shared = data.get("zones")
    seats = data.get("seats")
    if not isinstance(shared, dict) or set(shared) != {z.name for z in _OWN_ZONES if not z.per_player}:
        names = ", ".join(z.name for z in _OWN_ZONES if not z.per_player) or "none"
        return [(("zones",), f"'zones' must be an object with the shared zones ({names})")]
    if not isinstance(seats, list) or len(seats) != n or not all(isinstance(s, dict) for s in seats):
        return out  # the seats' own problems are reported with them
    own = [z.name for z in _OWN_ZONES if z.per_player]
    allowed = set(own) | {z.name + "_private" for z in _OWN_ZONES if z.per_player and z.private_attribute}
    tables: dict[int, dict[str, Any]] = {}  # seat -> its 'zones' object, for the seats whose object is sound
    for p, seat in enumerate(seats):
        table = seat.get("zones", {})
        odd = sorted((set(own) - set(table)) | (set(table) - allowed)) if isinstance(table, dict) else ()
        if isinstance(table, dict) and not odd:
            tables[p] = table
        else:
            shown = (
                f"{'has no' if odd[0] in own else 'has an unknown zone'} {odd[0]!r}" if odd else f"is {_shown(table)}"
            )
            out.append(
                (
                    ("seats", p, "zones"),
                    f"seats[{p}].zones must be an object with the seat's zones "
                    f"({', '.join(own) or 'none'}); it {shown}",
                )
            )
    where: dict[tuple[str, int], str] = {}  # component (kind, id) -> the path that holds it
    for zone in _OWN_ZONES:
        kind, count = zone.kind, KINDS[zone.kind].size
        places = (
            _shared_places(zone, shared[zone.name], out)
            if not zone.per_player
            else [(("seats", p, "zones", zone.name), tables[p][zone.name]) for p in range(n) if p in tables]
        )
        for path, items in places:
            if not isinstance(items, list):
                out.append((path, f"{'.'.join(map(str, path))} must be a list of {kind} ids"))
                continue
            for i, x in enumerate(items):
                if x is None and zone.shape == DISPLAY:
                    continue
                if type(x) is not int or not 0 <= x < count:
                    out.append(
                        (
                            path + (i,),
                            f"{'.'.join(map(str, path))}: unknown {kind} id {_shown(x)} ({kind} are 0 to {count - 1})",
                        )
                    )
                elif (kind, x) in where:
                    out.append((path + (i,), f"{kind} {x} appears more than once (at {where[kind, x]} too)"))
                elif zone.name in ZONE_GROUPS and _group_of(zone, x) != path[-1] + 1:
                    column = ZONE_GROUPS[zone.name][0]
                    out.append(
                        (
                            path + (i,),
                            f"{kind} {x} has {column} {_group_of(zone, x)}: it lies in {zone.name}'s "
                            f"{column} {_group_of(zone, x)} list, not the {column} {path[-1] + 1} one",
                        )
                    )
                else:
                    where[kind, x] = ".".join(map(str, path))
            size = zone.sizes.get(n, 0) if zone.shape in (DISPLAY, ROW) else zone.limit
            if zone.shape == DISPLAY and len(items) != size:
                out.append((path, f"{'.'.join(map(str, path))} has {len(items)} slots, {n} players have {size}"))
            elif size and len(items) > size:
                out.append((path, f"{'.'.join(map(str, path))} holds {len(items)}, at most {size}"))
            if zone.private_attribute and zone.per_player:
                private = tables[path[1]].get(zone.name + "_private", [])
                if not isinstance(private, list) or any(x not in items for x in private):
                    out.append((path, f"{'.'.join(map(str, path))}_private must list components of the holding"))
    return out + _two_faces_in_play(where)


def _shared_places(zone: Zone, value: Any, out: list[Problem]) -> list[tuple[tuple[Any, ...], Any]]:
    """The lists a shared zone's saved value holds, each with its path: its own, or, for a zone split
    by a group column, one per group (a problem in `out`, and none, when they are not so many)."""
    if zone.name not in ZONE_GROUPS:
        return [(("zones", zone.name), value)]
    column = ZONE_GROUPS[zone.name][0]
    if not isinstance(value, list) or len(value) != _groups(zone):
        out.append(
            (
                ("zones", zone.name),
                f"zones.{zone.name} must be a list of {_groups(zone)} lists, one per {column} (from 1), "
                f"not {_shown(value)}",
            )
        )
        return []
    return [(("zones", zone.name, g), items) for g, items in enumerate(value)]


def _wild_spent_problems(data: State) -> list[Problem]:
    """The places of the current player's holding set aside as wild tokens (`wilds`), saved while a
    payment waits: increasing places the spec's holdings have, and none out of the payment step."""
    spent = data.get("wild_spent", [])
    most = max((place for _, place in _WILD_PLACES), default=0)
    if not isinstance(spent, list) or any(type(k) is not int or not 0 <= k < most for k in spent):
        return [(("wild_spent",), f"'wild_spent' must be a list of places from 0 to {most - 1}, not {_shown(spent)}")]
    if spent != sorted(set(spent)):
        return [(("wild_spent",), f"'wild_spent' lists each place once, in increasing order, not {_shown(spent)}")]
    if spent and data.get("phase") != "payment":
        return [(("wild_spent",), "components are set aside only while a payment waits (phase 'payment')")]
    return []


def _chance_problems(data: State) -> list[Problem]:
    """The state's count of random events of play: a count, and only for a spec that has any."""
    chance = data.get("chance", 0)
    if not (not _CHANCE_USED and "chance" in data or type(chance) is not int or chance < 0):
        return []
    return [
        (
            ("chance",),
            f"'chance' must be the number of random events of play so far (absent: 0), not {_shown(chance)}"
            if _CHANCE_USED
            else "'chance' belongs to a spec with a bag or a shuffle",
        )
    ]


def _two_faces_in_play(where: dict[tuple[str, int], str]) -> list[Problem]:
    """A piece with two faces (a city tile's sides) in play by both: `where` holds each component in play."""
    out: list[Problem] = []
    for kind in dict.fromkeys(zone.kind for zone in _OWN_ZONES):
        for piece in KINDS[kind].pieces:
            in_play = [x for x in piece if (kind, x) in where]
            if len(in_play) > 1:
                out.append(
                    (
                        ("zones",),
                        f"{kind} {in_play[0]} and {in_play[1]} are two faces of one piece: "
                        "at most one of them is in play",
                    )
                )
    return out


def _load_zones(game: Game, data: State) -> None:
    """The zones of a state dict that _zone_problems found sound."""
    if _CHANCE_USED:
        setattr(game, _CHANCE, data.get("chance", 0))
    for zone in _OWN_ZONES:
        if zone.per_player:
            setattr(game, zone.attribute, [list(seat["zones"][zone.name]) for seat in data["seats"]])
            if zone.private_attribute:
                setattr(
                    game,
                    zone.private_attribute,
                    [list(seat["zones"].get(zone.name + "_private", [])) for seat in data["seats"]],
                )
        elif zone.name in ZONE_GROUPS:
            groups = data["zones"][zone.name]
            setattr(game, zone.attribute, [_loaded(zone, items) for items in groups])
        else:
            setattr(game, zone.attribute, _loaded(zone, data["zones"][zone.name]))


def _loaded(zone: Zone, items: list[Any]) -> list[Any]:
    """A list of a saved zone as the game holds it: a pile or a bag with its top last."""
    return list(reversed(items)) if zone.shape in _FACE_DOWN else list(items)
