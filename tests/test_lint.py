"""The project's own code passes ruff and mypy, with the settings configured in pyproject.toml."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_ruff_finds_nothing():
    """Bug-prone patterns (bugbear) and pyflakes' findings fail the suite, not only a CI step; the
    generated engines too (no unused name: the lowering's liveness pass prunes them)."""
    done = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "app", "compiler", "playtest", "web", "tests", "bench", "generated"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_hand_written_code_is_as_ruff_formats_it():
    """Every hand-written module is laid out by `ruff format` (pyproject.toml's [tool.ruff]), as the
    engines are by the compiler: a layout nobody argues about, and diffs that show only changes."""
    done = subprocess.run(
        [sys.executable, "-m", "ruff", "format", "--check", "app", "compiler", "playtest", "web", "tests", "bench"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, (
        "run `ruff format app compiler playtest web tests bench`:\n" + done.stdout + done.stderr
    )


def test_mypy_finds_nothing():
    """compiler/, playtest/ and web/ type-check (the files and the untyped third-party modules are
    named in pyproject.toml's [tool.mypy]); a wrong type fails the suite like a failing test."""
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--no-incremental", "--no-error-summary"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr


# The strict ratchet. New code is written to `mypy --strict` (these modules have no strict error,
# and pyproject.toml holds them to the strict flags for every `mypy` run); the rest has the
# counts below, which may only fall: a change that adds a strict error fails, and one that
# removes some must lower its package's count here, so that it stays down.
STRICT_MODULES = ("compiler/language/", "web/routes/")
STRICT_COUNTS = {"app": 32, "compiler": 833, "playtest": 262, "web": 74}


def strict_errors() -> list[str]:
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--no-incremental", "--strict", "--no-error-summary"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    return [line for line in done.stdout.splitlines() if ": error:" in line]


@pytest.mark.slow  # a second whole mypy run (about 25 s): the ratchet, like mypy itself, is the whole suite's
def test_mypy_strict_errors_only_fall():
    errors = strict_errors()
    in_strict = [line for line in errors if line.startswith(STRICT_MODULES)]
    assert not in_strict, "modules written strict have strict errors:\n" + "\n".join(in_strict)
    counts = {package: sum(line.startswith(package + "/") for line in errors) for package in STRICT_COUNTS}
    risen = {p: (n, STRICT_COUNTS[p]) for p, n in counts.items() if n > STRICT_COUNTS[p]}
    assert not risen, f"strict errors rose (now, allowed): {risen}; `mypy --strict` shows them"
    fallen = {p: n for p, n in counts.items() if n < STRICT_COUNTS[p]}
    assert not fallen, f"strict errors fell: lower STRICT_COUNTS in tests/test_lint.py to {fallen}"
