"""Sheets a table uses (issue 30 item 4): spec -> sheet tree and text.

The tokens a smaller table removes, said from the player-count table; the house-rule mark on the
value a variant changed, with the value it replaced; the noble tile pictured from the spec's own
noble table; a printed sheet that gives way says what it left out, alike in every language.
"""

from __future__ import annotations

import pathlib

import pytest
from markupsafe import escape

from compiler.pipeline import load_rules
from compiler.sheets import content, pictures, render
from tests.helpers.sheets import OFFICIAL, spec

ROOT = pathlib.Path(__file__).resolve().parent.parent
NO_GOLD = ROOT / "variants" / "no-gold-small-tables.yaml"
LANGS = ("en", "fr", "nl", "sr")


@pytest.fixture(scope="module")
def official():
    return load_rules(str(OFFICIAL))


def _items(sheet, key: str):
    section = next(s for s in sheet.sections if s.key == key)
    return [it for part in section.parts for it in part.items]


def test_a_smaller_table_removes_tokens_of_each_gem_colour_and_keeps_the_gold(official):
    sheet = content.build(official, "en")
    (item,) = [it for it in _items(sheet, "setup") if it.lead == "Fewer players"]
    largest = official.players[-1].gems
    for row in official.players[:-1]:
        assert f"with {row.players} players, remove {largest - row.gems} tokens of each gem colour" in item.text.lower()
    assert item.text.endswith("don't touch the gold.")


def test_the_tokens_removed_follow_the_player_count_table(tmp_path):
    rules = load_rules(spec(tmp_path, ("  3: {gems: 5, gold: 5", "  3: {gems: 6, gold: 4")))
    (item,) = [it for it in _items(content.build(rules, "en"), "setup") if it.lead == "Fewer players"]
    assert "with 3 players, remove 1 token of each gem colour" in item.text.lower()
    assert "gold" not in item.text  # the gold differs by row: the table says it


def test_no_removal_is_said_where_a_smaller_table_has_as_many_tokens(tmp_path):
    rules = load_rules(spec(tmp_path, ("  2: {gems: 4,", "  2: {gems: 7,")))
    assert not [it for it in _items(content.build(rules, "en"), "setup") if it.lead == "Fewer players"]


@pytest.mark.parametrize("lang", LANGS)
def test_the_mark_sits_on_the_value_a_variant_changed(official, lang):
    rules = load_rules(str(NO_GOLD))
    sheet = content.build(rules, lang, official)
    grid = next(p.grid for s in sheet.sections if s.key == "setup" for p in s.parts if p.grid is not None)
    gold = 2  # players, gem tokens, gold tokens, ...
    rows = [i for i, p in enumerate(rules.players) if p.gold != official.player_count(p.players).gold]
    assert rows and set(grid.cell_marks) == {(i, gold) for i in rows}
    assert all(not grid.marks[i] for i in rows)
    markdown = render.markdown(sheet, rules)
    for i in rows:
        p = rules.players[i]
        assert f"| {p.players} | {p.gems} | {p.gold} {sheet.labels['mark']}" in markdown


def test_the_house_rule_of_a_changed_row_says_the_value_it_replaced(official):
    sheet = content.build(load_rules(str(NO_GOLD)), "en", official)
    texts = [h.text for h in sheet.house]
    assert texts == [f"0 gold tokens (base game: {official.player_count(n).gold})." for n in (2, 3)]


@pytest.mark.parametrize("lang", LANGS)
def test_the_noble_tile_is_pictured_from_the_spec(official, lang):
    sheet = content.build(official, lang)
    (picture,) = [p.picture for s in sheet.sections if s.key == "nobles" for p in s.parts if p.kind == "picture"]
    assert isinstance(picture, pictures.NoblePicture)
    tile = next(n for n in official.nobles if sum(1 for x in n.requires if x) >= 2)
    assert picture.points == tile.points
    assert picture.requires == tuple((g, n) for g, n in zip(official.gems, tile.requires, strict=True) if n)
    svg = str(pictures.draw(picture))
    assert svg.count("<rect") == 1 + len(picture.requires) and str(escape(picture.title)) in svg


@pytest.mark.parametrize("lang", LANGS)
def test_a_compact_sheet_says_what_it_left_out_and_where_the_full_sheet_is(official, lang):
    assert content.build(official, lang).left_out == ""
    full = content.build(official, lang, compact=0)
    compact = content.build(official, lang, compact=4)
    gone = [s.title for s in full.sections if s.key not in {c.key for c in compact.sections}]
    assert gone and all(title in compact.left_out for title in gone)
    assert f"{official.name}.{lang}.html" in compact.left_out
    assert str(escape(compact.left_out)) in render.html(compact, official)


def test_every_language_leaves_out_the_same(official, tmp_path, monkeypatch):
    """The PDFs are printed at the most compact level any language needed."""
    needed = {"en": 0, "fr": 2, "nl": 1, "sr": 0}
    asked: list[tuple[str, int]] = []

    def printed_at(rules, lang, base=None, html_text=None, worked=None, at_least=0):
        asked.append((lang, at_least))
        return b"%PDF", 2, max(needed[lang], at_least)

    monkeypatch.setattr(render, "printed_at", printed_at)
    written = render._write_pdfs(official, LANGS, tmp_path, None, None, dict.fromkeys(LANGS, ""))
    assert [w.lang for w in written] == list(LANGS)
    # each language starts from the level the ones before it needed; only English is printed again
    assert asked == [("en", 0), ("fr", 0), ("nl", 2), ("sr", 2), ("en", 2)]
    # the longest sheet goes first (ties in the order asked): French alone needs level 2, so no
    # language is printed again, and every one is printed at level 2 all the same
    asked.clear()
    texts = {"en": "x", "fr": "xxxx", "nl": "xxx", "sr": "xx"}
    made = render.printed_sheets(official, LANGS, None, None, texts)
    assert list(made) == list(LANGS) and {level for _, _, level, _ in made.values()} == {2}
    assert asked == [("fr", 0), ("nl", 2), ("sr", 2), ("en", 2)]
