"""Which tables a server clears, and why, in the sentence a seat that comes back reads.

The database keeps a bounded number of tables (``max_tables``) for a bounded time
(``expire_days``): a finished or abandoned game goes first, a game in play never (the open-table
limit keeps their number under the bound). Pure functions of the tables' facts and the clock,
so the policy is tested without a server.
"""

from __future__ import annotations

from .i18n import Words, words


def span(seconds: float) -> Words:
    """'30 days', '1 day', '12 hours', '5 minutes': a span as a sentence says it, in any
    language (``span.days``, a plural family on the number)."""
    if seconds < 3600:
        return words("span.minutes", n=round(seconds / 60))
    if seconds < 86400:
        return words("span.hours", n=_figure(round(seconds / 3600, 1)))
    return words("span.days", n=_figure(round(seconds / 86400, 1)))


def _figure(n: float) -> int | float:
    """A whole number as an int (said without '.0', and by its plural category)."""
    return int(n) if n == int(n) else n


def days(seconds: float) -> str:
    """The span in English (`serve --list-tables`)."""
    return str(span(seconds))


def tables_to_close(
    tables: list[tuple[str, bool, float]],
    now: float,
    expire_after: float | None,
    max_tables: int | None,
    abandon_after: float | None = None,
) -> dict[str, Words]:
    """Which tables to remove, and why, of `tables` (id, whether its game is over, when it last
    moved): every table idle for `expire_after` seconds (a finished game's, or an abandoned
    one's), then, while more than `max_tables` would be kept, the finished ones and the games
    abandoned (idle for `abandon_after` seconds) idle longest. A game in play is never removed
    to make room: the open-table limit keeps their number under `max_tables`."""
    closing: dict[str, Words] = {}
    if expire_after is not None:
        for table_id, over, last_at in tables:
            if now - last_at >= expire_after:
                closing[table_id] = words(
                    "closed.expired_over" if over else "closed.expired_idle", span=span(expire_after)
                )
    if max_tables is not None:
        kept = len(tables) - len(closing)
        left = {
            table_id
            for table_id, over, last_at in tables
            if not over and abandon_after is not None and now - last_at >= abandon_after
        }
        idle = sorted(
            (last_at, table_id)
            for table_id, over, last_at in tables
            if (over or table_id in left) and table_id not in closing
        )
        for _, table_id in idle[: max(0, kept - max_tables)]:
            closing[table_id] = (
                words("closed.room_abandoned", span=span(abandon_after))
                if table_id in left and abandon_after is not None
                else words("closed.room_over")
            )
    return closing
