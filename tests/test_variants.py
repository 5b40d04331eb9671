"""The catalogue of house variants (variants/*.yaml, listed in variants/index.yaml).

Each variant checks clean, is explained (a title in every sheet language, a description,
a note on every change), compiles to an engine, and shows its difference from the
official rules in play: a position where the variant's engine and the official engine
give different legal actions or outcomes. Positions are built in the state JSON of each
engine (tests/helpers/engines.py); rule numbers come from the specs, never from here.
"""

from __future__ import annotations

import functools
import itertools
import pathlib

import pytest

from compiler import pipeline
from compiler.front import source
from tests.helpers.engines import (
    act,
    buys_of,
    give_card,
    give_noble,
    give_tokens,
    legal_strings,
    load,
    load_engine,
    position,
    price,
    qualifies,
    set_noble_row,
    set_tokens,
    set_turn,
    state_json,
    take_colours,
    values,
)

ROOT = pathlib.Path(__file__).resolve().parent.parent
OFFICIAL = "rulespec/official.yaml"
INDEX = source.to_plain(source.load(str(ROOT / "variants" / "index.yaml")).root)
NAMES = INDEX["variants"]
DRAFTS = INDEX.get("drafts", [])  # variant files not yet in the catalogue, each named once
LANGS = ("fr", "nl", "sr")


@pytest.fixture(autouse=True)
def at_root(monkeypatch):
    monkeypatch.chdir(ROOT)


@pytest.fixture(scope="session")
def compiled(tmp_path_factory):
    """compiled(spec path) -> the engine module compiled from it now (cached for the session)."""
    folder = tmp_path_factory.mktemp("engines")
    cache: dict[str, object] = {}

    def get(path: str):
        if path not in cache:
            engine = pipeline.compile_spec(str(ROOT / path))
            file = folder / engine.file_name
            file.write_text(engine.text, encoding="utf-8")
            cache[path] = load_engine(file)
        return cache[path]

    return get


@functools.cache
def rules_of(name: str):
    return pipeline.load_rules(f"variants/{name}.yaml")


# --------------------------------------------------------------------------- the catalogue


def test_the_index_lists_every_variant_file_once():
    """Every variant file is in the catalogue or named a draft, once; a draft still checks clean
    (tests/test_cli_names.py) and has its own tests."""
    files = sorted(p.stem for p in (ROOT / "variants").glob("*.yaml") if p.name != "index.yaml")
    assert sorted(NAMES + DRAFTS) == files
    assert len(set(NAMES + DRAFTS)) == len(NAMES) + len(DRAFTS)
    assert pipeline.catalogue()[1:] == [f"variants/{n}.yaml" for n in NAMES]


@pytest.mark.parametrize("name", NAMES)
def test_variant_checks_clean_and_is_explained(name):
    rules = rules_of(name)
    assert rules.name == name
    assert rules.bases and rules.bases[-1].name == "official"
    assert rules.changes, "a variant changes something"
    own = f"variants/{name}.yaml"
    # a variant of a variant (cities-declinable of cities) inherits its base's changes, each with its note
    # in the file that wrote it
    writers = {own} | {b.path for b in rules.bases if b.path.startswith("variants/")}
    for change in rules.changes:
        assert change.note is not None and change.note.en, f"{change.path} has no note"
        assert change.file in writers, (change.path, change.file)
    assert any(change.file == own for change in rules.changes), "the variant's own file changes something"
    assert all(rules.title.get(lang) for lang in LANGS), "the title has fr/nl/sr translations"
    assert rules.description.en and rules.description.en != rules_of_official().description.en


@functools.cache
def rules_of_official():
    return pipeline.load_rules(OFFICIAL)


@pytest.mark.parametrize("name", NAMES)
def test_variant_compiles_and_plays(name, compiled):
    V = compiled(f"variants/{name}.yaml")
    assert V.SPEC_NAME == name
    import random

    rng = random.Random(7)
    game = V.new_game(V.PLAYER_COUNTS[0], seed=7)
    for _ in range(60):
        if game.is_over():
            break
        game.apply(rng.choice(game.legal_actions()))
    assert game.to_json() == V.from_json(game.to_json()).to_json()


# --------------------------------------------------------------------------- positions


def cards_worth(E, points: int, bonus: str, extra_zero: int = 0) -> list[int]:
    """The fewest cards of one bonus colour worth exactly `points`, plus `extra_zero` 0-point ones.

    Bonuses of a single colour satisfy no noble (every noble asks for several colours)."""
    ids = [c.id for c in E.CARDS if c.bonus == bonus and c.points > 0]
    for n in range(len(ids) + 1):
        for combo in itertools.combinations(ids, n):
            if sum(E.CARDS[i].points for i in combo) == points:
                zeros = [c.id for c in E.CARDS if c.bonus == bonus and c.points == 0][:extra_zero]
                assert len(zeros) == extra_zero
                return list(combo) + zeros
    raise AssertionError(f"no {bonus} cards worth {points}")


def at_prestige(E, points: int, players: int = 2, round_: int = 1) -> object:
    """Seat 0 to play in round `round_`, holding `points` prestige in cards of one colour."""
    state = position(E, players, seed=5)
    give_card(E, state, 0, *cards_worth(E, points, E.GEMS[3]))
    set_turn(state, 0, round_)
    return load(E, state)


def quiet_turn(game) -> None:
    """The current player takes tokens of different colours (no points, no noble)."""
    turn = game.turn
    act(game, next(s for s in legal_strings(game) if take_colours(s)))
    assert game.is_over() or (game.turn == turn + 1 and game.phase == "action")


def test_no_gold_small_tables(compiled):
    Base, V = compiled(OFFICIAL), compiled("variants/no-gold-small-tables.yaml")
    official, variant = rules_of_official(), rules_of("no-gold-small-tables")
    gold = Base.COLOURS.index(Base.WILD)
    for n in (2, 3):
        assert variant.player_count(n).gold == 0 < official.player_count(n).gold
        o, v = Base.new_game(n, seed=1), V.new_game(n, seed=1)
        assert (o.supply[gold], v.supply[gold]) == (official.player_count(n).gold, 0)
        act(o, "reserve 1.1")
        act(v, "reserve 1.1")
        assert (o.tokens[0][gold], v.tokens[0][gold]) == (1, 0)
    assert Base.new_game(4, seed=1).supply == V.new_game(4, seed=1).supply


def test_target_12(compiled):
    Base, V = compiled(OFFICIAL), compiled("variants/target-12.yaml")
    target = values(rules_of("target-12"))["target"]
    assert target < values(rules_of_official())["target"]
    o, v = at_prestige(Base, target), at_prestige(V, target)
    quiet_turn(o)
    quiet_turn(v)
    assert state_json(o)["ending"] is None and state_json(v)["ending"] is not None
    quiet_turn(o)
    quiet_turn(v)
    assert not o.is_over()
    assert v.is_over() and v.winners() == [0]


def test_target_18(compiled):
    Base, V = compiled(OFFICIAL), compiled("variants/target-18.yaml")
    official_target = values(rules_of_official())["target"]
    assert values(rules_of("target-18"))["target"] > official_target + 1
    o, v = at_prestige(Base, official_target + 1), at_prestige(V, official_target + 1)
    for _ in range(2):
        quiet_turn(o)
        quiet_turn(v)
    assert o.is_over() and o.winners() == [0]
    assert not v.is_over() and state_json(v)["ending"] is None


def test_sudden_death(compiled):
    Base, V = compiled(OFFICIAL), compiled("variants/sudden-death.yaml")
    target = values(rules_of("sudden-death"))["target"]
    o, v = at_prestige(Base, target), at_prestige(V, target)
    quiet_turn(o)
    quiet_turn(v)
    assert v.is_over() and v.winners() == [0] and v.scores()[1] == 0
    assert not o.is_over() and o.current_player == 1  # the round is completed
    quiet_turn(o)
    assert o.is_over()


def test_take_up_to_three(compiled):
    Base, V = compiled(OFFICIAL), compiled("variants/take-up-to-three.yaml")
    o, v = set(legal_strings(Base.new_game(2, seed=3))), set(legal_strings(V.new_game(2, seed=3)))
    sizes = lambda legal: {len(take_colours(s)) for s in legal if take_colours(s)}  # noqa: E731
    assert sizes(o) == {3}
    assert sizes(v) == {1, 2, 3}
    assert o < v


def test_hard_cap(compiled):
    Base, V = compiled(OFFICIAL), compiled("variants/hard-cap.yaml")
    limit = values(rules_of("hard-cap"))["token_limit"]

    def holding(E, n: int):
        state = position(E, 2, seed=2)
        colours = itertools.cycle(E.GEMS)
        counts: dict[str, int] = {}
        for _ in range(n):
            c = next(colours)
            counts[c] = counts.get(c, 0) + 1
        set_tokens(state, 0, **counts)
        return load(E, state)

    o, v = holding(Base, limit - 1), holding(V, limit - 1)
    assert {len(take_colours(s)) for s in legal_strings(o) if take_colours(s)} == {3}
    assert {len(take_colours(s)) for s in legal_strings(v) if take_colours(s)} == {1}
    o, v = holding(Base, limit), holding(V, limit)
    assert not any(take_colours(s) for s in legal_strings(v))
    act(o, "reserve 1.1")
    act(v, "reserve 1.1")
    gold = Base.COLOURS.index(Base.WILD)
    assert o.phase == "return_tokens" and o.tokens[0][gold] == 1
    assert v.current_player == 1 and sum(v.tokens[0]) == limit and v.tokens[0][gold] == 0


def test_auto_noble(compiled):
    Base, V = compiled(OFFICIAL), compiled("variants/auto-noble.yaml")

    def qualifying_for_two(E):
        """Seat 0 with 0-point cards whose bonuses meet two nobles of the row and not the third."""
        for a, b, c in itertools.permutations(range(len(E.NOBLES)), 3):
            need = [max(x, y) for x, y in zip(E.NOBLES[a].requires, E.NOBLES[b].requires, strict=True)]
            zeros = {g: [card.id for card in E.CARDS if card.bonus == g and card.points == 0] for g in E.GEMS}
            if a > b or any(n > len(zeros[g]) for g, n in zip(E.GEMS, need, strict=True)):
                continue
            state = position(E, 2, seed=4)
            give_card(E, state, 0, *[i for g, n in zip(E.GEMS, need, strict=True) for i in zeros[g][:n]])
            set_noble_row(state, [a, b, c])
            if not qualifies(E, state, 0, c):
                return load(E, state)
        raise AssertionError("no two nobles fit")

    o, v = qualifying_for_two(Base), qualifying_for_two(V)
    quiet_turn(v)  # both nobles visit, nobody chooses
    assert len(state_json(v)["seats"][0]["nobles"]) == 2 and v.current_player == 1
    act(o, next(s for s in legal_strings(o) if take_colours(s)))
    assert o.phase == "noble_visit" and len(o.legal_actions()) == 2  # the player chooses one
    o.apply(o.legal_actions()[0])
    assert len(state_json(o)["seats"][0]["nobles"]) == 1 and o.current_player == 1


def test_gold_for_shortfall(compiled):
    Base, V = compiled(OFFICIAL), compiled("variants/gold-for-shortfall.yaml")
    games = {}
    for E in (Base, V):
        state = position(E, 2, seed=6)
        card = state["market"]["1"][0]
        set_tokens(state, 0, **price(E, state, 0, card), gold=1)
        games[E] = load(E, state)
    o, v = games[Base], games[V]
    assert any("paying gold" in s for s in buys_of(o, "1.1"))
    assert buys_of(v, "1.1") and not any("paying gold" in s for s in buys_of(v, "1.1"))
    # gold still pays a shortfall
    for E in (Base, V):
        state = position(E, 2, seed=6)
        card = state["market"]["1"][0]
        need = price(E, state, 0, card)
        short = next(g for g, n in need.items() if n > 0)
        need[short] -= 1
        set_tokens(state, 0, **need, gold=1)
        games[E] = load(E, state)
    assert buys_of(games[V], "1.1") == buys_of(games[Base], "1.1") == [f"buy 1.1 paying gold for {short}"]


def test_pairs_from_three(compiled):
    Base, V = compiled(OFFICIAL), compiled("variants/pairs-from-three.yaml")
    minimum = values(rules_of("pairs-from-three"))["pair_minimum"]
    games = {}
    for E in (Base, V):
        state = position(E, 2, seed=1)
        give_tokens(state, 1, red=state["supply"]["red"] - minimum)
        set_turn(state, 0)
        games[E] = load(E, state)
    assert "take2 red" in legal_strings(games[V])
    assert "take2 red" not in legal_strings(games[Base])


def test_solo(compiled):
    Base, V = compiled(OFFICIAL), compiled("variants/solo.yaml")
    assert 1 not in Base.PLAYER_COUNTS and V.PLAYER_COUNTS == (1,)
    with pytest.raises(ValueError, match="players, not"):
        Base.new_game(1)
    limit = values(rules_of("solo"))["turn_limit"]
    target = values(rules_of("solo"))["target"]
    late = at_prestige(V, 0, players=1, round_=limit)  # the last allowed turn, no prestige
    quiet_turn(late)
    assert late.is_over() and late.winners() == []
    early = at_prestige(V, target, players=1, round_=3)
    quiet_turn(early)
    assert early.is_over() and early.winners() == [0]
    before = at_prestige(V, 0, players=1, round_=limit - 1)
    quiet_turn(before)
    assert not before.is_over() and before.round == limit


def test_grand_table(compiled):
    Base, V = compiled(OFFICIAL), compiled("variants/grand-table.yaml")
    rules = rules_of("grand-table")
    for n in (5, 6):
        assert n not in Base.PLAYER_COUNTS
        with pytest.raises(ValueError, match="players, not"):
            Base.new_game(n)
        game = V.new_game(n, seed=n)
        row = rules.player_count(n)
        assert list(game.supply) == [row.gems] * len(V.GEMS) + [row.gold]
        assert len(game.noble_row) == row.nobles == n + 1
        for _ in range(n):
            quiet_turn(game)
        assert game.current_player == 0 and game.round == 2


def test_noble_tiebreak(compiled):
    Base, V = compiled(OFFICIAL), compiled("variants/noble-tiebreak.yaml")
    target = values(rules_of_official())["target"]
    games = {}
    for E in (Base, V):
        state = position(E, 2, seed=8)
        nobles = state["nobles"][:2]
        noble_points = sum(E.NOBLES[n].points for n in nobles)
        few = cards_worth(E, target, E.GEMS[3])
        many = cards_worth(E, target - noble_points, E.GEMS[1], extra_zero=len(few))
        give_card(E, state, 1, *few)
        give_card(E, state, 0, *many)
        for n in nobles:
            give_noble(state, 0, n)
        set_noble_row(state, [n for n in state["nobles"]])
        set_turn(state, 1)  # seat 1's turn ends the round, with both seats at the target
        games[E] = load(E, state)
    o, v = games[Base], games[V]
    assert o.scores() == v.scores() == [target, target]
    quiet_turn(o)
    quiet_turn(v)
    assert o.is_over() and v.is_over()
    assert o.winners() == [1]  # fewest purchased cards
    assert v.winners() == [0]  # more nobles


def test_reserve_tax(compiled):
    Base, V = compiled(OFFICIAL), compiled("variants/reserve-tax.yaml")
    games = {}
    for E in (Base, V):
        state = position(E, 2, seed=9)
        set_tokens(state, 0, white=1, blue=1)
        games[E] = load(E, state)
    o, v = games[Base], games[V]
    reserve = lambda g: sorted(s for s in legal_strings(g) if s.startswith("reserve 1.1"))  # noqa: E731
    assert reserve(o) == ["reserve 1.1"]
    assert reserve(v) == ["reserve 1.1 paying blue", "reserve 1.1 paying white"]
    white = V.COLOURS.index("white")
    supply = v.supply[white]
    act(v, "reserve 1.1 paying white")
    assert v.supply[white] == supply + 1 and v.tokens[0][white] == 0
    fresh = V.new_game(2, seed=9)
    assert "reserve 1.1" in legal_strings(fresh)  # a player with no tokens pays nothing


def test_sweep(compiled):
    Base, V = compiled(OFFICIAL), compiled("variants/sweep.yaml")
    o, v = Base.new_game(2, seed=10), V.new_game(2, seed=10)
    assert not any(s.startswith(("sweep", "give back")) for s in legal_strings(o))
    swept, top = v.market[0][1], v.decks[0][-1]  # decks[level] lists the top card last
    size = len(v.decks[0])
    act(v, "sweep 1.2")
    assert v.market[0][1] == top and v.decks[0][0] == swept and len(v.decks[0]) == size
    # a reserved card, face up or blind, goes back under its deck and frees its slot
    act(v, "reserve deck 2")  # seat 1
    blind = v.reserved[1][0]
    act(v, "take white blue green")  # seat 0
    act(v, "give back 1")  # seat 1
    assert v.reserved[1] == [] and v.blind[1] == [] and v.decks[1][0] == blind
    assert v.tokens[1][V.COLOURS.index(V.WILD)] == 1  # the gold of the reserve is kept
    # a deck with no card to take the swept one's place: its cards cannot be swept
    state = v.to_dict()
    state["seats"][1]["purchased"] += state["decks"]["1"]  # (somewhere for the deck's cards to be)
    state["decks"]["1"] = []
    w = V.from_json(state)
    assert not any(s.startswith("sweep 1.") for s in legal_strings(w))
    assert any(s.startswith("sweep 2.") for s in legal_strings(w))
