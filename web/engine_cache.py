"""Compiled engines kept on disk between starts of a server, keyed by what they are compiled from.

Lowering and emitting a spec take one to three seconds, so a server that compiled the whole
catalogue at every start took 15-22 s. The text of an engine depends only on its rule model and
on the compiler: ``repr(rules)`` holds every field of the model (the spec's text, its tables,
its sources' paths and hashes), and :func:`compiler_fingerprint` hashes every file of the
compiler package and the Python version that prints its trees. The key of an entry is the
SHA-256 of both, so an entry is found again only for a spec and a compiler that would compile
to the same text; anything else is compiled again, and stored.

A cached file is input like any other, and it is run, so it is trusted no more than its folder:

- the folder must belong to the user running the server and be writable by no one else (as
  ssh asks of ``~/.ssh``); one that is not is not used (every engine is compiled, as before);
- an entry is one file, ``NAME-KEY.py``: a first line naming the SHA-256 of the text after it,
  then the engine's text. It is read as an ordinary file of bounded size
  (:mod:`compiler.front.reading`), and used only when the text has that hash and declares the
  hash of the spec it was compiled from (``SPEC_SHA256``) as the rule model does; a file that
  fails (truncated, edited, another spec's) is compiled again and overwritten;
- it is written to a temporary file and renamed, so a server starting meanwhile never reads
  half an entry.

Beside each engine's text, its compiled code (``code-KEY.marshal``, :func:`code_of`: the key
covers the text, its file name and the Python version) under the same rules, so that building
an engine's module takes milliseconds, not the 0.1-0.2 s of ``compile`` holding the interpreter
lock while every table of the server waits.

An entry used is touched; when one is written, the entries of the same spec not used for
KEEP_DAYS days (older compilers, older texts of the spec) are removed.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import marshal
import os
import pathlib
import re
import stat
import sys
import time
import types
from collections.abc import Callable
from typing import Any

from compiler.front.reading import read_file

COMPILER = pathlib.Path(__file__).resolve().parent.parent / "compiler"
RULESPEC = COMPILER.parent / "rulespec"  # the schema, grammar and base kinds every check reads
MAX_ENGINE_BYTES = 20_000_000  # as playtest.engines: the largest catalogue engine is about 0.4 MB
KEEP_DAYS = 30
SPEC_LINE = re.compile(r"""^SPEC_SHA256 = ['"]([0-9a-f]{64})['"]$""", re.M)  # the engine's declared spec hash
HEADER = re.compile(r"# splendor-rules engine cache: sha256 ([0-9a-f]{64})\n")
log = logging.getLogger("splendor_rules.web")

_FINGERPRINT: list[str] = []


def compiler_fingerprint() -> str:
    """SHA-256 of every file of the compiler and rulespec packages (path and bytes, in sorted
    order) and of the Python version, computed once per process: what, besides the rule model,
    an engine's text depends on (and, besides the spec's files, a check's outcome)."""
    if not _FINGERPRINT:
        digest = hashlib.sha256(sys.version.encode("utf-8"))
        for path in sorted([*COMPILER.rglob("*"), *RULESPEC.rglob("*")]):
            if path.is_file() and "__pycache__" not in path.parts:
                digest.update(str(path.relative_to(COMPILER.parent)).encode("utf-8") + b"\0")
                digest.update(read_file(path, MAX_ENGINE_BYTES, "a file of the compiler") + b"\0")
        _FINGERPRINT.append(digest.hexdigest())
    return _FINGERPRINT[0]


def key_of(rules: Any) -> str:
    """The key of a rule model's engine: its hash and the compiler's."""
    return hashlib.sha256((compiler_fingerprint() + "\0" + repr(rules)).encode("utf-8")).hexdigest()


def usable_folder(folder: pathlib.Path) -> bool:
    """Whether engines may be kept in (and run from) `folder`: made if missing, owned by this
    user, a real folder (not a link) and writable by no one else."""
    try:
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        info = os.lstat(folder)
    except OSError as e:
        log.warning("engine cache %s not used: %s", folder, e.strerror or e)
        return False
    if not stat.S_ISDIR(info.st_mode) or info.st_mode & 0o022 or (hasattr(os, "getuid") and info.st_uid != os.getuid()):
        log.warning("engine cache %s not used: it must be a folder of this user that no one else may write", folder)
        return False
    return True


def entry_text(path: pathlib.Path, spec_sha256: str) -> str | None:
    """The engine text of the entry at `path`, or None when there is none or it fails a check."""
    body = verified_text(path)
    if body is None:
        return None
    declared = SPEC_LINE.search(body)
    if declared is None or declared.group(1) != spec_sha256:
        return None
    return body


def verified_text(path: pathlib.Path) -> str | None:
    """The text of the entry at `path` (after its header), or None when there is none, it is not
    this user's alone, or its text does not have the hash its header names."""
    data = verified_bytes(path)
    try:
        return data.decode("utf-8") if data is not None else None
    except UnicodeDecodeError:
        return None


def verified_bytes(path: pathlib.Path) -> bytes | None:
    """The bytes of the entry at `path` after its header line, under the rules of
    :func:`verified_text`."""
    try:
        data = read_file(path, MAX_ENGINE_BYTES, "an engine module")
        info = os.stat(path)
    except OSError:
        return None
    if info.st_mode & 0o022 or (hasattr(os, "getuid") and info.st_uid != os.getuid()):
        return None
    header = HEADER.match(data[:200].decode("ascii", "replace"))
    body = data[header.end() :] if header else b""
    if header is None or hashlib.sha256(body).hexdigest() != header.group(1):
        return None
    return body


def write_entry(path: pathlib.Path, text: str | bytes) -> None:
    """Store `text` at `path` with its hash, atomically; a failure only costs the next start a compile."""
    data = text.encode("utf-8") if isinstance(text, str) else text
    digest = hashlib.sha256(data).hexdigest()
    partial = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "wb") as out:
            out.write(f"# splendor-rules engine cache: sha256 {digest}\n".encode("ascii") + data)
        os.replace(partial, path)
    except OSError as e:
        log.warning("engine not cached at %s: %s", path, e.strerror or e)
        try:
            os.unlink(partial)
        except OSError:
            pass


def code_of(text: str, filename: str, folder: pathlib.Path | None) -> types.CodeType:
    """The compiled code of an engine's `text`: Python's ``compile`` takes 0.1-0.2 s of an
    engine and holds the interpreter lock all along (every table of a server waits), so the
    code is kept beside the engine's text (``marshal``, as Python keeps a module's .pyc), keyed
    by the text, the file name it carries and the Python version, under the rules of the other
    entries; anything else is compiled again."""
    if folder is None or not usable_folder(folder):
        return compile(text, filename, "exec")
    key = hashlib.sha256(f"{sys.version}\0{filename}\0{text}".encode()).hexdigest()
    path = folder / f"code-{key}.marshal"
    data = verified_bytes(path)
    if data is not None:
        try:
            code = marshal.loads(data)
        except (ValueError, EOFError, TypeError):
            code = None
        if isinstance(code, types.CodeType):
            with contextlib.suppress(OSError):
                os.utime(path)  # used: kept
            return code
    code = compile(text, filename, "exec")
    write_entry(path, marshal.dumps(code))
    prune(folder, "code", keep=path, suffix=".marshal")
    return code


def engine_text(rules: Any, folder: pathlib.Path | None, compile_rules: Callable[[Any], str]) -> tuple[str, str | None]:
    """The engine text of `rules` and the file it was read from or stored at (None: no cache):
    the cached entry when it passes every check, else `compile_rules(rules)`, then stored."""
    if folder is None or not usable_folder(folder):
        return compile_rules(rules), None
    name = re.sub(r"[^A-Za-z0-9_-]", "_", str(rules.name))[:60]
    path = folder / f"{name}-{key_of(rules)}.py"
    text = entry_text(path, rules.source.sha256)
    if text is not None:
        with contextlib.suppress(OSError):
            os.utime(path)  # used: kept
        return text, str(path)
    text = compile_rules(rules)
    write_entry(path, text)
    prune(folder, name, keep=path)
    return text, str(path)


def prune(folder: pathlib.Path, name: str, keep: pathlib.Path, now: float | None = None, suffix: str = ".py") -> None:
    """Remove the entries of spec `name` in `folder` (but `keep`) not used for KEEP_DAYS days."""
    now = time.time() if now is None else now
    for old in folder.glob(f"{name}-*{suffix}"):
        if old != keep and re.fullmatch(rf"{re.escape(name)}-[0-9a-f]{{64}}{re.escape(suffix)}", old.name):
            with contextlib.suppress(OSError):
                if now - old.stat().st_mtime > KEEP_DAYS * 86400:
                    old.unlink()
