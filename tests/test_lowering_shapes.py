"""Every shape of expression that `check` accepts compiles, and its engine plays (issue 14).

An aggregate (all, any, count, sum, min, max) over every collection (gems, colours, levels,
players, others, a chosen gem set), with a body that uses its loop variable or ignores it; a
membership test `x in C`; `size(C)`; a loop variable that shadows a colour, a value, a choice
or another loop's variable; constants the lowering folds. Each goes in every place an
expression goes: an action's condition (before any choice, with a colour, a level, a face-up
or reserved card, a gem set), a price, an effect's test and amount, a `for` effect, a step's
condition and `while`, an end trigger, the winners' `eligible` and a ranking's `by`.

Each spec is compiled and its engine plays seeded random games (a few hundred moves), the
fast legal ids agreeing at every decision with the plain compilation of the same conditions
(see test_lowering.plain_legal), through a JSON round trip now and then, to the winners; the
only exception allowed is the documented RuleError of an effect the spec lets run short.
"""

from __future__ import annotations

import json
import random

import pytest

from compiler import pipeline
from compiler.emit import engine as emit_engine
from tests.helpers.specs import engine_from_text, plain_legal, spec

# (collection, a body that uses the loop variable x: true or false, then a number; a body that
# ignores it: true or false, then a number). `me` is left out: the winners' tests have `player`.
COLLECTIONS = {
    "gems": ("supply[x] >= 1", "player_count + 0 * supply[x]", "supply[gold] >= 1", "nobles_left"),
    "colours": ("x == gold", "supply[x]", "true", "1"),
    "levels": ("deck[x] >= 1", "face_up[x]", "round >= 1", "turn"),
    "players": ("x.held >= 1", "x.prestige", "passes >= 0", "0"),
    "others": ("x.seat >= 2", "x.tokens[gold]", "false", "player_count"),
}


def aggregate_shapes() -> list[tuple[str, str]]:
    """(expression, 'bool' or 'int'): each aggregate over each collection, using and ignoring x."""
    shapes = []
    for coll, (uses_b, uses_i, ignores_b, ignores_i) in COLLECTIONS.items():
        for body_b, body_i in ((uses_b, uses_i), (ignores_b, ignores_i)):
            shapes += [
                (f"all({body_b} for x in {coll})", "bool"),
                (f"any({body_b} for x in {coll})", "bool"),
                (f"count({body_b} for x in {coll})", "int"),
                (f"sum({body_i} for x in {coll})", "int"),
                (f"min({body_i} for x in {coll})", "int"),
                (f"max({body_i} for x in {coll})", "int"),
            ]
    return shapes


OTHER_SHAPES = [
    # membership and sizes of every collection, folded where both sides are known
    ("red in gems", "bool"),
    ("gold not in gems", "bool"),
    ("gold in colours", "bool"),
    ("2 in levels", "bool"),
    ("round in levels", "bool"),
    ("size(gems) + size(colours) + size(levels)", "int"),
    ("size(players) + size(others)", "int"),
    # loop variables that shadow a colour, a value, another loop's variable; nested aggregates
    ("all(supply[red] >= 0 for red in gems)", "bool"),
    ("sum(target for target in levels)", "int"),
    ("all(any(supply[x] >= 1 for x in colours) for x in gems)", "bool"),
    ("sum(count(y.bonus[x] >= 1 for x in gems) for y in players)", "int"),
    ("max(min(y.tokens[x] for x in colours) for y in others)", "int"),
    ("count(any(y.tokens[x] >= 1 for y in players) for x in colours)", "int"),
    ("all(all(x == y or x != y for y in players) for x in players)", "bool"),
    ("(if any(true for x in gems) then 1 else 0)", "int"),
    ("not all(false for x in levels)", "bool"),
]
SHAPES = aggregate_shapes() + OTHER_SHAPES
GROUPS = [SHAPES[i : i + 20] for i in range(0, len(SHAPES), 20)]  # each in one expression of at most 4,000 characters


def holds(shapes, term: str = "0") -> str:
    """Every shape as a test that always holds (so every one is evaluated, and none hides
    another), each number added to `term` (which reads the choices, so the shapes are hoisted
    out of their loops)."""
    return " and ".join(
        f"({e} or not {e})" if kind == "bool" else f"({term} + {e} >= 0 or {term} + {e} < 0)" for e, kind in shapes
    )


def zero(shapes) -> str:
    """A number that is always 0 and evaluates every shape."""
    numbers = ", ".join(e for e, kind in shapes if kind == "int")
    tests = " and ".join(f"({e} or not {e})" for e, kind in shapes if kind == "bool")
    return f"min(0, {numbers}) + (if {tests} then 0 else 1)"


def overlay(position: str, shapes) -> str:
    """A variant of the official rules with the shapes in one place."""
    q = json.dumps
    return {
        "condition before any choice": "actions:\n  reserve_blind:\n    condition: "
        + q(f"me.reserved < reserve_limit and deck[level] >= 1 and {holds(shapes)}"),
        "condition on a colour": "actions:\n  take_pair:\n    condition: "
        + q(f"supply[colour] >= pair_minimum and {holds(shapes, 'supply[colour]')}"),
        "condition on a level": "actions:\n  reserve_blind:\n    condition: "
        + q(f"me.reserved < reserve_limit and deck[level] >= 1 and {holds(shapes, 'deck[level]')}"),
        "condition on a face-up card": "actions:\n  buy_face_up:\n    condition: " + q(holds(shapes, "card.points")),
        "condition on a reserved card": "actions:\n  buy_reserved:\n    condition: " + q(holds(shapes, "card.level")),
        "condition on a gem set": "actions:\n  take_different:\n    condition: "
        + q(
            "all(supply[c] >= 1 for c in picked) and size(picked) == min(take_count, count(supply[c] >= 1 "
            f"for c in gems)) and {holds(shapes, 'size(picked)')}"
        ),
        "price": "actions:\n  buy_face_up:\n    choose:\n      payment: {domain: payment, price: "
        + q(f"max(0, card.cost[c] - me.bonus[c]) + {zero(shapes)}")
        + "}",
        "effect": "actions:\n  reserve_face_up:\n    effects:\n      - reserve(card)\n      - refill(card)\n      - "
        + q(f"if supply[gold] >= 1 and {holds(shapes)}: take(gold, 1 + {zero(shapes)})"),
        "for effect": "actions:\n  take_pair:\n    effects:\n      - take(colour, 2)\n      - "
        + q(f"for c in gems: if supply[c] >= 6 and {holds(shapes, 'supply[c]')}: take(c, 1)"),
        "step condition": "end_of_turn:\n  noble_visit:\n    condition: "
        + q(f"all(me.bonus[c] >= noble.requires[c] for c in gems) and {holds(shapes, 'noble.points')}"),
        "step while": "end_of_turn:\n  return_tokens:\n    while: " + q(f"me.held > token_limit and {holds(shapes)}"),
        "step condition on a colour": "end_of_turn:\n  return_tokens:\n    condition: "
        + q(f"me.tokens[colour] >= 1 and {holds(shapes, 'me.tokens[colour]')}"),
        "end trigger": "end:\n  target:\n    when: " + q(f"me.prestige >= target and {holds(shapes)}"),
        "eligible": "winners:\n  eligible: " + q(holds(shapes, "player.prestige")),
        "ranking": "winners:\n  ranking:\n    purchased:\n      by: " + q(f"player.purchased + {zero(shapes)}"),
    }[position]


POSITIONS = [
    "condition before any choice",
    "condition on a colour",
    "condition on a level",
    "condition on a face-up card",
    "condition on a reserved card",
    "condition on a gem set",
    "price",
    "effect",
    "for effect",
    "step condition",
    "step while",
    "step condition on a colour",
    "end trigger",
    "eligible",
    "ranking",
]

# Shapes that once crashed or misplayed, each alone where it did (issue 14).
ALONE = {
    # `red in gems`: the lowering compiled `gems` as a name (KeyError, exit 3)
    "membership in a fixed collection": "actions:\n  reserve_blind:\n    condition: me.reserved < reserve_limit and "
    "deck[level] >= 1 and all(red in gems for c in gems)",
    # an aggregate in a price, hoisted into a block already written out: NameError 'h0' in new_game()
    "an aggregate in a price": "actions:\n  buy_face_up:\n    choose:\n      payment: "
    '{domain: payment, price: "max(me.nobles for d in gems)"}',
    # two purchases whose prices subtract different things: both bound w0... at the top of the
    # action phase, the second over the first (buy 1.2 offered when it could not be paid)
    "two purchases with different discounts": "actions:\n  buy_reserved:\n    choose:\n      payment: "
    '{domain: payment, price: "max(0, card.cost[c] - me.bonus[c] - 1)"}',
    # size(players), size(others): KeyError 'players'
    "sizes of the players": "actions:\n  take_pair:\n    condition: supply[colour] >= pair_minimum and "
    "size(players) >= 2 and size(others) >= 1",
    # a `for` over players read its variable as a colour: E520 "cannot compile 'x.prestige'" on a clean spec
    "a for effect over players": "actions:\n  take_pair:\n    effects:\n      - take(colour, 2)\n      - "
    '"for x in players: if x.prestige >= 100 and supply[gold] >= 1: take(gold, 1)"',
    # loop variables named as the choice, as a colour, and the price's own c
    "a loop variable named as the choice": "actions:\n  take_pair:\n    condition: supply[colour] >= pair_minimum "
    "and all(supply[colour] >= 0 for colour in gems) and any(colour == x for x in gems)",
    "the price's c bound again": "actions:\n  buy_face_up:\n    choose:\n      payment: {domain: payment, price: "
    '"max(0, card.cost[c] - me.bonus[c] - count(d == c and false for d in gems) - min(0, min(me.bonus[c] for c in gems)))"}',
    # a chosen gem set as the collection of aggregates and membership tests, in the condition and effects
    "a gem set as a collection": 'actions:\n  take_different:\n    condition: "all(supply[c] >= 1 for c in picked) and '
    "size(picked) == min(take_count, count(supply[c] >= 1 for c in gems)) and sum(supply[x] for x in picked) >= 1 "
    "and count(x == red for x in picked) <= 1 and min(supply[x] for x in picked) >= 1 and "
    'max(me.tokens[x] for x in picked) >= 0 and (red in picked or red not in picked) and all(x in gems for x in picked)"\n'
    '    effects:\n      - "for c in picked: if all(supply[d] >= 0 for d in gems): take(c, 1)"\n'
    '      - "if red in picked and supply[gold] >= 1: take(gold, count(x == red for x in picked))"',
}


def compile_variant(folder, name: str, body: str):
    path = folder / f"{name}.yaml"
    path.write_text(f"spec: 1\nname: {name}\nextends: official\ntitle: {{en: {name}}}\n{body}\n", encoding="utf-8")
    module = folder / f"{name}.py"
    module.write_text(emit_engine.compile_to_module(pipeline.load_rules(str(path))), encoding="utf-8")
    return engine_from_text(module, module.read_text(encoding="utf-8"))


def play(engine, games: int = 2, moves: int = 200, seed: int = 0) -> int:
    """Seeded random games: fast and plain legal ids agree at every decision; the moves made."""
    rng = random.Random(seed)
    made = 0
    for i in range(games):
        game = engine.new_game(engine.PLAYER_COUNTS[i % len(engine.PLAYER_COUNTS)], seed=seed * 100 + i)
        for move in range(moves):
            if game.is_over():
                assert isinstance(game.winners(), list)
                break
            legal = game.legal_actions()
            assert legal and legal == plain_legal(engine, game), f"game {i}, move {move}"
            if move % 17 == 0:
                game = engine.from_json(game.to_json())
                assert game.legal_actions() == legal
            try:
                game.apply(legal[rng.randrange(len(legal))])
            except engine.RuleError:  # documented: a spec may let an effect run short
                break
            made += 1
    return made


@pytest.mark.parametrize("group", range(len(GROUPS)))
@pytest.mark.parametrize("position", POSITIONS)
def test_every_shape_compiles_and_plays_in_every_position(position, group, tmp_path):
    engine = compile_variant(tmp_path, "shapes", overlay(position, GROUPS[group]))
    assert play(engine) > 30


@pytest.mark.parametrize("name", sorted(ALONE))
def test_a_shape_that_once_failed_compiles_and_plays(name, tmp_path):
    engine = compile_variant(tmp_path, "alone", ALONE[name])
    assert play(engine, games=4) > 30


def test_one_gem_colour_compiles_and_plays(tmp_path):
    """One gem colour: every tuple the engine unpacks (a cost, a payment, the supply, tokens and
    bonuses read into locals) has one item, written `x, = ...` (`x = ...` bound the tuple)."""
    rules = spec(tmp_path, gems=("white",))
    module = tmp_path / "one_colour.py"
    engine = engine_from_text(module, emit_engine.compile_to_module(rules))
    assert engine.GEMS == ("white",)
    assert play(engine, games=6, seed=3) > 100
    strings = set(engine.ACTION_STRINGS)
    assert {"take white", "take2 white", "pay gold for white", "pay without gold"} <= strings
