"""A real browser for the web table's tests: headless Chromium (Debian's `chromium`) through
Playwright, failing (never skipping) when it is missing, a table made by the form as a person
makes one (`make_table_with_the_form`, `seat_page`), a move made by clicks as a person makes it
(`play_by_clicks`: pick, then confirm) and screenshots (`shoot`)."""

from __future__ import annotations

import contextlib
import os
import pathlib
import sqlite3

import pytest
from axe_playwright_python.sync_playwright import Axe

from tests.helpers.web import Server, free_port

try:
    from playwright.sync_api import sync_playwright
except ImportError:  # pragma: no cover - the test extra has it
    sync_playwright = None

CHROMIUM = os.environ.get("SPLENDOR_RULES_CHROMIUM", "/usr/bin/chromium")


TIMEOUT = 15_000  # ms, for any one thing to appear on a page
# axe-core's rules the pages pass (as the sheets do): WCAG 2.1 A and AA, and best practice
AXE_RULES = {"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]}}
ARTIFACTS = pathlib.Path(__file__).resolve().parent.parent / "artifacts" / "web"


def require_browser(chromium: str = CHROMIUM) -> None:
    """Fail (never skip) when the browser tests cannot run, saying what to install."""
    if sync_playwright is None:
        pytest.fail("the browser tests need Playwright's Python API: pip install -e '.[test]'")
    if not os.path.isfile(chromium):
        pytest.fail(
            f"the browser tests need headless Chromium at {chromium}: install Debian's chromium package "
            "(as root, `bash dev/system-packages.sh` does), or point SPLENDOR_RULES_CHROMIUM at one"
        )


def violations(page) -> list[str]:
    """axe-core's violations on the page as it is now, each with its impact and first targets."""
    result = Axe().run(page, options=AXE_RULES).response
    assert result["passes"], "axe checked nothing"
    return [f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']][:3]}" for v in result["violations"]]


def launch(p):
    return p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])


@contextlib.contextmanager
def chromium():
    """One headless Chromium for the tests of a module (tests/conftest.py's `browser` fixture):
    launching one takes about a second, a context in it a few milliseconds. Each test makes its own
    contexts (pages, cookies, viewport, locale) and the fixture closes them after it."""
    require_browser()
    with sync_playwright() as p:
        browser = launch(p)
        try:
            yield browser
        finally:
            browser.close()


def drawn_seed(server: Server, host_page) -> int:
    """The seed the server drew for the table of a host's page (a table with people): read from
    its database, as no page shows it before the game is over."""
    table = host_page.url.split("/host/", 1)[1].split("/")[0]
    with contextlib.closing(sqlite3.connect(server.db)) as db:
        return db.execute("SELECT seed FROM tables WHERE id = ?", (table,)).fetchone()[0]


def make_table_with_the_form(page, url: str, spec: str, seats: list[str], seed: int | None = None) -> None:
    page.goto(url + "/")
    page.select_option("select[name=spec]", spec)
    page.select_option("select[name=players]", str(len(seats)))
    for i, who in enumerate(seats):
        page.select_option(f"select[name=seat{i}]", who)
    if seed is not None:
        page.fill("input[name=seed]", str(seed))
    page.click("button[type=submit]")


@contextlib.contextmanager
def seat_page(tmp_path, spec: pathlib.Path, name: str, browser=None):
    """A table of `spec` (the server started with it) for two people, and the first seat's page in
    a browser (`browser`, the module's from the `browser` fixture, else one launched for it):
    (page, errors, the seed the server drew). Page errors are collected; the page's context (or the
    browser launched) is closed and the server stopped after."""
    server = Server(tmp_path / "tables.sqlite3", free_port(), tmp_path / "server.log", spec=spec)
    server.start()
    try:
        with contextlib.ExitStack() as stack:
            if browser is None:
                browser = stack.enter_context(chromium())
            errors: list[str] = []
            context = browser.new_context(viewport={"width": 1200, "height": 900})
            stack.callback(context.close)
            page = context.new_page()
            page.on("pageerror", lambda e: errors.append(str(e)))
            make_table_with_the_form(page, server.url, name, ["human", "human"])
            page.wait_for_selector("a.seat-link", timeout=TIMEOUT)
            seed = drawn_seed(server, page)
            page.goto(page.query_selector("a.seat-link").get_attribute("href"))
            yield page, errors, seed
    finally:
        server.kill()


def in_front(page) -> None:
    """Make `page` its window's front tab before clicking in it. Chromium draws no frames for a tab
    behind another (in a context of several pages), so Playwright's wait for a clicked element to
    be stable (two animation frames alike) falls back to a timer: about two seconds a click."""
    page.bring_to_front()


def moves_shown(page, n: int) -> None:
    page.wait_for_function("n => document.querySelectorAll('#log li').length >= n", arg=n, timeout=TIMEOUT)


def play_by_clicks(page, meta: dict, action: int, moves: int) -> str:
    """Make `action` the way a person does: a card (face up, reserved or a deck) then buy or
    reserve, gems then take, or a choice the engine asks for (a noble or a component tapped on the
    board, else its button); then the confirm button, and see it in the page's log. Returns how
    it was picked ("board" for a tile tapped on the board)."""
    in_front(page)
    page.wait_for_function(
        "n => document.body.classList.contains('my-turn') && document.querySelectorAll('#log li').length === n",
        arg=moves,
        timeout=TIMEOUT,
    )
    info = meta["actions"][action]
    how = "button"
    if info["step"]:
        tile = page.locator(f'#board .qualifies[data-action="{action}"]')
        if tile.count():
            tile.click()
            how = "board"
        else:
            page.click(f'#choice button[data-action="{action}"]')
    else:
        if info["card"]:
            page.click(f'#market .card[data-slot="{info["card"][0]}.{info["card"][1]}"]')
        elif info["reserved"]:
            page.click(f'#hand .card[data-reserved="{info["reserved"]}"]')
        elif info["deck"]:
            page.click(f'#market .deck[data-deck="{info["deck"]}"]')
        else:
            for colour in dict.fromkeys(info["colours"]):
                page.click(f'#supply .token[data-colour="{colour}"]')
        if info["card"] or info["reserved"] or info["deck"] or info["colours"]:
            page.click(f'#actions > .buttons button[data-action="{action}"]')
        else:
            page.click(f'#actions button[data-action="{action}"]')
    assert page.locator("#log li").count() == moves  # chosen, not played: the confirm button plays it
    page.click(f'#confirm[data-action="{action}"]')
    moves_shown(page, moves + 1)
    return how


def shoot(page, name: str) -> None:
    """A screenshot of the whole page in tests/artifacts/web/ (not committed)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)
