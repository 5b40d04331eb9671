"""The observation of an RL environment: ``game.observation(p)`` as a float32 vector.

:class:`Encoder` lays the vector out from the engine's constants alone (gem names, levels,
player counts, market sizes, nobles, reserve limits, steps, and a spec's own declared state
and zones), so any spec works, and gives the Gymnasium space with its exact bounds. Each
seat sees what it may: a face-down pile as its count, another seat's private value or
privately drawn component as hidden. Both environments (:mod:`playtest.rl.envs`) encode
with it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from gymnasium import spaces

from compiler.emit.runtime.meta import BAG, DISPLAY, HOLDING, PILE, ROW
from compiler.language import ColumnType
from compiler.language.places import BASE_PLACE

UNBOUNDED = float(np.finfo(np.float32).max)  # the upper bound of a counter with no limit (rounds, turns)


@dataclass(frozen=True)
class Field:
    name: str
    start: int
    stop: int


class Encoder:
    """Turns ``game.observation(p)`` into a float32 vector; every size comes from the engine.

    Layout (seats are relative: the observer first, then the following seats in turn order):

    - ``phase``: one-hot over "action", "over" and the engine's DECISIONS (a step's name);
    - ``to_act``: one-hot of the relative seat that must decide (all 0 when the game is over);
    - ``round``, ``ending`` (1 once the end is triggered, the last round being played);
    - ``supply``: tokens per colour (COLOURS);
    - ``deck``: cards left per level (LEVELS);
    - ``market[L.S]``: each face-up slot as a card (below);
    - ``noble[i]``: each noble of the row: present, requirement per gem, points;
    - ``pending``: one-hot over NUM_ACTIONS of the purchase waiting for its payment, when
      the engine asks for payments in a step (all 0 otherwise);
    - ``seat[k]``: tokens per colour, bonus per gem, prestige, cards bought, nobles, turns
      begun, reserved cards, then each reserved slot as a card (another seat's blind
      reserve is present and hidden, with its level only);
    - for an engine whose spec declares state (``VARIABLES``), last: ``var[NAME]`` for each shared
      variable, then ``seat[k].var[NAME]`` for each per-player one, seats relative as above.
      A number is its value (unbounded either way), a flag 0 or 1, a colour one-hot over the
      colours (all 0: none), a player one-hot over the relative seats, a set of colours 1 for
      each colour in it, a set of components 1 for each component of its kind in it (in the
      order of the kind's table); a private variable has a first value of 1 when it is hidden;
    - for an engine whose spec declares zones (``ZONES``), after the state: each shared zone in
      declaration order, then each per-player zone for each relative seat (as variables are).
      A pile is ``zone[NAME]``: its count only, never its contents or order (what a seat sees of
      a face-down pile). A display, a row and a holding are fixed slots, each a component block
      (below): ``zone[NAME][S]`` or ``seat[k].zone[NAME][S]`` from 1; a display or row has its
      size for the player count (a display's empty slot is all 0, a row is in order and closes
      up), a holding its ``limit``, or the number of pieces of its kind without one. A zone
      split by a group column (``ZONE_GROUPS``) is one such part per group, ``zone[NAME[G]]``.

    A component of a spec's own kind is: present, hidden (another seat's component drawn with
    ``private_when_drawn``: present and hidden, nothing else), then its kind's columns in order
    (``KINDS[kind].columns``): a number its value, a table by gem colour a value per gem, a gem or a
    colour one-hot over the gems or colours (all 0: none), a keyword one-hot over the column's
    values in table order; a prose column adds nothing.

    A card is: present, hidden, level (one-hot over LEVELS), bonus (one-hot over GEMS),
    cost per gem, points. Values are raw counts; the space's bounds are exact where the
    rules bound them (e.g. a colour's tokens by its setup supply) and float32's maximum
    for the counters of rounds and turns.
    """

    def __init__(self, module, players: int, reserved_slots: int | None = None):
        self.module = module
        self.players = players
        phases = self._read_setup(module, players, reserved_slots)
        self._read_maxima(module)
        cards = list(module.CARDS)
        prestige_max = sum(c.points for c in cards) + sum(n.points for n in module.NOBLES)
        if hasattr(module, "_xp"):  # the spec's prestige sources add prestige the cards do not bound
            prestige_max = UNBOUNDED

        highs: list[float] = []
        self.fields: list[Field] = []

        def field(name: str, bounds: list[float]) -> None:
            self.fields.append(Field(name, len(highs), len(highs) + len(bounds)))
            highs.extend(bounds)

        card_bounds = (
            [1.0, 1.0]
            + [1.0] * len(self.levels)
            + [1.0] * len(self.gems)
            + [float(x) for x in self.cost_max]
            + [float(self.points_max)]
        )
        self.card_size = len(card_bounds)
        field("phase", [1.0] * len(phases))
        field("to_act", [1.0] * players)
        field("round", [UNBOUNDED])
        field("ending", [1.0])
        field("supply", self.supply_max)
        field("deck", [float(x) for x in self.level_size])
        for lv, n in zip(self.levels, self.slots, strict=True):
            for s in range(n):
                field(f"market[{lv}.{s + 1}]", card_bounds)
        for i in range(self.noble_slots):
            field(f"noble[{i + 1}]", [1.0] + [float(x) for x in self.require_max] + [float(self.noble_points_max)])
        field("pending", [1.0] * self.num_actions)
        for k in range(players):
            field(
                f"seat[{k}]",
                self.supply_max
                + [float(x) for x in self.bonus_max]
                + [float(prestige_max), float(len(cards)), float(len(self.nobles)), UNBOUNDED, float(len(cards))]
                + card_bounds * self.reserved_slots,
            )
        lows = [0.0] * len(highs)
        self.core_size = len(highs)  # the fields of every engine; the spec's own state and zones follow
        self._var_layout(field, highs, lows)
        self._zone_layout(field, highs, lows)
        self._turn_layout(field, highs, lows)
        self.size = len(highs)
        self._make_blocks()
        self.low = np.array(lows, dtype=np.float32)
        self.high = np.array(highs, dtype=np.float32)

    def _read_setup(self, module, players: int, reserved_slots: int | None) -> list[str]:
        """The engine's names and the sizes its setup gives (market slots, noble row, every
        token of a colour in play), the reserved slots described; returns the phases, in the
        order of the vector's one-hot."""
        self.colours = tuple(module.COLOURS)
        self.gems = tuple(module.GEMS)
        self.levels = tuple(module.LEVELS)
        self.cards = {c.id: c for c in module.CARDS}
        self.nobles = {n.id: n for n in module.NOBLES}
        self.num_actions = int(module.NUM_ACTIONS)
        probe = module.new_game(players, seed=0)  # the setup: market slots, noble row, supply
        self.slots = [len(row) for row in probe.market]
        self.noble_slots = len(probe.noble_row)
        # every token of a colour in play: the supply's and what setup already gave the seats
        self.supply_max = [float(x + sum(held[c] for held in probe.tokens)) for c, x in enumerate(probe.supply)]
        if reserved_slots is None:
            reserved_slots = int(getattr(module, "MAX_RESERVED", 0) or 0)
            if not reserved_slots:
                raise ValueError(
                    f"the spec '{module.SPEC_NAME}' sets no bound on reserved cards: pass "
                    "reserved_slots=N (the reserved cards beyond N are counted, not described)"
                )
        self.reserved_slots = reserved_slots
        phases = ["action", "over"] + [d for d in module.DECISIONS if d not in ("action", "over")]
        self.phase_index = {p: i for i, p in enumerate(phases)}
        self.level_index = {lv: i for i, lv in enumerate(self.levels)}
        self.gem_index = {g: i for i, g in enumerate(self.gems)}
        return phases

    def _read_maxima(self, module) -> None:
        """The most each card and noble value can be (the space's bounds), and the cards per level and bonus."""
        cards = list(module.CARDS)
        self.cost_max = [max((c.cost[g] for c in cards), default=0) for g in range(len(self.gems))]
        self.points_max = max((c.points for c in cards), default=0)
        self.require_max = [max((n.requires[g] for n in module.NOBLES), default=0) for g in range(len(self.gems))]
        self.noble_points_max = max((n.points for n in module.NOBLES), default=0)
        self.level_size = [sum(1 for c in cards if c.level == lv) for lv in self.levels]
        self.bonus_max = [sum(1 for c in cards if self._bonus(c) == g) for g in range(len(self.gems))]

    def _var_layout(self, field, highs: list[float], lows: list[float]) -> None:
        """The spec's declared state's fields (see the class docstring): self.shared_vars and
        self.own_vars hold (name, tag, private, start) of each variable's block (the observer's,
        for a per-player one: the next seat's follows)."""
        self.shared_vars: list[tuple[str, str, bool, int]] = []
        self.own_vars: list[tuple[str, str, bool, int]] = []
        for var in getattr(self.module, "VARIABLES", ()):
            private = bool(var.private and var.per_player)
            for k in range(self.players if var.per_player else 1):
                bounds = self._var_bounds(var.type, private)
                start = len(highs)
                field(f"seat[{k}].var[{var.name}]" if var.per_player else f"var[{var.name}]", [hi for _, hi in bounds])
                lows.extend(lo for lo, _ in bounds)
                if k == 0:
                    (self.own_vars if var.per_player else self.shared_vars).append((var.name, var.type, private, start))

    def _turn_layout(self, field, highs: list[float], lows: list[float]) -> None:
        """The turn's own fields, in the engines of the specs that have them (the others' vectors are
        as they were): a flag per action that does not end the turn, taken this turn (`taken`), then
        the extra turn one-hot over EXTRA_TURN_STATES (none, owed, playing)."""
        module = self.module
        self.keeping = [module.DECISIONS[d] for d in getattr(module, "_KEEPS_TURN", ())]
        self.extra_states = tuple(module.EXTRA_TURN_STATES) if getattr(module, "_EXTRA_TURNS", False) else ()
        self.turn_start = len(highs)
        if self.keeping:
            field("taken", [1.0] * len(self.keeping))
        if self.extra_states:
            field("extra_turn", [1.0] * len(self.extra_states))
        lows.extend([0.0] * (len(highs) - len(lows)))

    def _encode_turn(self, out: list, obs: dict) -> None:
        """The turn's own fields (see _turn_layout), from `turn_start`."""
        i = self.turn_start
        taken = obs.get("taken", ())
        for k, name in enumerate(self.keeping):
            out[i + k] = 1.0 if name in taken else 0.0
        i += len(self.keeping)
        if self.extra_states:
            out[i + self.extra_states.index(obs.get("extra_turn", "none"))] = 1.0

    def _make_blocks(self) -> None:
        """Each card's and noble's block of the vector, computed once (see encode)."""
        self._card_blocks = {c: self._card_vector(c) for c in self.cards}
        self._hidden_blocks = {lv: self._card_vector(None, lv) for lv in (*self.levels, None)}
        self._noble_blocks = {n.id: (1.0, *map(float, n.requires), float(n.points)) for n in self.nobles.values()}
        self._noble_size = len(self.gems) + 2
        self._card_points = {c.id: c.points for c in self.cards.values()}
        self._card_bonus = {c.id: self._bonus(c) for c in self.cards.values()}

    def _zone_layout(self, field, highs: list[float], lows: list[float]) -> None:
        """The zones' fields (see the class docstring): self.shared_zones holds (zone index, start,
        slots) of each shared zone, self.own_zones the same for per-player zones (the observer's
        block; the next seat's follows at start + slots * block size); each kind's component
        blocks are computed once."""
        module = self.module
        # the base game's places are encoded with the base game's state (their `start` says so)
        zones = tuple(z for z in getattr(module, "ZONES", ()) if z.start != BASE_PLACE)
        self.zones = zones
        self.shared_zones: list[tuple[int, int, int, int]] = []  # (zone index, start, slots, group or 0)
        self.own_zones: list[tuple[int, int, int]] = []
        self._kind_blocks: dict[str, tuple[tuple[float, ...], ...]] = {}
        self._kind_hidden: dict[str, tuple[float, ...]] = {}
        kind_bounds: dict[str, list[float]] = {}
        for zone in zones:
            if zone.kind not in kind_bounds:
                kind_bounds[zone.kind] = self._kind_layout(zone.kind)
        lows_before = len(highs)
        split = getattr(module, "ZONE_GROUPS", {})
        for zi, zone in enumerate(zones):
            if zone.per_player:
                continue
            groups = range(1, max(split[zone.name][1]) + 1) if zone.name in split else (0,)
            for group in groups:  # a zone split by a group column: each group's part, `zone[NAME[g]]`
                name = f"{zone.name}[{group}]" if group else zone.name
                start, slots = len(highs), self._zone_slots(zone)
                if zone.shape in (PILE, BAG):
                    field(f"zone[{name}]", [float(len(module.KINDS[zone.kind].pieces))])
                for s in range(slots):
                    field(f"zone[{name}][{s + 1}]", kind_bounds[zone.kind])
                self.shared_zones.append((zi, start, slots, group))
        for zi, zone in enumerate(zones):
            if not zone.per_player:
                continue
            start, slots = len(highs), self._zone_slots(zone)
            for k in range(self.players):
                for s in range(slots):
                    field(f"seat[{k}].zone[{zone.name}][{s + 1}]", kind_bounds[zone.kind])
            self.own_zones.append((zi, start, slots))
        lows.extend([0.0] * (len(highs) - lows_before))

    def _zone_slots(self, zone) -> int:
        """The slots of a zone's part of the vector: none for a pile (its count), a display's or
        row's size for the player count, a holding's limit, or its kind's number of pieces."""
        if zone.shape in (PILE, BAG):
            return 0
        if zone.shape in (DISPLAY, ROW):
            return int(zone.sizes[self.players])
        return int(zone.limit) or len(self.module.KINDS[zone.kind].pieces)

    def _kind_layout(self, kind: str) -> list[float]:
        """The upper bounds of a component block of `kind`; fills self._kind_blocks[kind] (each
        component's block, by id) and self._kind_hidden[kind] (a hidden component's)."""
        rows = self.module.KINDS[kind].rows
        bounds = [1.0, 1.0]
        # per encoded column: (index, type, width of a one-hot, a keyword's index by value); prose is left out
        columns: list[tuple[int, str, int, dict]] = []
        for c, column in enumerate(self.module.KINDS[kind].columns):
            ctype = column.type
            values = [row[c] for row in rows]
            order: dict = {}
            width = 0
            if ctype == ColumnType.NUMBER:
                bounds.append(float(max(values, default=0)))
            elif ctype == ColumnType.GEMS:
                bounds += [float(max((v[g] for v in values), default=0)) for g in range(len(self.gems))]
            elif ctype in (ColumnType.GEM, ColumnType.COLOUR, ColumnType.KEYWORD):
                order = {v: i for i, v in enumerate(dict.fromkeys(values))} if ctype == ColumnType.KEYWORD else {}
                width = (
                    len(self.gems)
                    if ctype == ColumnType.GEM
                    else len(self.colours)
                    if ctype == ColumnType.COLOUR
                    else len(order)
                )
                bounds += [1.0] * width
            else:
                continue
            columns.append((c, ctype, width, order))
        self._kind_blocks[kind] = tuple(
            (
                1.0,
                0.0,
                *(x for c, ctype, width, order in columns for x in self._column_values(ctype, row[c], width, order)),
            )
            for row in rows
        )
        self._kind_hidden[kind] = (1.0, 1.0) + (0.0,) * (len(bounds) - 2)
        return bounds

    def _column_values(self, ctype: str, value, width: int, order: dict) -> tuple[float, ...]:
        """A column's values in a component block: a number, one per gem, or a one-hot."""
        if ctype == ColumnType.NUMBER:
            return (float(value),)
        if ctype == ColumnType.GEMS:
            return tuple(float(x) for x in value)
        return self._one_hot(width, order[value] if ctype == ColumnType.KEYWORD else value)

    @staticmethod
    def _one_hot(width: int, index) -> tuple[float, ...]:
        out = [0.0] * width
        if index is not None:
            out[index] = 1.0
        return tuple(out)

    def _encode_items(self, out: list, at: int, kind: str, items, slots: int, holding: bool) -> None:
        """Writes a display's, row's or holding's components into its `slots` blocks at `at`.
        None is a display's empty slot (all 0), or in a holding another seat's component drawn
        privately (the hidden block)."""
        blocks, hidden = self._kind_blocks[kind], self._kind_hidden[kind]
        width = len(hidden)
        for s, x in enumerate(items[:slots]):
            if x is not None:
                out[at + s * width : at + (s + 1) * width] = blocks[x]
            elif holding:
                out[at + s * width : at + (s + 1) * width] = hidden

    def _encode_zones(self, out: list, obs: dict, me: int) -> None:
        """The zones' part of the vector (see the class docstring)."""
        zones, n = self.zones, self.players
        for zi, start, slots, group in self.shared_zones:
            zone = zones[zi]
            items = obs["zones"][zone.name][group - 1] if group else obs["zones"][zone.name]
            if zone.shape in (PILE, BAG):  # an observation's count; a whole state's list (top first)
                out[start] = float(items if isinstance(items, int) else len(items))
            else:
                self._encode_items(out, start, zone.kind, items, slots, zone.shape == HOLDING)
        for zi, start, slots in self.own_zones:
            zone = zones[zi]
            size = slots * len(self._kind_hidden[zone.kind])
            for k in range(n):
                items = obs["seats"][(me + k) % n]["zones"][zone.name]
                self._encode_items(out, start + k * size, zone.kind, items, slots, True)

    def _var_bounds(self, tag: str, private: bool) -> list[tuple[float, float]]:
        """(low, high) of each value of a variable's block (see the class docstring); a keyed variable's
        block is its entries' blocks in key order."""
        if tag.startswith("by:"):
            _, _, count, inner = tag.split(":", 3)
            return [(0.0, 1.0)] * private + self._var_bounds(inner, False) * int(count)
        width = (
            int(tag.rsplit(":", 1)[1])
            if tag.startswith("ids:")
            else {"int": 1, "bool": 1, "player": self.players}.get(tag, len(self.colours))
        )
        low = -UNBOUNDED if tag == "int" else 0.0
        return [(0.0, 1.0)] * private + [(low, UNBOUNDED if tag == "int" else 1.0)] * width

    def _encode_var(self, out: list, at: int, tag: str, private: bool, value, me: int) -> None:
        """Writes a variable's value (as an observation shows it) into its block at `at`."""
        if private:
            if value is None:
                out[at] = 1.0
                return
            at += 1
        if tag.startswith("by:"):  # each entry in its own block, in key order
            inner = tag.split(":", 3)[3]
            width = len(self._var_bounds(inner, False))
            for i, entry in enumerate(value):
                self._encode_var(out, at + i * width, inner, False, entry, me)
        elif tag in ("int", "bool"):
            out[at] = float(value)
        elif tag == "player":
            if value is not None:
                out[at + (value - me) % self.players] = 1.0
        elif tag.startswith("set:"):
            for c in value:
                out[at + self.colours.index(c)] = 1.0
        elif tag.startswith("ids:"):  # a set of components: one flag per component of the kind
            for x in value:
                out[at + x] = 1.0
        elif value is not None:
            out[at + self.colours.index(value)] = 1.0

    def _bonus(self, card) -> int:
        b = card.bonus
        return self.gem_index[b] if isinstance(b, str) else int(b)

    def space(self) -> spaces.Box:
        return spaces.Box(self.low, self.high, dtype=np.float32)

    def _card_vector(self, card=None, hidden_level=None) -> tuple[float, ...]:
        """The block of a card (an id), or of a blind reserve seen from another seat (None, its level)."""
        nl, ng = len(self.levels), len(self.gems)
        out = [0.0] * self.card_size
        out[0] = 1.0
        if card is None:
            out[1] = 1.0
            if hidden_level in self.level_index:
                out[2 + self.level_index[hidden_level]] = 1.0
            return tuple(out)
        c = self.cards[card]
        out[2 + self.level_index[c.level]] = 1.0
        out[2 + nl + self._bonus(c)] = 1.0
        base = 2 + nl + ng
        out[base : base + ng] = [float(x) for x in c.cost]
        out[base + ng] = float(c.points)
        return tuple(out)

    def encode(self, obs: dict, prestige=None) -> np.ndarray:
        """The vector of an observation dict (``game.observation(player)``).

        Built in a Python list (item by item it is several times faster than a numpy
        array), with each card's and noble's block computed once in advance. `prestige`: each
        seat's total (``game.prestige``), which a spec's prestige sources make more than its
        cards and nobles; without it, the cards' and nobles' points.
        """
        out = [0.0] * self.size
        me = obs["observer"]
        i = self._encode_table(out, obs, me)
        i = self._encode_seats(out, i, obs, me, prestige)
        n = self.players
        for name, tag, private, start in self.shared_vars:
            self._encode_var(out, start, tag, private, obs["vars"][name], me)
        for name, tag, private, start in self.own_vars:
            width = len(self._var_bounds(tag, private))
            for k in range(n):
                self._encode_var(out, start + k * width, tag, private, obs["seats"][(me + k) % n]["vars"][name], me)
        assert i == self.core_size
        if self.zones:
            self._encode_zones(out, obs, me)
        if self.keeping or self.extra_states:
            self._encode_turn(out, obs)
        return np.array(out, dtype=np.float32)

    def _encode_table(self, out: list, obs: dict, me: int) -> int:
        """What every seat shares (phase, seat to act, round, supply, decks, market, nobles, the
        purchase waiting for its payment), written from the start of `out`; returns where the
        seats begin."""
        cards, cs = self._card_blocks, self.card_size
        n = self.players
        i = 0
        phase = self.phase_index.get(obs["phase"])
        if phase is not None:
            out[i + phase] = 1.0
        i += len(self.phase_index)
        cp = obs["current_player"]
        if obs["phase"] != "over" and 0 <= cp < n:
            out[i + (cp - me) % n] = 1.0
        i += n
        out[i] = obs["round"]
        out[i + 1] = 1.0 if obs.get("ending") else 0.0
        i += 2
        supply = obs["supply"]
        for c in self.colours:
            out[i] = supply[c]
            i += 1
        for lv in self.levels:
            deck = obs["decks"][str(lv)]
            out[i] = deck if isinstance(deck, int) else len(deck)
            i += 1
        for lv, slots in zip(self.levels, self.slots, strict=True):
            row = obs["market"][str(lv)]
            for s in range(slots):
                if s < len(row) and row[s] is not None:
                    out[i : i + cs] = cards[row[s]]
                i += cs
        row = obs["nobles"]
        for k in range(self.noble_slots):
            if k < len(row):
                out[i : i + self._noble_size] = self._noble_blocks[row[k]]
            i += self._noble_size
        pending = obs.get("pending")
        if isinstance(pending, int) and 0 <= pending < self.num_actions:
            out[i + pending] = 1.0
        return i + self.num_actions

    def _encode_seats(self, out: list, i: int, obs: dict, me: int, prestige) -> int:
        """Each seat's block from `i`, the observer's first (see :meth:`encode`); returns where they end."""
        cards, hidden, cs = self._card_blocks, self._hidden_blocks, self.card_size
        n = self.players
        ng = len(self.gems)
        points, bonus = self._card_points, self._card_bonus
        for k in range(n):
            p = (me + k) % n
            seat = obs["seats"][p]
            tokens = seat["tokens"]
            for c in self.colours:
                out[i] = tokens[c]
                i += 1
            bought = seat["purchased"]
            for card in bought:
                out[i + bonus[card]] += 1.0
            i += ng
            out[i] = (
                prestige[p]
                if prestige is not None
                else sum(points[c] for c in bought) + sum(self.nobles[x].points for x in seat["nobles"])
            )
            out[i + 1] = len(bought)
            out[i + 2] = len(seat["nobles"])
            out[i + 3] = seat.get("turns", 0)
            out[i + 4] = len(seat["reserved"])
            i += 5
            # Another seat's blind reserves are None, and its "blind" list gives their levels in order.
            levels = list(seat.get("blind") or []) if p != me else []
            reserved = seat["reserved"]
            for s in range(self.reserved_slots):
                if s < len(reserved):
                    card = reserved[s]
                    if card is not None:
                        out[i : i + cs] = cards[card]
                    else:
                        level = levels.pop(0) if levels else None
                        out[i : i + cs] = hidden.get(level, hidden[None])
                i += cs
        return i
