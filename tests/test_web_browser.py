"""The web table end to end, in a real browser: headless Chromium (Debian's `chromium`,
installed by dev/system-packages.sh) driven by Playwright through `splendor-rules serve` run
as a separate process. Two people on two pages (one a phone) and a bot play a whole game by
clicks: an illegal click shows the engine's reason, a page is reloaded, and the server is
killed and started again on the same database mid-game. A host who makes too many tables
reads the limit in the page, a table closed by its host says so on its board; at the end of a game both seats see the same result. Screenshots
of the board are kept in tests/artifacts/web/ (not committed)."""

from __future__ import annotations

import json
import pathlib
import sqlite3

import pytest

from compiler.sheets import moves as move_words
from compiler.sheets import refusals
from playtest.bots import make_bot
from tests.helpers.browser import (
    TIMEOUT,
    drawn_seed,
    make_table_with_the_form,
    moves_shown,
    play_by_clicks,
    require_browser,
    seat_page,
    shoot,
)
from tests.helpers.web import Server, free_port
from web import catalogue, views

ROOT = pathlib.Path(__file__).resolve().parent.parent
SPEC = ROOT / "variants" / "target-12.yaml"


def test_without_chromium_the_browser_tests_fail_and_say_what_to_install(tmp_path):
    with pytest.raises(
        pytest.fail.Exception,
        match="the browser tests need headless Chromium at .*/nowhere: install Debian's chromium package",
    ):
        require_browser(str(tmp_path / "nowhere"))


@pytest.fixture
def server(tmp_path):
    s = Server(tmp_path / "tables.sqlite3", free_port(), tmp_path / "server.log")
    s.start()
    yield s
    if s.process.poll() is None:
        s.kill()


def test_a_whole_game_in_the_browser_two_people_and_a_bot(browser, server, tmp_path):
    require_browser()
    variant = catalogue.load([str(SPEC)])["target-12"]
    module = variant.module
    meta = views.meta(module)
    errors = []
    desk = browser.new_context(viewport={"width": 1400, "height": 1000})
    phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)

    # The host makes the table with the form: two people and a greedy bot.
    host = desk.new_page()
    host.goto(server.url + "/")
    host.select_option("select[name=spec]", "target-12")
    host.select_option("select[name=players]", "3")
    host.select_option("select[name=seat0]", "human")
    host.select_option("select[name=seat1]", "human")
    host.select_option("select[name=seat2]", "greedy")
    host.click("button[type=submit]")
    host.wait_for_url("**/host/**", timeout=TIMEOUT)
    host.wait_for_selector("a.seat-link", timeout=TIMEOUT)
    seed = drawn_seed(server, host)
    links = [a.get_attribute("href") for a in host.query_selector_all("a.seat-link")]
    assert len(links) == 2 and links[0] != links[1]

    pages = [desk.new_page(), phone.new_page()]
    for page, link in zip(pages, links, strict=True):
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(link)
    for page in pages:
        page.wait_for_selector("#market .card", timeout=TIMEOUT)
    assert pages[0].locator("#players .player.me h3").inner_text().startswith("you")

    # An illegal click: a card player 1 cannot pay for; the engine's reason is shown, nothing moves.
    game = module.new_game(3, seed=seed)
    refused = next(
        a
        for a in range(module.NUM_ACTIONS)
        if meta["actions"][a]["card"] and module.action_to_string(a).startswith("buy") and a not in game.legal_actions()
    )
    try:
        game.clone().apply(refused)
    except module.IllegalAction as e:
        reason = refusals.told(e, "en")[0]  # in the player's words, as the server tells it
    slot = meta["actions"][refused]["card"]
    pages[0].click(f'#market .card[data-slot="{slot[0]}.{slot[1]}"]')
    pages[0].click(f'#actions > .buttons button[data-action="{refused}"]')
    pages[0].click("#confirm")
    pages[0].wait_for_function("t => document.getElementById('message').textContent === t", arg=reason, timeout=TIMEOUT)
    shoot(pages[0], "1-illegal-click")
    assert pages[0].locator("#log li").count() == 0

    people = make_bot("greedy", module, 1)  # what the two people choose; they click it
    moves = 0
    reloaded = restarted = False
    while not game.is_over():
        seat = game.current_player
        if seat == 2:  # the bot: its move arrives on both pages by itself
            for page in pages:
                moves_shown(page, moves + 1)
            entry = pages[0].locator("#log li").nth(moves)
            text = entry.inner_text()
            assert text.startswith("player 3 (greedy): ")
            move = text.split(": ", 1)[1]  # "Buy a face-up card: level 1, card 2 (Level 1 · blue · 0 points)"
            action = int(entry.get_attribute("data-action"))
            assert move.startswith(move_words.of_engine(module, action, variant.rules, "en"))  # as `play` says it
            card = meta["actions"][action]["card"]
            if card is not None:  # the log names the card by what it is, not by its slot refilled since
                bought = meta["cards"][game.market[meta["levels"].index(card[0])][card[1] - 1]]
                assert move.endswith(
                    f"(Level {bought['level']} · {bought['bonus']} · {bought['points']} point"
                    f"{'' if bought['points'] == 1 else 's'})"
                )
        else:
            action = people.choose(game)
            play_by_clicks(pages[seat], meta, action, moves)
        game.apply(action)
        moves += 1
        if moves >= 12 and not reloaded:  # a reload: the same board comes back
            pages[1].reload()
            moves_shown(pages[1], moves)
            reloaded = True
        if moves >= 30 and not restarted and game.current_player != 2:
            server.kill()  # mid-game, then the same command on the same file
            shoot(pages[0], "2-server-down")
            server.start()
            for page in pages:
                page.wait_for_function(
                    "() => !document.getElementById('status').classList.contains('offline')"
                    " && document.getElementById('status').textContent !== 'connecting…'",
                    timeout=TIMEOUT,
                )
                assert page.locator("#log li").count() == moves
            shoot(pages[1], "3-after-restart-phone")
            restarted = True
    assert reloaded and restarted

    for page in pages:
        page.wait_for_function(
            "() => document.getElementById('status').textContent.startsWith('Game over')", timeout=TIMEOUT
        )
        assert page.locator("#log li").count() == moves
    shoot(pages[0], "4-game-over-desk")
    shoot(pages[1], "5-game-over-phone")
    winners = game.winners()
    status = pages[0].locator("#status").inner_text()
    assert status.startswith("Game over: ") and ("you" if 0 in winners else f"player {winners[0] + 1}") in status

    with pages[1].expect_download() as download:
        pages[1].click("#download-link")
    saved = json.loads(pathlib.Path(download.value.path()).read_text())
    assert saved.pop("table") == {"seats": ["human", "human", "greedy"]}
    assert saved == json.loads(game.to_json())

    # A phone shows the board in one column, no wider than the screen.
    width = pages[1].evaluate("document.documentElement.scrollWidth")
    assert width <= 390
    assert errors == []


def test_a_host_who_makes_too_many_tables_reads_the_limit_in_the_page(browser, tmp_path):
    require_browser()
    server = Server(
        tmp_path / "tables.sqlite3", free_port(), tmp_path / "server.log", options=("--tables-per-address", "2/hour")
    )
    server.start()
    try:
        page = browser.new_context(viewport={"width": 1000, "height": 700}).new_page()
        for _ in range(2):
            make_table_with_the_form(page, server.url, "target-12", ["human", "greedy"])
            page.wait_for_url("**/host/**", timeout=TIMEOUT)
        # The host closes the second table while its player looks at the board: the board says so.
        seat = page.context.new_page()
        seat.goto(page.locator("a.seat-link").get_attribute("href"))
        seat.wait_for_selector("#market .card", timeout=TIMEOUT)
        page.click("#close-table")  # asked again: nothing is closed until the host confirms
        page.wait_for_selector("#close-confirm", timeout=TIMEOUT)
        assert seat.locator("#status").inner_text() != "the host closed this table"
        page.click("#close-confirm")
        page.wait_for_selector("#closed", timeout=TIMEOUT)
        seat.wait_for_function(
            "() => document.getElementById('status').textContent === 'the host closed this table'", timeout=TIMEOUT
        )
        shoot(seat, "6-table-closed-by-its-host")
        assert seat.evaluate("document.body.className") == "table-gone"  # no longer "your turn"
        assert seat.locator("#actions button").count() == 0
        assert seat.locator("#message").inner_text() == "the host closed this table"
        make_table_with_the_form(page, server.url, "target-12", ["human", "greedy"])
        page.wait_for_selector("#problem", timeout=TIMEOUT)
        shoot(page, "7-too-many-tables")
        assert page.locator("h1").inner_text() == "Too Many Requests (429)"
        assert page.locator("#problem").inner_text() == (
            "you have made too many tables (at most 2 per hour from one address); wait before making another"
        )
        assert page.locator("#retry").inner_text() == "Try again in about 60 minutes."
        assert "/host/" not in page.url
    finally:
        server.kill()
    with sqlite3.connect(tmp_path / "tables.sqlite3") as db:
        assert db.execute("SELECT COUNT(*) FROM tables").fetchone() == (1,)  # one closed, the third not made


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


def plural(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def test_both_seats_see_the_result_at_the_end_of_a_game(browser, tmp_path):
    require_browser()
    spec = tmp_path / "short.yaml"
    spec.write_text(SHORT)
    module = catalogue.load([str(spec)])["short"].module
    meta = views.meta(module)
    server = Server(tmp_path / "tables.sqlite3", free_port(), tmp_path / "server.log", spec=spec)
    server.start()
    try:
        errors = []
        context = browser.new_context(viewport={"width": 1200, "height": 900})
        host = context.new_page()
        make_table_with_the_form(host, server.url, "short", ["human", "human"])
        host.wait_for_selector("a.seat-link", timeout=TIMEOUT)
        seed = drawn_seed(server, host)
        assert host.locator(".seed").count() == 0 and str(seed) not in host.content()
        gives = host.locator(".what-links-give li").all_inner_texts()
        assert gives[-2:] == [
            "The watch link shows the public board only (no one's blind reserves) and makes no "
            "move: share it with anyone.",
            "This page's own link (the host's) gives everything: every seat's link and closing "
            "the table; keep it private.",
        ]
        links = [a.get_attribute("href") for a in host.query_selector_all("a.seat-link")]
        pages = [
            context.new_page(),
            browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True).new_page(),
        ]
        for page, link in zip(pages, links, strict=True):
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(link)
            page.wait_for_selector("#market .card", timeout=TIMEOUT)
        assert all(page.locator("#result").is_hidden() for page in pages)
        game = module.new_game(2, seed=seed)
        people = make_bot("greedy", module, 1)
        moves = 0
        while not game.is_over():
            action = people.choose(game)
            play_by_clicks(pages[game.current_player], meta, action, moves)
            game.apply(action)
            moves += 1
        winner = game.winners()[0]
        scores = game.scores()
        for page in pages:
            page.wait_for_selector("#result .standings li", timeout=TIMEOUT)
        shoot(pages[winner], "8-result-winner")
        shoot(pages[1 - winner], "9-result-other-seat")
        assert pages[winner].locator("#result .outcome").inner_text() == "You win!"
        assert pages[1 - winner].locator("#result .outcome").inner_text() == f"Player {winner + 1} wins"
        for p_, page in enumerate(pages):
            rounds = json.loads(game.to_json())["round"]
            assert page.locator("#result .ended-by").inner_text() == (
                f"Ended by: A player reaches the target (after {rounds} rounds, {moves} moves)"
            )
            standings = page.locator("#result .standings li").all_inner_texts()
            order = sorted(range(2), key=lambda s: (s != winner, -scores[s], s))
            assert standings == [
                f"{'You' if s == p_ else f'Player {s + 1}'}: {scores[s]} prestige, "
                f"{plural(len(game.purchased[s]), 'card')}, {plural(len(game.nobles[s]), 'noble')}"
                + (" · winner" if s == winner else "")
                for s in order
            ]
        host.reload()
        assert host.locator("#result h2").inner_text() == f"Result: player {winner + 1} wins"
        # The seed the server drew, shown once the game is over (and only then).
        assert host.locator("#result .seed").inner_text() == f"Seed: {seed} (the same seed deals the same game again)"
        assert errors == []
    finally:
        server.kill()


CITIES = ROOT / "variants" / "cities.yaml"


def test_a_cities_board_shows_the_cities_on_display_and_the_pile(browser, tmp_path):
    """A variant's own zones on the board: the three cities on display with their prestige and
    requirement from the engine's table, the pile as a count, each seat's claimed cities (none
    yet). The server is started with its spec (the board of a spec given on the command line)."""
    require_browser()
    module = catalogue.load([str(CITIES)])["cities"].module
    with seat_page(tmp_path, CITIES, "cities", browser=browser) as (page, errors, seed):
        shown = module.new_game(2, seed=seed).observation(0)["zones"]["city_display"]
        page.wait_for_selector('#zones [data-zone="city_display"] .component', timeout=TIMEOUT)
        display = page.locator('#zones [data-zone="city_display"]')
        assert display.locator("h2").inner_text() == "Cities on display"
        tiles = display.locator(".component")
        assert tiles.count() == 3
        assert [int(tiles.nth(i).get_attribute("data-component")) for i in range(3)] == shown
        kind = module.KINDS["cities"]
        columns = [c.name for c in kind.columns]
        for i, city in enumerate(shown):
            row = dict(zip(columns, kind.rows[city], strict=True))
            prestige = tiles.nth(i).locator('[data-column="prestige"]').inner_text()
            assert prestige.split() == ["prestige", "needed", str(row["prestige"])]  # the column's title in the spec
            wanted = [str(n) for n in row["requires"] if n]
            chips = tiles.nth(i).locator('[data-column="requires"] .chip .n').all_inner_texts()
            assert chips == wanted
        pile = page.locator('#zones [data-zone="city_pile"]')
        assert pile.locator("h2").inner_text() == "City tiles"
        assert pile.locator(".pile").inner_text() == "4 left"
        claimed = page.locator('#players .player[data-seat="1"] [data-zone="claimed"]')
        assert claimed.inner_text().split("\n")[-1].strip() == "none"
        shoot(page, "cities-board")
        assert errors == []


TRADING_POSTS = ROOT / "variants" / "trading-posts.yaml"


def test_a_trading_posts_board_shows_each_players_posts(browser, tmp_path):
    """A variable holding a set of components (each player's trading posts) on the board, under
    each seat, titled from the spec; none opened at the start. The server is started with the spec."""
    require_browser()
    with seat_page(tmp_path, TRADING_POSTS, "trading-posts", browser=browser) as (page, errors, _):
        page.wait_for_selector('#players .player[data-seat="0"] [data-var="markers"]', timeout=TIMEOUT)
        for seat in ("0", "1"):
            line = page.locator(f'#players .player[data-seat="{seat}"] [data-var="markers"]')
            assert line.locator(".label").inner_text() == "Trading posts held"
            assert line.locator(".none").inner_text() == "none"
        assert errors == []


def test_a_page_past_the_tables_cap_on_streams_says_so_and_connects_when_one_closes(browser, tmp_path):
    require_browser()
    server = Server(
        tmp_path / "tables.sqlite3", free_port(), tmp_path / "server.log", options=("--streams-per-table", "2")
    )
    server.start()
    try:
        context = browser.new_context(viewport={"width": 1000, "height": 800})
        host = context.new_page()
        make_table_with_the_form(host, server.url, "target-12", ["human", "human"])
        host.wait_for_selector("a.seat-link", timeout=TIMEOUT)
        links = [a.get_attribute("href") for a in host.query_selector_all("a.seat-link")]
        watch = host.locator("a.watch-link").get_attribute("href")
        seats = [context.new_page() for _ in links]
        for page, link in zip(seats, links, strict=True):
            page.goto(link)
            page.wait_for_selector("#market .card", timeout=TIMEOUT)
        spectator = context.new_page()
        spectator.goto(watch)
        full = "this table has 2 live connections, as many as it takes; try again in a while"
        spectator.wait_for_function(
            "t => document.getElementById('status').textContent === t", arg=full, timeout=TIMEOUT
        )
        shoot(spectator, "10-too-many-streams")
        seats[1].close()  # a seat leaves: the spectator's page gets its place
        spectator.wait_for_selector("#market .card", timeout=TIMEOUT)
        spectator.wait_for_function(
            "t => document.getElementById('status').textContent !== t", arg=full, timeout=TIMEOUT
        )
    finally:
        server.kill()
