"""Face-up rows in the legal scans (compiler/lower/shapes.expanded, issue 29 item 7): a face-up
card's level is its row's, a test that reads only the row is made once a row, a full row's ids
are added at once; the engines play as their plain tests say."""

from __future__ import annotations

import ast

from compiler import pipeline
from compiler.lower import fold
from tests.helpers import ROOT
from tests.helpers.engines import load_engine
from tests.helpers.specs import check_games

SWEEP = ROOT / "variants" / "sweep.yaml"


def test_a_sum_and_a_constant_fold_into_one_term():
    assert ast.unparse(fold.plus(ast.parse("row + 1", mode="eval").body, -1)) == "row"
    assert ast.unparse(fold.plus(ast.parse("row + 1", mode="eval").body, 2)) == "row + 3"
    assert ast.unparse(fold.plus(ast.parse("row * 4", mode="eval").body, -1)) == "row * 4 - 1"


def test_the_sweep_tests_its_decks_once_a_row_and_adds_a_full_row_at_once():
    text = pipeline.compile_spec(str(SWEEP)).text
    scan = text[text.index("# sweep (") : text.index("# give_back (")]
    lines = [line.strip() for line in scan.splitlines()]
    row = lines.index("for p_card_LI, _row in enumerate(g.market):")
    assert lines[row + 2] == "if not len(g.decks[p_card_LI]) >= 1:  # deck[card.level] >= 1"
    assert lines[row + 4 : row + 6] == [
        "if None not in _row:  # every slot holds a card",
        "out.extend(range(p_card_ID + 1, p_card_ID + len(_row) + 1))",
    ]
    assert "CARD_LEVEL[" not in text[text.index("def _why_sweep") :].split("\ndef ")[0]


def test_the_sweep_plays_as_its_plain_tests_say():
    assert check_games(load_engine(ROOT / "generated" / "engines" / "sweep.py"), games=4, seed=17) > 100
