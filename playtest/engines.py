"""Loading generated engines: the only door from playtest to a game's rules.

An engine is a generated module (see the Engine API in the contract): bots and the
simulator use nothing else. :func:`load` accepts

- a spec path (``rulespec/official.yaml``, ``variants/target-12.yaml``): the compiler's
  driver (``compiler.pipeline.compile_spec``) gives today's module text;
  ``generated/engines/<name>.py`` is used when it holds exactly that text, and otherwise
  (missing or stale) the text is written to a cache directory under the name of its hash
  and loaded from there;
- a path to a module file (``generated/engines/official.py``, or any ``.py`` that
  implements the API);
- a dotted module name (``generated.engines.official``).

It returns an :class:`Engine`: the module, a label for reports, and the module's source
text, which travels with every simulation task so that a worker (a local process or a
Dask worker on another machine) can load the very same engine from the text alone
(:func:`from_source`).

With ``native=True`` (`--native` on the commands) the module is the native build of that same
text (:mod:`compiler.native`: compiled by Cython and the C compiler, cached under the hash of the
text), for every target alike; the text still travels with the tasks, and a worker loads the
build from the cache (or builds it, on another machine). What cannot be built is the compiler's
E597 (a ``CompileError``), reported like a spec's diagnostics, at the engine module.
"""

from __future__ import annotations

import hashlib
import importlib
import os
import pathlib
import re
import sys
import types
from dataclasses import dataclass

from compiler import native as native_build
from compiler import pipeline
from compiler.diagnostics import CompileError, SourceMap
from compiler.front.locate import find_spec
from compiler.front.reading import read_file, reason
from compiler.front.source import display_path

REQUIRED = (
    "SPEC_NAME",
    "COLOURS",
    "GEMS",
    "WILD",
    "CARDS",
    "NOBLES",
    "NUM_ACTIONS",
    "PLAYER_COUNTS",
    "new_game",
    "from_json",
    "action_to_string",
    "describe_action",
)

ROOT = pathlib.Path(__file__).resolve().parent.parent
GENERATED = ROOT / "generated" / "engines"
MAX_ENGINE_BYTES = 20_000_000  # the largest catalogue engine is about 0.4 MB


class EngineError(Exception):
    """An engine that cannot be found, built or loaded; the message says why and what to do."""


@dataclass(frozen=True)
class Engine:
    module: types.ModuleType
    label: str  # what the user named: a spec path, a module path or a module name
    source: str  # the module's text
    path: str | None  # the module file, when there is one
    native_dir: str | None = None  # the folder of native builds when `module` is the native build, else None

    @property
    def native(self) -> bool:
        return self.native_dir is not None

    @property
    def name(self) -> str:
        return str(self.module.SPEC_NAME)

    @property
    def source_sha256(self) -> str:
        return hashlib.sha256(self.source.encode("utf-8")).hexdigest()


def default_cache_dir() -> pathlib.Path:
    env = os.environ.get("SPLENDOR_RULES_CACHE")
    if env:
        return pathlib.Path(env) / "engines"
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return pathlib.Path(base) / "splendor-rules" / "engines"


def spec_path(target: str) -> pathlib.Path | None:
    """The spec `target` names, as :func:`load` finds it (a spec path, a spec name); None for an
    engine module or a module name (an engine whose spec is not at hand)."""
    if target.endswith((".yaml", ".yml")):
        return pathlib.Path(target)
    if target.endswith(".py"):
        return None
    named, _ = _spec_named(target)
    return pathlib.Path(named) if named is not None else None


def load(target: str, cache_dir: str | os.PathLike | None = None, sources=None, native: bool = False) -> Engine:
    """The engine for `target`: a spec path, a spec name (official, target-12), an engine
    module path, or a dotted module name to import; with `native`, its native build.

    Raises :class:`EngineError` for a missing file or a module without the Engine API,
    and the compiler's ``CompileError`` (with its diagnostics) for a spec with errors or a
    native engine that cannot be built (E597); `sources` (a ``compiler.diagnostics.SourceMap``)
    collects the spec texts to render them.
    """
    engine = _load(target, cache_dir, sources)
    if not native:
        return engine
    folder = native_dir(cache_dir)
    try:
        module = from_source(engine.source, engine.path or engine.label, native=True, native_folder=folder)
    except native_build.NativeUnavailable as err:
        raise CompileError([native_build.diagnostic(err, display_path(engine.path or engine.label))]) from None
    _check_api(module, target)
    return Engine(module, engine.label, engine.source, engine.path, str(folder))


def native_dir(cache_dir: str | os.PathLike[str] | None = None) -> pathlib.Path:
    """Where native builds are kept: `native` in the cache folder given, else compiler.native's default."""
    return pathlib.Path(cache_dir) / "native" if cache_dir is not None else native_build.default_cache_dir()


def _load(target: str, cache_dir: str | os.PathLike[str] | None, sources: SourceMap | None) -> Engine:
    path = pathlib.Path(target)
    if target.endswith((".yaml", ".yml")):
        return _from_spec(path, target, cache_dir, sources)
    if target.endswith(".py"):
        if not path.exists():
            raise EngineError(f"{target}: no such engine module")
        return _from_file(path, target)
    named, why_not = _spec_named(target)
    if named is not None:  # a spec name (official, target-12), as `extends` takes
        return _from_spec(pathlib.Path(named), target, cache_dir, sources)
    if re.fullmatch(r"[A-Za-z_][\w]*(\.[A-Za-z_]\w*)*", target):
        try:
            module = importlib.import_module(target)
        except ImportError as e:
            raise EngineError(f"{target}: no spec of that name, and no engine module to import ({e})") from None
        _check_api(module, target)
        file = getattr(module, "__file__", None)
        text = _read_module(pathlib.Path(file), target) if file else ""
        return Engine(module, target, text, file)
    if why_not:
        raise EngineError(why_not)
    raise EngineError(f"{target}: expected a spec (.yaml), an engine module (.py) or a module name")


def _spec_named(name: str) -> tuple[str | None, str]:
    """(the spec file a bare name stands for, None) or (None, why not: "" when it is no name)."""
    if "/" in name or os.sep in name or "." in name:
        return None, ""
    try:
        return find_spec(name), ""
    except CompileError as err:
        return None, err.diagnostics[0].message if err.diagnostics else ""


def _from_spec(path: pathlib.Path, label: str, cache_dir, sources) -> Engine:
    if not path.is_file():
        raise EngineError(f"{label}: no such spec file")
    # Compiling is cheap (well under a second) and the only exact test of freshness: a
    # module generated from other versions of the spec, of a base or of the compiler
    # differs from today's text, and then a copy built now is used instead.
    compiled = pipeline.compile_spec(str(path), sources)
    text, name = compiled.text, _identifier(compiled.rules.name)
    fresh = GENERATED / f"{name}.py"
    if _same_text(fresh, text):
        return _from_file(fresh, label)
    directory = pathlib.Path(cache_dir) if cache_dir is not None else default_cache_dir()
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]
    target = directory / f"{name}_{digest}.py"
    try:
        directory.mkdir(parents=True, exist_ok=True)
        if not _same_text(target, text):
            tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
            tmp.write_text(text, encoding="utf-8")
            os.replace(tmp, target)  # atomic: concurrent runs never see half a module
    except OSError as e:
        raise EngineError(
            f"{label}: cannot write its engine to {directory} ({e.strerror or e}); "
            "choose another place with --cache-dir or SPLENDOR_RULES_CACHE"
        ) from None
    return _from_file(target, label)


def _same_text(path: pathlib.Path, text: str) -> bool:
    """Whether the file at `path` is an ordinary file holding `text` (read as every input is)."""
    try:
        return read_file(path, MAX_ENGINE_BYTES, "an engine module") == text.encode("utf-8")
    except OSError:
        return False


def _identifier(name: str) -> str:
    return re.sub(r"\W", "_", name)


_LOADED: dict[str, types.ModuleType] = {}


def _read_module(path: pathlib.Path, label: str) -> str:
    """The text of an engine module, read as every input is (compiler.front.reading: an ordinary file
    of at most MAX_ENGINE_BYTES); EngineError, saying why, for what cannot be one."""
    try:
        return read_file(path, MAX_ENGINE_BYTES, "an engine module").decode("utf-8")
    except OSError as e:
        raise EngineError(f"{label}: cannot read the engine module: {reason(e)}") from None
    except UnicodeDecodeError as e:
        raise EngineError(f"{label}: cannot read the engine module: not UTF-8 text (byte {e.start})") from None


def _from_file(path: pathlib.Path, label: str) -> Engine:
    text = _read_module(path, label)
    module = from_source(text, str(path))
    _check_api(module, label)
    return Engine(module, label, text, str(path))


def from_source(
    text: str,
    filename: str = "<engine>",
    native: bool = False,
    native_folder: str | os.PathLike[str] | None = None,
    code: types.CodeType | None = None,
) -> types.ModuleType:
    """The module for an engine's source text, built once per process and text; with `native`,
    its native build (from `native_folder`'s cache, else built there: NativeUnavailable if it cannot be);
    `code`: the text already compiled (a server keeps it on disk: web.engine_cache.code_of)."""
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
    if native:
        digest += ":native"
    module = _LOADED.get(digest)
    if module is not None:
        return module
    if native:
        module = native_build.import_built(native_build.build(text, _spec_name(text), native_folder))
        _LOADED[digest] = module
        return module
    name = f"_splendor_engine_{digest[:16]}"
    module = types.ModuleType(name)
    module.__file__ = filename
    sys.modules[name] = module  # dataclasses and pickling look the module up by name
    try:
        exec(code if code is not None else compile(text, filename, "exec"), module.__dict__)
    except BaseException:
        del sys.modules[name]
        raise
    _LOADED[digest] = module
    return module


def _spec_name(text: str) -> str:
    """The SPEC_NAME an engine text declares (a part of its native module's name), or 'engine'."""
    found = re.search(r'^SPEC_NAME = "([\w-]*)"$', text, re.M)
    return found.group(1) if found else "engine"


def _check_api(module: types.ModuleType, label: str) -> None:
    missing = [n for n in REQUIRED if not hasattr(module, n)]
    if missing:
        raise EngineError(f"{label}: not an engine module (missing {', '.join(missing)})")


def rule_error_parts(error: BaseException) -> tuple[str | None, str]:
    """A RuleError's effect as written with its spec line (its `located` field: the compiler's
    key to the effect, `app.rule_errors.find_effect`), and what went wrong in English without
    it, from the error's key and fields (compiler/emit/runtime/errors.py), never by reading its
    message back: the engine's own RuleError is made again without `located`. An error without
    them (an engine built before RuleErrors had a key) gives (None, its message)."""
    key, fields = getattr(error, "key", None), getattr(error, "fields", None)
    if not isinstance(key, str) or not isinstance(fields, dict):
        return None, str(error)
    located = fields.get("located")
    try:
        said = str(type(error)(key, {name: value for name, value in fields.items() if name != "located"}))
    except (TypeError, KeyError, ValueError):  # another class with a key and fields: its message as it is
        return None, str(error)
    return (located if isinstance(located, str) else None), said
