"""Refusals in players' words: spec -> engine -> what `play` and the web table say of a refused move.

A move a condition of the rules refuses is answered with the rule's name and the failing part
of it, in the player's language, worded as the sheets word them (compiler.sheets.refusals); the
condition as written and its spec location go to a details line, for the spec's author.
"""

from __future__ import annotations

import json
import pathlib
import random
import warnings

import pytest
from click.testing import CliRunner

from app.cli import main
from compiler.front.expr import Compare
from compiler.lower.expressions import conjuncts
from compiler.pipeline import load_rules
from compiler.sheets import moves, refusals, tables
from playtest import engines, terminal
from tests.helpers.web import api_of, client, engine, new_table

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient`")

ROOT = pathlib.Path(__file__).resolve().parent.parent
OFFICIAL = ROOT / "rulespec" / "official.yaml"
LANGS = ("en", "fr", "nl", "sr")

# Two tokens of one colour with 3 of it left: the refusal of the official rules in each language.
TAKE_PAIR = {
    "en": "Take two tokens of one colour: 4 or more tokens of the chosen colour are in the supply",
    "fr": "Prendre deux jetons d'une même couleur : la banque contient 4 jetons de la couleur choisie ou plus",
    "nl": "Twee fiches van één kleur nemen: dat mag alleen als er 4 of meer fiches van de gekozen kleur in de voorraad liggen",
    "sr": "Узимање два жетона једне боје: у банци има 4 или више жетона изабране боје",
}
TAKE_PAIR_DETAILS = "supply[colour] >= pair_minimum, rulespec/official.yaml:"
# One colour taken as "different colours" while five are left: the rule's name in each language.
TAKE_DIFFERENT = {
    "en": "Take tokens of different colours",
    "fr": "Prendre des jetons de couleurs différentes",
    "nl": "Fiches van verschillende kleuren nemen",
    "sr": "Узимање жетона различитих боја",
}
MOVE = {
    "en": "illegal action 'take white': ",
    "fr": "coup refusé « take white » : ",
    "nl": "zet geweigerd 'take white': ",
    "sr": "потез одбијен „take white“: ",
}
DETAILS = {"en": "details: ", "fr": "détails : ", "nl": "details: ", "sr": "детаљи: "}


@pytest.fixture(scope="module")
def official():
    return engines.load(str(OFFICIAL)).module


def refused(module, game, text: str):
    """The IllegalAction the engine raises for the move `text` in `game` (which it leaves as it was)."""
    before = game.to_json()
    with pytest.raises(module.IllegalAction) as caught:
        game.apply(module.string_to_action(text))
    assert game.to_json() == before
    return caught.value


def three_white_left(module):
    """A two-player game whose supply holds 3 white tokens (the fourth is player 2's)."""
    state = json.loads(module.new_game(2, seed=1).to_json())
    state["supply"]["white"] -= 1
    state["seats"][1]["tokens"]["white"] += 1
    return module.from_json(json.dumps(state))


def test_a_refusal_names_the_rule_and_the_part_it_fails_in_each_language(official):
    error = refused(official, three_white_left(official), "take2 white")
    for lang in LANGS:
        assert error.reason(lang) == TAKE_PAIR[lang], lang
    assert error.details.startswith(TAKE_PAIR_DETAILS)
    assert str(error) == f"illegal action 'take2 white': {TAKE_PAIR['en']}\ndetails: {error.details}"
    assert error.refusal.rule == "take_pair" and error.action == "take2 white"


def test_the_part_is_the_sheets_phrase_of_the_failing_condition(official):
    """The words come from the one function of the sheets that phrases a rule part, so that a text
    the spec gives for that part reaches refusals as it reaches the sheets."""
    rules = load_rules(str(OFFICIAL))
    take_pair = next(d for d in rules.actions if d.name == "take_pair")
    (condition,) = [c for c in conjuncts(take_pair.condition) if isinstance(c, Compare)]
    error = refused(official, three_white_left(official), "take2 white")
    for lang in LANGS:
        table = tables.load(lang)
        part = refusals.rule_part(condition, lang, rules, take_pair)
        assert part is not None
        assert error.reason(lang) == table.text("refusal.reason", rule=refusals.rule_name(take_pair, table), part=part)


# A step's move while player 2 must choose an action, in each language (the English is the engine's own).
OUT_OF_ORDER = {
    "en": "illegal action '{move}': player 2 must now choose an action",
    "fr": "coup refusé « {move} » : le joueur 2 doit maintenant choisir une action",
    "nl": "zet geweigerd '{move}': speler 2 moet nu een actie kiezen",
    "sr": "потез одбијен „{move}“: играч 2 сада мора да изабере акцију",
}
GAME_OVER = {
    "en": "illegal action '{move}': the game is over",
    "fr": "coup refusé « {move} » : la partie est terminée",
    "nl": "zet geweigerd '{move}': het spel is afgelopen",
    "sr": "потез одбијен „{move}“: игра је завршена",
}


def test_a_move_refused_for_another_reason_is_told_in_each_language(official):
    game = official.new_game(2, seed=1)
    game.apply(game.legal_actions()[0])
    step = next(a for a in range(official.NUM_ACTIONS) if official.action_to_string(a).startswith("return"))
    with pytest.raises(official.IllegalAction) as caught:
        game.apply(step)
    error = caught.value
    assert error.refusal is None and error.details is None and error.refused.key == "choose_action"
    move = official.action_to_string(step)
    assert str(error) == OUT_OF_ORDER["en"].format(move=move)
    for lang in LANGS:
        assert refusals.told(error, lang) == (OUT_OF_ORDER[lang].format(move=move), None), lang


# An action while player 1 must return tokens: the step named by its title in each language.
FINISH_STEP = {
    "en": "illegal action '{move}': player 1 must first finish 'Return tokens over the limit' ({options})",
    "fr": "coup refusé « {move} » : le joueur 1 doit d'abord terminer « Rendre les jetons en trop » ({options})",
    "nl": "zet geweigerd '{move}': speler 1 moet eerst 'Fiches boven de limiet teruggeven' afmaken ({options})",
    "sr": "потез одбијен „{move}“: играч 1 прво мора да заврши „Враћање вишка жетона“ ({options})",
}


def test_a_move_during_a_step_names_the_step_by_its_title_in_each_language(official):
    """A player over the token limit must return tokens first: the refusal of any other move
    names the step as the sheets do (its title in the player's language), never by its name in
    the spec; without the rules, by that name in plain words."""
    rules = load_rules(str(OFFICIAL))
    state = json.loads(official.new_game(2, seed=1).to_json())
    held = state["seats"][0]["tokens"]
    for colour in ("white", "blue", "green"):
        state["supply"][colour] -= 3
        held[colour] += 3
    game = official.from_json(json.dumps(state))
    game.apply(official.string_to_action("take white blue green"))
    assert game.phase == "return_tokens" and game.current_player == 0
    move = "take white"
    with pytest.raises(official.IllegalAction) as caught:
        game.apply(official.string_to_action(move))
    error = caught.value
    assert error.refused.key == "finish_step" and error.refused.fields["step"] == "return_tokens"
    options = error.refused.fields["options"]
    for lang in LANGS:
        assert refusals.told(error, lang, rules) == (FINISH_STEP[lang].format(move=move, options=options), None)
    untitled = "illegal action '{move}': player 1 must first finish 'return tokens' ({options})"
    assert refusals.told(error, "en") == (untitled.format(move=move, options=options), None)
    table = terminal.new_table(official, 2, ["human", "human"], seed=1)  # `play` says it with the rules
    table.game = game
    said: list[str] = []
    session = terminal.Session(table, ask=lambda p: "", say=lambda text: said.append(str(text)), lang="fr", rules=rules)
    assert session.play(move, 0) == "again"
    assert said[-1] == FINISH_STEP["fr"].format(move=move, options=OPTIONS["fr"])


# The moves open in that step, in the player's words (the engine gives their notation).
OPTIONS = {
    "en": "white, blue or green",
    "fr": "blanc, bleu ou vert",
    "nl": "wit, blauw of groen",
    "sr": "бела, плава или зелена",
}


def test_the_moves_open_in_a_step_are_told_in_the_players_words(official):
    """`play` and the web table say the moves a refusal lists as open as the log says moves (their
    choices in words: the step's rule is named already); without the engine, by their notation."""
    rules = load_rules(str(OFFICIAL))
    state = json.loads(official.new_game(2, seed=1).to_json())
    for colour in ("white", "blue", "green"):
        state["supply"][colour] -= 3
        state["seats"][0]["tokens"][colour] += 3
    game = official.from_json(json.dumps(state))
    game.apply(official.string_to_action("take white blue green"))
    with pytest.raises(official.IllegalAction) as caught:
        game.apply(official.string_to_action("take white"))
    assert caught.value.refused.fields["options"] == "return white, return blue, return green"
    for lang in LANGS:
        said, _ = refusals.told(caught.value, lang, rules, official)
        assert said == FINISH_STEP[lang].format(move="take white", options=OPTIONS[lang])
    assert moves.options_said(official, "return white, take2 red", rules, "fr") == (
        "Rendre les jetons en trop : blanc, Prendre deux jetons d'une même couleur : rouge"
    )
    assert moves.options_said(official, "no such move", rules, "fr") == "no such move"


def test_a_move_after_the_end_is_told_in_each_language(official):
    game = official.new_game(2, seed=2)
    game.playout(random.Random(2))  # random moves end a game (the first legal move each time may not)
    assert game.is_over()
    with pytest.raises(official.IllegalAction) as caught:
        game.apply(0)
    move = official.action_to_string(0)
    assert str(caught.value) == GAME_OVER["en"].format(move=move)
    for lang in LANGS:
        assert refusals.told(caught.value, lang)[0] == GAME_OVER[lang].format(move=move), lang


def test_an_engine_reason_the_tables_do_not_word_keeps_the_engines_message():
    """A reason no table words (an older engine, a rule function's English) is passed on as it is."""
    error = type("IllegalAction", (Exception,), {})("illegal action 'x': something else")
    error.refused = type("Refused", (), {"key": "other", "fields": {"action": "x"}})()
    assert refusals.told(error, "fr") == ("illegal action 'x': something else", None)


@pytest.mark.parametrize("lang", LANGS)
def test_play_says_a_refusal_in_the_players_language_with_a_details_line(lang):
    result = CliRunner().invoke(
        main,
        ["play", str(OFFICIAL), "--seat", "human", "--seat", "human", "--seed", "3", "--lang", lang],
        input="take white\nquit\n",
    )
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    said = next(line for line in lines if line.startswith(MOVE[lang]))
    assert said.startswith(MOVE[lang] + TAKE_DIFFERENT[lang])
    details = lines[lines.index(said) + 1]
    condition = "size(picked) == min(take_count, count(supply[c] >= 1 for c in gems))"
    line = next(n for n, text in enumerate(OFFICIAL.read_text(encoding="utf-8").splitlines(), 1) if condition in text)
    assert details == DETAILS[lang] + f"{condition}, rulespec/official.yaml:{line}"


def test_a_session_in_serbian_says_the_take_pair_refusal(official):
    table = terminal.new_table(official, 2, ["human", "human"], seed=1)
    table.game = three_white_left(official)
    said: list[str] = []
    session = terminal.Session(table, ask=lambda prompt: "", say=lambda text: said.append(str(text)), lang="sr")
    assert session.play("take2 white", 0) == "again"
    assert said[-1].splitlines()[0] == "потез одбијен „take2 white“: " + TAKE_PAIR["sr"]
    assert said[-1].splitlines()[1].startswith("детаљи: " + TAKE_PAIR_DETAILS)


@pytest.mark.parametrize("lang", LANGS)
def test_the_web_table_answers_a_refused_move_in_the_players_language(variants, db, lang):
    module = engine(variants)
    action = module.string_to_action("take white")
    with client(variants, db) as c:
        api0 = api_of(new_table(c)["seats"][0]["link"])
        before = c.get(api0).json()
        asked = (
            c.post(api0 + "/actions", json={"action": action, "after": 0, "lang": lang}),
            c.post(
                api0 + "/actions",
                json={"action": action, "after": 0},
                headers={"Accept-Language": f"{lang};q=0.9, de;q=0.8"},
            ),
        )
        for r in asked:
            assert r.status_code == 422
            body = r.json()
            assert body["error"].startswith(MOVE[lang] + TAKE_DIFFERENT[lang]), body
            assert body["details"].startswith("size(picked) == min(take_count, "), body
        assert c.get(api0).json() == before


def test_the_web_table_names_the_step_a_move_waits_for_by_its_title(variants, db):
    """Both seats take tokens (then reserve a card, for its gold) until one is over the limit; a
    take then is refused with the step's title in the page's language (the server's rules), not
    its name in the spec."""
    module = engine(variants)
    with client(variants, db) as c:
        apis = [api_of(s["link"]) for s in new_table(c)["seats"]]
        game = module.new_game(2, seed=7)
        while game.phase != "return_tokens":
            takes = [a for a in game.legal_actions() if module.describe_action(a)[0] == "take_different"]
            reserves = [a for a in game.legal_actions() if module.describe_action(a)[0] == "reserve_face_up"]
            assert (takes or reserves) and len(game.history) < 20, game.history
            action = max(takes, key=lambda a: len(module.describe_action(a)[1]["picked"])) if takes else reserves[0]
            asked = {"action": action, "after": len(game.history)}
            assert c.post(apis[game.current_player] + "/actions", json=asked).status_code == 200
            game.apply(action)
        seat = game.current_player
        take = module.string_to_action("take white")
        r = c.post(apis[seat] + "/actions", json={"action": take, "after": len(game.history), "lang": "fr"})
        assert r.status_code == 422
        said = f"le joueur {seat + 1} doit d'abord terminer « Rendre les jetons en trop » ("
        assert r.json()["error"].startswith(MOVE["fr"] + said), r.json()


def test_a_purchase_out_of_reach_is_refused_by_its_price_in_each_language(official):
    error = refused(official, official.new_game(2, seed=1), "buy 3.1")
    assert {lang: error.reason(lang) for lang in LANGS} == {
        "en": "Buy a face-up card: you cannot pay its price in any way the rules allow",
        "fr": "Acheter une carte face visible : vous ne pouvez payer son prix d'aucune façon que les règles permettent",
        "nl": "Een open kaart kopen: je kunt de prijs niet betalen op een manier die de regels toestaan",
        "sr": "Куповина отворене карте: не можете да платите њену цену ни на један начин који правила дозвољавају",
    }
    assert error.details.startswith(
        "the player cannot pay the price of this card in any way the rules allow, rulespec/official.yaml:"
    )
