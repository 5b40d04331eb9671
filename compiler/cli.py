"""The command line: the only module that prints or exits.

Each command is a thin wrapper: it calls the pipeline, renders diagnostics with
their source lines, and sets the exit status (0 clean, 1 rule errors, 2 usage).
"""
from __future__ import annotations

import sys

import click

from .diagnostics import CompileError, SourceMap, render_all, sorted_diagnostics


def report(err: CompileError, sources: SourceMap) -> None:
    """Print every diagnostic of a failed run to stderr, with source lines and carets."""
    diagnostics = sorted_diagnostics(err.diagnostics)
    click.echo(render_all(diagnostics, sources), err=True)
    n = len(diagnostics)
    click.echo(f"{n} error{'s' if n != 1 else ''}", err=True)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="splendor-rules")
def main() -> None:
    """splendor-rules: compile Splendor rules specs into engines and reference sheets."""


# ----------------------------------------------------------------------------- check
# (section owned by the front-end work: `splendor-rules check`)


# ----------------------------------------------------------------------------- compile
# (section owned by the engine work: `splendor-rules compile`, `build`)


# ----------------------------------------------------------------------------- variants
# (section owned by the variant work: `splendor-rules diff`, `new`)


# ----------------------------------------------------------------------------- sheets
# (section owned by the sheet work: `splendor-rules sheet`)


# ----------------------------------------------------------------------------- playtest
# (section owned by the playtest work: `splendor-rules simulate`, `play`)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
