"""The run itself: :func:`simulate` checks the request, makes the chunks, runs them, summarises.

Results are put back in game-index order before anything is computed, and :class:`InOrder`
hands games to ``on_game`` in an order that depends on nothing but the games: the same seed
therefore gives identical results for any number of jobs, locally or on a Dask cluster.
Ctrl-C (``KeyboardInterrupt``) stops the run and returns what finished, marked ``interrupted``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Generator, Iterable, Sequence

from .. import engines
from ..bots import parse_bot
from .game import DEFAULT_MAX_TURNS, GameResult
from .runners import Chunk, _run_dask, _run_here, _run_processes, chunk_size, make_chunks
from .summary import Simulation, SpecSummary

Progress = Callable[[int, int], None]


class InOrder:
    """Hands games over in stream order, whatever order the workers finish them in.

    The order is game 0 of each spec (in the run's spec order), then game 1 of each, ...:
    it depends on nothing but the games, so a stream written from it is the same for any
    jobs. A game that finishes early waits here until every game before it has come.
    """

    def __init__(self, specs: int, emit: Callable[[int, GameResult], None]):
        self.specs, self.emit = specs, emit
        self.waiting: dict[tuple[int, int], GameResult] = {}
        self.next = (0, 0)  # (game index, spec position) due next

    def add(self, spec: int, results: Iterable[GameResult]) -> None:
        for r in results:
            self.waiting[(r.index, spec)] = r
        while self.next in self.waiting:
            index, k = self.next
            self.emit(k, self.waiting.pop(self.next))
            self.next = (index, k + 1) if k + 1 < self.specs else (index + 1, 0)

    def flush(self) -> None:
        """The games still waiting (a run stopped before the games before them came), in order."""
        for index, k in sorted(self.waiting):
            self.emit(k, self.waiting.pop((index, k)))


def check_players(sources: Sequence[engines.Engine], players: int) -> None:
    """ValueError unless every engine plays with `players` players."""
    for e in sources:
        counts = tuple(getattr(e.module, "PLAYER_COUNTS", ()))
        if players not in counts:
            raise ValueError(
                f"{e.label}: {players} players is not a player count of '{e.name}' "
                f"(it plays with {', '.join(map(str, counts))})"
            )


def check_bots(bots: Sequence[str], players: int) -> tuple[str, ...]:
    """One bot name per seat: a single name plays every seat. Raises BotError/ValueError."""
    names = tuple(b.strip() for b in bots if b.strip())
    for b in names:
        parse_bot(b)
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        raise ValueError(f"{len(names)} bots for {players} players: give one bot, or one per seat")
    return names


def _runner(
    chunks: Iterable[Chunk], jobs: int, scheduler: object
) -> Generator[tuple[int, list[GameResult]], None, None]:
    """Where the chunks run: on a Dask cluster, in worker processes, or here."""
    if scheduler is not None:
        return _run_dask(chunks, scheduler)
    if jobs > 1:
        return _run_processes(chunks, jobs)
    return _run_here(chunks)


def _summary(engine: engines.Engine, found: list[GameResult], games: int) -> SpecSummary:
    """One spec's games, in game order, with what identifies its engine."""
    return SpecSummary(
        engine.label,
        engine.name,
        sorted(found, key=lambda r: r.index),
        games,
        getattr(engine.module, "SPEC_SHA256", None),
        tuple(getattr(engine.module, "STEPS", ())),
    )


def simulate(
    sources: Sequence[engines.Engine],
    players: int,
    games: int,
    bots: Sequence[str],
    seed: int = 0,
    jobs: int = 1,
    max_turns: int = DEFAULT_MAX_TURNS,
    scheduler=None,
    progress: Progress | None = None,
    chunk: int | None = None,
    fixed_seats: bool = False,
    on_game: Callable[[int, GameResult], None] | None = None,
) -> Simulation:
    """Plays `games` games of each engine and summarises them (see the module docstring).

    `scheduler` is a Dask scheduler address (or a ``distributed.Client``); `progress` is
    called with (games finished, games requested) after each chunk. `on_game` is called
    with (spec position, result) for each game as soon as every game before it has been
    handed over, in the order game 0 of each spec, game 1 of each spec, ... (the same for
    any jobs: :class:`InOrder`); a run that stops early hands over the games it holds, in
    that order. Ctrl-C returns the games finished so far with ``interrupted=True``.
    """
    if games < 1:
        raise ValueError("the number of games must be at least 1")
    if jobs < 1:
        raise ValueError("the number of jobs must be at least 1")
    check_players(sources, players)
    bots = check_bots(bots, players)
    size = chunk or chunk_size(games, jobs, bots)
    chunks = make_chunks(sources, players, games, bots, seed, max_turns, size, fixed_seats)
    total = games * len(sources)
    found: list[list[GameResult]] = [[] for _ in sources]
    done = 0
    interrupted = False
    start = time.monotonic()
    runner = _runner(chunks, jobs, scheduler)
    in_order = InOrder(len(sources), on_game) if on_game is not None else None
    try:
        if progress:
            progress(0, total)
        for k, results in runner:
            found[k].extend(results)
            done += len(results)
            if in_order is not None:
                in_order.add(k, results)
            if progress:
                progress(done, total)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        runner.close()
        if in_order is not None:
            in_order.flush()
    summaries = [_summary(e, found[k], games) for k, e in enumerate(sources)]
    return Simulation(
        players,
        games,
        bots,
        seed,
        max_turns,
        summaries,
        interrupted,
        jobs,
        time.monotonic() - start,
        fixed_seats=fixed_seats,
    )
