"""The size gate: every module of app/, compiler/ (every stage, the runtime included), playtest/
and web/ stays within MAX_MODULE_LINES lines and every function within MAX_FUNCTION_LINES
(issue 27, item 5: a 2,000-line module is two passes sharing a file, an 80-line function two
steps sharing a name).

What exceeds a limit today is listed in ALLOWLIST with its size, and the list may only shrink:
a module or function that grows past its entry fails, and so does an entry that is no longer
needed or that lists more than the code now holds, so that a split is recorded where it is made.
(This is the code's size; tests/test_sizes.py is about the sizes of the engines it compiles.)
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("app", "compiler", "playtest", "web")
MAX_MODULE_LINES = 600
MAX_FUNCTION_LINES = 80

# "path" (a module's lines) or "path::Class.function" (a function's lines, from its `def` to its
# last line; a nested function is named inside its own: "create_app.home"): the size measured
# when it was listed. Others are splitting these (issue 27, item 5); lower an entry as it shrinks.
ALLOWLIST: dict[str, int] = {}


def _functions(node: ast.AST, prefix: str = ""):
    """(qualified name, lines) of every function under `node`: methods as Class.name, nested
    functions inside their own (outer.inner)."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
            name = prefix + child.name
            yield name, child.end_lineno - child.lineno + 1
            yield from _functions(child, name + ".")
        elif isinstance(child, ast.ClassDef):
            yield from _functions(child, prefix + child.name + ".")
        else:
            yield from _functions(child, prefix)


@functools.cache
def measure() -> dict[str, int]:
    """Every module and function over its limit, by its ALLOWLIST key, with its size."""
    found: dict[str, int] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            key = path.relative_to(ROOT).as_posix()
            text = path.read_text(encoding="utf-8")
            if text.count("\n") > MAX_MODULE_LINES:
                found[key] = text.count("\n")
            for name, lines in _functions(ast.parse(text, key)):
                if lines > MAX_FUNCTION_LINES:
                    found[f"{key}::{name}"] = lines
    return found


def test_every_module_and_function_is_small_or_listed_at_its_size():
    too_large = [
        f"{key}: {size} lines (at most {MAX_FUNCTION_LINES if '::' in key else MAX_MODULE_LINES}"
        + (f", or the {ALLOWLIST[key]} it is listed with)" if key in ALLOWLIST else ")")
        for key, size in sorted(measure().items())
        if size > ALLOWLIST.get(key, 0)
    ]
    assert not too_large, "split these (modules <= 600 lines, functions <= 80):\n" + "\n".join(too_large)


def test_the_allowlist_only_shrinks():
    """An entry whose module or function is now within its limit (or gone) is removed; one that
    lists more than the code holds is lowered to what it holds."""
    stale = []
    for key, listed in sorted(ALLOWLIST.items()):
        size = measure().get(key)
        if size is None:
            stale.append(f"{key}: now within its limit (or gone): remove it from ALLOWLIST")
        elif size < listed:
            stale.append(f"{key}: now {size} lines, listed {listed}: lower its ALLOWLIST entry to {size}")
    assert not stale, "\n".join(stale)


def test_the_gate_measures_every_package():
    assert {key.split("/")[0] for key in ALLOWLIST} <= set(PACKAGES)
    measured = {path.relative_to(ROOT).parts[0] for package in PACKAGES for path in (ROOT / package).rglob("*.py")}
    assert measured == set(PACKAGES)
    assert (ROOT / "compiler" / "emit" / "runtime").is_dir()  # the runtime is measured like every stage
