"""The official spec with changes, and a spec's sheet as Markdown text (`sheet_text`), for the tests of
the sheets' content."""

from __future__ import annotations

import pathlib
import shutil

from compiler.check import texts
from compiler.pipeline import load_rules, worked_game
from compiler.sheets import content, render
from tests.helpers import ROOT

OFFICIAL = ROOT / "rulespec" / "official.yaml"


def spec(tmp_path: pathlib.Path, *replacements: tuple[str, str], name: str = "modified.yaml") -> str:
    text = OFFICIAL.read_text(encoding="utf-8")
    for old, new in replacements:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    for csv in ("splendor_cards.csv", "splendor_nobles.csv"):
        shutil.copy(ROOT / "rulespec" / csv, tmp_path / csv)
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def sheet_text(path: str, lang: str = "en") -> str:
    """The Markdown sheet as `splendor-rules sheet` writes it (its worked example a game of the spec's engine)."""
    rules = load_rules(path)
    base = load_rules(rules.bases[0].path) if rules.bases else None
    return render.markdown(content.build(rules, lang, base, worked=worked_game(rules)), rules)


def phrase_text(path: str, lang: str = "en") -> str:
    """The sheet with every rule told by its generated phrase (the spec's `text`s left out): what the
    tests of the phrases read."""
    rules = texts.without_texts(load_rules(path))
    base = load_rules(rules.bases[0].path) if rules.bases else None
    return render.markdown(content.build(rules, lang, base, worked=worked_game(rules)), rules)
