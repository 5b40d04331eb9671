"""Playing at the web table in a real browser (headless Chromium through Playwright, as in
test_web_browser): a whole game of two people, one on a phone, made with the new interactions
(issue 31, items 1, 3 and 6): cards marked as the engine's legal actions say, what a card costs
shown when it is picked, every move played by its confirm button, nobles chosen by tapping their
tile, the hand always in view on the phone, an opponent's blind reserve shown by its level only;
and the host's undo taken by the player who moved, before anyone else acts."""

from __future__ import annotations

import pathlib

from playtest.bots import make_bot
from tests.helpers.browser import (
    ARTIFACTS,
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

# Every noble qualifies from the first turn: a noble is chosen (by tapping its tile) in each of the
# first turns, while several are left.
EASY_NOBLES = """\
spec: 1
name: easy-nobles
extends: target-12
title: Easy nobles
description: "A test variant: a noble comes to anyone within four bonuses of each colour it asks."
end_of_turn:
  noble_visit:
    condition: all(me.bonus[c] + 4 >= noble.requires[c] for c in gems)
"""

PHONE = {"width": 390, "height": 844}


def marked_slots(page, mark: str) -> set[str]:
    return set(page.eval_on_selector_all(f"#market .card.{mark}", "tiles => tiles.map(t => t.dataset.slot)"))


def legal_slots(meta: dict, game, pays: bool) -> set[str]:
    """The face-up cards the engine lets the seat buy (pays) or reserve now."""
    return {
        f"{a['card'][0]}.{a['card'][1]}"
        for a in (meta["actions"][i] for i in game.legal_actions())
        if a["card"] and not a["step"] and a["pays"] == pays
    }


def hand_in_view(page) -> bool:
    box = page.locator("#hand").bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"] + 1


def check_the_board(page, meta: dict, game, seat: int) -> None:
    """Item 1 on the seat's page, before it moves: the marks are the engine's legal purchases and
    reserves; a card it can buy, picked, says what it takes from the seat's tokens (its cost less
    the seat's bonuses, no gold being held)."""
    assert marked_slots(page, "can-buy") == legal_slots(meta, game, True)
    assert marked_slots(page, "can-reserve") == legal_slots(meta, game, False)
    buyable = sorted(legal_slots(meta, game, True))
    if buyable and not game.tokens[seat][-1]:
        page.click(f'#market .card[data-slot="{buyable[0]}"]')
        level, slot = map(int, buyable[0].split("."))
        cost = meta["cards"][game.market[meta["levels"].index(level)][slot - 1]]["cost"]
        owed = [str(n - b) for n, b in zip(cost, game.bonus[seat], strict=True) if n > b]
        assert page.locator("#actions .cost-line .chip .n").all_inner_texts() == owed
        page.click(f'#market .card[data-slot="{buyable[0]}"]')  # unpicked


def test_a_whole_game_with_confirm_buttons_tapped_nobles_and_the_hand_in_view(browser, tmp_path):
    require_browser()
    spec = tmp_path / "easy-nobles.yaml"
    spec.write_text(EASY_NOBLES)
    module = catalogue.load([str(spec)])["easy-nobles"].module
    meta = views.meta(module)
    server = Server(tmp_path / "tables.sqlite3", free_port(), tmp_path / "server.log", spec=spec)
    server.start()
    try:
        errors: list[str] = []
        host = browser.new_context(viewport={"width": 1200, "height": 900}).new_page()
        make_table_with_the_form(host, server.url, "easy-nobles", ["human", "human"])
        host.wait_for_selector("a.seat-link", timeout=TIMEOUT)
        seed = drawn_seed(server, host)
        links = [a.get_attribute("href") for a in host.query_selector_all("a.seat-link")]
        pages = [
            host.context.new_page(),
            browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page(),
        ]
        for page, link in zip(pages, links, strict=True):
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(link)
            page.wait_for_selector("#market .card", timeout=TIMEOUT)

        game = module.new_game(2, seed=seed)
        people = make_bot("greedy", module, 1)
        # Player 1 first reserves blind from the level 2 deck (picked, then confirmed).
        blind = module.string_to_action("reserve deck 2")
        assert play_by_clicks(pages[0], meta, blind, 0) == "button"
        game.apply(blind)
        secret = game.reserved[0][0]
        theirs = pages[1].locator('#players .player[data-seat="0"] .reserved .hidden-card')
        theirs.wait_for(timeout=TIMEOUT)
        assert theirs.inner_text() == "level 2 (hidden)"
        assert pages[0].locator(f'#hand .card[data-card="{secret}"]').count() == 1
        assert f'data-card="{secret}"' not in pages[1].content()

        tapped = 0
        while not game.is_over():
            seat = game.current_player
            page = pages[seat]
            moves = len(game.history)
            page.wait_for_function(
                "n => document.body.classList.contains('my-turn') && document.querySelectorAll('#log li').length === n",
                arg=moves,
                timeout=TIMEOUT,
            )
            if game.phase == "action":
                check_the_board(page, meta, game, seat)
            if seat == 1:  # the phone: the hand in view wherever the board is scrolled
                for where in ("#market", "#log"):
                    page.locator(where).scroll_into_view_if_needed()
                    assert hand_in_view(page), where
                if moves == 5:
                    page.screenshot(path=str(ARTIFACTS / "play-phone-hand-in-view.png"))
            action = people.choose(game)
            if game.phase == "noble_visit":
                assert page.locator("#nobles .noble.qualifies").count() == len(game.legal_actions())
                if not tapped:
                    shoot(page, "play-nobles-to-tap")
            tapped += play_by_clicks(page, meta, action, moves) == "board"
            game.apply(action)
        assert tapped >= 2  # nobles chosen on the board, not by a button
        for page in pages:
            page.wait_for_function(
                "() => document.getElementById('status').textContent.startsWith('Game over')", timeout=TIMEOUT
            )
            moves_shown(page, len(game.history))
        shoot(pages[1], "play-game-over-phone")
        assert errors == []
    finally:
        server.kill()


def test_the_hosts_undo_takes_a_move_back_until_the_next_player_acts(browser, tmp_path):
    require_browser()
    spec = pathlib.Path(__file__).resolve().parent.parent / "variants" / "target-12.yaml"
    module = catalogue.load([str(spec)])["target-12"].module
    meta = views.meta(module)
    server = Server(tmp_path / "tables.sqlite3", free_port(), tmp_path / "server.log")
    server.start()
    try:
        errors: list[str] = []
        host = browser.new_context(viewport={"width": 1200, "height": 900}).new_page()
        make_table_with_the_form(host, server.url, "target-12", ["human", "human"])
        host.wait_for_selector("a.seat-link", timeout=TIMEOUT)
        seed = drawn_seed(server, host)
        assert host.locator("#undo-state").inner_text().startswith("Undo is off")
        host.click("#switch-undo")
        host.wait_for_function(
            "() => document.getElementById('undo-state').textContent.startsWith('Undo is on')", timeout=TIMEOUT
        )
        links = [a.get_attribute("href") for a in host.query_selector_all("a.seat-link")]
        pages = [host.context.new_page() for _ in links]
        for page, link in zip(pages, links, strict=True):
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(link)
            page.wait_for_selector("#market .card", timeout=TIMEOUT)
        game = module.new_game(2, seed=seed)
        first = make_bot("greedy", module, 1).choose(game)
        play_by_clicks(pages[0], meta, first, 0)
        moves_shown(pages[1], 1)
        assert pages[1].locator("#undo").count() == 0  # only the player who moved
        pages[0].wait_for_selector("#undo", timeout=TIMEOUT)
        shoot(pages[0], "play-undo-offered")
        pages[0].click("#undo")
        for page in pages:
            page.wait_for_function("() => document.querySelectorAll('#log li').length === 0", timeout=TIMEOUT)
        pages[0].wait_for_function("() => document.body.classList.contains('my-turn')", timeout=TIMEOUT)
        assert pages[0].locator("#undo").count() == 0
        # Played again; once the next player acts, it stands.
        play_by_clicks(pages[0], meta, first, 0)
        game.apply(first)
        play_by_clicks(pages[1], meta, make_bot("greedy", module, 1).choose(game), 1)
        pages[0].wait_for_function("() => !document.getElementById('undo')", timeout=TIMEOUT)
        assert pages[1].locator("#undo").count() == 1
        assert errors == []
    finally:
        server.kill()


def test_returning_tokens_says_how_many_and_a_payment_marks_the_card_it_pays_for(browser, tmp_path):
    """Player 1 takes three gems a turn while player 2 reserves (and so holds gold): player 1 is
    asked to return tokens, told how many and what it holds; player 2 then buys a card it can pay
    in several ways: the card is marked as being paid for and each payment says what it takes."""
    require_browser()
    spec = pathlib.Path(__file__).resolve().parent.parent / "variants" / "target-12.yaml"
    variant = catalogue.load([str(spec)])["target-12"]
    module = variant.module
    meta = views.meta(module)
    server = Server(tmp_path / "tables.sqlite3", free_port(), tmp_path / "server.log")
    server.start()
    try:
        errors: list[str] = []
        context = browser.new_context(viewport={"width": 1200, "height": 900})
        host = context.new_page()
        make_table_with_the_form(host, server.url, "target-12", ["human", "human"])
        host.wait_for_selector("a.seat-link", timeout=TIMEOUT)
        seed = drawn_seed(server, host)
        pages = [context.new_page() for _ in range(2)]
        for page, link in zip(
            pages, [a.get_attribute("href") for a in host.query_selector_all("a.seat-link")], strict=True
        ):
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(link)
            page.wait_for_selector("#market .card", timeout=TIMEOUT)
        game = module.new_game(2, seed=seed)

        def rule(a):
            return module.describe_action(a)[0]

        def largest_take():
            takes = [a for a in game.legal_actions() if rule(a) == "take_different"]
            return max(takes, key=lambda a: len(module.describe_action(a)[1]["picked"])) if takes else None

        returned = paid = False
        while not paid and len(game.history) < 60:
            seat, moves = game.current_player, len(game.history)
            page = pages[seat]
            legal = game.legal_actions()
            several = [a for a in legal if len(game.payment_options(a)) > 1] if game.phase == "action" else []
            if game.phase == "return_tokens":
                page.wait_for_selector("#choice h2", timeout=TIMEOUT)
                held = sum(game.tokens[seat])
                if not returned:
                    n = held - module.VALUES["token_limit"]
                    title = next(d.title.en for d in variant.rules.steps if d.name == "return_tokens")
                    assert page.locator("#choice h2").inner_text() == f"Choose: {title} ({n} times, one at a time)"
                    assert page.locator("#choice .you-hold").inner_text().startswith(f"You hold {held} tokens:")
                    white = module.string_to_action("return white")
                    assert page.locator(f'#choice button[data-action="{white}"] .held').inner_text().strip() == (
                        f"(you hold {game.tokens[seat][0]})"
                    )
                    shoot(page, "play-return-tokens")
                    returned = True
                action = legal[0]
            elif several and seat == 1:
                action = several[0]
                play_by_clicks(page, meta, action, moves)
                game.apply(action)
                page.wait_for_selector("#choice .paid", timeout=TIMEOUT)
                card = meta["actions"][action]
                where = (
                    f'#market .card[data-slot="{card["card"][0]}.{card["card"][1]}"]'
                    if card["card"]
                    else f'#hand .card[data-reserved="{card["reserved"]}"]'
                )
                assert "paying" in page.locator(where).get_attribute("class")
                options = game.legal_actions()
                assert page.locator("#choice button.act.legal").count() == len(options)
                first = page.locator(f'#choice button[data-action="{options[0]}"] .paid').inner_text()
                assert first.strip() != "" and "nothing" not in first
                shoot(page, "play-payment-step")
                action, moves = options[0], len(game.history)
                paid = True
            elif seat == 0 or game.reserved[1] and len(game.reserved[1]) >= 3:
                action = largest_take() or legal[0]
            else:
                action = next(a for a in legal if rule(a) == "reserve_face_up")
            play_by_clicks(page, meta, action, moves)
            game.apply(action)
        assert returned and paid
        assert errors == []
    finally:
        server.kill()


def test_a_turn_variable_marked_for_display_shows_on_the_board_while_the_turn_lasts(browser, tmp_path):
    """tests/specs/turn-display.yaml, on a page in French: two turn variables set by taking gems,
    `taken` marked `display: true`, `quiet` not. With a token limit of 2, a take of three tokens
    sends the seat to the return step in the same turn: the board shows `taken` by its French
    title, "non" before the take and "oui" during the step (its value then), and never `quiet`;
    the log says the move in French as `play` does (the rule's title and the colours' names), not
    in notation."""
    require_browser()
    spec = pathlib.Path(__file__).resolve().parent / "specs" / "turn-display.yaml"
    variant = catalogue.load([str(spec)])["turn-display"]
    module = variant.module
    meta = views.meta(module)
    title = next(v.title.get("fr") for v in variant.rules.variables if v.name == "taken")
    with seat_page(tmp_path, spec, "turn-display", browser=browser) as (page, errors, seed):
        page.goto(page.url + "?lang=fr")
        game = module.new_game(2, seed=seed)
        page.wait_for_selector("#market .card", timeout=TIMEOUT)
        shown = page.locator('#zones [data-var="taken"]')
        assert (shown.locator(".label").inner_text(), title) == ("Pris ce tour", "Pris ce tour")
        assert shown.locator(".value").inner_text() == "non"
        assert page.locator('[data-var="quiet"]').count() == 0
        takes = [a for a in game.legal_actions() if module.describe_action(a)[0] == "take_different"]
        three = next(a for a in takes if len(module.describe_action(a)[1]["picked"]) == 3)
        play_by_clicks(page, meta, three, 0)
        game.apply(three)
        assert game.phase == "return_tokens" and game.current_player == 0
        page.wait_for_selector("#choice h2", timeout=TIMEOUT)
        assert shown.locator(".value").inner_text() == "oui"
        assert page.locator('[data-var="quiet"]').count() == 0
        names = {"white": "blanc", "blue": "bleu", "green": "vert", "red": "rouge", "black": "noir"}
        first, second, third = (names[c] for c in module.describe_action(three)[1]["picked"])
        said = page.locator("#log li").first.inner_text()  # the words `play` prints (compiler.sheets.moves)
        assert said == f"vous : Prendre des jetons de couleurs différentes : {first}, {second} et {third}", said
        shoot(page, "play-turn-variable-shown")
        assert errors == []
