"""Untrusted input files and texts (issue 14): what a shared spec can make the tools read or write.

A spec, its card tables and the bases it extends are read only as ordinary files of bounded
size; every name is matched whole by the schema's patterns; `extends` chains are bounded and
stay relative; every text a spec gives is made safe for the output it reaches (a YAML
comment of `new`, the Markdown and HTML of the sheets, the terminal).
"""

from __future__ import annotations

import os
import pathlib
import re
import shutil

import pytest
from click.testing import CliRunner

from app import cli
from compiler import pipeline
from compiler.diagnostics import CompileError, SourceMap, render
from tests.helpers.inputs import in_time, yaml_double_quoted

ROOT = pathlib.Path(__file__).resolve().parent.parent
CLEAN = (ROOT / "tests" / "broken" / "_clean.yaml").read_text(encoding="utf-8")


@pytest.fixture
def folder(tmp_path: pathlib.Path) -> pathlib.Path:
    for name in ("splendor_cards.csv", "splendor_nobles.csv"):
        shutil.copy(ROOT / "rulespec" / name, tmp_path / name)
    return tmp_path


def spec(*changes: tuple[str, str]) -> str:
    """The clean spec (tables beside it) with each (old, new) replaced once."""
    text = CLEAN.replace("../../rulespec/", "")
    for old, new in changes:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    return text


def failed(path: pathlib.Path):
    """(diagnostics, sources) of a spec that must fail to load or check."""
    sources = SourceMap()
    with pytest.raises(CompileError) as info:
        pipeline.load_rules(str(path), sources)
    return info.value.diagnostics, sources


# --------------------------------------------------------------------------- card tables


def _bad_cell(folder, cell: str):
    rows = (folder / "splendor_cards.csv").read_text(encoding="utf-8").splitlines()
    assert rows[1].startswith("1,white,0,0,")
    rows[1] = rows[1].replace("1,white,0,0,", f"1,white,0,{cell},", 1)
    (folder / "splendor_cards.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    (folder / "spec.yaml").write_text(spec(), encoding="utf-8")
    [d], sources = failed(folder / "spec.yaml")
    return d, render(d, sources)


@pytest.mark.parametrize(
    "cell, message",
    [
        ("\u00b2", "'white' must be a whole number, not '\u00b2'"),
        ("\uff17", "'white' must be a whole number, not '\uff17'"),
        ("5" * 5000, "'white' must be a whole number from 0 to 1000, not a number of 5000 digits"),
        ("1001", "'white' must be a whole number from 0 to 1000, not 1001"),
        ("-1", "'white' must be a whole number, not '-1'"),
    ],
)
def test_a_card_cell_is_ascii_digits_within_range(folder, cell, message):
    d, shown = _bad_cell(folder, cell)
    assert (d.code, d.message) == ("E107", message)
    assert (d.span.file, d.span.line, d.span.col) == (f"{folder.as_posix()}/splendor_cards.csv", 2, 11)
    lines = shown.splitlines()
    assert lines[0].startswith(f"{folder.as_posix()}/splendor_cards.csv:2:11: error[E107]")
    if len(cell) < 200:  # a longer line is shown in a window
        assert lines[2].index("^") == len(" 2 | ") + 10


def test_a_noble_cell_is_located_at_its_cell(folder):
    (folder / "splendor_nobles.csv").write_text(
        "points,white,blue,green,red,black\n3, 0 ,0,4,\u00b2,0\n", encoding="utf-8"
    )
    (folder / "spec.yaml").write_text(spec(), encoding="utf-8")
    diagnostics, sources = failed(folder / "spec.yaml")
    [d] = [d for d in diagnostics if d.code == "E107"]
    assert d.message == "'red' must be a whole number, not '\u00b2'"
    assert render(d, sources).splitlines()[1:] == [" 2 | 3, 0 ,0,4,\u00b2,0", "   |           ^"]


@pytest.mark.parametrize("kind", ["dev_zero", "fifo", "folder", "too_large"])
def test_a_table_is_an_ordinary_file_of_bounded_size(folder, kind):
    table = folder / "table.csv"
    why = {
        "dev_zero": "is a device",
        "fifo": "is a named pipe (FIFO)",
        "folder": "is a directory",
        "too_large": "it is too large for a table (over 1 MB)",
    }[kind]
    if kind == "dev_zero":
        table.symlink_to("/dev/zero")
    elif kind == "fifo":
        os.mkfifo(table)
    elif kind == "folder":
        table.mkdir()
    else:
        table.write_text("points,white,blue,green,red,black\n" + "3,0,0,4,4,0\n" * 100_000, encoding="utf-8")
    (folder / "spec.yaml").write_text(spec(("nobles: splendor_nobles.csv", "nobles: table.csv")), encoding="utf-8")
    diagnostics, _ = in_time(lambda: failed(folder / "spec.yaml"))
    [d] = diagnostics
    assert (d.code, d.message) == ("E112", f"cannot read the nobles table {folder.as_posix()}/table.csv: {why}")


def test_a_table_behind_a_symlink_is_read(folder):
    (folder / "tables").mkdir()
    shutil.move(folder / "splendor_cards.csv", folder / "tables" / "cards.csv")
    (folder / "splendor_cards.csv").symlink_to(folder / "tables" / "cards.csv")
    (folder / "spec.yaml").write_text(spec(), encoding="utf-8")
    assert len(pipeline.load_rules(str(folder / "spec.yaml")).cards) == 90


@pytest.mark.parametrize("kind", ["dev_zero", "fifo"])
def test_a_spec_file_is_an_ordinary_file(tmp_path, kind, monkeypatch):
    target = tmp_path / "spec.yaml"
    if kind == "dev_zero":
        target.symlink_to("/dev/zero")
    else:
        os.mkfifo(target)
    monkeypatch.chdir(tmp_path)
    result = in_time(lambda: CliRunner().invoke(cli.main, ["check", "spec.yaml"]))
    what = {"dev_zero": "a device", "fifo": "a named pipe (FIFO)"}[kind]
    assert (result.exit_code, result.stderr) == (1, f"error[E001]: not a file but {what}: spec.yaml\n1 error\n")


@pytest.mark.parametrize("kind", ["dev_zero", "fifo"])
def test_an_extended_base_is_an_ordinary_file(folder, kind):
    if kind == "dev_zero":
        (folder / "base.yaml").symlink_to("/dev/zero")
    else:
        os.mkfifo(folder / "base.yaml")
    (folder / "variant.yaml").write_text("spec: 1\nname: v\nextends: base.yaml\n", encoding="utf-8")
    diagnostics, _ = in_time(lambda: failed(folder / "variant.yaml"))
    [d] = diagnostics
    assert d.code in ("E001", "E301") and d.span is not None and d.span.file.endswith("variant.yaml"), d


# --------------------------------------------------------------------------- names


def _patterns(node) -> set[str]:
    """Every "pattern" of a JSON schema."""
    if isinstance(node, dict):
        found = {node["pattern"]} if isinstance(node.get("pattern"), str) else set()
        return found.union(*(_patterns(v) for v in node.values()))
    if isinstance(node, list):
        return set().union(*(_patterns(v) for v in node))
    return set()


# A text that each pattern of rulespec/schema.json accepts (a new pattern needs one here).
PATTERN_SAMPLES = {
    "^[a-z_][a-z0-9_]*$": "take_pair",
    "\\.csv$": "cards.csv",
    "^[a-z0-9][a-z0-9_-]*$": "house-rules",
    "^[1-9][0-9]?$": "42",
    "^[a-z0-9_]*$": "cost_",
    "^(setup\\.)?[a-z_][a-z0-9_]*$": "setup.nobles",
    "^[a-z][a-z0-9_]*$": "gold_counts_double",  # a keyword a column's titles name
    "^[a-z_][a-z0-9_]*([.][a-z_][a-z0-9_]*)?$": "posts.power",  # a definition's parameter type
    "^[a-z_][a-z0-9_]*(\\[[0-9]{1,3}\\])?$": "rows[1]",  # a component choice's `from`: a zone, or one level of it
}


@pytest.mark.parametrize("pattern", sorted(_patterns(__import__("compiler.front.schema").front.schema.load_schema())))
def test_every_schema_pattern_refuses_a_trailing_newline(pattern):
    from compiler.front import schema

    assert pattern in PATTERN_SAMPLES, f"give a sample of the new pattern {pattern!r}"
    sample = PATTERN_SAMPLES[pattern]
    assert schema.pattern_matches(pattern, sample)
    validator = schema._validator("spec")
    for bad in (sample + "\n", sample + "\r\n", sample + "\n\n"):
        assert not schema.pattern_matches(pattern, bad), bad
        assert list(validator.VALIDATORS["pattern"](validator, pattern, bad, {})), bad


def test_a_name_ending_in_a_newline_is_refused(folder):
    (folder / "spec.yaml").write_text(spec(("name: mini", 'name: "name-nl\\n"')), encoding="utf-8")
    [d], sources = failed(folder / "spec.yaml")
    assert d.code == "E105" and (d.span.line, d.span.col) == (3, 7), render(d, sources)


def test_new_refuses_a_name_ending_in_a_newline(tmp_path):
    result = CliRunner().invoke(cli.main, ["new", "house\n", "-o", str(tmp_path)])
    assert result.exit_code == 2 and "is not a variant name" in result.stderr
    assert os.listdir(tmp_path) == []


# --------------------------------------------------------------------------- extends


def test_a_long_chain_of_variants_is_a_located_error(folder):
    (folder / "v0.yaml").write_text(spec(), encoding="utf-8")
    for i in range(1, 1001):
        (folder / f"v{i}.yaml").write_text(f"spec: 1\nname: v{i}\nextends: v{i - 1}.yaml\n", encoding="utf-8")
    [d], sources = failed(folder / "v1000.yaml")
    assert (d.code, d.span.file, d.span.line, d.span.col) == ("E314", f"{folder.as_posix()}/v1000.yaml", 3, 10)
    assert d.message == ("the chain of variants is longer than 32: a variant of a variant of ... goes at most 32 deep")
    assert render(d, sources).splitlines()[1:3] == [" 3 | extends: v999.yaml", "   |          ^^^^^^^^^"]


def test_a_chain_of_32_variants_is_followed(folder):
    (folder / "v0.yaml").write_text(spec(), encoding="utf-8")
    for i in range(1, 33):
        (folder / f"v{i}.yaml").write_text(f"spec: 1\nname: v{i}\nextends: v{i - 1}.yaml\n", encoding="utf-8")
    rules = pipeline.load_rules(str(folder / "v32.yaml"))
    assert rules.name == "v32" and len(rules.bases) == 32
    (folder / "v33.yaml").write_text("spec: 1\nname: v33\nextends: v32.yaml\n", encoding="utf-8")
    [d], _ = failed(folder / "v33.yaml")
    assert d.code == "E314"


def test_extends_refuses_an_absolute_path(folder):
    (folder / "base.yaml").write_text(spec(), encoding="utf-8")
    (folder / "variant.yaml").write_text(
        f"spec: 1\nname: v\nextends: {(folder / 'base.yaml').as_posix()}\n", encoding="utf-8"
    )
    [d], _ = failed(folder / "variant.yaml")
    assert (d.code, d.span.line, d.span.col) == ("E309", 3, 10)
    assert d.message == (
        "'extends' takes a path relative to the variant's folder, not an absolute path: "
        f"'{(folder / 'base.yaml').as_posix()}'"
    )


def test_extends_follows_a_relative_path_up_and_down(folder):
    (folder / "bases").mkdir()
    (folder / "bases" / "base.yaml").write_text(
        spec().replace("cards: splendor", "cards: ../splendor").replace("nobles: splendor", "nobles: ../splendor"),
        encoding="utf-8",
    )
    (folder / "mine").mkdir()
    (folder / "mine" / "v.yaml").write_text("spec: 1\nname: v\nextends: ../bases/base.yaml\n", encoding="utf-8")
    assert pipeline.load_rules(str(folder / "mine" / "v.yaml")).name == "v"


# --------------------------------------------------------------------------- new: a YAML file from a spec

HOSTILE_TEXTS = [
    "Splendor: the #1 game",
    "House\nvalues:\n  token_limit: 99\n#",
    "Rules\u2028values: {token_limit: 99}\r# \x85x",
    "\x1b]52;c;cGF5bG9hZA==\x07\x1b[2J\u202eevil\u202c \"quotes' `back` --> <script>alert(1)</script> | # x",
]


@pytest.mark.parametrize("hostile", HOSTILE_TEXTS)
def test_new_writes_the_texts_of_a_hostile_base_safely(folder, hostile):
    import yaml

    base = spec(
        ("title: Splendor (catalogue base)", f"title: {yaml_double_quoted(hostile)}"),
        ("title: Buy one of your reserved cards", f"title: {yaml_double_quoted(hostile)}"),
    )
    (folder / "base.yaml").write_text(base, encoding="utf-8")
    base_rules = pipeline.load_rules(str(folder / "base.yaml"))
    assert base_rules.title.en == hostile
    result = CliRunner().invoke(cli.main, ["new", "house", "--from", str(folder / "base.yaml"), "-o", str(folder)])
    assert result.exit_code == 0, result.output
    text = (folder / "house.yaml").read_text(encoding="utf-8")
    data = yaml.safe_load(text)
    assert data == {
        "spec": 1,
        "name": "house",
        "extends": "base.yaml",
        "title": "House",
        "description": f"A house variant of {hostile}.",
    }
    rules = pipeline.load_rules(str(folder / "house.yaml"))
    assert rules.values == base_rules.values and rules.actions == base_rules.actions
    assert {c.path for c in rules.changes} <= {"title", "description"}
    assert all(line.startswith("#") or not line or line.split(":")[0] in data for line in text.splitlines())


# --------------------------------------------------------------------------- sheets: Markdown and HTML


MD_HOSTILE = [
    "# Heading",
    "- item",
    "1. step",
    "=== rule",
    "`code`",
    "&lt;b&gt; ~~gone~~",
    "a | b",
    "<script>x</script>",
    "line\n# two",
    "esc \x1b[2J \u202e",
]


def test_the_sheets_escape_a_hostile_file_name_and_texts(tmp_path, monkeypatch):
    from compiler.sheets import content, render

    monkeypatch.chdir(tmp_path)
    name = "x --><script>alert(1)<!-- .yaml"
    texts = {f"t{i}": t for i, t in enumerate(MD_HOSTILE)}
    values = "".join(f"  {k}: {{value: 1, add: true, note: {yaml_double_quoted(t)}}}\n" for k, t in texts.items())
    (tmp_path / name).write_text(
        f"spec: 1\nname: hostile\nextends: official\ntitle: {yaml_double_quoted(MD_HOSTILE[0])}\n"
        f"description: {yaml_double_quoted(MD_HOSTILE[1])}\nvalues:\n{values}",
        encoding="utf-8",
    )
    rules = pipeline.load_rules(name)
    sheet = content.build(rules, "en", pipeline.load_rules(rules.bases[0].path))
    md = render.markdown(sheet, rules)
    first, rest = md.split("\n", 1)
    assert first.startswith("<!-- Generated by splendor-rules from x --&gt;&lt;script&gt;alert(1)&lt;!-- .yaml")
    assert first.endswith(" -->") and first.count("-->") == 1 and "<" not in first[4:]
    assert "<" not in rest.replace("\\<", "")  # no raw HTML anywhere else
    assert "\x1b" not in md and "\u202e" not in md and "esc \\\\x1b\\[2J \\\\u202e" in md
    # no line made a heading, list item, rule or quote by a spec's text, alone or after the template's marks
    assert not re.search(r"^(> |- |\d+\. |# )?(# Heading|- item|1\. step|=== rule|# two)", rest, re.M)
    for text in ("\\# Heading", "\\- item", "1\\. step", "\\=== rule", "line \\# two"):
        assert text in rest, text
    assert "# \\# Heading" in md and "\\`code\\`" in md and "\\&lt;b\\&gt; \\~\\~gone\\~\\~" in md and "a \\| b" in md
    html = render.html(sheet, rules)
    assert html.split("\n", 1)[0].count("-->") == 1 and "<script>" not in html


@pytest.mark.parametrize(
    "text, escaped",
    [
        ("# a", "\\# a"),
        ("- a", "\\- a"),
        ("+ a", "\\+ a"),
        ("=== a", "\\=== a"),
        ("12. a", "12\\. a"),
        ("3) a", "3\\) a"),
        ("a - b", "a - b"),
        ("1.5 gems", "1.5 gems"),
        ("a\nb", "a b"),
        ("\x9b2J", "\\\\x9b2J"),
    ],
)
def test_md_escape_makes_every_text_inline(text, escaped):
    from compiler.sheets.render import md_escape

    assert md_escape(text) == escaped


# --------------------------------------------------------------------------- the terminal

OSC52 = "\x1b]52;c;cGF5bG9hZA==\x07"
CLEAR = "\x1b[2J"
CSI = "\x9b2J"
BIDI = "\u202e"
RAW_CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def _cli(*args: str, stdin: str | None = None):
    result = CliRunner().invoke(cli.main, list(args), input=stdin)
    assert result.exit_code != 3 and "Traceback" not in result.output, result.output
    assert not RAW_CONTROLS.search(result.stdout + result.stderr), repr(result.stdout + result.stderr)
    return result


def test_a_raw_escape_in_a_spec_line_is_shown_escaped_with_the_caret_aligned(folder, monkeypatch):
    monkeypatch.chdir(folder)
    (folder / "spec.yaml").write_text(
        spec(("title: Splendor (catalogue base)", f"title: a{CLEAR}b{BIDI}c")), encoding="utf-8"
    )
    result = _cli("check", "spec.yaml")
    assert result.exit_code == 1
    assert result.stderr.splitlines()[:3] == [
        "spec.yaml:4:9: error[E010]: invalid YAML: the character U+001B is not allowed in a YAML file",
        " 4 | title: a\\x1b[2Jb\\u202ec",
        "   |         ^^^^",
    ]


def test_a_spec_text_in_a_message_is_shown_escaped(folder, monkeypatch):
    monkeypatch.chdir(folder)
    (folder / "spec.yaml").write_text(
        spec(("spec: 1\n", f"spec: 1\n{yaml_double_quoted(OSC52 + CSI)}: 1\n")), encoding="utf-8"
    )
    result = _cli("check", "spec.yaml")
    assert result.exit_code == 1 and "unknown top-level key '\\x1b]52;c;cGF5bG9hZA==\\x07\\x9b2J'" in result.stderr


def test_diff_and_check_show_a_hostile_title_escaped(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    title = yaml_double_quoted(f"House {OSC52}{CLEAR}{CSI}{BIDI} rules")
    (tmp_path / "house.yaml").write_text(
        f"spec: 1\nname: house\nextends: official\ntitle: {title}\ndescription: {title}\n"
        f"values:\n  target: {{value: 12, note: {title}}}\n",
        encoding="utf-8",
    )
    result = _cli("diff", "official", "house.yaml")
    assert result.exit_code == 1 and "House \\x1b]52;c;cGF5bG9hZA==\\x07\\x1b[2J\\x9b2J\\u202e rules" in result.stdout
    result = _cli("check", "house.yaml")
    assert result.exit_code == 0
    new = _cli("new", "copy", "--from", "house.yaml", "-o", str(tmp_path / "v"))
    assert new.exit_code == 0


def test_terminal_text_keeps_lines_and_tabs_and_escapes_every_other_control():
    from compiler.safe_text import terminal_text

    assert terminal_text("a\tb\nc") == "a\tb\nc"
    assert (
        terminal_text("\r\x00\x7f\x85\x9b\u061c\u200e\u2028\u2066")
        == "\\x0d\\x00\\x7f\\x85\\x9b\\u061c\\u200e\\u2028\\u2066"
    )


@pytest.mark.parametrize("command", ["simulate", "play"])
def test_clicks_own_errors_show_a_spec_name_s_escape_sequences_escaped(command):
    """A usage error that quotes what the user typed (a spec name, here with ESC [ 2 J) is
    written by click, not by `echo`: it passes the same boundary. `color=True` keeps what a
    terminal would receive (click strips ANSI escapes only when the output is no terminal)."""
    result = CliRunner().invoke(cli.main, [command, "no\x1b[2Jthing"], color=True)
    assert result.exit_code == 2
    assert "\x1b" not in result.output and "'no\\x1b[2Jthing' is neither a spec name" in result.output
