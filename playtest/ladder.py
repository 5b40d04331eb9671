"""``splendor-rules ladder SPEC --bots random,greedy,mcts:64``: a round robin of bots, rated.

Every group of `players` different bots (every pair, with two players) plays `games` games
through :func:`playtest.simulate.simulate` with the seats rotated (each bot in each seat
equally often, the same deals for every group), and the games are fed, in a fixed order
(group by group, game by game), to an OpenSkill Plackett-Luce model (the maintained
``openskill`` package, the optional ``ladder`` extra): the winners of a game rank first,
the others after them; a game stopped at the length cap has no result and is left out.
Each bot gets a rating mu with its uncertainty sigma (mu +- 1.96 sigma as a 95 % interval)
and the conservative ordinal mu - 3 sigma it is ranked by, next to its plain win rate with
a Wilson interval and the win rate of each pairing. The same seed gives the same ladder for
any --jobs and on a Dask cluster (``scheduler``: its address, connected to once for the
whole round robin, or a ``distributed.Client``); Ctrl-C rates the games finished.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Sequence
from dataclasses import dataclass, field

from compiler.safe_text import visible

from . import engines, stats
from . import simulate as sim
from .bots import parse_bot


class LadderError(ValueError):
    """A ladder that cannot be run (bots, the rating library); the message says why."""


def require():
    try:
        from openskill.models import PlackettLuce
    except ImportError:
        raise LadderError(
            "ladder needs openskill, an optional extra: pip install openskill (or pip install 'splendor-rules[ladder]')"
        ) from None
    return PlackettLuce


@dataclass
class Ladder:
    spec: str
    players: int
    bots: tuple[str, ...]
    games: int
    seed: int
    ratings: list[dict]
    pairings: list[dict]
    interrupted: bool = False
    simulations: list = field(default_factory=list)

    def to_dict(self) -> dict:
        return {
            "format": "splendor-rules/ladder",
            "version": 1,
            "spec": self.spec,
            "players": self.players,
            "bots": list(self.bots),
            "games_per_group": self.games,
            "seed": self.seed,
            "interrupted": self.interrupted,
            "ratings": self.ratings,
            "groups": self.pairings,
        }


def check_bots(bots: Sequence[str], players: int) -> tuple[str, ...]:
    names = tuple(b.strip().lower() for b in bots if b.strip())
    for b in names:
        parse_bot(b)
    if len(set(names)) != len(names):
        raise LadderError("each bot of a ladder is named once")
    if len(names) < max(2, players):
        raise LadderError(f"a ladder of {players}-player games needs at least {max(2, players)} different bots")
    return names


def rate(games: list[tuple[tuple[str, ...], tuple[int, ...]]], bots: Sequence[str], model_class) -> list[dict]:
    """Ratings from games given as (the bot in each seat, the winning seats), in order."""
    model = model_class()
    ratings = {b: model.rating(name=b) for b in bots}
    played = dict.fromkeys(bots, 0)
    won = dict.fromkeys(bots, 0)
    for seats, winners in games:
        if not winners:
            continue
        teams = [[ratings[b]] for b in seats]
        ranks = [0 if p in winners else 1 for p in range(len(seats))]
        new = model.rate(teams, ranks=ranks)
        for b, team in zip(seats, new, strict=True):
            ratings[b] = team[0]
            played[b] += 1
            won[b] += seats.index(b) in winners
    out = []
    for b in bots:
        r = ratings[b]
        lo, hi = stats.wilson(won[b], played[b])
        out.append(
            {
                "bot": b,
                "mu": r.mu,
                "sigma": r.sigma,
                "ci95": [r.mu - 1.96 * r.sigma, r.mu + 1.96 * r.sigma],
                "ordinal": r.mu - 3 * r.sigma,
                "games": played[b],
                "wins": won[b],
                "win_rate": won[b] / played[b] if played[b] else None,
                "win_rate_ci95": [None if lo != lo else lo, None if hi != hi else hi],
            }
        )
    out.sort(key=lambda x: (-x["ordinal"], x["bot"]))
    return out


def ladder(
    engine: engines.Engine,
    bots: Sequence[str],
    players: int = 2,
    games: int = 20,
    seed: int = 0,
    jobs: int = 1,
    max_turns: int = sim.DEFAULT_MAX_TURNS,
    scheduler=None,
    progress=None,
) -> Ladder:
    model_class = require()
    names = check_bots(bots, players)
    groups = list(itertools.combinations(names, players))
    played: list[tuple[tuple[str, ...], tuple[int, ...]]] = []
    pairings = []
    interrupted = False
    total = games * len(groups)
    done_before = 0
    own = sim.connect(scheduler) if isinstance(scheduler, str) else None  # one connection for every group
    try:
        for group in groups:
            run = _play_group(
                engine,
                group,
                players,
                games,
                seed,
                jobs,
                max_turns,
                scheduler if own is None else own,
                progress,
                done_before,
                total,
            )
            results = run.specs[0].results
            done_before += len(results)
            played += [(r.seats, r.winners) for r in results]
            wins = {b: sum(1 for r in results if len(r.winners) == 1 and r.seats[r.winners[0]] == b) for b in group}
            pairings.append(
                {
                    "bots": list(group),
                    "games": len(results),
                    "wins_alone": wins,
                    "capped": sum(1 for r in results if not r.over),
                }
            )
            if run.interrupted:
                interrupted = True
                break
    finally:
        if own is not None:
            own.close()
    return Ladder(engine.label, players, names, games, seed, rate(played, names, model_class), pairings, interrupted)


def _play_group(engine, group, players, games, seed, jobs, max_turns, scheduler, progress, before, total):
    """One group's games, its progress counted after the groups before it."""

    def step(done, _total):
        if progress:
            progress(before + done, total)

    return sim.simulate(
        [engine], players, games, group, seed=seed, jobs=jobs, max_turns=max_turns, scheduler=scheduler, progress=step
    )


def format_table(ladder_: Ladder) -> str:
    lines = [f"{'bot':<12} {'rating':>7} {'95% interval':>17} {'ordinal':>8} {'games':>6}  win rate [95%]"]
    for r in ladder_.ratings:
        rate_ = (
            "-"
            if r["win_rate"] is None
            else (
                f"{100 * r['win_rate']:.1f}% [{100 * r['win_rate_ci95'][0]:.1f}%, {100 * r['win_rate_ci95'][1]:.1f}%]"
            )
        )
        lines.append(
            f"{r['bot']:<12} {r['mu']:7.2f} [{r['ci95'][0]:6.2f}, {r['ci95'][1]:6.2f}] {r['ordinal']:8.2f} "
            f"{r['games']:6d}  {rate_}"
        )
    lines.append("")
    for g in ladder_.pairings:
        wins = ", ".join(f"{b} {k}" for b, k in g["wins_alone"].items())
        lines.append(
            f"{' vs '.join(g['bots'])}: {g['games']} games, won alone: {wins}"
            + (f", {g['capped']} capped" if g["capped"] else "")
        )
    lines.append("")
    lines.append(
        f"{ladder_.spec}, {ladder_.players} players, {ladder_.games} games per group with the seats rotated, "
        f"seed {ladder_.seed}; OpenSkill Plackett-Luce ratings (mu, mu +- 1.96 sigma), ranked by the "
        "ordinal mu - 3 sigma; games stopped at the cap are not rated"
    )
    if ladder_.interrupted:
        lines.append("interrupted: the ratings are those of the games finished")
    return "\n".join(visible(line) for line in lines)  # the spec as the user named it: one line


def format_json(ladder_: Ladder) -> str:
    return json.dumps(ladder_.to_dict(), indent=2)
