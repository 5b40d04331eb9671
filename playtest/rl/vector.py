"""Many games stepped together into numpy arrays: a Gymnasium vector environment for self-play.

:class:`SplendorVectorEnv` follows :class:`gymnasium.vector.VectorEnv`: ``reset`` returns
``(observations, infos)`` and ``step(actions)`` returns ``(observations, rewards, terminations,
truncations, infos)``, each batched over ``num_envs`` games (observations ``(num_envs, size)``
float32, rewards float64, the flags bool); ``single_observation_space`` is the encoder's Box,
``single_action_space`` ``Discrete(NUM_ACTIONS)``, and a game that ends is reset on the next
step (``metadata["autoreset_mode"]``: next-step, Gymnasium's default): that step ignores its
action and returns the new game's first observation, reward 0, both flags false.

Every seat is played by the caller (self-play). Each row is the observation of the seat to act
(as :class:`~playtest.rl.Encoder` lays it out, seats relative to it), with its legal actions in
``infos["action_mask"]`` (bool, ``(num_envs, NUM_ACTIONS)``; also :meth:`action_masks`) and the
seat in ``infos["seat"]`` (each key of the infos has its ``"_key"`` array, as Gymnasium's vector
infos do). The reward goes to the seat that acted: its ``returns()`` once the
game is over, 0 before; on that step the row is that seat's view of the final position, its
mask all false, and ``infos["returns"]`` holds every seat's returns (``infos["_returns"]``
says which games ended so). An illegal action ends its game with ``illegal_reward`` for the
seat that played it (``infos["illegal_action"]``); ``max_turns`` truncates as the engine does.

Works for any engine the toolkit builds (the official one, every catalogue variant, a native
build with the same API): nothing here knows one spec. Rows are written by
:class:`~playtest.rl.writer.ObservationWriter`: each game keeps one row per seat, brought up to
date when that seat is to act and copied into the batch; the counters of every game are
converted at once.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from .encoding import Encoder
from .envs import default_players, engine_module
from .writer import ObservationWriter, Row, row_view


class SplendorVectorEnv(VectorEnv):
    """`num_envs` games of one engine, stepped together (see :mod:`playtest.rl.vector`)."""

    metadata: dict[str, Any] = {"render_modes": [], "autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(
        self,
        num_envs: int,
        engine: Any = None,
        players: int | None = None,
        max_turns: int | None = None,
        illegal_reward: float = -1.0,
        reserved_slots: int | None = None,
        copy: bool = True,
        native: bool = False,
    ) -> None:
        if num_envs < 1:
            raise ValueError(f"num_envs must be at least 1, not {num_envs}")
        self.module = module = engine_module(engine, native)
        self.players = players if players is not None else default_players(module)
        if self.players not in tuple(module.PLAYER_COUNTS):
            raise ValueError(
                f"the spec '{module.SPEC_NAME}' plays with "
                f"{', '.join(map(str, module.PLAYER_COUNTS))} players, not {self.players}"
            )
        self.num_envs = num_envs
        self.max_turns = max_turns
        self.illegal_reward = float(illegal_reward)
        self.copy = copy
        self.encoder = Encoder(module, self.players, reserved_slots)
        self.writer = writer = ObservationWriter(self.encoder)
        n, size = module.NUM_ACTIONS, self.encoder.size
        self.single_observation_space = self.encoder.space()
        self.single_action_space = spaces.Discrete(n)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._obs = np.zeros((num_envs, size), dtype=np.float32)
        self._obs_flat = self._obs.reshape(-1)
        self._obs_views = [row_view(self._obs[b]) for b in range(num_envs)]
        seat_rows = np.zeros((num_envs, self.players, size), dtype=np.float32)
        self._seat_rows: list[list[Row]] = [[writer.row(r) for r in rows] for rows in seat_rows]
        self._scalars = (np.arange(num_envs)[:, None] * size + writer.scalar_positions).reshape(-1)
        self._mask = np.zeros((num_envs, n), dtype=bool)
        self._mask_flat = self._mask.reshape(-1)
        self._mask_base = np.arange(num_envs) * n
        self._seeds = np.random.default_rng()
        self.games: list[Any] = [None] * num_envs
        self._ended = [False] * num_envs

    def _new_game(self, b: int, seed: int | None) -> Any:
        if seed is None:
            seed = int(self._seeds.integers(2**63))
        game = self.games[b] = self.module.new_game(self.players, seed=seed, max_turns=self.max_turns)
        return game

    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """New games everywhere: game b seeded `seed + b` (or `seed[b]`); None draws seeds."""
        if isinstance(seed, int):
            self._seeds = np.random.default_rng(seed)
            seeds: list[int | None] = [seed + b for b in range(self.num_envs)]
        elif seed is None:
            seeds = [None] * self.num_envs
        else:
            if len(seed) != self.num_envs:
                raise ValueError(f"{len(seed)} seeds for {self.num_envs} games")
            seeds = list(seed)
        self._ended = [False] * self.num_envs
        for b, s in enumerate(seeds):
            self._new_game(b, s)
        seats = self._observe_all([-1] * self.num_envs)
        return self._out(self._obs), self._infos(seats)

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """One decision in each game: `actions[b]` by the seat to act in game b (see the module)."""
        actions = np.asarray(actions).reshape(-1).tolist()
        if len(actions) != self.num_envs:
            raise ValueError(f"{len(actions)} actions for {self.num_envs} games")
        size = self.num_envs
        rewards = np.zeros(size)
        terminations = np.zeros(size, dtype=bool)
        truncations = np.zeros(size, dtype=bool)
        returns = np.zeros((size, self.players))
        illegal = np.zeros(size, dtype=bool)
        illegal_action = self.module.IllegalAction
        ended = self._ended  # a list: numpy's item access costs more than the step of a game
        actors: list[int] = [-1] * size  # the seat whose view ends a game (-1: the seat to act)
        for b, game in enumerate(self.games):
            if ended[b]:  # next-step autoreset: this step starts a new game
                self._new_game(b, None)
                ended[b] = False
                continue
            actor = game.current_player
            try:
                game.apply(actions[b])
            except illegal_action:
                terminations[b] = illegal[b] = ended[b] = True
                rewards[b] = self.illegal_reward
                actors[b] = actor
                continue
            if game.is_over():
                ended[b] = True
                actors[b] = actor
                if game.is_truncated():
                    truncations[b] = True
                else:
                    terminations[b] = True
                    returns[b] = game.returns()
                    rewards[b] = returns[b][actor]
        seats = self._observe_all(actors)
        infos = self._infos(seats)
        infos.update(returns=returns, _returns=terminations & ~illegal, illegal_action=illegal, _illegal_action=illegal)
        return self._out(self._obs), rewards, terminations, truncations, infos

    def _observe_all(self, actors: list[int]) -> np.ndarray:
        """Each game's row and mask: the seat to act's view, or at a game's end the view of the seat
        that ended it (`actors`, -1 elsewhere); returns the seats observed."""
        writer, rows, views = self.writer, self._seat_rows, self._obs_views
        sink: list[Any] = []
        legal_all: list[int] = []
        counts: list[int] = []
        seats: list[int] = []
        for b, game in enumerate(self.games):
            me = actors[b]
            if me >= 0:
                counts.append(0)
            else:
                me = max(game.current_player, 0)
                legal = game.legal_actions() if not game.is_over() else []
                legal_all += legal
                counts.append(len(legal))
            seats.append(me)
            row = rows[b][me]
            writer.write(game, me, row, sink)
            views[b][:] = row.view
        self._obs_flat[self._scalars] = np.array(sink, dtype=np.float32)
        self._mask[:] = False
        if legal_all:
            self._mask_flat[np.array(legal_all, dtype=np.intp) + np.repeat(self._mask_base, counts)] = True
        return np.array(seats, dtype=np.int64)

    def _infos(self, seats: np.ndarray) -> dict[str, Any]:
        """The infos every game has; each key's "_key" says which games have it (Gymnasium's convention)."""
        every = np.ones(self.num_envs, dtype=bool)
        return {"action_mask": self._out(self._mask), "_action_mask": every, "seat": seats, "_seat": every}

    def _out(self, array: np.ndarray) -> np.ndarray:
        return array.copy() if self.copy else array

    def action_masks(self) -> np.ndarray:
        """The legal actions of the seat to act in each game, bool ``(num_envs, NUM_ACTIONS)``."""
        return self._out(self._mask)

    def close_extras(self, **kwargs: Any) -> None:
        self.games = [None] * self.num_envs
