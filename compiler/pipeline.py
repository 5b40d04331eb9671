"""The driver: runs the passes in order and returns what a command needs.

source.load -> schema.validate -> overlay.resolve -> check.build. Every pass reports
through :class:`~compiler.diagnostics.CompileError`; this module adds nothing but the
order. It never prints.
"""
from __future__ import annotations

from . import check, overlay, schema, source
from .diagnostics import CompileError, Diagnostic, SourceMap
from .model import Rules
from .source import MapNode, ScalarNode, SeqNode

OFFICIAL = "rulespec/official.yaml"
VARIANT_INDEX = "variants/index.yaml"


def load_rules(path: str, sources: SourceMap | None = None) -> Rules:
    """Compile the spec at `path` (a base spec or a variant) into the rule model."""
    sources = sources if sources is not None else SourceMap()
    document = source.load(path, sources)
    schema.validate(document)
    resolved = overlay.resolve(document, sources)
    return check.build(resolved, sources)


def catalogue(sources: SourceMap | None = None) -> list[str]:
    """The official spec, then every variant listed in variants/index.yaml (paths from the project root)."""
    document = source.load(VARIANT_INDEX, sources)
    names = document.root.get("variants") if isinstance(document.root, MapNode) else None
    if not isinstance(names, SeqNode):
        span = document.root.span if document.root is not None else None
        raise CompileError([Diagnostic("E110", "the variant index needs a list 'variants' of variant names", span)])
    paths = [OFFICIAL]
    for item in names.items:
        if not isinstance(item, ScalarNode) or not isinstance(item.value, str):
            raise CompileError([Diagnostic("E110", "a variant is listed by its name", item.span)])
        paths.append(f"variants/{item.value}.yaml")
    return paths
