"""Finding a spec: the file a name (`official`, `target-12`) or a path in `extends` stands for.

Used by the overlay (a variant's base) and by every tool that takes a spec on its command line or
through its API. A name is looked up in the variant's folder, then the project's rulespec/ and
variants/; a path ending in .yaml is relative to the variant's folder and never absolute, so a
shared variant cannot reach files outside the folders it is shared with.

Codes: E301 a spec that is not found (with the names nearby), E309 an `extends` that is neither a
name nor a relative path ending in .yaml.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import rulespec

from ..diagnostics import CompileError, Diagnostic, Span, did_you_mean
from . import source
from .source import Document, Node, ScalarNode

RULESPEC_DIR = Path(rulespec.__file__).resolve().parent
VARIANTS_DIR = Path(__file__).resolve().parents[2] / "variants"
_NAME = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.-]*$")


def search_path(name: str, folder: str) -> list[Path]:
    """Where a base named `name` may be, in order: the variant's folder, then the project's."""
    candidates = [Path(folder or ".") / f"{name}.yaml", RULESPEC_DIR / f"{name}.yaml", VARIANTS_DIR / f"{name}.yaml"]
    unique: dict[str, Path] = {}
    for c in candidates:
        unique.setdefault(os.path.realpath(c), c)
    return list(unique.values())


def find_base(extends: Node, doc: Document) -> str:
    """The path of the base that `extends` names; E301/E309 when there is none."""
    if not isinstance(extends, ScalarNode) or not isinstance(extends.value, str) or not extends.value.strip():
        raise CompileError(
            [
                Diagnostic(
                    "E309",
                    "'extends' names the base spec: a name such as 'official' or a path ending in .yaml",
                    extends.span,
                )
            ]
        )
    return locate(extends.value.strip(), os.path.dirname(doc.path), extends.span, doc.path)


def locate(name: str, folder: str, span: Span | None = None, variant: str = "", what: str = "base spec") -> str:
    """The file of the base `name` (a spec name, or a path ending in .yaml relative to `folder`)."""
    if name.endswith(".yaml"):
        if os.path.isabs(name) and variant:
            raise CompileError(
                [
                    Diagnostic(
                        "E309",
                        f"'extends' takes a path relative to the variant's folder, not an absolute path: '{name}'",
                        span,
                        (
                            "a shared variant must not reach files outside the folders it is shared with; "
                            "name the base (official) or give its path from the variant's folder",
                        ),
                    )
                ]
            )
        path = os.path.normpath(os.path.join(folder, name))
        if not os.path.isfile(path):
            raise CompileError(
                [
                    Diagnostic(
                        "E301",
                        f"{what} not found: {source.display_path(path)}",
                        span,
                        (f"a path in 'extends' is relative to {variant}" if variant else "",),
                    )
                ]
            )
        return path
    if not _NAME.fullmatch(name) or "/" in name:
        raise CompileError([Diagnostic("E309", f"'{name}' is neither a spec name nor a path ending in .yaml", span)])
    candidates = search_path(name, folder)
    for c in candidates:
        if c.is_file():
            return str(c)
    known = sorted({p.stem for c in candidates for p in c.parent.glob("*.yaml") if p.stem != "index"})
    raise CompileError(
        [
            Diagnostic(
                "E301",
                f"{what} '{name}' not found{did_you_mean(name, known)}",
                span,
                ("looked for " + ", ".join(source.display_path(str(c)) for c in candidates),),
            )
        ]
    )


def find_spec(name: str) -> str:
    """The file of a spec named on a command line or to an API (`official`, `target-12`).

    Looked up like a base in `extends` from the current folder, then from ./variants (where
    `splendor-rules new` writes): that folder, then the project's rulespec/ and variants/.
    Raises the first lookup's E301 (with the names nearby) when there is none.
    """
    try:
        return locate(name, ".", what="spec")
    except CompileError as first:
        if os.path.isdir("variants"):
            try:
                return locate(name, "variants", what="spec")
            except CompileError:
                pass
        raise first
