"""`simulate --report DIR` (issue 18, item 6): one self-contained page, charts beside it, spec text escaped."""

from __future__ import annotations

import pathlib
import subprocess
import sys

import pytest

from playtest import report
from playtest import simulate as sim
from playtest.simulate import GameResult, SpecSummary

pytest.importorskip("matplotlib")  # the plot extra, installed by the test extra

HERE = pathlib.Path(__file__).resolve().parent
HOSTILE = '<script>alert("x")</script>&<img src=x onerror=alert(1)>'


def game(index, rounds, winners, scores, over=True, seats=("greedy", "random")):
    return GameResult(
        index=index,
        seed=index,
        rounds=rounds,
        turns=2 * rounds,
        winners=tuple(winners),
        scores=tuple(scores),
        over=over,
        stuck=False,
        passes=0,
        tied=False,
        end="target" if over else None,
        seats=seats,
        uses=(("take_different", 10 + index), ("sweep", 0)),
    )


def simulation():
    a = [
        game(i, 25 + i % 3, [i % 2], [15, 10], seats=("greedy", "random") if i % 2 == 0 else ("random", "greedy"))
        for i in range(8)
    ] + [game(8, 500, [], [2, 3], over=False)]
    b = [game(i, 20 + i % 2, [0], [12, 9]) for i in range(8)]
    return sim.Simulation(
        2, 9, ("greedy", "random"), 1, 1000, [SpecSummary(HOSTILE, "official", a, 9), SpecSummary("b.yaml", "b", b, 9)]
    )


def test_the_report_is_one_page_with_the_charts_inside_and_beside(tmp_path):
    files = report.write(simulation(), tmp_path)
    names = sorted(f.name for f in files)
    assert names == ["endings.png", "report.html", "rounds.png", "seats.png", "uses.png"]
    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert page.count('src="data:image/png;base64,') == 4  # self-contained: no file is referenced
    assert "capped (left out of lengths)" in page and "margin of victory, mean" in page
    assert "skill: greedy beats random" in page and "Differences from" in page
    assert "sweep" in page and "(rare)" in page


def test_spec_text_is_escaped(tmp_path):
    page = report.render(simulation(), [])
    assert "<script>" not in page and "<img src=x" not in page
    assert "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;&amp;&lt;img src=x onerror=alert(1)&gt;" in page


def test_the_length_chart_leaves_the_capped_games_out():
    from playtest import plots

    s = simulation()
    assert 500 not in s.specs[0].rounds()
    charts = plots.figures(s)
    assert [c[0] for c in charts] == ["rounds.png", "seats.png", "endings.png", "uses.png"]


def test_cli_report(tmp_path):
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "app",
            "simulate",
            str(HERE / "test_playtest_standin.py"),
            "--games",
            "4",
            "--jobs",
            "1",
            "--bots",
            "greedy,random",
            "--report",
            str(tmp_path / "r"),
        ],
        cwd=HERE.parent,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert out.returncode == 0, out.stderr
    assert f"wrote {tmp_path / 'r' / 'report.html'}" in out.stderr
    assert (tmp_path / "r" / "rounds.png").stat().st_size > 1000


def one_kind_of_bot():
    """Two specs played by random bots alone: no skill check, a comparison all the same."""
    seats = ("random", "random")
    a = [game(i, 25 + i % 3, [i % 2], [15, 10], seats=seats) for i in range(6)]
    b = [game(i, 20 + i % 2, [0], [12, 9], seats=seats) for i in range(6)]
    return sim.Simulation(
        2, 6, ("random", "random"), 1, 1000, [SpecSummary("a.yaml", "a", a, 6), SpecSummary("b.yaml", "b", b, 6)]
    )


def test_a_comparison_without_a_skill_check_says_so_as_a_spec_does():
    """Issue 26 item 21: the comparisons had no "skill" key at all without a skill check, and the
    report's template (StrictUndefined) stopped on it: a spec's and a comparison's are null alike."""
    data = one_kind_of_bot().to_dict()
    assert [s["skill"] for s in data["specs"]] == [None, None]
    assert [c["skill"] for c in data["comparisons"]] == [None]
    assert "vs first: skill" not in sim.format_table(one_kind_of_bot())


def test_the_report_of_one_kind_of_bot_has_its_comparisons_and_no_skill_row(tmp_path):
    page = report.render(one_kind_of_bot(), [])
    assert "Differences from a.yaml" in page and "margin (Welch)" in page
    assert "skill" not in page


def test_cli_report_with_random_bots_alone_over_two_specs(tmp_path):
    """Issue 26 item 21: `simulate A B --bots random --report DIR` ended in a jinja2 UndefinedError."""
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "app",
            "simulate",
            "official",
            "target-12",
            "--games",
            "2",
            "--jobs",
            "1",
            "--bots",
            "random",
            "--report",
            str(tmp_path / "r"),
        ],
        cwd=HERE.parent,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert out.returncode == 0 and "Traceback" not in out.stderr, out.stderr
    page = (tmp_path / "r" / "report.html").read_text(encoding="utf-8")
    assert "Differences from official" in page and "skill" not in page


def test_a_report_that_fails_is_an_internal_error_not_a_traceback(tmp_path, monkeypatch):
    from click.testing import CliRunner

    from app import cli

    def broken(*args):
        raise KeyError("a bug of the report")

    monkeypatch.setattr(report, "write", broken)
    monkeypatch.delenv("SPLENDOR_RULES_TRACEBACK", raising=False)
    result = CliRunner().invoke(
        cli.main,
        [
            "simulate",
            str(HERE / "test_playtest_standin.py"),
            "--games",
            "1",
            "--jobs",
            "1",
            "--bots",
            "random",
            "--report",
            str(tmp_path / "r"),
        ],
    )
    assert result.exit_code == 3 and "Traceback" not in result.stderr
    assert (
        f"internal error while writing the report to {tmp_path / 'r'}: KeyError: 'a bug of the report'" in result.stderr
    )
