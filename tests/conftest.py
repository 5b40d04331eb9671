"""Shared test fixtures: golden files and paths.

Golden files are compared byte for byte; `pytest --update-goldens` rewrites them
(read every golden diff before committing it).
"""

from __future__ import annotations

import hashlib
import os
import pathlib
import sys

import pytest

from compiler import pipeline, reads
from compiler.emit import engine as emit_engine
from compiler.front.reading import read_input
from compiler.lower import optimise
from tests.helpers.tiers import CATALOGUE_TESTS, FAST_SPECS, SLOW_MODULES, SLOW_TESTS, spec_of

ROOT = pathlib.Path(__file__).resolve().parent.parent


# The fast tier (`bash dev/test.sh --fast`): every test but the slow modules and single slow tests
# of tests/helpers/tiers.py, the tests run once per catalogue spec on a few specs only (tiers.py
# CATALOGUE_TESTS, FAST_SPECS), and the PDF sheets but a few (tests/test_sheets_pdf.py marks its own).
# Each of them still runs in the whole suite (`bash dev/test.sh`), which CI runs.


def _test_key(item) -> str:
    """`module.py::test_name`, without the test's parameters."""
    return f"{item.path.name}::{item.originalname}"


def pytest_collection_modifyitems(config, items):
    for item in items:
        if item.module is not None and item.module.__name__.rpartition(".")[2] in SLOW_MODULES:
            item.add_marker(pytest.mark.slow)
        elif _test_key(item) in SLOW_TESTS:
            item.add_marker(pytest.mark.slow)
        elif _test_key(item) in CATALOGUE_TESTS and spec_of(item.callspec.id) not in FAST_SPECS:
            item.add_marker(pytest.mark.slow)


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: left out of the fast tier (dev/test.sh --fast)")


def pytest_ignore_collect(collection_path, config):
    """The fast tier (`-m "not slow"`, as dev/test.sh --fast runs it) does not import the slow
    modules at all: every xdist worker collects every module it is given, and some of these build
    engines or states when imported (about 1.5 s of CPU a worker). The whole suite collects them."""
    if config.getoption("markexpr", "").strip() == "not slow" and collection_path.suffix == ".py":
        return collection_path.stem in SLOW_MODULES or None
    return None


# pytest rewrites the asserts of every test module it imports and caches the result beside it
# (`__pycache__/*-pytest-*.pyc`), unless bytecode may not be written (PYTHONDONTWRITEBYTECODE, as
# on this project's CI machines): then every worker of every run rewrites all of them again, about
# 7 s of CPU a worker. The cache is allowed while the test modules are collected (besides their
# rewritten code, only a module not yet byte-compiled gets its .pyc then, as any import would
# without the setting; dev/test.sh byte-compiles the project first), and the setting is restored
# before any test runs, so no test writes bytecode where it was not allowed.
_DONT_WRITE_BYTECODE = sys.dont_write_bytecode
sys.dont_write_bytecode = False


def pytest_collection_finish(session):
    sys.dont_write_bytecode = _DONT_WRITE_BYTECODE


def pytest_addoption(parser):
    parser.addoption(
        "--update-goldens",
        action="store_true",
        default=False,
        help="rewrite golden files instead of comparing against them",
    )


class Golden:
    def __init__(self, update: bool):
        self.update = update

    def check(self, path: pathlib.Path, actual: str) -> None:
        """Compare `actual` with the golden file at `path` (or rewrite it with --update-goldens)."""
        if self.update:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(actual, encoding="utf-8")
            return
        if not path.exists():
            pytest.fail(f"golden file {path.relative_to(ROOT)} is missing; run pytest --update-goldens")
        expected = path.read_text(encoding="utf-8")
        assert actual == expected, f"output differs from {path.relative_to(ROOT)} (pytest --update-goldens rewrites it)"


@pytest.fixture
def golden(request) -> Golden:
    return Golden(request.config.getoption("--update-goldens"))


@pytest.fixture
def root() -> pathlib.Path:
    return ROOT


# The web table's tests (tests/test_web_*.py): a server of the target-12 variant, a tables file
# of each test's own. A module that serves other specs defines its own `variants`.
@pytest.fixture(scope="module")
def variants():
    from web import catalogue

    return catalogue.load([str(ROOT / "variants" / "target-12.yaml")])


@pytest.fixture
def db(tmp_path):
    return str(tmp_path / "tables.sqlite3")


# A session cache of compiled engines. Lowering and emitting take most of a compile (about a
# second for the official spec), and many tests compile the same spec again (playtest's
# engines.load compiles every spec it is given, to be sure of its freshness). The key is the
# spec's hash: SHA-256 of the rule model's repr, which holds every field of the model (the
# spec's text, its tables, its sources' paths and hashes), so two keys are equal only for
# models that compile to the same text. Entries live in memory and, shared by the xdist
# workers of a run, in a folder of the run's temporary directory.
_ENGINES: dict[str, str] = {}
_COMPILE = emit_engine.compile_to_module


def _cached_compile(rules, folder: pathlib.Path | None):
    # the optimisation passes may be off (compiler.lower.optimise.unoptimised): another engine
    key = hashlib.sha256((repr(rules) + ("" if optimise.enabled() else " unoptimised")).encode("utf-8")).hexdigest()
    if key in _ENGINES:
        return _ENGINES[key]
    path = folder / f"{key}.py" if folder is not None else None
    if path is not None and path.is_file():
        text = path.read_text(encoding="utf-8")
    else:
        text = _COMPILE(rules)
        if path is not None:
            partial = path.with_name(f".{key}.{os.getpid()}")
            partial.write_text(text, encoding="utf-8")
            os.replace(partial, path)  # atomic: another worker never reads half an engine
    _ENGINES[key] = text
    return text


@pytest.fixture(scope="session", autouse=True)
def engine_cache(tmp_path_factory):
    """Every compile of the session goes through the cache (see above)."""
    shared = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        shared = shared.parent  # one folder for every worker of the run
    folder = shared / "engine-cache"
    folder.mkdir(exist_ok=True)
    emit_engine.compile_to_module = lambda rules: _cached_compile(rules, folder)
    yield folder
    emit_engine.compile_to_module = _COMPILE


# A session cache of rule models. Reading, schema-checking and building a spec's model takes 40 to
# 100 ms, and the tests load the same specs again and again (the catalogue's specs in nearly every
# module, a variant's base once more for each variant): about a third of the fast tier's CPU before
# this cache. An entry is the model `load_rules(path)` returned for that path, from that working
# directory, with every file the load read (compiler.reads: the spec, its bases, their tables, each
# by real path and the SHA-256 of its bytes, or None where a read failed); it is used again only
# while every one of those files still reads the same (as web.engine_cache keeps a check between a
# server's starts). A load with a SourceMap of its own (a caller that shows diagnostics' lines, or
# shares bases between loads) and a load that fails are never cached. The models are frozen
# dataclasses: no test can change one another test reads. Installed when this module is imported,
# before any test module (`from compiler.pipeline import load_rules` binds the cached one).
_RULES: dict[tuple[str, str], tuple[object, reads.Reads]] = {}
_LOAD_RULES = pipeline.load_rules


def _reads_the_same(read: reads.Reads) -> bool:
    """Every file still reads as it did (read through read_input, which notes each read in the
    caller's open record, if any: what the model it gets depends on)."""
    for path, digest in read.items():
        try:
            now = hashlib.sha256(read_input(path)).hexdigest()
        except OSError:
            now = None
        if now != digest:
            return False
    return True


def _cached(cache: dict, key: tuple, make):
    entry = cache.get(key)
    if entry is not None and _reads_the_same(entry[1]):
        return entry[0]
    with reads.recorded() as read:
        value = make()
    cache[key] = (value, dict(read))
    return value


def _cached_load_rules(path, sources=None):
    if sources is not None:
        return _LOAD_RULES(path, sources)
    return _cached(_RULES, (os.fspath(path), os.getcwd()), lambda: _LOAD_RULES(path))


# A variant's load builds its base's model once more, for the texts it inherits (pipeline._base_rules,
# once per SourceMap: once per load here): the same cache, for that model (None when the base has
# errors, as pipeline._checked_base says).
_BASES: dict[tuple[str, str], tuple[object, reads.Reads]] = {}
_CHECKED_BASE = pipeline._checked_base


def _cached_checked_base(path, sources):
    return _cached(_BASES, (os.fspath(path), os.getcwd()), lambda: _CHECKED_BASE(path, sources))


pipeline.load_rules = _cached_load_rules
pipeline._checked_base = _cached_checked_base


# One headless Chromium per module of browser tests (tests/helpers/browser.py: launching one takes
# about a second, a fresh context in it milliseconds): `browser` is the module's, and every context
# a test opened in it is closed after the test, so no test sees another's pages or cookies.
@pytest.fixture(scope="module")
def module_chromium():
    from tests.helpers.browser import chromium

    with chromium() as browser:
        yield browser


@pytest.fixture
def browser(module_chromium):
    yield module_chromium
    for context in list(module_chromium.contexts):
        context.close()
