"""One rule that differs between two rule models: what :func:`compiler.diff.compare` returns and
:mod:`compiler.diff.words` phrases (apart from the comparisons, which several modules make)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..diagnostics import Span
from ..model import Text


@dataclass(frozen=True)
class Difference:
    """One rule that differs: `kind` is "changed", "added", "removed" or "order"."""

    kind: str
    path: str  # dotted, as in model.Change ("actions.take_pair.condition")
    subject: tuple[Any, ...]  # what the rule belongs to: (kind, name, title Text | None, owner...)
    field: str | None  # the field that changed ("condition"), None for added/removed/order
    # changed: a (kind of value, value) pair; order: the names in order; added/removed: None
    before: Any = None
    after: Any = None
    before_at: Span | None = None
    after_at: Span | None = None
    note: Text | None = None
    details: tuple[tuple[str, object, str], ...] = ()  # added: (field, value, kind of value), in order
