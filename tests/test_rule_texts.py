"""Authored rule texts (`text:`, compiler/check/texts.py): spec -> diagnostics, spec -> sheet text, spec -> diff.

A rule's own text is what the sheets print instead of its generated phrase, with placeholders
for the spec's numbers. It cannot go stale: a variant that changes the rule and not the text
gets the generated phrase on its sheet and a warning (E623) at its change. The diagnostics are
pinned as `check` shows them (file:line:col, the source line, the caret).
"""

from __future__ import annotations

import pathlib

import pytest
from click.testing import CliRunner

from app.cli import main
from compiler import pipeline
from compiler.check import texts
from compiler.diagnostics import CompileError, SourceMap, render
from compiler.sheets import content
from compiler.sheets import render as sheet_render
from tests.helpers import ROOT

HEAD = "spec: 1\nname: v\nextends: official\ntitle: {en: V, fr: V, nl: V, sr: V}\n"
PAIR_TEXT = (
    "    text:\n"
    "      en: Take 2 tokens of one colour, if at least {pair_minimum} are left.\n"
    "      fr: Prenez 2 jetons d'une même couleur, s'il en reste au moins {pair_minimum}.\n"
    "      nl: Neem 2 fiches van één kleur, als er minstens {pair_minimum} liggen.\n"
    "      sr: Узмите 2 жетона исте боје, ако их има бар {pair_minimum}.\n"
)


@pytest.fixture(autouse=True)
def at_root(monkeypatch):
    monkeypatch.chdir(ROOT)  # spans name the official spec as rulespec/official.yaml


def variant(tmp_path: pathlib.Path, body: str) -> str:
    path = tmp_path / "v.yaml"
    path.write_text(HEAD + body, encoding="utf-8")
    return str(path)


def shown(path: str, tmp_path: pathlib.Path, code: str) -> list[str]:
    """Every diagnostic of `code` that `check` reports for the spec, rendered, with the folder left out."""
    sources = SourceMap()
    try:
        found = list(pipeline.check_spec(path, sources).warnings)
    except CompileError as err:
        found = err.diagnostics
    return [render(d, sources).replace(str(tmp_path) + "/", "") for d in found if d.code == code]


def sheet(path: str, lang: str = "en", fmt: str = "md") -> str:
    rules = pipeline.load_rules(path)
    base = pipeline.load_rules(rules.bases[0].path) if rules.bases else None
    built = content.build(rules, lang, base)
    return sheet_render.markdown(built, rules) if fmt == "md" else sheet_render.html(built, rules)


# --------------------------------------------------------------------------- spec -> diagnostics


def test_a_placeholder_naming_nothing_is_located(tmp_path):
    path = variant(
        tmp_path,
        "actions:\n  take_pair:\n"
        + PAIR_TEXT.replace("at least {pair_minimum} are left", "at least {pair_minimun} are left"),
    )
    assert shown(path, tmp_path, "E620") == [
        "v.yaml:8:52: error[E620]: the placeholder '{pair_minimun}' names no number of the spec "
        "(did you mean 'pair_minimum'?)\n"
        " 8 |       en: Take 2 tokens of one colour, if at least {pair_minimun} are left.\n"
        "   |                                                    ^^^^^^^^^^^^^^\n"
        "  = note: a placeholder names a value (`{token_limit}`), a player-count field that is the same for every "
        "row (`{setup.gold}`), `{players.min}` or `{players.max}`"
    ]


def test_a_lone_brace_is_located(tmp_path):
    path = variant(tmp_path, "actions:\n  take_pair:\n" + PAIR_TEXT.replace("Neem 2 fiches", "Neem {2 fiches"))
    assert shown(path, tmp_path, "E620") == [
        "v.yaml:10:16: error[E620]: a lone brace in a text (write '{{' or '}}' for a brace, '{NAME}' for a number)\n"
        " 10 |       nl: Neem {2 fiches van één kleur, als er minstens {pair_minimum} liggen.\n"
        "    |                ^"
    ]


def test_a_number_that_differs_by_player_count_is_no_placeholder(tmp_path):
    path = variant(
        tmp_path,
        "actions:\n  take_pair:\n"
        + PAIR_TEXT.replace("at least {pair_minimum} are left", "at least {setup.gems} are left"),
    )
    (message,) = shown(path, tmp_path, "E620")
    assert message.startswith(
        "v.yaml:8:52: error[E620]: the placeholder '{setup.gems}' names no number of the spec "
        "(did you mean 'setup.gold'?)"
    )


def test_a_language_missing_where_the_spec_has_the_others_is_located(tmp_path):
    path = variant(
        tmp_path,
        "actions:\n  take_pair:\n"
        + "".join(line for line in PAIR_TEXT.splitlines(keepends=True) if not line.startswith("      sr:")),
    )
    assert shown(path, tmp_path, "E621") == [
        "v.yaml:8:7: error[E621]: this text lacks sr: the spec's other texts have it\n"
        " 8 |       en: Take 2 tokens of one colour, if at least {pair_minimum} are left.\n"
        "   |       ^\n"
        "  = note: a sheet in a language a text lacks would mix the text with generated phrases"
    ]


def test_a_digit_where_a_placeholder_exists_is_flagged(tmp_path):
    path = variant(
        tmp_path,
        "actions:\n  take_pair:\n"
        + PAIR_TEXT.replace("s'il en reste au moins {pair_minimum}", "s'il en reste au moins 4"),
    )
    assert shown(path, tmp_path, "E622") == [
        "v.yaml:9:70: warning[E622]: the number 4 is written as a digit where the rule's value 'pair_minimum' "
        "gives it\n"
        " 9 |       fr: Prenez 2 jetons d'une même couleur, s'il en reste au moins 4.\n"
        "   |                                                                      ^\n"
        "  = note: write {pair_minimum}, so that a variant changing 'pair_minimum' changes the text"
    ]


def test_a_changed_rule_under_an_inherited_text_is_a_warning_at_the_change(tmp_path):
    path = variant(tmp_path, "actions:\n  take_pair:\n    condition: supply[colour] >= pair_minimum + 1\n")
    assert shown(path, tmp_path, "E623") == [
        "v.yaml:7:16: warning[E623]: the text of actions.take_pair describes the rule this spec replaced: the sheets "
        "print the generated phrase instead\n"
        " 7 |     condition: supply[colour] >= pair_minimum + 1\n"
        "   |                ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n"
        "  = note: the text is written at rulespec/official.yaml:84:7; give 'take_pair' a `text` of its own"
    ]


def test_a_changed_value_or_title_keeps_the_text_fresh(tmp_path):
    path = variant(
        tmp_path,
        "values:\n  pair_minimum: 5\nactions:\n  take_pair:\n    title: {en: Pairs}\n    note: {en: Renamed.}\n",
    )
    assert shown(path, tmp_path, "E623") == []
    rules = pipeline.load_rules(path)
    assert not next(a for a in rules.actions if a.name == "take_pair").text.stale


def test_a_changed_definition_makes_the_text_of_a_rule_calling_it_stale(tmp_path):
    cities = pipeline.load_rules("variants/cities.yaml")
    assert not next(s for s in cities.steps if s.name == "claim_city").text.stale
    path = tmp_path / "c.yaml"
    path.write_text(
        "spec: 1\nname: c\nextends: cities\ntitle: {en: C, fr: C, nl: C, sr: C}\n"
        "define:\n  qualifies:\n    is: p.prestige >= city.prestige\n",
        encoding="utf-8",
    )
    rules = pipeline.load_rules(str(path))
    claim = next(s for s in rules.steps if s.name == "claim_city")
    assert claim.text.stale and claim.text.changed_at.line == 7  # the definition's change
    assert next(d for d in rules.definitions if d.name == "qualifies").text.stale


def test_the_fingerprint_is_of_the_checked_tree_not_of_the_yaml(tmp_path):
    official = pipeline.load_rules("rulespec/official.yaml")
    pair = next(a for a in official.actions if a.name == "take_pair")
    path = variant(tmp_path, 'actions:\n  take_pair:\n    condition: "supply[ colour ]>=(pair_minimum)"  # same\n')
    again = next(a for a in pipeline.load_rules(path).actions if a.name == "take_pair")
    assert texts.fingerprint(again, {}) == texts.fingerprint(pair, {}) == pair.text.fingerprint
    assert not again.text.stale


# --------------------------------------------------------------------------- spec -> sheet text


def test_the_official_sheet_uses_the_text_and_keeps_the_phrase_on_demand():
    md = sheet("rulespec/official.yaml", "fr")
    assert (
        "- **Prendre deux jetons d'une même couleur** : Prenez 2 jetons d'une même couleur, s'il en reste au "
        "moins 4 de cette couleur dans la banque."
    ) in md.splitlines()
    html = sheet("rulespec/official.yaml", "fr", "html")
    assert (
        '<details class="precise"><summary>La règle en détail</summary>Prenez 2 jetons d&#39;une même '
        "couleur, si la banque contient 4 jetons de cette couleur ou plus.</details>"
    ) in html
    assert "@media print { details.precise { display: none; } }" in html


def test_a_variant_changing_a_value_prints_its_number_in_the_inherited_text():
    md = sheet("variants/pairs-from-three.yaml")
    assert "Take 2 tokens of one colour, if at least 3 tokens of that colour are left in the supply." in md
    assert "at least 4 tokens of that colour" not in md


def test_a_stale_text_gives_way_to_the_generated_phrase(tmp_path):
    path = variant(tmp_path, "actions:\n  take_pair:\n    condition: supply[colour] >= pair_minimum + 1\n")
    md = sheet(path)
    assert "Take 2 tokens of one colour, if at least" not in md
    assert (
        "**Take two tokens of one colour**: Take 2 tokens of one colour, if 5 or more tokens of that colour "
        "are in the supply." in md
    )
    assert "<details" not in sheet(path, "en", "html").split("Take two tokens of one colour", 2)[2].split("</li>")[0]


def test_a_variant_giving_its_own_text_prints_it_with_its_placeholders_filled(tmp_path):
    path = variant(
        tmp_path,
        "values:\n  token_limit: 8\nactions:\n  take_pair:\n"
        + PAIR_TEXT.replace(
            "at least {pair_minimum} are left",
            "at most {token_limit} tokens, {players.min} to {players.max} players, {setup.gold} gold, {{braces}}",
        ),
    )
    md = sheet(path)
    assert "Take 2 tokens of one colour, if at most 8 tokens, 2 to 4 players, 5 gold, {braces}." in md


def test_a_text_never_becomes_markup(tmp_path):
    path = variant(
        tmp_path,
        "actions:\n  take_pair:\n"
        + PAIR_TEXT.replace("if at least {pair_minimum} are left", "<script>alert(1)</script> *bold* [x](y)"),
    )
    html = sheet(path, "en", "html")
    assert "<script>alert" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    md = sheet(path)
    assert "\\<script\\>" in md or "&lt;script&gt;" in md
    assert "*bold*" not in md


def test_an_inherited_text_through_a_chain_is_fresh_where_its_rule_is_unchanged():
    rules = pipeline.load_rules("variants/cities-declinable.yaml")
    claimed = next(e for e in rules.end if e.name == "city_claimed")
    assert claimed.text is not None and not claimed.text.stale
    assert claimed.text.span.file == "variants/cities.yaml"
    assert next(s for s in rules.steps if s.name == "claim_city").text.span.file == "variants/cities-declinable.yaml"


def test_no_authored_text_in_the_catalogue_is_stale():
    told = 0
    for path in pipeline.catalogue():
        checked = pipeline.check_spec(path)
        assert [d for d in checked.warnings if d.code in ("E622", "E623")] == [], path
        for key, entry in texts.entries(checked.rules):
            if entry.text is not None:
                told += 1
                assert not entry.text.stale, (path, key, entry.name)
                assert [lang for lang, _ in entry.text.texts] == ["en", "fr", "nl", "sr"], (path, entry.name)
    assert told > 200  # the official spec's texts, inherited by every variant, and the variants' own


# --------------------------------------------------------------------------- spec -> diff


def test_the_diff_says_when_only_texts_differ(tmp_path):
    path = variant(tmp_path, "actions:\n  take_pair:\n" + PAIR_TEXT)
    result = CliRunner().invoke(main, ["diff", "official", path])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert "    players' text" in lines
    assert lines[-1] == "Only the rules' texts for players differ: the rules themselves are the same."
    result = CliRunner().invoke(main, ["diff", "official", "variants/pairs-from-three.yaml"])
    assert result.exit_code == 1 and "only the rules' texts" not in result.output.lower()
