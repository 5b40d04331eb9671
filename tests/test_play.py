"""`splendor-rules play`: the terminal board and the interactive loop (playtest/terminal/).

Games driven by scripted input to the end through the command (click's CliRunner) and
through the Session directly: numbers, notation, wrong entries, undo, save, load (sound,
corrupt, of another spec, of another table), quit, end of input; blind reserves hidden
from the other humans; the final standings; every variant kind (1 player, 5 players).
Scripts choose actions by number (an action's number is its id, as the list shows it) or by
the engine's own notation (action_to_string), never by words of a particular notation.
"""

from __future__ import annotations

import io
import json
import pathlib
import random
import re
import sys

import pytest
from click.testing import CliRunner
from rich.console import Console

import tests.helpers.engines as H
from app.cli import main
from playtest import engines, terminal

ROOT = pathlib.Path(__file__).resolve().parent.parent
OFFICIAL = ROOT / "rulespec" / "official.yaml"
SOLO = ROOT / "variants" / "solo.yaml"
GRAND = ROOT / "variants" / "grand-table.yaml"


@pytest.fixture(scope="module")
def official():
    return engines.load(str(OFFICIAL)).module


@pytest.fixture(scope="module")
def short_spec(tmp_path_factory):
    """A variant with a prestige target of 3, so that scripted games end in a few rounds."""
    folder = tmp_path_factory.mktemp("spec")
    path = folder / "target-3.yaml"
    path.write_text(
        "spec: 1\nname: target-3\nextends: official\n"
        "title: {en: Target 3, fr: Objectif 3, nl: Doel 3, sr: Циљ 3}\n"
        "description: {en: A very short game., fr: Une partie très courte., nl: Een heel kort spel.,"
        " sr: Врло кратка партија.}\n"
        "values:\n  target: 3\n",
        encoding="utf-8",
    )
    return path


class Script:
    """Answers prompts from a list of lines (or a function of the game), and keeps what was said."""

    def __init__(self, table, lines=(), then=None):
        self.table = table
        self.lines = list(lines)
        self.then = then  # called with the game for each prompt once the lines run out
        self.said: list[str] = []
        self.prompts = 0

    def ask(self, prompt: str) -> str:
        self.prompts += 1
        assert self.prompts < 5000, "the script went on too long"
        if self.lines:
            line = self.lines.pop(0)
            return line(self.table.game) if callable(line) else line
        if self.then is None:
            raise EOFError
        return self.then(self.table.game)

    def say(self, text: str) -> None:
        self.said.append(text)

    @property
    def text(self) -> str:
        return "\n".join(self.said)


TAKE3 = "15"  # the number of 'take white blue green' (checked below), legal at the start of a game


def first(game) -> str:
    """The number of the first legal action."""
    return str(game.legal_actions()[0])


def run(table, lines=(), then=first):
    script = Script(table, lines, then)
    status = terminal.Session(table, script.ask, script.say).run()
    return status, script


def human_moves_were_first_legal(module, table) -> int:
    """Replays the game and checks each human decision was the first legal action; returns their count."""
    record = table.game.record()
    g = module.replay({**record, "actions": []})
    count = 0
    for a in record["actions"]:
        if table.seats[g.current_player].human:
            assert a == g.legal_actions()[0]
            count += 1
        g.apply(a)
    return count


# ----------------------------------------------------------------------------- the command


def test_a_scripted_game_through_the_command_to_the_end(short_spec, tmp_path, official):
    save = tmp_path / "saved.json"
    corrupt = tmp_path / "corrupt.json"
    corrupt.write_text('{"format": "splendor-rules/state", "version": 1, "players": 2', encoding="utf-8")
    take3 = str(official.string_to_action("take white blue green"))  # legal at the start
    script = (
        "\n".join(
            [
                take3,  # a move by number (the bot answers)
                "bogus move",  # unknown notation
                str(official.NUM_ACTIONS),  # a number out of range
                "99999",  # another
                "undo",  # back before the move
                "undo",  # nothing left to undo
                f"save {save}",
                take3,  # another move...
                f"load {save}",  # ...forgotten by loading the save
                f"load {corrupt}",  # a corrupt file: the engine's message
                f"load {tmp_path / 'missing.json'}",
                "help",
            ]
            + [str(a) for a in range(official.NUM_ACTIONS)] * 60
        )
        + "\n"
    )  # then every number in turn, to the end
    result = CliRunner().invoke(
        main,
        [
            "play",
            str(short_spec),
            "--players",
            "2",
            "--seat",
            "human",
            "--seat",
            "greedy",
            "--seed",
            "11",
            "--cache-dir",
            str(tmp_path / "cache"),
        ],
        input=script,
    )
    out = result.output
    assert result.exit_code == 0, out
    assert result.exception is None and "Traceback" not in out
    assert "seed 11" in out
    assert "not an action: 'bogus move'" in out
    assert f"no action numbered {official.NUM_ACTIONS}: type a number listed" in out
    assert "no action numbered 99999" in out
    assert "undone 2 decisions" in out  # the human's move and the bot's answer
    assert "nothing to undo" in out
    assert f"saved to {save}" in out and f"loaded {save}" in out
    # where the JSON breaks, as the compiler shows a spec's errors: file:line:col, the line, a caret
    assert (
        f"{corrupt}:1:62: error[E702]: not a saved game: the JSON breaks here (expecting ',' delimiter)\n"
        ' 1 | {"format": "splendor-rules/state", "version": 1, "players": 2\n'
        "   | " + " " * 61 + "^\n"
    ) in out
    assert "cannot read" in out and "missing.json" in out
    assert "undo" in out.split("help", 1)[1]  # the help text lists the commands
    assert "player 2 (greedy): " in out  # the bot's moves are printed
    # The end: the full board, why the game ended, the winner(s) and each seat's cards.
    tail = out[out.index("game over after") :]
    assert re.search(r"^(winner: player [12] \(|shared victory: )", tail, re.M), tail
    assert tail.count("purchased ") == 2 and "prestige point" in tail
    saved = json.loads(save.read_text(encoding="utf-8"))
    assert saved["format"] == "splendor-rules/state" and saved["turn"] == 1 and saved["history"] == []


def test_command_errors_are_messages_not_tracebacks(tmp_path):
    runner = CliRunner()
    corrupt = tmp_path / "corrupt.json"
    corrupt.write_text("{}", encoding="utf-8")
    cases = [
        (["--seat", "robot"], "unknown bot 'robot'"),
        (["--players", "7"], "plays with 2, 3, 4 players, not 7"),
        (["--players", "2", "--seat", "human", "--seat", "greedy", "--seat", "greedy"], "3 seats given for 2 players"),
        (["--load", str(tmp_path / "nothing.json")], "cannot read"),
    ]
    for args, message in cases:
        result = runner.invoke(main, ["play", str(OFFICIAL), *args], input="quit\n")
        assert result.exit_code == 2, (args, result.output)
        assert message in result.output, (args, result.output)
        assert "Traceback" not in result.output
    # a file that is no saved game: the command line was right, so no usage text, and exit 1
    result = runner.invoke(main, ["play", str(OFFICIAL), "--load", str(corrupt)], input="quit\n")
    assert result.exit_code == 1 and result.stdout == ""
    assert result.stderr.startswith(f"{corrupt}:1:1: error[E710]: 'format' must be")  # a key missing: at the state
    (tmp_path / "cut.json").write_text('{\n  "format": "splendor-rules/state",\n  "players": [\n', encoding="utf-8")
    result = runner.invoke(main, ["play", str(OFFICIAL), "--load", str(tmp_path / "cut.json")], input="quit\n")
    assert result.exit_code == 1
    assert result.stderr.startswith(f"{tmp_path / 'cut.json'}:4:1: error[E702]: not a saved game: the JSON breaks here")
    result = runner.invoke(main, ["play", str(tmp_path / "nope.yaml")], input="quit\n")
    assert result.exit_code == 2 and "no such spec file" in result.output
    broken = tmp_path / "broken.yaml"
    broken.write_text("spec: 1\nname: broken\nextends: official\nvalues:\n  targte: 3\n", encoding="utf-8")
    result = runner.invoke(main, ["play", str(broken), "--cache-dir", str(tmp_path)], input="quit\n")
    assert result.exit_code == 1, result.output
    assert f"{broken}:5:3: error[E3" in result.output and "did you mean 'target'" in result.output


def test_load_at_start_resumes_the_saved_game(tmp_path, official):
    game = official.new_game(2, seed=4)
    for _ in range(6):
        game.apply(game.legal_actions()[-1])
    path = tmp_path / "mid.json"
    path.write_text(game.to_json(), encoding="utf-8")
    result = CliRunner().invoke(
        main, ["play", str(OFFICIAL), "--load", str(path), "--seat", "human", "--seat", "human"], input="quit\n"
    )
    assert result.exit_code == 0, result.output
    assert f"round {game.round}, turn {game.turn}" in result.output
    assert f"player {game.current_player + 1} (you) to choose" in result.output
    assert "bye" in result.output


def test_a_saved_game_resumes_with_its_seats(tmp_path):
    save = tmp_path / "vs-random.json"
    first = CliRunner().invoke(
        main,
        ["play", str(OFFICIAL), "--seed", "3", "--seat", "human", "--seat", "random"],
        input=f"{TAKE3}\nsave {save}\nquit\n",
    )
    assert first.exit_code == 0, first.output
    assert json.loads(save.read_text(encoding="utf-8"))["table"] == {"seats": ["human", "random"]}
    again = CliRunner().invoke(main, ["play", str(OFFICIAL), "--load", str(save)], input="quit\n")
    assert again.exit_code == 0, again.output
    assert "player 2 (random)" in again.output and "(greedy)" not in again.output
    # --seat still decides when given, and a file from to_json alone (no table) gets the defaults
    other = CliRunner().invoke(
        main, ["play", str(OFFICIAL), "--load", str(save), "--seat", "human", "--seat", "greedy"], input="quit\n"
    )
    assert "player 2 (greedy)" in other.output
    tampered = tmp_path / "tampered.json"
    state = json.loads(save.read_text(encoding="utf-8"))
    state["table"] = {"seats": ["human"]}
    tampered.write_text(json.dumps(state), encoding="utf-8")
    bad = CliRunner().invoke(main, ["play", str(OFFICIAL), "--load", str(tampered)], input="quit\n")
    assert bad.exit_code == 2
    assert "the saved file's 'table' must be {\"seats\": [...]}, one name per player (2)" in bad.output


def test_end_of_input_stops_without_a_traceback():
    result = CliRunner().invoke(main, ["play", str(OFFICIAL), "--seed", "2"], input=f"{TAKE3}\n")
    assert result.exit_code == 1
    assert "stopped (the game was not saved)" in result.output
    assert "Traceback" not in result.output


def test_bots_only_play_to_the_end_without_input(short_spec, tmp_path):
    result = CliRunner().invoke(
        main,
        ["play", str(short_spec), "--seat", "greedy", "--seat", "random", "--seed", "5", "--cache-dir", str(tmp_path)],
    )
    assert result.exit_code == 0, result.output
    assert "player 1 (greedy): " in result.output and "player 2 (random): " in result.output
    assert "game over after" in result.output and "player 1>" not in result.output


# ----------------------------------------------------------------------------- the session


def test_number_and_notation_both_play_and_illegal_moves_are_explained(official):
    table = terminal.new_table(official, 2, ["human", "human"], seed=8)
    legal = table.game.legal_actions()
    illegal = next(a for a in range(official.NUM_ACTIONS) if a not in legal)
    by_text = official.action_to_string(legal[1])
    status, script = run(table, [str(legal[2]), official.action_to_string(illegal).upper(), by_text, "quit"], then=None)
    assert status == 0
    g = official.new_game(2, seed=8)
    g.apply(legal[2])
    assert table.game.history == [
        legal[2],
        g.legal_actions()[[official.action_to_string(a) for a in g.legal_actions()].index(by_text)],
    ]
    assert f"illegal action '{official.action_to_string(illegal)}'" in script.text
    assert script.text.count("== official") == 3  # the board before each decision, not after a wrong entry
    assert script.text.endswith("bye (the game was not saved)")
    table = terminal.new_table(official, 2, ["human", "human"], seed=8)
    status, script = run(table, ["quit"], then=None)
    assert script.said[-1] == "bye"


def test_undo_goes_back_to_the_previous_human_decision(official):
    table = terminal.new_table(official, 3, ["human", "greedy", "human"], seed=3)
    # Seat 1, the bot, seat 3, seat 1 again and the bot: then seat 3 is asked and undoes three times.
    status, script = run(table, [first, first, first, "undo", "undo", "undo", "undo", "quit"], then=None)
    assert status == 0
    assert table.game.history == []
    undone = [line.split(":")[0] for line in script.said if line.startswith("undone")]
    assert undone == ["undone 2 decisions", "undone 1 decision", "undone 2 decisions"]
    assert "player 3 (human)'s" in [line for line in script.said if line.startswith("undone")][1]
    assert "nothing to undo" in script.said[-2]
    # Undo then replays to the same position as before: the record is the source of truth.
    again = terminal.new_table(official, 3, ["human", "greedy", "human"], seed=3)
    run(again, [first, first, "undo", "quit"], then=None)
    once = terminal.new_table(official, 3, ["human", "greedy", "human"], seed=3)
    run(once, [first, "quit"], then=None)
    assert again.game.to_json() == once.game.to_json()


def test_save_is_atomic_and_load_checks_the_file(official, tmp_path):
    other = engines.load(str(SOLO)).module.new_game(1, seed=1)
    (tmp_path / "solo.json").write_text(other.to_json(), encoding="utf-8")
    four = official.new_game(4, seed=1)
    (tmp_path / "four.json").write_text(four.to_json(), encoding="utf-8")
    tampered = json.loads(official.new_game(2, seed=1).to_json())
    tampered["supply"]["red"] += 2
    (tmp_path / "tampered.json").write_text(json.dumps(tampered), encoding="utf-8")
    (tmp_path / "binary.json").write_bytes(b"\xff\xfe\x00garbage")
    table = terminal.new_table(official, 2, ["human", "greedy"], seed=6)
    save = tmp_path / "game.json"
    status, script = run(
        table,
        [
            first,
            f"save {save}",
            "save",
            f"save {tmp_path / 'no' / 'such' / 'dir.json'}",
            first,
            first,
            f"load {save}",
            f"load {tmp_path / 'solo.json'}",
            f"load {tmp_path / 'four.json'}",
            f"load {tmp_path / 'tampered.json'}",
            f"load {tmp_path / 'binary.json'}",
            "load",
            "quit",
        ],
        then=None,
    )
    assert status == 0
    text = script.text
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "binary.json",
        "four.json",
        "game.json",
        "solo.json",
        "tampered.json",
    ]  # no temporary file left
    saved = official.from_json(save.read_text(encoding="utf-8"))
    assert table.game.to_json() == saved.to_json() and len(saved.history) == 2
    assert "usage: save FILE" in text and "usage: load FILE" in text
    assert "cannot save to" in text and "No such file or directory" in text
    assert "the state is for spec 'solo'" in text
    assert "it is a game of 4 players and this table seats 2" in text
    assert "red tokens add up to" in text  # the engine's StateError, listing the problem
    bom = tmp_path / "bom.json"  # saved again by an editor that writes a byte-order mark
    bom.write_bytes(b"\xef\xbb\xbf" + save.read_bytes())
    assert terminal.load_game(official, bom.read_bytes(), str(bom)).to_json() == saved.to_json()
    for name in ("solo.json", "four.json", "tampered.json", "binary.json"):  # each named, as an error
        assert re.search(rf"^{re.escape(str(tmp_path / name))}:\d+:\d+: error\[E7\d\d\]: ", text, re.M), name
    assert "not a saved game (not UTF-8 text: byte 1 is b'\\xff')" in text
    assert "Traceback" not in text


def test_blind_reserves_are_hidden_from_the_other_humans(official):
    table = terminal.new_table(official, 2, ["human", "human"], seed=5)
    game = table.game
    legal = game.legal_actions()
    number = None
    for a in legal:  # the first action that reserves a card the other seat cannot see
        g = game.clone()
        g.apply(a)
        if None in g.observation(1)["seats"][0]["reserved"]:
            number, card = a, g.reserved[0][0]
            break
    assert number is not None
    status, script = run(table, [str(number), "quit"], then=None)
    catalogue = terminal.Catalogue(official)
    level = catalogue.cards[card].level
    board_2 = next(s for s in script.said if "player 2 (you) to choose" in s)
    assert f"1) a hidden card of level {level}" in board_2
    assert catalogue.card(card) not in board_2.split("player 1 (human)")[1].split("player 2 (you)")[0]
    mine = terminal.draw_board(official, table.game, table.seats, 0)
    assert f"1) L{level} {catalogue.card(card)} (blind)" in mine
    full = terminal.draw_board(official, table.game, table.seats, None)  # the end of a game shows everything
    assert f"1) L{level} {catalogue.card(card)} (blind)" in full


def test_the_board_shows_every_part_of_the_position(official):
    game = official.new_game(2, seed=9)
    seats = terminal.make_seats(official, ["human", "greedy"], 9)
    board = terminal.draw_board(official, game, seats, 0)
    cat = terminal.Catalogue(official)
    for c in official.COLOURS:
        assert f"{c} {game.supply[official.COLOURS.index(c)]}" in board
    for li, level in enumerate(official.LEVELS):
        assert f"level {level}   {len(game.decks[li])} cards in the deck" in board
        for slot, card in enumerate(game.market[li], 1):
            assert f"{level}.{slot}  {cat.card(card)}" in board
    for i, n in enumerate(game.noble_row, 1):
        assert f"{i}) {cat.noble(n)}" in board
    assert "player 1 (you) · prestige 0  <- to play" in board and "player 2 (greedy) · prestige 0" in board


def test_a_game_to_the_end_answering_the_first_action_by_number(official):
    table = terminal.new_table(official, 2, ["human", "greedy"], seed=21)
    status, script = run(table)
    assert status == 0 and table.game.is_over()
    assert human_moves_were_first_legal(official, table) > 10
    end = script.said[-1]
    winners = table.game.winners()
    assert end.startswith("game over after")
    for p in winners:
        assert f"player {p + 1} ({table.seats[p].who})" in end.splitlines()[1]
    for p, score in enumerate(table.game.scores()):
        assert f"player {p + 1} ({table.seats[p].who})" in end and f"{score} prestige point" in end
        assert f"purchased {len(table.game.purchased[p])} card" in end


def test_solo_variant_one_human_to_the_end():
    module = engines.load(str(SOLO)).module
    table = terminal.new_table(module)  # the spec's only player count, a human seat
    assert [s.who for s in table.seats] == ["human"]
    status, script = run(table)
    assert status == 0 and table.game.is_over()
    assert human_moves_were_first_legal(module, table) >= table.game.turn
    assert "game over after" in script.said[-1]


def test_grand_table_five_players(tmp_path):
    module = engines.load(str(GRAND)).module
    table = terminal.new_table(module, 5, ["random", "human", "greedy", "random", "human"], seed=2)
    status, script = run(table)
    assert status == 0 and table.game.is_over()
    assert human_moves_were_first_legal(module, table) > 0
    assert all(f"player {p} (" in script.said[-1] for p in range(1, 6))
    assert any("player 5 (you) to choose" in s for s in script.said)


def test_default_seats_and_players(official):
    table = terminal.new_table(official)
    assert [s.who for s in table.seats] == ["human", "greedy"]
    table = terminal.new_table(official, seats=["greedy", "human", "mcts:8"])
    assert table.game.num_players == 3 and [s.who for s in table.seats] == ["greedy", "human", "mcts:8"]
    table = terminal.new_table(official, 4, ["human"])
    assert [s.who for s in table.seats] == ["human", "greedy", "greedy", "greedy"]
    with pytest.raises(terminal.TableError, match="seat 2: unknown bot 'grredy' \\(did you mean 'greedy'"):
        terminal.new_table(official, 2, ["human", "grredy"])


@pytest.mark.parametrize("path", sorted((ROOT / "generated" / "engines").glob("*.py")), ids=lambda p: p.stem)
def test_every_variant_plays_to_the_end_at_the_terminal(path):
    module = engines.load(str(path)).module
    players = max(module.PLAYER_COUNTS)
    table = terminal.new_table(module, players, ["human"] + ["random"] * (players - 1), seed=1)
    status, script = run(table)
    assert status == 0 and table.game.is_over()
    assert human_moves_were_first_legal(module, table) > 0
    assert script.said[-1].startswith("game over after")


def test_a_bug_inside_the_loop_is_reported_as_an_internal_error(monkeypatch):
    def broken(self):
        raise RuntimeError("a bot lost its marbles")

    monkeypatch.setattr(terminal.Session, "run", broken)
    monkeypatch.delenv("SPLENDOR_RULES_TRACEBACK", raising=False)
    result = CliRunner().invoke(main, ["play", str(OFFICIAL)], input="quit\n")
    assert result.exit_code == 3
    assert "internal error while playing" in result.output and "a bot lost its marbles" in result.output


# ----------------------------------------------------------------------------- untrusted input (issue 14)


def test_a_failed_load_or_an_odd_answer_keeps_the_game(official, tmp_path):
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    edited = json.loads(official.new_game(2, seed=1).to_json())
    edited["ending"] = {"trigger": "target", "finish": "complete_round", "last_seat": 7}
    (tmp_path / "edited.json").write_text(json.dumps(edited), encoding="utf-8")
    table = terminal.new_table(official, 2, ["human", "greedy"], seed=6)
    status, script = run(
        table,
        [
            first,
            f"load {deep}",
            f"load {tmp_path / 'edited.json'}",
            "load /dev/zero",
            "²",
            "9" * 5000,
            "\x1b[2J",
            "quit",
        ],
        then=None,
    )
    assert status == 0
    text = script.text
    assert f"{deep}:1:100000: error[E703]: not a saved game (its JSON is nested too deeply: 100000 levels)" in text
    assert "'ending.last_seat' must be a seat from 0 to 1, not 7" in text
    assert "cannot read /dev/zero: is a device" in text
    assert "not an action: '²'" in text
    assert "no action numbered 999999999...: type a number listed" in text
    assert "not an action: '\\x1b[2J' (control characters)" in text and "\x1b" not in text
    assert len(table.game.history) == 2  # the human's move and the bot's: nothing lost


def test_load_at_start_refuses_deep_json_as_a_file_error(tmp_path):
    deep = tmp_path / "deep.json"
    deep.write_text('{"a": ' * 50_000 + "1" + "}" * 50_000, encoding="utf-8")
    result = CliRunner().invoke(main, ["play", str(OFFICIAL), "--load", str(deep)], input="quit\n")
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert (
        result.stderr.startswith(f"{deep}:1:")
        and "error[E703]: not a saved game (its JSON is nested too deeply: 50000 levels)" in result.stderr
    )


def test_save_writes_through_a_symlink_and_keeps_the_mode(official, tmp_path):
    target = tmp_path / "real.json"
    target.write_text("{}", encoding="utf-8")
    target.chmod(0o600)
    link = tmp_path / "link.json"
    link.symlink_to(target)
    table = terminal.new_table(official, 2, ["human", "greedy"], seed=6)
    status, script = run(table, [first, f"save {link}", "quit"], then=None)
    assert status == 0 and link.is_symlink() and link.resolve() == target
    assert (target.stat().st_mode & 0o777) == 0o600
    assert official.from_json(target.read_text(encoding="utf-8")).to_json() == table.game.to_json()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.json", "real.json"]


# ----------------------------------------------------------------------------- the board (issue 17)


def test_an_action_keeps_its_number_from_turn_to_turn(official):
    take3 = official.string_to_action("take white blue green")
    assert str(take3) == TAKE3
    reserve = official.string_to_action("reserve deck 1")
    game = official.new_game(2, seed=9)
    rng = random.Random(9)
    listed, places = [], set()
    while len(places) < 3:  # lists in which the action comes at three different places
        legal = game.legal_actions()
        if reserve in legal and legal.index(reserve) not in places:
            places.add(legal.index(reserve))
            listed.append(terminal.draw_actions(official, legal))
        game.apply(rng.choice(legal))
    for text in listed:  # the same number for the same action
        assert re.search(rf"(^|\s){reserve} reserve deck 1(\s|$)", text, re.M), text
    # ...and that number plays it; a number of an action that is not legal now gets the rule that forbids it
    table = terminal.new_table(official, 2, ["human", "human"], seed=8)
    take2_red = official.string_to_action("take2 red")
    buy = official.string_to_action("buy 1.1")
    status, script = run(table, [str(buy), str(take3), str(take2_red), "quit"], then=None)
    assert table.game.history == [take3, take2_red]
    assert "illegal action 'buy 1.1': " in script.text


def affordable_position(official):
    """A 2-player position in which player 1 can buy the card in market slot 1.1 and the card they
    reserved, and nothing else; and those two cards."""
    st = H.position(official, 2, seed=9)
    cards = {c.id: c for c in official.CARDS}
    market = st["market"]["1"][0]
    reserve = next(
        c
        for c in st["decks"]["1"]
        if all(a + b <= 4 for a, b in zip(cards[market].cost, cards[c].cost, strict=True))
        and sum(cards[market].cost) + sum(cards[c].cost) <= 10
    )
    H.set_reserved(official, st, 0, [reserve])
    need = [a + b for a, b in zip(cards[market].cost, cards[reserve].cost, strict=True)]
    H.give_tokens(st, 0, **{g: n for g, n in zip(official.GEMS, need, strict=True) if n})
    return official.from_json(json.dumps(st)), market, reserve


def test_the_cards_the_player_can_buy_now_are_marked(official):
    game, market, reserve = affordable_position(official)
    cat = terminal.Catalogue(official)
    buyable = terminal.buyable_cards(game)
    assert {market, reserve} <= buyable
    seats = terminal.make_seats(official, ["human", "greedy"], 9)
    board = terminal.draw_board(official, game, seats, 0)
    assert f"* 1.1  {cat.card(market)}" in board
    assert f"1) L1 {cat.card(reserve)}  *" in board
    assert "* you can buy it now" in board
    for level in official.LEVELS:  # every other card is drawn unmarked
        for slot, card in enumerate(game.market[official.LEVELS.index(level)], 1):
            marked = f"* {level}.{slot}  {cat.card(card)}" in board
            assert marked == (card in buyable) and (f"  {level}.{slot}  {cat.card(card)}" in board) != marked
    # not on the other seat's board, nor at the end
    assert "*" not in terminal.draw_board(official, game, seats, 1)
    assert "*" not in terminal.draw_board(official, game, seats, None)


def test_cards_out_of_play_are_counted_on_the_board(official):
    st = H.position(official, 2, seed=9)
    aside = st["decks"]["2"][-3:]
    st["decks"]["2"] = st["decks"]["2"][:-3]
    st["out_of_play"] = {"2": aside}
    game = official.from_json(json.dumps(st))
    board = terminal.draw_board(official, game, terminal.make_seats(official, ["human", "greedy"], 9), 0)
    assert f"level 2   {len(st['decks']['2'])} cards in the deck, 3 out of play" in board
    assert "level 1   " in board and "level 1   36 cards in the deck, " not in board


class Stream:
    def __init__(self, tty: bool):
        self.tty = tty

    def isatty(self) -> bool:
        return self.tty


@pytest.mark.parametrize(
    "tty, environ, wanted",
    [
        (True, {}, True),
        (True, {"TERM": "xterm-256color"}, True),
        (True, {"NO_COLOR": "1"}, False),
        (True, {"NO_COLOR": ""}, True),  # https://no-color.org: set to a non-empty value
        (True, {"TERM": "dumb"}, False),
        (False, {}, False),  # piped
    ],
)
def test_colour_only_on_a_terminal_without_no_color(tty, environ, wanted):
    assert terminal.colour_wanted(Stream(tty), environ) is wanted


def test_without_rich_the_board_is_plain_text(official, monkeypatch):
    monkeypatch.setitem(sys.modules, "rich", None)  # `import rich` fails, as without the play extra
    assert not terminal.colour_available()
    assert terminal.colour_wanted(Stream(True), {}) is False
    table = terminal.new_table(official, 2, ["human", "greedy"], seed=9)
    status, script = run(table, ["quit"], then=None)  # a session asked for colour falls back to text
    table = terminal.new_table(official, 2, ["human", "greedy"], seed=9)
    said = []
    terminal.Session(table, lambda prompt: "quit", said.append, colour=True).run()
    assert all(isinstance(s, str) for s in said) and said == script.said


def coloured(text) -> str:
    buffer = io.StringIO()
    Console(
        file=buffer,
        force_terminal=True,
        color_system="truecolor",
        no_color=False,
        highlight=False,
        markup=False,
        emoji=False,
        soft_wrap=True,
    ).print(text)
    return buffer.getvalue()


def test_in_colour_the_board_has_the_gem_colours_and_the_same_text(official):
    game, market, reserve = affordable_position(official)
    seats = terminal.make_seats(official, ["human", "greedy"], 9)
    lines = terminal.board_lines(official, game, seats, 0)
    text = terminal.rich_text(lines)
    assert text.plain == terminal.draw_board(official, game, seats, 0)
    out = coloured(text)
    assert re.sub(r"\x1b\[[0-9;]*m", "", out) == text.plain + "\n"
    assert "\x1b[31mred\x1b[0m" in out and "\x1b[34mblue\x1b[0m" in out  # the gem colours
    assert "\x1b[1;36mplayer 1 (you)\x1b[0m" in out  # the player's own seat
    assert "\x1b[1;32m*\x1b[0m" in out  # the mark on what they can buy
    # the session in colour says the board as a rich Text, and the rest as text
    table = terminal.new_table(official, 2, ["human", "greedy"], seed=9)
    said = []
    terminal.Session(table, lambda prompt: "quit", said.append, colour=True).run()
    assert [type(s).__name__ for s in said] == ["str", "Text", "Text", "str"]


def test_names_from_a_spec_are_shown_as_written_never_as_markup_or_terminal_control(tmp_path):
    """A name or title with rich markup and escape sequences: the markup is text, the controls escaped."""
    hostile = "[bold red]x[/] \x1b]52;c;aGk=\x07\x1b[2J\u202e"
    copy = tmp_path / "hostile" / "official.py"  # a module of its own, changed below
    copy.parent.mkdir()
    copy.write_bytes((ROOT / "generated" / "engines" / "official.py").read_bytes())
    module = H.load_engine(copy)
    module.SPEC_NAME = hostile
    module.CARDS = tuple(c._replace(bonus=hostile + c.bonus) for c in module.CARDS)
    game = module.new_game(2, seed=1)
    seats = ["human", hostile]  # seats as plain names, as the RL environments give them
    board = terminal.draw_board(module, game, seats, 0)
    shown = "[bold red]x[/] \\x1b]52;c;aGk=\\x07\\x1b[2J\\u202e"
    assert f"== {shown}, 2 players" in board and f"({shown})" in board and f"  {shown}" in board
    assert "\x1b" not in board and "\x07" not in board and "\u202e" not in board
    out = coloured(terminal.rich_text(terminal.board_lines(module, game, seats, 0)))
    assert "\x1b]" not in out and "\x07" not in out and "\x1b[2J" not in out and "\u202e" not in out
    assert shown in re.sub(r"\x1b\[[0-9;]*m", "", out)
    # through the command, piped: plain text, no escape code at all
    result = CliRunner().invoke(
        main, ["play", str(OFFICIAL), "--seed", "1", "--cache-dir", str(tmp_path)], input="quit\n"
    )
    assert result.exit_code == 0 and "\x1b" not in result.output and "* you can buy" not in result.output


def test_a_saved_position_with_cards_out_of_play_plays_and_undoes(official):
    st = H.position(official, 2, seed=9)
    aside = st["decks"]["1"][-5:]
    st["decks"]["1"] = st["decks"]["1"][:-5]
    st["out_of_play"] = {"1": aside}
    table = terminal.new_table(official, saved=json.dumps(st), saved_name="puzzle.json")
    status, script = run(table, [first, first, "undo", first, "quit"], then=None)
    assert status == 0 and "undone 2 decisions" in script.text
    assert len(table.game.history) == 4  # two turns each, one of them undone and played again
    assert json.loads(table.game.to_json())["out_of_play"] == {"1": aside, "2": [], "3": []}
    assert official.replay(table.game.record()).to_json() == table.game.to_json()


def test_the_command_draws_in_colour_on_a_terminal(monkeypatch, tmp_path):
    monkeypatch.setattr(terminal, "colour_wanted", lambda stream, environ: True)  # as on a terminal
    monkeypatch.setenv("TERM", "xterm-256color")
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    result = CliRunner().invoke(
        main, ["play", str(OFFICIAL), "--seed", "1", "--cache-dir", str(tmp_path)], input="quit\n"
    )
    assert result.exit_code == 0, result.output
    assert "\x1b[31mred\x1b[0m" in result.output and "\\x1b" not in result.output  # codes written, not escaped
    plain_out = re.sub(r"\x1b\[[0-9;]*m", "", result.output)
    assert "supply    white 4  blue 4  green 4  red 4  black 4  gold 5" in plain_out and "bye" in plain_out


# --------------------------------------------------------------------------- the spec's own zones and state

CITIES = ROOT / "variants" / "cities.yaml"
NO_CHURN = ROOT / "variants" / "no-churn.yaml"


def test_the_command_shows_the_zones_of_cities_and_the_state_of_no_churn(tmp_path):
    """`play` itself (the board a human sees): the cities on display by their columns, the pile as its
    count, each seat's claimed cities; no-churn's declared state (the colours taken this turn)."""
    runner = CliRunner()
    result = runner.invoke(main, ["play", str(CITIES), "--seed", "3", "--cache-dir", str(tmp_path)], input="quit\n")
    assert result.exit_code == 0 and "Traceback" not in result.output, result.output
    assert (
        "city_pile   4 pieces, face down\n"
        "city_display   1) tile 1  side 1  prestige 13  requires 4 red 3 black  any_one_colour 0\n"
        "               2) tile 7  side 2  prestige 14  requires 2 white 1 blue 1 green 2 red 2 black  "
        "any_one_colour 0\n"
        "               3) tile 6  side 1  prestige 13  requires 3 blue 4 green  any_one_colour 0\n"
    ) in result.output
    assert result.output.count("    claimed   none\n") == 2
    module = engines.load(str(NO_CHURN), cache_dir=tmp_path).module
    take = str(module.string_to_action("take white blue green"))
    result = runner.invoke(
        main,
        ["play", str(NO_CHURN), "--seed", "3", "--seat", "human", "--seat", "human", "--cache-dir", str(tmp_path)],
        input=f"{take}\nquit\n",
    )
    assert result.exit_code == 0 and "Traceback" not in result.output, result.output
    boards = result.output.split("== no-churn")[1:]
    assert len(boards) >= 2 and all("\nstate     taken " in b for b in boards), result.output


def test_a_cities_game_at_the_terminal_ends_with_the_claimed_cities_in_the_standings():
    module = engines.load(str(CITIES)).module
    table = terminal.new_table(module, 2, ["human", "greedy"], seed=0)
    status, script = run(table)
    assert status == 0 and table.game.is_over()
    assert human_moves_were_first_legal(module, table) > 0
    end = script.said[-1]
    claimed = [p for p in range(2) if table.game.z_claimed[p]]
    assert claimed  # this seed's game ends with a claim (the greedy bot's)
    assert end.count("      claimed   ") == 2 and end.count("      claimed   1) tile ") == len(claimed)
    assert any("city_display   1) tile " in s for s in script.said)
