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
from .errors import RuleError, _shown
from .game import Game
from .meta import BAG, DISPLAY, PILE, ROW, Zone
from .spec import _EXTRA_SLOTS, _WILD_PLACES, CARD_BONUS, CARD_LEVEL, CARD_POINTS, KINDS, LEVELS, NOBLE_POINTS, ZONES


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
_OWN_ZONES = tuple(zone for zone in ZONES if zone.start != _BASE)  # saved as zones (the base places: as before)
_CHANCE = "chance"  # the Game attribute counting the random events of play, when the spec has any
_CHANCE_USED = any(slot[0] == _CHANCE for slot in _EXTRA_SLOTS)


def _chance(game: Game) -> random.Random:
    """The generator of the next random event of play: seeded by the game's seed (0 for a state
    without one) and the number of events before it, which it counts."""
    n = getattr(game, _CHANCE)
    setattr(game, _CHANCE, n + 1)
    return random.Random(f"chance:{game.seed or 0}:{n}")


def _zone_shuffle(game: Game, pi: int) -> None:
    """shuffle(P): pile `pi` in a new random order."""
    _shuffle(_chance(game), getattr(game, ZONES[pi].attribute))


def _pieces_shown(kind: str, rng: random.Random) -> list[int]:
    """Every piece of `kind`, each showing one of its faces at random (one face: no draw), in table order."""
    return [piece[_below(rng, len(piece))] if len(piece) > 1 else piece[0] for piece in KINDS[kind].pieces]


def _deal_zones(game: Game, rng: random.Random) -> None:
    """Deal every zone with a start, in declaration order, after the base game's deal (so a seed deals
    the cards and nobles it deals without zones): a pile takes every piece of its kind, each showing
    one of its faces at random, shuffled; a display or row its size from the top of its source (or,
    without a source, the kind's pieces, shuffled: the rest are out of the game). `check` lets one
    zone of a kind at most be dealt from the kind itself (E560): each component in one place. A
    display that starts empty has its slots, empty; other zones start empty lists."""
    for zone in ZONES:
        if zone.per_player or zone.start == _BASE:
            continue
        if zone.start == "empty":
            if zone.shape == DISPLAY:
                setattr(game, zone.attribute, [None] * zone.sizes[game._n])
            continue
        if zone.start == "all":
            pile = _pieces_shown(zone.kind, rng)
            _shuffle(rng, pile)
            setattr(game, zone.attribute, pile)
            continue
        size = zone.sizes[game._n]
        if zone.source >= 0:
            pile = getattr(game, ZONES[zone.source].attribute)
        else:
            pile = _pieces_shown(zone.kind, rng)
            _shuffle(rng, pile)
            pile.reverse()  # the first of the shuffled order is dealt first
        dealt = [pile.pop() for _ in range(min(size, len(pile)))]
        setattr(game, zone.attribute, dealt + [None] * (size - len(dealt)) if zone.shape == DISPLAY else dealt)


def _zone_lists(game: Game, zi: int) -> list[list[Any]]:
    """The lists of zone `zi`: one, or one per seat."""
    zone = ZONES[zi]
    value = getattr(game, zone.attribute)
    return value if zone.per_player else [value]


def _base_counts(game: Game, zone: Zone, seat: int, x: int, sign: int) -> None:
    """Keep the base game's counts as component `x` enters (sign 1) or leaves (-1) one of its places:
    a purchased card gives its owner its bonus and points, a visiting noble its points."""
    if zone.attribute == "_bought":
        game._bon[seat][CARD_BONUS[x]] += sign
        game._pts[seat] += sign * CARD_POINTS[x]
    elif zone.attribute == "_nob":
        game._pts[seat] += sign * NOBLE_POINTS[x]


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
    """Put component `x` into zone `zi` (a per-player zone: `seat`'s): a display's first empty
    slot, a pile's top, a row's or holding's end. RuleError, naming the effect, when it is full."""
    zone = ZONES[zi]
    items = getattr(game, zone.attribute)[seat] if zone.per_player else getattr(game, zone.attribute)
    if not _zone_room(game, zi, items):
        raise RuleError("zone_full", {"located": located, "zone": zone.name})
    if zone.shape == DISPLAY:
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
    items = getattr(game, zone.attribute)
    if not _zone_room(game, zi, items[seat] if zone.per_player else items):
        raise RuleError("zone_full", {"located": located, "zone": zone.name})
    _zone_remove(game, zone.kind, x, located)
    _zone_put(game, zi, seat, x, located)


def _zone_draw(game: Game, pi: int, zi: int, seat: int, located: str) -> None:
    """draw(P, Z): the top of pile `pi` to zone `zi`; RuleError when the pile is empty."""
    pile = getattr(game, ZONES[pi].attribute)
    if not pile:
        raise RuleError("pile_empty", {"located": located, "pile": ZONES[pi].name})
    x = pile[-1]
    _zone_put(game, zi, seat, x, located, private=True)
    pile.pop()


def _zone_reveal(game: Game, pi: int, zi: int) -> None:
    """reveal(P, D): the top of pile `pi` into display or row `zi`; nothing when the pile is empty or D full."""
    pile = getattr(game, ZONES[pi].attribute)
    items = getattr(game, ZONES[zi].attribute)
    if pile and _zone_room(game, zi, items):
        _zone_put(game, zi, 0, pile.pop(), "")


def _zone_refill(game: Game, zi: int) -> None:
    """refill(D): every empty place of display or row `zi` from its source, while the pile lasts."""
    source = ZONES[zi].source
    pile = getattr(game, ZONES[source].attribute)
    while True:
        before = len(pile)
        _zone_reveal(game, source, zi)
        if len(pile) == before:
            return


def _zone_to_bottom(game: Game, x: int | None, pi: int, located: str) -> None:
    """to_bottom(x, P): `x` to the bottom of pile `pi` (drawn last)."""
    if x is None:
        raise RuleError("nothing_to_move", {"located": located})
    _zone_remove(game, ZONES[pi].kind, x, located)
    getattr(game, ZONES[pi].attribute).insert(0, x)


def _zone_discard(game: Game, kind: str, x: int | None, located: str) -> None:
    """discard(x): `x` out of the game."""
    if x is None:
        raise RuleError("nothing_to_discard", {"located": located})
    if _zone_remove(game, kind, x, located, strict=False) and kind == "cards":
        _card_out(game, x)


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
        zone.name: _shown_zone(zone, getattr(game, zone.attribute), whole) for zone in _OWN_ZONES if not zone.per_player
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
            [(("zones", zone.name), shared[zone.name])]
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
        else:
            items = data["zones"][zone.name]
            setattr(game, zone.attribute, list(reversed(items)) if zone.shape in _FACE_DOWN else list(items))
