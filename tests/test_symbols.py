"""`components.symbols` (issue 31 item 2): the symbol a spec writes on a colour's gems beside
its colour, per language if need be: spec -> diagnostics (a colour the spec does not have, a
symbol of no character or of more than 3, two colours alike in one language), spec -> rule model,
and rule model -> the web board's words (web/gems.py: the declared symbols, the others derived
from the colours' names and kept apart from them)."""

from __future__ import annotations

import pathlib
import shutil

import pytest

from compiler import pipeline
from compiler.diagnostics import CompileError, SourceMap
from tests.helpers import ROOT
from web import gems

CLEAN = (ROOT / "tests" / "broken" / "_clean.yaml").read_text(encoding="utf-8").replace("../../rulespec/", "")
COMPONENTS = "components:\n  gems: [white, blue, green, red, black]\n  wild: gold\n"


@pytest.fixture
def folder(tmp_path: pathlib.Path) -> pathlib.Path:
    for name in ("splendor_cards.csv", "splendor_nobles.csv"):
        shutil.copy(ROOT / "rulespec" / name, tmp_path / name)
    return tmp_path


def check(folder: pathlib.Path, symbols: str):
    """The clean spec's rules with `symbols` under its components, or its diagnostics."""
    assert CLEAN.count(COMPONENTS) == 1
    (folder / "spec.yaml").write_text(CLEAN.replace(COMPONENTS, COMPONENTS + symbols), encoding="utf-8")
    try:
        return pipeline.load_rules(str(folder / "spec.yaml"), SourceMap())
    except CompileError as err:
        return [(d.code, d.message) for d in err.diagnostics]


def test_a_spec_declares_a_symbol_per_colour_and_per_language(folder):
    rules = check(folder, "  symbols:\n    black: K\n    blue: {en: B, fr: Bl, sr: П}\n")
    assert not isinstance(rules, list), rules
    assert [(c, t.en, dict(t.translations)) for c, t in rules.symbols] == [
        ("blue", "B", {"fr": "Bl", "sr": "П"}),
        ("black", "K", {}),
    ]  # in the spec's order of colours
    colours = tuple(rules.gems) + (rules.wild,)
    en = gems.words(colours, "en", gems.declared(rules, "en"))
    assert [w["symbol"] for w in en.values()] == ["W", "B", "Gr", "R", "K", "Go"]
    fr = gems.words(colours, "fr", gems.declared(rules, "fr"))
    assert [w["symbol"] for w in fr.values()] == ["Ba", "Bl", "V", "R", "K", "O"]
    nl = gems.words(colours, "nl", gems.declared(rules, "nl"))  # no Dutch symbol for blue: the English one
    assert nl["blue"]["symbol"] == "B" and nl["blue"]["name"] == "blauw"


def test_a_derived_symbol_never_takes_a_declared_one(folder):
    rules = check(folder, "  symbols:\n    gold: W\n")
    assert not isinstance(rules, list), rules
    words = gems.words(tuple(rules.gems) + (rules.wild,), "en", gems.declared(rules, "en"))
    symbols = [w["symbol"] for w in words.values()]
    assert symbols[-1] == "W" and symbols[0] == "W1" and len(set(symbols)) == len(symbols)


@pytest.mark.parametrize(
    "symbols, expected",
    [
        ("  symbols:\n    purple: P\n", ("E501", "'symbols' names 'purple', which is not a colour of the spec")),
        (
            "  symbols:\n    blak: K\n",
            ("E501", "'symbols' names 'blak', which is not a colour of the spec (did you mean 'black'?)"),
        ),
        (
            "  symbols:\n    red: Ruby\n",
            ("E501", "the symbol of 'red' in en is 'Ruby': a symbol is 1 to 3 characters, without spaces around"),
        ),
        (
            "  symbols:\n    red: {en: R, fr: ' '}\n",
            ("E501", "the symbol of 'red' in fr is ' ': a symbol is 1 to 3 characters, without spaces around"),
        ),
        (
            "  symbols:\n    red: {en: R, fr: X}\n    blue: {en: B, fr: X}\n",
            ("E501", "colours 'red' and 'blue' have the same symbol 'X' in fr"),
        ),
    ],
)
def test_a_symbol_that_does_not_fit_is_refused(folder, symbols, expected):
    assert check(folder, symbols) == [expected]
