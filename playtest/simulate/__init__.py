"""Simulation: many seeded bot games per spec, spread over workers, summarised and compared.

The unit of work is a *chunk*: a few games of one engine, given by their indexes. A
game's seed is derived from (the run's seed, the spec's name, the game's index) by
SHA-256, and each bot's seed from (the game's seed, its seat), so a game is the same
whichever worker plays it and in whatever order; results are put back in game-index
order before anything is computed. The same seed therefore gives identical results for
any number of jobs, locally or on a Dask cluster.

A chunk carries the engine's source text, not a path, so a worker anywhere rebuilds the
same module (:func:`playtest.engines.from_source`). Three runners execute chunks: in
this process (``jobs=1``), in worker processes (``multiprocessing``), or on a Dask
cluster (``scheduler="tcp://..."``, the optional ``dask[distributed]`` extra).

Nothing here prints: progress goes to a callback, and Ctrl-C (``KeyboardInterrupt``)
stops the run and returns what finished, marked ``interrupted``.

The modules, in the order a run goes through them:

- :mod:`~playtest.simulate.game`     one game: its seeds, its seating, playing it, its result;
- :mod:`~playtest.simulate.runners`  chunks of games, played here, in processes or on Dask;
- :mod:`~playtest.simulate.summary`  what the games say per spec, and against the first spec;
- :mod:`~playtest.simulate.driver`   :func:`simulate`, which runs the above;
- :mod:`~playtest.simulate.formats`  the run as a terminal table, CSV or JSON; the progress line.

The names below are those the command line, the other playtest modules and the tests use.
"""

from __future__ import annotations

from .driver import InOrder, Progress, check_bots, check_players, simulate
from .formats import CSV_COLUMNS, format_csv, format_json, format_table, progress_line
from .game import (
    DEFAULT_MAX_TURNS,
    GameResult,
    bot_seed,
    deal,
    decision_names,
    decision_order,
    game_seed,
    play_game,
    seatings,
)
from .runners import IN_FLIGHT, Chunk, SchedulerError, SimulationError, chunk_size, connect, make_chunks, run_chunk
from .summary import CAPPED_LISTED, RARE_USE, Simulation, SpecSummary, compare, skill_dict

__all__ = [
    "CAPPED_LISTED",
    "CSV_COLUMNS",
    "DEFAULT_MAX_TURNS",
    "IN_FLIGHT",
    "RARE_USE",
    "Chunk",
    "GameResult",
    "InOrder",
    "Progress",
    "SchedulerError",
    "Simulation",
    "SimulationError",
    "SpecSummary",
    "bot_seed",
    "check_bots",
    "check_players",
    "chunk_size",
    "compare",
    "connect",
    "deal",
    "decision_names",
    "decision_order",
    "format_csv",
    "format_json",
    "format_table",
    "game_seed",
    "make_chunks",
    "play_game",
    "progress_line",
    "run_chunk",
    "seatings",
    "simulate",
    "skill_dict",
]
