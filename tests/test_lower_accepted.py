"""The accepted values of a last choice as a bitmask, and a full market's ids from a table
(compiler/lower/accepted.py, issue 29 item 1): the tree before and after, and the engine playing
as its plain tests say."""

from __future__ import annotations

from compiler import pipeline
from compiler.lower import ir
from compiler.lower.accepted import full_market_table, mask_block, offsets_table
from compiler.lower.printer import render
from compiler.lower.pysource import comment
from tests.helpers import ROOT
from tests.helpers.engines import load_engine
from tests.helpers.specs import check_games

RESERVE_TAX = ROOT / "variants" / "reserve-tax.yaml"


def test_the_accepted_values_as_a_bitmask_and_their_offsets():
    # before (the list form): _ok1 = []; if t0 >= 1: _ok1.append(0); ...; _ok1.append(2) (always)
    bits = [(0, [ir.compare("t0", ">=", 1)]), (2, []), (3, [ir.name("h0"), ir.compare("t3", ">", 0)])]
    after = render(mask_block(1, bits, 4, comment("the tax"))).splitlines()
    assert after == [
        "_okm1 = 4 | (1 if t0 >= 1 else 0) | (8 if h0 and t3 > 0 else 0)  # the tax",
        "_ok1 = _OK_OFFSETS_4[_okm1]",
    ]
    table = render([offsets_table(3)]).splitlines()
    assert table[1:9] == [
        "    (),",
        "    (0,),",
        "    (1,),",
        "    (0, 1),",
        "    (2,),",
        "    (0, 2),",
        "    (1, 2),",
        "    (0, 1, 2),",
    ]


def test_a_full_markets_ids_are_a_row_of_a_table_made_at_import():
    source = render([offsets_table(2), full_market_table("_IDS", 30, 3, 2, 2)])
    names: dict = {}
    exec(compile(source, "<table>", "exec"), names)
    # slot 0's ids 30, 31 (offsets 0 and 1), slot 1's 33, 34: by bitmask of the offsets accepted
    assert names["_IDS"] == ((), (30, 33), (31, 34), (30, 31, 33, 34))


def _block(text: str) -> list[str]:
    scan = text[text.index("def _action_phase_legal") :]
    return [
        line.strip() for line in scan[scan.index("# reserve_face_up (") : scan.index("# reserve_blind (")].splitlines()
    ]


def test_reserve_tax_adds_a_full_markets_ids_at_once():
    after = _block(pipeline.compile_spec(str(RESERVE_TAX)).text)
    at = after.index("if _NO_CARD_COST not in g.face_up_costs:  # every face-up slot holds a card")
    assert after[at + 1 : at + 3] == ["out.extend(_FACE_UP_IDS_2_0[_okm1])", "else:"]
    assert "out.extend(map(p_card_ID.__add__, _ok1))" in after  # a slot empty: the loop as before


def test_reserve_tax_plays_as_its_plain_tests_say():
    assert check_games(load_engine(ROOT / "generated" / "engines" / "reserve_tax.py"), games=4, seed=31) > 100
