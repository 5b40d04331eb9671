"""Another client's latency while one client holds many event streams on its own table (issue
26, item 5): how much the streams of one table cost everyone else at each of its moves.

Each run starts `splendor-rules serve` (a real uvicorn process) on a fresh database. One client
makes a table of two people; a process of its own (so that reading them does not delay this
one's probes) opens --streams event streams on its first seat and reads them (all from
127.0.0.1; the server is started with its stream caps and request rate raised above what the
run asks, so nothing is refused). This process then plays --moves moves on that table; right
after each move, another client, at a table of its own, asks for its seat's view and for a
static file (--probes times each). The figures are the medians over --runs runs of each run's
median and p95 of those probes.

    python bench/bench_streams.py [--runs 3] [--streams 300] [--moves 30] [--probes 3] [--root DIR]

--root runs the server of another checkout (a `git worktree` of an older commit, for a before
and after on the same machine); its `serve` may not know the stream caps (--old-server).
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import pathlib
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse

import httpx

ROOT = pathlib.Path(__file__).resolve().parent.parent
LIMITS = ("--tables-per-address", "1000000/minute", "--requests-per-address", "1000000/second")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def seat_api(link: str) -> str:
    table, seat, secret = urllib.parse.urlparse(link).path.split("/")[2:]
    return f"/api/tables/{table}/seats/{seat}/{secret}"


async def hold(client: httpx.AsyncClient, url: str, opened: asyncio.Event, counter: list) -> None:
    async with client.stream("GET", url, timeout=None) as response:
        if response.status_code != 200:
            raise SystemExit(f"a stream was refused: {response.status_code}")
        counter[0] += 1
        if counter[0] >= counter[1]:
            opened.set()
        async for _ in response.aiter_bytes():
            pass


def crowd(url: str, streams: int, ready, stop) -> None:
    """The process that holds the streams, reading them, until `stop` is set."""

    async def run() -> None:
        limits = httpx.Limits(max_connections=streams + 20, max_keepalive_connections=streams + 20)
        async with httpx.AsyncClient(limits=limits, timeout=60) as client:
            opened, counter = asyncio.Event(), [0, streams]
            tasks = [asyncio.create_task(hold(client, url, opened, counter)) for _ in range(streams)]
            await asyncio.wait_for(opened.wait(), 120)
            ready.set()
            while not stop.is_set():
                await asyncio.sleep(0.2)
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

    asyncio.run(run())


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[max(0, round(0.95 * len(ordered)) - 1)]


async def one_run(base: str, streams: int, moves: int, probes: int) -> dict:
    async with httpx.AsyncClient(timeout=60) as player, httpx.AsyncClient(timeout=60) as other:
        body = {"spec": "target-12", "players": 2, "seats": ["human", "human"]}
        crowded = (await player.post(base + "/api/tables", json=body)).json()
        apis = [seat_api(s["link"]) for s in crowded["seats"]]
        mine = seat_api((await other.post(base + "/api/tables", json=body)).json()["seats"][0]["link"])
        ready, stop = multiprocessing.Event(), multiprocessing.Event()
        holder = multiprocessing.Process(target=crowd, args=(base + apis[0] + "/events", streams, ready, stop))
        holder.start()
        try:
            if not await asyncio.to_thread(ready.wait, 120):
                raise SystemExit("the streams did not open")
            await asyncio.sleep(1)
            return await play_and_probe(player, other, base, apis, mine, moves, probes)
        finally:
            stop.set()
            holder.join(30)


async def play_and_probe(player, other, base: str, apis: list[str], mine: str, moves: int, probes: int) -> dict:
    """Play `moves` moves at the crowded table; after each, time the other client's requests."""
    views, statics = [], []
    for _ in range(moves):
        seat = (await player.get(base + apis[0])).json()["current"]
        view = (await player.get(base + apis[seat])).json()
        if view["over"]:
            break
        r = await player.post(base + apis[seat] + "/actions", json={"action": view["legal"][0], "after": view["moves"]})
        assert r.status_code == 200, r.text
        for _ in range(probes):
            t = time.perf_counter()
            assert (await other.get(base + mine)).status_code == 200
            views.append(time.perf_counter() - t)
            t = time.perf_counter()
            assert (await other.get(base + "/static/style.css")).status_code == 200
            statics.append(time.perf_counter() - t)
    return {
        "view_p50": statistics.median(views),
        "view_p95": p95(views),
        "static_p50": statistics.median(statics),
        "static_p95": p95(statics),
    }


def serve(root: pathlib.Path, db: str, port: int, streams: int, old: bool, log) -> subprocess.Popen:
    caps = () if old else ("--streams-per-address", str(streams + 10), "--streams-per-table", str(streams + 10))
    process = subprocess.Popen(
        [sys.executable, "-m", "app", "serve", "target-12", "--db", db, "--port", str(port), *LIMITS, *caps],
        cwd=root,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            httpx.get(f"http://127.0.0.1:{port}/", timeout=1)
            return process
        except httpx.HTTPError:
            time.sleep(0.2)
    process.kill()
    raise SystemExit("the server did not start")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--streams", type=int, default=300)
    parser.add_argument("--moves", type=int, default=30)
    parser.add_argument("--probes", type=int, default=3)
    parser.add_argument("--root", type=pathlib.Path, default=ROOT)
    parser.add_argument("--old-server", action="store_true", help="a server without --streams-per-* options")
    args = parser.parse_args()
    results = []
    for run in range(args.runs):
        with tempfile.TemporaryDirectory() as tmp, open(pathlib.Path(tmp) / "server.log", "wb") as log:
            port = free_port()
            process = serve(args.root, str(pathlib.Path(tmp) / "t.sqlite3"), port, args.streams, args.old_server, log)
            try:
                result = asyncio.run(one_run(f"http://127.0.0.1:{port}", args.streams, args.moves, args.probes))
            finally:
                process.kill()
                process.wait(10)
        results.append(result)
        print(f"  run {run + 1}: " + ", ".join(f"{k} {v * 1000:.1f} ms" for k, v in result.items()), flush=True)
    print(
        f"median of {args.runs} runs, {args.streams} streams: "
        + ", ".join(f"{k} {statistics.median(r[k] for r in results) * 1000:.1f} ms" for k in results[0])
    )


if __name__ == "__main__":
    main()
