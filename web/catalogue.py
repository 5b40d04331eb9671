"""The specs a server offers: each checked, its engine built, its reference sheets at hand.

A spec is untrusted text. It reaches a game only through the compiler: ``check_spec`` (every
check of `splendor-rules check`) is the gate, then its rule model is compiled to an engine
(``compiler.emit.engine.compile_to_module``), or the engine compiled from the same model by
the same compiler is read back from the server's cache (:mod:`web.engine_cache`, verified by
hash); nothing of a spec is evaluated as code. An engine's module is built from its text on
first use (:attr:`Variant.module`; the server warms them all in a thread once it serves), so a
server starts with the whole catalogue in the time its checks take. The reference sheet of a
variant is the compiler's own HTML sheet (the one `splendor-rules sheet` writes, with its
house-rules box), rendered on first request per language.
"""

from __future__ import annotations

import hashlib
import os
import pathlib
import threading
from dataclasses import dataclass, field
from types import ModuleType

from compiler import pipeline
from compiler.diagnostics import CompileError, Diagnostic, SourceMap
from compiler.emit import engine as emit_engine
from compiler.front.locate import find_spec
from compiler.model import Rules, Text
from compiler.sheets import content, worked_game
from compiler.sheets import render as sheet_render
from compiler.sheets.plurals import LANGUAGES
from compiler.sheets.worked_game import WorkedGame
from playtest import engines

from . import engine_cache

ROOT = engines.ROOT


@dataclass
class Variant:
    """One spec on offer: its name (the key of its tables), rule model and engine (its text, and
    the module built from it on first use)."""

    key: str
    path: str
    rules: Rules
    source: str  # the engine module's text, sent to the bot workers (a table stores only its hash)
    filename: str = "<engine>"  # where the text was read from or stored (its tracebacks name it)
    _sheets: dict[str, str] = field(default_factory=dict, repr=False)
    _games: dict[str, WorkedGame | None] = field(default_factory=dict, repr=False)  # the worked game, once found
    _module: ModuleType | None = field(default=None, repr=False)
    _building: threading.Lock = field(default_factory=threading.Lock, repr=False)

    @property
    def module(self) -> ModuleType:
        """The generated engine, built from :attr:`source` the first time it is asked for."""
        return self._module if self._module is not None else self.build()

    def build(self) -> ModuleType:
        """Build the engine module now (once, whichever thread asks first); EngineError when the
        text is no engine."""
        if self._module is None:
            with self._building:
                if self._module is None:
                    module = engines.from_source(self.source, self.filename)
                    missing = [n for n in engines.REQUIRED if not hasattr(module, n)]
                    if missing:  # the compiler writes them all: a cache entry that passed its checks would too
                        raise engines.EngineError(f"{self.key}: not an engine module (missing {', '.join(missing)})")
                    self._module = module
        return self._module

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
        """The numbers of players, from the rule model (the engine's PLAYER_COUNTS is written from it)."""
        return tuple(p.players for p in self.rules.players)

    @property
    def source_sha256(self) -> str:
        return hashlib.sha256(self.source.encode("utf-8")).hexdigest()

    def sheet(self, lang: str) -> str:
        """The variant's HTML reference sheet in `lang` (one of en, fr, nl, sr)."""
        if lang not in LANGUAGES:
            raise KeyError(lang)
        if lang not in self._sheets:
            base = pipeline.load_rules(self.rules.bases[0].path) if self.rules.bases else None
            if "worked" not in self._games:  # a game of this engine, as `sheet` tells it: one for every language
                self._games["worked"] = worked_game.find(self.module, self.rules)
            self._sheets[lang] = str(
                sheet_render.html(content.build(self.rules, lang, base, worked=self._games["worked"]), self.rules)
            )
        return self._sheets[lang]


def default_specs() -> list[str]:
    """What `serve` offers with no SPEC: the official rules and the catalogue of variants."""
    index = ROOT / pipeline.VARIANT_INDEX
    official = ROOT / pipeline.OFFICIAL
    if index.is_file():
        return [str(official)] + [
            str(ROOT / p) if not os.path.isabs(p) else p for p in pipeline.index_entries(str(index))
        ]
    return [find_spec("official")]


def default_cache() -> pathlib.Path:
    """Where a server keeps its compiled engines: `served` in playtest's cache of engines
    (``SPLENDOR_RULES_CACHE`` or the user's cache folder)."""
    return engines.default_cache_dir() / "served"


def load(
    paths: list[str], sources: SourceMap | None = None, cache: pathlib.Path | None | bool = True
) -> dict[str, Variant]:
    """The variants of `paths` by name, in order; CompileError with every problem of every spec
    (a spec with errors is not served, and two specs of one name would be ambiguous). `cache`:
    the folder of compiled engines (True: :func:`default_cache`; None or False: compile each)."""
    sources = sources if sources is not None else SourceMap()
    folder = default_cache() if cache is True else cache or None
    out: dict[str, Variant] = {}
    problems: list[Diagnostic] = []
    for path in paths:
        try:
            checked = pipeline.check_spec(path if path.endswith((".yaml", ".yml")) else find_spec(path), sources)
            text, filename = engine_cache.engine_text(checked.rules, folder, emit_engine.compile_to_module)
        except CompileError as err:
            problems.extend(err.diagnostics)
            continue
        key = checked.rules.name
        if key in out:
            problems.append(
                Diagnostic("E001", f"two specs are named '{key}' ({out[key].path} and {path}); serve one of them")
            )
            continue
        out[key] = Variant(key, path, checked.rules, text, filename or f"<engine {key}>")
    if problems:
        raise CompileError(problems)
    return out


def shown(path: str) -> str:
    """A spec path as the pages show it: relative to the project when inside it."""
    try:
        return str(pathlib.Path(path).resolve().relative_to(ROOT))
    except ValueError:
        return os.path.basename(path)
