"""The `play` command: a game at the terminal, humans and bots (:mod:`playtest.terminal`), or
the replay of a recorded game (:mod:`playtest.records`).
"""

from __future__ import annotations

import os
import sys

import click

from compiler.diagnostics import CompileError, SourceMap
from compiler.front import reading
from compiler.pipeline import load_rules
from compiler.safe_text import terminal_text
from compiler.sheets import refusals, tables
from compiler.sheets.plurals import LANGUAGES
from playtest import engines, records, terminal

from .. import rule_errors
from .common import echo, internal_error, report, say, spec_fault


@click.command()
@click.argument("spec", metavar="SPEC")
@click.option(
    "--players",
    type=click.IntRange(1),
    default=None,
    help="Players (default: the saved game's, else one per --seat, else 2).",
)
@click.option(
    "--seat",
    "seats",
    multiple=True,
    metavar="WHO",
    help="Who plays each seat, in order: human, random, greedy, mcts or mcts:PLAYOUTS "
    "(repeat it; seats not given are greedy; default: a saved game's seats, else a human "
    "against greedy bots).",
)
@click.option("--seed", type=int, default=None, help="Seed of the shuffle and the bots (default: a random one).")
@click.option(
    "--load",
    "load_path",
    type=click.Path(dir_okay=False),
    help="Resume a game saved with `save FILE`, with its seats unless --seat is given.",
)
@click.option("--cache-dir", type=click.Path(file_okay=False), help="Where engines built for specs are kept.")
@click.option("--native", is_flag=True, help="Play on the engine's native build (compile --native; the native extra).")
@click.option(
    "--replay",
    "replay_path",
    type=click.Path(dir_okay=False),
    metavar="FILE",
    help="Replay a game instead of playing: game N (--game N) of a `simulate --games-out` record "
    "file, or a saved game (`save FILE`, a web table's download).",
)
@click.option(
    "--game",
    "game_number",
    type=click.IntRange(0),
    default=None,
    metavar="N",
    help="With --replay of a record file: the game's index in the run.",
)
@click.option(
    "--lang",
    type=click.Choice(LANGUAGES),
    default="en",
    show_default=True,
    help="The language moves are said in and a refused move is explained in (the rule's words, as on the sheets).",
)
def play(spec, players, seats, seed, load_path, cache_dir, native, replay_path, game_number, lang):
    """Play SPEC at the terminal, humans and bots (type `help` at your turn).

    SPEC is a spec or variant, a file or a name such as official or target-12 (its
    engine is built when missing or stale), or a generated engine module (.py). Each
    human answers with the number of an action, the action in the spec's notation, or
    undo, save FILE, load FILE, help, quit.
    """

    sources = SourceMap()
    try:
        engine = engines.load(spec, cache_dir=cache_dir, sources=sources, native=native)
    except CompileError as err:
        report(err, sources)
        sys.exit(1)
    except engines.EngineError as e:
        raise click.UsageError(str(e)) from e
    if replay_path is None and game_number is not None:
        raise click.UsageError("--game N goes with --replay FILE")
    if replay_path is not None:
        try:
            row, where = records.read_replay(replay_path, engine.module, game_number)
            echo(records.replay_text(engine.module, row, where))
        except records.GameNotNamed as e:
            raise click.UsageError(str(e)) from None
        except records.InvalidSavedGame as e:  # located diagnostics, drawn as --load draws them
            echo(str(e), err=True)
            sys.exit(1)
        except records.RecordError as e:  # the command is right, the file is not: no usage text
            say(str(e), err=True)
            sys.exit(1)
        sys.exit(0)
    saved = None
    if load_path is not None:
        try:
            saved = terminal.read_saved(load_path)
        except OSError as e:
            raise click.BadParameter(f"cannot read {load_path}: {reading.reason(e)}", param_hint="--load") from e
    try:
        table = terminal.new_table(engine.module, players, seats, seed, saved, saved_name=load_path)
    except terminal.SavedGameError as e:  # the command is right, the file is not: no usage text
        echo(str(e), err=True)
        sys.exit(1)
    except terminal.TableError as e:
        raise click.UsageError(str(e)) from e
    colour = terminal.colour_wanted(sys.stdout, os.environ)  # a terminal, rich installed, no NO_COLOR
    found = engines.spec_path(spec)  # the spec compiled above: its rules word each move
    rules = load_rules(str(found)) if found is not None else None
    session = terminal.Session(
        table,
        ask=lambda prompt: click.prompt(terminal_text(prompt), prompt_suffix=" ", default="", show_default=False),
        say=terminal.coloured_say(echo, sys.stdout) if colour else echo,
        colour=colour,
        lang=lang,
        rules=rules,
    )
    try:
        status = session.run()
    except click.Abort:  # end of input or Ctrl-C at a prompt
        echo("\nstopped (the game was not saved)", err=True)
        status = 1
    except getattr(engine.module, "RuleError", ()) as exc:  # the spec made an impossible move legal
        game = session.game
        said = refusals.rule_error_told(exc, lang)
        if lang != "en" and said is not None:  # the players' words; then the spec error, in English
            say(tables.load(lang).text("stopped.rule_error", reason=said), err=True)
        spec_fault(
            rule_errors.Fault.of(exc),
            engine,
            sources,
            f"the game of {engine.name} (seed {game.seed}, turn {game.turn})",
        )
    except Exception as exc:  # a failure inside an engine or a bot: a bug, not a mistake in the spec
        internal_error(exc, f"playing {spec}")
    sys.exit(status)
