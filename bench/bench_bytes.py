"""The bytes a seat's first load of the board costs on the wire (issue 31, item 8), and a reload.

Starts `splendor-rules serve SPEC` (bench_start.py's way, --project for another checkout),
makes a table of two people, then loads the first seat's board as a browser does, asking for
gzip: the page, what it names under /static/, the rules sheet of its frame, the seat's view
and the first event of its stream. Each answer's bytes as received (compressed where the
server compressed) are summed. A reload asks again with what a browser keeps: a static file
named by its version within its max-age is not asked for at all; one without is asked with
its ETag (a 304 costs no body).

    python bench/bench_bytes.py [--project DIR] [--spec target-12]
"""

from __future__ import annotations

import argparse
import os
import pathlib
import re
import subprocess
import sys
import tempfile
import time
import urllib.parse

import httpx

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from bench_start import ROOT, free_port  # noqa: E402 - the bench folder is no package


def start(project: pathlib.Path, spec: str, db: str, port: int) -> subprocess.Popen[bytes]:
    python = project / ".venv" / "bin" / "python"
    process = subprocess.Popen(
        [
            str(python) if python.exists() else sys.executable,
            "-m",
            "app",
            "serve",
            spec,
            "--db",
            db,
            "--port",
            str(port),
        ],
        cwd=project,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/", timeout=2).status_code == 200:
                return process
        except httpx.TransportError:
            time.sleep(0.1)
    process.kill()
    raise SystemExit("the server did not start")


def wire(response: httpx.Response) -> int:
    """The bytes of an answer as they came: its headers' and its body's (compressed or not)."""
    head = sum(len(k) + len(v) + 4 for k, v in response.headers.raw) + 17
    return head + response.num_bytes_downloaded


def first_event(client: httpx.Client, url: str) -> int:
    with client.stream("GET", url) as response:
        size = sum(len(k) + len(v) + 4 for k, v in response.headers.raw) + 17
        for line in response.iter_lines():
            size += len(line.encode("utf-8")) + 1
            if line.startswith("data: "):
                return size
    return size


def load(client: httpx.Client, base: str, link: str, kept: dict[str, httpx.Response]) -> dict[str, int]:
    """One load of a seat's board; `kept`: the static answers a browser keeps (filled on a first load)."""
    sizes: dict[str, int] = {}
    page = client.get(link)
    sizes["page"] = wire(page)
    for url in re.findall(r'(?:src|href)="(/static/[^"]+)"', page.text):
        held = kept.get(url)
        if held is not None and "immutable" in held.headers.get("cache-control", ""):
            sizes[url] = 0  # fresh for a year: not asked for
            continue
        headers = {"if-none-match": held.headers["etag"]} if held is not None and "etag" in held.headers else {}
        answer = client.get(base + url, headers=headers)
        kept.setdefault(url, answer)
        sizes[url] = wire(answer)
    frame = re.search(r'<iframe[^>]* src="([^"]+)"', page.text)
    if frame:
        held = kept.get(frame[1])
        headers = {"if-none-match": held.headers["etag"]} if held is not None and "etag" in held.headers else {}
        answer = client.get(base + frame[1], headers=headers)
        kept.setdefault(frame[1], answer)
        sizes["rules sheet"] = wire(answer)
    api = re.search(r'"api": "([^"]+)"', page.text)[1]
    sizes["view"] = wire(client.get(base + api))
    sizes["first event"] = first_event(client, base + api + "/events")
    return sizes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--project", type=pathlib.Path, default=ROOT)
    parser.add_argument("--spec", default="target-12")
    args = parser.parse_args()
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as folder:
        server = start(args.project, args.spec, os.path.join(folder, "t.sqlite3"), port)
        try:
            with httpx.Client(headers={"accept-encoding": "gzip"}, timeout=30) as client:
                made = client.post(
                    base + "/api/tables", json={"spec": args.spec, "players": 2, "seats": ["human", "human"]}
                ).json()
                link = base + urllib.parse.urlparse(made["seats"][0]["link"]).path
                kept: dict[str, httpx.Response] = {}
                for name in ("first load", "reload"):
                    sizes = load(client, base, link, kept)
                    print(
                        f"{name}: {sum(sizes.values()):,} bytes  "
                        + ", ".join(f"{k.split('?')[0]} {v:,}" for k, v in sizes.items())
                    )
        finally:
            server.terminate()
            server.wait(30)


if __name__ == "__main__":
    main()
