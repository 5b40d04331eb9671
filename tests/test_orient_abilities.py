"""The Orient's abilities as general constructs of the language (issue 28), on
tests/specs/orient-abilities.yaml: the base cards with an ability column.

A satchel is a card whose bonus colour is set in play: a variable keyed by card with
`bonus_colour: true` holds it, and `me.bonus` counts each purchased card in its colour in play. A
noble card keeps a face-up noble aside in a per-player holding of the base nobles (a holding of the
spec's own, no place of the base game), which the visit step reads beside the noble row.

Spec -> diagnostics (a `bonus_colour` variable of another type, per player, not optional, or a
second one: E544 at the key), spec -> engine behaviour (the satchel's bonus in the colour of the
card it is attached under, counted as it comes and goes, in prices, saved and loaded, in the
observation; bought only with a card to go under; a noble kept aside, saved and loaded, received by
its keeper only), and spec -> sheet and diff text."""

from __future__ import annotations

import json
import pathlib
import random
import shutil

import pytest
from click.testing import CliRunner

from app import cli
from compiler import pipeline
from compiler.diagnostics import CompileError, SourceMap
from compiler.emit import counted
from compiler.emit.runtime import engine_text
from tests.helpers.engines import (
    ROOT,
    finish_forced_steps,
    give_card,
    give_tokens,
    legal_strings,
    load,
    load_engine,
    position,
    put_in_market,
)

SPECS = ROOT / "tests" / "specs"
SPEC = SPECS / "orient-abilities.yaml"
CLEAN = (ROOT / "tests" / "broken" / "_clean.yaml").read_text(encoding="utf-8").replace("../../rulespec/", "")
COLOUR = "state:\n  tint: {title: Tint, type: gem, optional: true, by: cards, bonus_colour: true}\n"


@pytest.fixture(scope="module")
def E(tmp_path_factory):
    path = tmp_path_factory.mktemp("orient") / "orient_abilities.py"
    path.write_text(pipeline.compile_spec(str(SPEC)).text, encoding="utf-8")
    return load_engine(path)


def _ids(E, ability: str) -> list[int]:
    return [c.id for c in E.CARDS if c.ability == ability]


def _gems(E) -> list[str]:
    return list(E.GEMS)


# --------------------------------------------------------------------------- spec -> diagnostics


def _diagnostics(folder: pathlib.Path, extra: str) -> list[tuple[str, int, str, str]]:
    """(code, line, the text under the caret, message) of the clean spec with `extra` appended."""
    for name in ("splendor_cards.csv", "splendor_nobles.csv"):
        shutil.copy(ROOT / "rulespec" / name, folder / name)
    text = CLEAN + extra
    (folder / "spec.yaml").write_text(text, encoding="utf-8")
    lines = text.split("\n")
    try:
        pipeline.load_rules(str(folder / "spec.yaml"), SourceMap())
    except CompileError as err:
        return [
            (d.code, d.span.line, lines[d.span.line - 1][d.span.col - 1 : d.span.end_col - 1], d.message)
            for d in err.diagnostics
        ]
    return []


@pytest.mark.parametrize(
    "extra, says",
    [
        (COLOUR.replace("type: gem", "type: number").replace("optional: true, ", ""), "'type: gem' and 'by: cards'"),
        (COLOUR.replace("by: cards", "by: gem"), "'type: gem' and 'by: cards'"),
        (COLOUR.replace("optional: true, ", "initial: red, "), "'optional: true'"),
        (COLOUR.replace("type: gem,", "type: gem, per_player: true,"), "no 'per_player'"),
        (COLOUR.replace("type: gem,", "type: gem, reset: turn,"), "'reset: game'"),
        (COLOUR + COLOUR.replace("state:\n", "").replace("tint", "hue"), "a second 'bonus_colour'"),
    ],
)
def test_a_bonus_colour_that_does_not_fit_is_located(tmp_path, extra, says):
    found = _diagnostics(tmp_path, extra)
    assert len(found) == 1, found
    code, line, caret, message = found[0]
    assert (code, caret) == ("E544", "true") and says in message, found
    assert CLEAN.count("\n") < line


def test_a_bonus_colour_that_fits_is_clean(tmp_path):
    assert _diagnostics(tmp_path, COLOUR) == []


# --------------------------------------------------------------------------- spec -> engine


def _satchel_position(E, seed: int = 0) -> tuple[dict, int, int]:
    """Seat 0 owns a red card and can buy a satchel (printed another colour) shown in slot 1.1."""
    state = position(E, 2, seed)
    gems = _gems(E)
    red = next(c for c in _ids(E, "plain") if E.CARDS[c].level == 1 and E.CARDS[c].bonus == "red")
    satchel = next(c for c in _ids(E, "satchel") if E.CARDS[c].bonus != "red")
    give_card(E, state, 0, red)
    put_in_market(E, state, satchel, 1)
    cost = {g: E.CARDS[satchel].cost[i] for i, g in enumerate(gems)}
    if cost["red"]:
        cost["red"] -= 1  # the red bonus pays one
    give_tokens(state, 0, **{g: n for g, n in cost.items() if n})
    return state, red, satchel


def test_a_satchel_gives_a_bonus_of_the_colour_it_is_attached_under(E):
    state, red, satchel = _satchel_position(E)
    game = load(E, state)
    printed = E.GEMS.index(E.CARDS[satchel].bonus)
    before = list(game.bonus[0])
    game.apply(E.string_to_action("buy 1.1"))
    if game.phase == "payment":
        game.apply(game.legal_actions()[0])
    finish_forced_steps(game, 0)  # one card to go under: attached at once
    assert satchel in game.purchased[0] and game.s_attached[satchel] == E.GEMS.index("red")
    after = list(game.bonus[0])
    assert after[E.GEMS.index("red")] == before[E.GEMS.index("red")] + 1
    assert after[printed] == before[printed]
    saved = json.loads(game.to_json())
    assert saved["vars"]["attached"][satchel] == "red"
    again = E.from_json(game.to_json())
    assert again.bonus == game.bonus and again.observation(1)["vars"]["attached"][satchel] == "red"


def test_the_player_chooses_the_card_a_satchel_goes_under(E):
    state, red, satchel = _satchel_position(E)
    blue = next(c for c in _ids(E, "plain") if E.CARDS[c].level == 1 and E.CARDS[c].bonus == "blue")
    give_card(E, state, 0, blue)
    game = load(E, state)
    game.apply(E.string_to_action("buy 1.1"))
    if game.phase == "payment":
        game.apply(game.legal_actions()[0])
    assert game.phase == "attach" and legal_strings(game) == ["attach 1", "attach 2"]
    blue_before = game.bonus[0][E.GEMS.index("blue")]
    game.apply(E.string_to_action("attach 2"))
    assert game.s_attached[satchel] == E.GEMS.index("blue")
    assert game.bonus[0][E.GEMS.index("blue")] == blue_before + 1


def test_a_satchel_is_bought_only_with_a_card_to_go_under(E):
    state, red, satchel = _satchel_position(E)
    state["seats"][0]["purchased"].remove(red)
    state["decks"]["1"].append(red)
    game = load(E, state)
    assert "buy 1.1" not in legal_strings(game)


def test_bonuses_stay_counted_in_the_colours_in_play(E):
    """Random games: every seat's bonuses are its purchased cards counted in their colours in play
    (a double twice), after every move (satchels attached, cards sacrificed) and after a save and a load."""
    attached = 0
    for seed in range(4):
        game, rng = E.new_game(2, seed=seed), random.Random(seed)
        while not game.is_over() and game.turn < 60:
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])
            for seat in range(2):
                want = [0] * len(E.GEMS)
                for c in game.purchased[seat]:
                    tint = game.s_attached[c]
                    want[tint if tint is not None else E.GEMS.index(E.CARDS[c].bonus)] += E.CARDS[c].bonuses
                assert list(game.bonus[seat]) == want
        attached += sum(t is not None for t in game.s_attached)
        assert E.from_json(game.to_json()).bonus == game.bonus
    assert attached >= 1


def test_the_runtime_counts_in_the_colour_in_play_where_the_rewrite_expects_it():
    text = engine_text("zones")
    rewritten = counted.counted("zones", text, "", "s_tint")
    assert rewritten.count("game.s_tint[") == 2 * counted.SITES["zones"]
    assert counted.counted("state", engine_text("state"), "", "s_tint") == engine_text("state")


def test_a_noble_card_keeps_a_face_up_noble_aside(E):
    state = position(E, 2, 1)
    card = next(c for c in _ids(E, "noble"))
    put_in_market(E, state, card, 1)
    gems = _gems(E)
    give_tokens(state, 0, **{g: E.CARDS[card].cost[i] for i, g in enumerate(gems) if E.CARDS[card].cost[i]})
    game = load(E, state)
    row = list(game.noble_row)
    game.apply(E.string_to_action("buy 2.1"))
    if game.phase == "payment":
        game.apply(game.legal_actions()[0])
    assert game.phase == "keep_noble" and legal_strings(game) == [f"keep {i + 1}" for i in range(len(row))]
    gold = game.tokens[0][-1]
    game.apply(E.string_to_action("keep 2"))
    assert game.z_kept[0] == [row[1]] and game.noble_row == row[:1] + row[2:]
    assert game.tokens[0][-1] == gold  # no gold with it
    saved = json.loads(game.to_json())
    assert saved["seats"][0]["zones"]["kept"] == [row[1]]
    assert E.from_json(game.to_json()).z_kept == game.z_kept


def _meeting(E, state: dict, seat: int, noble: int, taken: set[int]) -> None:
    """Give `seat` plain cards (not yet `taken`) whose bonuses meet noble `noble`'s requirement."""
    for i, colour in enumerate(E.GEMS):
        need = E.NOBLES[noble].requires[i]
        cards = [c for c in _ids(E, "plain") if E.CARDS[c].bonus == colour and c not in taken][:need]
        taken.update(cards)
        give_card(E, state, seat, *cards)


def _visits(game, action: int, seat: int, noble: int) -> bool:
    """Does `action` bring `noble` to `seat`?"""
    trial = game.clone()
    trial.apply(action)
    return noble in trial.nobles[seat]


def test_a_noble_kept_aside_visits_its_keeper_only(E):
    state = position(E, 2, 2)
    noble = state["nobles"].pop(0)
    state["seats"][1]["zones"]["kept"] = [noble]
    taken: set[int] = set()
    _meeting(E, state, 0, noble, taken)
    _meeting(E, state, 1, noble, taken)
    game = load(E, state)
    game.apply(next(a for a in game.legal_actions() if E.action_to_string(a).startswith("take")))
    finish_forced_steps(game, 0)
    if game.current_player == 0 and game.phase == "noble_visit":
        assert not any(_visits(game, a, 0, noble) for a in game.legal_actions())
        game.apply(game.legal_actions()[0])
    assert noble not in game.nobles[0] and game.z_kept[1] == [noble]
    game.apply(next(a for a in game.legal_actions() if E.action_to_string(a).startswith("take")))
    if game.phase == "noble_visit":  # several visit: the one kept aside is among them
        game.apply(next(a for a in game.legal_actions() if _visits(game, a, 1, noble)))
    finish_forced_steps(game, 1)
    assert noble in game.nobles[1] and game.z_kept[1] == []


def _sacrifice_position(E, colour: str, seed: int = 3) -> tuple[dict, int]:
    """Seat 0 may buy (no tokens needed) the sacrifice card of `colour`, shown in slot 3.1."""
    state = position(E, 2, seed)
    card = next(c for c in _ids(E, "sacrifice") if E.CARDS[c].offering == colour)
    put_in_market(E, state, card, 1)
    return state, card


def _buy(E, game, text: str) -> None:
    game.apply(E.string_to_action(text))
    if game.phase == "payment":
        game.apply(game.legal_actions()[0])


def test_a_sacrifice_discards_two_bonuses_of_its_colour_satchels_first(E):
    state, card = _sacrifice_position(E, "blue")
    plain = [c for c in _ids(E, "plain") if E.CARDS[c].bonus == "blue" and E.CARDS[c].level == 1][:2]
    satchel = next(c for c in _ids(E, "satchel") if E.CARDS[c].bonus != "blue")
    give_card(E, state, 0, *plain, satchel)
    state["vars"]["attached"][satchel] = "blue"  # a satchel attached under a blue card gives blue
    game = load(E, state)
    blue = E.GEMS.index("blue")
    assert game.bonus[0][blue] == 3
    _buy(E, game, "buy 3.1")  # the satchel first: the one choice, made at once
    assert satchel not in game.purchased[0] and game.phase == "sacrifice"
    assert legal_strings(game) == ["sacrifice 1", "sacrifice 2"]  # then either blue card
    game.apply(game.legal_actions()[1])
    finish_forced_steps(game, 0)
    assert card in game.purchased[0] and game.purchased[0].count(plain[0]) == 1 and plain[1] not in game.purchased[0]
    assert game.bonus[0][blue] == 1 and E.from_json(game.to_json()).bonus == game.bonus
    assert plain[1] in json.loads(game.to_json())["out_of_play"]["1"]


def test_a_double_counts_as_two_for_a_sacrifice(E):
    double = _ids(E, "double")[0]
    colour = E.CARDS[double].bonus
    state, card = _sacrifice_position(E, colour)
    give_card(E, state, 0, double)
    game = load(E, state)
    _buy(E, game, "buy 3.1")
    finish_forced_steps(game, 0)  # one card to discard: at once, and nothing owed after it
    assert double not in game.purchased[0] and card in game.purchased[0]
    assert game.bonus[0][E.GEMS.index(colour)] == 0 and game.phase == "action" and game.current_player == 1


def test_a_sacrifice_is_bought_only_with_two_bonuses_of_its_colour(E):
    state, card = _sacrifice_position(E, "red")
    give_card(E, state, 0, next(c for c in _ids(E, "plain") if E.CARDS[c].bonus == "red"))
    game = load(E, state)
    assert "buy 3.1" not in legal_strings(game)


def test_the_saved_state_check_counts_a_kept_noble_once(E):
    """The saved-state check counts the nobles of the spec's own holdings among those in play
    (problems.py's _zoned_nobles, in every engine: none without such a holding): a kept noble
    loads; the same noble also in the row, or kept twice, is refused."""
    state = position(E, 2, 2)
    noble = state["nobles"].pop(0)
    state["seats"][1]["zones"]["kept"] = [noble]
    assert E.from_json(json.dumps(state)).z_kept[1] == [noble]
    for twice in (lambda s: s["nobles"].append(noble), lambda s: s["seats"][0]["zones"]["kept"].append(noble)):
        copy = json.loads(json.dumps(state))
        twice(copy)
        with pytest.raises(E.StateError):
            E.from_json(json.dumps(copy))


# --------------------------------------------------------------------------- spec -> sheets, diff


def _invoke(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli.main, list(args))
    return result.exit_code, result.output


def test_the_sheets_and_the_diff_say_a_colour_is_set_in_play(tmp_path):
    status, output = _invoke("sheet", str(SPEC), "--lang", "en,fr,nl,sr", "--format", "md", "-o", str(tmp_path))
    assert status == 0, output
    said = {
        lang: (tmp_path / f"orient-abilities.{lang}.md").read_text(encoding="utf-8")
        for lang in ("en", "fr", "nl", "sr")
    }
    assert "A card whose “Colour of a satchel” is set gives its bonuses in that colour instead of its own" in said["en"]
    assert "Une carte dont la valeur « Couleur d'une sacoche » est fixée donne dès lors ses bonus" in said["fr"]
    assert "Een kaart waarvan ‘Kleur van een tas’ is vastgelegd" in said["nl"]
    assert "Карта чија је „Боја торбице“ одређена" in said["sr"]
    variant = tmp_path / "plain.yaml"
    shutil.copy(SPECS / "orient-abilities.csv", tmp_path / "orient-abilities.csv")
    shutil.copy(SPEC, tmp_path / "orient-abilities.yaml")
    variant.write_text(
        "spec: 1\nname: plain\nextends: orient-abilities.yaml\ntitle: Plain\n"
        "state:\n  attached: {bonus_colour: false}\n",
        encoding="utf-8",
    )
    status, output = _invoke("diff", str(tmp_path / "orient-abilities.yaml"), str(variant))
    assert status == 1 and "sets the bonus colour of the cards\n      before: yes" in output, output
