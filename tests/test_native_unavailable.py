"""A native engine that cannot be built (`--native` without Cython, a C compiler or Python's headers)
is one located line, E597 at the engine module, and exit status 1: never a traceback.

Nothing is built here (the missing tool is faked: $CC naming no program, Cython's distribution not
found, a headers folder without Python.h), so these run in the fast tier; tests/test_native.py
builds an engine and plays it against the pure one.
"""

from __future__ import annotations

import importlib.metadata
import sysconfig

import pytest
from click.testing import CliRunner

from app.cli import main
from compiler import native
from playtest import engines


@pytest.fixture(autouse=True)
def no_engine_loaded_yet(monkeypatch):
    """A process that has loaded no engine: one built earlier in this worker (tests/test_native.py)
    would be used as it is, rightly, without asking for the tools again."""
    monkeypatch.setattr(engines, "_LOADED", {})


def _without_cython(monkeypatch):
    real = importlib.metadata.version

    def version(name: str) -> str:
        if name.lower() == "cython":
            raise importlib.metadata.PackageNotFoundError(name)
        return real(name)

    monkeypatch.setattr(importlib.metadata, "version", version)


def _without_compiler(monkeypatch, tmp_path):
    monkeypatch.setenv("CC", str(tmp_path / "no-such-cc"))


def _without_headers(monkeypatch, tmp_path):
    real = sysconfig.get_paths
    monkeypatch.setattr(sysconfig, "get_paths", lambda *a, **k: {**real(*a, **k), "include": str(tmp_path)})


MISSING = [
    (_without_cython, "Cython is not installed (the `native` extra: pip install 'splendor-rules[native]')"),
    (_without_compiler, "no C compiler: '{tmp}/no-such-cc' is not on PATH"),
    (_without_headers, "Python's C headers are missing ({tmp}/Python.h"),
]


@pytest.mark.parametrize("fake, said", MISSING, ids=["cython", "compiler", "headers"])
def test_what_is_missing_is_said(monkeypatch, tmp_path, fake, said):
    if fake is _without_cython:
        fake(monkeypatch)
    else:
        fake(monkeypatch, tmp_path)
    with pytest.raises(native.NativeUnavailable) as info:
        native.toolchain()
    assert str(info.value).startswith(said.format(tmp=tmp_path))
    assert "\n" not in str(info.value)


def _e597_lines(output: str) -> list[str]:
    return [line for line in output.splitlines() if "E597" in line]


@pytest.mark.parametrize(
    "command",
    [
        ["compile", "official", "--native"],
        ["simulate", "official", "--native", "--games", "1", "--jobs", "1", "--bots", "random"],
        ["ladder", "official", "--native", "--bots", "random,greedy", "--games", "1", "--jobs", "1"],
        ["play", "official", "--native", "--seat", "random", "--seat", "random"],
    ],
    ids=["compile", "simulate", "ladder", "play"],
)
def test_a_command_without_a_compiler_says_so_in_one_located_line(monkeypatch, tmp_path, command):
    _without_compiler(monkeypatch, tmp_path)
    out = ["-o", str(tmp_path / "engines")] if command[0] == "compile" else []
    result = CliRunner().invoke(main, [*command, *out, "--cache-dir", str(tmp_path / "cache")])
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    (line,) = _e597_lines(result.output)
    where = "engines/official.py:1:1: " if command[0] == "compile" else "generated/engines/official.py:1:1: "
    assert where + "error[E597]: cannot build a native engine: no C compiler: " in line, line
    following = result.output.split(line, 1)[1].lstrip("\n").splitlines()
    assert not following or not following[0].lstrip().startswith("1 |")  # no source excerpt: one line
    assert not (tmp_path / "cache" / "native").exists() or not any((tmp_path / "cache" / "native").iterdir())


def test_the_pure_engine_is_still_the_default_without_the_extra(monkeypatch):
    _without_cython(monkeypatch)
    engine = engines.load("official")
    assert not engine.native and engine.module.__file__.endswith(".py")
    assert engine.module.new_game(2, seed=1).legal_actions()
