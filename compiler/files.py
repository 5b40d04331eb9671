"""Writing output files: whole or not at all, as ordinary files.

Every file the tools write (engines, sheets, charts, saved games) goes through
:func:`write_atomic`: the data lands in a temporary file beside the target, which then
replaces it, so a reader (or a crash) never sees half a file; the file gets the
permissions the umask gives an ordinary file (mkstemp alone would leave 0600).
"""
from __future__ import annotations

import os
import tempfile


def write_atomic(path: str | os.PathLike, data: str | bytes, make_folder: bool = True) -> None:
    """Write `data` (text is UTF-8 with the newlines as given) to `path`.

    The folder is made when missing, unless `make_folder` is false (a file the user names,
    such as a saved game, where a missing folder is more likely a typo).
    """
    path = os.fspath(path)
    folder = os.path.dirname(os.path.abspath(path))
    if make_folder:
        os.makedirs(folder, exist_ok=True)
    handle, temp = tempfile.mkstemp(dir=folder, prefix=f".{os.path.basename(path)}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data.encode("utf-8") if isinstance(data, str) else data)
        os.chmod(temp, 0o666 & ~_umask())
        os.replace(temp, path)
    except BaseException:
        if os.path.exists(temp):
            os.unlink(temp)
        raise


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
