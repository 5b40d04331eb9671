"""Bots and simulation on the real generated engines (official rules and the variant catalogue).

Loading engines by spec, module path and module name (fresh, stale and missing modules),
determinization over hidden information, every bot on every variant of the catalogue,
determinism across job counts, and the known effect: target-12 gives significantly
shorter games than the official rules.
"""

from __future__ import annotations

import hashlib
import json
import pathlib
import random
import shutil
import subprocess
import sys

import pytest
import yaml

from compiler import pipeline
from compiler.diagnostics import CompileError
from playtest import engines
from playtest import simulate as sim
from playtest.bots import GreedyBot, MCTSBot, RandomBot, determinize, make_bot

ROOT = pathlib.Path(__file__).resolve().parent.parent
OFFICIAL = ROOT / "rulespec" / "official.yaml"
TARGET_12 = ROOT / "variants" / "target-12.yaml"
CATALOGUE = yaml.safe_load((ROOT / "variants" / "index.yaml").read_text(encoding="utf-8"))["variants"]


@pytest.fixture(scope="module")
def official():
    return engines.load(str(OFFICIAL))


@pytest.fixture(scope="module")
def target12():
    return engines.load(str(TARGET_12))


# ----------------------------------------------------------------------------- loading


def test_load_by_spec_module_path_and_module_name(official):
    assert official.name == "official" and official.module.NUM_ACTIONS > 0
    by_path = engines.load(str(ROOT / "generated" / "engines" / "official.py"))
    by_name = engines.load("generated.engines.official")
    assert by_path.name == by_name.name == "official"
    assert by_path.source == by_name.source
    # A module rebuilt from its source text (as a worker does) is the same engine.
    module = engines.from_source(official.source, "official.py")
    assert module.SPEC_SHA256 == official.module.SPEC_SHA256
    assert engines.from_source(official.source) is module


def test_a_fresh_generated_module_is_used_and_a_stale_one_rebuilt(tmp_path, monkeypatch):
    generated = tmp_path / "generated"
    generated.mkdir()
    monkeypatch.setattr(engines, "GENERATED", generated)
    text = pipeline.compile_spec(str(TARGET_12)).text
    (generated / "target_12.py").write_text(text, encoding="utf-8")
    fresh = engines.load(str(TARGET_12), cache_dir=tmp_path / "cache")
    assert fresh.path == str(generated / "target_12.py")
    assert not (tmp_path / "cache").exists()
    stale_text = text.replace('SPEC_NAME = "target-12"', 'SPEC_NAME = "old"')
    assert stale_text != text
    (generated / "target_12.py").write_text(stale_text, encoding="utf-8")
    stale = engines.load(str(TARGET_12), cache_dir=tmp_path / "cache")
    assert pathlib.Path(stale.path).parent == tmp_path / "cache"
    assert stale.name == "target-12" and stale.source == text
    (generated / "target_12.py").unlink()
    missing = engines.load(str(TARGET_12), cache_dir=tmp_path / "cache")
    assert missing.path == stale.path


def test_a_changed_spec_gets_its_own_engine(tmp_path):
    for name in ("official.yaml", "splendor_cards.csv", "splendor_nobles.csv"):
        shutil.copy(ROOT / "rulespec" / name, tmp_path / name)
    spec = tmp_path / "official.yaml"
    spec.write_text(spec.read_text(encoding="utf-8").replace("target: 15 ", "target: 14 "), encoding="utf-8")
    engine = engines.load(str(spec), cache_dir=tmp_path / "cache")
    assert engine.name == "official"
    assert pathlib.Path(engine.path).parent == tmp_path / "cache"
    assert engine.module.SPEC_SHA256 == hashlib.sha256(spec.read_bytes()).hexdigest()
    assert engine.source != engines.load(str(OFFICIAL)).source
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder")
    with pytest.raises(engines.EngineError, match="cannot write its engine"):
        engines.load(str(spec), cache_dir=blocked)


def test_loading_errors(tmp_path):
    with pytest.raises(engines.EngineError, match="no such spec file"):
        engines.load(str(tmp_path / "nowhere.yaml"))
    with pytest.raises(engines.EngineError, match="no such engine module"):
        engines.load(str(tmp_path / "nowhere.py"))
    not_engine = tmp_path / "x.py"
    not_engine.write_text("A = 1\n")
    with pytest.raises(engines.EngineError, match="not an engine module"):
        engines.load(str(not_engine))
    bad = tmp_path / "bad.yaml"
    bad.write_text("spec: 1\nname: bad\nextends: official\nvalues:\n  targt: 12\n", encoding="utf-8")
    with pytest.raises(CompileError):
        engines.load(str(bad), cache_dir=tmp_path / "cache")


# ----------------------------------------------------------------------------- determinization


def _midgame(module, seed):
    """A 3-player game in which seats 1 and 2 have reserved blind and seat 0 from the market."""
    game = module.new_game(3, seed=seed)
    for notation in ("reserve 1.1", "reserve deck 2", "reserve deck 3", "take white blue green"):
        game.apply(module.string_to_action(notation))
    return game


def test_determinization_keeps_what_the_player_sees(official):
    module = official.module
    game = _midgame(module, 11)
    me = game.current_player
    seen = game.observation(me)
    rng = random.Random(1)
    worlds = [determinize(game, me, rng, module) for _ in range(5)]
    for world in worlds:
        assert world.observation(me) == seen
        assert world.legal_actions() == game.legal_actions()
        assert sorted(c for row in world.market for c in row if c is not None) == sorted(
            c for row in game.market for c in row if c is not None
        )
    # What is hidden is dealt again: blind reserves keep their level, decks differ.
    levels = module.CARD_LEVEL if hasattr(module, "CARD_LEVEL") else {c.id: c.level for c in module.CARDS}
    for world in worlds:
        assert [levels[c] for c in world.reserved[1]] == [2] and [levels[c] for c in world.reserved[2]] == [3]
    assert len({tuple(w.decks[0]) for w in worlds}) > 1
    assert len({w.reserved[2][0] for w in worlds} | {game.reserved[2][0]}) > 1


def test_determinization_never_moves_what_the_player_knows(official):
    module = official.module
    game = _midgame(module, 12)
    # Seat 1 reserved blind: it knows its own card, so it stays; seat 2's is hidden from it.
    world = determinize(game, 1, random.Random(2), module)
    assert world.reserved[1] == game.reserved[1]
    assert world.reserved[0] == game.reserved[0]  # reserved face up: everybody saw it


# ----------------------------------------------------------------------------- bots


def _play(module, names, seed, max_turns=400):
    return sim.play_game(module, len(names), names, seed, max_turns=max_turns)


def test_bots_are_deterministic_given_their_seed(official):
    a = _play(official.module, ["mcts:10", "greedy"], 3)
    b = _play(official.module, ["mcts:10", "greedy"], 3)
    assert a == b and a.over


def test_greedy_beats_random(official):
    wins = 0
    for i in range(8):
        names = ["greedy", "random"] if i % 2 == 0 else ["random", "greedy"]
        r = _play(official.module, names, 100 + i)
        wins += names.index("greedy") in r.winners and len(r.winners) == 1
    assert wins >= 7


@pytest.mark.parametrize("variant", CATALOGUE)
def test_every_bot_plays_every_variant(variant):
    engine = engines.load(str(ROOT / "variants" / f"{variant}.yaml"))
    module = engine.module
    players = module.PLAYER_COUNTS[0] if 2 not in module.PLAYER_COUNTS else 2
    for names, seed in (
        (["random"] * players, 1),
        (["greedy"] * players, 2),
        ((["mcts:6", "greedy"] * players)[:players], 3),
    ):
        r = _play(module, names, seed, max_turns=150)
        assert r.turns >= 1
        assert r.over or r.turns == 150
        if r.over and r.winners:
            assert all(0 <= w < players for w in r.winners)


def test_bots_choose_legal_actions_in_every_phase(official):
    module = official.module
    game = module.new_game(4, seed=5)
    bots = [RandomBot(module, 1), GreedyBot(module, 2), MCTSBot(module, 3, playouts=5), make_bot("greedy", module, 4)]
    phases = set()
    while not game.is_over():
        phases.add(game.phase)
        action = bots[game.current_player].choose(game)
        assert action in game.legal_actions()
        game.apply(action)
    assert "action" in phases


# ----------------------------------------------------------------------------- simulation


def test_same_results_for_any_jobs(official, target12):
    kw = dict(players=2, games=4, bots=["greedy", "mcts:6"], seed=8)
    one = sim.simulate([official, target12], jobs=1, **kw).to_dict(games=True)
    two = sim.simulate([official, target12], jobs=2, chunk=1, **kw).to_dict(games=True)
    assert one == two
    assert [s["games"] for s in one["specs"]] == [4, 4]


def test_target_12_gives_significantly_shorter_games(official, target12):
    result = sim.simulate([official, target12], players=2, games=24, bots=["greedy"], seed=1, jobs=2).to_dict()
    base, short = result["specs"]
    assert base["games"] == short["games"] == 24
    assert base["shares"]["capped"] == short["shares"]["capped"] == 0.0
    comparison = result["comparisons"][0]
    assert comparison["rounds"]["difference"] < -1
    assert comparison["rounds"]["welch"]["p_value"] < 0.01
    assert comparison["rounds"]["mann_whitney"]["p_value"] < 0.01
    assert short["winning_prestige"] < base["winning_prestige"]
    assert base["ends"] == {"target": 24}


def test_cli_simulate_specs():
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "app",
            "simulate",
            str(OFFICIAL),
            str(TARGET_12),
            "--games",
            "4",
            "--bots",
            "random",
            "--jobs",
            "2",
            "--json",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert [s["name"] for s in data["specs"]] == ["official", "target-12"]
    assert data["comparisons"][0]["spec"] == str(TARGET_12)


def test_cli_simulate_reports_spec_errors(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("spec: 1\nname: bad\nextends: official\nvalues:\n  targt: 12\n", encoding="utf-8")
    out = subprocess.run(
        [sys.executable, "-m", "app", "simulate", str(bad), "--games", "2"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 1
    assert "targt" in out.stderr and "error[" in out.stderr and "Traceback" not in out.stderr
