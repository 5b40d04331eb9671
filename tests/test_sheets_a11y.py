"""Sheets, accessibility: the HTML sheets pass axe-core (WCAG 2.1 A/AA and best practice: headings in
order, contrast, names on pictures, landmarks) in headless Chromium.

The checker is axe-core as packaged by axe-playwright-python, driven through Playwright's Python
API against Debian's chromium (dev/system-packages.sh installs it). A missing browser FAILS these
tests: it is a broken set-up, not a reason to skip.
"""

from __future__ import annotations

import pathlib

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import sync_playwright

from compiler.pipeline import load_rules
from compiler.sheets import content, render
from compiler.sheets.plurals import LANGUAGES

ROOT = pathlib.Path(__file__).resolve().parent.parent
CHROMIUM = pathlib.Path("/usr/bin/chromium")
RULES = {"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]}}
SPECS = ["rulespec/official.yaml", "variants/reserve-tax.yaml", "variants/auto-noble.yaml"]


@pytest.fixture(scope="module")
def page():
    assert CHROMIUM.exists(), f"{CHROMIUM} is missing: run dev/system-packages.sh (Debian's chromium)"
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
        yield browser.new_page()
        browser.close()


def violations(page, html: str, tmp_path: pathlib.Path) -> list[str]:
    path = tmp_path / "sheet.html"
    path.write_text(html, encoding="utf-8")
    page.goto(path.as_uri())
    result = Axe().run(page, options=RULES)
    return [f"{v['id']}: {v['help']} at {[n['target'] for n in v['nodes']][:3]}" for v in result.response["violations"]]


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("path", SPECS)
def test_the_html_sheet_passes_axe(page, tmp_path, path, lang):
    rules = load_rules(str(ROOT / path))
    base = load_rules(rules.bases[0].path) if rules.bases else None
    html = render.html(content.build(rules, lang, base), rules)
    assert "<svg" in html and 'role="img"' in html  # the pictures are part of what is checked
    assert violations(page, html, tmp_path) == []


def test_the_checker_finds_what_it_checks(page, tmp_path):
    """The same check on a page with a nameless picture, a skipped heading level and grey on grey fails."""
    bad = (
        '<!DOCTYPE html><html lang="en"><head><title>t</title></head><body><main><h1>A</h1><h3>B</h3>'
        '<svg role="img" viewBox="0 0 1 1"><circle r="1"/></svg>'
        '<p style="color:#999;background:#aaa">grey</p></main></body></html>'
    )
    found = {v.split(":")[0] for v in violations(page, bad, tmp_path)}
    assert {"svg-img-alt", "heading-order", "color-contrast"} <= found
