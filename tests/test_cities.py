"""The Cities (variants/cities.yaml, Cities of Splendor): each rule and each reading of
../shared/expansions/README.md, played on the generated engine from positions built with
from_json from a dealt game."""

from __future__ import annotations

import csv
import itertools
import json
import random
import re

import pytest

from tests.helpers.engines import ROOT, load_engine

ENGINES = ROOT / "generated" / "engines"
CITIES_CSV = ROOT / "variants" / "cities.csv"
GEMS = ("white", "blue", "green", "red", "black")


def compiled(tmp_path_factory, name: str):
    """The engine of variants/NAME.yaml, compiled now from the spec (so these tests hold the spec
    itself, whatever generated/ holds; tests/test_generated.py holds generated/ to the build)."""
    from compiler.pipeline import compile_spec

    path = tmp_path_factory.mktemp(name) / f"{name.replace('-', '_')}.py"
    path.write_text(compile_spec(str(ROOT / "variants" / f"{name}.yaml")).text, encoding="utf-8")
    return load_engine(path)


@pytest.fixture(scope="module")
def cities(tmp_path_factory):
    return compiled(tmp_path_factory, "cities")


@pytest.fixture(scope="module")
def declinable(tmp_path_factory):
    return compiled(tmp_path_factory, "cities-declinable")


@pytest.fixture(scope="module")
def official():
    return load_engine(ENGINES / "official.py")


def faces() -> list[dict]:
    with CITIES_CSV.open(encoding="utf-8") as f:
        return [{k: int(v) for k, v in row.items()} for row in csv.DictReader(f)]


def face_id(tile: int, side: int) -> int:
    return next(i for i, f in enumerate(faces()) if (f["tile"], f["side"]) == (tile, side))


# --------------------------------------------------------------------------- positions


def cards_for(engine, state: dict, bonuses: dict[str, int], prestige: int) -> list[int]:
    """Cards from the decks (not the market) giving exactly `bonuses` and `prestige` points."""
    in_decks = {c for ids in state["decks"].values() for c in ids}
    by_colour = {g: sorted((engine.CARDS[c].points, c) for c in in_decks if engine.CARDS[c].bonus == g) for g in GEMS}
    need = [(g, n) for g, n in bonuses.items() if n]
    # each colour: the sums of points its n cards can make (one choice of cards per sum)
    options = []
    for g, n in need:  # the sums of points n cards of colour g can make (one choice of cards per sum)
        sums: dict[tuple[int, int], tuple[int, ...]] = {(0, 0): ()}
        for points, card in by_colour[g]:
            for (k, total), cards in list(sums.items()):
                if k < n:
                    sums.setdefault((k + 1, total + points), cards + (card,))
        options.append({total: cards for (k, total), cards in sums.items() if k == n})
    for choice in itertools.product(*(sorted(o.items()) for o in options)):
        if sum(total for total, _ in choice) == prestige:
            return [c for _, cards in choice for c in cards]
    raise AssertionError(f"no cards give {bonuses} and {prestige} prestige")


def position(
    engine,
    seed: int = 1,
    seat0: dict | None = None,
    prestige: int = 0,
    display: list | None = None,
    tokens: dict[str, int] | None = None,
    seat1: dict | None = None,
    prestige1: int = 0,
) -> dict:
    """A 2-player state of `engine` dealt with `seed`, with purchased cards giving seat 0 (and 1)
    these bonuses and prestige, the city display `display` (face ids; the other tiles in the
    pile, one face each), and seat 0 holding `tokens`."""
    state = engine.new_game(2, seed).to_dict()
    state["seed"] = None
    for seat, bonuses, points in ((0, seat0, prestige), (1, seat1, prestige1)):
        if bonuses is None:
            continue
        bought = cards_for(engine, state, bonuses, points)
        for lv, ids in state["decks"].items():
            state["decks"][lv] = [c for c in ids if c not in bought]
        state["seats"][seat]["purchased"] = bought
    for colour, n in (tokens or {}).items():
        state["seats"][0]["tokens"][colour] += n
        state["supply"][colour] -= n
    if display is not None:
        shown_tiles = {faces()[i]["tile"] for i in display}
        state["zones"]["city_display"] = list(display)
        state["zones"]["city_pile"] = [face_id(t, 1) for t in range(1, 8) if t not in shown_tiles]
    return state


def after_a_quiet_action(engine, state: dict):
    """The game of `state` after seat 0 takes three tokens (nothing a city counts)."""
    game = engine.from_json(state)
    game.apply(engine.string_to_action("take white blue green"))
    return game


# --------------------------------------------------------------------------- the deal


@pytest.mark.parametrize("seed", range(1, 21))
def test_three_cities_from_three_tiles_the_rest_face_down_and_official_cards(cities, official, seed):
    game, base = cities.new_game(2, seed), official.new_game(2, seed)
    shown, pile = game.z_city_display, game.z_city_pile
    tiles = [faces()[i]["tile"] for i in shown + pile]
    assert len(shown) == 3 and len(pile) == 4 and sorted(tiles) == list(range(1, 8))  # one face per tile
    assert game.market == base.market and game.decks == base.decks
    assert game.noble_row == [] and game.z_claimed == [[], []]
    observed = game.observation(0)
    assert observed["zones"] == {"city_pile": 4, "city_display": shown}
    assert game.to_dict()["version"] == 2


# --------------------------------------------------------------------------- claiming


def test_a_qualifying_player_claims_the_city_without_being_asked_and_the_round_ends(cities):
    face = face_id(1, 1)  # 13 prestige; red 4, black 3
    state = position(cities, seat0={"red": 4, "black": 3}, prestige=13, display=[face, face_id(2, 1), face_id(3, 1)])
    game = after_a_quiet_action(cities, state)
    assert game.z_claimed[0] == [face] and game.z_city_display == [face_id(2, 1), face_id(3, 1)]
    assert game.ending[0] == "city_claimed" and game.current_player == 1 and not game.is_over()
    game.apply(cities.string_to_action("take white blue green"))  # seat 1 plays the last turn of the round
    assert game.is_over() and game.winners() == [0]


def test_with_two_cities_met_the_player_chooses_one_and_the_other_stays(cities):
    a, b = face_id(1, 1), face_id(4, 1)  # 13 red 4 black 3; 11 white 3 green 3 red 3 black 3
    state = position(
        cities, seat0={"white": 3, "green": 3, "red": 4, "black": 3}, prestige=13, display=[a, face_id(2, 1), b]
    )
    game = after_a_quiet_action(cities, state)
    assert game.phase == "claim_city"
    assert sorted(cities.action_to_string(x) for x in game.legal_actions()) == ["city 1", "city 3"]
    game.apply(cities.string_to_action("city 3"))
    assert game.z_claimed[0] == [b] and a in game.z_city_display


@pytest.mark.parametrize(
    "bonuses, claims",
    [
        ({"green": 7}, False),  # 4 green set aside leaves 3: not 4 of any one colour
        ({"green": 8}, True),
        ({"green": 4, "blue": 4}, True),
    ],
)
def test_a_city_asking_for_a_colour_and_any_one_colour_counts_no_bonus_twice(cities, bonuses, claims):
    face = face_id(6, 2)  # 14 prestige; green 4 and 4 of any one colour
    state = position(cities, seat0=bonuses, prestige=14, display=[face, face_id(2, 1), face_id(3, 1)])
    game = after_a_quiet_action(cities, state)
    assert (game.z_claimed[0] == [face]) == claims


@pytest.mark.parametrize("prestige, claims", [(14, False), (15, True)])
def test_any_one_colour_alone_and_the_prestige_asked(cities, prestige, claims):
    face = face_id(5, 1)  # 15 prestige; 5 of any one colour
    state = position(cities, seat0={"blue": 5}, prestige=prestige, display=[face, face_id(2, 1), face_id(3, 1)])
    game = after_a_quiet_action(cities, state)
    assert (game.z_claimed[0] == [face]) == claims


def test_tokens_never_count_toward_a_city(cities):
    face = face_id(1, 1)  # red 4, black 3
    state = position(
        cities,
        seat0={"red": 3, "black": 3},
        prestige=13,
        tokens={"red": 4},
        display=[face, face_id(2, 1), face_id(3, 1)],
    )
    game = after_a_quiet_action(cities, state)
    assert game.z_claimed[0] == [] and game.ending is None


def test_prestige_without_a_city_neither_ends_the_game_nor_wins(cities):
    # seat 1 has 16 prestige and no city; seat 0 claims a 13-prestige city: seat 0 wins
    state = position(
        cities,
        seat0={"red": 4, "black": 3},
        prestige=13,
        seat1={"blue": 3, "white": 3},
        prestige1=16,
        display=[face_id(1, 1), face_id(2, 1), face_id(6, 1)],
    )
    state["current_player"] = 1
    state["turn"], state["seats"][1]["turns"] = 2, 1
    game = cities.from_json(state)
    game.apply(cities.string_to_action("take white blue green"))  # seat 1: 16 prestige, no city, no end
    assert game.ending is None and not game.is_over()
    game.apply(cities.string_to_action("take white blue green"))  # seat 0 claims; seat 1 plays once more
    assert game.ending[0] == "city_claimed"
    game.apply(cities.string_to_action("take white blue green"))
    assert game.is_over() and game.winners() == [0]


def claim_both(cities, prestige0, prestige1, cards0, cards1):
    """Both seats claim in one round (seat 0 then seat 1): the ranking among city holders decides."""
    a, b = face_id(1, 1), face_id(2, 1)  # red 4 black 3 (13); white 3 blue 4 (13)
    state = position(
        cities, seat0=cards0, prestige=prestige0, seat1=cards1, prestige1=prestige1, display=[a, b, face_id(3, 1)]
    )
    game = after_a_quiet_action(cities, state)
    game.apply(cities.string_to_action("take white blue green"))
    assert game.is_over() and game.z_claimed == [[a], [b]]
    return game


def test_between_city_holders_most_prestige_wins(cities):
    game = claim_both(cities, 13, 15, {"red": 4, "black": 3}, {"white": 3, "blue": 4})
    assert game.winners() == [1]


def test_between_city_holders_with_equal_prestige_fewest_cards_wins_then_a_shared_win(cities):
    game = claim_both(cities, 13, 13, {"red": 4, "black": 3}, {"white": 3, "blue": 4})
    assert game.winners() == [0, 1]  # 7 cards each
    game = claim_both(cities, 13, 13, {"red": 4, "black": 3}, {"white": 3, "blue": 4, "green": 1})
    assert game.winners() == [0]


def test_a_claimed_city_gives_no_prestige_and_is_not_replaced(cities):
    face = face_id(1, 1)
    state = position(cities, seat0={"red": 4, "black": 3}, prestige=13, display=[face, face_id(2, 1), face_id(3, 1)])
    game = after_a_quiet_action(cities, state)
    assert game.prestige[0] == 13 and game.scores()[0] == 13
    assert len(game.z_city_display) == 2 and len(game.z_city_pile) == 4


# --------------------------------------------------------------------------- cities-declinable


def test_a_city_may_be_declined_in_the_declinable_variant(declinable):
    face = face_id(1, 1)
    state = position(
        declinable, seat0={"red": 4, "black": 3}, prestige=13, display=[face, face_id(2, 1), face_id(3, 1)]
    )
    game = after_a_quiet_action(declinable, state)
    assert game.phase == "claim_city"
    assert sorted(declinable.action_to_string(x) for x in game.legal_actions()) == ["city", "city 1"]
    game.apply(declinable.string_to_action("city"))
    assert game.z_claimed[0] == [] and game.z_city_display == [face, face_id(2, 1), face_id(3, 1)]
    assert game.ending is None


def test_the_saved_state_of_a_cities_game_round_trips_and_replays(cities):
    game = cities.new_game(3, 5)
    rng = random.Random(5)
    while not game.is_over() and len(game.history) < 150:
        game.apply(rng.choice(game.legal_actions()))
    again = cities.from_json(game.to_json())
    assert again.to_json() == game.to_json()
    assert cities.replay(game.record()).to_json() == game.to_json()


def test_readings_are_stated(cities):
    text = (ROOT / "variants" / "cities.yaml").read_text(encoding="utf-8")
    for said in (
        "do not count twice",
        "must claim a city",
        "not used",
        "fewest purchased development cards",
        "nobody can act",
    ):  # the readings of ../shared/expansions/README.md, The Cities
        assert said in text


# ---------------------------------------------------------------------------- the sheets' words for zones


@pytest.fixture(scope="module")
def city_rules():
    from compiler.pipeline import load_rules

    return load_rules(str(ROOT / "variants" / "cities.yaml"))


def _said(rules, text: str, lang: str) -> str:
    from compiler.front.expr import Origin, parse_expr, parse_stmt
    from compiler.sheets import describe

    step = next(d for d in rules.steps if d.name == "claim_city")
    origin = Origin.plain("test.yaml", 1, 1, text)
    node = parse_stmt(text, origin) if text.startswith("for ") else parse_expr(text, origin)
    return describe(node, lang, rules, step)


@pytest.mark.parametrize(
    "lang, text",
    [
        ("en", "the “prestige needed” of that city is at least 0 for at least 1 city in your “Claimed cities”"),
        (
            "fr",
            "le nombre « prestige exigé » de cette cité atteint au moins 0 pour au moins 1 cité "
            "de votre zone « Cités revendiquées »",
        ),
        (
            "nl",
            "voor minstens 1 stad in je ‘Opgeëiste steden’ geldt dat het getal ‘vereiste prestige’ "
            "van die stad minstens 0 is",
        ),
        (
            "sr",
            "за најмање 1 град из ваше зоне „Освојени градови“ важи да број „потребан престиж“ "
            "тог града износи најмање 0",
        ),
    ],
)
def test_a_count_over_a_players_zone_is_phrased_by_its_item_and_title(city_rules, lang, text):
    assert _said(city_rules, "count(c.prestige >= 0 for c in me.claimed) >= 1", lang) == text


@pytest.mark.parametrize(
    "expression, text",
    [
        (
            "all(c.prestige >= 10 for c in city_display)",
            "for each city in “Cities on display”, the “prestige needed” of that city is at least 10",
        ),
        (
            "any(c.requires[red] >= 1 for c in city_display)",
            "for at least one city in “Cities on display”, the “bonuses needed” of that city for red is at least 1",
        ),
        (
            "sum(c.prestige for c in me.claimed) >= 13",
            "the total, over all cities in your “Claimed cities”, of the “prestige needed” of that city is at least 13",
        ),
        ("city in city_display", "the chosen city is one of the pieces in “Cities on display”"),
        (
            "any(size(p.claimed) >= 1 for p in others)",
            "for at least one other player, that player has at least 1 claimed city",  # the zone's item
        ),
        (
            "for c in me.claimed: move(c, city_display)",
            "for each city in your “Claimed cities”, put that city in “Cities on display”",
        ),
    ],
)
def test_loops_aggregates_and_membership_over_zones_in_english(city_rules, expression, text):
    assert _said(city_rules, expression, "en") == text


@pytest.mark.parametrize("lang", ["en", "fr", "nl", "sr"])
def test_a_membership_in_a_zone_in_every_language(city_rules, lang):
    said = _said(city_rules, "city in city_display", lang)
    assert {
        "en": "one of the pieces in “Cities on display”",
        "fr": "parmi les pièces de la zone « Cités exposées »",
        "nl": "een van de stukken in ‘Uitgestalde steden’",
        "sr": "спада у плочице из зоне „Изложени градови“",
    }[lang] in said


def test_a_spec_whose_end_loops_over_a_zone_has_sheets_in_every_language(tmp_path):
    """The report that found the bug: `check` clean, then `sheet` ended with an internal error (exit 3)."""
    from click.testing import CliRunner

    from app import cli

    spec = (ROOT / "variants" / "cities.yaml").read_text(encoding="utf-8")
    spec = spec.replace("name: cities\n", "name: loops\n").replace(
        "when: size(me.claimed) >= 1", "when: count(c.prestige >= 0 for c in me.claimed) >= 1"
    )
    (tmp_path / "loops.yaml").write_text(spec, encoding="utf-8")
    (tmp_path / "cities.csv").write_bytes(CITIES_CSV.read_bytes())
    runner = CliRunner()
    assert runner.invoke(cli.main, ["check", str(tmp_path / "loops.yaml")]).exit_code == 0
    result = runner.invoke(
        cli.main,
        ["sheet", str(tmp_path / "loops.yaml"), "--lang", "en,fr,nl,sr", "--format", "md", "-o", str(tmp_path / "out")],
    )
    assert result.exit_code == 0, result.output
    english = (tmp_path / "out" / "loops.en.md").read_text(encoding="utf-8")
    assert "the “prestige needed” of that city is at least 0 for at least 1 city in your “Claimed cities”" in english
    serbian = (tmp_path / "out" / "loops.sr.md").read_text(encoding="utf-8")
    assert "за најмање 1 град из ваше зоне „Освојени градови“" in serbian


SHOWN = """state:
  shown:
    add: true
    title: {en: Cities shown, fr: Cités montrées, nl: Getoonde steden, sr: Показани градови}
    type: {set_of: cities}
    per_player: true
setup:
  look:
    add: true
    title: {en: Look, fr: Regard, nl: Kijk, sr: Поглед}
    each_player: true
    effects: ["set(me.shown, city_display)"]
"""


def test_a_set_of_components_given_a_zone_holds_its_components_in_every_tool(tmp_path):
    """`set(V, ZONE)`: `check` took it and `compile` ended in an internal error (issue 26, item 11);
    the set takes the zone's components, and the sheets say so in each language."""
    from click.testing import CliRunner

    from app import cli
    from compiler.sheets import describe

    (tmp_path / "shown.yaml").write_text("spec: 1\nname: shown\nextends: cities\n" + SHOWN, encoding="utf-8")
    from compiler import pipeline

    compiled = pipeline.compile_spec(str(tmp_path / "shown.yaml"))
    (tmp_path / "shown.py").write_text(compiled.text, encoding="utf-8")
    E = load_engine(tmp_path / "shown.py")
    for seed in (1, 2, 3):
        state = json.loads(E.new_game(3, seed=seed).to_json())
        assert [seat["vars"]["shown"] for seat in state["seats"]] == [sorted(state["zones"]["city_display"])] * 3
    rules = pipeline.load_rules(str(tmp_path / "shown.yaml"))
    [look] = [b for b in rules.setup if b.name == "look"]
    said = {lang: describe(look.effects[0], lang, rules) for lang in ("en", "fr", "nl", "sr")}
    assert said == {
        "en": "set your “Cities shown” to the pieces in “Cities on display”",
        "fr": "votre « Cités montrées » devient les pièces de la zone « Cités exposées »",
        "nl": "zet je ‘Getoonde steden’ op de stukken in ‘Uitgestalde steden’",
        "sr": "ваш запис „Показани градови“ постаје плочице из зоне „Изложени градови“",
    }
    result = CliRunner().invoke(
        cli.main, ["simulate", str(tmp_path / "shown.yaml"), "--games", "2", "--bots", "random,greedy"]
    )
    assert result.exit_code == 0, result.output


REFILLED = {
    "en": "fill the empty places of “Cities on display” from its pile",
    "fr": "complétez les places vides de la zone « Cités exposées » depuis sa pile",
    "nl": "vul de lege plaatsen van ‘Uitgestalde steden’ aan uit de bijbehorende stapel",
    "sr": "попуните празна места зоне „Изложени градови“ из њене гомиле",
}


def test_refill_of_a_zone_is_phrased_in_every_language_by_sheet_and_diff(tmp_path):
    """`refill(ZONE)` (documented for displays and rows): `check` clean, then `sheet` and `diff` ended
    with an internal error, PhraseError 'cannot phrase Name as a number' (issue 26, item 12)."""
    from click.testing import CliRunner

    from app import cli

    spec = (ROOT / "variants" / "cities.yaml").read_text(encoding="utf-8").replace("name: cities\n", "name: refills\n")
    spec = re.sub(r"\n    text:\n(?:      [a-z]{2}: .*\n){4}", "\n", spec)  # the rules told by their phrases
    old = 'effects: ["move(city, me.claimed)"]'
    assert spec.count(old) == 1
    (tmp_path / "refills.yaml").write_text(
        spec.replace(old, 'effects: ["move(city, me.claimed)", "refill(city_display)"]'), encoding="utf-8"
    )
    (tmp_path / "cities.csv").write_bytes(CITIES_CSV.read_bytes())
    runner = CliRunner()
    assert runner.invoke(cli.main, ["check", str(tmp_path / "refills.yaml")]).exit_code == 0
    result = runner.invoke(
        cli.main,
        [
            "sheet",
            str(tmp_path / "refills.yaml"),
            "--lang",
            "en,fr,nl,sr",
            "--format",
            "md",
            "-o",
            str(tmp_path / "out"),
        ],
    )
    assert result.exit_code == 0, result.output
    for lang, words in REFILLED.items():
        assert words in (tmp_path / "out" / f"refills.{lang}.md").read_text(encoding="utf-8"), lang
        result = runner.invoke(
            cli.main, ["diff", str(ROOT / "variants" / "cities.yaml"), str(tmp_path / "refills.yaml"), "--lang", lang]
        )
        assert result.exit_code == 1 and words in result.output, result.output


def test_mcts_deals_the_hidden_city_pile_again_from_the_unseen_tiles(cities):
    """A bot's determinization (playtest/bots/determinization.py): the face-down pile, seen as a
    count, is dealt again from the tiles no one has seen, one face each, and the game reads back."""
    from playtest.bots import determinize

    game = cities.new_game(3, seed=4)
    shown = game.observation(0)["zones"]["city_display"]
    rng = random.Random(1)
    for _ in range(5):
        again = determinize(game, 0, rng, cities)
        state = again.to_dict() if hasattr(again, "to_dict") else json.loads(again.to_json())
        pile = state["zones"]["city_pile"]
        assert len(pile) == game.observation(0)["zones"]["city_pile"] == 4
        assert state["zones"]["city_display"] == shown
        tiles = [faces()[x]["tile"] for x in pile + shown]
        assert len(set(tiles)) == len(tiles) == 7  # every tile once, one face each
