"""The files a run read, recorded while asked for: what a result computed from files depends on.

A server keeps the outcome of checking a spec between its starts (web.engine_cache), and may
use it again only while every file the check read is unchanged. Which files those are is
known only to the run: the spec, the bases it extends, their card and noble tables, each found
through the others. Every read of an input file goes through compiler.front.reading.read_input,
which notes here the file's real path and the SHA-256 of its bytes (None: it could not be read,
which is an outcome too) into the record opened by :func:`recorded`, if any. A value a run
makes once and reuses (:meth:`compiler.diagnostics.SourceMap.derived`: a base's model, for
every variant of a run) carries the reads that made it, and notes them again at each reuse.
"""

from __future__ import annotations

import contextlib
import contextvars
import hashlib
import os
from collections.abc import Iterator, Mapping

Reads = dict[str, str | None]  # real path -> SHA-256 of the bytes read (None: not read)

_OPEN: contextvars.ContextVar[Reads | None] = contextvars.ContextVar("compiler_reads", default=None)


@contextlib.contextmanager
def recorded() -> Iterator[Reads]:
    """Every input file read inside the block (by this thread or task), noted in the dict it
    gives; a record opened inside another also notes its reads in the outer one."""
    outer = _OPEN.get()
    mine: Reads = {}
    token = _OPEN.set(mine)
    try:
        yield mine
    finally:
        _OPEN.reset(token)
        if outer is not None:
            outer.update(mine)


def note(path: str | os.PathLike[str], data: bytes | None) -> None:
    """A read of `path` (its bytes, or None when it failed), if a record is open."""
    record = _OPEN.get()
    if record is not None:
        record[os.path.realpath(path)] = hashlib.sha256(data).hexdigest() if data is not None else None


def note_all(reads: Mapping[str, str | None]) -> None:
    """Reads made earlier (for a value made then and used again now), if a record is open."""
    record = _OPEN.get()
    if record is not None:
        record.update(reads)
