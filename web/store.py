"""Tables, seats and moves in SQLite (the standard library's sqlite3).

Every move is committed before the server acknowledges it (``synchronous=FULL`` in WAL mode:
a commit that returned is on disk), so a server that stops, however it stops, resumes every
table from the file: the table's engine text, seed and player count, then its moves in order.

A seat's secret is never stored: only its SHA-256, compared in constant time
(``hmac.compare_digest``) with the hash of the secret a browser presents.
"""
from __future__ import annotations

import hashlib
import hmac
import sqlite3
import time
from dataclasses import dataclass

SCHEMA = """
CREATE TABLE IF NOT EXISTS engines (
    sha256 TEXT PRIMARY KEY,
    source TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    spec TEXT NOT NULL,
    engine TEXT NOT NULL REFERENCES engines(sha256),
    players INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    host_hash TEXT NOT NULL,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS seats (
    table_id TEXT NOT NULL REFERENCES tables(id),
    seat INTEGER NOT NULL,
    who TEXT NOT NULL,
    secret_hash TEXT,
    PRIMARY KEY (table_id, seat)
);
CREATE TABLE IF NOT EXISTS moves (
    table_id TEXT NOT NULL REFERENCES tables(id),
    n INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    action INTEGER NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (table_id, n)
);
"""


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def same_secret(given: str, stored_hash: str | None) -> bool:
    """Whether `given` is the secret whose hash is `stored_hash`, in time that does not depend on
    how much of it matches."""
    if stored_hash is None:
        return False
    return hmac.compare_digest(digest(given), stored_hash)


@dataclass(frozen=True)
class StoredTable:
    id: str
    spec: str
    engine_source: str
    players: int
    seed: int
    host_hash: str
    seats: list[tuple[str, str | None]]  # (who, secret hash) per seat
    moves: list[tuple[int, int]]  # (seat, action) in order


class Store:
    """One SQLite file; every method is one transaction."""

    def __init__(self, path: str):
        self.path = path
        self.db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")
        self.db.execute("PRAGMA foreign_keys=ON")
        self.db.executescript(SCHEMA)

    def close(self) -> None:
        self.db.close()

    def create_table(self, table_id: str, spec: str, engine_source: str, players: int, seed: int, host_hash: str,
                     seats: list[tuple[str, str | None]]) -> None:
        sha = digest(engine_source)
        with self._transaction():
            self.db.execute("INSERT OR IGNORE INTO engines (sha256, source) VALUES (?, ?)", (sha, engine_source))
            self.db.execute("INSERT INTO tables (id, spec, engine, players, seed, host_hash, created) "
                            "VALUES (?, ?, ?, ?, ?, ?, ?)", (table_id, spec, sha, players, seed, host_hash, time.time()))
            self.db.executemany("INSERT INTO seats (table_id, seat, who, secret_hash) VALUES (?, ?, ?, ?)",
                                [(table_id, i, who, h) for i, (who, h) in enumerate(seats)])

    def add_move(self, table_id: str, n: int, seat: int, action: int) -> None:
        """Store move number `n` (from 0); committed when this returns (the primary key refuses a
        second move n, so two writers cannot both store one)."""
        with self._transaction():
            self.db.execute("INSERT INTO moves (table_id, n, seat, action, at) VALUES (?, ?, ?, ?, ?)",
                            (table_id, n, seat, action, time.time()))

    def tables(self) -> list[StoredTable]:
        """Every stored table with its seats and moves, oldest first."""
        rows = self.db.execute("SELECT t.id, t.spec, e.source, t.players, t.seed, t.host_hash FROM tables t "
                               "JOIN engines e ON e.sha256 = t.engine ORDER BY t.created, t.id").fetchall()
        out = []
        for table_id, spec, source, players, seed, host_hash in rows:
            seats = [(who, h) for who, h in self.db.execute(
                "SELECT who, secret_hash FROM seats WHERE table_id = ? ORDER BY seat", (table_id,))]
            moves = [(s, a) for s, a in self.db.execute(
                "SELECT seat, action FROM moves WHERE table_id = ? ORDER BY n", (table_id,))]
            out.append(StoredTable(table_id, spec, source, players, seed, host_hash, seats, moves))
        return out

    def _transaction(self):
        return _Transaction(self.db)


class _Transaction:
    def __init__(self, db):
        self.db = db

    def __enter__(self):
        self.db.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind, value, traceback):
        self.db.execute("COMMIT" if kind is None else "ROLLBACK")
        return False
