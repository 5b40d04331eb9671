"""The Strongholds (variants/strongholds.yaml, Cities of Splendor): each rule and each reading of
../shared/expansions/README.md ("The Strongholds") played on the generated engine, from positions
built with from_json: the placement after each purchase (from the supply, moved, or an opponent's
sent back), the cards only their owner may buy or reserve, the strongholds coming back, the blind
reserve left alone, and the conquest (optional, paid as usual, before the token limit, once a turn,
followed by its own placement). The language feature the module needed, an optional face-up
choice, is tested with its diagnostics in tests/test_optional_face_up.py."""

from __future__ import annotations

import json
import re

import pytest

from tests.helpers.engines import (
    ROOT,
    act,
    find_cards,
    legal_strings,
    load,
    load_engine,
    pay_for,
    position,
    put_in_market,
    set_tokens,
)

THREE = 3  # strongholds per player (the module's `strongholds` value, read from the spec below)


@pytest.fixture(scope="module")
def sh():
    return load_engine(ROOT / "generated" / "engines" / "strongholds.py")


def test_the_spec_gives_each_player_three_strongholds(sh):
    from compiler.pipeline import load_rules

    rules = load_rules(str(ROOT / "variants" / "strongholds.yaml"))
    assert {v.name: v.value for v in rules.values}["strongholds"] == THREE
    state = position(sh, 3)
    assert sum(state["vars"]["forts"]) == 0  # every player's three in their supply


def card_at(state: dict, level: int, slot: int) -> int:
    return state["market"][str(level)][slot - 1]


def forts(state_or_game, seat: int) -> dict[int, int]:
    """Where a seat's strongholds stand: {card: how many} (a card's strongholds, and whose they are)."""
    state = state_or_game if isinstance(state_or_game, dict) else json.loads(state_or_game.to_json())
    held = zip(state["vars"]["forts"], state["vars"]["holder"], strict=True)
    return {card: n for card, (n, owner) in enumerate(held) if n and owner == seat}


def garrison(game, seat: int) -> int:
    """A seat's strongholds in its supply: those on no card."""
    return THREE - sum(forts(game, seat).values())


def stand(state: dict, seat: int, card: int, n: int = 1) -> dict:
    """Stand `n` of a seat's strongholds (from its supply) on `card`."""
    assert state["vars"]["forts"][card] == 0 or state["vars"]["holder"][card] == seat
    state["vars"]["forts"][card] += n
    state["vars"]["holder"][card] = seat
    return state


def affordable(sh, state: dict, level: int = 1, slot: int = 1) -> dict:
    """A cheap card of `level` shown at `slot`, seat 0 holding exactly its price."""
    card = find_cards(sh, state, 1, where="deck", level=level, cost=lambda cost: sum(cost.values()) <= 4)[0]
    put_in_market(sh, state, card, slot)
    set_tokens(state, 0)
    pay_for(sh, state, 0, card)
    return state


# --------------------------------------------------------------------------- the placement


def test_a_purchase_asks_for_a_stronghold_from_the_supply(sh):
    state = affordable(sh, position(sh, 2))
    target = card_at(state, 2, 3)
    game = load(sh, state)
    act(game, "buy 1.1")
    assert game.phase == "fortify" and game.current_player == 0
    assert "fort 2.3" in legal_strings(game)
    act(game, "fort 2.3")
    assert forts(game, 0) == {target: 1} and garrison(game, 0) == THREE - 1


def test_a_stronghold_may_join_the_players_own_and_be_moved_from_another_card(sh):
    state = affordable(sh, position(sh, 2))
    first, second = card_at(state, 2, 1), card_at(state, 3, 4)
    game = load(sh, stand(state, 0, first))
    act(game, "buy 1.1")
    legal = legal_strings(game)
    assert {"fort 2.1", "fort 3.4 from 2.1", "fort 3.4"} <= set(legal)
    assert "fort 2.1 from 2.1" not in legal  # a move goes to another card
    act(game, "fort 3.4 from 2.1")
    assert forts(game, 0) == {second: 1} and garrison(game, 0) == THREE - 1


def test_a_player_may_send_an_opponents_stronghold_back_but_not_stand_beside_it(sh):
    state = affordable(sh, position(sh, 2))
    theirs = card_at(state, 2, 2)
    game = load(sh, stand(state, 1, theirs, 2))
    act(game, "buy 1.1")
    legal = legal_strings(game)
    assert "fort 2.2" in legal and not any(s.startswith("fort 2.2 from") for s in legal)
    act(game, "fort 2.2")
    assert forts(game, 1) == {theirs: 1} and garrison(game, 1) == THREE - 1  # one sent back
    assert forts(game, 0) == {} and garrison(game, 0) == THREE


def test_with_no_card_to_place_on_and_none_to_send_back_the_placement_is_skipped(sh):
    state = affordable(sh, position(sh, 2))
    for level, row in state["market"].items():  # the last face-up card, every deck empty
        for slot, card in enumerate(row):
            if (level, slot) != ("1", 0):
                state["seats"][1]["purchased"].append(card)
                row[slot] = None
        state["seats"][1]["purchased"] += state["decks"][level]
        state["decks"][level] = []
    game = load(sh, state)
    act(game, "buy 1.1")
    assert game.current_player == 1 and game.phase == "action" and forts(game, 0) == {}


def test_the_card_revealed_by_the_refill_cannot_take_the_stronghold(sh):
    """Placed before the slot is refilled, as the module says (the refill is queued after the placement):
    the slot is empty while the player places, so the card that replaces the bought one is not a choice."""
    state = affordable(sh, position(sh, 2))
    top = state["decks"]["1"][0]
    game = load(sh, state)
    act(game, "buy 1.1")
    assert game.phase == "fortify" and json.loads(game.to_json())["market"]["1"][0] is None
    legal = legal_strings(game)
    assert not any(s.split()[1] == "1.1" for s in legal)
    assert {"fort 1.2", "fort 1.3", "fort 1.4", "fort 2.1"} <= set(legal)
    act(game, "fort 1.2")
    assert json.loads(game.to_json())["market"]["1"][0] == top  # then refilled from its deck


def test_buying_a_reserved_card_is_a_purchase_too(sh):
    state = position(sh, 2)
    card = find_cards(sh, state, 1, where="deck", level=1)[0]
    state["decks"]["1"].remove(card)
    state["seats"][0]["reserved"] = [card]
    set_tokens(state, 0)
    pay_for(sh, state, 0, card)
    game = load(sh, state)
    act(game, "buy reserved 1")
    assert game.phase == "fortify"
    assert "fort 1.1" in legal_strings(game)  # no slot was emptied: every face-up card may take it


# --------------------------------------------------------------------------- the owner's cards


def test_a_card_with_a_stronghold_is_bought_or_reserved_by_its_owner_only(sh):
    state = affordable(sh, position(sh, 2))
    card = card_at(state, 1, 1)
    blocked = load(sh, stand(json.loads(json.dumps(state)), 1, card))
    assert not {"buy 1.1", "reserve 1.1"} & set(legal_strings(blocked))
    mine = load(sh, stand(state, 0, card))
    assert {"buy 1.1", "reserve 1.1"} <= set(legal_strings(mine))


def owner(game, card: int):
    return json.loads(game.to_json())["vars"]["holder"][card]


def test_a_card_whose_last_stronghold_leaves_has_no_owner_any_more(sh):
    """Moved away, sent back, bought or reserved: a card with no stronghold belongs to nobody (the
    board and the observation said "owner: player 1" of an empty card before)."""
    state = affordable(sh, position(sh, 2))
    first, second = card_at(state, 2, 1), card_at(state, 3, 4)
    game = load(sh, stand(state, 0, first))
    act(game, "buy 1.1")
    act(game, "fort 3.4 from 2.1")  # moved away
    assert (owner(game, first), owner(game, second)) == (None, 0)

    state = affordable(sh, position(sh, 2))
    theirs = card_at(state, 2, 2)
    game = load(sh, stand(state, 1, theirs))
    act(game, "buy 1.1")
    act(game, "fort 2.2")  # sent back
    assert owner(game, theirs) is None

    for move in ("buy 1.1", "reserve 1.1"):  # its owner's, back when they take the card
        state = affordable(sh, position(sh, 2))
        card = card_at(state, 1, 1)
        game = load(sh, stand(state, 0, card, 2))
        act(game, move)
        assert owner(game, card) is None


def test_the_owners_strongholds_come_back_when_they_buy_the_card(sh):
    state = affordable(sh, position(sh, 2))
    card = card_at(state, 1, 1)
    game = load(sh, stand(state, 0, card, 2))
    act(game, "buy 1.1")
    assert forts(game, 0) == {} and garrison(game, 0) == THREE  # back before the placement
    act(game, "fort 2.1")
    assert garrison(game, 0) == THREE - 1


def test_the_owners_strongholds_come_back_when_they_reserve_the_card(sh):
    state = position(sh, 2)
    card = card_at(state, 2, 2)
    game = load(sh, stand(state, 0, card, 2))
    act(game, "reserve 2.2")
    assert forts(game, 0) == {} and garrison(game, 0) == THREE
    assert game.current_player == 1  # a reserve is no purchase: no placement


def test_a_blind_reserve_is_not_affected(sh):
    state = position(sh, 2)
    theirs = card_at(state, 1, 1)
    game = load(sh, stand(state, 1, theirs, 3))
    assert "reserve deck 1" in legal_strings(game)
    act(game, "reserve deck 1")
    assert game.current_player == 1 and forts(game, 1) == {theirs: 3}


# --------------------------------------------------------------------------- the conquest


def conquest_position(sh) -> tuple[dict, int]:
    """Seat 0 with all three strongholds on card 2.1 and exactly its price (4 to 6 tokens)."""
    state = position(sh, 2)
    card = find_cards(sh, state, 1, where="deck", level=2, cost=lambda cost: 4 <= sum(cost.values()) <= 6)[0]
    put_in_market(sh, state, card, 1)
    set_tokens(state, 0)
    pay_for(sh, state, 0, card)
    return stand(state, 0, card, THREE), card


def take_three(state: dict) -> str:
    """Taking three tokens of the colours the supply has most of."""
    gems = [c for c in state["supply"] if c != "gold"]
    picked = sorted(gems, key=lambda c: -state["supply"][c])[:3]
    return "take " + " ".join(c for c in gems if c in picked)


def purchased(game, seat: int) -> list[int]:
    return json.loads(game.to_json())["seats"][seat]["purchased"]


def test_a_player_with_all_three_strongholds_on_a_card_may_conquer_it_after_their_action(sh):
    state, card = conquest_position(sh)
    game = load(sh, state)
    act(game, take_three(state))  # the action first
    assert game.phase == "conquest"
    assert set(legal_strings(game)) == {"conquest", "conquest 2.1"}
    act(game, "conquest 2.1")
    assert card in purchased(game, 0)
    assert sum(json.loads(game.to_json())["seats"][0]["tokens"].values()) == 3  # paid as usual
    assert game.phase == "fortify"  # a purchase: the placement again, strongholds back first
    assert garrison(game, 0) == THREE and forts(game, 0) == {}
    assert not any(s.split()[1] == "2.1" for s in legal_strings(game))  # nor on the card revealed


def test_a_conquest_may_be_declined(sh):
    state, card = conquest_position(sh)
    game = load(sh, state)
    act(game, take_three(state))
    act(game, "conquest")
    assert game.current_player == 1 and forts(game, 0) == {card: THREE} and card not in purchased(game, 0)


def test_no_conquest_without_all_three_strongholds_or_the_price(sh):
    state, card = conquest_position(sh)
    game = load(sh, stand(json.loads(json.dumps(state)), 0, card, -1))
    act(game, take_three(state))
    assert game.current_player == 1  # only "no conquest" was legal: taken without asking
    set_tokens(state, 0)
    game = load(sh, state)
    act(game, "reserve deck 3")  # one gold: short of the price
    assert game.current_player == 1


def fill_hand(state: dict, seat: int, up_to: int, keep: str) -> dict:
    """Give a seat tokens from the supply until it holds `up_to`, leaving 1 of each colour of `keep`."""
    for colour in [c for c in state["supply"] if c != "gold"]:
        room = up_to - sum(state["seats"][seat]["tokens"].values())
        give = min(room, state["supply"][colour] - (1 if colour in keep.split() else 0))
        if give > 0:
            state["seats"][seat]["tokens"][colour] += give
            state["supply"][colour] -= give
    assert sum(state["seats"][seat]["tokens"].values()) == up_to
    return state


@pytest.mark.parametrize("conquer", [True, False])
def test_the_conquest_comes_before_the_token_limit(sh, conquer):
    state, card = conquest_position(sh)
    taking = take_three(state)
    game = load(sh, fill_hand(state, 0, 10, taking))
    act(game, taking)  # 13 tokens: 3 over the limit, and the card costs 4 to 6
    assert game.phase == "conquest"
    options = [s for s in legal_strings(game) if s.startswith("conquest 2.1")] if conquer else ["conquest"]
    act(game, options[0])
    while game.phase == "payment":
        game.apply(game.legal_actions()[0])
    if conquer:
        assert game.phase == "fortify"
        act(game, legal_strings(game)[0])  # its placement, then the limit: nothing to return
        assert card in purchased(game, 0)
    assert (game.phase == "return_tokens") is not conquer


def test_at_most_one_conquest_a_turn(sh):
    state, card = conquest_position(sh)
    other = find_cards(sh, state, 1, where="deck", level=1, cost=lambda cost: sum(cost.values()) <= 3)[0]
    put_in_market(sh, state, other, 2)
    pay_for(sh, state, 0, other)  # the price of both cards
    stand(state, 0, other, THREE)  # (more than a player has: the limit alone decides)
    game = load(sh, state)
    act(game, take_three(state))
    assert {"conquest 1.2", "conquest 2.1"} <= set(legal_strings(game))
    act(game, "conquest 2.1")
    while game.phase == "payment":
        game.apply(game.legal_actions()[0])
    act(game, "fort 3.1 from 1.2")  # its placement (none left in the supply in this position)
    assert card in purchased(game, 0) and other not in purchased(game, 0)
    assert game.phase != "conquest" and game.current_player == 1


# --------------------------------------------------------------------------- spec -> sheet


@pytest.mark.parametrize(
    ("lang", "conquest"),
    [("en", "Conquest"), ("fr", "Conquête"), ("nl", "Verovering"), ("sr", "Освајање")],
)
def test_the_sheet_tells_the_module_without_a_table_of_the_base_cards(lang, conquest):
    """The strongholds are keyed by the base cards, which the players have in hand: no 90-row table of
    them on the sheet (a kind of the spec's own reached by a rule gets one: tests/test_trading_posts.py)."""
    from compiler.pipeline import load_rules
    from compiler.sheets import content, render

    rules = load_rules(str(ROOT / "variants" / "strongholds.yaml"))
    text = render.markdown(content.build(rules, lang, load_rules(rules.bases[0].path)), rules)
    assert f"**{conquest}**" in text
    assert not re.search(r"^\| 1 \| \w+ \| 0 \| 0 \| 0 \| 0 \| 2 \| 1 \|$", text, re.M)  # the first card's row
