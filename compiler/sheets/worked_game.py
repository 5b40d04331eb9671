"""Sheets, the worked example's game: a real game of the spec, played by its own engine.

Takes a generated engine module (through its public API only: ``new_game``, ``legal_actions``,
``clone``, ``apply``, the state attributes, ``describe_action``, ``action_to_string``) and the
rule model; returns a :class:`WorkedGame`, plain data: the deal's seed, every move as the
engine writes it, and each seat's position where the end was triggered and where the game
ended. :mod:`.content.worked` phrases it; ``tests/test_worked_example.py`` replays it.

The game is found, not written: deals 0, 1, 2... are played by a one-move look-ahead (the
move after which the player has the most prestige, then bonuses, then tokens; ties broken by a
generator seeded with the deal), and the first game that shows best what the spec is about is
kept: one winner, who triggered the end, who took each rule a variant adds (a city claimed, a
post opened and its power used), tied on prestige so that the ranking shows its next level and,
where the rules have them, with a noble. The same spec gives
the same game, so a sheet is deterministic; a variant gets a game of its own rules.

The engine is the caller's (the driver compiles it: this stage comes before emit).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..model import Rules

DEALS = 20  # the deals tried, at most (a game takes some 30 to 100 ms)
MAX_TURNS = 200  # a game that long is no example
UNRULED = ("truncated", "stuck")  # the ends no trigger of the rules makes


@dataclass(frozen=True)
class Seat:
    """A seat's position: its prestige, the components it holds (ids) and its turns played."""

    prestige: int
    purchased: tuple[int, ...]
    nobles: tuple[int, ...]
    reserved: tuple[int, ...]
    holdings: tuple[tuple[str, tuple[int, ...]], ...]  # the spec's own zones and state per seat: (name, ids)
    turns: int
    tokens: tuple[int, ...] = ()  # per colour, in the spec's colour order

    def held(self, name: str) -> tuple[int, ...]:
        """The components in the seat's zone or set of the spec's own named `name`."""
        return dict(self.holdings).get(name, ())


@dataclass(frozen=True)
class Move:
    seat: int
    decision: str  # the action's or step's name in the spec
    text: str  # the move as the engine writes it
    turn: int  # the seat's own turn it is played in (1: its first)
    gained: tuple[str, ...] = ()  # the seat's zones and sets of the spec's own that grew with it (steps included)


@dataclass(frozen=True)
class WorkedGame:
    """A finished game of the spec: what the worked example states, and how to play it again."""

    spec: str
    players: int
    seed: int
    moves: tuple[Move, ...]
    winners: tuple[int, ...]
    end_reason: str
    trigger: str | None  # the end trigger that fired (None: the game ended otherwise)
    trigger_seat: int | None  # the seat whose turn triggered the end
    at_trigger: tuple[Seat, ...]  # every seat at the end of the turn that triggered the end
    at_end: tuple[Seat, ...]  # every seat when the game is over

    def first(self, seat: int, decision: str) -> Move | None:
        """The first move of `seat` by the rule `decision`."""
        return next((m for m in self.moves if m.seat == seat and m.decision == decision), None)

    def first_gain(self, seat: int, name: str) -> Move | None:
        """The move with which `seat`'s zone or set `name` first grew."""
        return next((m for m in self.moves if m.seat == seat and name in m.gained), None)


def added_decisions(rules: Rules) -> tuple[str, ...]:
    """The actions and steps a variant adds to its base that a player chooses (what its example
    should show taken); a step that applies itself (resolve: all) shows in what it gives."""
    added = {
        c.path.split(".")[1]
        for c in rules.changes
        if c.kind == "add" and c.path.split(".")[0] in ("actions", "end_of_turn") and c.path.count(".") == 1
    }
    return tuple(d.name for d in (*rules.actions, *rules.steps) if d.name in added and d.resolve != "all")


def added_holdings(rules: Rules) -> tuple[str, ...]:
    """The zones and sets of components held by each seat that a variant adds (a city claimed,
    a trading post opened: what its example should show gained)."""
    added = {
        c.path.split(".")[1]
        for c in rules.changes
        if c.kind == "add" and c.path.split(".")[0] in ("zones", "state") and c.path.count(".") == 1
    }
    zones = [z.name for z in rules.zones if z.per_player and z.name in added]
    return tuple(zones + [v.name for v in rules.variables if v.per_player and v.name in added])


def seat_of(game: Any, module: Any, p: int) -> Seat:
    """Seat `p` of `game` as plain data."""
    holdings = tuple((z.name, tuple(getattr(game, z.attribute)[p])) for z in module.ZONES if z.per_player)
    holdings += tuple(
        (v.name, tuple(sorted(getattr(game, v.attribute)[p]))) for v in module.VARIABLES if v.per_player and v.kind
    )
    return Seat(
        int(game.prestige[p]),
        tuple(game.purchased[p]),
        tuple(game.nobles[p]),
        tuple(game.reserved[p]),
        holdings,
        int(game.turns[p]),
        tuple(int(n) for n in game.tokens[p]),
    )


def _choose(game: Any, rng: random.Random) -> int:
    """The one-move look-ahead: the legal move after which the acting seat stands best."""
    p = game.current_player
    best: tuple[float, int] | None = None
    for action in game.legal_actions():
        after = game.clone()
        after.apply(action)
        value = after.prestige[p] * 100 + sum(after.bonus[p]) * 12 + sum(after.tokens[p]) + rng.random()
        if best is None or value > best[0]:
            best = (value, action)
    assert best is not None  # a game that is not over has a legal move
    return best[1]


def play(module: Any, players: int, seed: int, choose: Callable[[Any, random.Random], int] = _choose) -> WorkedGame:
    """Deal `seed` played to its end (or MAX_TURNS) by `choose`."""
    game = module.new_game(players, seed=seed, max_turns=MAX_TURNS)
    rng = random.Random(seed)
    moves: list[Move] = []
    at_trigger: tuple[Seat, ...] = ()
    trigger_seat = trigger = None
    while not game.is_over():
        p = game.current_player
        action = choose(game, rng)
        before = seat_of(game, module, p)
        move = Move(p, module.describe_action(action)[0], module.action_to_string(action), int(game.turns[p]))
        was_ending = game.ending is not None
        game.apply(action)
        after = seat_of(game, module, p)
        gained = tuple(
            name for (name, ids), (_, old) in zip(after.holdings, before.holdings, strict=True) if set(ids) - set(old)
        )
        moves.append(Move(move.seat, move.decision, move.text, move.turn, gained))
        ended_at_once = game.is_over() and game.ending is None and game.end_reason not in UNRULED
        if trigger_seat is None and ((not was_ending and game.ending is not None) or ended_at_once):
            trigger_seat = p
            trigger = game.ending[0] if game.ending is not None else str(game.end_reason)
            at_trigger = tuple(seat_of(game, module, q) for q in range(players))
    return WorkedGame(
        str(module.SPEC_NAME),
        players,
        seed,
        tuple(moves),
        tuple(game.winners()),
        str(game.end_reason),
        trigger,
        trigger_seat,
        at_trigger,
        tuple(seat_of(game, module, q) for q in range(players)),
    )


def replay(module: Any, worked: WorkedGame) -> WorkedGame:
    """The game `worked` states, played again from its moves: the same moves give the same game
    (a test holds it), and a move the engine refuses raises its IllegalAction."""
    moves = iter(worked.moves)
    return play(module, worked.players, worked.seed, choose=lambda game, rng: module.string_to_action(next(moves).text))


def merit(worked: WorkedGame, rules: Rules, wanted: tuple[tuple[str, ...], tuple[str, ...]]) -> tuple[int, ...]:
    """How well a game shows the rules (compared as a tuple, higher is better): one winner, and the
    end made by the rules' first trigger (their aim); each added rule the winner took; the winner
    triggered the end; a tie on prestige that the ranking's next levels break; a noble of the
    winner's; then the shorter game."""
    if len(worked.winners) != 1 or worked.trigger is None or worked.trigger != rules.end[0].name:
        return (0,)  # shared, unfinished, or ended by another trigger than the game's aim (a deadlock)
    winner = worked.winners[0]
    decisions, holdings = wanted
    took = sum(1 for d in decisions if worked.first(winner, d) is not None)
    took += sum(1 for name in holdings if worked.at_end[winner].held(name))
    nobles = 1 if _has_nobles(rules) and worked.at_trigger[winner].nobles else 0
    tied = int(sorted(s.prestige for s in worked.at_end)[-2:] == [worked.at_end[winner].prestige] * 2)
    return (1, took, int(worked.trigger_seat == winner), tied, nobles, -len(worked.moves))


def _has_nobles(rules: Rules) -> bool:
    return bool(rules.nobles) and any(p.nobles for p in rules.players)


def find(module: Any, rules: Rules) -> WorkedGame | None:
    """The game the worked example of `rules` tells (see the module's docstring); None when no
    deal tried ends with one winner."""
    counts = tuple(module.PLAYER_COUNTS)
    players = 2 if 2 in counts else min(counts)
    wanted = (added_decisions(rules), added_holdings(rules))
    best: tuple[tuple[int, ...], WorkedGame] | None = None
    perfect = (1, len(wanted[0]) + len(wanted[1]), 1, 1, int(_has_nobles(rules)))
    for seed in range(DEALS):
        try:
            worked = play(module, players, seed)
        except module.RuleError:  # a spec that made an impossible move legal (E535): no example of it
            continue
        score = merit(worked, rules, wanted)
        if best is None or score > best[0]:
            best = (score, worked)
        if score[:5] == perfect:
            break
    return best[1] if best is not None and best[0][0] == 1 else None
