"""The web table's API through Starlette's test client: tables, links, who may act, what a
seat sees, refused requests, bots, the reference sheets, and tables resumed after a restart."""

from __future__ import annotations

import importlib.util
import json
import pathlib
import re
import subprocess
import sys
import time
import urllib.parse
import warnings

import pytest
from click.testing import CliRunner

from tests.helpers.web import SPEC, api_of, client, engine, new_table, play_to_the_end

with warnings.catch_warnings():  # Starlette suggests httpx2 over httpx for its test client; httpx is what is packaged
    warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient`")

from app import cli
from playtest.bots import make_bot
from web import botwork, catalogue, store
from web.links import seat_secrets, watch_secret

ROOT = pathlib.Path(__file__).resolve().parent.parent


def find_refused(module, game, prefix: str):
    """The first action whose notation starts with `prefix` that the engine refuses now, and its reason."""
    for a in range(module.NUM_ACTIONS):
        if module.action_to_string(a).startswith(prefix) and a not in game.legal_actions():
            try:
                game.clone().apply(a)
            except module.IllegalAction as e:
                return a, str(e)
    raise AssertionError(f"no refused '{prefix}' action")


def test_a_table_gives_each_human_seat_its_own_link_and_none_to_bots(variants, db):
    with client(variants, db) as c:
        made = new_table(c, ("human", "greedy", "human"))
        links = [s["link"] for s in made["seats"]]
        assert links[1] is None and links[0] and links[2] and links[0] != links[2]
        assert [s["who"] for s in made["seats"]] == ["human", "greedy", "human"]
        secret = urllib.parse.urlparse(links[0]).path.split("/")[-1]
        assert len(secret) >= 40  # 256 bits, URL-safe
        host = c.get(made["host"])
        assert host.status_code == 200
        for link in (links[0], links[2]):
            assert link in host.text  # the host page shows the links again
        page = c.get(links[2])
        assert page.status_code == 200
        assert "Player 3" in page.text
        view = c.get(api_of(links[2])).json()
        assert view["you"] == 2 and view["current"] == 0 and view["legal"] == []


def test_seat_links_derive_from_the_host_secret_and_only_hashes_are_stored(variants, db):
    with client(variants, db) as c:
        made = new_table(c)
    host_secret = made["host"].rsplit("/", 1)[1]
    derived = seat_secrets(host_secret, made["table"], [type("S", (), {"who": "human"})()] * 2)
    assert [urllib.parse.urlparse(s["link"]).path.split("/")[-1] for s in made["seats"]] == [derived[0], derived[1]]
    raw = pathlib.Path(db).read_bytes() + (
        pathlib.Path(db + "-wal").read_bytes() if pathlib.Path(db + "-wal").exists() else b""
    )
    for secret in [host_secret, *derived.values()]:
        assert secret.encode() not in raw
        assert store.digest(secret).encode() in raw


def test_a_wrong_secret_opens_nothing(variants, db):
    with client(variants, db) as c:
        made = new_table(c, ("human", "human"))
        api0, api1 = (api_of(s["link"]) for s in made["seats"])
        secret1 = api1.rsplit("/", 1)[1]
        forged = api0.rsplit("/", 1)[0] + "/" + secret1  # seat 1's secret on seat 0's path
        for url in (forged, forged[:-1] + ("A" if forged[-1] != "A" else "B")):
            assert c.get(url).json() == {"error": "this link does not open that seat"}
            assert c.get(url).status_code == 403
            r = c.post(url + "/actions", json={"action": 15})
            assert (r.status_code, r.json()["error"]) == (403, "this link does not open that seat")
            assert c.get(url + "/events").status_code == 403
            assert c.get(url + "/game.json").status_code == 403
        page = c.get(forged.replace("/api/tables/", "/play/").replace("/seats/", "/"))
        assert page.status_code == 403 and "this link does not open that seat" in page.text
        assert c.get(made["host"] + "x").status_code == 404
        assert c.get(f"/api/tables/nosuchtable/seats/0/{secret1}").status_code == 404
        assert c.get(api0).json()["moves"] == 0


def test_nobody_acts_for_another_seat(variants, db):
    with client(variants, db) as c:
        made = new_table(c)
        api0, api1 = (api_of(s["link"]) for s in made["seats"])
        legal = c.get(api0).json()["legal"]
        r = c.post(api1 + "/actions", json={"action": legal[0]})
        assert (r.status_code, r.json()) == (409, {"error": "it is player 1's turn, not yours"})
        assert c.get(api0).json()["moves"] == 0
        assert c.post(api0 + "/actions", json={"action": legal[0]}).status_code == 200
        r = c.post(api0 + "/actions", json={"action": legal[0]})
        assert (r.status_code, r.json()) == (409, {"error": "it is player 2's turn, not yours"})


def test_an_illegal_move_gets_the_engines_reason_and_changes_nothing(variants, db):
    module = engine(variants)
    game = module.new_game(2, seed=7)
    action, reason = find_refused(module, game, "buy")
    with client(variants, db) as c:
        api0 = api_of(new_table(c)["seats"][0]["link"])
        before = c.get(api0).json()
        r = c.post(api0 + "/actions", json={"action": action, "after": 0})
        assert r.status_code == 422
        said, details = reason.split("\ndetails: ")  # the rule's words, then (for spec authors) its details
        assert r.json() == {"error": said, "details": details}
        assert said  # the rule that forbids it, in words
        assert c.get(api0).json() == before


@pytest.mark.parametrize(
    "body, status, message",
    [
        (b'{"action": -1}', 422, "no action -1 in this game (ids 0 to {last})"),
        (b'{"action": 100000}', 422, "no action 100000 in this game (ids 0 to {last})"),
        (b'{"action": "15"}', 422, "an action is a whole number (an action id of this game)"),
        (b'{"action": 15.0}', 422, "an action is a whole number (an action id of this game)"),
        (b'{"action": true}', 422, "an action is a whole number (an action id of this game)"),
        (b'{"action": 15, "after": "0"}', 422, "'after' is the number of moves of the board you saw"),
        (b'{"action": 15, "after": 3}', 409, "the table has moved on since the board you saw; here it is now"),
        (b"{}", 422, 'say which action: {"action": id}'),
        (b"[15]", 400, "the body is a JSON object"),
        (b'{"action": 15', 400, "the body is not JSON"),
        (b"\xff\xfe", 400, "the body is not JSON"),
        (b"[" * 100_000, 413, "a request body holds at most 16384 bytes"),
        (b'{"action": 15, "pad": "' + b"x" * 20_000 + b'"}', 413, "a request body holds at most 16384 bytes"),
        (b'{"action": ' + b"9" * 5000 + b"}", 400, "the body is not JSON"),
    ],
)
def test_bad_requests_get_a_4xx_and_change_nothing(variants, db, body, status, message):
    last = engine(variants).NUM_ACTIONS - 1
    with client(variants, db) as c:
        api0 = api_of(new_table(c)["seats"][0]["link"])
        before = c.get(api0).json()
        r = c.post(api0 + "/actions", content=body, headers={"content-type": "application/json"})
        assert (r.status_code, r.json()) == (status, {"error": message.replace("{last}", str(last))})
        assert c.get(api0).json() == before


@pytest.mark.parametrize(
    "body, message",
    [
        ({"spec": "nope", "players": 2, "seats": ["human", "human"]}, "no spec named 'nope' on this server"),
        ({"spec": SPEC, "players": 9, "seats": ["human"] * 9}, "target-12 plays with 2, 3, 4 players"),
        (
            {"spec": SPEC, "players": 2, "seats": ["human"]},
            "give one seat per player (2): human, random, greedy or mcts",
        ),
        (
            {"spec": SPEC, "players": 2, "seats": ["human", "grredy"]},
            "seat 2: unknown bot 'grredy' (did you mean 'greedy'?); expected one of: random, greedy, mcts (or 'human')",
        ),
        (
            {"spec": SPEC, "players": 2, "seats": ["human", "mcts:5001"]},
            "seat 2: a bot of this server thinks for at most 5000 playouts",
        ),
        (
            {"spec": SPEC, "players": 2, "seats": ["human", "mcts:" + "9" * 5000]},
            "seat 2: human, random, greedy, mcts or mcts:PLAYOUTS",
        ),
        ({"spec": SPEC, "players": 2, "seats": ["human", 3]}, "seat 2: human, random, greedy, mcts or mcts:PLAYOUTS"),
        ({"spec": SPEC, "players": 2.0, "seats": ["human", "human"]}, "target-12 plays with 2, 3, 4 players"),
        (
            {"spec": SPEC, "players": 2, "seats": ["human", "human"], "seed": -1},
            "a seed is a whole number from 0 to 2**62",
        ),
    ],
)
def test_a_table_asked_for_wrongly_is_refused(variants, db, body, message):
    with client(variants, db) as c:
        r = c.post("/api/tables", json=body)
        assert (r.status_code, r.json()) == (422, {"error": message})
        assert c.app.state.hub.tables == {}


def test_a_seat_sees_its_observation_not_the_deck_nor_others_blind_reserves(variants, db):
    module = engine(variants)
    blind = next(a for a in range(module.NUM_ACTIONS) if module.action_to_string(a) == "reserve deck 1")
    with client(variants, db) as c:
        api0, api1 = (api_of(s["link"]) for s in new_table(c, seed=11)["seats"])
        assert c.post(api0 + "/actions", json={"action": blind}).status_code == 200
        mine, theirs = c.get(api0).json(), c.get(api1).json()
        game = module.new_game(2, seed=11)
        game.apply(blind)
        assert theirs["state"] == game.observation(1)
        assert mine["state"] == game.observation(0)
        card = game.observation(0)["seats"][0]["reserved"][0]
        assert isinstance(card, int) and mine["state"]["seats"][0]["reserved"] == [card]
        assert theirs["state"]["seats"][0]["reserved"] == [None]
        assert all(isinstance(n, int) for n in theirs["state"]["decks"].values())
        text = json.dumps(theirs)
        assert '"seed"' not in text and "11" not in json.dumps(theirs["state"].get("seed", ""))
        assert theirs["log"] == [
            {"seat": 0, "action": blind, "text": "reserve deck 1", "card": None}
        ]  # the card stays hidden
        assert theirs["state"]["seats"][0]["blind"] == [1]  # its level is public: the deck it came from


@pytest.mark.parametrize("workers", [0, 1])
def test_bots_move_on_their_own_in_threads_or_in_a_worker_process(variants, db, workers):
    with client(variants, db, bot_workers=workers) as c:
        api0 = api_of(new_table(c, ("human", "greedy", "random"))["seats"][0]["link"])
        legal = c.get(api0).json()["legal"]
        c.post(api0 + "/actions", json={"action": legal[0]})
        deadline = time.monotonic() + 20
        view = c.get(api0).json()
        while view["current"] != 0 and time.monotonic() < deadline:
            time.sleep(0.05)
            view = c.get(api0).json()
        assert [m["seat"] for m in view["log"]][:3] == [0, 1, 2]
        assert view["current"] == 0 and view["legal"]
    # Each bot's move is its own, seeded by (table seed, seat, move): the same wherever it thinks.
    module = engine(variants)
    game = module.new_game(3, seed=7)
    game.apply(legal[0])
    expected = [module.action_to_string(legal[0])]
    while game.current_player != 0:
        who = ("greedy", "random")[game.current_player - 1]
        action = botwork.choose_here(module, game.clone(), who, botwork.bot_seed(7, game.current_player, len(expected)))
        game.apply(action)
        expected.append(module.action_to_string(action))
    assert [m["text"] for m in view["log"]] == expected


def test_a_table_of_bots_plays_itself_and_the_host_watches_with_blind_reserves_hidden(variants, db):
    module = engine(variants)
    with client(variants, db) as c:
        made = new_table(c, ("greedy", "random", "greedy"), seed=9)
        assert [s["link"] for s in made["seats"]] == [None, None, None]
        host = c.get(made["host"]).text
        watch = re.search(r'class="watch-link" href="([^"]+)"', host)[1]
        assert c.get(watch).status_code == 200
        api = "/api/tables/{}/watch/{}".format(*urllib.parse.urlparse(watch).path.split("/")[2:])
        deadline = time.monotonic() + 60
        view = c.get(api).json()
        while not view["over"] and time.monotonic() < deadline:
            time.sleep(0.05)
            view = c.get(api).json()
            if not view["over"]:
                game = module.new_game(3, seed=9)
                for m in view["log"]:
                    game.apply(module.string_to_action(m["text"]))
                for p in range(3):  # each seat's part as another seat sees it: blind cards hidden
                    assert view["state"]["seats"][p] == game.observation((p + 1) % 3)["seats"][p]
                assert view["legal"] == [] and view["payments"] == {} and view["undo"]["now"] is False
                hidden = {c for p in range(3) for c in game.blind[p]}  # the log names none of them
                assert not hidden & {m["card"] for m in view["log"]}
        assert view["over"]
        r = c.post(api + "/actions", json={"action": 0})
        assert (r.status_code, r.json()) == (403, {"error": "a spectator does not play"})
        assert c.get(api[:-1] + "x").json() == {"error": "this link does not open that table"}


def test_the_event_stream_sends_the_seats_view(variants, db):
    with client(variants, db) as c:
        api0 = api_of(new_table(c)["seats"][0]["link"])
        with c.stream("GET", api0 + "/events") as r:
            assert r.headers["content-type"].startswith("text/event-stream")
            lines = r.iter_lines()
            assert next(lines) == "retry: 1000"
            assert next(lines) == ""
            assert next(lines) == "event: view"
            data = next(lines)
            assert json.loads(data.removeprefix("data: ")) == {"log_from": 0, **c.get(api0).json()}  # the whole view
            c.app.state.hub.stop()  # ends the stream


def test_a_finished_game_downloads_and_replays_with_play_load(variants, db, tmp_path):
    module = engine(variants)
    with client(variants, db) as c:
        apis = [api_of(s["link"]) for s in new_table(c, seed=3)["seats"]]
        r = c.get(apis[0] + "/game.json")
        assert (r.status_code, r.json()) == (
            409,
            {"error": "the game is not over: its record is for download once it ends"},
        )
        game = play_to_the_end(c, module, apis, 3)
        view = c.get(apis[1]).json()
        assert view["over"] and view["winners"] == game.winners()
        assert view["state"]["decks"] == {k: len(v) for k, v in json.loads(game.to_json())["decks"].items()}
        r = c.get(apis[1] + "/game.json")
        assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
        saved = r.json()
    assert saved["table"] == {"seats": ["human", "human"]}
    assert module.replay(module.from_json(saved).record()).to_json() == game.to_json()
    path = tmp_path / "game.json"
    path.write_text(json.dumps(saved))
    result = CliRunner().invoke(cli.main, ["play", str(ROOT / "variants" / "target-12.yaml"), "--load", str(path)])
    assert result.exit_code == 0, result.output
    assert "game over" in result.output and "winner: player" in result.output


def test_a_restarted_server_resumes_every_table(variants, db):
    module = engine(variants)
    with client(variants, db) as c:
        made = new_table(c, seed=5)
        other = new_table(c, ("human", "greedy"), seed=6)
        apis = [api_of(s["link"]) for s in made["seats"]]
        game = module.new_game(2, seed=5)
        bot = make_bot("greedy", module, 1)
        for n in range(6):
            action = bot.choose(game)
            assert (
                c.post(apis[game.current_player] + "/actions", json={"action": action, "after": n}).status_code == 200
            )
            game.apply(action)
        before = [c.get(a).json() for a in apis]
    with client(variants, db) as c:  # a new app on the same file: what a restarted server is
        after = [c.get(a).json() for a in apis]
        assert after == before
        assert c.get(made["host"]).status_code == 200
        assert other["table"] in c.app.state.hub.tables
        action = bot.choose(game)
        r = c.post(apis[game.current_player] + "/actions", json={"action": action, "after": 6})
        assert r.status_code == 200 and r.json()["moves"] == 7


def test_a_persons_move_is_on_disk_when_announced_and_a_bots_is_committed_without_the_sync(variants, db):
    """A bot's move is committed without the disk sync (synchronous=NORMAL: a killed server loses
    nothing, and the bot would choose it again), a person's with it (FULL), and a restarted server
    resumes both (web.store.Store)."""
    settings = []
    commit = store.Store._commit

    def watched(self, jobs, synced=True):
        outcomes = commit(self, jobs, synced)
        settings.append(self.db.execute("PRAGMA synchronous").fetchone()[0])  # 1 NORMAL, 2 FULL
        return outcomes

    with client(variants, db) as c:
        c.app.state.hub.store._commit = watched.__get__(c.app.state.hub.store)
        made = new_table(c, ("greedy", "human"), seed=3)
        api = api_of(made["seats"][1]["link"])
        for _ in range(200):  # the bot's first move
            view = c.get(api).json()
            if view["moves"] == 1:
                break
            time.sleep(0.05)
        assert settings == [2, 1]  # the table made (synced), the bot's move (not)
        r = c.post(api + "/actions", json={"action": view["legal"][0], "after": 1})
        assert r.status_code == 200 and settings[2] == 2
    with client(variants, db) as c:
        assert c.app.state.hub.tables[made["table"]].log[:2] == [(0, view["log"][0]["action"]), (1, view["legal"][0])]


def test_a_table_whose_engine_cannot_be_resumed_is_said_so(variants, db):
    with client(variants, db) as c:
        api0 = api_of(new_table(c)["seats"][0]["link"])
    s = store.Store(db)
    s.db.execute("UPDATE tables SET players = 99")
    s.close()
    with client(variants, db) as c:
        r = c.get(api0)
        assert (r.status_code, r.json()) == (
            410,
            {
                "error": "this table could not be resumed after the server restarted: its seats are not a table "
                "this server makes: give one seat per player (99): human, random, greedy or mcts"
            },
        )


def test_the_rules_sheet_is_the_compilers_in_each_language_without_script(variants, db):
    with client(variants, db) as c:
        for lang in ("en", "fr", "nl", "sr"):
            r = c.get(f"/rules/{SPEC}/{lang}")
            assert r.status_code == 200
            assert r.text == variants[SPEC].sheet(lang)
            csp = r.headers["content-security-policy"]
            assert "script-src" not in csp and csp.startswith("default-src 'none'; style-src 'sha256-")
        assert re.search("[\u0400-\u04ff]{4}", c.get(f"/rules/{SPEC}/sr").text)  # Serbian, in Cyrillic
        assert '<aside class="house">' in c.get(f"/rules/{SPEC}/fr").text  # the house-rules box of the variant
        assert c.get(f"/rules/{SPEC}/de").status_code == 404
        assert c.get("/rules/nope/en").status_code == 404
        page = c.get(new_table(c)["seats"][0]["link"], headers={"accept-language": "nl-BE,nl;q=0.9"})
        assert f'src="/rules/{SPEC}/nl"' in page.text


def test_every_answer_has_a_strict_content_security_policy(variants, db):
    with client(variants, db) as c:
        for url in ("/", "/static/play.js", new_table(c)["seats"][0]["link"]):
            r = c.get(url)
            csp = r.headers["content-security-policy"]
            assert "script-src 'self'" in csp and "unsafe-inline" not in csp and "unsafe-eval" not in csp
            assert r.headers["referrer-policy"] == "same-origin"  # a page's address (a secret) stays here
            assert r.headers["x-content-type-options"] == "nosniff"


HOSTILE = """\
spec: 1
name: hostile
extends: official
title: "<img src=x onerror=alert(1)></script><script>alert(2)</script>"
description: "x"
"""


def test_a_specs_text_reaches_the_page_escaped(tmp_path, db):
    path = tmp_path / "hostile.yaml"
    path.write_text(HOSTILE)
    hostile = catalogue.load([str(path)])
    with client(hostile, db) as c:
        index = c.get("/").text
        assert "<img src=x" not in index and "&lt;img src=x onerror=alert(1)&gt;" in index
        made = c.post("/api/tables", json={"spec": "hostile", "players": 2, "seats": ["human", "human"]}).json()
        page = c.get(made["seats"][0]["link"]).text
        assert "<script>alert" not in page and "<img src=x" not in page
        assert page.count("</script>") == 2  # the page's data and play.js; the title closes nothing


def test_serve_says_what_to_install_without_the_web_extra(monkeypatch):
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "uvicorn" else real(name, *a))
    result = CliRunner().invoke(cli.main, ["serve"])
    assert result.exit_code == 2
    assert result.output == "error: `serve` needs the web extra (missing: uvicorn): pip install -e '.[web]'\n"


def test_serve_refuses_a_spec_with_errors_before_starting(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("spec: 1\nname: bad\nextends: official\nvalues:\n  target: nope\n")
    result = CliRunner().invoke(cli.main, ["serve", str(bad), "--db", str(tmp_path / "t.db")])
    assert result.exit_code == 1
    assert "bad.yaml:5:" in result.output and "error[" in result.output
    assert not (tmp_path / "t.db").exists()


def test_unknown_routes_and_methods_answer_in_json_under_the_api(variants, db):
    with client(variants, db) as c:
        api0 = api_of(new_table(c)["seats"][0]["link"])
        assert (c.get("/api/nothing").status_code, c.get("/api/nothing").json()) == (404, {"error": "no such page"})
        r = c.get(api0 + "/actions")
        assert (r.status_code, r.json()) == (405, {"error": "this method is not allowed here"})
        r = c.post(api0 + "/actions", content=b'{"action": 15}', headers={"content-length": "x15"})
        assert r.status_code == 400
        page = c.get("/nothing")
        assert page.status_code == 404 and "no such page" in page.text


def test_the_core_needs_no_web_package():
    """compiler and playtest import without Starlette or uvicorn; `serve` then says what is missing."""
    code = (
        "import sys\n"
        "sys.modules['starlette'] = sys.modules['uvicorn'] = None\n"
        "import app.cli, playtest.terminal, playtest.simulate\n"
        "assert not [m for m in sys.modules if m == 'web' or m.startswith('web.')], 'web imported'\n"
        "from click.testing import CliRunner\n"
        "r = CliRunner().invoke(app.cli.main, ['serve'])\n"
        "print(r.exit_code, r.output, end='')\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout == (
        "2 error: `serve` needs the web extra (missing: starlette, uvicorn): pip install -e '.[web]'\n"
    )


def test_a_bots_worker_process_leaves_when_the_server_is_killed(tmp_path):
    """SIGKILL gives the server no chance to stop its workers: they notice and exit themselves."""
    code = (
        "import asyncio, os\n"
        "from web import botwork, catalogue\n"
        f"v = catalogue.load([{str(ROOT / 'variants' / 'target-12.yaml')!r}])['target-12']\n"
        "t = botwork.Thinkers(1)\n"
        "g = v.module.new_game(2, seed=1)\n"
        "asyncio.run(t.choose(v.module, v.source, g, 'greedy', 's'))\n"
        "print(*[p._pid if hasattr(p, '_pid') else p.pid for p in t.pool._processes.values()], flush=True)\n"
        "os.kill(os.getpid(), 9)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    workers = [int(p) for p in done.stdout.split()]
    assert len(workers) == 1, done.stderr
    deadline = time.monotonic() + 10
    while alive(workers[0]) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not alive(workers[0])


def alive(pid: int) -> bool:
    """Whether process `pid` runs (a zombie, dead but not yet reaped, does not)."""
    try:
        return pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def test_a_post_from_another_site_is_refused(variants, db):
    with client(variants, db) as c:
        api0 = api_of(new_table(c)["seats"][0]["link"])
        legal = c.get(api0).json()["legal"]
        evil = {"origin": "https://evil.example"}
        for origin in ("https://evil.example", "null", "http://testserver.evil.example"):
            r = c.post(api0 + "/actions", json={"action": legal[0]}, headers={"origin": origin})
            assert (r.status_code, r.json()) == (403, {"error": "this request comes from another site"})
        r = c.post("/api/tables", json={"spec": SPEC, "players": 2, "seats": ["human", "human"]}, headers=evil)
        assert r.status_code == 403
        r = c.post(
            "/tables",
            content=b"spec=target-12&players=2",
            headers={**evil, "content-type": "application/x-www-form-urlencoded"},
        )
        assert r.status_code == 403 and "this request comes from another site" in r.text
        assert len(c.app.state.hub.tables) == 1 and c.get(api0).json()["moves"] == 0
        r = c.post(api0 + "/actions", json={"action": legal[0]}, headers={"origin": "http://testserver"})
        assert r.status_code == 200


def test_the_table_form_makes_a_table_and_shows_the_host_its_links(variants, db):
    with client(variants, db) as c:
        c.app.state.hub.draw_seed = lambda: 12
        r = c.post(
            "/tables",
            content=b"spec=target-12&players=2&seat0=human&seat1=mcts%3A16",
            headers={"content-type": "application/x-www-form-urlencoded"},
            follow_redirects=False,
        )
        assert r.status_code == 303 and r.headers["location"].startswith("http://testserver/host/")
        host = c.get(r.headers["location"]).text
        links = re.findall(r'class="seat-link" href="([^"]+)"', host)
        assert len(links) == 1 and "Player 2: mcts:16" in host
        (table,) = c.app.state.hub.tables.values()
        assert table.seed == 12 and [s.who for s in table.seats] == ["human", "mcts:16"]
        for body, message in (
            (b"spec=target-12&players=x", "choose the number of players"),
            (b"spec=target-12&players=2&seed=-3", "a seed is a whole number from 0 to 2**62"),
            (b"spec=target-12&players=2&seat0=robot", "seat 1: unknown bot &#39;robot&#39;"),
        ):
            r = c.post("/tables", content=body, headers={"content-type": "application/x-www-form-urlencoded"})
            assert r.status_code == 422 and message in r.text


def test_serve_without_specs_offers_the_official_rules_and_the_catalogue():
    from compiler import pipeline

    names = [pathlib.Path(p).name for p in catalogue.default_specs()]
    index = pipeline.index_entries(str(ROOT / pipeline.VARIANT_INDEX))
    assert names == ["official.yaml"] + [pathlib.Path(p).name for p in index]


def test_a_solo_table_has_no_spectators_view(db):
    solo = catalogue.load([str(ROOT / "variants" / "solo.yaml")])
    with client(solo, db) as c:
        made = c.post("/api/tables", json={"spec": "solo", "players": 1, "seats": ["human"]}).json()
        host = c.get(made["host"]).text
        assert "watch-link" not in host
        table, secret = urllib.parse.urlparse(made["host"]).path.split("/")[2:]
        assert made["watch"] is None
        r = c.get(f"/api/tables/{table}/watch/{watch_secret(secret, table)}")
        assert (r.status_code, r.json()) == (404, {"error": "a table of one player has no spectators' view"})
        r = c.post("/api/tables", json={"spec": "solo", "players": 1, "seats": ["greedy"]})
        assert (r.status_code, r.json()) == (422, {"error": "a solo table needs its human"})
        view = c.get(api_of(made["seats"][0]["link"])).json()
        assert view["you"] == 0 and view["legal"]


def test_the_rules_sheet_of_a_spec_that_refills_a_zone_is_a_page(db, tmp_path):
    """`refill(ZONE)` made the rules page answer 500 (the sheets could not phrase it: issue 26, item 12)."""
    spec = (ROOT / "variants" / "cities.yaml").read_text(encoding="utf-8").replace("name: cities\n", "name: refills\n")
    old = 'effects: ["move(city, me.claimed)"]'
    assert spec.count(old) == 1
    (tmp_path / "refills.yaml").write_text(
        spec.replace(old, 'effects: ["move(city, me.claimed)", "refill(city_display)"]'), encoding="utf-8"
    )
    (tmp_path / "cities.csv").write_bytes((ROOT / "variants" / "cities.csv").read_bytes())
    loaded = catalogue.load([str(tmp_path / "refills.yaml")])
    with client(loaded, db) as c:
        r = c.get("/rules/refills/en")
        assert r.status_code == 200
        assert "fill the empty places of “Cities on display” from its pile" in r.text
        assert c.get("/rules/refills/sr").status_code == 200
