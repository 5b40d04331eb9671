"""Declared state (issue 16 item 3): the `state` section, the effects that write it, `;` in
effect bodies, the engines' variables (turn resets, saved games of version 2, observation) and
variants/no-churn.yaml, the catalogue's house rule that remembers what a turn took."""

from __future__ import annotations

import json
import pathlib
import random
import shutil

import pytest

from compiler import pipeline
from compiler.diagnostics import CompileError, SourceMap
from compiler.diff import compare, render
from compiler.emit.engine import compile_to_module
from compiler.front.expr import Origin, Sequence, parse_stmt, unparse
from compiler.sheets import describe
from tests.helpers.engines import ROOT, legal_strings, load_engine, position, set_tokens
from tests.helpers.sheets import phrase_text

ENGINES = ROOT / "generated" / "engines"
CLEAN = (ROOT / "tests" / "broken" / "_clean.yaml").read_text(encoding="utf-8").replace("../../rulespec/", "")


@pytest.fixture(scope="module")
def no_churn():
    return load_engine(ENGINES / "no_churn.py")


@pytest.fixture(scope="module")
def official():
    return load_engine(ENGINES / "official.py")


@pytest.fixture
def folder(tmp_path: pathlib.Path) -> pathlib.Path:
    for name in ("splendor_cards.csv", "splendor_nobles.csv"):
        shutil.copy(ROOT / "rulespec" / name, tmp_path / name)
    return tmp_path


def check(folder: pathlib.Path, extra: str, *changes: tuple[str, str]):
    """The rules of the clean spec with `extra` appended (and `changes` made), or its diagnostics."""
    text = CLEAN
    for old, new in changes:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    (folder / "spec.yaml").write_text(text + extra, encoding="utf-8")
    try:
        return pipeline.load_rules(str(folder / "spec.yaml"), SourceMap())
    except CompileError as err:
        return [(d.code, d.message) for d in err.diagnostics]


def engine(folder: pathlib.Path, extra: str, *changes: tuple[str, str]):
    rules = check(folder, extra, *changes)
    assert not isinstance(rules, list), rules
    path = folder / "engine_under_test.py"
    path.write_text(compile_to_module(rules), encoding="utf-8")
    return load_engine(path)


def act(game, text: str) -> None:
    E = __import__("sys").modules[type(game).__module__]
    game.apply(E.string_to_action(text))


# --------------------------------------------------------------------------- no-churn (design §3.4)


def holding(E, players: int, **tokens: int):
    """A fresh game in which seat 0 holds `tokens`, built through from_json."""
    return E.from_json(json.dumps(set_tokens(position(E, players, seed=1), 0, **tokens)))


def test_colours_taken_this_turn_go_back_only_when_nothing_else_can(no_churn):
    game = holding(no_churn, 2, red=3, black=3, blue=2)
    act(game, "take white blue green")
    assert game.phase == "return_tokens"
    assert legal_strings(game) == ["return red", "return black"]


def test_when_every_token_held_was_taken_this_turn_any_of_them_goes_back(no_churn):
    game = holding(no_churn, 3, white=4, blue=4)
    act(game, "take white blue green")
    assert legal_strings(game) == ["return white", "return blue", "return green"]


def test_official_lets_any_colour_go_back_in_the_same_position(official):
    game = holding(official, 2, red=3, black=3, blue=2)
    act(game, "take white blue green")
    assert legal_strings(game) == ["return white", "return blue", "return green", "return red", "return black"]


def test_the_taken_colours_are_saved_during_the_turn_and_forgotten_at_the_next(no_churn):
    game = holding(no_churn, 2, red=3, black=3, blue=2)
    act(game, "take white blue green")
    data = json.loads(game.to_json())
    assert data["version"] == 2 and data["vars"] == {"taken": ["white", "blue", "green"]}
    act(game, "return red")
    assert game.current_player == 1 and game.s_taken == []
    assert json.loads(game.to_json())["vars"] == {"taken": []}


def test_a_pair_and_the_gold_of_a_reserve_are_remembered(no_churn):
    game = holding(no_churn, 2, white=3, blue=3, green=3)
    act(game, "take2 red")  # 11 tokens: the turn waits for a return, and remembers red
    assert game.phase == "return_tokens" and game.s_taken == [3]
    assert legal_strings(game) == ["return white", "return blue", "return green"]
    game = holding(no_churn, 2, white=3, blue=3, green=3, black=1)
    act(game, "reserve deck 1")  # the gold that comes with it
    assert game.phase == "return_tokens" and game.s_taken == [5]
    assert "return gold" not in legal_strings(game)


def test_a_saved_game_of_version_2_round_trips_and_replays(no_churn):
    game, rng = no_churn.new_game(3, 5), random.Random(5)
    for _ in range(120):
        if game.is_over():
            break
        game.apply(rng.choice(game.legal_actions()))
        text = game.to_json()
        assert no_churn.from_json(text).to_json() == text
    assert no_churn.replay(game.record()).to_json() == game.to_json()


@pytest.mark.parametrize(
    "vars_, says",
    [
        (
            {"taken": ["white", "purple"]},
            "vars.taken must be a list of distinct colours of white, blue, green, red, black, gold, not a list of 2",
        ),
        (
            {"taken": ["red", "red"]},
            "vars.taken must be a list of distinct colours of white, blue, green, red, black, gold, not a list of 2",
        ),
        (
            {"taken": "red"},
            "vars.taken must be a list of distinct colours of white, blue, green, red, black, gold, not 'red'",
        ),
        ({}, "vars must give a value for each of taken, not an object of 0 keys"),
        (None, "vars must give a value for each of taken, not None"),
    ],
)
def test_a_state_with_wrong_variables_is_refused_with_the_path_of_each(no_churn, vars_, says):
    data = position(no_churn, 2)
    data["vars"] = vars_
    with pytest.raises(no_churn.StateError) as err:
        no_churn.from_json(json.dumps(data))
    assert list(err.value.problems) == [(("vars",) + (("taken",) if vars_ else ()), says)]


def test_an_engine_with_state_needs_version_2_and_one_without_still_reads_version_1(no_churn, official):
    old = position(official, 2)
    assert old["version"] == 1 and "vars" not in old
    assert official.from_json(json.dumps(old)).to_json() == json.dumps(old, sort_keys=True)
    old["spec"] = position(no_churn, 2)["spec"]
    with pytest.raises(no_churn.StateError, match="'version' must be 2, not 1"):
        no_churn.from_json(json.dumps(old))


def test_engines_without_state_are_as_before(official):
    assert official.STATE_VERSION == 1 and official.VARIABLES == ()
    assert "_vars_state" not in (ENGINES / "official.py").read_text(encoding="utf-8")


# --------------------------------------------------------------------------- a spec's own state, compiled


PRIVATE = """
state:
  bought:
    title: Cards bought
    per_player: true
    private: true
    type: number
  last_colour:
    title: Last colour returned
    type: colour
    optional: true
"""


def test_private_variables_show_as_null_to_the_other_seats(folder):
    E = engine(
        folder,
        PRIVATE,
        (
            "      - acquire(card)\n      - refill(card)\n",
            "      - acquire(card)\n      - refill(card)\n      - add(me.bought, 1)\n",
        ),
        ("      - put_back(colour, 1)\n", "      - put_back(colour, 1)\n      - set(last_colour, colour)\n"),
    )
    game = E.new_game(2, 1)
    game.s_bought[0] = 2
    game.s_last_colour = 3
    assert game.observation(1)["seats"][0]["vars"] == {"bought": None}
    assert game.observation(0)["seats"][0]["vars"] == {"bought": 2}
    assert game.observation(1)["vars"] == {"last_colour": "red"}
    whole = json.loads(game.to_json())
    assert whole["seats"][0]["vars"] == {"bought": 2} and whole["vars"] == {"last_colour": "red"}
    game.s_last_colour = None
    assert json.loads(game.to_json())["vars"] == {"last_colour": None}
    assert E.from_json(game.to_json()).s_last_colour is None


def test_a_bought_card_is_counted_in_the_players_variable(folder):
    E = engine(
        folder,
        PRIVATE,
        (
            "      - acquire(card)\n      - refill(card)\n",
            "      - acquire(card)\n      - refill(card)\n      - add(me.bought, 1)\n",
        ),
    )
    game, rng, bought = E.new_game(2, 7), random.Random(7), [0, 0]
    for _ in range(400):
        if game.is_over():
            break
        action = rng.choice(game.legal_actions())
        if E.action_to_string(action).startswith("buy ") and not E.action_to_string(action).startswith("buy reserved"):
            bought[game.current_player] += 1
        game.apply(action)
    assert game.s_bought == bought and sum(bought) >= 1


def test_a_turn_variable_is_reset_for_every_seat_when_a_turn_begins(folder):
    E = engine(
        folder,
        """
state:
  returned:
    title: Tokens returned this turn
    per_player: true
    type: number
    reset: turn
""",
        ("      - put_back(colour, 1)\n", "      - put_back(colour, 1)\n      - add(me.returned, 1)\n"),
    )
    game = holding(E, 2, red=3, black=3, blue=2)
    act(game, "take white blue green")
    act(game, "return red")
    assert game.s_returned == [0, 0]  # the turn ended: its memory went with it
    assert "self.s_returned = [0] * self._n" in (folder / "engine_under_test.py").read_text(encoding="utf-8")


# --------------------------------------------------------------------------- diagnostics


@pytest.mark.parametrize(
    "extra, expected",
    [
        ("state:\n  red: {title: R, type: number}\n", ("E540", "'red' is already the name of a gem colour")),
        ("state:\n  gold: {title: G, type: flag}\n", ("E540", "'gold' is already the name of the wild colour")),
        (
            "state:\n  target: {title: T, type: number}\n",
            ("E540", "'target' is already the name of a value of the spec (values:)"),
        ),
        (
            "state:\n  picked: {title: P, type: number}\n",
            ("E540", "'picked' is already the name of a choice of action 'take_different'"),
        ),
        (
            "state:\n  supply: {title: S, type: number}\n",
            ("E540", "'supply' is already the name of a built-in name of the rules language"),
        ),
        (
            "state:\n  reserved: {title: R, type: number, per_player: true}\n",
            ("E540", "'reserved' is already the name of a player attribute (me.reserved)"),
        ),
        (
            "state:\n  x: {title: X, type: number, initial: true}\n",
            ("E544", "variable 'x' starts as true, but it holds a number"),
        ),
        (
            "state:\n  x: {title: X, type: flag, initial: 3}\n",
            ("E544", "variable 'x' starts as 3, but it is a flag: true or false"),
        ),
        (
            "state:\n  x: {title: X, type: gem, initial: gold}\n",
            ("E544", "variable 'x' starts as 'gold', but it holds a gem colour (white, blue, green, red, black)"),
        ),
        (
            "state:\n  x: {title: X, type: colour}\n",
            ("E544", "variable 'x' needs an initial value: a token colour has no default"),
        ),
        (
            "state:\n  x: {title: X, type: player, initial: 5}\n",
            ("E544", "variable 'x' starts as 5, but it holds a player: a seat from 1 to 2 (every player count has it)"),
        ),
        (
            "state:\n  x: {title: X, type: {set_of: gem}, initial: red}\n",
            ("E544", "variable 'x' starts as 'red', but a set starts empty (remove 'initial')"),
        ),
        (
            "state:\n  x: {title: X, type: nmber}\n",
            (
                "E106",
                "'type' of 'x' of 'state' cannot be 'nmber': expected one of number, flag, gem, colour, player "
                "(did you mean 'number'?)",
            ),
        ),
        (
            "state:\n  x: {title: X, type: number, optional: true}\n",
            (
                "E544",
                "variable 'x' is optional, but a number is never none: only a gem, a colour or a player may be none",
            ),
        ),
        (
            "state:\n  x: {title: X, type: number, private: true}\n",
            (
                "E544",
                "variable 'x' is private, but it is one for the whole game: only a player's own variable can be "
                "hidden from the others",
            ),
        ),
        (
            "state:\n  x: {title: X, type: number, display: true}\n",
            (
                "E544",
                "variable 'x' is marked for display, but it lasts the game: the board shows every such variable; "
                "'display' marks a turn's variable (reset: turn)",
            ),
        ),
    ],
)
def test_a_declaration_that_does_not_fit_is_refused(folder, extra, expected):
    assert check(folder, extra) == [expected]


EACH = 'setup:\n  s:\n    title: S\n    each_player: true\n    effects: ["{}"]\n'
VARS = (
    "state:\n  n: {title: N, type: number}\n  f: {title: F, type: flag}\n  k: {title: K, type: colour, "
    "optional: true}\n  s: {title: S, type: {set_of: gem}}\n  mine: {title: M, type: number, per_player: true}\n"
)


@pytest.mark.parametrize(
    "effect, expected",
    [
        (
            "set(me.prestige, 3)",
            (
                "E545",
                "'set' changes a declared variable, and 'me.prestige' is a player attribute the "
                "game keeps itself (declared: n, f, k, s, mine)",
            ),
        ),
        (
            "add(turn, 1)",
            ("E545", "'add' changes a declared variable, and 'turn' is not one (declared: n, f, k, s, mine)"),
        ),
        ("add(f, 1)", ("E545", "'add' adds to a number, but 'f' is a flag (true or false)")),
        ("insert(n, red)", ("E545", "'insert' adds an element to a set, but 'n' is a number")),
        ("drop(k, red)", ("E545", "'drop' removes an element from a set, but 'k' is a token colour")),
        ("insert(s, gold)", ("E545", "'insert' puts into 's' a token colour, but it holds gem colours")),
        ("set(n, red)", ("E545", "'set' gives 'n' a gem colour, but it holds a number")),
        ("set(n)", ("E408", "'set' takes 2 arguments (1 given)")),
        (
            "set(me.n, 1)",
            ("E545", "'set' changes a declared variable, and 'me.n' is not one (declared: n, f, k, s, mine)"),
        ),
    ],
)
def test_an_effect_on_state_that_does_not_fit_is_refused(folder, effect, expected):
    assert check(folder, VARS + EACH.format(effect)) == [expected]


def test_state_effects_that_fit_check_clean(folder):
    effects = (
        "set(n, 3); add(n, -1); set(f, me.prestige >= 3); set(k, red); set(k, none); insert(s, red); "
        "drop(s, blue); add(me.mine, size(s)); set(s, gems)"
    )
    rules = check(folder, VARS + EACH.format("if true: " + effects))
    assert not isinstance(rules, list), rules
    assert [v.name for v in rules.variables] == ["n", "f", "k", "s", "mine"]


def test_a_set_given_a_collection_of_colours_compiles_and_holds_its_colours(folder):
    """`set(S, gems)`: "a set becomes the colours of the collection" (rulespec/README.md). `check` took
    it and `compile` ended in an internal error, KeyError: 'gems' (issue 26, item 11)."""
    E = engine(folder, VARS + EACH.format("if true: set(s, gems); set(n, size(s))"))
    game = E.new_game(2, seed=1)
    state = json.loads(game.to_json())
    assert state["vars"]["s"] == ["white", "blue", "green", "red", "black"] and state["vars"]["n"] == 5
    rules = check(folder, VARS + EACH.format("set(s, gems)"))
    said = describe(rules.setup[0].effects[0], "en", rules)
    assert said == "set “S” to the gem colours"


def test_an_optional_variable_is_tested_before_it_is_used(folder):
    extra = VARS + EACH.format("if supply[k] >= 1: take(k, 1)")
    assert check(folder, extra) == [
        ("E410", "'k' may be none here (variable 'k' is optional): test 'k != none' first, as in \"k != none and ...\"")
    ]
    tested = VARS + EACH.format("if k != none and supply[k] >= 1: take(k, 1)")
    assert not isinstance(check(folder, tested), list)


def test_a_turn_variable_no_effect_sets_is_only_a_warning(folder):
    rules = check(folder, "state:\n  t: {title: T, type: number, reset: turn}\n")
    assert not isinstance(rules, list) and [v.reset for v in rules.variables] == ["turn"]


def test_the_warning_e555_is_shown_by_check(folder):
    from click.testing import CliRunner

    from app import cli

    (folder / "spec.yaml").write_text(CLEAN + "state:\n  t: {title: T, type: number, reset: turn}\n", encoding="utf-8")
    result = CliRunner().invoke(cli.main, ["check", "-W", str(folder / "spec.yaml")])
    assert (
        "warning[E555]: variable 't' goes back to its initial value when each turn begins, and no effect sets "
        "it: it is always its initial value" in result.stderr
    )


# --------------------------------------------------------------------------- ';' joins effects


def test_a_semicolon_joins_the_effects_of_the_innermost_body():
    text = "for c in picked: if supply[c] >= 1: take(c, 1); insert(taken, c) else: take(gold, 1); put_back(c, 1)"
    node = parse_stmt(text, Origin.plain("f", 1, 1, text))
    assert isinstance(node.body.then, Sequence) and isinstance(node.body.otherwise, Sequence)
    assert unparse(node) == text


def test_a_semicolon_between_list_items_says_to_write_two_items():
    text = "take(gold, 1); insert(taken, gold)"
    with pytest.raises(CompileError) as err:
        parse_stmt(text, Origin.plain("f", 1, 1, text))
    [d] = err.value.diagnostics
    assert (d.code, d.message, d.span.col) == (
        "E203",
        "unexpected ';' in effect (';' joins the effects of the body of an 'if' or a 'for'; write other "
        "effects as items of their own)",
        14,
    )


# --------------------------------------------------------------------------- sheets and diff


SAYS = {
    "en": (
        "The game remembers “Colours taken this turn” (a set of token colours, at first empty), forgotten when a "
        "turn begins.",
        "take 1 gold token and add gold to “Colours taken this turn”",
        "set “Colours taken this turn” to the chosen colours",
        "the chosen colour is not one of “Colours taken this turn”",
    ),
    "fr": (
        "Le jeu retient « Pris ce tour » (un ensemble de couleurs de jeton, au départ vide), oublié à chaque tour.",
        "prenez 1 jeton or et ajoutez or à « Pris ce tour »",
        "« Pris ce tour » devient les couleurs choisies",
        "la couleur choisie n'est pas parmi « Pris ce tour »",
    ),
    "nl": (
        "Het spel onthoudt ‘Genomen’ (een verzameling fichekleuren, eerst leeg), telkens één beurt lang.",
        "neem 1 gouden fiche en voeg goud toe aan ‘Genomen’",
        "zet ‘Genomen’ op de gekozen kleuren",
        "de gekozen kleur niet een van ‘Genomen’ is",
    ),
    "sr": (
        "Игра памти „Боје узете у потезу“ (скуп боја жетона, на почетку празан), што се заборавља на почетку "
        "сваког потеза.",
        "узмите 1 златни жетон и додајте злато у запис „Боје узете у потезу“",
        "запис „Боје узете у потезу“ постаје изабране боје",
        "изабрана боја не спада у запис „Боје узете у потезу“",
    ),
}


@pytest.mark.parametrize("lang", sorted(SAYS))
def test_the_sheets_list_the_state_and_phrase_its_effects(lang):
    text = phrase_text(str(ROOT / "variants" / "no-churn.yaml"), lang)  # the phrases, where the spec has texts
    for said in SAYS[lang]:
        assert said in text, said


DIFF = {
    "en": (
        "State",
        'Added: the variable "Colours taken this turn" (taken)',
        "lasts: one turn (forgotten when a turn begins)",
    ),
    "fr": (
        "Mémoire",
        "Ajout : la variable « Pris ce tour » (taken)",
        "durée : un tour (oubliée au début de chaque tour)",
    ),
    "nl": ("Geheugen", "Nieuw: de variabele „Genomen” (taken)", "duur: één beurt (vergeten zodra een beurt begint)"),
    "sr": (
        "Памћење",
        "Додато: променљива „Боје узете у потезу“ (taken)",
        "траје: један потез (заборавља се на почетку потеза)",
    ),
}


@pytest.mark.parametrize("lang", sorted(DIFF))
def test_diff_says_what_state_a_variant_adds_and_changes(lang):
    official = pipeline.load_rules(str(ROOT / "rulespec" / "official.yaml"))
    variant = pipeline.load_rules(str(ROOT / "variants" / "no-churn.yaml"))
    text = render(compare(official, variant), official, variant, lang)
    for said in DIFF[lang]:
        assert said in text, (said, text)
    back = render(compare(variant, official), variant, official, "en")
    assert '- Removed: the variable "Colours taken this turn" (taken)' in back


def test_diff_says_what_changed_in_a_variable(folder):
    a = check(folder, "state:\n  n: {title: Markers, type: number, per_player: true, initial: 5}\n")
    b = check(
        folder,
        "state:\n  n: {title: Markers, type: number, per_player: true, initial: 3, reset: turn}\n"
        'setup:\n  s: {title: S, each_player: true, effects: ["add(me.n, 1)"]}\n',
    )
    text = render(compare(a, b), a, b, "fr")
    assert "- La variable « Markers » (n)" in text
    assert "valeur de départ" in text and "avant : 5" in text and "après : 3" in text


# --------------------------------------------------------------------------- play and the RL observation


def test_play_shows_the_games_and_each_players_variables(folder):
    from playtest import terminal

    E = engine(folder, PRIVATE + "  taken:\n    title: Taken\n    type: {set_of: colour}\n")
    game = E.new_game(2, 1)
    game.s_bought, game.s_last_colour, game.s_taken = [2, 0], None, [0, 5]
    text = terminal.draw_board(E, game, ["ann", "bob"], 1)
    assert "state     last_colour none   taken white,gold" in text
    assert "    state     bought hidden" in text and "    state     bought 0" in text
    assert "    state     bought 2" in terminal.draw_board(E, game, ["ann", "bob"], None)


def test_the_rl_observation_encodes_the_declared_state(folder):
    from playtest import rl

    E = engine(folder, PRIVATE + "  taken:\n    title: Taken\n    type: {set_of: colour}\n")
    encoder = rl.Encoder(E, 2)
    game = E.new_game(2, 1)
    game.s_bought, game.s_last_colour, game.s_taken = [2, 1], 3, [0, 5]
    vector = encoder.encode(game.observation(1))
    fields = {f.name: vector[f.start : f.stop].tolist() for f in encoder.fields}
    assert fields["var[last_colour]"] == [0, 0, 0, 1, 0, 0]
    assert fields["var[taken]"] == [1, 0, 0, 0, 0, 1]
    assert fields["seat[0].var[bought]"] == [0, 1] and fields["seat[1].var[bought]"] == [1, 0]  # observer first
    assert encoder.space().contains(vector)
    official = rl.Encoder(load_engine(ENGINES / "official.py"), 2)
    assert not any("var[" in f.name for f in official.fields)


PHRASED = """
state:
  taken: {title: Taken, type: {set_of: colour}, reset: turn}
  markers: {title: Markers, type: number, per_player: true, initial: 2}
  flagged: {title: Bought, type: flag, reset: turn}
  who: {title: Leader, type: player, optional: true}
  pc: {title: Pair colour, type: gem, optional: true}
"""


@pytest.mark.parametrize("lang", ["en", "fr", "nl", "sr"])
def test_every_read_and_write_of_state_is_phrased_on_the_sheets(folder, lang):
    """Numbers, flags, optional colours and players, sets in aggregates, loops and sizes: the sheets
    phrase each (a spec that checks clean never stops the sheets)."""
    from compiler.sheets import content, render

    rules = check(
        folder,
        PHRASED,
        (
            "    condition: supply[colour] >= pair_minimum",
            "    condition: supply[colour] >= pair_minimum and not flagged and (pc == none or pc != colour) and "
            "size(taken) <= 2 and me.markers >= 1 and count(c in taken for c in colours) <= 1",
        ),
        (
            "      - take(colour, 2)",
            "      - take(colour, 2)\n      - insert(taken, colour)\n      - add(me.markers, -1)\n"
            "      - set(flagged, true)\n      - set(who, me)\n      - set(pc, colour)\n"
            '      - "for c in taken: if supply[c] >= 1: set(flagged, me.prestige >= 3); drop(taken, c)"\n'
            '      - "if who != none and who == me: set(pc, none)"',
        ),
        ("by: player.prestige, prefer: highest}", "by: player.prestige + player.markers, prefer: highest}"),
    )
    assert not isinstance(rules, list), rules
    text = render.markdown(content.build(rules, lang), rules)
    said = {
        "en": ("“Pair colour” holds nothing", "for each colour in “Taken”", "your “Markers”"),
        "fr": ("« Pair colour » ne contient rien", "pour chaque couleur de « Taken »", "votre « Markers »"),
        "nl": ("‘Pair colour’ leeg is", "voor elke kleur in ‘Taken’", "je ‘Markers’"),
        "sr": ("запис „Pair colour“ је празан", "за сваку боју из записа „Taken“", "ваш запис „Markers“"),
    }[lang]
    for words in said:
        assert words in text, words
