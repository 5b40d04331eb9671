"""`splendor-rules serve`: the specs loaded and checked, the app run under uvicorn."""
from __future__ import annotations

import sqlite3

import uvicorn

from . import catalogue
from .app import create_app

DEFAULT_DB = "splendor-tables.sqlite3"


class ServeError(Exception):
    """The server cannot start (its database cannot be opened); the message says why."""


def load_variants(paths: list[str] | None, sources=None) -> dict:
    """The variants to serve: `paths`, or the official rules and the catalogue when None.
    Raises the compiler's CompileError for a spec with errors."""
    return catalogue.load(paths if paths else catalogue.default_specs(), sources)


def make_app(variants: dict, db: str, bot_delay: float = 0.6, bot_workers: int = 1):
    try:
        return create_app(variants, db, bot_delay, bot_workers)
    except sqlite3.Error as e:
        raise ServeError(f"cannot open the database {db}: {e}") from None


def run(app, host: str, port: int) -> None:
    # A short grace on shutdown: the seats' event streams never end by themselves. No access log:
    # the paths hold the seats' secrets.
    uvicorn.run(app, host=host, port=port, timeout_graceful_shutdown=2, log_level="info", access_log=False)
