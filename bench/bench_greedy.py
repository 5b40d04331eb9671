"""Is today's greedy at least as strong as the greedy it replaced (issue 18)? And how much faster?

Plays `--games` two-player games of today's ``greedy`` (scores moves from the state) against
the old one (bench/greedy_old.py: a clone per legal move), seats alternated, each game seeded
as ``playtest.simulate`` seeds them, and reports the share of games the new bot wins alone,
the old one wins alone, and shared or no-winner games, with 95 % Wilson intervals; then the
share among decided games (the strength test: "at least as strong" holds when its interval
reaches 50 % or more). It also times decisions of each bot on the same positions (CPU time,
the median of --runs runs), so the speed-up does not depend on how busy the machine is.

    python bench/bench_greedy.py [SPEC] [--games 2000] [--jobs 2] [--runs 3] [--json]
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import pathlib
import statistics
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from greedy_old import OldGreedyBot  # noqa: E402

from playtest import bots, engines, simulate, stats  # noqa: E402

_ENGINE = {}


def _module(spec: str):
    if spec not in _ENGINE:
        _ENGINE[spec] = engines.load(spec).module
    return _ENGINE[spec]


def play(job: tuple[str, int, int]) -> tuple[int, str]:
    """Game `index`: new greedy in seat `index % 2`. Returns (index, 'new' | 'old' | 'shared' | 'none')."""
    spec, seed, index = job
    module = _module(spec)
    s = simulate.game_seed(seed, module.SPEC_NAME, index)
    new_seat = index % 2
    seats = [None, None]
    seats[new_seat] = bots.GreedyBot(module, simulate.bot_seed(s, new_seat))
    seats[1 - new_seat] = OldGreedyBot(module, simulate.bot_seed(s, 1 - new_seat))
    g = module.new_game(2, seed=s, max_turns=simulate.DEFAULT_MAX_TURNS)
    while not g.is_over():
        g.apply(seats[g.current_player].choose(g))
    winners = g.winners()
    if len(winners) != 1:
        return index, "shared" if winners else "none"
    return index, "new" if winners[0] == new_seat else "old"


def decision_times(spec: str, runs: int, positions: int = 300) -> dict:
    """CPU seconds per decision of each bot over the same positions (from greedy play)."""
    module = _module(spec)
    states = []
    g = module.new_game(2, seed=1, max_turns=simulate.DEFAULT_MAX_TURNS)
    driver = bots.GreedyBot(module, 1)
    seed = 1
    while len(states) < positions:
        if g.is_over():
            seed += 1
            g = module.new_game(2, seed=seed, max_turns=simulate.DEFAULT_MAX_TURNS)
        states.append(g.clone())
        g.apply(driver.choose(g))
    out = {}
    for name, cls in (("new", bots.GreedyBot), ("old", OldGreedyBot)):
        times = []
        for _ in range(runs):
            bot = cls(module, 7)
            start = time.process_time()
            for s in states:
                bot.choose(s)
            times.append((time.process_time() - start) / len(states))
        out[name] = {"runs_us": [round(t * 1e6, 1) for t in times], "median_us": statistics.median(times) * 1e6}
    out["speed_up"] = out["old"]["median_us"] / out["new"]["median_us"]
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("spec", nargs="?", default=str(ROOT / "rulespec" / "official.yaml"))
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1))
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--seed", type=int, default=18)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)

    jobs = [(args.spec, args.seed, i) for i in range(args.games)]
    start = time.perf_counter()
    if args.jobs > 1:
        with multiprocessing.get_context("fork").Pool(args.jobs) as pool:
            outcomes = dict(pool.imap_unordered(play, jobs, chunksize=8))
    else:
        outcomes = dict(map(play, jobs))
    wall = time.perf_counter() - start
    counts = {k: sum(1 for v in outcomes.values() if v == k) for k in ("new", "old", "shared", "none")}
    n = args.games
    decided = counts["new"] + counts["old"]
    result = {
        "spec": args.spec,
        "games": n,
        "seed": args.seed,
        "counts": counts,
        "wall_seconds": wall,
        "load_average": os.getloadavg()[0] if hasattr(os, "getloadavg") else None,
        "new_wins": {"rate": counts["new"] / n, "ci95": stats.wilson(counts["new"], n)},
        "old_wins": {"rate": counts["old"] / n, "ci95": stats.wilson(counts["old"], n)},
        "new_share_of_decided": {
            "rate": counts["new"] / decided if decided else None,
            "ci95": stats.wilson(counts["new"], decided),
        },
        "decision_cpu": decision_times(args.spec, args.runs),
    }
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    pct = lambda x: f"{100 * x:.1f}%"  # noqa: E731
    print(
        f"{n} games greedy-new vs greedy-old, seats alternated, seed {args.seed} ({wall:.0f}s wall, "
        f"load average {result['load_average']})"
    )
    for key, label in (("new_wins", "new wins alone"), ("old_wins", "old wins alone")):
        r = result[key]
        print(f"  {label}: {pct(r['rate'])} [{pct(r['ci95'][0])}, {pct(r['ci95'][1])}]")
    print(f"  shared: {counts['shared']}, no winner: {counts['none']}")
    d = result["new_share_of_decided"]
    if decided:
        print(
            f"  new's share of the {decided} games one bot won: {pct(d['rate'])} "
            f"[{pct(d['ci95'][0])}, {pct(d['ci95'][1])}]"
        )
    t = result["decision_cpu"]
    print(
        f"  CPU per decision: new {t['new']['median_us']:.0f} us, old {t['old']['median_us']:.0f} us "
        f"(medians of {args.runs}): {t['speed_up']:.1f}x faster"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
