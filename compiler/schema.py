"""Pass 2, schema: the loaded document against rulespec/schema.json (placeholder)."""
from __future__ import annotations

from .diagnostics import CompileError, Diagnostic
from .source import Document, MapNode


def validate(document: Document) -> None:
    if not isinstance(document.root, MapNode):
        raise CompileError([Diagnostic("E100", "a spec is a YAML mapping", None)])
