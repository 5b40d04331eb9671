"""Sheets: golden Markdown for the official rules and three variants (one a module with zones), in every language.

`pytest --update-goldens` rewrites tests/sheets_golden/; read every diff before accepting it.
The generated/sheets/ folder must match what the sheet command writes now (the build
regenerates it; this test fails when someone forgot to).
"""

from __future__ import annotations

import pathlib

import pytest
import yaml

from compiler.pipeline import load_rules, worked_game
from compiler.sheets import content, render
from compiler.sheets.plurals import LANGUAGES

ROOT = pathlib.Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "sheets_golden"
SPECS = {
    "official": "rulespec/official.yaml",
    "target-12": "variants/target-12.yaml",
    "noble-tiebreak": "variants/noble-tiebreak.yaml",
    "cities": "variants/cities.yaml",
}


@pytest.fixture(autouse=True)
def _in_root(monkeypatch):
    monkeypatch.chdir(ROOT)  # spec paths in headers are relative to the project


def _rules(path: str):
    rules = load_rules(path)
    base = load_rules(rules.bases[0].path) if rules.bases else None
    return rules, base


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("name", sorted(SPECS))
def test_markdown_golden(golden, name, lang):
    rules, base = _rules(SPECS[name])
    text = render.markdown(content.build(rules, lang, base, worked=worked_game(rules)), rules)
    golden.check(GOLDEN / f"{name}.{lang}.md", text)


def _catalogue() -> list[str]:
    index = yaml.safe_load((ROOT / "variants" / "index.yaml").read_text(encoding="utf-8"))
    return ["rulespec/official.yaml"] + [f"variants/{name}.yaml" for name in index["variants"]]


@pytest.mark.parametrize("path", _catalogue())
def test_generated_sheets_are_current(path):
    rules, base = _rules(path)
    out = ROOT / "generated" / "sheets"
    worked = worked_game(rules)
    for lang in LANGUAGES:
        sheet = content.build(rules, lang, base, worked=worked)
        for fmt, text in (("md", render.markdown(sheet, rules)), ("html", render.html(sheet, rules))):
            target = out / f"{rules.name}.{lang}.{fmt}"
            assert target.exists(), f"{target.relative_to(ROOT)} is missing: run `splendor-rules sheet {path}`"
            assert target.read_text(encoding="utf-8") == text, (
                f"{target.relative_to(ROOT)} is out of date: run `splendor-rules sheet {path}`"
            )


# Each section of the official sheet in each language, a golden file of its own: a change to one
# phrase shows as a change to the section that says it (tests/sheets_golden/sections/official.LANG/).
OFFICIAL_SECTIONS = (
    "glance",
    "goal",
    "setup",
    "turn",
    "tokens",
    "reserve",
    "buy",
    "nobles",
    "end",
    "example",
    "faq",
    "mistakes",
)


def official_sections(lang: str) -> dict[str, str]:
    """The official sheet in `lang` cut at its section headings: the part before the first ("summary":
    the title and the turn summary box) and each section by its key, in order."""
    rules, base = _rules(SPECS["official"])
    sheet = content.build(rules, lang, base, worked=worked_game(rules))
    text = render.markdown(sheet, rules)
    head, *rest = text.split("\n## ")
    assert [s.key for s in sheet.sections] == list(OFFICIAL_SECTIONS), "a section was added: name its golden"
    assert len(rest) == len(OFFICIAL_SECTIONS)
    cut = {"summary": head.split("\n", 1)[1].lstrip("\n")}  # without the provenance comment
    cut.update({key: "## " + part for key, part in zip(OFFICIAL_SECTIONS, rest, strict=True)})
    cut[OFFICIAL_SECTIONS[-1]] = cut[OFFICIAL_SECTIONS[-1]].split("\n---\n")[0]  # without the provenance
    return {key: part.rstrip("\n") + "\n" for key, part in cut.items()}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_official_sheet_section_goldens(golden, lang):
    for index, (key, text) in enumerate(official_sections(lang).items()):
        golden.check(GOLDEN / "sections" / f"official.{lang}" / f"{index:02d}-{key}.md", text)
