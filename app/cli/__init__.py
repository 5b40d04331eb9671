"""The command line: the only package that prints or exits.

Each command is a thin wrapper: it calls the driver (:mod:`compiler.pipeline`) or playtest,
renders diagnostics with their source lines, and sets the exit status (0 clean, 1 rule errors,
2 usage, 3 an internal error). It is the top of the import graph: it imports playtest, which
imports the compiler's driver, and nothing imports it.

One module per group of commands, each a :func:`click.command` that :data:`main` gathers here:
:mod:`.compiling` (check, compile, build), :mod:`.sheets` (sheet), :mod:`.variants` (diff, new),
:mod:`.simulation` (simulate, ladder), :mod:`.playing` (play), :mod:`.serving` (serve); what
they share (the output boundary, reports, SPEC arguments) is :mod:`.common`.
"""

from __future__ import annotations

import click

from .common import EXIT_INTERNAL, EXIT_USAGE, messages_shown_safely
from .compiling import build, check, compile_command
from .playing import play
from .serving import serve
from .sheets import sheet
from .simulation import ladder, simulate
from .variants import diff, new

__all__ = ["EXIT_INTERNAL", "EXIT_USAGE", "main", "serve"]


class Commands(click.Group):
    """The command group, whose every usage error (parsing the group's options, or a command's
    arguments and its own checks) is shown with its control characters escaped."""

    def make_context(self, *args, **options):
        with messages_shown_safely():
            return super().make_context(*args, **options)

    def invoke(self, ctx):
        with messages_shown_safely():
            return super().invoke(ctx)


@click.group(cls=Commands, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="splendor-rules")
def main() -> None:
    """splendor-rules: compile Splendor rules specs into engines and reference sheets."""


for _command in (check, compile_command, build, sheet, diff, new, simulate, ladder, play, serve):
    main.add_command(_command)
