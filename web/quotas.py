"""What one client, and all of them together, may ask of a server: the limits of `serve`.

A web table is open to whoever reaches its address, so nothing of it may grow without bound
because one client asks: each table holds a game in memory (and its bots' turns in the worker
process), each request costs the event loop that every seat shares. The limits:

- ``tables_per_address``: tables made per client address in a moving window ("20/hour": no
  burst at a window's edge), read by the ``limits`` library and counted by :class:`MovingWindow`;
- ``requests_per_address``: requests per client address ("30/second"; an event stream counts
  once, when it opens), so that no client can flood the event loop with moves or views;
- ``max_open_tables``: games in play, in all; a new table waits for one to end, expire or be
  abandoned (``abandoned_days`` without a move: it no longer counts, and may make room in the
  database as a finished game does);
- ``max_tables`` and ``expire_days``: what the database keeps (see ``web.closing.tables_to_close``);
- ``bot_queue``: bot moves waiting for the worker process, in all. A table has at most one
  move of its bots in flight (its bot task asks for one move at a time), so the queue is fair
  between tables by construction; past this length a new table with bots is refused rather
  than made to wait behind the others.

A refusal is a :class:`Refused` with 429 (this client asked too often) or 503 (the server is
full) and the seconds after which asking again can succeed (the ``Retry-After`` header).
The client's address is the connection's, or the one a proxy named by ``serve --proxy``
forwards (uvicorn reads ``X-Forwarded-For`` from those addresses only, and from none by default).
"""

from __future__ import annotations

import collections
import math
import time
from collections.abc import Callable
from dataclasses import dataclass

from limits import RateLimitItem, parse

from .i18n import Words, words
from .links import HUMAN
from .tables import Refused

TABLES_PER_ADDRESS = "20/hour"
REQUESTS_PER_ADDRESS = "30/second"
MAX_OPEN_TABLES = 200
BOT_QUEUE = 32
MAX_TABLES = 2000
EXPIRE_DAYS = 30.0
ABANDONED_DAYS = 1.0
STREAMS_PER_ADDRESS = 20
STREAMS_PER_TABLE = 50


@dataclass(frozen=True)
class Quotas:
    """The limits of one server (the defaults are `serve`'s)."""

    tables_per_address: str = TABLES_PER_ADDRESS
    requests_per_address: str = REQUESTS_PER_ADDRESS
    max_open_tables: int = MAX_OPEN_TABLES
    bot_queue: int = BOT_QUEUE
    max_tables: int = MAX_TABLES  # tables kept in the database; the oldest finished ones make room
    expire_days: float | None = EXPIRE_DAYS  # days without a move after which a table is removed (None: never)
    abandoned_days: float = ABANDONED_DAYS  # days without a move after which a game no longer counts as in play
    streams_per_address: int = STREAMS_PER_ADDRESS  # live event streams one address holds at once
    streams_per_table: int = STREAMS_PER_TABLE  # live event streams of one table (its seats and spectators)

    def check(self) -> None:
        """ValueError, saying which, for limits that contradict each other or cannot be read."""
        for option, rate in (
            ("--tables-per-address", self.tables_per_address),
            ("--requests-per-address", self.requests_per_address),
        ):
            try:
                parse_rate(rate)
            except ValueError as e:
                raise ValueError(f"{option}: {e}") from None
        if self.max_open_tables > self.max_tables:
            raise ValueError(
                f"--max-open-tables ({self.max_open_tables}) must be at most --max-tables "
                f"({self.max_tables}): games in play are never removed to make room"
            )


def parse_rate(text: str) -> RateLimitItem:
    """A rate as `serve` takes it: COUNT/PERIOD ("20/hour", "30/second", "100/10 minutes");
    ValueError, saying the form, for anything else."""
    try:
        item = parse(text)
    except ValueError:
        raise ValueError(f"a rate is COUNT/PERIOD, e.g. 20/hour or 30/second, not {text!r}") from None
    if item.amount < 1:
        raise ValueError(f"a rate allows at least 1, not {text!r}")
    return item


class MovingWindow:
    """Moving-window counts of hits per rate and client address, in memory: for each, the times
    of its hits within the rate's period (at most the rate's count of them), so that a hit is
    allowed while fewer than that many fell within the period before it.

    It runs on the event loop's thread and starts none: the ``limits`` library's memory storage
    started a timer thread (to expire its entries) on nearly every request, and the event loop
    waited for each thread to start, about 3 ms a request on a loaded machine, which was most of
    bench/bench_web.py's p95 over its target. Addresses not heard from for a period are dropped
    now and then, so the table holds only the clients of the last period."""

    SWEEP_SECONDS = 60.0

    def __init__(self, clock: Callable[[], float] = time.monotonic):
        self.clock = clock
        self.hits: dict[tuple[int, int, str], collections.deque[float]] = {}
        self.swept = clock()

    def hit(self, item: RateLimitItem, address: str) -> float | None:
        """Count one hit of `address` against `item`: None when allowed, else (nothing counted)
        the seconds until one more would be."""
        now = self.clock()
        period = float(item.get_expiry())
        times = self.hits.setdefault((item.amount, item.get_expiry(), address), collections.deque())
        while times and times[0] <= now - period:
            times.popleft()
        if len(times) >= item.amount:
            return times[0] + period - now
        times.append(now)
        if now - self.swept > self.SWEEP_SECONDS:
            self.sweep(now)
        return None

    def sweep(self, now: float) -> None:
        """Drop the counts whose every hit is older than their period."""
        self.swept = now
        for key in [k for k, times in self.hits.items() if not times or times[-1] <= now - k[1]]:
            del self.hits[key]


class Limiter:
    """The per-address rates of a server, in memory (a restart forgets them, which only ever
    lets a client in sooner)."""

    def __init__(self, quotas: Quotas):
        self.quotas = quotas
        self.tables = parse_rate(quotas.tables_per_address)
        self.requests = parse_rate(quotas.requests_per_address)
        self.window = MovingWindow()

    def _hit(self, item: RateLimitItem, address: str, message: Words) -> None:
        wait = self.window.hit(item, address)
        if wait is not None:
            raise Refused(429, message, retry_after=max(1, math.ceil(wait)))

    def request(self, address: str) -> None:
        """Count one request of `address`; Refused (429) past its rate."""
        self._hit(self.requests, address, words("refused.rate_requests", rate=shown_rate(self.requests)))

    def new_table(self, address: str) -> None:
        """Count one new table of `address`; Refused (429) past its rate."""
        self._hit(self.tables, address, words("refused.rate_tables", rate=shown_rate(self.tables)))

    def admit(self, hub, address: str):
        """The check :meth:`web.tables.Hub.create` runs on a valid request for a table: room
        for one more game in play, room in the bots' queue if it has bots (503: the server is
        full, whoever asks), then the rate of `address` (429), counted only for a table that
        is made."""

        def check(seats: list[str]) -> None:
            if hub.open_tables() >= self.quotas.max_open_tables:
                raise Refused(503, words("refused.full", n=self.quotas.max_open_tables), retry_after=60)
            if any(who != HUMAN for who in seats) and hub.thinking >= self.quotas.bot_queue:
                raise Refused(503, words("refused.bots_busy"), retry_after=5)
            self.new_table(address)

        return check


def shown_rate(item: RateLimitItem) -> Words:
    """'20 per hour', '100 per 10 minutes': a rate as a sentence says it (``rate.UNIT``, a plural
    family on the number of units)."""
    return words(f"rate.{item.GRANULARITY.name}", amount=item.amount, n=item.multiples)
