"""Constant folding (compiler/lower/constants.py, issue 29 item 1): trees before and after the
pass, and a spec whose definition and player-count field are known at compile time, played the
same with and without the passes."""

import ast
import random

import pytest

from compiler import pipeline
from compiler.lower.constants import expression, fold_constants
from compiler.lower.optimise import unoptimised
from compiler.lower.printer import render
from compiler.lower.tree import Append, Assign, Def, If, Return
from tests.helpers.specs import check_games, engine_from_text

PROBE = """spec: 1
name: fold-probe
extends: official
title: {en: Fold probe}
define:
  roomy:
    add: true
    title: {en: "{p} has room under {n}"}
    params: {p: player, n: number}
    is: p.reserved < n + reserve_limit - 2
actions:
  reserve_blind:
    condition: roomy(me, 2) and deck[level] >= 1 and setup.face_up * 2 >= 8
"""


def e(text: str) -> ast.expr:
    """An expression node from its text: how a test writes the nodes the lowering builds with compiler.lower.ir."""
    return ast.parse(text, mode="eval").body


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("n < 2 + 3 - 2", "n < 3"),
        ("4 * 2 >= 8", "True"),
        ("x if 1 < 2 else y", "x"),
        ("True and n > 1", "n > 1"),
        ("False or g.x", "g.x"),
        ("0 and g.x", "0"),
        ("not 3 == 3", "False"),
        ("g.decks[1 - 1]", "g.decks[0]"),
        ("min(7 // 2, n) + 2 * -1", "min(3, n) + -2"),
        ("n // (1 - 1)", "n // 0"),  # the divisor worked out, the division left (the checker refuses it: E513)
        ("3 % 0", "3 % 0"),  # never folded into a crash of the compiler
        ("n and True", "n and True"),  # its value is n when n is 0: not True
        ("True + 1", "True + 1"),  # flags are not numbers here
    ],
)
def test_an_expression_before_and_after(before, after):
    assert ast.unparse(expression(e(before))) == after


def test_an_if_whose_test_is_known_is_the_branch_it_takes():
    before = Def(
        "f",
        "g, out",
        [
            If(e("4 * 2 >= 8"), [Append(e("out"), e("1"))], [Append(e("out"), e("2"))]),
            If(e("2 < 1"), [Return(e("None"))]),
            If(e("g.x"), [Assign((e("n"),), e("2 + 2"))], [If(e("1 == 1"), [Append(e("out"), e("3"))], chained=True)]),
        ],
    )
    assert render([fold_constants(before)]).splitlines() == [
        "def f(g, out):",
        "    out.append(1)",
        "    if g.x:",
        "        n = 4",
        "    else:",
        "        out.append(3)",
    ]


@pytest.fixture(scope="module")
def probe(tmp_path_factory):
    folder = tmp_path_factory.mktemp("constants")
    spec = folder / "fold-probe.yaml"
    spec.write_text(PROBE, encoding="utf-8")
    after = pipeline.compile_spec(str(spec)).text
    with unoptimised():
        before = pipeline.compile_spec(str(spec)).text
    assert before != after  # (the session's engine cache keys on whether the passes run)
    return (
        engine_from_text(folder / "fp_before.py", before),
        engine_from_text(folder / "fp_after.py", after),
        before,
        after,
    )


def test_a_definition_with_constant_arguments_and_a_field_the_same_at_every_count_fold_away(probe):
    _, _, before, after = probe

    def code(text: str) -> list[str]:  # the reserve_blind block's lines, their comments left out
        block = text[text.index("    # reserve_blind") :].split("    # buy_face_up")[0]
        return [line.split("#")[0].strip() for line in block.splitlines() if line.split("#")[0].strip()]

    # the setup field is the same at every player count: the lowering writes it as the number
    assert code(before)[:2] == ["if len(g._res[me]) < 2 + 3 - 2:", "if 4 * 2 >= 8:"]
    assert not any("2 + 3 - 2" in line or "4 * 2" in line for line in code(after))
    assert code(after)[0] in ("if len(g._res[me]) < 3:", "if cse0:")


def test_the_probe_plays_move_for_move_as_without_the_passes(probe):
    before, after, _, _ = probe
    rng = random.Random(2)
    for seed in range(3):
        games = [engine.new_game(2 + seed, seed=seed) for engine in (before, after)]
        while not games[0].is_over():
            legal = games[0].legal_actions()
            assert games[1].legal_actions() == legal
            choice = legal[rng.randrange(len(legal))]
            for game in games:
                game.apply(choice)
        assert games[0].to_json() == games[1].to_json()
    assert check_games(after, games=2, seed=4) > 50
