"""The optimisation passes over a rule function's statement tree, in the order they run.

Each pass is its own module and takes a :class:`~.tree.Def` to a :class:`~.tree.Def` that does
the same thing: :mod:`.constants` (what is known now, worked out; the branches no game takes,
dropped), :mod:`.invariants` (loop-invariant code motion), then :mod:`.common` (what two
statements of a block compute, computed once). The driver runs them on every
rule function before liveness (:func:`.tree.tidy`), which drops what they leave unread.

:func:`unoptimised` compiles without them, for the benchmarks and the tests that compare an
engine with the passes to the same engine without (bench/bench_catalogue.py --before).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator

from .common import share_common
from .constants import fold_constants
from .invariants import hoist_invariants
from .tree import Def

PASSES: tuple[Callable[[Def], Def], ...] = (fold_constants, hoist_invariants, share_common)
_enabled = [True]


def enabled() -> bool:
    """Do the passes run now (False inside :func:`unoptimised`)? A cache of compiled engines keys on it."""
    return _enabled[-1]


def optimise(fn: Def) -> Def:
    """`fn` after every pass (as it is inside :func:`unoptimised`)."""
    if _enabled[-1]:
        for run in PASSES:
            fn = run(fn)
    return fn


@contextlib.contextmanager
def unoptimised() -> Iterator[None]:
    """Lower without the passes while the block runs (the engine as the lowering builds it)."""
    _enabled.append(False)
    try:
        yield
    finally:
        _enabled.pop()
