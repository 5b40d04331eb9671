"""The base game's components as zones a spec names (issue 28 item 1): `place:` in `zones` names the
purchased cards, the reserved cards, the visiting nobles or the noble row, and every zone construct
reaches it.

Spec -> diagnostics (a base kind without a place, a place of another kind or shape, one named twice,
one given what the base game lays out, a card of a place handed to a base effect: each located),
spec -> engine behaviour on tests/specs/base-zones.yaml (a purchased card sacrificed takes its bonus
and points away and is out of the game in the saved state, a blind reserve given up, a noble of the
row invited to visit, the condition filtering the choice), and spec -> sheet and diff text."""

from __future__ import annotations

import json
import pathlib
import random
import urllib.parse

import pytest
from click.testing import CliRunner

from app import cli
from compiler import pipeline
from compiler.diagnostics import CompileError, SourceMap
from compiler.diff import compare, render
from playtest import rl, terminal
from tests.helpers.engines import ROOT, give_card, give_noble, load, load_engine, position, set_noble_row
from tests.helpers.web import client as web_client
from web import catalogue
from web.views import extras

SPEC = ROOT / "tests" / "specs" / "base-zones.yaml"
TEXT = SPEC.read_text(encoding="utf-8")
TABLEAU = "    per_player: true\n    place: purchased\n"


@pytest.fixture(scope="module")
def engine(tmp_path_factory):
    path = tmp_path_factory.mktemp("base_zones") / "base_zones.py"
    path.write_text(pipeline.compile_spec(str(SPEC)).text, encoding="utf-8")
    return load_engine(path)


def diagnostics(tmp_path: pathlib.Path, *changes: tuple[str, str]):
    """The diagnostics of the test spec with `changes` made: (code, line, message, the text under the
    caret), or the rules when it is clean."""
    text = TEXT
    for old, new in changes:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    path = tmp_path / "specs" / "spec.yaml"
    path.parent.mkdir(exist_ok=True)
    path.write_text(text, encoding="utf-8")
    lines = text.split("\n")
    try:
        return pipeline.load_rules(str(path), SourceMap())
    except CompileError as err:
        return [
            (d.code, d.span.line, d.message, lines[d.span.line - 1][d.span.col - 1 : d.span.end_col - 1])
            for d in err.diagnostics
        ]


# --------------------------------------------------------------------------- spec -> diagnostics


@pytest.mark.parametrize(
    "old, new, code, caret, says",
    [
        (
            "    shape: row\n    place: noble_row\n",
            "    shape: row\n",
            "E541",
            "nobles",
            "names no place of the base game",
        ),
        (TABLEAU + "  hand:", TABLEAU + "    start: all\n  hand:", "E541", "start", "lays out place 'purchased'"),
        ("    place: noble_row\n", "    place: noble_row\n    size: 3\n", "E541", "size", "lays out place 'noble_row'"),
        (
            "    holds: cards\n    shape: holding\n    per_player: true\n    place: purchased\n",
            "    holds: nobles\n    shape: holding\n    per_player: true\n    place: purchased\n",
            "E541",
            "nobles",
            "holds the cards, not 'nobles'",
        ),
        (
            "    shape: row\n    place: noble_row\n",
            "    shape: holding\n    place: noble_row\n",
            "E541",
            "holding",
            "is a shared row of nobles",
        ),
        ("    place: reserved\n", "    place: purchased\n", "E541", "purchased", "already zone 'tableau'"),
        (
            '"discard(card)", "take(gold, 1)", "add',
            '"refill(card)", "take(gold, 1)", "add',
            "E410",
            "card",
            "needs a face-up card",
        ),
    ],
)
def test_a_place_that_does_not_fit_is_refused_where_it_is_written(tmp_path, old, new, code, caret, says):
    found = diagnostics(tmp_path, (old, new))
    assert isinstance(found, list) and len(found) == 1, found
    ((got, _, message, under),) = found
    assert got == code and says in message and under == caret, found


def test_a_base_noble_is_not_a_component_of_a_place(tmp_path):
    found = diagnostics(tmp_path, ("      noble: {domain: component, from: court}\n", "      noble: noble\n"))
    assert isinstance(found, list) and [(c, m, u) for c, _, m, u in found] == [
        ("E410", "'move' needs a component of a zone here, but this is a noble", "noble")
    ], found


def test_the_test_spec_checks_clean_and_its_places_are_the_base_games():
    rules = pipeline.load_rules(str(SPEC), SourceMap())
    assert [(z.name, z.place, z.holds, z.per_player, z.private_when_drawn) for z in rules.zones] == [
        ("tableau", "purchased", "cards", True, False),
        ("hand", "reserved", "cards", True, True),
        ("guests", "visiting", "nobles", True, False),
        ("court", "noble_row", "nobles", False, False),
        ("box", "noble_box", "nobles", False, False),
    ]
    assert dict(rules.zones[3].sizes) == {p.players: p.nobles for p in rules.players}


def test_a_set_of_nobles_keeps_nobles_and_a_card_keys_by_card_from_any_place(tmp_path):
    found = diagnostics(
        tmp_path,
        ('"insert(me.marked, card)", "add(marks[card], 1)"', '"insert(me.marked, red)", "add(marks[gold], 1)"'),
    )
    assert isinstance(found, list) and [(c, m, u) for c, _, m, u in found] == [
        ("E545", "'insert' puts into 'me.marked' a gem colour, but it holds cards", "red"),
        ("E410", "this table is indexed by a card, not by a token colour", "gold"),
    ], found


# --------------------------------------------------------------------------- spec -> engine


def _cards(E, level: int, points: int | None = None, bonus: int | None = None) -> list[int]:
    """The ids of the cards of a level (with these points, of this bonus: an index in GEMS)."""
    return [
        c
        for c in range(len(E.CARDS))
        if E.CARD_LEVEL[c] == level and points in (None, E.CARD_POINTS[c]) and bonus in (None, E.CARD_BONUS[c])
    ]


def test_a_sacrificed_card_takes_its_bonus_and_points_away_and_is_out_of_the_game(engine):
    E = engine
    state = position(E, 2)
    free, scoring = _cards(E, 1, points=0)[:3], _cards(E, 1, points=1)[0]
    give_card(E, state, 0, *free, scoring)
    game = load(E, state)
    offered = [E.action_to_string(a) for a in game.legal_actions() if E.action_to_string(a).startswith("sacrifice")]
    assert offered == ["sacrifice 1", "sacrifice 2", "sacrifice 3"]  # the condition filters the scoring card out
    bonus, points = list(game._bon[0]), game._pts[0]
    game.apply(E.string_to_action("sacrifice 2"))
    saved = json.loads(game.to_json())
    gone = free[1]
    assert saved["seats"][0]["purchased"] == [free[0], free[2], scoring]
    assert game._bon[0][E.CARD_BONUS[gone]] == bonus[E.CARD_BONUS[gone]] - 1 and game._pts[0] == points
    assert saved["seats"][0]["tokens"]["gold"] == 1
    assert gone in saved["out_of_play"][str(E.CARD_LEVEL[gone])]
    # saved where the base game saves them; the nobles' box (the base game drops it) as a zone of the spec's
    assert set(saved["zones"]) == {"box"} and saved["seats"][0]["zones"] == {}
    assert E.from_json(game.to_json()).to_json() == game.to_json()


def test_a_blind_reserve_given_up_leaves_its_owners_secret(engine):
    E = engine
    game = E.new_game(2, seed=3)
    game.apply(E.string_to_action("reserve deck 1"))
    card = game._res[0][0]
    assert game.blind[0] == [card]
    game.apply(game.legal_actions()[0])  # the other seat's turn
    while game.current_player != 0:
        game.apply(game.legal_actions()[0])
    assert game.observation(1)["seats"][0]["reserved"] == [None]
    assert "give up 1" in [E.action_to_string(a) for a in game.legal_actions()]
    game.apply(E.string_to_action("give up 1"))
    assert game._res[0] == [] and game.blind[0] == [] and card in game.out_of_play[0]


def test_a_noble_invited_from_the_row_visits_and_scores(engine):
    E = engine
    state = position(E, 3)
    set_noble_row(state, [0, 1, 2])
    give_noble(state, 1, 3)
    state["zones"]["box"] = [9, 8, 7, 6, 5, 4]  # the others, top first
    # two cards of each colour, so that every noble (at most 4 of a colour) is within 2 of the bonuses
    give_card(E, state, 0, *(c for g in range(len(E.GEMS)) for c in _cards(E, 2, bonus=g)[:2]))
    game = load(E, state)
    invite = [E.action_to_string(a) for a in game.legal_actions() if E.action_to_string(a).startswith("invite")]
    assert invite == ["invite 1", "invite 2", "invite 3"]
    before = game._pts[0]
    game.apply(E.string_to_action("invite 3"))
    assert game.noble_row == [0, 1, 9] and game._nob[0] == [2]  # the row refilled from the box
    assert game.z_box == [4, 5, 6, 7, 8]
    assert game._pts[0] == before + E.NOBLE_POINTS[2]
    assert E.from_json(game.to_json()).to_json() == game.to_json()


def test_random_games_keep_every_count_and_reload(engine):
    E = engine
    seen: set[str] = set()
    for seed in range(4):
        game = E.new_game(2 + seed % 3, seed=seed)
        rng = random.Random(seed)
        while not game.is_over():
            legal = game.legal_actions()
            words = {a: E.action_to_string(a).split()[0] for a in legal}
            new = [a for a in legal if words[a] in ("sacrifice", "give", "invite")]
            action = rng.choice(new) if new and rng.random() < 0.6 else rng.choice(legal)
            seen.add(words[action])
            game.apply(action)
            for p in range(game.num_players):
                cards, nobles = game._bought[p], game._nob[p]
                assert game._pts[p] == sum(E.CARD_POINTS[c] for c in cards) + sum(E.NOBLE_POINTS[x] for x in nobles)
                assert sorted(game._bon[p]) == sorted(sum(E.CARD_BONUS[c] == g for c in cards) for g in range(5))
        assert E.from_json(game.to_json()).to_json() == game.to_json()
    assert {"sacrifice", "give"} <= seen


def _invoke(*args: str) -> str:
    result = CliRunner().invoke(cli.main, list(args))
    assert result.exit_code == 0, result.output
    return result.output


def test_every_tool_takes_the_spec(tmp_path, monkeypatch):
    monkeypatch.setenv("SPLENDOR_RULES_CACHE", str(tmp_path / "cache"))
    _invoke("compile", str(SPEC), "-o", str(tmp_path))
    module = tmp_path / "base_zones.py"
    record = tmp_path / "games.jsonl"
    for bots in ("random", "greedy", "mcts:4"):
        _invoke("simulate", str(module), "--games", "1", "--bots", bots, "--seed", "1",
                "--max-turns", "30", "--jobs", "1", "--games-out", str(record))  # fmt: skip
    _invoke("play", str(module), "--replay", str(record), "--game", "0")
    result = CliRunner().invoke(cli.main, ["diff", "official", str(SPEC)])
    assert result.exit_code == 1 and "the place of the base game it is: purchased" in result.output
    _invoke("sheet", str(SPEC), "--lang", "en,fr,nl,sr", "--format", "md", "-o", str(tmp_path))
    english = (tmp_path / "base-zones.en.md").read_text(encoding="utf-8")
    assert "you have purchased 3 or more development cards" in english  # the place, as the base game says it
    assert "Put a noble in your “Visiting nobles”" in english
    assert "the rest form the pile “Nobles' box”, face down" in english
    french = (tmp_path / "base-zones.fr.md").read_text(encoding="utf-8")
    assert "vous avez acheté 3 cartes Développement ou plus" in french
    env = rl.SplendorEnv(str(module), opponents="random", max_turns=20)
    _, info = env.reset(seed=1)
    env.step(int(info["action_mask"].nonzero()[0][0]))


def test_the_web_table_plays_the_spec(tmp_path):
    with web_client(catalogue.load([str(SPEC)]), str(tmp_path / "tables.sqlite3")) as client:
        made = client.post("/api/tables", json={"spec": "base-zones", "players": 2, "seats": ["human", "human"]})
        assert made.status_code == 201, made.text
        link = made.json()["seats"][0]["link"]
        api = "/api/tables/{}/seats/{}/{}".format(*urllib.parse.urlparse(link).path.split("/")[2:])
        legal = client.get(api).json()["legal"]
        assert client.post(api + "/actions", json={"action": legal[0]}).status_code < 400
        assert client.get("/rules/base-zones/fr").status_code == 200


def test_diff_says_which_place_a_zone_is():
    official = pipeline.load_rules(str(ROOT / "rulespec" / "official.yaml"), SourceMap())
    changed = pipeline.load_rules(str(SPEC), SourceMap())
    text = render(compare(official, changed), official, changed, "en")
    assert "the place of the base game it is: purchased" in text
    assert "the place of the base game it is: noble_row" in text


def test_the_rl_observation_and_the_web_table_read_the_places_as_the_base_games(engine):
    E = engine
    encoder = rl.Encoder(E, 2)
    game = E.new_game(2, seed=5)
    for _ in range(12):
        game.apply(random.Random(len(game.history)).choice(game.legal_actions()))
    vector = encoder.encode(game.observation(0))
    assert vector.shape == (encoder.size,) and encoder.space().contains(vector)
    assert [z.name for z in encoder.zones] == ["box"]  # the other places are the base game's part of the vector
    assert [z["name"] for z in extras(E)["zones"]] == ["box"]


def test_a_card_marked_face_up_is_remembered_by_card_after_it_is_bought(engine):
    E = engine
    game = E.new_game(2, seed=7)
    card = game.market[0][1]
    game.apply(E.string_to_action("mark 1.2"))
    saved = json.loads(game.to_json())
    assert saved["seats"][0]["vars"]["marked"] == [card] and saved["vars"]["marks"][card] == 1
    assert "mark 1.2" not in [E.action_to_string(a) for a in game.legal_actions()]  # the other seat: marked once
    state = position(E, 2)
    card, *free = _cards(E, 1, points=0)[:3]
    give_card(E, state, 0, card, *free)
    state["seats"][0]["vars"]["marked"] = [card]
    state["vars"]["marks"][card] = 1
    game = load(E, state)
    game.apply(E.string_to_action("sacrifice 1"))  # the card of the purchased cards keys the same entry
    saved = json.loads(game.to_json())
    assert saved["vars"]["marks"][card] == 3 and saved["seats"][0]["vars"]["marked"] == []


def test_the_terminal_board_numbers_the_purchased_cards_as_a_choice_names_them(engine):
    E = engine
    state = position(E, 2)
    card, *free = _cards(E, 1, points=0)[:3]
    give_card(E, state, 0, card, *free)
    game = load(E, state)
    text = terminal.draw_board(E, game, ["human", "random"], 0)
    assert f"tableau   1) level 1  bonus {E.GEMS[E.CARD_BONUS[card]]}  points 0" in text
    assert "3) level 1" in text and "sacrifice 3" in terminal.draw_actions(E, game.legal_actions())


def test_the_nobles_box_holds_the_nobles_the_deal_did_not_reveal_and_a_state_without_one_is_refused(engine):
    E = engine
    game = E.new_game(3, seed=4)
    assert sorted(game.noble_row + game.z_box) == list(range(len(E.NOBLES))) and len(game.noble_row) == 4
    saved = json.loads(game.to_json())
    assert saved["zones"]["box"] == game.z_box[::-1]  # a pile: its top first
    saved["zones"]["box"] = saved["zones"]["box"][1:]
    with pytest.raises(E.StateError, match="9 nobles are in play, the game has 10"):
        E.from_json(json.dumps(saved))
    saved["zones"]["box"] = [game.noble_row[0], *game.z_box]
    with pytest.raises(E.StateError, match="a noble appears more than once"):
        E.from_json(json.dumps(saved))
    assert game.observation(1)["zones"]["box"] == len(game.z_box)  # face down: its count only
