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
SPECS = {"official": "rulespec/official.yaml", "target-12": "variants/target-12.yaml",
         "noble-tiebreak": "variants/noble-tiebreak.yaml", "cities": "variants/cities.yaml"}


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
                f"{target.relative_to(ROOT)} is out of date: run `splendor-rules sheet {path}`")
