"""Queued steps (issue 28, item 4): a step with `given:` run when `queue(STEP, name: value)` queues
it, from the spec to the diagnostics, the engine (a chain of free cards resolved in order, each
choice a decision), a saved game, the sheet and `diff`, on tests/specs/queue.yaml and on small specs
written here from the catalogue's clean base."""

from __future__ import annotations

import json
import pathlib
import shutil

import pytest

from compiler import diff, pipeline
from compiler.diagnostics import CompileError, SourceMap
from playtest.simulate.game import play_game
from tests.helpers import ROOT
from tests.helpers.engines import (
    act,
    buys_of,
    find_cards,
    legal_strings,
    load,
    load_engine,
    pay_for,
    position,
    put_in_market,
)
from tests.helpers.sheets import phrase_text

SPEC = ROOT / "tests" / "specs" / "queue.yaml"
CLEAN = (ROOT / "tests" / "broken" / "_clean.yaml").read_text(encoding="utf-8").replace("../../rulespec/", "")
STEP = (
    "  free_card:\n    title: Take a free card\n    notation: free {card}\n    given: {level: number}\n"
    "    choose:\n      card: {domain: face_up}\n    condition: card.level == level\n"
    '    effects: ["acquire(card)", "refill(card)"]\n'
)
STEPS_END = "      - visit(noble)\nend:\n"
BUY = "      - acquire(card)\n      - refill(card)\n"


@pytest.fixture(scope="module")
def E(tmp_path_factory):
    path = tmp_path_factory.mktemp("queue") / "queue.py"
    path.write_text(pipeline.compile_spec(str(SPEC)).text, encoding="utf-8")
    return load_engine(path)


@pytest.fixture
def folder(tmp_path: pathlib.Path) -> pathlib.Path:
    for name in ("splendor_cards.csv", "splendor_nobles.csv"):
        shutil.copy(ROOT / "rulespec" / name, tmp_path / name)
    return tmp_path


def found(folder: pathlib.Path, *changes: tuple[str, str], step: str = STEP, extra: str = "") -> list[tuple[str, str]]:
    """(code, the text under the caret) of each diagnostic of the clean spec with the step `step` added
    after the noble visit, `changes` made and `extra` appended; [] when it is clean."""
    text = CLEAN.replace(STEPS_END, "      - visit(noble)\n" + step + "end:\n")
    for old, new in changes:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    (folder / "spec.yaml").write_text(text + extra, encoding="utf-8")
    lines = (text + extra).split("\n")
    try:
        pipeline.load_rules(str(folder / "spec.yaml"), SourceMap())
    except CompileError as err:
        return [(d.code, lines[d.span.line - 1][d.span.col - 1 : d.span.end_col - 1]) for d in err.diagnostics]
    return []


def queues(effect: str) -> tuple[str, str]:
    """The change that makes the purchase of a face-up card end with `effect`."""
    return (BUY, f'{BUY}      - "{effect}"\n')


# -- spec -> diagnostics


def test_a_queue_of_a_queued_step_checks(folder):
    assert found(folder, queues("queue(free_card, level: card.level)")) == []


@pytest.mark.parametrize(
    "effect, expected",
    [
        ("queue(free_crad, level: 1)", [("E576", "free_crad")]),
        ("queue(noble_visit, level: 1)", [("E576", "noble_visit")]),
        ("queue(free_card, levels: 1)", [("E576", "queue(free_card, levels: 1)"), ("E576", "1")]),
        ("queue(free_card)", [("E576", "queue(free_card)")]),
        ("queue(free_card, level: red)", [("E410", "red")]),
        ("take(red, n: 1)", [("E408", "take(red, n: 1)")]),
    ],
)
def test_a_queue_names_a_queued_step_and_gives_it_its_values(folder, effect, expected):
    assert sorted(found(folder, queues(effect))) == sorted(expected)


def test_a_named_argument_comes_last(folder):
    assert [code for code, _ in found(folder, queues("queue(level: 1, free_card)"))] == ["E203"]


def test_a_queue_in_setup_is_refused(folder):
    extra = 'setup:\n  early:\n    title: Early\n    each_player: true\n    effects: ["queue(free_card, level: 1)"]\n'
    assert found(folder, extra=extra) == [("E576", "queue(free_card, level: 1)")]


def test_a_step_that_queues_itself_needs_a_limit(folder):
    chained = STEP.replace('"acquire(card)"', '"acquire(card)", "if level >= 2: queue(free_card, level: level - 1)"')
    assert found(folder, step=chained) == [("E577", "queue(free_card, level: level - 1)")]
    assert found(folder, step=chained.replace("    given:", "    limit: 2\n    given:")) == []
    assert [code for code, _ in found(folder, step=chained.replace("    given:", "    limit: 0\n    given:"))] == [
        "E108"
    ]
    every_turn = ("      noble: {domain: noble}\n", "      noble: {domain: noble}\n    limit: 2\n")
    assert found(folder, every_turn) == [("E577", "2")]  # a limit is a queued step's


def test_a_chain_through_another_step_needs_a_limit_too(folder):
    other = STEP.replace("free_card", "bonus_card").replace("free {card}", "bonus {card}")
    ping = STEP.replace('"acquire(card)"', '"acquire(card)", "queue(bonus_card, level: level)"')
    pong = other.replace('"acquire(card)"', '"acquire(card)", "queue(free_card, level: level)"')
    assert sorted(code for code, _ in found(folder, step=ping + pong)) == ["E577", "E577"]


def test_a_card_given_to_a_queued_step_is_not_moved_by_it(folder):
    given = STEP.replace("{level: number}", "{level: number, bonus: card}").replace(
        '"acquire(card)"', '"acquire(bonus)"'
    )
    assert ("E576", "acquire(bonus)") in found(folder, step=given)


def test_given_is_for_steps_and_a_choice_cannot_hide_a_given_value(folder):
    hiding = STEP.replace(
        "      card: {domain: face_up}\n", "      card: {domain: face_up}\n      level: {domain: deck}\n"
    )
    assert ("E406", "level") in found(folder, step=hiding)


def warned(folder: pathlib.Path, *changes: tuple[str, str]) -> list[tuple[str, str, int]]:
    """(code, message, line) of each E578 `check -W` gives the clean spec with the free-card step."""
    text = CLEAN.replace(STEPS_END, "      - visit(noble)\n" + STEP + "end:\n")
    for old, new in changes:
        text = text.replace(old, new)
    (folder / "spec.yaml").write_text(text, encoding="utf-8")
    warnings = pipeline.check_spec(str(folder / "spec.yaml")).warnings
    return [(d.code, d.message, d.span.line) for d in warnings if d.code == "E578"]


def test_a_queued_step_nothing_queues_is_a_warning(folder):
    line = CLEAN.replace(STEPS_END, "      - visit(noble)\n" + STEP).split("\n").index("  free_card:") + 1
    assert warned(folder) == [
        ("E578", "step 'free_card' runs only when a queue(...) names it, and none does: it never runs", line)
    ]
    assert warned(folder, queues("queue(free_card, level: card.level)")) == []


def test_a_step_queued_through_a_procedure_is_not_warned_of():
    assert [d.code for d in pipeline.check_spec(str(SPEC)).warnings if d.code == "E578"] == []


@pytest.mark.parametrize("name", ["me", "player", "players", "white", "size"])
def test_a_given_value_cannot_hide_a_name_of_the_game(folder, name):
    """Found by the mutation tests: `given: {me: number}` checked clean, the condition typed `me` as the
    acting player, and the engine read the number given (an IndexError in play)."""
    hiding = STEP.replace("{level: number}", f"{{level: number, {name}: number}}").replace(
        "card.level == level", "card.level == level and me.held >= 0"
    )
    effect = f"queue(free_card, level: card.level, {name}: 1)"
    assert ("E406", name) in found(folder, queues(effect), step=hiding)


# -- spec -> engine


def chain_position(E, seed: int = 0) -> dict:
    """A game in which seat 0 can buy a level-3 card (in slot 1) with the tokens it holds."""
    state = position(E, 2, seed)
    card = find_cards(E, state, level=3)[0]
    put_in_market(E, state, card, 1)
    return pay_for(E, state, 0, card)


def buy_level_3(game) -> None:
    act(game, buys_of(game, "3.1")[0])


def test_a_chain_of_free_cards_resolves_in_order_each_choice_a_decision(E):
    game = load(E, chain_position(E))
    level_2 = [c for c in game.market[1] if c is not None]
    buy_level_3(game)
    assert game.phase == "free_card" and game.current_player == 0
    assert legal_strings(game) == [f"free 2.{i}" for i in range(1, 5)]  # the given level: 2
    saved = json.loads(game.to_json())
    assert saved["queued"] == [{"step": "free_card", "chain": 1, "given": {"level": 2}}]
    act(game, "free 2.3")
    assert level_2[2] in game.purchased[0]
    assert game.phase == "free_card" and legal_strings(game) == [f"free 1.{i}" for i in range(1, 5)]
    assert json.loads(game.to_json())["queued"] == [{"step": "free_card", "chain": 2, "given": {"level": 1}}]
    act(game, "free 1.1")
    assert game.phase == "action" and game.current_player == 1 and json.loads(game.to_json())["queued"] == []
    assert len(game.purchased[0]) == 3


def test_a_queue_beyond_the_limit_does_nothing(tmp_path):
    shutil.copy(SPEC, tmp_path / "queue.yaml")
    short = tmp_path / "short.yaml"
    short.write_text(
        "spec: 1\nname: short\nextends: queue.yaml\ntitle: {en: S, fr: S, nl: S, sr: S}\n"
        "end_of_turn:\n  free_card: {limit: 1}\n",
        encoding="utf-8",
    )
    (tmp_path / "short.py").write_text(pipeline.compile_spec(str(short)).text, encoding="utf-8")
    S = load_engine(tmp_path / "short.py")
    game = load(S, chain_position(S))
    buy_level_3(game)
    act(game, "free 2.1")  # the level-2 card would queue a level-1 one: a chain of 2, beyond the limit
    assert game.phase == "action" and game.current_player == 1 and len(game.purchased[0]) == 2


def test_what_an_action_queues_runs_before_the_end_of_turn_steps(E):
    """The free card is asked for right after the purchase that gave it: the queue runs before the first
    end-of-turn step (`queued_at` 0), so the token limit and the noble visit come after it."""
    state = chain_position(E)
    game = load(E, state)
    buy_level_3(game)
    saved = json.loads(game.to_json())
    assert saved["phase"] == "free_card" and saved["queued_at"] == 0  # before the first end-of-turn step
    assert saved["nobles"] == state["nobles"]  # no noble visit yet


def test_a_saved_game_resumes_the_chain_and_replays(E):
    game = load(E, chain_position(E))
    buy_level_3(game)
    again = E.from_json(game.to_json())
    assert again.phase == "free_card" and again.legal_actions() == game.legal_actions()
    for g in (game, again):
        act(g, "free 2.1")
    assert again.to_json() == game.to_json()
    assert E.replay(game.record()).to_json() == game.to_json()


@pytest.mark.parametrize(
    "queued, where",
    [
        ("free", "'queued' must be a list"),
        ([{"step": "free_cards", "chain": 1, "given": {"level": 2}}], "queued[0] names no queued step"),
        (
            [{"step": "free_card", "chain": 3, "given": {"level": 2}}],
            "queued[0].chain must be a whole number from 1 to 2",
        ),
        ([{"step": "free_card", "chain": 1, "given": {"lvl": 2}}], "queued[0].given must give step 'free_card'"),
        ([{"step": "free_card", "chain": 1, "given": {"level": "2"}}], "queued[0].given.level must be a whole number"),
        ([], "in step 'free_card', which runs when queued, 'queued' must begin with it"),
        ("at 9", "'queued_at' must be a step's position, from 0 to 3, not 9"),
    ],
)
def test_a_corrupt_saved_queue_is_refused_where_it_is_wrong(E, queued, where):
    game = load(E, chain_position(E))
    buy_level_3(game)
    state = json.loads(game.to_json())
    if queued == "at 9":
        state["queued_at"] = 9
    else:
        state["queued"] = queued
    with pytest.raises(ValueError, match="queued") as err:
        E.from_json(json.dumps(state))
    assert where in str(err.value)


def test_random_and_greedy_bots_play_a_game(E):
    result = play_game(E, 2, ("random", "greedy"), seed=5)
    assert result.rounds >= 1


# -- spec -> sheet and diff


@pytest.mark.parametrize(
    "lang, said",
    [
        ("en", "then resolve “take a free card” (level: the level of the card minus 1)"),
        ("fr", "puis résolvez « prenez une carte offerte » (level: le niveau de la carte moins 1)"),
        ("nl", "handel daarna ‘neem een gratis kaart’ af (level: het niveau van de kaart min 1)"),
        ("sr", "затим разрешите „узмите бесплатну карту“ (level: ниво карте минус 1)"),
    ],
)
def test_the_sheet_says_the_queue_and_the_queued_step(lang, said):
    text = phrase_text(str(SPEC), lang).lower()
    assert said in text


def test_diff_lists_what_a_queued_step_is_given_and_what_a_procedure_does():
    base = pipeline.load_rules(str(ROOT / "rulespec" / "official.yaml"))
    rules = pipeline.load_rules(str(SPEC))
    text = diff.render(diff.compare(base, rules), base, rules, "en")
    assert "given when queued: level: number" in text and "longest chain a turn: 2" in text
    assert "does: put the card in front of you" in text and "means:" not in text
    assert "how often it runs: once each time it is queued" in text and "at most once a turn" not in text


# -- a queued step given a component of the spec's own kind (tests/specs/city-gifts.yaml)

GIFTS = ROOT / "tests" / "specs" / "city-gifts.yaml"


@pytest.fixture(scope="module")
def G(tmp_path_factory):
    path = tmp_path_factory.mktemp("gifts") / "city_gifts.py"
    path.write_text(pipeline.compile_spec(str(GIFTS)).text, encoding="utf-8")
    return load_engine(path)


def gift_position(G):
    """The first gift of a greedy game (seed 8: a city claimed on move 50), and the city claimed."""
    from playtest.bots.registry import make_bot

    game = G.new_game(2, seed=8)
    bots = [make_bot("greedy", G, seed=8 + k) for k in range(2)]
    while game.phase != "gift":
        assert not game.is_over()
        game.apply(bots[game.current_player].choose(game))
    return game


def test_a_step_may_be_given_a_component_of_a_kind_of_the_spec(folder):
    kinds = "given: {city: towns}\n    choose:"
    text = (GIFTS.read_text(encoding="utf-8")).replace("given: {city: cities}\n    choose:", kinds)
    shutil.copy(ROOT / "variants" / "cities.yaml", folder / "cities.yaml")
    shutil.copy(ROOT / "variants" / "cities.csv", folder / "cities.csv")
    (folder / "gifts.yaml").write_text(text.replace("../../variants/cities.yaml", "cities.yaml"), encoding="utf-8")
    with pytest.raises(CompileError) as err:
        pipeline.load_rules(str(folder / "gifts.yaml"), SourceMap())
    said = [(d.code, d.message) for d in err.value.diagnostics]  # the queue(...) giving it is refused too
    assert (
        "E106",
        "'city' given to step 'gift' must have a type: one of number, flag, gem, colour, player, card, noble, "
        "cards, nobles, cities",
    ) in said


def test_the_city_given_is_the_city_claimed_and_chooses_the_gift(G):
    game = gift_position(G)
    (entry,) = json.loads(game.to_json())["queued"]
    city = entry["given"]["city"]
    assert entry == {"step": "gift", "chain": 1, "given": {"city": city}}
    state = json.loads(game.to_json())
    assert city in state["seats"][game.current_player]["zones"]["claimed"]
    requires = G.KINDS["cities"].rows[city][3]
    wanted = [f"gift {c}" for c, n in zip(G.COLOURS, requires, strict=False) if n >= 1 and state["supply"][c] >= 1]
    assert legal_strings(game) == wanted and wanted
    again = G.from_json(game.to_json())
    assert legal_strings(again) == wanted
    act(game, wanted[-1])
    assert game.phase != "gift" and json.loads(game.to_json())["queued"] == []


def test_a_saved_gift_of_no_city_is_refused(G):
    state = json.loads(gift_position(G).to_json())
    state["queued"][0]["given"]["city"] = 14
    with pytest.raises(ValueError) as err:
        G.from_json(json.dumps(state))
    assert "queued[0].given.city must be a component of cities from 0 to 13, not 14" in str(err.value)


@pytest.mark.parametrize(
    "lang, said",
    [
        ("en", "the “bonuses needed” of the given city for the chosen colour is at least 1"),
        ("fr", "le nombre « bonus exigés » de la cité reçue pour la couleur choisie atteint au moins 1"),
        ("nl", "het getal ‘vereiste bonussen’ van de meegegeven stad voor de gekozen kleur minstens 1 is"),
        ("sr", "број „потребни бонуси“ датог града за изабрану боју износи најмање 1"),
    ],
)
def test_the_sheet_says_the_given_city(lang, said):
    assert said in phrase_text(str(GIFTS), lang)


def test_greedy_bots_play_a_game_of_gifts_to_its_end(G):
    result = play_game(G, 2, ("greedy", "greedy"), seed=8)  # the greedy game above: a city and its gift
    assert result.over and result.winners and dict(result.uses).get("gift", 0) >= 1
