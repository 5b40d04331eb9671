"""The turn (issue 28, item 3): actions that do not end the turn (`ends_turn: false`) and extra
turns (`extra_turn()`), from the spec to the diagnostics, the engine and the sheet, on the
catalogue's variants/court-favours.yaml (a favour spent for a token, then the usual action; two
favours called in to play again) and on small variants written here."""

from __future__ import annotations

import pytest

from compiler import diff, pipeline
from compiler.diagnostics import CompileError
from compiler.language import EFFECTS
from tests.helpers import ROOT
from tests.helpers.engines import load_engine
from tests.helpers.sheets import sheet_text

FAVOURS = str(ROOT / "variants" / "court-favours.yaml")


@pytest.fixture(scope="module")
def E():
    return load_engine(ROOT / "generated" / "engines" / "court_favours.py")


@pytest.fixture(scope="module")
def official():
    return load_engine(ROOT / "generated" / "engines" / "official.py")


def names(E, game) -> list[str]:
    return [E.ACTION_STRINGS[a] for a in game.legal_actions()]


def with_favours(E, game, seat: int, favours: int):
    """The same position with `favours` favours for `seat` (a saved game edited, then loaded)."""
    state = game.to_dict()
    state["seats"][seat]["vars"]["favours"] = favours
    state["start"], state["history"] = None, []
    return E.from_json(state)


def refused(tmp_path, text: str) -> list:
    path = tmp_path / "turn.yaml"
    path.write_text(
        "spec: 1\nname: turn\nextends: official\ntitle: {en: T, fr: T, nl: T, sr: T}\n" + text, encoding="utf-8"
    )
    with pytest.raises(CompileError) as err:
        pipeline.check_spec(str(path))
    return [(d.code, d.message, d.span.line if d.span else None) for d in err.value.diagnostics]


# -- spec -> diagnostics


def test_a_spec_where_no_action_ends_the_turn_is_refused_at_the_first(tmp_path):
    actions = ["take_different", "take_pair", "reserve_face_up", "reserve_blind", "buy_face_up", "buy_reserved"]
    text = "actions:\n" + "".join(f"  {a}: {{ends_turn: false}}\n" for a in actions) + "  pass: {remove: gone}\n"
    found = refused(tmp_path, text)
    assert [(code, line) for code, _, line in found] == [("E570", 6)]
    assert "no action of this spec ends the turn" in found[0][1]


def test_the_action_taken_when_stuck_must_end_the_turn(tmp_path):
    found = refused(tmp_path, "actions:\n  pass: {ends_turn: false}\n")
    assert found == [
        (
            "E570",
            "action 'pass' is taken only when stuck, so it must end the turn: a player with "
            "nothing else to do would be asked again",
            6,
        )
    ]


def test_extra_turn_in_setup_is_refused(tmp_path):
    text = 'setup:\n  again:\n    add: true\n    title: {en: A}\n    each_player: true\n    effects: ["extra_turn()"]\n'
    found = refused(tmp_path, text)
    assert [(code, line) for code, _, line in found] == [("E571", 10)]
    assert "gives a turn, and setup is played before any turn" in found[0][1]


def test_ends_turn_is_a_key_of_actions_not_of_steps(tmp_path):
    found = refused(tmp_path, "end_of_turn:\n  noble_visit: {ends_turn: false}\n")
    assert [code for code, _, _ in found] == ["E101"]


def test_extra_turn_is_declared_once_as_an_effect_that_gives_a_turn():
    decl = EFFECTS["extra_turn"]
    assert (decl.params, decl.gives_turn, decl.lowering, decl.phrase) == ((), True, "extra_turn", "eff.extra_turn")


# -- spec -> engine


def test_a_favour_then_the_main_action_in_one_turn(E):
    game = E.new_game(2, seed=3)
    game.apply(E.string_to_action("favour red"))
    assert (game.current_player, game.phase, game.turn) == (0, "action", 1)
    assert game.tokens[0][E.COLOURS.index("red")] == 1 and game.to_dict()["seats"][0]["vars"]["favours"] == 2
    assert not any(n.startswith("favour") for n in names(E, game))  # once a turn
    with pytest.raises(E.IllegalAction, match="taken once this turn already"):
        game.apply(E.string_to_action("favour blue"))
    game.apply(E.string_to_action("take white blue green"))
    assert (game.current_player, game.turn, game.to_dict()["taken"]) == (1, 2, [])
    assert any(n.startswith("favour") for n in names(E, game))  # a new turn: the favour again


def test_a_free_action_is_saved_with_the_turn_and_loads_back(E):
    game = E.new_game(3, seed=5)
    game.apply(E.string_to_action("favour green"))
    state = game.to_json()
    again = E.from_json(state)
    assert again.to_json() == state and again.legal_actions() == game.legal_actions()
    broken = game.to_dict() | {"taken": ["take_pair"]}
    with pytest.raises(E.StateError, match="'taken' must list actions that do not end the turn"):
        E.from_json(broken)


def test_an_extra_turn_comes_after_the_steps_in_the_same_round(E):
    game = E.new_game(2, seed=3)
    game.apply(E.string_to_action("again"))
    assert (game.current_player, game.to_dict()["extra_turn"]) == (0, "owed")
    game.apply(E.string_to_action("take white blue green"))
    assert (game.current_player, game.round, game.turn, game.turns) == (0, 1, 2, [2, 0])
    assert game.to_dict()["extra_turn"] == "playing"
    game.apply(E.string_to_action("take white blue red"))
    assert (game.current_player, game.round, game.turn, game.turns) == (1, 1, 3, [2, 1])
    assert game.to_dict()["extra_turn"] == "none"


def test_extra_turns_never_chain(E):
    game = with_favours(E, E.new_game(2, seed=3), 0, 9)
    game.apply(E.string_to_action("again"))
    game.apply(E.string_to_action("take white blue green"))
    game.apply(E.string_to_action("again"))  # in the extra turn: spends the favours, gives nothing
    assert game.to_dict()["extra_turn"] == "playing"
    game.apply(E.string_to_action("take white blue red"))
    assert game.current_player == 1


def test_no_extra_turn_once_the_game_s_end_is_due(E):
    game = E.new_game(2, seed=3)
    state = game.to_dict() | {
        "current_player": 1,
        "start": None,
        "history": [],
        "ending": {"trigger": E.TRIGGERS[0][0], "finish": E.TRIGGERS[0][1], "last_seat": 1},
    }
    state["seats"][1]["turns"] = 1
    game = E.from_json(state)
    game.apply(E.string_to_action("again"))
    game.apply(E.string_to_action("take white blue green"))
    assert game.is_over() and game.end_reason == E.TRIGGERS[0][0]


def test_random_games_of_the_variant_end_and_replay(E):
    import random

    for seed in range(12):
        game = E.new_game(2 + seed % 3, seed=seed)
        game.playout(random.Random(seed))
        assert game.is_over()
        assert E.replay(game.record()).to_json() == game.to_json()


def test_the_official_engine_saves_no_turn_fields_and_refuses_them(official):
    game = official.new_game(2, seed=1)
    assert "taken" not in game.to_dict() and "extra_turn" not in game.to_dict()
    with pytest.raises(official.StateError, match="'extra_turn' must be 'none'"):
        official.from_json(game.to_dict() | {"extra_turn": "owed"})


# -- spec -> sheet text, diff


@pytest.mark.parametrize(
    "lang, free, again",
    [
        ("en", "this does not end your turn", "play another turn after this one"),
        ("fr", "cela ne termine pas votre tour", "jouez un autre tour après celui-ci"),
        ("nl", "hiermee eindigt je beurt niet", "speel na deze beurt nog een beurt"),
        ("sr", "тиме се ваш потез не завршава", "после овог потеза одиграјте још један потез"),
    ],
)
def test_the_sheet_says_which_actions_keep_the_turn_and_give_another(lang, free, again):
    text = sheet_text(FAVOURS, lang).lower()
    assert free in text and again in text


def test_diff_names_an_action_that_no_longer_ends_the_turn(tmp_path):
    path = tmp_path / "free-reserve.yaml"
    path.write_text(
        "spec: 1\nname: free-reserve\nextends: official\ntitle: {en: F, fr: F, nl: F, sr: F}\n"
        "actions:\n  reserve_blind: {ends_turn: false}\n",
        encoding="utf-8",
    )
    base, variant = pipeline.load_rules(str(ROOT / "rulespec" / "official.yaml")), pipeline.load_rules(str(path))
    text = diff.render(diff.compare(base, variant), base, variant, "en")
    assert "ends the turn" in text


# -- an action required when nothing else is possible (only_when_stuck with choices and a condition)

FORCED = """\
spec: 1
name: forced-return
extends: official
title: {en: F, fr: F, nl: F, sr: F}
actions:
  pass:
    title: {en: Return a token, fr: Rendre un jeton, nl: Een fiche terug, sr: Вратити жетон}
    notation: forced {colour}
    choose:
      colour: {domain: colour, add: true}
    condition: me.tokens[colour] >= 1
    effects: ["put_back(colour, 1)"]
"""


@pytest.fixture(scope="module")
def forced(tmp_path_factory):
    folder = tmp_path_factory.mktemp("forced")
    (folder / "forced-return.yaml").write_text(FORCED, encoding="utf-8")
    (folder / "forced_return.py").write_text(
        pipeline.compile_spec(str(folder / "forced-return.yaml")).text, encoding="utf-8"
    )
    return str(folder / "forced-return.yaml"), load_engine(folder / "forced_return.py")


def test_the_required_action_offers_its_legal_choices_only_when_nothing_else_is(forced):
    _, F = forced
    game = F.new_game(2, seed=4)
    game.apply(F.string_to_action("take white blue green"))
    game.apply(F.string_to_action("take white blue red"))
    assert not any(n.startswith("forced") for n in names(F, game))  # other actions are legal
    with pytest.raises(F.IllegalAction, match="allowed only when no other action is"):
        game.apply(F.string_to_action("forced white"))
    out: list[int] = []
    F._LEGAL[F._STUCK](game, out)  # what the player must choose from once stuck: the colours held
    assert [F.ACTION_STRINGS[a] for a in out] == ["forced white", "forced blue", "forced green"]


def test_the_sheet_says_when_the_required_action_is_taken(forced):
    text = sheet_text(forced[0], "en").lower()
    assert "you may do this only when you cannot do any other action" in text


# -- the RL observation


def test_the_rl_vector_shows_the_actions_taken_and_the_extra_turn(E):
    from playtest.rl import Encoder

    enc = Encoder(E, 2)
    fields = {f.name: f for f in enc.fields}

    def part(game, name):
        f = fields[name]
        return enc.encode(game.observation(0))[f.start : f.stop].tolist()

    game = E.new_game(2, seed=3)
    assert (part(game, "taken"), part(game, "extra_turn")) == ([0.0, 0.0], [1.0, 0.0, 0.0])
    game.apply(E.string_to_action("favour red"))
    game.apply(E.string_to_action("again"))
    assert (part(game, "taken"), part(game, "extra_turn")) == ([1.0, 1.0], [0.0, 1.0, 0.0])
    assert len(enc.encode(game.observation(1))) == enc.size


def test_the_rl_vector_of_an_engine_without_them_has_no_turn_fields(official):
    from playtest.rl import Encoder

    assert not {"taken", "extra_turn"} & {f.name for f in Encoder(official, 2).fields}
