"""The web table's limits and its old tables, through Starlette's test client: what one client
address may ask (tables, requests), what the server holds at once (games in play, bot moves
queued), each refusal a 429 or 503 with a sentence and a Retry-After that makes nothing; a
finished game's result as every seat sees it; and tables removed when old (--expire-days,
--max-tables), whose links then say why."""

from __future__ import annotations

import json
import re
import threading
import time
import urllib.parse

import pytest
from click.testing import CliRunner

from app import cli
from playtest.bots import make_bot
from tests.helpers import ROOT
from tests.helpers.web import (
    SPEC,
    TEST_HOSTS,
    TestClient,
    api_of,
    client,
    engine,
    new_table,
    play_to_the_end,
    with_seed,
)
from web import botwork, catalogue, quotas, server, views
from web import store as store_mod
from web.closing import tables_to_close
from web.quotas import Quotas

HUMANS = {"spec": SPEC, "players": 2, "seats": ["human", "human"]}
SHORT = """\
spec: 1
name: short
extends: target-12
title: Short
description: "A test variant: 2 prestige end the game."
values:
  target:
    value: 2
"""
CAPPED = """\
spec: 1
name: capped
extends: target-12
title: Capped
description: "A test variant: a game stops after 3 turns."
values:
  max_turns: {value: 3, add: true}
"""


def stored_ids(db: str) -> list[str]:
    s = store_mod.Store(db)
    try:
        return [t.id for t in s.tables()]
    finally:
        s.close()


def retry_after(response) -> int:
    value = response.headers["retry-after"]
    assert value.isdigit(), value
    return int(value)


# -- per client address


def test_tables_past_an_addresss_rate_get_429_with_retry_after_and_nothing_is_made(variants, db):
    limits = Quotas(tables_per_address="2/hour", requests_per_address="1000/second")
    with client(variants, db, quotas=limits) as c:
        bad = c.post("/api/tables", json={**HUMANS, "players": 9})
        assert bad.status_code == 422  # a refused request does not use up the rate
        made = [new_table(c) for _ in range(2)]
        r = c.post("/api/tables", json=HUMANS)
        assert r.status_code == 429
        assert r.json() == {
            "error": "you have made too many tables (at most 2 per hour from one address); wait before making another"
        }
        assert 3500 <= retry_after(r) <= 3600
        form = c.post(
            "/tables",
            content=b"spec=target-12&players=2&seat0=human&seat1=greedy",
            headers={"content-type": "application/x-www-form-urlencoded"},
            follow_redirects=False,
        )
        assert form.status_code == 429 and 3500 <= retry_after(form) <= 3600
        assert "you have made too many tables (at most 2 per hour from one address)" in form.text
        assert "Try again in about 60 minutes." in form.text and "Too Many Requests" in form.text
        assert sorted(c.app.state.hub.tables) == sorted(m["table"] for m in made)
    assert sorted(stored_ids(db)) == sorted(m["table"] for m in made)


def test_another_address_has_its_own_rate(variants, db):
    limits = Quotas(tables_per_address="1/hour", requests_per_address="1000/second")
    app = server.make_app(variants, db, bot_delay=0, bot_workers=0, quotas=limits, hosts=TEST_HOSTS)
    with TestClient(app, client=("10.0.0.1", 5000)) as one, TestClient(app, client=("10.0.0.2", 5000)) as two:
        assert one.post("/api/tables", json=HUMANS).status_code == 201
        assert one.post("/api/tables", json=HUMANS).status_code == 429
        assert two.post("/api/tables", json=HUMANS).status_code == 201


def test_requests_past_an_addresss_rate_get_429_and_the_move_is_not_played(variants, db):
    limits = Quotas(tables_per_address="100/hour", requests_per_address="4/minute")
    with client(variants, db, quotas=limits) as c:
        api0 = api_of(new_table(c)["seats"][0]["link"])  # 1
        legal = c.get(api0).json()["legal"]  # 2
        c.get(api0)  # 3
        c.get(api0)  # 4
        r = c.post(api0 + "/actions", json={"action": legal[0], "after": 0})
        assert r.status_code == 429
        assert r.json() == {"error": "too many requests from your address (at most 4 per minute); wait a moment"}
        assert 1 <= retry_after(r) <= 60
        assert r.headers["content-security-policy"].startswith("default-src 'none'")  # a 429 is an answer like any
        (table,) = c.app.state.hub.tables.values()
        assert table.log == []
        page = c.get("/")
        assert page.status_code == 429 and page.headers["content-type"].startswith("text/html")
        assert "too many requests from your address (at most 4 per minute)" in page.text


def test_an_app_made_without_limits_keeps_serves_defaults(variants, db):
    with client(variants, db, quotas=None) as c:
        limiter, hub = c.app.state.limiter, c.app.state.hub
        assert (str(quotas.shown_rate(limiter.requests)), str(quotas.shown_rate(limiter.tables))) == (
            "30 per second",
            "20 per hour",
        )
        assert limiter.quotas.max_open_tables == 200 and limiter.quotas.bot_queue == 32
        assert (hub.max_tables, hub.expire_after) == (2000, 30 * 86400)
        for _ in range(20):
            assert c.post("/api/tables", json=HUMANS).status_code == 201
        r = c.post("/api/tables", json=HUMANS)
        assert r.status_code == 429 and r.json()["error"].startswith(
            "you have made too many tables (at most 20 per hour"
        )


def test_serve_options_default_to_the_quotas_defaults():
    options = {p.name: p.default for p in cli.serve.params}
    defaults = Quotas()
    assert options["tables_per_address"] == defaults.tables_per_address == quotas.TABLES_PER_ADDRESS
    assert options["requests_per_address"] == defaults.requests_per_address
    assert options["max_open_tables"] == defaults.max_open_tables
    assert options["max_tables"] == defaults.max_tables
    assert options["expire_days"] == defaults.expire_days
    assert options["bot_queue"] == defaults.bot_queue
    assert options["abandoned_days"] == defaults.abandoned_days == 1.0
    assert options["streams_per_address"] == defaults.streams_per_address
    assert options["streams_per_table"] == defaults.streams_per_table


@pytest.mark.parametrize(
    "args, message",
    [
        (
            ["--tables-per-address", "lots"],
            "error: --tables-per-address: a rate is COUNT/PERIOD, e.g. 20/hour or 30/second, not 'lots'\n",
        ),
        (
            ["--requests-per-address", "3/fortnight"],
            "error: --requests-per-address: a rate is COUNT/PERIOD, e.g. 20/hour or 30/second, not '3/fortnight'\n",
        ),
        (
            ["--requests-per-address", "0/second"],
            "error: --requests-per-address: a rate allows at least 1, not '0/second'\n",
        ),
        (
            ["--max-open-tables", "50", "--max-tables", "10"],
            "error: --max-open-tables (50) must be at most --max-tables (10): games in play are never removed to make "
            "room\n",
        ),
    ],
)
def test_serve_refuses_limits_it_cannot_keep_before_starting(tmp_path, args, message):
    result = CliRunner().invoke(cli.main, ["serve", "--db", str(tmp_path / "t.db"), *args])
    assert (result.exit_code, result.output) == (2, message)
    assert not (tmp_path / "t.db").exists()


# -- the server as a whole


def test_past_the_open_tables_a_new_table_gets_503_until_a_game_ends(variants, db):
    limits = Quotas(tables_per_address="100/hour", requests_per_address="10000/second", max_open_tables=2)
    module = engine(variants)
    with client(variants, db, quotas=limits) as c:
        first = new_table(c, seed=3)
        new_table(c)
        r = c.post("/api/tables", json=HUMANS)
        assert (r.status_code, r.json()) == (
            503,
            {"error": "this server has 2 games in play, as many as it takes; try again when one has ended"},
        )
        assert retry_after(r) == 60
        assert len(c.app.state.hub.tables) == 2 and len(stored_ids(db)) == 2
        play_to_the_end(c, module, [api_of(s["link"]) for s in first["seats"]], 3)
        assert c.post("/api/tables", json=HUMANS).status_code == 201


def age(table, seconds: float) -> None:
    """As if `table` had not moved for `seconds` more."""
    table.last_at -= seconds


def test_an_abandoned_game_stops_counting_as_open_until_it_moves_again(variants, db):
    limits = Quotas(tables_per_address="100/hour", requests_per_address="10000/second", max_open_tables=2)
    module = engine(variants)
    with client(variants, db, quotas=limits) as c:
        hub = c.app.state.hub
        left = new_table(c, seed=3)
        new_table(c)
        assert c.post("/api/tables", json=HUMANS).status_code == 503
        age(hub.tables[left["table"]], 86400 - 60)  # idle for a day less a minute: still in play
        assert c.post("/api/tables", json=HUMANS).status_code == 503
        age(hub.tables[left["table"]], 120)  # a day without a move: abandoned, no longer open
        assert hub.open_tables() == 1
        assert c.post("/api/tables", json=HUMANS).status_code == 201
        r = c.post("/api/tables", json=HUMANS)
        assert (r.status_code, r.json()) == (
            503,
            {"error": "this server has 2 games in play, as many as it takes; try again when one has ended"},
        )
        game = module.new_game(2, seed=3)  # its players come back: it counts again
        action = make_bot("greedy", module, 1).choose(game)
        assert c.post(api_of(left["seats"][0]["link"]) + "/actions", json={"action": action}).status_code == 200
        assert hub.open_tables() == 3


def test_the_time_after_which_a_game_is_abandoned_is_an_option(variants, db):
    limits = Quotas(
        tables_per_address="100/hour", requests_per_address="10000/second", max_open_tables=1, abandoned_days=0.25
    )
    with client(variants, db, quotas=limits) as c:
        hub = c.app.state.hub
        made = new_table(c)
        age(hub.tables[made["table"]], 6 * 3600 + 1)
        assert c.post("/api/tables", json=HUMANS).status_code == 201
    with client(variants, db, quotas=None) as c:
        assert c.app.state.hub.abandon_after == 86400


def test_a_tables_bots_think_one_move_at_a_time_and_a_full_queue_refuses_new_bot_tables(variants, db, monkeypatch):
    release = threading.Event()
    calls = []
    real = botwork.choose_here

    def slow(module, game, who, seed):
        calls.append(seed)
        release.wait(20)
        return real(module, game, who, seed)

    monkeypatch.setattr(botwork, "choose_here", slow)
    limits = Quotas(tables_per_address="100/hour", requests_per_address="10000/second", bot_queue=1)
    with client(variants, db, quotas=limits) as c:
        hub = c.app.state.hub
        made = new_table(c, ("greedy", "human"))
        deadline = time.monotonic() + 10
        while hub.thinking < 1 and time.monotonic() < deadline:
            time.sleep(0.01)
        (table,) = hub.tables.values()
        for _ in range(5):  # asking again starts no second move of the same table
            c.portal.call(lambda: hub.kick(table))
        time.sleep(0.2)
        assert hub.thinking == 1 and len(calls) == 1
        r = c.post("/api/tables", json={"spec": SPEC, "players": 2, "seats": ["human", "random"]})
        assert (r.status_code, r.json()) == (
            503,
            {
                "error": "the bots of this server are all busy; try again in a "
                "few seconds, or make a table of people only"
            },
        )
        assert retry_after(r) == 5
        assert len(hub.tables) == 1
        assert c.post("/api/tables", json=HUMANS).status_code == 201  # people only: no bot work
        release.set()
        api1 = api_of(made["seats"][1]["link"])
        deadline = time.monotonic() + 20
        while c.get(api1).json()["moves"] < 1 and time.monotonic() < deadline:
            time.sleep(0.02)
        assert c.get(api1).json()["moves"] == 1 and hub.thinking == 0
        assert c.post("/api/tables", json={"spec": SPEC, "players": 2, "seats": ["human", "random"]}).status_code == 201


# -- the end of a game


def test_a_finished_game_shows_the_same_result_to_every_seat_and_the_host(variants, db):
    module = engine(variants)
    with client(variants, db) as c:
        made = new_table(c, seed=3)
        apis = [api_of(s["link"]) for s in made["seats"]]
        assert c.get(apis[0]).json()["result"] is None
        game = play_to_the_end(c, module, apis, 3)
        views_ = [c.get(a).json() for a in apis]
        host = c.get(made["host"]).text
    winners, scores = game.winners(), game.scores()
    assert views_[0]["result"] == views_[1]["result"]
    result = views_[0]["result"]
    assert result["winners"] == winners and result["reason"] == "target" and not result["truncated"]
    assert result["ended_by"] == "ended by: target"
    assert [s["prestige"] for s in result["standings"]] == sorted(scores, reverse=True)
    assert result["standings"][0] == {
        "seat": winners[0],
        "who": "human",
        "prestige": scores[winners[0]],
        "winner": True,
        "cards": len(game.purchased[winners[0]]),
        "nobles": len(game.nobles[winners[0]]),
    }
    assert f"Result: player {winners[0] + 1} wins" in host and "Ended by: A player reaches the target" in host
    assert f"Player {winners[0] + 1} (human): {scores[winners[0]]} prestige" in host


def test_a_game_stopped_at_its_turn_limit_says_so_and_nobody_wins(tmp_path, db):
    path = tmp_path / "capped.yaml"
    path.write_text(CAPPED)
    capped = catalogue.load([str(path)])
    module = capped["capped"].module
    with client(capped, db) as c:
        made = c.post(
            "/api/tables", json=with_seed(c, {"spec": "capped", "players": 2, "seats": ["human", "human"]}, 1)
        ).json()
        apis = [api_of(s["link"]) for s in made["seats"]]
        game = module.new_game(2, seed=1)
        for n in range(3):
            action = game.legal_actions()[0]
            assert (
                c.post(apis[game.current_player] + "/actions", json={"action": action, "after": n}).status_code == 200
            )
            game.apply(action)
        assert game.is_truncated()
        seen = [c.get(a).json()["result"] for a in apis]
        host = c.get(made["host"]).text
    assert seen[0] == seen[1]
    assert seen[0]["reason"] == "truncated" and seen[0]["truncated"] and seen[0]["winners"] == []
    assert seen[0]["ended_by"] == "stopped at the turn limit before anyone won: nobody wins"
    assert "Result: no winner" in host and "Stopped at the turn limit before anyone won" in host


def test_a_deadlock_is_named_as_one(tmp_path):
    path = tmp_path / "short.yaml"
    path.write_text(SHORT)
    module = catalogue.load([str(path)])["short"].module
    game = module.new_game(2, seed=0)
    bot = make_bot("greedy", module, 1)
    while not game.is_over():
        game.apply(bot.choose(game))
    state = json.loads(game.to_json())
    state["end_reason"] = "deadlock"  # a deadlock is rare in play; the view reads the reason the engine gives
    table = type("T", (), {"game": module.from_json(state), "seats": [type("S", (), {"who": "human"})()] * 2})()
    result = views.result(table)
    assert result["reason"] == "deadlock" and result["ended_by"] == "deadlock: no player could make a move"
    assert views.ended_by("out_of_turns") == "ended by: out of turns"


# -- old tables


def english(closing: dict) -> dict[str, str]:
    """Why each table closes, in English (the server keeps it as its catalogue key and values)."""
    return {table: str(why) for table, why in closing.items()}


def test_which_tables_are_removed_when_old_or_too_many():
    day = 86400.0
    now = 100 * day
    tables = [
        ("old-done", True, now - 40 * day),
        ("old-open", False, now - 31 * day),
        ("done-1", True, now - 5 * day),
        ("done-2", True, now - 2 * day),
        ("open", False, now - 10 * day),
    ]
    assert english(tables_to_close(tables, now, 30 * day, None)) == {
        "old-done": "this table was cleared: its game ended more than 30 days ago",
        "old-open": "this table was cleared after 30 days without a move",
    }
    room = "this table was cleared to make room for new ones (its game had ended)"
    assert english(tables_to_close(tables, now, None, 3)) == {"old-done": room, "done-1": room}
    assert english(tables_to_close(tables, now, 30 * day, 2)) == {
        "old-done": "this table was cleared: its game ended more than 30 days ago",
        "old-open": "this table was cleared after 30 days without a move",
        "done-1": room,
    }
    assert english(tables_to_close(tables, now, None, 1)) == {
        "old-done": room,
        "done-1": room,
        "done-2": room,
    }  # never "open"
    assert english(tables_to_close(tables, now, None, 10)) == {}
    # Abandoned games (no move for a day) make room too, with the finished ones: the longest idle first.
    tables = [
        ("done", True, now - 2 * day),
        ("left", False, now - 3 * day),
        ("left-1", False, now - 1.5 * day),
        ("playing", False, now - 0.5 * day),
    ]
    left = "this table was cleared to make room for new ones (no move for 1 day)"
    assert english(tables_to_close(tables, now, None, 2, abandon_after=day)) == {"left": left, "done": room}
    assert english(tables_to_close(tables, now, None, 1, abandon_after=day)) == {
        "left": left,
        "done": room,
        "left-1": left,
    }
    assert english(tables_to_close(tables, now, None, 1)) == {"done": room}


def test_an_expired_table_is_removed_and_its_links_say_why_even_after_a_restart(variants, db):
    module = engine(variants)
    with client(variants, db) as c:
        done = new_table(c, seed=3)
        play_to_the_end(c, module, [api_of(s["link"]) for s in done["seats"]], 3)
        idle = new_table(c, ("human", "greedy"))
        hub = c.app.state.hub
        assert c.portal.call(hub.sweep, time.time() + 29 * 86400) == {}
        closed = english(c.portal.call(hub.sweep, time.time() + 31 * 86400))
        assert closed == {
            done["table"]: "this table was cleared: its game ended more than 30 days ago",
            idle["table"]: "this table was cleared after 30 days without a move",
        }
        assert hub.tables == {}
        r = c.get(api_of(done["seats"][0]["link"]))
        assert (r.status_code, r.json()) == (
            410,
            {"error": "this table was cleared: its game ended more than 30 days ago"},
        )
        page = c.get(idle["host"])
        assert page.status_code == 410 and "this table was cleared after 30 days without a move" in page.text
    assert stored_ids(db) == []
    s = store_mod.Store(db)
    names = {row[0] for row in s.db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert "engines" not in names  # the file holds no engine text at all
    assert s.db.execute("SELECT COUNT(*) FROM moves").fetchone() == (0,)
    s.close()
    with client(variants, db) as c:
        r = c.get(api_of(idle["seats"][0]["link"]) + "/events")
        assert (r.status_code, r.json()) == (410, {"error": "this table was cleared after 30 days without a move"})


def test_a_server_started_after_the_expiry_removes_the_tables_at_once(variants, db):
    with client(variants, db) as c:
        made = new_table(c)
    time.sleep(0.2)
    limits = Quotas(tables_per_address="100/hour", requests_per_address="10000/second", expire_days=1e-6)
    with client(variants, db, quotas=limits) as c:
        assert c.app.state.hub.tables == {}
        assert c.get(api_of(made["seats"][0]["link"])).status_code == 410
    assert stored_ids(db) == []


def test_past_max_tables_the_oldest_finished_game_makes_room(variants, db):
    module = engine(variants)
    limits = Quotas(tables_per_address="100/hour", requests_per_address="10000/second", max_open_tables=2, max_tables=2)
    with client(variants, db, quotas=limits) as c:
        done = new_table(c, seed=3)
        play_to_the_end(c, module, [api_of(s["link"]) for s in done["seats"]], 3)
        playing = new_table(c)
        third = new_table(c)
        assert sorted(c.app.state.hub.tables) == sorted([playing["table"], third["table"]])
        r = c.get(api_of(done["seats"][1]["link"]))
        assert (r.status_code, r.json()) == (
            410,
            {"error": "this table was cleared to make room for new ones (its game had ended)"},
        )
        assert c.post("/api/tables", json=HUMANS).status_code == 503  # two games in play: nothing to remove
    assert sorted(stored_ids(db)) == sorted([playing["table"], third["table"]])


def test_serve_lists_the_tables_of_its_database(variants, db, tmp_path):
    module = engine(variants)
    with client(variants, db) as c:
        done = new_table(c, seed=3)
        game = play_to_the_end(c, module, [api_of(s["link"]) for s in done["seats"]], 3)
        moves = c.get(api_of(done["seats"][0]["link"])).json()["moves"]
        playing = new_table(c, ("human", "mcts:16"))
    spec = str(ROOT / "variants" / "target-12.yaml")
    result = CliRunner().invoke(cli.main, ["serve", spec, "--list-tables", "--db", db])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == f"2 tables in {db}:"
    winner = game.winners()[0] + 1
    assert re.fullmatch(
        rf"{re.escape(done['table'])}  target-12  \[human, human\]  {moves} moves  "
        rf"over: player {winner} wins \(ended by: target\)  made \S+ \S+ UTC, last move \S+ \S+ UTC "
        r"\((0 minutes|1 minute) ago\)",
        lines[1],
    ), lines[1]
    assert lines[2].startswith(f"{playing['table']}  target-12  [human, mcts:16]  0 moves  in play, player 1 to move")
    missing = CliRunner().invoke(cli.main, ["serve", spec, "--list-tables", "--db", str(tmp_path / "none.db")])
    assert missing.exit_code == 1
    assert missing.output == f"error: no database {tmp_path / 'none.db'} (a server makes it when it starts)\n"
    assert not (tmp_path / "none.db").exists()


def test_the_host_closes_a_table_for_good(variants, db):
    with client(variants, db) as c:
        made = new_table(c, ("human", "greedy"))
        other = new_table(c)
        api0 = api_of(made["seats"][0]["link"])
        assert 'action="' + urllib.parse.urlparse(made["host"]).path + '/close"' in c.get(made["host"]).text
        r = c.post(made["host"] + "x/close")
        assert r.status_code == 404
        r = c.post(made["host"] + "/close", headers={"origin": "https://evil.example"})
        assert r.status_code == 403 and "this request comes from another site" in r.text
        assert c.get(api0).status_code == 200
        r = c.post(made["host"] + "/close")  # asked again first: nothing closed yet
        assert r.status_code == 200 and "Close this table?" in r.text and 'name="confirm" value="yes"' in r.text
        assert c.get(api0).status_code == 200
        r = c.post(made["host"] + "/close", data={"confirm": "yes"})
        assert r.status_code == 200 and f"Table {made['table']} is closed" in r.text
        r = c.get(api0)
        assert (r.status_code, r.json()) == (410, {"error": "the host closed this table"})
        assert c.get(made["host"]).status_code == 410
        assert list(c.app.state.hub.tables) == [other["table"]]
    assert stored_ids(db) == [other["table"]]


def test_the_moving_window_counts_each_address_apart_and_forgets_the_idle():
    now = [1000.0]
    window = quotas.MovingWindow(clock=lambda: now[0])
    rate = quotas.parse_rate("3/minute")
    assert [window.hit(rate, "a") for _ in range(3)] == [None, None, None]
    assert window.hit(rate, "a") == pytest.approx(60.0)  # refused, nothing counted: the oldest hit frees in 60 s
    assert window.hit(rate, "b") is None  # another address has its own count
    now[0] += 30
    assert window.hit(rate, "a") == pytest.approx(30.0)
    now[0] += 30  # the first three hits are a minute old: the window has moved past them
    assert window.hit(rate, "a") is None
    now[0] += window.SWEEP_SECONDS + 61  # nobody for longer than the period: the next hit sweeps them out
    assert window.hit(rate, "c") is None and set(k[2] for k in window.hits) == {"c"}
