"""The commands about variants: `diff` (every rule that differs between two specs, in words)
and `new` (a commented skeleton of a house variant, :mod:`app.scaffold`).
"""

from __future__ import annotations

import os
import sys

import click

from compiler import diff as diff_mod
from compiler import pipeline
from compiler.diagnostics import CompileError, SourceMap
from compiler.front.locate import locate
from compiler.front.source import display_path
from compiler.sheets.plurals import LANGUAGES

from .. import scaffold
from .common import EXIT_USAGE, echo, internal_error, report, say, show_undecodable, spec_arg


@click.command()
@click.argument("before", metavar="A")
@click.argument("after", metavar="B")
@click.option(
    "--lang",
    type=click.Choice(LANGUAGES),
    default="en",
    show_default=True,
    help="The language of the report (the languages of the sheets).",
)
def diff(before: str, after: str, lang: str) -> None:
    """Show, in words, every rule that differs between two specs or variants.

    A and B are spec files (or spec names such as `official` or `target-12`); each is
    resolved through its chain of variants and checked first. Each difference is
    shown before and after, with where each side defines it, and with the variant's
    note. Exit status: 0 when the rules are the same (nothing is printed, or, when only
    the rules' texts for players differ, those texts and a line that says so), 1 when
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
    sys.exit(1 if differences and not diff_mod.only_texts(differences) else 0)


@click.command()
@click.argument("name")
@click.option(
    "--from",
    "base",
    default="official",
    show_default=True,
    metavar="BASE",
    help="The spec the variant extends: a name (official, or a variant in variants/) or a .yaml path.",
)
@click.option(
    "-o",
    "--output",
    "folder",
    default="variants",
    show_default=True,
    metavar="DIR",
    help="The folder to write NAME.yaml in.",
)
def new(name: str, base: str, folder: str) -> None:
    """Start a house variant: write DIR/NAME.yaml, a commented skeleton extending BASE.

    The file changes nothing yet and checks clean as written; its comments list what
    a variant can change, with the base's own entries. An existing file is never
    overwritten. Exit status: 0 when written, 1 when BASE has errors, 2 on a usage
    error (a bad name, a base not found, the file exists).
    """
    if not scaffold.NAME.fullmatch(name):
        say(
            f"error: '{name}' is not a variant name: use lower-case letters, digits, '-' and '_', "
            "starting with a letter or a digit",
            err=True,
        )
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
