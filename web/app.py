"""The HTTP side of the web table (Starlette): pages, the JSON API and live updates.

This module assembles the app: the URLs below, the middleware every request passes through
(the Host check, the per-address rate, the security headers) and the lifespan that resumes and
stops the tables. The handlers live in :mod:`web.routes`, one module per group of routes, and
read the server's state from ``app.state.server`` (:class:`web.routes.context.Server`).

Routes (TABLE, SEAT and the secrets come from the links made when a table is created):

- ``GET /``: the specs on offer and the form that makes a table; ``POST /tables`` (the form)
  and ``POST /api/tables`` (JSON) make one;
- ``GET /host/TABLE/SECRET``: the host's page, with each human seat's invitation link;
  ``POST /host/TABLE/SECRET/close`` removes the table for good (asked again first: the form
  sends ``confirm=yes`` the second time), ``POST /host/TABLE/SECRET/undo`` (``undo=on|off``)
  switches the house rule "undo until the next player acts";
- ``GET /play/TABLE/SEAT/SECRET``: a seat's board; its API under
  ``/api/tables/TABLE/seats/SEAT/SECRET``: ``GET`` the seat's view, ``POST .../actions``
  ``{"action": id, "after": moves}``, ``POST .../undo`` (the seat's last move taken back,
  when the host allows it and no one has acted since), ``GET .../events`` (server-sent events: the
  view again after every move, see web.streams), ``GET .../game.json`` (a finished game, for
  ``play --load`` and ``play --replay``), ``GET .../replay?move=K&as=open|SEAT`` (a position of a
  finished game, web.replays);
- ``GET /play/TABLE/SEAT/SECRET/replay`` and ``GET /watch/TABLE/SECRET/replay``: the replay page of a
  finished game (409 while it goes on);
- ``GET /watch/TABLE/SECRET``: the spectators' board (their own secret, derived from the host's),
  its API under ``/api/tables/TABLE/watch/SECRET``;
- ``GET /rules/SPEC/LANG``: the variant's reference sheet (en, fr, nl, sr).

Weight: a static file is named in the pages with its version (``/static/play.js?v=HASH``, the
start of its SHA-256, :func:`static_url`) and served with a year's ``max-age`` when asked by that
version, else ``no-cache`` with its ETag and Last-Modified (a 304 when unchanged); every other
answer but a reference sheet (``no-cache`` and its ETag) is ``no-store`` (a seat's page and its
answers are private). Every answer is gzipped for a client that accepts it (:class:`Compress`)
but an event stream (each event must reach the page at once). A page holding a link's secret
is compressed too: compression gives a secret away (BREACH) only where an answer also shows
text the request chose, and none does here (a page's language and a replay's seat are chosen
among a few fixed values, and a refusal that repeats what was asked holds no secret); a new
answer must keep it so.

Every answer carries a Content-Security-Policy (scripts and styles from this server only; the
sheet, which has its own inline style, gets a policy that allows that one style by its hash and
no script at all). Every refused request gets a 4xx with a sentence and changes nothing.

The limits of :mod:`web.quotas` hold for every client: past its rate of requests or of new
tables a client gets 429, and while the server is full (games in play, bots' queue) a new
table gets 503, each with a ``Retry-After``; a table removed as too old (``--expire-days``,
``--max-tables``) answers 410 with why.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import logging
import os
import pathlib
import sqlite3
import urllib.parse
from collections.abc import AsyncIterator

import jinja2
from starlette.applications import Starlette
from starlette.convertors import Convertor, register_url_convertor
from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.middleware.gzip import GZipMiddleware
from starlette.responses import FileResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import NotModifiedResponse, StaticFiles
from starlette.types import ASGIApp, Receive, Scope, Send

from compiler.front.reading import read_file
from compiler.safe_text import html_finalize

from . import resuming
from .hosts import HostCheck, Hosts
from .quotas import Limiter, Quotas
from .routes import errors, hosting, play, replays, sheets
from .routes.context import Server
from .routes.guards import client_address
from .store import Store
from .streams import Streams
from .tables import Hub, Refused

HERE = pathlib.Path(__file__).resolve().parent
PAGE_CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "frame-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)


class SeatNumber(Convertor):
    """A seat in a path: at most 4 digits. A longer number matches no route, so a link with a
    number of thousands of digits is "no such page" (404), never int()'s digit limit (a 500)."""

    regex = "[0-9]{1,4}"

    def convert(self, value: str) -> int:
        return int(value)

    def to_string(self, value) -> str:
        return str(value)


class Token(Convertor):
    """A table id or a secret in a path (token_urlsafe): at most 64 such characters."""

    regex = "[A-Za-z0-9_-]{1,64}"

    def convert(self, value: str) -> str:
        return value

    def to_string(self, value) -> str:
        return str(value)


register_url_convertor("seat", SeatNumber())
register_url_convertor("token", Token())

STATIC = HERE / "static"
MAX_STATIC_BYTES = 5_000_000  # the page's script and style: tens of kilobytes
YEAR = 365 * 86400
_VERSIONS: dict[str, tuple[tuple[int, int], str]] = {}


def static_version(path: str | os.PathLike[str]) -> str:
    """The version of a static file: the first 16 hex digits of its SHA-256, read again when the
    file's size or time changes."""
    info = os.stat(path)
    stamp = (info.st_mtime_ns, info.st_size)
    known = _VERSIONS.get(str(path))
    if known is None or known[0] != stamp:
        known = (stamp, hashlib.sha256(read_file(path, MAX_STATIC_BYTES, "a static file")).hexdigest()[:16])
        _VERSIONS[str(path)] = known
    return known[1]


def static_url(name: str) -> str:
    """The address of a static file with its version, which may be cached for a year."""
    return f"/static/{name}?v={static_version(STATIC / name)}"


class VersionedStatic(StaticFiles):
    """Static files with their caching: asked by their current version (``?v=``), a year's
    ``max-age``, immutable; otherwise ``no-cache``: the browser asks again each time, with the
    ETag or date it holds, and gets a 304 while the file is unchanged."""

    def file_response(
        self, full_path: str | os.PathLike[str], stat_result: os.stat_result, scope: Scope, status_code: int = 200
    ) -> Response:
        response = FileResponse(full_path, status_code=status_code, stat_result=stat_result)
        asked = urllib.parse.parse_qs(scope.get("query_string", b"").decode("latin-1")).get("v", [""])[0]
        fresh = bool(asked) and asked == static_version(full_path)
        response.headers["cache-control"] = f"public, max-age={YEAR}, immutable" if fresh else "no-cache"
        if self.is_not_modified(response.headers, Headers(scope=scope)):
            return NotModifiedResponse(response.headers)
        return response


def compressible(path: str) -> bool:
    """Whether the answer to `path` may be gzipped: anything but an event stream."""
    return not path.endswith("/events")


class Compress:
    """Gzip (Starlette's GZipMiddleware, only for a client that accepts it) for the answers
    :func:`compressible` allows; the others pass as they are."""

    def __init__(self, app: ASGIApp):
        self.app = app
        self.gzip = GZipMiddleware(app, minimum_size=500, compresslevel=6)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and compressible(scope["path"]):
            return await self.gzip(scope, receive, send)
        await self.app(scope, receive, send)


def templates() -> jinja2.Environment:
    """The pages' templates: autoescaped, and an undefined name is an error, never a blank."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(HERE / "templates")),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        finalize=html_finalize,
    )  # a spec's control characters shown escaped, as in the sheets
    env.globals["static_url"] = static_url
    return env


class RequestLimit:
    """Every request counted against its address's rate (web.quotas); past it, 429 from
    `refuse(scope, refusal)` and the app never sees the request."""

    def __init__(self, app, limiter: Limiter, refuse):
        self.app = app
        self.limiter = limiter
        self.refuse = refuse

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http":
            try:
                self.limiter.request(client_address(scope))
            except Refused as e:
                return await self.refuse(scope, e)(scope, receive, send)
        await self.app(scope, receive, send)


class SecurityHeaders:
    """Headers on every answer: a CSP (unless the route set its own), no sniffing, and a referrer
    only to this server (a page's address holds a seat's secret; "no-referrer" would also make
    the browser send `Origin: null` with the table form, which :func:`web.routes.guards.same_site` refuses)."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)

        async def send_with_headers(message):
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                names = {k.lower() for k, _ in headers}
                extra = {
                    b"content-security-policy": PAGE_CSP.encode(),
                    b"x-content-type-options": b"nosniff",
                    b"referrer-policy": b"same-origin",
                    b"cache-control": b"no-store",
                }
                headers += [(k, v) for k, v in extra.items() if k not in names]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)


@contextlib.asynccontextmanager
async def lifespan(app: Starlette) -> AsyncIterator[None]:
    """The tables resumed from the store and the old ones removed before the first request; on
    shutdown, the bots stopped and the store closed."""
    server: Server = app.state.server
    resuming.resume_all(server.hub)
    try:
        await server.hub.sweep()  # what expired while the server was stopped
    except sqlite3.Error as e:  # the server serves what it has; the next sweep tries again
        logging.getLogger("splendor_rules.web").error("old tables not removed: %s", e)
    server.hub.start()
    try:
        yield
    finally:
        await server.hub.close()  # the bots first, then the movers: no move is lost or half made
        server.store.close()


def create_app(
    variants: dict,
    db_path: str,
    bot_delay: float = 0.6,
    bot_workers: int = 1,
    quotas: Quotas | None = None,
    hosts: Hosts | None = None,
) -> Starlette:
    """The web table over `variants` (name -> web.catalogue.Variant), storing in `db_path`; bots
    wait `bot_delay` seconds before a move and think in `bot_workers` processes (0: threads);
    `quotas`: the limits (web.quotas; None: serve's defaults); `hosts`: the names it answers to
    (web.hosts; None: a server on loopback's)."""
    quotas = quotas if quotas is not None else Quotas()
    quotas.check()
    env = templates()
    limiter = Limiter(quotas)
    store = Store(db_path)
    streams = Streams(quotas.streams_per_address, quotas.streams_per_table)
    hub = Hub(
        variants,
        store,
        bot_delay,
        bot_workers,
        expire_after=quotas.expire_days * 86400 if quotas.expire_days is not None else None,
        max_tables=quotas.max_tables,
        abandon_after=quotas.abandoned_days * 86400,
    )
    hub.prepare = streams.views.prepare
    server = Server(variants, env, store, hub, streams, limiter)
    seat_api = "/api/tables/{table:token}/seats/{seat:seat}/{secret:token}"
    watch_api = "/api/tables/{table:token}/watch/{secret:token}"
    routes = [
        Route("/", hosting.index, name="index"),
        Route("/tables", hosting.create_form, methods=["POST"]),
        Route("/api/tables", hosting.create_api, methods=["POST"]),
        Route("/host/{table:token}/{secret:token}", hosting.host, name="host"),
        Route("/host/{table:token}/{secret:token}/close", hosting.close, methods=["POST"], name="close"),
        Route("/host/{table:token}/{secret:token}/undo", hosting.switch_undo, methods=["POST"], name="switch_undo"),
        Route("/play/{table:token}/{seat:seat}/{secret:token}", play.play, name="play"),
        Route(seat_api, play.seat_view, name="seat_view"),
        Route(seat_api + "/actions", play.act, methods=["POST"]),
        Route(seat_api + "/undo", play.undo, methods=["POST"]),
        Route(seat_api + "/events", play.events),
        Route(seat_api + "/game.json", play.download),
        Route("/play/{table:token}/{seat:seat}/{secret:token}/replay", replays.replay_page),
        Route(seat_api + "/replay", replays.replay_position),
        Route("/watch/{table:token}/{secret:token}", play.play, name="watch"),
        Route("/watch/{table:token}/{secret:token}/replay", replays.replay_page),
        Route(watch_api + "/replay", replays.replay_position),
        Route(watch_api, play.seat_view, name="watch_view"),
        Route(watch_api + "/actions", play.act, methods=["POST"]),
        Route(watch_api + "/events", play.events),
        Route(watch_api + "/game.json", play.download),
        Route("/rules/{spec}/{lang}", sheets.rules),
        Route("/favicon.ico", hosting.favicon),
        Mount("/static", VersionedStatic(directory=str(STATIC)), name="static"),
    ]
    # starlette types a handler as taking any Exception, though it calls each with its own class only
    handlers = {Refused: errors.refused, HTTPException: errors.http_error}
    app = Starlette(routes=routes, lifespan=lifespan, exception_handlers=handlers)  # type: ignore[arg-type]
    app.state.server = server
    app.state.hub = hub  # the handlers read `server`; these for whoever holds the app (the tests)
    app.state.streams = streams
    app.state.limiter = limiter
    refuse_early = functools.partial(errors.refuse_early, env)
    app.add_middleware(RequestLimit, limiter=limiter, refuse=refuse_early)
    app.add_middleware(
        HostCheck, hosts=hosts if hosts is not None else Hosts.bound_to("127.0.0.1"), refuse=refuse_early
    )
    app.add_middleware(Compress)
    app.add_middleware(SecurityHeaders)  # the outermost: its headers go on every answer, a 429 too
    return app
