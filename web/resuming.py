"""Tables stored by an earlier run of the server, in play again (at start-up), or why not.

The store names a table's spec and the hash of the engine it was played with, never code: a
table resumes with the engine this server built from the spec of that name, from its seed and
its moves. A table that cannot be resumed (a spec no longer offered, seats this server would not
make, a move that no longer replays) is kept aside with why, as catalogue Words (web.i18n): each
reader of its links is told in their own language (web.routes.context), the server's log and
`serve --list-tables` in English.
"""

from __future__ import annotations

from typing import Any

from compiler.safe_text import visible

from .i18n import Words, words
from .moves import named_card, taken_card
from .rule_words import rule_failure
from .store import StoredTable
from .tables import Hub, LiveTable, Refused, Seat, log, seat_names


class Unresumable(Exception):
    """Why a stored table cannot be resumed, as catalogue Words."""

    def __init__(self, why: Words):
        super().__init__(str(why))
        self.why = why


def resume_all(hub: Hub) -> None:
    """Every stored table, replayed with the engine of its spec from its seed and moves (at
    start-up). The file names the spec and the hash of the engine a table was played with,
    never code: a table resumes with the engine this server built from the spec of that name,
    and when its rules changed since (another hash), only if every stored move replays."""
    for stored in hub.store.tables():
        variant = hub.variants.get(stored.spec)
        try:
            game, named = replay_stored(stored, variant)
        except Unresumable as e:
            why: Words = e.why
        except Exception as e:  # noqa: BLE001 - one bad table must not stop the server
            why = words("unavailable.failed", failure=rule_failure(e))
        else:
            hub.tables[stored.id] = resumed(stored, variant, game, named)
            continue
        hub.unavailable[stored.id] = why
        hub.unavailable_since[stored.id] = stored.last_at
        log.error("table %s cannot be resumed: %s", stored.id, why)


def replay_stored(stored: StoredTable, variant: Any) -> tuple[Any, list[int | None]]:
    """The game of a stored table and the card each move took, replayed; Unresumable with why not."""
    if variant is None:
        raise Unresumable(words("unavailable.no_spec", spec=visible(stored.spec[:80])))
    try:  # a file from elsewhere may name any bot: the same rules as a new table's
        seat_names(variant.module, stored.players, [who for who, _ in stored.seats])
    except Refused as e:
        raise Unresumable(words("unavailable.seats", refusal=e.words)) from None
    game = variant.module.new_game(stored.players, seed=stored.seed)
    named = []
    for n, (seat, action) in enumerate(stored.moves):
        try:
            taken = taken_card(variant.module, game, seat, action)
            game.apply(action)
            named.append(named_card(taken, game, seat))
        except Exception as e:  # noqa: BLE001 - said with the move
            if variant.source_sha256 != stored.engine_sha256:
                why = words("unavailable.changed", spec=variant.key, move=n + 1, failure=rule_failure(e))
            else:
                why = words("unavailable.move", move=n + 1, failure=rule_failure(e))
            raise Unresumable(why) from None
    return game, named


def resumed(stored: StoredTable, variant: Any, game: Any, named: list[int | None]) -> LiveTable:
    """The replayed table in play, as it was stored."""
    seats = [Seat(who, h) for who, h in stored.seats]
    return LiveTable(
        stored.id,
        variant.key,
        variant.module,
        variant.source,
        game,
        stored.seed,
        stored.host_hash,
        seats,
        list(stored.moves),
        named,
        last_at=stored.last_at,
        watch_hash=stored.watch_hash,
        undo=stored.undo,
        undone=stored.undone,
        problem=stored.problem,
    )
