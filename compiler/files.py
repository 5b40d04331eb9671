"""Writing output files: whole or not at all, as ordinary files.

Every file the tools write (engines, sheets, charts, saved games) goes through
:func:`write_atomic`: the data lands in a temporary file beside the target, which then
replaces it, so a reader (or a crash) never sees half a file. A symlink is followed (its
target is replaced, the link stays a link), and a file that exists keeps its permissions
(a 0600 saved game stays private); a new file gets the permissions the umask gives an
ordinary file (mkstemp alone would leave 0600).
"""

from __future__ import annotations

import os
import stat
import tempfile


def write_atomic(path: str | os.PathLike, data: str | bytes, make_folder: bool = True) -> None:
    """Write `data` (text is UTF-8 with the newlines as given) to `path`.

    The folder is made when missing, unless `make_folder` is false (a file the user names,
    such as a saved game, where a missing folder is more likely a typo).
    """
    path = os.path.realpath(os.fspath(path))  # a symlink's target, written beside itself
    folder = os.path.dirname(path)
    if make_folder:
        os.makedirs(folder, exist_ok=True)
    handle, temp = tempfile.mkstemp(dir=folder, prefix=f".{os.path.basename(path)}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data.encode("utf-8") if isinstance(data, str) else data)
        os.chmod(temp, _mode_of(path))
        os.replace(temp, path)
    except BaseException:
        if os.path.exists(temp):
            os.unlink(temp)
        raise


def _mode_of(path: str) -> int:
    """The permissions the written file gets: those of the file it replaces, else the umask's."""
    try:
        return stat.S_IMODE(os.stat(path).st_mode)
    except FileNotFoundError:
        return 0o666 & ~_umask()


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
