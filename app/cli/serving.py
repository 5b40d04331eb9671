"""The `serve` command: the web table (:mod:`web.server`). The web package needs the `web`
extra, so it is imported only when the command runs, after saying what is missing.
"""

from __future__ import annotations

import importlib.util
import sys

import click

from compiler.diagnostics import CompileError, SourceMap

from .common import EXIT_USAGE, echo, expand_specs, report, say, show_undecodable, spec_arg


@click.command()
@click.argument("specs", nargs=-1, metavar="[SPEC...]")
@click.option(
    "--db",
    default="splendor-tables.sqlite3",
    show_default=True,
    metavar="FILE",
    help="The SQLite file of the tables; a restarted server resumes every table in it.",
)
@click.option("--host", default="127.0.0.1", show_default=True, help="The address to listen on.")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True, help="The port.")
@click.option(
    "--bot-delay",
    type=click.FloatRange(0, 60),
    default=0.6,
    show_default=True,
    metavar="SECONDS",
    help="How long a bot waits before its move, so that people see the moves one by one.",
)
@click.option(
    "--tables-per-address",
    default="20/hour",
    show_default=True,
    metavar="RATE",
    help="New tables one client address may make (COUNT/PERIOD: 5/minute, 100/day); past it, 429.",
)
@click.option(
    "--requests-per-address",
    default="30/second",
    show_default=True,
    metavar="RATE",
    help="Requests one client address may make (moves, views, pages); past it, 429.",
)
@click.option(
    "--max-open-tables",
    type=click.IntRange(1),
    default=200,
    show_default=True,
    metavar="N",
    help="Games in play at once, in all; past it, no new table until one ends (503).",
)
@click.option(
    "--max-tables",
    type=click.IntRange(1),
    default=2000,
    show_default=True,
    metavar="N",
    help="Tables kept in the database; past it the oldest finished games are removed.",
)
@click.option(
    "--expire-days",
    type=click.FloatRange(0),
    default=30.0,
    show_default=True,
    metavar="DAYS",
    help="Remove a table after this many days without a move, finished or abandoned (0: never).",
)
@click.option(
    "--abandoned-days",
    type=click.FloatRange(0, min_open=True),
    default=1.0,
    show_default=True,
    metavar="DAYS",
    help="A game without a move for this long no longer counts toward --max-open-tables.",
)
@click.option(
    "--streams-per-address",
    type=click.IntRange(1),
    default=20,
    show_default=True,
    metavar="N",
    help="Live connections (event streams) one client address holds at once; past it, 429.",
)
@click.option(
    "--streams-per-table",
    type=click.IntRange(1),
    default=50,
    show_default=True,
    metavar="N",
    help="Live connections to one table (its seats and spectators) at once; past it, 429.",
)
@click.option(
    "--bot-queue",
    type=click.IntRange(1),
    default=32,
    show_default=True,
    metavar="N",
    help="Bot moves waiting for the worker, in all; past it, no new table with bots (503).",
)
@click.option(
    "--proxy",
    multiple=True,
    metavar="ADDRESS",
    help="A reverse proxy's address (repeatable): its X-Forwarded-For is the client's. None: believe no one.",
)
@click.option(
    "--allowed-host",
    multiple=True,
    metavar="NAME",
    help="A name the server answers to (the Host header), besides its own address (repeatable).",
)
@click.option(
    "--list-tables",
    is_flag=True,
    help="List the tables of --db (state, moves, last move), each replayed with the engine of SPEC "
    "(default: the catalogue) of its name, and exit.",
)
def serve(
    specs,
    db,
    host,
    port,
    bot_delay,
    tables_per_address,
    requests_per_address,
    max_open_tables,
    max_tables,
    expire_days,
    abandoned_days,
    streams_per_address,
    streams_per_table,
    bot_queue,
    proxy,
    allowed_host,
    list_tables,
):
    """Serve a web table: play SPEC (default: the official rules and the catalogue) in the browser,
    humans by invitation links and bots. Needs the `web` extra (pip install -e '.[web]')."""
    missing = [m for m in ("starlette", "uvicorn", "limits") if importlib.util.find_spec(m) is None]
    if missing:
        say(f"error: `serve` needs the web extra (missing: {', '.join(missing)}): pip install -e '.[web]'", err=True)
        sys.exit(EXIT_USAGE)
    from web import server

    listing = list_tables
    quotas = server.Quotas(
        tables_per_address,
        requests_per_address,
        max_open_tables,
        bot_queue,
        max_tables,
        expire_days or None,
        abandoned_days,
        streams_per_address,
        streams_per_table,
    )
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
    say(
        f"serving {len(variants)} spec{'s' if len(variants) != 1 else ''} at http://{host}:{port}/ (tables in {db})",
        err=True,
    )
    server.run(app, host, port, proxy)
