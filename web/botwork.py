"""A bot's move, chosen where it does not hold up the server: in a worker process.

The server's event loop serves every table; a greedy bot's move costs milliseconds of Python
and an mcts bot's far more, which in the server's own process would hold the interpreter
lock while people's clicks wait. So bots think in a separate process: the server sends the
game's state (``to_json``, the engine's public format) and the engine's text once per worker,
the worker rebuilds both (``playtest.engines.from_source``, ``from_json``) and answers with
an action id. With ``workers=0`` (tests) bots think in a thread of the server's process.

A bot is made afresh for each move, seeded from (table seed, seat, move number), so a move
is the same whichever way it is chosen and after a restart.

With a hundred bot tables a worker is asked for a move a hundred and more times a second, and
each question wakes the pool's threads, the pipe and the worker: work that competes for the
machine with people's clicks. So the questions asked within BATCH_SECONDS go to a worker as
one message, answered as one (each bot still waits bot_delay before its move: a few
milliseconds more change nothing a player sees).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import concurrent.futures.process
import functools
import hashlib
import multiprocessing
import os
import pickle
import threading
import time
from dataclasses import dataclass
from types import ModuleType

from playtest import engines
from playtest.bots import make_bot

NEED_SOURCE = -1
BATCH_SECONDS = 0.01  # bots' questions asked within this time go to a worker together
_MODULES: dict[str, ModuleType] = {}  # in a worker: engines by the SHA-256 of their text


@dataclass(frozen=True)
class Question:
    """One bot's move to choose: its engine's key, the game's state (to_json), the bot and its seed."""

    sha: str
    state: str
    who: str
    seed: str


@dataclass(frozen=True)
class Failed:
    """A bot's move that failed in the worker: the error, raised again for that move alone."""

    error: BaseException


@dataclass
class _Waiting:
    """A question not sent yet, with the engine's text (sent only to a worker that lacks it)
    and the future its answer settles."""

    question: Question
    source: str
    answer: asyncio.Future[int]


def bot_seed(table_seed: int, seat: int, move: int) -> str:
    return f"{table_seed}:{seat}:{move}"


def choose_here(module, game, who: str, seed: str) -> int:
    """The move of bot `who` in `game` (a copy of the table's game: the bot may play ahead on it)."""
    return make_bot(who, module, seed).choose(game)


def _choose_in_worker(sources: dict[str, str], questions: list[Question]) -> list[int | Failed]:
    """In a worker: the answer to each question, NEED_SOURCE for an engine this worker has not
    built and whose text `sources` does not hold, a Failed for a move whose bot or rules failed."""
    for sha, source in sources.items():
        if sha not in _MODULES:
            _MODULES[sha] = engines.from_source(source, "<table engine>")
    answers: list[int | Failed] = []
    for q in questions:
        module = _MODULES.get(q.sha)
        if module is None:
            answers.append(NEED_SOURCE)
            continue
        try:
            answers.append(choose_here(module, module.from_json(q.state), q.who, q.seed))
        except Exception as e:  # noqa: BLE001 - that move's failure, not its batch's
            answers.append(Failed(e if _picklable(e) else RuntimeError(f"{type(e).__name__}: {e}")))
    return answers


def _picklable(error: BaseException) -> bool:
    try:
        pickle.dumps(error)
    except Exception:  # noqa: BLE001 - any failure to pickle: sent as its type and message
        return False
    return True


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
        self.waiting: list[_Waiting] = []  # questions for the next batch
        self.sending: set[asyncio.Task[None]] = set()
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
            return await asyncio.wait_for(self._ask(sha, source, state, who, seed), seconds)
        except concurrent.futures.process.BrokenProcessPool:  # a worker died (killed, out of memory): a new one
            self._replace(pool)
            return await asyncio.wait_for(self._ask(sha, source, state, who, seed), seconds)
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

    async def _ask(self, sha: str, source: str, state: str, who: str, seed: str) -> int:
        """The answer to one question, asked with the others of its batch."""
        loop = asyncio.get_running_loop()
        answer: asyncio.Future[int] = loop.create_future()
        if not self.waiting:
            loop.call_later(BATCH_SECONDS, self._start_sending, loop)
        self.waiting.append(_Waiting(Question(sha, state, who, seed), source, answer))
        return await answer

    def _start_sending(self, loop: asyncio.AbstractEventLoop) -> None:
        task = loop.create_task(self._send())
        self.sending.add(task)  # held until done (the loop keeps only a weak reference)
        task.add_done_callback(self.sending.discard)

    async def _send(self) -> None:
        """Send the waiting questions to a worker of the pool now (a pool replaced since they were
        asked: the new one) as one message, then the engines' texts for those it lacked, and
        settle each question's future with its own answer or failure."""
        batch, self.waiting = self.waiting, []
        loop = asyncio.get_running_loop()
        pool = self.pool
        try:
            if pool is None:
                raise concurrent.futures.process.BrokenProcessPool("the bots' workers are closed")
            answers = await loop.run_in_executor(pool, _choose_in_worker, {}, [w.question for w in batch])
            lacking = [i for i, a in enumerate(answers) if a == NEED_SOURCE]
            if lacking:
                sources = {batch[i].question.sha: batch[i].source for i in lacking}
                again = await loop.run_in_executor(
                    pool, _choose_in_worker, sources, [batch[i].question for i in lacking]
                )
                for i, a in zip(lacking, again, strict=True):
                    answers[i] = a
        except asyncio.CancelledError:  # the server stops: so do the moves of the batch
            for w in batch:
                w.answer.cancel()
            raise
        except Exception as e:  # noqa: BLE001 - the pool broke or closed: every move of the batch is told
            for w in batch:
                if not w.answer.done():
                    w.answer.set_exception(e)
            return
        for w, a in zip(batch, answers, strict=True):
            if w.answer.done():  # its bot stopped waiting (over its time)
                continue
            if isinstance(a, Failed):
                w.answer.set_exception(a.error)
            else:
                w.answer.set_result(a)

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=False, cancel_futures=True)
