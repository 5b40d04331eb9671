"""The lowering's fast legal-action code against the plain compilation of the same conditions.

`_action_phase_legal` (and each step's `_legal_NAME`) is optimized code: tests placed at the
outermost loop that binds their choices, nested guards, unrolled colours and levels, gem
sets from tables, slot ids counted by hand, card costs unpacked, a staged payment test.
Each action's `_why_NAME` is compiled from the same conditions with none of that. So at
every position of many random games, the legal ids must be exactly the ids whose
`_why_NAME` finds nothing wrong: a differential test of every lowering path, on the
shipped specs and on synthetic variants written to reach paths no shipped spec uses.
"""

from __future__ import annotations

import ast
import os
import pathlib
import re

import pytest

import tests.helpers.engines as H
from compiler import pipeline
from tests.helpers.engines import load_engine
from tests.helpers.specs import check_games

ROOT = pathlib.Path(__file__).resolve().parent.parent
ENGINES = sorted((ROOT / "generated" / "engines").glob("*.py"))

# Paths of the lowering that the shipped specs do not reach, each in a variant of its own.
SYNTHETIC = {
    # A face-up card then a colour: the slot id is not the last term of the action id (the
    # colour's test reads the card: else its values are worked out once, LegalLowering._last_apart).
    "card-then-colour": """
actions:
  reserve_and_take:
    add: true
    title: {en: Reserve a card and take a gem}
    notation: reserve {card} take {colour}
    choose:
      card: {domain: face_up}
      colour: {domain: gem}
    condition: me.reserved < reserve_limit and supply[colour] >= card.points + 2 and card.points >= 1
    effects:
      - reserve(card)
      - refill(card)
      - take(colour, 1)
""",
    # Several tests before the first choice (nested guards), one mentioning a named value.
    "guards": """
actions:
  take_pair:
    condition: round >= 2 and passes == 0 and me.held <= token_limit - 2 and supply[colour] >= pair_minimum
""",
    # A level, then a colour: the level loop is not unrolled, the colour is.
    "level-then-colour": """
actions:
  reserve_blind:
    notation: reserve deck {level} {colour}
    choose:
      colour: {domain: gem, add: true}
    condition: me.reserved < reserve_limit and deck[level] >= 1 and supply[colour] >= 1 and level <= 2
    effects:
      - reserve_top(level)
      - take(colour, 1)
""",
    # Fewer face-up cards than the widest row (3 of 4 at two players), and a price that is
    # not max(0, cost - bonus): the general payment test.
    "narrow-market": """
players:
  2: {gems: 4, gold: 5, nobles: 3, face_up: 3}
actions:
  buy_face_up:
    choose:
      card: {domain: face_up}
      payment: {domain: payment, price: "max(0, card.cost[c] - me.bonus[c] - 1) + 0"}
""",
    # Fewer face-up cards than the widest row with the usual price: the purchase loop walks
    # Game.face_up_costs, whose slots past a short row hold the cost no one can pay.
    "narrow-flat": """
players:
  2: {gems: 4, gold: 5, nobles: 3, face_up: 3}
""",
    # A purchase with a second test on the card's cost: the flat purchase loop stays a loop
    # (only a loop whose body is the cannot-pay test alone is written out slot by slot).
    "flat-loop": """
actions:
  buy_face_up:
    condition: "sum(card.cost[c] for c in gems) >= 4"
""",
    # A step choosing a face-up card its bonuses pay for in full: the step's prefilter is the
    # least total cost of any card (a legal card implies sum(me.bonus) >= it).
    "free-card-step": """
end_of_turn:
  patronage:
    add: true
    after: noble_visit
    title: {en: Patronage}
    notation: patron {card}
    choose:
      card: {domain: face_up}
    condition: all(me.bonus[c] >= card.cost[c] for c in gems)
    effects:
      - acquire(card)
      - refill(card)
    repeat: once
    resolve: choice
""",
    # A step's while-condition that reads only the game (no player locals), with no other step.
    "game-only-while": """
end_of_turn:
  return_tokens: {remove: Tokens are never returned.}
  noble_visit:
    while: "round >= 2"
""",
    # Three actions in a row whose first test is the same: one `if` holds the three blocks;
    # the reserves with a limit of their own are not merged into the pair's test.
    "shared-guard": """
actions:
  take_pair:
    condition: me.reserved < reserve_limit and supply[colour] >= pair_minimum
  reserve_blind:
    condition: me.reserved < 2 and deck[level] >= 1
""",
    # An existing action moved first: its ids come first, and the fused blocks follow the order.
    "moved-action": """
actions:
  buy_face_up:
    before: take_different
""",
}


@pytest.mark.parametrize("path", ENGINES, ids=[p.stem for p in ENGINES])
def test_fast_legal_actions_agree_with_the_plain_conditions(path):
    assert check_games(load_engine(path), games=6, seed=7) > 100


class _SyntheticEngines(dict):
    """The engines of SYNTHETIC by name, each compiled when a test first asks for it: the fast tier
    runs one test of one of them (the whole suite runs them all)."""

    def __init__(self, folder: pathlib.Path):
        super().__init__()
        self.folder = folder

    def __missing__(self, name: str):
        spec = self.folder / f"{name}.yaml"
        body = SYNTHETIC[name]
        spec.write_text(f"spec: 1\nname: {name}\nextends: official\ntitle: {{en: {name}}}\n" + body, encoding="utf-8")
        module = self.folder / f"{name.replace('-', '_')}.py"
        module.write_text(pipeline.compile_spec(str(spec)).text, encoding="utf-8")
        self[name] = load_engine(module)
        return self[name]


@pytest.fixture(scope="module")
def synthetic_engines(tmp_path_factory) -> dict:
    return _SyntheticEngines(tmp_path_factory.mktemp("synthetic"))


@pytest.mark.parametrize("name", sorted(SYNTHETIC))
def test_synthetic_variants_reach_the_lowering_paths_and_agree(synthetic_engines, name):
    engine = synthetic_engines[name]
    source = pathlib.Path(engine.__file__).read_text(encoding="utf-8")
    reached = {
        "card-then-colour": lambda: "p_card_ID + " in source,  # the slot id, then the colour's term
        "guards": lambda: "if g.round >= 2:" in source,  # the first of the nested guards
        "level-then-colour": lambda: "for i_0, p_level in enumerate(LEVELS):" in source,
        "narrow-market": lambda: "_p0 = " in source,  # the general payment test
        "narrow-flat": lambda: "fu_1_1, fu_1_2, fu_1_3, fu_1_4, fu_2_1" in source,  # the slots written out
        "flat-loop": lambda: (
            "p_card_ID = 44\n    for cc_p_card_G0" in source
            and "in g.face_up_costs:\n        p_card_ID += 1" in source
            and "fu_1_1" not in source
        ),
        "game-only-while": lambda: "while not count and g.round >= 2" in source,
        "free-card-step": lambda: "while not count and sum(bon) >= 3:" in source,
        "shared-guard": lambda: (  # the count of reserved cards read once for both tests (compiler/lower/common.py)
            len(re.findall(r"\n    if (len\(g\._res\[me\]\)|cse\d+) < 3:  # me.reserved < reserve_limit\n", source))
            == 1
            and "\n        # reserve_face_up" in source
            and "\n    # reserve_blind" in source
            and re.search(r"if (len\(g\._res\[me\]\)|cse\d+) < 2:", source) is not None
        ),
        "moved-action": lambda: (
            engine.string_to_action("buy 1.1") == 0
            and source.index("    # buy_face_up") < source.index("    # take_different")
        ),
    }[name]
    assert reached(), f"{name} no longer reaches the path it was written for"
    assert check_games(engine, games=8, seed=11) > 100


def test_a_face_up_slot_past_a_short_row_is_refused_in_words(synthetic_engines):
    engine = synthetic_engines["narrow-market"]
    game = engine.new_game(2, seed=3)
    slot = engine.string_to_action("reserve 1.4")  # level 1 has 3 face-up cards at two players
    with pytest.raises(engine.IllegalAction, match="no face-up card at 1.4"):
        game.apply(slot)


# --------------------------------------------------------------------------- tokens never below zero


def game_colour(engine, name: str) -> int:
    return engine.COLOURS.index(name)


def test_a_take_its_tests_do_not_ensure_fails_in_words_and_proven_ones_cost_nothing(tmp_path):
    """take/put_back test the count first unless a test before them guarantees it (the decision's
    condition for the first draw on that pool, an `if` around it): the official engine has no such test."""
    spec = tmp_path / "greedy-pair.yaml"
    spec.write_text(
        "spec: 1\nname: greedy-pair\nextends: official\ntitle: {en: Greedy pair}\n"
        "actions:\n  take_pair:\n    condition: supply[colour] >= 1\n",
        encoding="utf-8",
    )
    module = tmp_path / "greedy_pair.py"
    module.write_text(pipeline.compile_spec(str(spec)).text, encoding="utf-8")
    engine = load_engine(module)
    state = H.position(engine, 2, seed=1)
    H.set_supply(state, [1], 10, white=1)
    game = H.load(engine, state)
    with pytest.raises(
        engine.RuleError,
        match=r"^take\(colour, 2\) \(rulespec/official.yaml:\d+\): only 1 white "
        r"token\(s\) in the supply$",
    ):  # the effect's own line, in the base
        H.act(game, "take2 white")
    assert game.supply[game_colour(engine, "white")] == 1  # the test comes before the tokens move
    official = (ROOT / "generated" / "engines" / "official.py").read_text(encoding="utf-8")
    # a raise site is its key and a comma (the runtime's table of messages has the key and a colon)
    assert '"short_supply",' not in official and '"short_held",' not in official
    reserve_tax = (ROOT / "generated" / "engines" / "reserve_tax.py").read_text(encoding="utf-8")
    assert reserve_tax.count('"short_held",') == 2  # its condition is a disjunction: tested


def test_a_negative_number_of_tokens_fails_in_words(tmp_path):
    """An amount that is an expression may be negative (`me.purchased - 2`): take and put_back
    refuse it before any token moves (taking -2 gave the supply 2 and left the player at -2)."""
    spec = tmp_path / "negative-take.yaml"
    spec.write_text(
        "spec: 1\nname: negative-take\nextends: official\ntitle: {en: Negative take}\n"
        'actions:\n  take_pair:\n    effects:\n      - "take(colour, me.purchased - 2)"\n'
        'end_of_turn:\n  return_tokens:\n    effects:\n      - "put_back(colour, me.purchased - 1)"\n'
        "    max: 10\n",  # an amount of 0 would return nothing: no proof that the step ends
        encoding="utf-8",
    )
    module = tmp_path / "negative_take.py"
    module.write_text(pipeline.compile_spec(str(spec)).text, encoding="utf-8")
    engine = load_engine(module)
    game = engine.new_game(2, seed=1)
    white = game_colour(engine, "white")
    with pytest.raises(
        engine.RuleError,
        match=r"^take\(colour, me.purchased - 2\) \(negative-take.yaml:\d+\): "
        r"a negative number of tokens \(-2\)$",
    ):
        H.act(game, "take2 white")
    assert game.supply[white] == 4 and game.tokens[0][white] == 0  # refused before the tokens move
    official = (ROOT / "generated" / "engines" / "official.py").read_text(encoding="utf-8")
    assert '"negative_tokens",' not in official  # amounts written as numbers need no test (a raise site: key, comma)


def test_a_reserve_past_the_hand_its_choices_can_name_fails_in_words(tmp_path):
    spec = tmp_path / "double-reserve.yaml"
    spec.write_text(
        "spec: 1\nname: double-reserve\nextends: official\ntitle: {en: Double reserve}\n"
        "actions:\n  reserve_blind:\n    effects:\n      append:\n        - reserve_top(level)\n",
        encoding="utf-8",
    )
    module = tmp_path / "double_reserve.py"
    module.write_text(pipeline.compile_spec(str(spec)).text, encoding="utf-8")
    engine = load_engine(module)
    source = module.read_text(encoding="utf-8")
    raised = [
        n.args[0].value
        for n in ast.walk(ast.parse(source))
        if isinstance(n, ast.Call)
        and getattr(n.func, "id", None) == "RuleError"
        and isinstance(n.args[0], ast.Constant)
    ]
    assert raised.count("reserved_most") == 1  # the second only
    game = engine.new_game(2, seed=1)
    for move in ("reserve deck 1", "reserve deck 1"):  # two cards for seat 1, two for seat 2
        H.act(game, move)
    with pytest.raises(
        engine.RuleError,
        match=r"^reserve_top\(level\) \(.*double-reserve.yaml:\d+\): the player "
        r"holds 3 reserved cards, the most",
    ):
        H.act(game, "reserve deck 2")
    official = (ROOT / "generated" / "engines" / "official.py").read_text(encoding="utf-8")
    assert '"reserved_most",' not in official  # `me.reserved < reserve_limit` guarantees room


def test_the_condition_speaks_only_for_the_first_draw_on_a_pool(tmp_path):
    """`me.tokens[gold] >= 1` held before the payment; after it, returning a gold token is tested."""
    spec = tmp_path / "gold-back.yaml"
    spec.write_text(
        "spec: 1\nname: gold-back\nextends: official\ntitle: {en: Gold back}\n"
        "actions:\n  buy_reserved:\n    condition: me.tokens[gold] >= 1\n"
        "    effects:\n      append:\n        - put_back(gold, 1)\n"
        "  take_pair:\n    condition: me.tokens[gold] >= 1 and supply[colour] >= pair_minimum\n"
        "    effects:\n      append:\n        - put_back(gold, 1)\n",
        encoding="utf-8",
    )
    source = pipeline.compile_spec(str(spec)).text
    buy = source[source.index("def _do_buy_reserved") : source.index("def _why_buy_reserved")]
    pair = source[source.index("def _do_take_pair") : source.index("def _why_take_pair")]
    assert '"short_held"' in buy  # drawn on by pay(payment) first
    assert '"short_held"' not in pair and '"short_supply"' not in pair  # both guaranteed


def test_a_test_speaks_for_one_run_of_an_effect_not_for_a_loop_of_them(tmp_path):
    spec = tmp_path / "gold-rain.yaml"
    spec.write_text(
        "spec: 1\nname: gold-rain\nextends: official\ntitle: {en: Gold rain}\n"
        "actions:\n  take_pair:\n    condition: supply[gold] >= 1 and supply[colour] >= pair_minimum\n"
        '    effects:\n      - "for c in gems: take(gold, 1)"\n'
        '      - "for c in gems: if supply[c] >= 1: take(c, 1)"\n',
        encoding="utf-8",
    )
    source = pipeline.compile_spec(str(spec)).text
    pair = source[source.index("def _do_take_pair") : source.index("def _why_take_pair")]
    assert pair.count('"short_supply"') == 5  # the gold of each pass is tested; each colour's `if` speaks for it


def test_the_payment_step_is_written_with_the_specs_wild_colour(tmp_path):
    clean = (ROOT / "tests" / "broken" / "_clean.yaml").read_text(encoding="utf-8")
    spec = tmp_path / "jokers.yaml"
    text = clean.replace("../../rulespec/", f"{pathlib.Path(os.path.relpath(ROOT / 'rulespec', tmp_path)).as_posix()}/")
    text = text.replace("wild: gold", "wild: joker").replace("[gold]", "[joker]").replace("take(gold", "take(joker")
    spec.write_text(text, encoding="utf-8")  # (the player-count table's `gold` is the key of the wild's count)
    engine_path = tmp_path / "jokers.py"
    engine_path.write_text(pipeline.compile_spec(str(spec)).text, encoding="utf-8")
    engine = load_engine(engine_path)
    assert engine.WILD == "joker"
    assert "pay without joker" in engine.ACTION_STRINGS and "pay joker for red" in engine.ACTION_STRINGS
    with pytest.raises(
        engine.NotationError,
        match=r"pay is written 'pay joker for GEMS', where GEMS is the gem "
        r"colour each joker token stands for",
    ):
        engine.string_to_action("pay gold for red")
