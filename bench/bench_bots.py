"""Bot strength and simulation throughput (issue 6's benchmark).

Three figures, on the engine of a spec (the official rules by default), 2 players:

1. greedy against random: the share of games greedy wins alone, seats alternated
   (half the games with greedy in seat 1), with its 95 % Wilson interval; the bar is 90 %.
2. mcts (a modest budget, --playouts) against greedy, the same way; the bar is "most
   games" (over 50 %).
3. greedy-against-greedy games per second through ``playtest.simulate`` with 1 and 2
   worker processes, the CPU per game, and the speed-up from 1 to 2 jobs next to a
   control's (a pure-Python loop split over 1 and 2 processes in the same runs: the
   speed-up the shared machine allowed). Each timing is the median of
   --runs runs of --speed-games games, the runs of 1 and 2 jobs interleaved so that a
   change in the machine's load touches both. Issue 18's bars: 10,000 games in at most
   60 s with 2 jobs (run with --speed-games 10000), and 2 jobs at least 1.7x faster.
4. MCTS playouts per second (the bot's own count and clock, over its decisions in 2).

Games come from ``playtest.simulate`` with a fixed seed, so the win counts are the same
on every machine; only the timings depend on it (on a shared machine, compare them
with the load average printed alongside).

    python bench/bench_bots.py [SPEC] [--games 100] [--mcts-games 40] [--playouts 64]
                               [--speed-games 60] [--runs 3] [--json] [--check] [--speed-only]
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import statistics
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playtest import engines, simulate, stats  # noqa: E402


def head_to_head(engine, bot: str, rival: str, games: int, seed: int, jobs: int) -> dict:
    """`bot` against `rival` over `games` games, half with `bot` in each seat."""
    first = games - games // 2
    wins = shared = 0
    rounds = []
    for seats, n in (([bot, rival], first), ([rival, bot], games // 2)):
        if not n:
            continue
        run = simulate.simulate([engine], 2, n, seats, seed=seed, jobs=jobs)
        me = seats.index(bot)
        for r in run.specs[0].results:
            wins += r.winners == (me,)
            shared += me in r.winners and len(r.winners) > 1
            rounds.append(r.rounds)
    lo, hi = stats.wilson(wins, games)
    return {
        "bot": bot,
        "rival": rival,
        "games": games,
        "wins": wins,
        "shared": shared,
        "win_rate": wins / games,
        "ci95": [lo, hi],
        "rounds_mean": stats.mean(rounds),
    }


def _spin(n: int) -> int:
    """The control's work: a pure-Python loop, CPU-bound like a bot."""
    x = 0
    for i in range(n):
        x = (x + i * i) % 1_000_003
    return x


def control(jobs: int, work: int) -> float:
    """Wall seconds for `work` iterations of :func:`_spin` split over `jobs` processes (forked
    like simulate's workers): the speed-up the machine allows right now, to set against
    simulate's (on a shared machine two processes may not get two cores)."""
    import multiprocessing

    start = time.perf_counter()
    if jobs == 1:
        _spin(work)
    else:
        methods = multiprocessing.get_all_start_methods()
        with multiprocessing.get_context("fork" if "fork" in methods else "spawn").Pool(jobs) as pool:
            pool.map(_spin, [work // jobs] * jobs)
    return time.perf_counter() - start


def _cpu() -> float:
    """User + system CPU seconds of this process and its finished children (the pool's workers)."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def throughput(engine, games: int, runs: int, seed: int, control_work: int = 20_000_000) -> tuple[dict, dict, dict]:
    """Wall and CPU seconds for `games` greedy games with 1 and with 2 jobs, and the control
    (:func:`control`) with 1 and 2 processes, all interleaved run by run so that a change in
    the machine's load touches each alike."""
    seconds: dict[int, list[float]] = {1: [], 2: []}
    cpu: dict[int, list[float]] = {1: [], 2: []}
    spin: dict[int, list[float]] = {1: [], 2: []}
    for i in range(runs):
        for jobs in (1, 2):
            spin[jobs].append(control(jobs, control_work))
            start, used = time.perf_counter(), _cpu()
            simulate.simulate([engine], 2, games, ["greedy"], seed=seed + i, jobs=jobs)
            seconds[jobs].append(time.perf_counter() - start)
            cpu[jobs].append(_cpu() - used)
    out = []
    for jobs in (1, 2):
        median = statistics.median(seconds[jobs])
        out.append(
            {
                "jobs": jobs,
                "games": games,
                "runs": runs,
                "seconds": seconds[jobs],
                "median_seconds": median,
                "games_per_second": games / median,
                "cpu_seconds": cpu[jobs],
                "median_cpu_seconds": statistics.median(cpu[jobs]),
                "cpu_ms_per_game": 1000 * statistics.median(cpu[jobs]) / games,
            }
        )
    ctl = {
        "work": control_work,
        "seconds_1": spin[1],
        "seconds_2": spin[2],
        "speed_up": statistics.median(spin[1]) / statistics.median(spin[2]),
    }
    return out[0], out[1], ctl


def mcts_speed(engine, playouts: int, decisions: int = 20) -> dict:
    """Playouts per second of an MCTS bot over `decisions` decisions of a game against greedy."""
    from playtest.bots import GreedyBot, MCTSBot

    module = engine.module
    bot = MCTSBot(module, 1, playouts=playouts)
    rival = GreedyBot(module, 2)
    g = module.new_game(2, seed=3)
    made = 0
    while not g.is_over() and made < decisions:
        if g.current_player == 0:
            made += 1
            g.apply(bot.choose(g))
        else:
            g.apply(rival.choose(g))
    return {
        "playouts": bot.playouts_run,
        "seconds": bot.seconds,
        "playouts_per_second": bot.playouts_run / bot.seconds if bot.seconds else None,
    }


def speed_only(args) -> int:
    """Just the timings (figure 3) and issue 18's two speed bars."""
    engine = engines.load(args.spec)
    load_before = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    one, two, ctl = throughput(engine, args.speed_games, args.runs, args.seed)
    speed_up = one["median_seconds"] / two["median_seconds"]
    result = {
        "spec": engine.label,
        "cpus": os.cpu_count(),
        "load_average": load_before,
        "load_average_after": os.getloadavg()[0] if hasattr(os, "getloadavg") else None,
        "throughput": {"one_job": one, "two_jobs": two, "speed_up": speed_up, "control": ctl},
    }
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print(
            f"engine {engine.label}, {os.cpu_count()} cpus, load average {load_before} -> "
            f"{result['load_average_after']}"
        )
        for t in (one, two):
            print(
                f"greedy vs greedy, {t['jobs']} job{'s' if t['jobs'] > 1 else ''}: "
                f"{t['games_per_second']:.2f} games/s, {t['cpu_ms_per_game']:.1f} ms CPU per game "
                f"(median of {t['runs']} x {t['games']} games: " + ", ".join(f"{s:.2f}s" for s in t["seconds"]) + ")"
            )
        print(
            f"speed-up 1 -> 2 jobs: {speed_up:.2f}x (control, a pure-Python loop in the same runs: "
            f"{ctl['speed_up']:.2f}x); 10,000 games with 2 jobs: {10000 / two['games_per_second']:.0f}s"
        )
    ok = two["games_per_second"] * 60 >= 10000 and speed_up >= 1.7
    return 0 if ok or not args.check else 1


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("spec", nargs="?", default=str(ROOT / "rulespec" / "official.yaml"))
    ap.add_argument("--games", type=int, default=100, help="greedy-vs-random games")
    ap.add_argument("--mcts-games", type=int, default=40, help="mcts-vs-greedy games")
    ap.add_argument("--playouts", type=int, default=64, help="the mcts budget")
    ap.add_argument("--speed-games", type=int, default=60, help="greedy-vs-greedy games per timing run")
    ap.add_argument("--runs", type=int, default=3, help="timing runs (the median is reported)")
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--check", action="store_true", help="exit 1 when a bar is not met")
    ap.add_argument("--speed-only", action="store_true", help="only the greedy-vs-greedy timings (item 3)")
    args = ap.parse_args(argv)
    if args.speed_only:
        return speed_only(args)

    engine = engines.load(args.spec)
    jobs = min(2, os.cpu_count() or 1)
    load_before = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    greedy = head_to_head(engine, "greedy", "random", args.games, args.seed, jobs)
    mcts = head_to_head(engine, f"mcts:{args.playouts}", "greedy", args.mcts_games, args.seed, jobs)
    one, two, ctl = throughput(engine, args.speed_games, args.runs, args.seed)
    speed = mcts_speed(engine, args.playouts)
    result = {
        "spec": engine.label,
        "cpus": os.cpu_count(),
        "load_average": load_before,
        "greedy_vs_random": greedy,
        "mcts_vs_greedy": mcts,
        "mcts_speed": speed,
        "throughput": {
            "one_job": one,
            "two_jobs": two,
            "speed_up": one["median_seconds"] / two["median_seconds"],
            "control": ctl,
        },
    }
    ok = greedy["win_rate"] >= 0.9 and mcts["win_rate"] > 0.5
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        pct = lambda x: f"{100 * x:.1f}%"  # noqa: E731
        print(f"engine {engine.label}, {os.cpu_count()} cpus, load average {load_before}")
        for r in (greedy, mcts):
            print(
                f"{r['bot']} vs {r['rival']}: {r['wins']}/{r['games']} won alone = {pct(r['win_rate'])} "
                f"[{pct(r['ci95'][0])}, {pct(r['ci95'][1])}], shared {r['shared']}, "
                f"{r['rounds_mean']:.1f} rounds"
            )
        for t in (one, two):
            print(
                f"greedy vs greedy, {t['jobs']} job{'s' if t['jobs'] > 1 else ''}: "
                f"{t['games_per_second']:.2f} games/s (median of {t['runs']} x {t['games']} games: "
                + ", ".join(f"{s:.2f}s" for s in t["seconds"])
                + ")"
            )
            print(
                f"  CPU (user+sys, workers included): {t['cpu_ms_per_game']:.1f} ms per game "
                f"(median {t['median_cpu_seconds']:.2f}s)"
            )
        print(
            f"speed-up 1 -> 2 jobs: {result['throughput']['speed_up']:.2f}x; 10,000 games with 2 jobs would take "
            f"{10000 / two['games_per_second']:.0f}s"
        )
        print(
            f"control (pure-Python loop, 1 vs 2 processes, same command): {ctl['speed_up']:.2f}x "
            "(what the machine allowed: compare the speed-up with it)"
        )
        print(
            f"mcts:{args.playouts}: {speed['playouts_per_second']:.0f} playouts/s "
            f"({speed['playouts']} playouts in {speed['seconds']:.1f}s)"
        )
        print("bars met" if ok else "a bar is NOT met (greedy >= 90% vs random, mcts > 50% vs greedy)")
    return 0 if ok or not args.check else 1


if __name__ == "__main__":
    sys.exit(main())
