"""A finished game's replay (web.replays): its page, which steps through the game (forward, back,
to a move; as a seat saw it or all open), and its JSON positions.

Both open through a table's link, as the board does: a seat's (``/play/TABLE/SEAT/SECRET/replay``,
``/api/tables/TABLE/seats/SEAT/SECRET/replay``) or the spectators' (``/watch/TABLE/SECRET/replay``,
``/api/tables/TABLE/watch/SECRET/replay``). While the game goes on both are refused (409), with a
sentence and nothing of the game.
"""
from __future__ import annotations

import asyncio

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response

from .. import replays, views
from ..tables import Refused
from .context import server_of
from .errors import page_error
from .play import LANGUAGE_NAMES, pick_language, view_url


async def replay_page(request: Request) -> Response:
    """The replay of a finished game: the board of play.html, driven by static/replay.js."""
    server = server_of(request)
    try:
        table, seat = server.seat_table(request)
        replays.check_over(table)
        shown = replays.seen_by(request.query_params.get("as"), table, seat)
    except Refused as e:
        return page_error(server.env, e.status, e.message)
    lang = pick_language(request)
    api = view_url(request, table, seat)
    variant = server.variants.get(table.spec)
    seats = [{"as": replays.OPEN, "name": "everything open"}] + [
        {"as": str(p), "name": f"player {p + 1}" + (" (you)" if p == seat else "")} for p in range(len(table.seats))]
    return HTMLResponse(server.env.get_template("replay.html").render(
        table=table, seat=shown, lang=lang, languages=LANGUAGE_NAMES, spec=table.spec,
        title=server.title(table.spec), rules=variant is not None, replay_link=None,
        page={"api": api, "meta": views.meta(table.module), "seat": shown, "lang": lang,
              "labels": views.labels(variant.rules if variant is not None else None, table.module, lang),
              "replay": {"api": api + "/replay", "moves": len(table.log),
                         "as": replays.OPEN if shown is None else str(shown), "seats": seats}}))


async def replay_position(request: Request) -> Response:
    """One position of a finished game, ``?move=K&as=open|SEAT``, as a seat's view (JSON)."""
    table, seat = server_of(request).seat_table(request)
    replays.check_over(table)
    shown = replays.seen_by(request.query_params.get("as"), table, seat)
    k = replays.move_number(request.query_params.get("move"), table)
    return JSONResponse(await asyncio.to_thread(replays.replay_view, table, k, shown))
