"""Reading input files: only regular files, never more than a spec may hold.

A spec names other files (its card and noble tables, the base it extends), and a shared
variant is untrusted: a name may lead to a FIFO (opening it for reading blocks until a
writer comes), to ``/dev/zero`` (reading it never ends) or to a folder. Every input file
is read through :func:`read_input`, which opens without blocking, looks at what it opened
(after every symlink: a link to an ordinary file is an ordinary file) and reads at most
one byte past the limit, so that the caller can say "too large" without holding it all.
"""
from __future__ import annotations

import os
import stat

MAX_INPUT_BYTES = 1_000_000  # a spec, a card table: the same limit


class NotAFile(OSError):
    """The path names something that is not an ordinary file (a folder, a FIFO, a device)."""

    def __init__(self, kind: str):
        super().__init__(f"is {kind}")
        self.kind = kind


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
    ordinary file reads.
    """
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
