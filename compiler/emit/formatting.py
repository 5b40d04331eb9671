"""The engines' layout: ruff's formatter, run on an engine's printed text in memory, before it is
written, hashed or imported.

The printer (compiler/lower/printer.py) writes every line so that it parses to the tree the
lowering built, and breaks long ones inside their brackets; how the whole module is laid out
(where a call is broken, blank lines, quotes) is left to the formatter the project formats its own
code with, so that an engine reads like the hand-written code around it and the linter holds it
to the same line length (120) with no waiver. The formatter only moves whitespace, brackets and
quotes: the engine's syntax tree is the printer's (tests/test_engine_formatting.py checks it on every
catalogue engine).

Generated files are byte-identical on every machine, so the layout is that of one release of
ruff, pinned in pyproject.toml (RUFF_VERSION): another release could lay a line out otherwise, and
is refused with E598 rather than used. Run with ``--isolated``: no configuration file of the
user's changes an engine.
"""

from __future__ import annotations

import functools
import subprocess

from ..lower.printer import LIMIT

RUFF_VERSION = "0.17.6"  # the release pinned in pyproject.toml's dependencies
LINE_LENGTH = LIMIT  # the printer's: it breaks only the lines the formatter would
_ARGS = (
    "format",
    "--isolated",
    "--line-length",
    str(LINE_LENGTH),
    "--target-version",
    "py311",
    "--stdin-filename",
    "engine.py",
    "-",
)
_TIMEOUT = 120  # seconds: a formatter that hangs is reported, never waited on for ever


class LayoutError(Exception):
    """The formatter cannot be run, is another release, or refused the text (E598)."""


@functools.cache
def ruff_binary() -> str:
    """The path of the ruff executable installed with this package, checked to be RUFF_VERSION."""
    try:
        from ruff.__main__ import find_ruff_bin  # type: ignore[import-untyped]  # ruff ships no stubs

        binary = str(find_ruff_bin())
    except (ImportError, FileNotFoundError):
        raise LayoutError(
            f"ruff {RUFF_VERSION} is not installed (pip install 'ruff=={RUFF_VERSION}'): "
            "the engines are laid out by its formatter"
        ) from None
    try:
        found = subprocess.run([binary, "--version"], capture_output=True, text=True, timeout=_TIMEOUT, check=True)
    except (OSError, subprocess.SubprocessError) as err:
        raise LayoutError(f"ruff ({binary}) cannot be run: {err}") from None
    version = found.stdout.split()[-1] if found.stdout.split() else "?"
    if version != RUFF_VERSION:
        raise LayoutError(
            f"the engines are laid out by ruff {RUFF_VERSION}, and ruff {version} is installed "
            f"(pip install 'ruff=={RUFF_VERSION}'): another release may lay them out otherwise"
        )
    return binary


def laid_out(text: str) -> str:
    """`text`, an engine module that parses, as ruff's formatter lays it out."""
    try:
        done = subprocess.run(
            [ruff_binary(), *_ARGS], input=text.encode("utf-8"), capture_output=True, timeout=_TIMEOUT, check=False
        )
    except (OSError, subprocess.SubprocessError) as err:
        raise LayoutError(f"ruff's formatter could not be run: {err}") from None
    if done.returncode != 0:
        said = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise LayoutError(f"ruff's formatter refused the engine: {said[0] if said else 'no reason given'}")
    return done.stdout.decode("utf-8")
