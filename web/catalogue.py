"""The specs a server offers: each checked, its engine built, its reference sheets at hand.

A spec is untrusted text. It reaches a game only through the compiler: ``check_spec`` (every
check of `splendor-rules check`) is the gate (at start, or, when the server lists the spec from
what it kept of an earlier check of the same files by the same compiler (:mod:`web.check_cache`),
when its rule model is first needed), then its rule model is compiled to an engine
(``compiler.emit.engine.compile_to_module``), or the engine compiled from the same model by
the same compiler is read back from the server's cache (:mod:`web.engine_cache`, verified by
hash); nothing of a spec is evaluated as code. An engine's text is compiled (or read from the
cache) and its module built on first use (:attr:`Variant.source`, :attr:`Variant.module`: the
first table of a spec builds it in a thread, from its code kept on disk), so a server starts
with the whole catalogue in the time its checks take, even with a cold cache (a new compiler
compiled every engine before it answered: 12-15 s). Nothing is built ahead: a thread that
built the whole catalogue after the start held the interpreter lock for seconds while the
seats' updates waited (issue 31; bench/bench_web.py, medians of three runs on a loaded machine:
a click-to-update p95 of 165 ms with it, 107 ms without). The reference sheet of a
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

from compiler import pipeline, reads
from compiler.diagnostics import CompileError, Diagnostic, SourceMap
from compiler.emit import engine as emit_engine
from compiler.front.locate import find_spec
from compiler.model import Rules
from compiler.sheets import content, worked_game
from compiler.sheets import render as sheet_render
from compiler.sheets.plurals import LANGUAGES
from compiler.sheets.worked_game import WorkedGame
from playtest import engines

from . import check_cache, engine_cache

ROOT = engines.ROOT
# One check or compile at a time (the compiler is not known to be thread-safe, and the checks on
# first use share the start's SourceMap); reentrant: a compile on first use checks first.
COMPILING = threading.RLock()


@dataclass
class Variant:
    """One spec on offer: its name (the key of its tables), what the front page lists of it, its
    rule model (checked at start, or on first use when the listing came from the cache) and
    engine (its text, compiled or read from `cache` on first use, and the module built from it)."""

    key: str
    path: str
    listing: check_cache.Listing
    _rules: Rules | None = field(default=None, repr=False)
    cache: pathlib.Path | None = None  # the folder of compiled engines (None: compile)
    sources: SourceMap = field(default_factory=SourceMap, repr=False)  # the run's, for a check on first use
    _source: str | None = field(default=None, repr=False)
    _filename: str | None = field(default=None, repr=False)
    _source_sha256: str | None = field(default=None, repr=False)
    _sheets: dict[str, str] = field(default_factory=dict, repr=False)
    _games: dict[str, WorkedGame | None] = field(default_factory=dict, repr=False)  # the worked game, once found
    _module: ModuleType | None = field(default=None, repr=False)
    _building: threading.Lock = field(default_factory=threading.Lock, repr=False)

    @property
    def rules(self) -> Rules:
        """The rule model: checked now, the first time it is asked for, when the server listed the
        spec from its cache (EngineError when the spec no longer passes, or is no longer what
        the server listed)."""
        if self._rules is None:
            with COMPILING:
                if self._rules is None:
                    try:
                        rules = pipeline.check_spec(self.path, self.sources).rules
                    except CompileError as err:
                        first = err.diagnostics[0].message if err.diagnostics else "an error"
                        raise engines.EngineError(
                            f"{self.key}: the spec no longer passes its checks ({first})"
                        ) from None
                    if check_cache.listing_of(rules) != self.listing:
                        raise engines.EngineError(f"{self.key}: the spec changed since the server listed it")
                    self._rules = rules
        return self._rules

    @property
    def source(self) -> str:
        """The engine module's text (sent to the bot workers; a table stores only its hash):
        read from the cache or compiled the first time it is asked for, once whichever thread asks."""
        if self._source is None:
            with COMPILING:
                if self._source is None:
                    text, filename = engine_cache.engine_text(self.rules, self.cache, emit_engine.compile_to_module)
                    self._filename = filename or f"<engine {self.key}>"
                    self._source = text
        return self._source

    @property
    def filename(self) -> str:
        """Where the engine's text was read from or stored (its tracebacks name it)."""
        _ = self.source
        return self._filename or f"<engine {self.key}>"

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
                    text = self.source
                    code = engine_cache.code_of(text, self.filename, self.cache)
                    module = engines.from_source(text, self.filename, code=code)
                    missing = [n for n in engines.REQUIRED if not hasattr(module, n)]
                    if missing:  # the compiler writes them all: a cache entry that passed its checks would too
                        raise engines.EngineError(f"{self.key}: not an engine module (missing {', '.join(missing)})")
                    self._module = module
        return self._module

    @property
    def title(self) -> str:
        return self.listing.title("en")

    def title_in(self, lang: str) -> str:
        """The spec's title in `lang` (English where it has none in that language)."""
        return self.listing.title(lang)

    @property
    def player_counts(self) -> tuple[int, ...]:
        """The numbers of players, from the listing: the rule model's (the engine's PLAYER_COUNTS is
        written from it), and a model checked on first use must have the same."""
        return self.listing.players

    @property
    def source_sha256(self) -> str:
        if self._source_sha256 is None:
            self._source_sha256 = hashlib.sha256(self.source.encode("utf-8")).hexdigest()
        return self._source_sha256

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
    """The variants of `paths` by name, in order, each checked; CompileError with every problem of
    every spec (a spec with errors is not served, and two specs of one name would be ambiguous).
    `cache`: the folder of compiled engines (True: :func:`default_cache`; None or False: compile
    each); an engine is compiled or read from it on first use (:attr:`Variant.source`)."""
    sources = sources if sources is not None else SourceMap()
    folder = default_cache() if cache is True else cache or None
    out: dict[str, Variant] = {}
    problems: list[Diagnostic] = []
    for path in paths:
        try:
            variant = listed(path if path.endswith((".yaml", ".yml")) else find_spec(path), folder, sources)
        except CompileError as err:
            problems.extend(err.diagnostics)
            continue
        key = variant.key
        if key in out:
            problems.append(
                Diagnostic("E001", f"two specs are named '{key}' ({out[key].path} and {path}); serve one of them")
            )
            continue
        out[key] = variant
    if problems:
        raise CompileError(problems)
    return out


def listed(path: str, folder: pathlib.Path | None, sources: SourceMap) -> Variant:
    """The variant of the spec at `path`: listed from the cache when the files it was checked
    from are unchanged (checked on first use), else checked now (CompileError) and its listing
    stored for the next start."""
    listing = check_cache.cached_listing(folder, path)
    if listing is not None:
        return Variant(listing.name, path, listing, None, folder, sources)
    with reads.recorded() as files:
        rules = pipeline.check_spec(path, sources).rules
    check_cache.store_listing(folder, path, rules, files)
    return Variant(rules.name, path, check_cache.listing_of(rules), rules, folder, sources)


def shown(path: str) -> str:
    """A spec path as the pages show it: relative to the project when inside it."""
    try:
        return str(pathlib.Path(path).resolve().relative_to(ROOT))
    except ValueError:
        return os.path.basename(path)
