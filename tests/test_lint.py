"""The project's own code passes ruff, with the rules configured in pyproject.toml."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_ruff_finds_nothing():
    """Bug-prone patterns (bugbear) and pyflakes' findings fail the suite, not only a CI step; the
    generated engines too (no unused name: the lowering's liveness pass prunes them)."""
    done = subprocess.run([sys.executable, "-m", "ruff", "check", "compiler", "playtest", "tests", "bench", "generated"],
                          cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
