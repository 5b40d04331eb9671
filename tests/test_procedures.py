"""Procedures (issue 28, item 4): definitions with a body of effects (`do:`), called as an effect,
from the spec to the diagnostics, the engine, the sheet, `diff` and a simulated game, on
tests/specs/procedures.yaml ("whenever you gain a card, collect its reward", written once) and on
small specs written here from the catalogue's clean base."""

from __future__ import annotations

import pathlib
import shutil

import pytest

from compiler import diff, pipeline
from compiler.diagnostics import CompileError, SourceMap
from playtest.simulate.game import play_game
from tests.helpers import ROOT
from tests.helpers.engines import act, buys_of, find_cards, load, load_engine, pay_for, position, put_in_market
from tests.helpers.sheets import phrase_text

SPEC = ROOT / "tests" / "specs" / "procedures.yaml"
CLEAN = (ROOT / "tests" / "broken" / "_clean.yaml").read_text(encoding="utf-8").replace("../../rulespec/", "")
GAIN = 'define:\n  gain:\n    title: "gain {card}"\n    params: {card: card}\n    do: ["acquire(card)"]\n'
BUY = "      - acquire(card)\n      - refill(card)\n"


@pytest.fixture(scope="module")
def E(tmp_path_factory):
    path = tmp_path_factory.mktemp("procedures") / "procedures.py"
    path.write_text(pipeline.compile_spec(str(SPEC)).text, encoding="utf-8")
    return load_engine(path)


@pytest.fixture
def folder(tmp_path: pathlib.Path) -> pathlib.Path:
    for name in ("splendor_cards.csv", "splendor_nobles.csv"):
        shutil.copy(ROOT / "rulespec" / name, tmp_path / name)
    return tmp_path


def found(folder: pathlib.Path, extra: str, *changes: tuple[str, str]) -> list[tuple[str, int, str, str]]:
    """The diagnostics of the clean spec with `extra` appended and `changes` made: (code, line, the text
    under the caret, message); [] when it is clean."""
    text = CLEAN
    for old, new in changes:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    (folder / "spec.yaml").write_text(text + extra, encoding="utf-8")
    lines = (text + extra).split("\n")
    try:
        pipeline.load_rules(str(folder / "spec.yaml"), SourceMap())
    except CompileError as err:
        return [
            (d.code, d.span.line, lines[d.span.line - 1][d.span.col - 1 : d.span.end_col - 1], d.message)
            for d in err.diagnostics
        ]
    return []


# -- spec -> diagnostics


def test_a_clean_call_checks(folder):
    assert found(folder, GAIN, (BUY, "      - gain(card)\n      - refill(card)\n")) == []


def test_a_procedure_calling_itself_is_refused_at_the_call(folder):
    extra = 'define:\n  gain:\n    title: "gain {card}"\n    params: {card: card}\n    do: ["gain(card)"]\n'
    assert found(folder, extra) == [
        (
            "E550",
            105,
            "gain(card)",
            "procedure 'gain' calls itself: a procedure is written out where it is called, so it cannot be recursive",
        )
    ]


def test_a_procedure_in_an_expression_and_a_value_as_an_effect_are_refused(folder):
    value = 'define:\n  rich:\n    title: "{p} is rich"\n    params: {p: player}\n    is: "p.held >= 5"\n'
    got = found(folder, value, (BUY, "      - acquire(card)\n      - rich(me)\n"))
    assert [(code, caret) for code, _, caret, _ in got] == [("E572", "rich(me)")]
    assert "a definition of a value (with 'is:'), not of effects" in got[0][3]
    got = found(folder, GAIN, ("    condition: me.reserved < reserve_limit\n", "    condition: gain(me)\n"))
    assert [(code, caret) for code, _, caret, _ in got] == [("E572", "gain(me)")]
    assert "it has effects and gives no value" in got[0][3]


def test_a_call_is_typed_by_its_arguments(folder):
    got = found(folder, GAIN, (BUY, "      - gain(card, 2)\n      - refill(card)\n"))
    assert [(code, caret) for code, _, caret, _ in got] == [("E408", "gain(card, 2)")]
    got = found(folder, GAIN, (BUY, "      - gain(2)\n      - refill(card)\n"))
    assert [(code, caret, message) for code, _, caret, message in got] == [
        ("E410", "2", "argument 'card' of 'gain' must be a card, but this is a number")
    ]


def test_a_body_with_an_error_is_reported_once_where_it_is_written(folder):
    broken = GAIN.replace('"acquire(card)"', '"acquire(card)", "take(card, 1)"')
    calls = "      - gain(card)\n      - refill(card)\n"
    reserved = "      - pay(payment)\n      - gain(card)\n"
    got = found(folder, broken, (BUY, calls), ("      - pay(payment)\n      - acquire(card)\n", reserved))
    assert [(code, line) for code, line, _, _ in got] == [("E410", 105)]


def test_the_flows_see_through_a_call(folder):
    got = found(folder, GAIN, (BUY, "      - gain(card)\n      - acquire(card)\n      - refill(card)\n"))
    assert [code for code, *_ in got] == ["E510"]


def test_a_procedure_reading_me_is_refused_in_a_setup_block_run_once(folder):
    extra = (
        'define:\n  tip:\n    title: "tip"\n    do: ["if me.held < 10: set(pot, 1)"]\n'
        "state:\n  pot: {title: Pot, type: number, initial: 0}\n"
        'setup:\n  once:\n    title: Once\n    effects: ["tip()"]\n'
    )
    got = found(folder, extra)
    assert [(code, caret) for code, _, caret, _ in got] == [("E552", "tip()")]


@pytest.mark.parametrize(
    "entry, code",
    [
        ('    is: "1"\n    do: ["take(gold, 1)"]\n', "E111"),
        ("    params: {}\n", "E102"),
    ],
)
def test_a_definition_is_a_value_or_effects(folder, entry, code):
    extra = 'define:\n  both:\n    title: "both"\n' + entry
    assert [c for c, *_ in found(folder, extra)] == [code]


# -- spec -> engine


@pytest.mark.parametrize("level, reward", [(1, 0), (2, 1)])
def test_gaining_a_card_collects_its_reward_from_level_2(E, level, reward):
    state = position(E, 2)
    card = find_cards(E, state, level=level)[0]
    put_in_market(E, state, card, 1)
    pay_for(E, state, 0, card)
    game = load(E, state)
    wild = list(E.COLOURS).index(E.WILD)
    gold, supply = game.tokens[0][wild], game.supply[wild]
    assert f"buy {level}.1" in buys_of(game, f"{level}.1")  # paid without gold
    act(game, f"buy {level}.1")
    assert card in game.purchased[0]
    assert (game.tokens[0][wild], game.supply[wild]) == (gold + reward, supply - reward)


def test_setup_calls_procedures_each_with_its_own_loop_variable(E):
    game = E.new_game(2, seed=3)
    red = list(E.COLOURS).index("red")
    for seat in range(2):
        assert game.tokens[seat][:5] == [2 if i == red else 1 for i in range(5)]


def test_random_and_greedy_bots_play_a_game(E):
    result = play_game(E, 2, ("random", "greedy"), seed=5)
    assert result.rounds >= 1


# -- spec -> sheet and diff


@pytest.mark.parametrize(
    "lang, call, explained",
    [
        (
            "en",
            "gain the chosen card",
            "to gain the card: put the card in front of you and collect the reward for the card",
        ),
        ("fr", "gagnez la carte choisie", "pour gagnez la carte : posez la carte devant vous"),
        ("nl", "verwerf de gekozen kaart", "‘verwerf de kaart’ gaat zo: leg de kaart voor je neer"),
        ("sr", "добијте изабрану карту", "„добијте карту“ значи: ставите карту испред себе"),
    ],
)
def test_the_sheet_names_a_call_by_its_title_and_explains_the_procedure(lang, call, explained):
    text = phrase_text(str(SPEC), lang).lower()
    assert call in text and explained in text


def test_diff_names_the_new_procedures_and_a_changed_body(tmp_path):
    shutil.copy(SPEC, tmp_path / "procedures.yaml")
    base = pipeline.load_rules(str(ROOT / "rulespec" / "official.yaml"))
    rules = pipeline.load_rules(str(SPEC))
    text = diff.render(diff.compare(base, rules), base, rules, "en")
    assert "gain the chosen card" in text and "collect the reward for the card" in text
    changed = tmp_path / "changed.yaml"
    changed.write_text(
        "spec: 1\nname: changed\nextends: procedures.yaml\ntitle: {en: C, fr: C, nl: C, sr: C}\n"
        'define:\n  reward: {do: ["take(gold, 1)"]}\n',
        encoding="utf-8",
    )
    rules, other = pipeline.load_rules(str(tmp_path / "procedures.yaml")), pipeline.load_rules(str(changed))
    text = diff.render(diff.compare(rules, other), rules, other, "en")
    assert "take 1 gold token" in text
    assert "Buy a face-up card" not in text  # the calls are as they were: the procedure changed, not them


# -- spec -> check and compile agree (the gate, on the test spec broken in the ways a procedure can be)

PROCEDURE_MUTATIONS = [
    ('do: ["acquire(card)", "reward(card)"]', "do: []"),
    ('do: ["acquire(card)", "reward(card)"]', 'do: "acquire(card)"'),
    ('do: ["acquire(card)", "reward(card)"]', "do: [3]"),
    ('do: ["acquire(card)", "reward(card)"]', 'do: ["acquire(card)", "gain(card)"]'),
    ('do: ["acquire(card)", "reward(card)"]', 'is: "1"\n    do: ["acquire(card)"]'),
    ('params: {card: card}\n    do: ["acquire', 'params: {card: carrd}\n    do: ["acquire'),
    ('"pay(payment)", "gain(card)"]', '"pay(payment)", "gain()"]'),
    ('"pay(payment)", "gain(card)"]', '"pay(payment)", "gain(payment)"]'),
    ('"take_each(1)"', '"take_each(me)"'),
    ("  take_one:", "  take:"),
    ('"gain {card}"', '"gain {cards}"'),
]


@pytest.mark.parametrize("old, new", PROCEDURE_MUTATIONS)
def test_a_broken_procedure_is_refused_by_check_and_compile_alike(tmp_path, old, new):
    text = SPEC.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path = tmp_path / "mutant.yaml"
    path.write_text(text.replace(old, new), encoding="utf-8")
    try:
        pipeline.load_rules(str(path))
    except CompileError as checked:
        with pytest.raises(CompileError) as compiled:
            pipeline.compile_spec(str(path))
        assert sorted(d.code for d in compiled.value.diagnostics) == sorted(d.code for d in checked.diagnostics)
        assert all(d.span is not None for d in checked.diagnostics)  # every one located
    else:
        assert "def _do_buy_face_up" in pipeline.compile_spec(str(path)).text


def test_a_component_moved_again_through_a_call_is_refused_in_the_body(tmp_path):
    broken = ROOT / "tests" / "broken"
    shutil.copy(broken / "cities.csv", tmp_path / "cities.csv")
    text = (broken / "component_moved_twice.yaml").read_text(encoding="utf-8").replace("../../rulespec/", "")
    for name in ("splendor_cards.csv", "splendor_nobles.csv"):
        shutil.copy(ROOT / "rulespec" / name, tmp_path / name)
    old = '"discard(city)"]'
    assert text.count(old) == 1
    text = (
        text.replace(old, '"lose(city)"]')
        + 'define:\n  lose:\n    title: "lose {c}"\n    params: {c: cities}\n    do: ["discard(c)"]\n'
    )
    (tmp_path / "spec.yaml").write_text(text, encoding="utf-8")
    with pytest.raises(CompileError) as err:
        pipeline.load_rules(str(tmp_path / "spec.yaml"))
    [d] = err.value.diagnostics
    assert (d.code, d.span.line) == ("E547", text.count("\n"))  # at discard(c), the body's last line
    assert d.message == "'discard' moves the chosen component 'city' again: 'move' already moved it (line 108)"


def test_a_flow_problem_in_a_body_names_the_call_it_is_written_out_at(folder):
    body = GAIN.replace('"acquire(card)"', '"acquire(card)", "acquire(card)"')
    text = CLEAN.replace(BUY, "      - gain(card)\n      - refill(card)\n") + body
    (folder / "spec.yaml").write_text(text, encoding="utf-8")
    call = 1 + text.split("\n").index("      - gain(card)")
    with pytest.raises(CompileError) as err:
        pipeline.load_rules(str(folder / "spec.yaml"), SourceMap())
    [moved] = err.value.diagnostics
    assert moved.code == "E510" and moved.span.line > call  # the caret in the body, where the effect is written
    assert moved.notes == (f"through the call gain(card) at {folder / 'spec.yaml'}:{call}:9",)
