"""The stand-in engine (tests/test_playtest_standin.py: a hand-written engine of the Engine API) and
its variants, and a simulation with the tests' defaults (`run_games`), for tests/test_playtest_*.py."""

from __future__ import annotations

import os
import subprocess

from playtest import engines
from playtest import simulate as sim
from tests.helpers import ROOT
from tests.helpers.fuzz import invoke

STANDIN = ROOT / "tests" / "test_playtest_standin.py"


def standin(tmp_path=None, name="standin", **replace) -> engines.Engine:
    """The stand-in engine, or a variant of it written to tmp_path (text replacements)."""
    if not replace and name == "standin":
        return engines.load(str(STANDIN))
    text = STANDIN.read_text(encoding="utf-8").replace('SPEC_NAME = "standin"', f'SPEC_NAME = "{name}"')
    for old, new in replace.items():
        assert old in text
        text = text.replace(old, new)
    text = text.replace(
        'DATA = pathlib.Path(__file__).resolve().parent.parent / "rulespec"',
        f"DATA = pathlib.Path({str(ROOT / 'rulespec')!r})",
    )
    path = tmp_path / f"{name}.py"
    path.write_text(text, encoding="utf-8")
    return engines.load(str(path))


def run_games(engine_list, **kw):
    kw.setdefault("players", 2)
    kw.setdefault("games", 12)
    kw.setdefault("bots", ["greedy", "random"])
    return sim.simulate(engine_list, **kw)


def run_app(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    """`splendor-rules ARGS` run in this process (click's CliRunner) from the project's root, and
    reported as `subprocess.run` reports a child: for the many small runs that check one message
    (a new interpreter costs a second or more of imports each). An exception that escaped the
    command is written to stderr with its traceback, as a child would print it."""
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        result = invoke(list(args), stdin, None)
    finally:
        os.chdir(cwd)
    stderr = result.stderr + (result.exception or "")
    return subprocess.CompletedProcess(["splendor-rules", *args], result.exit_code, result.stdout, stderr)
