"""Load on the web table (issue 19's benchmark): moves per second and the latency from a
click to every seat's update, with 100 tables of bots and 20 simulated people.

Each run starts `splendor-rules serve` (a real uvicorn process, as a user runs it) on a fresh
database, then, from this process (asyncio and httpx):

- keeps --bot-tables tables of two greedy bots playing (a finished one is replaced), bots
  waiting --bot-delay seconds before each move as the server's default does;
- seats --people simulated people, two to a table: each opens its seat's event stream (the
  page's live updates) and, at its turn, thinks --think seconds then "clicks" (POSTs) a legal
  action. A click's latency is the time from the POST to the moment *both* seats' streams have
  delivered the board after it (the slower of the two).

All this traffic comes from one address (127.0.0.1), so the server is started with limits
(`serve --tables-per-address`, `--requests-per-address`, `--max-open-tables`, `--bot-queue`,
`--streams-per-address`)
far above what the run asks: the limiter still counts every request, as it does for people,
but refuses none of the bench's. A click that fails is counted as an error and each run prints
its errors by kind: a transport error by its exception's type (the connection dropped, reset, timed
out), an answer other than 200 by its status and the server's sentence ("HTTP 409: ...").

The server's own record gives the moves per second (every stored move, bots' and people's,
over the measured window). Figures are medians over --runs runs; the target is a p95 under
100 ms. Each run also times the server's start, from the process's start to its front page's
first answer: it serves the whole catalogue (as `serve` with no SPEC does; the issue's target is
a start under 3 s) unless --only-spec, and each run's database is fresh (the engines are cached
on disk by rule model, as `serve` keeps them: bench/bench_start.py times a cold start too).
Each run is paired with a baseline run (the same people, no bot tables), alternated, and
the ratio of their p95s is printed: on a machine shared with other work the absolute figures
move with its load, the ratio much less. Client and server share this machine's cores, so the
figures include the client's own load.

    python bench/bench_web.py [--runs 3] [--seconds 20] [--bot-tables 100] [--people 20]
                              [--bot-delay 0.6] [--think 0.3] [--spec target-12] [--only-spec]
                              [--keepalive 4] [--json] [--url URL] [--no-baseline] [--project DIR]

--project runs the server of another checkout (its .venv's Python), to compare a branch with main
on the same machine at the same time (the runs alternate when several are given).
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import os
import pathlib
import random
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse

import httpx

ROOT = pathlib.Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# What one run asks of the server, from one address, with room to spare: no request of the bench is refused.
BENCH_LIMITS = (
    "--tables-per-address",
    "1000000/minute",
    "--requests-per-address",
    "1000000/second",
    "--max-open-tables",
    "100000",
    "--max-tables",
    "1000000",
    "--bot-queue",
    "100000",
    "--streams-per-address",
    "100000",
)


def start_server(
    specs: list[str], db: str, port: int, bot_delay: float, log, project: pathlib.Path = ROOT
) -> tuple[subprocess.Popen, float]:
    """The server of `project` serving `specs` (none: the catalogue), and the seconds from its
    process's start to its front page's first answer."""
    python = project / ".venv" / "bin" / "python"
    started = time.perf_counter()
    process = subprocess.Popen(
        [
            str(python) if python.exists() else sys.executable,
            "-m",
            "app",
            "serve",
            *specs,
            "--db",
            db,
            "--port",
            str(port),
            "--bot-delay",
            str(bot_delay),
            *BENCH_LIMITS,
        ],
        cwd=project,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/", timeout=5).status_code == 200:
                return process, time.perf_counter() - started
        except httpx.HTTPError:
            time.sleep(0.02)
    process.kill()
    raise SystemExit("the server did not start")


def seat_api(link: str) -> str:
    table, seat, secret = urllib.parse.urlparse(link).path.split("/")[2:]
    return f"/api/tables/{table}/seats/{seat}/{secret}"


class Stream:
    """One seat's event stream: the latest view, and a wake-up for whoever waits on it."""

    def __init__(self):
        self.view = None
        self.changed = asyncio.Event()
        self.seen_at: dict[int, float] = {}  # moves -> when a view with that many moves arrived

    async def follow(self, client: httpx.AsyncClient, url: str) -> None:
        async with client.stream("GET", url, timeout=None) as response:
            event = None
            async for line in response.aiter_lines():
                if line.startswith("event: "):
                    event = line[7:]
                elif line.startswith("data: ") and event == "view":
                    self.view = json.loads(line[6:])
                    self.seen_at.setdefault(self.view["moves"], time.perf_counter())
                    self.changed.set()

    async def wait(self, predicate) -> dict:
        while self.view is None or not predicate(self.view):
            self.changed.clear()
            await self.changed.wait()
        return self.view


async def new_table(client, base: str, spec: str, seats: list[str]) -> dict:
    """A table made, or the run stopped with the server's refusal (a limit set too low for the bench)."""
    r = await client.post(base + "/api/tables", json={"spec": spec, "players": len(seats), "seats": seats})
    if r.status_code != 201:
        raise SystemExit(f"the server refused a table: {r.status_code} {r.text}")
    return r.json()


async def person_pair(
    client, base: str, spec: str, think: float, rng: random.Random, latencies: list, stop: float, errors: list
) -> None:
    """Two people at one table, each on their own stream, playing until `stop` (new games as needed)."""
    while time.perf_counter() < stop:
        made = await new_table(client, base, spec, ["human", "human"])
        apis = [seat_api(s["link"]) for s in made["seats"]]
        streams = [Stream(), Stream()]
        tasks = [
            asyncio.create_task(s.follow(client, base + a + "/events")) for s, a in zip(streams, apis, strict=True)
        ]
        try:
            while time.perf_counter() < stop:
                view = await streams[0].wait(lambda v: True)
                if view["over"]:
                    break
                seat = view["current"]
                mine = await streams[seat].wait(lambda v, n=view["moves"]: v["moves"] >= n)
                if mine["over"] or mine["current"] != seat:
                    continue
                await asyncio.sleep(think * rng.random() * 2)
                n = mine["moves"]
                clicked = time.perf_counter()
                try:
                    r = await client.post(
                        base + apis[seat] + "/actions", json={"action": rng.choice(mine["legal"]), "after": n}
                    )
                except httpx.TransportError as e:  # a kept-alive connection the server closed as it was reused
                    errors.append(error_kind(e))
                    continue
                if r.status_code != 200:
                    errors.append(error_kind(r))
                    continue
                for s in streams:
                    await s.wait(lambda v, n=n: v["moves"] > n)
                latencies.append(max(s.seen_at[min(m for m in s.seen_at if m > n)] for s in streams) - clicked)
        finally:
            for t in tasks:
                t.cancel()


def error_kind(failure: httpx.TransportError | httpx.Response) -> str:
    """What went wrong with a click, as the run's report groups it: a transport error by its type
    (and httpx's words, which name the phase: connecting, writing, reading), an answer by its
    status and the server's sentence (its JSON "error"), the same for every click it refused so."""
    if isinstance(failure, httpx.TransportError):
        said = str(failure).strip()
        return f"transport {type(failure).__name__}" + (f": {said}" if said else "")
    try:
        sentence = failure.json().get("error", "")
    except ValueError:
        sentence = failure.text[:120]
    return f"HTTP {failure.status_code}: {sentence}"


async def keep_bot_tables(client, base: str, spec: str, count: int, stop: float) -> None:
    """Keep `count` tables of two greedy bots playing; replace each that ends."""

    async def make():
        made = await new_table(client, base, spec, ["greedy", "greedy"])
        watch = urllib.parse.urlparse(made["watch"]).path.split("/")  # /watch/TABLE/SECRET
        return f"/api/tables/{watch[2]}/watch/{watch[3]}"

    watching = [await make() for _ in range(count)]
    while time.perf_counter() < stop:
        await asyncio.sleep(2)
        for i, url in enumerate(watching):
            if (await client.get(base + url)).json()["over"]:
                watching[i] = await make()


async def one_run(args, base: str, bot_tables: int) -> dict:
    latencies, errors = [], []
    # An idle connection is dropped by this client before the server may close it (uvicorn closes one
    # idle for 5 s; httpx's default expiry is the same 5 s, so a connection reused at that instant
    # could meet the server's close: a transport error that a browser never shows its user, as it
    # sends a request again when a kept-alive socket it reused closes before any answer).
    limits = httpx.Limits(
        max_connections=args.people * 2 + 50,
        max_keepalive_connections=args.people * 2 + 50,
        keepalive_expiry=args.keepalive,
    )
    async with httpx.AsyncClient(limits=limits, timeout=30) as client:
        warm = time.perf_counter() + 3
        stop = warm + args.seconds
        rng = random.Random(1)
        bots = asyncio.create_task(keep_bot_tables(client, base, args.spec, bot_tables, stop))
        await asyncio.sleep(0)
        people = [
            asyncio.create_task(
                person_pair(client, base, args.spec, args.think, random.Random(rng.random()), latencies, stop, errors)
            )
            for _ in range(args.people // 2)
        ]
        started = time.time() + 3
        await asyncio.gather(bots, *people)
        ended = time.time()
    return {"latencies": latencies, "errors": errors, "window": (started, ended)}


def moves_in(db: str, window: tuple[float, float]) -> int:
    with sqlite3.connect(db) as con:
        return con.execute("SELECT COUNT(*) FROM moves WHERE at BETWEEN ? AND ?", window).fetchone()[0]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--bot-tables", type=int, default=100)
    parser.add_argument("--people", type=int, default=20)
    parser.add_argument("--bot-delay", type=float, default=0.6)
    parser.add_argument("--think", type=float, default=0.3)
    parser.add_argument("--spec", default="target-12", help="the spec the tables play")
    parser.add_argument(
        "--only-spec", action="store_true", help="serve --spec alone (default: the whole catalogue, as `serve` does)"
    )
    parser.add_argument(
        "--project", type=pathlib.Path, action="append", help="the checkout whose server to run (repeat to alternate)"
    )
    parser.add_argument(
        "--keepalive",
        type=float,
        default=4.0,
        help="seconds this client keeps an idle connection (below the server's 5 s)",
    )
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--url", help="measure a server already running at this address instead")
    parser.add_argument(
        "--no-baseline",
        dest="baseline",
        action="store_false",
        help="skip the baseline runs (the same people, no bot tables)",
    )
    args = parser.parse_args()
    if args.url:  # a server already running (to profile it): one run, no moves/s (its database is its own)
        result = asyncio.run(one_run(args, args.url.rstrip("/"), args.bot_tables))
        lat = result["latencies"]
        print(f"{len(lat)} clicks, p50 {1000 * percentile(lat, 0.5):.1f} ms, p95 {1000 * percentile(lat, 0.95):.1f} ms")
        return
    projects = [pathlib.Path(p).resolve() for p in args.project] if args.project else [ROOT]
    loaded: dict[pathlib.Path, list[dict]] = {p: [] for p in projects}
    baseline: dict[pathlib.Path, list[dict]] = {p: [] for p in projects}
    for _ in range(args.runs):  # alternated, so that a change in the machine's load touches each alike
        for project in projects:
            loaded[project].append(measure(args, args.bot_tables, project))
            if args.baseline:
                baseline[project].append(measure(args, 0, project))
    load_average = os.getloadavg()[0]
    report = {str(p): summarise(loaded[p], baseline[p], load_average) for p in projects}
    if args.json:
        print(json.dumps(report if len(projects) > 1 else report[str(ROOT)], indent=2))
        return
    print(
        f"{args.bot_tables} bot tables (bot delay {args.bot_delay}s) + {args.people} people, {args.seconds:.0f}s "
        f"x {args.runs} runs on {os.cpu_count()} cores (load average {load_average:.1f}); the server serves "
        + (args.spec if args.only_spec else "the whole catalogue")
    )
    for project in projects:
        print_summary(project, report[str(project)], loaded[project], baseline[project], len(projects) > 1)


def summarise(loaded: list[dict], baseline: list[dict], load_average: float) -> dict:
    """The medians of one server's runs (and of its baseline runs), with the target."""
    figures = [k for k in loaded[0] if k not in ("error_kinds", "server_said")]
    summary = {k: statistics.median(r[k] for r in loaded) for k in figures}
    summary["target_p95_ms"] = 100
    summary["target_start_s"] = 3
    summary["load_average"] = load_average
    base = {k: statistics.median(r[k] for r in baseline) for k in figures} if baseline else None
    return {"runs": loaded, "median": summary, "baseline_runs": baseline, "baseline": base}


def print_summary(project: pathlib.Path, report: dict, loaded: list[dict], baseline: list[dict], named: bool) -> None:
    if named:
        print(f"{project}:")
    for i, r in enumerate(loaded, 1):
        print(f"  run {i}: {line(r)}")
    for i, r in enumerate(baseline, 1):
        print(f"  baseline run {i} (people only): {line(r)}")
    summary, base = report["median"], report["baseline"]
    verdict = "under" if summary["p95_ms"] < 100 else "OVER"
    start = statistics.median(r["start_s"] for r in loaded + baseline)
    print(
        f"median: {summary['moves_per_s']:.0f} moves/s, click-to-every-seat p95 {summary['p95_ms']:.1f} ms "
        f"({verdict} the 100 ms target), p50 {summary['p50_ms']:.1f} ms; server start {start:.2f} s "
        f"(median of {len(loaded + baseline)} starts, {'under' if start < 3 else 'OVER'} the 3 s target)"
    )
    if base:
        print(
            f"people only: p95 {base['p95_ms']:.1f} ms, p50 {base['p50_ms']:.1f} ms; the bot tables multiply the "
            f"p95 by {summary['p95_ms'] / base['p95_ms']:.2f}"
        )


def measure(args, bot_tables: int, project: pathlib.Path = ROOT) -> dict:
    """One run on a fresh server and database: the figures of one configuration."""
    with tempfile.TemporaryDirectory() as folder:
        db = os.path.join(folder, "tables.sqlite3")
        port = free_port()
        with open(os.path.join(folder, "server.log"), "wb") as log:
            specs = [args.spec] if args.only_spec else []
            server, start = start_server(specs, db, port, args.bot_delay, log, project)
            try:
                result = asyncio.run(one_run(args, f"http://127.0.0.1:{port}", bot_tables))
            finally:
                server.terminate()  # uvicorn's graceful stop: the bots' worker process stops with it
                server.wait(30)
        said = server_said(os.path.join(folder, "server.log")) if result["errors"] else []
        lat = result["latencies"]
        return {
            "moves_per_s": moves_in(db, result["window"]) / (result["window"][1] - result["window"][0]),
            "clicks": len(lat),
            "p50_ms": 1000 * percentile(lat, 0.5),
            "p95_ms": 1000 * percentile(lat, 0.95),
            "max_ms": 1000 * max(lat, default=float("nan")),
            "errors": len(result["errors"]),
            "error_kinds": dict(collections.Counter(result["errors"]).most_common()),
            "server_said": said,
            "start_s": start,
        }


def server_said(log: str, most: int = 20) -> list[str]:
    """The server's own warnings and errors of a run that had errors (its log's lines that say
    WARNING, ERROR or a traceback's), the first `most`: where a refused or failed click may show
    its cause on the server's side."""
    with open(log, encoding="utf-8", errors="replace") as lines:
        said = [ln.rstrip() for ln in lines if any(w in ln for w in ("WARNING", "ERROR", "Traceback", "Error:"))]
    return said[:most]


def line(r: dict) -> str:
    kinds = "".join(f"\n      {n} x {kind}" for kind, n in r["error_kinds"].items())
    kinds += "".join(f"\n      server: {ln}" for ln in r["server_said"])
    return (
        f"{r['moves_per_s']:.0f} moves/s, {r['clicks']} clicks, p50 {r['p50_ms']:.1f} ms, "
        f"p95 {r['p95_ms']:.1f} ms, max {r['max_ms']:.1f} ms, {r['errors']} errors, start {r['start_s']:.2f} s" + kinds
    )


if __name__ == "__main__":
    main()
