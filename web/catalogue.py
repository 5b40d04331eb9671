"""The specs a server offers: each checked, its engine built, its reference sheets at hand.

A spec is untrusted text. It reaches a game only through the compiler: ``check_spec`` (every
check of `splendor-rules check`) is the gate, then ``playtest.engines.load`` compiles it
through ``compiler.pipeline.compile_spec``; nothing of a spec is evaluated as code. The
reference sheet of a variant is the compiler's own HTML sheet (the one `splendor-rules sheet`
writes, with its house-rules box), rendered on first request per language.
"""
from __future__ import annotations

import hashlib
import os
import pathlib
from dataclasses import dataclass, field
from types import ModuleType

from compiler import pipeline
from compiler.diagnostics import CompileError, Diagnostic, SourceMap
from compiler.front.overlay import find_spec
from compiler.model import Rules, Text
from compiler.sheets import content
from compiler.sheets import render as sheet_render
from compiler.sheets.plurals import LANGUAGES
from playtest import engines

ROOT = engines.ROOT


@dataclass
class Variant:
    """One spec on offer: its name (the key of its tables), rule model and engine module."""

    key: str
    path: str
    rules: Rules
    module: ModuleType  # the generated engine
    source: str  # the engine module's text, sent to the bot workers (a table stores only its hash)
    _sheets: dict = field(default_factory=dict, repr=False)

    @property
    def title(self) -> str:
        title = self.rules.title
        return title.en if isinstance(title, Text) else str(title)

    def title_in(self, lang: str) -> str:
        """The spec's title in `lang` (English where it has none in that language)."""
        title = self.rules.title
        return (title.get(lang) or title.en) if isinstance(title, Text) else str(title)

    @property
    def player_counts(self) -> tuple[int, ...]:
        return tuple(self.module.PLAYER_COUNTS)

    @property
    def source_sha256(self) -> str:
        return hashlib.sha256(self.source.encode("utf-8")).hexdigest()

    def sheet(self, lang: str) -> str:
        """The variant's HTML reference sheet in `lang` (one of en, fr, nl, sr)."""
        if lang not in LANGUAGES:
            raise KeyError(lang)
        if lang not in self._sheets:
            base = pipeline.load_rules(self.rules.bases[0].path) if self.rules.bases else None
            self._sheets[lang] = sheet_render.html(content.build(self.rules, lang, base), self.rules)
        return self._sheets[lang]


def default_specs() -> list[str]:
    """What `serve` offers with no SPEC: the official rules and the catalogue of variants."""
    index = ROOT / pipeline.VARIANT_INDEX
    official = ROOT / pipeline.OFFICIAL
    if index.is_file():
        return [str(official)] + [str(ROOT / p) if not os.path.isabs(p) else p
                                  for p in pipeline.index_entries(str(index))]
    return [find_spec("official")]


def load(paths: list[str], sources: SourceMap | None = None) -> dict[str, Variant]:
    """The variants of `paths` by name, in order; CompileError with every problem of every spec
    (a spec with errors is not served, and two specs of one name would be ambiguous)."""
    sources = sources if sources is not None else SourceMap()
    out: dict[str, Variant] = {}
    problems: list[Diagnostic] = []
    for path in paths:
        try:
            checked = pipeline.check_spec(path, sources)
            engine = engines.load(path if path.endswith((".yaml", ".yml")) else find_spec(path), sources=sources)
        except CompileError as err:
            problems.extend(err.diagnostics)
            continue
        key = checked.rules.name
        if key in out:
            problems.append(Diagnostic("E001", f"two specs are named '{key}' ({out[key].path} and {path}); "
                                               "serve one of them"))
            continue
        out[key] = Variant(key, path, checked.rules, engine.module, engine.source)
    if problems:
        raise CompileError(problems)
    return out


def shown(path: str) -> str:
    """A spec path as the pages show it: relative to the project when inside it."""
    try:
        return str(pathlib.Path(path).resolve().relative_to(ROOT))
    except ValueError:
        return os.path.basename(path)
