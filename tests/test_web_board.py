"""The board of a spec's own zones and declared state (issue 16's language in issue 19's web
table), through the ASGI test client: what a seat's view and page carry of them, from the
engine's observation only (a pile as a count, another seat's private value as null), and the
words for them from the variant's rules."""

from __future__ import annotations

import dataclasses
import json
import pathlib
import re
import urllib.parse
import warnings

import pytest

with warnings.catch_warnings():  # as in test_web_api: httpx is what is packaged
    warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient`")
    from starlette.testclient import TestClient

from compiler.sheets import moves as sheet_moves
from tests.helpers.engines import load_engine
from web import catalogue, server, views
from web.hosts import Hosts
from web.quotas import Quotas

ROOT = pathlib.Path(__file__).resolve().parent.parent
UNHURRIED = Quotas(tables_per_address="10000/second", requests_per_address="10000/second")
TEST_HOSTS = Hosts.bound_to("127.0.0.1", ("testserver",))  # the test client's name for the server

# A per-player private variable: each seat counts its own purchases, the others see null.
SECRET_COUNT = """\
spec: 1
name: secret-count
extends: official
title: {en: Secret count}
description: {en: Each player counts their purchases in secret.}
state:
  bought:
    add: true
    title: {en: Cards bought, fr: Cartes achetées}
    type: number
    per_player: true
    private: true
    note: {en: Seen by its owner only.}
actions:
  buy_face_up:
    effects: {append: ["add(me.bought, 1)"]}
    note: {en: Counted.}
"""


@pytest.fixture(scope="module")
def variants(tmp_path_factory):
    secret = tmp_path_factory.mktemp("specs") / "secret-count.yaml"
    secret.write_text(SECRET_COUNT, encoding="utf-8")
    return catalogue.load(
        [str(ROOT / "variants" / "no-churn.yaml"), str(ROOT / "variants" / "cities.yaml"), str(secret)]
    )


@pytest.fixture
def client(variants, tmp_path):
    with TestClient(
        server.make_app(
            variants, str(tmp_path / "tables.sqlite3"), bot_delay=0.0, bot_workers=0, quotas=UNHURRIED, hosts=TEST_HOSTS
        )
    ) as c:
        yield c


def table(c, spec: str, seed: int = 5) -> list[str]:
    """A table of two humans; each seat's view URL."""
    c.app.state.hub.draw_seed = lambda: seed  # a table with people: its seed is the server's
    r = c.post("/api/tables", json={"spec": spec, "players": 2, "seats": ["human", "human"]})
    assert r.status_code == 201, r.text
    return [s["link"] for s in r.json()["seats"]]


def api_of(link: str) -> str:
    t, seat, secret = urllib.parse.urlparse(link).path.split("/")[2:]
    return f"/api/tables/{t}/seats/{seat}/{secret}"


def page_data(c, link: str) -> dict:
    html = c.get(link).text
    found = re.search(r'<script type="application/json" id="page-data">(.*?)</script>', html, re.S)
    assert found, html
    return json.loads(found.group(1))


def test_a_cities_board_has_the_pile_as_a_count_and_the_display_as_cities(variants, client):
    module = variants["cities"].module
    links = table(client, "cities", seed=5)
    view = client.get(api_of(links[1])).json()
    zones = view["state"]["zones"]
    assert zones == module.new_game(2, seed=5).observation(1)["zones"]
    assert zones["city_pile"] == 4  # 7 tiles, 3 on display: the pile's order is not sent
    assert len(zones["city_display"]) == 3 and all(isinstance(x, int) for x in zones["city_display"])
    assert [s["zones"] for s in view["state"]["seats"]] == [{"claimed": []}, {"claimed": []}]
    data = page_data(client, links[1])
    meta = data["meta"]
    assert meta["zones"] == [
        {"name": "city_pile", "kind": "cities", "shape": "pile", "per_player": False},
        {"name": "city_display", "kind": "cities", "shape": "row", "per_player": False},
        {"name": "claimed", "kind": "cities", "shape": "holding", "per_player": True},
    ]
    assert meta["kinds"]["cities"] == [views._plain(row) for row in module.KINDS["cities"].rows]
    assert meta["kinds"]["cities"][0] == [1, 1, 13, [0, 0, 0, 4, 3], 0]
    labels = data["labels"]
    assert labels["zones"]["city_display"] == "Cities on display"
    assert [c["name"] for c in labels["kinds"]["cities"]["columns"]] == [
        "tile",
        "side",
        "prestige",
        "requires",
        "any_one_colour",
    ]
    assert labels["kinds"]["cities"]["item"] == "city"


def test_the_words_for_a_variants_own_parts_follow_the_players_language(variants, client):
    link = table(client, "cities")[0]
    html = client.get(link, headers={"Accept-Language": "fr"}).text
    data = json.loads(re.search(r'id="page-data">(.*?)</script>', html, re.S).group(1))
    assert data["lang"] == "fr" and data["labels"]["zones"]["city_display"] == "Cités exposées"
    assert data["labels"]["kinds"]["cities"]["item"] == "cité"


def test_the_log_says_each_move_in_the_players_words_as_play_does(variants, client):
    """The page's ``labels.moves``: every action of the engine in the words `play` prints after a
    move (compiler.sheets.moves), in the page's language; the log's entries are ids into it, so
    the log names a move by its rule and its choices in words, a city by its item."""
    cities = variants["cities"]
    module = cities.module
    links = table(client, "cities")
    html = client.get(links[0], headers={"Accept-Language": "fr"}).text
    said = json.loads(re.search(r'id="page-data">(.*?)</script>', html, re.S).group(1))["labels"]["moves"]
    assert said == [sheet_moves.of_engine(module, a, cities.rules, "fr") for a in range(module.NUM_ACTIONS)]
    assert said[module.string_to_action("city 1")] == "Revendiquer une cité : cité 1"
    take = module.string_to_action("take white blue green")
    assert client.post(api_of(links[0]) + "/actions", json={"action": take}).status_code == 200
    log = client.get(api_of(links[1])).json()["log"]
    assert [said[entry["action"]] for entry in log] == [
        "Prendre des jetons de couleurs différentes : blanc, bleu et vert"
    ]


def test_a_finished_games_state_shows_a_pile_as_a_count(variants):
    module = variants["cities"].module
    game = module.new_game(2, seed=5)
    state = views.full_state(game, module)
    assert (
        state["zones"]["city_pile"] == 4
        and state["zones"]["city_display"] == game.observation(0)["zones"]["city_display"]
    )
    assert json.loads(game.to_json())["zones"]["city_pile"] != 4  # the whole state has the pile's order


def test_a_no_churn_board_carries_the_turns_variable(variants, client):
    links = table(client, "no-churn")
    view = client.get(api_of(links[0])).json()
    assert view["state"]["vars"] == {"taken": []}
    data = page_data(client, links[0])
    assert data["meta"]["vars"] == [{"name": "taken", "type": "set:colour", "per_player": False, "private": False}]
    assert data["meta"]["zones"] == [] and data["meta"]["kinds"] == {}
    assert data["labels"]["vars"] == {"taken": "Colours taken this turn"}


def test_another_seats_private_value_is_null_in_the_view(variants, client):
    module = variants["secret-count"].module
    move = module.new_game(2, seed=9).legal_actions()[0]
    links = table(client, "secret-count", seed=9)
    apis = [api_of(link) for link in links]
    assert client.post(apis[0] + "/actions", json={"action": move}).status_code == 200
    mine, theirs = client.get(apis[0]).json(), client.get(apis[1]).json()
    assert mine["state"]["seats"][0]["vars"] == {"bought": 0}
    assert theirs["state"]["seats"][0]["vars"] == {"bought": None}
    assert theirs["state"]["seats"][1]["vars"] == {"bought": 0}
    data = page_data(client, links[1])
    assert data["meta"]["vars"] == [{"name": "bought", "type": "int", "per_player": True, "private": True}]
    assert data["labels"]["vars"] == {"bought": "Cards bought"}


def test_labels_are_left_out_when_the_rules_do_not_match_the_engines_table(variants):
    cities = variants["cities"]
    kind = cities.rules.kinds[[k.name for k in cities.rules.kinds].index("cities")]
    fewer = dataclasses.replace(
        cities.rules,
        kinds=tuple(dataclasses.replace(k, columns=k.columns[:2]) if k is kind else k for k in cities.rules.kinds),
    )
    assert "cities" not in views.labels(fewer, cities.module, "en")["kinds"]
    assert "cities" in views.labels(cities.rules, cities.module, "en")["kinds"]
    assert views.labels(None, cities.module, "en") == {
        "zones": {},
        "vars": {},
        "kinds": {},
        "steps": {},
        "ends": {},
        "decisions": {},
        "sources": {},
        "parts": {},
        "nobles": True,
        "vars_shown": None,
        "moves": [],
    }


def test_a_variable_keyed_by_a_piece_or_a_colour_says_what_keys_it_and_the_base_cards_get_no_table():
    """The Strongholds' state keyed by card (how many strongholds, whose) is described for the
    board as keyed (by what, each entry's type and its value at the start: what a piece's tile
    leaves unsaid); the base cards (keys, and a zone naming their face-up place) are no kind of the
    spec's own, so the page gets no second table of the 90 cards, which the board draws from `cards`."""
    module = load_engine(ROOT / "generated" / "engines" / "strongholds.py")
    extras = views.extras(module)
    keyed = {v["name"]: v for v in extras["vars"] if "by" in v}
    assert sorted(keyed) == ["forts", "holder"]
    assert (keyed["forts"]["by"], keyed["forts"]["entry"]) == ("cards", "int")
    assert (keyed["holder"]["by"], keyed["holder"]["entry"]) == ("cards", "player")
    assert keyed["forts"]["initial"] == [0] * len(module.CARDS)
    assert keyed["holder"]["initial"] == [None] * len(module.CARDS)
    assert [v["name"] for v in extras["vars"]] == ["forts", "holder"]
    assert extras["kinds"] == {}
