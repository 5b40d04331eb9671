"""The built-in functions and aggregates of the expression language, each declared once.

A function is called with arguments (`min(a, b)`, `size(picked)`); an aggregate runs a body over a
collection (`sum(c.points for c in market[1])`). `min` and `max` are both. The checker
(compiler/check/types.py) types calls and aggregates from these declarations, the sheets phrase
them by their phrase keys (compiler/sheets/lang/*.yaml), and rulespec/README.md's tables list
them (tests/test_language.py checks both ways).
"""

from __future__ import annotations

from dataclasses import dataclass

from .types import BOOL, ERROR, INT, AnyType, SetOf


@dataclass(frozen=True, slots=True)
class FunctionDecl:
    """A function: its arguments in words (E408's), its result, the Python it lowers to, its phrase key."""

    name: str
    takes: str  # in words: "numbers" (two or more), "number" (one), "collection" (one)
    params: tuple[AnyType, ...]  # the argument types (a collection of anything: SetOf(ERROR))
    variadic: bool  # its one parameter repeats: two or more arguments of that type
    result: AnyType
    runtime: str  # the Python builtin the engine calls
    phrase: str
    signature: str  # as rulespec/README.md heads its row


@dataclass(frozen=True, slots=True)
class AggregateDecl:
    """An aggregate: the type of its body, its result, its phrase key, the Python builtin it lowers
    to over a generator (`count` is a `sum` of ones; the lowering's passes read it as pure)."""

    name: str
    body: AnyType
    result: AnyType
    phrase: str
    runtime: str


FUNCTIONS: dict[str, FunctionDecl] = {
    d.name: d
    for d in (
        FunctionDecl("min", "numbers", (INT,), True, INT, "min", "fn.min", "min(a, b, ...)"),
        FunctionDecl("max", "numbers", (INT,), True, INT, "max", "fn.max", "max(a, b, ...)"),
        FunctionDecl("abs", "number", (INT,), False, INT, "abs", "fn.abs", "abs(n)"),
        FunctionDecl("size", "collection", (SetOf(ERROR),), False, INT, "len", "fn.size", "size(collection)"),
    )
}

AGGREGATES: dict[str, AggregateDecl] = {
    d.name: d
    for d in (
        AggregateDecl("sum", INT, INT, "agg.sum", "sum"),
        AggregateDecl("count", BOOL, INT, "agg.count", "sum"),
        AggregateDecl("all", BOOL, BOOL, "agg.all", "all"),
        AggregateDecl("any", BOOL, BOOL, "agg.any", "any"),
        AggregateDecl("min", INT, INT, "agg.min", "min"),
        AggregateDecl("max", INT, INT, "agg.max", "max"),
    )
}
