"""Random-playout throughput of engines whose payments have a worth (issue 16, item 7),
against the official engine in the same command.

Three engines play the same random games (bench_engine's loops: `api`, a driver calling
legal_actions()/apply(), and `playout`, the engine's own Game.playout): the official engine,
royal-favour (gold counts double once a noble has visited: the payment table has 3,003
entries) and, as the worst case for the payment step, the official rules with every gold token
worth up to 2 gems from the first turn (`worth: "2"`, compiled here from a variant written to
a temporary folder). Runs are interleaved; each figure is the median of --runs runs of
--games games in CPU time, and each engine's ratio to the official engine is printed. The
target (issue 16): at least 80 % of the official engine's decisions/s.

    python bench/bench_worth.py [--games 100] [--runs 5] [--players 2,4] [--loop api,playout]
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import pathlib
import statistics
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
ENGINES = ROOT / "generated" / "engines"
ALWAYS_DOUBLE = """spec: 1
name: always-double
extends: {official}
actions:
  buy_face_up:
    choose:
      payment: {{worth: "2"}}
  buy_reserved:
    choose:
      payment: {{worth: "2"}}
"""


def _bench_engine():
    spec = importlib.util.spec_from_file_location("bench_engine", ROOT / "bench" / "bench_engine.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def always_double(folder: pathlib.Path) -> pathlib.Path:
    """The official rules with every gold token worth up to 2 gems, compiled into `folder`."""
    sys.path.insert(0, str(ROOT))
    from compiler.pipeline import compile_spec

    variant = folder / "always-double.yaml"
    official = os.path.relpath(ROOT / "rulespec" / "official.yaml", folder)  # 'extends' takes a relative path
    variant.write_text(ALWAYS_DOUBLE.format(official=official), encoding="utf-8")
    engine = folder / "always_double.py"
    engine.write_text(compile_spec(str(variant)).text, encoding="utf-8")
    return engine


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--players", default="2,4")
    parser.add_argument("--loop", default="api,playout")
    args = parser.parse_args()
    bench = _bench_engine()
    loops = args.loop.split(",")
    if not loops or any(loop not in bench.LOOPS for loop in loops):
        parser.error(f"--loop takes api, playout or both, not {args.loop!r}")
    with tempfile.TemporaryDirectory() as tmp:
        paths = {
            "official": ENGINES / "official.py",
            "royal-favour": ENGINES / "royal_favour.py",
            "always-double": always_double(pathlib.Path(tmp)),
        }
        engines = {name: bench.load(str(path)) for name, path in paths.items()}
        print(
            f"{args.games} games x {args.runs} runs, CPU time, Python {sys.version.split()[0]}; payment tables: "
            + ", ".join(f"{name} {len(e.PAYMENTS):,}" for name, e in engines.items())
        )
        for players in map(int, args.players.split(",")):
            runs: dict[tuple, list] = {(name, loop): [] for name in engines for loop in loops}
            for seed in range(1, args.runs + 1):  # interleaved: drift on a shared machine hits all alike
                for loop in loops:
                    for name, engine in engines.items():
                        runs[name, loop].append(bench.LOOPS[loop](engine, players, args.games, seed)["decisions/s"])
            for loop in loops:
                official = statistics.median(runs["official", loop])
                for name in engines:
                    med = statistics.median(runs[name, loop])
                    print(
                        f"{name}, {players} players, {loop}: {med:,.0f} decisions/s "
                        f"(runs {min(runs[name, loop]):,.0f}-{max(runs[name, loop]):,.0f}), "
                        f"{med / official:.1%} of official"
                    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
