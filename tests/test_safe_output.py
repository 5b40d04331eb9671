"""Control characters and line breaks of a spec or a file name are shown escaped in every output
(issue 26, item 22): the HTML of the sheets, the web table and the simulation report kept an ESC
raw (OSC 52 sets the clipboard, ESC [ 2 J clears the screen for whoever `cat`s, `curl`s or
`less -R`s the page), and a file name holding a line break was printed as it is, so that
`check` showed a forged `official.yaml: ok` line.
"""

from __future__ import annotations

import pathlib
import re
import shutil

import pytest
from click.testing import CliRunner

from app import cli
from compiler import pipeline
from compiler.safe_text import html_finalize, line_text
from tests.helpers.inputs import yaml_double_quoted

ROOT = pathlib.Path(__file__).resolve().parent.parent
FORGED = "official.yaml: ok"
NAME = f"evil\n{FORGED}\nx\x1b[2J.yaml"  # a file name that prints a line of its choosing
SHOWN = "evil\\x0aofficial.yaml: ok\\x0ax\\x1b[2J.yaml"
TITLE = "Target \x1b]52;c;cGF5bG9hZA==\x07\x1b[2J\x9b31m\u202eevil\u2028x"
NOTE = f"Reach\x1b[2J\n{FORGED}\r\nnow"
# Every control a terminal acts on, and the separators that break a line: none may be raw.
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def raw_controls(text: str) -> list[str]:
    return [hex(ord(c)) for c in RAW.findall(text)]


def no_forged_line(text: str) -> None:
    assert not [line for line in text.splitlines() if line.startswith(FORGED)], text


@pytest.fixture
def hostile(tmp_path, monkeypatch) -> pathlib.Path:
    """target-12 under a file name with line breaks, its title and note full of controls."""
    text = (ROOT / "variants" / "target-12.yaml").read_text(encoding="utf-8")
    text = text.replace("en: Target 12", f"en: {yaml_double_quoted(TITLE)}")
    text = text.replace(
        "en: Reaching 12 prestige triggers the end, so games are shorter and early engines matter less.",
        f"en: {yaml_double_quoted(NOTE)}",
    )
    (tmp_path / NAME).write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def run(*args: str):
    result = CliRunner().invoke(cli.main, list(args))
    assert "Traceback" not in result.output
    return result


def test_line_text_and_html_finalize():
    assert line_text(NOTE) == "Reach\\x1b[2J official.yaml: ok now"
    assert html_finalize(TITLE) == "Target \\x1b]52;c;cGF5bG9hZA==\\x07\\x1b[2J\\x9b31m\\u202eevil\\u2028x"
    from markupsafe import Markup

    assert html_finalize(Markup("<b>a</b>\n<i>\x1b</i>")) == Markup("<b>a</b>\n<i>\\x1b</i>")
    assert html_finalize(3) == 3


def test_check_prints_a_file_name_with_line_breaks_on_one_line(hostile):
    result = run("check", NAME)
    assert result.exit_code == 0, result.output
    assert result.stdout.count("\n") == 1 and result.stdout.startswith(f"{SHOWN}: ok (variant of official")
    no_forged_line(result.output)


def test_a_diagnostic_shows_its_file_name_on_one_line(tmp_path, monkeypatch):
    (tmp_path / NAME).write_text("spec: 1\nname: broken\nextends: official\ntitle: {en: x\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = run("check", NAME)
    assert result.exit_code == 1
    assert result.stderr.splitlines()[0].startswith(f"{SHOWN}:4:14: error[E010]: invalid YAML")
    no_forged_line(result.stderr)


def test_diff_compile_and_sheet_keep_each_name_and_text_on_its_line(hostile):
    diff = run("diff", "official", NAME)
    assert diff.exit_code == 1 and f"({SHOWN})." in diff.stdout
    assert "note: Reach\\x1b[2J\\x0aofficial.yaml: ok\\x0d\\x0anow" in diff.stdout
    built = run("compile", NAME, "-o", f"out\n{FORGED}")
    assert built.exit_code == 0 and built.stdout == "wrote out\\x0aofficial.yaml: ok/target_12.py\n"
    sheets = run("sheet", NAME, "--lang", "en", "--format", "md,html", "-o", "sheets")
    assert sheets.exit_code == 0, sheets.output
    for result in (diff, built, sheets):
        no_forged_line(result.output)
        assert raw_controls(result.output) == []


def test_the_sheets_hold_no_raw_control_character(hostile):
    from compiler.sheets import content, render

    rules = pipeline.load_rules(NAME)
    sheet = content.build(rules, "en", pipeline.load_rules(rules.bases[0].path))
    html, md = render.html(sheet, rules), render.markdown(sheet, rules)
    assert raw_controls(html) == [] and raw_controls(md) == []
    no_forged_line(html)
    no_forged_line(md)
    assert "<title>Target \\x1b]52;c;cGF5bG9hZA==\\x07\\x1b[2J\\x9b31m\\u202eevil\\u2028x" in html
    assert "Reach\\x1b[2J official.yaml: ok now" in html


def test_simulate_and_its_report_keep_a_label_on_its_line(hostile):
    pytest.importorskip("matplotlib")
    result = run("simulate", NAME, "--games", "1", "--bots", "random", "--report", "r")
    assert result.exit_code == 0, result.output
    no_forged_line(result.output)
    assert raw_controls(result.output) == [] and SHOWN in result.stdout.splitlines()[0]
    page = (hostile / "r" / "report.html").read_text(encoding="utf-8")
    assert (
        raw_controls(page) == [] and "<th>evil official.yaml: ok x\\x1b[2J.yaml</th>" in page
    )  # a page's line break: a space


def test_play_replay_says_a_file_name_on_one_line(hostile):
    shutil.copy(ROOT / "variants" / "target-12.yaml", hostile / "t.yaml")
    records = f"g\n{FORGED}\n.jsonl"
    made = run("simulate", "t.yaml", "--games", "1", "--bots", "random", "--games-out", records)
    assert made.exit_code == 0 and made.stderr.endswith("wrote 1 game records to g\\x0aofficial.yaml: ok\\x0a.jsonl\n")
    replay = run("play", "t.yaml", "--replay", records, "--game", "0")
    assert replay.exit_code == 0 and replay.stdout.startswith(
        "replay of game 0 of target-12 (g\\x0aofficial.yaml: ok\\x0a.jsonl:1): seed "
    )
    missing = run("play", "t.yaml", "--replay", records, "--game", "5")
    assert (missing.exit_code, missing.stderr) == (
        1,
        "g\\x0aofficial.yaml: ok\\x0a.jsonl: no game 5 of spec 'target-12'\n",
    )
    for result in (made, replay, missing):
        no_forged_line(result.output)


def test_the_web_pages_hold_no_raw_control_character(hostile, tmp_path):
    pytest.importorskip("starlette")
    from tests.helpers.web import client
    from web import catalogue

    variants = catalogue.load([str(hostile / NAME)])
    with client(variants, str(tmp_path / "tables.sqlite3")) as c:
        index = c.get("/").text
        assert raw_controls(index) == [] and "Target \\x1b]52;c;" in index
        made = c.post("/api/tables", json={"spec": "target-12", "players": 2, "seats": ["human", "human"]}).json()
        page = c.get(made["seats"][0]["link"]).text
        assert raw_controls(page) == [] and "Target \\x1b]52;c;" in page


def test_simulate_plot_index_holds_no_raw_control_character(hostile):
    pytest.importorskip("matplotlib")
    result = run("simulate", NAME, "--games", "1", "--bots", "random", "--plot", "p")
    assert result.exit_code == 0, result.output
    page = (hostile / "p" / "index.html").read_text(encoding="utf-8")
    assert raw_controls(page) == [] and "<td>evil official.yaml: ok x\\x1b[2J.yaml</td>" in page


def test_ladder_keeps_the_spec_name_on_its_line(hostile):
    pytest.importorskip("openskill")
    result = run("ladder", NAME, "--bots", "random,greedy", "--games", "1", "--jobs", "1")
    assert result.exit_code == 0, result.output
    no_forged_line(result.output)
    assert raw_controls(result.output) == [] and f"{SHOWN}, 2 players" in result.stdout
