"""An engine's own state always loads (issue 26, item 10): over seeded random games of every
catalogue engine (rulespec/official.yaml and variants/index.yaml, compiled in generated/engines),
of the test specs with zones (tests/specs/) and of mutants with zones, saved and loaded at random
points (between turns, in the middle of the end-of-turn steps or of a payment), `from_json` takes
what `to_json` wrote, the loaded game saves the same text, and the game goes on from the loaded
copy. A state that does not load is a component in two places (two faces of one tile in play,
one tile in two zones), a display without its slots, a zone over its size: what each component in
one place, by construction (compiler/check/zones.py, compiler/emit/runtime/zones.py), rules out.

About 2,000 games in all (60 per catalogue engine and per test spec, 10 per mutant that checks
clean; a mutant's games, compiled from a spec of many zones and saved every few moves, cost the
most). SPLENDOR_STATE_GAMES (games per engine, default 60) and SPLENDOR_STATE_MUTANTS (default 10)
search deeper; on CI (CI=true) the mutants are the same on every run.
"""

from __future__ import annotations

import copy
import os
import random
import shutil

import pytest
from hypothesis import HealthCheck, event, given, note, settings
from hypothesis import strategies as st
from hypothesis.control import currently_in_test_context

from compiler import pipeline
from compiler.diagnostics import CompileError
from tests.helpers.engines import ROOT, load_engine
from tests.helpers.mutations import ODD_VALUES, WITH_ZONES, ZONE_PATHS, ZONE_VALUES, dump, get_at, set_at

GAMES = int(os.environ.get("SPLENDOR_STATE_GAMES", "60"))
MUTANTS = int(os.environ.get("SPLENDOR_STATE_MUTANTS", "10"))
MUTANT_GAMES = 10
SAVE_EVERY = 9  # decisions between two saves, on average
MAX_DECISIONS = 600  # a game of random moves is cut there (a mutant's may never end)
ENGINES = sorted((ROOT / "generated" / "engines").glob("*.py"))
TEST_SPECS = sorted((ROOT / "tests" / "specs").glob("*.yaml"))


def play_saving(engine, players: int, seed: int) -> int:
    """One seeded random game, saved and loaded at random points, each time going on from the loaded
    copy; the number of saves. A RuleError (an effect the spec's rules cannot carry out, E535) ends
    the game: what it leaves is not a state the engine made whole."""
    rng = random.Random(seed)
    game = engine.new_game(players, seed)
    saves = decisions = 0
    while decisions < MAX_DECISIONS:
        text = game.to_json()
        loaded = engine.from_json(text)  # a StateError here is the failure this test looks for
        assert loaded.to_json() == text, f"seed {seed}: the loaded game saves another state"
        assert loaded.legal_actions() == game.legal_actions()
        game, saves = loaded, saves + 1
        for _ in range(rng.randrange(1, 2 * SAVE_EVERY)):
            if game.is_over():
                return saves
            try:
                game.apply(rng.choice(game.legal_actions()))
            except engine.RuleError:
                return saves
            decisions += 1
    return saves


@pytest.mark.parametrize("path", ENGINES, ids=[p.stem for p in ENGINES])
def test_a_catalogue_engines_own_state_always_loads(path):
    engine = load_engine(path)
    saves = sum(
        play_saving(engine, engine.PLAYER_COUNTS[seed % len(engine.PLAYER_COUNTS)], seed) for seed in range(GAMES)
    )
    assert saves >= GAMES * 2


@pytest.fixture(scope="module")
def test_engines(tmp_path_factory):
    folder = tmp_path_factory.mktemp("states")
    engines = []
    for spec in TEST_SPECS:
        path = folder / (spec.stem.replace("-", "_") + ".py")
        path.write_text(pipeline.compile_spec(str(spec)).text, encoding="utf-8")
        engines.append(load_engine(path))
    return engines


def test_the_zones_test_specs_own_states_always_load(test_engines):
    assert len(test_engines) >= 4
    for engine in test_engines:
        for seed in range(GAMES):
            play_saving(engine, engine.PLAYER_COUNTS[seed % len(engine.PLAYER_COUNTS)], seed)


# --------------------------------------------------------------------------- mutants with zones


def _text(name: str) -> dict:
    return {"en": name}


# Zones added to the Cities' zones of tests/test_mutations.py (WITH_ZONES): each shape and start.
ZONES = {
    "shown": {"title": _text("Shown"), "holds": "cities", "shape": "display", "size": 2},
    "dealt_shown": {
        "title": _text("Dealt"),
        "holds": "cities",
        "shape": "display",
        "size": 2,
        "source": "city_pile",
        "start": "dealt",
    },
    "stash": {
        "title": _text("Stash"),
        "holds": "cities",
        "shape": "holding",
        "per_player": True,
        "limit": 2,
        "private_when_drawn": True,
    },
    "bench": {"title": _text("Bench"), "holds": "cities", "shape": "holding", "limit": 3},
}
# Zones that deal the kind a second time (E560): check must refuse them.
TWICE = {
    "spare": {"title": _text("Spare"), "holds": "cities", "shape": "pile", "start": "all"},
    "open_row": {"title": _text("Open"), "holds": "cities", "shape": "row", "size": 2, "start": "dealt"},
}


def _action(notation: str, effects: list[str], condition: str = "", **choose) -> dict:
    out = {"title": _text(notation), "notation": notation, "effects": effects}
    if choose:
        out["choose"] = {name: {"domain": "component", "from": source} for name, source in choose.items()}
    if condition:
        out["condition"] = condition
    return out


ACTIONS = {
    "draw_city": _action("draw city", ["draw(city_pile, me.stash)"], "size(city_pile) >= 1 and size(me.stash) < 2"),
    "show_city": _action("show city", ["reveal(city_pile, shown)"], "size(city_pile) >= 1"),
    "refill_row": _action("refill cities", ["refill(city_display)"], "size(city_display) < 3"),
    "pick_city": _action("pick {city}", ["move(city, me.claimed)"], "city not in me.claimed", city="cities"),
    "bench_city": _action("bench {city}", ["move(city, bench)"], "size(bench) < 3", city="cities"),
    "bury_city": _action("bury {city}", ["to_bottom(city, city_pile)"], city="city_display"),
    "drop_city": _action("drop {city}", ["discard(city)"], city="shown"),
    "stash_city": _action("stash {city}", ["move(city, me.stash)"], "size(me.stash) < 2", city="dealt_shown"),
    "unstash": _action("unstash {city}", ["move(city, shown)"], "size(shown) < 2", city="stash"),
    "sweep": _action("sweep", ["for x in city_display: move(x, bench)"], "size(bench) == 0"),
}
SETUPS = {
    "each_draws": {
        "title": _text("A city each"),
        "each_player": True,
        "effects": ["if size(city_pile) >= 1: draw(city_pile, me.stash)"],
    },
    "reveal_two": {"title": _text("Two shown"), "each_player": True, "effects": ["reveal(city_pile, shown)"]},
}


def mutant(actions: list[str], setups: list[str], twice: list[str], change) -> dict:
    tree = copy.deepcopy(WITH_ZONES)
    tree["zones"] = {**tree["zones"], **ZONES, **{name: TWICE[name] for name in twice}}
    tree["actions"] = {**tree["actions"], **{name: ACTIONS[name] for name in actions}}
    if setups:
        tree["setup"] = {name: SETUPS[name] for name in setups}
    if change is not None:
        path, value, drop = change
        parent = get_at(tree, path[:-1])
        if drop and len(path) > 1 and path[-1] in parent:
            del parent[path[-1]]
        elif path[-1] in parent if isinstance(parent, dict) else path[-1] < len(parent):
            set_at(tree, path, value)
    return tree


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    path = tmp_path_factory.mktemp("state_mutants")
    for name in ("splendor_cards.csv", "splendor_nobles.csv"):
        shutil.copy(ROOT / "rulespec" / name, path / name)
    shutil.copy(ROOT / "variants" / "cities.csv", path / "cities.csv")
    return path


def compile_mutant(workdir, tree, name: str):
    """(the engine of a mutant, or None when check refuses it; the codes of check's diagnostics)."""
    spec = workdir / f"{name}.yaml"
    spec.write_bytes(dump({**tree, "name": name}))
    try:
        text = pipeline.compile_spec(str(spec)).text
    except CompileError as err:
        if currently_in_test_context():
            note("\n".join(f"{d.code}: {d.message}" for d in err.diagnostics))
        return None, {d.code for d in err.diagnostics}
    (workdir / f"{name}.py").write_text(text, encoding="utf-8")
    return load_engine(workdir / f"{name}.py"), set()


def test_the_mutants_base_with_every_addition_checks_and_its_states_load(workdir):
    """Every zone, action and setup block the mutants draw from, at once: a spec check accepts."""
    engine, codes = compile_mutant(workdir, mutant(list(ACTIONS), sorted(SETUPS), [], None), "everything")
    assert engine is not None, codes
    for seed in range(GAMES):
        play_saving(engine, 2 + seed % 3, seed)
    for name in TWICE:
        assert compile_mutant(workdir, mutant([], [], [name], None), name) == (None, {"E560"})


@settings(
    max_examples=MUTANTS,
    deadline=None,
    database=None,
    derandomize=bool(os.environ.get("CI")),
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    actions=st.lists(st.sampled_from(sorted(ACTIONS)), max_size=4, unique=True),
    setups=st.lists(st.sampled_from(sorted(SETUPS)), max_size=2, unique=True),
    twice=st.sampled_from([[], [], [], ["spare"], ["open_row"]]),
    change=st.none()
    | st.none()
    | st.none()
    | st.tuples(st.sampled_from(ZONE_PATHS), st.sampled_from(ZONE_VALUES + ODD_VALUES[:8]), st.booleans()),
)
def test_a_mutants_own_state_always_loads(workdir, actions, setups, twice, change):
    note(f"actions {actions}, setup {setups}, twice {twice}, change {change}")
    engine, _ = compile_mutant(workdir, mutant(actions, setups, twice, change), "mutant")
    event("refused by check" if engine is None else "checked clean")
    if engine is None:
        return
    for players in engine.PLAYER_COUNTS:
        engine.new_game(players, 1)  # check clean: it deals at every player count
    for seed in range(MUTANT_GAMES):
        play_saving(engine, engine.PLAYER_COUNTS[seed % len(engine.PLAYER_COUNTS)], seed)
