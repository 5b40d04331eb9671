"""The driver: runs the passes in order and returns what a command needs.

One chain: source.load -> schema.validate -> overlay.resolve (:func:`resolve_spec`) ->
check.build (:func:`load_rules`, the rule model). Then

- :func:`check_spec`, what `splendor-rules check` runs: the rule model and the analyses of
  the whole spec (the sheets' language tables and texts, effects that may move tokens a
  player lacks, a game that may never end); it refuses every error and returns the warnings;
- :func:`compile_spec`, what `splendor-rules compile` (and playtest, for a spec) runs: the
  rule model, lowered and emitted as an engine module's source;
- :func:`worked_game`, what the sheets' worked example tells: a game played by that engine.

Every pass reports through :class:`~compiler.diagnostics.CompileError`; this module adds
nothing but the order. It never prints. The CLI, the playtest package and the tests call
these functions rather than the passes one by one.
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
import sys
import types
from dataclasses import dataclass

from .check import texts
from .check.bounds import endless
from .check.build import build
from .check.flow import emptied_loops, overdraws
from .check.queue import unqueued_steps
from .check.reach import unreachable
from .check.sizes import action_sizes
from .check.variables import unset_turn_variables
from .diagnostics import CompileError, Diagnostic, SourceMap, sorted_diagnostics
from .emit import engine as emit_engine
from .front import overlay, schema, source
from .front.overlay import Resolved
from .front.partial import leave_out
from .front.reading import read_input
from .front.source import Document, MapNode, ScalarNode, SeqNode
from .model import Rules
from .sheets.lint import lint
from .sheets.worked_game import WorkedGame
from .sheets.worked_game import find as find_worked_game

OFFICIAL = "rulespec/official.yaml"
VARIANT_INDEX = "variants/index.yaml"


@dataclass(frozen=True)
class Checked:
    """A spec `check` passes: its rule model, and the warnings `check -W` shows."""

    rules: Rules
    warnings: tuple[Diagnostic, ...]


@dataclass(frozen=True)
class CompiledEngine:
    """A spec compiled: its rule model and the source text of its engine module."""

    rules: Rules
    text: str

    @property
    def file_name(self) -> str:
        """The engine's file name (NAME.py), as `compile` writes it."""
        return emit_engine.module_name(self.rules)


def resolve_spec(path: str, sources: SourceMap | None = None) -> Resolved:
    """The spec at `path` read, validated against the schema, and resolved onto its bases;
    CompileError with every error of these passes."""
    resolved, found = resolve_partly(path, sources)
    if found or resolved is None:
        raise CompileError(sorted_diagnostics(found))
    return resolved


def resolve_partly(path: str, sources: SourceMap | None = None) -> tuple[Resolved | None, list[Diagnostic]]:
    """The spec at `path` resolved as far as it can be, and every error of the schema and overlay passes.

    The entries (actions, steps, end triggers, ranking levels) with a schema error are left out
    of the result (``partial.leave_out``), and a variant's changes in error are not applied, so
    that the next pass checks the rest: three typos in three parts of a file are reported in
    one run. None (and the errors) when what is left cannot be checked further: an error in
    what every part depends on (the components, the player counts, the values...) or in loading.
    """
    sources = sources if sources is not None else SourceMap()
    document = source.load(path, sources)
    found = schema.check_tree(document.root, document.path)
    root = document.root
    if found:
        variant = isinstance(root, MapNode) and root.get("extends") is not None
        root = leave_out(root, found, variant)
        if root is None:
            return None, found
    merged: list[Diagnostic] = []
    try:
        resolved = overlay.resolve(Document(document.path, document.text, root, document.raw_lines), sources, merged)
    except CompileError as err:
        return None, found + list(err.diagnostics)
    if found or merged:
        resolved = dataclasses.replace(resolved, incomplete=True)
    return resolved, found + merged


def load_rules(path: str, sources: SourceMap | None = None) -> Rules:
    """Compile the spec at `path` (a base spec or a variant) into the rule model; CompileError
    with every error of every pass that could check it (see :func:`resolve_partly`)."""
    sources = sources if sources is not None else SourceMap()
    resolved, found = resolve_partly(path, sources)
    if resolved is None:
        raise CompileError(sorted_diagnostics(found))
    try:
        rules = build(resolved, sources)
    except CompileError as err:
        raise CompileError(sorted_diagnostics(found + list(err.diagnostics))) from None
    if found:
        raise CompileError(sorted_diagnostics(found))
    return texts.freshen(rules, lambda base: _base_rules(base, sources))


def _base_rules(path: str, sources: SourceMap) -> Rules | None:
    """A base's rule model, for the texts a variant inherits from it (None if it has errors: every
    inherited text is then taken as stale, and the variant's own check reports them)."""
    try:
        digest = hashlib.sha256(read_input(path)).hexdigest()
    except OSError:
        return None
    return sources.derived(("base rules", os.path.realpath(path), digest), lambda: _checked_base(path, sources))


def _checked_base(path: str, sources: SourceMap) -> Rules | None:
    try:
        return load_rules(path, sources)
    except CompileError:
        return None


def check_spec(path: str, sources: SourceMap | None = None) -> Checked:
    """Every check `splendor-rules check` makes on the spec at `path`: the rule model, then
    the sheets' tables and texts (E6xx), tokens the effects may lack (E512), a game that
    may never end (E516), kinds no rule can reach (E125), turn variables nothing sets
    (E555), loops over what an earlier loop emptied (E557), queued steps nothing queues
    (E578) and rule texts (E622, E623). Raises CompileError with every error; returns the
    warnings."""
    sources = sources if sources is not None else SourceMap()
    rules = load_rules(path, sources)
    choices = action_sizes(rules.gems, rules.levels, rules.players, (*rules.actions, *rules.steps))
    found = (
        lint(rules)
        + overdraws(rules, choices)
        + endless(rules)
        + unreachable(rules)
        + unset_turn_variables(rules)
        + emptied_loops(rules)
        + unqueued_steps(rules)
        + texts.warnings(rules, lambda f: _lines(f, sources))
    )
    errors = [d for d in found if d.severity == "error"]
    if errors:
        raise CompileError(errors)
    return Checked(rules, tuple(d for d in found if d.severity != "error"))


def _lines(file: str, sources: SourceMap) -> list[str]:
    """A spec file's lines, as the run read them (for the carets of a warning)."""
    lines = sources.lines(file)
    if lines is None:
        try:
            lines = read_input(file).decode("utf-8").splitlines()
        except (OSError, UnicodeDecodeError):
            lines = []
    return lines


def compile_spec(path: str, sources: SourceMap | None = None) -> CompiledEngine:
    """The engine of the spec at `path`: its rule model lowered and emitted (E599, a bug of
    the compiler, when it cannot be). The gate is the rule model's: the sheets' lint and the warnings of
    :func:`check_spec` are about the sheets and the games, not about writing the engine."""
    rules = load_rules(path, sources)
    return CompiledEngine(rules, emit_engine.compile_to_module(rules))


def engine_module(rules: Rules) -> types.ModuleType:
    """The engine of a checked rule model, compiled and loaded (once per process and text); the
    engine's text holds the spec's words only as literals, so running it runs no spec text."""
    text = emit_engine.compile_to_module(rules)
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
    name = f"_splendor_engine_{digest[:16]}"
    module = sys.modules.get(name)
    if module is None:
        module = types.ModuleType(name)
        sys.modules[name] = module  # dataclasses and pickling look the module up by name
        try:
            exec(compile(text, f"<engine {rules.name}>", "exec"), module.__dict__)
        except BaseException:
            del sys.modules[name]
            raise
    return module


_WORKED: dict[tuple[str, str], WorkedGame | None] = {}


def worked_game(rules: Rules) -> WorkedGame | None:
    """The game the worked example of `rules` tells, played by the spec's own engine
    (:func:`compiler.sheets.worked_game.find`); None when no deal tried gives one. Found once
    per process for a rule model (a spec's sheets in four languages tell the same game)."""
    module = engine_module(rules)
    key = (module.__name__, hashlib.sha256(repr(rules).encode("utf-8")).hexdigest())
    if key not in _WORKED:
        _WORKED[key] = find_worked_game(module, rules)
    return _WORKED[key]


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
