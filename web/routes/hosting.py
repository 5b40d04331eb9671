"""Making a table and hosting it: the front page (the specs on offer and the form), a new table
from the form (``POST /tables``, answered with pages) or as JSON (``POST /api/tables``), the
host's page with each human seat's invitation link, and closing a table for good.

A new table passes the per-address and server-wide limits (web.quotas, through the Limiter's
``admit``) before anything is stored; a POST from a page of another site is refused (403).
"""

from __future__ import annotations

import sqlite3
import urllib.parse
from typing import Any

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response

from .. import i18n, views
from ..links import HUMAN, seat_secrets, watch_secret
from ..store import digest
from ..tables import LiveTable, Refused
from .context import server_of
from .errors import language, page_error
from .guards import client_address, read_body, read_json, same_site


def links(request: Request, table: LiveTable, secrets_by_seat: dict[int, str]) -> list[dict[str, Any]]:
    """Each seat of `table`: who sits there and, for a seat whose secret is known here (a human's),
    its invitation link."""
    return [
        {
            "seat": i,
            "who": s.who,
            "link": str(request.url_for("play", table=table.id, seat=i, secret=secrets_by_seat[i]))
            if i in secrets_by_seat
            else None,
        }
        for i, s in enumerate(table.seats)
    ]


async def index(request: Request) -> Response:
    """The front page: the specs on offer, their player counts, and the form that makes a table."""
    server = server_of(request)
    shown = words(request)
    offered = [
        {"key": v.key, "title": v.title_in(str(shown["lang"])), "counts": list(v.player_counts)}
        for v in server.variants.values()
    ]
    max_players = max(max(v.player_counts) for v in server.variants.values())
    return HTMLResponse(
        server.env.get_template("index.html").render(
            **shown, variants=offered, seats=range(max_players), bots=("random", "greedy", "mcts")
        )
    )


def words(request: Request) -> dict[str, Any]:
    """The page's language (?lang=, else the browser's) and its words (web.i18n)."""
    return i18n.page_words(request.query_params.get("lang", ""), request.headers.get("accept-language", ""))


async def favicon(request: Request) -> Response:
    """No icon; an answer, so that browsers do not log a 404."""
    return Response(status_code=204)


async def create_form(request: Request) -> Response:
    """A table from the front page's form; the browser is sent on to the host's page (303), and
    every refusal is a page."""
    server = server_of(request)
    try:
        same_site(request)
        body = (await read_body(request)).decode("utf-8")
        form = urllib.parse.parse_qs(body, max_num_fields=32)
    except (Refused, UnicodeDecodeError, ValueError) as e:
        return page_error(
            server.env,
            getattr(e, "status", 400),
            getattr(e, "words", i18n.words("refused.form")),
            getattr(e, "retry_after", None),
            lang=language(request),
        )
    spec = form.get("spec", [""])[0]
    players = form.get("players", [""])[0]
    if not players.isdigit() or len(players) > 2:
        return page_error(server.env, 422, i18n.words("refused.choose_players"), lang=language(request))
    n = int(players)
    seats = [form.get(f"seat{i}", [HUMAN])[0] for i in range(n)]
    seed = form.get("seed", [""])[0].strip()
    if seed and (not seed.isascii() or not seed.isdigit() or len(seed) > 18):
        return page_error(server.env, 422, i18n.words("refused.seed"), lang=language(request))
    try:
        table, host_secret, _ = await server.hub.create(
            spec,
            n,
            seats,
            int(seed) if seed else None,
            admit=server.limiter.admit(server.hub, client_address(request.scope)),
        )
    except Refused as e:
        return page_error(server.env, e.status, e.words, e.retry_after, lang=language(request))
    server.hub.kick(table)
    return RedirectResponse(request.url_for("host", table=table.id, secret=host_secret), status_code=303)


async def create_api(request: Request) -> Response:
    """A table from JSON ``{"spec", "players", "seats", "seed"}``: 201 with the host's link, each
    human seat's and the spectators' (None for a table of one player)."""
    server = server_of(request)
    same_site(request)
    data = await read_json(request)
    table, host_secret, secrets_by_seat = await server.hub.create(
        data.get("spec"),
        data.get("players"),
        data.get("seats"),
        data.get("seed"),
        admit=server.limiter.admit(server.hub, client_address(request.scope)),
    )
    server.hub.kick(table)
    watch = str(request.url_for("watch", table=table.id, secret=watch_secret(host_secret, table.id)))
    return JSONResponse(
        {
            "table": table.id,
            "host": str(request.url_for("host", table=table.id, secret=host_secret)),
            "seats": links(request, table, secrets_by_seat),
            "watch": watch if len(table.seats) > 1 else None,
        },
        status_code=201,
    )


async def host(request: Request) -> Response:
    """The host's page: the seats' invitation links, the spectators' link, the game's progress or
    result, and the button that closes the table. A wrong secret is "no such table" (404)."""
    server = server_of(request)
    table = server.hub.tables.get(request.path_params["table"])
    secret = request.path_params["secret"]
    if table is None:
        refusal = server.gone(request.path_params["table"])
        return page_error(server.env, refusal.status, refusal.words, lang=language(request))
    if not table.host_allowed(secret):
        return page_error(server.env, 404, i18n.words("refused.no_table"), lang=language(request))
    # The seats' and the spectators' secrets are not stored; the host's secret derives them again.
    watch = watch_secret(secret, table.id)
    if table.watch_hash is None:  # a table stored before spectators had a secret of their own
        try:
            await server.store.set_watch_hash(table.id, digest(watch))
        except sqlite3.Error:
            return page_error(server.env, 503, i18n.words("refused.store_watch"), lang=language(request))
        table.watch_hash = digest(watch)
    shown = words(request)
    variant = server.variants.get(table.spec)
    ends = views.labels(variant.rules, table.module, str(shown["lang"]))["ends"] if variant is not None else {}
    result = views.result(table)
    return HTMLResponse(
        server.env.get_template("host.html").render(
            **shown,
            ended_by=i18n.ended_by(str(shown["lang"]), result["reason"], ends) if result else "",
            table=table,
            title=server.title(table.spec, str(shown["lang"])),
            seats=links(request, table, seat_secrets(secret, table.id, table.seats)),
            over=table.game.is_over(),
            moves=len(table.log),
            result=result,
            close=request.url_for("close", table=table.id, secret=secret).path,
            switch_undo=request.url_for("switch_undo", table=table.id, secret=secret).path,
            watch=request.url_for("watch", table=table.id, secret=watch) if len(table.seats) > 1 else None,
        )
    )


async def hosted_form(request: Request) -> tuple[LiveTable | None, dict[str, list[str]], Response | None]:
    """The table a host's form is for and the form's fields, or the page that refuses it."""
    server = server_of(request)
    table = server.hub.tables.get(request.path_params["table"])
    if table is None or not table.host_allowed(request.path_params["secret"]):
        return None, {}, page_error(server.env, 404, i18n.words("refused.no_table"), lang=language(request))
    try:
        same_site(request)
        form = urllib.parse.parse_qs((await read_body(request)).decode("utf-8"), max_num_fields=8)
    except (Refused, UnicodeDecodeError, ValueError) as e:
        return (
            None,
            {},
            page_error(
                server.env,
                getattr(e, "status", 400),
                getattr(e, "words", i18n.words("refused.form")),
                lang=language(request),
            ),
        )
    return table, form, None


async def switch_undo(request: Request) -> Response:
    """The host switches the house rule "undo until the next player acts" (``undo=on`` or
    ``off``); back to the host's page (303)."""
    server = server_of(request)
    table, form, refused = await hosted_form(request)
    if table is None:
        return refused or page_error(server.env, 404, i18n.words("refused.no_table"), lang=language(request))
    try:
        await server.hub.set_undo(table, form.get("undo", [""])[0] == "on")
    except Refused as e:
        return page_error(server.env, e.status, e.words, lang=language(request))
    return RedirectResponse(
        request.url_for("host", table=table.id, secret=request.path_params["secret"]), status_code=303
    )


async def close(request: Request) -> Response:
    """The host's "close this table": asked again first (a page whose form says ``confirm=yes``),
    then removed for good, its links then saying so."""
    server = server_of(request)
    table, form, refused = await hosted_form(request)
    if table is None:
        return refused or page_error(server.env, 404, i18n.words("refused.no_table"), lang=language(request))
    secret = request.path_params["secret"]
    if form.get("confirm", [""])[0] != "yes":
        return HTMLResponse(
            server.env.get_template("close.html").render(
                **words(request),
                table=table.id,
                title=server.title(table.spec, language(request)),
                close=request.url_for("close", table=table.id, secret=secret).path,
                host=request.url_for("host", table=table.id, secret=secret).path,
            )
        )
    try:
        await server.hub.remove({table.id: i18n.words("closed.host")})
    except Refused as e:
        return page_error(server.env, e.status, e.words, lang=language(request))
    except sqlite3.Error:
        return page_error(server.env, 503, i18n.words("refused.store_close"), lang=language(request))
    return HTMLResponse(server.env.get_template("closed.html").render(**words(request), table=table.id))
