"""The web table under test: the app under Starlette's test client with the target-12 variant
(`client`, `new_table`, `api_of`, `with_seed`, `play_to_the_end`), and `splendor-rules serve` run in
its own process (`Server`, `free_port`), for tests/test_web_*.py."""

from __future__ import annotations

import pathlib
import socket
import subprocess
import sys
import time
import urllib.request
import warnings

import pytest

from tests.helpers import ROOT

with warnings.catch_warnings():  # Starlette suggests httpx2 over httpx for its test client; httpx is what is packaged
    warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient`")
    from starlette.testclient import TestClient

import urllib.parse
import warnings

from playtest.bots import make_bot
from web import server
from web.hosts import Hosts
from web.quotas import Quotas

SPEC = "target-12"


# A test plays faster than any person clicks: the per-address rates are raised out of its way
# (the tests of the limits below set their own, and one checks serve's defaults).
UNHURRIED = Quotas(tables_per_address="10000/second", requests_per_address="10000/second")


TEST_HOSTS = Hosts.bound_to("127.0.0.1", ("testserver",))  # the test client's name for the server


def client(variants, db, bot_delay=0.0, bot_workers=0, quotas=UNHURRIED):
    """The app under the test client; bots think in threads (bot_workers=0) unless asked."""
    return TestClient(
        server.make_app(variants, db, bot_delay=bot_delay, bot_workers=bot_workers, quotas=quotas, hosts=TEST_HOSTS)
    )


def api_of(link: str) -> str:
    """/play/TABLE/SEAT/SECRET -> /api/tables/TABLE/seats/SEAT/SECRET"""
    table, seat, secret = urllib.parse.urlparse(link).path.split("/")[2:]
    return f"/api/tables/{table}/seats/{seat}/{secret}"


def with_seed(c, body: dict, seed: int | None) -> dict:
    """The body of a request for a table dealt with `seed`: the maker's seed for a table of bots
    alone; for one with people, whose seed the server draws, the seed the test's server draws."""
    if seed is None or "human" not in body["seats"]:
        return {**body, "seed": seed}
    c.app.state.hub.draw_seed = lambda: seed
    return body


def new_table(c, seats=("human", "human"), seed=7, players=None):
    r = c.post(
        "/api/tables", json=with_seed(c, {"spec": SPEC, "players": players or len(seats), "seats": list(seats)}, seed)
    )
    assert r.status_code == 201, r.text
    return r.json()


def engine(variants):
    return variants[SPEC].module


def play_to_the_end(c, module, apis, seed):
    """Both humans play greedy moves through the API until the game ends; returns the moves."""
    game = module.new_game(len(apis), seed=seed)
    bot = make_bot("greedy", module, 1)
    moves = 0
    while not game.is_over():
        action = bot.choose(game)
        r = c.post(apis[game.current_player] + "/actions", json={"action": action, "after": moves})
        assert r.status_code == 200, r.text
        game.apply(action)
        moves += 1
    return game


SERVED_SPEC = ROOT / "variants" / "target-12.yaml"  # what a Server serves unless told


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """`splendor-rules serve` in its own process, as a user runs it."""

    def __init__(
        self,
        db: pathlib.Path,
        port: int,
        log: pathlib.Path,
        spec: pathlib.Path = SERVED_SPEC,
        options: tuple[str, ...] = (),
        also: tuple[pathlib.Path, ...] = (),
    ):
        """`also`: more specs served beside `spec` (one server for the tables of several specs)."""
        self.db, self.port, self.log = db, port, log
        self.spec, self.options, self.also = spec, options, also
        self.url = f"http://127.0.0.1:{port}"
        self.process = None

    def start(self) -> None:
        with open(self.log, "ab") as out:
            self.process = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "app",
                    "serve",
                    str(self.spec),
                    *(str(more) for more in self.also),
                    "--db",
                    str(self.db),
                    "--port",
                    str(self.port),
                    "--bot-delay",
                    "0",
                    *self.options,
                ],
                cwd=ROOT,
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                pytest.fail(f"the server stopped: {self.log.read_text()}")
            try:
                urllib.request.urlopen(self.url + "/", timeout=1).close()
                return
            except OSError:
                time.sleep(0.1)
        pytest.fail(f"the server did not answer within 30 s: {self.log.read_text()}")

    def kill(self) -> None:
        """Stop it the hard way (SIGKILL): nothing gets a chance to be saved on the way out."""
        self.process.kill()
        self.process.wait(10)
