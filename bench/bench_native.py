"""Random-playout speed of native engines against the pure ones (issue 29, item 4).

For each spec (default: the official spec and every catalogue variant), loads the pure engine and
its native build (playtest.engines.load(..., native=True): built now unless the cache has it, which
is not timed), then plays the same seeded random games on both, runs interleaved (pure, native,
pure, native...) so that a busy machine's drift hits both alike, and prints the median decisions/s
of each, with the native/pure ratio measured in the same command. Two loops, as bench_engine.py:
`api` (legal_actions, randrange, apply from outside) and `playout` (the engine's Game.playout).
Times are CPU time (time.process_time). Also checks that both played the same games (the same
number of decisions over the run).

    python bench/bench_native.py [--spec official --spec cities ...] [--games 100] [--runs 5]
                                 [--players 2] [--loop api,playout] [--cache-dir DIR]
"""

from __future__ import annotations

import argparse
import pathlib
import statistics
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bench_engine import builtin_playouts, playouts  # noqa: E402

from compiler import pipeline  # noqa: E402
from compiler.diagnostics import SourceMap  # noqa: E402
from playtest import engines  # noqa: E402

LOOPS = {"api": playouts, "playout": builtin_playouts}


def catalogue() -> list[str]:
    """The official spec and every variant of variants/index.yaml, as paths."""
    return pipeline.catalogue(SourceMap())


def measure(spec: str, args, loops: list[str]) -> list[str]:
    """The lines of one spec: per player count and loop, pure and native decisions/s and the ratio."""
    pure = engines.load(spec, cache_dir=args.cache_dir)
    built = engines.load(spec, cache_dir=args.cache_dir, native=True)
    lines = []
    for players in map(int, args.players.split(",")):
        if players not in pure.module.PLAYER_COUNTS:
            continue
        for loop in loops:
            runs: dict[str, list[dict]] = {"pure": [], "native": []}
            for seed in range(1, args.runs + 1):
                for kind, engine in (("pure", pure), ("native", built)):
                    runs[kind].append(LOOPS[loop](engine.module, players, args.games, seed))
            med = {kind: statistics.median(r["decisions/s"] for r in done) for kind, done in runs.items()}
            same = [r["decisions/game"] for r in runs["pure"]] == [r["decisions/game"] for r in runs["native"]]
            lines.append(
                f"{pure.name:<22} {players}p {loop:<8} pure {med['pure']:>9,.0f}  native {med['native']:>9,.0f}"
                f"  ratio {med['native'] / med['pure']:.2f}{'' if same else '  (GAMES DIFFER)'}"
            )
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spec", action="append", help="a spec (repeat; default: the official spec and the catalogue)")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--players", default="2")
    parser.add_argument("--loop", default="api,playout", help="api, playout or both (see bench_engine.py)")
    parser.add_argument("--cache-dir", help="the engine cache (native builds in DIR/native)")
    args = parser.parse_args()
    loops = args.loop.split(",")
    if not loops or any(loop not in LOOPS for loop in loops):
        parser.error(f"--loop takes api, playout or both, not {args.loop!r}")
    specs = args.spec or catalogue()
    print(f"{args.games} games x {args.runs} interleaved runs, CPU time, Python {sys.version.split()[0]}")
    print("decisions/s, medians; ratio: native / pure in this command")
    for spec in specs:
        for line in measure(spec, args, loops):
            print(line, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
