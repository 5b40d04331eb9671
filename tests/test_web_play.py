"""Playing at the web table as players expect (issue 31, items 1, 3 and 6), through the ASGI test
client: what a seat's view says it can buy and what that costs (the engine's payment), how many
times a step is asked, the log naming cards by what they are and never a blind reserve, the
host's close asked again, and the house rule "undo until the next player acts": only the player
who moved, only before anyone else acts, stored, and refused otherwise with a sentence."""

from __future__ import annotations

import json
import re
import urllib.parse

from playtest.bots import make_bot
from tests.helpers import ROOT
from tests.helpers.web import api_of, client, engine, new_table, play_to_the_end
from web import catalogue, moves, views


def play(c, apis, game, action) -> dict:
    """`action` played by the seat whose turn it is, through the API and on the test's own game."""
    r = c.post(apis[game.current_player] + "/actions", json={"action": action, "after": len(game.history)})
    assert r.status_code == 200, r.text
    game.apply(action)
    return r.json()


def test_every_action_says_what_it_points_at_from_the_engines_decisions(variants):
    module = engine(variants)
    meta = views.meta(module)
    for a, info in enumerate(meta["actions"]):
        rule, params = module.describe_action(a)
        decision = next(d for d in module.DECISION_INFO if d.name == rule)
        assert info["pays"] == decision.pays
        domains = {p.domain: params[p.name] for p in decision.params}
        assert info["card"] == (list(domains["face_up"]) if "face_up" in domains else None)
        for domain in ("reserved", "deck", "noble", "component"):
            assert info[domain] == domains.get(domain)
        assert info["payment"] == ("payment" in domains)
    buys = [a for a, info in enumerate(meta["actions"]) if info["pays"]]
    assert buys and all(module.action_to_string(a).startswith("buy") for a in buys)


def test_a_seat_is_told_what_each_purchase_takes_from_its_tokens(variants, db):
    """For every legal purchase, the tokens the engine's move takes: the card's cost less the
    seat's bonuses, colour by colour (no gold held in these greedy games before move 40)."""
    module = engine(variants)
    with client(variants, db) as c:
        apis = [api_of(s["link"]) for s in new_table(c, seed=3)["seats"]]
        game = module.new_game(2, seed=3)
        bot = make_bot("greedy", module, 1)
        checked = 0
        while not game.is_over() and len(game.history) < 40:
            seat = game.current_player
            view = c.get(apis[seat]).json()
            other = c.get(apis[1 - seat]).json()
            assert other["payments"] == {} and other["legal"] == []
            if not game.tokens[seat][-1]:
                for key, options in view["payments"].items():
                    card = moves.taken_card(module, game, seat, int(key))[0]
                    cost = module.CARDS[card].cost
                    owed = {
                        g: cost[i] - game.bonus[seat][i]
                        for i, g in enumerate(module.GEMS)
                        if cost[i] > game.bonus[seat][i]
                    }
                    assert options == [owed]
                    checked += 1
            buys = {a for a in view["legal"] if views.meta(module)["actions"][a]["pays"]}
            assert set(map(int, view["payments"])) == buys
            play(c, apis, game, bot.choose(game))
        assert checked >= 5


def test_with_gold_every_payment_the_engine_accepts_is_shown_and_the_step_shows_them_again(variants, db):
    """A seat holding gold: a purchase with several payments lists each (the one without gold
    first); once chosen, the payment step's options carry the same payments."""
    module = engine(variants)
    meta = views.meta(module)
    with client(variants, db) as c:
        for seed in range(40):
            apis = [api_of(s["link"]) for s in new_table(c, seed=seed)["seats"]]
            game = module.new_game(2, seed=seed)
            bot = make_bot("greedy", module, 1)
            while not game.is_over() and len(game.history) < 60:
                view = c.get(apis[game.current_player]).json()
                several = [a for a, options in view["payments"].items() if len(options) > 1]
                if several:
                    action = int(several[0])
                    options = view["payments"][several[0]]
                    assert len(options) == len(game.payment_options(action))
                    assert "gold" not in options[0] and all("gold" in o for o in options[1:])
                    step = play(c, apis, game, action)
                    assert step["phase"] == "payment" and step["pending_id"] == action
                    assert [step["payments"][str(p)] for p in step["legal"]] == [[o] for o in options]
                    assert all(meta["actions"][p]["payment"] for p in step["legal"])
                    return
                play(c, apis, game, bot.choose(game))
    raise AssertionError("no seed of 40 gave a purchase with several payments")


def test_a_step_asked_several_times_says_how_many(variants, db):
    """Returning tokens: the view says how many times the step is asked, and the engine then asks
    exactly that many times."""
    module = engine(variants)
    with client(variants, db) as c:
        apis = [api_of(s["link"]) for s in new_table(c, seed=5)["seats"]]
        game = module.new_game(2, seed=5)
        while game.phase != "return_tokens":  # player 1 takes three different gems, player 2 reserves
            rule = "take_different" if game.current_player == 0 else "reserve_face_up"
            takes = [a for a in game.legal_actions() if module.describe_action(a)[0] == rule]
            play(c, apis, game, max(takes, key=lambda a: len(module.describe_action(a)[1].get("picked", ()))))
        assert game.phase == "return_tokens"
        view = c.get(apis[game.current_player]).json()
        held = sum(game.tokens[game.current_player])
        assert view["repeats"] == held - module.VALUES["token_limit"] == 2
        asked = 0
        while game.phase == "return_tokens":
            play(c, apis, game, game.legal_actions()[0])
            asked += 1
        assert asked == view["repeats"]


def test_the_log_names_cards_by_what_they_are_and_never_a_blind_reserve(variants, db):
    module = engine(variants)
    with client(variants, db) as c:
        made = new_table(c, seed=11)
        apis = [api_of(s["link"]) for s in made["seats"]]
        game = module.new_game(2, seed=11)
        blind = next(a for a in game.legal_actions() if module.action_to_string(a) == "reserve deck 2")
        play(c, apis, game, blind)
        secret = game.reserved[0][0]
        face_up = next(a for a in game.legal_actions() if module.action_to_string(a) == "reserve 1.2")
        shown = game.market[0][1]
        play(c, apis, game, face_up)
        assert game.market[0][1] != shown  # the slot was refilled: "1.2" alone no longer says which card
        for api in apis + [watch_api(made["watch"])]:
            view = c.get(api).json()
            assert [m["card"] for m in view["log"]] == [None, shown]
        theirs = c.get(apis[1]).json()
        assert theirs["state"]["seats"][0]["blind"] == [2]  # the public level of the blind reserve
        assert str(secret) not in json.dumps({"log": theirs["log"], "seats": theirs["state"]["seats"][0]})
        page = c.get(made["seats"][1]["link"]).text
        assert f'"card": {secret}' not in page


def watch_api(link: str) -> str:
    """/watch/TABLE/SECRET -> /api/tables/TABLE/watch/SECRET"""
    table, secret = urllib.parse.urlparse(link).path.split("/")[2:]
    return f"/api/tables/{table}/watch/{secret}"


def test_a_blind_reserve_bought_is_named_once_it_is_public(variants):
    """named_card: a reserved card hidden before the move and bought by it is public after."""
    module = engine(variants)
    game = module.new_game(2, seed=11)
    game.apply(next(a for a in game.legal_actions() if module.action_to_string(a) == "reserve deck 1"))
    card = game.reserved[0][0]
    assert moves.taken_card(module, game, 0, 57) == (card, True)  # "buy reserved 1": that card, hidden
    assert moves.named_card((card, True), game, 0) is None
    after = game.clone()
    after.purchased[0].append(card)
    assert moves.named_card((card, True), after, 0) == card


def test_undo_is_the_hosts_house_rule_and_only_the_mover_undoes_before_anyone_acts(variants, db):
    module = engine(variants)
    with client(variants, db) as c:
        made = new_table(c, seed=7)
        apis = [api_of(s["link"]) for s in made["seats"]]
        game = module.new_game(2, seed=7)
        play(c, apis, game, game.legal_actions()[0])
        r = c.post(apis[0] + "/undo")
        assert (r.status_code, r.json()) == (403, {"error": "the host has not switched on undo at this table"})
        assert c.get(apis[0]).json()["undo"] == {"allowed": False, "now": False}
        assert "Undo is off" in c.get(made["host"]).text

        r = c.post(made["host"] + "/undo", data={"undo": "on"}, follow_redirects=False)
        assert r.status_code == 303 and r.headers["location"].endswith(urllib.parse.urlparse(made["host"]).path)
        assert "Undo is on" in c.get(made["host"]).text
        assert c.get(apis[0]).json()["undo"] == {"allowed": True, "now": True}
        assert c.get(apis[1]).json()["undo"] == {"allowed": True, "now": False}
        r = c.post(apis[1] + "/undo")
        assert r.status_code == 409 and r.json()["error"] == (
            "the last move is player 1's: a player may undo only their own move, and only until the next player acts"
        )
        r = c.post(apis[0] + "/undo", headers={"origin": "https://evil.example"})
        assert r.status_code == 403

        before = c.get(apis[0]).json()
        r = c.post(apis[0] + "/undo")
        assert r.status_code == 200, r.text
        view = r.json()
        fresh = module.new_game(2, seed=7)
        assert view["state"] == fresh.observation(0) and view["moves"] == 0 and view["log"] == []
        assert view["version"] > before["version"] and view["legal"] == fresh.legal_actions()
        r = c.post(apis[0] + "/undo")
        assert (r.status_code, r.json()["error"]) == (409, "no move has been made yet")

        game = fresh
        play(c, apis, game, game.legal_actions()[-1])
        play(c, apis, game, game.legal_actions()[0])  # the next player acts: the first move stands
        r = c.post(apis[0] + "/undo")
        assert r.status_code == 409 and "the last move is player 2's" in r.json()["error"]
        assert c.post(apis[1] + "/undo").status_code == 200
        assert c.get(apis[0]).json()["moves"] == 1

    # Stored: a server started again on the file has the undo switched on and the move taken back.
    with client(variants, db) as c:
        view = c.get(apis[1]).json()
        assert view["moves"] == 1 and view["undo"] == {"allowed": True, "now": False}
        assert view["state"] == game_after(module, 7, [game.history[0]]).observation(1)
        assert c.post(apis[0] + "/undo").status_code == 200
        assert c.get(apis[0]).json()["moves"] == 0
        r = c.post(made["host"] + "/undo", data={"undo": "off"})
        assert r.status_code == 200 and "Undo is off" in r.text
        play(c, apis, module.new_game(2, seed=7), module.new_game(2, seed=7).legal_actions()[0])
        assert c.post(apis[0] + "/undo").status_code == 403


def game_after(module, seed: int, actions: list[int]):
    game = module.new_game(2, seed=seed)
    for a in actions:
        game.apply(a)
    return game


def test_an_undo_after_the_game_is_over_is_refused(variants, db):
    module = engine(variants)
    with client(variants, db) as c:
        made = new_table(c, seed=4)
        apis = [api_of(s["link"]) for s in made["seats"]]
        c.post(made["host"] + "/undo", data={"undo": "on"})
        game = play_to_the_end(c, module, apis, 4)
        last = c.get(apis[0]).json()["log"][-1]["seat"]
        assert len(game.history) == c.get(apis[0]).json()["moves"]
        r = c.post(apis[last] + "/undo")
        assert (r.status_code, r.json()["error"]) == (409, "the game is over: its moves stand")


def test_a_component_step_names_the_zone_its_choice_is_made_in():
    """The board highlights a city to claim in the zone the spec chooses it from (labels' sources)."""
    cities = catalogue.load([str(ROOT / "variants" / "cities.yaml")])["cities"]
    words = views.labels(cities.rules, cities.module, "en")
    assert words["sources"] == {"claim_city": "city_display"}
    assert words["decisions"]["claim_city"] == "Claim a city"
    claims = [a for a in views.meta(cities.module)["actions"] if a["rule"] == "claim_city"]
    assert [a["component"] for a in claims] == [0, 1, 2]  # a place of the display, as the engine numbers it


def test_a_move_that_also_gives_tokens_gets_no_payment_figure(variants):
    """moves._spent: the difference of a move that gave the seat a token is not a payment."""
    colours = engine(variants).COLOURS
    assert moves._spent([1, 2, 0, 0, 0, 1], [0, 2, 0, 0, 0, 0], colours) == {"white": 1, "gold": 1}
    assert moves._spent([1, 2, 0, 0, 0, 1], [0, 3, 0, 0, 0, 1], colours) is None


def test_every_message_of_the_board_is_in_every_language_with_the_same_fields():
    """web/locales: each English key (a plural family by its stem) in fr, nl and sr, with the same
    {fields}; a page in French reads them in French."""
    from web import i18n

    stem = re.compile(r"\.(one|few|other)$")
    english = i18n.catalogue("en")
    for lang in ("fr", "nl", "sr"):
        own = i18n.catalogue(lang)  # its file's, and the sheets' words it takes (i18n.FROM_SHEETS)
        assert {stem.sub("", k) for k in own} == {stem.sub("", k) for k in english}, lang
        for key, text in own.items():
            twin = english.get(key) or english[stem.sub("", key) + ".other"]
            assert set(i18n.FIELD.findall(text)) == set(i18n.FIELD.findall(twin)), (lang, key)
    assert i18n.message("fr", "move.confirm", {"move": "buy 1.1"}) == "Jouer : buy 1.1"
    assert i18n.message("en", "choice.you_hold", {"n": 1}) == "You hold 1 token:"
    assert i18n.message("en", "choice.you_hold", {"n": 12}) == "You hold 12 tokens:"
    assert i18n.message("sr", "choice.you_hold", {"n": 3}) == "Имате 3 жетона:"  # Serbian's "few"
    assert i18n.message("fr", "choice.you_hold", {"n": 0}) == "Vous avez 0 jeton :"  # French's "one" takes 0
