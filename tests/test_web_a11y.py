"""The web table read without colour, by keyboard and by ear, in four languages, and a module's
pieces drawn from its spec (issue 31 items 2, 4 and 5), in a real browser: headless Chromium
(Debian's `chromium`) through Playwright against `splendor-rules serve`.

axe-core (as packaged by axe-playwright-python, the rules the sheets pass: WCAG 2.1 A/AA and best
practice) finds nothing on any page (index, host, seat, watch, sheet), desktop and phone: the
result is pinned as no violation at all, whatever its impact. A card, a noble and a token are
named with their cost, requirement or count; focus stays on what was pressed when the board is
drawn again; one's own reserved cards are not buttons. The seat page in en, fr, nl and sr has
every word of its language. The Cities and the Trading Posts boards draw their pieces with the
spec's titles and the sheet's own phrases, hide the noble row of a module without nobles, and
keep a turn's bookkeeping off the board."""

from __future__ import annotations

import json
import pathlib
import urllib.parse
import urllib.request

import pytest

from compiler.sheets.plurals import LANGUAGES
from playtest.bots import make_bot
from tests.helpers.browser import (
    TIMEOUT,
    drawn_seed,
    make_table_with_the_form,
    play_by_clicks,
    require_browser,
    seat_page,
    violations,
)
from tests.helpers.web import Server, free_port
from web import catalogue, gems, i18n, views

ROOT = pathlib.Path(__file__).resolve().parent.parent
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
CITIES = ROOT / "variants" / "cities.yaml"
TRADING_POSTS = ROOT / "variants" / "trading-posts.yaml"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """One server of the target-12 variant for the module's tests (starting one takes a second or
    two): each test makes a table of its own."""
    require_browser()
    folder = tmp_path_factory.mktemp("a11y-server")
    s = Server(folder / "tables.sqlite3", free_port(), folder / "server.log")
    s.start()
    yield s
    s.kill()


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_axe_finds_nothing_on_any_page(browser, server, viewport):
    found = {}
    page = browser.new_context(viewport=viewport).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.url + "/")
    found["index"] = violations(page)
    make_table_with_the_form(page, server.url, "target-12", ["human", "human"])
    page.wait_for_selector("a.seat-link", timeout=TIMEOUT)
    found["host"] = violations(page)
    seat = page.locator("a.seat-link").first.get_attribute("href")
    watch = page.locator("a.watch-link").get_attribute("href")
    page.goto(seat)
    page.wait_for_selector("body.my-turn #market .card", timeout=TIMEOUT)
    found["seat"] = violations(page)
    page.click('#market .card[data-slot="1.1"]')  # a card chosen: its actions shown
    page.wait_for_selector("#actions h2", timeout=TIMEOUT)
    found["seat, a card chosen"] = violations(page)
    page.goto(watch)
    page.wait_for_selector("#market .card", timeout=TIMEOUT)
    found["watch"] = violations(page)
    page.goto(server.url + "/rules/target-12/en")
    found["sheet"] = violations(page)
    assert found == {name: [] for name in found}
    assert errors == []


def test_a_screen_reader_hears_costs_and_the_focus_stays_where_it_was(browser, server):
    module = catalogue.load([str(server.spec)])["target-12"].module
    meta = views.meta(module)
    words = gems.words(tuple(module.COLOURS), "en")
    page = browser.new_context(viewport=DESKTOP).new_page()
    make_table_with_the_form(page, server.url, "target-12", ["human", "human"])
    page.wait_for_selector("a.seat-link", timeout=TIMEOUT)
    page.goto(page.locator("a.seat-link").first.get_attribute("href"))
    page.wait_for_selector("body.my-turn #market .card", timeout=TIMEOUT)
    assert page.locator("h1").count() == 1 and page.locator("header, main, nav").count() >= 3

    card = page.locator('#market .card[data-slot="1.1"]')
    c = meta["cards"][int(card.get_attribute("data-card"))]
    cost = ", ".join(f"{n} {words[g]['name']}" for g, n in zip(meta["gems"], c["cost"], strict=True) if n)
    assert card.get_attribute("aria-label") == (
        f"Level 1 card, {words[c['bonus']]['name']} bonus, {c['points']} "
        f"point{'' if c['points'] == 1 else 's'}, costs {cost}, slot 1.1"
        ", you can reserve it"
    )  # the first move: no tokens yet
    # every cost disc carries its colour's symbol, not only its colour
    symbols = card.locator(".cost .chip .sym").all_inner_texts()
    assert symbols == [words[g]["symbol"] for g, n in zip(meta["gems"], c["cost"], strict=True) if n]
    noble = page.locator("#nobles .noble").first
    n = meta["nobles"][int(noble.get_attribute("data-noble"))]
    needs = ", ".join(f"{k} {words[g]['name']}" for g, k in zip(meta["gems"], n["requires"], strict=True) if k)
    assert noble.get_attribute("aria-label") == f"Noble, {n['points']} points, needs bonuses {needs}"
    white = page.locator('#supply .token[data-colour="white"]')
    assert white.get_attribute("aria-label") == "white: 4 tokens"
    assert white.locator(".sym").inner_text() == "W"

    # pressed by keyboard, a token and a card keep the focus when the board is drawn again
    white.focus()
    page.keyboard.press("Enter")
    page.wait_for_selector('#supply .token[data-colour="white"][aria-pressed="true"]', timeout=TIMEOUT)
    assert page.evaluate("document.activeElement.dataset.focus") == "token:white"
    page.keyboard.press("Space")
    page.wait_for_selector('#supply .token[data-colour="white"][aria-pressed="false"]', timeout=TIMEOUT)
    assert page.evaluate("document.activeElement.dataset.focus") == "token:white"
    card.focus()
    page.keyboard.press("Enter")
    page.wait_for_selector('#market .card.selected[data-slot="1.1"]', timeout=TIMEOUT)
    assert page.evaluate("document.activeElement.dataset.focus") == "slot:1.1"
    ring = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
    assert ring == "solid"

    # a card reserved: in the hand it is a named picture, not a button that does nothing
    reserve = next(i for i, a in enumerate(meta["actions"]) if a["card"] == [1, 1] and a["text"].startswith("reserve"))
    page.click(f'#actions button[data-action="{reserve}"]')  # chosen; the confirm button plays it
    page.click("#confirm")
    page.wait_for_selector("#players .player.me .reserved .card", timeout=TIMEOUT)
    assert page.locator("#players .player.me .reserved button").count() == 0
    held = page.locator("#players .player.me .reserved .card")
    assert held.get_attribute("role") == "img" and held.get_attribute("aria-label").startswith("Level 1 card, ")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_seat_page_in_each_language(browser, server, lang):
    module = catalogue.load([str(server.spec)])["target-12"].module
    words = i18n.catalogue(lang)
    english = i18n.catalogue("en")
    context = browser.new_context(viewport=DESKTOP, locale=lang)
    page = context.new_page()
    make_table_with_the_form(page, server.url, "target-12", ["human", "human"])
    page.wait_for_selector("a.seat-link", timeout=TIMEOUT)
    assert page.locator("#close-table").inner_text() == words["host.close"]
    page.goto(page.locator("a.seat-link").first.get_attribute("href"))
    page.wait_for_selector("body.my-turn #market .card", timeout=TIMEOUT)
    assert page.evaluate("document.documentElement.lang") == lang
    assert page.locator("#status").inner_text() == words["status.turn"]
    assert page.locator("#supply h2").inner_text() == words["supply.heading"]
    assert page.locator("#nobles h2").inner_text() == words["nobles.heading"]
    assert page.locator("#actions .hint").inner_text() == words["move.hint"]
    symbols = page.locator("#supply .token .sym").all_inner_texts()
    assert symbols == [w["symbol"] for w in gems.words(tuple(module.COLOURS), lang).values()]
    text = page.locator("#board").inner_text()
    if lang != "en":  # no English left on the board
        for key in ("supply.heading", "player.tokens", "player.bonuses", "page.moves", "status.turn"):
            assert english[key] not in text, key
    if lang == "sr":  # Serbian in Cyrillic
        assert all("\u0400" <= ch <= "\u04ff" for ch in words["status.turn"] if ch.isalpha())
    # on a phone, each card's and deck's mark ("buy", "reserve": longer in some languages) stays within its tile
    page.set_viewport_size(PHONE)
    outside = page.evaluate(
        """() => [...document.querySelectorAll('#market .mark')].filter((mark) => {
             const m = mark.getBoundingClientRect(), tile = mark.parentElement.getBoundingClientRect();
             return m.left < tile.left - 0.5 || m.right > tile.right + 0.5; }).map((mark) => mark.textContent)"""
    )
    assert page.locator("#market .mark").count() >= 12 and outside == []
    page.set_viewport_size(DESKTOP)
    # a language chosen on the page wins over the browser's
    page.click('.board-langs a[hreflang="nl"]')
    page.wait_for_selector("body.my-turn #market .card", timeout=TIMEOUT)
    assert page.locator("#supply h2").inner_text() == i18n.catalogue("nl")["supply.heading"]


def test_a_cities_board_draws_the_cities_with_the_specs_words_and_no_noble_row(browser, tmp_path):
    require_browser()
    variant = catalogue.load([str(CITIES)])["cities"]
    labels = views.labels(variant.rules, variant.module, "en")
    with seat_page(tmp_path, CITIES, "cities", browser=browser) as (page, errors, seed):
        page.wait_for_selector('#zones [data-zone="city_display"] .component', timeout=TIMEOUT)
        assert page.locator("#nobles").is_hidden() and "Nobles" not in page.locator("#board").inner_text()
        shown = variant.module.new_game(2, seed=seed).observation(0)["zones"]["city_display"]
        kind = variant.module.KINDS["cities"]
        tiles = page.locator('#zones [data-zone="city_display"] .component')
        for i, city in enumerate(shown):
            tile = tiles.nth(i)
            row = dict(zip([c.name for c in kind.columns], kind.rows[city], strict=True))
            assert tile.locator(".component-name").inner_text() == f"City {row['tile']}"
            if any(row["requires"]):
                assert tile.locator('[data-column="requires"] .label').inner_text() == "bonuses needed"
            assert tile.locator('[data-column="tile"]').count() == 0  # the piece's number names it
            assert "requires" not in tile.inner_text() and "any_one_colour" not in tile.inner_text()
            assert tile.get_attribute("aria-label").startswith(f"city {row['tile']}, side {row['side']}, prestige ")
        said = page.locator('#zones .kind-rule[data-kind="cities"]').all_inner_texts()
        assert said[0] == (
            "Claim a city: At the end of your turn, if you meet the requirements of a city on display, "
            "take it (you must; one city a turn, and you choose which)."
        )
        sheet = (ROOT / "generated" / "sheets" / "cities.en.md").read_text(encoding="utf-8")
        for rule in labels["kinds"]["cities"]["rules"]:  # the sheet's own words
            assert rule["text"][1:] in sheet
        assert errors == []


def test_a_trading_posts_board_shows_every_post_and_what_it_needs_but_not_a_turns_bookkeeping(browser, tmp_path):
    require_browser()
    variant = catalogue.load([str(TRADING_POSTS)])["trading-posts"]
    with seat_page(tmp_path, TRADING_POSTS, "trading-posts", browser=browser) as (page, errors, _):
        page.wait_for_selector('#zones [data-kind="posts"] .component', timeout=TIMEOUT)
        posts = page.locator('#zones [data-kind="posts"] .component')
        assert posts.count() == 5
        assert page.locator('#zones [data-kind="posts"] h2').inner_text() == "Trading posts"
        second = posts.nth(1)
        assert second.locator(".component-name").inner_text() == "Trading post 2"
        assert second.locator('[data-column="power"] .value').inner_text() == "A third token with a pair"
        assert second.locator('[data-column="requires"] .chip .n').all_inner_texts() == ["2"]
        assert second.locator(".held").inner_text() == "held by nobody"
        assert "third_token_with_pair" not in page.locator("#board").inner_text()
        said = page.locator('#zones .kind-rule[data-kind="posts"]').inner_text()
        # the rule that chooses a post, in the sheet's words (its own text, which the spec gives)
        (rule,) = views.kind_rules(variant.rules, "posts", "en")
        opening = next(d for d in variant.rules.steps if d.name == "open_posts")
        assert rule["title"] == "Open trading posts" and rule["text"].startswith(opening.text.get("en")[:20])
        assert said == f"{rule['title']}: {rule['text']}"
        # a turn's bookkeeping (reset: turn, not marked for display) is not board state
        assert page.locator('[data-var="bought"], [data-var="paired"]').count() == 0
        assert page.locator('#players [data-var="markers"]').count() == 2
        assert [v.name for v in variant.rules.variables if v.reset == "turn"] == ["bought", "paired"]
        assert errors == []


def test_a_trading_posts_board_says_who_holds_each_post(browser, tmp_path):
    """Two greedy bots play a game of the Trading Posts to its end; the spectators' board then
    says, under each post, who holds it: the seats whose markers (in the spectators' view) have it."""
    require_browser()
    server = Server(tmp_path / "tables.sqlite3", free_port(), tmp_path / "server.log", spec=TRADING_POSTS)
    server.start()
    try:
        page = browser.new_context(viewport=DESKTOP).new_page()
        make_table_with_the_form(page, server.url, "trading-posts", ["greedy", "greedy"], seed=3)
        page.wait_for_selector("a.watch-link", timeout=TIMEOUT)
        watch = page.locator("a.watch-link").get_attribute("href")
        page.goto(watch)
        page.wait_for_selector("#result .standings li", timeout=60_000)
        table, secret = urllib.parse.urlparse(watch).path.split("/")[2:]
        with urllib.request.urlopen(f"{server.url}/api/tables/{table}/watch/{secret}") as answer:
            seats = json.loads(answer.read())["state"]["seats"]
        held = page.locator('#zones [data-kind="posts"] .component .held').all_inner_texts()
        expected = []
        for post in range(5):
            who = [f"player {seat + 1} (greedy)" for seat in range(2) if post in seats[seat]["vars"]["markers"]]
            expected.append(f"held by {', '.join(who)}" if who else "held by nobody")
        assert held == expected and any(h != "held by nobody" for h in held)
    finally:
        server.kill()


STRONGHOLDS = ROOT / "variants" / "strongholds.yaml"
RELICS = ROOT / "tests" / "specs" / "relics.yaml"
SATCHELS = ROOT / "tests" / "specs" / "satchels.yaml"


def table_for_two(server: Server, page, spec: str) -> tuple[list[str], int]:
    """A table of `spec` for two people made with the form: the seats' links and the seed drawn."""
    make_table_with_the_form(page, server.url, spec, ["human", "human"])
    page.wait_for_selector("a.seat-link", timeout=TIMEOUT)
    return [a.get_attribute("href") for a in page.query_selector_all("a.seat-link")], drawn_seed(server, page)


def move_through_the_api(server: Server, link: str, action: int, after: int) -> None:
    table, seat, secret = urllib.parse.urlparse(link).path.split("/")[2:]
    request = urllib.request.Request(
        f"{server.url}/api/tables/{table}/seats/{seat}/{secret}/actions",
        data=json.dumps({"action": action, "after": after}).encode(),
        headers={"Content-Type": "application/json"},
    )
    urllib.request.urlopen(request, timeout=30).close()


def test_state_keyed_by_a_piece_or_a_colour_and_a_split_zones_groups_read_in_french(browser, tmp_path):
    """The Strongholds: each face-up card says the strongholds on it and whose they are (the spec's
    titles, in French), no 90 tiles of the development cards, no lists of 90 values in the State box,
    and axe finds nothing. The relics (a zone split by level): each group titled by the zone's and
    the column's French titles, a relic's colour by its name. The satchels (keyed by gem): a disc
    with the colour's symbol where one differs from the start, "aucun" where none does."""
    require_browser()
    loaded = catalogue.load([str(STRONGHOLDS), str(RELICS), str(SATCHELS)])
    server = Server(
        tmp_path / "tables.sqlite3", free_port(), tmp_path / "server.log", spec=STRONGHOLDS, also=(RELICS, SATCHELS)
    )
    server.start()
    try:
        errors: list[str] = []
        page = browser.new_context(viewport=DESKTOP, locale="fr").new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))

        variant = loaded["strongholds"]
        module = variant.module
        links, seed = table_for_two(server, page, "strongholds")
        game = module.new_game(2, seed=seed)
        people = make_bot("greedy", module, 1)

        def face_up() -> list[int]:
            return [card for row in game.market for card in row if card is not None]

        meta = views.meta(module)
        tapped = False
        while not any(game.s_forts[card] for card in face_up()):  # until a stronghold stands on a card
            action = people.choose(game)
            if game.phase == "fortify" and not tapped:  # a placement is made by tapping the card
                seat, moves = game.current_player, len(game.history)
                page.goto(links[seat])
                page.wait_for_function("n => document.querySelectorAll('#log li').length === n", arg=moves)
                single = {
                    a: meta["actions"][a]["card"] for a in game.legal_actions() if "cards" not in meta["actions"][a]
                }
                single = {a: slot for a, slot in single.items() if slot is not None}
                marked = page.eval_on_selector_all("#market .card.qualifies", "cards => cards.map(c => c.dataset.slot)")
                assert sorted(marked) == sorted(f"{level}.{n}" for level, n in single.values())
                assert page.locator("#market .card.qualifies .mark").first.inner_text() == "au choix"
                action = action if action in single else next(iter(single))
                assert play_by_clicks(page, meta, action, moves) == "board"
                tapped = True
            else:
                move_through_the_api(server, links[game.current_player], action, len(game.history))
            game.apply(action)
        assert tapped
        titles = {v.name: v.title.get("fr") for v in variant.rules.variables}
        page.goto(links[0])
        page.wait_for_function("n => document.querySelectorAll('#log li').length === n", arg=len(game.history))
        for card in face_up():
            tile = page.locator(f'#market .card[data-card="{card}"]')
            forts, holder = game.s_forts[card], game.s_holder[card]
            said = ([f"{titles['forts']} : {forts}"] if forts else []) + (
                [f"{titles['holder']} : {'vous' if holder == 0 else f'joueur {holder + 1}'}"]
                if holder is not None
                else []
            )
            assert tile.locator(".keyed").all_inner_texts() == [s.replace(" : ", " ") for s in said]
            assert tile.get_attribute("aria-label").endswith("".join(", " + s for s in said) or "")
        assert page.locator('.component[data-kind="cards"]').count() == 0
        assert page.locator('#zones [data-var="forts"], #zones [data-var="holder"]').count() == 0
        assert violations(page) == []

        variant = loaded["relics"]
        links, seed = table_for_two(server, page, "relics")
        page.goto(links[0])
        page.wait_for_selector('#zones [data-zone="relic_rows"] .component', timeout=TIMEOUT)
        zone = {z.name: z.title.get("fr") for z in variant.rules.zones}
        level = next(k for k in variant.rules.kinds if k.name == "relics").columns[0]
        assert (level.name, level.title.get("fr")) == ("level", "niveau")
        for name in ("relic_decks", "relic_rows"):
            groups = page.locator(f'#zones [data-zone="{name}"] h2').all_inner_texts()
            assert groups == [f"{zone[name]} (niveau {n})" for n in (1, 2, 3)]
        colours = {w["name"] for w in gems.words(tuple(variant.module.COLOURS), "fr").values()}
        bonuses = page.locator('#zones [data-column="bonus"] .value').all_inner_texts()
        assert len(bonuses) == 6 and set(bonuses) <= colours
        shrine = page.locator('#players .player[data-seat="1"] [data-zone="shrine"] .none')
        assert shrine.inner_text() == "aucune"  # no relic (feminine): "none" agrees with the item

        module = loaded["satchels"].module
        links, seed = table_for_two(server, page, "satchels")
        game = module.new_game(2, seed=seed)
        pair = next(a for a in game.legal_actions() if module.describe_action(a)[0] == "take_pair")
        move_through_the_api(server, links[0], pair, 0)
        colour = module.describe_action(pair)[1]["colour"]
        page.goto(links[0])
        page.wait_for_function("() => document.querySelectorAll('#log li').length === 1")
        mine = page.locator('#players .player[data-seat="0"] [data-var="satchels"]')
        assert mine.locator(".chip").get_attribute("data-colour") == colour
        assert mine.locator(".chip .n").inner_text() == "1"
        theirs = page.locator('#players .player[data-seat="1"] [data-var="satchels"]')
        assert theirs.locator(".none").inner_text() == "aucun"
        assert page.locator('[data-var="reserved_by"], [data-var="ever_reserved"]').count() == 0  # none reserved
        assert errors == []
    finally:
        server.kill()
