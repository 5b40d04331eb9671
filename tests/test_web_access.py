"""Who reaches what on the web table (issue 26): a long number in a link is no page, not an
error; the client's address is the connection's unless `serve --proxy` names the proxy; the
Host header names this server (no DNS rebinding); a spectator's link is not the host's key;
the seed of a table with hidden cards is the server's and shown only once the game is over."""
from __future__ import annotations

import logging
import urllib.request

import pytest

from test_web_api import ROOT, SPEC, TestClient, api_of, client, new_table  # noqa: F401 (ROOT for the servers)
from test_web_browser import Server, free_port
from web import catalogue


@pytest.fixture(scope="module")
def variants():
    return catalogue.load([str(ROOT / "variants" / "target-12.yaml")])


@pytest.fixture
def db(tmp_path):
    return str(tmp_path / "tables.sqlite3")


# -- links


def test_a_seat_number_of_thousands_of_digits_is_no_page_and_logs_nothing(variants, db, caplog):
    huge = "9" * 4301
    with client(variants, db) as c:
        made = new_table(c)
        table = made["table"]
        quiet = TestClient(c.app, raise_server_exceptions=False)
        with caplog.at_level(logging.INFO):
            for path in (f"/api/tables/{table}/seats/{huge}/x", f"/api/tables/{table}/seats/{huge}/x/events",
                         f"/api/tables/{table}/seats/{huge}/x/actions"):
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


@pytest.mark.parametrize("options, statuses", [
    ((), [200, 429, 429, 429]),  # every request from 127.0.0.1 counts as 127.0.0.1's, whatever it says
    (("--proxy", "127.0.0.1"), [200, 200, 200, 200]),  # the proxy named: each forwarded address its own
])
def test_x_forwarded_for_is_trusted_only_from_the_proxy_serve_names(tmp_path, options, statuses):
    server = Server(tmp_path / "tables.sqlite3", free_port(), tmp_path / "server.log",
                    options=("--requests-per-address", "2/minute", *options))
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
            assert (r.status_code, r.json()) == (400, {"error": "this server does not answer to that name (the "
                                                                "address in the Host header); its host may allow it "
                                                                "with serve --allowed-host"}), host
            r = c.post(api0 + "/actions", json={"action": 0}, headers={"host": host, "origin": f"http://{host}"})
            assert r.status_code == 400
            page = c.get("/", headers={"host": host})
            assert page.status_code == 400 and "this server does not answer to that name" in page.text
        assert c.get(api0).json()["moves"] == 0
        assert c.get(api0, headers={"host": "testserver"}).status_code == 200


@pytest.mark.parametrize("bind, extra, allowed, refused", [
    ("127.0.0.1", (), ["localhost", "LOCALHOST:8000", "127.0.0.1", "127.0.0.1:8000", "[::1]:8000"],
     ["evil.example", "192.168.1.2", "", "[::1"]),
    ("::1", ("games.example",), ["[::1]:8000", "localhost", "games.example", "Games.Example:443"],
     ["evil.example", "10.0.0.1"]),
    ("192.168.1.5", (), ["192.168.1.5:8000"], ["localhost", "192.168.1.6", "evil.example"]),
    ("0.0.0.0", ("games.example",), ["192.168.1.5:8000", "10.1.2.3", "[fe80::1]:80", "localhost", "games.example"],
     ["evil.example", "games.example.evil.example"]),
])
def test_the_host_names_a_server_answers_to_follow_the_address_it_listens_on(bind, extra, allowed, refused):
    from web.hosts import Hosts
    hosts = Hosts.bound_to(bind, extra)
    assert [h for h in allowed if not hosts.allows(h)] == []
    assert [h for h in refused if hosts.allows(h)] == []


def test_serve_allows_the_names_it_is_given_and_refuses_others(tmp_path):
    server = Server(tmp_path / "tables.sqlite3", free_port(), tmp_path / "server.log",
                    options=("--allowed-host", "games.example"))
    server.start()
    try:
        assert get(server.url + "/", {"Host": "games.example"}) == 200
        assert get(server.url + "/", {"Host": f"localhost:{server.port}"}) == 200
        assert get(server.url + "/", {"Host": "rebound.example"}) == 400
    finally:
        server.kill()
