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

from .. import gems, i18n, replays, views
from ..tables import Refused
from .context import server_of
from .errors import language, page_error
from .play import view_url


async def replay_page(request: Request) -> Response:
    """The replay of a finished game: the board of play.html, driven by static/replay.js."""
    server = server_of(request)
    try:
        table, seat = server.seat_table(request)
        replays.check_over(table)
        shown = replays.seen_by(request.query_params.get("as"), table, seat)
    except Refused as e:
        return page_error(server.env, e.status, e.words, lang=language(request))
    lang = language(request)
    api = view_url(request, table, seat)
    variant = server.variants.get(table.spec)
    rules = variant.rules if variant is not None else None
    seats = [{"as": replays.OPEN, "name": i18n.message(lang, "replay.open", {})}] + [
        {"as": str(p), "name": i18n.message(lang, "replay.seat_you" if p == seat else "replay.seat", {"number": p + 1})}
        for p in range(len(table.seats))
    ]
    return HTMLResponse(
        server.env.get_template("replay.html").render(
            **i18n.page_words(lang, ""),
            table=table,
            seat=shown,
            spec=table.spec,
            title=server.title(table.spec, lang),
            rules=variant is not None,
            replay_link=None,
            page={
                "api": api,
                "meta": views.meta(table.module),
                "seat": shown,
                "lang": lang,
                "labels": views.labels(rules, table.module, lang),
                "messages": i18n.catalogue(lang),
                "gems": gems.words(tuple(table.module.COLOURS), lang, gems.declared(rules, lang)),
                "replay": {
                    "api": api + "/replay",
                    "moves": len(table.log),
                    "as": replays.OPEN if shown is None else str(shown),
                    "seats": seats,
                },
            },
        )
    )


async def replay_position(request: Request) -> Response:
    """One position of a finished game, ``?move=K&as=open|SEAT``, as a seat's view (JSON)."""
    table, seat = server_of(request).seat_table(request)
    replays.check_over(table)
    shown = replays.seen_by(request.query_params.get("as"), table, seat)
    k = replays.move_number(request.query_params.get("move"), table)
    return JSONResponse(await asyncio.to_thread(replays.replay_view, table, k, shown))
