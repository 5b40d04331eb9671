"""Random-playout throughput of a generated engine (issue 3's benchmark).

Plays complete games choosing uniformly among legal actions with fixed seeds, in one
process, and reports decisions/s (every apply()), main actions/s (apply() in the
action phase), games/s and the mean game length, for 2 and 4 players. Two loops play
the same games: `api`, a loop outside the engine that calls legal_actions(),
rng.randrange() and apply() for each decision (what a bot's driver does), and
`playout`, the engine's own Game.playout(rng) (what a rollout does; the same choices).
Main actions are counted by the api loop only (the playout runs to the end unobserved). Each figure is
the median of --runs runs; a baseline loop (the same random choices over a fixed
list, no engine) is timed in the same command so figures from busy machines can be
compared as ratios. Times are the process's CPU time (time.process_time), which waiting
for a busy core does not inflate; `--engine` may be given several times to compare
engines in one command (runs are interleaved).

    python bench/bench_engine.py [--engine generated/engines/official.py] [--games 200] [--runs 5]
                                 [--players 2,4] [--loop api,playout]
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
    start = time.process_time()
    for i in range(games):
        game = engine.new_game(players, seed=seed * 100_003 + i)
        while not game.is_over():
            legal = game.legal_actions()
            if game.mode == -1:
                main_actions += 1
            game.apply(legal[rng.randrange(len(legal))])
            decisions += 1
        rounds += game.round
    elapsed = time.process_time() - start
    return {
        "decisions/s": decisions / elapsed,
        "main actions/s": main_actions / elapsed,
        "games/s": games / elapsed,
        "mean rounds": rounds / games,
        "decisions/game": decisions / games,
    }


def builtin_playouts(engine, players: int, games: int, seed: int) -> dict:
    """The games of playouts(), each played by the engine's Game.playout (same choices)."""
    rng = random.Random(seed)
    decisions = rounds = 0
    start = time.process_time()
    for i in range(games):
        game = engine.new_game(players, seed=seed * 100_003 + i)
        decisions += game.playout(rng)
        rounds += game.round
    elapsed = time.process_time() - start
    return {
        "decisions/s": decisions / elapsed,
        "main actions/s": float("nan"),
        "games/s": games / elapsed,
        "mean rounds": rounds / games,
        "decisions/game": decisions / games,
    }


LOOPS = {"api": playouts, "playout": builtin_playouts}


def baseline(n: int, seed: int) -> float:
    """Operations/s of a loop that only draws random indexes from a list (machine speed)."""
    rng = random.Random(seed)
    items = list(range(30))
    start = time.process_time()
    for _ in range(n):
        items[rng.randrange(len(items))]
    return n / (time.process_time() - start)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", action="append", help="engine module (repeat to compare; default: official)")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--players", default="2,4")
    parser.add_argument("--loop", default="api,playout", help="api, playout or both (see above)")
    args = parser.parse_args()
    loops = args.loop.split(",")
    if not loops or any(loop not in LOOPS for loop in loops):
        parser.error(f"--loop takes api, playout or both, not {args.loop!r}")
    paths = args.engine or [str(ROOT / "generated" / "engines" / "official.py")]
    engines = [load(p) for p in paths]
    names = [pathlib.Path(p).name for p in paths]
    if len(set(names)) < len(names):  # same file name in two folders: say which folder
        names = [str(pathlib.Path(p).parent.name + "/" + pathlib.Path(p).name) for p in paths]
    print(f"{args.games} games x {args.runs} runs, CPU time, Python {sys.version.split()[0]} ({sys.executable})")
    base = statistics.median(baseline(200_000, r) for r in range(args.runs))
    print(f"baseline random-index loop: {base:,.0f} ops/s")
    for players in map(int, args.players.split(",")):
        runs: dict[tuple, list] = {(i, loop): [] for loop in loops for i in range(len(engines))}
        for seed in range(1, args.runs + 1):  # interleaved, so that drift hits every engine alike
            for loop in loops:
                for i, engine in enumerate(engines):
                    if loop == "api" or hasattr(engine.new_game(players, seed=0), "playout"):
                        runs[i, loop].append(LOOPS[loop](engine, players, args.games, seed))
        for loop in loops:
            for i, name in enumerate(names):
                done = runs[i, loop]
                if not done:
                    print(f"{name}, {players} players, {loop}: the engine has no Game.playout")
                    continue
                med = {k: statistics.median(r[k] for r in done) for k in done[0]}
                spread = (min(r["decisions/s"] for r in done), max(r["decisions/s"] for r in done))
                mains = f" {med['main actions/s']:,.0f} main actions/s," if loop == "api" else ""
                print(
                    f"{name}, {players} players, {loop}: {med['decisions/s']:,.0f} decisions/s"
                    f" (runs {spread[0]:,.0f}-{spread[1]:,.0f}),{mains}"
                    f" {med['games/s']:,.1f} games/s, {med['mean rounds']:.1f} rounds/game,"
                    f" {med['decisions/game']:.0f} decisions/game, ratio to baseline {med['decisions/s'] / base:.3f}"
                )
    return 0


if __name__ == "__main__":
    sys.exit(main())
