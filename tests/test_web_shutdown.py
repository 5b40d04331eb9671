"""A server that shuts down while bots are mid-move stops in order and loses nothing (issue 31).

server shutdown -> log and store: no bot move is started or played once the server is stopping,
the bot tasks end before the movers close, so nothing logs "cannot schedule new futures after
shutdown" nor stops a table for it; after a restart the bot chooses its move again (the same:
its seed is the table's, the seat's and the move's) and the table plays on.
"""

from __future__ import annotations

import asyncio
import logging
import time

import pytest

from tests.helpers import ROOT
from tests.helpers.web import TEST_HOSTS, UNHURRIED, TestClient, with_seed
from web import botwork, catalogue, server


@pytest.fixture(scope="module")
def variants():
    return catalogue.load([str(ROOT / "variants" / "target-12.yaml")])


def app_of(variants, db):
    return server.make_app(variants, db, bot_delay=0.0, bot_workers=0, quotas=UNHURRIED, hosts=TEST_HOSTS)


def test_bots_mid_move_at_shutdown_log_nothing_and_lose_nothing(variants, db, monkeypatch, caplog):
    chosen = asyncio.Event()
    played = botwork.Thinkers.choose

    async def answered_as_the_server_stops(self, module, source, game, who, seed, seconds=None):
        """A bot whose answer comes with the shutdown's cancellation: asyncio.wait_for then returns
        the answer and the cancellation is lost (Python before 3.12), so the bot's task goes on."""
        action = await played(self, module, source, game, who, seed, seconds)
        chosen.set()
        try:
            await asyncio.sleep(60)
        except asyncio.CancelledError:
            pass
        return action

    caplog.set_level(logging.INFO, logger="splendor_rules.web")
    monkeypatch.setattr(botwork.Thinkers, "choose", answered_as_the_server_stops)
    with TestClient(app_of(variants, db)) as c:
        made = []
        for seed in (1, 2, 3):
            body = with_seed(c, {"spec": "target-12", "players": 2, "seats": ["greedy", "human"]}, seed)
            r = c.post("/api/tables", json=body)
            assert r.status_code == 201, r.text
            made.append(r.json()["table"])
        hub = c.app.state.hub
        for _ in range(600):  # every bot has chosen its first move, and waits
            if hub.thinking == 3 and chosen.is_set():
                break
            time.sleep(0.05)
        assert hub.thinking == 3
    said = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert said == []  # no "cannot schedule new futures after shutdown", no table stopped for it
    monkeypatch.undo()
    with TestClient(app_of(variants, db)) as c:  # restarted: each bot chooses its move again, and plays it
        hub = c.app.state.hub
        assert all(hub.tables[t].problem is None for t in made)
        for _ in range(600):
            if all(hub.tables[t].log for t in made):
                break
            time.sleep(0.05)
        assert all(len(hub.tables[t].log) == 1 and hub.tables[t].problem is None for t in made)
