"""Every step ends (compiler/check/termination.py): spec -> diagnostics (E530, E531), spec -> engine
behaviour (`max`, and the engines' step budget, the second line of defence), spec -> sheet and diff.

A `repeat: while` step whose condition never turns false held the engine in one `apply()` for
ever (issue 26, item 2): `simulate`, `play` and a web server with it. `check` now proves that
each such step ends, or the step states its bound with `max`.
"""

from __future__ import annotations

import dataclasses
import json
import pathlib
import shutil

import pytest

from compiler import pipeline
from compiler.check.termination import STEP_WORK, rounds_budget
from compiler.diagnostics import CompileError, SourceMap
from compiler.diff import compare, render
from compiler.emit.engine import compile_to_module, render_module
from compiler.lower import lower
from compiler.pipeline import load_rules
from compiler.sheets import content
from compiler.sheets import render as render_sheet
from tests.helpers.engines import ROOT, load_engine, position, set_tokens

CLEAN = (ROOT / "tests" / "broken" / "_clean.yaml").read_text(encoding="utf-8").replace("../../rulespec/", "")
RETURN_STEP = """    notation: return {colour}
    while: me.held > token_limit
    choose:
      colour: {domain: colour}
    condition: me.tokens[colour] >= 1
    effects:
      - put_back(colour, 1)
    repeat: while
"""


@pytest.fixture
def folder(tmp_path: pathlib.Path) -> pathlib.Path:
    for name in ("splendor_cards.csv", "splendor_nobles.csv"):
        shutil.copy(ROOT / "rulespec" / name, tmp_path / name)
    return tmp_path


def check(folder: pathlib.Path, step: str, extra: str = ""):
    """The rules of the clean spec with its token-limit step's body replaced by `step` (and
    `extra` appended), or the codes and messages of its diagnostics."""
    assert CLEAN.count(RETURN_STEP) == 1
    step = step if "notation:" in step else "    notation: again\n" + step
    (folder / "spec.yaml").write_text(CLEAN.replace(RETURN_STEP, step) + extra, encoding="utf-8")
    try:
        return pipeline.load_rules(str(folder / "spec.yaml"), SourceMap())
    except CompileError as err:
        return [(d.code, d.message, d.notes) for d in err.diagnostics]


def codes(result) -> list[str]:
    return [] if not isinstance(result, list) else [c for c, _, _ in result]


COUNTER = "state:\n  counter: {title: {en: Counter}, type: number, initial: 3}\n"
PER_PLAYER = "state:\n  chips: {title: {en: Chips}, type: number, per_player: true, initial: 3}\n"
DEFINITIONS = (
    "define:\n  over:\n    title: '{p} holds too many tokens'\n    params: {p: player}\n    is: p.held > token_limit\n"
)


@pytest.mark.parametrize(
    "step, extra",
    [
        (RETURN_STEP, ""),  # the official step
        (RETURN_STEP.replace("put_back(colour, 1)", "put_back(colour, 2)"), ""),
        (RETURN_STEP.replace("me.held > token_limit", "not (me.held <= token_limit)"), ""),
        (RETURN_STEP.replace("me.held > token_limit", "token_limit < me.held"), ""),
        (RETURN_STEP.replace("me.held > token_limit", "me.held - token_limit >= 1 and turn >= 1"), ""),
        (
            RETURN_STEP.replace("me.held > token_limit", "me.held > token_limit or me.tokens[gold] > 0").replace(
                "put_back(colour, 1)", "put_back(gold, 1)"
            ),
            "",
        ),
        (RETURN_STEP.replace("me.held > token_limit", "over(me)"), DEFINITIONS),
        (
            RETURN_STEP.replace(
                "- put_back(colour, 1)", '- "if colour == gold: put_back(gold, 1) else: put_back(colour, 1)"'
            ),
            "",
        ),
        ("    while: counter > 0\n    effects:\n      - add(counter, -1)\n    repeat: while\n", COUNTER),
        ("    while: counter < 10\n    effects:\n      - add(counter, 2)\n    repeat: while\n", COUNTER),
        ("    while: me.chips >= 1\n    effects:\n      - add(me.chips, -1)\n    repeat: while\n", PER_PLAYER),
        ('    while: "false"\n    effects: []\n    repeat: while\n', ""),
        ('    while: "true"\n    effects: []\n    repeat: while\n    max: 3\n', ""),
        ('    while: "true"\n    effects: []\n    repeat: while\n    max: token_limit - 7\n', ""),
        ('    while: "true"\n    effects: []\n    repeat: while\n    max: setup.gems\n', ""),
        ('    while: "true"\n    effects: []\n    repeat: while\n    resolve: all\n', ""),  # one round: no loop
    ],
)
def test_a_step_that_ends_is_accepted(folder, step, extra):
    rules = check(folder, step, extra)
    assert not isinstance(rules, list), rules


@pytest.mark.parametrize(
    "step, extra, note",
    [
        ('    while: "true"\n    effects: []\n    repeat: while\n', "", "`true` never turns false"),
        (
            RETURN_STEP.replace("put_back(colour, 1)", "take(colour, 1)"),
            "",
            "one action of this step changes `me.held - token_limit` by +1; for the step to end it must fall by at least "
            "1 with every action",
        ),
        (
            RETURN_STEP.replace("- put_back(colour, 1)", "- put_back(colour, 1)\n      - take(gold, 1)"),
            "",
            "one action of this step changes `me.held - token_limit` by 0; for the step to end it must fall by at least "
            "1 with every action",
        ),
        (
            RETURN_STEP.replace("- put_back(colour, 1)", '- "if colour == gold: put_back(gold, 1)"'),
            "",
            "one action of this step changes `me.held - token_limit` by -1 to 0; for the step to end it must fall by "
            "at least 1 with every action",
        ),
        (
            RETURN_STEP.replace("- put_back(colour, 1)", '- "for c in gems: put_back(c, 1)"'),
            "",
            "one action of this step changes `me.held - token_limit` by -any amount to 0; for the step to end it must "
            "fall by at least 1 with every action",
        ),
        (RETURN_STEP.replace("me.held > token_limit", "me.held != 0"), "", None),
        (RETURN_STEP.replace("me.held > token_limit", "me.held > token_limit or turn >= 1"), "", None),
        (
            RETURN_STEP.replace("me.held > token_limit", "me.held > token_limit + colour_count(me)"),
            "define:\n  colour_count:\n    title: 'the colours {p} holds'\n    params: {p: player}\n"
            "    is: count(p.tokens[c] > 0 for c in gems)\n",
            None,
        ),
        (
            "    while: counter > 0\n    effects:\n      - set(counter, 5)\n    repeat: while\n",
            COUNTER,
            "one action of this step changes `counter - 0` by any amount; for the step to end it must fall by at least 1 "
            "with every action",
        ),
        (
            '    while: me.chips >= 1\n    effects:\n      - "for q in others: add(q.chips, -1)"\n    repeat: while\n',
            PER_PLAYER,
            None,
        ),
    ],
)
def test_a_step_that_may_repeat_for_ever_is_refused(folder, step, extra, note):
    result = check(folder, step, extra)
    assert codes(result) == ["E530"], result
    _, message, notes = result[0]
    assert message == (
        "step 'return_tokens' may repeat for ever: nothing shows that its actions make its 'while' condition false"
    )
    assert notes[-1].endswith("otherwise say how often the step may run a turn: `max: 3`")
    if note is not None:
        assert notes[0] == note


@pytest.mark.parametrize(
    "max_, says",
    [
        ("turn", "a step's 'max' is a number fixed for the game (numbers, values, setup, the player count)"),
        ("me.held", "a step's 'max' is a number fixed for the game (numbers, values, setup, the player count)"),
        ("0", "a step's 'max' is at least 1, but this can be 0"),
        ("token_limit - 20", "a step's 'max' is at least 1, but this can be -10"),
        ("20000", "a step's 'max' is at most 10,000, the engines' own bound"),
        (
            "9000",
            "a step's 'max' times its choices is at most 200,000 (each action finds the legal one among them all): "
            "with 30 choices this step may run at most 6,666 times a turn",
        ),
    ],
)
def test_a_max_not_fixed_or_out_of_range_is_refused(folder, max_, says):
    choices = (
        "    notation: again {level} {picked}\n"
        "    choose: {level: {domain: deck}, picked: {domain: gem_set, min: 2, max: 2}}\n"
    )
    many = max_ == "9000"  # a choice of a level and a pair of gem colours: the engine numbers its combinations
    result = check(
        folder, (choices if many else "") + f'    while: "true"\n    effects: []\n    repeat: while\n    max: {max_}\n'
    )
    assert [(c, m) for c, m, _ in result] == [("E531", says)]


def test_a_max_on_a_step_that_runs_once_is_refused(folder):
    result = check(folder, RETURN_STEP.replace("    repeat: while\n", "    repeat: once\n    max: 2\n"))
    assert [(c, m) for c, m, _ in result] == [
        ("E531", "'max' bounds a step with `repeat: while` and `resolve: choice`; this one runs at most once a turn")
    ]


# --------------------------------------------------------------------------- engines


def engine_of(folder: pathlib.Path, rules, name: str = "engine_under_test"):
    path = folder / f"{name}.py"
    path.write_text(compile_to_module(rules) if not isinstance(rules, str) else rules, encoding="utf-8")
    return load_engine(path)


def test_a_step_with_max_runs_that_many_times_a_turn(folder):
    rules = check(
        folder,
        '    while: "true"\n    effects:\n      - add(counter, 1)\n    repeat: while\n    max: 3\n',
        COUNTER.replace("initial: 3", "initial: 0"),
    )
    E = engine_of(folder, rules)
    game = E.new_game(2, seed=1)
    game.apply(game.legal_actions()[0])
    assert json.loads(game.to_json())["vars"]["counter"] == 3
    game.apply(game.legal_actions()[0])
    assert json.loads(game.to_json())["vars"]["counter"] == 6


def test_the_official_step_returns_tokens_down_to_the_limit(folder):
    E = engine_of(folder, check(folder, RETURN_STEP), "official_shape")
    game = E.from_json(json.dumps(set_tokens(position(E, 2, seed=3), 0, white=4, blue=4, green=3)))
    take = next(a for a in game.legal_actions() if E.action_to_string(a).startswith("take "))
    game.apply(take)
    while game.current_player == 0 and game.phase == "return_tokens":
        game.apply(game.legal_actions()[0])
    assert sum(json.loads(game.to_json())["seats"][0]["tokens"].values()) == 10


def test_the_step_budget_stops_a_step_check_would_refuse(folder):
    """The second line of defence: an engine made from rules that bypass the proof (here the
    `max` removed after check) stops the step with a RuleError naming it, never a hang."""
    rules = check(
        folder,
        '    while: "true"\n    effects:\n      - add(counter, 1)\n    repeat: while\n    max: 3\n',
        COUNTER.replace("initial: 3", "initial: 0"),
    )
    steps = tuple(dataclasses.replace(d, max_=None) if d.name == "return_tokens" else d for d in rules.steps)
    E = engine_of(folder, render_module(lower(dataclasses.replace(rules, steps=steps))), "unbounded")
    game = E.new_game(2, seed=1)
    with pytest.raises(E.RuleError) as caught:
        game.apply(game.legal_actions()[0])
    assert rounds_budget(1) == 10_000  # one choice: the largest `max`
    assert str(caught.value) == (
        "step 'return_tokens' was stopped after 10,000 actions in one turn: its 'while' condition did not turn false"
    )
    assert json.loads(game.to_json())["vars"]["counter"] == 10_000


def test_the_official_engine_carries_the_budget_and_no_other_step_does():
    text = (ROOT / "generated" / "engines" / "official.py").read_text(encoding="utf-8")
    budget = rounds_budget(6)  # return_tokens chooses among the 6 token colours: the largest budget, 10,000
    assert budget == 10_000 and rounds_budget(8370) == STEP_WORK // 8370 == 23
    # return_tokens (noble_visit runs once): in the hook _end_of_turn, and its body inlined into Game.apply
    assert text.count(f"if count >= {budget}:") == 2
    assert text.count(f'raise RuleError("step_budget", {{"step": "return_tokens", "count": {budget}}})') == 2


# --------------------------------------------------------------------------- sheets and diff


@pytest.mark.parametrize(
    "lang, says",
    [
        ("en", "At most 2 times a turn."),
        ("fr", "Au plus 2 fois par tour."),
        ("nl", "Hoogstens 2 keer per beurt."),
        ("sr", "Највише 2 пута по потезу."),
    ],
)
def test_max_is_phrased_on_sheets_and_in_diff(folder, lang, says):
    rules = check(folder, RETURN_STEP.replace("    repeat: while\n", "    repeat: while\n    max: 2\n"))
    base = load_rules(str(ROOT / "tests" / "broken" / "_clean.yaml"))
    text = render_sheet.markdown(content.build(rules, lang, None), rules)
    assert says in text
    if lang == "en":
        said = render(compare(base, rules), base, rules)
        assert "most actions a turn\n      before: none" in said and "after: 2" in said


def test_a_number_the_rules_square_every_turn_stops_with_a_rule_error_not_a_huge_state(folder):
    """No loop, yet no end: `set(counter, counter * counter + 2)` each turn passes 4,300 digits (what
    a saved game can write) within a dozen turns; the engine stops at 10**12 with a RuleError
    naming the effect, and its state still saves."""
    rules = check(
        folder, '    notation: square\n    effects:\n      - "set(counter, counter * counter + 2)"\n', COUNTER
    )
    E = engine_of(folder, rules, "squares")
    game = E.new_game(2, seed=1)
    with pytest.raises(E.RuleError) as caught:
        for _ in range(40):
            game.apply(game.legal_actions()[0])
    assert str(caught.value).startswith("set(counter, counter * counter + 2) (")
    assert str(caught.value).endswith("): the number passed 1,000,000,000,000 (either sign)")
    assert json.loads(game.to_json())  # the last state it reached still saves
