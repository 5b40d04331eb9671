"""Who sits where: a table of humans and bots at a new game or at a saved one.

:func:`new_table` seats humans and bots (from :mod:`playtest.bots`) at a new game or at a
saved one (:func:`load_game`, read by :func:`read_saved`), and :class:`TableError` says what
is wrong with the request; a saved game that cannot be read back is a
:class:`SavedGameError`, whose message is the compiler's diagnostics for the file. What the
interactive loop (:mod:`playtest.terminal.session`) plays on; it draws nothing.
"""

from __future__ import annotations

import json
import pathlib
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from compiler.front import json_position
from compiler.front.reading import read_file

from .. import saved_games
from ..bots import Bot, BotError, make_bot, parse_bot

HUMAN = "human"
TABLE_KEY = "table"  # the entry of a saved game that says who sat where (engines ignore it)
MAX_SAVED_BYTES = 10_000_000  # a saved game is a few kilobytes; a larger file is not one


class TableError(ValueError):
    """A table that cannot be set up (player count, seats, saved file); the message says why."""


@dataclass
class Seat:
    who: str  # "human" or a bot's name as given ("greedy", "mcts:200")
    bot: Bot | None

    @property
    def human(self) -> bool:
        return self.bot is None


def make_seats(module, names: list[str], seed: int | None) -> list[Seat]:
    """Seats for `names` ("human" or a bot name); each bot gets its own seed derived from `seed`."""
    seats = []
    for p, name in enumerate(names):
        name = name.strip().lower()
        if name == HUMAN:
            seats.append(Seat(HUMAN, None))
            continue
        try:
            parse_bot(name)
            bot = make_bot(name, module, None if seed is None else seed * 1000 + p + 1)
        except BotError as e:
            raise TableError(f"seat {p + 1}: {e} (or '{HUMAN}')") from None
        seats.append(Seat(name, bot))
    return seats


@dataclass
class Table:
    """A game in play and who sits at each seat."""

    module: ModuleType  # a generated engine
    game: Any  # that engine's Game: its class is generated, one per engine
    seats: list[Seat]

    @property
    def humans(self) -> list[int]:
        return [p for p, s in enumerate(self.seats) if s.human]


def new_table(
    module,
    players: int | None = None,
    seats: list[str] | tuple[str, ...] = (),
    seed: int | None = None,
    saved: str | bytes | None = None,
    saved_name: str = "the saved game",
) -> Table:
    """A table for a new game (seeded by `seed`) or for the saved game `saved` (to_json text,
    read from the file `saved_name`).

    `players` defaults to the saved game's count, else one per seat given (or the smallest
    count the spec allows above that), else 2 when the spec allows it (its smallest count
    otherwise). Seats not given are greedy bots, except that with no seat given at all the
    first seat is a human. Bots are seeded from `seed` (else from the game's seed).
    Raises :class:`TableError`.
    """
    counts = tuple(module.PLAYER_COUNTS)
    seats = list(seats)
    game = None
    if saved is not None:
        game = load_game(module, saved, saved_name)
        if players is not None and players != game.num_players:
            raise TableError(f"the saved game has {game.num_players} players, not {players}")
        players = game.num_players
    if players is None and seats:  # one per seat given, or the smallest count the spec allows above that
        players = min((c for c in counts if c >= len(seats)), default=len(seats))
    elif players is None:
        players = 2 if 2 in counts else counts[0]
    if players not in counts:
        allowed = ", ".join(map(str, counts))
        raise TableError(
            f"the spec '{module.SPEC_NAME}' plays with {allowed} player{'s' if counts != (1,) else ''}, not {players}"
        )
    if len(seats) > players:
        raise TableError(f"{len(seats)} seats given for {players} player{'s' if players != 1 else ''}")
    if not seats and saved is not None:
        seats = saved_seats(saved, players)
    if not seats:
        seats = [HUMAN]
    seats += ["greedy"] * (players - len(seats))
    if game is None:
        game = module.new_game(players, seed=seed)
    bot_seed = seed if seed is not None else game.seed if isinstance(game.seed, int) else None
    return Table(module, game, make_seats(module, seats, bot_seed))


def saved_seats(saved: str | bytes, players: int) -> list[str]:
    """Who sat where in a game saved by `save FILE` (its "table" entry), [] when it says nothing.

    The file is the engine's state with one more entry, {"table": {"seats": [...]}}, which
    engines ignore; a file written by `to_json` alone has none, and the default seats apply.
    """
    try:
        data = json.loads(saved)
    except (ValueError, RecursionError):
        return []  # load_game has said what is wrong with it
    table = data.get(TABLE_KEY) if isinstance(data, dict) else None
    if table is None:
        return []
    seats = table.get("seats") if isinstance(table, dict) else None
    if not (isinstance(seats, list) and len(seats) == players and all(isinstance(x, str) for x in seats)):
        raise TableError(
            f"the saved file's '{TABLE_KEY}' must be {{\"seats\": [...]}}, one name per player "
            f"({players}): human or a bot"
        )
    return seats


class SavedGameError(TableError):
    """A saved game that cannot be read back: not UTF-8, not JSON, or a state the engine
    refuses. The message is the compiler's diagnostics for the file (see
    :mod:`playtest.saved_games`): `FILE:line:col: error[E7xx]: ...`, the line and a caret
    under the value each problem is about, then the count."""


def load_game(module, saved: str | bytes, name: str = "the saved game"):
    """The game of a saved state (`name` is the file it came from, for the messages);
    raises :class:`SavedGameError`."""
    if isinstance(saved, bytes):
        try:
            text = saved.decode("utf-8-sig")  # a BOM, as some editors write, is fine
        except UnicodeDecodeError as e:
            raise SavedGameError(saved_games.not_utf8(name, saved, e)) from None
    else:
        text = saved
    text = text[1:] if text.startswith(json_position.BOM) else text
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise SavedGameError(saved_games.not_json(name, text, e)) from None
    except RecursionError:
        raise SavedGameError(saved_games.too_deep(name, text)) from None
    except ValueError as e:  # a number of thousands of digits
        raise SavedGameError(saved_games.too_long(name, text, e)) from None
    try:
        return module.from_json(data)
    except module.StateError as e:
        # An engine built before its StateError said where each problem is: the message, at the state.
        problems = getattr(e, "problems", ()) or [((), " ".join(line.strip() for line in str(e).splitlines()))]
        raise SavedGameError(saved_games.invalid_state(name, text, problems)) from None


def read_saved(path: str | pathlib.Path) -> bytes:
    """The bytes of a saved game's file; OSError (compiler.front.reading.reason says why) for what cannot be one.

    Read as the compiler reads its inputs (compiler.front.reading: an ordinary file only, so that
    /dev/zero or a FIFO gives a message instead of eating memory or blocking forever), with a
    saved game's own size limit.
    """
    return read_file(pathlib.Path(path).expanduser(), MAX_SAVED_BYTES, "a saved game")
