"""Determinization: a game consistent with what a seat sees, everything hidden dealt again.

What the MCTS plays its playouts on: the deck order, other seats' blind reserves, the spec's
own hidden zones and other seats' private variables, dealt or guessed from what the seat has
not seen, and rebuilt with the engine's ``from_json``.
"""

from __future__ import annotations

import random
from typing import Any

from compiler.emit.runtime.meta import DISPLAY

from .engine_facts import facts


def determinize(game, player: int, rng: random.Random, module):
    """A game consistent with what `player` sees, with everything hidden dealt again at random.

    Reads ``game.observation(player)`` as the engines write it: a deck is a count of
    cards (or a list whose hidden entries are ``None``), another player's blind reserve
    is ``None`` in its ``reserved`` list, and that seat's ``blind`` list gives the level
    of each blind reserve in order (when it does not, the levels are inferred from the
    cards unaccounted for). The cards `player` has not seen are shuffled by level into
    those places, the spec's own hidden zones are dealt again (_determinize_zones), the other
    seats' private variables guessed (_determinize_vars), and the result is rebuilt with the
    engine's ``from_json``.
    """
    obs = game.observation(player)
    f = facts(module)
    seen: set[int] = set()
    for row in obs["market"].values():
        seen.update(c for c in row if isinstance(c, int))
    decks = obs["decks"]
    for key, deck in list(decks.items()):
        if isinstance(deck, int):
            decks[key] = deck = [None] * deck
        seen.update(c for c in deck if isinstance(c, int))
    for cards in (obs.get("out_of_play") or {}).values():  # out of the game (a discarded card): never dealt again
        seen.update(c for c in cards if isinstance(c, int))
    seen.update(_zoned_cards(module, obs))  # a series of the cards face up in its own rows: seen too
    hidden: list[tuple[int, int]] = []  # (seat, position in its reserved list)
    given_levels: dict[int, list[int]] = {}
    for s, seat in enumerate(obs["seats"]):
        seen.update(seat["purchased"])
        seen.update(c for c in seat["reserved"] if isinstance(c, int))
        mine = [i for i, c in enumerate(seat["reserved"]) if c is None]
        hidden += [(s, i) for i in mine]
        blind = seat.get("blind")
        if mine and isinstance(blind, list) and len(blind) == len(mine) and all(isinstance(x, int) for x in blind):
            given_levels[s] = list(blind)
    unseen: dict[int, list[int]] = {}
    for c in f.card_ids:
        if c not in seen:
            unseen.setdefault(f.card_level[c], []).append(c)
    for level in sorted(unseen):
        rng.shuffle(unseen[level])
    # Levels of the hidden reserves: as given, or what the decks cannot account for.
    deck_need = {int(k): sum(1 for c in d if c is None) for k, d in decks.items()}
    spare = []
    for level in sorted(unseen):
        spare += [level] * max(0, len(unseen[level]) - deck_need.get(level, 0))
    for levels in given_levels.values():
        for level in levels:
            if level in spare:
                spare.remove(level)
    rng.shuffle(spare)
    filled: dict[int, list[int]] = {}
    counters = {s: 0 for s in given_levels}
    for s, i in hidden:
        if s in given_levels:
            level = given_levels[s][counters[s]]
            counters[s] += 1
        else:
            level = spare.pop()
        card = unseen[level].pop()
        obs["seats"][s]["reserved"][i] = card
        filled.setdefault(s, []).append(card)
    for s, cards in filled.items():
        if s in given_levels:
            obs["seats"][s]["blind"] = cards
    for key, deck in decks.items():
        level = int(key)
        for i, c in enumerate(deck):
            if c is None:
                deck[i] = unseen[level].pop()
    _determinize_zones(module, obs, rng)
    _determinize_vars(module, obs)
    return module.from_json(obs)


def _zoned_cards(module: Any, obs: dict[str, Any]) -> set[int]:
    """The base cards `obs` shows in the spec's own zones of cards (a series' rows, `series:` in the
    spec; a face-down pile shows its count only, a hidden component None): nothing without such zones."""
    out: set[int] = set()
    for zone in getattr(module, "ZONES", ()):
        if zone.kind != "cards":
            continue
        tables = [seat.get("zones", {}) for seat in obs["seats"]] if zone.per_player else [obs.get("zones", {})]
        for table in tables:
            value = table.get(zone.name) if isinstance(table, dict) else None
            lists = value if isinstance(value, list) and any(isinstance(x, list) for x in value) else [value]
            for items in lists:
                if isinstance(items, list):
                    out.update(x for x in items if isinstance(x, int))
    return out


def _determinize_vars(module, obs: dict) -> None:
    """Another seat's private variables, null in an observation, given their initial value: nothing
    tells what they became (no rule of the acting player reads them: E558), so every world guesses
    alike. Nothing for an engine without private variables."""
    for var in getattr(module, "VARIABLES", ()):
        if var.per_player and var.private:
            for seat in obs["seats"]:
                if seat["vars"].get(var.name) is None:
                    seat["vars"][var.name] = _initial_saved(module, var)


def _initial_saved(module: Any, var: Any) -> Any:
    """A variable's initial value as a saved game writes it; a keyed one's (type by:KEY:N:TYPE), entry by
    entry, each a value of TYPE."""
    if var.type.startswith("by:"):
        entry = var._replace(type=var.type.split(":", 3)[3])
        return [module.saved_value(entry, x) for x in var.initial]
    return module.saved_value(var, var.initial)


def _base_seen(obs: dict[str, Any]) -> set[tuple[str, int]]:
    """The base cards and nobles in the base game's part of an observation (the rows, the decks as dealt
    again, the seats' cards and nobles): a zone of the spec's that holds base components (the nobles'
    box) is dealt from the others only."""
    seats = obs["seats"]
    nobles = [*obs.get("nobles", ()), *(x for seat in seats for x in seat.get("nobles", ()))]
    cards = [c for row in obs["market"].values() for c in row] + [c for deck in obs["decks"].values() for c in deck]
    cards += [c for seat in seats for c in (*seat["purchased"], *seat["reserved"])]
    return {("nobles", x) for x in nobles if isinstance(x, int)} | {("cards", c) for c in cards if isinstance(c, int)}


def _determinize_zones(module, obs: dict, rng: random.Random) -> None:
    """The spec's own zones in an observation, their hidden parts dealt again (state format 2): a
    face-down pile (shown as its count) and another seat's privately drawn components (None in its
    holding) take pieces of their kind that `player` has not seen, each showing one of its faces
    at random, as the deal does; a zone split by a group column (ZONE_GROUPS) group by group, each
    group's pile dealt pieces of that group. Nothing for an engine without zones."""
    zones = getattr(module, "ZONES", ())
    if not zones:
        return
    split = getattr(module, "ZONE_GROUPS", {})
    places = [_places(zone, obs["zones"], split) for zone in zones if not zone.per_player]
    places += [[(zone, seat["zones"], zone.name, 0)] for zone in zones if zone.per_player for seat in obs["seats"]]
    flat = [place for group in places for place in group]
    seen = {
        (zone.kind, x)
        for zone, table, key, _ in flat
        if isinstance(_at(table, key), list)
        for x in _at(table, key)
        if isinstance(x, int)
    }
    seen |= _base_seen(obs)
    spare = {
        kind: [piece for piece in module.KINDS[kind].pieces if not any((kind, x) in seen for x in piece)]
        for kind in dict.fromkeys(zone.kind for zone in zones)
    }
    for pieces in spare.values():
        rng.shuffle(pieces)

    def draw(zone: Any, group: int) -> int:
        pieces = spare[zone.kind]
        if not group:
            piece = pieces.pop()
        else:  # the last spare piece with a face of the group, showing one of those faces
            kind = module.KINDS[zone.kind]
            at = next(i for i, c in enumerate(kind.columns) if c.name == split[zone.name][0])
            last = max(i for i, p in enumerate(pieces) if any(kind.rows[x][at] == group for x in p))
            piece = tuple(x for x in pieces.pop(last) if kind.rows[x][at] == group)
        face: int = piece[rng.randrange(len(piece))]
        return face

    for zone, table, key, group in flat:
        items = _at(table, key)
        if isinstance(items, int):  # a face-down pile: its count only
            table[key] = [draw(zone, group) for _ in range(items)]
        elif isinstance(items, list) and zone.shape != DISPLAY:  # a display's None is an empty slot
            table[key] = [draw(zone, group) if x is None else x for x in items]


def _places(zone: Any, table: dict[str, Any], split: dict[str, Any]) -> list[tuple[Any, Any, Any, int]]:
    """A shared zone's places in an observation: (zone, container, key, group); for a zone split by a
    group column, one per group (its list's index in the zone's value, the group from 1)."""
    value = table.get(zone.name)
    if zone.name not in split or not isinstance(value, list):
        return [(zone, table, zone.name, 0)]
    return [(zone, value, g, g + 1) for g in range(len(value))]


def _at(table: Any, key: Any) -> Any:
    """The entry `key` of a container of an observation (a dict's by name, a split zone's list's by index)."""
    return table.get(key) if isinstance(table, dict) else table[key]
