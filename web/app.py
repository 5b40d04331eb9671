"""The HTTP side of the web table (Starlette): pages, the JSON API and live updates.

Routes (TABLE, SEAT and the secrets come from the links made when a table is created):

- ``GET /``: the specs on offer and the form that makes a table; ``POST /tables`` (the form)
  and ``POST /api/tables`` (JSON) make one;
- ``GET /host/TABLE/SECRET``: the host's page, with each human seat's invitation link;
  ``POST /host/TABLE/SECRET/close`` removes the table for good;
- ``GET /play/TABLE/SEAT/SECRET``: a seat's board; its API under
  ``/api/tables/TABLE/seats/SEAT/SECRET``: ``GET`` the seat's view, ``POST .../actions``
  ``{"action": id, "after": moves}``, ``GET .../events`` (server-sent events: the view again
  after every move, see web.streams), ``GET .../game.json`` (a finished game, for ``play --load``);
- ``GET /watch/TABLE/SECRET``: the spectators' board (their own secret, derived from the host's),
  its API under ``/api/tables/TABLE/watch/SECRET``;
- ``GET /rules/SPEC/LANG``: the variant's reference sheet (en, fr, nl, sr).

Every answer carries a Content-Security-Policy (scripts and styles from this server only; the
sheet, which has its own inline style, gets a policy that allows that one style by its hash and
no script at all). Every refused request gets a 4xx with a sentence and changes nothing.

The limits of :mod:`web.quotas` hold for every client: past its rate of requests or of new
tables a client gets 429, and while the server is full (games in play, bots' queue) a new
table gets 503, each with a ``Retry-After``; a table removed as too old (``--expire-days``,
``--max-tables``) answers 410 with why.
"""
from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import http
import json
import logging
import pathlib
import re
import sqlite3
import urllib.parse

import jinja2
from starlette.applications import Starlette
from starlette.convertors import Convertor, register_url_convertor
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from compiler.safe_text import html_finalize
from compiler.sheets.plurals import LANGUAGES

from . import views
from .hosts import HostCheck, Hosts
from .quotas import Limiter, Quotas
from .store import Store, digest
from .streams import Streams
from .tables import HUMAN, Hub, LiveTable, Refused, seat_secrets, watch_secret

HERE = pathlib.Path(__file__).resolve().parent
MAX_BODY = 16_384  # an action is a few bytes, a new table a few hundred
PAGE_CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
            "frame-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
LANGUAGE_NAMES = {"en": "English", "fr": "Français", "nl": "Nederlands", "sr": "Српски"}


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


def templates() -> jinja2.Environment:
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(HERE / "templates")), autoescape=True,
                             undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True,
                             finalize=html_finalize)  # a spec's control characters shown escaped, as in the sheets
    return env


def sheet_csp(html_text: str) -> str:
    """A policy for a reference sheet: its own <style> elements, allowed by their hashes, fonts
    from data: URLs (the sheet embeds its fonts), and nothing else: no script."""
    hashes = []
    for body in re.findall(r"<style[^>]*>(.*?)</style>", html_text, flags=re.S):
        hashes.append("'sha256-" + base64.b64encode(hashlib.sha256(body.encode("utf-8")).digest()).decode() + "'")
    return (f"default-src 'none'; style-src {' '.join(hashes) or chr(39) + 'none' + chr(39)}; font-src data:; "
            "img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'self'")


def error(status: int, message: str, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status, headers=headers)


def wait_text(seconds: int) -> str:
    """'a few seconds', 'about 3 minutes': how long to wait before asking again, in words."""
    if seconds < 10:
        return "a few seconds"
    if seconds < 90:
        return f"about {seconds} seconds"
    minutes = round(seconds / 60)
    return f"about {minutes} minutes" if minutes < 90 else f"about {round(minutes / 60)} hours"


def page_error(env, status: int, message: str, retry_after: int | None = None) -> HTMLResponse:
    """An error as a page: what went wrong and, for a limit, when to try again."""
    return HTMLResponse(env.get_template("error.html").render(
        message=message, status=status, phrase=http.HTTPStatus(status).phrase,
        wait=wait_text(retry_after) if retry_after is not None else None),
        status_code=status, headers={"Retry-After": str(retry_after)} if retry_after is not None else None)


def client_address(scope) -> str:
    """The client's address (uvicorn puts there the one a proxy named by `serve --proxy` forwards)."""
    client = scope.get("client")
    return client[0] if client else "unknown"


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


async def read_body(request: Request) -> bytes:
    """The request's body, refused with 413 past MAX_BODY bytes (read no further)."""
    declared = request.headers.get("content-length")
    if declared is not None and not (declared.isascii() and declared.isdigit()):
        raise Refused(400, "the Content-Length is not a number")
    if declared is not None and int(declared) > MAX_BODY:
        raise Refused(413, f"a request body holds at most {MAX_BODY} bytes")
    data = bytearray()
    async for chunk in request.stream():
        data += chunk
        if len(data) > MAX_BODY:
            raise Refused(413, f"a request body holds at most {MAX_BODY} bytes")
    return bytes(data)


async def read_json(request: Request) -> dict:
    body = await read_body(request)
    try:
        data = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise Refused(400, "the body is not JSON") from None
    if not isinstance(data, dict):
        raise Refused(400, "the body is a JSON object")
    return data


def same_site(request: Request) -> None:
    """Refuse a POST that a page of another site makes a browser send (it shows its Origin, or
    "null" from a sandboxed frame)."""
    origin = request.headers.get("origin")
    if origin is not None and (origin == "null" or urllib.parse.urlsplit(origin).netloc != request.headers.get("host")):
        raise Refused(403, "this request comes from another site")


def pick_language(request: Request) -> str:
    """?lang=, else the first of the browser's languages that a sheet exists in, else English."""
    asked = request.query_params.get("lang", "")
    if asked in LANGUAGES:
        return asked
    for part in request.headers.get("accept-language", "").split(","):
        code = part.split(";")[0].strip().lower()[:2]
        if code in LANGUAGES:
            return code
    return "en"


class SecurityHeaders:
    """Headers on every answer: a CSP (unless the route set its own), no sniffing, and a referrer
    only to this server (a page's address holds a seat's secret; "no-referrer" would also make
    the browser send `Origin: null` with the table form, which :func:`same_site` refuses)."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)

        async def send_with_headers(message):
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                names = {k.lower() for k, _ in headers}
                extra = {b"content-security-policy": PAGE_CSP.encode(), b"x-content-type-options": b"nosniff",
                         b"referrer-policy": b"same-origin", b"cache-control": b"no-store"}
                headers += [(k, v) for k, v in extra.items() if k not in names]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)


def create_app(variants: dict, db_path: str, bot_delay: float = 0.6, bot_workers: int = 1,
               quotas: Quotas | None = None, hosts: Hosts | None = None) -> Starlette:
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
    hub = Hub(variants, store, bot_delay, bot_workers,
              expire_after=quotas.expire_days * 86400 if quotas.expire_days is not None else None,
              max_tables=quotas.max_tables, abandon_after=quotas.abandoned_days * 86400)

    def gone(table_id: str) -> Refused:
        """The refusal for a link to a table this server does not hold: never was, could not be
        resumed, or was removed as too old."""
        why = hub.unavailable.get(table_id)
        if why is not None:
            return Refused(410, "this table could not be resumed after the server restarted")
        closed = store.closed_reason(table_id)
        return Refused(404, "no such table") if closed is None else Refused(410, closed)

    def seat_table(request: Request) -> tuple[LiveTable, int | None]:
        """The table and seat a link opens (seat None: the host's link to watch); 403 otherwise."""
        table_id = request.path_params["table"]
        table = hub.tables.get(table_id)
        if table is None:
            raise gone(table_id)
        seat = request.path_params.get("seat")
        if seat is None:
            if not table.watch_allowed(request.path_params["secret"]):
                raise Refused(403, "this link does not open that table")
            if len(table.seats) < 2:  # whoever watched would see the one seat's blind reserves
                raise Refused(404, "a table of one player has no spectators' view")
            return table, None
        if not table.seat_allowed(seat, request.path_params["secret"]):
            raise Refused(403, "this link does not open that seat")
        return table, seat

    def view_url(request: Request, table: LiveTable, seat: int | None) -> str:
        secret = request.path_params["secret"]
        if seat is None:
            return request.url_for("watch_view", table=table.id, secret=secret).path
        return request.url_for("seat_view", table=table.id, seat=seat, secret=secret).path

    def links(request: Request, table: LiveTable, secrets_by_seat: dict[int, str]) -> list[dict]:
        return [{"seat": i, "who": s.who,
                 "link": str(request.url_for("play", table=table.id, seat=i, secret=secrets_by_seat[i]))
                 if i in secrets_by_seat else None} for i, s in enumerate(table.seats)]

    async def index(request: Request) -> Response:
        offered = [{"key": v.key, "title": v.title, "counts": list(v.player_counts)} for v in variants.values()]
        max_players = max(max(v.player_counts) for v in variants.values())
        return HTMLResponse(env.get_template("index.html").render(
            variants=offered, seats=range(max_players), bots=("random", "greedy", "mcts")))

    async def create_form(request: Request) -> Response:
        try:
            same_site(request)
            body = (await read_body(request)).decode("utf-8")
            form = urllib.parse.parse_qs(body, max_num_fields=32)
        except (Refused, UnicodeDecodeError, ValueError) as e:
            return page_error(env, getattr(e, "status", 400), getattr(e, "message", "the form could not be read"),
                              getattr(e, "retry_after", None))
        spec = form.get("spec", [""])[0]
        players = form.get("players", [""])[0]
        if not players.isdigit() or len(players) > 2:
            return page_error(env, 422, "choose the number of players")
        n = int(players)
        seats = [form.get(f"seat{i}", [HUMAN])[0] for i in range(n)]
        seed = form.get("seed", [""])[0].strip()
        if seed and (not seed.isascii() or not seed.isdigit() or len(seed) > 18):
            return page_error(env, 422, "a seed is a whole number from 0 to 2**62")
        try:
            table, host, _ = await hub.create(spec, n, seats, int(seed) if seed else None,
                                              admit=limiter.admit(hub, client_address(request.scope)))
        except Refused as e:
            return page_error(env, e.status, e.message, e.retry_after)
        hub.kick(table)
        return RedirectResponse(request.url_for("host", table=table.id, secret=host), status_code=303)

    async def create_api(request: Request) -> Response:
        same_site(request)
        data = await read_json(request)
        table, host, secrets_by_seat = await hub.create(data.get("spec"), data.get("players"), data.get("seats"),
                                                        data.get("seed"),
                                                        admit=limiter.admit(hub, client_address(request.scope)))
        hub.kick(table)
        watch = str(request.url_for("watch", table=table.id, secret=watch_secret(host, table.id)))
        return JSONResponse({"table": table.id, "host": str(request.url_for("host", table=table.id, secret=host)),
                             "seats": links(request, table, secrets_by_seat),
                             "watch": watch if len(table.seats) > 1 else None}, status_code=201)

    async def host(request: Request) -> Response:
        table = hub.tables.get(request.path_params["table"])
        secret = request.path_params["secret"]
        if table is None:
            refusal = gone(request.path_params["table"])
            return page_error(env, refusal.status, refusal.message)
        if not table.host_allowed(secret):
            return page_error(env, 404, "no such table")
        # The seats' and the spectators' secrets are not stored; the host's secret derives them again.
        watch = watch_secret(secret, table.id)
        if table.watch_hash is None:  # a table stored before spectators had a secret of their own
            try:
                await store.set_watch_hash(table.id, digest(watch))
            except sqlite3.Error:
                return page_error(env, 503, "the table's watch link could not be stored; try again")
            table.watch_hash = digest(watch)
        return HTMLResponse(env.get_template("host.html").render(
            table=table, title=variants[table.spec].title if table.spec in variants else table.spec,
            seats=links(request, table, seat_secrets(secret, table.id, table.seats)),
            over=table.game.is_over(), moves=len(table.log), result=views.result(table),
            close=request.url_for("close", table=table.id, secret=secret).path,
            watch=request.url_for("watch", table=table.id, secret=watch) if len(table.seats) > 1 else None))

    async def close(request: Request) -> Response:
        """The host's "close this table": removed for good, its links then say so."""
        table = hub.tables.get(request.path_params["table"])
        if table is None or not table.host_allowed(request.path_params["secret"]):
            return page_error(env, 404, "no such table")
        try:
            same_site(request)
            await hub.remove({table.id: "the host closed this table"})
        except Refused as e:
            return page_error(env, e.status, e.message)
        except sqlite3.Error:
            return page_error(env, 503, "the table could not be closed; try again")
        return HTMLResponse(env.get_template("closed.html").render(table=table.id))

    async def play(request: Request) -> Response:
        try:
            table, seat = seat_table(request)
        except Refused as e:
            return page_error(env, e.status, e.message)
        lang = pick_language(request)
        api = view_url(request, table, seat)
        return HTMLResponse(env.get_template("play.html").render(
            table=table, seat=seat, lang=lang, languages=LANGUAGE_NAMES, spec=table.spec,
            title=variants[table.spec].title if table.spec in variants else table.spec,
            rules=table.spec in variants,
            page={"api": api, "meta": views.meta(table.module), "seat": seat, "lang": lang,
                  "labels": views.labels(variants[table.spec].rules if table.spec in variants else None,
                                         table.module, lang)}))

    async def seat_view(request: Request) -> Response:
        table, seat = seat_table(request)
        return JSONResponse(views.seat_view(table, seat))

    async def act(request: Request) -> Response:
        table, seat = seat_table(request)
        same_site(request)
        data = await read_json(request)
        if seat is None:
            raise Refused(403, "a spectator does not play")
        if "action" not in data:
            raise Refused(422, "say which action: {\"action\": id}")
        await hub.act(table, seat, data["action"], data.get("after"))
        return JSONResponse(views.seat_view(table, seat))

    async def events(request: Request) -> Response:
        """A seat's (or the spectators') live view: see web.streams."""
        table, seat = seat_table(request)
        return streams.response(table, seat, client_address(request.scope))

    async def download(request: Request) -> Response:
        table, seat = seat_table(request)
        if not table.game.is_over():
            raise Refused(409, "the game is not over: its record is for download once it ends")
        state = json.loads(table.game.to_json())
        state["table"] = {"seats": [s.who for s in table.seats]}  # who sat where, as `play --load` reads it
        name = re.sub(r"[^A-Za-z0-9_-]", "_", f"{table.spec}-{table.id}") + ".json"
        return Response(json.dumps(state, sort_keys=True) + "\n", media_type="application/json",
                        headers={"Content-Disposition": f'attachment; filename="{name}"'})

    async def rules(request: Request) -> Response:
        variant = variants.get(request.path_params["spec"])
        lang = request.path_params["lang"]
        if variant is None or lang not in LANGUAGES:
            return page_error(env, 404, "no such reference sheet")
        text = await asyncio.to_thread(variant.sheet, lang)
        return HTMLResponse(text, headers={"Content-Security-Policy": sheet_csp(text)})

    async def favicon(request: Request) -> Response:
        return Response(status_code=204)  # no icon; an answer, so that browsers do not log a 404

    async def refused(request: Request, exc: Refused) -> Response:
        return error(exc.status, exc.message, exc.headers)

    def refuse_early(scope, exc: Refused) -> Response:
        """A refusal before routing (a rate): JSON under /api/, a page elsewhere."""
        if scope["path"].startswith("/api/"):
            return error(exc.status, exc.message, exc.headers)
        return page_error(env, exc.status, exc.message, exc.retry_after)

    async def http_error(request: Request, exc: HTTPException) -> Response:
        """Starlette's own refusals (no such route, a method not allowed): JSON under /api/, a page elsewhere."""
        message = {404: "no such page", 405: "this method is not allowed here"}.get(exc.status_code, str(exc.detail))
        if request.url.path.startswith("/api/"):
            return JSONResponse({"error": message}, status_code=exc.status_code, headers=exc.headers)
        return page_error(env, exc.status_code, message)

    @contextlib.asynccontextmanager
    async def lifespan(app):
        hub.resume_all()
        try:
            await hub.sweep()  # what expired while the server was stopped
        except sqlite3.Error as e:  # the server serves what it has; the next sweep tries again
            logging.getLogger("splendor_rules.web").error("old tables not removed: %s", e)
        hub.start()
        try:
            yield
        finally:
            hub.stop()
            store.close()

    seat_api = "/api/tables/{table:token}/seats/{seat:seat}/{secret:token}"
    watch_api = "/api/tables/{table:token}/watch/{secret:token}"
    routes = [
        Route("/", index, name="index"),
        Route("/tables", create_form, methods=["POST"]),
        Route("/api/tables", create_api, methods=["POST"]),
        Route("/host/{table:token}/{secret:token}", host, name="host"),
        Route("/host/{table:token}/{secret:token}/close", close, methods=["POST"], name="close"),
        Route("/play/{table:token}/{seat:seat}/{secret:token}", play, name="play"),
        Route(seat_api, seat_view, name="seat_view"),
        Route(seat_api + "/actions", act, methods=["POST"]),
        Route(seat_api + "/events", events),
        Route(seat_api + "/game.json", download),
        Route("/watch/{table:token}/{secret:token}", play, name="watch"),
        Route(watch_api, seat_view, name="watch_view"),
        Route(watch_api + "/actions", act, methods=["POST"]),
        Route(watch_api + "/events", events),
        Route(watch_api + "/game.json", download),
        Route("/rules/{spec}/{lang}", rules),
        Route("/favicon.ico", favicon),
        Mount("/static", StaticFiles(directory=str(HERE / "static")), name="static"),
    ]
    # starlette types a handler as taking any Exception, though it calls each with its own class only
    handlers = {Refused: refused, HTTPException: http_error}
    app = Starlette(routes=routes, lifespan=lifespan, exception_handlers=handlers)  # type: ignore[arg-type]
    app.state.hub = hub
    app.state.streams = streams
    app.state.limiter = limiter
    app.add_middleware(RequestLimit, limiter=limiter, refuse=refuse_early)
    app.add_middleware(HostCheck, hosts=hosts if hosts is not None else Hosts.bound_to("127.0.0.1"),
                       refuse=refuse_early)
    app.add_middleware(SecurityHeaders)  # the outermost: its headers go on every answer, a 429 too
    return app
