"""A finished game stepped through: each position, as one seat saw it or with everything open.

A replay exists only once the game is over. While it goes on, a position of the past shown to
a seat would be harmless, but the positions shown with everything open (or as another seat saw
them) would tell the deck order and the other seats' blind reserves, so a game in progress has
no replay at all: :func:`check_over` refuses it, and the refusal holds nothing of the game.

Position K (0 to the number of moves) is the game dealt again from the table's seed, its first
K moves played (the table's own engine and log: the moves it stored); the view of it is the
seat's view of web.views (``seat_view``) of that position, so a replay shows what the board
shows, with these differences: no action is legal (a replay plays nothing), the log stops at
move K (each move naming the card it took as the live log did), and seen by no seat (``as``
None) the whole state is open, blind reserves included (the deck order and the spec's face-down
piles stay counts, as at the end of a game).
"""

from __future__ import annotations

from typing import Any

from . import views
from .i18n import words
from .streams import Frame
from .tables import Refused

OPEN = "open"


def check_over(table: Any) -> None:
    """Refused (409) unless the table's game is over; the sentence says nothing of the game."""
    if not table.game.is_over():
        raise Refused(409, words("refused.replay_in_play"))


def seen_by(asked: str | None, table: Any, default: int | None) -> int | None:
    """The seat a replay is seen by, from ``?as=``: ``open`` (None: everything open), a seat
    number from 0, or nothing (`default`); 422 for anything else."""
    if asked is None or asked == "":
        return default
    if asked == OPEN:
        return None
    if asked.isascii() and asked.isdigit() and len(asked) <= 4 and int(asked) < len(table.seats):
        return int(asked)
    raise Refused(422, words("refused.replay_as", open=OPEN, last=len(table.seats) - 1))


def move_number(asked: str | None, table: Any) -> int:
    """The position asked for, ``?move=K``: 0 (the deal) to the number of moves (the end)."""
    moves = len(table.log)
    if asked is None or asked == "":
        return 0
    if not (asked.isascii() and asked.isdigit() and len(asked) <= 6) or int(asked) > moves:
        raise Refused(422, words("refused.replay_move", last=moves))
    return int(asked)


def position(table: Any, k: int) -> Any:
    """The game after the first `k` moves of `table`, dealt again from its seed."""
    game = table.module.new_game(len(table.seats), seed=table.seed, max_turns=table.game.max_turns)
    for _seat, action in table.log[:k]:
        game.apply(action)
    return game


def replay_view(table: Any, k: int, seat: int | None) -> dict[str, Any]:
    """Position `k` of a finished `table` as `seat` saw it (None: everything open), shaped as a
    seat's view (web.views.seat_view) with ``replay``: the move shown, the moves in all, and who
    it is seen by."""
    check_over(table)
    game = position(table, k)
    # the log names the card each move took as the live log did (LiveTable.named: only what was public then)
    named = tuple(table.named[:k])
    frame = Frame(table.id, table.spec, table.module, game, tuple(table.seats), tuple(table.log[:k]), None, named)
    view = views.seat_view(frame, seat)
    if seat is None and not game.is_over():
        view["state"] = views.full_state(game, table.module)
    view["legal"] = []
    view["replay"] = {"move": k, "moves": len(table.log), "as": OPEN if seat is None else seat}
    return view
