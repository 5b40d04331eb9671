"""Sheets, lint: translation tables (E601-E605) and variant texts (E610)."""

from __future__ import annotations

import pathlib
import shutil

import pytest
import yaml
from click.testing import CliRunner

from app.cli import main
from compiler.diagnostics import render
from compiler.pipeline import load_rules
from compiler.sheets import tables
from compiler.sheets.lint import lint, lint_tables

ROOT = pathlib.Path(__file__).resolve().parent.parent
COLOURS = ("white", "blue", "green", "red", "black", "gold")


@pytest.fixture(scope="module")
def official():
    return load_rules(str(ROOT / "rulespec" / "official.yaml"))


@pytest.fixture
def langs(tmp_path) -> pathlib.Path:
    """A copy of the language tables to break."""
    target = tmp_path / "lang"
    shutil.copytree(tables.LANG_DIR, target)
    return target


def edit(path: pathlib.Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new), encoding="utf-8")


def line_of(path: pathlib.Path, needle: str) -> int:
    return next(i for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if needle in line)


def test_the_shipped_tables_are_clean(official):
    assert lint(official) == []


def test_missing_key_is_located_where_it_belongs(langs):
    fr = langs / "fr.yaml"
    before = line_of(fr, "cond.never:")  # the key before the one removed
    edit(fr, 'cond.in: "{x} est parmi {coll}"\n', "")
    found = lint_tables(langs, COLOURS)
    assert [(d.code, d.span.file.endswith("fr.yaml"), d.span.line) for d in found] == [("E602", True, before)]
    assert "missing key 'cond.in'" in found[0].message
    assert "en.yaml:" in found[0].message


def test_extra_key_is_located_at_its_line(langs):
    nl = langs / "nl.yaml"
    with nl.open("a", encoding="utf-8") as handle:
        handle.write('sheet.surplus: "te veel"\n')
    found = lint_tables(langs, COLOURS)
    assert [(d.code, d.span.line) for d in found] == [("E603", line_of(nl, "sheet.surplus"))]
    assert "extra key 'sheet.surplus'" in found[0].message


# The words of `splendor-rules diff` are the diff.* keys of the same tables, held to the same checks.


def test_missing_diff_key_is_located_where_it_belongs(langs):
    fr = langs / "fr.yaml"
    before = line_of(fr, "diff.section.players:")  # the key before the one removed
    edit(fr, 'diff.section.values: "Valeurs"\n', "")
    found = lint_tables(langs, COLOURS)
    assert [(d.code, pathlib.Path(d.span.file).name, d.span.line) for d in found] == [("E602", "fr.yaml", before)]
    english = line_of(langs / "en.yaml", "diff.section.values:")
    assert found[0].message.startswith("missing key 'diff.section.values' (the English table has it at ")
    assert found[0].message.endswith(f"en.yaml:{english})")
    assert found[0].notes == ("English: Values",)


def test_extra_diff_key_is_located_at_its_line(langs):
    sr = langs / "sr.yaml"
    edit(sr, 'diff.before: "пре: {v}  ({at})"\n', 'diff.before: "пре: {v}  ({at})"\ndiff.beforehand: "раније: {v}"\n')
    found = lint_tables(langs, COLOURS)
    assert [(d.code, pathlib.Path(d.span.file).name, d.span.line, d.span.col) for d in found] == [
        ("E603", "sr.yaml", line_of(sr, "diff.beforehand:"), 1)
    ]
    assert found[0].message == "extra key 'diff.beforehand': the English table has no such key"


def test_diff_placeholders_must_match_english(langs):
    nl = langs / "nl.yaml"
    edit(nl, 'diff.before: "voor: {v}  ({at})"', 'diff.before: "voor: {v}  ({where})"')
    found = lint_tables(langs, COLOURS)
    assert [(d.code, d.span.line) for d in found] == [("E604", line_of(nl, "diff.before:"))]
    assert found[0].message == "'diff.before' lacks {at} and has {where}, which English does not"


def test_diff_plural_forms_follow_the_language(langs):
    sr = langs / "sr.yaml"
    edit(
        sr,
        'diff.count.tiles: {one: "{n} плочица", few: "{n} плочице", other: "{n} плочица"}',
        'diff.count.tiles: {one: "{n} плочица", other: "{n} плочица"}',
    )
    found = lint_tables(langs, COLOURS)
    assert [(d.code, d.span.line) for d in found] == [("E601", line_of(sr, "diff.count.tiles:"))]
    assert "'diff.count.tiles' lacks the plural form 'few'" in found[0].message


def test_check_reports_a_broken_diff_table(langs, monkeypatch):
    monkeypatch.setattr(tables, "LANG_DIR", langs)
    fr = langs / "fr.yaml"
    edit(fr, 'diff.section.values: "Valeurs"\n', "")
    result = CliRunner().invoke(main, ["check", str(ROOT / "rulespec" / "official.yaml")])
    assert result.exit_code == 1
    assert (
        f"fr.yaml:{line_of(fr, 'diff.section.players:')}:1: error[E602]: missing key 'diff.section.values'"
        in result.output
    )


def test_a_key_missing_from_english_is_extra_everywhere_else(langs):
    edit(langs / "en.yaml", 'eff.nothing: "nothing happens"\n', "")
    found = lint_tables(langs, COLOURS)
    assert sorted((d.code, pathlib.Path(d.span.file).name) for d in found) == [
        ("E603", "fr.yaml"),
        ("E603", "nl.yaml"),
        ("E603", "sr.yaml"),
    ]


def test_serbian_needs_three_plural_forms(langs):
    sr = langs / "sr.yaml"
    edit(sr, 'noun.card: {one: "карта", few: "карте", other: "карата"}', 'noun.card: {one: "карта", other: "карата"}')
    found = lint_tables(langs, COLOURS)
    assert [d.code for d in found] == ["E601"]
    assert "lacks the plural form 'few'" in found[0].message
    assert found[0].span.line == line_of(sr, "noun.card:")


def test_english_has_no_few_form(langs):
    edit(
        langs / "en.yaml",
        'noun.card: {one: "card", other: "cards"}',
        'noun.card: {one: "card", few: "cards", other: "cards"}',
    )
    found = lint_tables(langs, COLOURS)
    assert [d.code for d in found] == ["E601"]
    assert "'few', which en does not use" in found[0].message


def test_placeholders_must_match_english(langs):
    edit(langs / "fr.yaml", 'quant.gt: "plus de {n} {noun}"', 'quant.gt: "plus de {noun}"')
    found = lint_tables(langs, COLOURS)
    assert [d.code for d in found] == ["E604"]
    assert "'quant.gt' lacks {n}" in found[0].message


def test_case_forms_count_as_the_same_placeholder(langs):
    edit(langs / "nl.yaml", 'eff.reserve: "reserveer {card_acc}"', 'eff.reserve: "reserveer {card}"')
    assert lint_tables(langs, COLOURS) == []


def test_a_spec_colour_without_words(langs):
    found = lint_tables(langs, COLOURS + ("purple",))
    assert sorted(pathlib.Path(d.span.file).name for d in found) == ["en.yaml", "fr.yaml", "nl.yaml", "sr.yaml"]
    assert all(d.code == "E605" and "'purple'" in d.message for d in found)


def test_a_broken_table_is_reported_not_raised(langs):
    (langs / "sr.yaml").write_text("- a list\n", encoding="utf-8")
    found = lint_tables(langs, COLOURS)
    assert [d.code for d in found] == ["E601"]


def test_variant_texts_need_every_language(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "v.yaml").write_text(
        "spec: 1\nname: v\nextends: official\n"
        "title: {en: V, fr: V, nl: V}\n"
        "description: Only English.\n"
        "values:\n  target: {value: 12, note: {en: Twelve., fr: Douze., nl: Twaalf., sr: Дванаест.}}\n"
        "actions:\n  pass: {remove: Nobody passes.}\n"
        "winners:\n  ranking:\n    nobles: {add: true, title: Most nobles, by: player.nobles, prefer: highest}\n",
        encoding="utf-8",
    )
    rules = load_rules("v.yaml")
    found = lint(rules)
    assert all(d.code == "E610" and d.severity == "warning" and d.span.file == "v.yaml" for d in found)
    assert [(d.span.line, d.span.col) for d in found] == [(4, 1), (5, 14), (9, 18), (12, 32)]
    assert [d.message for d in found] == [
        "the variant's title has no sr text; the sr sheet will show English",
        "the variant's description has no fr, nl and sr text; the fr, nl and sr sheets will show English",
        "actions 'pass': the reason for removing it has no fr, nl and sr text; the fr, nl and sr sheets will show English",
        "ranking level 'nobles': title has no fr, nl and sr text; the fr, nl and sr sheets will show English",
    ]
    assert all(d.notes == ("write it as a mapping: {en: ..., fr: ..., nl: ..., sr: ...}",) for d in found)
    text = render(found[1])
    assert "v.yaml:5:14: warning[E610]: the variant's description has no fr, nl and sr text" in text


def test_a_missing_variant_translation_is_a_warning_that_check_counts_and_shows(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "v.yaml").write_text(
        "spec: 1\nname: v\nextends: official\n"
        "title: {en: V, fr: V, nl: V, sr: В}\n"
        "values:\n  target: {value: 12, note: Twelve.}\n",
        encoding="utf-8",
    )
    runner = CliRunner()
    result = runner.invoke(main, ["check", "v.yaml"])
    assert result.exit_code == 0
    assert "1 warning (-W shows them)" in result.output
    result = runner.invoke(main, ["check", "-W", "v.yaml"])
    assert result.exit_code == 0
    assert result.stdout.startswith("v.yaml: ok (") and result.stdout.rstrip().endswith("; 1 warning)")
    assert (
        "v.yaml:6:29: warning[E610]: values 'target': note has no fr, nl and sr text; "
        "the fr, nl and sr sheets will show English"
    ) in result.output
    result = runner.invoke(main, ["sheet", "v.yaml", "--lang", "fr", "--format", "md", "-o", "out"])
    assert result.exit_code == 0
    assert "Twelve." in (tmp_path / "out" / "v.fr.md").read_text(encoding="utf-8")


def test_the_shipped_specs_have_every_translation(monkeypatch):
    monkeypatch.chdir(ROOT)
    names = yaml.safe_load((ROOT / "variants" / "index.yaml").read_text(encoding="utf-8"))["variants"]
    for name in names:
        assert lint(load_rules(f"variants/{name}.yaml")) == [], name


def test_e610_checks_the_first_player_and_says_what_each_sheet_shows_instead(tmp_path, monkeypatch):
    """The first player's text is a variant text like the others; an action's or a step's title
    without a translation is not shown in English but replaced by a title made from its rules."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "v.yaml").write_text(
        "spec: 1\nname: v\nextends: official\n"
        "title: {en: V, fr: V, nl: V, sr: В}\n"
        "first_player: {en: The oldest player starts., fr: Le joueur le plus âgé commence.}\n"
        "actions:\n  reserve_face_up: {title: Reserve a card from the table}\n"
        "end_of_turn:\n  noble_visit: {title: {en: Nobles call, fr: Les nobles passent}}\n",
        encoding="utf-8",
    )
    found = lint(load_rules("v.yaml"))
    assert [(d.code, d.span.line) for d in found] == [("E610", 5), ("E610", 7), ("E610", 9)]
    assert [d.message for d in found] == [
        "the variant's first_player has no nl and sr text; the nl and sr sheets will show English",
        "actions 'reserve_face_up': title has no fr, nl and sr text; "
        "the fr, nl and sr sheets will show a title generated from its rules instead",
        "end_of_turn 'noble_visit': title has no nl and sr text; "
        "the nl and sr sheets will show a title generated from its rules instead",
    ]
    # what the message says is what the sheets do
    runner = CliRunner()
    for lang in ("nl", "sr"):
        result = runner.invoke(main, ["sheet", "v.yaml", "--lang", lang, "--format", "md", "-o", "out"])
        assert result.exit_code == 0, result.output
        text = (tmp_path / "out" / f"v.{lang}.md").read_text(encoding="utf-8")
        assert "The oldest player starts." in text
        assert "Reserve a card from the table" not in text and "Nobles call" not in text
        assert tables.load(lang).text("sheet.headline.reserve_face_up") in text
