"""Every catalogue engine beside the official one (issue 29, item 7): random-playout decisions/s
and the ratio to the official engine, as a Markdown table.

Each run plays the same seeded random games (bench_engine.py's api loop: legal_actions(),
rng.randrange(), apply()) on every engine in turn, official first, so that drift on a busy
machine hits every engine alike; a ratio is taken within one run and the table shows the median
over runs (and their range). Times are CPU times. `--spec` adds the engine of any spec, compiled
now; with `--before` it is also compiled without the optimisation passes
(compiler/lower/optimise.py), to show what they change. `--callgrind` adds the steady figure:
instructions per decision of each engine (bench/callgrind_engine.sh, 2 players, api loop; about
20 s an engine) and its ratio to the official engine's count (official / engine: above 1 is
faster).

    python bench/bench_catalogue.py [--games 60] [--runs 5] [--players 2] [--callgrind]
                                    [--spec tests/specs/charm-bonus.yaml --before] [--engine PATH]
"""

from __future__ import annotations

import argparse
import pathlib
import re
import statistics
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bench_engine import load, playouts  # noqa: E402 - the bench folder is no package

from compiler import pipeline  # noqa: E402
from compiler.lower.optimise import unoptimised  # noqa: E402

ENGINES = ROOT / "generated" / "engines"


def catalogue_engines() -> list[tuple[str, pathlib.Path]]:
    """The official engine first, then every catalogue variant's engine (generated/engines)."""
    official = ENGINES / "official.py"
    others = sorted(p for p in ENGINES.glob("*.py") if p != official)
    return [("official", official)] + [(p.stem, p) for p in others]


def compiled(spec: str, folder: pathlib.Path, before: bool) -> list[tuple[str, pathlib.Path]]:
    """The engine of `spec` compiled now, and without the passes too when `before`."""
    stem = pathlib.Path(spec).stem.replace("-", "_")
    out = []
    if before:
        with unoptimised():
            text = pipeline.compile_spec(spec).text
        path = folder / f"{stem}_before.py"
        path.write_text(text, encoding="utf-8")
        out.append((f"{pathlib.Path(spec).name} (no passes)", path))
    path = folder / f"{stem}.py"
    path.write_text(pipeline.compile_spec(spec).text, encoding="utf-8")
    out.append((pathlib.Path(spec).name, path))
    return out


def instructions(path: pathlib.Path) -> int | None:
    """bench/callgrind_engine.sh's instructions per decision of the engine at `path` (None when it
    cannot play 2-player games, or valgrind is missing)."""
    run = subprocess.run(
        ["bash", str(ROOT / "bench" / "callgrind_engine.sh"), str(path)], capture_output=True, text=True, check=False
    )
    found = re.search(r"(\d+) instructions per decision", run.stdout)
    return int(found.group(1)) if run.returncode == 0 and found else None


def players_for(engine, wanted: int) -> int:
    counts = list(engine.PLAYER_COUNTS)
    return wanted if wanted in counts else counts[0]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=60, help="games per engine and run")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--players", type=int, default=2, help="players (an engine without that count: its first)")
    parser.add_argument("--spec", action="append", default=[], help="a spec whose engine is compiled now (repeat)")
    parser.add_argument("--before", action="store_true", help="each --spec also compiled without the passes")
    parser.add_argument("--engine", action="append", default=[], help="an engine module (repeat)")
    parser.add_argument("--only-specs", action="store_true", help="official, --spec and --engine only")
    parser.add_argument("--callgrind", action="store_true", help="instructions per decision too (valgrind)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        named = catalogue_engines()[:1] if args.only_specs else catalogue_engines()
        for spec in args.spec:
            named += compiled(spec, pathlib.Path(tmp), args.before)
        named += [(pathlib.Path(p).name, pathlib.Path(p)) for p in args.engine]
        engines = [load(str(path)) for _, path in named]
        rates: list[list[float]] = [[] for _ in named]
        for seed in range(1, args.runs + 1):  # interleaved: every engine once per run
            for i, engine in enumerate(engines):
                players = players_for(engine, args.players)
                rates[i].append(playouts(engine, players, args.games, seed)["decisions/s"])
        counts = [instructions(path) if args.callgrind else None for _, path in named]
    print(
        f"{args.games} games x {args.runs} runs per engine, {args.players} players, random playouts (api loop),"
        f" CPU time, Python {sys.version.split()[0]}"
    )
    print()
    steady = " instructions per decision | ratio |" if args.callgrind else ""
    print(f"| engine | players | decisions/s | ratio to official (runs) |{steady}")
    print("| --- | --- | ---: | --- |" + (" ---: | ---: |" if args.callgrind else ""))
    for (name, _), engine, runs, count in zip(named, engines, rates, counts, strict=True):
        ratios = [r / o for r, o in zip(runs, rates[0], strict=True)]
        line = (
            f"| {name} | {players_for(engine, args.players)} | {statistics.median(runs):,.0f} |"
            f" {statistics.median(ratios):.2f} ({min(ratios):.2f}-{max(ratios):.2f}) |"
        )
        if args.callgrind:
            official = counts[0]
            line += " - | - |" if count is None or official is None else f" {count:,} | {official / count:.2f} |"
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
