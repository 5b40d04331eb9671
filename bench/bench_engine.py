"""Random-playout throughput of a generated engine (issue 3's benchmark).

Plays complete games choosing uniformly among legal actions with fixed seeds, in one
process, and reports decisions/s (every apply()), main actions/s (apply() in the
action phase), games/s and the mean game length, for 2 and 4 players. Each figure is
the median of --runs runs; a baseline loop (the same random choices over a fixed
list, no engine) is timed in the same command so figures from busy machines can be
compared as ratios.

    python bench/bench_engine.py [--engine generated/engines/official.py] [--games 200] [--runs 5]
"""
from __future__ import annotations

import argparse
import importlib.util
import pathlib
import random
import statistics
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent


def load(path: str):
    spec = importlib.util.spec_from_file_location(pathlib.Path(path).stem + "_bench", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def playouts(engine, players: int, games: int, seed: int) -> dict:
    rng = random.Random(seed)
    decisions = main_actions = rounds = 0
    start = time.perf_counter()
    for i in range(games):
        game = engine.new_game(players, seed=seed * 100_003 + i)
        while not game.is_over():
            legal = game.legal_actions()
            if game.mode == -1:
                main_actions += 1
            game.apply(legal[rng.randrange(len(legal))])
            decisions += 1
        rounds += game.round
    elapsed = time.perf_counter() - start
    return {"decisions/s": decisions / elapsed, "main actions/s": main_actions / elapsed,
            "games/s": games / elapsed, "mean rounds": rounds / games, "decisions/game": decisions / games}


def baseline(n: int, seed: int) -> float:
    """Operations/s of a loop that only draws random indexes from a list (machine speed)."""
    rng = random.Random(seed)
    items = list(range(30))
    start = time.perf_counter()
    for _ in range(n):
        items[rng.randrange(len(items))]
    return n / (time.perf_counter() - start)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", default=str(ROOT / "generated" / "engines" / "official.py"))
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--players", default="2,4")
    args = parser.parse_args()
    engine = load(args.engine)
    print(f"engine {pathlib.Path(args.engine).name} ({engine.SPEC_NAME}), {args.games} games x {args.runs} runs,"
          f" Python {sys.version.split()[0]}")
    base = statistics.median(baseline(200_000, r) for r in range(args.runs))
    print(f"baseline random-index loop: {base:,.0f} ops/s")
    for players in map(int, args.players.split(",")):
        runs = [playouts(engine, players, args.games, seed) for seed in range(1, args.runs + 1)]
        med = {k: statistics.median(r[k] for r in runs) for k in runs[0]}
        spread = (min(r["decisions/s"] for r in runs), max(r["decisions/s"] for r in runs))
        print(f"{players} players: {med['decisions/s']:,.0f} decisions/s (runs {spread[0]:,.0f}-{spread[1]:,.0f}),"
              f" {med['main actions/s']:,.0f} main actions/s, {med['games/s']:,.1f} games/s,"
              f" {med['mean rounds']:.1f} rounds/game, {med['decisions/game']:.0f} decisions/game,"
              f" ratio to baseline {med['decisions/s'] / base:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
