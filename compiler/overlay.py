"""Pass 2b, overlay: a variant file resolved onto its base (placeholder until the variant issue).

Takes a loaded, schema-valid :class:`~compiler.source.Document`; returns a
:class:`Resolved` tree in which every node still carries the span of the file that
defined it. A spec that extends nothing resolves to itself.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass

from .diagnostics import CompileError, Diagnostic, SourceMap
from .model import Change, SpecFile
from .source import Document, MapNode


@dataclass(frozen=True)
class Resolved:
    root: MapNode
    source: SpecFile
    bases: tuple[SpecFile, ...]
    changes: tuple[Change, ...]


def spec_file(doc: Document) -> SpecFile:
    name = doc.root.get("name").value if isinstance(doc.root, MapNode) and doc.root.get("name") else doc.path
    return SpecFile(str(name), doc.path, hashlib.sha256(doc.text.encode("utf-8")).hexdigest())


def resolve(doc: Document, sources: SourceMap | None = None) -> Resolved:
    assert isinstance(doc.root, MapNode)
    extends = doc.root.get("extends")
    if extends is not None:
        raise CompileError([Diagnostic("E301", "variants ('extends') are not supported yet", extends.span)])
    return Resolved(doc.root, spec_file(doc), (), ())
