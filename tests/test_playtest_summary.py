"""The designer's summary (issue 18, item 5), against hand-computed values.

Capped games counted apart and left out of lengths; margin of victory; uses of each
decision per game with the note on rarely used rules; the skill check; and each measure's
difference from the first spec with its test.
"""

from __future__ import annotations

import math

import pytest

from playtest import simulate as sim
from playtest import stats
from playtest.simulate import GameResult, SpecSummary


def game(index, rounds, winners, scores, seats=("greedy", "random"), uses=(), over=True, tied=False):
    return GameResult(
        index=index,
        seed=100 + index,
        rounds=rounds,
        turns=2 * rounds,
        winners=tuple(winners),
        scores=tuple(scores),
        over=over,
        stuck=False,
        passes=0,
        tied=tied,
        end="target" if over else None,
        seats=tuple(seats),
        uses=tuple(uses),
    )


A = [
    game(0, 20, [0], [15, 10], uses=(("take", 10), ("pass", 0))),
    game(1, 22, [1], [12, 16], seats=("random", "greedy"), uses=(("take", 12), ("pass", 0))),
    game(2, 24, [0], [17, 9], seats=("random", "greedy"), uses=(("take", 8), ("pass", 1))),
    game(3, 30, [0, 1], [15, 15], uses=(("take", 14), ("pass", 0)), tied=True),
    game(4, 500, [], [3, 4], over=False, uses=(("take", 900), ("pass", 0))),
]


def summary(results=A, steps=()):
    return SpecSummary("a.yaml", "a", results, len(results), steps=steps)


def test_capped_games_are_counted_apart_and_left_out_of_lengths():
    d = summary().to_dict(2)
    assert d["capped"] == {"games": 1, "seeds": [104], "indexes": [4]}
    assert d["rounds"]["mean"] == 24.0 and d["rounds"]["max"] == 30  # (20 + 22 + 24 + 30) / 4; 500 left out


def test_margin_of_victory():
    # one-winner games: 15 - 10 = 5, 16 - 12 = 4, 17 - 9 = 8; the shared and capped games have none
    d = summary().to_dict(2)
    assert d["margin"] == {"games": 3, "mean": pytest.approx(17 / 3), "median": 5.0}


def test_uses_per_game_and_the_rare_note():
    d = summary().to_dict(2)
    assert d["uses"]["take"] == {"per_game": 11.0, "games_using": 4, "rare": False}  # (10 + 12 + 8 + 14) / 4
    assert d["uses"]["pass"] == {"per_game": 0.25, "games_using": 1, "rare": False}
    rare = [game(i, 20, [0], [15, 3], uses=(("take", 10), ("sweep", 1 if i == 0 else 0))) for i in range(25)]
    d = summary(rare).to_dict(2)
    assert d["uses"]["sweep"]["per_game"] == 0.04 and d["uses"]["sweep"]["rare"] is True
    # a step counts only when a player was asked: never called rare
    assert summary(rare, steps=("sweep",)).to_dict(2)["uses"]["sweep"]["rare"] is False


def test_seat_advantage_and_bot_strength_apart():
    d = summary().to_dict(2)
    assert [s["wins"] for s in d["seats"]] == [3, 2]  # seat 1 won games 0, 2, 3; seat 2 games 1, 3
    bots = {b["bot"]: b for b in d["bots"]}
    # greedy: seat 1 in 0, 3, 4 and seat 2 in 1, 2: won 0, 1, 3 -> 3 of 5; random won 2 and 3 -> 2 of 5
    assert (bots["greedy"]["seat_games"], bots["greedy"]["wins"]) == (5, 3)
    assert (bots["random"]["seat_games"], bots["random"]["wins"]) == (5, 2)
    assert bots["greedy"]["ci95"] == pytest.approx(list(stats.wilson(3, 5)))


def test_skill_check():
    # games won alone: greedy 0 and 1, random 2 -> greedy's share 2 / 3
    assert summary().skill(["greedy", "random"]) == ("greedy", "random", 2, 3)
    assert summary().skill(["greedy"]) is None
    run = sim.Simulation(2, 5, ("greedy", "random"), 0, 1000, [summary()])
    skill = run.to_dict()["specs"][0]["skill"]
    assert skill["share"] == pytest.approx(2 / 3) and skill["ci95"] == pytest.approx(list(stats.wilson(2, 3)))


def test_differences_from_the_first_spec_use_the_test_that_suits_each():
    other = [game(i, 26, [0], [15, 5], uses=(("take", 20),)) for i in range(4)] + [
        game(9, 500, [], [1, 1], over=False, uses=(("take", 1),)),
        game(10, 500, [], [1, 1], over=False),
    ]
    c = sim.compare(summary(), summary(other), 2)
    assert c["margin"]["difference"] == pytest.approx(10 - 17 / 3)
    assert c["margin"]["welch"]["test"] == "welch_t"
    assert c["margin"]["welch"]["p_value"] == pytest.approx(stats.welch([10] * 4, [5, 4, 8]).p_value)
    assert c["uses_per_game"]["take"]["difference"] == pytest.approx(20 - 11)
    assert c["uses_per_game"]["pass"]["difference"] == pytest.approx(0 - 0.25)
    assert c["capped"]["difference"] == pytest.approx(2 / 6 - 1 / 5)
    assert c["capped"]["two_proportion"]["test"] == "two_proportion_z"
    z = stats.two_proportions(2, 6, 1, 5)
    assert c["capped"]["two_proportion"]["statistic"] == pytest.approx(z.statistic)
    run = sim.Simulation(2, 5, ("greedy", "random"), 0, 1000, [summary(), summary(other)])
    skill = run.to_dict()["comparisons"][0]["skill"]
    assert skill["difference"] == pytest.approx(4 / 4 - 2 / 3)
    assert not math.isnan(skill["two_proportion"]["p_value"])


def test_the_table_shows_the_new_measures():
    run = sim.Simulation(2, 5, ("greedy", "random"), 0, 1000, [summary(), summary()])
    text = sim.format_table(run)
    for row in (
        "capped (not in lengths)",
        "margin of victory, mean",
        "skill: greedy beats random",
        "take per game",
        "vs first: margin",
        "vs first: skill",
        "vs first: take",
    ):
        assert row in text, row
