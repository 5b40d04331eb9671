"""The native build of an engine plays the pure engine's games move by move.

The official engine is built once for the run (Cython and the C compiler: about a minute of CPU,
so this module is in the slow tier), into a folder the xdist workers share (the build's lock makes
the second worker wait for the first, then find it built). Seeded games are played on both engines
with the same random choices and compared decision by decision (legal actions, the state after each
move); saved games and records pass from one to the other; `simulate --native` reports what
`simulate` reports. tests/test_native_unavailable.py covers a machine that cannot build one.
"""

from __future__ import annotations

import json
import os
import random
import sysconfig

import pytest
from click.testing import CliRunner

from app.cli import main
from compiler import native
from playtest import engines
from playtest.rl import SplendorAEC


@pytest.fixture(scope="module")
def cache(engine_cache):
    return engine_cache.parent / "native-cache"  # --cache-dir: the native builds in its native/


@pytest.fixture(scope="module")
def built(cache):
    return engines.load("official", cache_dir=cache, native=True)


@pytest.fixture(scope="module")
def pure():
    return engines.load("official").module


def test_the_native_engine_is_an_extension_module_built_from_the_same_text(built, pure):
    assert built.native and built.module.__file__.endswith(sysconfig.get_config_var("EXT_SUFFIX"))
    assert built.module is not pure and built.source == engines.load("official").source
    assert built.module.SPEC_NAME == pure.SPEC_NAME and built.module.NUM_ACTIONS == pure.NUM_ACTIONS
    assert type(built.module.new_game).__name__ != "function"  # compiled, not the pure module's code


def test_a_second_build_of_the_same_text_is_the_cached_one(built, cache):
    path = built.module.__file__
    before = (path, os.stat(path).st_mtime_ns)
    again = native.build(built.source, "official", cache / "native")
    assert (str(again), again.stat().st_mtime_ns) == before


@pytest.mark.parametrize("players, seed", [(2, 1), (3, 2), (4, 3)])
def test_seeded_games_are_the_same_move_by_move(built, pure, players, seed):
    fast, slow = built.module.new_game(players, seed=seed), pure.new_game(players, seed=seed)
    rng = random.Random(seed)
    while not slow.is_over():
        legal = slow.legal_actions()
        assert fast.legal_actions() == legal and fast.current_player == slow.current_player
        action = legal[rng.randrange(len(legal))]
        assert built.module.action_to_string(action) == pure.action_to_string(action)
        slow.apply(action)
        fast.apply(action)
        if len(slow.history) % 17 == 0:
            assert fast.to_json() == slow.to_json()
    assert fast.is_over() and fast.to_json() == slow.to_json()
    assert fast.scores() == slow.scores() and fast.winners() == slow.winners()


def test_playouts_clones_and_observations_agree(built, pure):
    fast, slow = built.module.new_game(2, seed=7), pure.new_game(2, seed=7)
    a, b = fast.clone(), slow.clone()
    assert a.playout(random.Random(5)) == b.playout(random.Random(5))
    assert a.history == b.history and a.returns() == b.returns()
    assert fast.observation(1) == slow.observation(1) and fast.history == [] == slow.history


def test_saved_games_and_records_pass_between_the_two(built, pure):
    game = pure.new_game(3, seed=11)
    game.playout(random.Random(11), max_turns=20)
    text = game.to_json()
    loaded = built.module.from_json(text)
    assert loaded.to_json() == text and loaded.legal_actions() == game.legal_actions()
    assert pure.from_json(loaded.to_json()).to_json() == text
    assert built.module.replay(game.record()).to_json() == pure.replay(game.record()).to_json()


def test_simulate_native_reports_what_simulate_reports(built, cache):
    args = ["simulate", "official", "--games", "4", "--jobs", "2", "--bots", "random,greedy", "--seed", "3"]
    args += ["--json", "--no-progress", "--cache-dir", str(cache)]
    pure_run = CliRunner().invoke(main, args)
    native_run = CliRunner().invoke(main, [*args, "--native"])
    assert pure_run.exit_code == 0 == native_run.exit_code, native_run.output
    assert json.loads(native_run.output) == json.loads(pure_run.output)


def test_the_rl_environment_steps_the_native_engine(built, cache, monkeypatch):
    monkeypatch.setenv("SPLENDOR_RULES_CACHE", str(cache))  # where engines.load's default finds the build
    env = SplendorAEC("official", native=True)
    assert env.module is built.module
