"""Randomness during play (issue 28 item 7): a zone of shape `bag` (drawn from at random, a component put
in goes in at random) and the effect `shuffle(PILE)`, both on the game's seeded generator.

Spec -> diagnostics (a bag where order is needed, a bag read or chosen from), spec -> engine behaviour
(a seed reproduces a game; a game saved mid-play reloads and continues identically; replay; the count of
random events in the saved state and never in an observation; draws at random), spec -> sheet text, on
tests/specs/bag-draws.yaml and its changes."""

from __future__ import annotations

import json
import pathlib
import random
import shutil

import pytest

from compiler import pipeline
from compiler.diagnostics import CompileError, SourceMap
from tests.helpers.engines import ROOT, load_engine

SPEC = ROOT / "tests" / "specs" / "bag-draws.yaml"
TEXT = SPEC.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def bag(tmp_path_factory):
    path = tmp_path_factory.mktemp("chance") / "bag_draws.py"
    path.write_text(pipeline.compile_spec(str(SPEC)).text, encoding="utf-8")
    return load_engine(path)


def names(E) -> list[str]:
    return [E.action_to_string(a) for a in range(len(E.ACTIONS))]


def play(E, game, rng: random.Random, moves: int) -> list[int]:
    """`moves` moves (fewer when the game ends), half of them the spec's own actions when legal."""
    said, done = names(E), []
    for _ in range(moves):
        if game.is_over():
            break
        legal = game.legal_actions()
        own = [a for a in legal if said[a].split()[0] in ("swap", "aside", "grab")]
        move = rng.choice(own if own and rng.random() < 0.5 else legal)
        game.apply(move)
        done.append(move)
    return done


# --------------------------------------------------------------------------- spec -> diagnostics


def diagnostics(tmp_path: pathlib.Path, old: str, new: str):
    """The diagnostics of tests/specs/bag-draws.yaml with `old` replaced by `new`: (code, line, the text
    under the caret, message)."""
    folder = tmp_path / "tests" / "specs"
    folder.mkdir(parents=True)
    shutil.copytree(ROOT / "variants", tmp_path / "variants")
    assert TEXT.count(old) == 1, old
    text = TEXT.replace(old, new)
    (folder / "bag-draws.yaml").write_text(text, encoding="utf-8")
    lines = text.split("\n")
    try:
        pipeline.load_rules(str(folder / "bag-draws.yaml"), SourceMap())
    except CompileError as err:
        return [
            (d.code, d.span.line, lines[d.span.line - 1][d.span.col - 1 : d.span.end_col - 1], d.message)
            for d in err.diagnostics
        ]
    return []


@pytest.mark.parametrize(
    "old, new, code, caret, says",
    [
        ('"move(city, city_bag)"', '"to_bottom(city, city_bag)"', "E410", "city_bag", "'city_bag' is a bag"),
        ('"shuffle(set_aside)"', '"shuffle(city_bag)"', "E410", "city_bag", "a bag has no order"),
        (
            "city: {domain: component, from: city_row}\n    condition:",
            "city: {domain: component, from: city_bag}\n    condition:",
            "E553",
            "city_bag",
            "a face-down bag",
        ),
        (
            '"size(city_bag) >= 1"',
            '"count(x.prestige >= 1 for x in city_bag) >= 1"',
            "E551",
            "city_bag",
            "'city_bag' is a face-down bag",
        ),
        ("shape: bag", "shape: bags", "E106", "bags", "expected one of pile, display, row, holding, bag (did you mean"),
        ('"shuffle(set_aside)"', '"shuffle(city_row)"', "E410", "city_row", "needs a pile here, but this is a row"),
    ],
)
def test_a_bag_where_an_order_or_a_look_is_needed_is_refused_at_it(tmp_path, old, new, code, caret, says):
    found = diagnostics(tmp_path, old, new)
    assert len(found) == 1, found
    ((got, _, under, message),) = found
    assert (got, under) == (code, caret) and says in message, found


def test_the_spec_checks_clean_with_a_bag_as_a_source_and_a_shuffled_pile(tmp_path):
    assert diagnostics(tmp_path, "title: {en: Bag draws", "title: {en: Bag draws") == []


# --------------------------------------------------------------------------- spec -> engine


def test_a_seed_reproduces_every_draw(bag):
    first, second = bag.new_game(2, 17), bag.new_game(2, 17)
    moves = play(bag, first, random.Random(3), 200)
    for move in moves:
        second.apply(move)
    assert second.to_json() == first.to_json()
    assert json.loads(first.to_json())["chance"] > 0
    assert bag.replay(first.record()).to_json() == first.to_json()


def test_a_game_saved_mid_play_reloads_and_continues_identically(bag):
    for seed in range(8):
        game, rng = bag.new_game(3, seed), random.Random(seed)
        play(bag, game, rng, 25)
        loaded = bag.from_json(game.to_json())
        assert loaded.to_json() == game.to_json()
        for move in play(bag, game, rng, 150):
            loaded.apply(move)
        assert loaded.to_json() == game.to_json(), seed


def test_a_draw_from_the_bag_is_at_random_and_a_city_put_back_goes_in_at_random(bag):
    said = names(bag)
    drawn, places = set(), set()
    for seed in range(40):
        game = bag.new_game(2, seed)
        before = len(game.z_city_bag)
        game.apply(said.index("grab"))
        drawn.add(game.z_claimed[0][0])
        assert len(game.z_city_bag) == before - 1 and len(game.z_claimed[0]) == 1
        game2 = bag.new_game(2, 0)  # the same deal each time: where the swapped city goes is the generator's
        game2.chance = seed
        city = game2.z_city_row[0]
        game2.apply(said.index("swap 1"))
        places.add(game2.z_city_bag.index(city) if city in game2.z_city_bag else -1)  # -1: drawn again at once
    assert len(drawn) > 10 and len(places) == len(game2.z_city_bag) + 1  # every place it can go (or drawn again)


def test_shuffle_puts_the_pile_in_a_new_order_counted_as_a_random_event(bag):
    said = names(bag)
    game = bag.new_game(2, 5)
    for _ in range(3):
        game.apply(said.index("aside 1"))
    pile, count = list(game.z_set_aside), game.chance
    orders = set()
    for k in range(12):
        trial = bag.from_json(game.to_json())
        trial.chance = count + k
        trial.apply(said.index("aside"))  # shuffle, then draw the top
        assert trial.chance == count + k + 1
        assert sorted(trial.z_set_aside + trial.z_claimed[trial.current_player ^ 1]) == sorted(pile)
        orders.add(tuple(trial.z_set_aside))
    assert len(orders) > 1


def test_the_observation_shows_a_bag_by_its_count_and_nothing_of_the_generator(bag):
    game = bag.new_game(2, 9)
    play(bag, game, random.Random(9), 40)
    seen = game.observation(0)
    assert seen["zones"]["city_bag"] == len(game.z_city_bag)
    assert "chance" not in seen and "seed" not in seen
    whole = json.loads(game.to_json())
    assert whole["zones"]["city_bag"] == list(reversed(game.z_city_bag)) and whole["chance"] == game.chance
    from playtest import rl

    encoder = rl.Encoder(bag, 2)
    assert encoder.space().contains(encoder.encode(seen))


@pytest.mark.parametrize(
    "value, says",
    [(-1, "'chance' must be the number of random events"), ("x", "'chance' must be the number of random events")],
)
def test_a_saved_count_that_does_not_fit_is_refused(bag, value, says):
    data = json.loads(bag.new_game(2, 1).to_json())
    data["chance"] = value
    with pytest.raises(bag.StateError) as err:
        bag.from_json(json.dumps(data))
    assert says in str(err.value)


def test_a_state_without_a_count_loads_as_no_event_yet_and_an_engine_without_chance_refuses_one(bag):
    data = json.loads(bag.new_game(2, 1).to_json())
    del data["chance"]
    assert bag.from_json(json.dumps(data)).chance == 0
    cities = load_engine(ROOT / "generated" / "engines" / "cities.py")
    state = json.loads(cities.new_game(2, 1).to_json())
    assert "chance" not in state
    state["chance"] = 0
    with pytest.raises(cities.StateError, match="belongs to a spec with a bag or a shuffle"):
        cities.from_json(json.dumps(state))


def test_a_bot_that_guesses_hidden_things_plays_a_game_with_a_bag(bag):
    from playtest.bots.registry import make_bot

    game = bag.new_game(2, 4)
    bot = make_bot("mcts:4", bag, seed=4)
    for _ in range(30):
        if game.is_over():
            break
        game.apply(bot.choose(game) if game.current_player == 0 else game.legal_actions()[0])
    assert game.turn > 10


# --------------------------------------------------------------------------- spec -> sheets

SAYS = {
    "en": (
        "put the cities into a bag, “City bag”, to be drawn at random",
        "draw a city at random from “City bag”",
        "shuffle “Cities set aside”",
    ),
    "fr": (
        "mettez les cités dans un sac, « Sac des cités », d'où on les pioche au hasard",
        "piochez une pièce (cité) au hasard",
        "mélangez",
    ),
    "nl": (
        "doe de steden in een zak, ‘Stedenzak’, waaruit ze willekeurig getrokken worden",
        "trek een willekeurig stuk (stad) uit",
        "schud",
    ),
    "sr": (
        "у врећу, „Врећа градова“, из које се извлаче насумично",
        "извуците насумично једну плочицу („град“) из",
        "промешајте",
    ),
}


@pytest.mark.parametrize("lang", sorted(SAYS))
def test_the_sheets_say_a_bag_is_drawn_at_random_and_a_pile_shuffled(lang):
    from compiler.sheets import content, render

    rules = pipeline.load_rules(str(SPEC))
    text = render.markdown(content.build(rules, lang), rules)
    for said in SAYS[lang]:
        assert said.lower() in text.lower(), said
