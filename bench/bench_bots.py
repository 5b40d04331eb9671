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

With --speed-only, each timing run also plays --speed-games random games (2 players, legal
actions drawn uniformly, the api loop of bench/bench_engine.py) on the project's hand-written
engine, bench/reference_engine.py, in this process: issue 29's figure is the ratio of one
worker's greedy games per CPU second to those random games per CPU second, both medians of
the same interleaved runs. Several SPECs may be given (each timed in the same runs).

Games come from ``playtest.simulate`` with a fixed seed, so the win counts are the same
on every machine; only the timings depend on it (on a shared machine, compare them
with the load average printed alongside).

    python bench/bench_bots.py [SPEC...] [--games 100] [--mcts-games 40] [--playouts 64]
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


def throughput(
    engine, games: int, runs: int, seed: int, control_work: int = 20_000_000, each_run=None
) -> tuple[dict, dict, dict]:
    """Wall and CPU seconds for `games` greedy games with 1 and with 2 jobs, and the control
    (:func:`control`) with 1 and 2 processes, all interleaved run by run so that a change in
    the machine's load touches each alike; `each_run(i)`, when given, is called in each run
    (another timing to interleave with these)."""
    seconds: dict[int, list[float]] = {1: [], 2: []}
    cpu: dict[int, list[float]] = {1: [], 2: []}
    spin: dict[int, list[float]] = {1: [], 2: []}
    for i in range(runs):
        if each_run is not None:
            each_run(i)
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


def reference_random(games: int, seed: int) -> float:
    """CPU seconds for `games` random 2-player games on bench/reference_engine.py (the api loop
    of bench/bench_engine.py: legal_actions(), randrange, apply())."""
    import random

    sys.path.insert(0, str(ROOT / "bench"))
    import reference_engine

    rng = random.Random(seed)
    start = time.process_time()
    for i in range(games):
        game = reference_engine.new_game(2, seed=seed * 100_003 + i)
        while not game.is_over():
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])
    return time.process_time() - start


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
    """Just the timings (figure 3), issue 18's two speed bars and issue 29's ratio to the
    reference engine's random games, for each spec given."""
    loaded = [engines.load(spec) for spec in args.spec]
    load_before = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    reference: list[float] = []
    timed: list[tuple] = []
    for engine in loaded:  # the reference's random games in every run, beside each spec's greedy games
        timed.append(
            throughput(
                engine,
                args.speed_games,
                args.runs,
                args.seed,
                each_run=lambda r: reference.append(reference_random(args.speed_games, args.seed + r)),
            )
        )
    random_games = args.speed_games / statistics.median(reference)
    results = []
    ok = True
    for engine, (one, two, ctl) in zip(loaded, timed, strict=True):
        speed_up = one["median_seconds"] / two["median_seconds"]
        per_cpu = 1000 / one["cpu_ms_per_game"]  # one worker's greedy games per CPU second
        results.append(
            {
                "spec": engine.label,
                "throughput": {"one_job": one, "two_jobs": two, "speed_up": speed_up, "control": ctl},
                "greedy_games_per_cpu_second": per_cpu,
                "ratio_to_reference_random": per_cpu / random_games,
                "games_per_minute_two_cores_cpu": 2 * 60 * per_cpu,
            }
        )
        ok = ok and two["games_per_second"] * 60 >= 10000 and speed_up >= 1.7
    result = {
        "cpus": os.cpu_count(),
        "load_average": load_before,
        "load_average_after": os.getloadavg()[0] if hasattr(os, "getloadavg") else None,
        "reference_random_games_per_cpu_second": random_games,
        "reference_cpu_seconds": reference,
        "specs": results,
    }
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        _print_speed(result, args.speed_games)
    return 0 if ok or not args.check else 1


def _print_speed(result: dict, games: int) -> None:
    print(f"{result['cpus']} cpus, load average {result['load_average']} -> {result['load_average_after']}")
    print(
        f"reference engine, random games: {result['reference_random_games_per_cpu_second']:,.0f} games per CPU "
        f"second (median of {len(result['reference_cpu_seconds'])} x {games} games)"
    )
    for r in result["specs"]:
        one, two, ctl = (r["throughput"][k] for k in ("one_job", "two_jobs", "control"))
        print(f"engine {r['spec']}")
        for t in (one, two):
            print(
                f"  greedy vs greedy, {t['jobs']} job{'s' if t['jobs'] > 1 else ''}: "
                f"{t['games_per_second']:.2f} games/s wall, {t['cpu_ms_per_game']:.2f} ms CPU per game "
                f"(median of {t['runs']} x {t['games']} games: " + ", ".join(f"{s:.2f}s" for s in t["seconds"]) + ")"
            )
        print(
            f"  speed-up 1 -> 2 jobs: {r['throughput']['speed_up']:.2f}x (control, a pure-Python loop in the same "
            f"runs: {ctl['speed_up']:.2f}x); 10,000 games with 2 jobs: {10000 / two['games_per_second']:.0f}s wall"
        )
        print(
            f"  one worker: {r['greedy_games_per_cpu_second']:,.1f} greedy games per CPU second = "
            f"{r['ratio_to_reference_random']:.3f} x the reference's random games; two free cores: "
            f"{r['games_per_minute_two_cores_cpu']:,.0f} games a minute"
        )


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("spec", nargs="*", default=[str(ROOT / "rulespec" / "official.yaml")])
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

    engine = engines.load(args.spec[0])
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
