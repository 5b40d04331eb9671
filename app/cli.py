"""The command line: the only module that prints or exits.

Each command is a thin wrapper: it calls the driver (:mod:`compiler.pipeline`) or
playtest, renders diagnostics with their source lines, and sets the exit status (0 clean,
1 rule errors, 2 usage). It is the top of the import graph: it imports playtest, which
imports the compiler's driver, and nothing imports it.
"""
from __future__ import annotations

import contextlib
import glob
import importlib.util
import json
import os
import pathlib
import random
import sys
import time

import click

from compiler import diff as diff_mod
from compiler import pipeline
from compiler.diagnostics import CompileError, Diagnostic, SourceMap, render_all, sorted_diagnostics, to_json
from compiler.files import write_atomic
from compiler.front import reading
from compiler.front.overlay import find_spec, locate
from compiler.front.source import display_path
from compiler.safe_text import terminal_text, visible
from compiler.sheets import render as sheet_render
from compiler.sheets.lint import lint as lint_sheets
from compiler.sheets.plurals import LANGUAGES
from playtest import engines, plots, records, terminal
from playtest import ladder as ladder_mod
from playtest import report as report_mod
from playtest import simulate as sim_mod
from playtest.bots import BotError

from . import rule_errors, scaffold


def echo(text: object = "", **options) -> None:
    """click.echo of text that may hold a spec's texts or file names: the output boundary, where
    every control character but line breaks and tabs is shown escaped (no escape sequence of a
    title reaches the terminal: OSC 52 sets the clipboard, ESC [ 2 J clears the screen)."""
    click.echo(terminal_text(str(text)), **options)


def say(text: object = "", **options) -> None:
    """click.echo of one line (a message, a file written): every control character shown
    escaped, line breaks too, so that a file name holding one (`evil\\nofficial.yaml: ok`)
    cannot forge a line of the output. A block of lines (diagnostics, a table) goes through
    `echo`, its parts made safe where the block is built."""
    click.echo(visible(str(text)), **options)


def report(err: CompileError, sources: SourceMap) -> None:
    """Print every diagnostic of a failed run to stderr, with source lines and carets."""
    diagnostics = sorted_diagnostics(err.diagnostics)
    echo(render_all(diagnostics, sources), err=True)
    n = len(diagnostics)
    say(f"{n} error{'s' if n != 1 else ''}", err=True)


@contextlib.contextmanager
def _messages_shown_safely():
    """Click writes its own errors (a bad option, a file or name it cannot use); their messages
    can quote a file name or a spec's text, so they pass the same boundary as `say` (one line)."""
    try:
        yield
    except click.ClickException as err:
        err.message = visible(err.message)  # type: ignore[misc]  # click marks it Final; it is a plain attribute
        raise


class Commands(click.Group):
    """The command group, whose every usage error (parsing the group's options, or a command's
    arguments and its own checks) is shown with its control characters escaped."""

    def make_context(self, *args, **options):
        with _messages_shown_safely():
            return super().make_context(*args, **options)

    def invoke(self, ctx):
        with _messages_shown_safely():
            return super().invoke(ctx)


@click.group(cls=Commands, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="splendor-rules")
def main() -> None:
    """splendor-rules: compile Splendor rules specs into engines and reference sheets."""


# ----------------------------------------------------------------------------- check
# (section owned by the front-end work: `splendor-rules check`)

EXIT_INTERNAL = 3  # a bug in splendor-rules, not in the spec


def internal_error(exc: BaseException, doing: str) -> None:
    """Report an unexpected exception without a traceback and exit with status 3.

    Set SPLENDOR_RULES_TRACEBACK=1 to let the exception through (for debugging).
    """
    if os.environ.get("SPLENDOR_RULES_TRACEBACK"):
        raise exc
    text = str(exc).strip().splitlines()
    detail = f": {text[0]}" if text else ""
    say(f"internal error while {doing}: {type(exc).__name__}{detail}", err=True)
    say("This is a bug in splendor-rules, not a mistake in the spec. Please report it with the file that "
               "caused it (SPLENDOR_RULES_TRACEBACK=1 shows the traceback).", err=True)
    sys.exit(EXIT_INTERNAL)


def show_undecodable(diagnostics, sources: SourceMap, limit: int = 2_000_000) -> None:
    """Let the report show lines of files the load pass could not decode (binary, not UTF-8, too large).

    Registers a best-effort text for each such file: invalid bytes and control
    characters become U+FFFD, so a caret can still point at the place.
    """
    for d in diagnostics:
        if d.span is None or sources.line(d.span.file, 1) is not None:
            continue
        try:
            data = reading.read_input(d.span.file, limit)[:limit]
        except OSError:
            continue
        text = data.decode("utf-8", "replace")
        sources.add(d.span.file, "".join(c if c.isprintable() or c in "\t\n" else "\ufffd" for c in text))


def spec_arg(spec: str) -> str:
    """A SPEC argument as a path: a file as given, or the spec a name stands for.

    Every command takes what `diff` and `extends` take: `official`, `target-12` or a path
    (see overlay.find_spec); a name that is no spec is an E301 error with the names
    nearby. (play and simulate go through playtest.engines.load, which also imports
    engine modules by name.)
    """
    if os.path.exists(spec) or spec.endswith((".yaml", ".yml", ".py")) or "/" in spec or os.sep in spec:
        return spec
    return find_spec(spec)


def expand_specs(specs, sources: SourceMap) -> tuple[list[str], list]:
    """The SPEC arguments, a variant index (variants/index.yaml) standing for the variants it
    lists, each path once (so `check variants/*.yaml` checks every variant, not the index as a
    spec); a folder stands for its .yaml files, as the shell's DIR/*.yaml would (`check
    variants`); with the diagnostics of an index that cannot be read or a folder with no spec."""
    out, seen, diagnostics = [], set(), []
    given = []
    for spec in specs:
        if not os.path.isdir(spec):
            given.append(spec)
            continue
        found = sorted(glob.glob(os.path.join(glob.escape(spec), "*.yaml")))
        if not found:
            diagnostics.append(Diagnostic("E001", f"the folder {display_path(spec)} holds no spec (no .yaml file)"))
        given.extend(found)
    for spec in given:
        try:
            paths = pipeline.index_entries(spec, sources) if pipeline.is_variant_index(spec, sources) else [spec]
        except CompileError as err:
            diagnostics.extend(err.diagnostics)
            continue
        for path in paths:
            key = os.path.normpath(path)
            if key not in seen:
                seen.add(key)
                out.append(path)
    return out, diagnostics


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _player_range(counts: list[int]) -> str:
    if not counts:
        return "no player counts"
    if counts == list(range(counts[0], counts[-1] + 1)) and len(counts) > 1:
        return f"{counts[0]}-{counts[-1]} players"
    return f"{', '.join(map(str, counts))} player{'s' if counts != [1] else ''}"


def check_summary(path: str, rules) -> dict:
    """What `check` says about a clean spec, as data (the form `--format json` prints)."""
    counts = [p.players for p in rules.players]
    return {
        "file": path, "ok": True, "name": rules.name,
        "extends": rules.bases[0].name if rules.bases else None, "changes": len(rules.changes),
        "actions": len(rules.actions), "end_of_turn": len(rules.steps), "end": len(rules.end),
        "cards": len(rules.cards), "nobles": len(rules.nobles), "players": counts,
    }


def check_summary_line(s: dict, warnings_shown: bool = False) -> str:
    """A summary as one line: `rulespec/official.yaml: ok (7 actions, 2 end-of-turn steps, ...)`."""
    parts = [_plural(s["actions"], "action"), _plural(s["end_of_turn"], "end-of-turn step"),
             _plural(s["end"], "end trigger"), _plural(s["cards"], "card"), _plural(s["nobles"], "noble"),
             _player_range(s["players"])]
    variant = f"variant of {s['extends']}, {_plural(s['changes'], 'change')}; " if s["extends"] else ""
    warned = f"; {_plural(s['warnings'], 'warning')}{'' if warnings_shown else ' (-W shows them)'}" \
        if s.get("warnings") else ""
    return f"{s['file']}: ok ({variant}{', '.join(parts)}{warned})"


@main.command()
@click.argument("specs", nargs=-1, required=True, metavar="SPEC...")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="text: a summary line per clean spec on stdout, diagnostics with source lines on stderr. "
                   "json: one JSON array on stdout: the diagnostics if there are any, else one summary per spec.")
@click.option("-W", "--warnings", "show_warnings", is_flag=True,
              help="Also show warnings (e.g. a variant text that lacks a translation).")
def check(specs: tuple[str, ...], fmt: str, show_warnings: bool = False) -> None:
    """Check rules specs and variants, and report every problem in them.

    SPEC is a file or a name such as official or target-12 (as in `extends`); a variant
    index (variants/index.yaml) stands for the variants it lists, and a folder for its
    .yaml files (`check variants`).

    Exit status: 0 when every SPEC is clean, 1 when there are errors, 3 on an
    internal error of splendor-rules.
    """
    sources = SourceMap()
    paths, diagnostics = expand_specs(specs, sources)
    summaries = []
    warnings: list[Diagnostic] = []
    for spec in paths:
        try:
            checked = pipeline.check_spec(spec_arg(spec), sources)
            summary = check_summary(display_path(spec), checked.rules)
            summary["warnings"] = len(checked.warnings)
            summaries.append(summary)
            warnings.extend(checked.warnings)
        except CompileError as err:
            diagnostics.extend(err.diagnostics)
        except Exception as exc:  # noqa: BLE001 - the one place that turns a bug into exit status 3
            internal_error(exc, f"checking {display_path(spec)}")
    if fmt == "json":
        echo(to_json(sorted_diagnostics(diagnostics)) if diagnostics else json.dumps(summaries, indent=2))
    else:
        for summary in summaries:
            say(check_summary_line(summary, show_warnings))
        if warnings and show_warnings:
            echo(render_all(sorted_diagnostics(warnings), sources), err=True)
        if diagnostics:
            show_undecodable(diagnostics, sources)
            report(CompileError(diagnostics), sources)
    sys.exit(1 if diagnostics else 0)


# ----------------------------------------------------------------------------- compile
# (section owned by the engine work: `splendor-rules compile`, `build`)

ENGINE_DIR = "generated/engines"


def compile_specs(specs, out_dir: str, sources: SourceMap) -> tuple[list[str], list]:
    """Compile each spec to OUT_DIR/NAME.py; returns (written paths, diagnostics)."""
    written = []
    specs, diagnostics = expand_specs(specs, sources)
    for spec in specs:
        try:
            engine = pipeline.compile_spec(spec_arg(spec), sources)
        except CompileError as err:
            diagnostics.extend(err.diagnostics)
            continue
        except Exception as exc:  # noqa: BLE001
            internal_error(exc, f"compiling {display_path(spec)}")
        path = os.path.join(out_dir, engine.file_name)
        try:
            write_atomic(path, engine.text)
        except OSError as err:  # the folder, not the spec: stop (what was written stays whole)
            say(f"error: cannot write {display_path(path)}: {err.strerror or err}", err=True)
            sys.exit(1)
        written.append(display_path(path))
    return written, diagnostics


@main.command("compile")
@click.argument("specs", nargs=-1, required=True, metavar="SPEC...")
@click.option("-o", "--out", "out_dir", default=ENGINE_DIR, show_default=True, metavar="DIR",
              help="Folder for the generated engine modules (one NAME.py per spec).")
def compile_command(specs: tuple[str, ...], out_dir: str) -> None:
    """Compile rules specs into standalone Python engine modules.

    Each module needs only the standard library; a spec with errors writes nothing.
    SPEC is taken as by `check`: a file, a name, a variant index or a folder.
    """
    sources = SourceMap()
    written, diagnostics = compile_specs(specs, out_dir, sources)
    for path in written:
        say(f"wrote {path}")
    if diagnostics:
        report(CompileError(diagnostics), sources)
    sys.exit(1 if diagnostics else 0)


def load_engine(path: str):
    """Import a generated engine module from its file."""
    spec = importlib.util.spec_from_file_location(f"splendor_engine_{pathlib.Path(path).stem}", path)
    assert spec is not None and spec.loader is not None  # a .py file always has a source loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def demo_game(engine, players: int = 2, seed: int = 1, moves: int = 24) -> list[str]:
    """The first MOVES decisions of a seeded game in which each player picks at random."""
    game = engine.new_game(players, seed=seed)
    rng = random.Random(seed)
    lines = []
    for _ in range(moves):
        if game.is_over():
            break
        legal = game.legal_actions()
        action = legal[rng.randrange(len(legal))]
        lines.append(f"round {game.round:>2}  player {game.current_player + 1}  {engine.action_to_string(action)}")
        game.apply(action)
    lines.append(f"after {len(game.history)} decisions: prestige {game.scores()}")
    return lines


@main.command()
@click.option("--root", default=".", show_default=True, help="The project folder.")
@click.option("--demo-moves", default=24, show_default=True, help="Moves of the demo game to print.")
@click.option("--sheets/--no-sheets", default=True, show_default=True, help="Write the reference sheets.")
@click.option("--simulate-games", default=40, show_default=True,
              help="Games per spec in the closing simulation (0: none).")
def build(root: str, demo_moves: int, sheets: bool, simulate_games: int) -> None:
    """The main job: check and compile the official spec and every variant, play a demo game,
    write the reference sheets and compare the official rules with two variants by simulation."""
    os.chdir(root)
    sources = SourceMap()
    try:
        specs = pipeline.catalogue(sources)
    except CompileError as err:
        report(err, sources)
        sys.exit(1)
    ctx = click.get_current_context()
    say(f"== check ({len(specs)} specs)")
    _invoke_step(ctx, check, *specs)
    say(f"== compile -> {ENGINE_DIR}")
    written, diagnostics = compile_specs(specs, ENGINE_DIR, sources)
    if diagnostics:
        report(CompileError(diagnostics), sources)
        sys.exit(1)
    say(f"wrote {len(written)} engines")
    say("== demo game (official rules, 2 players, seed 1)")
    engine = load_engine(os.path.join(ENGINE_DIR, "official.py"))
    for line in demo_game(engine, moves=demo_moves):
        say(line)
    if sheets:
        formats = "md,html,pdf" if importlib.util.find_spec("weasyprint") else "md,html"
        say(f"== sheets ({formats}) -> generated/sheets")
        _invoke_step(ctx, sheet, *specs, "--lang", "en,fr,nl,sr", "--format", formats, "-o", SHEET_DIR)
    if simulate_games:
        say(f"== simulation: official rules against two variants, {simulate_games} greedy games each")
        _invoke_step(ctx, simulate, "rulespec/official.yaml", "variants/target-12.yaml",
                     "variants/take-up-to-three.yaml", "--games", str(simulate_games), "--bots", "greedy",
                     "--seed", "1", "--no-progress")


def _invoke_step(ctx, command, *args: str) -> None:
    """Run another command, with its own argument parsing and defaults, as a step of `build`."""
    try:
        command.main(args=list(args), prog_name=f"splendor-rules {command.name}", standalone_mode=False)
    except SystemExit as stop:
        if stop.code:
            sys.exit(stop.code)
    except click.ClickException as err:
        err.message = visible(err.message)  # type: ignore[misc]  # click marks it Final; it is a plain attribute
        err.show()
        sys.exit(err.exit_code)


# ----------------------------------------------------------------------------- variants
# (section owned by the variant work: `splendor-rules diff`, `new`)

EXIT_USAGE = 2


@main.command()
@click.argument("before", metavar="A")
@click.argument("after", metavar="B")
@click.option("--lang", type=click.Choice(LANGUAGES), default="en", show_default=True,
              help="The language of the report (the languages of the sheets).")
def diff(before: str, after: str, lang: str) -> None:
    """Show, in words, every rule that differs between two specs or variants.

    A and B are spec files (or spec names such as `official` or `target-12`); each is
    resolved through its chain of variants and checked first. Each difference is
    shown before and after, with where each side defines it, and with the variant's
    note. Exit status: 0 when the rules are the same (nothing is printed), 1 when
    they differ, 2 when a spec has errors, 3 on an internal error.
    """
    sources = SourceMap()
    models = []
    for spec in (before, after):
        try:
            models.append(pipeline.load_rules(spec_arg(spec), sources))
        except CompileError as err:
            show_undecodable(err.diagnostics, sources)
            report(err, sources)
            sys.exit(EXIT_USAGE)
        except Exception as exc:  # noqa: BLE001 - a bug becomes exit status 3, not a traceback
            internal_error(exc, f"reading {display_path(spec)}")
    try:
        old, new = models
        differences = diff_mod.compare(old, new)
        text = diff_mod.render(differences, old, new, lang=lang)
    except CompileError as err:  # a broken language table: located like a spec error
        report(err, sources)
        sys.exit(EXIT_USAGE)
    except Exception as exc:  # noqa: BLE001
        internal_error(exc, f"comparing {display_path(before)} with {display_path(after)}")
    if text:
        echo(text, nl=False)
    sys.exit(1 if differences else 0)


@main.command()
@click.argument("name")
@click.option("--from", "base", default="official", show_default=True, metavar="BASE",
              help="The spec the variant extends: a name (official, or a variant in variants/) or a .yaml path.")
@click.option("-o", "--output", "folder", default="variants", show_default=True, metavar="DIR",
              help="The folder to write NAME.yaml in.")
def new(name: str, base: str, folder: str) -> None:
    """Start a house variant: write DIR/NAME.yaml, a commented skeleton extending BASE.

    The file changes nothing yet and checks clean as written; its comments list what
    a variant can change, with the base's own entries. An existing file is never
    overwritten. Exit status: 0 when written, 1 when BASE has errors, 2 on a usage
    error (a bad name, a base not found, the file exists).
    """
    if not scaffold.NAME.fullmatch(name):
        say(f"error: '{name}' is not a variant name: use lower-case letters, digits, '-' and '_', "
                   "starting with a letter or a digit", err=True)
        sys.exit(EXIT_USAGE)
    path = os.path.join(folder, f"{name}.yaml")
    shown = display_path(path)
    if os.path.exists(path):
        say(f"error: {shown} already exists; it is left as it is (choose another NAME or -o DIR)", err=True)
        sys.exit(EXIT_USAGE)
    sources = SourceMap()
    try:  # a name is looked up from the new file's folder, as its `extends` will be; a path is as given
        base_path = base if base.endswith(".yaml") and os.path.isfile(base) else locate(base, folder)
    except CompileError as err:
        report(err, sources)
        sys.exit(EXIT_USAGE)
    extends = base if not base.endswith(".yaml") else os.path.relpath(base_path, folder).replace(os.sep, "/")
    try:
        rules = pipeline.load_rules(base_path, sources)
    except CompileError as err:
        show_undecodable(err.diagnostics, sources)
        report(err, sources)
        sys.exit(1)
    except Exception as exc:  # noqa: BLE001
        internal_error(exc, f"reading {display_path(base_path)}")
    base_shown = base if not base.endswith(".yaml") else display_path(base_path)
    text = scaffold.skeleton(name, extends, rules, shown, base_shown)
    try:
        os.makedirs(folder, exist_ok=True)
        with open(path, "x", encoding="utf-8") as handle:
            handle.write(text)
    except FileExistsError:
        say(f"error: {shown} already exists; it is left as it is", err=True)
        sys.exit(EXIT_USAGE)
    except OSError as err:
        say(f"error: cannot write {shown}: {err.strerror}", err=True)
        sys.exit(EXIT_USAGE)
    say(f"wrote {shown} (a variant of {rules.name} that changes nothing yet)")
    say(f"next: edit it, then `splendor-rules check {shown}` and `splendor-rules diff {base} {shown}`")


# ----------------------------------------------------------------------------- sheets
# (section owned by the sheet work: `splendor-rules sheet`)

SHEET_DIR = "generated/sheets"


def _csv_choice(value: str, allowed: tuple[str, ...], what: str) -> list[str]:
    items = [v.strip() for v in value.split(",") if v.strip()]
    wrong = [v for v in items if v not in allowed]
    if wrong or not items:
        raise click.BadParameter(f"unknown {what} {', '.join(repr(w) for w in wrong) or '(none given)'} "
                                 f"(choose from: {', '.join(allowed)})")
    return list(dict.fromkeys(items))


@main.command()
@click.argument("specs", nargs=-1, required=True, metavar="SPEC...")
@click.option("--lang", "langs", default="en,fr,nl,sr", show_default=True, metavar="LANGS",
              help="Comma-separated sheet languages: en, fr, nl, sr.")
@click.option("--format", "formats", default="md,html", show_default=True, metavar="FORMATS",
              help="Comma-separated formats: md, html, pdf (pdf needs the 'pdf' extra).")
@click.option("-o", "--output", "out_dir", default=SHEET_DIR, show_default=True, metavar="DIR",
              help="Where NAME.LANG.md/.html/.pdf are written.")
def sheet(specs: tuple[str, ...], langs: str, formats: str, out_dir: str) -> None:
    """Write printable reference sheets for rules specs and variants.

    Every number and condition on a sheet comes from the spec. Exit status: 0 when
    every sheet was written, 1 when a spec or a language table has errors, 2 on a
    usage error (including PDF asked for without WeasyPrint), 3 on an internal error.
    """
    lang_list = _csv_choice(langs, LANGUAGES, "language")
    format_list = _csv_choice(formats, sheet_render.FORMATS, "format")
    if "pdf" in format_list:
        try:
            sheet_render.weasyprint()
        except sheet_render.PdfUnavailable as err:
            say(f"error: {err}", err=True)
            sys.exit(2)
    sources = SourceMap()
    paths, problems = expand_specs(specs, sources)
    failed = bool(problems)
    if problems:
        report(CompileError(problems), sources)
    for spec in paths:
        shown = display_path(spec)
        try:
            rules = pipeline.load_rules(spec_arg(spec), sources)
            base = pipeline.load_rules(rules.bases[0].path, sources) if rules.bases else None
            found = lint_sheets(rules)
            warnings = [d for d in found if d.severity != "error"]
            errors = [d for d in found if d.severity == "error"]
            if warnings:
                echo(render_all(warnings, sources), err=True)
            if errors:
                raise CompileError(errors)
            written = sheet_render.write_sheets(rules, lang_list, format_list, pathlib.Path(out_dir), base)
        except CompileError as err:
            report(err, sources)
            failed = True
            continue
        except sheet_render.PdfUnavailable as err:
            say(f"error: {err}", err=True)
            sys.exit(2)
        except OSError as err:
            say(f"error: cannot write the sheets of {shown} to {out_dir}: {err.strerror or err}", err=True)
            sys.exit(1)
        except Exception as exc:  # noqa: BLE001 - a bug, reported without a traceback
            internal_error(exc, f"writing the sheets of {shown}")
        for w in written:
            pages = f" ({w.pages} page{'s' if w.pages != 1 else ''})" if w.pages is not None else ""
            say(f"wrote {display_path(str(w.path))}{pages}")
    sys.exit(1 if failed else 0)


# ----------------------------------------------------------------------------- playtest
# (section owned by the playtest work: `splendor-rules simulate`, `play`)

@main.command()
@click.argument("specs", nargs=-1, required=True, metavar="SPEC...")
@click.option("--players", type=click.IntRange(1), default=2, show_default=True, help="Players in each game.")
@click.option("--games", type=click.IntRange(1), default=100, show_default=True, help="Games per spec.")
@click.option("--bots", default="greedy", show_default=True,
              help="One bot for every seat, or one per seat: random, greedy, mcts (64 playouts) or mcts:PLAYOUTS.")
@click.option("--seed", type=int, default=0, show_default=True, help="Same seed, same results, for any --jobs.")
@click.option("--jobs", type=click.IntRange(0), default=0, help="Worker processes (default: one per core; 1: none).")
@click.option("--max-turns", type=click.IntRange(1), default=1000, show_default=True,
              help="Stop a game after this many turns (reported as stopped at the cap).")
@click.option("--json", "as_json", is_flag=True, help="Print the results as JSON.")
@click.option("--csv", "as_csv", is_flag=True, help="Print the results as CSV, one row per spec.")
@click.option("--plot", "plot_dir", type=click.Path(file_okay=False), help="Write charts (PNG, index.html) here.")
@click.option("--scheduler", metavar="ADDRESS", help="Run the games on this Dask scheduler (needs dask[distributed]).")
@click.option("--progress/--no-progress", default=None, help="Progress bar on stderr (default: when a terminal).")
@click.option("--cache-dir", type=click.Path(file_okay=False), help="Where engines built for specs are kept.")
@click.option("--report", "report_dir", type=click.Path(file_okay=False), metavar="DIR",
              help="Write report.html (tables and charts, self-contained) and the PNG charts here.")
@click.option("--fixed-seats", is_flag=True,
              help="Keep each bot in its seat (default: rotate the bots so each plays every seat equally often).")
@click.option("--games-out", "games_out", type=click.Path(dir_okay=False), metavar="FILE",
              help="Write one record per game (.jsonl or .csv), replayable with `play SPEC --replay FILE --game N`.")
def simulate(specs, players, games, bots, seed, jobs, max_turns, as_json, as_csv, plot_dir, scheduler, progress,
             cache_dir, report_dir, fixed_seats, games_out):
    """Play bot games under each SPEC and compare them with the first.

    SPEC is a spec or variant, a file or a name such as official or target-12 (its
    engine is built when missing or stale), or a generated engine module (.py).
    Reports games played, length in rounds, win rate per seat, winning prestige, ties,
    passes and stuck games, and each spec's difference from the first with
    significance tests. Ctrl-C stops and reports what finished.
    """
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
    if plot_dir or report_dir:
        try:
            plots.require()
        except plots.PlotError as e:
            raise click.UsageError(str(e)) from e
    sources = SourceMap()
    loaded = []
    for spec in specs:
        try:
            loaded.append(engines.load(spec, cache_dir=cache_dir, sources=sources))
        except CompileError as err:
            report(err, sources)
            sys.exit(1)
        except engines.EngineError as e:
            raise click.UsageError(str(e)) from e
    tty = sys.stderr.isatty()
    show = progress if progress is not None else tty
    started = time.monotonic()
    drawn = [0.0]

    def on_progress(done, total):  # redrawn in place on a terminal, a line every few seconds elsewhere
        now = time.monotonic()
        if 0 < done < total and now - drawn[0] < (0.2 if tty else 5.0):
            return
        drawn[0] = now
        line = sim_mod.progress_line(done, total, now - started)
        click.echo("\r" + terminal_text(line) if tty else terminal_text(line), err=True, nl=not tty or done == total)

    stream = None
    try:
        sim_mod.check_players(loaded, players)  # before the record file is opened (and emptied)
        if games_out:  # each game appended as it finishes (in game order), so a stopped run keeps them
            stream = records.stream(games_out, loaded, players)
        try:
            result = sim_mod.simulate(loaded, players, games, names, seed=seed, jobs=jobs or os.cpu_count() or 1,
                                      max_turns=max_turns, scheduler=scheduler,
                                      progress=on_progress if show else None, fixed_seats=fixed_seats,
                                      on_game=stream.add if stream else None)
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
            spec_fault(e.detail, engine, sources, game)
        say(f"error: {e}", err=True)
        sys.exit(3)  # a failure inside an engine or a bot: a bug, not a mistake in the spec
    if show and result.interrupted:
        echo("", err=True)
    if result.interrupted:
        say(f"interrupted: {result.finished} of {games * len(loaded)} games finished; "
                   "the results below are for those games", err=True)
    if as_json:
        echo(sim_mod.format_json(result))
    elif as_csv:
        echo(sim_mod.format_csv(result), nl=False)
    else:
        echo(sim_mod.format_table(result))
    if stream:
        say(f"wrote {stream.written} game records to {games_out}", err=True)
    if plot_dir and result.finished:
        try:
            charts = plots.write(result, plot_dir)
        except OSError as err:
            say(f"error: cannot write the charts to {plot_dir}: {err.strerror or err}", err=True)
            sys.exit(1)
        except Exception as exc:  # noqa: BLE001 - a bug of the charts: said, with exit status 3, never a traceback
            internal_error(exc, f"writing the charts to {plot_dir}")
        for path in charts:
            say(f"wrote {path}", err=True)
    if report_dir and result.finished:
        try:
            written_files = report_mod.write(result, report_dir)
        except OSError as err:
            say(f"error: cannot write the report to {report_dir}: {err.strerror or err}", err=True)
            sys.exit(1)
        except Exception as exc:  # noqa: BLE001 - a bug of the report: said, with exit status 3, never a traceback
            internal_error(exc, f"writing the report to {report_dir}")
        for path in written_files:
            say(f"wrote {path}", err=True)
    if result.interrupted:
        sys.exit(130)


@main.command()
@click.argument("spec", metavar="SPEC")
@click.option("--bots", default="random,greedy,mcts:64", show_default=True,
              help="The bots of the round robin, each named once: random, greedy, mcts or mcts:PLAYOUTS.")
@click.option("--players", type=click.IntRange(1), default=2, show_default=True, help="Players in each game.")
@click.option("--games", type=click.IntRange(1), default=20, show_default=True,
              help="Games per group of bots (every pair, with two players), seats rotated.")
@click.option("--seed", type=int, default=0, show_default=True, help="Same seed, same ladder, for any --jobs.")
@click.option("--jobs", type=click.IntRange(0), default=0, help="Worker processes (default: one per core; 1: none).")
@click.option("--max-turns", type=click.IntRange(1), default=1000, show_default=True,
              help="Stop a game after this many turns (such a game is not rated).")
@click.option("--json", "as_json", is_flag=True, help="Print the ladder as JSON.")
@click.option("--cache-dir", type=click.Path(file_okay=False), help="Where engines built for specs are kept.")
@click.option("--scheduler", metavar="ADDRESS", help="Run the games on this Dask scheduler (needs dask[distributed]).")
def ladder(spec, bots, players, games, seed, jobs, max_turns, as_json, cache_dir, scheduler):
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
        engine = engines.load(spec, cache_dir=cache_dir, sources=sources)
    except CompileError as err:
        report(err, sources)
        sys.exit(1)
    except engines.EngineError as e:
        raise click.UsageError(str(e)) from e
    try:
        result = ladder_mod.ladder(engine, names, players, games, seed, jobs or os.cpu_count() or 1, max_turns,
                                   scheduler=scheduler)
    except ValueError as e:
        raise click.UsageError(str(e)) from e
    except sim_mod.SimulationError as e:
        say(f"error: {e}", err=True)
        sys.exit(3)
    echo(ladder_mod.format_json(result) if as_json else ladder_mod.format_table(result))
    if result.interrupted:
        sys.exit(130)


@main.command()
@click.argument("spec", metavar="SPEC")
@click.option("--players", type=click.IntRange(1), default=None,
              help="Players (default: the saved game's, else one per --seat, else 2).")
@click.option("--seat", "seats", multiple=True, metavar="WHO",
              help="Who plays each seat, in order: human, random, greedy, mcts or mcts:PLAYOUTS "
                   "(repeat it; seats not given are greedy; default: a saved game's seats, else a human "
                   "against greedy bots).")
@click.option("--seed", type=int, default=None, help="Seed of the shuffle and the bots (default: a random one).")
@click.option("--load", "load_path", type=click.Path(dir_okay=False),
              help="Resume a game saved with `save FILE`, with its seats unless --seat is given.")
@click.option("--cache-dir", type=click.Path(file_okay=False), help="Where engines built for specs are kept.")
@click.option("--replay", "replay_path", type=click.Path(dir_okay=False), metavar="FILE",
              help="Replay a game of a `simulate --games-out` record file (with --game N) instead of playing.")
@click.option("--game", "game_number", type=click.IntRange(0), default=None, metavar="N",
              help="With --replay: the game's index in the run.")
def play(spec, players, seats, seed, load_path, cache_dir, replay_path, game_number):
    """Play SPEC at the terminal, humans and bots (type `help` at your turn).

    SPEC is a spec or variant, a file or a name such as official or target-12 (its
    engine is built when missing or stale), or a generated engine module (.py). Each
    human answers with the number of an action, the action in the spec's notation, or
    undo, save FILE, load FILE, help, quit.
    """

    sources = SourceMap()
    try:
        engine = engines.load(spec, cache_dir=cache_dir, sources=sources)
    except CompileError as err:
        report(err, sources)
        sys.exit(1)
    except engines.EngineError as e:
        raise click.UsageError(str(e)) from e
    if (replay_path is None) != (game_number is None):
        raise click.UsageError("--replay FILE and --game N go together")
    if replay_path is not None:
        try:
            row, where = records.read_record(replay_path, engine.module.SPEC_NAME, game_number)
            echo(records.replay_text(engine.module, row, where))
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
    session = terminal.Session(table, ask=lambda prompt: click.prompt(terminal_text(prompt), prompt_suffix=" ",
                                                                      default="", show_default=False),
                               say=terminal.coloured_say(echo, sys.stdout) if colour else echo, colour=colour)
    try:
        status = session.run()
    except click.Abort:  # end of input or Ctrl-C at a prompt
        echo("\nstopped (the game was not saved)", err=True)
        status = 1
    except getattr(engine.module, "RuleError", ()) as exc:  # the spec made an impossible move legal
        game = session.game
        spec_fault(str(exc), engine, sources, f"the game of {engine.name} (seed {game.seed}, turn {game.turn})")
    except Exception as exc:  # a failure inside an engine or a bot: a bug, not a mistake in the spec
        internal_error(exc, f"playing {spec}")
    sys.exit(status)


def spec_fault(message: str, engine, sources: SourceMap, game: str) -> None:
    """Report an engine's RuleError as the spec error it is (E535, at the effect) and exit with status 1."""
    spec = rule_errors.spec_of(engine.label, getattr(engine.module, "SPEC_PATH", None))
    report(CompileError([rule_errors.rule_error(message, spec, sources, game)]), sources)
    sys.exit(1)


# ----------------------------------------------------------------------------- web
# (section owned by the web work: `splendor-rules serve`; the web package is imported here only)

@main.command()
@click.argument("specs", nargs=-1, metavar="[SPEC...]")
@click.option("--db", default="splendor-tables.sqlite3", show_default=True, metavar="FILE",
              help="The SQLite file of the tables; a restarted server resumes every table in it.")
@click.option("--host", default="127.0.0.1", show_default=True, help="The address to listen on.")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True, help="The port.")
@click.option("--bot-delay", type=click.FloatRange(0, 60), default=0.6, show_default=True, metavar="SECONDS",
              help="How long a bot waits before its move, so that people see the moves one by one.")
@click.option("--tables-per-address", default="20/hour", show_default=True, metavar="RATE",
              help="New tables one client address may make (COUNT/PERIOD: 5/minute, 100/day); past it, 429.")
@click.option("--requests-per-address", default="30/second", show_default=True, metavar="RATE",
              help="Requests one client address may make (moves, views, pages); past it, 429.")
@click.option("--max-open-tables", type=click.IntRange(1), default=200, show_default=True, metavar="N",
              help="Games in play at once, in all; past it, no new table until one ends (503).")
@click.option("--max-tables", type=click.IntRange(1), default=2000, show_default=True, metavar="N",
              help="Tables kept in the database; past it the oldest finished games are removed.")
@click.option("--expire-days", type=click.FloatRange(0), default=30.0, show_default=True, metavar="DAYS",
              help="Remove a table after this many days without a move, finished or abandoned (0: never).")
@click.option("--abandoned-days", type=click.FloatRange(0, min_open=True), default=1.0, show_default=True,
              metavar="DAYS", help="A game without a move for this long no longer counts toward --max-open-tables.")
@click.option("--streams-per-address", type=click.IntRange(1), default=20, show_default=True, metavar="N",
              help="Live connections (event streams) one client address holds at once; past it, 429.")
@click.option("--streams-per-table", type=click.IntRange(1), default=50, show_default=True, metavar="N",
              help="Live connections to one table (its seats and spectators) at once; past it, 429.")
@click.option("--bot-queue", type=click.IntRange(1), default=32, show_default=True, metavar="N",
              help="Bot moves waiting for the worker, in all; past it, no new table with bots (503).")
@click.option("--proxy", multiple=True, metavar="ADDRESS",
              help="A reverse proxy's address (repeatable): its X-Forwarded-For is the client's. None: believe no one.")
@click.option("--allowed-host", multiple=True, metavar="NAME",
              help="A name the server answers to (the Host header), besides its own address (repeatable).")
@click.option("--list-tables", is_flag=True,
              help="List the tables of --db (state, moves, last move), each replayed with the engine of SPEC "
                   "(default: the catalogue) of its name, and exit.")
def serve(specs, db, host, port, bot_delay, tables_per_address, requests_per_address, max_open_tables, max_tables,
          expire_days, abandoned_days, streams_per_address, streams_per_table, bot_queue, proxy, allowed_host,
          list_tables):
    """Serve a web table: play SPEC (default: the official rules and the catalogue) in the browser,
    humans by invitation links and bots. Needs the `web` extra (pip install -e '.[web]')."""
    missing = [m for m in ("starlette", "uvicorn", "limits") if importlib.util.find_spec(m) is None]
    if missing:
        say(f"error: `serve` needs the web extra (missing: {', '.join(missing)}): pip install -e '.[web]'", err=True)
        sys.exit(EXIT_USAGE)
    from web import server

    listing = list_tables
    quotas = server.Quotas(tables_per_address, requests_per_address, max_open_tables, bot_queue, max_tables,
                           expire_days or None, abandoned_days, streams_per_address, streams_per_table)
    try:
        quotas.check()
    except ValueError as e:
        say(f"error: {e}", err=True)
        sys.exit(EXIT_USAGE)
    sources = SourceMap()
    paths, diagnostics = expand_specs(specs, sources)
    try:
        if diagnostics:
            raise CompileError(diagnostics)
        variants = server.load_variants([spec_arg(p) for p in paths], sources)
        if listing:  # the tables replay with the engines built from these specs: the file holds no code
            echo(server.list_tables(db, variants))
            return
        app = server.make_app(variants, db, bot_delay, quotas=quotas, hosts=server.Hosts.bound_to(host, allowed_host))
    except CompileError as err:
        show_undecodable(err.diagnostics, sources)
        report(err, sources)
        sys.exit(1)
    except server.ServeError as e:
        say(f"error: {e}", err=True)
        sys.exit(1)
    say(f"serving {len(variants)} spec{'s' if len(variants) != 1 else ''} at http://{host}:{port}/ "
         f"(tables in {db})", err=True)
    server.run(app, host, port, proxy)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
