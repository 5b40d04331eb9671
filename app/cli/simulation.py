"""The commands that play bot games in bulk: `simulate` (compare specs by their games, with
tables, charts, a report and game records) and `ladder` (rate bots on one spec).
"""

from __future__ import annotations

import os
import sys
import time

import click

from compiler.diagnostics import CompileError, SourceMap
from compiler.safe_text import terminal_text
from playtest import engines, plots, records
from playtest import ladder as ladder_mod
from playtest import report as report_mod
from playtest import simulate as sim_mod
from playtest.bots import BotError

from .. import rule_errors
from .common import echo, internal_error, report, say, spec_fault


@click.command()
@click.argument("specs", nargs=-1, required=True, metavar="SPEC...")
@click.option("--players", type=click.IntRange(1), default=2, show_default=True, help="Players in each game.")
@click.option("--games", type=click.IntRange(1), default=100, show_default=True, help="Games per spec.")
@click.option(
    "--bots",
    default="greedy",
    show_default=True,
    help="One bot for every seat, or one per seat: random, greedy, mcts (64 playouts) or mcts:PLAYOUTS.",
)
@click.option("--seed", type=int, default=0, show_default=True, help="Same seed, same results, for any --jobs.")
@click.option("--jobs", type=click.IntRange(0), default=0, help="Worker processes (default: one per core; 1: none).")
@click.option(
    "--max-turns",
    type=click.IntRange(1),
    default=1000,
    show_default=True,
    help="Stop a game after this many turns (reported as stopped at the cap).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the results as JSON.")
@click.option("--csv", "as_csv", is_flag=True, help="Print the results as CSV, one row per spec.")
@click.option("--plot", "plot_dir", type=click.Path(file_okay=False), help="Write charts (PNG, index.html) here.")
@click.option("--scheduler", metavar="ADDRESS", help="Run the games on this Dask scheduler (needs dask[distributed]).")
@click.option("--progress/--no-progress", default=None, help="Progress bar on stderr (default: when a terminal).")
@click.option("--cache-dir", type=click.Path(file_okay=False), help="Where engines built for specs are kept.")
@click.option("--native", is_flag=True, help="Play on the engine's native build (compile --native; the native extra).")
@click.option(
    "--report",
    "report_dir",
    type=click.Path(file_okay=False),
    metavar="DIR",
    help="Write report.html (tables and charts, self-contained) and the PNG charts here.",
)
@click.option(
    "--fixed-seats",
    is_flag=True,
    help="Keep each bot in its seat (default: rotate the bots so each plays every seat equally often).",
)
@click.option(
    "--games-out",
    "games_out",
    type=click.Path(dir_okay=False),
    metavar="FILE",
    help="Write one record per game (.jsonl or .csv), replayable with `play SPEC --replay FILE --game N`.",
)
def simulate(
    specs,
    players,
    games,
    bots,
    seed,
    jobs,
    max_turns,
    as_json,
    as_csv,
    plot_dir,
    scheduler,
    progress,
    cache_dir,
    native,
    report_dir,
    fixed_seats,
    games_out,
):
    """Play bot games under each SPEC and compare them with the first.

    SPEC is a spec or variant, a file or a name such as official or target-12 (its
    engine is built when missing or stale), or a generated engine module (.py).
    Reports games played, length in rounds, win rate per seat, winning prestige, ties,
    passes and stuck games, and each spec's difference from the first with
    significance tests. Ctrl-C stops and reports what finished.
    """
    names = _checked_options(bots, players, as_json, as_csv, games_out, plot_dir or report_dir)
    sources = SourceMap()
    loaded = _engines(specs, cache_dir, sources, native)
    tty = sys.stderr.isatty()
    show = progress if progress is not None else tty
    on_progress = _progress_printer(tty) if show else None
    stream = None
    try:
        sim_mod.check_players(loaded, players)  # before the record file is opened (and emptied)
        if games_out:  # each game appended as it finishes (in game order), so a stopped run keeps them
            stream = records.stream(games_out, loaded, players)
        try:
            result = sim_mod.simulate(
                loaded,
                players,
                games,
                names,
                seed=seed,
                jobs=jobs or os.cpu_count() or 1,
                max_turns=max_turns,
                scheduler=scheduler,
                progress=on_progress,
                fixed_seats=fixed_seats,
                on_game=stream.add if stream else None,
            )
        finally:
            if stream:
                stream.close()  # after a failing game too: the games before it are kept
    except records.RecordError as e:  # a ValueError too, but the user's file, not their options
        say(f"error: {e}", err=True)
        sys.exit(1)
    except ValueError as e:
        raise click.UsageError(str(e)) from e
    except sim_mod.SimulationError as e:
        if e.kind == "RuleError" and 0 <= e.spec < len(loaded):  # the spec made an impossible move legal
            engine = loaded[e.spec]
            game = f"game {e.game} of {engine.name} (seed {e.seed}, {players} players: {e.seats or ', '.join(names)})"
            spec_fault(rule_errors.Fault(e.located, e.said, e.detail), engine, sources, game)
        say(f"error: {e}", err=True)
        sys.exit(3)  # a failure inside an engine or a bot: a bug, not a mistake in the spec
    _results(result, show, games * len(loaded), "json" if as_json else "csv" if as_csv else "table")
    if stream:
        say(f"wrote {stream.written} game records to {games_out}", err=True)
    if plot_dir and result.finished:
        _write_files(plots.write, result, plot_dir, "charts")
    if report_dir and result.finished:
        _write_files(report_mod.write, result, report_dir, "report")
    if result.interrupted:
        sys.exit(130)


def _engines(
    specs: tuple[str, ...], cache_dir: str | None, sources: SourceMap, native: bool = False
) -> list[engines.Engine]:
    """The engine of each SPEC (its native build with `native`), built when missing or stale; a spec's
    diagnostics (or E597, a native build that cannot be made) end the command."""
    loaded: list[engines.Engine] = []
    for spec in specs:
        try:
            loaded.append(engines.load(spec, cache_dir=cache_dir, sources=sources, native=native))
        except CompileError as err:
            report(err, sources)
            sys.exit(1)
        except engines.EngineError as e:
            raise click.UsageError(str(e)) from e
    return loaded


def _checked_options(bots: str, players: int, as_json: bool, as_csv: bool, games_out, charts) -> tuple[str, ...]:
    """The bots named by --bots, once the options go together (usage errors otherwise): one
    output format, a record file of a known kind, the charts' packages when charts are asked for."""
    if as_json and as_csv:
        raise click.UsageError("choose one of --json and --csv")
    try:
        names = sim_mod.check_bots(bots.split(","), players)
    except (BotError, ValueError) as e:
        raise click.BadParameter(str(e), param_hint="--bots") from e
    if games_out:
        try:
            records.kind_of(games_out)
        except records.RecordError as e:
            raise click.BadParameter(str(e), param_hint="--games-out") from e
    if charts:
        try:
            plots.require()
        except plots.PlotError as e:
            raise click.UsageError(str(e)) from e
    return names


def _progress_printer(tty: bool):
    """The progress callback: redrawn in place on a terminal, a line every few seconds elsewhere."""
    started = time.monotonic()
    drawn = [0.0]

    def on_progress(done, total):
        now = time.monotonic()
        if 0 < done < total and now - drawn[0] < (0.2 if tty else 5.0):
            return
        drawn[0] = now
        line = sim_mod.progress_line(done, total, now - started)
        click.echo("\r" + terminal_text(line) if tty else terminal_text(line), err=True, nl=not tty or done == total)

    return on_progress


def _results(result, progress_shown: bool, games: int, form: str) -> None:
    """The results on stdout as a table, JSON or CSV; a stopped run says how many games finished."""
    if progress_shown and result.interrupted:
        echo("", err=True)
    if result.interrupted:
        say(
            f"interrupted: {result.finished} of {games} games finished; the results below are for those games", err=True
        )
    if form == "json":
        echo(sim_mod.format_json(result))
    elif form == "csv":
        echo(sim_mod.format_csv(result), nl=False)
    else:
        echo(sim_mod.format_table(result))


def _write_files(write, result, folder: str, what: str) -> None:
    """Write the charts or the report into `folder` and name each file written (on stderr); a
    folder that cannot be written is exit status 1, a bug of the writer status 3, never a traceback."""
    try:
        written = write(result, folder)
    except OSError as err:
        say(f"error: cannot write the {what} to {folder}: {err.strerror or err}", err=True)
        sys.exit(1)
    except Exception as exc:  # noqa: BLE001 - a bug of the charts or the report: said, with exit status 3
        internal_error(exc, f"writing the {what} to {folder}")
    for path in written:
        say(f"wrote {path}", err=True)


@click.command()
@click.argument("spec", metavar="SPEC")
@click.option(
    "--bots",
    default="random,greedy,mcts:64",
    show_default=True,
    help="The bots of the round robin, each named once: random, greedy, mcts or mcts:PLAYOUTS.",
)
@click.option("--players", type=click.IntRange(1), default=2, show_default=True, help="Players in each game.")
@click.option(
    "--games",
    type=click.IntRange(1),
    default=20,
    show_default=True,
    help="Games per group of bots (every pair, with two players), seats rotated.",
)
@click.option("--seed", type=int, default=0, show_default=True, help="Same seed, same ladder, for any --jobs.")
@click.option("--jobs", type=click.IntRange(0), default=0, help="Worker processes (default: one per core; 1: none).")
@click.option(
    "--max-turns",
    type=click.IntRange(1),
    default=1000,
    show_default=True,
    help="Stop a game after this many turns (such a game is not rated).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the ladder as JSON.")
@click.option("--cache-dir", type=click.Path(file_okay=False), help="Where engines built for specs are kept.")
@click.option("--native", is_flag=True, help="Play on the engine's native build (compile --native; the native extra).")
@click.option("--scheduler", metavar="ADDRESS", help="Run the games on this Dask scheduler (needs dask[distributed]).")
def ladder(spec, bots, players, games, seed, jobs, max_turns, as_json, cache_dir, native, scheduler):
    """Rate bots on SPEC: a round robin with rotated seats, OpenSkill ratings with their uncertainty.

    Needs the optional openskill package (pip install 'splendor-rules[ladder]'). Ctrl-C
    stops and rates the games finished.
    """
    try:
        ladder_mod.require()
        names = ladder_mod.check_bots(bots.split(","), players)
    except (BotError, ladder_mod.LadderError) as e:
        raise click.BadParameter(str(e), param_hint="--bots") from e
    sources = SourceMap()
    try:
        engine = engines.load(spec, cache_dir=cache_dir, sources=sources, native=native)
    except CompileError as err:
        report(err, sources)
        sys.exit(1)
    except engines.EngineError as e:
        raise click.UsageError(str(e)) from e
    try:
        result = ladder_mod.ladder(
            engine, names, players, games, seed, jobs or os.cpu_count() or 1, max_turns, scheduler=scheduler
        )
    except ValueError as e:
        raise click.UsageError(str(e)) from e
    except sim_mod.SimulationError as e:
        say(f"error: {e}", err=True)
        sys.exit(3)
    echo(ladder_mod.format_json(result) if as_json else ladder_mod.format_table(result))
    if result.interrupted:
        sys.exit(130)
