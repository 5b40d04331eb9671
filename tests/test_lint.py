"""The project's own code passes ruff and mypy, with the settings configured in pyproject.toml."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_ruff_finds_nothing():
    """Bug-prone patterns (bugbear) and pyflakes' findings fail the suite, not only a CI step; the
    generated engines too (no unused name: the lowering's liveness pass prunes them)."""
    done = subprocess.run([sys.executable, "-m", "ruff", "check",
                           "app", "compiler", "playtest", "web", "tests", "bench", "generated"],
                          cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_mypy_finds_nothing():
    """compiler/, playtest/ and web/ type-check (the files and the untyped third-party modules are
    named in pyproject.toml's [tool.mypy]); a wrong type fails the suite like a failing test."""
    done = subprocess.run([sys.executable, "-m", "mypy", "--no-incremental", "--no-error-summary"],
                          cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
