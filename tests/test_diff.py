"""`splendor-rules diff`: the semantic diff of two rule models (compiler/diff/).

Golden outputs live in tests/diff_goldens/: A__B.LANG.txt is what `splendor-rules diff
--lang LANG A B` prints, then its exit status. `pytest --update-goldens` rewrites them;
read every diff.
"""

from __future__ import annotations

import functools
import os
import pathlib
from dataclasses import replace

import pytest
from click.testing import CliRunner

from app import cli
from compiler import diff, pipeline

ROOT = pathlib.Path(__file__).resolve().parent.parent
GOLDENS = ROOT / "tests" / "diff_goldens"

PAIRS = [
    ("official", "target-12", "en"),
    ("official", "solo", "en"),
    ("official", "hard-cap", "en"),
    ("grand-table", "official", "en"),
    ("official", "reserve-tax", "fr"),
    ("hard-cap", "take-up-to-three", "nl"),
    ("official", "noble-tiebreak", "sr"),
    ("sudden-death", "no-gold-small-tables", "sr"),
    ("official", "head-start", "en"),
    ("head-start", "official", "fr"),
]


@pytest.fixture(autouse=True)
def at_root(monkeypatch):
    monkeypatch.chdir(ROOT)


def run_diff(*args: str):
    return CliRunner().invoke(cli.main, ["diff", *args])


def catalogue() -> list[str]:
    return pipeline.catalogue()


@functools.cache
def rules(path: str):
    """The rule model of a spec (immutable, so shared between tests)."""
    return pipeline.load_rules(path)


@pytest.mark.parametrize("a,b,lang", PAIRS, ids=[f"{a}__{b}.{lang}" for a, b, lang in PAIRS])
def test_diff_golden(a, b, lang, golden):
    result = run_diff("--lang", lang, a, b)
    assert result.exit_code == 1, result.output
    assert result.stderr == ""
    golden.check(GOLDENS / f"{a}__{b}.{lang}.txt", f"{result.stdout}[exit status: {result.exit_code}]\n")


@pytest.mark.parametrize("path", ["rulespec/official.yaml", "variants/solo.yaml", "variants/reserve-tax.yaml"])
def test_a_spec_compared_with_itself_says_nothing(path):
    result = run_diff(path, path)
    assert (result.exit_code, result.stdout, result.stderr) == (0, "", "")


def test_every_spec_of_the_catalogue_equals_itself():
    for path in catalogue():
        model = rules(path)
        assert diff.compare(model, model) == [], path


def test_a_variant_that_changes_nothing_has_the_rules_of_its_base(tmp_path):
    nothing = tmp_path / "nothing.yaml"
    nothing.write_text("spec: 1\nname: nothing\nextends: target-12\ntitle: Nothing\n", encoding="utf-8")
    result = run_diff("variants/target-12.yaml", str(nothing))
    assert (result.exit_code, result.stdout) == (0, "")
    result = run_diff("official", str(nothing))
    assert result.exit_code == 1 and 'The value "target"' in result.stdout


def test_every_difference_from_the_official_rules_is_located_and_explained():
    """Each difference points into the file that wrote it: the variant, or a variant it extends (a
    change cities-declinable inherits is located, with its note, in variants/cities.yaml)."""
    official = rules("rulespec/official.yaml")
    for path in catalogue()[1:]:
        variant = rules(path)
        writers = {path} | {b.path for b in variant.bases if b.path.startswith("variants/")}
        differences = diff.compare(official, variant)
        assert differences, f"{path} has the official rules"
        for d in differences:
            assert d.note is not None, f"{path}: {d.path} has no note"
            if d.kind != "removed":
                assert d.after_at is not None and d.after_at.file in writers, (path, d.path, d.after_at)
            if d.kind != "added":
                assert d.before_at is not None and d.before_at.file == "rulespec/official.yaml", (path, d.path)


def test_the_diff_is_symmetric_in_what_it_finds():
    for path in catalogue()[1:]:
        a, b = rules("rulespec/official.yaml"), rules(path)
        forward = {(d.path, d.kind) for d in diff.compare(a, b)}
        backward = {(d.path, {"added": "removed", "removed": "added"}.get(d.kind, d.kind)) for d in diff.compare(b, a)}
        assert forward == backward, path


@pytest.mark.parametrize("lang", diff.LANGUAGES)
def test_every_language_renders_every_difference(lang):
    official = rules("rulespec/official.yaml")
    for path in catalogue()[1:]:
        variant = rules(path)
        text = diff.render(diff.compare(official, variant), official, variant, lang)
        for choice in {p.name for m in (official, variant) for d in m.actions + m.steps for p in d.params}:
            text = text.replace("{" + choice + "}", "")  # a notation names its choices: "city {city}"
        assert text.endswith("\n") and "{" not in text, text
        assert "None" not in text


def test_the_language_tables_have_the_same_keys():
    def shape(table):
        return {
            k: shape(v)
            if isinstance(v, dict) and k not in ("total", "cards", "tiles", "components", "player")
            else None
            for k, v in table.items()
        }

    english = shape(diff.STRINGS["en"])
    for lang in diff.LANGUAGES:
        assert shape(diff.STRINGS[lang]) == english, lang


def test_order_and_components_differences(tmp_path):
    text = (ROOT / "rulespec" / "official.yaml").read_text(encoding="utf-8")
    steps = text[text.index("  return_tokens:") : text.index("  noble_visit:")]
    visit = text[text.index("  noble_visit:") : text.index("# Checked at the end of every turn")]
    text = text.replace(steps + visit, visit.rstrip("\n") + "\n\n" + steps.rstrip("\n") + "\n\n")
    tables = pathlib.Path(os.path.relpath(ROOT / "rulespec", tmp_path)).as_posix()  # a table's path is relative
    for table in ("splendor_cards.csv", "splendor_nobles.csv"):
        assert text.count(f"table: {table}") == 1, table
        text = text.replace(f"table: {table}", f"table: {tables}/{table}")
    text = text.replace("name: official", "name: reordered").replace("wild: gold", "wild: gold\n")
    other = tmp_path / "reordered.yaml"
    other.write_text(text, encoding="utf-8")
    a, b = rules("rulespec/official.yaml"), rules(str(other))
    differences = diff.compare(a, b)
    assert [(d.kind, d.path) for d in differences] == [("order", "end_of_turn.order")]
    d = differences[0]
    assert (d.before, d.after) == (["return_tokens", "noble_visit"], ["noble_visit", "return_tokens"])
    assert "The order of the end-of-turn steps" in diff.render(differences, a, b)


def test_added_ranking_levels_say_where_they_stand():
    a, b = rules("rulespec/official.yaml"), rules("variants/noble-tiebreak.yaml")
    (d,) = diff.compare(a, b)
    assert d.kind == "added" and d.path == "winners.ranking.nobles"
    assert d.details[0] == ("position", ("after", "prestige"), "position")


def test_exit_status_2_on_a_spec_with_errors():
    result = run_diff("official", "tests/overlay_errors/unknown_target.yaml")
    assert result.exit_code == 2
    assert result.stdout == ""
    assert "tests/overlay_errors/unknown_target.yaml:7:3: error[E303]" in result.stderr
    assert "Traceback" not in result.stderr


def test_exit_status_2_on_a_spec_not_found():
    result = run_diff("official", "no-such-variant")
    assert result.exit_code == 2
    assert "spec 'no-such-variant' not found" in result.stderr


def test_specs_by_name_and_by_path_are_the_same():
    assert (
        run_diff("official", "target-12").stdout == run_diff("rulespec/official.yaml", "variants/target-12.yaml").stdout
    )


def test_the_diff_command_offers_every_sheet_language():
    from app import cli
    from compiler.sheets.plurals import LANGUAGES

    lang = next(p for p in cli.main.commands["diff"].params if p.name == "lang")
    assert tuple(lang.type.choices) == tuple(LANGUAGES)


def test_a_moved_step_is_reported_with_the_note_of_its_move(tmp_path):
    from click.testing import CliRunner

    from app.cli import main

    variant = tmp_path / "moved.yaml"
    variant.write_text(
        "spec: 1\nname: nobles-first\nextends: official\n"
        "title: {en: Nobles first, fr: Nobles d'abord, nl: Edelen eerst, sr: Племићи прво}\n"
        "end_of_turn:\n  noble_visit:\n    before: return_tokens\n"
        "    note: {en: Nobles come first., fr: Les nobles d'abord., nl: Eerst de edelen., sr: Прво племићи.}\n",
        encoding="utf-8",
    )
    result = CliRunner().invoke(main, ["diff", "official", str(variant)])
    assert result.exit_code == 1
    assert "The order of the end-of-turn steps" in result.output
    assert "after: noble_visit, return_tokens" in result.output
    assert "note: Nobles come first." in result.output


def test_interpretations_stated_by_one_side_only_are_reported_where_they_are_written(tmp_path):
    official = rules("rulespec/official.yaml")
    kept = official.interpretations[1:]
    variant = tmp_path / "readings.yaml"
    variant.write_text(
        "spec: 1\nname: readings\nextends: official\ntitle: {en: Readings}\n"
        "interpretations:\n"
        + "".join(f"  - {t.en!r}\n" for t in kept)
        + "  - {en: Gold returned at the end of a turn goes back to the supply.,"
        " fr: L'or rendu revient à la banque.}\n",
        encoding="utf-8",
    )
    b = pipeline.load_rules(str(variant))
    differences = diff.compare(official, b)
    assert [(d.kind, d.path) for d in differences] == [
        ("removed", "interpretations.0"),
        ("added", f"interpretations.{len(kept)}"),
    ]
    assert differences[0].before_at.file == "rulespec/official.yaml"
    assert differences[1].after_at.line == 5 + len(kept) + 1
    text = diff.render(differences, official, b)
    assert "Interpretations" in text
    assert f'Removed: the interpretation "{official.interpretations[0].en}"' in text, text
    assert 'the interpretation "Gold returned at the end of a turn goes back to the supply."' in text
    assert "« L'or rendu revient à la banque. »" in diff.render(differences, official, b, "fr")


def test_a_moved_action_is_reported_as_a_new_order(tmp_path):
    variant = tmp_path / "buy-first.yaml"
    variant.write_text(
        "spec: 1\nname: buy-first\nextends: official\ntitle: {en: Buy first}\n"
        "actions:\n  buy_face_up:\n    before: take_different\n    note: {en: Buying comes first.}\n",
        encoding="utf-8",
    )
    a, b = rules("rulespec/official.yaml"), pipeline.load_rules(str(variant))
    (d,) = diff.compare(a, b)
    assert (d.kind, d.path) == ("order", "actions.order")
    assert d.after[:2] == ["buy_face_up", "take_different"]
    text = diff.render([d], a, b)
    assert "The order of the actions" in text and "note: Buying comes first." in text


def test_a_changed_price_is_phrased_for_each_gem_colour(tmp_path):
    """A price is an expression of the gem colour `c`: the diff binds it as the sheets do (it once exited 3)."""
    variant = tmp_path / "dear.yaml"
    variant.write_text(
        "spec: 1\nname: dear\nextends: official\ntitle: Dear\nactions:\n  buy_face_up:\n"
        '    choose:\n      payment: {price: "max(0, card.cost[c] - me.bonus[c] + 1)"}\n',
        encoding="utf-8",
    )
    result = run_diff("official", str(variant))
    assert result.exit_code == 1, result.output
    lines = result.output.splitlines()
    assert (
        "      before: for each gem colour, you pay the cost of the chosen card in that colour minus the number "
        "of your bonuses of that colour (never less than 0)  (rulespec/official.yaml:152)" in lines
    )
    assert any(
        line.startswith(
            "      after: for each gem colour, you pay the cost of the chosen card in that colour "
            "minus the number of your bonuses of that colour plus 1 (never less than 0)  ("
        )
        for line in lines
    ), result.output
    for lang in ("fr", "nl", "sr"):
        assert run_diff("--lang", lang, "official", str(variant)).exit_code == 1


def test_a_variant_that_changes_only_the_first_player_differs(tmp_path):
    """Who starts is a rule of the table (the final round is counted from that player): a variant
    changing only it does not have the rules of its base; the diff says so in each language."""
    variant = tmp_path / "oldest.yaml"
    variant.write_text(
        "spec: 1\nname: oldest\nextends: official\ntitle: {en: Oldest}\n"
        "first_player:\n  en: The oldest player starts.\n  fr: Le joueur le plus âgé commence.\n"
        "  nl: De oudste speler begint.\n  sr: Почиње најстарији играч.\n",
        encoding="utf-8",
    )
    result = run_diff("official", str(variant))
    assert result.exit_code == 1
    line = (
        next(
            i
            for i, t in enumerate((ROOT / "rulespec/official.yaml").read_text(encoding="utf-8").splitlines())
            if t.startswith("first_player:")
        )
        + 2
    )
    assert result.stdout.splitlines()[1:] == [
        "",
        "First player",
        "- Who takes the first turn",
        f"    before: The youngest player starts.  (rulespec/official.yaml:{line})",
        f"    after: The oldest player starts.  ({variant}:6)",
        "",
        "1 difference.",
    ]
    official, b = rules("rulespec/official.yaml"), pipeline.load_rules(str(variant))
    differences = diff.compare(official, b)
    assert [(d.kind, d.path) for d in differences] == [("changed", "first_player")]
    assert "Premier joueur\n- Qui joue en premier\n    avant : Le joueur le plus jeune commence." in diff.render(
        differences, official, b, "fr"
    )
    assert "Startspeler\n- Wie de eerste beurt neemt\n    voor: De jongste speler begint." in diff.render(
        differences, official, b, "nl"
    )
    assert "Први играч\n- Ко игра први\n    пре: Почиње најмлађи играч." in diff.render(differences, official, b, "sr")
    # a spec that does not say who starts: the players agree, as its sheet tells them
    unsaid = replace(b, first_player=None)
    assert "after: not said: the players agree who starts  (" in diff.render(
        diff.compare(official, unsaid), official, unsaid
    )
