"""A RuleError met in a game (`simulate`, `play`), reported as the spec error it is (E535).

A generated engine raises RuleError where the spec made a move legal whose effect cannot
be carried out (`take(gold, 2)` with one gold token left): a fault of the spec, not of
splendor-rules, so the commands report it as they report a spec error (exit status 1),
at the effect, with its source line and a caret, and the game that met it.

The engine's message begins with the effect as written and its spec line, as the lowering
writes it (``compiler.lower.effect_located``, imported here to read it back). This module
finds the effect whose text that
is in the spec's rule model, which gives its full span; an effect the spec no longer has
there (an engine module older than its spec) is reported with the engine's words alone.
"""

from __future__ import annotations

import os

from compiler.diagnostics import CompileError, Diagnostic, SourceMap
from compiler.front.expr import Effect, unparse, walk
from compiler.front.locate import find_spec
from compiler.lower import effect_located as located
from compiler.model import Rules
from compiler.pipeline import load_rules

CODE = "E535"


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


def effects(rules: Rules):
    """Every effect of every action and step of `rules` (inside `for` and `if` too)."""
    for decision in (*rules.actions, *rules.steps):
        for stmt in decision.effects:
            yield from (node for node in walk(stmt) if isinstance(node, Effect))


def find_effect(message: str, rules: Rules) -> tuple[Effect, str] | None:
    """(the effect a RuleError's message names, the rest of the message), or None."""
    for effect in effects(rules):
        head = located(effect, effect.name)
        if message.startswith(head):
            return effect, message[len(head) :].lstrip(": ").strip()
    return None


def rule_error(message: str, spec: str | None, sources: SourceMap, game: str) -> Diagnostic:
    """E535 for the RuleError `message` that `game` ("game 3 of simulate, seed 42") met, at the
    effect it names in the spec at `spec` (its text is added to `sources` for the caret)."""
    rules = None
    if spec is not None:
        try:
            rules = load_rules(spec, sources)
        except CompileError:
            rules = None  # the spec has changed into one with errors: the engine's words alone
    found = find_effect(message, rules) if rules is not None else None
    notes = (
        "the spec made this move legal and its effect impossible; `check -W` warns of the tokens a "
        "condition does not ensure (E512)",
    )
    if found is None:
        return Diagnostic(CODE, f"{game} stopped: {message}", None, notes)
    effect, detail = found
    return Diagnostic(CODE, f"{unparse(effect)} cannot be carried out in {game}: {detail}", effect.span, notes)
