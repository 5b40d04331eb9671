"""Playing a generated engine at the terminal: the board as text, and the loop of `splendor-rules play`.

Like the rest of :mod:`playtest`, this module sees a game only through the Engine API
(``new_game``, ``legal_actions``, ``apply``, ``observation``, ``to_json``/``from_json``,
``record``/``replay``, ``action_to_string``/``string_to_action`` and the state
attributes), so it plays every spec and variant the compiler builds: any number of
players, any gem names, any end-of-turn step (returning tokens, choosing a noble,
choosing how to pay) -- a step is one more decision of the same seat.

- :func:`draw_board` draws a position as one seat sees it (``observation(seat)``: deck
  order and the other seats' blind reserves hidden), or in full when the game is over.
- :func:`new_table` seats humans and bots (from :mod:`playtest.bots`) at a new or a
  saved game; :class:`TableError` says what is wrong with the request.
- :class:`Session` is the interactive loop. It neither prints nor reads: it talks through
  ``ask(prompt) -> str`` and ``say(text)``, which the command line passes in (click's
  prompt and echo), so tests drive it with scripted input.

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
"""
from __future__ import annotations

import json
import pathlib
from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from compiler.files import write_atomic
from compiler.front import json_position
from compiler.front.reading import read_file, reason
from compiler.language import ColumnType, Shape
from compiler.safe_text import visible

from . import saved_games
from .bots import Bot, BotError, make_bot, parse_bot

HUMAN = "human"
WIDTH = 100  # columns of the action list
COMMANDS = ("undo", "save", "load", "help", "quit")
TABLE_KEY = "table"  # the entry of a saved game that says who sat where (engines ignore it)
MAX_SAVED_BYTES = 10_000_000  # a saved game is a few kilobytes; a larger file is not one


class TableError(ValueError):
    """A table that cannot be set up (player count, seats, saved file); the message says why."""


# ----------------------------------------------------------------------------- seats

@dataclass
class Seat:
    who: str  # "human" or a bot's name as given ("greedy", "mcts:200")
    bot: Bot | None

    @property
    def human(self) -> bool:
        return self.bot is None


def seat_label(seats: list, p: int, viewer: int | None = None) -> str:
    """``player 2 (greedy)``; ``player 1 (you)`` for the seat whose view is drawn.

    `seats` holds :class:`Seat` objects or plain names (an RL environment's agents).
    """
    who = "you" if p == viewer else getattr(seats[p], "who", seats[p])
    return f"player {p + 1} ({who})"


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


def new_table(module, players: int | None = None, seats: list[str] | tuple[str, ...] = (),
              seed: int | None = None, saved: str | bytes | None = None, saved_name: str = "the saved game") -> Table:
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
        raise TableError(f"the spec '{module.SPEC_NAME}' plays with {allowed} player{'s' if counts != (1,) else ''}, "
                         f"not {players}")
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
        raise TableError(f"the saved file's '{TABLE_KEY}' must be {{\"seats\": [...]}}, one name per player "
                         f"({players}): human or a bot")
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


# ----------------------------------------------------------------------------- drawing
#
# The board is drawn as lines of (text, style) segments, then written either as plain text
# (piped output, NO_COLOR, TERM=dumb, rich not installed, and draw_board for the RL
# environments' render) or as a rich Text in colour. Every segment's text goes through
# safe_text.visible where the segment is made (_seg), so no text of a spec or a saved game
# can hold a terminal control in either; and a rich Text is built with append(text, style),
# never from markup, so '[bold red]' in a spec's name is shown as written.

Segment = tuple[str, str]  # (text, style name: "" for none, "gem:NAME" for a colour's own)
Line = list[Segment]

STYLES = {"head": "bold", "you": "bold cyan", "to_play": "bold yellow", "buyable": "bold green",
          "number": "bold"}
# Gem names whose terminal colour is not the colour rich gives the same word (black text is
# invisible on a dark terminal; rich has no plain 'gold'); any other name is looked up in rich's
# colour names, and a name that is none (a variant's 'onyx') is drawn without colour.
GEM_COLOURS = {"black": "bright_black", "white": "bright_white", "gold": "gold1"}
BUYABLE_MARK = "*"


def _seg(text, style: str = "") -> Segment:
    """A segment of the board: its text shown with any control character escaped."""
    return (visible(str(text)), style)


def _gem(name) -> Segment:
    return _seg(name, f"gem:{name}")


def plain(lines: list[Line]) -> str:
    """The board as plain text."""
    return "\n".join("".join(text for text, _ in line).rstrip() for line in lines)


def _rich():
    """rich's text and style modules, or None when rich is not installed (the `play` extra)."""
    try:
        from rich import color, style, text
    except ImportError:
        return None
    return color, style, text


def colour_available() -> bool:
    return _rich() is not None


def colour_wanted(stream, environ) -> bool:
    """Is the board drawn in colour on `stream`? Only on a terminal, when rich is installed, and
    unless NO_COLOR is set (https://no-color.org: to any non-empty value) or TERM is 'dumb'."""
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty()) and not environ.get("NO_COLOR") and environ.get("TERM") != "dumb" \
        and colour_available()


def coloured_say(say: Callable[[str], None], stream) -> Callable[[object], None]:
    """A Session's `say` in colour: a board (a rich Text) printed on `stream` by a rich Console
    (no markup, no highlighting: only the styles of the Text), any other text by `say`."""
    from rich.console import Console
    console = Console(file=stream, force_terminal=True, highlight=False, markup=False, emoji=False, soft_wrap=True)

    def tell(what) -> None:
        if isinstance(what, str):
            say(what)
        else:
            console.print(what)
    return tell


def rich_text(lines: list[Line]):
    """The board as a rich Text in colour (rich must be installed: see colour_wanted)."""
    color, style, text = _rich()
    out = text.Text()
    for i, line in enumerate(lines):
        if i:
            out.append("\n")
        for j, (piece, name) in enumerate(line):
            out.append(piece.rstrip() if j == len(line) - 1 else piece, style=_style(name, color, style))
    return out


def _style(name: str, color, style):
    """The rich Style of a segment's style name (None: plain)."""
    if not name:
        return None
    if name.startswith("gem:"):
        gem = name[4:]
        try:
            return style.Style(color=color.Color.parse(GEM_COLOURS.get(gem, gem)))
        except color.ColorParseError:
            return None
    return style.Style.parse(STYLES[name])


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _counts(names, values, skip_zero: bool = True, sep: str = "  ") -> str:
    parts = [f"{v} {n}" if sep == ", " else f"{n} {v}"
             for n, v in zip(names, values, strict=False) if v or not skip_zero]
    return sep.join(parts) if parts else "none"


def _counted(names, values, skip_zero: bool = True) -> list[Segment]:
    """`white 4  blue 2`: each count after its colour's name, the name in its colour."""
    out: list[Segment] = []
    for n, v in zip(names, values, strict=False):
        if v or not skip_zero:
            out += ([_seg("  ")] if out else []) + [_gem(n), _seg(f" {v}")]
    return out or [_seg("none")]


def _wrap(first: str, items: list[str], indent: int = 10, gap: str = "   ") -> list[str]:
    """`items` after the label `first`, as many to a line as fit in WIDTH columns."""
    lines, line = [], first.ljust(indent)
    for i, item in enumerate(items):
        if i and len(line) + len(gap) + len(item) > WIDTH:
            lines.append(line + gap.rstrip())
            line = " " * indent + item
        else:
            line += (gap if i else "") + item
    lines.append(line)
    return lines


def _wrap_lines(first: str, items: list[Line], indent: int = 10, gap: str = "   ") -> list[Line]:
    """_wrap for items made of segments."""
    lines: list[Line] = []
    line: Line = [_seg(first.ljust(indent))]
    width = len(first.ljust(indent))
    for i, item in enumerate(items):
        size = sum(len(t) for t, _ in item)
        if i and width + len(gap) + size > WIDTH:
            lines.append(line)
            line, width = [_seg(" " * indent)] + item, indent + size
        else:
            line = line + ([_seg(gap)] if i else []) + item
            width += (len(gap) if i else 0) + size
    lines.append(line)
    return lines


class Catalogue:
    """Cards and nobles of an engine by id, and the text of each."""

    def __init__(self, module):
        self.module = module
        self.gems = tuple(module.GEMS)
        self.cards = {c.id: c for c in module.CARDS}
        self.nobles = {n.id: n for n in module.NOBLES}
        self.bonus_width = max((len(str(c.bonus)) for c in module.CARDS), default=0)

    def cost(self, values) -> str:
        return "".join(t for t, _ in self.cost_segments(values))

    def cost_segments(self, values) -> list[Segment]:
        out: list[Segment] = []
        for g, v in zip(self.gems, values, strict=False):
            if v:
                out += ([_seg(" ")] if out else []) + [_seg(f"{v} "), _gem(g)]
        return out or [_seg("free")]

    def card(self, card_id: int) -> str:
        return "".join(t for t, _ in self.card_segments(card_id))

    def card_segments(self, card_id: int) -> list[Segment]:
        c = self.cards[card_id]
        bonus = str(c.bonus)
        return [_gem(bonus), _seg(" " * (self.bonus_width - len(bonus)) + f"  {_plural(c.points, 'pt'):<6}  cost "),
                *self.cost_segments(c.cost)]

    def noble(self, noble_id: int) -> str:
        return "".join(t for t, _ in self.noble_segments(noble_id))

    def noble_segments(self, noble_id: int) -> list[Segment]:
        n = self.nobles[noble_id]
        return [_seg(f"{_plural(n.points, 'pt')} for "), *self.cost_segments(n.requires)]


def full_view(module, game) -> dict:
    """The whole state in the observation's shape, for a finished game or spectators: decks and the
    spec's own piles as counts (what is left in a face-down pile, and its order, stays unseen)."""
    state = json.loads(game.to_json())
    state["decks"] = {k: len(v) if isinstance(v, list) else v for k, v in state["decks"].items()}
    piles = {z[0] for z in getattr(module, "_ZONES", ()) if z[2] == Shape.PILE and not z[3]}
    for name, items in (state.get("zones") or {}).items():
        if name in piles and isinstance(items, list):
            state["zones"][name] = len(items)
    return state


def buyable_cards(game) -> set[int]:
    """The cards the player to move can buy now, in the action phase: those that one of the legal
    actions adds to that player's purchases (each tried on a copy of the game, so the spec's own
    rules decide, whatever its actions are called; a payment asked next is made the first way)."""
    if game.is_over() or game.phase != "action":
        return set()
    p = game.current_player
    had = set(game.purchased[p])
    found: set[int] = set()
    for action in game.legal_actions():
        trial = game.clone()
        trial.apply(action)
        if trial.phase == "payment" and trial.current_player == p:
            trial.apply(trial.legal_actions()[0])
        found |= set(trial.purchased[p]) - had
    return found


def draw_board(module, game, seats: list, viewer: int | None, brief: bool = False) -> str:
    """The position as `viewer` sees it (its observation), or in full when `viewer` is None, as plain text."""
    return plain(board_lines(module, game, seats, viewer, brief))


def board_lines(module, game, seats: list, viewer: int | None, brief: bool = False) -> list[Line]:
    """The position as `viewer` sees it (its observation), or in full when `viewer` is None.

    `brief`: only the heading, the supply and the viewer's own seat (for a further decision
    of the same turn, such as returning tokens or choosing how to pay). The cards the viewer
    can buy now (at their own turn) are marked with BUYABLE_MARK.
    """
    cat = Catalogue(module)
    state = game.observation(viewer) if viewer is not None else full_view(module, game)
    colours = tuple(module.COLOURS)
    lines: list[Line] = []
    head = f"{module.SPEC_NAME}, {_plural(game.num_players, 'player')} · round {state['round']}, turn {state['turn']}"
    if game.is_over():
        head += " · game over"
    else:
        cp = game.current_player
        phase = game.phase
        doing = "an action" if phase == "action" else phase.replace("_", " ")
        head += f" · {seat_label(seats, cp, viewer)} to choose: {doing}"
        pending = state.get("pending")
        if isinstance(pending, int):
            head += f" (for '{module.action_to_string(pending)}')"
    lines.append([_seg(f"== {head} ==", "head")])
    lines.append([_seg("supply    "), *_counted(colours, [state["supply"][c] for c in colours], skip_zero=False)])
    if state.get("vars"):  # the spec's declared state shared by the game (version 2 states)
        said = _vars_text(module, state["vars"], hidden=False)
        lines += [[_seg("state     "), _seg(said)]] if said else []
        lines += _component_set_lines(module, cat, state["vars"])
    buyable = buyable_cards(game) if viewer is not None and viewer == game.current_player else set()
    if brief and viewer is not None:
        return lines + _seat_lines(module, cat, game, seats, viewer, state["seats"][viewer], viewer, buyable)
    nobles = [[_seg(f"{i}) "), *cat.noble_segments(n)] for i, n in enumerate(state["nobles"], 1)]
    lines += _wrap_lines("nobles", nobles or [[_seg("none left")]])
    shared = state.get("zones") or {}  # in the spec's order (a saved state's keys are sorted)
    lines += [line for zone in getattr(module, "_ZONES", ()) if zone[0] in shared
              for line in _zone_lines(module, cat, zone[0], shared[zone[0]])]
    out_of_play = state.get("out_of_play") or {}
    for level in reversed(tuple(module.LEVELS)):
        deck = state["decks"][str(level)]
        aside = len(out_of_play.get(str(level), []))
        lines.append([_seg(f"level {level}   {_plural(deck, 'card')} in the deck"
                           + (f", {aside} out of play" if aside else ""))])
        for slot, card in enumerate(state["market"][str(level)], 1):
            mark = [_seg(BUYABLE_MARK, "buyable"), _seg(" ")] if card in buyable else [_seg("  ")]
            lines.append([*mark, _seg(f"{level}.{slot}  "),
                          *(cat.card_segments(card) if card is not None else [_seg("(empty)")])])
    if buyable:
        lines.append([_seg(BUYABLE_MARK, "buyable"), _seg(" you can buy it now")])
    for p, seat in enumerate(state["seats"]):
        lines += _seat_lines(module, cat, game, seats, p, seat, viewer, buyable)
    return lines


def _zone_lines(module, cat: Catalogue, name: str, items, indent: str = "") -> list[Line]:
    """A zone of the spec's own (state format 2): a pile as its count; else its components, one a
    line, numbered from 1 as a choice of one names its position (`city 2`), each with its kind's
    columns by name (a hidden one, another seat's privately drawn, as such)."""
    zone = next((z for z in getattr(module, "_ZONES", ()) if z[0] == name), None)
    if zone is None:  # NAME_private: the owner's list of what it drew unseen, not a zone
        return []
    label = f"{indent}{name}   "
    if isinstance(items, int):
        return [[_seg(f"{label}{_plural(items, 'piece')}, face down")]]
    if not items:
        return [[_seg(f"{label}none")]]
    out: list[Line] = []
    for i, x in enumerate(items, 1):
        lead = _seg(label if i == 1 else " " * len(label))
        if x is None:
            out.append([lead, _seg(f"{i}) " + ("(empty)" if zone[2] == Shape.DISPLAY else "(hidden)"))])
        else:
            out.append([lead, _seg(f"{i}) "), *_component_segments(module, cat, zone[1], x)])
    return out


def _component_segments(module, cat: Catalogue, kind: str, x: int) -> list[Segment]:
    """A component as `column value` pairs in its table's order: a table by gem colour as a cost
    (the gems in their colours), a gem or colour by its name; prose columns are not in the engine."""
    table = getattr(module, "_k_" + kind, ())
    if not 0 <= x < len(table):
        return [_seg(f"#{x}")]
    row = table[x]
    columns = getattr(module, "_KIND_COLUMNS", {}).get(kind)
    if columns is None:  # an engine from before the columns' table: the values alone
        return [_seg(" ".join(map(str, row)))]
    out: list[Segment] = []
    for (cname, ctype), value in zip(columns, row, strict=False):
        if ctype == ColumnType.PROSE:
            continue
        out += [_seg("  " if out else ""), _seg(f"{cname} ")]
        if ctype == ColumnType.GEMS:
            out += cat.cost_segments(value) if any(value) else [_seg("none")]
        elif ctype in (ColumnType.GEM, ColumnType.COLOUR):
            names = cat.gems if ctype == ColumnType.GEM else tuple(module.COLOURS)
            out += [_gem(names[value])] if value is not None else [_seg("none")]
        else:
            out.append(_seg(value))
    return out


def _seat_lines(module, cat: Catalogue, game, seats, p: int, seat: dict, viewer, buyable) -> list[Line]:
    colours = tuple(module.COLOURS)
    tokens = [seat["tokens"][c] for c in colours]
    label = _seg(seat_label(seats, p, viewer), "you" if p == viewer else "head")
    marker = [_seg("  <- to play", "to_play")] if p == game.current_player else []
    out: list[Line] = [
        [label, _seg(f" · prestige {game.prestige[p]}"), *marker],
        [_seg("    tokens    "), *_counted(colours, tokens), _seg(f"   ({sum(tokens)} held)")],
        [_seg("    bonuses   "), *_counted(cat.gems, game.bonus[p]),
         _seg(f"   ({_plural(len(seat['purchased']), 'card')} bought)")]]
    if seat.get("vars"):  # the player's own declared state; another's private values are hidden
        said = _vars_text(module, seat["vars"], hidden=p != viewer and viewer is not None)
        out += [[_seg("    state     "), _seg(said)]] if said else []
        out += _component_set_lines(module, cat, seat["vars"], indent="    ")
    if seat["nobles"]:
        nobles: Line = [_seg("    nobles    ")]
        for i, n in enumerate(seat["nobles"]):
            nobles += ([_seg("   ")] if i else []) + cat.noble_segments(n)
        out.append(nobles)
    own = seat.get("zones") or {}
    for zone in getattr(module, "_ZONES", ()):
        if zone[0] in own:
            out += _zone_lines(module, cat, zone[0], own[zone[0]], indent="    ")
    blind = seat.get("blind") or []
    hidden_levels = list(blind) if p != viewer and viewer is not None else []
    for i, card in enumerate(seat["reserved"], 1):
        lead = _seg("    reserved  " if i == 1 else " " * 14)
        if card is None:  # another seat's blind reserve: only its level is known
            level = hidden_levels.pop(0) if hidden_levels else None
            out.append([lead, _seg(f"{i}) a hidden card" + (f" of level {level}" if level is not None else ""))])
        else:
            note = " (blind)" if card in blind and (viewer is None or p == viewer) else ""
            mark = [_seg("  "), _seg(BUYABLE_MARK, "buyable")] if p == viewer and card in buyable else []
            out.append([lead, _seg(f"{i}) L{cat.cards[card].level} "), *cat.card_segments(card), _seg(note), *mark])
    return out


def _set_kinds(module) -> dict[str, str]:
    """The variables that hold a set of components, and their kinds (saved as ids:KIND:N)."""
    return {v[0]: v[2].split(":")[1] for v in getattr(module, "_VARS", ()) if v[2].startswith("ids:")}


def _vars_text(module, values: dict, hidden: bool) -> str:
    """Declared variables as `name value` pairs: numbers, yes/no, colours (a set lists its colours,
    or "none"); a value another seat may not see is "hidden". A set of components is left to
    _component_set_lines, which shows it as zones are shown."""
    private = {v[0] for v in getattr(module, "_VARS", ()) if v[4]}
    sets = _set_kinds(module)
    shown = []
    for name, value in values.items():
        if name in sets and isinstance(value, list):
            continue
        if value is None:
            text = "hidden" if hidden and name in private else "none"
        elif isinstance(value, bool):
            text = "yes" if value else "no"
        elif isinstance(value, list):
            text = ",".join(str(x) for x in value) or "none"
        else:
            text = str(value + 1) if _is_player(module, name) else str(value)
        shown.append(f"{name} {text}")
    return "   ".join(shown)


def _component_set_lines(module, cat: Catalogue, values: dict, indent: str = "") -> list[Line]:
    """Each variable holding a set of components (a player's trading posts), its components one a
    line with their kind's columns by name, as a holding zone is shown."""
    out: list[Line] = []
    for name, kind in _set_kinds(module).items():
        items = values.get(name)
        if not isinstance(items, list):
            continue
        label = f"{indent}{name}   "
        if not items:
            out.append([_seg(f"{label}none")])
        for i, x in enumerate(items, 1):
            lead = _seg(label if i == 1 else " " * len(label))
            out.append([lead, _seg(f"{i}) "), *_component_segments(module, cat, kind, x)])
    return out


def _is_player(module, name: str) -> bool:
    """Is variable `name` a player (saved as a seat from 0, shown as a seat from 1)?"""
    return any(v[0] == name and v[2] == "player" for v in getattr(module, "_VARS", ()))


def draw_actions(module, legal: list[int]) -> str:
    """The legal actions with their notation, in columns, as plain text (see action_lines)."""
    return plain(action_lines(module, legal))


def action_lines(module, legal: list[int]) -> list[Line]:
    """The legal actions, each numbered by its id (the same number for the same action on every
    turn and in every game of the spec) and written in the spec's notation, in columns; the
    words that are gem colours in their colour (`red*2` too: a wild token standing for 2 red)."""
    width_id = len(str(max(module.NUM_ACTIONS - 1, 0)))
    gems = set(module.COLOURS)
    items = []
    for a in legal:
        text = module.action_to_string(a)
        item: Line = [_seg(f"{a:>{width_id}}", "number")]
        for word in text.split(" "):
            gem, star, times = word.partition("*")  # a wild token standing for several gems: red*2
            item += [_seg(" "), _gem(gem) if gem in gems else _seg(gem)] + ([_seg(star + times)] if star else [])
        items.append(item)
    width = max(sum(len(t) for t, _ in item) for item in items) + 3
    columns = max(1, WIDTH // width)
    rows = -(-len(items) // columns)
    lines: list[Line] = []
    for r in range(rows):
        line: Line = []
        row = [items[r + c * rows] for c in range(columns) if r + c * rows < len(items)]
        for c, item in enumerate(row):
            size = sum(len(t) for t, _ in item)
            line += item + ([_seg(" " * (width - size))] if c < len(row) - 1 else [])
        lines.append(line)
    return lines


def standings(module, game, seats: list) -> str:
    """The end of a game: why it ended, the winners, and each seat's prestige, cards and nobles."""
    cat = Catalogue(module)
    state = full_view(module, game)
    winners = game.winners()
    scores = game.scores()
    reason = state.get("end_reason")
    lines = [f"game over after {_plural(state['round'], 'round')}"
             + (f" (ended by: {str(reason).replace('_', ' ')})" if reason else "")]
    if not winners:
        lines.append("no winner: no player met the conditions to win")
    elif len(winners) == 1:
        lines.append(f"winner: {seat_label(seats, winners[0])}")
    else:
        lines.append("shared victory: " + ", ".join(seat_label(seats, p) for p in winners))
    order = sorted(range(game.num_players), key=lambda p: (p not in winners, -scores[p], p))
    width = max(len(seat_label(seats, p)) for p in order)
    for p in order:
        seat = state["seats"][p]
        bought = seat["purchased"]
        by_bonus = [sum(1 for c in bought if cat.cards[c].bonus == g) for g in cat.gems]
        card_points = sum(cat.cards[c].points for c in bought)
        tag = "  winner" if p in winners else ""
        lines.append(f"  {seat_label(seats, p):<{width}}  {_plural(scores[p], 'prestige point')}{tag}")
        lines.append(f"      purchased {_plural(len(bought), 'card')} ({_counts(cat.gems, by_bonus, sep=', ')}), "
                     f"{_plural(card_points, 'pt')} from cards")
        if seat["nobles"]:
            lines += _wrap("      nobles", [cat.noble(n) for n in seat["nobles"]], indent=14)
        # what the spec's own rules gave the seat: its declared state, its holdings (a claimed city)
        if seat.get("vars"):
            said = _vars_text(module, seat["vars"], hidden=False)
            lines += ["      state     " + said] if said else []
            lines += [plain([line]) for line in _component_set_lines(module, cat, seat["vars"], indent="      ")]
        own = seat.get("zones") or {}
        lines += [plain([line]) for zone in getattr(module, "_ZONES", ()) if zone[0] in own
                  for line in _zone_lines(module, cat, zone[0], own[zone[0]], indent="      ")]
    return "\n".join(lines)


# ----------------------------------------------------------------------------- the loop

HELP = """\
At your turn, answer with
  a number          the action of that number in the list (an action keeps
                    its number from turn to turn)
  an action         in the spec's notation, as listed (e.g. the text after a number)
  undo              go back to the previous human decision
  save FILE         save the game (the engine's JSON state, and who sits where);
                    `play SPEC --load FILE` resumes it with the same seats
  load FILE         continue a saved game of this spec with the same seats
  help              this text and the list of actions
  quit              leave without saving"""


class Session:
    """The interactive loop over a :class:`Table`; ``run()`` returns the exit status."""

    def __init__(self, table: Table, ask: Callable[[str], str], say: Callable[[object], None], colour: bool = False):
        """`say` takes text, and with `colour` also the board as a rich Text (see colour_wanted)."""
        self.table = table
        self.ask = ask
        self.say = say
        self.colour = colour and colour_available()
        self.clean = list(table.game.history)  # the history when the game was last started, saved or loaded

    @property
    def module(self):
        return self.table.module

    @property
    def game(self):
        return self.table.game

    def intro(self) -> str:
        t = self.table
        seed = t.game.seed
        lines = _wrap(f"{self.module.SPEC_NAME}:", [seat_label(t.seats, p) for p in range(len(t.seats))],
                      indent=len(self.module.SPEC_NAME) + 2, gap=", ")
        if isinstance(seed, int) and not t.game.history:
            lines.append(f"seed {seed} (the same deal again: --seed {seed})")
        if t.humans:
            lines.append("Type the number of an action or the action itself; "
                         "or undo, save FILE, load FILE, help, quit.")
        return "\n".join(lines)

    def run(self) -> int:
        self.say(self.intro())
        fresh = True  # draw the board before the next human decision
        drawn = None  # (turn, seat) of the last board drawn: a further decision of that turn gets a brief one
        while True:
            game = self.game
            if game.is_over():
                self.show(board_lines(self.module, game, self.table.seats, None))
                self.say(standings(self.module, game, self.table.seats))
                return 0
            p = game.current_player
            seat = self.table.seats[p]
            if not seat.human:
                action = seat.bot.choose(game)
                game.apply(action)
                self.say(f"{seat_label(self.table.seats, p)}: {self.module.action_to_string(action)}")
                fresh = True
                continue
            if fresh:
                brief = drawn == (game.turn, p)
                drawn = (game.turn, p)
                self.show(board_lines(self.module, game, self.table.seats, p, brief=brief))
                self.show(action_lines(self.module, game.legal_actions()))
                fresh = False
            line = self.ask(f"player {p + 1}>").strip()
            outcome = self.handle(line, p)
            if outcome == "quit":
                return 0
            if outcome == "redraw":
                fresh = True

    def show(self, lines: list[Line]) -> None:
        """Says drawn lines: in colour when the session has it, else as plain text."""
        self.say(rich_text(lines) if self.colour else plain(lines))

    # -- one line of input; returns "redraw", "again" or "quit"

    def handle(self, line: str, p: int) -> str:
        if not line:
            return "again"
        if not line.isprintable():  # control characters (escape sequences) are no action and no command
            self.say(f"not an action: '{visible(line)}' (control characters); type a number, an action as listed, "
                     "or help")
            return "again"
        word, _, rest = line.partition(" ")
        command = word.lower()
        if command in COMMANDS:
            return getattr(self, f"do_{command}")(rest.strip())
        return self.play(line, p)

    def play(self, line: str, p: int) -> str:
        game = self.game
        if line.isascii() and line.isdigit():  # not '²' (a digit to isdigit, not to int)
            # The number of an action is its id: the same on every turn (apply says why one not
            # listed now is illegal).
            number = int(line) if len(line) <= 9 else -1  # a number of thousands of digits is no action's
            line = line if len(line) <= 9 else line[:9] + "..."
            if not 0 <= number < self.module.NUM_ACTIONS:
                self.say(f"no action numbered {line}: type a number listed, or an action (help lists the "
                         "actions and the commands)")
                return "again"
            action = number
        else:
            try:
                action = self.module.string_to_action(line)
            except self.module.NotationError as e:
                self.say(f"{e}; type a number listed, an action as listed, or help")
                return "again"
        try:
            game.apply(action)
        except self.module.IllegalAction as e:
            self.say(str(e))
            return "again"
        self.say(f"{seat_label(self.table.seats, p)}: {self.module.action_to_string(action)}")
        return "redraw"

    def do_help(self, rest: str) -> str:
        self.say(HELP)
        self.show(action_lines(self.module, self.game.legal_actions()))
        return "again"

    def do_quit(self, rest: str) -> str:
        self.say("bye (the game was not saved)" if self.game.history != self.clean else "bye")
        return "quit"

    def do_undo(self, rest: str) -> str:
        module = self.module
        record = self.game.record()
        actions = list(record["actions"])
        # Replay the record to learn who made each decision, then again up to the last human one.
        g = module.replay({**record, "actions": []})
        movers = []
        for a in actions:
            movers.append(g.current_player)
            g.apply(a)
        human = [i for i, s in enumerate(movers) if self.table.seats[s].human]
        if not human:
            self.say("nothing to undo: no human decision since the game started or was loaded")
            return "again"
        cut = human[-1]
        undone = actions[cut:]
        self.table.game = module.replay({**record, "actions": actions[:cut]})
        self.say(f"undone {_plural(len(undone), 'decision')}: back before "
                 f"{seat_label(self.table.seats, movers[cut])}'s '{module.action_to_string(actions[cut])}'")
        return "redraw"

    def do_save(self, rest: str) -> str:
        if not rest:
            self.say("usage: save FILE")
            return "again"
        path = pathlib.Path(rest).expanduser()
        state = json.loads(self.game.to_json())
        state[TABLE_KEY] = {"seats": [seat.who for seat in self.table.seats]}  # for `play --load`
        try:
            write_atomic(path, json.dumps(state, sort_keys=True) + "\n", make_folder=False)
        except OSError as e:
            self.say(visible(f"cannot save to {rest}: {e.strerror or e}"))
            return "again"
        self.clean = list(self.game.history)
        self.say(visible(f"saved to {rest} (round {self.game.round}, turn {self.game.turn})"))
        return "again"

    def do_load(self, rest: str) -> str:
        if not rest:
            self.say("usage: load FILE")
            return "again"
        try:
            data = read_saved(rest)
        except OSError as e:
            self.say(visible(f"cannot read {rest}: {reason(e)}"))
            return "again"
        try:
            game = load_game(self.module, data, rest)
        except SavedGameError as e:
            self.say(str(e))
            return "again"
        if game.num_players != len(self.table.seats):
            self.say(saved_games.misfit(rest, data.decode("utf-8-sig"), ("players",),
                                        f"it is a game of {_plural(game.num_players, 'player')} and this table "
                                        f"seats {len(self.table.seats)} (start `play SPEC --load {rest}` instead)"))
            return "again"
        self.table.game = game
        self.clean = list(game.history)
        self.say(visible(f"loaded {rest} (round {game.round}, turn {game.turn})"))
        return "redraw"


