"""Building and importing a native engine: engine text -> Cython -> C -> extension module.

Takes the text of a generated engine module (what ``compiler.pipeline.compile_spec`` returns and
``compile`` writes) and returns the path of a compiled extension module built from that very
text, cached under the hash of the text and of the recipe; :func:`import_built` imports it.

The steps run as child processes (``python -m cython``, then the C compiler Python itself was
built with, as ``sysconfig`` names it: ``LDSHARED``, or ``$CC`` when set), in a temporary folder
beside the cache, under a lock, so concurrent runs (simulate's workers) build an engine once and
never see half a file. The module is compiled under a relative file name and without debug
information, so the C file and the extension hold no path of this machine.

Beside the module, a `.pxd` of its declarations (:mod:`compiler.native.declarations`: ``Game`` a
``cdef class``, the rule functions ``cpdef`` with the game typed, the locals that always hold
integers machine integers) lets Cython read the game's attributes as fields, call the rule
functions in C and count in C. The Cython directives keep Python's semantics: annotations are not
read as C types (``annotation_typing=False``: ``apply(action: int)`` still takes numpy's
integers), a machine integer that would overflow raises instead of wrapping (``overflowcheck``),
division and indexing stay Python's.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import importlib.machinery
import importlib.metadata
import importlib.util
import os
import pathlib
import re
import shlex
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import types
from collections.abc import Iterator
from dataclasses import dataclass

from ..diagnostics import Diagnostic, Span
from .declarations import declarations

CODE = "E597"
RECIPE = 3  # raise when the steps below change what a build makes: every cached build is then remade
# -O1: the official engine compiles in 21 s of CPU against 36 s at -O2, and plays as fast (README.md,
# Benchmarks); -fwrapv as CPython; -w: Cython's C draws warnings no one reads
C_FLAGS = ("-O1", "-fwrapv", "-DNDEBUG", "-w")
DIRECTIVES = (
    "language_level=3",
    "annotation_typing=False",
    "binding=True",
    "embedsignature=False",
    "overflowcheck=True",  # a machine integer that would overflow raises, as Python's never wraps
)
TIMEOUT = 1800  # seconds: the largest catalogue engine compiles in a few minutes on a loaded machine
INSTALL = "pip install 'splendor-rules[native]'"


class NativeUnavailable(Exception):
    """A native engine that cannot be built here; the message (one line) says why and what to do."""


@dataclass(frozen=True)
class Toolchain:
    """What a native build runs: the Cython release, the C command that compiles and links an
    extension, the folder of Python's C headers and the file suffix of an extension module."""

    cython: str
    command: tuple[str, ...]
    include: str
    suffix: str

    @property
    def recipe(self) -> str:
        """Everything besides the engine's text that decides the built module (the cache key)."""
        return "\0".join(
            (str(RECIPE), self.cython, " ".join(self.command), *C_FLAGS, *DIRECTIVES, self.suffix, sys.version)
        )


def toolchain() -> Toolchain:
    """The tools of a native build, found on this machine, or NativeUnavailable saying which is missing."""
    try:
        cython_version = importlib.metadata.version("Cython")
    except importlib.metadata.PackageNotFoundError:
        raise NativeUnavailable(f"Cython is not installed (the `native` extra: {INSTALL})") from None

    command = shlex.split(sysconfig.get_config_var("LDSHARED") or "cc -shared")
    if os.environ.get("CC"):
        command[:1] = shlex.split(os.environ["CC"])
    if not command or shutil.which(command[0]) is None:
        compiler = command[0] if command else "cc"
        raise NativeUnavailable(
            f"no C compiler: {compiler!r} is not on PATH (install one, e.g. `apt-get install gcc`, or name it in $CC)"
        )
    include = sysconfig.get_paths()["include"]
    if not os.path.isfile(os.path.join(include, "Python.h")):
        raise NativeUnavailable(
            f"Python's C headers are missing ({include}/Python.h; e.g. `apt-get install python3-dev`)"
        )
    suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
    return Toolchain(cython_version, tuple(command), include, suffix)


def default_cache_dir() -> pathlib.Path:
    """Where built engines are kept: $SPLENDOR_RULES_CACHE/native, else the user's cache folder."""
    env = os.environ.get("SPLENDOR_RULES_CACHE")
    if env:
        return pathlib.Path(env) / "native"
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return pathlib.Path(base) / "splendor-rules" / "native"


def module_name(spec_name: str, text: str, tools: Toolchain) -> str:
    """The extension's module name: the spec's name and the hash of the engine text and the recipe
    (a module's name is fixed in its C code, so the name is the cache key)."""
    digest = hashlib.sha256(text.encode("utf-8") + b"\0" + tools.recipe.encode("utf-8")).hexdigest()
    return f"_splendor_native_{re.sub(r'[^0-9A-Za-z_]', '_', spec_name)}_{digest[:16]}"


def build(text: str, spec_name: str, cache_dir: str | os.PathLike[str] | None = None) -> pathlib.Path:
    """The extension module built from the engine `text` (built now unless the cache has it)."""
    tools = toolchain()
    name = module_name(spec_name, text, tools)
    folder = pathlib.Path(cache_dir) if cache_dir is not None else default_cache_dir()
    target = folder / (name + tools.suffix)
    if target.is_file():
        return target
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with _locked(folder / f".{name}.lock"):
            if not target.is_file():  # another process may have built it while this one waited
                _compile(text, name, tools, folder, target)
    except OSError as err:
        raise NativeUnavailable(
            f"cannot build in {folder} ({err.strerror or err}); choose another place with SPLENDOR_RULES_CACHE"
        ) from None
    return target


def _compile(text: str, name: str, tools: Toolchain, folder: pathlib.Path, target: pathlib.Path) -> None:
    """Cython, then the C compiler, in a temporary folder; the extension then replaces `target` whole."""
    with tempfile.TemporaryDirectory(dir=folder, prefix=f".{name}.") as work:
        source, c_file, built = name + ".py", name + ".c", name + tools.suffix
        pathlib.Path(work, source).write_text(text, encoding="utf-8")
        pathlib.Path(work, name + ".pxd").write_text(declarations(text), encoding="utf-8")  # Game a cdef class
        directives = [arg for d in DIRECTIVES for arg in ("-X", d)]
        _run([sys.executable, "-m", "cython", "-3", *directives, source, "-o", c_file], work, "Cython")
        ccshared = shlex.split(sysconfig.get_config_var("CCSHARED") or "-fPIC")
        c_command = [*tools.command, *ccshared, *C_FLAGS, f"-I{tools.include}", c_file, "-o", built]
        _run(c_command, work, f"the C compiler ({tools.command[0]})")
        os.replace(os.path.join(work, built), target)


def _run(command: list[str], cwd: str, what: str) -> None:
    """Run one step; NativeUnavailable with the first line of its complaint when it fails."""
    try:
        done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=TIMEOUT)
    except (OSError, subprocess.SubprocessError) as err:
        raise NativeUnavailable(f"{what} cannot be run: {err}") from None
    if done.returncode != 0:
        said = [line.strip() for line in (done.stderr + done.stdout).splitlines() if line.strip()]
        first = next((line for line in said if "error" in line.lower()), said[0] if said else "no output")
        raise NativeUnavailable(f"{what} failed (exit status {done.returncode}): {first[:300]}")


@contextlib.contextmanager
def _locked(path: pathlib.Path) -> Iterator[None]:
    """An exclusive lock on `path` (made when missing) while the block runs."""
    with open(path, "a", encoding="utf-8") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def import_built(path: str | os.PathLike[str]) -> types.ModuleType:
    """Import the extension module at `path` (its name is its file name's stem, the name it was built
    under); it is registered in sys.modules, where pickling and dataclasses look a module up."""
    path = os.fspath(path)
    name = os.path.basename(path).split(".", 1)[0]
    loaded = sys.modules.get(name)
    if loaded is not None:
        return loaded
    loader = importlib.machinery.ExtensionFileLoader(name, path)
    spec = importlib.util.spec_from_file_location(name, path, loader=loader)
    if spec is None:
        raise NativeUnavailable(f"{path}: not an extension module")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    return module


def diagnostic(err: NativeUnavailable, engine_path: str) -> Diagnostic:
    """E597 at the engine module that could not be built natively."""
    return Diagnostic(CODE, f"cannot build a native engine: {err}", Span(engine_path, 1, 1))
