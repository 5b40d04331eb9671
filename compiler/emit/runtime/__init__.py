"""The runtime of the generated engines: the part of every engine that no spec changes.

Each module here is ordinary Python, imported by its unit tests (tests/test_runtime.py),
checked by the linter and by mypy (every function annotated, bodies checked), and its text is
pasted into every engine whole by the emitter (compiler/emit/engine.py), so that an engine
stays one standalone, stdlib-only file that imports nothing of the compiler:

* :mod:`.aliases`: the types the annotations name (a saved state, a problem of one);
* :mod:`.meta`: the types of the metadata tables (ZONES, KINDS, VARIABLES, DECISION_INFO) and
  the zone shapes;
* :mod:`.errors`: the exceptions, and how messages show a value;
* :mod:`.face_up`: the face-up slots' costs (Game.face_up_costs, an empty slot's cost);
* :mod:`.explain`: why a move is refused (the reason Game.apply gives for an illegal action);
* :mod:`.game`: the Game class (state, legal actions, apply, playout, to_json);
* :mod:`.deal`: new_game, the deal of a new game;
* :mod:`.problems`: every problem of a saved state, located;
* :mod:`.state`: from_json (a state refused with its problems, or loaded) and replay;
* :mod:`.notation`: action ids as text and text as ids;
* :mod:`.variables`: the spec's declared state in a saved game (only in the engine of a spec that has some);
* :mod:`.zones`: the spec's own zones (only in the engine of a spec that has some);
* :mod:`.queue`: the queued steps waiting, in a saved game (only in the engine of a spec that has queued steps).

What a module reads from the per-spec part of an engine (tables, the lowered rules, and the
hooks: the functions by which the runtime runs what a spec adds, such as its end-of-turn steps)
it imports from :mod:`.spec`, the spec interface, and what it reads from another runtime module
it imports from that module; in an engine all of these are globals of the one file.

The paste rule (:func:`engine_text`), read from the module's syntax tree: a module's header is
its docstring and the import statements that follow it (an ``if TYPE_CHECKING:`` block of
imports among them, for names only annotations read); everything after the header is pasted,
as it is written. Nothing cuts a module: no function of the runtime is pasted in parts, and
where a spec adds code to a runtime function, that function calls a hook. (Game.apply's two
hooks are inlined by a tree transformation, compiler/emit/inline.py, measured to be worth it.)
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

# The runtime modules, in the order their text appears in an engine.
MODULES = ("aliases", "meta", "errors", "face_up", "explain", "game", "deal", "problems", "state", "notation")
# The runtime modules only some engines hold, after the others: `variables` in the engine of a spec
# that declares state, `zones` in that of a spec with zones of its own, `queue` in that of a spec with
# queued steps (so the engines of the other specs are what they were without them).
SPEC_MODULES = ("variables", "zones", "queue")


def _is_header(node: ast.stmt) -> bool:
    """An import, or an `if TYPE_CHECKING:` block of imports (names for annotations only)."""
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return True
    return (
        isinstance(node, ast.If)
        and isinstance(node.test, ast.Name)
        and node.test.id == "TYPE_CHECKING"
        and not node.orelse
        and all(isinstance(n, (ast.Import, ast.ImportFrom)) for n in node.body)
    )


def header_end(tree: ast.Module) -> int:
    """The number of the last line of a module's header (its docstring and imports); 0: none."""
    end = 0
    for k, node in enumerate(tree.body):
        docstring = (
            k == 0
            and isinstance(node, ast.Expr)
            and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str)
        )
        if not (docstring or _is_header(node)):
            break
        end = node.end_lineno or node.lineno
    return end


def split_header(text: str) -> tuple[str, str]:
    """(header, body) of a runtime module's text: the body is every line after the header (see the
    rule above), without the blank lines that start or end it."""
    lines = text.split("\n")
    end = header_end(ast.parse(text))
    return "\n".join(lines[:end]), "\n".join(lines[end:]).strip("\n")


def header(tree: ast.Module) -> list[ast.stmt]:
    """The statements of a module's header: the docstring and the imports."""
    end = header_end(tree)
    return [node for node in tree.body if (node.end_lineno or node.lineno) <= end]


@functools.cache
def module_text(module: str) -> str:
    """The text of runtime module `module` (a name of MODULES or SPEC_MODULES), as its file holds it."""
    if module not in MODULES + SPEC_MODULES:
        raise ValueError(f"not a runtime module: {module!r}")
    return (Path(__file__).parent / f"{module}.py").read_text(encoding="utf-8")


@functools.cache
def engine_text(module: str) -> str:
    """The text of runtime module `module` that an engine holds: all of it after its header (read
    and split once per process: every compile pastes the same text)."""
    return split_header(module_text(module))[1]
