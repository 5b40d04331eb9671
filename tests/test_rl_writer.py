"""The RL observation at engine speed (playtest/rl/writer.py) and the vector environment (vector.py).

The writer must give exactly the encoder's vector of ``game.observation(p)`` (content and
layout), step by step on seeded games, for every seat and for a row whose observer changes;
an engine whose games hide the attributes it reads is written through the observation, the
same. The vector environment follows Gymnasium's VectorEnv conventions: batched rows (the seat
to act's view), masks of the legal actions, the acting seat's reward at the end, next-step
autoreset, and it works on every engine of the catalogue.
"""

from __future__ import annotations

import pathlib
import random

import numpy as np
import pytest
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv

from playtest import engines, rl
from playtest.rl.writer import ObservationWriter

ROOT = pathlib.Path(__file__).resolve().parent.parent
ENGINES = ROOT / "generated" / "engines"


def module_of(name: str):
    return engines.load(str(ENGINES / f"{name}.py")).module


@pytest.fixture(scope="module")
def official():
    return module_of("official")


SECRET_HANDS = ROOT / "tests" / "specs" / "secret-hands.yaml"  # a hand another seat sees as hidden slots
RELICS = ROOT / "tests" / "specs" / "relics.yaml"  # zones split by a column: a part per level
SERIES = ROOT / "tests" / "specs" / "card-series.yaml"  # a series of the base cards in zones of its own


@pytest.mark.parametrize(
    "name, players, seed",
    [
        ("official", 2, 1),
        ("official", 4, 2),
        ("cities", 3, 3),
        ("trading_posts", 2, 4),
        (SECRET_HANDS, 2, 5),
        (RELICS, 3, 6),
        (SERIES, 2, 7),
    ],
    ids=["official-2", "official-4", "cities-3", "trading_posts-2", "secret_hands-2", "relics-3", "series-2"],
)
def test_the_writer_gives_the_encoders_vector_step_by_step(name, players, seed):
    m = module_of(name) if isinstance(name, str) else engines.load(str(name)).module
    enc = rl.Encoder(m, players)
    writer = ObservationWriter(enc)
    assert writer.direct
    rows = [writer.row(np.zeros(enc.size, np.float32)) for _ in range(players)]
    turning = writer.row(np.zeros(enc.size, np.float32))  # observed by the seat to act: its observer changes
    game = m.new_game(players, seed=seed)
    rng = random.Random(seed)
    for step in range(250):
        for p in range(players):
            writer.write(game, p, rows[p])
            expected = enc.encode(game.observation(p), game.prestige)
            assert rows[p].array.tobytes() == expected.tobytes(), (step, p, np.flatnonzero(rows[p].array != expected))
        me = max(game.current_player, 0)
        writer.write(game, me, turning)
        assert turning.array.tobytes() == enc.encode(game.observation(me), game.prestige).tobytes(), step
        if game.is_over():
            break
        game.apply(rng.choice(game.legal_actions()))
    assert game.is_over()


class Hiding:
    """A game that shows only part of the engine contract's attributes (as a build might)."""

    def __init__(self, game):
        self._game = game

    def __getattr__(self, name):
        if name in ("blind", "pending"):
            raise AttributeError(name)
        return getattr(self._game, name)


def test_a_game_without_the_attributes_is_written_through_its_observation(official):
    m = official

    class Module:  # the official engine whose games hide two attributes
        def __getattr__(self, name):
            return getattr(m, name)

        @staticmethod
        def new_game(players, seed=None, **kw):
            return Hiding(m.new_game(players, seed=seed, **kw))

    enc = rl.Encoder(Module(), 2)
    writer = ObservationWriter(enc)
    assert not writer.direct
    row = writer.row(np.zeros(enc.size, np.float32))
    game = Module.new_game(2, seed=9)
    rng = random.Random(9)
    for _ in range(40):
        writer.write(game, 1, row)
        assert row.array.tobytes() == enc.encode(game.observation(1), game.prestige).tobytes()
        game._game.apply(rng.choice(game.legal_actions()))


def check_batch(env, obs, info) -> None:
    """Each row is the encoder's vector of the seat in infos["seat"]; each mask its legal actions."""
    assert obs.shape == (env.num_envs, env.encoder.size) and obs.dtype == np.float32
    for b, game in enumerate(env.games):
        seat = int(info["seat"][b])
        assert obs[b].tobytes() == env.encoder.encode(game.observation(seat), game.prestige).tobytes(), b
        legal = [] if game.is_over() else game.legal_actions()
        assert np.flatnonzero(info["action_mask"][b]).tolist() == sorted(legal), b
        assert not game.is_over() or not info["action_mask"][b].any()


def random_actions(rng, mask: np.ndarray) -> np.ndarray:
    return (rng.random(mask.shape) * mask).argmax(1)


def test_the_vector_env_follows_gymnasiums_conventions(official):
    env = rl.SplendorVectorEnv(3, engine=official, players=2)
    assert isinstance(env, VectorEnv) and env.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    assert env.single_action_space == spaces.Discrete(official.NUM_ACTIONS)
    assert env.observation_space.shape == (3, env.encoder.size) and env.action_space.shape == (3,)
    obs, info = env.reset(seed=5)
    again, _ = rl.SplendorVectorEnv(3, engine=official, players=2).reset(seed=5)
    assert obs.tobytes() == again.tobytes()  # seeded games: game b from seed + b
    check_batch(env, obs, info)
    assert info["_action_mask"].all() and info["_seat"].all()
    rng = np.random.default_rng(5)
    finished = 0
    for _ in range(1200):
        before = [g.current_player for g in env.games]
        obs, rewards, terminated, truncated, info = env.step(random_actions(rng, info["action_mask"]))
        check_batch(env, obs, info)
        for b in np.flatnonzero(terminated):
            finished += 1
            assert env.games[b].is_over() and int(info["seat"][b]) == before[b]  # the actor's view of the end
            assert rewards[b] == env.games[b].returns()[before[b]] == info["returns"][b][before[b]]
            assert info["_returns"][b]
        ended = terminated | truncated
        assert not rewards[~ended].any()
        if ended.any():  # next-step autoreset: a new game, reward 0, neither flag
            games = list(env.games)
            obs, rewards, terminated, truncated, info = env.step(random_actions(rng, info["action_mask"]))
            check_batch(env, obs, info)
            for b in np.flatnonzero(ended):
                assert env.games[b] is not games[b] and env.games[b].history == []
                assert rewards[b] == 0 and not terminated[b] and not truncated[b]
        if finished >= 2:
            break
    assert finished >= 2


def test_an_illegal_action_ends_its_game_only(official):
    env = rl.SplendorVectorEnv(2, engine=official, players=2, illegal_reward=-3.0)
    _obs, info = env.reset(seed=1)
    actions = random_actions(np.random.default_rng(1), info["action_mask"])
    actions[1] = int(np.flatnonzero(~info["action_mask"][1])[0])
    _obs, rewards, terminated, truncated, info = env.step(actions)
    assert terminated.tolist() == [False, True] and not truncated.any() and rewards.tolist() == [0.0, -3.0]
    assert info["illegal_action"].tolist() == [False, True] and not info["_returns"].any()
    with pytest.raises(ValueError, match="3 actions for 2 games"):
        env.step([0, 0, 0])


@pytest.mark.parametrize("name", sorted(p.stem for p in ENGINES.glob("*.py")))
def test_the_vector_env_runs_every_catalogue_engine(name):
    """Each engine at its most players, its games cut short: every row the encoder's, in the space."""
    m = module_of(name)
    env = rl.SplendorVectorEnv(2, engine=m, players=max(m.PLAYER_COUNTS), max_turns=6)
    obs, info = env.reset(seed=len(name))
    rng = np.random.default_rng(len(name))
    truncations = 0
    for _ in range(40):
        check_batch(env, obs, info)
        assert all(row in env.single_observation_space for row in obs)
        obs, _rewards, _terminated, truncated, info = env.step(random_actions(rng, info["action_mask"]))
        truncations += int(truncated.sum())
    assert truncations
