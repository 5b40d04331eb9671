"""Fields of the player-count table a spec declares (`player_fields`, rulespec/README.md): the
checks (E543, E540, E542), the engine (a zone sized by a field, `setup.NAME` in a condition, one
value per player count), the sheets (a column of the setup table in four languages) and `diff`.
The pinned messages of the catalogue cases are in tests/broken/player_field_*.txt."""

from __future__ import annotations

import pathlib

import pytest

from compiler import diff, pipeline
from compiler.diagnostics import CompileError
from compiler.sheets import content, render
from tests.helpers.engines import ROOT, load_engine

CITIES_BY_COUNT = ROOT / "tests" / "specs" / "cities-by-count.yaml"
TITLES = {"en": "Reserved cards", "fr": "Cartes réservées", "nl": "Gereserveerde kaarten", "sr": "Резервисане карте"}
# A variant of the official rules: how many cards a player may hold reserved depends on the player count.
RESERVES = """\
spec: 1
name: reserve-by-count
extends: official
title: Reserve by count
player_fields:
  reserves:
    add: true
    title: {en: Reserved cards, fr: Cartes réservées, nl: Gereserveerde kaarten, sr: Резервисане карте}
players:
  2: {reserves: 1}
  3: {reserves: 2}
  4: {reserves: 3}
actions:
  reserve_face_up: {condition: me.reserved < setup.reserves}
"""


def write(tmp_path: pathlib.Path, text: str, name: str = "variant.yaml") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def errors(tmp_path: pathlib.Path, text: str) -> list[tuple[str, str]]:
    with pytest.raises(CompileError) as err:
        pipeline.load_rules(write(tmp_path, text))
    return [(d.code, d.message) for d in err.value.diagnostics]


# ---------------------------------------------------------------- spec -> diagnostics


def test_a_row_without_a_declared_field_is_E543(tmp_path):
    found = errors(tmp_path, RESERVES.replace("  3: {reserves: 2}\n", ""))
    assert found == [("E543", "the row for 3 players gives no 'reserves'")]


def test_a_field_no_declaration_names_is_E543_with_a_did_you_mean(tmp_path):
    found = errors(tmp_path, RESERVES.replace("3: {reserves: 2}", "3: {reserve: 2}"))
    assert found == [
        (
            "E543",
            "the row for 3 players has a field 'reserve' that 'player_fields' does not declare "
            "(did you mean 'reserves'?)",
        )
    ]


def test_a_field_in_a_spec_without_player_fields_is_E543(tmp_path):
    start, _, _ = RESERVES.partition("player_fields:")
    rows = "players:\n  2: {cities: 1}\n"
    assert errors(tmp_path, start + rows) == [
        ("E543", "the row for 2 players has a field 'cities' that 'player_fields' does not declare")
    ]


@pytest.mark.parametrize(
    "value, shown", [("1001", "1001"), ("-1", "-1"), ("two", "'two'"), ("true", "True"), ("[1]", "a seq")]
)
def test_a_value_that_is_no_whole_number_from_0_to_1000_is_E543(tmp_path, value, shown):
    found = errors(tmp_path, RESERVES.replace("3: {reserves: 2}", f"3: {{reserves: {value}}}"))
    assert found == [("E543", f"'reserves' in the row for 3 players is a whole number from 0 to 1000, not {shown}")]


@pytest.mark.parametrize("name", ["gems", "face_up", "note"])
def test_a_field_named_like_what_a_row_already_has_is_E540(tmp_path, name):
    text = RESERVES.replace("  reserves:\n    add: true", f"  {name}:\n    add: true")
    text = text.replace("  2: {reserves: 1}\n  3: {reserves: 2}\n  4: {reserves: 3}\n", "  2: {gems: 4}\n")
    found = errors(tmp_path, text.replace("setup.reserves", "setup.gems"))
    assert [code for code, _ in found] == ["E540"] and f"'{name}' is already the name of" in found[0][1]


def test_a_field_may_share_its_name_with_a_value(tmp_path):
    text = RESERVES.replace("reserves", "reserve_limit")  # the official spec's value reserve_limit
    rules = pipeline.load_rules(write(tmp_path, text))
    assert rules.value("reserve_limit") == 3 and rules.player_count(2).field("reserve_limit") == 1


def test_a_zone_sized_by_a_field_no_row_declares_is_E542_naming_the_declared_ones(tmp_path):
    text = CITIES_BY_COUNT.read_text(encoding="utf-8").replace("size: setup.cities", "size: setup.citys")
    found = errors(tmp_path, text.replace("extends: ../../variants/cities.yaml", "extends: cities"))
    assert found == [
        (
            "E542",
            "the player-count table has no field 'citys' (did you mean 'cities'?) "
            "(fields: gems, gold, nobles, face_up, cities)",
        )
    ]


def test_setup_of_a_declared_field_is_known_from_the_rows(tmp_path):
    rules = pipeline.load_rules(write(tmp_path, RESERVES))
    assert [(p.players, p.fields) for p in rules.players] == [
        (2, (("reserves", 1),)),
        (3, (("reserves", 2),)),
        (4, (("reserves", 3),)),
    ]


# ---------------------------------------------------------------- spec -> engine


@pytest.fixture(scope="module")
def by_count(tmp_path_factory):
    path = tmp_path_factory.mktemp("fields") / "cities_by_count.py"
    path.write_text(pipeline.compile_spec(str(CITIES_BY_COUNT)).text, encoding="utf-8")
    return load_engine(path)


@pytest.fixture(scope="module")
def reserves(tmp_path_factory):
    folder = tmp_path_factory.mktemp("reserves")
    engine = folder / "reserve_by_count.py"
    engine.write_text(pipeline.compile_spec(write(folder, RESERVES)).text, encoding="utf-8")
    return load_engine(engine)


@pytest.mark.parametrize("players, shown", [(2, 3), (3, 4), (4, 5)])
def test_a_display_sized_by_a_field_shows_the_rows_number(by_count, players, shown):
    for seed in range(5):
        game = by_count.new_game(players, seed)
        assert len(game.z_city_display) == shown and len(game.z_city_pile) == 7 - shown


def _reserve_face_up(engine, game) -> list[int]:
    return [a for a in game.legal_actions() if engine.ACTIONS[a][0] == engine.DECISIONS.index("reserve_face_up")]


def _take_three(engine, game) -> int:
    take = engine.DECISIONS.index("take_different")
    return next(a for a in game.legal_actions() if engine.ACTIONS[a][0] == take)


@pytest.mark.parametrize("players, again", [(2, False), (3, True), (4, True)])
def test_setup_of_a_field_in_a_condition_reads_the_row_of_the_game(reserves, players, again):
    game = reserves.new_game(players, 7)
    game.apply(_reserve_face_up(reserves, game)[0])
    while game.current_player != 0:
        game.apply(_take_three(reserves, game))
    assert bool(_reserve_face_up(reserves, game)) is again


def test_the_field_is_a_constant_of_the_engine_not_its_state(reserves):
    assert reserves._pf_reserves == {2: 1, 3: 2, 4: 3}
    game = reserves.new_game(3, 1)
    assert "reserves" not in game.to_json()
    assert reserves.from_json(game.to_json()).to_json() == game.to_json()


def test_an_engine_without_declared_fields_has_no_field_table():
    text = (ROOT / "generated" / "engines" / "official.py").read_text(encoding="utf-8")
    assert "_pf_" not in text


# ---------------------------------------------------------------- spec -> sheets and diff


@pytest.mark.parametrize("lang", sorted(TITLES))
def test_the_setup_table_has_a_column_per_field_titled_in_each_language(tmp_path, lang):
    rules = pipeline.load_rules(write(tmp_path, RESERVES))
    base = pipeline.load_rules(rules.bases[0].path)
    text = render.markdown(content.build(rules, lang, base), rules)
    header = next(line for line in text.splitlines() if line.startswith("| ") and TITLES[lang] in line)
    assert header.rstrip().endswith(f"| {TITLES[lang]} |")
    rows = [line for line in text.splitlines() if line.startswith(("| 2 |", "| 4 |"))]
    assert rows[0].split("|")[-2].strip().startswith("1") and rows[1].split("|")[-2].strip().startswith("3")


def test_the_sheet_deals_a_display_by_its_column():
    rules = pipeline.load_rules(str(CITIES_BY_COUNT))
    text = render.markdown(content.build(rules, "en", pipeline.load_rules(rules.bases[0].path)), rules)
    said = "Reveal from the “City tiles” pile as many cities as the table shows under “Cities”: these are the cities on display."
    assert said in text


def test_diff_reports_the_added_field_and_each_rows_value(tmp_path):
    a = pipeline.load_rules(str(ROOT / "rulespec" / "official.yaml"))
    b = pipeline.load_rules(write(tmp_path, RESERVES))
    found = diff.compare(a, b)
    assert [(d.kind, d.path) for d in found if d.path.startswith("player")] == [
        ("added", "player_fields.reserves"),
        ("changed", "players.2.reserves"),
        ("changed", "players.3.reserves"),
        ("changed", "players.4.reserves"),
    ]
    text = diff.render(found, a, b, "fr")
    assert "le champ « Cartes réservées » (reserves) du tableau par nombre de joueurs" in text
    assert "- La ligne pour 3 joueurs\n    Cartes réservées\n      avant : aucun" in text
    assert "      après : 2  (" in text
