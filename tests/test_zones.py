"""Zones of a spec's own kinds (rulespec/README.md, Zones): the deal, the saved state (format
version 2), what an observer sees, and the checks (the pinned messages of E540-E553 are in
tests/broken/, one case each)."""

from __future__ import annotations

import json
import pathlib
import random

import pytest

from compiler import pipeline
from compiler.diagnostics import CompileError
from tests.helpers.engines import ROOT, act, finish_forced_steps, load_engine


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
def test_every_base_card_and_noble_deal_is_official_and_the_zones_deal_is_the_same_each_time(
    cities, official, players, seed
):
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


@pytest.mark.parametrize(
    "edit, says",
    [
        (
            lambda s: s["zones"].update(city_display=[99]),
            "zones.city_display: unknown cities id 99 (cities are 0 to 13)",
        ),
        (
            lambda s: s["zones"].update(city_pile=s["zones"]["city_pile"] + s["zones"]["city_display"][:1]),
            "appears more than once",
        ),
        (
            lambda s: s["zones"].update(city_pile=[(s["zones"]["city_display"][0] ^ 1)] + s["zones"]["city_pile"]),
            "are two faces of one piece: at most one of them is in play",
        ),
        (
            lambda s: s["zones"].pop("city_pile"),
            "'zones' must be an object with the shared zones (city_pile, city_display)",
        ),
        (
            lambda s: s["zones"].update(city_display=s["zones"]["city_display"] + s["zones"]["city_pile"][:1]),
            "zones.city_display holds 4, at most 3",
        ),
        (lambda s: s.update(version=1), "'version' must be 2, not 1"),
    ],
)
def test_from_json_refuses_a_broken_zone_with_a_located_sentence(cities, edit, says):
    state = cities.new_game(2, 5).to_dict()
    edit(state)
    with pytest.raises(cities.StateError) as err:
        cities.from_json(state)
    assert says in str(err.value)


@pytest.mark.parametrize(
    "value, says",
    [
        (5, "it is 5"),
        ("text", "it is 'text'"),
        (True, "it is True"),
        ([1], "it is a list of 1"),
        (None, "it is None"),
        ({"claimed": [], "x": []}, "it has an unknown zone 'x'"),
        ({"claimed": [], "claimed_private": []}, "it has an unknown zone 'claimed_private'"),  # cities keeps none
        ({}, "it has no 'claimed'"),
    ],
)
def test_from_json_refuses_a_seat_whose_zones_are_not_its_zones_object(cities, value, says):
    """Issue 26 item 18: a seat's 'zones' that is no object raised AttributeError."""
    state = cities.new_game(2, 5).to_dict()
    state["seats"][1]["zones"] = value
    with pytest.raises(cities.StateError) as err:
        cities.from_json(state)
    assert err.value.problems == (
        (("seats", 1, "zones"), f"seats[1].zones must be an object with the seat's zones (claimed); {says}"),
    )


def test_play_load_and_load_in_play_refuse_a_seat_zones_that_is_a_number(cities, tmp_path, monkeypatch):
    """Issue 26 item 18: `play --load` printed a traceback, `load` in play exited 3 and lost the game."""
    from click.testing import CliRunner

    from app import cli
    from playtest import terminal

    state = cities.new_game(2, 5).to_dict()
    state["seats"][1]["zones"] = 5
    saved = tmp_path / "game.json"
    saved.write_text(json.dumps(state, indent=1), encoding="utf-8")
    line = next(n for n, text in enumerate(saved.read_text().split("\n"), 1) if text == '   "zones": 5')
    shown = (
        f"{saved}:{line}:13: error[E710]: seats[1].zones must be an object with the seat's zones (claimed); "
        f'it is 5\n {line} |    "zones": 5\n {" " * len(str(line))} |             ^\n1 error'
    )
    monkeypatch.chdir(ROOT)
    result = CliRunner().invoke(cli.main, ["play", "variants/cities.yaml", "--load", str(saved)], input="quit\n")
    assert (result.exit_code, result.stdout, result.stderr) == (1, "", shown + "\n")
    table = terminal.new_table(cities, 2, ["human", "greedy"], seed=6)
    before, said = table.game.to_json(), []
    answers = iter([f"load {saved}", "quit"])
    assert terminal.Session(table, ask=lambda prompt: next(answers), say=said.append).run() == 0
    assert shown in said and table.game.to_json() == before


def test_a_zone_of_the_base_cards_without_a_place_is_refused():
    text = (ROOT / "tests" / "broken" / "zone_key_misfit.yaml").read_text(encoding="utf-8")
    text = text.replace(
        "city_pile: {title: City tiles, holds: cities, shape: pile, size: 4, start: all}",
        "city_pile: {title: City tiles, holds: cards, shape: pile, start: all}",
    )
    broken = ROOT / "tests" / "broken" / "_zone_of_cards.yaml"
    broken.write_text(text, encoding="utf-8")
    try:
        with pytest.raises(CompileError) as err:
            pipeline.load_rules(str(broken))
    finally:
        broken.unlink()
    first = err.value.diagnostics[0]
    assert first.code == "E541"
    assert first.message == (
        "zone 'city_pile' holds the cards but names no place of the base game: the base game's "
        "cards lie where its deal puts them, or in a holding the rules move them into"
    )
    assert first.notes == (
        "name the place the zone is: 'place: purchased' (the places of the cards: purchased, reserved, face_up, "
        "decks), or make it a holding",
    )


def test_a_move_of_nothing_is_a_located_rule_error(cities):
    game = cities.new_game(2, 1)
    with pytest.raises(cities.RuleError, match="no component to move"):
        cities._zone_move(game, None, 2, 0, "move(city, me.claimed) (variants/cities.yaml:1)")


def test_play_shows_the_zones_a_pile_as_its_count(cities):
    from playtest import terminal

    game = cities.new_game(2, 3)
    assert game.z_city_display == [0, 13, 10]
    game.z_claimed[1].append(game.z_city_display.pop(1))
    seats = terminal.make_seats(cities, ["human", "greedy"], 3)
    board = terminal.draw_board(cities, game, seats, 0)
    assert (
        "city_pile   4 pieces, face down\n"
        "city_display   1) tile 1  side 1  prestige 13  requires 4 red 3 black  any_one_colour 0\n"
        "               2) tile 6  side 1  prestige 13  requires 3 blue 4 green  any_one_colour 0\n" in board
    )
    assert "    claimed   none\n" in board
    assert (
        "    claimed   1) tile 7  side 2  prestige 14  requires 2 white 1 blue 1 green 2 red 2 black  "
        "any_one_colour 0" in board
    )
    # In full (a finished game, a spectator) too, a pile is its count: what is left in it stays unseen.
    whole = terminal.draw_board(cities, game, seats, None)
    assert "city_pile   4 pieces, face down\n" in whole and whole.index("city_pile") < whole.index("city_display")


# --------------------------------------------------------------------------- private_when_drawn

SECRET_HANDS = ROOT / "tests" / "specs" / "secret-hands.yaml"


@pytest.fixture(scope="module")
def secrets(tmp_path_factory):
    path = tmp_path_factory.mktemp("zones") / "secret_hands.py"
    path.write_text(pipeline.compile_spec(str(SECRET_HANDS)).text, encoding="utf-8")
    return load_engine(path)


def secret_game(secrets):
    """A 2-player game where seat 0 drew a second tile and took an open one: its hand is
    [drawn at setup, drawn, taken from the row]; seat 1's is [drawn at setup]."""
    game = secrets.new_game(2, 4)
    game.apply(secrets.string_to_action("draw secret"))
    game.apply(secrets.string_to_action("take white blue green"))
    game.apply(secrets.string_to_action("secret 1"))
    assert game.current_player == 1 and [len(h) for h in game.z_hand] == [3, 1]
    return game


def test_a_privately_drawn_component_is_seen_by_its_owner_only(secrets):
    game = secret_game(secrets)
    drawn, drawn2, taken = game.z_hand[0]
    assert game.zp_hand == [[drawn, drawn2], [game.z_hand[1][0]]]
    own, other = game.observation(0), game.observation(1)
    assert own["seats"][0]["zones"] == {"hand": [drawn, drawn2, taken], "hand_private": [drawn, drawn2]}
    assert other["seats"][0]["zones"] == {"hand": [None, None, taken]}  # the open tile stays open
    assert own["seats"][1]["zones"] == {"hand": [None]}
    assert other["seats"][1]["zones"]["hand"] == game.z_hand[1]
    # Another tile drawn instead (swapped with one left in the pile): seat 1's view is the very same.
    swapped = secrets.from_json(game.to_json())
    x = swapped.z_secret_pile[0]
    swapped.z_secret_pile[0], swapped.z_hand[0][0], swapped.zp_hand[0][0] = drawn, x, x
    assert swapped.observation(1) == other and swapped.observation(0) != own
    assert game.to_dict()["seats"][0]["zones"]["hand_private"] == [drawn, drawn2]  # the whole state keeps it
    assert secrets.from_json(game.to_json()).observation(1) == other
    # Moved out of the holding, a component is no longer private: the next draw is, the old ones are not.
    back = secrets.from_json(game.to_json())
    secrets._zone_move(back, drawn, 1, 0, "test")  # into the open row (zone index 1)
    assert back.zp_hand[0] == [drawn2] and drawn in back.observation(1)["zones"]["secret_row"]


def test_play_shows_ones_own_drawn_components_and_hides_the_others(secrets):
    from playtest import terminal

    game = secret_game(secrets)
    seats = terminal.make_seats(secrets, ["human", "human"], 4)

    def shown(x) -> str:  # a tile's columns by name; its prose column is not in the engine
        mark, colour, worth, family, _text = secrets._k_secrets[x]
        return f"mark {mark}  colour {secrets.GEMS[colour]}  worth {worth}  family {family}"

    drawn, drawn2, taken = game.z_hand[0]
    mine = terminal.draw_board(secrets, game, seats, 0)
    theirs = terminal.draw_board(secrets, game, seats, 1)
    assert f"    hand   1) {shown(drawn)}\n           2) {shown(drawn2)}\n           3) {shown(taken)}\n" in mine
    assert "    hand   1) (hidden)\n" in mine + "\n"  # seat 1's setup tile
    assert f"    hand   1) (hidden)\n           2) (hidden)\n           3) {shown(taken)}\n" in theirs
    assert f"    hand   1) {shown(game.z_hand[1][0])}" in theirs
    assert shown(drawn) not in theirs and shown(drawn2) not in theirs


def test_the_rl_observation_hides_the_others_drawn_components(secrets):
    from playtest import rl

    game = secret_game(secrets)
    encoder = rl.Encoder(secrets, 2)

    # a tile: present, hidden, mark, colour one-hot over the gems, worth, family one-hot (owl, fox, bear)
    def block(x):
        mark, colour, worth, family, _text = secrets._k_secrets[x]
        gem = [0.0] * len(secrets.GEMS)
        gem[colour] = 1.0
        return [1.0, 0.0, mark, *gem, worth, *[float(family == f) for f in ("owl", "fox", "bear")]]

    hidden = [1.0, 1.0] + [0.0] * (len(block(0)) - 2)
    empty = [0.0] * len(block(0))
    drawn, drawn2, taken = game.z_hand[0]
    for me in (0, 1):
        vector = encoder.encode(game.observation(me), game.prestige)
        parts = {f.name: vector[f.start : f.stop].tolist() for f in encoder.fields if "zone[" in f.name}
        assert parts["zone[secret_pile]"] == [len(game.z_secret_pile)]
        assert [parts[f"zone[secret_row][{s}]"] for s in (1, 2)] == [block(x) for x in game.z_secret_row] + [empty] * (
            2 - len(game.z_secret_row)
        )
        # seats relative to the observer (the observer first); a hand has its limit's 3 slots
        hand0 = [parts[f"seat[{(0 - me) % 2}].zone[hand][{s}]"] for s in (1, 2, 3)]
        hand1 = [parts[f"seat[{(1 - me) % 2}].zone[hand][{s}]"] for s in (1, 2, 3)]
        if me == 0:
            assert hand0 == [block(drawn), block(drawn2), block(taken)]
            assert hand1 == [hidden, empty, empty]
        else:
            assert hand0 == [hidden, hidden, block(taken)]
            assert hand1 == [block(game.z_hand[1][0]), empty, empty]
        assert encoder.space().contains(vector)


WRONG_TYPES = (5, "x", True, [1], {"a": 1}, None, -1, 1.5, [None], {})


def _paths(value, path=()):
    """Every path into a state: each key of an object, the first two items of a list."""
    items = value.items() if isinstance(value, dict) else enumerate(value[:2]) if isinstance(value, list) else ()
    for key, inner in items:
        yield path + (key,)
        yield from _paths(inner, path + (key,))


@pytest.mark.parametrize("engine", ["official", "cities", "trading_posts", "no_churn"])
def test_any_value_of_the_wrong_shape_anywhere_is_a_state_error(engine):
    """Issue 26 item 18, for every field of the same shape: a number, a text, true, a list or an
    object where a state holds something else is a StateError, never another exception."""
    module = load_engine(ROOT / "generated" / "engines" / f"{engine}.py")
    game = module.new_game(module.PLAYER_COUNTS[0], 3)
    for _ in range(5):
        game.apply(game.legal_actions()[0])
    state = game.to_dict()
    paths = list(_paths(state))
    assert len(paths) > 60
    for path in paths:
        for wrong in WRONG_TYPES:
            broken = json.loads(json.dumps(state))
            inner = broken
            for key in path[:-1]:
                inner = inner[key]
            inner[path[-1]] = wrong
            try:
                module.from_json(broken)
            except module.StateError:
                pass


# --------------------------------------------------------------------------- each component in one place


def compiled(tmp_path_factory, spec: str):
    path = tmp_path_factory.mktemp("zones") / (pathlib.Path(spec).stem.replace("-", "_") + ".py")
    path.write_text(pipeline.compile_spec(str(ROOT / spec)).text, encoding="utf-8")
    return load_engine(path)


@pytest.fixture(scope="module")
def dealt_open(tmp_path_factory):
    return compiled(tmp_path_factory, "tests/specs/cities-dealt-open.yaml")


@pytest.fixture(scope="module")
def grab(tmp_path_factory):
    return compiled(tmp_path_factory, "tests/specs/secret-hands-grab.yaml")


def test_a_row_dealt_from_the_kind_itself_shows_one_face_of_each_tile(dealt_open):
    sides = set()
    for seed in range(40):
        game = dealt_open.new_game(2 + seed % 3, seed)
        tiles = [dealt_open._k_cities[x][0] for x in game.z_city_row]
        assert len(tiles) == 4 and len(set(tiles)) == 4, game.z_city_row  # never both faces of a tile
        sides |= {dealt_open._k_cities[x][1] for x in game.z_city_row}
        assert dealt_open.from_json(game.to_json()).to_json() == game.to_json()
    assert sides == {1, 2}  # each tile shows either face


def in_play(game) -> set[int]:
    return {x for x in game.z_city_row} | {x for hand in game.z_claimed for x in hand}


def test_a_choice_from_a_kind_offers_the_components_face_up_in_play_only(dealt_open):
    offered = 0
    for seed in range(30):
        game, rng = dealt_open.new_game(2, seed), random.Random(seed)
        while not game.is_over():
            claims = [
                int(s.split()[1]) - 1
                for s in map(dealt_open.action_to_string, game.legal_actions())
                if s.startswith("city ")
            ]
            assert set(claims) <= in_play(game) - set(game.z_claimed[game.current_player]), (seed, claims)
            offered += len(claims)
            game.apply(rng.choice(game.legal_actions()))
            assert dealt_open.from_json(game.to_json()).to_json() == game.to_json()
    assert offered > 30
    game, rng = dealt_open.new_game(2, 3), random.Random(3)
    while not any(dealt_open.action_to_string(a).startswith("city ") for a in game.legal_actions()):
        game.apply(rng.choice(game.legal_actions()))
    out = next(x for x in range(14) if x not in in_play(game))
    with pytest.raises(dealt_open.IllegalAction, match=f"'city {out + 1}': cities {out + 1} is not face up in play"):
        game.apply(dealt_open.string_to_action(f"city {out + 1}"))


def test_a_component_out_of_the_game_is_never_moved_back_in(dealt_open):
    game = dealt_open.new_game(2, 3)
    out = next(x for x in range(14) if x not in in_play(game))
    with pytest.raises(dealt_open.RuleError, match=f"move\\(city, me.claimed\\): cities {out} is out of the game"):
        dealt_open._zone_move(game, out, 1, 0, "move(city, me.claimed)")
    assert out not in in_play(game)
    before = game.to_json()
    dealt_open._zone_discard(game, "cities", out, "discard(city)")  # out already: nothing to do
    assert game.to_json() == before


def test_a_choice_from_a_kind_never_offers_a_tile_in_the_pile_or_another_players_secret_one(grab):
    game = grab.new_game(2, 4)
    game.apply(grab.string_to_action("draw secret"))  # seat 0: two secret tiles
    mine = list(game.z_hand[1])  # seat 1's own secret tile
    grabs = {int(s.split()[1]) - 1 for s in map(grab.action_to_string, game.legal_actions()) if s.startswith("grab ")}
    assert grabs == set(game.z_secret_row)  # not seat 0's secret tiles, not the pile, not its own hand
    game.apply(grab.string_to_action("take white blue green"))
    game.apply(grab.string_to_action(f"grab {game.z_secret_row[0] + 1}"))
    assert game.current_player == 1 and len(game.z_hand[0]) == 3
    taken = game.z_hand[0][2]
    grabs = {int(s.split()[1]) - 1 for s in map(grab.action_to_string, game.legal_actions()) if s.startswith("grab ")}
    assert grabs == set(game.z_secret_row) | {taken}  # seat 0's open tile, and seat 1 sees its own secret one
    assert not grabs & set(game.z_secret_pile) and not grabs & set(game.zp_hand[0]) and not grabs & set(mine)


@pytest.fixture(scope="module")
def moves(tmp_path_factory):
    return compiled(tmp_path_factory, "tests/specs/zone-moves.yaml")


def loads(engine, game) -> None:
    assert engine.from_json(game.to_json()).to_json() == game.to_json()


def test_a_display_that_starts_empty_has_its_slots_and_a_setup_block_run_once_fills_them(moves):
    game = moves.new_game(2, 1)
    assert len(game.z_spotlight) == 2 and None not in game.z_spotlight  # revealed by setup, run once
    assert len(game.z_city_row) == 3 and len(game.z_city_pile) == 7 - 3 - 2 and game.z_discards == []
    loads(moves, game)
    first, second = game.z_spotlight
    act(game, "unspot 1")
    assert game.z_spotlight == [None, second] and game.z_discards == [first]  # the slot waits, empty
    loads(moves, game)
    finish_forced_steps(game, game.current_player)
    row = list(game.z_city_row)
    act(game, "spot 2")
    assert game.z_spotlight == [row[1], second]  # the first empty slot
    loads(moves, game)


def test_a_for_over_a_zone_moves_every_component_onto_a_pile(moves):
    game = moves.new_game(2, 1)
    row = list(game.z_city_row)
    act(game, "sweep")
    assert game.z_city_row == [] and game.z_discards == row  # each onto the top: the last moved on top
    assert game.to_dict()["zones"]["discards"] == list(reversed(row))  # saved top first
    loads(moves, game)
