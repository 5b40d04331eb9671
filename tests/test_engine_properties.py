"""Random-play properties of a generated engine (hypothesis over seeds and player counts).

The checks are plain functions taking the engine module and its rule model, so another
engine (a variant's) is tested the same way::

    from test_engine_properties import play_and_check
    E = engine_helpers.load_engine("generated/engines/target-12.py")
    rules = engine_helpers.load_spec("variants/target-12.yaml")
    play_and_check(E, rules, players=3, seed=1, choice_seed=2)

At every decision: per-colour token conservation, every card exactly once, nobles never
duplicated, at most token_limit tokens at each end of turn (a return step only above
it), at most reserve_limit reserved, bonuses and prestige equal to what the cards and
nobles give, consistent attributes, legal_mask, to_json/from_json round trip, random
illegal actions refused with the state unchanged. At the end: which end was reached,
the same number of turns for everyone when a complete-round trigger ended the game,
winners by the spec's ranking, returns, and replay(record()) reproducing the game.
Limits are read from the spec (absent limits are not checked), never written here.
"""

from __future__ import annotations

import collections
import json
import random
from types import ModuleType

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tests.helpers.engines as H

MAX_DECISIONS = 20_000  # a random game far longer than this is a bug (the deadlock rule ends stuck games)


class Checker:
    """The invariants of one game of one engine, checked position by position."""

    def __init__(self, E: ModuleType, rules, players: int):
        self.E, self.rules, self.players = E, rules, players
        self.values = H.values(rules)
        row = H.setup_row(rules, players)
        self.totals = {**dict.fromkeys(E.GEMS, row.gems), E.WILD: row.gold}
        self.nobles_in_play = row.nobles
        self.finish = {t.name: t.finish for t in rules.end}
        # end-of-turn steps, and the payment step in which a purchase with several payments is paid
        self.steps = {d.name for d in rules.steps} | ({"payment"} if "payment" in E.DECISIONS else set())

    # ------------------------------------------------------------------ one position
    def position(self, game, state: dict) -> None:
        E, n = self.E, self.players
        seats = state["seats"]
        assert len(seats) == n == game.num_players

        # tokens: conserved per colour, never negative
        for c in E.COLOURS:
            total = state["supply"][c] + sum(s["tokens"][c] for s in seats)
            assert total == self.totals[c], f"{c}: {total} tokens in play, the setup has {self.totals[c]}"
            assert state["supply"][c] >= 0 and all(s["tokens"][c] >= 0 for s in seats)

        # cards: each exactly once
        places = [c for row in state["market"].values() for c in row if c is not None]
        places += [c for deck in state["decks"].values() for c in deck]
        for s in seats:
            places += s["reserved"] + s["purchased"]
        counts = collections.Counter(places)
        assert sorted(counts) == list(range(len(E.CARDS))) and set(counts.values()) == {1}, (
            f"cards not all exactly once: twice {[c for c, k in counts.items() if k > 1]}, "
            f"missing {sorted(set(range(len(E.CARDS))) - set(counts))}"
        )
        for level, row in state["market"].items():
            assert all(c is None or E.CARDS[c].level == int(level) for c in row)
        for level, deck in state["decks"].items():
            assert all(E.CARDS[c].level == int(level) for c in deck)

        # nobles: never duplicated, never more than were revealed
        nobles = state["nobles"] + [x for s in seats for x in s["nobles"]]
        assert len(nobles) == len(set(nobles)) == self.nobles_in_play

        # limits
        limit = self.values.get("token_limit")
        reserve_limit = self.values.get("reserve_limit")
        for p, s in enumerate(seats):
            if reserve_limit is not None:
                assert len(s["reserved"]) <= reserve_limit, f"seat {p} holds {len(s['reserved'])} reserved"
            if limit is not None and state["phase"] in ("action", "over"):
                assert sum(s["tokens"].values()) <= limit, f"seat {p} ended a turn with over {limit} tokens"
        if limit is not None and state["phase"] == "return_tokens":
            assert sum(seats[state["current_player"]]["tokens"].values()) > limit

        # derived numbers
        for p, s in enumerate(seats):
            bonus = [0] * len(E.GEMS)
            for c in s["purchased"]:
                bonus[E.GEMS.index(E.CARDS[c].bonus)] += 1
            assert list(game.bonus[p]) == bonus
            points = sum(E.CARDS[c].points for c in s["purchased"]) + sum(E.NOBLES[x].points for x in s["nobles"])
            assert game.prestige[p] == points, f"seat {p}: prestige {game.prestige[p]}, cards and nobles give {points}"
        assert list(game.scores()) == list(game.prestige)

        # attributes agree with the JSON
        assert (game.current_player, game.phase, game.round, game.turn) == (
            state["current_player"],
            state["phase"],
            state["round"],
            state["turn"],
        )
        assert list(game.supply) == [state["supply"][c] for c in E.COLOURS]
        for p, s in enumerate(seats):
            assert list(game.tokens[p]) == [s["tokens"][c] for c in E.COLOURS]
            assert list(game.purchased[p]) == s["purchased"] and list(game.reserved[p]) == s["reserved"]
            assert list(game.nobles[p]) == s["nobles"]
        assert [list(r) for r in game.market] == [state["market"][str(lv)] for lv in E.LEVELS]
        assert [list(d)[::-1] for d in game.decks] == [state["decks"][str(lv)] for lv in E.LEVELS]
        assert list(game.noble_row) == state["nobles"]
        assert state["turn"] == sum(s["turns"] for s in seats)
        assert state["phase"] in ("action", "over") or state["phase"] in self.steps

        # legal actions
        legal = game.legal_actions()
        assert legal == sorted(set(legal)) and all(0 <= a < E.NUM_ACTIONS for a in legal)
        assert [a for a, ok in enumerate(game.legal_mask()) if ok] == legal
        assert game.is_over() == (state["phase"] == "over") == (not legal)
        if not game.is_over():
            assert list(game.returns()) == [0.0] * self.players

    # ------------------------------------------------------------------ JSON and refusals
    def round_trip(self, game, text: str) -> None:
        copy = self.E.from_json(text)
        assert copy.to_json() == text, "from_json(to_json()) does not give the same state back"
        assert copy.legal_actions() == game.legal_actions()

    def refusals(self, game, text: str, rng: random.Random, probes: int) -> None:
        legal = set(game.legal_actions())
        if len(legal) >= self.E.NUM_ACTIONS:
            return
        for _ in range(probes):
            a = rng.randrange(self.E.NUM_ACTIONS)
            while a in legal:
                a = rng.randrange(self.E.NUM_ACTIONS)
            with pytest.raises(self.E.IllegalAction):
                game.apply(a)
            assert game.to_json() == text, f"refusing action {a} ({self.E.action_to_string(a)}) changed the state"

    def every_legal_action_applies(self, game) -> None:
        """Each legal action applies (on a clone) and keeps tokens and cards where they belong."""
        E = self.E
        before = list(game.history)
        for a in game.legal_actions():
            trial = game.clone()
            trial.apply(a)
            assert list(trial.history) == before + [a]
            for i, c in enumerate(E.COLOURS):
                total = trial.supply[i] + sum(t[i] for t in trial.tokens)
                assert total == self.totals[c], f"{E.action_to_string(a)} leaves {total} {c} tokens in play"
            cards = sum(len(d) for d in trial.decks) + sum(c is not None for r in trial.market for c in r)
            cards += sum(len(x) for x in trial.purchased) + sum(len(x) for x in trial.reserved)
            assert cards == len(E.CARDS), f"{E.action_to_string(a)} leaves {cards} cards in play"

    # ------------------------------------------------------------------ the end
    def end(self, game, state: dict) -> None:
        seats = state["seats"]
        ending = state["ending"]
        if ending is not None:  # a pending end (one that completes the round)
            assert self.finish.get(ending["trigger"]) == "complete_round", f"ending {ending}"
        # Why the game ended: the contract's state has only `ending`, which an immediate end
        # leaves null; the engines add "end_reason" (the trigger's name) for that.
        reason = state["end_reason"] if "end_reason" in state else (ending or {}).get("trigger")
        assert reason is not None, "the game is over but its state does not say which end it reached"
        if self.finish.get(reason) == "complete_round":
            turns = [s["turns"] for s in seats]
            assert len(set(turns)) == 1, f"{reason} ended the game with turns {turns}"
        winners = list(game.winners())
        assert winners == sorted(set(winners)) and all(0 <= w < self.players for w in winners)
        expected = self.expected_winners(game, state)
        if expected is not None:
            assert winners == expected, f"winners {winners}, the ranking gives {expected}"
        assert list(game.returns()) == [1.0 if p in winners else -1.0 for p in range(self.players)]

    def expected_winners(self, game, state: dict) -> list[int] | None:
        """The winners by the spec's ranking when it ranks by plain player attributes (else None)."""
        from compiler.front import expr

        def attribute(e):
            if isinstance(e, expr.Attribute) and isinstance(e.obj, expr.Name) and e.obj.id == "player":
                return e.name
            return None

        w = self.rules.winners
        if not (isinstance(w.eligible, expr.Bool) and w.eligible.value) or w.ties != "shared":
            return None
        getters = {
            "prestige": lambda p: game.prestige[p],
            "purchased": lambda p: len(state["seats"][p]["purchased"]),
            "reserved": lambda p: len(state["seats"][p]["reserved"]),
            "nobles": lambda p: len(state["seats"][p]["nobles"]),
            "held": lambda p: sum(state["seats"][p]["tokens"].values()),
        }
        keys = []
        for level in w.ranking:
            name = attribute(level.by)
            if name not in getters:
                return None
            keys.append((getters[name], 1 if level.prefer == "lowest" else -1))

        def key(p):
            return tuple(sign * get(p) for get, sign in keys)

        best = min(key(p) for p in range(self.players))
        return [p for p in range(self.players) if key(p) == best]


def play_and_check(
    E: ModuleType,
    rules,
    players: int,
    seed: int,
    choice_seed: int,
    *,
    round_trip: bool = True,
    probes: int = 1,
    all_legal: bool = True,
    replay: bool = True,
):
    """Play one game by uniform random choice among legal actions, checking every position.

    round_trip: from_json(to_json()) at every decision; probes: random illegal actions tried
    per decision; all_legal: every legal action applied to a clone at every decision;
    replay: replay(record()) at the end. Returns the finished game.
    """
    checker = Checker(E, rules, players)
    game = E.new_game(players, seed=seed)
    rng = random.Random(choice_seed)
    history = []
    for _ in range(MAX_DECISIONS):
        text = game.to_json()
        state = json.loads(text)
        checker.position(game, state)
        assert list(game.history) == history == state["history"]
        if round_trip:
            checker.round_trip(game, text)
        if probes:
            checker.refusals(game, text, rng, probes)
        if all_legal:
            checker.every_legal_action_applies(game)
        if game.is_over():
            checker.end(game, state)
            break
        a = rng.choice(game.legal_actions())
        game.apply(a)
        history.append(a)
    else:
        pytest.fail(f"{players} players, seed {seed}: no end after {MAX_DECISIONS} random decisions")
    if replay:
        again = E.replay(json.loads(json.dumps(game.record())))
        assert again.to_json() == game.to_json(), "replay(record()) does not reproduce the game"
    return game


# =========================================================================== the official engine

OFFICIAL = H.official_engine()
RULES = H.official_rules()
PLAYER_COUNTS = [p.players for p in RULES.players]
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
SETTINGS = dict(deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("players", PLAYER_COUNTS)
@settings(max_examples=100, **SETTINGS)
@given(seed=SEEDS, choice_seed=SEEDS)
def test_random_games_keep_every_invariant(players, seed, choice_seed):
    play_and_check(
        OFFICIAL, RULES, players, seed, choice_seed, round_trip=False, probes=0, all_legal=False, replay=False
    )


@pytest.mark.parametrize("players", PLAYER_COUNTS)
@settings(max_examples=30, **SETTINGS)
@given(seed=SEEDS, choice_seed=SEEDS)
def test_random_games_round_trip_apply_every_legal_action_refuse_illegal_ones_and_replay(players, seed, choice_seed):
    play_and_check(OFFICIAL, RULES, players, seed, choice_seed, round_trip=True, probes=2, all_legal=True, replay=True)


def test_engine_and_spec_agree_on_player_counts():
    assert tuple(OFFICIAL.PLAYER_COUNTS) == tuple(PLAYER_COUNTS)
