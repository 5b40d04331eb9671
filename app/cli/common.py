"""What every command of the command line shares: the output boundary, reports, exit statuses
and the reading of SPEC arguments.

Every text that reaches the terminal passes through :func:`echo` (a block) or :func:`say` (one
line), where control characters are shown escaped; a failed run's diagnostics are rendered with
their source lines (:func:`report`); an unexpected exception becomes exit status 3 without a
traceback (:func:`internal_error`).
"""

from __future__ import annotations

import contextlib
import glob
import os
import sys

import click

from compiler import pipeline
from compiler.diagnostics import CompileError, Diagnostic, SourceMap, render_all, sorted_diagnostics
from compiler.front import reading
from compiler.front.locate import find_spec
from compiler.front.source import display_path
from compiler.safe_text import terminal_text, visible

from .. import rule_errors

EXIT_USAGE = 2
EXIT_INTERNAL = 3  # a bug in splendor-rules, not in the spec


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
def messages_shown_safely():
    """Click writes its own errors (a bad option, a file or name it cannot use); their messages
    can quote a file name or a spec's text, so they pass the same boundary as `say` (one line)."""
    try:
        yield
    except click.ClickException as err:
        err.message = visible(err.message)  # type: ignore[misc]  # click marks it Final; it is a plain attribute
        raise


def internal_error(exc: BaseException, doing: str) -> None:
    """Report an unexpected exception without a traceback and exit with status 3.

    Set SPLENDOR_RULES_TRACEBACK=1 to let the exception through (for debugging).
    """
    if os.environ.get("SPLENDOR_RULES_TRACEBACK"):
        raise exc
    text = str(exc).strip().splitlines()
    detail = f": {text[0]}" if text else ""
    say(f"internal error while {doing}: {type(exc).__name__}{detail}", err=True)
    say(
        "This is a bug in splendor-rules, not a mistake in the spec. Please report it with the file that "
        "caused it (SPLENDOR_RULES_TRACEBACK=1 shows the traceback).",
        err=True,
    )
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
    (see compiler.front.locate.find_spec); a name that is no spec is an E301 error with the names
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


def spec_fault(fault: rule_errors.Fault, engine, sources: SourceMap, game: str) -> None:
    """Report an engine's RuleError as the spec error it is (E535, at the effect) and exit with status 1."""
    spec = rule_errors.spec_of(engine.label, getattr(engine.module, "SPEC_PATH", None))
    report(CompileError([rule_errors.rule_error(fault, spec, sources, game)]), sources)
    sys.exit(1)
