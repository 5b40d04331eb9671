"""Untrusted saved games and the edges of the Engine API (issue 14), and the engines' length cap.

A hand-edited or corrupted state is refused by from_json with a StateError that lists
every problem (types, ranges, and the invariants between fields), never loaded half-way
to fail or hang later; the API takes numpy's integer types where it takes ints and refuses
other types in words; and a game that could go on forever ends as *truncated* at its cap.
"""

from __future__ import annotations

import json
import random
import re

import numpy as np
import pytest

import tests.helpers.engines as H
from compiler.pipeline import compile_spec

ENDLESS = """\
spec: 1
name: endless
extends: official
title: Endless
values:
  target: 100
  max_turns: {value: 300, add: true}
end:
  deadlock:
    remove: Nobody ends a stuck game here.
"""


@pytest.fixture(scope="module")
def E():
    return H.official_engine()


def compile_variant(folder, text, name):
    spec = folder / f"{name}.yaml"
    spec.write_text(text, encoding="utf-8")
    engine = folder / f"{name}.py"
    engine.write_text(compile_spec(str(spec)).text, encoding="utf-8")
    return H.load_engine(engine)


@pytest.fixture(scope="module")
def endless(tmp_path_factory):
    """Target 100 and no deadlock trigger: greedy bots cycle, random play never ends; capped at 300 turns."""
    return compile_variant(tmp_path_factory.mktemp("endless"), ENDLESS, "endless")


@pytest.fixture(scope="module")
def uncapped(tmp_path_factory):
    return compile_variant(
        tmp_path_factory.mktemp("uncapped"), ENDLESS.replace("  max_turns: {value: 300, add: true}\n", ""), "uncapped"
    )


def refused(E, state) -> str:
    with pytest.raises(E.StateError) as info:
        E.from_json(state)
    return str(info.value)


# =========================================================================== from_json


def noble_phase_nobody_qualifies(E, st):
    st["phase"] = "noble_visit"
    st["step"] = E.STEPS.index("noble_visit")


def payment_on_empty_slot(E, st):
    H.give_tokens(st, 0, **{E.WILD: 1})
    st["market"]["1"][0] = None
    st["decks"]["1"].append(H.position(E, 2, seed=1)["market"]["1"][0])
    st["phase"] = "payment"
    st["pending"] = E.string_to_action("buy 1.1")


CASES = {
    "ending whose last seat is 7": (
        lambda E, st: st.update(ending={"trigger": "target", "finish": "complete_round", "last_seat": 7}),
        "'ending.last_seat' must be a seat from 0 to 1, not 7",
    ),
    "ending with no trigger": (
        lambda E, st: st.update(ending={"finish": "complete_round", "last_seat": 1}),
        "'ending' must be null or {trigger, finish, last_seat}",
    ),
    "ending by a trigger that ends at once": (
        lambda E, st: st.update(ending={"trigger": "deadlock", "finish": "complete_round", "last_seat": 1}),
        "'ending.trigger' must be a trigger that lets the round finish (target), not 'deadlock'",
    ),
    "players as a float": (lambda E, st: st.update(players=2.0), "'players' must be one of 2, 3, 4, not 2.0"),
    "players as a list": (lambda E, st: st.update(players=[2]), "'players' must be one of 2, 3, 4, not a list of 1"),
    "players as a bool": (lambda E, st: st.update(players=True), "'players' must be one of 2, 3, 4, not True"),
    "noble phase where nobody qualifies": (
        noble_phase_nobody_qualifies,
        "player 1 has no legal action in phase 'noble_visit'",
    ),
    "payment pending on an empty slot": (
        payment_on_empty_slot,
        "'pending' buys the card in slot 1 of level 1, which is empty",
    ),
    "pending outside the payment step": (
        lambda E, st: st.update(pending=3),
        "'pending' is set only in the payment step, not in phase 'action'",
    ),
    "start as an int": (lambda E, st: st.update(start=5), "start: a state is a JSON object, not 5"),
    "start as an empty object": (lambda E, st: st.update(start={}), "start: 'format' must be"),
    "huge int": (
        lambda E, st: st["supply"].update({E.WILD: 10**30}),
        "gold tokens add up to a number of about 31 digits, the game has 5",
    ),
    "negative count": (lambda E, st: st.update(passes=-1), "'passes' must be a whole number of at least 0, not -1"),
    "string for a seat": (
        lambda E, st: st.update(current_player="0"),
        "'current_player' must be a seat from 0 to 1, not '0'",
    ),
    "step in the action phase": (
        lambda E, st: st.update(step=1),
        "in the action phase 'step' and 'step_count' are 0, not 1 and 0",
    ),
    "end reason of a game in play": (
        lambda E, st: st.update(end_reason="target"),
        "'end_reason' is set only when the game is over, not in phase 'action'",
    ),
    "finished game without an end reason": (
        lambda E, st: st.update(phase="over", current_player=-1),
        "a finished game has an 'end_reason' (target, deadlock, stuck, truncated), not None",
    ),
    "a seed that is text": (lambda E, st: st.update(seed="x"), "'seed' must be a whole number or null, not 'x'"),
    "a length cap of 0": (
        lambda E, st: st.update(max_turns=0),
        "'max_turns' must be null or a whole number of at least 1, not 0",
    ),
    "a turn past the cap": (
        lambda E, st: st.update(max_turns=3, turn=4),
        "'turn' 4 is past the length cap, max_turns 3",
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_corrupt_state_is_refused_in_words(E, case):
    mangle, says = CASES[case]
    st = H.position(E, 2, seed=1)
    mangle(E, st)
    for given in (st, json.dumps(st)):
        message = refused(E, given)
        assert message.startswith("invalid state:\n  - ") and says in message, message


def test_a_bool_for_a_count_is_named(E):
    st = H.position(E, 2, seed=1)
    st["seats"][0]["tokens"][E.GEMS[0]] = True
    assert f"seats[0].tokens.{E.GEMS[0]} must be a whole number of at least 0, not True" in refused(E, st)


def test_every_problem_is_listed_in_one_error(E):
    st = H.position(E, 2, seed=1)
    st.update(seed="x", passes=-1, start=5, ending={"trigger": "target", "finish": "complete_round", "last_seat": 7})
    problems = refused(E, st).split("\n")[1:]
    assert len(problems) == 4, problems


def test_json_nested_thousands_deep_is_a_state_error(E):
    assert refused(E, "[" * 100_000 + "]" * 100_000) == ("the state is not a saved game: its JSON is nested too deeply")
    deep = []
    for _ in range(100_000):
        deep = [deep]
    st = H.position(E, 2, seed=1)
    st["start"] = deep
    assert "start: a state is a JSON object, not a list of 1" in refused(E, st)
    st["start"] = None
    st["spec"] = {"name": deep}
    assert "the state is for spec a list of 1" in refused(E, st)


def test_a_number_of_thousands_of_digits_is_a_state_error(E):
    st = H.position(E, 2, seed=1)
    st["passes"] = -(10**5000)
    assert "'passes' must be a whole number of at least 0, not a number of about 5001 digits" in refused(E, st)


def test_a_number_of_thousands_of_digits_in_the_text_is_a_state_error(E):
    text = H.position(E, 2, seed=1)
    text = json.dumps(text).replace('"passes": 0', '"passes": ' + "9" * 5000)
    assert refused(E, text).startswith("the state is not valid JSON: Exceeds the limit")


def test_a_state_with_extra_deep_keys_loads_and_records(E):
    """Unknown keys (play's "table", or anything) are ignored, however deep; record() works after any load."""
    st = H.position(E, 2, seed=3)
    deep = []
    for _ in range(50_000):
        deep = [deep]
    st["junk"] = deep
    game = E.from_json(st)
    record = game.record()
    assert record["start"] is not None and "junk" not in record["start"]
    assert E.replay(record).to_json() == game.to_json()


def test_a_failed_load_changes_no_game(E):
    game = E.new_game(2, seed=5)
    game.apply(game.legal_actions()[0])
    before = game.to_json()
    bad = json.loads(before)
    bad["ending"] = {"trigger": "target", "finish": "complete_round", "last_seat": 7}
    with pytest.raises(E.StateError):
        E.from_json(bad)
    assert game.to_json() == before


def test_every_generated_engine_loads_its_own_states(E):
    for seed in range(6):
        g = E.new_game(2 + seed % 3, seed=seed)
        rng = random.Random(seed)
        while not g.is_over():
            text = g.to_json()
            assert E.from_json(text).to_json() == text
            g.apply(rng.choice(g.legal_actions()))
        assert E.from_json(g.to_json()).to_json() == g.to_json()


# =========================================================================== API edges


def test_apply_refuses_an_array_as_an_illegal_action(E):
    g = E.new_game(2, seed=1)
    a, b = g.legal_actions()[:2]
    before = g.to_json()
    with pytest.raises(E.IllegalAction, match=r"an action is an int id, not ndarray"):
        g.apply(np.array([a, b]))
    assert g.to_json() == before
    g.apply(np.int64(a))
    assert g.history == [a] and type(g.history[0]) is int


@pytest.mark.parametrize(
    "players, says",
    [
        (2.0, "the number of players must be a whole number, not float 2.0"),
        ("2", "the number of players must be a whole number, not str '2'"),
        (True, "the number of players must be a whole number, not bool True"),
        (9, "this engine plays with 2, 3, 4 players, not 9"),
    ],
)
def test_new_game_refuses_a_player_count_in_words(E, players, says):
    with pytest.raises(ValueError, match=re.escape(says)):
        E.new_game(players, seed=1)


def test_numpy_ints_make_games_that_save(E):
    g = E.new_game(np.int64(2), seed=np.int64(7))
    assert g.num_players == 2 and type(g.num_players) is int and g.seed == 7 and type(g.seed) is int
    assert g.to_json() == E.new_game(2, seed=7).to_json()


@pytest.mark.parametrize("seed", [b"x", "x", 1.5])
def test_a_seed_that_is_no_whole_number_is_refused_in_words(E, seed):
    with pytest.raises(ValueError, match=f"a seed must be a whole number, not {type(seed).__name__} "):
        E.new_game(2, seed=seed)


def test_action_to_string_takes_what_apply_takes(E):
    assert E.action_to_string(np.int64(0)) == E.action_to_string(0)
    assert E.describe_action(np.int64(0)) == E.describe_action(0)
    for value, says in (
        (True, "an action id must be a whole number, not bool True"),
        (2.0, "an action id must be a whole number, not float 2.0"),
        (np.int64(-1), "no action has id -1"),
    ):
        with pytest.raises(E.NotationError, match=re.escape(says)):
            E.action_to_string(value)


# =========================================================================== the length cap


def test_official_sets_no_cap_and_saves_as_before(E):
    assert E.MAX_TURNS is None and E.new_game(2, seed=1).max_turns is None
    assert "max_turns" not in json.loads(E.new_game(2, seed=1).to_json())


def test_a_game_that_cannot_end_is_truncated_at_the_spec_cap(endless):
    assert endless.MAX_TURNS == 300
    g = endless.new_game(2, seed=1)
    g.playout(random.Random(1))
    assert g.is_over() and g.is_truncated() and g.phase == "over" and g.end_reason == "truncated"
    assert g.turn == 300 and g.current_player == -1 and g.legal_actions() == []
    assert g.winners() == [] and g.returns() == [0.0, 0.0]
    state = json.loads(g.to_json())
    assert state["max_turns"] == 300 and state["end_reason"] == "truncated"
    assert endless.from_json(g.to_json()).to_json() == g.to_json()
    assert endless.replay(g.record()).to_json() == g.to_json()


def test_greedy_bots_that_cycle_stop_at_the_cap(endless):
    from playtest.bots import make_bot

    g = endless.new_game(2, seed=2, max_turns=120)
    bots = [make_bot("greedy", endless, s) for s in (1, 2)]
    while not g.is_over():
        g.apply(bots[g.current_player].choose(g))
    assert g.is_truncated() and g.turn == 120


def test_new_game_sets_another_cap(endless, E):
    g = endless.new_game(3, seed=1, max_turns=7)
    g.playout(random.Random(3))
    assert g.is_truncated() and g.turn == 7 and json.loads(g.to_json())["max_turns"] == 7
    capped = E.new_game(2, seed=4, max_turns=20)
    capped.playout(random.Random(4))
    assert capped.is_truncated() and capped.turn == 20
    for bad, says in ((0, "max_turns must be at least 1, not 0"), (2.5, "max_turns must be a whole number")):
        with pytest.raises(ValueError, match=says):
            E.new_game(2, seed=1, max_turns=bad)


def test_a_game_that_ends_before_the_cap_is_as_without_it(E):
    free = E.new_game(2, seed=8)
    free.playout(random.Random(8))
    capped = E.new_game(2, seed=8, max_turns=free.turn)
    capped.playout(random.Random(8))
    assert not capped.is_truncated() and capped.winners() == free.winners()
    assert capped.history == free.history


def test_a_version_1_state_without_the_field_takes_the_spec_cap(endless):
    st = json.loads(endless.new_game(2, seed=1).to_json())
    del st["max_turns"]
    assert endless.from_json(st).max_turns == 300
    st["max_turns"] = None
    assert endless.from_json(st).max_turns is None


def test_playout_max_turns_still_pauses_a_capped_game(endless):
    g = endless.new_game(2, seed=1)
    g.playout(random.Random(1), max_turns=10)
    assert g.turn == 11 and not g.is_over()


def test_without_a_cap_the_endless_variant_plays_on(uncapped):
    g = uncapped.new_game(2, seed=1)
    g.playout(random.Random(1), max_turns=2000)
    assert not g.is_over() and uncapped.MAX_TURNS is None


# =========================================================================== where each problem is


PATHS = {
    "ending whose last seat is 7": ("ending", "last_seat"),
    "ending with no trigger": ("ending",),
    "ending by a trigger that ends at once": ("ending", "trigger"),
    "players as a float": ("players",),
    "noble phase where nobody qualifies": ("phase",),
    "payment pending on an empty slot": ("pending",),
    "start as an int": ("start",),
    "huge int": ("supply", "gold"),
    "negative count": ("passes",),
    "string for a seat": ("current_player",),
    "step in the action phase": ("step",),
    "finished game without an end reason": ("end_reason",),
    "a turn past the cap": ("turn",),
}


@pytest.mark.parametrize("case", sorted(PATHS))
def test_each_problem_carries_the_path_of_its_value(E, case):
    """StateError.problems: (path, sentence) pairs whose sentences are the message's lines, and
    whose path leads to the value the sentence is about (for tools that point into the file)."""
    mangle, says = CASES[case]
    st = H.position(E, 2, seed=1)
    mangle(E, st)
    with pytest.raises(E.StateError) as info:
        E.from_json(st)
    problems = info.value.problems
    assert str(info.value) == "invalid state:\n" + "\n".join(f"  - {sentence}" for _, sentence in problems)
    assert [path for path, sentence in problems if says in sentence] == [PATHS[case]], problems


def test_paths_lead_into_seats_lists_and_start(E):
    st = H.position(E, 2, seed=1)
    dup = st["decks"]["2"][3]
    st["seats"][1]["reserved"] = [5, dup]  # 5 is of level 1 and lies in its deck too
    st["seats"][0]["tokens"][E.GEMS[1]] = -1
    st["market"]["3"][2] = 999
    st["start"] = dict(H.position(E, 2, seed=2), version=7)
    with pytest.raises(E.StateError) as info:
        E.from_json(st)
    paths = [path for path, _ in info.value.problems]
    assert ("seats", 0, "tokens", E.GEMS[1]) in paths
    assert ("market", "3", 2) in paths
    assert ("start", "version") in paths
    doubled = {path: sentence for path, sentence in info.value.problems if "more than once" in sentence}
    assert set(doubled) == {("decks", "1", st["decks"]["1"].index(5)), ("decks", "2", 3)}
    assert doubled[("decks", "2", 3)] == f"card {dup} appears more than once (at seats[1].reserved[1] too)"


def test_a_text_that_is_no_json_has_no_problems_to_point_at(E):
    with pytest.raises(E.StateError) as info:
        E.from_json("{oops")
    assert info.value.problems == ()


# =========================================================================== cards out of play


def without(E, removed: dict[str, list[int]], listed: bool = True) -> dict:
    """A fresh 2-player position with the cards `removed` (level -> ids) taken from their decks,
    listed in 'out_of_play' (or nowhere, when not `listed`)."""
    st = H.position(E, 2, seed=3)
    for level, cards in removed.items():
        st["decks"][level] = [c for c in st["decks"][level] if c not in cards]
    if listed:
        st["out_of_play"] = removed
    return st


def deck_cards(E, level: str, count: int) -> list[int]:
    return H.position(E, 2, seed=3)["decks"][level][-count:]


def test_a_position_with_a_card_nowhere_names_the_field_that_takes_it(E):
    card = deck_cards(E, "1", 1)[0]
    assert refused(E, without(E, {"1": [card]}, listed=False)) == (
        f"invalid state:\n  - 1 card(s) are nowhere: {card} (cards out of the game are listed in 'out_of_play', "
        "by level)"
    )


def test_a_position_with_cards_out_of_play_loads_plays_records_and_replays(E):
    removed = {"1": deck_cards(E, "1", 2), "3": deck_cards(E, "3", 20)}  # every card of deck 3 but the face-up ones
    game = H.load(E, without(E, removed))
    saved = json.loads(game.to_json())
    assert saved["out_of_play"] == {"1": removed["1"], "2": [], "3": removed["3"]}
    assert saved["decks"]["3"] == [] and game.observation(1)["out_of_play"] == saved["out_of_play"]
    rng = random.Random(5)
    while not game.is_over() and len(game.history) < 400:
        game.apply(rng.choice(game.legal_actions()))
    assert json.loads(game.to_json())["out_of_play"] == saved["out_of_play"]
    again = E.replay(json.loads(json.dumps(game.record())))
    assert again.to_json() == game.to_json()
    assert E.from_json(game.to_json()).to_json() == game.to_json()  # its start is checked against its history
    assert game.clone().to_json() == game.to_json()


def test_no_card_out_of_play_saves_as_before(E):
    game = E.new_game(2, seed=3)
    assert "out_of_play" not in json.loads(game.to_json())
    st = H.position(E, 2, seed=3)
    for empty in ({"1": [], "2": [], "3": []}, None, {}):
        assert E.from_json(dict(st, out_of_play=empty)).to_json() == game.to_json()


@pytest.mark.parametrize(
    "case, says, path",
    [
        (
            "a card of another level",
            "card {c2} is of level 2 but is listed out of play at level 1",
            ("out_of_play", "1", 0),
        ),
        ("a card also in its deck", "card {c1} appears more than once (at decks.1[", ("out_of_play", "1", 0)),
        ("an unknown card", "out_of_play[1]: unknown card 999 (cards are 0 to 89)", ("out_of_play", "1", 0)),
        (
            "a level the game has not",
            "'out_of_play' must be an object from levels (1, 2, 3) to the ids of the cards out of the game",
            ("out_of_play",),
        ),
        ("a list", "'out_of_play' must be an object from levels (1, 2, 3)", ("out_of_play",)),
        ("a level that is no list", "out_of_play[2] must be a list of card ids", ("out_of_play", "2")),
    ],
)
def test_cards_out_of_play_are_checked_as_every_other_place(E, case, says, path):
    c1, c2 = deck_cards(E, "1", 1)[0], deck_cards(E, "2", 1)[0]
    st = without(E, {"2": [c2]})
    st["out_of_play"] = {
        "a card of another level": {"1": [c2]},
        "a card also in its deck": {"1": [c1], "2": [c2]},
        "an unknown card": {"1": [999], "2": [c2]},
        "a level the game has not": {"2": [c2], "4": []},
        "a list": [c2],
        "a level that is no list": {"2": c2},
    }[case]
    with pytest.raises(E.StateError) as info:
        E.from_json(st)
    sentences = dict((tuple(p), s) for p, s in info.value.problems)
    assert path in sentences, info.value.problems
    assert sentences[path].startswith(says.format(c1=c1, c2=c2)), sentences[path]
