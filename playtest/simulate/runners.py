"""The units of work of a run (:class:`Chunk`) and the runners that play them.

A chunk is a few games of one engine, given by their indexes; it carries the engine's source
text, not a path, so a worker anywhere rebuilds the same module
(:func:`playtest.engines.from_source`), or loads its native build when the engine is one. Three
runners execute chunks: in this process (``jobs=1``), in worker processes (``multiprocessing``), or
on a Dask cluster
(``scheduler="tcp://..."``, the optional ``dask[distributed]`` extra). Each yields
(spec position, results) as chunks finish, in any order.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import signal
from collections.abc import Generator, Iterable, Iterator, Sequence
from dataclasses import dataclass

from .. import engines
from .game import GameResult, deal, game_seed, play_game


class SimulationError(Exception):
    """A game that failed in a worker: the message names the spec, the game and its seed.

    The parts travel as the exception's args, which survive the pickling back from a worker:
    the spec's position in the run, the game's index and seed, the failure's class name
    and message, and the bots in seat order; for a RuleError (a fault of the spec, which the CLI
    reports at the effect) its `located` field, the effect as written and its spec line, and what
    went wrong without it, `said` (playtest.engines.rule_error_parts)."""

    def __init__(
        self,
        message: str,
        spec: int = -1,
        game: int = -1,
        seed: int | None = None,
        kind: str = "",
        detail: str = "",
        seats: str = "",
        located: str | None = None,
        said: str = "",
    ):
        super().__init__(message, spec, game, seed, kind, detail, seats, located, said)
        self.spec, self.game, self.seed, self.kind, self.detail = spec, game, seed, kind, detail
        self.seats = seats  # the bots in seat order for this game (seatings rotate between games)
        self.located, self.said = located, said

    def __str__(self) -> str:
        return self.args[0]


class SchedulerError(ValueError):
    """A Dask scheduler address that cannot be reached (a usage error, not a failing game)."""


@dataclass(frozen=True)
class Chunk:
    spec: int  # position of the spec in the run
    name: str  # the spec's name (SPEC_NAME), part of every game seed
    source: str  # the engine's source text
    filename: str
    indexes: tuple[int, ...]
    players: int
    bots: tuple[str, ...]
    seed: int
    max_turns: int
    fixed_seats: bool = False
    native_dir: str | None = None  # the folder of native builds when the engine is native (Engine.native_dir)


def run_chunk(chunk: Chunk) -> tuple[int, list[GameResult]]:
    """Plays a chunk's games (in a worker or here); returns (spec position, results)."""
    module = engines.from_source(chunk.source, chunk.filename, chunk.native_dir is not None, chunk.native_dir)
    out = []
    for i in chunk.indexes:
        number, seated = deal(i, chunk.bots, chunk.fixed_seats)
        s = game_seed(chunk.seed, chunk.name, number)
        try:
            out.append(play_game(module, chunk.players, seated, s, i, chunk.max_turns))
        except Exception as e:  # a bug in an engine or a bot: say which game reproduces it
            located, said = engines.rule_error_parts(e)
            raise SimulationError(
                f"{chunk.name}: game {i} (seed {s}, seats {','.join(seated)}) failed: {type(e).__name__}: {e}",
                chunk.spec,
                i,
                s,
                type(e).__name__,
                str(e),
                ", ".join(seated),
                located,
                said,
            ) from e
    return chunk.spec, out


def make_chunks(
    sources: Sequence[engines.Engine],
    players: int,
    games: int,
    bots: Sequence[str],
    seed: int,
    max_turns: int,
    size: int,
    fixed_seats: bool = False,
) -> Iterator[Chunk]:
    """Chunks of `size` games, interleaved across specs so that a stopped run has some of each.

    Made one at a time as the runners ask (a billion games are a hundred million chunks:
    listed up front they would fill the memory before the first game).
    """
    for lo in range(0, games, size):
        indexes = range(lo, min(games, lo + size))
        for k, e in enumerate(sources):
            yield Chunk(
                k,
                e.name,
                e.source,
                e.path or e.label,
                tuple(indexes),
                players,
                tuple(bots),
                seed,
                max_turns,
                fixed_seats,
                e.native_dir,
            )


def chunk_size(games: int, jobs: int, bots: Sequence[str] = ()) -> int:
    """Small enough for even load and frequent progress, large enough to amortise the transfer.

    A greedy game takes about a tenth of a second, an MCTS game seconds: chunks of MCTS
    games are kept to two so that progress moves and Ctrl-C loses little.
    """
    cap = 2 if any(b.startswith("mcts") for b in bots) else 10
    return max(1, min(cap, math.ceil(games / (8 * max(1, jobs)))))


IN_FLIGHT = 4  # chunks handed to each worker ahead of its results: enough to keep it busy, few to hold


def _run_here(chunks: Iterable[Chunk]) -> Generator[tuple[int, list[GameResult]], None, None]:
    for c in chunks:  # game by game, so that Ctrl-C loses at most the game being played
        for i in c.indexes:
            yield run_chunk(dataclasses.replace(c, indexes=(i,)))


def _ignore_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides what Ctrl-C means


def _run_processes(chunks: Iterable[Chunk], jobs: int) -> Generator[tuple[int, list[GameResult]], None, None]:
    """The chunks on `jobs` worker processes, at most IN_FLIGHT per worker queued at a time
    (Pool.imap would read the whole iterable into its queue)."""
    import multiprocessing
    import queue

    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    pool = context.Pool(processes=jobs, initializer=_ignore_sigint)
    done: queue.SimpleQueue = queue.SimpleQueue()
    try:
        waiting = 0
        for chunk in chunks:
            pool.apply_async(
                run_chunk,
                (chunk,),
                callback=lambda r: done.put((True, r)),
                error_callback=lambda e: done.put((False, e)),
            )
            waiting += 1
            while waiting >= IN_FLIGHT * jobs:
                waiting -= 1
                yield _result(done.get())
        while waiting:
            waiting -= 1
            yield _result(done.get())
        pool.close()
        pool.join()
    finally:
        pool.terminate()  # on Ctrl-C or an error: stop the games still running
        pool.join()


def _result(outcome):
    ok, value = outcome
    if not ok:
        raise value
    return value


def connect(address: str):
    """A ``distributed.Client`` of the Dask scheduler at `address` (the caller closes it)."""
    try:
        from distributed import Client
    except ImportError:
        raise SimulationError("--scheduler needs Dask: pip install 'dask[distributed]'") from None
    try:
        return Client(address)
    except (OSError, ValueError) as e:  # nothing listening there, or not an address: the user's to fix
        raise SchedulerError(f"cannot reach the Dask scheduler at '{address}': {e}") from None


def _run_dask(chunks: Iterable[Chunk], scheduler) -> Generator[tuple[int, list[GameResult]], None, None]:
    """The chunks on a Dask cluster, submitted as results come back: IN_FLIGHT per worker thread."""
    try:
        from distributed import as_completed
    except ImportError:
        raise SimulationError("--scheduler needs Dask: pip install 'dask[distributed]'") from None
    own = isinstance(scheduler, str)
    client = connect(scheduler) if own else scheduler
    chunks = iter(chunks)
    threads = max(1, sum(client.nthreads().values()))
    futures = [client.submit(run_chunk, c, pure=False) for c in itertools.islice(chunks, IN_FLIGHT * threads)]
    running = as_completed(futures)
    try:
        for future in running:
            futures.remove(future)
            for c in itertools.islice(chunks, 1):  # one more for the one done
                futures.append(client.submit(run_chunk, c, pure=False))
                running.add(futures[-1])
            yield future.result()
    finally:
        client.cancel(futures)
        if own:
            client.close()
