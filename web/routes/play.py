"""A seat's board and its API, and the spectators': the page, the JSON view, moves, live events
(web.streams) and a finished game's record.

Every route here opens a table through its link's secret (``Server.seat_table``): a seat's
link (``/play/TABLE/SEAT/SECRET``, ``/api/tables/TABLE/seats/SEAT/SECRET``) or the spectators'
(``/watch/TABLE/SECRET``, ``/api/tables/TABLE/watch/SECRET``), which sees what anyone at the
table may see and never plays. What a seat is sent is web.views's ``seat_view``: its own
observation, nothing derived from more.
"""

from __future__ import annotations

import json
import re

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response

from compiler.sheets.plurals import LANGUAGES

from .. import gems, i18n, views
from ..i18n import words
from ..tables import LiveTable, Refused
from .context import server_of
from .errors import language, page_error
from .guards import client_address, read_json, same_site


def view_url(request: Request, table: LiveTable, seat: int | None) -> str:
    """The path of the JSON view that the page of `seat` (None: the spectators') reads."""
    secret = request.path_params["secret"]
    if seat is None:
        return request.url_for("watch_view", table=table.id, secret=secret).path
    return request.url_for("seat_view", table=table.id, seat=seat, secret=secret).path


async def play(request: Request) -> Response:
    """The board of a seat or of the spectators, in the browser's language (a wrong link is a page
    that says so)."""
    server = server_of(request)
    try:
        table, seat = server.seat_table(request)
    except Refused as e:
        return page_error(server.env, e.status, e.words, lang=language(request))
    lang = language(request)
    api = view_url(request, table, seat)
    variant = server.variants.get(table.spec)
    rules = variant.rules if variant is not None else None
    return HTMLResponse(
        server.env.get_template("play.html").render(
            **i18n.page_words(lang, ""),
            table=table,
            seat=seat,
            spec=table.spec,
            title=server.title(table.spec, lang),
            rules=variant is not None,
            replay_link=request.url.path + "/replay",
            page={
                "api": api,
                "meta": views.meta(table.module),
                "seat": seat,
                "lang": lang,
                "labels": views.labels(rules, table.module, lang),
                "messages": i18n.catalogue(lang),
                "gems": gems.words(tuple(table.module.COLOURS), lang, gems.declared(rules, lang)),
            },
        )
    )


async def seat_view(request: Request) -> Response:
    """What the seat (or the spectators) may see now, as JSON: the view its streams share when it
    is the latest, else rendered in a worker thread (web.streams.Views.answer), never on the event
    loop that carries every seat's clicks and updates."""
    server = server_of(request)
    table, seat = server.seat_table(request)
    return Response((await server.streams.views.answer(table, seat)).json(), media_type="application/json")


async def act(request: Request) -> Response:
    """A seat's move, ``{"action": id, "after": moves, "lang": "fr"}`` (the language a refusal is
    said in: "lang", else ?lang=, else the browser's); the seat's view once it is stored."""
    server = server_of(request)
    table, seat = server.seat_table(request)
    same_site(request)
    data = await read_json(request)
    if seat is None:
        raise Refused(403, words("refused.spectator"))
    if "action" not in data:
        raise Refused(422, words("refused.say_action"))
    lang = data["lang"] if data.get("lang") in LANGUAGES else language(request)
    request.state.lang = lang  # a refusal is said in it (routes.errors.language)
    await server.hub.act(table, seat, data["action"], data.get("after"), lang)
    return Response((await server.streams.views.answer(table, seat)).json(), media_type="application/json")


async def undo(request: Request) -> Response:
    """A seat takes back its last move, when the host's house rule allows it and no one has
    acted since (web.tables.Hub.undo); the seat's view once the undo is stored."""
    server = server_of(request)
    table, seat = server.seat_table(request)
    same_site(request)
    if seat is None:
        raise Refused(403, words("refused.spectator"))
    await server.hub.undo(table, seat)
    return Response((await server.streams.views.answer(table, seat)).json(), media_type="application/json")


async def events(request: Request) -> Response:
    """A seat's (or the spectators') live view: see web.streams."""
    server = server_of(request)
    table, seat = server.seat_table(request)
    return server.streams.response(table, seat, client_address(request.scope))


async def download(request: Request) -> Response:
    """A finished game's record, as `play --load` reads it (409 while the game goes on)."""
    table, seat = server_of(request).seat_table(request)
    if not table.game.is_over():
        raise Refused(409, words("refused.download"))
    state = json.loads(table.game.to_json())
    state["table"] = {"seats": [s.who for s in table.seats]}  # who sat where, as `play --load` reads it
    name = re.sub(r"[^A-Za-z0-9_-]", "_", f"{table.spec}-{table.id}") + ".json"
    return Response(
        json.dumps(state, sort_keys=True) + "\n",
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )
