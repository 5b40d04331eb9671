"""The catalogue of broken specs: each tests/broken/NAME.yaml holds one kind of mistake,
and tests/broken/NAME.txt the exact output of `splendor-rules check` on it (stderr, then
the exit status). `pytest --update-goldens` rewrites the goldens; read every diff.

Every file except _clean.yaml is a copy of _clean.yaml with one mistake (or, for the
load errors, a file no loader should accept). Files too large to commit are generated.
"""

from __future__ import annotations

import pathlib
import re

import pytest
from click.testing import CliRunner

import compiler.check.build  # noqa: F401 - import every pass before a test changes directory
import compiler.pipeline  # noqa: F401
from app import cli
from compiler.front import source

BROKEN = pathlib.Path(__file__).resolve().parent / "broken"
CASES = sorted(p.stem for p in BROKEN.glob("*.yaml") if not p.name.startswith("_"))

# Files the test writes itself: too big to commit.
GENERATED = {
    "huge_file": lambda: (
        "# Broken on purpose (huge_file): a 5 MB file.\n"
        + (BROKEN / "_clean.yaml").read_text()
        + "interpretations:\n"
        + "  - padding padding padding padding padding padding\n" * 100_000
    ),
}

# A diagnostic's first line: where, what.
HEAD = re.compile(r"^(?P<file>[^\s:][^:]*):(?P<line>\d+):(?P<col>\d+): error\[(?P<code>E\d{3})\]: .+$")


def run_check(*args: str):
    result = CliRunner().invoke(cli.main, ["check", *args])
    return result


def rendered(result) -> str:
    return f"{result.stderr}[exit status: {result.exit_code}]\n"


def assert_located(text: str, case: str) -> None:
    """Every diagnostic has file:line:col, then its source line and a caret under it."""
    lines = text.splitlines()
    heads = [i for i, line in enumerate(lines) if HEAD.match(line)]
    assert heads, f"{case}: no located diagnostic in\n{text}"
    assert "Traceback" not in text and "internal error" not in text
    assert re.search(r"^\d+ errors?$", text, re.M), text
    for i in heads:
        m = HEAD.match(lines[i])
        assert m["file"].endswith(f"{case}.yaml"), lines[i]
        if case == "empty_file":  # an empty file has no line to show
            continue
        gutter = f" {m['line']} | "
        assert lines[i + 1].startswith(gutter), f"{case}: no source line after\n{lines[i]}"
        caret = lines[i + 2]
        assert re.fullmatch(r" +\| +\^+", caret), f"{case}: no caret line after\n{lines[i + 1]}"
        caret_col = caret.index("^") - len(gutter) + 1
        source_line = lines[i + 1][len(gutter) :]
        if not source_line.startswith("..."):  # long lines are shown in a window
            assert caret_col == int(m["col"]), f"{case}: caret at {caret_col}, diagnostic at column {m['col']}"


def test_catalogue_is_large_enough():
    assert len(CASES) + len(GENERATED) >= 30
    goldens = {p.stem for p in BROKEN.glob("*.txt")}
    assert goldens == set(CASES) | set(GENERATED), "every golden has its input and every input its golden"


def test_the_clean_base_is_clean(monkeypatch):
    monkeypatch.chdir(BROKEN.parent.parent)
    result = run_check("tests/broken/_clean.yaml")
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("tests/broken/_clean.yaml: ok (")


@pytest.mark.parametrize("case", CASES)
def test_catalogue(case, golden, monkeypatch):
    monkeypatch.chdir(BROKEN.parent.parent)
    result = run_check(f"tests/broken/{case}.yaml")
    assert result.exit_code == 1, rendered(result)
    assert result.stdout == ""
    text = rendered(result)
    assert_located(result.stderr, case)
    golden.check(BROKEN / f"{case}.txt", text)


@pytest.mark.parametrize("case", sorted(GENERATED))
def test_generated_catalogue(case, golden, monkeypatch, tmp_path):
    data = GENERATED[case]().encode("utf-8")
    assert len(data) > 5_000_000
    (tmp_path / f"{case}.yaml").write_bytes(data)
    monkeypatch.chdir(tmp_path)
    result = run_check(f"{case}.yaml")
    assert result.exit_code == 1
    assert_located(result.stderr, case)
    golden.check(BROKEN / f"{case}.txt", rendered(result))


def test_all_catalogue_errors_in_one_run(monkeypatch):
    """Several specs in one run: every diagnostic of every spec, one count at the end."""
    monkeypatch.chdir(BROKEN.parent.parent)
    names = ["unknown_key_in_action", "wrong_type", "unknown_name"]
    result = run_check(*(f"tests/broken/{n}.yaml" for n in names), "tests/broken/_clean.yaml")
    assert result.exit_code == 1
    assert "tests/broken/_clean.yaml: ok" in result.stdout
    for n in names:
        assert f"tests/broken/{n}.yaml:" in result.stderr
    assert result.stderr.rstrip().endswith("3 errors")


def test_json_format(monkeypatch):
    import json

    monkeypatch.chdir(BROKEN.parent.parent)
    result = run_check("--format", "json", "tests/broken/unknown_key_in_action.yaml")
    assert result.exit_code == 1
    [d] = json.loads(result.stdout)
    assert d["code"] == "E101" and d["file"] == "tests/broken/unknown_key_in_action.yaml"
    assert (d["line"], d["col"]) == (35, 5)
    result = run_check("--format", "json", "rulespec/official.yaml")
    assert result.exit_code == 0
    [s] = json.loads(result.stdout)
    assert s["file"] == "rulespec/official.yaml" and s["ok"] is True and s["players"] == [2, 3, 4]


def test_a_missing_file_is_a_diagnostic(monkeypatch):
    monkeypatch.chdir(BROKEN.parent.parent)
    result = run_check("tests/broken/no_such_file.yaml")
    assert result.exit_code == 1
    assert "error[E001]: file not found: tests/broken/no_such_file.yaml" in result.stderr


def test_internal_errors_exit_3_without_a_traceback(monkeypatch):
    def broken(path, sources=None):
        raise KeyError("oops")

    monkeypatch.chdir(BROKEN.parent.parent)
    monkeypatch.setattr(compiler.pipeline, "load_rules", broken)
    monkeypatch.delenv("SPLENDOR_RULES_TRACEBACK", raising=False)
    result = run_check("rulespec/official.yaml")
    assert result.exit_code == cli.EXIT_INTERNAL
    assert "internal error while checking rulespec/official.yaml: KeyError: 'oops'" in result.stderr
    assert "Traceback" not in result.output
    assert source.display_path("rulespec/official.yaml") == "rulespec/official.yaml"
