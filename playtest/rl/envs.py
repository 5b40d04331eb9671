"""The RL environments over any generated engine: PettingZoo's AEC and Gymnasium's single agent.

- :class:`SplendorAEC` (and :func:`aec_env`, inside PettingZoo's checking wrappers): every
  seat is an agent;
- :class:`SplendorEnv`: one seat learns, the other seats are bots from :mod:`playtest.bots`;
  registered as ``splendor_rules/Splendor-v0``.

Both observe through :class:`playtest.rl.encoding.Encoder`'s layout, written by
:class:`playtest.rl.writer.ObservationWriter` (one row per observing seat), and render the board as text
(:func:`playtest.terminal.board.draw_board`); :func:`engine_module` turns what they are given
(a spec path, a module path or name, an Engine, a module) into an engine module.
"""

from __future__ import annotations

import os
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from .. import engines
from ..bots import make_bot
from ..terminal.board import draw_board
from .encoding import Encoder
from .writer import ObservationWriter

ENV_ID = "splendor_rules/Splendor-v0"


def engine_module(engine: Any = None, native: bool = False) -> Any:
    """The engine module for `engine` (see :mod:`playtest.rl`); None is the official spec. With
    `native`, a spec or module path or name gives its native build (playtest.engines.load); an Engine
    or a module is used as given (``engines.load(spec, native=True)`` makes a native Engine)."""
    if engine is None:
        engine = engines.ROOT / "rulespec" / "official.yaml"
    if isinstance(engine, engines.Engine):
        return engine.module
    if isinstance(engine, (str, os.PathLike)):
        return engines.load(str(engine), native=native).module
    if all(hasattr(engine, n) for n in engines.REQUIRED):
        return engine
    raise TypeError(f"not an engine: {engine!r} (a spec path, a module path or name, an Engine or a module)")


def default_players(module: Any) -> int:
    counts = tuple(module.PLAYER_COUNTS)
    return 2 if 2 in counts else counts[0]


# ----------------------------------------------------------------------------- PettingZoo


class SplendorAEC(AECEnv):
    """A PettingZoo AEC environment for any generated engine (see :mod:`playtest.rl`)."""

    # render_fps means nothing for text, but the API checkers expect it with any render mode.
    metadata: dict[str, Any] = {
        "name": "splendor_rules_v0",
        "render_modes": ["ansi"],
        "render_fps": 1,
        "is_parallelizable": False,
    }

    def __init__(
        self,
        engine=None,
        players: int | None = None,
        render_mode: str | None = None,
        max_turns: int | None = None,
        illegal_reward: float = -1.0,
        reserved_slots: int | None = None,
        native: bool = False,
    ):
        super().__init__()
        self.module = engine_module(engine, native)
        self.players = players if players is not None else default_players(self.module)
        if self.players not in tuple(self.module.PLAYER_COUNTS):
            raise ValueError(
                f"the spec '{self.module.SPEC_NAME}' plays with "
                f"{', '.join(map(str, self.module.PLAYER_COUNTS))} players, not {self.players}"
            )
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, not {render_mode!r}")
        self.render_mode = render_mode
        self.max_turns = max_turns
        self.illegal_reward = float(illegal_reward)
        self.encoder = Encoder(self.module, self.players, reserved_slots)
        self.writer = ObservationWriter(self.encoder)
        # one row per observing seat, kept up to date between its observations (see writer)
        self._rows = [self.writer.row(np.zeros(self.encoder.size, dtype=np.float32)) for _ in range(self.players)]
        self.possible_agents = [f"player_{i}" for i in range(self.players)]
        n = self.module.NUM_ACTIONS
        self.observation_spaces = {
            a: spaces.Dict(
                {"observation": self.encoder.space(), "action_mask": spaces.Box(0, 1, shape=(n,), dtype=np.int8)}
            )
            for a in self.possible_agents
        }
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
            game_seed = int(self._seeds.integers(2**63))
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
        row = self._rows[p]
        self.writer.write(self.game, p, row)
        return {"observation": row.array.copy(), "action_mask": mask}

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
    """One seat learns, the others are bots (see :mod:`playtest.rl`).

    `opponents` is a bot name (random, greedy, mcts, mcts:PLAYOUTS) for every other seat
    or a list with one per other seat, in seat order. Bots are seeded from the reset seed,
    so ``reset(seed=s)`` replays the same episode for the same actions.
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(
        self,
        engine=None,
        players: int | None = None,
        seat: int = 0,
        opponents="greedy",
        render_mode: str | None = None,
        max_turns: int | None = None,
        illegal_reward: float = -1.0,
        reserved_slots: int | None = None,
        native: bool = False,
    ):
        self.module = engine_module(engine, native)
        self.players = players if players is not None else default_players(self.module)
        if self.players not in tuple(self.module.PLAYER_COUNTS):
            raise ValueError(
                f"the spec '{self.module.SPEC_NAME}' plays with "
                f"{', '.join(map(str, self.module.PLAYER_COUNTS))} players, not {self.players}"
            )
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
        self.writer = ObservationWriter(self.encoder)
        self._row = self.writer.row(np.zeros(self.encoder.size, dtype=np.float32))
        self.observation_space = self.encoder.space()
        self.action_space = spaces.Discrete(self.module.NUM_ACTIONS)
        self.game: Any = None  # an engine's Game, once reset
        self.bots: dict[int, Any] = {}
        self._done = False

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        game_seed = int(seed) if seed is not None else int(self.np_random.integers(2**63))
        others = [p for p in range(self.players) if p != self.seat]
        self.bots = {
            p: make_bot(name, self.module, int(self.np_random.integers(2**63)))
            for p, name in zip(others, self.opponents, strict=False)
        }
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
        self.writer.write(self.game, self.seat, self._row)
        return self._row.array.copy()

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
