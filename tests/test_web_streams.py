"""The web table's live updates under load (issue 26, 5): event streams capped per client
address and per table (429 and a sentence past either, the slot given back when a stream
ends), and each seat's view rendered once per move, off the event loop, and shared by every
stream of that seat (and by the spectators' streams, one view for all of them)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time

from tests.helpers.web import TestClient, api_of, client, new_table
from web import streams as streams_mod
from web import views
from web.quotas import Quotas


def limits(per_address: int, per_table: int) -> Quotas:
    return Quotas(
        tables_per_address="10000/second",
        requests_per_address="10000/second",
        streams_per_address=per_address,
        streams_per_table=per_table,
    )


def events(c, api: str, stack: contextlib.ExitStack):
    """A stream of `api` opened with client `c` (kept open until `stack` closes); its lines."""
    r = stack.enter_context(c.stream("GET", api + "/events"))
    assert r.status_code == 200, r.read()
    return r.iter_lines()


def next_view(lines) -> dict:
    for line in lines:
        if line.startswith("data: "):
            return json.loads(line.removeprefix("data: "))
    raise AssertionError("the stream ended")


def open_streams(app, table_id: str) -> int:
    return app.state.streams.per_table.get(table_id, 0)


def wait_for(check, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "not within the time"
        time.sleep(0.02)


def test_streams_past_an_addresss_cap_get_429_and_a_closed_one_makes_room(variants, db):
    with client(variants, db, quotas=limits(3, 100)) as c:
        made = new_table(c)
        api0, api1 = (api_of(s["link"]) for s in made["seats"])
        other = TestClient(c.app, client=("10.0.0.2", 5000))
        with contextlib.ExitStack() as stack:
            for api in (api0, api0, api1):
                events(c, api, stack)
            r = c.get(api0 + "/events")
            assert (r.status_code, r.json()) == (
                429,
                {
                    "error": "your address has 3 live connections to this "
                    "server, as many as it takes; close a tab of it "
                    "or wait"
                },
            )
            assert r.headers["retry-after"] == "10"
            assert c.get(api0).status_code == 200  # a view is not a stream
            events(other, api0, stack)  # another address has its own
            last = stack.enter_context(contextlib.ExitStack())
            events(other, api1, last)
            last.close()  # a stream that ends gives its place back
            wait_for(lambda: open_streams(c.app, made["table"]) == 4)
        wait_for(lambda: open_streams(c.app, made["table"]) == 0)
        with contextlib.ExitStack() as stack:
            for api in (api0, api0, api1):
                events(c, api, stack)


def test_streams_past_a_tables_cap_get_429(variants, db):
    with client(variants, db, quotas=limits(100, 3)) as c:
        made = new_table(c)
        other = new_table(c)
        api0 = api_of(made["seats"][0]["link"])
        far = TestClient(c.app, client=("10.0.0.3", 5000))
        with contextlib.ExitStack() as stack:
            for who in (c, far, far):
                events(who, api0, stack)
            for who in (c, far):
                r = who.get(api0 + "/events")
                assert (r.status_code, r.json()) == (
                    429,
                    {"error": "this table has 3 live connections, as many as it takes; try again in a while"},
                )
            events(c, api_of(other["seats"][0]["link"]), stack)  # another table has its own


def test_each_seats_view_is_rendered_once_per_move_off_the_event_loop(variants, db, monkeypatch):
    rendered: list = []
    original = views.seat_view

    def counted(table, seat):
        try:
            asyncio.get_running_loop()
            on_loop = True
        except RuntimeError:
            on_loop = False
        rendered.append((seat, len(table.log), on_loop))
        return original(table, seat)

    monkeypatch.setattr(views, "seat_view", counted)
    batches: list = []
    real_batch = streams_mod.render_all

    def batch(frame, seats):
        batches.append(list(seats))
        return real_batch(frame, seats)

    monkeypatch.setattr(streams_mod, "render_all", batch)
    with client(variants, db, quotas=limits(100, 100)) as c:
        made = new_table(c, ("human", "greedy", "human"), seed=4)
        hub = c.app.state.hub
        hub.bot_delay = 3600  # the bot's move waits: one move at a time here
        watch = "/api/tables/{}/watch/{}".format(*made["watch"].split("/")[-2:])
        api0, api2 = (api_of(made["seats"][i]["link"]) for i in (0, 2))
        with contextlib.ExitStack() as stack:
            streams = [(0, events(c, api0, stack)) for _ in range(6)] + [(2, events(c, api2, stack)) for _ in range(4)]
            streams += [(None, events(c, watch, stack)) for _ in range(5)]
            for seat, lines in streams:
                assert next_view(lines)["you"] == seat
            legal = c.get(api0).json()["legal"]
            rendered.clear()
            answer = c.post(api0 + "/actions", json={"action": legal[0], "after": 0})
            assert answer.status_code == 200 and (answer.json()["you"], answer.json()["moves"]) == (0, 1)
            for seat, lines in streams:
                view = next_view(lines)
                assert (view["you"], view["moves"]) == (seat, 1)
        streamed = sorted((r for r in rendered if not r[2]), key=str)
        assert streamed == sorted([(0, 1, False), (2, 1, False), (None, 1, False)], key=str)
        assert [r for r in rendered if r[2]] == []  # the move's own answer is its streams' view: no render on the loop
    # every open seat's view of the move rendered in one batch, started before the move was stored
    assert [sorted(seats, key=str) for seats in batches] == [[0, 2, None]]


def test_after_its_first_event_a_stream_sends_only_the_logs_new_entries(variants, db):
    with client(variants, db, quotas=limits(100, 100)) as c:
        made = new_table(c)
        apis = [api_of(s["link"]) for s in made["seats"]]
        with contextlib.ExitStack() as stack:
            lines = events(c, apis[1], stack)
            first = next_view(lines)
            assert (first["log_from"], first["log"]) == (0, [])
            log: list = []
            for move in range(3):
                legal = c.get(apis[move % 2]).json()["legal"]
                assert c.post(apis[move % 2] + "/actions", json={"action": legal[0], "after": move}).status_code == 200
                event = next_view(lines)
                assert event["log_from"] == move and len(event["log"]) == 1  # the entries it had not sent
                log = log[: event.pop("log_from")] + event["log"]
                assert {**event, "log": log} == c.get(apis[1]).json()  # the page's view, once the log is joined
            late = events(c, apis[0], stack)  # a stream opened later starts with the whole log
            assert next_view(late)["log"] == log and len(log) == 3


def test_a_log_whose_sent_entries_changed_is_sent_whole(variants, db, monkeypatch):
    with client(variants, db, quotas=limits(100, 100)) as c:
        made = new_table(c)
        apis = [api_of(s["link"]) for s in made["seats"]]
        with contextlib.ExitStack() as stack:
            lines = events(c, apis[1], stack)
            next_view(lines)
            legal = c.get(apis[0]).json()["legal"]
            assert c.post(apis[0] + "/actions", json={"action": legal[0], "after": 0}).status_code == 200
            assert next_view(lines)["log_from"] == 0
            original = views.seat_view

            def rewritten(table, seat):  # an entry already sent is now written otherwise (as an undo would do)
                view = original(table, seat)
                view["log"][0] = {**view["log"][0], "text": "taken back"}
                return view

            monkeypatch.setattr(views, "seat_view", rewritten)
            legal = c.get(apis[1]).json()["legal"]
            assert c.post(apis[1] + "/actions", json={"action": legal[0], "after": 1}).status_code == 200
            event = next_view(lines)
            assert event.pop("log_from") == 0 and event["log"][0]["text"] == "taken back"
            assert event == c.get(apis[1]).json()


def test_a_move_taken_back_sends_the_whole_log(variants, db):
    with client(variants, db, quotas=limits(100, 100)) as c:
        made = new_table(c)
        apis = [api_of(s["link"]) for s in made["seats"]]
        assert c.post(made["host"] + "/undo", data={"undo": "on"}, follow_redirects=False).status_code == 303
        with contextlib.ExitStack() as stack:
            lines = events(c, apis[1], stack)
            next_view(lines)
            for move in range(2):
                legal = c.get(apis[move % 2]).json()["legal"]
                assert c.post(apis[move % 2] + "/actions", json={"action": legal[0], "after": move}).status_code == 200
                assert next_view(lines)["log_from"] == move
            assert c.post(apis[1] + "/undo").status_code == 200
            event = next_view(lines)
            assert event.pop("log_from") == 0 and len(event["log"]) == 1  # the log as it is now, whole
            assert event == c.get(apis[1]).json()
            legal = c.get(apis[1]).json()["legal"]
            assert c.post(apis[1] + "/actions", json={"action": legal[0], "after": 1}).status_code == 200
            assert next_view(lines)["log_from"] == 1  # then only what is new again
