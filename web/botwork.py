"""A bot's move, chosen where it does not hold up the server: in a worker process.

The server's event loop serves every table; a greedy bot's move costs milliseconds of Python
and an mcts bot's far more, which in the server's own process would hold the interpreter
lock while people's clicks wait. So bots think in a separate process: the server sends the
game's state (``to_json``, the engine's public format) and the engine's text once per worker,
the worker rebuilds both (``playtest.engines.from_source``, ``from_json``) and answers with
an action id. With ``workers=0`` (tests) bots think in a thread of the server's process.

A bot is made afresh for each move, seeded from (table seed, seat, move number), so a move
is the same whichever way it is chosen and after a restart.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import concurrent.futures.process
import functools
import hashlib
import multiprocessing
import os
import threading
import time
from types import ModuleType

from playtest import engines
from playtest.bots import make_bot

NEED_SOURCE = -1
_MODULES: dict[str, ModuleType] = {}  # in a worker: engines by the SHA-256 of their text


def bot_seed(table_seed: int, seat: int, move: int) -> str:
    return f"{table_seed}:{seat}:{move}"


def choose_here(module, game, who: str, seed: str) -> int:
    """The move of bot `who` in `game` (a copy of the table's game: the bot may play ahead on it)."""
    return make_bot(who, module, seed).choose(game)


def _choose_in_worker(sha: str, source: str | None, state: str, who: str, seed: str) -> int:
    module = _MODULES.get(sha)
    if module is None:
        if source is None:
            return NEED_SOURCE
        module = _MODULES[sha] = engines.from_source(source, "<table engine>")
    return choose_here(module, module.from_json(state), who, seed)


@functools.lru_cache(maxsize=64)
def _sha(source: str) -> str:
    """An engine's key in the workers (hashed once per engine, not once per move)."""
    return hashlib.sha256(source.encode("utf-8")).hexdigest()


def _leave_with_parent(parent: int) -> None:
    """In a worker: exit when the server that started it is gone (even killed with SIGKILL, which
    gives it no chance to stop its workers), rather than live on as an orphan."""

    def watch():
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


class Thinkers:
    """Where bots think: `workers` processes (0: threads of this process)."""

    def __init__(self, workers: int = 1):
        self.workers = workers
        self.pool = None
        if workers:
            # spawn: a fresh interpreter, not a copy of a server that holds threads and a database
            self.pool = self._pool()

    def _pool(self):
        return concurrent.futures.ProcessPoolExecutor(
            self.workers,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_leave_with_parent,
            initargs=(os.getpid(),),
        )

    async def choose(self, module, source: str, game, who: str, seed: str, seconds: float | None = None) -> int:
        """The bot's move, in at most `seconds` (TimeoutError past them: the worker that was
        thinking is killed and replaced, so that a bot lost in a spec's rules holds no process)."""
        if self.pool is None:
            return await asyncio.wait_for(asyncio.to_thread(choose_here, module, game.clone(), who, seed), seconds)
        sha = _sha(source)
        state = game.to_json()
        pool = self.pool
        try:
            return await asyncio.wait_for(self._ask(pool, sha, source, state, who, seed), seconds)
        except concurrent.futures.process.BrokenProcessPool:  # a worker died (killed, out of memory): a new one
            self._replace(pool)
            return await asyncio.wait_for(self._ask(self.pool, sha, source, state, who, seed), seconds)
        except TimeoutError:
            self._replace(pool, kill=True)
            raise

    def _replace(self, pool, kill: bool = False) -> None:
        """A new pool in place of `pool` (unless another move replaced it already); `kill` ends its
        workers at once, the one still thinking included (shutdown alone would wait for it)."""
        current = self.pool
        if current is None or current is not pool:
            return
        if kill:
            for process in list(getattr(current, "_processes", {}).values()):
                process.kill()
        current.shutdown(wait=False, cancel_futures=True)
        self.pool = self._pool()

    @staticmethod
    async def _ask(pool, sha: str, source: str, state: str, who: str, seed: str) -> int:
        loop = asyncio.get_running_loop()
        action = await loop.run_in_executor(pool, _choose_in_worker, sha, None, state, who, seed)
        if action == NEED_SOURCE:
            action = await loop.run_in_executor(pool, _choose_in_worker, sha, source, state, who, seed)
        return action

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=False, cancel_futures=True)
