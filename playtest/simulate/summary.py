"""What a run's games say, per spec and against the first spec: :class:`Simulation` as data.

:class:`SpecSummary` holds one spec's results (game-index order) and summarises them: lengths,
win rates by seat and by bot with their intervals, ends, margins, how often each decision was
made; :func:`compare` tests another spec's differences from the first. ``Simulation.to_dict``
is the whole run as data (no timings: the same seed gives the same dict), which every output
(:mod:`playtest.simulate.formats`, records, plots, the HTML report) reads.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .. import stats
from .game import GameResult, seatings


@dataclass
class SpecSummary:
    label: str
    name: str
    results: list[GameResult]
    requested: int
    sha256: str | None = None  # the engine's SPEC_SHA256: a record names the rules its moves are for
    steps: tuple[str, ...] = ()  # the engine's end-of-turn steps: counted only when a player was asked

    @property
    def games(self) -> int:
        return len(self.results)

    def rounds(self) -> list[int]:
        """Lengths of the games that ended by the rules: a game stopped at the cap has no length."""
        return [r.rounds for r in self.results if r.over]

    def capped(self) -> list[GameResult]:
        return [r for r in self.results if not r.over]

    def margins(self) -> list[int]:
        """Margins of victory of the games one seat won."""
        return [r.margin for r in self.results if len(r.winners) == 1 and r.margin is not None]

    def uses(self) -> dict[str, list[int]]:
        """Per decision, the times it was made in each game (0 in a game that never made it)."""
        played = [r for r in self.results if r.over]  # a capped game has no "per game" to speak of
        names = list(dict.fromkeys(name for r in played for name, _ in r.uses))
        return {name: [dict(r.uses).get(name, 0) for r in played] for name in names}

    def skill(self, bots: Sequence[str]) -> tuple[str, str, int, int] | None:
        """With two different bots in the lineup: (first bot, second bot, games the first won
        alone against the second, games either won alone); None otherwise."""
        names = list(dict.fromkeys(bots))
        if len(names) != 2:
            return None
        first = second = 0
        for r in self.results:
            if len(r.winners) != 1 or not r.seats:
                continue
            who = r.seats[r.winners[0]]
            first += who == names[0]
            second += who == names[1]
        return names[0], names[1], first, first + second

    def seat_wins(self, players: int) -> list[int]:
        wins = [0] * players
        for r in self.results:
            for w in r.winners:
                wins[w] += 1
        return wins

    def bot_wins(self) -> dict[str, tuple[int, int]]:
        """Per bot name: (seat-games played, seat-games won); a shared victory counts for each winner."""
        out: dict[str, list[int]] = {}
        for r in self.results:
            for p, name in enumerate(r.seats):
                entry = out.setdefault(name, [0, 0])
                entry[0] += 1
                entry[1] += p in r.winners
        return {name: (n, k) for name, (n, k) in out.items()}

    def share(self, pred) -> float:
        return sum(1 for r in self.results if pred(r)) / self.games if self.games else math.nan

    def to_dict(self, players: int) -> dict:
        n = self.games
        rounds = self.rounds()
        wins = self.seat_wins(players)
        winning = [max(r.scores[w] for w in r.winners) for r in self.results if r.winners]
        ends: dict[str, int] = {}
        for r in self.results:
            key = r.end if r.end is not None else "cap"
            ends[key] = ends.get(key, 0) + 1
        return {
            "spec": self.label,
            "name": self.name,
            "games": n,
            "requested": self.requested,
            "rounds": {
                "mean": _num(stats.mean(rounds)),
                "median": _num(stats.median(rounds)),
                "sd": _num(math.sqrt(stats.variance(rounds)) if n > 1 else math.nan),
                "min": min(rounds, default=None),
                "max": max(rounds, default=None),
            },
            "seats": [
                {
                    "seat": s + 1,
                    "wins": wins[s],
                    "win_rate": _num(wins[s] / n if n else math.nan),
                    "ci95": [_num(x) for x in stats.wilson(wins[s], n)],
                }
                for s in range(players)
            ],
            "bots": [
                {
                    "bot": name,
                    "seat_games": n,
                    "wins": k,
                    "win_rate": _num(k / n if n else math.nan),
                    "ci95": [_num(x) for x in stats.wilson(k, n)],
                }
                for name, (n, k) in sorted(self.bot_wins().items())
            ],
            "winning_prestige": _num(stats.mean(winning)),
            "shares": {
                "ties": _num(self.share(lambda r: r.tied)),
                "shared_victories": _num(self.share(lambda r: len(r.winners) > 1)),
                "no_winner": _num(self.share(lambda r: r.over and not r.winners)),
                "passes": _num(self.share(lambda r: r.passes > 0)),
                "stuck": _num(self.share(lambda r: r.stuck)),
                "capped": _num(self.share(lambda r: not r.over)),
            },
            "passes_per_game": _num(stats.mean([r.passes for r in self.results])),
            "ends": dict(sorted(ends.items())),
            "capped": {
                "games": len(self.capped()),
                "seeds": [r.seed for r in self.capped()][:CAPPED_LISTED],
                "indexes": [r.index for r in self.capped()][:CAPPED_LISTED],
            },
            "margin": {
                "games": len(self.margins()),
                "mean": _num(stats.mean(self.margins())),
                "median": _num(stats.median(self.margins())),
            },
            "uses": {
                name: {
                    "per_game": _num(stats.mean(xs)),
                    "games_using": sum(1 for x in xs if x),
                    "rare": bool(xs) and stats.mean(xs) < RARE_USE and name not in self.steps,
                }
                for name, xs in self.uses().items()
            },
            "nobles_per_game": _num(stats.mean([sum(r.nobles) for r in self.results if r.over and r.nobles])),
        }


CAPPED_LISTED = 20  # seeds of capped games listed in the summary (all of them are in --games-out)
RARE_USE = 0.05  # a decision made less often than this per game gets a note: the rule is almost never used


def skill_dict(summary: SpecSummary, bots: Sequence[str]) -> dict | None:
    found = summary.skill(bots)
    if found is None:
        return None
    first, second, k, n = found
    return {
        "bot": first,
        "against": second,
        "decided": n,
        "wins": k,
        "share": _num(k / n if n else math.nan),
        "ci95": [_num(x) for x in stats.wilson(k, n)],
    }


def _num(x: float) -> float | None:
    return None if x is None or (isinstance(x, float) and math.isnan(x)) else x


def _uses(summary: SpecSummary, name: str) -> list[int]:
    """Times `name` was chosen in each game that ended by the rules (0 each where the spec has no such decision)."""
    found = summary.uses().get(name)
    return found if found is not None else [0] * sum(1 for r in summary.results if r.over)


def compare(base: SpecSummary, other: SpecSummary, players: int) -> dict:
    """`other` against the first spec: differences and their significance tests."""
    a, b = other.rounds(), base.rounds()
    first_a, first_b = other.seat_wins(players)[0], base.seat_wins(players)[0]
    win_a = [max(r.scores[w] for w in r.winners) for r in other.results if r.winners]
    win_b = [max(r.scores[w] for w in r.winners) for r in base.results if r.winners]
    stuck_a = sum(1 for r in other.results if r.stuck or not r.over)
    stuck_b = sum(1 for r in base.results if r.stuck or not r.over)
    return {
        "spec": other.label,
        "against": base.label,
        "rounds": {
            "difference": _num(stats.mean(a) - stats.mean(b)) if a and b else None,
            "welch": stats.welch(a, b).to_dict(),
            "mann_whitney": stats.mann_whitney(a, b).to_dict(),
        },
        "first_seat_win_rate": {
            "difference": _num(first_a / other.games - first_b / base.games) if other.games and base.games else None,
            "two_proportion": stats.two_proportions(first_a, other.games, first_b, base.games).to_dict(),
        },
        "winning_prestige": {
            "difference": _num(stats.mean(win_a) - stats.mean(win_b)) if win_a and win_b else None,
            "welch": stats.welch(win_a, win_b).to_dict(),
        },
        "margin": {
            "difference": _num(stats.mean(other.margins()) - stats.mean(base.margins()))
            if other.margins() and base.margins()
            else None,
            "welch": stats.welch(other.margins(), base.margins()).to_dict(),
        },
        "uses_per_game": {
            name: {
                "difference": _num(stats.mean(_uses(other, name)) - stats.mean(_uses(base, name)))
                if _uses(other, name) and _uses(base, name)
                else None,
                "welch": stats.welch(_uses(other, name), _uses(base, name)).to_dict(),
            }
            for name in dict.fromkeys([*base.uses(), *other.uses()])
        },
        "capped": {
            "difference": _num(len(other.capped()) / other.games - len(base.capped()) / base.games)
            if other.games and base.games
            else None,
            "two_proportion": stats.two_proportions(
                len(other.capped()), other.games, len(base.capped()), base.games
            ).to_dict(),
        },
        "stuck_or_capped": {
            "difference": _num(stuck_a / other.games - stuck_b / base.games) if other.games and base.games else None,
            "two_proportion": stats.two_proportions(stuck_a, other.games, stuck_b, base.games).to_dict(),
        },
    }


@dataclass
class Simulation:
    players: int
    games: int
    bots: tuple[str, ...]
    seed: int
    max_turns: int
    specs: list[SpecSummary]
    interrupted: bool = False
    jobs: int = 1
    seconds: float = 0.0
    extra: dict = field(default_factory=dict)
    fixed_seats: bool = False

    @property
    def finished(self) -> int:
        return sum(s.games for s in self.specs)

    def to_dict(self, games: bool = False) -> dict:
        """The results as data. Timings are left out so that the same seed gives the same dict."""
        out: dict[str, Any] = {
            "format": "splendor-rules/simulation",
            "version": 1,
            "players": self.players,
            "games": self.games,
            "bots": list(self.bots),
            "seed": self.seed,
            "max_turns": self.max_turns,
            "interrupted": self.interrupted,
            "fixed_seats": self.fixed_seats,
            "seatings": [list(x) for x in seatings(self.bots, self.fixed_seats)],
            "specs": [s.to_dict(self.players) for s in self.specs],
            "comparisons": [compare(self.specs[0], s, self.players) for s in self.specs[1:]],
        }
        for d, s in zip(out["specs"], self.specs, strict=True):
            d["skill"] = skill_dict(s, self.bots)
        for c, s in zip(out["comparisons"], self.specs[1:], strict=True):
            a, b = s.skill(self.bots), self.specs[0].skill(self.bots)
            # Always there, as a spec's "skill" is: null without a skill check (one kind of bot).
            c["skill"] = (
                None
                if a is None or b is None
                else {
                    "difference": _num(a[2] / a[3] - b[2] / b[3]) if a[3] and b[3] else None,
                    "two_proportion": stats.two_proportions(a[2], a[3], b[2], b[3]).to_dict(),
                }
            )
        if games:
            for d, s in zip(out["specs"], self.specs, strict=True):
                d["results"] = [r.to_dict() for r in s.results]
        return out
