"""The `sheet` command: printable reference sheets (Markdown, HTML, PDF) in four languages,
each checked by the sheets' lint first (:mod:`compiler.sheets.lint`).
"""

from __future__ import annotations

import pathlib
import sys

import click

from compiler import pipeline
from compiler.diagnostics import CompileError, SourceMap, render_all
from compiler.front.source import display_path
from compiler.sheets import render as sheet_render
from compiler.sheets.lint import lint as lint_sheets
from compiler.sheets.plurals import LANGUAGES

from .common import echo, expand_specs, internal_error, report, say, spec_arg

SHEET_DIR = "generated/sheets"


def _csv_choice(value: str, allowed: tuple[str, ...], what: str) -> list[str]:
    items = [v.strip() for v in value.split(",") if v.strip()]
    wrong = [v for v in items if v not in allowed]
    if wrong or not items:
        raise click.BadParameter(
            f"unknown {what} {', '.join(repr(w) for w in wrong) or '(none given)'} (choose from: {', '.join(allowed)})"
        )
    return list(dict.fromkeys(items))


@click.command()
@click.argument("specs", nargs=-1, required=True, metavar="SPEC...")
@click.option(
    "--lang",
    "langs",
    default="en,fr,nl,sr",
    show_default=True,
    metavar="LANGS",
    help="Comma-separated sheet languages: en, fr, nl, sr.",
)
@click.option(
    "--format",
    "formats",
    default="md,html",
    show_default=True,
    metavar="FORMATS",
    help="Comma-separated formats: md, html, pdf (pdf needs the 'pdf' extra).",
)
@click.option(
    "-o",
    "--output",
    "out_dir",
    default=SHEET_DIR,
    show_default=True,
    metavar="DIR",
    help="Where NAME.LANG.md/.html/.pdf are written.",
)
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
            worked = pipeline.worked_game(rules)  # the worked example: a game of the spec's own engine
            written = sheet_render.write_sheets(rules, lang_list, format_list, pathlib.Path(out_dir), base, worked)
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
