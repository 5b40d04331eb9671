"""Playing a generated engine at the terminal: the board as text, and the loop of `splendor-rules play`.

Like the rest of :mod:`playtest`, this package sees a game only through the Engine API
(``new_game``, ``legal_actions``, ``apply``, ``observation``, ``to_json``/``from_json``,
``record``/``replay``, ``action_to_string``/``string_to_action`` and the state
attributes), so it plays every spec and variant the compiler builds: any number of
players, any gem names, any end-of-turn step (returning tokens, choosing a noble,
choosing how to pay) -- a step is one more decision of the same seat.

- :mod:`~playtest.terminal.table`: :func:`new_table` seats humans and bots (from
  :mod:`playtest.bots`) at a new or a saved game; :class:`TableError` says what is wrong
  with the request.
- :mod:`~playtest.terminal.board`: :func:`draw_board` draws a position as one seat sees it
  (``observation(seat)``: deck order and the other seats' blind reserves hidden), or in full
  when the game is over; the legal actions and the standings.
- :mod:`~playtest.terminal.colour`: the board in colour, on a terminal that wants it.
- :mod:`~playtest.terminal.session`: :class:`Session` is the interactive loop. It neither
  prints nor reads: it talks through ``ask(prompt) -> str`` and ``say(text)``, which the
  command line passes in (click's prompt and echo), so tests drive it with scripted input.

At a human's turn the board is drawn from that human's observation (when several humans
share the screen, each sees only what they may know; the cards they can buy now marked),
then the legal actions with their notation, each numbered by its id (so an action keeps its
number from turn to turn). On a terminal with rich installed (the `play` extra) the board is
in colour: gem colours, the human's own seat (see :func:`colour_wanted`). The human answers
with a number, an action in notation (a set's colours in any order), or a command: ``undo``
(back to that table's previous human decision, by replaying the record without the actions
since), ``save FILE`` (the engine's ``to_json``, written atomically), ``load FILE``,
``help`` or ``quit``. Bots play their seats at once and their moves are printed; at the
end the board is drawn in full with the standings.

The names below are those the command line, the other playtest modules and the tests use.
"""

from __future__ import annotations

from .board import (
    BUYABLE_MARK,
    WIDTH,
    Catalogue,
    Line,
    Segment,
    action_lines,
    board_lines,
    buyable_cards,
    draw_actions,
    draw_board,
    full_view,
    plain,
    seat_label,
    standings,
)
from .colour import GEM_COLOURS, STYLES, colour_available, colour_wanted, coloured_say, rich_text
from .session import COMMANDS, HELP, Session
from .table import (
    HUMAN,
    MAX_SAVED_BYTES,
    TABLE_KEY,
    SavedGameError,
    Seat,
    Table,
    TableError,
    load_game,
    make_seats,
    new_table,
    read_saved,
    saved_seats,
)

__all__ = [
    "BUYABLE_MARK",
    "COMMANDS",
    "GEM_COLOURS",
    "HELP",
    "HUMAN",
    "MAX_SAVED_BYTES",
    "STYLES",
    "TABLE_KEY",
    "WIDTH",
    "Catalogue",
    "Line",
    "SavedGameError",
    "Seat",
    "Segment",
    "Session",
    "Table",
    "TableError",
    "action_lines",
    "board_lines",
    "buyable_cards",
    "colour_available",
    "colour_wanted",
    "coloured_say",
    "draw_actions",
    "draw_board",
    "full_view",
    "load_game",
    "make_seats",
    "new_table",
    "plain",
    "read_saved",
    "rich_text",
    "saved_seats",
    "seat_label",
    "standings",
]
