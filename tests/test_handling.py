"""How the pieces are handled at the table (issue 30, item 4): spec data -> sheet text, house box, diff.

The published rules' handling lines (tokens in view, bought cards by colour, reserved cards kept,
a blind reserve hidden) are the official spec's `handling` texts, not a line of the sheets' own
tables: a sheet prints them in its setup, led by "At the table"; a variant edits the list as it
edits the interpretations ({append: [...]}, a list replaces), and its house box and `diff` say so.
"""

from __future__ import annotations

import pathlib

import pytest

from compiler import diff, pipeline
from compiler.sheets import tables
from tests.helpers.sheets import sheet_text

ROOT = pathlib.Path(__file__).resolve().parent.parent
OFFICIAL = ROOT / "rulespec" / "official.yaml"
LEAD = {"en": "**At the table**: ", "fr": "**À la table** : ", "nl": "**Aan tafel**: ", "sr": "**За столом**: "}

VARIANT = """\
spec: 1
name: open-hands
extends: official
title: {en: Open hands}
handling:
  append:
    - {en: Show your reserved cards when you take them., fr: Montrez vos cartes réservées quand vous les prenez., \
nl: Laat je gereserveerde kaarten zien als je ze neemt., sr: Покажите резервисане карте када их узмете.}
  note: {en: Nothing hidden.}
"""


@pytest.fixture(scope="module")
def official():
    return pipeline.load_rules(str(OFFICIAL))


@pytest.mark.parametrize("lang", ["en", "fr", "nl", "sr"])
def test_the_official_handling_lines_are_printed_in_the_setup(official, lang):
    text = sheet_text(str(OFFICIAL), lang)
    title = tables.load(lang).text("sheet.setup.title")
    setup = next(part for part in text.split("\n## ") if part.splitlines()[0] == title)
    line = next(line for line in setup.splitlines() if line.startswith("- " + LEAD[lang]))
    assert len(official.handling) == 4
    for said in official.handling:
        assert said.get(lang) in line
    assert text.count(official.handling[2].get(lang)) == 1  # the reserved cards: once, not again under Reserving


def test_a_variant_appends_a_handling_line_and_the_sheet_and_diff_say_so(official, tmp_path):
    path = tmp_path / "open-hands.yaml"
    path.write_text(VARIANT, encoding="utf-8")
    rules = pipeline.load_rules(str(path))
    assert [t.en for t in rules.handling] == [t.en for t in official.handling] + [
        "Show your reserved cards when you take them."
    ]
    assert rules.spans["handling.4"].file == str(path) and rules.spans["handling.0"].file.endswith("official.yaml")
    text = sheet_text(str(path), "nl")
    box = text.split("\n## ")[0]
    assert "★1 **Gewijzigd: Aan tafel** Laat je gereserveerde kaarten zien als je ze neemt." in box
    assert official.handling[0].get("nl") not in box  # the box says the variant's own line, not the base's
    setup_line = next(line for line in text.splitlines() if line.startswith("- " + LEAD["nl"]))
    assert setup_line.endswith("verborgen tot je ze koopt. Laat je gereserveerde kaarten zien als je ze neemt. ★1")
    differences = diff.compare(official, rules)
    assert [(d.kind, d.path) for d in differences] == [("added", "handling.4")]
    said = diff.render(differences, official, rules, "fr")
    assert "Manipulation du matériel" in said and "« Montrez vos cartes réservées quand vous les prenez. »" in said


def test_a_spec_without_handling_lines_prints_none(official, tmp_path):
    path = tmp_path / "no-handling.yaml"
    path.write_text(
        "spec: 1\nname: no-handling\nextends: official\ntitle: {en: Bare}\nhandling: []\n", encoding="utf-8"
    )
    rules = pipeline.load_rules(str(path))
    assert rules.handling == ()
    assert LEAD["en"] not in sheet_text(str(path), "en")
    assert [(d.kind, d.path) for d in diff.compare(official, rules)] == [
        ("removed", f"handling.{i}") for i in range(len(official.handling))
    ]
