"""A series of the base cards (issue 28 item 2): a second table of development cards, as The Orient
adds thirty cards to the ninety (tests/specs/card-series.yaml: thirteen eastern cards, `kinds: cards:
series: east`), left out of the base game's deal and dealt by zones that name the series (`series:
east`: a deck per level, two face up per level), bought and reserved through the base actions'
choices across the base rows and the eastern rows, each slot refilled from its own deck.

Spec -> diagnostics (a series on another kind, a badly named one, a zone of the base cards naming
neither a place nor a series, a series the cards have not, a series beside a place, a series' table
with another header or no rows, a row of a series larger than its level can deal, a series dealt
twice: each located), spec -> engine behaviour (the base decks deal the base table only, the eastern
zones the series, an eastern card bought and counted, its slot refilled from the eastern deck, a blind
reserve from an eastern deck hidden from the others, a saved game's series cards checked and
reloaded, random games), spec -> sheet text in four languages and the diff's.
"""

from __future__ import annotations

import json
import pathlib
import random

import pytest
from click.testing import CliRunner

from app import cli
from compiler import pipeline
from compiler.diagnostics import CompileError, SourceMap
from compiler.diff import compare, render
from tests.helpers.engines import ROOT, load, load_engine, position

SPECS = ROOT / "tests" / "specs"
SPEC = SPECS / "card-series.yaml"
TEXT = SPEC.read_text(encoding="utf-8")
EAST = {1: 5, 2: 4, 3: 4}  # east-cards.csv: how many eastern cards of each level
BASE = 90  # the official table's cards: the eastern cards are 90 to 102


@pytest.fixture(scope="module")
def engine(tmp_path_factory):
    path = tmp_path_factory.mktemp("series") / "card_series.py"
    path.write_text(pipeline.compile_spec(str(SPEC)).text, encoding="utf-8")
    return load_engine(path)


def _spec(tmp_path: pathlib.Path, *changes: tuple[str, str], table: str | None = None) -> pathlib.Path:
    text = TEXT
    for old, new in changes:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    path = tmp_path / "spec.yaml"
    path.write_text(text, encoding="utf-8")
    csv = table if table is not None else (SPECS / "east-cards.csv").read_text(encoding="utf-8")
    (tmp_path / "east-cards.csv").write_text(csv, encoding="utf-8")
    return path


def diagnostics(tmp_path: pathlib.Path, *changes: tuple[str, str], table: str | None = None):
    """(code, message, the text under the caret, its file's name) of each diagnostic of the spec."""
    path = _spec(tmp_path, *changes, table=table)
    try:
        pipeline.load_rules(str(path), SourceMap())
    except CompileError as err:
        out = []
        for d in err.diagnostics:
            lines = pathlib.Path(d.span.file).read_text(encoding="utf-8").split("\n")
            caret = lines[d.span.line - 1][d.span.col - 1 : d.span.end_col - 1]
            out.append((d.code, " ".join((d.message, *d.notes)), caret, pathlib.Path(d.span.file).name))
        return out
    return []


# --------------------------------------------------------------------------- spec -> diagnostics

SERIES = "    series:\n      east:\n"  # a series' name is a name (the schema's E105)
DECKS = "    holds: cards\n    series: east\n    shape: pile\n"


@pytest.mark.parametrize(
    "old, new, code, caret, says",
    [
        # a zone of the base cards that names no place of the base game, and no series
        (DECKS, "    holds: cards\n    shape: pile\n", "E541", "cards", "or the series it deals: 'series: east'"),
        (DECKS, "    holds: cards\n    series: west\n    shape: pile\n", "E541", "west", "the series 'west'"),
        (DECKS, "    holds: cards\n    series: eest\n    shape: pile\n", "E541", "eest", "did you mean 'east'?"),
        (
            "    shape: display\n    by: level\n    place: face_up\n",
            "    shape: display\n    by: level\n    place: face_up\n    series: east\n",
            "E541",
            "east",
            "a zone naming a place of the base game holds what the base game puts there",
        ),
        (SERIES, "    series:\n      East:\n", "E105", "East", "must be a name"),
        ("    size: 2\n    source: east_decks\n", "    size: 5\n    source: east_decks\n", "E542", "5", "of level 2"),
        ("    by: level\n    start: all\n", "    by: level\n", "E127", "east", "no zone deals the series 'east'"),
        ("default: plain", "default: triple", "E120", "triple", "the default of column 'ability' does not fit"),
        ("default: 1,", "default: -1,", "E120", "-1", "a whole number from 0 to 1000, not -1"),
        (
            "      level: {type: number, group: true}\n",
            "      level: {type: number, group: true, default: 1}\n",
            "E120",
            "1",
            "a group column has no default",
        ),
        (
            "    source: east_decks\n    start: dealt\n",
            "    start: dealt\n",
            "E560",
            "dealt",
            "zone 'east_rows' deals the cards again: zone 'east_decks'",
        ),
    ],
)
def test_a_series_mistake_is_located(tmp_path, old, new, code, caret, says):
    found = diagnostics(tmp_path, (old, new))
    assert any(c == code and says in m and caret == at for c, m, at, _ in found), found


def test_a_series_of_another_kind_is_refused(tmp_path):
    found = diagnostics(
        tmp_path,
        (
            "kinds:\n  cards:\n",
            "kinds:\n  nobles:\n    series: {west: {title: West, table: east-cards.csv}}\n  cards:\n",
        ),
    )
    assert any(
        c == "E127" and "'series' applies to the base kind 'cards' only, not to 'nobles'" in m and at == "series"
        for c, m, at, _ in found
    ), found


def test_a_series_table_is_read_with_the_kinds_header(tmp_path):
    found = diagnostics(tmp_path, table="level,bonus,points,cost\n1,white,0,1\n")
    assert [(c, f) for c, m, _, f in found if "must start with the header" in m] == [("E107", "east-cards.csv")]
    assert "level,bonus,points,white,blue,green,red,black,ability,bonuses" in found[0][1]
    assert "(a table may leave out ability, bonuses: they have a default)" in found[0][1]


def test_a_table_may_leave_out_the_columns_with_a_default(tmp_path):
    """The base table has neither `ability` nor `bonuses`: its cards take the defaults; a series' table
    may leave them out too, and its cards then take them as well."""
    plain = "level,bonus,points,white,blue,green,red,black\n1,white,1,0,2,1,0,0\n2,red,1,0,2,1,0,0\n3,red,1,0,2,1,0,0\n"
    double = "          double: {en: Double, fr: Double, nl: Dubbel, sr: Двострука}\n"
    path = _spec(tmp_path, ("size: 2\n", "size: 1\n"), (double, ""), table=plain)
    rules = pipeline.load_rules(str(path), SourceMap())
    cards = next(k for k in rules.kinds if k.name == "cards")
    assert {(cards.value(c, "ability"), cards.value(c, "bonuses")) for c in cards.components} == {("plain", 1)}


def test_a_series_table_without_rows_is_refused(tmp_path):
    found = diagnostics(tmp_path, table="level,bonus,points,white,blue,green,red,black\n")
    assert any(c == "E124" and "series 'east'" in m and at == "east-cards.csv" for c, m, at, _ in found), found


# --------------------------------------------------------------------------- spec -> engine


def test_the_base_deal_leaves_the_series_out(engine):
    assert len(engine.CARDS) == BASE + sum(EAST.values())
    assert all(c < BASE for deck in engine.LEVEL_CARDS for c in deck)
    state = position(engine, 2, seed=4)
    base = [c for row in state["market"].values() for c in row] + [c for d in state["decks"].values() for c in d]
    assert sorted(base) == list(range(BASE))
    east = state["zones"]
    for level, count in EAST.items():
        rows, deck = east["east_rows"][level - 1], east["east_decks"][level - 1]
        assert len(rows) == 2 and len(rows) + len(deck) == count
        assert all(c >= BASE and engine.CARDS[c].level == level for c in rows + deck)


def _east_slot(engine, state: dict, level: int) -> tuple[str, int]:
    """The buy action's text for the first eastern face-up card of `level` (the base rows' 12 positions come first)."""
    card = state["zones"]["east_rows"][level - 1][0]
    return f"{12 + 2 * (level - 1) + 1}", card


def test_an_eastern_card_is_bought_like_a_base_card_and_refilled_from_its_own_deck(engine):
    state = position(engine, 2, seed=7)
    slot, card = _east_slot(engine, state, 1)
    need = {c: max(0, n) for c, n in zip(engine.GEMS, engine.CARDS[card].cost, strict=True)}
    state["supply"] = {c: state["supply"][c] - need.get(c, 0) for c in state["supply"]}
    state["seats"][0]["tokens"] = {**state["seats"][0]["tokens"], **need}
    game = load(engine, state)
    east_deck = list(state["zones"]["east_decks"][0])
    decks = {k: list(v) for k, v in state["decks"].items()}
    game.apply(engine.string_to_action(f"buy {slot}"))
    if game.phase == "payment":
        game.apply(game.legal_actions()[0])
    after = json.loads(game.to_json())
    assert card in after["seats"][0]["purchased"]
    colour = engine.CARDS[card].bonus
    assert game.bonus[0][engine.GEMS.index(colour)] == 1
    assert game.prestige[0] == engine.CARDS[card].points
    assert after["zones"]["east_rows"][0] == [east_deck[0], state["zones"]["east_rows"][0][1]]  # its top
    assert after["zones"]["east_decks"][0] == east_deck[1:]
    assert after["decks"] == decks  # the base decks untouched


def test_an_eastern_double_card_gives_two_bonuses(engine):
    """A column of the series (`bonuses`, the kind's `bonus_count`) counts as the base cards' does."""
    double = next(c.id for c in engine.CARDS if c.ability == "double")
    assert engine.CARDS[0].ability == "plain" and engine.CARDS[0].bonuses == 1  # the base table's default
    state = position(engine, 2, seed=7)
    row = state["zones"]["east_rows"][1]
    if double not in row:  # put it face up: swap it with the row's first card, wherever it lies
        deck = state["zones"]["east_decks"][1]
        deck[deck.index(double)], row[0] = row[0], double
    need = dict(zip(engine.GEMS, engine.CARDS[double].cost, strict=True))
    state["supply"] = {c: n - need.get(c, 0) for c, n in state["supply"].items()}
    state["seats"][0]["tokens"] = {**state["seats"][0]["tokens"], **need}
    game = load(engine, state)
    game.apply(engine.string_to_action(f"buy {12 + 2 + row.index(double) + 1}"))
    while game.phase == "payment":
        game.apply(game.legal_actions()[0])
    assert game.bonus[0][engine.GEMS.index(engine.CARDS[double].bonus)] == 2


def test_an_eastern_card_is_reserved_face_up_or_blind(engine):
    state = position(engine, 2, seed=9)
    slot, card = _east_slot(engine, state, 2)
    game = load(engine, state)
    game.apply(engine.string_to_action(f"reserve {slot}"))
    assert card in game.reserved[0]
    top = json.loads(game.to_json())["zones"]["east_decks"][2][0]
    game.apply(engine.string_to_action("reserve east 3"))
    assert top in game.reserved[1]
    seen_by_other = game.observation(0)["seats"][1]["reserved"]
    assert seen_by_other == [None] and game.observation(1)["seats"][1]["reserved"] == [top]


def test_a_saved_game_holds_each_eastern_card_once(engine):
    state = position(engine, 3, seed=2)
    card = state["zones"]["east_rows"][0][0]
    twice = json.loads(json.dumps(state))
    twice["seats"][1]["purchased"] = [card]
    with pytest.raises(engine.StateError, match=f"card {card} appears more than once"):
        load(engine, twice)
    gone = json.loads(json.dumps(state))
    gone["zones"]["east_decks"][0] = gone["zones"]["east_decks"][0][1:]
    with pytest.raises(engine.StateError, match="are nowhere"):
        load(engine, gone)
    assert json.loads(load(engine, state).to_json()) == state


def test_random_games_buy_eastern_cards_and_reload(engine):
    bought = 0
    for seed in range(6):
        game = engine.new_game(2 + seed % 3, seed=seed)
        rng = random.Random(seed)
        moves = 0
        while not game.is_over() and moves < 400:
            game.apply(rng.choice(game.legal_actions()))
            moves += 1
            if moves % 50 == 0:
                assert engine.from_json(game.to_json()).to_json() == game.to_json()
        bought += sum(1 for seat in game.purchased for c in seat if c >= BASE)
    assert bought > 0


# --------------------------------------------------------------------------- spec -> sheet, diff


def test_the_sheets_say_the_series_is_dealt_apart(tmp_path):
    result = CliRunner().invoke(cli.main, ["sheet", str(SPEC), "--lang", "en,fr,nl,sr", "--format", "md",
                                           "-o", str(tmp_path)])  # fmt: skip
    assert result.exit_code == 0, result.output
    said = {
        lang: (tmp_path / f"card-series.{lang}.md").read_text(encoding="utf-8") for lang in ("en", "fr", "nl", "sr")
    }
    assert "The eastern cards (13 cards) are development cards like the others" in said["en"]
    assert "Les cartes de l'est (13 cartes) sont des cartes Développement comme les autres" in said["fr"]
    assert "De oosterse kaarten (13 kaarten) zijn ontwikkelingskaarten als de andere" in said["nl"]
    assert "Источне карте (13 карата) су развојне карте као и остале" in said["sr"]
    # the base decks count the base table only; the eastern decks are the series' cards
    assert "(level 1: 40 cards, level 2: 30 cards and level 3: 20 cards)" in said["en"]
    assert "Sort the eastern cards by their “level” and shuffle each group into its own face-down pile" in said["en"]
    assert "Triez les cartes de l'est selon leur « level »" in said["fr"]


def test_the_diff_names_the_series():
    official = pipeline.load_rules(str(ROOT / "rulespec" / "official.yaml"), SourceMap())
    series = pipeline.load_rules(str(SPEC), SourceMap())
    text = render(compare(official, series), official, series, "en")
    assert "series of cards (further tables)" in text and "east: 13 (tests/specs/east-cards.csv)" in text
    french = render(compare(official, series), official, series, "fr")
    assert "séries de cartes (tables supplémentaires)" in french
