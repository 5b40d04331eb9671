"""`splendor-rules serve`: the specs loaded and checked, the app run under uvicorn."""

from __future__ import annotations

import datetime
import os
import sqlite3
import time

import uvicorn

from compiler.safe_text import visible

from . import catalogue, resuming
from .app import create_app
from .closing import days
from .hosts import Hosts
from .quotas import Quotas
from .store import Store
from .tables import Hub
from .views import result

DEFAULT_DB = "splendor-tables.sqlite3"


class ServeError(Exception):
    """The server cannot start (its database cannot be opened); the message says why."""


def load_variants(paths: list[str] | None, sources=None) -> dict:
    """The variants to serve: `paths`, or the official rules and the catalogue when None.
    Raises the compiler's CompileError for a spec with errors."""
    return catalogue.load(paths if paths else catalogue.default_specs(), sources)


def make_app(
    variants: dict,
    db: str,
    bot_delay: float = 0.6,
    bot_workers: int = 1,
    quotas: Quotas | None = None,
    hosts: Hosts | None = None,
):
    try:
        return create_app(variants, db, bot_delay, bot_workers, quotas, hosts)
    except sqlite3.Error as e:
        raise ServeError(f"cannot open the database {db}: {e}") from None


def run(app, host: str, port: int, proxies: tuple[str, ...] = ()) -> None:
    """Serve `app` on `host`:`port`. `proxies`: the addresses of the reverse proxies whose
    X-Forwarded-For (the client's address) is believed; none, the default, believes no one (any
    process of this machine could otherwise claim any address, and its limits)."""
    # A short grace on shutdown: the seats' event streams never end by themselves. No access log:
    # the paths hold the seats' secrets.
    uvicorn.run(
        app,
        host=host,
        port=port,
        timeout_graceful_shutdown=2,
        log_level="info",
        access_log=False,
        proxy_headers=bool(proxies),
        forwarded_allow_ips=list(proxies) or None,
    )


def _when(at: float) -> str:
    return datetime.datetime.fromtimestamp(at, datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")


def list_tables(db: str, variants: dict, now: float | None = None) -> str:
    """`serve --list-tables`: every table of `db`, one a line, oldest first: its id, spec and
    seats, how far it went (in play, its result, or why it cannot be resumed), when it was made
    and last moved. Reads the file and runs nothing of it: each table is replayed with the
    engine built from the spec of its name among `variants` (what `serve` would offer)."""
    if not os.path.isfile(db):
        raise ServeError(f"no database {db} (a server makes it when it starts)")
    try:
        store = Store(db)
    except sqlite3.Error as e:
        raise ServeError(f"cannot open the database {db}: {e}") from None
    try:
        hub = Hub(variants, store)
        resuming.resume_all(hub)
        stored = {t.id: t for t in store.tables()}
    finally:
        store.close()
    now = time.time() if now is None else now
    lines = []
    for table_id, row in stored.items():
        table = hub.tables.get(table_id)
        if table is None:
            state = f"cannot be resumed: {hub.unavailable.get(table_id, '?')}"  # in English, as the log says it
        elif (outcome := result(table)) is not None:
            winners = outcome["winners"]
            names = " and ".join(f"player {p + 1}" for p in winners)
            state = (
                f"over: {names} {'wins' if len(winners) == 1 else 'share the victory'}"
                if winners
                else "over: no winner"
            ) + f" ({outcome['ended_by']})"
        elif table.problem is not None:  # in English, as the server's log says it
            state = f"stopped: {table.problem}"
        else:
            state = f"in play, player {table.game.current_player + 1} to move"
        seats = ", ".join(visible(who) for who, _ in row.seats)
        lines.append(
            f"{visible(table_id)}  {visible(row.spec)}  [{seats}]  {len(row.moves)} moves  {state}  "
            f"made {_when(row.created)}, last move {_when(row.last_at)} ({days(now - row.last_at)} ago)"
        )
    count = f"{len(lines)} table{'s' if len(lines) != 1 else ''} in {db}"
    # A database from elsewhere is data: a spec name, a seat or an error holding a line break stays on its line.
    return "\n".join(visible(line) for line in [count + (":" if lines else "")] + lines)
