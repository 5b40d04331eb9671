"""Strength reduction of `all`/`any` over cards and nobles (compiler/lower/collections.members_where,
issue 29 items 1 and 7): a body that reads only the element's columns becomes one set asked about
the collection, the face-up count is counted in C, and the engines play as their plain tests say."""

from __future__ import annotations

from compiler import pipeline
from compiler.lower.optimise import unoptimised
from tests.helpers import ROOT
from tests.helpers.engines import load_engine
from tests.helpers.specs import check_games, engine_from_text

FRESH_ROWS = ROOT / "variants" / "fresh-rows.yaml"


def _scan(text: str) -> str:
    start = text.index("def _action_phase_legal")
    return text[start : text.index("\ndef ", start + 1)]


def test_all_over_a_face_up_row_is_a_subset_test_and_the_levels_are_written_out():
    before = _scan(_unoptimised_text(FRESH_ROWS))
    after = _scan(pipeline.compile_spec(str(FRESH_ROWS)).text)
    assert "all(CARD_POINTS[v_card] == 0 for v_card in [_c for _c in g.market[p_level - 1] if _c is not None])" in (
        before
    )
    # the row itself, its empty slots (None) among the allowed ids; no loop over the levels
    assert "_cs0.issuperset(g.market[0])" in after and "_cs0.issuperset(g.market[2])" in after
    assert "for i_0, p_level in enumerate(LEVELS)" not in after[after.index("refresh_row") :]
    assert "g.face_up_count(" not in after and "g.market[0].count(None)" in after


def _unoptimised_text(spec) -> str:
    with unoptimised():
        return pipeline.compile_spec(str(spec)).text


def test_the_set_holds_the_ids_the_body_holds_for_and_an_empty_slot():
    engine = load_engine(ROOT / "generated" / "engines" / "fresh_rows.py")
    rules = pipeline.load_rules(str(FRESH_ROWS))
    assert engine._cs0 == frozenset(c.id for c in rules.cards if c.points == 0) | {None}


def test_fresh_rows_plays_as_its_plain_tests_say():
    assert check_games(load_engine(ROOT / "generated" / "engines" / "fresh_rows.py"), games=4, seed=11) > 100


def test_any_is_a_disjointness_test_and_a_body_reading_the_game_is_left_alone(tmp_path):
    text = FRESH_ROWS.read_text(encoding="utf-8").replace("name: fresh-rows", "name: rich-rows")
    text = text.replace(
        "all(card.points == 0 for card in market[level])",
        "any(card.points >= 3 or card.cost[red] > 5 for card in market[level])"
        " and all(card.cost[blue] <= me.tokens[blue] for card in market[level])",
    )
    spec = tmp_path / "rich-rows.yaml"
    spec.write_text(text, encoding="utf-8")
    engine_text = pipeline.compile_spec(str(spec)).text
    scan = _scan(engine_text)
    assert "not _cs0.isdisjoint(g.market[" in scan  # no None among the ids: an empty slot is in no set
    assert "all(CARD_COST[v_card][1] <= t1 for v_card in" in scan  # reads the player's tokens: walked
    engine = engine_from_text(tmp_path / "rich_rows.py", engine_text)
    cards = pipeline.load_rules(str(spec)).cards
    assert engine._cs0 == frozenset(c.id for c in cards if c.points >= 3 or c.cost[3] > 5)
    assert check_games(engine, games=4, seed=5) > 100
