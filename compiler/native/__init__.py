"""The native build: a generated engine module compiled into a C extension module.

The pure-Python engine (compiler/emit) stays the default and the reference; this stage takes its
text, unchanged, and compiles it with Cython and the machine's C compiler into an extension module
with the same API, which plays the same games move by move (the same code, compiled; no rule is
written twice). Cython was chosen over mypyc on the official engine (README.md, Benchmarks): mypyc
compiles only a module that mypy accepts whole and turns classes into native classes, which the
generated engines are not written for (stripped of annotations, the official engine still had not
compiled after 8 min of CPU); Cython compiles them as they are.

A build is cached under the hash of the engine's text and of the recipe (the Cython release, the
C flags, the Python ABI), so an unchanged engine is never rebuilt; what cannot be built (no Cython,
no C compiler, no Python headers) is a :class:`NativeUnavailable` with a one-line reason, which the
commands report as E597 at the engine module.
"""

from __future__ import annotations

from .build import (
    NativeUnavailable,
    Toolchain,
    build,
    default_cache_dir,
    diagnostic,
    import_built,
    module_name,
    toolchain,
)

__all__ = [
    "NativeUnavailable",
    "Toolchain",
    "build",
    "default_cache_dir",
    "diagnostic",
    "import_built",
    "module_name",
    "toolchain",
]
