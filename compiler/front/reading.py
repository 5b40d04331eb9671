"""Reading input files: only regular files, never more than a file of its kind may hold.

A spec names other files (its card and noble tables, the base it extends), a command names
saved games, record files and engine modules, and any of them may be untrusted: a name may
lead to a FIFO (opening it for reading blocks until a writer comes), to ``/dev/zero``
(reading it never ends) or to a folder. Every file a command reads is read here:
:func:`read_input` opens without blocking, looks at what it opened (after every symlink: a
link to an ordinary file is an ordinary file) and reads at most one byte past the limit, so
that the caller can say "too large" without holding it all; :func:`read_file` adds that
sentence for the callers that have no diagnostic of their own (E001, E002 and E112 are the
spec's and its tables').

Every error is an OSError whose :func:`reason` is a sentence for the user.
"""

from __future__ import annotations

import os
import stat

from .. import reads

MAX_INPUT_BYTES = 1_000_000  # a spec, a card table: the same limit
# Files the kernel makes up as they are read (they say they are ordinary and hold 0 bytes):
# /proc/self/environ would echo the environment of whoever checks a shared variant into an error.
SYSTEM_FOLDERS = ("/proc/", "/sys/")


class NotAFile(OSError):
    """The path names something that is not an ordinary file (a folder, a FIFO, a device)."""

    def __init__(self, kind: str):
        super().__init__(f"is {kind}")
        self.kind = kind


class TooLarge(OSError):
    """The file holds more than a file of its kind may (`what`: "a saved game")."""

    def __init__(self, what: str, limit: int):
        super().__init__(f"too large for {what} (over {_size(limit)})")
        self.what, self.limit = what, limit


def _size(limit: int) -> str:
    for unit, scale in (("GB", 1_000_000_000), ("MB", 1_000_000), ("kB", 1_000)):
        if limit >= scale:
            return f"{limit / scale:g} {unit}"
    return f"{limit} bytes"


def reason(err: OSError) -> str:
    """Why a file could not be read, in words: "is a named pipe (FIFO)", "No such file or directory"."""
    if isinstance(err, (NotAFile, TooLarge)):
        return str(err)
    return err.strerror or str(err)


def kind_of(mode: int) -> str:
    """What a file mode stands for, in words."""
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not an ordinary file"


def read_input(path: str | os.PathLike, limit: int = MAX_INPUT_BYTES) -> bytes:
    """The bytes of the ordinary file at `path`, at most `limit` + 1 of them.

    Raises FileNotFoundError, :class:`NotAFile`, or another OSError. O_NONBLOCK makes the
    open of a FIFO return at once (it is then refused by its mode); it does not change how an
    ordinary file reads. The read (or its failure) is noted in the open record of
    :mod:`compiler.reads`, if any.
    """
    try:
        data = _read(path, limit)
    except OSError:
        reads.note(path, None)
        raise
    reads.note(path, data)
    return data


def _read(path: str | os.PathLike[str], limit: int) -> bytes:
    if os.path.realpath(path).startswith(SYSTEM_FOLDERS):
        raise NotAFile("a file of the system's own (under /proc or /sys), which no spec or game is")
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except IsADirectoryError:
        raise NotAFile("a directory") from None
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise NotAFile(kind_of(mode))
        chunks, size = [], 0
        while size <= limit:
            chunk = os.read(fd, limit + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def read_file(path: str | os.PathLike, limit: int, what: str) -> bytes:
    """The bytes of the ordinary file at `path`, a file of kind `what` ("a record file") of at
    most `limit` bytes: :class:`TooLarge` past it, :class:`NotAFile` or another OSError when it
    cannot be read (:func:`reason` says why)."""
    data = read_input(path, limit)
    if len(data) > limit:
        raise TooLarge(what, limit)
    return data
