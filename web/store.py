"""Tables, seats and moves in SQLite (the standard library's sqlite3).

Every move is committed before the server acknowledges it (``synchronous=FULL`` in WAL mode:
a commit that returned is on disk; moves of several tables that wait together share one
commit), so a server that stops, however it stops, resumes every table from the file: the
name of its spec, the SHA-256 of the engine it was played with, its seed and player count,
then its moves in order. A bot's move alone is committed without the disk sync (``NORMAL``:
the operating system has it, so a server killed loses nothing; only the machine's crash can
take it back), because nobody waits for it and it is the same move again after any restart (a
bot is seeded by table, seat and move number): the next synced commit (a person's move, a new
table) puts it on disk with its own, as the log is written in order. With a hundred bot tables,
a person's click thus no longer waits for the disk syncs of bots' moves (issue 31).

The file is data, never code: a tables file may come from elsewhere (a copy, a backup, a
share), so it holds no engine text to run. The server builds the engines of the specs it
serves (through the compiler, the one gate for a spec) and resumes a table with the engine of
its spec: the same one when the hash matches; otherwise, when the spec's rules changed since,
only if every stored move replays under them. A file of the first format (it kept each
engine's text) is migrated when opened: the texts are dropped, unread.

A table stopped for good (a rule failed, a bot did) keeps why in ``tables.problem``, as the
key and values of its Words, so that after a restart it stays stopped and each reader is told
why in their own language.

A table removed (expired, or past the number kept) leaves a line in ``closed``: its id and
why, so that its links say what became of it rather than "no such table".

A seat's secret is never stored: only its SHA-256, compared in constant time
(``hmac.compare_digest``) with the hash of the secret a browser presents.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import json
import queue
import sqlite3
import threading
import time
from dataclasses import dataclass

from .i18n import Words

TABLES = """
CREATE TABLE IF NOT EXISTS {name} (
    id TEXT PRIMARY KEY,
    spec TEXT NOT NULL,
    engine_sha256 TEXT NOT NULL,
    players INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    host_hash TEXT NOT NULL,
    created REAL NOT NULL,
    watch_hash TEXT,
    undo INTEGER NOT NULL DEFAULT 0,
    undone INTEGER NOT NULL DEFAULT 0,
    problem TEXT
);
"""
SCHEMA = (
    TABLES.format(name="tables")
    + """
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
CREATE TABLE IF NOT EXISTS closed (
    id TEXT PRIMARY KEY,
    reason TEXT NOT NULL,
    at REAL NOT NULL
);
"""
)


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
    engine_sha256: str  # of the engine text it was played with: the server compares its own engine's
    players: int
    seed: int
    host_hash: str
    seats: list[tuple[str, str | None]]  # (who, secret hash) per seat
    moves: list[tuple[int, int]]  # (seat, action) in order
    created: float = 0.0  # time.time() when it was made
    last_at: float = 0.0  # when it was made or last moved
    watch_hash: str | None = None  # of the spectators' secret (None: stored before they had one)
    undo: bool = False  # the host's house rule: a move may be taken back until the next player acts
    undone: int = 0  # moves taken back so far
    problem: Words | str | None = None  # why it was stopped for good (str: a sentence stored as such), None: in play


class Store:
    """One SQLite file; every method is one transaction (one lock orders the threads that use it).

    :meth:`store_move` is what the server awaits for each move: a writer thread commits the
    moves waiting at that moment together (a group commit: one disk sync for all of them), so
    the event loop never waits on the disk and many tables cost few syncs.
    """

    def __init__(self, path: str):
        self.path = path
        self.lock = threading.Lock()
        self.db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")
        self.synced = True  # the commits' setting now (Store._commit)
        self._migrate()
        self.db.execute("PRAGMA foreign_keys=ON")
        self.db.executescript(SCHEMA)
        self._add_watch_hash()
        self._add_undo()
        self._add_problem()
        self.pending: queue.SimpleQueue = queue.SimpleQueue()
        self.writer: threading.Thread | None = None

    def _migrate(self) -> None:
        """A file of the first format (`engines` held each engine's text, `tables.engine` its hash)
        in the current one: the hashes kept, the texts dropped without being read. SQLite's way
        of changing a table's columns: a new table, the rows copied, the old one dropped, the new
        one renamed, with foreign keys off, in one transaction."""
        names = {row[0] for row in self.db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if "engines" not in names:
            return
        self.db.execute("PRAGMA foreign_keys=OFF")
        self.db.execute("BEGIN IMMEDIATE")
        try:
            if "tables" in names:
                self.db.execute(TABLES.format(name="tables_v2"))
                self.db.execute(
                    "INSERT INTO tables_v2 (id, spec, engine_sha256, players, seed, host_hash, created) "
                    "SELECT id, spec, engine, players, seed, host_hash, created FROM tables"
                )
                self.db.execute("DROP TABLE tables")
                self.db.execute("ALTER TABLE tables_v2 RENAME TO tables")
            self.db.execute("DROP TABLE engines")
            self.db.execute("COMMIT")
        except sqlite3.Error:
            self.db.execute("ROLLBACK")
            raise

    def _add_watch_hash(self) -> None:
        """A table stored before spectators had a secret of their own gets a watch_hash column
        left null: its old watch link (the host's secret) opens nothing, and the host's page
        stores the new one's hash (see set_watch_hash)."""
        columns = {row[1] for row in self.db.execute("PRAGMA table_info(tables)")}
        if "watch_hash" not in columns:
            self.db.execute("ALTER TABLE tables ADD COLUMN watch_hash TEXT")

    def _add_undo(self) -> None:
        """A table stored before the undo house rule gets its columns: off, nothing undone."""
        columns = {row[1] for row in self.db.execute("PRAGMA table_info(tables)")}
        if "undo" not in columns:
            self.db.execute("ALTER TABLE tables ADD COLUMN undo INTEGER NOT NULL DEFAULT 0")
        if "undone" not in columns:
            self.db.execute("ALTER TABLE tables ADD COLUMN undone INTEGER NOT NULL DEFAULT 0")

    def _add_problem(self) -> None:
        """A table stored before a stopped table's problem was kept gets the column, left null."""
        columns = {row[1] for row in self.db.execute("PRAGMA table_info(tables)")}
        if "problem" not in columns:
            self.db.execute("ALTER TABLE tables ADD COLUMN problem TEXT")

    async def set_problem(self, table_id: str, why: Words) -> None:
        """Store why a table was stopped for good (its key and values); returns once committed."""
        text = json.dumps(why.as_json(), sort_keys=True)
        await self._write(lambda db: db.execute("UPDATE tables SET problem = ? WHERE id = ?", (text, table_id)))

    async def set_undo(self, table_id: str, on: bool) -> None:
        """Switch a table's undo house rule on or off; returns once committed."""
        await self._write(lambda db: db.execute("UPDATE tables SET undo = ? WHERE id = ?", (int(on), table_id)))

    async def take_back(self, table_id: str, n: int) -> None:
        """Remove move number `n` (from 0), the table's last, and count it as undone; returns once
        committed (raises sqlite3.Error, changing nothing, when move `n` is not the last)."""

        def write(db: sqlite3.Connection) -> None:
            if db.execute("SELECT MAX(n) FROM moves WHERE table_id = ?", (table_id,)).fetchone()[0] != n:
                raise sqlite3.IntegrityError(f"move {n} is not the last of table {table_id}")
            db.execute("DELETE FROM moves WHERE table_id = ? AND n = ?", (table_id, n))
            db.execute("UPDATE tables SET undone = undone + 1 WHERE id = ?", (table_id,))

        await self._write(write)

    def close(self) -> None:
        if self.writer is not None:
            self.pending.put(None)
            self.writer.join(10)
            self.writer = None
        with self.lock:
            self.db.close()

    async def store_move(self, table_id: str, n: int, seat: int, action: int, synced: bool = True) -> None:
        """Store move number `n` (from 0) of a table; returns once it is committed (raises
        sqlite3.Error when it is not: the primary key refuses a second move n). `synced`: the
        commit is on disk when this returns; a bot's move need not be (see :class:`Store`)."""
        at = time.time()
        await self._write(
            lambda db: db.execute(
                "INSERT INTO moves (table_id, n, seat, action, at) VALUES (?, ?, ?, ?, ?)",
                (table_id, n, seat, action, at),
            ),
            synced,
        )

    async def create_table(
        self,
        table_id: str,
        spec: str,
        engine_sha256: str,
        players: int,
        seed: int,
        host_hash: str,
        seats: list[tuple[str, str | None]],
        watch_hash: str | None = None,
    ) -> None:
        """Store a new table and its seats (its engine by hash, never its text); returns once committed."""
        sha = engine_sha256
        created = time.time()

        def write(db):
            db.execute(
                "INSERT INTO tables (id, spec, engine_sha256, players, seed, host_hash, created, watch_hash) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (table_id, spec, sha, players, seed, host_hash, created, watch_hash),
            )
            db.executemany(
                "INSERT INTO seats (table_id, seat, who, secret_hash) VALUES (?, ?, ?, ?)",
                [(table_id, i, who, h) for i, (who, h) in enumerate(seats)],
            )

        await self._write(write)

    async def set_watch_hash(self, table_id: str, watch_hash: str) -> None:
        """Give a table stored before spectators had a secret its watch hash; returns once committed."""
        await self._write(
            lambda db: db.execute(
                "UPDATE tables SET watch_hash = ? WHERE id = ? AND watch_hash IS NULL", (watch_hash, table_id)
            )
        )

    async def _write(self, job, synced: bool = True) -> None:
        """Run `job(db)` in the writer thread, in the next group commit; wait for the commit (on
        disk too unless not `synced`: a commit of unsynced jobs alone skips the disk sync)."""
        loop = asyncio.get_running_loop()
        done = loop.create_future()
        if self.writer is None:
            self.writer = threading.Thread(target=self._writer, name="splendor-rules-store", daemon=True)
            self.writer.start()
        self.pending.put((job, loop, done, synced))
        await done

    def _writer(self) -> None:
        while True:
            first = self.pending.get()
            if first is None:
                return
            batch = [first]
            while True:
                try:
                    item = self.pending.get_nowait()
                except queue.Empty:
                    break
                if item is None:
                    self.pending.put(None)
                    break
                batch.append(item)
            outcomes = self._commit([job for job, _, _, _ in batch], any(synced for _, _, _, synced in batch))
            for (_, loop, done, _), outcome in zip(batch, outcomes, strict=True):
                loop.call_soon_threadsafe(_settle, done, outcome)

    def _commit(self, jobs, synced: bool = True) -> list:
        """Run every job in one transaction, each in a savepoint of its own (a job that fails
        leaves no trace and fails alone); an outcome per job (None, or its error). `synced`: the
        commit reaches the disk before it returns (synchronous=FULL), else the operating system
        has it (NORMAL: it survives the server's process, killed or not, and goes to disk with the
        next synced commit or checkpoint)."""
        outcomes: list = []
        with self.lock:
            if synced != self.synced:
                self.db.execute(f"PRAGMA synchronous={'FULL' if synced else 'NORMAL'}")
                self.synced = synced
            try:
                self.db.execute("BEGIN IMMEDIATE")
                for job in jobs:
                    self.db.execute("SAVEPOINT job")
                    try:
                        job(self.db)
                        self.db.execute("RELEASE job")
                        outcomes.append(None)
                    except sqlite3.Error as e:
                        self.db.execute("ROLLBACK TO job")
                        self.db.execute("RELEASE job")
                        outcomes.append(e)
                self.db.execute("COMMIT")
            except sqlite3.Error as e:
                with contextlib.suppress(sqlite3.Error):
                    self.db.execute("ROLLBACK")
                return [e] * len(jobs)
        return outcomes

    def tables(self) -> list[StoredTable]:
        """Every stored table with its seats and moves, oldest first."""
        with self.lock:
            return self._tables()

    def _tables(self) -> list[StoredTable]:
        rows = self.db.execute(
            "SELECT t.id, t.spec, t.engine_sha256, t.players, t.seed, t.host_hash, t.created, "
            "(SELECT MAX(at) FROM moves m WHERE m.table_id = t.id), t.watch_hash, t.undo, t.undone, t.problem "
            "FROM tables t ORDER BY t.created, t.id"
        ).fetchall()
        out = []
        for table_id, spec, sha, players, seed, host_hash, created, last_move, watch_hash, undo, undone, why in rows:
            seats = [
                (who, h)
                for who, h in self.db.execute(
                    "SELECT who, secret_hash FROM seats WHERE table_id = ? ORDER BY seat", (table_id,)
                )
            ]
            moves = [
                (s, a)
                for s, a in self.db.execute("SELECT seat, action FROM moves WHERE table_id = ? ORDER BY n", (table_id,))
            ]
            out.append(
                StoredTable(
                    table_id,
                    spec,
                    sha,
                    players,
                    seed,
                    host_hash,
                    seats,
                    moves,
                    created,
                    max(created, last_move or 0.0),
                    watch_hash,
                    bool(undo),
                    undone,
                    _words(why),
                )
            )
        return out

    async def close_tables(self, closing: dict[str, Words]) -> None:
        """Remove tables (id -> why, a sentence for whoever opens one of their links again, kept
        as its key and values: said in the language of whoever asks); their moves, seats and
        row; returns once committed."""
        at = time.time()
        ids = [(table_id,) for table_id in closing]

        def write(db):
            db.executemany("DELETE FROM moves WHERE table_id = ?", ids)
            db.executemany("DELETE FROM seats WHERE table_id = ?", ids)
            db.executemany("DELETE FROM tables WHERE id = ?", ids)
            db.executemany(
                "INSERT OR REPLACE INTO closed (id, reason, at) VALUES (?, ?, ?)",
                [(table_id, json.dumps(why.as_json(), sort_keys=True), at) for table_id, why in closing.items()],
            )

        await self._write(write)

    def closed_reason(self, table_id: str) -> Words | str | None:
        """Why table `table_id` was removed, if it was: its Words, or the English sentence a
        server older than the catalogues stored."""
        with self.lock:
            row = self.db.execute("SELECT reason FROM closed WHERE id = ?", (table_id,)).fetchone()
        if row is None:
            return None
        return _words(row[0])


def _words(text: str | None) -> Words | str | None:
    """Words stored as their key and values, or a sentence stored as it is (by an older server)."""
    return None if text is None else Words.from_json(text) or str(text)


def _settle(done: asyncio.Future, outcome) -> None:
    if done.cancelled():
        return
    if outcome is None:
        done.set_result(None)
    else:
        done.set_exception(outcome)
