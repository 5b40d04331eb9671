"""Which tables a server clears, and why, in the sentence a seat that comes back reads.

The database keeps a bounded number of tables (``max_tables``) for a bounded time
(``expire_days``): a finished or abandoned game goes first, a game in play never (the open-table
limit keeps their number under the bound). Pure functions of the tables' facts and the clock,
so the policy is tested without a server.
"""

from __future__ import annotations


def days(seconds: float) -> str:
    """'30 days', '1 day', '12 hours', '5 minutes': a span as a sentence says it."""
    if seconds < 3600:
        minutes = round(seconds / 60)
        return f"{minutes} minute{'' if minutes == 1 else 's'}"
    if seconds < 86400:
        hours = round(seconds / 3600, 1)
        return f"{hours:g} hour{'' if hours == 1 else 's'}"
    n = round(seconds / 86400, 1)
    return f"{n:g} day{'' if n == 1 else 's'}"


def tables_to_close(
    tables: list[tuple[str, bool, float]],
    now: float,
    expire_after: float | None,
    max_tables: int | None,
    abandon_after: float | None = None,
) -> dict[str, str]:
    """Which tables to remove, and why, of `tables` (id, whether its game is over, when it last
    moved): every table idle for `expire_after` seconds (a finished game's, or an abandoned
    one's), then, while more than `max_tables` would be kept, the finished ones and the games
    abandoned (idle for `abandon_after` seconds) idle longest. A game in play is never removed
    to make room: the open-table limit keeps their number under `max_tables`."""
    closing: dict[str, str] = {}
    if expire_after is not None:
        for table_id, over, last_at in tables:
            if now - last_at >= expire_after:
                closing[table_id] = (
                    f"this table was cleared: its game ended more than {days(expire_after)} ago"
                    if over
                    else f"this table was cleared after {days(expire_after)} without a move"
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
                f"this table was cleared to make room for new ones (no move for {days(abandon_after)})"
                if table_id in left and abandon_after is not None
                else "this table was cleared to make room for new ones (its game had ended)"
            )
    return closing
