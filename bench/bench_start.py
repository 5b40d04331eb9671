"""How long `splendor-rules serve` takes to start with the whole catalogue (issue 31, item 8).

Each run starts the server as a user does (`python -m app serve`, every spec of the catalogue
by default, a fresh database) and times from the process's start to the first answer of its
front page (200), and the processor time the server used until then (user and system, from
/proc: on a machine shared with other work the wall time grows with its load, this much less).
The figures are medians of --runs runs; the first run of a new compiler or
spec builds the engines (a cold cache), so it is reported apart with --cold (an empty cache
folder for that run alone) and the median is taken over warm runs.

    python bench/bench_start.py [--runs 5] [--cold] [--project DIR] [SPEC...]

--project runs the server of another checkout (its .venv's Python), to compare a branch with
main on the same machine at the same time.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

ROOT = pathlib.Path(__file__).resolve().parent.parent
TIMEOUT = 300.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def cpu_seconds(pid: int) -> float:
    """The processor time (user and system) process `pid` has used; NaN where /proc is missing."""
    try:
        fields = pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def one_start(specs: list[str], env: dict[str, str], project: pathlib.Path = ROOT) -> tuple[float, float]:
    """Seconds from starting the server of `project` to its front page's first 200, and the
    processor seconds it used until then."""
    port = free_port()
    with tempfile.TemporaryDirectory() as folder:
        db = os.path.join(folder, "tables.sqlite3")
        started = time.perf_counter()
        python = project / ".venv" / "bin" / "python"
        command = [
            str(python) if python.exists() else sys.executable,
            "-m",
            "app",
            "serve",
            *specs,
            "--db",
            db,
            "--port",
            str(port),
        ]
        process = subprocess.Popen(command, cwd=project, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            while time.perf_counter() - started < TIMEOUT:
                if process.poll() is not None:
                    raise SystemExit(f"the server stopped with status {process.returncode}")
                try:
                    with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as answer:
                        if answer.status == 200:
                            return time.perf_counter() - started, cpu_seconds(process.pid)
                except (urllib.error.URLError, ConnectionError, TimeoutError):
                    time.sleep(0.02)
            raise SystemExit("the server did not start")
        finally:
            process.terminate()
            process.wait(30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("specs", nargs="*", help="the specs to serve (default: the catalogue)")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--cold", action="store_true", help="also time one start with an empty engine cache")
    parser.add_argument("--project", type=pathlib.Path, default=ROOT, help="the checkout to run (default: this one)")
    args = parser.parse_args()
    env = dict(os.environ)
    if args.cold:
        with tempfile.TemporaryDirectory() as cache:
            wall, cpu = one_start(args.specs, {**env, "SPLENDOR_RULES_CACHE": cache}, args.project)
            print(f"cold start (empty cache): {wall:.2f} s, {cpu:.2f} s of processor", flush=True)
    runs = []
    for _ in range(args.runs):
        runs.append(one_start(args.specs, env, args.project))
        print(f"  start: {runs[-1][0]:.2f} s, {runs[-1][1]:.2f} s of processor", flush=True)
    walls = [w for w, _ in runs]
    print(
        f"median start over {len(runs)} runs: {statistics.median(walls):.2f} s (min {min(walls):.2f}, "
        f"max {max(walls):.2f}); processor {statistics.median(c for _, c in runs):.2f} s"
    )


if __name__ == "__main__":
    main()
