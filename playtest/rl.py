"""Reinforcement-learning environments over any generated engine (the optional extra ``rl``).

- :class:`SplendorAEC`: a PettingZoo AEC environment, agents ``player_0``... (one per
  seat). Each agent observes ``{"observation": float32 vector, "action_mask": int8 of
  length NUM_ACTIONS}``; the action space is ``Discrete(NUM_ACTIONS)``. A further
  decision of the same turn (returning tokens, choosing a noble, choosing how to pay:
  any end-of-turn step) is simply the same agent acting again. :func:`aec_env` wraps it
  with PettingZoo's usual checking wrappers.
- :class:`SplendorEnv`: a Gymnasium single-agent environment: one seat learns, the other
  seats are bots from :mod:`playtest.bots`, and ``action_masks()`` gives the legal
  actions (the convention of maskable policies). Registered as ``splendor_rules/Splendor-v0``.

Rewards are the engine's ``returns()`` at the end (1 for a winner, -1 otherwise) and 0
before. An illegal action ends the episode with ``illegal_reward`` for the agent that
played it (and 0 for the others); ``info["illegal_action"]`` holds the engine's message.
``max_turns`` truncates a game after that many turns (default: the spec's `max_turns` value, when it states one):
the engine ends it as truncated, and the environments report `truncated=True` with a reward of 0.

Both environments take ``engine``: a spec or variant path (built through
:mod:`playtest.engines`), a generated module path or dotted name, an
:class:`~playtest.engines.Engine`, or an engine module. Everything in the observation is
derived from that engine's constants (:class:`Encoder`), so any spec works: other gem
names, levels, player counts, market sizes, nobles, reserve limits, steps, and a spec's own
declared state and zones (their tables: ``_VARS``, ``_ZONES``, ``_KIND_COLUMNS``), each as the
observing seat may see it: a face-down pile as its count, another seat's private value or
privately drawn component as hidden. An engine without them is observed as before.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

try:
    import gymnasium
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as e:  # pragma: no cover - the message is the point
    raise ImportError(f"playtest.rl needs the 'rl' extra: pip install 'splendor-rules[rl]' ({e})") from None

from compiler.language import ColumnType, Shape

from . import engines
from .bots import make_bot
from .terminal import draw_board

ENV_ID = "splendor_rules/Splendor-v0"
UNBOUNDED = float(np.finfo(np.float32).max)  # the upper bound of a counter with no limit (rounds, turns)


# ----------------------------------------------------------------------------- engines

def engine_module(engine=None):
    """The engine module for `engine` (see the module docstring); None is the official spec."""
    if engine is None:
        engine = engines.ROOT / "rulespec" / "official.yaml"
    if isinstance(engine, engines.Engine):
        return engine.module
    if isinstance(engine, (str, os.PathLike)):
        return engines.load(str(engine)).module
    if all(hasattr(engine, n) for n in engines.REQUIRED):
        return engine
    raise TypeError(f"not an engine: {engine!r} (a spec path, a module path or name, an Engine or a module)")


def default_players(module) -> int:
    counts = tuple(module.PLAYER_COUNTS)
    return 2 if 2 in counts else counts[0]


# ----------------------------------------------------------------------------- observation

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
    - for an engine whose spec declares state (``_VARS``), last: ``var[NAME]`` for each shared
      variable, then ``seat[k].var[NAME]`` for each per-player one, seats relative as above.
      A number is its value (unbounded either way), a flag 0 or 1, a colour one-hot over the
      colours (all 0: none), a player one-hot over the relative seats, a set of colours 1 for
      each colour in it, a set of components 1 for each component of its kind in it (in the
      order of the kind's table); a private variable has a first value of 1 when it is hidden;
    - for an engine whose spec declares zones (``_ZONES``), after the state: each shared zone in
      declaration order, then each per-player zone for each relative seat (as variables are).
      A pile is ``zone[NAME]``: its count only, never its contents or order (what a seat sees of
      a face-down pile). A display, a row and a holding are fixed slots, each a component block
      (below): ``zone[NAME][S]`` or ``seat[k].zone[NAME][S]`` from 1; a display or row has its
      size for the player count (a display's empty slot is all 0, a row is in order and closes
      up), a holding its ``limit``, or the number of pieces of its kind without one.

    A component of a spec's own kind is: present, hidden (another seat's component drawn with
    ``private_when_drawn``: present and hidden, nothing else), then its kind's columns in order
    (``_KIND_COLUMNS``): a number its value, a table by gem colour a value per gem, a gem or a
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
                raise ValueError(f"the spec '{module.SPEC_NAME}' sets no bound on reserved cards: pass "
                                 "reserved_slots=N (the reserved cards beyond N are counted, not described)")
        self.reserved_slots = reserved_slots
        phases = ["action", "over"] + [d for d in module.DECISIONS if d not in ("action", "over")]
        self.phase_index = {p: i for i, p in enumerate(phases)}
        self.level_index = {lv: i for i, lv in enumerate(self.levels)}
        self.gem_index = {g: i for i, g in enumerate(self.gems)}

        cards = list(module.CARDS)
        self.cost_max = [max((c.cost[g] for c in cards), default=0) for g in range(len(self.gems))]
        self.points_max = max((c.points for c in cards), default=0)
        self.require_max = [max((n.requires[g] for n in module.NOBLES), default=0) for g in range(len(self.gems))]
        self.noble_points_max = max((n.points for n in module.NOBLES), default=0)
        self.level_size = [sum(1 for c in cards if c.level == lv) for lv in self.levels]
        self.bonus_max = [sum(1 for c in cards if self._bonus(c) == g) for g in range(len(self.gems))]
        prestige_max = sum(c.points for c in cards) + sum(n.points for n in module.NOBLES)
        if hasattr(module, "_xp"):  # the spec's prestige sources add prestige the cards do not bound
            prestige_max = UNBOUNDED

        highs: list[float] = []
        self.fields: list[Field] = []

        def field(name: str, bounds: list[float]) -> None:
            self.fields.append(Field(name, len(highs), len(highs) + len(bounds)))
            highs.extend(bounds)

        card_bounds = ([1.0, 1.0] + [1.0] * len(self.levels) + [1.0] * len(self.gems)
                       + [float(x) for x in self.cost_max] + [float(self.points_max)])
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
            field(f"seat[{k}]", self.supply_max + [float(x) for x in self.bonus_max]
                  + [float(prestige_max), float(len(cards)), float(len(self.nobles)), UNBOUNDED, float(len(cards))]
                  + card_bounds * reserved_slots)
        lows = [0.0] * len(highs)
        self.core_size = len(highs)  # the fields of every engine; the spec's own state and zones follow
        # the spec's declared state: (name, tag, private, start, width) of each variable's block, per seat too
        self.shared_vars: list[tuple[str, str, bool, int]] = []
        self.own_vars: list[tuple[str, str, bool, int]] = []
        for name, _, tag, per_player, private, _, _ in getattr(module, "_VARS", ()):
            for k in range(players if per_player else 1):
                bounds = self._var_bounds(tag, bool(private and per_player))
                start = len(highs)
                field(f"seat[{k}].var[{name}]" if per_player else f"var[{name}]", [hi for _, hi in bounds])
                lows.extend(lo for lo, _ in bounds)
                if k == 0:
                    (self.own_vars if per_player else self.shared_vars).append(
                        (name, tag, bool(private and per_player), start))
        self._zone_layout(field, highs, lows)
        self.size = len(highs)
        # Each card's and noble's block of the vector, computed once (see encode).
        self._card_blocks = {c: self._card_vector(c) for c in self.cards}
        self._hidden_blocks = {lv: self._card_vector(None, lv) for lv in (*self.levels, None)}
        self._noble_blocks = {n.id: (1.0, *map(float, n.requires), float(n.points)) for n in self.nobles.values()}
        self._noble_size = len(self.gems) + 2
        self._card_points = {c.id: c.points for c in self.cards.values()}
        self._card_bonus = {c.id: self._bonus(c) for c in self.cards.values()}
        self.low = np.array(lows, dtype=np.float32)
        self.high = np.array(highs, dtype=np.float32)

    def _zone_layout(self, field, highs: list[float], lows: list[float]) -> None:
        """The zones' fields (see the class docstring): self.shared_zones holds (zone index, start,
        slots) of each shared zone, self.own_zones the same for per-player zones (the observer's
        block; the next seat's follows at start + slots * block size); each kind's component
        blocks are computed once."""
        module = self.module
        zones = tuple(getattr(module, "_ZONES", ()))
        self.zones = zones
        self.shared_zones: list[tuple[int, int, int]] = []
        self.own_zones: list[tuple[int, int, int]] = []
        self._kind_blocks: dict[str, tuple[tuple[float, ...], ...]] = {}
        self._kind_hidden: dict[str, tuple[float, ...]] = {}
        kind_bounds: dict[str, list[float]] = {}
        for _name, kind, *_ in zones:
            if kind not in kind_bounds:
                kind_bounds[kind] = self._kind_layout(kind)
        lows_before = len(highs)
        for zi, (name, kind, shape, per_player, *_rest) in enumerate(zones):
            if per_player:
                continue
            start, slots = len(highs), self._zone_slots(zones[zi])
            if shape == Shape.PILE:
                field(f"zone[{name}]", [float(len(module._KIND_PIECES[kind][1]))])
            for s in range(slots):
                field(f"zone[{name}][{s + 1}]", kind_bounds[kind])
            self.shared_zones.append((zi, start, slots))
        for zi, (name, kind, _shape, per_player, *_rest) in enumerate(zones):
            if not per_player:
                continue
            start, slots = len(highs), self._zone_slots(zones[zi])
            for k in range(self.players):
                for s in range(slots):
                    field(f"seat[{k}].zone[{name}][{s + 1}]", kind_bounds[kind])
            self.own_zones.append((zi, start, slots))
        lows.extend([0.0] * (len(highs) - lows_before))

    def _zone_slots(self, zone) -> int:
        """The slots of a zone's part of the vector: none for a pile (its count), a display's or
        row's size for the player count, a holding's limit, or its kind's number of pieces."""
        _name, kind, shape, _per_player, _attr, _start, sizes, _source, limit, _private = zone
        if shape == Shape.PILE:
            return 0
        if shape in (Shape.DISPLAY, Shape.ROW):
            return int(sizes[self.players])
        return int(limit) or len(self.module._KIND_PIECES[kind][1])

    def _kind_layout(self, kind: str) -> list[float]:
        """The upper bounds of a component block of `kind`; fills self._kind_blocks[kind] (each
        component's block, by id) and self._kind_hidden[kind] (a hidden component's)."""
        rows = tuple(getattr(self.module, "_k_" + kind))
        bounds = [1.0, 1.0]
        # per encoded column: (index, type, width of a one-hot, a keyword's index by value); prose is left out
        columns: list[tuple[int, str, int, dict]] = []
        for c, (_name, ctype) in enumerate(self.module._KIND_COLUMNS[kind]):
            values = [row[c] for row in rows]
            order: dict = {}
            width = 0
            if ctype == ColumnType.NUMBER:
                bounds.append(float(max(values, default=0)))
            elif ctype == ColumnType.GEMS:
                bounds += [float(max((v[g] for v in values), default=0)) for g in range(len(self.gems))]
            elif ctype in (ColumnType.GEM, ColumnType.COLOUR, ColumnType.KEYWORD):
                order = {v: i for i, v in enumerate(dict.fromkeys(values))} if ctype == ColumnType.KEYWORD else {}
                width = len(self.gems) if ctype == ColumnType.GEM else len(self.colours) \
                    if ctype == ColumnType.COLOUR else len(order)
                bounds += [1.0] * width
            else:
                continue
            columns.append((c, ctype, width, order))
        self._kind_blocks[kind] = tuple(
            (1.0, 0.0, *(x for c, ctype, width, order in columns
                         for x in self._column_values(ctype, row[c], width, order))) for row in rows)
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
                out[at + s * width:at + (s + 1) * width] = blocks[x]
            elif holding:
                out[at + s * width:at + (s + 1) * width] = hidden

    def _encode_zones(self, out: list, obs: dict, me: int) -> None:
        """The zones' part of the vector (see the class docstring)."""
        zones, n = self.zones, self.players
        for zi, start, slots in self.shared_zones:
            _name, kind, shape, *_ = zones[zi]
            items = obs["zones"][zones[zi][0]]
            if shape == Shape.PILE:  # an observation's count; a whole state's list (top first)
                out[start] = float(items if isinstance(items, int) else len(items))
            else:
                self._encode_items(out, start, kind, items, slots, shape == Shape.HOLDING)
        for zi, start, slots in self.own_zones:
            name, kind, *_ = zones[zi]
            size = slots * len(self._kind_hidden[kind])
            for k in range(n):
                items = obs["seats"][(me + k) % n]["zones"][name]
                self._encode_items(out, start + k * size, kind, items, slots, True)

    def _var_bounds(self, tag: str, private: bool) -> list[tuple[float, float]]:
        """(low, high) of each value of a variable's block (see the class docstring)."""
        width = int(tag.rsplit(":", 1)[1]) if tag.startswith("ids:") else \
            {"int": 1, "bool": 1, "player": self.players}.get(tag, len(self.colours))
        low = -UNBOUNDED if tag == "int" else 0.0
        return [(0.0, 1.0)] * private + [(low, UNBOUNDED if tag == "int" else 1.0)] * width

    def _encode_var(self, out: list, at: int, tag: str, private: bool, value, me: int) -> None:
        """Writes a variable's value (as an observation shows it) into its block at `at`."""
        if private:
            if value is None:
                out[at] = 1.0
                return
            at += 1
        if tag in ("int", "bool"):
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
        out[base:base + ng] = [float(x) for x in c.cost]
        out[base + ng] = float(c.points)
        return tuple(out)

    def encode(self, obs: dict, prestige=None) -> np.ndarray:
        """The vector of an observation dict (``game.observation(player)``).

        Built in a Python list (item by item it is several times faster than a numpy
        array), with each card's and noble's block computed once in advance. `prestige`: each
        seat's total (``game.prestige``), which a spec's prestige sources make more than its
        cards and nobles; without it, the cards' and nobles' points.
        """
        cards, hidden, cs = self._card_blocks, self._hidden_blocks, self.card_size
        out = [0.0] * self.size
        me = obs["observer"]
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
                    out[i:i + cs] = cards[row[s]]
                i += cs
        row = obs["nobles"]
        ng = len(self.gems)
        for k in range(self.noble_slots):
            if k < len(row):
                out[i:i + self._noble_size] = self._noble_blocks[row[k]]
            i += self._noble_size
        pending = obs.get("pending")
        if isinstance(pending, int) and 0 <= pending < self.num_actions:
            out[i + pending] = 1.0
        i += self.num_actions
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
            out[i] = prestige[p] if prestige is not None else \
                sum(points[c] for c in bought) + sum(self.nobles[x].points for x in seat["nobles"])
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
                        out[i:i + cs] = cards[card]
                    else:
                        level = levels.pop(0) if levels else None
                        out[i:i + cs] = hidden.get(level, hidden[None])
                i += cs
        for name, tag, private, start in self.shared_vars:
            self._encode_var(out, start, tag, private, obs["vars"][name], me)
        for name, tag, private, start in self.own_vars:
            width = len(self._var_bounds(tag, private))
            for k in range(n):
                self._encode_var(out, start + k * width, tag, private, obs["seats"][(me + k) % n]["vars"][name], me)
        assert i == self.core_size
        if self.zones:
            self._encode_zones(out, obs, me)
        return np.array(out, dtype=np.float32)


# ----------------------------------------------------------------------------- PettingZoo

class SplendorAEC(AECEnv):
    """A PettingZoo AEC environment for any generated engine (see the module docstring)."""

    # render_fps means nothing for text, but the API checkers expect it with any render mode.
    metadata: dict[str, Any] = {"name": "splendor_rules_v0", "render_modes": ["ansi"], "render_fps": 1,
                                "is_parallelizable": False}

    def __init__(self, engine=None, players: int | None = None, render_mode: str | None = None,
                 max_turns: int | None = None, illegal_reward: float = -1.0, reserved_slots: int | None = None):
        super().__init__()
        self.module = engine_module(engine)
        self.players = players if players is not None else default_players(self.module)
        if self.players not in tuple(self.module.PLAYER_COUNTS):
            raise ValueError(f"the spec '{self.module.SPEC_NAME}' plays with "
                             f"{', '.join(map(str, self.module.PLAYER_COUNTS))} players, not {self.players}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, not {render_mode!r}")
        self.render_mode = render_mode
        self.max_turns = max_turns
        self.illegal_reward = float(illegal_reward)
        self.encoder = Encoder(self.module, self.players, reserved_slots)
        self.possible_agents = [f"player_{i}" for i in range(self.players)]
        n = self.module.NUM_ACTIONS
        self.observation_spaces = {a: spaces.Dict({
            "observation": self.encoder.space(),
            "action_mask": spaces.Box(0, 1, shape=(n,), dtype=np.int8)}) for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(n) for a in self.possible_agents}
        self._seeds = np.random.default_rng()
        self.game: Any = None  # an engine's Game, once reset
        self._done = False

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None:
            self._seeds = np.random.default_rng(seed)
            game_seed = int(seed)
        else:
            game_seed = int(self._seeds.integers(2 ** 63))
        self.game = self.module.new_game(self.players, seed=game_seed, max_turns=self.max_turns)
        self._done = False
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[max(self.game.current_player, 0)]
        if self.game.is_over():  # a game stuck from the start
            self._finish()

    def observe(self, agent):
        p = self.possible_agents.index(agent)
        mask = np.zeros(self.module.NUM_ACTIONS, dtype=np.int8)
        if not self._done and p == self.game.current_player:
            mask[self.game.legal_actions()] = 1
        return {"observation": self.encoder.encode(self.game.observation(p), self.game.prestige),
                "action_mask": mask}

    def step(self, action) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: 0.0 for a in self.agents}
        game = self.game
        try:
            game.apply(int(action))
        except self.module.IllegalAction as e:
            self._done = True
            self.rewards[agent] = self.illegal_reward
            self.terminations = {a: True for a in self.agents}
            self.infos[agent] = {"illegal_action": str(e)}
        else:
            if game.is_truncated():  # the length cap: the engine's (max_turns, or the spec's)
                self._done = True
                self.truncations = {a: True for a in self.agents}
            elif game.is_over():
                self._finish()
            else:
                self.agent_selection = self.possible_agents[game.current_player]
        self._accumulate_rewards()

    def _finish(self) -> None:
        self._done = True
        returns = self.game.returns()
        for a in self.agents:
            self.rewards[a] = float(returns[self.possible_agents.index(a)])
        self.terminations = {a: True for a in self.agents}

    def render(self):
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode (this environment offers 'ansi')")
            return None
        return draw_board(self.module, self.game, self.possible_agents, None)

    def close(self) -> None:
        pass


def aec_env(**kwargs):
    """A :class:`SplendorAEC` inside PettingZoo's usual wrappers (range and call-order checks)."""
    env = SplendorAEC(**kwargs)
    env = wrappers.AssertOutOfBoundsWrapper(env)
    return wrappers.OrderEnforcingWrapper(env)


# ----------------------------------------------------------------------------- Gymnasium

class SplendorEnv(gymnasium.Env):
    """One seat learns, the others are bots (see the module docstring).

    `opponents` is a bot name (random, greedy, mcts, mcts:PLAYOUTS) for every other seat
    or a list with one per other seat, in seat order. Bots are seeded from the reset seed,
    so ``reset(seed=s)`` replays the same episode for the same actions.
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(self, engine=None, players: int | None = None, seat: int = 0, opponents="greedy",
                 render_mode: str | None = None, max_turns: int | None = None, illegal_reward: float = -1.0,
                 reserved_slots: int | None = None):
        self.module = engine_module(engine)
        self.players = players if players is not None else default_players(self.module)
        if self.players not in tuple(self.module.PLAYER_COUNTS):
            raise ValueError(f"the spec '{self.module.SPEC_NAME}' plays with "
                             f"{', '.join(map(str, self.module.PLAYER_COUNTS))} players, not {self.players}")
        if not 0 <= seat < self.players:
            raise ValueError(f"seat must be 0 to {self.players - 1}, not {seat}")
        others = self.players - 1
        names = [opponents] * others if isinstance(opponents, str) else list(opponents)
        if len(names) != others:
            raise ValueError(f"{len(names)} opponents for {others} other seat{'s' if others != 1 else ''}")
        for name in names:
            make_bot(name, self.module, 0)  # raises BotError for an unknown name
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, not {render_mode!r}")
        self.render_mode = render_mode
        self.seat = seat
        self.opponents = names
        self.max_turns = max_turns
        self.illegal_reward = float(illegal_reward)
        self.encoder = Encoder(self.module, self.players, reserved_slots)
        self.observation_space = self.encoder.space()
        self.action_space = spaces.Discrete(self.module.NUM_ACTIONS)
        self.game: Any = None  # an engine's Game, once reset
        self.bots: dict[int, Any] = {}
        self._done = False

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        game_seed = int(seed) if seed is not None else int(self.np_random.integers(2 ** 63))
        others = [p for p in range(self.players) if p != self.seat]
        self.bots = {p: make_bot(name, self.module, int(self.np_random.integers(2 ** 63)))
                     for p, name in zip(others, self.opponents, strict=False)}
        self.game = self.module.new_game(self.players, seed=game_seed, max_turns=self.max_turns)
        self._done = False
        self._play_bots()
        self._done = self.game.is_over()
        return self._observation(), self._info()

    def _play_bots(self) -> None:
        game = self.game
        while not game.is_over() and game.current_player != self.seat:
            game.apply(self.bots[game.current_player].choose(game))

    def _observation(self) -> np.ndarray:
        return self.encoder.encode(self.game.observation(self.seat), self.game.prestige)

    def _info(self, **extra) -> dict:
        return {"action_mask": self.action_masks(), **extra}

    def action_masks(self) -> np.ndarray:
        """The legal actions of the learning seat, as booleans of length NUM_ACTIONS (none once done)."""
        mask = np.zeros(self.module.NUM_ACTIONS, dtype=bool)
        if self.game is not None and not self._done and self.game.current_player == self.seat:
            mask[self.game.legal_actions()] = True
        return mask

    def step(self, action):
        if self.game is None:
            raise RuntimeError("call reset() before step()")
        if self._done:
            raise RuntimeError("the episode is over: call reset()")
        game = self.game
        try:
            game.apply(int(action))
        except self.module.IllegalAction as e:
            self._done = True
            return self._observation(), self.illegal_reward, True, False, self._info(illegal_action=str(e))
        self._play_bots()
        truncated = game.is_truncated()  # stopped at the length cap: no winner, reward 0
        terminated = game.is_over() and not truncated
        self._done = terminated or truncated
        reward = float(game.returns()[self.seat]) if terminated else 0.0
        return self._observation(), reward, terminated, truncated, self._info()

    def render(self):
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode (this environment offers 'ansi')")
            return None
        if self.game is None:
            return ""
        names = ["learner" if p == self.seat else self.opponents[p - (p > self.seat)] for p in range(self.players)]
        return draw_board(self.module, self.game, names, None)

    def close(self) -> None:
        pass


if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point="playtest.rl:SplendorEnv")
