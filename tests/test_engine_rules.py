"""One scenario per rule of the official spec, run on the generated engine.

Every position is set up through ``from_json`` (see tests/helpers/engines.py); every rule
number comes from rulespec/official.yaml. Sections follow the spec: taking tokens,
reserving, buying, the token limit, nobles, the end of the game, passing.
"""

from __future__ import annotations

import collections
import itertools
import re

import pytest

import tests.helpers.engines as H


@pytest.fixture(scope="module")
def E():
    return H.official_engine()


@pytest.fixture(scope="module")
def rules():
    return H.official_rules()


@pytest.fixture(scope="module")
def V(rules):
    return H.values(rules)


def assert_illegal(game, action, *fragments: str) -> str:
    """`action` raises IllegalAction naming one of `fragments`, and leaves the game as it was."""
    E = H.module_of(game)
    a = E.string_to_action(action) if isinstance(action, str) else action
    before, legal = game.to_json(), game.legal_actions()
    assert a not in legal, f"{action!r} is legal here"
    with pytest.raises(E.IllegalAction) as info:
        game.apply(a)
    assert game.to_json() == before, f"refusing {action!r} changed the state"
    assert game.legal_actions() == legal
    message = str(info.value)
    assert message.strip(), "IllegalAction has an empty message"
    if fragments:
        assert any(f.lower() in message.lower() for f in fragments), (
            f"IllegalAction for {action!r} should name the failed condition (one of {fragments}); got: {message}"
        )
    return message


def tokens(state, seat):
    return dict(state["seats"][seat]["tokens"])


def delta(before: dict, after: dict) -> dict:
    return {k: after[k] - before[k] for k in before if after[k] != before[k]}


# =========================================================================== taking tokens


def test_take_three_different_colours(E, V):
    g = H.load(E, H.position(E, 2))
    takes = {H.take_colours(s) for s in H.legal_strings(g)} - {None}
    assert takes == {frozenset(c) for c in itertools.combinations(E.GEMS, V["take_count"])}
    picked = E.GEMS[: V["take_count"]]
    before = H.state_json(g)
    H.act(g, "take " + " ".join(picked))
    after = H.state_json(g)
    assert delta(tokens(before, 0), tokens(after, 0)) == dict.fromkeys(picked, 1)
    assert delta(before["supply"], after["supply"]) == dict.fromkeys(picked, -1)
    assert (g.current_player, g.phase) == (1, "action")


@pytest.mark.parametrize("fewer", [1, 2])
def test_take_never_fewer_colours_by_choice(E, V, fewer):
    g = H.load(E, H.position(E, 2))
    picked = E.GEMS[: V["take_count"] - fewer]
    assert_illegal(g, "take " + " ".join(picked), "take_count", "size(picked)")


@pytest.mark.parametrize("remaining", [2, 1])
def test_take_fewer_when_fewer_colours_remain(E, V, remaining):
    st = H.position(E, 4)
    left = E.GEMS[-remaining:]
    # Leave pair_minimum - 1 of the remaining colours (so no pair), none of the others.
    H.set_supply(
        st, [1, 2, 3, 0], V["token_limit"], **{gem: (V["pair_minimum"] - 1 if gem in left else 0) for gem in E.GEMS}
    )
    g = H.load(E, st)
    strings = H.legal_strings(g)
    assert {H.take_colours(s) for s in strings} - {None} == {frozenset(left)}
    assert not [s for s in strings if s.startswith("take2")]
    before = H.state_json(g)
    H.act(g, "take " + " ".join(left))
    assert delta(tokens(before, 0), tokens(H.state_json(g), 0)) == dict.fromkeys(left, 1)
    # Fewer than the colours left is still refused.
    if remaining == 2:
        assert_illegal(H.load(E, st), "take " + left[0], "take_count", "size(picked)")


def test_take_nothing_when_no_colour_remains(E, V):
    st = H.position(E, 4)
    H.set_supply(st, [1, 2, 3, 0], V["token_limit"], **dict.fromkeys(E.GEMS, 0))
    g = H.load(E, st)
    strings = H.legal_strings(g)
    assert not [s for s in strings if s.split()[0] in ("take", "take2")]
    assert "pass" not in strings  # reserving is still possible
    assert_illegal(g, "take " + E.GEMS[0], "supply")


def test_take_pair_needs_pair_minimum_before_taking(E, V):
    gem = E.GEMS[3]
    st = H.position(E, 4)
    H.set_supply(st, [1], V["token_limit"], **{gem: V["pair_minimum"]})
    g = H.load(E, st)
    assert f"take2 {gem}" in H.legal_strings(g)
    H.act(g, f"take2 {gem}")
    after = H.state_json(g)
    assert after["supply"][gem] == V["pair_minimum"] - 2
    assert after["seats"][0]["tokens"][gem] == 2

    H.set_supply(st, [1], V["token_limit"], **{gem: V["pair_minimum"] - 1})
    g = H.load(E, st)
    assert f"take2 {gem}" not in H.legal_strings(g)
    assert_illegal(g, f"take2 {gem}", "pair_minimum", f"supply[{gem}]", "supply[colour]")


def test_never_take_gold(E):
    g = H.load(E, H.position(E, 2))
    assert not [s for s in H.legal_strings(g) if s.split()[0] in ("take", "take2") and E.WILD in s.split()]
    for text in (f"take2 {E.WILD}", f"take {E.GEMS[0]} {E.GEMS[1]} {E.WILD}", f"take {E.WILD}"):
        with pytest.raises(E.NotationError):
            E.string_to_action(text)


# =========================================================================== reserving


def test_reserve_face_up_card_refills_and_gives_gold(E):
    st = H.position(E, 2)
    card, top = st["market"]["2"][2], st["decks"]["2"][0]
    g = H.load(E, st)
    H.act(g, "reserve 2.3")
    after = H.state_json(g)
    assert after["seats"][0]["reserved"] == [card]
    assert after["market"]["2"][2] == top
    assert after["decks"]["2"] == st["decks"]["2"][1:]
    assert delta(tokens(st, 0), tokens(after, 0)) == {E.WILD: 1}
    assert delta(st["supply"], after["supply"]) == {E.WILD: -1}


def test_reserve_blind_takes_the_top_card(E):
    st = H.position(E, 2)
    top = st["decks"]["3"][0]
    g = H.load(E, st)
    H.act(g, "reserve deck 3")
    after = H.state_json(g)
    assert after["seats"][0]["reserved"] == [top]
    assert after["decks"]["3"] == st["decks"]["3"][1:]
    assert after["market"] == st["market"]
    assert delta(tokens(st, 0), tokens(after, 0)) == {E.WILD: 1}


def test_reserve_limit(E, V):
    st = H.position(E, 2)
    H.set_reserved(E, st, 0, st["decks"]["1"][-(V["reserve_limit"] - 1) :])
    g = H.load(E, st)
    assert "reserve 1.1" in H.legal_strings(g) and "reserve deck 1" in H.legal_strings(g)

    H.set_reserved(E, st, 0, st["decks"]["1"][-V["reserve_limit"] :])
    g = H.load(E, st)
    assert not [s for s in H.legal_strings(g) if s.startswith("reserve")]
    message = assert_illegal(g, "reserve 1.1", "reserve_limit", "reserved")
    assert_illegal(g, "reserve deck 2", "reserve_limit", "reserved")
    # the rule's name and the part it fails in words (as the sheets say them), then on a details
    # line the condition as written and its place
    assert re.fullmatch(
        rf"illegal action 'reserve 1\.1': Reserve a face-up card: you hold fewer than "
        rf"{V['reserve_limit']} reserved cards\n"
        rf"details: me\.reserved < reserve_limit, rulespec/official\.yaml:\d+",
        message,
    ), message


def test_reserve_without_gold_left_gives_no_gold(E, V):
    st = H.position(E, 2)
    H.give_tokens(st, 1, **{E.WILD: st["supply"][E.WILD]})
    assert st["supply"][E.WILD] == 0
    card = st["market"]["1"][0]
    g = H.load(E, st)
    H.act(g, "reserve 1.1")
    after = H.state_json(g)
    assert after["seats"][0]["reserved"] == [card]
    assert tokens(after, 0) == tokens(st, 0)
    assert after["supply"] == st["supply"]


def test_cannot_reserve_from_an_empty_deck(E):
    st = H.position(E, 2)
    H.empty_deck(st, 1, seat=1)
    g = H.load(E, st)
    strings = H.legal_strings(g)
    assert "reserve deck 1" not in strings and "reserve deck 2" in strings
    assert_illegal(g, "reserve deck 1", "deck")
    # A face-up card of that level can still be reserved; its slot stays empty.
    H.act(g, "reserve 1.2")
    after = H.state_json(g)
    assert after["market"]["1"][1] is None
    assert g.current_player == 1
    assert "reserve 1.2" not in H.legal_strings(g) and not H.buys_of(g, "1.2")


# =========================================================================== buying


def buy_setup(E, players=2, **cost_test):
    """A position with a level-1 card chosen by `cost_test` shown in slot 1.1, seat 0 to play."""
    st = H.position(E, players)
    card = H.find_cards(E, st, level=1, **cost_test)[0]
    H.put_in_market(E, st, card, 1)
    return st, card


def test_buy_pays_the_cost_back_to_the_supply_and_refills(E):
    st, card = buy_setup(E)
    H.pay_for(E, st, 0, card)
    top = st["decks"]["1"][0]
    g = H.load(E, st)
    assert H.buys_of(g, "1.1") == ["buy 1.1"]
    H.act(g, "buy 1.1")
    after = H.state_json(g)
    assert after["seats"][0]["purchased"] == [card]
    assert all(n == 0 for n in tokens(after, 0).values())
    assert after["supply"] == {c: st["supply"][c] + st["seats"][0]["tokens"][c] for c in E.COLOURS}
    assert after["market"]["1"][0] == top
    assert after["decks"]["1"] == st["decks"]["1"][1:]
    assert g.bonus[0][E.GEMS.index(E.CARDS[card].bonus)] == 1
    assert g.prestige[0] == E.CARDS[card].points


def test_buy_needs_the_price(E):
    st, card = buy_setup(E, cost=lambda c: sum(c.values()) >= 3)
    H.pay_for(E, st, 0, card)
    short = next(gem for gem, n in H.cost(E, card).items() if n)
    H.give_tokens(st, 0, **{short: -1})
    g = H.load(E, st)
    assert H.buys_of(g, "1.1") == []
    assert_illegal(g, "buy 1.1", "pay", "afford", "price", "cost", "token")


def test_bonuses_reduce_the_cost(E):
    st, card = buy_setup(E, cost=lambda c: max(c.values()) >= 2)
    gem = max(H.cost(E, card), key=H.cost(E, card).get)
    H.grant_bonuses(E, st, 0, {gem: 1})
    H.pay_for(E, st, 0, card)
    paid = tokens(st, 0)
    assert paid[gem] == H.cost(E, card)[gem] - 1
    g = H.load(E, st)
    H.act(g, "buy 1.1")
    assert all(n == 0 for n in tokens(H.state_json(g), 0).values())
    assert H.state_json(g)["supply"][gem] == st["supply"][gem] + paid[gem]


def test_free_card_when_bonuses_cover_the_cost(E, V):
    st, card = buy_setup(E)
    H.grant_bonuses(E, st, 0, H.cost(E, card))
    g = H.load(E, st)
    assert H.buys_of(g, "1.1") == ["buy 1.1"]
    H.act(g, "buy 1.1")
    after = H.state_json(g)
    assert card in after["seats"][0]["purchased"]
    assert tokens(after, 0) == tokens(st, 0) and after["supply"] == st["supply"]


def expected_payments(price: dict, held: dict, wild: str) -> set:
    """Every way to pay `price` from `held`: gold per gem, as frozensets of (gem, n)."""
    gems = [gem for gem, n in price.items() if n]
    found = set()
    for golds in itertools.product(*(range(price[gem] + 1) for gem in gems)):
        if sum(golds) <= held[wild] and all(price[gem] - k <= held[gem] for gem, k in zip(gems, golds, strict=True)):
            found.add(frozenset((gem, k) for gem, k in zip(gems, golds, strict=True) if k))
    return found


@pytest.mark.parametrize("short, gold", [(0, 0), (0, 2), (1, 2), (2, 3)])
def test_every_distinct_payment_is_reachable(E, short, gold):
    """Gold is wild, may be spent where coloured tokens could pay, and each way to pay is one action."""
    st, card = buy_setup(E, cost=lambda c: sorted(v for v in c.values() if v)[:2] == [2, 2])
    price = H.cost(E, card)
    gems = [gem for gem, n in price.items() if n]
    H.give_tokens(st, 0, **{gem: price[gem] - (short if i == 0 else 0) for i, gem in enumerate(gems)}, **{E.WILD: gold})
    held = tokens(st, 0)
    want = expected_payments(price, held, E.WILD)
    g = H.load(E, st)
    buys = H.buys_of(g, "1.1")
    got = [frozenset(H.payment_of(s).items()) for s in buys]
    assert len(got) == len(set(got)), f"two buy actions pay the same way: {buys}"
    assert set(got) == want, f"payments offered {buys}"
    for text in buys:
        gold_for = H.payment_of(text)
        trial = g.clone()
        H.act(trial, text)
        after = H.state_json(trial)
        spent = {gem: price[gem] - gold_for[gem] for gem in gems}
        spent[E.WILD] = sum(gold_for.values())
        expect = {c: held[c] - spent.get(c, 0) for c in E.COLOURS}
        assert tokens(after, 0) == expect, text
        assert after["supply"] == {c: st["supply"][c] + spent.get(c, 0) for c in E.COLOURS}, text


def test_several_payments_are_chosen_in_the_payment_step(E):
    """A purchase with several accepted payments asks for one; the state can be saved meanwhile."""
    st, card = buy_setup(E, cost=lambda c: sorted(v for v in c.values() if v)[:2] == [2, 2])
    price = H.cost(E, card)
    H.give_tokens(st, 0, **{gem: n for gem, n in price.items() if n}, **{E.WILD: 1})
    g = H.load(E, st)
    buy = E.string_to_action("buy 1.1")
    options = [E.action_to_string(a) for a in g.payment_options(buy)]
    assert options[0] == "pay without gold" and len(options) == 1 + sum(1 for n in price.values() if n)
    g.apply(buy)
    assert g.phase == "payment" and g.current_player == 0
    assert [E.action_to_string(a) for a in g.legal_actions()] == options
    with pytest.raises(E.IllegalAction) as err:
        g.apply(E.string_to_action("take2 red"))
    assert "must first choose how to pay for 'buy 1.1'" in str(err.value)
    again = E.from_json(g.to_json())
    assert again.phase == "payment" and again.legal_actions() == g.legal_actions()
    gem = next(gem for gem, n in price.items() if n)
    g.apply(E.string_to_action(f"pay gold for {gem}"))
    after = H.state_json(g)
    assert card in after["seats"][0]["purchased"]
    assert after["seats"][0]["tokens"][E.WILD] == 0 and after["seats"][0]["tokens"][gem] == 1


def test_a_single_possible_payment_is_made_at_once(E):
    st, card = buy_setup(E, cost=lambda c: sorted(v for v in c.values() if v)[:2] == [2, 2])
    price = H.cost(E, card)
    H.give_tokens(st, 0, **{gem: n for gem, n in price.items() if n})
    g = H.load(E, st)
    buy = E.string_to_action("buy 1.1")
    assert [E.action_to_string(a) for a in g.payment_options(buy)] == ["pay without gold"]
    g.apply(buy)
    assert g.phase != "payment" and card in H.state_json(g)["seats"][0]["purchased"]
    with pytest.raises(E.IllegalAction) as err:
        g.apply(E.string_to_action("pay without gold"))
    assert "no purchase is waiting for its payment" in str(err.value) or "over" in str(err.value)


def test_buy_reserved_only_your_own(E):
    st = H.position(E, 2)
    theirs, mine = H.find_cards(E, st, 2, level=1)
    H.set_reserved(E, st, 1, [theirs])
    H.pay_for(E, st, 0, theirs)
    g = H.load(E, st)
    assert not [s for s in H.legal_strings(g) if s.startswith("buy reserved")]
    assert_illegal(g, "buy reserved 1", "reserved")

    H.set_tokens(st, 0)
    H.set_reserved(E, st, 0, [mine])
    H.pay_for(E, st, 0, mine)
    g = H.load(E, st)
    assert H.buys_of(g, "reserved 1") == ["buy reserved 1"]
    H.act(g, "buy reserved 1")
    after = H.state_json(g)
    assert after["seats"][0]["reserved"] == [] and after["seats"][0]["purchased"] == [mine]
    assert after["seats"][1]["reserved"] == [theirs]
    assert after["market"] == st["market"] and after["decks"] == st["decks"]
    assert all(n == 0 for n in tokens(after, 0).values())


def test_buy_from_an_empty_deck_level_leaves_the_slot_empty(E):
    st, card = buy_setup(E)
    H.empty_deck(st, 1, seat=1)
    H.pay_for(E, st, 0, card)
    g = H.load(E, st)
    H.act(g, H.buys_of(g, "1.1")[0])
    after = H.state_json(g)
    assert after["market"]["1"][0] is None
    assert after["seats"][0]["purchased"] == [card]
    assert not [s for s in H.legal_strings(g) if s in ("reserve 1.1",) or H.buy_target(s) == "1.1"]


# =========================================================================== the token limit


def spread(gems, n: int) -> dict:
    """n tokens spread over the gems, round robin."""
    counts = collections.Counter(gems[i % len(gems)] for i in range(n))
    return dict(counts)


def test_gold_counts_towards_the_limit(E, V):
    limit, k = V["token_limit"], V["take_count"]
    st = H.position(E, 2)
    H.give_tokens(st, 0, **spread(E.GEMS[::-1], limit - 2), **{E.WILD: 1})  # limit - 1 held
    g = H.load(E, st)
    picked = [gem for gem in E.GEMS if st["supply"][gem] >= 1][:k]
    H.act(g, "take " + " ".join(picked))
    for _returned in range(k - 1):  # limit - 1 + k held: k - 1 to return, gold counted
        assert (g.phase, g.current_player) == ("return_tokens", 0)
        H.act(g, H.legal_strings(g)[0])
    assert (g.phase, g.current_player) == ("action", 1)
    assert H.held(H.state_json(g), 0) == limit


def test_bonuses_do_not_count_towards_the_limit(E, V):
    limit, k = V["token_limit"], V["take_count"]
    st = H.position(E, 2)
    H.grant_bonuses(E, st, 0, dict.fromkeys(E.GEMS, 1))
    H.give_tokens(st, 0, **spread(E.GEMS[::-1], limit - k))
    g = H.load(E, st)
    picked = [gem for gem in E.GEMS if st["supply"][gem] >= 1][:k]
    H.act(g, "take " + " ".join(picked))
    assert (g.phase, g.current_player) == ("action", 1)
    assert H.held(H.state_json(g), 0) == limit


def test_player_chooses_what_to_return_including_tokens_just_taken(E, V):
    limit, k = V["token_limit"], V["take_count"]
    st = H.position(E, 4)
    picked = E.GEMS[:k]
    others = [gem for gem in E.GEMS if gem not in picked]
    H.give_tokens(st, 0, **spread(others, limit - 1), **{E.WILD: 1})  # none of the colours taken
    g = H.load(E, st)
    H.act(g, "take " + " ".join(picked))
    assert (g.phase, g.current_player) == ("return_tokens", 0)
    held = tokens(H.state_json(g), 0)
    assert set(H.legal_strings(g)) == {f"return {c}" for c in E.COLOURS if held[c] >= 1}
    assert_illegal(g, "take " + " ".join(picked))  # no action during the step
    for gem in picked:  # give back exactly what was taken
        assert (g.phase, g.current_player) == ("return_tokens", 0)
        H.act(g, f"return {gem}")
    after = H.state_json(g)
    assert (g.phase, g.current_player) == ("action", 1)
    assert tokens(after, 0) == tokens(st, 0) and after["supply"] == st["supply"]


def test_reserving_over_the_limit_returns_a_token(E, V):
    st = H.position(E, 2)
    H.give_tokens(st, 0, **spread(E.GEMS, V["token_limit"]))
    g = H.load(E, st)
    H.act(g, "reserve deck 1")
    assert (g.phase, g.current_player) == ("return_tokens", 0)
    assert f"return {E.WILD}" in H.legal_strings(g)
    H.act(g, f"return {E.WILD}")
    assert (g.phase, g.current_player) == ("action", 1)


def test_no_return_at_or_under_the_limit(E, V):
    st = H.position(E, 2)
    H.give_tokens(st, 0, **spread(E.GEMS, V["token_limit"] - V["take_count"]))
    g = H.load(E, st)
    assert_illegal(g, f"return {E.GEMS[0]}")
    H.act(g, "take " + " ".join(E.GEMS[: V["take_count"]]))
    assert (g.phase, g.current_player) == ("action", 1)


# =========================================================================== nobles


def noble_setup(E, qualified: int = 1, players: int = 2):
    """Seat 0 already meets `qualified` nobles of the row; the others of the row are out of reach."""
    st = H.position(E, players)
    size = len(st["nobles"])
    for combo in itertools.combinations(range(len(E.NOBLES)), qualified):
        need = {gem: max(H.requires(E, n)[gem] for n in combo) for gem in E.GEMS}
        rest = H.nobles_not_met(E, need, exclude=combo)
        if len(rest) >= size - qualified:
            break
    else:
        raise H.SetupError(f"no {qualified} nobles can be met while {size - qualified} others are not")
    H.grant_bonuses(E, st, 0, need)
    row = list(combo) + rest[: size - qualified]
    H.set_noble_row(st, row)
    return st, list(combo)


@pytest.mark.parametrize("action", ["take", "take2", "reserve 1.1", "reserve deck 2", "buy"])
def test_noble_visits_after_any_action(E, V, action):
    st, (noble,) = noble_setup(E)
    text = action
    if action == "take":
        text = "take " + " ".join(E.GEMS[: V["take_count"]])
    elif action == "take2":
        text = f"take2 {E.GEMS[0]}"
    elif action == "buy":  # the bonus of the card bought is the last one missing
        need = H.requires(E, noble)
        gem = next(gem for gem in E.GEMS if need[gem])
        purchased = st["seats"][0]["purchased"]
        last = next(c for c in purchased if E.CARDS[c].bonus == gem)
        purchased.remove(last)
        st["decks"]["1"].append(last)
        H.put_in_market(E, st, last, 1)
        H.pay_for(E, st, 0, last)
        assert not H.qualifies(E, st, 0, noble)
        text = "buy 1.1"
    g = H.load(E, st)
    H.act(g, text)
    if g.phase == "noble_visit":
        assert H.legal_strings(g) == [f"noble {st['nobles'].index(noble) + 1}"]
    H.finish_forced_steps(g, 0)
    after = H.state_json(g)
    assert after["seats"][0]["nobles"] == [noble]
    assert noble not in after["nobles"] and len(after["nobles"]) == len(st["nobles"]) - 1
    assert (
        g.prestige[0]
        == H.prestige(E, after, 0)
        == (sum(E.CARDS[c].points for c in after["seats"][0]["purchased"]) + E.NOBLES[noble].points)
    )
    assert (g.phase, g.current_player) == ("action", 1)


def test_one_noble_per_turn_the_player_chooses_and_the_other_comes_later(E, V):
    st, (first, second) = noble_setup(E, qualified=2)
    # Put an unqualified noble between them: row = [first, other, second].
    row = st["nobles"]
    row.insert(1, row.pop(-1))
    g = H.load(E, st)
    take = "take " + " ".join(E.GEMS[: V["take_count"]])
    H.act(g, take)
    assert (g.phase, g.current_player) == ("noble_visit", 0)
    assert H.legal_strings(g) == ["noble 1", "noble 3"]  # a visit cannot be refused
    H.act(g, "noble 3")
    after = H.state_json(g)
    assert after["seats"][0]["nobles"] == [second]
    assert after["nobles"] == [first, row[1]]
    assert (g.phase, g.current_player) == ("action", 1)

    H.play_a_quiet_turn(g)  # seat 1 qualifies for nothing
    assert H.state_json(g)["seats"][1]["nobles"] == []
    assert (g.phase, g.current_player) == ("action", 0)
    H.play_a_quiet_turn(g)
    assert H.state_json(g)["seats"][0]["nobles"] == [second, first]


def test_only_bonuses_attract_nobles(E):
    st = H.position(E, 2)
    noble = st["nobles"][0]
    H.give_tokens(st, 0, **{g: n for g, n in H.requires(E, noble).items() if n})
    g = H.load(E, st)
    H.act(g, "reserve deck 1")
    H.finish_forced_steps(g, 0)
    assert H.state_json(g)["seats"][0]["nobles"] == []


def test_no_visit_from_an_empty_noble_row(E, V):
    st = H.position(E, 2)
    for noble in list(st["nobles"]):
        H.give_noble(st, 1, noble)
    H.grant_bonuses(E, st, 0, dict.fromkeys(E.GEMS, 4))  # would meet any noble
    g = H.load(E, st)
    H.act(g, "take " + " ".join(E.GEMS[: V["take_count"]]))
    assert (g.phase, g.current_player) == ("action", 1)
    assert H.state_json(g)["seats"][0]["nobles"] == []


# =========================================================================== the end


def complete_round_trigger(rules) -> str:
    return next(t.name for t in rules.end if t.finish == "complete_round")


def end_setup(E, players: int, plan: dict, round_: int = 4):
    """Seats of `plan` {seat: (points, cards)} hold that many cards worth those points and can each
    buy a 1-point level-1 card shown in slot 1.(k+1), k their rank in the plan; nobles are out of reach."""
    st = H.position(E, players, seed=11)
    one_pointers = H.find_cards(E, st, len(plan), level=1, points=1)
    for k, (seat, (points, count)) in enumerate(sorted(plan.items())):
        H.give_card(E, st, seat, *H.cards_worth(E, st, points, count, exclude=one_pointers))
        H.put_in_market(E, st, one_pointers[k], k + 1)
    for k, seat in enumerate(sorted(plan)):
        H.pay_for(E, st, seat, one_pointers[k])
    most = {gem: max(H.bonuses(E, st, s)[gem] + 1 for s in range(players)) for gem in E.GEMS}
    H.set_noble_row(st, H.nobles_not_met(E, most, len(st["nobles"])))
    H.set_turn(st, 0, round_)
    return st, one_pointers


@pytest.mark.parametrize("players, seat", [(n, s) for n in (2, 3, 4) for s in range(n)])
def test_reaching_the_target_completes_the_round(E, rules, V, players, seat):
    target = V["target"]
    st, (card,) = end_setup(E, players, {seat: (target - 1, 3)})
    H.set_turn(st, seat, 4)
    g = H.load(E, st)
    H.act(g, H.buys_of(g, "1.1")[0])
    H.finish_forced_steps(g, seat)
    assert g.prestige[seat] >= target
    state = H.state_json(g)
    for later in range(seat + 1, players):
        assert not g.is_over() and state["ending"] is not None
        assert state["ending"]["trigger"] == complete_round_trigger(rules)
        assert (g.current_player, g.phase) == (later, "action")
        H.play_a_quiet_turn(g)
        state = H.state_json(g)
    assert g.is_over() and g.phase == "over"
    assert [s["turns"] for s in state["seats"]] == [4] * players  # everyone had the same number of turns
    assert g.legal_actions() == [] and not any(g.legal_mask())
    assert g.winners() == [seat]
    assert g.returns() == [1.0 if s == seat else -1.0 for s in range(players)]
    assert g.scores() == [H.prestige(E, state, s) for s in range(players)]
    assert_illegal(g, "pass")


def test_below_the_target_the_game_goes_on(E, V):
    st, _ = end_setup(E, 2, {1: (V["target"] - 2, 3)})
    H.set_turn(st, 1, 4)
    g = H.load(E, st)
    H.act(g, H.buys_of(g, "1.1")[0])
    assert not g.is_over() and H.state_json(g)["ending"] is None
    assert (g.current_player, g.phase, g.returns()) == (0, "action", [0.0, 0.0])


@pytest.mark.parametrize(
    "plan, winners",
    [
        ({0: (-1, 3), 1: (-1, 4)}, [0]),  # same prestige: fewer purchased cards wins
        ({0: (-1, 4), 1: (-1, 3)}, [1]),
        ({0: (-1, 3), 1: (-1, 3)}, [0, 1]),  # still tied: a shared victory
        ({0: (-1, 4), 1: (-2, 3)}, [0]),  # prestige first
    ],
    ids=["seat0-fewer", "seat1-fewer", "shared", "prestige-first"],
)
def test_winners_and_ties(E, V, plan, winners):
    plan = {seat: (V["target"] + d, n) for seat, (d, n) in plan.items()}
    st, _ = end_setup(E, 2, plan)
    g = H.load(E, st)
    H.act(g, H.buys_of(g, "1.1")[0])
    H.finish_forced_steps(g, 0)
    assert not g.is_over() and g.current_player == 1
    H.act(g, H.buys_of(g, "1.2")[0])
    H.finish_forced_steps(g, 1)
    assert g.is_over()
    state = H.state_json(g)
    assert [len(s["purchased"]) for s in state["seats"]] == [n + 1 for _, n in (plan[0], plan[1])]
    assert g.scores() == [p + 1 for p, _ in (plan[0], plan[1])]
    assert g.winners() == winners
    assert g.returns() == [1.0 if s in winners else -1.0 for s in range(2)]


def test_nobles_count_towards_the_target(E, V):
    st, (noble,) = noble_setup(E)
    H.give_card(E, st, 0, *H.cards_worth(E, st, V["target"] - E.NOBLES[noble].points, 3))
    others = H.nobles_not_met(E, H.bonuses(E, st, 0), len(st["nobles"]) - 1, exclude=[noble])
    H.set_noble_row(st, [noble] + others)
    assert H.prestige(E, st, 0) == V["target"] - E.NOBLES[noble].points
    g = H.load(E, st)
    H.act(g, "take " + " ".join(E.GEMS[: V["take_count"]]))
    H.finish_forced_steps(g, 0)
    assert g.prestige[0] == V["target"]
    assert H.state_json(g)["ending"] is not None
    H.play_a_quiet_turn(g)
    assert g.is_over() and g.winners() == [0]


# =========================================================================== passing and deadlock


def stuck_position(E, V, stuck_seats=(0, 1)):
    """Two players hold every gem between them; the market and their reserves are out of their reach;
    each seat in `stuck_seats` has the most reserved cards, the others one fewer."""
    st = H.position(E, 2, seed=5)
    half = st["supply"][E.GEMS[2]] // 2
    H.give_tokens(st, 0, **{E.GEMS[0]: st["supply"][E.GEMS[0]], E.GEMS[1]: st["supply"][E.GEMS[1]], E.GEMS[2]: half})
    H.give_tokens(st, 1, **{gem: st["supply"][gem] for gem in E.GEMS[2:]})
    assert all(st["supply"][gem] == 0 for gem in E.GEMS)
    assert all(H.held(st, s) <= V["token_limit"] for s in (0, 1))

    def unaffordable(card):
        c = H.cost(E, card)
        return all(any(c[gem] > st["seats"][s]["tokens"][gem] for gem in E.GEMS) for s in (0, 1))

    spare = [c.id for c in E.CARDS if unaffordable(c.id)]
    for level in E.LEVELS:
        for slot, card in enumerate([c for c in spare if E.CARDS[c].level == level][: len(st["market"][str(level)])]):
            H.put_in_market(E, st, card, slot + 1)
    shown = {c for row in st["market"].values() for c in row}
    spare = [c for c in spare if c not in shown]
    for seat in (0, 1):
        n = V["reserve_limit"] - (0 if seat in stuck_seats else 1)
        H.set_reserved(E, st, seat, spare[:n])
        spare = spare[n:]
    return st


def test_pass_only_when_stuck(E, V):
    assert_illegal(H.load(E, H.position(E, 2)), "pass", "stuck", "only when", "no other", "no legal")
    g = H.load(E, stuck_position(E, V))
    assert H.legal_strings(g) == ["pass"]


def test_passes_must_be_consecutive_to_end_the_game(E, V):
    g = H.load(E, stuck_position(E, V, stuck_seats=(0,)))
    H.act(g, "pass")
    assert H.state_json(g)["passes"] == 1 and g.current_player == 1
    assert "pass" not in H.legal_strings(g)
    H.act(g, "reserve deck 3")
    H.act(g, f"return {E.WILD}")
    assert H.state_json(g)["passes"] == 0 and not g.is_over()
    assert H.legal_strings(g) == ["pass"]
    H.act(g, "pass")
    assert not g.is_over() and g.current_player == 1


def test_deadlock_ends_the_game_when_everyone_passes(E, V):
    st = stuck_position(E, V)
    H.give_noble(st, 1, st["nobles"][0])
    g = H.load(E, st)
    H.act(g, "pass")
    assert not g.is_over() and H.legal_strings(g) == ["pass"]
    H.act(g, "pass")
    assert g.is_over() and g.phase == "over"
    assert g.winners() == [1] and g.returns() == [-1.0, 1.0]


def test_deadlock_between_equals_is_shared(E, V):
    g = H.load(E, stuck_position(E, V))
    H.act(g, "pass")
    H.act(g, "pass")
    assert g.is_over() and g.winners() == [0, 1] and g.returns() == [1.0, 1.0]
