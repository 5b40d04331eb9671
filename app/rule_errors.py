"""A RuleError met in a game (`simulate`, `play`), reported as the spec error it is (E535).

A generated engine raises RuleError where the spec made a move legal whose effect cannot
be carried out (`take(gold, 2)` with one gold token left): a fault of the spec, not of
splendor-rules, so the commands report it as they report a spec error (exit status 1),
at the effect, with its source line and a caret, and the game that met it.

The engine's RuleError carries the effect as written and its spec line as a field of its own,
`located` (``compiler.lower.effect_located`` writes it; imported here to make the same key from
each effect of the spec's rule model): the effect whose key is equal to it gives its full span,
never a reading of the English message. An effect the spec no longer has there (an engine module
older than its spec) is reported with the engine's words alone.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass

from compiler.diagnostics import CompileError, Diagnostic, SourceMap
from compiler.front.expr import Effect, unparse, walk
from compiler.front.locate import find_spec
from compiler.lower import effect_located as located
from compiler.model import Rules
from compiler.pipeline import load_rules
from playtest.engines import rule_error_parts

CODE = "E535"


@dataclass(frozen=True)
class Fault:
    """A RuleError as the commands have it: its `located` field (None: not about an effect, or an
    engine's error without fields), what went wrong without it, and its whole message."""

    located: str | None
    said: str
    message: str

    @classmethod
    def of(cls, error: BaseException) -> Fault:
        """The Fault of a RuleError met in this process (`play`)."""
        located_field, said = rule_error_parts(error)
        return cls(located_field, said, str(error))


def spec_of(label: str, spec_path: str | None) -> str | None:
    """The spec file of an engine: the spec `label` names (what the user gave: a spec file or
    a spec name), else the engine's SPEC_PATH when that file is here; None for neither."""
    if label.endswith((".yaml", ".yml")):
        return label if os.path.isfile(label) else None
    if "/" not in label and os.sep not in label and "." not in label:
        try:
            return find_spec(label)
        except CompileError:
            pass
    return spec_path if spec_path and spec_path.endswith((".yaml", ".yml")) and os.path.isfile(spec_path) else None


def effects(rules: Rules) -> Iterator[Effect]:
    """Every effect of every action and step of `rules` (inside `for` and `if` too)."""
    for decision in (*rules.actions, *rules.steps):
        for stmt in decision.effects:
            yield from (node for node in walk(stmt) if isinstance(node, Effect))


def find_effect(located_field: str | None, rules: Rules) -> Effect | None:
    """The effect of `rules` whose text and spec line are a RuleError's `located` field, or None."""
    if located_field is None:
        return None
    for effect in effects(rules):
        if located(effect, effect.name) == located_field:
            return effect
    return None


def rule_error(fault: Fault, spec: str | None, sources: SourceMap, game: str) -> Diagnostic:
    """E535 for the RuleError `fault` that `game` ("game 3 of simulate, seed 42") met, at the
    effect it names in the spec at `spec` (its text is added to `sources` for the caret)."""
    rules = None
    if spec is not None:
        try:
            rules = load_rules(spec, sources)
        except CompileError:
            rules = None  # the spec has changed into one with errors: the engine's words alone
    effect = find_effect(fault.located, rules) if rules is not None else None
    notes = (
        "the spec made this move legal and its effect impossible; `check -W` warns of the tokens a "
        "condition does not ensure (E512)",
    )
    if effect is None:
        return Diagnostic(CODE, f"{game} stopped: {fault.message}", None, notes)
    return Diagnostic(CODE, f"{unparse(effect)} cannot be carried out in {game}: {fault.said}", effect.span, notes)
