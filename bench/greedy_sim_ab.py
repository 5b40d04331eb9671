"""Greedy-vs-greedy games through ``playtest.simulate`` (the whole per-game path: the bots, the
simulation driver, the records) at an earlier revision and in the working tree, in one command.

    python bench/greedy_sim_ab.py REV [--games 100] [--runs 5] [SPEC]

Extracts the tree at git revision REV into a temporary folder and, run after run (the two
interleaved, so that a change in the machine's load touches both), plays the same games
with each tree's ``simulate.run_chunk`` in a fresh process, on the same engine (the working
tree's, built from SPEC). Prints the median CPU seconds per game (process time: a busy
machine slows both alike), the ratio, the load average, and whether both trees gave the
same results (every GameResult field, the moves included): a change that alters one is not
an optimisation. One worker's CPU per game also gives the projected wall time of 10,000
games with --jobs 2 at the speed-up two jobs reach (--scaling, 1.89 measured quiet).
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import statistics
import subprocess
import sys
import tarfile
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent

CHILD = r"""
import hashlib, json, sys, time
root, engine_path, games = sys.argv[1], sys.argv[2], int(sys.argv[3])
sys.path.insert(0, root)
from playtest import engines, simulate
source = open(engine_path, encoding="utf-8").read()
module = engines.from_source(source, engine_path)
name = module.SPEC_NAME
def chunk(indexes):
    return simulate.Chunk(0, name, source, engine_path, tuple(indexes), 2, ("greedy", "greedy"), 18,
                          simulate.DEFAULT_MAX_TURNS)
simulate.run_chunk(chunk([games]))  # warm: the bots' per-engine facts, outside the timing
start = time.process_time()
_, results = simulate.run_chunk(chunk(range(games)))
cpu = time.process_time() - start
digest = hashlib.sha256(json.dumps([r.to_dict() for r in results], sort_keys=True).encode()).hexdigest()
print(json.dumps({"cpu": cpu, "digest": digest, "decisions": sum(len(r.actions) for r in results)}))
"""


def extract(rev: str) -> pathlib.Path:
    """The tree at `rev`, in a temporary folder."""
    folder = pathlib.Path(tempfile.mkdtemp(prefix="greedy_sim_ab_"))
    archive = folder / "tree.tar"
    with archive.open("wb") as out:
        subprocess.run(["git", "archive", rev, "playtest"], cwd=ROOT, stdout=out, check=True)
    with tarfile.open(archive) as tar:
        tar.extractall(folder, filter="data")
    return folder


def run(root: pathlib.Path, engine: str, games: int) -> dict:
    out = subprocess.run(
        [sys.executable, "-c", CHILD, str(root), engine, str(games)], capture_output=True, text=True, check=True
    )
    return json.loads(out.stdout)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("rev")
    ap.add_argument("spec", nargs="?", default=str(ROOT / "rulespec" / "official.yaml"))
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--scaling", type=float, default=1.89, help="the speed-up of 2 jobs over 1 (measured quiet)")
    args = ap.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    from playtest import engines

    engine = engines.load(args.spec)
    engine_path = engine.path or str(ROOT / "generated" / "engines" / f"{engine.name}.py")
    base = extract(args.rev)
    cpu: dict[str, list[float]] = {"base": [], "new": []}
    digests = set()
    decisions = 0
    loads = [os.getloadavg()[0]]
    for _ in range(args.runs):
        for key, root in (("base", base), ("new", ROOT)):
            r = run(root, engine_path, args.games)
            cpu[key].append(r["cpu"] / args.games)
            digests.add((key, r["digest"]))
            decisions = r["decisions"]
        loads.append(os.getloadavg()[0])
    b, n = statistics.median(cpu["base"]), statistics.median(cpu["new"])
    same = len({d for _, d in digests}) == 1
    per_decision = 1e6 * n * args.games / decisions
    print(
        f"{args.rev}: {1000 * b:.2f} ms CPU per game; now: {1000 * n:.2f} ms ({per_decision:.0f} us per "
        f"decision); {b / n:.2f}x faster (median of {args.runs} x {args.games} games, load average "
        f"{min(loads):.1f}-{max(loads):.1f}); same results: {'yes' if same else 'NO'}"
    )
    print(
        f"projected 10,000 games with --jobs 2 at {args.scaling}x: {10_000 * b / args.scaling:.0f} s at {args.rev}, "
        f"{10_000 * n / args.scaling:.0f} s now (CPU time; the wall time on a quiet machine)"
    )
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
