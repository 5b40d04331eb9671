"""Replays of a finished web table (issue 31, item 7): the browser's replay steps through every
position, as a seat saw it or all open; a game in progress has none (its refusal says nothing of
the game); the downloaded game replays with `play SPEC --replay FILE`."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

from compiler.sheets import moves as sheet_moves
from playtest.bots import make_bot
from tests.helpers import ROOT
from tests.helpers.web import api_of, client, engine, new_table
from web import views

SEED = 11


def blind_reserve(module) -> int:
    return next(a for a in range(module.NUM_ACTIONS) if module.action_to_string(a) == "reserve deck 1")


def play_on(c, module, apis, game, moves: int | None = None):
    """Greedy moves through the API from `game` (the table's position), to the end or `moves` more."""
    bot = make_bot("greedy", module, 1)
    played = 0
    while not game.is_over() and (moves is None or played < moves):
        action = bot.choose(game)
        r = c.post(apis[game.current_player] + "/actions", json={"action": action, "after": len(game.history)})
        assert r.status_code == 200, r.text
        game.apply(action)
        played += 1
    return game


def started(c, module):
    """A table whose first move is player 1's blind reserve (hidden from player 2 until the end)."""
    made = new_table(c, seed=SEED)
    apis = [api_of(s["link"]) for s in made["seats"]]
    game = module.new_game(2, seed=SEED)
    assert c.post(apis[0] + "/actions", json={"action": blind_reserve(module)}).status_code == 200
    game.apply(blind_reserve(module))
    return made, apis, game


def watch_paths(made) -> tuple[str, str]:
    table, secret = made["watch"].split("/")[-2:]
    return f"/watch/{table}/{secret}", f"/api/tables/{table}/watch/{secret}"


REFUSAL = {"error": "a game in progress has no replay: it opens once the game is over"}


def test_a_game_in_progress_has_no_replay_and_its_refusal_tells_nothing(variants, db):
    module = engine(variants)
    with client(variants, db) as c:
        made, apis, game = started(c, module)
        play_on(c, module, apis, game, moves=5)
        hidden = game.observation(0)["seats"][0]["reserved"][0]
        watch_page, watch_api = watch_paths(made)
        pages = [s["link"] + "/replay" for s in made["seats"]] + [watch_page + "/replay"]
        for api in [*apis, watch_api]:
            for query in ("", "?move=0", "?move=1&as=open", "?as=0", "?move=999&as=9"):
                r = c.get(api + "/replay" + query)
                # only the sentence: no position, no state, no log, no card
                assert (r.status_code, r.json()) == (409, REFUSAL)
        for page in pages:
            for query in ("", "?as=open", "?as=0&move=1"):
                r = c.get(page + query)
                assert r.status_code == 409 and REFUSAL["error"] in r.text
                assert "page-data" not in r.text and "replay.js" not in r.text
                assert not re.search(rf"\b{hidden}\b", r.text.split("<body>")[1])
        assert c.get(apis[0] + "/replay?as=open").json() == REFUSAL  # the seat that holds it neither


def test_a_stopped_table_that_is_not_over_has_no_replay(variants, db):
    module = engine(variants)
    with client(variants, db) as c:
        made, apis, game = started(c, module)
        c.app.state.hub.stop_table(c.app.state.hub.tables[made["table"]], "a rule failed")
        assert (c.get(apis[1] + "/replay?as=open").status_code, c.get(apis[1] + "/replay").json()) == (409, REFUSAL)


def test_every_position_of_a_finished_game_as_each_seat_saw_it_or_all_open(variants, db):
    module = engine(variants)
    with client(variants, db) as c:
        made, apis, game = started(c, module)
        final = play_on(c, module, apis, game)
        history = final.history
        again = module.new_game(2, seed=SEED)
        _, watch_api = watch_paths(made)
        for k in range(len(history) + 1):
            if k in (0, 1, 2, len(history) // 2, len(history)):
                for seat in (0, 1):
                    view = c.get(apis[1 - seat] + f"/replay?move={k}&as={seat}").json()
                    expected = again.observation(seat) if not again.is_over() else views.full_state(again, module)
                    assert view["state"] == expected
                    assert (view["you"], view["moves"], view["legal"]) == (seat, k, [])
                    assert [m["seat"] for m in view["log"]] == [
                        s for s, _ in c.app.state.hub.tables[made["table"]].log[:k]
                    ]
                    live = c.get(apis[seat]).json()["log"][:k]  # each move's card named as the live log names it
                    assert [m["card"] for m in view["log"]] == [m["card"] for m in live]
                    assert view["replay"] == {"move": k, "moves": len(history), "as": seat}
                opened = c.get(watch_api + f"/replay?move={k}&as=open").json()
                assert opened["state"] == views.full_state(again, module) and opened["you"] is None
            if k < len(history):
                again.apply(history[k])
        first = c.get(apis[0] + "/replay?move=1&as=1").json()["state"]["seats"][0]["reserved"]
        assert first == [None]  # player 2 did not see the blind reserve ...
        card = c.get(apis[1] + "/replay?move=1&as=open").json()["state"]["seats"][0]["reserved"]
        after_one = module.new_game(2, seed=SEED)
        after_one.apply(blind_reserve(module))
        assert card == after_one.observation(0)["seats"][0]["reserved"] and card != [None]  # ... all open shows it
        assert any(m["card"] is not None for m in c.get(watch_api + f"/replay?move={len(history)}").json()["log"])
        assert c.get(apis[0] + "/replay").json()["replay"]["as"] == 0  # a seat's own view unless asked
        assert c.get(watch_api + "/replay").json()["replay"]["as"] == "open"


@pytest.mark.parametrize(
    "query, message",
    [
        ("?move=-1", "'move' is a whole number from 0 to {moves}"),
        ("?move={over}", "'move' is a whole number from 0 to {moves}"),
        ("?move=1.5", "'move' is a whole number from 0 to {moves}"),
        ("?move=" + "9" * 5000, "'move' is a whole number from 0 to {moves}"),
        ("?as=2", "'as' is 'open' or a seat from 0 to 1"),
        ("?as=everyone", "'as' is 'open' or a seat from 0 to 1"),
    ],
)
def test_a_replay_asked_for_wrongly_is_refused(variants, db, query, message):
    module = engine(variants)
    with client(variants, db) as c:
        made, apis, game = started(c, module)
        moves = len(play_on(c, module, apis, game).history)
        r = c.get(apis[0] + "/replay" + query.replace("{over}", str(moves + 1)))
        assert (r.status_code, r.json()) == (422, {"error": message.replace("{moves}", str(moves))})


def test_the_replay_page_steps_through_the_game_with_the_boards_script(variants, db):
    module = engine(variants)
    with client(variants, db) as c:
        made, apis, game = started(c, module)
        play_on(c, module, apis, game)
        board = c.get(made["seats"][0]["link"]).text
        assert f'href="{made["seats"][0]["link"].split("testserver")[-1]}/replay"' in board
        page = c.get(made["seats"][0]["link"] + "/replay?as=open")
        assert page.status_code == 200 and page.headers["cache-control"] == "no-store"
        data = json.loads(
            re.search(r'<script type="application/json" id="page-data">(.*?)</script>', page.text, re.S)[1]
        )
        assert data["seat"] is None and data["replay"]["as"] == "open"
        assert data["replay"]["api"] == apis[0] + "/replay" and data["replay"]["moves"] == len(game.history)
        assert [s["as"] for s in data["replay"]["seats"]] == ["open", "0", "1"]
        for script in ("play.js", "replay.js"):
            src = re.search(rf'src="(/static/{script}\?v=[0-9a-f]+)"', page.text)[1]
            assert c.get(src).status_code == 200
        watch_page, _ = watch_paths(made)
        assert c.get(watch_page + "/replay").status_code == 200


def test_the_replay_says_each_move_in_the_players_words(variants, db):
    """The replay page's words for a move (``labels.moves``, by action id) are those `play` prints,
    in the page's language: every move of the finished game has its rule's name in Dutch."""
    module, rules = engine(variants), variants["target-12"].rules
    with client(variants, db) as c:
        made, apis, game = started(c, module)
        play_on(c, module, apis, game)
        page = c.get(made["seats"][0]["link"] + "/replay?as=open", headers={"Accept-Language": "nl"})
        data = json.loads(
            re.search(r'<script type="application/json" id="page-data">(.*?)</script>', page.text, re.S)[1]
        )
        said = data["labels"]["moves"]
        assert game.history
        for action in game.history:
            assert said[action] == sheet_moves.of_engine(module, action, rules, "nl")
        assert said[blind_reserve(module)] == "De bovenste kaart van een stapel reserveren: de stapel van niveau 1"


def test_the_downloaded_game_replays_with_play_replay(variants, db, tmp_path):
    module = engine(variants)
    with client(variants, db) as c:
        made, apis, game = started(c, module)
        play_on(c, module, apis, game)
        saved = c.get(apis[0] + "/game.json").text
    path = tmp_path / "game.json"
    path.write_text(saved, encoding="utf-8")
    spec = str(ROOT / "variants" / "target-12.yaml")
    out = subprocess.run(
        [sys.executable, "-m", "app", "play", spec, "--replay", str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith(f"replay of game 0 of target-12 ({path}): seed {SEED}, seats human, human")
    assert out.stdout.count("  turn ") == len(game.history)
    assert "player 1 (human): reserve deck 1" in out.stdout and "game over" in out.stdout
    state = json.loads(saved)
    state["history"][-1], state["history"][-2] = state["history"][-2], state["history"][-1]
    edited = tmp_path / "edited.json"
    edited.write_text(json.dumps(state), encoding="utf-8")
    out = subprocess.run(
        [sys.executable, "-m", "app", "play", spec, "--replay", str(edited), "--game", "1"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 1 and "a saved game holds one game" in out.stderr
    out = subprocess.run(
        [sys.executable, "-m", "app", "play", spec, "--replay", str(edited)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 1 and "Traceback" not in out.stderr
    assert (
        "the saved game's moves do not lead from its deal to the state it saved" in out.stderr
        or "is not legal there" in out.stderr
    ), out.stderr
