"""Variables keyed by colour or by component (issue 28 item 5): `by: gem`, `by: colour` and `by: KIND`
on a state variable, read and written one entry at a time (`me.satchels[c]`, `forts[card]`).

Spec -> diagnostics (a key that names nothing, a set keyed, an optional number, an entry named by
a key of another type, a keyed variable written whole, an optional entry read before a test: each
located with its caret), spec -> engine
behaviour (entries read and written, turn resets, saved games, observation, the RL vector, the
terminal board) and spec -> sheet and diff text, on tests/specs/satchels.yaml and small changes of
the catalogue's clean spec."""

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
from tests.helpers.engines import ROOT, act, load_engine, position, set_tokens

SATCHELS = ROOT / "tests" / "specs" / "satchels.yaml"
CLEAN = (ROOT / "tests" / "broken" / "_clean.yaml").read_text(encoding="utf-8").replace("../../rulespec/", "")
KEYED = "state:\n  satchels: {title: Satchels, per_player: true, type: number, by: gem}\n"
PAIR = "      - take(colour, 2)\n"


@pytest.fixture(scope="module")
def satchels(tmp_path_factory):
    path = tmp_path_factory.mktemp("keyed") / "satchels.py"
    path.write_text(pipeline.compile_spec(str(SATCHELS)).text, encoding="utf-8")
    return load_engine(path)


@pytest.fixture
def folder(tmp_path: pathlib.Path) -> pathlib.Path:
    for name in ("splendor_cards.csv", "splendor_nobles.csv"):
        shutil.copy(ROOT / "rulespec" / name, tmp_path / name)
    return tmp_path


def diagnostics(folder: pathlib.Path, extra: str, *changes: tuple[str, str]):
    """The diagnostics of the clean spec with `extra` appended and `changes` made: (code, line, column,
    message, the source line's text under the caret), or the rules when it is clean."""
    text = CLEAN
    for old, new in changes:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    (folder / "spec.yaml").write_text(text + extra, encoding="utf-8")
    lines = (text + extra).split("\n")
    try:
        return pipeline.load_rules(str(folder / "spec.yaml"), SourceMap())
    except CompileError as err:
        return [
            (
                d.code,
                d.span.line,
                d.span.col,
                d.message,
                lines[d.span.line - 1][d.span.col - 1 : d.span.end_col - 1] if d.span.end_line == d.span.line else "",
            )
            for d in err.diagnostics
        ]


# --------------------------------------------------------------------------- spec -> diagnostics


@pytest.mark.parametrize(
    "extra, code, caret, says",
    [
        (KEYED.replace("by: gem", "by: gems"), "E544", "gems", "keyed by 'gems'"),
        (KEYED.replace("by: gem", "by: cities"), "E544", "cities", "(gem, colour, cards, nobles)"),
        (KEYED.replace("type: number", "type: {set_of: colour}"), "E544", "gem", "holds a set"),
        (
            KEYED.replace("type: number", "type: number, optional: true"),
            "E544",
            "optional",
            "is optional, but a number is never none",
        ),
        (KEYED.replace("type: number", "type: gem"), "E544", "", "needs an initial value"),
        (KEYED.replace("by: gem", "by: gem, initial: red"), "E544", "red", "starts as 'red', but it holds a number"),
    ],
)
def test_a_keyed_declaration_that_does_not_fit_is_refused_where_it_is_written(folder, extra, code, caret, says):
    found = diagnostics(folder, extra)
    assert isinstance(found, list) and len(found) == 1, found
    ((got, line, _, message, under),) = found
    assert got == code and says in message, found
    assert line > 100 and (not caret or under == caret), found


@pytest.mark.parametrize(
    "effect, code, caret, says",
    [
        ("add(me.satchels[gold], 1)", "E410", "gold", "indexed by a gem colour, not by a token colour"),
        ("add(me.satchels[3], 1)", "E410", "3", "indexed by a gem colour, not by a number"),
        ("add(me.satchels, 1)", "E545", "me.satchels", "changes one entry of 'me.satchels'"),
        ("set(me.satchels[colour], true)", "E545", "true", "a condition, but it holds a number"),
        ("if me.satchels >= 2: take(gold, 1)", "E410", "me.satchels", "table of numbers by gem colour"),
        ("add(satchels[colour], 1)", "E545", "satchels[colour]", "'satchels[colour]' is not one"),
    ],
)
def test_an_entry_with_a_wrong_or_missing_key_is_refused_at_it(folder, effect, code, caret, says):
    found = diagnostics(folder, KEYED, (PAIR, PAIR + f'      - "{effect}"\n'))
    assert isinstance(found, list) and len(found) == 1, found
    ((got, line, _, message, under),) = found
    assert (got, line, under) == (code, 38, caret) and says in message, found


def test_every_key_checks_clean_and_a_card_keys_a_cards_variable(folder):
    rules = diagnostics(
        folder,
        "state:\n  a: {title: A, type: flag, by: cards}\n  b: {title: B, type: number, by: nobles}\n"
        "  k: {title: K, type: colour, by: colour, initial: gold, per_player: true}\n",
        (
            "      - reserve(card)\n",
            "      - reserve(card)\n      - set(a[card], true)\n      - set(me.k[gold], card.bonus)\n",
        ),
    )
    assert not isinstance(rules, list), rules
    assert [str(v.type) for v in rules.variables] == [
        "table of conditions by card",
        "table of numbers by noble",
        "table of token colours by token colour",
    ]


# An optional keyed variable: each entry starts as none and is read only after a test.
HOLDER = "state:\n  holder: {title: Holder, type: player, optional: true, by: cards}\n"
RESERVE = "      - reserve(card)\n"


def test_an_optional_entry_is_read_only_after_a_test_and_written_without_one(folder):
    tested = diagnostics(
        folder,
        HOLDER,
        (
            "    condition: me.reserved < reserve_limit\n",
            "    condition: me.reserved < reserve_limit and (holder[card] == none or holder[card] == me)\n",
        ),
        (RESERVE, RESERVE + "      - set(holder[card], me)\n"),
    )
    assert not isinstance(tested, list), tested
    assert str(tested.variables[0].type) == "table of players by card"
    found = diagnostics(
        folder,
        HOLDER,
        (
            "    condition: me.reserved < reserve_limit\n",
            "    condition: me.reserved < reserve_limit and holder[card] == me\n",
        ),
    )
    assert isinstance(found, list) and len(found) == 1, found
    ((code, line, _, message, under),) = found
    assert (code, under) == ("E410", "holder[card]") and "may be none here" in message, found


def test_an_optional_entry_starts_as_none_and_is_saved(folder):
    text = CLEAN.replace(
        "    condition: me.reserved < reserve_limit\n",
        "    condition: me.reserved < reserve_limit and holder[card] == none\n",
    )
    text = text.replace(RESERVE, RESERVE + "      - set(holder[card], me)\n") + HOLDER
    (folder / "holder.yaml").write_text(text, encoding="utf-8")
    (folder / "holder.py").write_text(pipeline.compile_spec(str(folder / "holder.yaml")).text, encoding="utf-8")
    E = load_engine(folder / "holder.py")
    game = E.new_game(2, seed=1)
    assert json.loads(game.to_json())["vars"]["holder"] == [None] * len(E.CARDS)
    card = game.market[0][0]
    act(game, "reserve 1.1")
    saved = json.loads(game.to_json())
    assert saved["vars"]["holder"][card] == 0 and saved["vars"]["holder"].count(None) == len(E.CARDS) - 1
    assert E.from_json(json.dumps(saved)).to_json() == game.to_json()
    saved["vars"]["holder"][card] = 5
    with pytest.raises(E.StateError, match="holder"):
        E.from_json(json.dumps(saved))


# --------------------------------------------------------------------------- spec -> engine


def test_entries_are_read_and_written_and_a_turn_forgets_its_own(satchels):
    game = satchels.from_json(json.dumps(set_tokens(position(satchels, 2, seed=3), 0, white=3, blue=3, green=3)))
    act(game, "take2 red")  # 11 tokens: the turn waits for seat 0 to give one back
    assert game.phase == "return_tokens"
    assert game.s_satchels == [[0, 0, 0, 1, 0], [0, 0, 0, 0, 0]]
    assert game.s_taken_now == [[0, 0, 0, 2, 0, 0], [0] * 6]
    act(game, "return white")
    assert game.current_player == 1 and game.s_taken_now == [[0] * 6, [0] * 6]  # forgotten as a turn begins
    assert game.s_satchels[0] == [0, 0, 0, 1, 0]  # kept: it lasts the game


def test_a_keyed_entry_counts_in_a_prestige_source(satchels):
    game = satchels.new_game(2, 5)
    game.s_satchels[1] = [2, 0, 3, 1, 2]
    assert game.prestige == [0, 3]


def test_a_card_keyed_variable_remembers_the_reserved_card_and_its_first_reserver(satchels):
    game = satchels.new_game(2, 4)
    act(game, "take white blue green")
    act(game, "reserve 1.2")  # seat 1 (the second player)
    (card,) = game._res[1]
    assert [i for i, seen in enumerate(game.s_ever_reserved) if seen] == [card]
    assert game.s_reserved_by[card] == 1 and game.s_reserved_by.count(0) == 89  # every other entry: its initial
    assert json.loads(game.to_json())["vars"]["ever_reserved"][card] is True


def test_a_saved_game_holds_every_entry_and_plays_on_alike(satchels):
    game, rng = satchels.new_game(3, 11), random.Random(11)
    for _ in range(60):
        game.apply(rng.choice(game.legal_actions()))
    saved = json.loads(game.to_json())
    assert saved["version"] == 2
    assert len(saved["vars"]["ever_reserved"]) == 90 and len(saved["vars"]["reserved_by"]) == 90
    assert [len(seat["vars"]["satchels"]) for seat in saved["seats"]] == [5, 5, 5]
    assert [len(seat["vars"]["taken_now"]) for seat in saved["seats"]] == [6, 6, 6]
    again = satchels.from_json(game.to_json())
    assert again.to_json() == game.to_json()
    for _ in range(60):
        if game.is_over():
            break
        move = rng.choice(game.legal_actions())
        game.apply(move)
        again.apply(move)
    assert again.to_json() == game.to_json()
    assert satchels.replay(game.record()).to_json() == game.to_json()


@pytest.mark.parametrize(
    "where, value, says",
    [
        (("seats", 0, "satchels"), [1, 2], "seats[0].vars.satchels must be a list of 5 values, one for each key"),
        (("seats", 1, "satchels"), [0, 0, "x", 0, 0], "seats[1].vars.satchels[2] must be a whole number"),
        (("vars", "ever_reserved"), [0] * 90, "vars.ever_reserved[0] must be true or false"),
        (("vars", "reserved_by"), [7] * 90, "vars.reserved_by[0] must be a seat from 0 to 1"),
    ],
)
def test_a_saved_entry_that_does_not_fit_is_refused_with_its_path(satchels, where, value, says):
    data = json.loads(satchels.new_game(2, 1).to_json())
    if where[0] == "seats":
        data["seats"][where[1]]["vars"][where[2]] = value
    else:
        data["vars"][where[1]] = value
    with pytest.raises(satchels.StateError) as err:
        satchels.from_json(json.dumps(data))
    assert says in str(err.value)


def test_a_private_keyed_variable_shows_as_null_to_the_other_seats(folder):
    rules = diagnostics(
        folder,
        KEYED.replace("by: gem", "by: gem, private: true"),
        (PAIR, PAIR + "      - add(me.satchels[colour], 1)\n"),
    )
    path = folder / "keyed_engine.py"
    path.write_text(compile_to_module(rules), encoding="utf-8")
    E = load_engine(path)
    game = E.new_game(2, 1)
    game.s_satchels[0] = [0, 1, 0, 0, 2]
    assert game.observation(1)["seats"][0]["vars"] == {"satchels": None}
    assert game.observation(0)["seats"][0]["vars"] == {"satchels": [0, 1, 0, 0, 2]}
    from playtest import rl

    encoder = rl.Encoder(E, 2)
    vector = encoder.encode(game.observation(0))
    fields = {f.name: vector[f.start : f.stop].tolist() for f in encoder.fields}
    assert fields["seat[0].var[satchels]"] == [0, 0, 1, 0, 0, 2]  # not hidden, then each colour's entry
    assert fields["seat[1].var[satchels]"] == [1, 0, 0, 0, 0, 0]  # another seat's: hidden, its entries unsaid
    assert encoder.space().contains(vector)


def test_the_rl_vector_and_the_board_show_each_entry(satchels):
    from playtest import rl, terminal

    game = satchels.new_game(2, 2)
    game.s_satchels[0] = [0, 0, 3, 0, 1]
    game.s_ever_reserved[4] = True
    encoder = rl.Encoder(satchels, 2)
    vector = encoder.encode(game.observation(0))
    fields = {f.name: vector[f.start : f.stop].tolist() for f in encoder.fields}
    assert fields["seat[0].var[satchels]"] == [0, 0, 3, 0, 1]
    assert fields["var[ever_reserved]"][4] == 1 and sum(fields["var[ever_reserved]"]) == 1
    assert len(fields["var[reserved_by]"]) == 90 * 2  # a seat, one-hot, for each card
    assert encoder.space().contains(vector)
    text = terminal.draw_board(satchels, game, ["ann", "bob"], 0)
    assert "satchels white:0 blue:0 green:3 red:0 black:1" in text
    assert "ever_reserved #5:yes" in text


# --------------------------------------------------------------------------- spec -> sheets and diff

SAYS = {
    "en": (
        "Each player remembers “Satchels” (a number for each gem colour, at first 0).",
        "The game remembers “Reserved once” (yes or no for each card, at first no).",
        "add 1 to your “Satchels” for the chosen colour",
        "add 1 to your “Tokens taken this turn” for gold",
        "“Satchels” of the player for that colour is at least 2",
    ),
    "fr": (
        "Chaque joueur retient « Sacoches » (un nombre pour chaque couleur de gemme, au départ 0).",
        "ajoutez 1 à votre « Sacoches » pour la couleur choisie",
        "ajoutez 1 à votre « Jetons pris ce tour » pour la couleur or",
    ),
    "nl": ("Elke speler onthoudt ‘Tassen’ (een getal per edelsteenkleur, eerst 0).", "‘Tassen’ voor de gekozen kleur"),
    "sr": (
        "Сваки играч памти „Торбице“ (број, по један за сваку ставку: боја драгуља, на почетку 0).",
        "„Торбице“ за изабрану боју",
        "„Жетони узети у потезу“ (боја: злато)",
    ),
}


@pytest.mark.parametrize("lang", sorted(SAYS))
def test_the_sheets_phrase_a_keyed_variable_and_its_entries(lang):
    from compiler.sheets import content
    from compiler.sheets import render as render_sheet

    rules = pipeline.load_rules(str(SATCHELS))
    text = render_sheet.markdown(content.build(rules, lang), rules)
    for said in SAYS[lang]:
        assert said in text, said


def test_diff_says_what_a_variable_is_keyed_by(folder):
    a = diagnostics(folder, KEYED)
    b = diagnostics(folder, KEYED.replace("by: gem", "by: colour"))
    assert not isinstance(a, list) and not isinstance(b, list)
    text = render(compare(a, b), a, b, "en")
    assert "one for each\n      before: gem colour" in text and "after: token colour (the wild one too)" in text
    assert "first value" not in text  # the same 0 for every key
    fr = render(compare(a, b), a, b, "fr")
    assert "une valeur pour chaque" in fr and "couleur de jeton (l'or compris)" in fr
