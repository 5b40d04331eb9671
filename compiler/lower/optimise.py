"""The optimisation passes over a rule function's statement tree, in the order they run.

Each pass is its own module and takes a :class:`~.tree.Def` to a :class:`~.tree.Def` that does
the same thing: :mod:`.peeling` (a loop's constant last round written after it),
:mod:`.fusion` (a loop over a comprehension read once, as the comprehension's own loops),
:mod:`.constants` (what is known now, worked out; the branches no game takes,
dropped), :mod:`.invariants` (loop-invariant code motion), :mod:`.common` (what two
statements of a block compute, computed once), then :mod:`.sinking` (a binding computed only
where a path reads it). The driver runs them on every
rule function before liveness (:func:`.tree.tidy`), which drops what they leave unread.

:func:`unoptimised` compiles without them, for the benchmarks and the tests that compare an
engine with the passes to the same engine without (bench/bench_catalogue.py --before).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator

from .common import share_common
from .constants import fold_constants
from .fusion import fuse_comprehension_loops
from .invariants import hoist_invariants
from .peeling import peel_constant_tails
from .sinking import sink_bindings
from .tree import Def

PASSES: tuple[Callable[[Def], Def], ...] = (
    peel_constant_tails,
    fuse_comprehension_loops,
    fold_constants,
    hoist_invariants,
    share_common,
    sink_bindings,
)
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
