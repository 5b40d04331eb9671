"""The driver: runs the passes in order and returns what a command needs.

source.load -> schema.validate -> overlay.resolve -> check.build. Every pass reports
through :class:`~compiler.diagnostics.CompileError`; this module adds nothing but the
order. It never prints.
"""
from __future__ import annotations

from . import check, overlay, schema, source
from .diagnostics import SourceMap
from .model import Rules


def load_rules(path: str, sources: SourceMap | None = None) -> Rules:
    """Compile the spec at `path` (a base spec or a variant) into the rule model."""
    sources = sources if sources is not None else SourceMap()
    document = source.load(path, sources)
    schema.validate(document)
    resolved = overlay.resolve(document, sources)
    return check.build(resolved, sources)
