"""Every file a command reads goes through one bounded reader (issue 26, item 19).

compiler.front.reading reads ordinary files only (a FIFO would block, /dev/zero never ends, a folder
is no file), at most a limit of their kind; each command says which file and why, never waits
and never shows a traceback. The last test reads the sources: a new `open()` for reading, or a
`read_text`/`read_bytes` of a file a user names, outside compiler/front/reading.py fails it.
"""

from __future__ import annotations

import ast
import os
import pathlib

import pytest
from click.testing import CliRunner

from app import cli
from compiler.front import reading
from playtest import engines, records, terminal
from tests.helpers.inputs import in_time

ROOT = pathlib.Path(__file__).resolve().parent.parent
KINDS = {"fifo": "is a named pipe (FIFO)", "dev_zero": "is a device", "folder": "is a directory"}


def make(path: pathlib.Path, kind: str) -> pathlib.Path:
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "dev_zero":
        path.symlink_to("/dev/zero")
    else:
        path.mkdir()
    return path


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_read_file_refuses_what_is_not_an_ordinary_file(tmp_path, kind):
    target = make(tmp_path / "x", kind)
    with pytest.raises(OSError) as err:
        in_time(lambda: reading.read_file(target, 1000, "a record file"))
    assert reading.reason(err.value) == KINDS[kind]


def test_read_file_refuses_a_file_past_its_limit_and_reads_one_within(tmp_path):
    target = tmp_path / "x"
    target.write_bytes(b"x" * 1001)
    with pytest.raises(reading.TooLarge) as err:
        reading.read_file(target, 1000, "a record file")
    assert reading.reason(err.value) == "too large for a record file (over 1 kB)"
    target.write_bytes(b"x" * 1000)
    assert reading.read_file(target, 1000, "a record file") == b"x" * 1000
    (tmp_path / "link").symlink_to(target)  # a link to an ordinary file is one
    assert reading.read_file(tmp_path / "link", 1000, "a record file") == b"x" * 1000
    with pytest.raises(FileNotFoundError) as missing:
        reading.read_file(tmp_path / "none", 1000, "a record file")
    assert reading.reason(missing.value) == "No such file or directory"


@pytest.mark.parametrize("suffix", [".jsonl", ".csv"])
@pytest.mark.parametrize("kind", ["dev_zero", "fifo"])  # a folder is refused by click, as a usage error
def test_play_replay_refuses_a_fifo_a_device_or_a_folder_at_once(tmp_path, monkeypatch, kind, suffix):
    """It waited for ever on a FIFO and read 2 GB of /dev/zero."""
    make(tmp_path / f"games{suffix}", kind)
    monkeypatch.chdir(tmp_path)
    result = in_time(
        lambda: CliRunner().invoke(cli.main, ["play", "official", "--replay", f"games{suffix}", "--game", "0"])
    )
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == f"games{suffix}: cannot read the game records: {KINDS[kind]}\n"


def test_play_replay_refuses_a_record_file_past_its_limit(tmp_path, monkeypatch):
    monkeypatch.setattr(records, "MAX_RECORD_BYTES", 1000)
    (tmp_path / "games.jsonl").write_text("{}\n" * 400, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli.main, ["play", "official", "--replay", "games.jsonl", "--game", "0"])
    assert (result.exit_code, result.stderr) == (
        1,
        "games.jsonl: cannot read the game records: too large for a record file (over 1 kB)\n",
    )


def test_the_record_limit_is_far_below_the_two_gigabytes_it_was():
    assert records.MAX_RECORD_BYTES <= 256_000_000


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_an_engine_module_is_read_as_an_ordinary_file(tmp_path, kind):
    target = make(tmp_path / "engine.py", kind)
    with pytest.raises(engines.EngineError) as err:
        in_time(lambda: engines.load(str(target)))
    assert str(err.value) == f"{target}: cannot read the engine module: {KINDS[kind]}"


def test_simulate_says_why_an_engine_module_cannot_be_read(tmp_path, monkeypatch):
    make(tmp_path / "engine.py", "fifo")
    monkeypatch.chdir(tmp_path)
    result = in_time(lambda: CliRunner().invoke(cli.main, ["simulate", "engine.py", "--games", "1"]))
    assert result.exit_code == 2 and "engine.py: cannot read the engine module: is a named pipe (FIFO)" in result.stderr


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_play_load_and_load_in_play_say_why_a_saved_game_cannot_be_read(tmp_path, monkeypatch, kind):
    make(tmp_path / "game.json", kind)
    monkeypatch.chdir(tmp_path)
    result = in_time(lambda: CliRunner().invoke(cli.main, ["play", "official", "--load", "game.json"]))
    said_by_click = "File 'game.json' is a directory." if kind == "folder" else f"cannot read game.json: {KINDS[kind]}"
    assert result.exit_code == 2 and said_by_click in result.stderr
    module = engines.load("official").module
    table = terminal.new_table(module, 2, ["human", "greedy"], seed=6)
    said: list[str] = []
    answers = iter(["load game.json", "quit"])
    in_time(lambda: terminal.Session(table, ask=lambda prompt: next(answers), say=said.append).run())
    assert f"cannot read game.json: {KINDS[kind]}" in said


# --------------------------------------------------------------------------- the sources

# Files read that no user names: the package's own data (grammar, schema, fonts, the runtime
# modules pasted into engines), found from __file__ or importlib.resources.
OWN_DATA = ("resources.files", "__file__", "HERE", "Path(__file__)")


def _reads(path: pathlib.Path) -> list[str]:
    """Each call in `path` that reads a file other than through compiler.front.reading."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if (
            isinstance(func, ast.Name)
            and func.id == "open"
            or isinstance(func, ast.Attribute)
            and func.attr == "open"
            and ast.unparse(func.value) in ("io", "builtins")
        ):
            mode = (
                node.args[1] if len(node.args) > 1 else next((k.value for k in node.keywords if k.arg == "mode"), None)
            )
            if isinstance(mode, ast.Constant) and isinstance(mode.value, str) and set(mode.value) & set("wxa"):
                continue  # a file written
            found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {ast.unparse(node)}")
        elif isinstance(func, ast.Attribute) and func.attr in ("read_text", "read_bytes", "fdopen", "fromfile"):
            if func.attr == "fdopen" or any(mark in ast.unparse(func.value) for mark in OWN_DATA):
                continue  # os.fdopen: compiler.files writes through it
            found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {ast.unparse(node)}")
    return found


def test_the_sources_read_files_only_through_compiler_reading():
    files = [p for folder in ("app", "compiler", "playtest", "web") for p in sorted((ROOT / folder).rglob("*.py"))]
    assert len(files) > 50
    found = [line for p in files if p.name != "reading.py" for line in _reads(p)]
    assert found == []


def test_the_source_scan_finds_a_read(tmp_path):
    """The scan above can fail: it finds each way of reading a file it looks for."""
    sample = ROOT / "tests" / "_reading_sample.py"
    sample.write_text(
        "import io, pathlib\nopen('x')\nopen('x', 'rb')\nio.open('x')\npathlib.Path('x').read_text()\nopen('y', 'w')\n",
        encoding="utf-8",
    )
    try:
        assert [line.split(": ", 1)[1] for line in _reads(sample)] == [
            "open('x')",
            "open('x', 'rb')",
            "io.open('x')",
            "pathlib.Path('x').read_text()",
        ]
    finally:
        sample.unlink()


def test_a_file_the_kernel_makes_up_is_refused_and_never_echoed(tmp_path, monkeypatch):
    """/proc/self/environ says it is an ordinary file of 0 bytes and reads as the environment: a
    shared variant whose table or base links there would print the environment of whoever checks
    it in an error. A link into /proc or /sys is refused before it is opened."""
    from click.testing import CliRunner

    from app import cli
    from compiler.front.reading import NotAFile, read_input

    link = tmp_path / "cities.csv"
    link.symlink_to("/proc/self/environ")
    with pytest.raises(NotAFile, match="under /proc or /sys"):
        read_input(link)
    spec = tmp_path / "environ.yaml"
    spec.symlink_to("/proc/self/environ")
    monkeypatch.setenv("SPLENDOR_RULES_TEST_SECRET", "hunter2")
    result = CliRunner().invoke(cli.main, ["check", str(spec)])
    assert result.exit_code == 1
    assert "hunter2" not in result.output + result.stderr
    assert "a file of the system's own (under /proc or /sys)" in result.stderr
