"""The spec's own zones (rulespec/README.md, Zones): the deal, the moves, and the zones' part of a
saved state (to_json, observation, from_json).

Part of the runtime of an engine whose spec declares zones, pasted after the other modules (an
engine without zones holds none of it, so its text is what it was). Generic over the tables
the template writes from the spec: _ZONES, one entry per zone in declaration order (its name,
kind, shape, one per player?, Game attribute, start, size per player count, source zone index
or -1, limit, and the Game attribute of its privately drawn components or ""), and
_KIND_PIECES (per kind: its number of components, and
the faces of each piece in table order: a kind without faces_of has one face per piece).

A pile is a list whose end is its top (drawn with pop, as the decks are); a display is a list
of slots, None where empty; a row and a holding are lists in order. A per-player zone is a
list of those, one per seat. A private_when_drawn holding keeps, beside it (its own attribute),
the components its owner drew unseen by the others. A component is its id: its row of the kind's table.
"""
from .errors import RuleError, _shown
from .game import _shuffle
from .spec import _KIND_PIECES, _ZONES

# ---- engine text: from here on, this module is pasted into the engine of a spec with zones ----


def _below(rng, n):
    """A whole number in 0..n-1 drawn with getrandbits and rejection, as _shuffle draws (the same on
    every Python, unlike randrange, whose method may change)."""
    k = n.bit_length()
    j = rng.getrandbits(k)
    while j >= n:
        j = rng.getrandbits(k)
    return j


def _pieces_shown(kind, rng):
    """Every piece of `kind`, each showing one of its faces at random (one face: no draw), in table order."""
    return [piece[_below(rng, len(piece))] if len(piece) > 1 else piece[0] for piece in _KIND_PIECES[kind][1]]


def _deal_zones(game, rng):
    """Deal every zone with a start, in declaration order, after the base game's deal (so a seed deals
    the cards and nobles it deals without zones): a pile takes every piece of its kind, each showing
    one of its faces at random, shuffled; a display or row its size from the top of its source (or,
    without a source, the kind's pieces, shuffled: the rest are out of the game). `check` lets one
    zone of a kind at most be dealt from the kind itself (E560): each component in one place. A
    display that starts empty has its slots, empty; other zones start empty lists."""
    for _name, kind, shape, per_player, attr, start, sizes, source, _limit, _private in _ZONES:
        if per_player:
            continue
        if start == "empty":
            if shape == "display":
                setattr(game, attr, [None] * sizes[game._n])
            continue
        if start == "all":
            pile = _pieces_shown(kind, rng)
            _shuffle(rng, pile)
            setattr(game, attr, pile)
            continue
        size = sizes[game._n]
        if source >= 0:
            pile = getattr(game, _ZONES[source][4])
        else:
            pile = _pieces_shown(kind, rng)
            _shuffle(rng, pile)
            pile.reverse()  # the first of the shuffled order is dealt first
        dealt = [pile.pop() for _ in range(min(size, len(pile)))]
        setattr(game, attr, dealt + [None] * (size - len(dealt)) if shape == "display" else dealt)


def _zone_lists(game, zi):
    """The lists of zone `zi`: one, or one per seat."""
    zone = _ZONES[zi]
    value = getattr(game, zone[4])
    return value if zone[3] else [value]


def _zone_remove(game, kind, x, located, strict=True):
    """Take component `x` out of whatever zone holds it (a display's slot is left empty); when no zone
    does, a RuleError (strict: a component out of the game, a face not dealt or one discarded, is
    never moved back in), or nothing (discard: it is out already)."""
    for zi, zone in enumerate(_ZONES):
        if zone[1] != kind:
            continue
        for seat, items in enumerate(_zone_lists(game, zi)):
            if x in items:
                if zone[2] == "display":
                    items[items.index(x)] = None
                else:
                    items.remove(x)
                if zone[9]:
                    hidden = getattr(game, zone[9])[seat]
                    if x in hidden:
                        hidden.remove(x)
                return
    if strict:
        raise RuleError(f"{located}: {kind} {x} is out of the game (in no zone)")


def _zone_shown(game, kind, seat):
    """The components of `kind` that `seat` sees face up in play, by id (None for the others): in a
    display, a row or a holding; not in a pile, not out of the game, not drawn unseen by another
    seat. A choice from a kind that zones hold offers these (one action per component)."""
    shown = [None] * _KIND_PIECES[kind][0]
    for zi, zone in enumerate(_ZONES):
        if zone[1] != kind or zone[2] == "pile":
            continue
        for s, items in enumerate(_zone_lists(game, zi)):
            hidden = getattr(game, zone[9])[s] if zone[9] and s != seat else ()
            for x in items:
                if x is not None and x not in hidden:
                    shown[x] = x
    return shown


def _zone_room(game, zi, items):
    """Can zone `zi` (its list `items`) take one more component?"""
    shape, limit = _ZONES[zi][2], _ZONES[zi][8]
    if shape == "display":
        return None in items
    if shape == "row":
        return len(items) < _ZONES[zi][6][game._n]
    return not limit or len(items) < limit


def _zone_put(game, zi, seat, x, located, private=False):
    """Put component `x` into zone `zi` (a per-player zone: `seat`'s): a display's first empty
    slot, a pile's top, a row's or holding's end. RuleError, naming the effect, when it is full."""
    zone = _ZONES[zi]
    items = getattr(game, zone[4])[seat] if zone[3] else getattr(game, zone[4])
    if not _zone_room(game, zi, items):
        raise RuleError(f"{located}: zone {zone[0]!r} is full")
    if zone[2] == "display":
        items[items.index(None)] = x
    else:
        items.append(x)
    if private and zone[9]:
        getattr(game, zone[9])[seat].append(x)


def _zone_move(game, x, zi, seat, located):
    """move(x, Z): `x` from where it is to zone `zi`."""
    if x is None:
        raise RuleError(f"{located}: there is no component to move")
    if not _zone_room(game, zi, getattr(game, _ZONES[zi][4])[seat] if _ZONES[zi][3] else getattr(game, _ZONES[zi][4])):
        raise RuleError(f"{located}: zone {_ZONES[zi][0]!r} is full")
    _zone_remove(game, _ZONES[zi][1], x, located)
    _zone_put(game, zi, seat, x, located)


def _zone_draw(game, pi, zi, seat, located):
    """draw(P, Z): the top of pile `pi` to zone `zi`; RuleError when the pile is empty."""
    pile = getattr(game, _ZONES[pi][4])
    if not pile:
        raise RuleError(f"{located}: pile {_ZONES[pi][0]!r} is empty")
    x = pile[-1]
    _zone_put(game, zi, seat, x, located, private=True)
    pile.pop()


def _zone_reveal(game, pi, zi):
    """reveal(P, D): the top of pile `pi` into display or row `zi`; nothing when the pile is empty or D full."""
    pile = getattr(game, _ZONES[pi][4])
    items = getattr(game, _ZONES[zi][4])
    if pile and _zone_room(game, zi, items):
        _zone_put(game, zi, 0, pile.pop(), "")


def _zone_refill(game, zi):
    """refill(D): every empty place of display or row `zi` from its source, while the pile lasts."""
    while True:
        before = len(getattr(game, _ZONES[_ZONES[zi][7]][4]))
        _zone_reveal(game, _ZONES[zi][7], zi)
        if len(getattr(game, _ZONES[_ZONES[zi][7]][4])) == before:
            return


def _zone_to_bottom(game, x, pi, located):
    """to_bottom(x, P): `x` to the bottom of pile `pi` (drawn last)."""
    if x is None:
        raise RuleError(f"{located}: there is no component to move")
    _zone_remove(game, _ZONES[pi][1], x, located)
    getattr(game, _ZONES[pi][4]).insert(0, x)


def _zone_discard(game, kind, x, located):
    """discard(x): `x` out of the game."""
    if x is None:
        raise RuleError(f"{located}: there is no component to discard")
    _zone_remove(game, kind, x, located, strict=False)


def _shown_zone(zone, items, whole):
    """A zone as a state shows it: a pile top first (to an observer: its count), else its list."""
    if zone[2] == "pile":
        return list(reversed(items)) if whole else len(items)
    return list(items)


def _zones_state(game, state, observer):
    """The zones' part of a state: top-level 'zones' (shared zones) and each seat's 'zones' (its own);
    another seat's privately drawn components show as null (as blind reserves do)."""
    whole = observer is None
    state["zones"] = {zone[0]: _shown_zone(zone, getattr(game, zone[4]), whole) for zone in _ZONES if not zone[3]}
    for p, seat in enumerate(state["seats"]):
        mine = {}
        for zone in _ZONES:
            if not zone[3]:
                continue
            items = getattr(game, zone[4])[p]
            hidden = getattr(game, zone[9])[p] if zone[9] else ()
            if whole or p == observer or not hidden:
                mine[zone[0]] = list(items)
            else:
                mine[zone[0]] = [None if x in hidden else x for x in items]
            if zone[9] and (whole or p == observer):
                mine[zone[0] + "_private"] = list(hidden)
        seat["zones"] = mine


def _zone_problems(data, n):
    """Every problem of the zones' part of a state dict, as (path, sentence) pairs."""
    out = []
    shared = data.get("zones")
    seats = data.get("seats")
    if not isinstance(shared, dict) or set(shared) != {z[0] for z in _ZONES if not z[3]}:
        names = ", ".join(z[0] for z in _ZONES if not z[3]) or "none"
        return [(("zones",), f"'zones' must be an object with the shared zones ({names})")]
    if not isinstance(seats, list) or len(seats) != n or not all(isinstance(s, dict) for s in seats):
        return out  # the seats' own problems are reported with them
    own = [z[0] for z in _ZONES if z[3]]
    allowed = set(own) | {z[0] + "_private" for z in _ZONES if z[3] and z[9]}
    tables = {}  # seat -> its 'zones' object, for the seats whose object is sound
    for p, seat in enumerate(seats):
        table = seat.get("zones", {})
        odd = sorted((set(own) - set(table)) | (set(table) - allowed)) if isinstance(table, dict) else ()
        if isinstance(table, dict) and not odd:
            tables[p] = table
        else:
            shown = (f"{'has no' if odd[0] in own else 'has an unknown zone'} {odd[0]!r}" if odd
                     else f"is {_shown(table)}")
            out.append((("seats", p, "zones"), f"seats[{p}].zones must be an object with the seat's zones "
                        f"({', '.join(own) or 'none'}); it {shown}"))
    where = {}  # component (kind, id) -> the path that holds it
    for zone in _ZONES:
        kind, count = zone[1], _KIND_PIECES[zone[1]][0]
        places = [(("zones", zone[0]), shared[zone[0]])] if not zone[3] else [
            (("seats", p, "zones", zone[0]), tables[p][zone[0]]) for p in range(n) if p in tables]
        for path, items in places:
            if not isinstance(items, list):
                out.append((path, f"{'.'.join(map(str, path))} must be a list of {kind} ids"))
                continue
            for i, x in enumerate(items):
                if x is None and zone[2] == "display":
                    continue
                if type(x) is not int or not 0 <= x < count:
                    out.append((path + (i,), f"{'.'.join(map(str, path))}: unknown {kind} id {_shown(x)} "
                                f"({kind} are 0 to {count - 1})"))
                elif (kind, x) in where:
                    out.append((path + (i,), f"{kind} {x} appears more than once (at {where[kind, x]} too)"))
                else:
                    where[kind, x] = ".".join(map(str, path))
            size = zone[6].get(n, 0) if zone[2] in ("display", "row") else zone[8]
            if zone[2] == "display" and len(items) != size:
                out.append((path, f"{'.'.join(map(str, path))} has {len(items)} slots, {n} players have {size}"))
            elif size and len(items) > size:
                out.append((path, f"{'.'.join(map(str, path))} holds {len(items)}, at most {size}"))
            if zone[9] and zone[3]:
                private = tables[path[1]].get(zone[0] + "_private", [])
                if not isinstance(private, list) or any(x not in items for x in private):
                    out.append((path, f"{'.'.join(map(str, path))}_private must list components of the holding"))
    for kind, (_count, faces) in _KIND_PIECES.items():
        for piece in faces:
            shown = [x for x in piece if (kind, x) in where]
            if len(shown) > 1:
                out.append((("zones",), f"{kind} {shown[0]} and {shown[1]} are two faces of one piece: "
                            "at most one of them is in play"))
    return out


def _load_zones(game, data):
    """The zones of a state dict that _zone_problems found sound."""
    for zone in _ZONES:
        if zone[3]:
            setattr(game, zone[4], [list(seat["zones"][zone[0]]) for seat in data["seats"]])
            if zone[9]:
                setattr(game, zone[9],
                        [list(seat["zones"].get(zone[0] + "_private", [])) for seat in data["seats"]])
        else:
            items = data["zones"][zone[0]]
            setattr(game, zone[4], list(reversed(items)) if zone[2] == "pile" else list(items))
