"""Benchmark: `splendor-rules check rulespec/official.yaml` as a whole process.

Not a timed test: run it by hand and read the figures.

    python bench/bench_check.py            # 30 runs of each command
    python bench/bench_check.py -n 100

Each command is started N times as a fresh process (`python -m compiler check ...`),
interleaved so that a busy moment of the machine hits all of them alike. Printed per
command: the median wall time, the spread (min, quartiles, max) and the median minus
the baseline's. The baselines are `python -c pass` (the interpreter alone) and
`python -c "import app.cli"` (imports, before any work).
"""

from __future__ import annotations

import argparse
import os
import pathlib
import statistics
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent

COMMANDS = {
    "python -c pass": [sys.executable, "-c", "pass"],
    "python -c 'import app.cli'": [sys.executable, "-c", "import app.cli"],
    "check rulespec/official.yaml": [sys.executable, "-m", "app", "check", "rulespec/official.yaml"],
}


def run_once(argv: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    done = subprocess.run(argv, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"{' '.join(argv)} failed with status {done.returncode}:\n{done.stderr.decode(errors='replace')}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", "--runs", type=int, default=30, help="runs of each command (default 30)")
    args = parser.parse_args()
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH", "")]))
    times: dict[str, list[float]] = {name: [] for name in COMMANDS}
    for argv in COMMANDS.values():  # warm the file cache and the bytecode
        run_once(argv, env)
    for _ in range(args.runs):
        for name, argv in COMMANDS.items():
            times[name].append(run_once(argv, env))
    base = statistics.median(times["python -c pass"])
    print(f"{args.runs} runs each, {sys.executable} (Python {sys.version.split()[0]}), wall time in ms")
    print(f"{'command':36} {'median':>8} {'min':>8} {'q1':>8} {'q3':>8} {'max':>8} {'-python':>8}")
    for name, values in times.items():
        q1, _, q3 = statistics.quantiles(values, n=4) if len(values) > 1 else (values[0],) * 3
        med = statistics.median(values)
        print(
            f"{name:36} {med * 1e3:8.1f} {min(values) * 1e3:8.1f} {q1 * 1e3:8.1f} {q3 * 1e3:8.1f} "
            f"{max(values) * 1e3:8.1f} {(med - base) * 1e3:8.1f}"
        )


if __name__ == "__main__":
    main()
