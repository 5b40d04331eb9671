"""The documented ranges and what compiles agree: a spec at each documented maximum checks and
compiles, and its engine's size (actions, ways to pay) stays within what check promises.

The engine numbers its actions up front, so its size grows with the counts of a spec (the
wild colour's tokens over the gem colours, reserved slots, face-up slots, ...); check refuses
a spec past MAX_ACTIONS (E515) before the lowering enumerates anything. The tests assert on
sizes, not on time: a size is what makes compiling slow.
"""

from __future__ import annotations

import ast
import json
import pathlib

import pytest

from compiler.check import sizes
from compiler.diagnostics import CompileError
from compiler.emit.engine import render_module
from compiler.lower import lower, payment_vectors
from tests.helpers.specs import engine_from_text, spec

ROOT = pathlib.Path(__file__).resolve().parent.parent


def compiled(rules) -> tuple:
    """(the plan, the engine's source) of a checked spec; the source must parse."""
    plan = lower(rules)
    text = render_module(plan)
    ast.parse(text)
    return plan, text


def gold(n: int) -> tuple[str, str]:
    return "4: {gems: 7, gold: 5", f"4: {{gems: 7, gold: {n}"


GEMS12 = tuple(f"g{i}" for i in range(12))
COUNT_MOST = json.loads((ROOT / "rulespec" / "schema.json").read_text(encoding="utf-8"))["$defs"]["count"]["maximum"]
MAXIMA = {
    # the most wild tokens over one gem colour: the schema's most (check would allow more), every
    # unpacking of a one-colour tuple in the engine (a cost, a payment, the scalar locals) is `x, = ...`
    # The engine writes its 1,001 ways to pay as 'pay gold for white white ...', up to 1,000 words
    # each: 3 MB of action notation alone, which grows with the square of the gold (and the printer
    # breaks each of those long strings into lines of 100 columns: a tenth more).
    "gold over 1 gem": dict(changes=[gold(min(sizes.max_gold(1), COUNT_MOST))], gems=("white",), text_most=3_600_000),
    # the most wild tokens check allows over five gem colours, and over twelve (the most colours)
    "gold over 5 gems": dict(changes=[gold(sizes.max_gold(5))]),
    "gold over 12 gems": dict(changes=[gold(sizes.max_gold(12))], gems=GEMS12),
    # tokens per colour, the token limit and reserved slots at their documented maxima
    "counts": dict(
        changes=[
            ("4: {gems: 7,", "4: {gems: 1000,"),
            ("token_limit: 10", "token_limit: 1000000"),
            ("reserve_limit: 3", "reserve_limit: 1000"),
        ]
    ),
    # face-up cards per level at their documented maximum, 100
    "face-up slots": dict(
        changes=[("4: {gems: 7, gold: 5, nobles: 5, face_up: 4}", "4: {gems: 7, gold: 5, nobles: 10, face_up: 100}")],
        per_level=100,
    ),
    # every player count from 1 to 99
    "players": dict(
        changes=[
            (
                "players:\n",
                "players:\n"
                + "".join(f"  {n}: {{gems: 7, gold: 5, nobles: 5, face_up: 4}}\n" for n in range(5, 100))
                + "  1: {gems: 4, gold: 5, "
                "nobles: 3, face_up: 4}\n",
            )
        ]
    ),
}


@pytest.mark.parametrize("case", sorted(MAXIMA))
def test_a_spec_at_a_documented_maximum_compiles_within_the_action_limit(case, tmp_path):
    options = {k: v for k, v in MAXIMA[case].items() if k not in ("changes", "text_most")}
    rules = spec(tmp_path, *MAXIMA[case]["changes"], **options)
    plan, text = compiled(rules)
    gold_most = max(p.gold for p in rules.players)
    assert len(plan.payments) == sizes.payment_count(len(rules.gems), gold_most)
    assert len(plan.actions) == sum(
        sizes.action_sizes(rules.gems, rules.levels, rules.players, rules.actions + rules.steps).values()
    )
    assert len(plan.actions) <= sizes.MAX_ACTIONS
    assert len(text) < MAXIMA[case].get("text_most", 3_000_000)  # an engine of a few megabytes at most
    engine = engine_from_text(tmp_path / "engine_at_maximum.py", text)
    assert engine.NUM_ACTIONS == len(plan.actions) and len(engine.PAYMENTS) == len(plan.payments)
    game = engine.new_game(min(engine.PLAYER_COUNTS), seed=1)
    assert game.legal_actions()  # the engine plays


@pytest.mark.parametrize("gems", [2, 5, 12])  # with 1 gem colour, the schema's 1000 gold come first
def test_one_more_gold_than_the_maximum_is_refused(gems, tmp_path):
    colours = GEMS12[:gems]
    most = sizes.max_gold(gems)
    assert most < 1000
    with pytest.raises(CompileError) as err:
        spec(tmp_path, gold(most + 1), gems=colours)
    [d] = err.value.diagnostics
    assert d.code == "E515" and f"at most {most} gold tokens" in d.notes[0]
    assert sizes.payment_count(gems, most + 1) > sizes.MAX_ACTIONS >= sizes.payment_count(gems, most)


def test_payment_count_is_the_number_of_payment_vectors():
    for gems in (1, 2, 5):
        for gold_ in (0, 1, 3, 6):
            assert len(payment_vectors(gems, gold_)) == sizes.payment_count(gems, gold_)
