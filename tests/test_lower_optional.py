"""An optional component choice's legal loop (compiler/lower/legal.py, LegalLowering._loop, issue 29
item 1): the zone's places and then `none`, one tuple built in C, not a list made by a
comprehension and a concatenation each scan; the engine plays as its plain tests say."""

from __future__ import annotations

from compiler import pipeline
from tests.helpers import ROOT
from tests.helpers.engines import load_engine
from tests.helpers.specs import check_games


def test_the_places_then_none_in_one_tuple():
    text = pipeline.compile_spec(str(ROOT / "variants" / "cities-declinable.yaml")).text
    scan = text[text.index("def _legal_claim_city") : text.index("def _do_claim_city")]
    assert "for i_0, p_city in (*enumerate(g.z_city_display), (3, None)):" in scan
    assert "[(_i, _x) for" not in scan


def test_cities_declinable_plays_as_its_plain_tests_say():
    engine = load_engine(ROOT / "generated" / "engines" / "cities_declinable.py")
    assert check_games(engine, games=4, seed=37) > 100
