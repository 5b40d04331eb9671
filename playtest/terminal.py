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
share the screen, each sees only what they may know), then the legal actions, numbered,
with their notation. The human answers with a number, an action in notation, or a
command: ``undo`` (back to that table's previous human decision, by replaying the
record without the actions since), ``save FILE`` (the engine's ``to_json``, written
atomically), ``load FILE``, ``help`` or ``quit``. Bots play their seats at once and
their moves are printed; at the end the board is drawn in full with the standings.
"""
from __future__ import annotations

import json
import pathlib
from dataclasses import dataclass
from typing import Callable

from compiler import json_position
from compiler.files import write_atomic
from compiler.reading import read_input
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

    module: object
    game: object
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
    try:
        text = saved.decode("utf-8-sig") if isinstance(saved, bytes) else saved  # a BOM, as some editors write, is fine
    except UnicodeDecodeError as e:
        raise SavedGameError(saved_games.not_utf8(name, saved, e)) from None
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
    """The bytes of a saved game's file; OSError (with a strerror) for what cannot be one.

    Read as the compiler reads its inputs (compiler.reading: an ordinary file only, so that
    /dev/zero or a FIFO gives a message instead of eating memory or blocking forever), with a
    saved game's own size limit.
    """
    data = read_input(pathlib.Path(path).expanduser(), MAX_SAVED_BYTES)
    if len(data) > MAX_SAVED_BYTES:
        raise OSError(0, f"too large for a saved game (over {MAX_SAVED_BYTES // 1_000_000} MB)")
    return data


# ----------------------------------------------------------------------------- drawing

def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _counts(names, values, skip_zero: bool = True, sep: str = "  ") -> str:
    parts = [f"{v} {n}" if sep == ", " else f"{n} {v}" for n, v in zip(names, values, strict=False) if v or not skip_zero]
    return sep.join(parts) if parts else "none"


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


class Catalogue:
    """Cards and nobles of an engine by id, and the text of each."""

    def __init__(self, module):
        self.module = module
        self.gems = tuple(module.GEMS)
        self.cards = {c.id: c for c in module.CARDS}
        self.nobles = {n.id: n for n in module.NOBLES}
        self.bonus_width = max((len(str(c.bonus)) for c in module.CARDS), default=0)

    def cost(self, values) -> str:
        parts = [f"{v} {g}" for g, v in zip(self.gems, values, strict=False) if v]
        return " ".join(parts) if parts else "free"

    def card(self, card_id: int) -> str:
        c = self.cards[card_id]
        return f"{str(c.bonus):<{self.bonus_width}}  {_plural(c.points, 'pt'):<6}  cost {self.cost(c.cost)}"

    def noble(self, noble_id: int) -> str:
        n = self.nobles[noble_id]
        return f"{_plural(n.points, 'pt')} for {self.cost(n.requires)}"


def full_view(game) -> dict:
    """The whole state in the observation's shape (decks as counts), for a finished game or spectators."""
    state = json.loads(game.to_json())
    state["decks"] = {k: len(v) if isinstance(v, list) else v for k, v in state["decks"].items()}
    return state


def draw_board(module, game, seats: list, viewer: int | None, brief: bool = False) -> str:
    """The position as `viewer` sees it (its observation), or in full when `viewer` is None.

    `brief`: only the heading, the supply and the viewer's own seat (for a further decision
    of the same turn, such as returning tokens or choosing how to pay).
    """
    cat = Catalogue(module)
    state = game.observation(viewer) if viewer is not None else full_view(game)
    colours = tuple(module.COLOURS)
    lines = []
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
    lines.append(f"== {head} ==")
    lines.append(f"supply    {_counts(colours, [state['supply'][c] for c in colours], skip_zero=False)}")
    if brief and viewer is not None:
        lines.append(_draw_seat(module, cat, game, seats, viewer, state["seats"][viewer], viewer))
        return "\n".join(lines)
    nobles = [f"{i}) {cat.noble(n)}" for i, n in enumerate(state["nobles"], 1)]
    lines += _wrap("nobles", nobles or ["none left"])
    for level in reversed(tuple(module.LEVELS)):
        deck = state["decks"][str(level)]
        lines.append(f"level {level}   {_plural(deck, 'card')} in the deck")
        for slot, card in enumerate(state["market"][str(level)], 1):
            lines.append(f"  {level}.{slot}  " + (cat.card(card) if card is not None else "(empty)"))
    for p, seat in enumerate(state["seats"]):
        lines.append(_draw_seat(module, cat, game, seats, p, seat, viewer))
    return "\n".join(lines)


def _draw_seat(module, cat: Catalogue, game, seats, p: int, seat: dict, viewer) -> str:
    colours = tuple(module.COLOURS)
    tokens = [seat["tokens"][c] for c in colours]
    marker = "  <- to play" if p == game.current_player else ""
    out = [f"{seat_label(seats, p, viewer)} · prestige {game.prestige[p]}{marker}",
           f"    tokens    {_counts(colours, tokens)}   ({sum(tokens)} held)",
           f"    bonuses   {_counts(cat.gems, game.bonus[p])}   ({_plural(len(seat['purchased']), 'card')} bought)"]
    if seat["nobles"]:
        out.append("    nobles    " + "   ".join(cat.noble(n) for n in seat["nobles"]))
    blind = seat.get("blind") or []
    hidden_levels = list(blind) if p != viewer and viewer is not None else []
    reserved = []
    for i, card in enumerate(seat["reserved"], 1):
        if card is None:  # another seat's blind reserve: only its level is known
            level = hidden_levels.pop(0) if hidden_levels else None
            reserved.append(f"{i}) a hidden card" + (f" of level {level}" if level is not None else ""))
        else:
            note = " (blind)" if card in blind and (viewer is None or p == viewer) else ""
            reserved.append(f"{i}) L{cat.cards[card].level} {cat.card(card)}{note}")
    if reserved:
        out.append("    reserved  " + "\n              ".join(reserved))
    return "\n".join(out)


def draw_actions(module, legal: list[int]) -> str:
    """The legal actions numbered from 1, with their notation, in columns."""
    items = [f"{i:>3} {module.action_to_string(a)}" for i, a in enumerate(legal, 1)]
    width = max(len(s) for s in items) + 3
    columns = max(1, WIDTH // width)
    rows = -(-len(items) // columns)
    lines = []
    for r in range(rows):
        row = [items[r + c * rows] for c in range(columns) if r + c * rows < len(items)]
        lines.append("".join(s.ljust(width) for s in row).rstrip())
    return "\n".join(lines)


def standings(module, game, seats: list) -> str:
    """The end of a game: why it ended, the winners, and each seat's prestige, cards and nobles."""
    cat = Catalogue(module)
    state = full_view(game)
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
    return "\n".join(lines)


# ----------------------------------------------------------------------------- the loop

HELP = """\
At your turn, answer with
  a number          the action of that number in the list
  an action         in the spec's notation, as listed (e.g. the text after a number)
  undo              go back to the previous human decision
  save FILE         save the game (the engine's JSON state, and who sits where);
                    `play SPEC --load FILE` resumes it with the same seats
  load FILE         continue a saved game of this spec with the same seats
  help              this text and the list of actions
  quit              leave without saving"""


class Session:
    """The interactive loop over a :class:`Table`; ``run()`` returns the exit status."""

    def __init__(self, table: Table, ask: Callable[[str], str], say: Callable[[str], None]):
        self.table = table
        self.ask = ask
        self.say = say
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
                self.say(draw_board(self.module, game, self.table.seats, None))
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
                self.say(draw_board(self.module, game, self.table.seats, p, brief=brief))
                self.say(draw_actions(self.module, game.legal_actions()))
                fresh = False
            line = self.ask(f"player {p + 1}>").strip()
            outcome = self.handle(line, p)
            if outcome == "quit":
                return 0
            if outcome == "redraw":
                fresh = True

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
        legal = game.legal_actions()
        if line.isascii() and line.isdigit():  # not '²' (a digit to isdigit, not to int)
            number = int(line) if len(line) <= 9 else 0  # a number of thousands of digits is no action's
            line = line if len(line) <= 9 else line[:9] + "..."
            if not 1 <= number <= len(legal):
                self.say(f"no action numbered {line}: choose 1 to {len(legal)}, or type an action (help lists "
                         "the commands)")
                return "again"
            action = legal[number - 1]
        else:
            try:
                action = self.module.string_to_action(line)
            except self.module.NotationError as e:
                self.say(f"{e}; type a number from 1 to {len(legal)}, an action as listed, or help")
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
        self.say(draw_actions(self.module, self.game.legal_actions()))
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
            self.say(f"cannot save to {rest}: {e.strerror or e}")
            return "again"
        self.clean = list(self.game.history)
        self.say(f"saved to {rest} (round {self.game.round}, turn {self.game.turn})")
        return "again"

    def do_load(self, rest: str) -> str:
        if not rest:
            self.say("usage: load FILE")
            return "again"
        try:
            data = read_saved(rest)
        except OSError as e:
            self.say(f"cannot read {rest}: {e.strerror or e}")
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
        self.say(f"loaded {rest} (round {game.round}, turn {game.turn})")
        return "redraw"


