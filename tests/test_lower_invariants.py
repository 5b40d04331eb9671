"""Loop-invariant code motion (compiler/lower/invariants.py, issue 29 item 1): trees before and
after the pass, the cases where nothing may move, and a spec whose legal scan walks a holding for
every card played the same with and without the pass."""

import ast
import random
import re

import pytest

from compiler import pipeline
from compiler.lower.invariants import hoist_invariants
from compiler.lower.optimise import unoptimised
from compiler.lower.printer import render
from compiler.lower.tree import Append, Assign, Continue, Def, Do, For, If
from tests.helpers import ROOT
from tests.helpers.specs import check_games, engine_from_text

CHARM_BONUS = ROOT / "tests" / "specs" / "charm-bonus.yaml"


def e(text: str) -> ast.expr:
    """An expression node from its text: how a test writes the nodes the lowering builds with compiler.lower.ir."""
    return ast.parse(text, mode="eval").body


def lines(fn: Def) -> list[str]:
    return render([fn]).splitlines()


def test_an_aggregate_no_loop_variable_reads_is_computed_once_before_the_loop():
    before = Def(
        "f",
        "g, out",
        [
            Assign((e("me"),), e("g.cp")),
            For(
                e("card"),
                e("g.market"),
                [
                    If(e("not COST[card] <= sum(1 for x in g.hand[me] if x == 0) + 2"), [Continue()]),
                    Append(e("out"), e("card")),
                ],
            ),
        ],
    )
    assert lines(before)[2:4] == [
        "    for card in g.market:",
        "        if not COST[card] <= sum(1 for x in g.hand[me] if x == 0) + 2:",
    ]
    assert lines(hoist_invariants(before))[1:6] == [
        "    me = g.cp",
        "    inv0 = sum(1 for x in g.hand[me] if x == 0) + 2",
        "    for card in g.market:",
        "        if not COST[card] <= inv0:",
        "            continue",
    ]


def test_an_invariant_leaves_every_loop_it_does_not_depend_on_and_repeats_share_one_local():
    before = Def(
        "f",
        "g, out",
        [
            For(
                e("a"),
                e("range(3)"),
                [
                    For(
                        e("b"),
                        e("range(4)"),
                        [
                            Append(e("out"), e("a + max(g.x, b) + len(g.row)")),
                            Append(e("out"), e("len(g.row) + a * len(g.row)")),
                        ],
                    )
                ],
            )
        ],
    )
    assert lines(hoist_invariants(before)) == [
        "def f(g, out):",
        "    inv0 = len(g.row)",
        "    for a in range(3):",
        "        for b in range(4):",
        "            out.append(a + max(g.x, b) + inv0)",
        "            out.append(inv0 + a * inv0)",
    ]


@pytest.mark.parametrize(
    "body",
    [
        # reads the loop variable
        [Append(e("out"), e("sum(x for x in g.hand[card])"))],
        # the loop changes the heap: a call made for its effect
        [Do(e("g.hand[0].append(card)")), Append(e("out"), e("len(g.hand[0])"))],
        # the loop changes the heap: a store into an index
        [Assign((e("g.hand[0]"),), e("card")), Append(e("out"), e("len(g.hand[0])"))],
        # a name the loop binds
        [Assign((e("n"),), e("card")), Append(e("out"), e("len(g.hand[n])"))],
        # a call that is not the language's (a runtime helper may have an effect)
        [Append(e("out"), e("_zone_size(g, 0)"))],
        # a value the function tests against None, used outside its own test: only an `if` in the loop guards it
        [If(e("tip is not None"), [Append(e("out"), e("len(g.hand[tip])"))])],
    ],
    ids=["loop-variable", "effect-call", "index-store", "bound-in-loop", "impure-call", "maybe-none"],
)
def test_nothing_moves_that_the_loop_may_change_or_that_may_fail_early(body):
    before = Def("f", "g, out, tip", [For(e("card"), e("g.market"), body)])
    assert lines(hoist_invariants(before)) == lines(before)


def test_a_name_bound_on_some_paths_only_keeps_its_expression_in_the_loop():
    before = Def(
        "f",
        "g, out",
        [
            If(e("g.x"), [Assign((e("n"),), e("1"))]),
            For(e("card"), e("g.market"), [Append(e("out"), e("len(g.hand[n])"))]),
        ],
    )
    assert lines(hoist_invariants(before)) == lines(before)


def test_a_value_guarded_inside_the_expression_itself_may_move():
    before = Def(
        "f",
        "g, out, tip",
        [
            For(
                e("card"),
                e("g.market"),
                [Append(e("out"), e("sum(1 for x in g.hand if tip is not None and x == tip)"))],
            )
        ],
    )
    assert lines(hoist_invariants(before))[1] == "    inv0 = sum(1 for x in g.hand if tip is not None and x == tip)"


@pytest.fixture(scope="module")
def charm_bonus_engines(tmp_path_factory):
    """The spec's engine with the passes, and without them."""
    folder = tmp_path_factory.mktemp("invariants")
    after = pipeline.compile_spec(str(CHARM_BONUS)).text
    with unoptimised():
        before = pipeline.compile_spec(str(CHARM_BONUS)).text
    assert before != after  # (the session's engine cache keys on whether the passes run)
    return engine_from_text(folder / "cb_before.py", before), engine_from_text(folder / "cb_after.py", after), after


def test_the_legal_scan_counts_the_charms_once_per_decision_not_once_per_card(charm_bonus_engines):
    _, _, source = charm_bonus_engines
    scan = source[source.index("    # charmed_buy") : source.index("def _eligible")]
    loop = scan.index("for p_card_LI, _row in enumerate(g.market):")
    walks = [line for line in scan.splitlines() if "g.z_charm_hand[me]" in line]
    # one walk a colour at most (colours whose count is the same share one: compiler/lower/common.py), before the loop
    assert 1 <= len(walks) <= 5 and all(re.match(r"    (inv|cse)\d+ = ", line) for line in walks), walks
    assert all(scan.index(line) < loop for line in walks)
    assert "inv4 = " in scan[:loop]


def test_the_engine_plays_move_for_move_as_without_the_pass(charm_bonus_engines):
    before, after, _ = charm_bonus_engines
    rng = random.Random(5)
    decisions = 0
    for seed in range(4):
        games = [engine.new_game(2 + seed % 3, seed=seed) for engine in (before, after)]
        while not games[0].is_over():
            legal = games[0].legal_actions()
            assert games[1].legal_actions() == legal
            choice = legal[rng.randrange(len(legal))]
            for game in games:
                game.apply(choice)
            decisions += 1
        assert games[1].is_over() and games[0].to_json() == games[1].to_json()
    assert decisions > 100
    assert check_games(after, games=3, seed=3) > 50
