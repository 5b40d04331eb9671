"""Zones of a spec's own kinds (rulespec/README.md, Zones): the deal, the saved state (format
version 2), what an observer sees, and the checks (the pinned messages of E540-E553 are in
tests/broken/, one case each)."""
from __future__ import annotations

import json
import random

import pytest

from engine_helpers import ROOT, load_engine
from compiler import pipeline
from compiler.diagnostics import CompileError


@pytest.fixture(scope="module")
def cities(tmp_path_factory):
    path = tmp_path_factory.mktemp("zones") / "cities.py"
    path.write_text(pipeline.compile_spec(str(ROOT / "variants" / "cities.yaml")).text, encoding="utf-8")
    return load_engine(path)


@pytest.fixture(scope="module")
def official():
    return load_engine(ROOT / "generated" / "engines" / "official.py")


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", [1, 2, 99, 2024])
def test_every_base_card_and_noble_deal_is_official_and_the_zones_deal_is_the_same_each_time(cities, official,
                                                                                           players, seed):
    game, base = cities.new_game(players, seed), official.new_game(players, seed)
    assert game.market == base.market and game.decks == base.decks and game.supply == base.supply
    again = cities.new_game(players, seed)
    assert (again.z_city_pile, again.z_city_display) == (game.z_city_pile, game.z_city_display)
    dealt = {tuple(cities.new_game(players, s).z_city_display) for s in range(30)}
    assert len(dealt) > 20  # the seed decides which cities, and which side of each tile


def test_the_engine_without_zones_keeps_state_version_1_and_no_zones_key(official):
    state = official.new_game(2, 1).to_dict()
    assert state["version"] == 1 and "zones" not in state and "zones" not in state["seats"][0]


def test_a_version_2_state_round_trips_through_json_and_replays(cities):
    game = cities.new_game(2, 11)
    rng = random.Random(11)
    while not game.is_over():
        game.apply(rng.choice(game.legal_actions()))
    text = game.to_json()
    data = json.loads(text)
    assert data["version"] == 2 and set(data["zones"]) == {"city_pile", "city_display"}
    assert all(set(seat["zones"]) == {"claimed"} for seat in data["seats"])
    assert cities.from_json(text).to_json() == text
    assert cities.replay(game.record()).to_json() == text


def test_an_observation_shows_a_pile_as_its_count_only(cities):
    game = cities.new_game(2, 3)
    seen = game.observation(1)
    assert seen["zones"]["city_pile"] == len(game.z_city_pile) == 4
    assert seen["zones"]["city_display"] == game.z_city_display
    assert game.to_dict()["zones"]["city_pile"] == list(reversed(game.z_city_pile))  # top first


@pytest.mark.parametrize("edit, says", [
    (lambda s: s["zones"].update(city_display=[99]), "zones.city_display: unknown cities id 99 (cities are 0 to 13)"),
    (lambda s: s["zones"].update(city_pile=s["zones"]["city_pile"] + s["zones"]["city_display"][:1]),
     "appears more than once"),
    (lambda s: s["zones"].update(city_pile=[(s["zones"]["city_display"][0] ^ 1)] + s["zones"]["city_pile"]),
     "are two faces of one piece: at most one of them is in play"),
    (lambda s: s["zones"].pop("city_pile"), "'zones' must be an object with the shared zones (city_pile, city_display)"),
    (lambda s: s["zones"].update(city_display=s["zones"]["city_display"] + s["zones"]["city_pile"][:1]),
     "zones.city_display holds 4, at most 3"),
    (lambda s: s.update(version=1), "'version' must be 2, not 1"),
])
def test_from_json_refuses_a_broken_zone_with_a_located_sentence(cities, edit, says):
    state = cities.new_game(2, 5).to_dict()
    edit(state)
    with pytest.raises(cities.StateError) as err:
        cities.from_json(state)
    assert says in str(err.value)


def test_a_zone_of_the_base_cards_is_refused_as_built_in():
    text = (ROOT / "tests" / "broken" / "zone_key_misfit.yaml").read_text(encoding="utf-8")
    text = text.replace("city_pile: {title: City tiles, holds: cities, shape: pile, size: 4, start: all}",
                        "city_pile: {title: City tiles, holds: cards, shape: pile, start: all}")
    broken = ROOT / "tests" / "broken" / "_zone_of_cards.yaml"
    broken.write_text(text, encoding="utf-8")
    try:
        with pytest.raises(CompileError) as err:
            pipeline.load_rules(str(broken))
    finally:
        broken.unlink()
    first = err.value.diagnostics[0]
    assert first.code == "E541"
    assert first.message == ("zone 'city_pile' holds the cards: the base game's cards and nobles lie in their built-in "
                             "zones (decks, market, hands, noble row), which a spec does not redeclare")


def test_a_move_of_nothing_is_a_located_rule_error(cities):
    game = cities.new_game(2, 1)
    with pytest.raises(cities.RuleError, match="no component to move"):
        cities._zone_move(game, None, 2, 0, "move(city, me.claimed) (variants/cities.yaml:1)")


def test_play_shows_the_zones_a_pile_as_its_count(cities):
    from playtest import terminal

    game = cities.new_game(2, 3)
    seats = terminal.make_seats(cities, ["human", "greedy"], 3)
    board = terminal.draw_board(cities, game, seats, 0)
    shown = "; ".join(f"{x}: {' '.join(map(str, cities.k_cities[x]))}" for x in game.z_city_display)
    assert "city_pile   4 pieces, face down" in board
    assert f"city_display   {shown}" in board
    assert board.count("claimed   none") == 2
