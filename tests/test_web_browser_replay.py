"""The replay page and the reconnect in a real browser (issue 31, items 7 and 8): Chromium
through Playwright steps through a finished game (buttons, keys, a move typed in, the seat it is
seen by), and a page whose move could not reach the server clears that error once its stream is
back."""

from __future__ import annotations

import json
import re
import time
import urllib.parse
import urllib.request

from tests.helpers.browser import TIMEOUT, launch, require_browser, sync_playwright, violations
from tests.helpers.web import Server, free_port

SEED = 5


def post(url: str, body: dict) -> dict:
    request = urllib.request.Request(url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.loads(answer.read())


def finished_table(server: Server) -> tuple[str, int]:
    """A table of two greedy bots played to its end by the server: its spectators' link and its moves."""
    made = post(
        server.url + "/api/tables", {"spec": "target-12", "players": 2, "seats": ["greedy", "greedy"], "seed": SEED}
    )
    watch = urllib.parse.urlparse(made["watch"]).path
    api = server.url + "/api/tables/{}/watch/{}".format(*watch.split("/")[2:])
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:  # the server's --bot-delay is 0
        with urllib.request.urlopen(api, timeout=30) as answer:
            view = json.loads(answer.read())
        if view["over"]:
            return server.url + watch, view["moves"]
        time.sleep(0.2)
    raise AssertionError("the bots did not finish their game")


def test_the_replay_page_steps_through_a_finished_game(tmp_path):
    require_browser()
    server = Server(tmp_path / "tables.sqlite3", free_port(), tmp_path / "server.log")
    server.start()
    try:
        watch, moves = finished_table(server)
        with sync_playwright() as p:
            browser = launch(p)
            errors: list[str] = []
            page = browser.new_page()
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(watch)
            page.wait_for_selector("#replay-link", state="visible", timeout=TIMEOUT)
            page.click("#replay-link")
            text = page.locator("#replay-move-text")
            page.wait_for_function(
                "() => document.getElementById('replay-move-text').textContent.startsWith('The deal')", timeout=TIMEOUT
            )
            assert page.locator("#log li").count() == 0 and page.locator("#actions").is_hidden()
            page.click("#replay-forward")
            page.wait_for_function("() => document.querySelectorAll('#log li').length === 1", timeout=TIMEOUT)
            assert text.inner_text().startswith(f"Move 1 of {moves}: player 1: ")
            page.keyboard.press("End")
            page.wait_for_function("n => document.querySelectorAll('#log li').length === n", arg=moves, timeout=TIMEOUT)
            page.wait_for_selector("#result:not([hidden])", timeout=TIMEOUT)
            assert violations(page) == []  # axe-core: nothing on the replay page (its controls, the result)
            page.keyboard.press("ArrowLeft")
            page.wait_for_function(
                "n => document.querySelectorAll('#log li').length === n", arg=moves - 1, timeout=TIMEOUT
            )
            page.fill("#replay-move", "7")
            page.dispatch_event("#replay-move", "change")
            page.wait_for_function("() => document.querySelectorAll('#log li').length === 7", timeout=TIMEOUT)
            assert "move=7" in page.url and page.locator("#replay-back").is_enabled()
            # a move that took a card names it by what it is (its slot was refilled since), as the live log does
            api = server.url + "/api/tables/{}/watch/{}/replay?move={}".format(
                *urllib.parse.urlparse(watch).path.split("/")[2:], moves
            )
            with urllib.request.urlopen(api, timeout=30) as answer:
                took = next(i for i, m in enumerate(json.loads(answer.read())["log"]) if m["card"] is not None) + 1
            page.fill("#replay-move", str(took))
            page.dispatch_event("#replay-move", "change")
            page.wait_for_function("n => document.querySelectorAll('#log li').length === n", arg=took, timeout=TIMEOUT)
            assert re.search(r"\(Level \d · \w+ · \d+ points?\)$", text.inner_text()), text.inner_text()
            page.fill("#replay-move", "7")
            page.dispatch_event("#replay-move", "change")
            page.wait_for_function("() => document.querySelectorAll('#log li').length === 7", timeout=TIMEOUT)
            page.click('.replay-as[data-as="1"]')  # as player 2 saw it, at the same move
            page.wait_for_function("() => document.querySelectorAll('#log li').length === 7", timeout=TIMEOUT)
            assert "as=1" in page.url and page.locator("#players .player.me").count() == 1
            assert errors == []
            browser.close()
    finally:
        server.kill()


def test_the_unreachable_error_is_cleared_once_the_stream_is_back(tmp_path):
    require_browser()
    server = Server(tmp_path / "tables.sqlite3", free_port(), tmp_path / "server.log")
    server.start()
    try:
        made = post(server.url + "/api/tables", {"spec": "target-12", "players": 2, "seats": ["human", "human"]})
        with sync_playwright() as p:
            browser = launch(p)
            page = browser.new_page()
            page.goto(made["seats"][0]["link"])
            page.wait_for_selector("#market .card", timeout=TIMEOUT)
            # the move never reaches the server (the page asks for its refusals in its language: ?lang=)
            page.route(re.compile(r"/actions(\?.*)?$"), lambda route: route.abort())
            page.click("details.all-actions summary")
            page.click("details.all-actions button.act")  # chooses a move; the confirm button plays it
            page.click("#confirm")
            message = "the server cannot be reached; your move was not played"
            page.wait_for_function(
                "t => document.getElementById('message').textContent === t", arg=message, timeout=TIMEOUT
            )
            server.kill()  # then the same command on the same file: the stream comes back by itself
            server.start()
            page.wait_for_function("() => document.getElementById('message').textContent === ''", timeout=TIMEOUT)
            assert not page.locator("#status").evaluate("e => e.classList.contains('offline')")
            browser.close()
    finally:
        server.kill()
