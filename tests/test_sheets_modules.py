"""The sheets as packages of small modules (issue 27; their sizes are gated with every package's
by tests/test_sizes_of_code.py): the content is one module per section of the sheet and the
phrases one module per family of nodes; their functions take the Builder or the Phraser as `self`
and the class binds them as its methods. A function written for a class and left unbound would be
dead text that reads as a rule, so each public one must be bound, and bound to itself.
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

from compiler.sheets.content import Builder
from compiler.sheets.phrases import Phraser

SHEETS = Path(__file__).resolve().parent.parent / "compiler" / "sheets"


def _methods_written_for(package: str, cls: type) -> list[tuple[str, str]]:
    """(module, function) of each module-level function of `package` whose first parameter is
    `self` annotated with `cls`'s name."""
    found = []
    for path in sorted((SHEETS / package).glob("*.py")):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.FunctionDef) and node.args.args:
                first = node.args.args[0]
                if (
                    first.arg == "self"
                    and isinstance(first.annotation, ast.Name)
                    and first.annotation.id == cls.__name__
                ):
                    found.append((path.stem, node.name))
    return found


def test_the_sheets_content_and_phrases_are_packages():
    assert not (SHEETS / "content.py").exists() and not (SHEETS / "phrases.py").exists()
    assert (SHEETS / "content" / "__init__.py").exists() and (SHEETS / "phrases" / "__init__.py").exists()


@pytest.mark.parametrize("package, cls", [("content", Builder), ("phrases", Phraser)])
def test_every_method_of_a_section_or_family_is_bound(package, cls):
    written = _methods_written_for(package, cls)
    assert len(written) > 20
    unbound = [
        f"{module}.{name}"
        for module, name in written
        if not name.startswith("_")
        and getattr(cls, name, None)
        is not getattr(importlib.import_module(f"compiler.sheets.{package}.{module}"), name)
    ]
    assert not unbound, unbound
