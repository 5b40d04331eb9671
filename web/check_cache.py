"""What a server lists of a spec it checked before, kept on disk, so that it starts without
checking the whole catalogue again.

Checking the 24 specs of the catalogue takes over a second of processor time, which on a loaded
machine made a start take more than 3 s. What the front page needs of a spec is little: its
name, its titles and its numbers of players. After a spec passes its checks, that listing is
stored with the files the check read (:mod:`compiler.reads`: the spec, its bases, their tables,
each with the SHA-256 of its bytes, or as unreadable), in an entry keyed by the spec's real path
and the compiler's fingerprint (:func:`web.engine_cache.compiler_fingerprint`: the compiler, its
schema and grammar, the Python version). A later start lists the spec from the entry when every
one of those files still has that hash, and checks it again (as the gate before any engine is
compiled or run) when a table or a page first needs its rule model; a changed file, another
compiler or a failed check of the entry is a check now, as without a cache.

An entry is a file of the engines' folder, under its rules (:func:`web.engine_cache.usable_folder`,
the header with the hash of its text, the atomic write), and it is JSON read as data: a title
is text the pages escape. It grants no trust: the spec is checked before its engine is built,
and a model whose name or numbers of players differ from the listing is not served.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import pathlib
from dataclasses import dataclass
from typing import Any

from compiler.front.reading import read_input
from compiler.model import Rules, Text
from compiler.reads import Reads
from compiler.sheets.plurals import LANGUAGES

from . import engine_cache

MAX_LISTING_BYTES = 1_000_000


@dataclass(frozen=True)
class Listing:
    """What the front page shows of a spec: its name, its title by language, its numbers of players."""

    name: str
    titles: dict[str, str]
    players: tuple[int, ...]

    def title(self, lang: str) -> str:
        return self.titles.get(lang) or self.titles.get("en") or self.name


def listing_of(rules: Rules) -> Listing:
    """The listing of a checked rule model."""
    title = rules.title
    titles = {lang: text for lang in LANGUAGES if (text := title.get(lang))} if isinstance(title, Text) else {}
    return Listing(rules.name, titles or {"en": str(title)}, tuple(p.players for p in rules.players))


def entry_path(folder: pathlib.Path, spec: str) -> pathlib.Path:
    """The entry of the spec at `spec` (a path) for this compiler."""
    where = os.path.realpath(spec)
    key = hashlib.sha256(f"{engine_cache.compiler_fingerprint()}\0checked\0{where}".encode()).hexdigest()
    return folder / f"checked-{key}.json"


def unchanged(files: dict[str, Any]) -> bool:
    """Whether every file of `files` (real path -> SHA-256, or None: unreadable) is as it was."""
    for path, digest in files.items():
        try:
            now: str | None = hashlib.sha256(read_input(path, engine_cache.MAX_ENGINE_BYTES)).hexdigest()
        except OSError:
            now = None
        if now != digest:
            return False
    return True


def cached_listing(folder: pathlib.Path | None, spec: str) -> Listing | None:
    """The listing stored for `spec`, when there is an entry and every file it was checked from is unchanged."""
    if folder is None or not engine_cache.usable_folder(folder):
        return None
    text = engine_cache.verified_text(entry_path(folder, spec))
    if text is None or len(text) > MAX_LISTING_BYTES:
        return None
    try:
        entry = json.loads(text)
        listing = Listing(
            str(entry["name"]),
            {str(k): str(v) for k, v in dict(entry["titles"]).items()},
            tuple(int(n) for n in entry["players"]),
        )
        files = {str(k): (str(v) if v is not None else None) for k, v in dict(entry["files"]).items()}
    except (ValueError, TypeError, KeyError, AttributeError):
        return None
    if entry.get("spec") != os.path.realpath(spec) or not files or not unchanged(files):
        return None
    return listing


def store_listing(folder: pathlib.Path | None, spec: str, rules: Rules, files: Reads) -> None:
    """Keep the listing of `rules`, checked from `spec` after reading `files`, for the next start."""
    if folder is None or not files or not engine_cache.usable_folder(folder):
        return
    listing = listing_of(rules)
    entry = {
        "spec": os.path.realpath(spec),
        "name": listing.name,
        "titles": listing.titles,
        "players": list(listing.players),
        "files": dict(sorted(files.items())),
    }
    with contextlib.suppress(OSError):
        engine_cache.write_entry(entry_path(folder, spec), json.dumps(entry, ensure_ascii=False, indent=1) + "\n")
