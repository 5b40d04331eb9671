"""The observation written straight from a game into a float32 row, incrementally.

:class:`Encoder` (:mod:`playtest.rl.encoding`) lays the vector out and encodes an observation
dict (``game.observation(p)``): building that dict and then a fresh array from a list costs an
RL step many times the engine's decision. :class:`ObservationWriter` is derived once per engine
from the encoder's layout, the engine's constants and its metadata tables (``ZONES``,
``VARIABLES``, the turn's tables), and writes the same vector (same content, same layout:
tests/test_rl_speed.py compares the two on seeded games, step by step) from the game's public
attributes into a row that it keeps up to date:

- each block (a market slot, a noble, a reserved slot, a zone's slot) remembers which card or
  component it holds (a :class:`Row`'s keys), and is copied again only when that changes;
- a one-hot remembers where its 1 is, and only that place is cleared;
- a seat's tokens and bonus are rewritten only when its lists change; counters are written.

So a row must only ever be written by one writer through its :class:`Row` (an environment keeps
one per observing seat). The spec's declared state (``VARIABLES``) is encoded by the encoder's
own per-variable code from the engine's ``_state_json``; an engine whose games lack the public
attributes read here (a build that hides them) is written through ``game.observation`` and the
encoder, whole: slower, never different.
"""

from __future__ import annotations

from array import array
from operator import attrgetter
from typing import Any

import numpy as np

from compiler.emit.runtime.meta import BAG, HOLDING, PILE

from .encoding import Encoder

# What a game must offer for the direct path (the engine contract's state attributes).
ATTRIBUTES = (
    "phase",
    "current_player",
    "round",
    "ending",
    "supply",
    "decks",
    "market",
    "noble_row",
    "pending",
    "tokens",
    "purchased",
    "nobles",
    "turns",
    "reserved",
    "blind",
    "prestige",
)
_UNSET = object()  # a key no block holds: the first write of a row always copies
_NOTHING: list[Any] = []  # the blind reserves an observer hides from itself (never changed)


def state_reader(cls: type, names: tuple[str, ...]) -> attrgetter[Any]:
    """Reads `names` from a game in one call. A property that only returns one of the class's own
    slots (``return self._tok``: the generated engines' ``tokens``, ``purchased``...) is read
    through that slot, which costs a fraction of the property's call; anything else (a computed
    property, a build without Python code objects) is read by its public name."""
    slots = set(getattr(cls, "__slots__", ()))
    direct: list[str] = []
    for name in names:
        fget = getattr(getattr(cls, name, None), "fget", None)
        code = getattr(fget, "__code__", None)
        alias = code.co_names[0] if code is not None and len(code.co_names) == 1 else None
        simple = code is not None and code.co_argcount == 1 and not code.co_consts[1:] and len(code.co_code) <= 16
        direct.append(alias if isinstance(alias, str) and alias in slots and simple else name)
    return attrgetter(*direct)


def floats(values: Any) -> Any:
    """A float32 buffer of `values`, as a memoryview a row's slice can be assigned from."""
    return np.asarray(values, dtype=np.float32).data.cast("B").cast("f")


def row_view(row: np.ndarray) -> Any:
    """A writable float32 memoryview of a contiguous 1-D row (typed Any: typeshed gives a
    memoryview int items only, whatever its format)."""
    return row.data.cast("B").cast("f")


class Row:
    """One observation row and what the writer last put in it (see the module docstring)."""

    __slots__ = ("array", "view", "keys", "hot", "lists", "state")

    def __init__(self, array_row: np.ndarray, blocks: int, lists: int) -> None:
        # lists: the market and noble row last written, then per relative seat its purchased cards,
        # their bonus per gem, and the reserved and blind cards of its reserved slots (a row is
        # written for one observer at a time; a new observer's seats differ in their lists)
        self.array = array_row
        self.view = row_view(array_row)
        self.keys: list[Any] = [_UNSET] * blocks
        self.hot: list[int] = []
        self.lists: list[Any] = [_UNSET] * lists
        self.state: Any = _UNSET  # the declared state's values and observer last written


class ObservationWriter:
    """Writes ``encoder.encode(game.observation(me), game.prestige)`` into a :class:`Row`, faster."""

    def __init__(self, encoder: Encoder) -> None:
        self.encoder = enc = encoder
        module = enc.module
        self.module = module
        self.players = n = enc.players
        fields = {f.name: f for f in enc.fields}
        self.phase_at = {phase: fields["phase"].start + i for phase, i in enc.phase_index.items()}
        # the to_act place of seat cp seen by seat me: to_act_at[me][cp]
        self.to_act_at = [[fields["to_act"].start + (cp - me) % n for cp in range(n)] for me in range(n)]
        self.round_at = fields["round"].start
        self._table_state = state_reader(
            type(module.new_game(n, seed=0)),
            ("phase", "current_player", "round", "ending", "supply", "decks", "market", "noble_row", "pending"),
        )
        self.supply_at, self.deck_at, self.pending_at = (
            fields["supply"].start,
            fields["deck"].start,
            fields["pending"].start,
        )
        self.num_actions = enc.num_actions
        self.card_size, self.noble_size = enc.card_size, enc._noble_size
        zero_card, zero_noble = floats([0.0] * enc.card_size), floats([0.0] * enc._noble_size)
        self.card_blocks: dict[Any, Any] = {c: floats(b) for c, b in enc._card_blocks.items()}
        self.card_blocks.update({("hidden", lv): floats(b) for lv, b in enc._hidden_blocks.items()})
        self.card_blocks[None] = zero_card
        self.noble_blocks: dict[Any, Any] = {x: floats(b) for x, b in enc._noble_blocks.items()}
        self.noble_blocks[None] = zero_noble
        levels = getattr(module, "CARD_LEVEL", None)
        self.card_level = levels if levels is not None else {c.id: c.level for c in module.CARDS}
        self.market_at = [
            [fields[f"market[{lv}.{s + 1}]"].start for s in range(k)]
            for lv, k in zip(enc.levels, enc.slots, strict=True)
        ]
        self.market_block = [sum(enc.slots[:level]) for level in range(len(enc.slots))]
        self.noble_at = [fields[f"noble[{k + 1}]"].start for k in range(enc.noble_slots)]
        self.seat_at = [fields[f"seat[{k}]"].start for k in range(n)]
        self.bonus = enc._card_bonus
        self.ng, self.nc = len(enc.gems), len(enc.colours)
        # the blocks of a row, numbered: market slots, nobles, reserved slots per relative seat, zones' slots
        # the counters' places, in the order write() gives them to a sink: round, ending, supply
        # and decks, then each relative seat's tokens, bonus, prestige, cards, nobles, turns, reserved
        run = 2 + len(enc.colours) + len(enc.levels)
        seat_run = len(enc.colours) + len(enc.gems) + 5
        places = list(range(self.round_at, self.round_at + run))
        for start in self.seat_at:
            places += range(start, start + seat_run)
        self.scalar_positions = np.array(places, dtype=np.intp)
        self.seat_run = seat_run
        # per observer: each relative seat's (seat, start, its lists in a row, first reserved block, another's?)
        first = sum(enc.slots) + enc.noble_slots
        self.seat_plan = [
            tuple(((me + k) % n, self.seat_at[k], 2 + 4 * k, first + k * enc.reserved_slots, k > 0) for k in range(n))
            for me in range(n)
        ]
        game_class = type(module.new_game(n, seed=0))
        self._seat_state = state_reader(
            game_class, ("tokens", "purchased", "nobles", "turns", "reserved", "blind", "prestige")
        )
        self.noble_block = sum(enc.slots)
        self.reserved_block = self.noble_block + enc.noble_slots
        self.blocks = self.reserved_block + n * enc.reserved_slots
        self._zone_plan()
        self._tail_plan()
        probe = module.new_game(n, seed=0)
        self.direct = all(hasattr(probe, name) for name in ATTRIBUTES) and self._tail_readable(probe)

    # ------------------------------------------------------------------ the plan, made once

    def _zone_plan(self) -> None:
        """Per zone (a zone split by a group column: per group): (zone, start, slots, first block
        number, width, blocks by key, group or 0)."""
        enc = self.encoder
        self.zone_plan: list[tuple[Any, int, int, int, int, dict[Any, Any], int]] = []
        parts = [(True, *part) for part in enc.shared_zones] + [(False, *part, 0) for part in enc.own_zones]
        for shared, zi, start, slots, group in parts:
            zone = enc.zones[zi]
            hidden = enc._kind_hidden[zone.kind]
            blocks: dict[Any, Any] = {x: floats(b) for x, b in enumerate(enc._kind_blocks[zone.kind])}
            blocks["hidden"] = floats(hidden)
            blocks[None] = floats([0.0] * len(hidden))
            self.zone_plan.append((zone, start, slots, self.blocks, len(hidden), blocks, group))
            self.blocks += slots if shared else slots * self.players

    def _tail_plan(self) -> None:
        """The declared state's region of the vector (written whole, from a scratch list) and the turn's fields."""
        enc = self.encoder
        var_fields = [f for f in enc.fields if f.name.startswith("var[") or ".var[" in f.name]
        self.var_region = (var_fields[0].start, var_fields[-1].stop) if var_fields else (0, 0)
        self.scratch = [0.0] * enc.size
        keeps = getattr(enc.module, "_KEEPS_TURN", ())
        self.taken_bits = [(enc.turn_start + k, d) for k, d in enumerate(keeps)] if enc.keeping else []
        self.extra_at = enc.turn_start + len(enc.keeping) if enc.extra_states else -1

    def _tail_readable(self, probe: Any) -> bool:
        """Can the declared state, zones and turn be read directly from this engine's games?"""
        enc, module = self.encoder, self.module
        if self.var_region[1] and not hasattr(module, "_state_json"):
            return False
        if any(not hasattr(probe, zone.attribute) for zone in enc.zones):
            return False
        if self.taken_bits and not hasattr(probe, "taken"):
            return False
        if self.extra_at >= 0 and (not hasattr(probe, "extra") or tuple(module.EXTRA_TURN_STATES) != enc.extra_states):
            return False
        return True

    def row(self, array_row: np.ndarray) -> Row:
        """A :class:`Row` over `array_row` (a contiguous float32 vector of the encoder's size)."""
        if array_row.shape != (self.encoder.size,) or array_row.dtype != np.float32:
            raise ValueError(f"a row must be float32 of shape ({self.encoder.size},)")
        return Row(array_row, self.blocks, 2 + 4 * self.players)

    # ------------------------------------------------------------------ writing

    def write(self, game: Any, me: int, row: Row, sink: list[Any] | None = None) -> None:
        """Makes `row` hold seat `me`'s observation vector of `game`.

        With `sink`, the counters (the values at :attr:`scalar_positions`, in that order) are
        appended to it instead of being written: a batch converts every row's at once (see
        :mod:`playtest.rl.vector`), which costs far less than a write per row.
        """
        if not self.direct:
            vector = self.encoder.encode(game.observation(me), game.prestige)
            row.array[:] = vector
            if sink is not None:
                sink += vector[self.scalar_positions].tolist()
            row.keys[:] = [_UNSET] * len(row.keys)
            row.lists[:] = [_UNSET] * len(row.lists)
            row.hot.clear()
            row.state = _UNSET
            return
        mv, hot = row.view, row.hot
        for i in hot:
            mv[i] = 0.0
        hot.clear()
        self._write_table(game, me, row, sink)
        self._write_seats(game, me, row, sink)
        if self.var_region[1]:
            self._write_vars(game, me, row)
        if self.zone_plan:
            self._write_zones(game, me, row)
        for at, d in self.taken_bits:
            mv[at] = 1.0 if game.taken >> d & 1 else 0.0
        if self.extra_at >= 0:
            at = self.extra_at + game.extra
            mv[at] = 1.0
            hot.append(at)

    def _write_table(self, game: Any, me: int, row: Row, sink: list[Any] | None) -> None:
        """Phase, seat to act, round, ending, supply, decks, market, nobles, pending purchase."""
        mv, hot, lists = row.view, row.hot, row.lists
        phase, cp, rounds, ending, supply, decks, market, shown, pending = self._table_state(game)
        index = self.phase_at.get(phase)
        if index is not None:
            mv[index] = 1.0
            hot.append(index)
        if phase != "over" and 0 <= cp < self.players:
            i = self.to_act_at[me][cp]
            mv[i] = 1.0
            hot.append(i)
        # round, ending, supply and decks lie side by side: one write
        if sink is None:
            head = [rounds, 0.0 if ending is None else 1.0, *supply, *map(len, decks)]
            mv[self.round_at : self.round_at + len(head)] = array("f", head)
        else:
            sink += (rounds, 0.0 if ending is None else 1.0)
            sink += supply
            sink += map(len, decks)
        if lists[0] != market:
            self._write_market(market, row)
            lists[0] = [list(cards) for cards in market]
        if lists[1] != shown:
            self._write_nobles(shown, row)
            lists[1] = list(shown)
        if pending is not None and isinstance(pending, int) and 0 <= pending < self.num_actions:
            mv[self.pending_at + pending] = 1.0
            hot.append(self.pending_at + pending)

    def _write_market(self, market: list[list[Any]], row: Row) -> None:
        """The face-up slots whose card changed, in the rows that changed."""
        mv, keys, blocks, cs = row.view, row.keys, self.card_blocks, self.card_size
        before = row.lists[0]
        for level, (cards, starts) in enumerate(zip(market, self.market_at, strict=False)):
            if before is not _UNSET and before[level] == cards:
                continue
            size, b = len(cards), self.market_block[level]
            for s, start in enumerate(starts):
                key = cards[s] if s < size else None
                if keys[b] != key:
                    mv[start : start + cs] = blocks[key]
                    keys[b] = key
                b += 1

    def _write_nobles(self, shown: list[Any], row: Row) -> None:
        """The noble row's slots whose noble changed."""
        mv, keys, blocks, ns = row.view, row.keys, self.noble_blocks, self.noble_size
        b = self.noble_block
        for k, start in enumerate(self.noble_at):
            key = shown[k] if k < len(shown) else None
            if keys[b] != key:
                mv[start : start + ns] = blocks[key]
                keys[b] = key
            b += 1

    def _write_seats(self, game: Any, me: int, row: Row, sink: list[Any] | None) -> None:
        """Each seat's block, the observer's first: tokens, bonus, counters, reserved cards."""
        mv, lists, bonus = row.view, row.lists, self.bonus
        tokens, bought_all, nobles, turns, reserved_all, blind_all, prestige = self._seat_state(game)
        for p, i, c, b, other in self.seat_plan[me]:
            bought = bought_all[p]
            if lists[c] != bought:  # c: this seat's lists in row.lists: purchased, bonus, (reserved, blind)
                counts = [0] * self.ng
                for card in bought:
                    counts[bonus[card]] += 1
                lists[c], lists[c + 1] = list(bought), counts
            reserved = reserved_all[p]
            # tokens, bonus and the counters lie side by side: one write
            counters = (prestige[p], len(bought), len(nobles[p]), turns[p], len(reserved))
            if sink is None:
                values = [*tokens[p], *lists[c + 1], *counters]
                mv[i : i + len(values)] = array("f", values)
            else:
                sink += tokens[p]
                sink += lists[c + 1]
                sink += counters
            blind = blind_all[p] if other else _NOTHING
            if lists[c + 2] != reserved or lists[c + 3] != blind:
                self._write_reserved(reserved, blind, i + self.seat_run, b, row)
                lists[c + 2], lists[c + 3] = list(reserved), list(blind)

    def _write_reserved(self, reserved: list[Any], blind: Any, i: int, b: int, row: Row) -> None:
        """A seat's reserved slots from `i` (blocks numbered from `b`); another seat's blind reserves hidden."""
        mv, keys, blocks, cs = row.view, row.keys, self.card_blocks, self.card_size
        levels = [self.card_level[c] for c in blind] if blind else ()
        j = 0
        size = len(reserved)
        for s in range(self.encoder.reserved_slots):
            if s >= size:
                key: Any = None
            else:
                key = reserved[s]
                if blind and key in blind:
                    key = ("hidden", levels[j] if j < len(levels) else None)
                    j += 1
                    if key not in blocks:
                        key = ("hidden", None)
            if keys[b] != key:
                mv[i : i + cs] = blocks[key]
                keys[b] = key
            i += cs
            b += 1

    def _write_vars(self, game: Any, me: int, row: Row) -> None:
        """The declared state's region, through the encoder's own code, when its values changed."""
        enc, n, out = self.encoder, self.players, self.scratch
        state: dict[str, Any] = {"seats": [{} for _ in range(n)]}
        self.module._state_json(game, state, me)
        values = (me, state.get("vars"), [seat.get("vars") for seat in state["seats"]])
        if row.state == values:
            return
        row.state = values
        start, stop = self.var_region
        out[start:stop] = [0.0] * (stop - start)
        for name, tag, private, at in enc.shared_vars:
            enc._encode_var(out, at, tag, private, state["vars"][name], me)
        for name, tag, private, at in enc.own_vars:
            width = len(enc._var_bounds(tag, private))
            for k in range(n):
                value = state["seats"][(me + k) % n]["vars"][name]
                enc._encode_var(out, at + k * width, tag, private, value, me)
        row.view[start:stop] = array("f", out[start:stop])

    def _write_zones(self, game: Any, me: int, row: Row) -> None:
        """Each zone: a pile's count, a display's, row's or holding's slots (see Encoder)."""
        mv, keys, n = row.view, row.keys, self.players
        for zone, start, slots, b, width, blocks, group in self.zone_plan:
            everyone = getattr(game, zone.attribute)
            if group:  # one group's list of a zone split by a group column
                everyone = everyone[group - 1]
            if not zone.per_player:
                if zone.shape in (PILE, BAG):
                    mv[start] = len(everyone)
                    continue
                seats = [(everyone, zone.shape == HOLDING)]
            else:
                seats = []
                for k in range(n):
                    p = (me + k) % n
                    items = everyone[p]
                    hidden = getattr(game, zone.private_attribute)[p] if zone.private_attribute else ()
                    if p != me and hidden:
                        items = [None if x in hidden else x for x in items]
                    seats.append((items, True))
            for items, holding in seats:
                size = len(items)
                for s in range(slots):
                    key = items[s] if s < size else None
                    if key is None and s < size and holding:
                        key = "hidden"
                    if keys[b] != key:
                        mv[start : start + width] = blocks[key]
                        keys[b] = key
                    start += width
                    b += 1
