"""Pass 4, check (compiler/check/build.py and its section modules, with compiler/check/types.py): names, types and sense.

Each test writes the catalogue's clean spec (tests/broken/_clean.yaml) with one change
into a temporary folder, with the card and noble tables beside it, and checks it; the
assertions name the exact message, where its caret points and its notes.
"""

from __future__ import annotations

import pathlib
import re
import shutil

import pytest

from compiler import pipeline
from compiler.check.types import (
    BOOL,
    CARD,
    COLOUR,
    FACE_UP_CARD,
    GEM,
    INT,
    NONE,
    PLAYER,
    RESERVED_CARD,
    SETUP,
    MapOf,
    SetOf,
    noun,
    wanted,
)
from compiler.diagnostics import CompileError, SourceMap, render

ROOT = pathlib.Path(__file__).resolve().parent.parent
CLEAN = (ROOT / "tests" / "broken" / "_clean.yaml").read_text(encoding="utf-8")


@pytest.fixture
def folder(tmp_path: pathlib.Path) -> pathlib.Path:
    for name in ("splendor_cards.csv", "splendor_nobles.csv"):
        shutil.copy(ROOT / "rulespec" / name, tmp_path / name)
    return tmp_path


def spec(*changes: tuple[str, str]) -> str:
    """The clean spec with each (old, new) replaced once; every `old` must be there."""
    text = CLEAN.replace("../../rulespec/", "")
    for old, new in changes:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    return text


def check(folder: pathlib.Path, text: str, name: str = "spec.yaml"):
    """The rules of a clean spec, or (diagnostics, sources) of a broken one."""
    (folder / name).write_text(text, encoding="utf-8")
    sources = SourceMap()
    try:
        return pipeline.load_rules(str(folder / name), sources)
    except CompileError as err:
        return err.diagnostics, sources


def diagnostics(folder, *changes):
    result = check(folder, spec(*changes))
    assert isinstance(result, tuple), "the spec checked clean"
    return result[0]


def one(folder, *changes):
    [d] = diagnostics(folder, *changes)
    return d


def marked(d, folder: pathlib.Path) -> str:
    """The text under a diagnostic's caret."""
    line = (folder / pathlib.Path(d.span.file).name).read_text(encoding="utf-8").splitlines()[d.span.line - 1]
    return line[d.span.col - 1 : d.span.end_col - 1]


def test_the_clean_spec_checks_clean(folder):
    rules = check(folder, spec())
    assert not isinstance(rules, tuple), rules
    assert [p.players for p in rules.players] == [2, 3, 4] and len(rules.cards) == 90


# --------------------------------------------------------------------------- types, in words


def test_type_nouns():
    assert [noun(t) for t in (INT, BOOL, GEM, COLOUR, PLAYER, CARD, FACE_UP_CARD, RESERVED_CARD, SETUP, NONE)] == [
        "a number",
        "a condition",
        "a gem colour",
        "a token colour",
        "a player",
        "a card",
        "a face-up card",
        "a reserved card",
        "a player-count row",
        "none",
    ]
    assert noun(SetOf(GEM)) == "a collection of gem colours"
    assert noun(MapOf(COLOUR, INT)) == "a table of numbers by token colour"
    assert wanted(BOOL) == "true or false" and wanted(INT) == "a number"


@pytest.mark.parametrize(
    "old, new, message, under",
    [
        (
            "condition: me.reserved < reserve_limit",
            "condition: me.reserved + reserve_limit",
            "a condition must be true or false, but this is a number",
            "me.reserved + reserve_limit",
        ),
        (
            "by: player.prestige,",
            "by: player.prestige >= 3,",
            "a ranking key must be a number, but this is a condition",
            "player.prestige >= 3",
        ),
        (
            "when: me.prestige >= target",
            "when: me.prestige",
            "an end condition must be true or false, but this is a number",
            "me.prestige",
        ),
        (
            "while: me.held > token_limit",
            "while: me.held",
            "a 'while' condition must be true or false, but this is a number",
            "me.held",
        ),
        (
            "condition: supply[colour] >= pair_minimum",
            "condition: supply[colour] >= 4 and me",
            "the right side of 'and' must be true or false, but this is a player",
            "me",
        ),
        (
            "condition: supply[colour] >= pair_minimum",
            "condition: supply[colour] + (me.held > 1) >= 4",
            "the right side of '+' must be a number, but this is a condition",
            "me.held > 1",
        ),
        (
            "condition: supply[colour] >= pair_minimum",
            "condition: supply[colour] >= colour",
            "'>=' compares numbers, but this is a gem colour",
            "colour",
        ),
        (
            "condition: supply[colour] >= pair_minimum",
            "condition: me == 1",
            "cannot compare a player with a number",
            "me == 1",
        ),
        (
            "condition: supply[colour] >= pair_minimum",
            "condition: 1 in gems",
            "a number is never in a collection of gem colours",
            "1 in gems",
        ),
        (
            "condition: supply[colour] >= pair_minimum",
            "condition: colour in 3",
            "'in' needs a collection on its right, but this is a number",
            "3",
        ),
        (
            "condition: supply[colour] >= pair_minimum",
            "condition: sum(1 for c in target) > 0",
            "'sum(... for c in ...)' needs a collection, but this is a number",
            "target",
        ),
        (
            "condition: supply[colour] >= pair_minimum",
            "condition: (if true then 1 else me) == 1",
            "both branches of 'if' must have the same type, but one is a number and the other a player",
            "if true then 1 else me",
        ),
        (
            "condition: supply[colour] >= pair_minimum",
            "condition: size(target) > 0",
            "'size' needs a collection, but this is a number",
            "target",
        ),
        (
            "condition: supply[colour] >= pair_minimum",
            "condition: me.prestige.points > 0",
            "a number has no attributes (no '.points')",
            "me.prestige.points",
        ),
        (
            "condition: supply[colour] >= pair_minimum",
            "condition: target[1] > 0",
            "a number cannot be indexed with [...]",
            "target[1]",
        ),
        (
            "condition: supply[colour] >= pair_minimum",
            "condition: me.bonus[me] > 0",
            "this table is indexed by a gem colour, not by a player",
            "me",
        ),
        (
            "      - take(colour, 2)\n",
            "      - acquire(colour)\n",
            "'acquire' needs a card, but this is a gem colour",
            "colour",
        ),
    ],
)
def test_type_mismatches_read_naturally(folder, old, new, message, under):
    d = one(folder, (old, new))
    assert (
        (d.code, d.message) == ("E410", message)
        or (d.code, d.message) == ("E403", message)
        or (d.code, d.message) == ("E404", message)
    )
    assert marked(d, folder) == under


def test_a_reserved_card_where_a_face_up_card_is_needed(folder):
    d = one(
        folder,
        (
            "  buy_reserved:\n    title: Buy one of your reserved cards\n    notation: buy reserved {card} {payment}"
            "\n    choose:\n      card: {domain: reserved, slots: reserve_limit}\n      payment: {domain: payment, "
            'price: "max(0, card.cost[c] - me.bonus[c])"}\n    effects:\n      - pay(payment)\n      - acquire(card)\n',
            "  buy_reserved:\n    title: Buy one of your reserved cards\n    notation: buy reserved {card} {payment}"
            "\n    choose:\n      card: {domain: reserved, slots: reserve_limit}\n      payment: {domain: payment, "
            'price: "max(0, card.cost[c] - me.bonus[c])"}\n    effects:\n      - pay(payment)\n      - acquire(card)\n'
            "      - reserve(card)\n",
        ),
    )
    assert d.message == "'reserve' needs a face-up card, but this is a reserved card"


def test_no_type_message_names_a_type_twice_or_misses_an_article(folder):
    """Whatever the mismatch, the message is English: no 'must be a condition', no 'a a'."""
    found = diagnostics(
        folder,
        (
            "condition: supply[colour] >= pair_minimum",
            "condition: (me + 1) and not 3 and -me == gems and size(me) and min(me, 2) and abs(me)",
        ),
    )
    assert len(found) >= 6
    for d in found:
        assert not re.search(r"\b(a|an) (a|an|true)\b|must be a condition|must be an? true", d.message), d.message


# --------------------------------------------------------------------------- names


def test_an_unknown_name_gets_a_did_you_mean(folder):
    d = one(folder, ("condition: supply[colour] >= pair_minimum", "condition: supply[colour] >= pair_minimun"))
    assert (d.code, d.message, d.notes) == ("E401", "unknown name 'pair_minimun' (did you mean 'pair_minimum'?)", ())


@pytest.mark.parametrize(
    "old, new, note",
    [
        ("take(colour, 2)", "take(purpel, 2)", "a colour is one of: white, blue, green, red, black, gold"),
        (
            "supply[colour] >= pair_minimum",
            "supply[purpel] >= pair_minimum",
            "a colour is one of: white, blue, green, red, black, gold",
        ),
        (
            "supply[colour] >= pair_minimum",
            "me.bonus[purpel] >= 1",
            "a gem colour is one of: white, blue, green, red, black",
        ),
        (
            "supply[colour] >= pair_minimum",
            "purpel == colour",
            "a gem colour is one of: white, blue, green, red, black",
        ),
        (
            "supply[colour] >= pair_minimum",
            "colour != purpel",
            "a gem colour is one of: white, blue, green, red, black",
        ),
        ("supply[colour] >= pair_minimum", "purpel in gems", "a gem colour is one of: white, blue, green, red, black"),
    ],
)
def test_an_unknown_name_where_a_colour_is_wanted_lists_the_colours(folder, old, new, note):
    d = one(folder, (old, new))
    assert (d.code, d.message, d.notes) == ("E401", "unknown name 'purpel'", (note,))
    assert marked(d, folder) == "purpel"


def test_an_unknown_name_elsewhere_has_no_colour_note(folder):
    d = one(folder, ("when: me.prestige >= target", "when: me.prestige >= purpel"))
    assert (d.message, d.notes) == ("unknown name 'purpel'", ())


def test_a_built_in_name_cannot_name_a_value(folder):
    d = one(folder, ("  pair_minimum: 4\n", "  pair_minimum: 4\n  supply: 3\n"))
    assert (d.code, d.message) == ("E406", "'supply' is a built-in name and cannot name a value")


# --------------------------------------------------------------------------- tables and sense


def test_a_missing_table_has_its_own_code(folder):
    d = one(folder, ("cards: splendor_cards.csv", "cards: cards/splendor_card.csv"))
    assert (d.code, d.message) == ("E112", f"cards table not found: {folder.as_posix()}/cards/splendor_card.csv")
    assert d.notes == ("the path is relative to the folder of the spec file",)
    assert marked(d, folder) == "cards/splendor_card.csv"


def test_an_unreadable_table_has_its_own_code(folder):
    (folder / "tables.csv").mkdir()
    d = one(folder, ("nobles: splendor_nobles.csv", "nobles: tables.csv"))
    assert (d.code, d.message) == (
        "E112",
        f"cannot read the nobles table {folder.as_posix()}/tables.csv: is a directory",
    )
    (folder / "latin1.csv").write_bytes("points,white\n3,caf\u00e9\n".encode("latin-1"))
    d = one(folder, ("nobles: splendor_nobles.csv", "nobles: latin1.csv"))
    assert d.message == (
        f"cannot read the nobles table {folder.as_posix()}/latin1.csv: not valid UTF-8 (byte 0xe9 at offset 18)"
    )


def test_too_few_cards_points_at_face_up(folder):
    d = one(folder, ("4: {gems: 7, gold: 5, nobles: 5, face_up: 4}", "4: {gems: 7, gold: 5, nobles: 5, face_up: 25}"))
    assert (d.code, d.message) == ("E504", "4 players show 25 face-up cards of level 3, but level 3 has only 20 cards")
    assert marked(d, folder) == "25"


def test_too_few_nobles_points_at_nobles(folder):
    d = one(
        folder,
        ("3: {gems: 5, gold: 5, nobles: 4, face_up: 4}", "3: {gems: 5, gold: 5, nobles: 4, face_up: 4}"),
        (
            "4: {gems: 7, gold: 5, nobles: 5, face_up: 4}",
            "4:\n    gems: 7\n    gold: 5\n    nobles: 11\n    face_up: 4",
        ),
    )
    assert (d.code, d.message) == ("E503", "4 players reveal 11 nobles, but there are only 10 noble tiles")
    assert (d.span.line, marked(d, folder)) == (16, "11")


def test_a_gap_in_the_player_table_points_at_the_row_after_it(folder):
    d = one(
        folder,
        ("  3: {gems: 5, gold: 5, nobles: 4, face_up: 4}\n", ""),
        ("4: {gems: 7, gold: 5, nobles: 5, face_up: 4}", "5: {gems: 7, gold: 5, nobles: 5, face_up: 4}"),
    )
    assert (d.code, d.message) == ("E502", "the player-count table has a gap: 2 and 5 players are listed but not 3, 4")
    assert marked(d, folder) == "5: {gems: 7, gold: 5, nobles: 5, face_up: 4}"
    assert d.notes == (
        "add rows for 3 and 4 players (the row for 2 players is at line 11), or remove the row for 5 players",
    )


def test_a_variant_is_blamed_where_it_changes_the_table(folder):
    check(folder, spec(), "base.yaml")
    variant = "spec: 1\nname: wide\nextends: base.yaml\ntitle: Wide rows\nplayers:\n  3: {face_up: 30}\n"
    diagnostics, sources = check(folder, variant, "wide.yaml")
    [d] = diagnostics
    assert d.code == "E504" and d.span.file.endswith("wide.yaml") and (d.span.line, d.span.col) == (6, 16)
    assert render(d, sources).splitlines()[1:] == [" 6 |   3: {face_up: 30}", "   |                ^^"]


def test_a_gap_made_by_a_variant_names_the_file_of_the_other_row(folder):
    check(folder, spec(), "base.yaml")
    variant = "spec: 1\nname: six\nextends: base.yaml\ntitle: Six\nplayers:\n  6: {add: true, gems: 9, gold: 5, nobles: 7, face_up: 4}\n"
    diagnostics, _ = check(folder, variant, "six.yaml")
    [d] = diagnostics
    assert d.code == "E502" and d.span.file.endswith("six.yaml") and d.span.line == 6
    assert d.notes == (
        f"add a row for 5 players (the row for 4 players is at {folder.as_posix()}/base.yaml:13), "
        "or remove the row for 6 players",
    )


def test_an_action_that_can_never_be_taken(folder):
    d = one(folder, ("condition: supply[colour] >= pair_minimum", "condition: supply[colour] >= 8"))
    assert d.code == "E507" and d.message.startswith("action 'take_pair' can never be taken")
    assert marked(d, folder) == "supply[colour] >= 8"


def test_an_end_that_can_never_fire(folder):
    d = one(folder, ("  target: 15\n", "  target: 500\n"))
    assert d.code == "E509" and d.notes == ("all cards and nobles together are worth 170 prestige",)
    assert marked(d, folder) == "me.prestige >= target"


def test_every_problem_of_the_pass_is_reported(folder):
    found = diagnostics(
        folder,
        ("take(colour, 2)", "take(purpel, 2)"),
        ("when: me.prestige >= target", "when: me.prestige"),
        ("4: {gems: 7, gold: 5, nobles: 5, face_up: 4}", "4: {gems: 7, gold: 5, nobles: 11, face_up: 4}"),
    )
    assert [d.code for d in found] == ["E503", "E401", "E410"]


# --------------------------------------------------------------------------- where chosen cards go (E510)

RESERVE_EFFECTS = "      - reserve(card)\n      - refill(card)\n"


@pytest.mark.parametrize(
    "effects, message, line_of",
    [
        (
            "      - refill(card)\n",
            "refill(card) while the chosen card is still in its face-up slot: it would be lost; move it first with "
            "reserve, acquire or bury",
            "refill",
        ),
        (
            "      - reserve(card)\n      - bury(card)\n      - refill(card)\n",
            "bury(card): the chosen card left its face-up slot already (reserve, line 45); a card moves once",
            "bury",
        ),
        (
            "      - reserve(card)\n      - refill(card)\n      - refill(card)\n",
            "refill(card): its slot was refilled already (line 46); the card there now would be lost",
            "refill(card)\n",
        ),
        (
            '      - "if round >= 2: reserve(card)"\n      - refill(card)\n',
            "refill(card) may run while the chosen card is still in its face-up slot (when the 'if' at line 45 does "
            "not move it): it would be lost",
            "refill",
        ),
        (
            '      - "for c in gems: reserve(card)"\n      - refill(card)\n',
            "reserve(card) inside 'for' would act on the chosen card at every pass; a card moves once",
            "reserve",
        ),
    ],
)
def test_a_chosen_card_moves_once_and_its_slot_is_refilled_after(folder, effects, message, line_of):
    d = one(folder, (RESERVE_EFFECTS, effects))
    assert (d.code, d.message) == ("E510", message)
    assert marked(d, folder).startswith(line_of.strip())


def test_a_reserved_card_moves_once(folder):
    d = one(
        folder,
        (
            "      - pay(payment)\n      - acquire(card)\n  pass:",
            "      - pay(payment)\n      - bury(card)\n      - acquire(card)\n  pass:",
        ),
    )
    assert (
        d.message == "acquire(card): the chosen card left your reserved cards already (bury, line 66); "
        "a card moves once"
    )


def test_a_card_moved_in_both_branches_of_an_if_may_be_refilled(folder):
    rules = check(
        folder,
        spec((RESERVE_EFFECTS, '      - "if round >= 2: reserve(card) else: bury(card)"\n      - refill(card)\n')),
    )
    assert not isinstance(rules, tuple), rules[0]


def test_a_choice_that_is_not_optional_is_never_none_said_once(folder):
    d = one(
        folder,
        (
            "    condition: supply[colour] >= pair_minimum\n",
            "    condition: colour != none and supply[colour] >= pair_minimum\n",
        ),
        ("      - take(colour, 2)\n", '      - "if colour != none: take(colour, 2)"\n'),
    )
    assert (d.code, d.message) == (
        "E410",
        "'colour' is never none: its choice is not optional (write optional: true in the choice to offer none)",
    )
    assert marked(d, folder) == "colour != none"


def test_an_optional_choice_may_be_none(folder):
    rules = check(
        folder,
        spec(
            ("      colour: {domain: gem}\n", "      colour: {domain: gem, optional: true}\n"),
            (
                "    condition: supply[colour] >= pair_minimum\n",
                "    condition: colour != none and supply[colour] >= pair_minimum\n",
            ),
        ),
    )
    assert not isinstance(rules, tuple), rules[0]


# --------------------------------------------------------------------------- when the payment is made (E511)

BUY_EFFECTS = "      - pay(payment)\n      - acquire(card)\n      - refill(card)\n"


@pytest.mark.parametrize(
    "effects, message",
    [
        (
            "      - put_back(gold, 1)\n" + BUY_EFFECTS,
            "pay(payment) after put_back(gold, 1) (line 55): the payment was chosen from the tokens held when the action "
            "began; pay first",
        ),
        (
            BUY_EFFECTS + "      - pay(payment)\n",
            "pay(payment) after pay(payment) (line 55): the payment was chosen from the tokens held when the action "
            "began; pay first",
        ),
        (
            '      - "for c in gems: pay(payment)"\n      - acquire(card)\n      - refill(card)\n',
            "pay(payment) inside 'for' would pay at every pass",
        ),
    ],
)
def test_the_payment_comes_before_tokens_leave_the_player(folder, effects, message):
    d = one(folder, (BUY_EFFECTS, effects))
    assert (d.code, d.message) == ("E511", message)


def test_tokens_taken_before_the_payment_are_fine(folder):
    rules = check(folder, spec((BUY_EFFECTS, '      - "if supply[gold] >= 1: take(gold, 1)"\n' + BUY_EFFECTS)))
    assert not isinstance(rules, tuple), rules[0]


def test_a_chosen_noble_visits_once(folder):
    d = one(folder, ("      - visit(noble)\n", "      - visit(noble)\n      - visit(noble)\n"))
    assert (d.code, d.message) == (
        "E510",
        f"visit(noble): the chosen noble left the row already (visit, line {d.span.line - 1}); a noble visits once",
    )


@pytest.mark.parametrize(
    "notation, problem",
    [
        ("take2 {colour}[", "has a '[' without its ']'"),
        ("take2 ]{colour}", "has a ']' without its '['"),
        ("take2 [a [b {colour}]]", "opens a '[' inside another"),
    ],
)
def test_a_notation_whose_optional_parts_do_not_pair_up_is_one_error(folder, notation, problem):
    d = one(folder, ("    notation: take2 {colour}\n", f"    notation: {notation}\n"))
    assert (d.code, d.message) == (
        "E506",
        f"notation {problem}: an optional part is written [words {{choice}}], once, not inside another",
    )


OPTIONAL_COLOUR = ("      colour: {domain: gem}\n", "      colour: {domain: gem, optional: true}\n")


@pytest.mark.parametrize(
    "condition, effect",
    [
        ("colour != none and supply[colour] >= pair_minimum", "take(colour, 2)"),  # the condition held
        ("colour == none or supply[colour] >= pair_minimum", '"if colour != none: take(colour, 2)"'),
        (
            "(if colour != none then supply[colour] >= pair_minimum else true)",
            '"if colour == none: take(gold, 1) else: take(colour, 2)"',
        ),
    ],
)
def test_an_optional_choice_is_used_where_a_test_found_it_set(folder, condition, effect):
    rules = check(
        folder,
        spec(
            OPTIONAL_COLOUR,
            ("    condition: supply[colour] >= pair_minimum\n", f"    condition: {condition}\n"),
            ("      - take(colour, 2)\n", f"      - {effect}\n"),
        ),
    )
    assert not isinstance(rules, tuple), rules[0]


def test_an_optional_choice_used_unchecked_may_be_none_said_once(folder):
    d = one(folder, OPTIONAL_COLOUR)  # `supply[colour] >= pair_minimum` and `take(colour, 2)`: none is possible
    assert (d.code, d.message) == (
        "E410",
        "'colour' may be none here (its choice is optional): test "
        "'colour != none' first, as in \"colour != none and ...\"",
    )
    assert marked(d, folder) == "colour"


def test_only_an_optional_choice_can_be_none(folder):
    d = one(
        folder,
        (
            "    condition: supply[colour] >= pair_minimum\n",
            "    condition: me != none and supply[colour] >= pair_minimum\n",
        ),
    )
    assert (d.code, d.message) == ("E410", "'me' is never none: only an optional choice can be none")


def test_an_effect_that_can_move_more_tokens_than_its_condition_ensures_is_a_warning(tmp_path, monkeypatch):
    from click.testing import CliRunner

    from app.cli import main

    monkeypatch.chdir(ROOT)
    variant = tmp_path / "pm1.yaml"
    variant.write_text(
        "spec: 1\nname: pm1\nextends: official\ntitle: {en: P, fr: P, nl: P, sr: P}\nvalues:\n  pair_minimum: 1\n",
        encoding="utf-8",
    )
    result = CliRunner().invoke(main, ["check", "-W", str(variant)])
    assert result.exit_code == 0 and "; 1 warning)" in result.stdout
    assert (
        "rulespec/official.yaml:93:9: warning[E512]: take(colour, 2) can move 2 tokens where the condition of "
        "'take_pair' ensures 1 (pair_minimum is 1): the engine stops with an error when fewer are there"
    ) in result.stderr
    result = CliRunner().invoke(main, ["check", "official", "variants"])
    assert result.exit_code == 0 and "warning" not in result.stdout  # the shipped rules ensure their tokens


@pytest.mark.parametrize(
    "condition",
    [
        "supply[colour] // player_count >= 1",
        "supply[colour] % 3 >= 1",
        "supply[colour] // max(1, turn) >= 0",
        "sum(deck[l] for l in levels) >= 1",
        "deck[3] >= 1",
        "face_up[1] >= 1",
        "deck[player_count - 1] >= 0",
    ],
)
def test_divisors_that_are_never_0_and_indexes_that_are_always_levels_are_clean(folder, condition):
    rules = check(folder, spec(("    condition: supply[colour] >= pair_minimum\n", f"    condition: {condition}\n")))
    assert not isinstance(rules, tuple), rules[0]


@pytest.mark.parametrize(
    "condition, code, caret",
    [
        ("supply[colour] // me.purchased >= 1", "E513", "me.purchased"),  # 0 before the first purchase
        ("sum(deck[l + 1] for l in levels) >= 1", "E514", "l + 1"),
        ("deck[player_count] >= 1", "E514", "player_count"),  # 4 players: no level 4
    ],
)
def test_divisors_that_can_be_0_and_indexes_that_can_be_no_level_are_errors(folder, condition, code, caret):
    d = one(folder, ("    condition: supply[colour] >= pair_minimum\n", f"    condition: {condition}\n"))
    assert d.code == code and marked(d, folder) == caret


def test_a_spec_where_no_end_trigger_is_sure_to_fire_is_a_warning(tmp_path, monkeypatch):
    from click.testing import CliRunner

    from app.cli import main

    monkeypatch.chdir(ROOT)
    variant = tmp_path / "endless.yaml"
    variant.write_text(
        "spec: 1\nname: endless\nextends: official\ntitle: {en: E, fr: E, nl: E, sr: E}\n"
        "values:\n  target: 100\nend:\n  deadlock:\n    remove: {en: gone, fr: gone, nl: gone, sr: gone}\n",
        encoding="utf-8",
    )
    result = CliRunner().invoke(main, ["check", "-W", str(variant)])
    assert result.exit_code == 0 and "; 1 warning)" in result.stdout
    assert (
        "rulespec/official.yaml:243:3: warning[E516]: no end trigger is sure to fire: a game where nobody "
        "satisfies 'target' never ends"
    ) in result.stderr
    kept = tmp_path / "kept.yaml"  # a round limit ends every game
    kept.write_text(
        variant.read_text(encoding="utf-8").replace(
            "  deadlock:\n    remove: {en: gone, fr: gone, nl: gone, sr: gone}\n",
            "  deadlock:\n    remove: {en: gone, fr: gone, nl: gone, sr: gone}\n  cap:\n    add: true\n    title: {en: C, fr: C, nl: C, sr: C}\n"
            "    when: round > 50\n    finish: immediately\n",
        ),
        encoding="utf-8",
    )
    result = CliRunner().invoke(main, ["check", "-W", str(kept)])
    assert result.exit_code == 0 and "warning" not in result.stdout, result.output


GOLD_GIFT = (
    "end_of_turn:\n",
    "end_of_turn:\n  gold_gift:\n    title: Gold gift\n    notation: gift {colour}\n"
    "    choose:\n      colour: {domain: gem}\n    condition: CONDITION\n"
    "    effects:\n      - take(TAKEN, 2)\nRESOLVE",
)


def overdraw_warnings(folder, condition: str, taken: str, resolve: str) -> list[str]:
    """The E512 warnings of the clean spec with an end-of-turn step `gold_gift` that takes 2 tokens."""
    old, new = GOLD_GIFT
    new = new.replace("CONDITION", condition).replace("TAKEN", taken)
    new = new.replace("RESOLVE", f"    resolve: {resolve}\n" if resolve else "")
    (folder / "spec.yaml").write_text(spec((old, new)), encoding="utf-8")
    checked = pipeline.check_spec(str(folder / "spec.yaml"), SourceMap())
    return [f"{d.span.line}:{d.span.col}: {d.message}" for d in checked.warnings if d.code == "E512"]


@pytest.mark.parametrize("resolve", ["", "choice", "all"])
def test_an_overdraw_is_a_warning_in_every_kind_of_decision(folder, resolve):
    assert overdraw_warnings(folder, "supply[gold] >= 1", "gold", resolve) == [
        "80:9: take(gold, 2) can move 2 tokens where the condition of 'gold_gift' ensures 1: the engine stops with "
        "an error when fewer are there"
    ]


@pytest.mark.parametrize("condition", ["supply[gold] >= 2", "supply[gold] >= 4"])
def test_choices_resolved_at_once_share_what_their_condition_ensures(folder, condition):
    # each of the 5 gem choices is found legal before the first takes its 2 gold: 10 are needed
    k = condition.split()[-1]
    assert overdraw_warnings(folder, condition, "gold", "all") == [
        "80:9: take(gold, 2) moves 2 tokens for each of the up to 5 choices 'gold_gift' resolves at once "
        f"(resolve: all), where its condition, checked for all of them before the first, ensures {k} in all: the "
        "engine stops with an error when fewer are there"
    ]
    assert overdraw_warnings(folder, condition, "gold", "choice") == []  # one choice a turn: its own condition


def test_choices_resolved_at_once_are_clean_where_each_draws_its_own_tokens(folder):
    assert overdraw_warnings(folder, "supply[colour] >= 2", "colour", "all") == []  # each choice its own colour


# Mistakes in independent parts of the clean spec, each found by its own pass (one line each).
INDEPENDENT_MISTAKES = {
    "schema, an action": ("    notation: take2 {colour}\n", "    notaton: take2 {colour}\n"),
    "name, another action": (
        "      all(supply[c] >= 1 for c in picked)\n",
        "      all(suply[c] >= 1 for c in picked)\n",
    ),
    "schema, an end trigger": ("    finish: complete_round\n", "    finish: end_of_round\n"),
    "attribute, a step": ("    condition: me.tokens[colour] >= 1\n", "    condition: me.tokns[colour] >= 1\n"),
    "type, an action": ("    condition: me.reserved < reserve_limit\n", "    condition: me.reserved < true\n"),
}


def reported(folder, *changes) -> set[tuple]:
    return {(d.code, d.span.line, d.span.col, d.message) for d in diagnostics(folder, *changes)}


@pytest.mark.parametrize(
    "one, other", [(a, b) for i, a in enumerate(INDEPENDENT_MISTAKES) for b in list(INDEPENDENT_MISTAKES)[i + 1 :]]
)
def test_two_independent_mistakes_report_at_least_what_each_reports_alone(folder, one, other):
    first, second = INDEPENDENT_MISTAKES[one], INDEPENDENT_MISTAKES[other]
    alone = reported(folder, first) | reported(folder, second)
    assert reported(folder, first, second) >= alone


SWEEP = """  refresh_row:
    add: true
    before: pass
    title: {en: Refresh a row, fr: R, nl: R, sr: R}
    notation: refresh {level}
    choose:
      level: {domain: deck}
    condition: deck[level] >= face_up[level]
    effects:
"""


@pytest.mark.parametrize(
    "effects, warned",
    [
        # a row swept with two loops: the first buries every card, so the second refills nothing
        (['"for card in market[level]: bury(card)"', '"for card in market[level]: refill(card)"'], True),
        # one loop (variants/fresh-rows.yaml), or a loop that puts back what it takes: no warning
        (
            ['"for card in market[level]: bury(card); refill(card)"', '"for card in market[level]: reserve(card)"'],
            False,
        ),
        # taking out under an `if` may leave some: no warning
        (
            [
                '"for card in market[level]: if card.points == 0: bury(card)"',
                '"for card in market[level]: refill(card)"',
            ],
            False,
        ),
    ],
)
def test_a_loop_over_what_an_earlier_loop_emptied_is_a_warning(tmp_path, monkeypatch, effects, warned):
    """Issue 26, item 17: the sweep was accepted, left the row empty for the rest of the game and was
    an always-legal move that changed nothing."""
    from click.testing import CliRunner

    from app.cli import main

    monkeypatch.chdir(ROOT)
    variant = tmp_path / "sweep.yaml"
    variant.write_text(
        "spec: 1\nname: sweep2\nextends: official\nactions:\n" + SWEEP + "".join(f"      - {e}\n" for e in effects),
        encoding="utf-8",
    )
    result = CliRunner().invoke(main, ["check", "-W", str(variant)])
    assert result.exit_code == 0, result.output
    if not warned:
        assert "warning" not in result.stdout, result.output
        return
    assert "; 1 warning)" in result.stdout
    assert result.stderr.replace(str(tmp_path) + "/", "").splitlines() == [
        "sweep.yaml:15:22: warning[E557]: this loop over market[level] walks nothing: the loop before it takes "
        "every element out of market[level], so its effects are never carried out",
        ' 15 |       - "for card in market[level]: refill(card)"',
        "    |                      ^^^^^^^^^^^^^",
        "  = note: the loop that empties it is at line 14",
        "  = note: do both in one loop, as in `for card in market[level]: bury(card); refill(card)`",
    ]
