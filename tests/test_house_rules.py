"""House rules written with the spec language's setup (and, later, state): their engines'
behaviour, read from the generated engines of the catalogue."""

from __future__ import annotations

import json
import random

import pytest

from tests.helpers.engines import ROOT, load_engine

ENGINES = ROOT / "generated" / "engines"
GOLD = 5  # index of the wild colour in COLOURS


@pytest.fixture(scope="module")
def official():
    return load_engine(ENGINES / "official.py")


@pytest.fixture(scope="module")
def head_start():
    return load_engine(ENGINES / "head_start.py")


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", [1, 7, 2024])
def test_head_start_deals_as_official_then_gives_each_seat_gold_and_a_blind_level_1_card(
    official, head_start, players, seed
):
    base, game = official.new_game(players, seed), head_start.new_game(players, seed)
    assert game.market == base.market and game.noble_row == base.noble_row
    top = base.decks[0][::-1]  # the top of a deck is the end of its list
    for p in range(players):
        assert game.reserved[p] == [top[p]]  # seat p drew after seats 0..p-1, in seat order
        assert game.blind[p] == [top[p]]
        assert game.tokens[p][GOLD] == 1 and sum(game.tokens[p]) == 1
    assert game.decks[0] == base.decks[0][: len(base.decks[0]) - players]
    assert game.decks[1:] == base.decks[1:]
    assert game.supply[GOLD] == base.supply[GOLD] - players
    assert game.supply[:GOLD] == base.supply[:GOLD]
    assert game.current_player == 0 and game.legal_actions()


def test_head_start_four_players_leaves_one_gold_and_32_level_1_cards(head_start):
    game = head_start.new_game(4, 3)
    assert game.supply[GOLD] == 1 and len(game.decks[0]) == 32


def test_head_start_hides_blind_reserves_from_other_seats_and_saves_as_version_1(head_start):
    game = head_start.new_game(4, 11)
    seen = game.observation(1)
    assert seen["seats"][0]["reserved"] == [None] and seen["seats"][0]["blind"] == [1]
    assert seen["seats"][1]["reserved"] == game.reserved[1]
    data = json.loads(game.to_json())
    assert data["version"] == 1
    again = head_start.from_json(game.to_json())
    assert again.to_json() == game.to_json()


def test_head_start_replays_a_random_game(head_start):
    game, rng = head_start.new_game(3, 5), random.Random(5)
    for _ in range(60):
        if game.is_over():
            break
        game.apply(rng.choice(game.legal_actions()))
    assert head_start.replay(game.record()).to_json() == game.to_json()


def test_head_start_reserves_count_against_the_hand(head_start):
    """A head start fills one of the three places of the hand: two more reserves, not three."""
    game = head_start.new_game(2, 1)
    reserve = [a for a in game.legal_actions() if head_start.ACTION_STRINGS[a].startswith("reserve")]
    assert reserve
    for _ in range(2):
        game.apply(next(a for a in game.legal_actions() if head_start.ACTION_STRINGS[a].startswith("reserve")))
        while game.current_player != 0:
            game.apply(game.legal_actions()[0])
    assert len(game.reserved[0]) == 3
    assert not [a for a in game.legal_actions() if head_start.ACTION_STRINGS[a].startswith("reserve")]
