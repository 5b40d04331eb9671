"""Live updates: each seat's event stream (server-sent events), bounded and cheap.

A stream costs the server a connection and, at every move, a view to send. So:

- :class:`Streams` counts the streams open per client address and per table; past
  ``streams_per_address`` or ``streams_per_table`` (web.quotas) a new one gets 429 and a
  sentence, and a stream that ends, however it ends, gives its place back;
- :class:`Views` renders a seat's view (web.views.seat_view, as the text of an event) once per
  state of its table, in a worker thread (asyncio.to_thread), never on the event loop, and
  every stream of that seat sends the same text; the spectators' streams share one view too.
  A render works on a :class:`Frame` taken on the event loop: the game (never changed once it
  is the table's: a move is applied to a clone, which then replaces it), the log so far, the
  problem, so that a move made meanwhile cannot mix into a view.
- an event sends what changed of the log: the first event of a stream holds the whole view;
  each later one holds the view without the entries of the log that this stream already sent,
  ``{"log_from": K, "log": [entries K and after], ...}`` (the page keeps the first K), so a
  move costs a few hundred bytes however long the game. A stream sends part of the log only
  when the entries it sent are still the log's first ones and the table's count of undone moves
  has not changed since (an undo takes an entry away: the log is then sent whole).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

from starlette.responses import StreamingResponse

from . import views
from .i18n import Words, words
from .tables import Refused, Seat

KEEPALIVE = 15.0  # seconds between comments on an idle event stream (proxies close silent ones)
RETRY_AFTER = 10  # seconds, for a stream refused past a cap


@dataclass(frozen=True)
class Frame:
    """What a view is made of, taken from a table at one moment (web.views reads these fields)."""

    id: str
    spec: str
    module: Any
    game: Any
    seats: tuple[Seat, ...]
    log: tuple[tuple[int, int], ...]
    problem: Words | None
    named: tuple[int | None, ...] = ()  # the card each move took, when public (LiveTable.named)
    undo: bool = False  # the house rule "undo until the next player acts"
    undone: int = 0  # moves taken back so far

    @classmethod
    def of(cls, table) -> Frame:
        return cls(
            table.id,
            table.spec,
            table.module,
            table.game,
            tuple(table.seats),
            tuple(table.log),
            table.problem,
            tuple(table.named),
            table.undo,
            table.undone,
        )


@dataclass(frozen=True)
class Rendered:
    """A seat's view as JSON text, in two parts: each entry of its log, and the rest (the
    members of the object without its braces), so that an event can send part of the log."""

    log: tuple[str, ...]
    rest: str
    undone: int = 0  # the moves the table had taken back (web.tables.LiveTable.undone) when rendered

    def json(self) -> str:
        """The whole view as one JSON object (a move's answer)."""
        return f'{{"log": [{", ".join(self.log)}], {self.rest}}}'

    def event(self, log_from: int) -> str:
        """The view as one server-sent event, with the log's entries from `log_from` on (0: all)."""
        if not 0 <= log_from <= len(self.log):
            log_from = 0
        return (
            f'event: view\ndata: {{"log_from": {log_from}, "log": [{", ".join(self.log[log_from:])}], {self.rest}}}\n\n'
        )


def render(frame: Frame, seat: int | None) -> Rendered:
    """The view of `seat` (None: a spectator) of `frame`, as :class:`Rendered` text."""
    view = views.seat_view(frame, seat)
    log = tuple(json.dumps(entry) for entry in view.pop("log"))
    return Rendered(log, json.dumps(view)[1:-1], frame.undone)


def render_all(frame: Frame, seats: list[int | None]) -> dict[int | None, Rendered]:
    """The views of `seats` of `frame`, each as :func:`render` makes it."""
    return {seat: render(frame, seat) for seat in seats}


async def _one_of(batch: asyncio.Future[dict[int | None, Rendered]], seat: int | None) -> Rendered:
    return (await batch)[seat]


def _retrieved(future: asyncio.Future[Any]) -> None:
    """Mark a render's failure as seen (the stream that awaits it meets it again)."""
    if not future.cancelled():
        future.exception()


def event_text(frame: Frame, seat: int | None) -> str:
    """The whole view of `seat` (None: a spectator) as one server-sent event."""
    return render(frame, seat).event(0)


class Views:
    """The latest view of each seat of each table with streams open, rendered once and shared."""

    def __init__(self) -> None:
        self.latest: dict[
            tuple[str, int | None], tuple[Any, Words | None, int, asyncio.Future[Rendered], bool, int]
        ] = {}

    async def rendered(self, table: Any, seat: int | None) -> Rendered:
        key = (table.id, seat)
        held = self.latest.get(key)
        if (
            held is not None
            and held[0] is table.game
            and held[1] == table.problem
            and held[2] == len(table.log)
            and held[4] == table.undo
            and held[5] == table.undone
        ):
            return await asyncio.shield(held[3])
        frame = Frame.of(table)
        task = asyncio.ensure_future(asyncio.to_thread(render, frame, seat))
        self.latest[key] = (frame.game, frame.problem, len(frame.log), task, frame.undo, frame.undone)
        return await asyncio.shield(task)

    async def answer(self, table: Any, seat: int | None) -> Rendered:
        """The view of `seat` now, for the answer to its own move: the one rendered for its
        streams when it is the latest (Views.prepare rendered it while the move was stored), else
        rendered in a worker thread, not kept. Never on the event loop, which is about to send the
        move to every seat's stream: a click's update waits for no render of the answer."""
        held = self.latest.get((table.id, seat))
        if held is not None and held[0] is table.game and held[1] == table.problem and held[2] == len(table.log):
            if held[4] == table.undo and held[5] == table.undone:
                return await asyncio.shield(held[3])
        return await asyncio.to_thread(render, Frame.of(table), seat)

    async def text(self, table, seat: int | None) -> str:
        """The whole view of `seat` as one event."""
        return (await self.rendered(table, seat)).event(0)

    def prepare(self, table: Any, game: Any, log: tuple[Any, ...], named: tuple[Any, ...]) -> None:
        """Start rendering the views a move leads to (`game`, `log` and `named` once it is the
        table's), for every seat of `table` whose streams are open, while the move is stored
        (web.tables.Hub._play calls this before the store's commit, and announces the move only
        after it): every view of the table in one worker thread, each stream then finds its own
        ready. A click's update thus waits for the slower of the commit and the render, not for
        the commit, then a thread per seat (issue 31: the click-to-update p95). A view is still
        rendered from the seat's own Frame alone, and sent only once the move is the table's."""
        seats = [key[1] for key in self.latest if key[0] == table.id]
        if not seats:
            return
        frame = Frame(
            table.id,
            table.spec,
            table.module,
            game,
            tuple(table.seats),
            log,
            table.problem,
            named,
            table.undo,
            table.undone,
        )
        batch = asyncio.ensure_future(asyncio.to_thread(render_all, frame, seats))
        batch.add_done_callback(_retrieved)
        for seat in seats:
            task = asyncio.ensure_future(_one_of(batch, seat))
            task.add_done_callback(_retrieved)  # a move not stored leaves its views unread
            self.latest[(table.id, seat)] = (game, table.problem, len(log), task, table.undo, table.undone)

    def forget(self, table_id: str) -> None:
        """Drop a table's views (its last stream ended)."""
        for key in [k for k in self.latest if k[0] == table_id]:
            del self.latest[key]


class Streams:
    """The streams open, per client address and per table, within their caps."""

    def __init__(self, per_address: int, per_table: int):
        self.cap_address = per_address
        self.cap_table = per_table
        self.per_address: dict[str, int] = {}
        self.per_table: dict[str, int] = {}
        self.views = Views()

    def open(self, address: str, table_id: str) -> None:
        """Count a new stream; Refused (429) past a cap, counting nothing."""
        if self.per_address.get(address, 0) >= self.cap_address:
            raise Refused(429, words("refused.streams_address", n=self.cap_address), retry_after=RETRY_AFTER)
        if self.per_table.get(table_id, 0) >= self.cap_table:
            raise Refused(429, words("refused.streams_table", n=self.cap_table), retry_after=RETRY_AFTER)
        self.per_address[address] = self.per_address.get(address, 0) + 1
        self.per_table[table_id] = self.per_table.get(table_id, 0) + 1

    def close(self, address: str, table_id: str) -> None:
        for counts, key in ((self.per_address, address), (self.per_table, table_id)):
            counts[key] -= 1
            if not counts[key]:
                del counts[key]
        if table_id not in self.per_table:
            self.views.forget(table_id)

    def response(self, table, seat: int | None, address: str) -> StreamingResponse:
        """The event stream of `seat` of `table` for a client at `address` (Refused past a cap)."""
        self.open(address, table.id)
        queue: asyncio.Queue[int | None] = asyncio.Queue()
        table.listeners.add(queue)

        def done() -> None:
            table.listeners.discard(queue)
            self.close(address, table.id)

        return LiveStream(
            self._events(table, seat, queue), done, media_type="text/event-stream", headers={"X-Accel-Buffering": "no"}
        )

    async def _events(self, table: Any, seat: int | None, queue: asyncio.Queue[int | None]) -> AsyncIterator[str]:
        yield "retry: 1000\n\n"
        view = await self.views.rendered(table, seat)
        sent, undone = view.log, view.undone  # the entries of the log this stream has sent, and the undos then
        yield view.event(0)
        while True:
            try:
                item = await asyncio.wait_for(queue.get(), KEEPALIVE)
            except TimeoutError:
                yield ": keep-alive\n\n"
                continue
            if item is None:
                return
            while not queue.empty():  # several moves at once: one view of the latest
                if queue.get_nowait() is None:
                    return
            view = await self.views.rendered(table, seat)
            # Only what follows the entries sent, when they are still the log's first ones and no move
            # was taken back since (else all of it).
            yield view.event(len(sent) if view.undone == undone and view.log[: len(sent)] == sent else 0)
            sent, undone = view.log, view.undone


class LiveStream(StreamingResponse):
    """A streaming response that runs `done()` once it is over, however it ends: finished,
    cancelled by the client leaving, or before its body was ever started."""

    def __init__(self, content, done, **kwargs):
        super().__init__(content, **kwargs)
        self.done = done

    async def __call__(self, scope, receive, send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            self.done()
