"""The driver: runs the passes in order and returns what a command needs.

source.load -> schema.validate -> overlay.resolve -> check.build. Every pass reports
through :class:`~compiler.diagnostics.CompileError`; this module adds nothing but the
order. It never prints.
"""
from __future__ import annotations

import os

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
    return [OFFICIAL] + index_entries(VARIANT_INDEX, sources)


def index_entries(path: str, sources: SourceMap | None = None) -> list[str]:
    """The variant files a variant index lists (`variants: [NAME, ...]`), beside the index."""
    document = source.load(path, sources)
    names = document.root.get("variants") if isinstance(document.root, MapNode) else None
    if not isinstance(names, SeqNode):
        span = document.root.span if document.root is not None else None
        raise CompileError([Diagnostic("E114", "the variant index needs a list 'variants' of variant names", span)])
    folder = os.path.dirname(path)
    paths = []
    for item in names.items:
        if not isinstance(item, ScalarNode) or not isinstance(item.value, str):
            raise CompileError([Diagnostic("E114", "a variant is listed by its name", item.span)])
        paths.append(os.path.join(folder, f"{item.value}.yaml") if folder else f"{item.value}.yaml")
    return paths


def is_variant_index(path: str, sources: SourceMap | None = None) -> bool:
    """Whether `path` is a variant index (variants/index.yaml: a list `variants`, no `spec`)
    rather than a spec; only a file named index.yaml is read to tell."""
    if os.path.basename(path) != "index.yaml" or not os.path.isfile(path):
        return False
    try:
        root = source.load(path, sources).root
    except CompileError:
        return False  # reported as the spec it then is taken for
    return isinstance(root, MapNode) and root.get("variants") is not None and root.get("spec") is None
