"""The runtime of the generated engines: the part of every engine that no spec changes.

Each module here is ordinary Python, imported by its unit tests (tests/test_runtime.py) and
checked by the linter, and its text is pasted into every engine verbatim by the emitter
(compiler/emit/engine.py), so that an engine stays one standalone, stdlib-only file that
imports nothing of the compiler:

* :mod:`.meta`: the types of the metadata tables (ZONES, KINDS, VARIABLES, DECISION_INFO) and
  the zone shapes;
* :mod:`.errors`: the exceptions, and how messages show a value;
* :mod:`.game`: the Game class (state, legal actions, apply, playout, to_json) and new_game;
* :mod:`.state`: from_json (every problem of a state, located) and replay;
* :mod:`.notation`: action ids as text and text as ids;
* :mod:`.zones`: the spec's own zones (only in the engine of a spec that has some).

What a module reads from the per-spec part of an engine (tables, the lowered rules) it
imports from :mod:`.spec`, the spec interface, and what it reads from another runtime module
it imports from that module; in an engine all of these are globals of the one file.

The rule that cuts a module's text (:func:`engine_parts`): a line whose text, after its
indentation, starts with ``MARKER`` is a marker. What comes before the first marker is the
module's header (its docstring and imports), which is not pasted; the text between markers
is pasted, part by part, where the template (templates/engine.py.j2) places each part. A
module has one part, except :mod:`.game`, whose Game.apply is cut where the spec's
end-of-turn steps and end triggers are written. Markers are not pasted.
"""
from __future__ import annotations

import functools
from pathlib import Path

MARKER = "# ---- engine text"

# The runtime modules, in the order their text appears in an engine.
MODULES = ("meta", "errors", "game", "state", "notation")
# The runtime modules only some engines hold, after the others: `variables` in the engine of a spec
# that declares state, `zones` in that of a spec with zones of its own (so the engines of the other
# specs are what they were without them).
SPEC_MODULES = ("variables", "zones")


def split_parts(text: str) -> tuple[str, ...]:
    """The parts of a runtime module's `text` that go into an engine (see the rule above), each
    without the blank lines that start or end it."""
    parts: list[list[str]] = []
    current: list[str] | None = None  # None: still in the header
    for line in text.split("\n"):
        if line.lstrip().startswith(MARKER):
            current = []
            parts.append(current)
        elif current is not None:
            current.append(line)
    if not parts:
        raise ValueError(f"a runtime module needs a line starting {MARKER!r} to end its header")
    return tuple("\n".join(part).strip("\n") for part in parts)


@functools.cache
def engine_parts(module: str) -> tuple[str, ...]:
    """The parts of runtime module `module` (a name of MODULES, or of SPEC_MODULES) that an engine holds."""
    if module not in MODULES + SPEC_MODULES:
        raise ValueError(f"not a runtime module: {module!r}")
    return split_parts((Path(__file__).parent / f"{module}.py").read_text(encoding="utf-8"))
