"""The interactive loop of `splendor-rules play`: a :class:`Session` over a :class:`Table`.

It neither prints nor reads: it talks through ``ask(prompt) -> str`` and ``say(text)``,
which the command line passes in (click's prompt and echo), so tests drive it with scripted
input. At a human's turn it draws the board from that human's observation and the legal
actions (:mod:`playtest.terminal.board`), then reads a number, an action in notation, or a
command (undo, save FILE, load FILE, help, quit); bots play their seats at once.
"""

from __future__ import annotations

import json
import pathlib
from collections.abc import Callable

from compiler.files import write_atomic
from compiler.front.reading import reason
from compiler.model import Rules
from compiler.safe_text import visible
from compiler.sheets import moves, refusals

from .. import saved_games
from .board import Line, _plural, _wrap, action_lines, board_lines, plain, seat_label, standings
from .colour import colour_available, rich_text
from .table import TABLE_KEY, SavedGameError, Table, load_game, read_saved

COMMANDS = ("undo", "save", "load", "help", "quit")
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

    def __init__(
        self,
        table: Table,
        ask: Callable[[str], str],
        say: Callable[[object], None],
        colour: bool = False,
        lang: str = "en",
        rules: Rules | None = None,
    ):
        """`say` takes text, and with `colour` also the board as a rich Text (see colour_wanted);
        `lang` is the language a refused move is explained in (the rule's words on the sheets) and,
        with the engine's `rules`, the language each move is also said in, after its notation."""
        self.table = table
        self.lang = lang
        self.rules = rules
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
        lines = _wrap(
            f"{self.module.SPEC_NAME}:",
            [seat_label(t.seats, p) for p in range(len(t.seats))],
            indent=len(self.module.SPEC_NAME) + 2,
            gap=", ",
        )
        if isinstance(seed, int) and not t.game.history:
            lines.append(f"seed {seed} (the same deal again: --seed {seed})")
        if t.humans:
            lines.append(
                "Type the number of an action or the action itself; or undo, save FILE, load FILE, help, quit."
            )
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
                self.say(f"{seat_label(self.table.seats, p)}: {self.move_line(action)}")
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
            self.say(
                f"not an action: '{visible(line)}' (control characters); type a number, an action as listed, or help"
            )
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
                self.say(
                    f"no action numbered {line}: type a number listed, or an action (help lists the "
                    "actions and the commands)"
                )
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
            said, details = refusals.told(
                e, self.lang, self.rules, self.module
            )  # words of the spec: no control characters
            self.say(visible(said) if details is None else f"{visible(said)}\n{visible(details)}")
            return "again"
        self.say(f"{seat_label(self.table.seats, p)}: {self.move_line(action)}")
        return "redraw"

    def move_line(self, action: int) -> str:
        """A move as the log says it: its notation, and with the rules its words in the session's
        language ("take white blue green (Take tokens of different colours: white, blue and green)")."""
        notation = str(self.module.action_to_string(action))
        if self.rules is None:
            return notation
        return f"{notation} ({visible(moves.of_engine(self.module, action, self.rules, self.lang))})"

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
        self.say(
            f"undone {_plural(len(undone), 'decision')}: back before "
            f"{seat_label(self.table.seats, movers[cut])}'s '{module.action_to_string(actions[cut])}'"
        )
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
            self.say(
                saved_games.misfit(
                    rest,
                    data.decode("utf-8-sig"),
                    ("players",),
                    f"it is a game of {_plural(game.num_players, 'player')} and this table "
                    f"seats {len(self.table.seats)} (start `play SPEC --load {rest}` instead)",
                )
            )
            return "again"
        self.table.game = game
        self.clean = list(game.history)
        self.say(visible(f"loaded {rest} (round {game.round}, turn {game.turn})"))
        return "redraw"
