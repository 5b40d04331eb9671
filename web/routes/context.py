"""The state every handler shares, and the table and seat a link opens.

:func:`web.app.create_app` makes one :class:`Server` and puts it on ``app.state.server``; a
handler reads it with :func:`server_of`. The objects in it live as long as the app: the Hub and
its Store are started and stopped by the app's lifespan.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import jinja2
from starlette.requests import Request

from ..i18n import words
from ..quotas import Limiter
from ..store import Store
from ..streams import Streams
from ..tables import Hub, LiveTable, Refused


@dataclass(frozen=True)
class Server:
    """One web table's state: the variants on offer (name -> web.catalogue.Variant), the page
    templates, the tables (hub) and their store, the event streams and the per-address limits."""

    variants: dict[str, Any]
    env: jinja2.Environment
    store: Store
    hub: Hub
    streams: Streams
    limiter: Limiter

    def title(self, spec: str, lang: str = "en") -> str:
        """A table's title in `lang`: its variant's, or the spec's name when the server no longer
        offers it (a table resumed from the store)."""
        return self.variants[spec].title_in(lang) if spec in self.variants else spec

    def gone(self, table_id: str) -> Refused:
        """The refusal for a link to a table this server does not hold: never was, could not be
        resumed, or was removed as too old."""
        why = self.hub.unavailable.get(table_id)
        if why is not None:
            return Refused(410, words("refused.not_resumed", reason=why))
        closed = self.store.closed_reason(table_id)
        return Refused(404, words("refused.no_table")) if closed is None else Refused(410, closed)

    def seat_table(self, request: Request) -> tuple[LiveTable, int | None]:
        """The table and seat a link opens (seat None: the host's link to watch); 403 otherwise."""
        table_id = request.path_params["table"]
        table = self.hub.tables.get(table_id)
        if table is None:
            raise self.gone(table_id)
        seat = request.path_params.get("seat")
        if seat is None:
            if not table.watch_allowed(request.path_params["secret"]):
                raise Refused(403, words("refused.watch_link"))
            if len(table.seats) < 2:  # whoever watched would see the one seat's blind reserves
                raise Refused(404, words("refused.no_spectators"))
            return table, None
        if not table.seat_allowed(seat, request.path_params["secret"]):
            raise Refused(403, words("refused.seat_link"))
        return table, seat


def server_of(request: Request) -> Server:
    """The state of the app that `request` came to (set by create_app)."""
    server: Server = request.app.state.server
    return server
