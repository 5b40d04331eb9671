"""Who reaches what on the web table (issue 26): a long number in a link is no page, not an
error; the client's address is the connection's unless `serve --proxy` names the proxy; the
Host header names this server (no DNS rebinding); a spectator's link is not the host's key;
the seed of a table with hidden cards is the server's and shown only once the game is over."""

from __future__ import annotations

import logging
import pathlib
import re
import sqlite3
import urllib.parse
import urllib.request

import pytest

from tests.helpers.web import SPEC, Server, TestClient, api_of, client, free_port, new_table, play_to_the_end
from web import store, tables

# -- links


def test_a_seat_number_of_thousands_of_digits_is_no_page_and_logs_nothing(variants, db, caplog):
    huge = "9" * 4301
    with client(variants, db) as c:
        made = new_table(c)
        table = made["table"]
        quiet = TestClient(c.app, raise_server_exceptions=False)
        with caplog.at_level(logging.INFO):
            for path in (
                f"/api/tables/{table}/seats/{huge}/x",
                f"/api/tables/{table}/seats/{huge}/x/events",
                f"/api/tables/{table}/seats/{huge}/x/actions",
            ):
                r = quiet.get(path)
                assert (r.status_code, r.json()) == (404, {"error": "no such page"}), path
            page = quiet.get(f"/play/{table}/{huge}/x")
            assert page.status_code == 404 and "no such page" in page.text
            for path in (f"/host/{'a' * 5000}/b", f"/api/tables/{table}/watch/{'b' * 5000}"):
                assert quiet.get(path).status_code == 404, path
        assert [r for r in caplog.records if r.levelno >= logging.ERROR] == []


# -- the client's address and the Host header, on a real server


def get(url: str, headers: dict[str, str]) -> int:
    request = urllib.request.Request(url, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as r:
            return r.status
    except urllib.error.HTTPError as e:
        return e.code


@pytest.mark.parametrize(
    "options, statuses",
    [
        ((), [200, 429, 429, 429]),  # every request from 127.0.0.1 counts as 127.0.0.1's, whatever it says
        (("--proxy", "127.0.0.1"), [200, 200, 200, 200]),  # the proxy named: each forwarded address its own
    ],
)
def test_x_forwarded_for_is_trusted_only_from_the_proxy_serve_names(tmp_path, options, statuses):
    server = Server(
        tmp_path / "tables.sqlite3",
        free_port(),
        tmp_path / "server.log",
        options=("--requests-per-address", "2/minute", *options),
    )
    server.start()  # its first request (the check that it answers) is one of 127.0.0.1's two
    try:
        got = [get(server.url + "/static/style.css", {"X-Forwarded-For": f"203.0.113.{i}"}) for i in range(1, 5)]
    finally:
        server.kill()
    assert got == statuses


def test_a_host_header_the_server_was_not_started_for_is_refused(variants, db):
    with client(variants, db) as c:
        made = new_table(c)
        api0 = api_of(made["seats"][0]["link"])
        for host in ("evil.example", "evil.example:8000", "127.0.0.1.evil.example", "localhost.evil.example"):
            r = c.get(api0, headers={"host": host})
            assert (r.status_code, r.json()) == (
                400,
                {
                    "error": "this server does not answer to that name (the "
                    "address in the Host header); its host may allow it "
                    "with serve --allowed-host"
                },
            ), host
            r = c.post(api0 + "/actions", json={"action": 0}, headers={"host": host, "origin": f"http://{host}"})
            assert r.status_code == 400
            page = c.get("/", headers={"host": host})
            assert page.status_code == 400 and "this server does not answer to that name" in page.text
        assert c.get(api0).json()["moves"] == 0
        assert c.get(api0, headers={"host": "testserver"}).status_code == 200


@pytest.mark.parametrize(
    "bind, extra, allowed, refused",
    [
        (
            "127.0.0.1",
            (),
            ["localhost", "LOCALHOST:8000", "127.0.0.1", "127.0.0.1:8000", "[::1]:8000"],
            ["evil.example", "192.168.1.2", "", "[::1"],
        ),
        (
            "::1",
            ("games.example",),
            ["[::1]:8000", "localhost", "games.example", "Games.Example:443"],
            ["evil.example", "10.0.0.1"],
        ),
        ("192.168.1.5", (), ["192.168.1.5:8000"], ["localhost", "192.168.1.6", "evil.example"]),
        (
            "0.0.0.0",
            ("games.example",),
            ["192.168.1.5:8000", "10.1.2.3", "[fe80::1]:80", "localhost", "games.example"],
            ["evil.example", "games.example.evil.example"],
        ),
    ],
)
def test_the_host_names_a_server_answers_to_follow_the_address_it_listens_on(bind, extra, allowed, refused):
    from web.hosts import Hosts

    hosts = Hosts.bound_to(bind, extra)
    assert [h for h in allowed if not hosts.allows(h)] == []
    assert [h for h in refused if hosts.allows(h)] == []


def test_serve_allows_the_names_it_is_given_and_refuses_others(tmp_path):
    server = Server(
        tmp_path / "tables.sqlite3", free_port(), tmp_path / "server.log", options=("--allowed-host", "games.example")
    )
    server.start()
    try:
        assert get(server.url + "/", {"Host": "games.example"}) == 200
        assert get(server.url + "/", {"Host": f"localhost:{server.port}"}) == 200
        assert get(server.url + "/", {"Host": "rebound.example"}) == 400
    finally:
        server.kill()


# -- a spectator's link


def watch_link(c, made) -> str:
    return re.search(r'class="watch-link" href="([^"]+)"', c.get(made["host"]).text)[1]


def secret_of(link: str) -> str:
    return urllib.parse.urlparse(link).path.rsplit("/", 1)[1]


def test_a_watch_link_has_its_own_secret_and_opens_no_host_page(variants, db):
    with client(variants, db) as c:
        made = new_table(c, ("human", "greedy"))
        host_secret, watch = secret_of(made["host"]), watch_link(c, made)
        assert made["watch"] == watch
        watch_secret = secret_of(watch)
        assert watch_secret != host_secret and len(watch_secret) >= 40
        assert watch_secret not in {secret_of(s["link"]) for s in made["seats"] if s["link"]}
        assert watch_secret == tables.watch_secret(host_secret, made["table"])  # derived: the host page shows it again
        page = c.get(watch)
        assert page.status_code == 200 and "Watching" in page.text
        api = f"/api/tables/{made['table']}/watch/{watch_secret}"
        assert c.get(api).json()["you"] is None
        # The watch link's secret opens no host page, and the host's secret no spectator's view.
        r = c.get(f"/host/{made['table']}/{watch_secret}")
        assert r.status_code == 404 and "no such table" in r.text
        assert c.post(f"/host/{made['table']}/{watch_secret}/close").status_code == 404
        r = c.get(f"/api/tables/{made['table']}/watch/{host_secret}")
        assert (r.status_code, r.json()) == (403, {"error": "this link does not open that table"})
        assert c.get(f"/watch/{made['table']}/{host_secret}").status_code == 403
        assert made["table"] in c.app.state.hub.tables
    raw = pathlib.Path(db).read_bytes() + (
        pathlib.Path(db + "-wal").read_bytes() if pathlib.Path(db + "-wal").exists() else b""
    )
    assert watch_secret.encode() not in raw and store.digest(watch_secret).encode() in raw


def test_the_host_page_says_what_each_link_gives(variants, db):
    with client(variants, db) as c:
        made = new_table(c, ("human", "greedy", "human"))
        text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", c.get(made["host"]).text))
    assert "Player 1's link plays that seat: its hand (blind reserves included) and its moves" in text
    assert "Player 3's link plays that seat" in text and "Player 2's link" not in text  # a bot has none
    assert (
        "The watch link shows the public board only (no one's blind reserves) and makes no move: share it with anyone"
    ) in text
    assert (
        "This page's own link (the host's) gives everything: every seat's link and closing the table; keep it private"
    ) in text


def old_database(db: str) -> None:
    """Make `db` what a server before watch links of their own left: no watch_hash column."""
    with sqlite3.connect(db) as raw:
        raw.execute("ALTER TABLE tables DROP COLUMN watch_hash")


def test_a_table_stored_before_watch_secrets_gets_one_from_its_hosts_page(variants, db):
    with client(variants, db) as c:
        made = new_table(c, ("human", "greedy"))
    old_database(db)
    host_secret = secret_of(made["host"])
    old_watch = f"/api/tables/{made['table']}/watch/{host_secret}"  # what the host page gave then
    with client(variants, db) as c:  # the store adds the column; the table has no watch hash yet
        r = c.get(old_watch)
        assert (r.status_code, r.json()) == (403, {"error": "this link does not open that table"})
        watch = watch_link(c, made)  # the host's page derives it and stores its hash
        assert secret_of(watch) == tables.watch_secret(host_secret, made["table"])
        assert c.get(watch).status_code == 200
    with client(variants, db) as c:  # and it still opens the table after a restart
        assert c.get(f"/api/tables/{made['table']}/watch/{secret_of(watch)}").status_code == 200
        assert c.get(old_watch).status_code == 403


# -- the seed of a table with hidden cards

SEED_REFUSED = (
    "a table with people gets its seed from the server, which shows it once the game is over (a seed "
    "known before would tell the order of the face-down cards); choose a seed only for a table of bots "
    "alone"
)
FORM = {"content-type": "application/x-www-form-urlencoded"}


def test_a_maker_chooses_the_seed_only_of_a_table_of_bots_alone(variants, db):
    with client(variants, db) as c:
        for seats in (["human", "human"], ["human", "greedy"], ["greedy", "human"]):
            r = c.post("/api/tables", json={"spec": SPEC, "players": 2, "seats": seats, "seed": 7})
            assert (r.status_code, r.json()) == (422, {"error": SEED_REFUSED})
        r = c.post("/tables", content=b"spec=target-12&players=2&seat0=human&seat1=greedy&seed=7", headers=FORM)
        assert r.status_code == 422 and SEED_REFUSED in r.text
        assert c.app.state.hub.tables == {}
        r = c.post("/api/tables", json={"spec": SPEC, "players": 3, "seats": ["greedy", "random", "mcts:8"], "seed": 7})
        assert r.status_code == 201
        assert c.app.state.hub.tables[r.json()["table"]].seed == 7
        index = c.get("/").text
        assert "Seed (tables of bots alone: the same seed deals the same game again" in index


def test_an_engine_that_says_it_hides_nothing_takes_a_makers_seed(variants, db, monkeypatch):
    monkeypatch.setattr(variants[SPEC].module, "HIDDEN_INFORMATION", False, raising=False)
    with client(variants, db) as c:
        r = c.post("/api/tables", json={"spec": SPEC, "players": 2, "seats": ["human", "human"], "seed": 7})
        assert r.status_code == 201 and c.app.state.hub.tables[r.json()["table"]].seed == 7
    assert tables.hidden_information(variants[SPEC].module) is False
    monkeypatch.undo()
    assert tables.hidden_information(variants[SPEC].module) is True  # no engine says so today: all hide a deck


def test_the_servers_seed_is_shown_only_once_the_game_is_over(variants, db):
    module = variants[SPEC].module
    with client(variants, db) as c:
        made = c.post("/api/tables", json={"spec": SPEC, "players": 2, "seats": ["human", "human"]}).json()
        seed = c.app.state.hub.tables[made["table"]].seed
        apis = [api_of(s["link"]) for s in made["seats"]]
        assert str(seed) not in c.get(made["host"]).text
        for api in apis:
            assert str(seed) not in c.get(api).text
            assert c.get(api + "/game.json").status_code == 409
        play_to_the_end(c, module, apis, seed)
        host = c.get(made["host"]).text
        assert f'<p class="seed">Seed: {seed} (the same seed deals the same game again)</p>' in host
        assert c.get(apis[0] + "/game.json").json()["seed"] == seed
        assert c.get(apis[1]).json()["state"]["seed"] == seed
