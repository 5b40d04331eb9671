"""The import graph of compiler/ and playtest/: no cycle, not even through an import inside a
function, and one way between the packages: playtest builds engines through the compiler's
driver (compiler.pipeline); only the command line (compiler.cli, compiler.__main__) uses
playtest, and playtest never imports the command line.

The graph is read from the sources (ast), so an import in a branch no test runs counts too;
then playtest and the compiler are imported in a fresh interpreter without the command line.
"""
from __future__ import annotations

import ast
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
PACKAGES = ("compiler", "playtest")
COMMAND_LINE = {"compiler.cli", "compiler.__main__"}


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


GRAPH = {module: imports(module) for module in MODULES}


def test_the_graph_was_read():
    assert {"compiler.pipeline", "compiler.cli", "playtest.engines"} <= set(GRAPH)
    assert "compiler.pipeline" in {target for target, _, _ in GRAPH["playtest.engines"]}
    assert "playtest.engines" in {target for target, _, _ in GRAPH["compiler.cli"]}


def test_no_import_cycle_even_through_functions():
    state: dict[str, str] = {}
    path: list[str] = []

    def visit(module: str) -> None:
        state[module] = "open"
        path.append(module)
        for target, line, _ in GRAPH[module]:
            if state.get(target) == "open":
                cycle = path[path.index(target):] + [target]
                raise AssertionError(f"import cycle: {' -> '.join(cycle)} ({MODULES[module].name}:{line})")
            if target not in state:
                visit(target)
        path.pop()
        state[module] = "done"

    for module in sorted(GRAPH):
        if module not in state:
            visit(module)


def test_the_packages_depend_one_way():
    wrong = [f"{module} imports {target} (line {line})" for module, edges in GRAPH.items() for target, line, _ in edges
             if (module.startswith("compiler") and module not in COMMAND_LINE and target.startswith("playtest"))
             or (module.startswith("playtest") and target in COMMAND_LINE)]
    assert not wrong, wrong


def test_the_command_line_and_playtest_import_their_modules_at_the_top():
    """An import inside a function is how a cycle hid (compiler.cli imported playtest there)."""
    hidden = [f"{module} imports {target} in a function (line {line})" for module, edges in GRAPH.items()
              if module in COMMAND_LINE or module.startswith("playtest")
              for target, line, in_function in edges if in_function]
    assert not hidden, hidden


def test_playtest_and_the_compiler_import_without_the_command_line():
    """In a fresh interpreter: every module of playtest, then of the compiler, imports without
    bringing in compiler.cli (which then imports last, on top of them)."""
    order = sorted(name for name in MODULES if name.startswith("playtest")) + sorted(
        name for name in MODULES if name.startswith("compiler") and name not in COMMAND_LINE)
    script = ("import importlib, sys\n"
              "for name in sys.argv[1:]:\n"
              "    importlib.import_module(name)\n"
              "    assert 'compiler.cli' not in sys.modules, name + ' imports the command line'\n"
              "importlib.import_module('compiler.cli')\n")
    done = subprocess.run([sys.executable, "-c", script, *order], cwd=ROOT, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]


def test_nothing_imports_the_command_line():
    importers = [module for module, edges in GRAPH.items() for target, _, _ in edges
                 if target == "compiler.cli" and module != "compiler.__main__"]
    assert not importers, importers
