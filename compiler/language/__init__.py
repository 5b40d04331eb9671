"""The language registry: every construct of the spec language declared once.

In the manner of sqlglot's one class per expression, each effect (:mod:`.effects`), built-in
function and aggregate (:mod:`.functions`), choice domain (:mod:`.domains`), zone shape
(:mod:`.shapes`) and column type (:mod:`.columns`) is one entry, with its name, its typed
signature (in the types of :mod:`.types`), its flow facts, its check hook, its lowering, its
runtime helper and its phrase key. The checker, the lowering, the sheets, `diff` and the tests
of rulespec/README.md's tables iterate these tables instead of keeping lists of their own.

This stage sits with the front end and the model: it imports nothing of the compiler but itself,
so every later pass may read it.
"""

from __future__ import annotations

from .columns import COLUMN_TYPES, ColumnDecl, ColumnType
from .domains import DOMAINS, DomainDecl
from .effects import EFFECTS, EffectDecl, Family, Role
from .functions import AGGREGATES, FUNCTIONS, AggregateDecl, FunctionDecl
from .shapes import SHAPES, Shape, ShapeDecl

__all__ = [
    "AGGREGATES",
    "COLUMN_TYPES",
    "DOMAINS",
    "EFFECTS",
    "FUNCTIONS",
    "SHAPES",
    "AggregateDecl",
    "ColumnDecl",
    "ColumnType",
    "DomainDecl",
    "EffectDecl",
    "Family",
    "FunctionDecl",
    "Role",
    "Shape",
    "ShapeDecl",
]
