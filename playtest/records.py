"""Per-game records of a simulation (``simulate --games-out FILE``), and replaying one of them.

A record file is JSON Lines (``.jsonl``, ``.json``) or CSV (``.csv``), one game a line/row:
the spec (name, label, the engine's SHA-256), the game's index and seed, the players, the
bot in each seat, rounds and turns, why it ended (an end trigger such as ``target`` or
``deadlock``, ``stuck``, or ``truncated`` at the length cap), the winners (seats from 0),
scores, the margin of victory, cards bought per level, nobles and wild tokens spent per
seat, how often each decision was made (``uses``: an action of the spec or an end-of-turn
step a player was asked; a step applied without asking is no decision and is not counted),
and the moves, from which ``splendor-rules play SPEC --replay FILE --game N`` replays game N.

``--replay`` also takes a saved game (``save FILE`` at the terminal, or a finished web table's
"Download the game"): the engine's state holds its seed (or the position it started from) and
every move since (``history``), so it is one game, replayed from its deal. It is checked as
``--load`` checks it (every problem located in the file), and its moves must lead from its deal
to exactly the state it saved, else it was edited and is refused (:func:`saved_game_row`).

In CSV, lists are joined with ``;`` (per seat) and ``/`` (levels within a seat), the moves
with spaces, and each decision has a ``uses.NAME`` column.

A record file is input from anywhere: :func:`read_record` checks every field it uses and
reports a problem as ``FILE:LINE[:COLUMN]: error: ...`` (:class:`RecordError`), never a traceback.
"""

from __future__ import annotations

import csv
import io
import json
import pathlib
from typing import Any, NoReturn

from compiler.files import write_atomic
from compiler.front.reading import read_file, reason
from compiler.safe_text import csv_cell, csv_text, visible

from . import saved_games
from .bots import BotError, parse_bot
from .simulate.game import GameResult, decision_order
from .simulate.summary import Simulation
from .terminal import board

FORMAT = "splendor-rules/game"
VERSION = 1
MAX_RECORD_BYTES = 256_000_000  # a record file larger than this is not one (a game's record: a few kB)
CSV_FIRST = (
    "format",
    "version",
    "spec",
    "label",
    "sha256",
    "index",
    "seed",
    "players",
    "seats",
    "rounds",
    "turns",
    "end_reason",
    "winners",
    "scores",
    "margin",
    "cards",
    "nobles",
    "gold_spent",
    "max_turns",
)


class RecordError(ValueError):
    """A record file that cannot be written or read; the message says where and why."""


class InvalidSavedGame(RecordError):
    """A saved game the engine refuses: its message is the located diagnostics (saved_games),
    their source lines already made safe for a terminal."""


class GameNotNamed(RecordError):
    """``--replay`` of a record file without ``--game N``: a mistake of the command, not of the file."""


def kind_of(path: str | pathlib.Path) -> str:
    """ "jsonl" or "csv", from the file's extension; RecordError for any other."""
    suffix = pathlib.Path(path).suffix.lower()
    if suffix in (".jsonl", ".json", ".ndjson"):
        return "jsonl"
    if suffix == ".csv":
        return "csv"
    raise RecordError(f"{path}: a record file ends in .jsonl (JSON Lines) or .csv, not '{suffix or 'nothing'}'")


def record(spec: dict, players: int, r: GameResult) -> dict:
    """One game as a record (a JSON object)."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "spec": spec["name"],
        "label": spec["label"],
        "sha256": spec["sha256"],
        "index": r.index,
        "seed": r.seed,
        "players": players,
        "seats": list(r.seats),
        "rounds": r.rounds,
        "turns": r.turns,
        "end_reason": r.end_reason,
        "winners": list(r.winners),
        "scores": list(r.scores),
        "margin": r.margin,
        "cards": [list(c) for c in r.cards],
        "nobles": list(r.nobles),
        "gold_spent": list(r.gold_spent),
        "max_turns": r.max_turns,
        "uses": dict(r.uses),
        "actions": list(r.actions),
    }


def records(sim: Simulation) -> list[dict]:
    """Every game of `sim` as a record, in the order a stream writes them (:class:`Stream`):
    game 0 of each spec, then game 1 of each, ..."""
    games = []
    for k, s in enumerate(sim.specs):
        spec = {"name": s.name, "label": s.label, "sha256": s.sha256}
        games += [((r.index, k), spec, r) for r in s.results]
    games.sort(key=lambda g: g[0])
    return [record(spec, sim.players, r) for _, spec, r in games]


def format_records(rows: list[dict], kind: str) -> str:
    if kind == "jsonl":
        return "".join(_jsonl_line(row) for row in rows)
    uses = list(dict.fromkeys(name for row in rows for name in row["uses"]))
    return _csv_lines([_csv_header(uses), *(_csv_cells(row, uses) for row in rows)])


def _jsonl_line(row: dict) -> str:
    return json.dumps(row, sort_keys=False) + "\n"


def _csv_header(uses: list[str]) -> list[str]:
    return [*CSV_FIRST, *(f"uses.{u}" for u in uses), "actions"]


def _csv_cells(row: dict, uses: list[str]) -> list:
    cells = []
    for key in CSV_FIRST:
        value = row[key]
        if key == "cards":
            value = ";".join("/".join(map(str, c)) for c in value)
        elif isinstance(value, list):
            value = ";".join(map(str, value))
        cells.append("" if value is None else value)
    cells += [row["uses"].get(u, 0) for u in uses]
    cells.append(" ".join(map(str, row["actions"])))
    return cells


def _csv_lines(rows: list[list]) -> str:
    """CSV text of `rows`, each text cell that a spreadsheet would take for a formula quoted
    (compiler.safe_text.csv_cell; _csv_rows reads it back as it was)."""
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows([csv_cell(c) for c in row] for row in rows)
    return out.getvalue()


class Stream:
    """A record file written as the games finish (``simulate --games-out``): each game is
    appended and flushed, so a run that is stopped (Ctrl-C, a failing game, a killed
    process) leaves every game handed over so far on disk.

    Games come from :class:`playtest.simulate.InOrder`, so the file is the same for any
    jobs and the same as :func:`write` of the finished run. A CSV file's ``uses.NAME``
    columns are known before the first game: every decision of each engine, in spec order
    (a game's ``uses`` name them all).
    """

    def __init__(self, path: str | pathlib.Path, specs: list[dict], players: int, uses: list[str]):
        self.path, self.kind = path, kind_of(path)
        self.specs, self.players, self.uses = specs, players, uses
        self.written = 0
        try:
            self.file = open(path, "w", encoding="utf-8", newline="")
            if self.kind == "csv":
                self.file.write(_csv_lines([_csv_header(uses)]))
                self.file.flush()
        except OSError as e:
            raise RecordError(f"{path}: cannot write the game records: {e.strerror or e}") from None

    def add(self, spec: int, result: GameResult) -> None:
        row = record(self.specs[spec], self.players, result)
        text = _jsonl_line(row) if self.kind == "jsonl" else _csv_lines([_csv_cells(row, self.uses)])
        try:
            self.file.write(text)
            self.file.flush()
        except OSError as e:
            raise RecordError(f"{self.path}: cannot write the game records: {e.strerror or e}") from None
        self.written += 1

    def close(self) -> None:
        try:
            self.file.close()
        except OSError as e:
            raise RecordError(f"{self.path}: cannot write the game records: {e.strerror or e}") from None


def stream(path: str | pathlib.Path, engines_run: list, players: int) -> Stream:
    """A :class:`Stream` for a run of these engines (``playtest.engines.Engine``)."""
    specs = [{"name": e.name, "label": e.label, "sha256": getattr(e.module, "SPEC_SHA256", None)} for e in engines_run]
    uses = list(dict.fromkeys(name for e in engines_run for name in decision_order(e.module)))
    return Stream(path, specs, players, uses)


def write(sim: Simulation, path: str | pathlib.Path) -> int:
    """Writes every game of `sim` to `path` (whole or not at all); returns the number of games."""
    kind = kind_of(path)
    rows = records(sim)
    try:
        write_atomic(path, format_records(rows, kind), make_folder=False)
    except OSError as e:
        raise RecordError(f"{path}: cannot write the game records: {e.strerror or e}") from None
    return len(rows)


# ----------------------------------------------------------------------------- reading

STATE_FORMAT = "splendor-rules/state"
MAX_SEAT_LABEL = 40


def read_replay(path: str | pathlib.Path, module: Any, game: int | None) -> tuple[dict[str, Any], str]:
    """What ``play --replay FILE [--game N]`` replays: game `game` of a record file, or the one
    game of a saved game (`game` None or 0). RecordError, located, for anything wrong."""
    try:
        data = read_file(path, MAX_RECORD_BYTES, "a record file")
    except OSError as e:
        kind_of(path)  # a name that is no record file's is said first
        raise RecordError(f"{path}: cannot read the game records: {reason(e)}") from None
    saved = _saved_state(data)
    if saved is not None:
        if game not in (None, 0):
            raise RecordError(f"{path}: a saved game holds one game: leave out --game (or give --game 0)")
        return saved_game_row(path, module, data.decode("utf-8-sig"), saved), str(path)
    kind_of(path)
    if game is None:
        raise GameNotNamed(f"{path} is a record file, a run of games: say which with --game N")
    return read_record(path, module.SPEC_NAME, game)


def _saved_state(data: bytes) -> dict[str, Any] | None:
    """The JSON object of a saved game (the engine's state format), or None for anything else."""
    if not data.lstrip()[:1] == b"{" and not data.startswith(b"\xef\xbb\xbf"):
        return None
    try:
        value = json.loads(data.decode("utf-8-sig"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None
    return value if isinstance(value, dict) and value.get("format") == STATE_FORMAT else None


def saved_game_row(path: str | pathlib.Path, module: Any, text: str, state: dict[str, Any]) -> dict[str, Any]:
    """A saved game as the row :func:`replay` plays: its deal (seed, or the position it started
    from) and its moves. The state is checked as ``--load`` checks it, and replaying its moves
    from its deal must give exactly the saved state (a history or seed edited is refused)."""
    try:
        saved = module.from_json(state)
    except module.StateError as e:
        problems = getattr(e, "problems", None) or [((), str(e))]
        raise InvalidSavedGame(saved_games.invalid_state(str(path), text, problems)) from None
    start = state.get("start")
    if start is None and type(state.get("seed")) is not int:
        raise RecordError(
            f"{path}: error: the saved game does not say how it was dealt (no seed, no start), "
            "so its moves cannot be replayed"
        )
    history = list(state.get("history", []))
    done_before = len(start.get("history", [])) if isinstance(start, dict) else 0
    players = state["players"]
    seats = (state.get("table") or {}).get("seats") if isinstance(state.get("table"), dict) else None
    if not (isinstance(seats, list) and len(seats) == players and all(isinstance(x, str) for x in seats)):
        seats = ["?"] * players
    row = {
        "format": FORMAT,
        "version": VERSION,
        "spec": str(state["spec"]["name"]),
        "sha256": state["spec"]["sha256"],
        "index": 0,
        "seed": state.get("seed"),
        "players": players,
        "seats": [visible(x)[:MAX_SEAT_LABEL] for x in seats],
        "max_turns": state.get("max_turns"),
        "actions": history[done_before:],
        "start": start,
    }
    where = str(path)
    again = replay(module, row, where)
    if _without_start(again.to_dict()) != _without_start(saved.to_dict()):
        raise RecordError(
            f"{path}: error: the saved game's moves do not lead from its deal to the state it saved "
            "(the file was edited)"
        )
    return row


def _without_start(state: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in state.items() if k != "start"}


def read_record(path: str | pathlib.Path, spec_name: str, game: int) -> tuple[dict, str]:
    """The record of game `game` (its index in the run) of spec `spec_name` in `path`, and
    where it is ("FILE:LINE"). RecordError, located, for anything wrong with the file."""
    kind = kind_of(path)
    try:
        data = read_file(path, MAX_RECORD_BYTES, "a record file")
    except OSError as e:  # a FIFO, a device, a folder, a file too large: said, never waited for
        raise RecordError(f"{path}: cannot read the game records: {reason(e)}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data[: e.start].count(b"\n") + 1
        raise RecordError(f"{path}:{line}: error: not UTF-8 text (byte {e.start})") from None
    rows = _jsonl_rows(path, text) if kind == "jsonl" else _csv_rows(path, text)
    found_specs = []
    for line, row in rows:
        where = f"{path}:{line}"
        checked = _check(where, row)
        if checked["spec"] != spec_name:
            found_specs.append(checked["spec"])
            continue
        if checked["index"] == game:
            return checked, where
    others = sorted(set(found_specs))
    hint = f" (it holds games of {', '.join(repr(o) for o in others)})" if others else ""
    raise RecordError(f"{path}: no game {game} of spec '{spec_name}'{hint}")


def _jsonl_rows(path, text: str):
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as e:
            raise RecordError(f"{path}:{number}:{e.colno}: error: not a JSON record: {e.msg}") from None
        except RecursionError:
            raise RecordError(f"{path}:{number}: error: JSON nested too deeply") from None
        except ValueError as e:  # numbers of thousands of digits
            raise RecordError(f"{path}:{number}: error: not a JSON record: {e}") from None
        if not isinstance(row, dict):
            raise RecordError(f"{path}:{number}:1: error: a record is a JSON object, not {type(row).__name__}")
        yield number, row


def _csv_rows(path, text: str):
    reader = csv.reader(io.StringIO(text))
    try:
        header = next(reader, None)
        if header is None:
            return
        header = [csv_text(c) for c in header]  # each text as written, before _csv_lines quoted it
        missing = [c for c in ("spec", "index", "seed", "players", "seats", "actions") if c not in header]
        if missing:
            raise RecordError(f"{path}:1: error: not a record file: no column {', '.join(missing)}")
        for cells in reader:
            if not any(cells):
                continue
            line = reader.line_num
            if len(cells) != len(header):
                raise RecordError(f"{path}:{line}: error: {len(cells)} cells where the header has {len(header)}")
            row = dict(zip(header, map(csv_text, cells), strict=True))
            yield line, _from_csv(f"{path}:{line}", row)
    except csv.Error as e:
        raise RecordError(f"{path}:{reader.line_num}: error: not CSV: {e}") from None


def _from_csv(where: str, row: dict) -> dict:
    """The fields replay needs, as JSON Lines holds them."""

    def integer(key: str, optional: bool = False) -> int | None:
        text = row.get(key, "")
        if optional and text == "":
            return None
        if not (text.isascii() and text.lstrip("-").isdigit()) or len(text) > 30:
            raise RecordError(f"{where}: error: column '{key}' must be a whole number, not {text[:40]!r}")
        return int(text)

    actions = row.get("actions", "").split()
    if not all(a.isascii() and a.isdigit() and len(a) < 10 for a in actions):
        raise RecordError(f"{where}: error: column 'actions' must hold action ids separated by spaces")
    return {
        "format": row.get("format", FORMAT),
        "version": integer("version") if row.get("version") else VERSION,
        "spec": row["spec"],
        "sha256": row.get("sha256") or None,
        "index": integer("index"),
        "seed": integer("seed"),
        "players": integer("players"),
        "seats": row["seats"].split(";") if row["seats"] else [],
        "max_turns": integer("max_turns", True),
        "actions": [int(a) for a in actions],
    }


def _check(where: str, row: dict) -> dict:
    """The fields replay uses, checked: types, ranges, bot names."""

    def fail(key, what) -> NoReturn:
        raise RecordError(f"{where}: error: '{key}' {what}")

    if row.get("format", FORMAT) != FORMAT:
        fail("format", f"must be '{FORMAT}', not {str(row.get('format'))[:40]!r}")
    if row.get("version", VERSION) != VERSION:
        fail("version", f"must be {VERSION}, not {str(row.get('version'))[:20]!r}")
    for key in ("spec",):
        if not isinstance(row.get(key), str) or not row[key]:
            fail(key, "must be the spec's name (text)")
    if row.get("sha256") is not None and not isinstance(row["sha256"], str):
        fail("sha256", "must be text")
    for key in ("index", "seed", "players"):
        value = row.get(key)
        if type(value) is not int or value < 0:
            fail(key, "must be a whole number from 0")
    if row.get("max_turns") is not None and (type(row["max_turns"]) is not int or row["max_turns"] < 1):
        fail("max_turns", "must be a whole number from 1, or null")
    seats = row.get("seats")
    if not isinstance(seats, list) or len(seats) != row["players"]:
        fail("seats", f"must list one bot per player ({row['players']})")
    for s in seats:
        try:
            if not isinstance(s, str):
                raise BotError("not text")
            parse_bot(s)
        except BotError:
            fail("seats", f"holds {str(s)[:40]!r}, not a bot name")
    actions = row.get("actions")
    if not isinstance(actions, list) or not all(type(a) is int and a >= 0 for a in actions):
        fail("actions", "must be a list of action ids")
    return row


def replay(module: Any, row: dict[str, Any], where: str) -> Any:
    """The game a record describes, played again move by move. RecordError when the record is
    for another version of the spec or a move is not legal where it is played."""
    sha = getattr(module, "SPEC_SHA256", None)
    if row.get("sha256") and sha and row["sha256"] != sha:
        raise RecordError(
            f"{where}: error: the record is for another version of spec '{row['spec']}' "
            f"(sha256 {row['sha256'][:12]}, this engine {sha[:12]}): its moves would not mean the same"
        )
    try:
        game = _deal(module, row)
    except ValueError as e:
        raise RecordError(f"{where}: error: {e}") from None
    for k, action in enumerate(row["actions"], 1):
        if game.is_over():
            raise RecordError(f"{where}: error: move {k} of the record comes after the end of the game")
        if action not in game.legal_actions():
            text = module.action_to_string(action) if action < module.NUM_ACTIONS else f"id {action}"
            raise RecordError(f"{where}: error: move {k} of the record ({text}) is not legal there")
        game.apply(action)
    return game


def _deal(module: Any, row: dict[str, Any]) -> Any:
    """The game a row starts from: the position a saved game started from, else the seed's deal."""
    if row.get("start") is not None:
        return module.from_json(row["start"])
    return module.new_game(row["players"], seed=row["seed"], max_turns=row.get("max_turns"))


def replay_text(module: Any, row: dict[str, Any], where: str) -> str:
    """The moves of a replayed game, turn by turn, then the board and the standings."""
    final = replay(module, row, where)  # every move checked before any is shown
    game = _deal(module, row)
    seats = row["seats"]
    dealt = f"seed {row['seed']}" if row.get("start") is None else "from the position it started from"
    lines = [
        visible(f"replay of game {row['index']} of {row['spec']} ({where}): {dealt}, seats {', '.join(seats)}")
    ]  # the file's name on one line
    for action in row["actions"]:
        lines.append(
            f"  turn {game.turn:>3}  {board.seat_label(seats, game.current_player)}: {module.action_to_string(action)}"
        )
        game.apply(action)
    lines.append(board.draw_board(module, final, seats, None))
    lines.append(
        board.standings(module, final, seats)
        if final.is_over()
        else f"the record stops before the end of the game (turn {final.turn})"
    )
    return "\n".join(lines)
