"""The commands that check and compile specs: `check`, `compile`, and `build` (the main job:
check and compile the catalogue, play a demo game, write the sheets, compare by simulation).

Each is a thin wrapper over the driver (:mod:`compiler.pipeline`): it renders diagnostics with
their source lines and sets the exit status (0 clean, 1 rule errors, 3 an internal error).
"""

from __future__ import annotations

import importlib.util
import json
import os
import pathlib
import random
import sys

import click

from compiler import native, pipeline
from compiler.diagnostics import CompileError, Diagnostic, SourceMap, render_all, sorted_diagnostics, to_json
from compiler.files import write_atomic
from compiler.front.source import display_path
from compiler.safe_text import visible
from playtest import engines

from .common import echo, expand_specs, internal_error, report, say, show_undecodable, spec_arg
from .sheets import SHEET_DIR, sheet
from .simulation import simulate


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
        "file": path,
        "ok": True,
        "name": rules.name,
        "extends": rules.bases[0].name if rules.bases else None,
        "changes": len(rules.changes),
        "actions": len(rules.actions),
        "end_of_turn": len(rules.steps),
        "end": len(rules.end),
        "cards": len(rules.cards),
        "nobles": len(rules.nobles),
        "players": counts,
    }


def check_summary_line(s: dict, warnings_shown: bool = False) -> str:
    """A summary as one line: `rulespec/official.yaml: ok (7 actions, 2 end-of-turn steps, ...)`."""
    parts = [
        _plural(s["actions"], "action"),
        _plural(s["end_of_turn"], "end-of-turn step"),
        _plural(s["end"], "end trigger"),
        _plural(s["cards"], "card"),
        _plural(s["nobles"], "noble"),
        _player_range(s["players"]),
    ]
    variant = f"variant of {s['extends']}, {_plural(s['changes'], 'change')}; " if s["extends"] else ""
    warned = (
        f"; {_plural(s['warnings'], 'warning')}{'' if warnings_shown else ' (-W shows them)'}"
        if s.get("warnings")
        else ""
    )
    return f"{s['file']}: ok ({variant}{', '.join(parts)}{warned})"


@click.command()
@click.argument("specs", nargs=-1, required=True, metavar="SPEC...")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="text: a summary line per clean spec on stdout, diagnostics with source lines on stderr. "
    "json: one JSON array on stdout: the diagnostics if there are any, else one summary per spec.",
)
@click.option(
    "-W",
    "--warnings",
    "show_warnings",
    is_flag=True,
    help="Also show warnings (e.g. a variant text that lacks a translation).",
)
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


ENGINE_DIR = "generated/engines"


def compile_specs(specs, out_dir: str, sources: SourceMap, native_folder=None) -> tuple[list[str], list]:
    """Compile each spec to OUT_DIR/NAME.py (and, given `native_folder`, build its native engine
    there); returns (what was written, diagnostics)."""
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
        if native_folder is not None:
            try:
                built = native.build(engine.text, engine.rules.name, native_folder)
            except native.NativeUnavailable as err:
                diagnostics.append(native.diagnostic(err, display_path(path)))
                continue
            written.append(f"{display_path(str(built))} (native build of {display_path(path)})")
    return written, diagnostics


@click.command("compile")
@click.argument("specs", nargs=-1, required=True, metavar="SPEC...")
@click.option(
    "-o",
    "--out",
    "out_dir",
    default=ENGINE_DIR,
    show_default=True,
    metavar="DIR",
    help="Folder for the generated engine modules (one NAME.py per spec).",
)
@click.option(
    "--native",
    is_flag=True,
    help="Also build each engine as a native extension module (Cython and a C compiler: the native extra), "
    "kept in the cache under the hash of the engine's text, where simulate, ladder and play --native find it.",
)
@click.option(
    "--cache-dir", type=click.Path(file_okay=False), help="The cache of engines (native builds in DIR/native)."
)
def compile_command(specs: tuple[str, ...], out_dir: str, native: bool = False, cache_dir: str | None = None) -> None:
    """Compile rules specs into standalone Python engine modules.

    Each module needs only the standard library; a spec with errors writes nothing.
    SPEC is taken as by `check`: a file, a name, a variant index or a folder. With --native,
    each module is also compiled into an extension module with the same API (the pure module
    stays the reference); a machine that cannot build one gets E597.
    """
    sources = SourceMap()
    folder = engines.native_dir(cache_dir) if native else None
    written, diagnostics = compile_specs(specs, out_dir, sources, folder)
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


@click.command()
@click.option("--root", default=".", show_default=True, help="The project folder.")
@click.option("--demo-moves", default=24, show_default=True, help="Moves of the demo game to print.")
@click.option("--sheets/--no-sheets", default=True, show_default=True, help="Write the reference sheets.")
@click.option(
    "--simulate-games", default=40, show_default=True, help="Games per spec in the closing simulation (0: none)."
)
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
        _invoke_step(
            ctx,
            simulate,
            "rulespec/official.yaml",
            "variants/target-12.yaml",
            "variants/take-up-to-three.yaml",
            "--games",
            str(simulate_games),
            "--bots",
            "greedy",
            "--seed",
            "1",
            "--no-progress",
        )


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
