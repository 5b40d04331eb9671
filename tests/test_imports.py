"""The import graph of every package: no cycle, not even through an import inside a function,
and data flowing one way.

Between the packages: compiler <- playtest <- web <- app (the command line). Playtest builds
engines through the compiler's driver (compiler.pipeline); only the application layer (app)
prints or exits, and nothing imports it.

Inside the compiler, the stages of the pipeline in order (STAGES): the base (codes,
diagnostics, safe_text, files), the front end, the model and the language registry, check, the lowering, the sheets,
emit and diff, and the driver. A module imports only modules of its own stage or an earlier
one, so a later pass can never be reached from an earlier one (the lowering once imported the
sheets' phrases inside a function). The runtime (compiler.emit.runtime), whose text is pasted
into every engine, imports only itself.

The graph is read from the sources (ast), so an import in a branch no test runs counts too;
then playtest and the compiler are imported in a fresh interpreter without the command line.
"""

from __future__ import annotations

import ast
import functools
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
PACKAGES = ("compiler", "playtest", "web", "app")
COMMAND_LINE = "app"
# The compiler's stages, earliest first: a module of one may import the same stage or an earlier one.
STAGES = (
    ("compiler", "compiler.codes", "compiler.diagnostics", "compiler.safe_text", "compiler.files"),
    ("compiler.front", "compiler.model", "compiler.language"),
    ("compiler.check",),
    ("compiler.lower",),
    ("compiler.sheets",),
    ("compiler.emit", "compiler.diff", "compiler.native"),
    ("compiler.pipeline",),
)
RUNTIME = "compiler.emit.runtime"


def stage_of(module: str) -> int:
    """The index in STAGES of the longest prefix naming `module`'s stage."""
    best, found = -1, -1
    for index, names in enumerate(STAGES):
        for name in names:
            if (module == name or module.startswith(name + ".")) and len(name) > best:
                best, found = len(name), index
    return found


def module_files() -> dict[str, pathlib.Path]:
    """Every module of the packages, by dotted name (a package by its own name)."""
    found = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


MODULES = module_files()


def _absolute(module: str, node: ast.ImportFrom) -> str:
    """The module an import names, relative imports resolved from `module`."""
    if not node.level:
        return node.module or ""
    is_package = MODULES[module].name == "__init__.py"
    base = module.split(".")[: len(module.split(".")) - node.level + (1 if is_package else 0)]
    return ".".join(base + ([node.module] if node.module else []))


def _with_packages(name: str) -> list[str]:
    """A module and the packages above it, which importing it runs first."""
    parts = name.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts) + 1)]


def imports(module: str) -> list[tuple[str, int, bool]]:
    """(module imported, line, inside a function) for each first-party module `module` imports."""
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    found = []

    def visit(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            nested = in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
            names: list[str] = []
            if isinstance(child, ast.Import):
                names = [alias.name for alias in child.names]
            elif isinstance(child, ast.ImportFrom):
                base = _absolute(module, child)
                names = [f"{base}.{a.name}" if f"{base}.{a.name}" in MODULES else base for a in child.names]
            for name in names:
                for target in _with_packages(name):  # not the packages above `module`: they run already
                    if target in MODULES and target != module and not module.startswith(target + "."):
                        found.append((target, child.lineno, in_function))
            visit(child, nested)

    visit(tree, False)
    return found


@functools.cache
def graph() -> dict[str, list[tuple[str, int, bool]]]:
    """The import graph, read once, when a test first needs it (not when the module is collected:
    every xdist worker collects it, one runs these tests)."""
    return {module: imports(module) for module in MODULES}


def test_the_graph_was_read():
    assert {"compiler.pipeline", "app.cli", "playtest.engines"} <= set(graph())
    assert "compiler.pipeline" in {target for target, _, _ in graph()["playtest.engines"]}
    assert "playtest.engines" in {
        target for module in graph() if module.startswith("app.cli.") for target, _, _ in graph()[module]
    }


def test_no_import_cycle_even_through_functions():
    state: dict[str, str] = {}
    path: list[str] = []

    def visit(module: str) -> None:
        state[module] = "open"
        path.append(module)
        for target, line, _ in graph()[module]:
            if state.get(target) == "open":
                cycle = path[path.index(target) :] + [target]
                raise AssertionError(f"import cycle: {' -> '.join(cycle)} ({MODULES[module].name}:{line})")
            if target not in state:
                visit(target)
        path.pop()
        state[module] = "done"

    for module in sorted(graph()):
        if module not in state:
            visit(module)


def test_the_packages_depend_one_way():
    order = {name: rank for rank, name in enumerate(PACKAGES)}
    wrong = [
        f"{module} imports {target} (line {line})"
        for module, edges in graph().items()
        for target, line, _ in edges
        if order[target.split(".")[0]] > order[module.split(".")[0]]
    ]
    assert not wrong, wrong


def test_every_compiler_module_has_a_stage():
    assert not [module for module in MODULES if module.startswith("compiler") and stage_of(module) < 0]


def test_no_stage_of_the_compiler_imports_a_later_one():
    wrong = [
        f"{module} (stage {stage_of(module)}) imports {target} (stage {stage_of(target)}, line {line})"
        for module, edges in graph().items()
        if module.startswith("compiler")
        for target, line, _ in edges
        if stage_of(target) > stage_of(module)
    ]
    assert not wrong, wrong


def test_the_runtime_imports_only_itself():
    """Its text is pasted into engines that import nothing of the compiler."""
    wrong = [
        f"{module} imports {target} (line {line})"
        for module, edges in graph().items()
        if module.startswith(RUNTIME + ".")
        for target, line, _ in edges
        if not target.startswith(RUNTIME)
    ]
    assert not wrong, wrong


def test_the_command_line_and_playtest_import_their_modules_at_the_top():
    """An import inside a function is how a cycle hid (the command line imported playtest there)."""
    hidden = [
        f"{module} imports {target} in a function (line {line})"
        for module, edges in graph().items()
        if module.startswith(("app", "playtest", "web"))
        for target, line, in_function in edges
        if in_function and not (module.startswith("app") and target.split(".")[0] == "web")
    ]  # web needs the [web] extra
    assert not hidden, hidden


def test_playtest_web_and_the_compiler_import_without_the_command_line():
    """In a fresh interpreter: every module of playtest, web, then the compiler, imports without
    bringing in the application layer (which then imports last, on top of them)."""
    order = [
        name for package in ("playtest", "web", "compiler") for name in sorted(MODULES) if name.split(".")[0] == package
    ]
    script = (
        "import importlib, sys\n"
        "for name in sys.argv[1:]:\n"
        "    importlib.import_module(name)\n"
        "    assert 'app' not in sys.modules, name + ' imports the command line'\n"
        "importlib.import_module('app.cli')\n"
    )
    done = subprocess.run([sys.executable, "-c", script, *order], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]


def test_nothing_imports_the_command_line():
    importers = [
        module
        for module, edges in graph().items()
        for target, _, _ in edges
        if target.startswith("app") and not module.startswith("app")
    ]
    assert not importers, importers


def test_no_test_module_imports_another():
    """What two test modules share lives in tests/helpers/, so each test module stands alone
    (run, moved or deleted on its own, never imported twice under two names)."""
    wrong = []
    for path in sorted((ROOT / "tests").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
                if isinstance(node, ast.ImportFrom)
                else []
            )
            wrong += [
                f"{path.relative_to(ROOT)}:{node.lineno} imports {name}"
                for name in names
                if name.rpartition(".")[2].startswith("test_") or name.rpartition(".")[2] == "conftest"
            ]
    assert not wrong, wrong
