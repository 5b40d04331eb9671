"""Kinds of component (compiler/check/kinds.py): declared, typed CSV tables; the base kinds as data.

Each test writes a spec (the catalogue's clean spec, the official one, or a variant of it)
into a temporary folder beside its tables and loads, checks, compiles or diffs it; the
assertions name the exact message, where it points and what the rule model holds.
"""

from __future__ import annotations

import pathlib
import re
import shutil

import pytest
from click.testing import CliRunner

from app import cli
from compiler import diff, pipeline
from compiler.check import kinds
from compiler.check.inference import Inferrer
from compiler.check.types import ATTRIBUTES, GEM, INT, Comp, Keyword, MapOf, Scope
from compiler.diagnostics import CompileError, Reporter, SourceMap, Span, render
from compiler.front.expr import Origin, parse_expr

ROOT = pathlib.Path(__file__).resolve().parent.parent
CLEAN = (ROOT / "tests" / "broken" / "_clean.yaml").read_text(encoding="utf-8")
OFFICIAL = (ROOT / "rulespec" / "official.yaml").read_text(encoding="utf-8")
CITIES = (ROOT / "tests" / "broken" / "cities.csv").read_text(encoding="utf-8")  # ../shared/expansions/cities.csv
CITY_COLUMNS = "{tile: number, side: number, prestige: number, requires: gems, any_one_colour: number}"
CITIES_KIND = f"""kinds:
  cities:
    title: {{en: Cities, fr: Cités, nl: Steden, sr: Градови}}
    item: {{en: city, fr: cité, nl: stad, sr: град}}
    table: cities.csv
    columns: {CITY_COLUMNS}
"""


@pytest.fixture
def folder(tmp_path: pathlib.Path) -> pathlib.Path:
    for name in ("splendor_cards.csv", "splendor_nobles.csv"):
        shutil.copy(ROOT / "rulespec" / name, tmp_path / name)
    (tmp_path / "cities.csv").write_text(CITIES, encoding="utf-8")
    return tmp_path


def clean(*changes: tuple[str, str]) -> str:
    """The clean spec (tables beside it) with each (old, new) replaced once."""
    text = CLEAN.replace("../../rulespec/", "")
    for old, new in changes:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    return text


def with_cities(*changes: tuple[str, str], kind: str = CITIES_KIND) -> str:
    return clean(("players:\n", kind + "players:\n"), *changes)


def load(folder: pathlib.Path, text: str, name: str = "spec.yaml"):
    """The rules of a clean spec, or (diagnostics, sources) of a broken one."""
    (folder / name).write_text(text, encoding="utf-8")
    sources = SourceMap()
    try:
        return pipeline.load_rules(str(folder / name), sources)
    except CompileError as err:
        return err.diagnostics, sources


def refused(folder, text: str, name: str = "spec.yaml"):
    result = load(folder, text, name)
    assert isinstance(result, tuple), "the spec checked clean"
    return result


def marked(d, sources) -> list[str]:
    """The source line and caret lines of a rendered diagnostic."""
    return render(d, sources).splitlines()[1:3]


def variant(folder: pathlib.Path, body: str, name: str = "v") -> pathlib.Path:
    """A variant of the official spec in `folder` (its tables beside it)."""
    path = folder / f"{name}.yaml"
    path.write_text(
        f"spec: 1\nname: {name}\nextends: official\ntitle: {{en: V, fr: V, nl: V, sr: V}}\n{body}", encoding="utf-8"
    )
    return path


def engine(folder: pathlib.Path, name: str, monkeypatch) -> str:
    """The engine of `folder/name`, compiled from its folder (so that two folders give the same paths)."""
    monkeypatch.chdir(folder)
    return pipeline.compile_spec(name).text


def code(text: str) -> str:
    """An engine's text without what a spec's file gives it beyond its rules: its hash and line numbers."""
    text = re.sub(r"[0-9a-f]{64}", "HASH", text)
    return re.sub(r"(\.yaml):\d+", r"\1:N", text)


# --------------------------------------------------------------------------- the base kinds


def test_the_shorthand_means_the_base_kinds_declared_in_the_official_spec(folder, monkeypatch):
    """official.yaml declares `kinds: cards/nobles`; the shorthand of the catalogue's base gives the same
    kinds (same columns, same components), the same card and noble views, and the same engine."""
    text = OFFICIAL
    start, end = text.index("\nkinds:\n"), text.index("\n# The player-count table")
    short = text[:start] + "\n  cards: splendor_cards.csv\n  nobles: splendor_nobles.csv\n" + text[end:]
    for sub, spec_text in (("long", OFFICIAL), ("short", short)):
        (folder / sub).mkdir()
        for table in ("splendor_cards.csv", "splendor_nobles.csv"):
            shutil.copy(folder / table, folder / sub / table)
        (folder / sub / "official.yaml").write_text(spec_text, encoding="utf-8")
    a = pipeline.load_rules("rulespec/official.yaml")
    b = pipeline.load_rules(str(folder / "short" / "official.yaml"))
    assert [k.name for k in a.kinds] == [k.name for k in b.kinds] == ["cards", "nobles"]
    for ka, kb in zip(a.kinds, b.kinds, strict=True):
        assert (ka.title, ka.item) == (kb.title, kb.item)
        assert [(c.name, c.type, c.group, c.prefix) for c in ka.columns] == [
            (c.name, c.type, c.group, c.prefix) for c in kb.columns
        ]
        assert [c.values for c in ka.components] == [c.values for c in kb.components]
    assert [(c.level, c.bonus, c.points, c.cost) for c in a.cards] == [
        (c.level, c.bonus, c.points, c.cost) for c in b.cards
    ]
    assert len(a.cards) == 90 and len(a.nobles) == 10
    assert a.cards[0].span.file == "rulespec/splendor_cards.csv" and a.cards[0].span.line == 2
    assert code(engine(folder / "long", "official.yaml", monkeypatch)) == code(
        engine(folder / "short", "official.yaml", monkeypatch)
    )


def test_the_base_kinds_are_data_and_the_card_attributes_come_from_them():
    assert [c.name for c in kinds.base_columns("cards")] == ["level", "bonus", "points", "cost"]
    assert [c.name for c in kinds.base_columns("nobles")] == ["points", "requires"]
    assert ATTRIBUTES["card"] == {"level": INT, "bonus": GEM, "points": INT, "cost": MapOf(GEM, INT)}
    assert ATTRIBUTES["noble"] == {"points": INT, "requires": MapOf(GEM, INT)}


def test_a_base_kind_may_reorder_rename_and_add_prose(folder):
    """Columns in another order, a header of another name, a prefix and a prose column: the same cards."""
    cards = (folder / "splendor_cards.csv").read_text(encoding="utf-8").splitlines()
    rows = [row.split(",") for row in cards]
    out = ["points,lvl,bonus,cost_white,cost_blue,cost_green,cost_red,cost_black,name"]
    out += [",".join([r[2], r[0], r[1], *r[3:], f"card {i}"]) for i, r in enumerate(rows[1:])]
    (folder / "my_cards.csv").write_text("\n".join(out) + "\n", encoding="utf-8")
    kind = """kinds:
  cards:
    title: Cards
    item: card
    table: my_cards.csv
    columns: {points: number, level: {type: number, group: true, header: lvl}, bonus: gem,
              cost: {type: gems, prefix: cost_}, name: prose}
"""
    rules = load(folder, clean(("  cards: splendor_cards.csv\n", ""), ("players:\n", kind + "players:\n")))
    base = load(folder, clean())
    assert [(c.level, c.bonus, c.points, c.cost) for c in rules.cards] == [
        (c.level, c.bonus, c.points, c.cost) for c in base.cards
    ]
    assert rules.kinds[0].components[3].values[-1] == "card 3"


def test_a_prose_column_is_not_usable_in_expressions(folder):
    kind = """kinds:
  cards:
    title: Cards
    item: card
    table: my_cards.csv
    columns: {level: {type: number, group: true}, bonus: gem, points: number, cost: gems, name: prose}
"""
    lines = (folder / "splendor_cards.csv").read_text(encoding="utf-8").splitlines()
    (folder / "my_cards.csv").write_text(
        "\n".join([lines[0] + ",name"] + [f"{r},Mine" for r in lines[1:]]) + "\n", encoding="utf-8"
    )
    text = clean(("  cards: splendor_cards.csv\n", ""), ("players:\n", kind + "players:\n"))
    assert "max(0, card.cost[c] - me.bonus[c])" in text
    diagnostics, _ = refused(
        folder, text.replace("max(0, card.cost[c] - me.bonus[c])", "max(0, card.cost[c] - me.bonus[c] + card.name)", 1)
    )
    [d] = diagnostics
    assert (d.code, d.message) == (
        "E403",
        "'name' is a prose column of a face-up card: shown on sheets, not usable in expressions",
    )


@pytest.mark.parametrize(
    "columns, message",
    [
        (
            "{level: {type: number, group: true}, bonus: gem, cost: gems}",
            "the kind 'cards' belongs to the base game: it needs the column 'points' (a number)",
        ),
        (
            "{level: number, bonus: gem, points: number, cost: gems}",
            "the kind 'cards' belongs to the base game: its column 'level' must be a number with 'group: true', not a number",
        ),
        (
            "{level: {type: number, group: true}, bonus: {type: gem, optional: true}, points: number, cost: gems}",
            "the kind 'cards' belongs to the base game: its column 'bonus' must be a gem colour, not a gem colour that may "
            "be empty",
        ),
    ],
)
def test_what_the_engines_need_from_a_base_kind_is_checked(folder, columns, message):
    path = variant(folder, f"kinds:\n  cards:\n    columns: {columns}\n")
    with pytest.raises(CompileError) as info:
        pipeline.load_rules(str(path))
    [d] = info.value.diagnostics
    assert (d.code, d.message) == ("E546", message)
    assert d.span.file == str(path) and d.span.line == 7
    assert d.notes[0].startswith(
        "the engines read level (a number with 'group: true'), bonus (a gem colour), "
        "points (a number), cost (a table by gem colour)"
    )


def test_check_is_the_gate_for_base_kinds(folder, monkeypatch):
    """A spec whose base kind the engines could not use is refused by check and by compile alike (never exit 3)."""
    monkeypatch.chdir(folder)
    shutil.copy(ROOT / "rulespec" / "official.yaml", folder / "official.yaml")
    path = variant(folder, "kinds:\n  nobles:\n    columns: {points: keyword, requires: gems}\n")
    for command in ("check", "compile"):
        result = CliRunner().invoke(
            cli.main, [command, str(path), *(["-o", str(folder / "out")] if command == "compile" else [])]
        )
        assert result.exit_code == 1, result.output
        assert (
            "error[E546]: the kind 'nobles' belongs to the base game: its column 'points' must be a number, "
            "not a keyword" in result.stderr
        )


# --------------------------------------------------------------------------- other kinds


def test_a_kind_is_loaded_with_typed_values_and_spans(folder):
    rules = load(folder, with_cities(kind=CITIES_KIND + "    faces_of: tile\n"))
    [cities] = [k for k in rules.kinds if k.name == "cities"]
    assert [k.name for k in rules.kinds] == ["cards", "nobles", "cities"]
    assert (cities.title.en, cities.item.get("sr"), len(cities.components)) == ("Cities", "град", 14)
    first = cities.components[0]
    assert first.values == (1, 1, 13, (0, 0, 0, 4, 3), 0)
    assert (first.span.file, first.span.line, first.piece) == (f"{folder.as_posix()}/cities.csv", 2, 1)
    assert [c.piece for c in cities.components[:4]] == [1, 1, 2, 2]


def test_a_kinds_attributes_are_typed_from_its_columns(folder):
    kind = CITIES_KIND.replace(
        "any_one_colour: number}", "any_one_colour: number, power: keyword, name: prose, colour: gem}"
    )
    table = (
        "\n".join(
            row + (",five,Some city,red" if i else ",power,name,colour") for i, row in enumerate(CITIES.splitlines())
        )
        + "\n"
    )
    (folder / "cities.csv").write_text(table, encoding="utf-8")
    rules = load(folder, with_cities(kind=kind))
    reporter = Reporter()
    types = Inferrer(reporter, rules.gems, rules.wild, rules.kinds)
    city = Comp("cities", "city")
    scope = Scope({"city": city, "red": GEM})

    def infer(text: str):
        return types.infer(parse_expr(text, Origin.of_scalar(text, Span("t.yaml", 1, 1), [text]), "a test"), scope)

    assert infer("city.prestige") == INT
    assert infer("city.requires[red]") == INT
    assert infer("city.requires") == MapOf(GEM, INT)
    assert infer("city.colour") == GEM
    assert infer("city.power") == Keyword("cities", "power")
    assert reporter.diagnostics == []
    infer("city.name")
    infer("city.prestiege")
    assert [d.message for d in reporter.diagnostics] == [
        "'name' is a prose column of a city: shown on sheets, not usable in expressions",
        "a city has no attribute 'prestiege' (did you mean 'prestige'?) (it has: tile, side, prestige, requires, "
        "any_one_colour, power, colour)",
    ]


@pytest.mark.parametrize(
    "table, code, message, line, col",
    [
        (
            "tile,side,prestige,white,blue,green,red,black\n1,1,13,0,0,0,4,3\n",
            "E107",
            "the cities table must start with the header 'tile,side,prestige,white,blue,green,red,black,any_one_colour', "
            "found 'tile,side,prestige,white,blue,green,red,black'",
            1,
            1,
        ),
        (
            "tile,side,prestige,white,blue,green,red,black,any_one_colour\n1,1,13,0,0,0,4,3\n",
            "E107",
            "expected 9 columns, found 8",
            2,
            1,
        ),
        (
            "tile,side,prestige,white,blue,green,red,black,any_one_colour\n1,1,13,0,0,0,4,3,0,9\n",
            "E107",
            "expected 9 columns, found 10",
            2,
            1,
        ),
        (
            "tile,side,prestige,white,blue,green,red,black,any_one_colour\n1,1,thirteen,0,0,0,4,3,0\n",
            "E107",
            "'prestige' must be a whole number, not 'thirteen'",
            2,
            5,
        ),
        (
            "tile,side,prestige,white,blue,green,red,black,any_one_colour\n1,1,13,0,0,0,4,1001,0\n",
            "E107",
            "'black' must be a whole number from 0 to 1000, not 1001",
            2,
            16,
        ),
    ],
)
def test_a_bad_table_is_located_at_its_cell(folder, table, code, message, line, col):
    (folder / "cities.csv").write_text(table, encoding="utf-8")
    diagnostics, sources = refused(folder, with_cities())
    [d] = diagnostics
    assert (d.code, d.message) == (code, message)
    assert (d.span.file, d.span.line, d.span.col) == (f"{folder.as_posix()}/cities.csv", line, col)
    source, caret = marked(d, sources)
    assert source == f" {line} | " + table.splitlines()[line - 1]
    assert caret.index("^") == len(f" {line} | ") + col - 1


def test_gem_colour_and_keyword_cells_are_checked(folder):
    kind = CITIES_KIND.replace("any_one_colour: number}", "any_one_colour: number, colour: gem, power: keyword}")
    table = CITIES.splitlines()
    table[0] += ",colour,power"
    table[1] += ",purple,Two Words"
    table[2] += ",redd,ok"
    for i in range(3, len(table)):
        table[i] += ",red,ok"
    (folder / "cities.csv").write_text("\n".join(table) + "\n", encoding="utf-8")
    diagnostics, _ = refused(folder, with_cities(kind=kind))
    assert [(d.code, d.message, d.span.line) for d in diagnostics] == [
        ("E107", "unknown colour colour 'purple'", 2),
        ("E107", "'power' must be a lower-case name (letters, digits, '_'), not 'Two Words'", 2),
        ("E107", "unknown colour colour 'redd' (did you mean 'red'?)", 3),
    ]


def test_a_key_names_one_component(folder):
    rows = CITIES.splitlines()
    numbers = [str(i) for i in range(1, len(rows))]
    numbers[5] = "3"  # line 7 takes the number of line 4
    (folder / "cities.csv").write_text(
        "\n".join([rows[0] + ",number"] + [f"{row},{n}" for row, n in zip(rows[1:], numbers, strict=True)]) + "\n",
        encoding="utf-8",
    )
    kind = (
        CITIES_KIND.replace("any_one_colour: number}", "any_one_colour: number, number: number}") + "    key: number\n"
    )
    diagnostics, sources = refused(folder, with_cities(kind=kind))
    [d] = diagnostics
    assert (d.code, d.message) == ("E123", "two cities have the number 3: the key of a city names one")
    assert (d.span.file, d.span.line) == (f"{folder.as_posix()}/cities.csv", 7)
    assert d.notes == ("the first is on line 4",)


def test_a_key_or_faces_of_names_a_column_of_the_right_type(folder):
    diagnostics, _ = refused(folder, with_cities(kind=CITIES_KIND + "    key: requires\n    faces_of: tiles\n"))
    assert [(d.code, d.message) for d in diagnostics] == [
        ("E122", "'key' must name a number or keyword column, and 'requires' is a table by gem colour"),
        ("E122", "'faces_of' names no column of kind 'cities': 'tiles' (did you mean 'tile'?)"),
    ]


def test_a_column_key_that_does_not_fit_its_type(folder):
    kind = CITIES_KIND.replace("tile: number,", "tile: {type: number, prefix: t_},")
    diagnostics, sources = refused(folder, with_cities(kind=kind))
    [d] = diagnostics
    assert (d.code, d.message) == ("E120", "'prefix' applies to a column of type gems, not to 'number'")


# --------------------------------------------------------------------------- kinds in variants


def test_a_declared_kind_no_rule_can_reach_is_a_warning_and_the_engine_is_unchanged(folder, monkeypatch):
    monkeypatch.chdir(folder)
    path = variant(
        folder, CITIES_KIND.replace("kinds:\n  cities:\n", "kinds:\n  cities:\n    add: true\n"), name="cities"
    )
    checked = pipeline.check_spec(str(path))
    [w] = checked.warnings
    assert (w.code, w.severity) == ("E125", "warning")
    assert w.message == (
        "no rule can reach the cities (kind 'cities'): its table is loaded and checked, but no zone "
        "or variable holds them and no choice is made from them"
    )
    assert w.notes == (
        "declare a zone with 'holds: cities' (a pile, a display, a row or a holding), a variable of "
        "type {set_of: cities}, or a choice from it, to put them in play",
    )
    assert w.span.file.endswith("cities.yaml") and w.span.line == 6
    result = CliRunner().invoke(cli.main, ["check", "-W", str(path)])
    assert result.exit_code == 0 and "1 warning" in result.stdout and "warning[E125]" in result.stderr
    result = CliRunner().invoke(cli.main, ["compile", str(path), "-o", str(folder / "out")])
    assert result.exit_code == 0, result.output
    (folder / "plain").mkdir()
    variant(folder / "plain", "", name="cities")
    with_kind = (folder / "out" / "cities.py").read_text(encoding="utf-8")
    assert code(with_kind) == code(engine(folder / "plain", "cities.yaml", monkeypatch)).replace(
        "plain/cities.yaml", "cities.yaml"
    )


def test_a_variant_changes_the_table_of_a_base_kind(folder):
    lines = (folder / "splendor_cards.csv").read_text(encoding="utf-8").splitlines()
    (folder / "fewer_cards.csv").write_text("\n".join(lines[:-5]) + "\n", encoding="utf-8")
    path = variant(folder, "kinds:\n  cards:\n    table: fewer_cards.csv\n    note: Five cards fewer.\n")
    rules = pipeline.load_rules(str(path))
    assert len(rules.cards) == 85 and rules.cards[0].span.file == f"{folder.as_posix()}/fewer_cards.csv"
    assert [(c.kind, c.path) for c in rules.changes] == [("set", "kinds.cards.table")]
    text = diff.render(
        diff.compare(pipeline.load_rules("rulespec/official.yaml"), rules),
        pipeline.load_rules("rulespec/official.yaml"),
        rules,
    )
    assert (
        "  development cards\n      before: 90 cards  (rulespec/splendor_cards.csv:2)\n"
        f"      after: 85 cards  ({folder.as_posix()}/fewer_cards.csv:2)\n    note: Five cards fewer.\n" in text
    )


def test_the_shorthand_in_a_variant_replaces_the_bases_kind(folder):
    """Along a chain the nearer file's way of giving a base kind wins; in one file both ways are E121."""
    lines = (folder / "splendor_nobles.csv").read_text(encoding="utf-8").splitlines()
    (folder / "few_nobles.csv").write_text("\n".join(lines[:7]) + "\n", encoding="utf-8")
    path = variant(folder, "components:\n  nobles: few_nobles.csv\n")
    rules = pipeline.load_rules(str(path))
    assert len(rules.nobles) == 6 and [k.name for k in rules.kinds] == ["cards", "nobles"]


def test_a_variant_adds_a_kind_and_another_changes_it_and_diff_says_so(folder, monkeypatch):
    monkeypatch.chdir(folder)
    shutil.copy(ROOT / "rulespec" / "official.yaml", folder / "official.yaml")
    added = variant(
        folder, CITIES_KIND.replace("kinds:\n  cities:\n", "kinds:\n  cities:\n    add: true\n"), name="cities"
    )
    (folder / "fewer_cities.csv").write_text("\n".join(CITIES.splitlines()[:-2]) + "\n", encoding="utf-8")
    changed = folder / "fewer.yaml"
    changed.write_text(
        "spec: 1\nname: fewer\nextends: cities.yaml\ntitle: Fewer\nkinds:\n  cities:\n"
        "    table: fewer_cities.csv\n    columns: {tile: number, side: number, prestige: number, "
        "requires: gems, any_one_colour: number}\n    note: Two sides fewer.\n",
        encoding="utf-8",
    )
    result = CliRunner().invoke(cli.main, ["diff", "official", str(added)])
    assert result.exit_code == 1
    assert (
        'Kinds of component\n- Added: the kind "Cities" (cities)  (cities.yaml:6)\n'
        "    columns: tile: number, side: number, prestige: number, requires: gems, any_one_colour: number\n"
        "    components (rows of its table): 14 components\n" in result.output
    )
    result = CliRunner().invoke(cli.main, ["diff", str(added), str(changed)])
    assert result.exit_code == 1
    assert (
        '- The kind "Cities" (cities)\n    components (rows of its table)\n'
        "      before: 14 components  (cities.csv:2)\n      after: 12 components  (fewer_cities.csv:2)\n"
        "    note: Two sides fewer.\n" in result.output
    )
    for lang, words in (("fr", "Types de composants"), ("nl", "Soorten onderdelen"), ("sr", "Врсте делова игре")):
        result = CliRunner().invoke(cli.main, ["diff", "--lang", lang, str(added), str(changed)])
        assert result.exit_code == 1 and words in result.output and "12" in result.output
    removed = folder / "none.yaml"
    removed.write_text(
        "spec: 1\nname: none\nextends: cities.yaml\ntitle: None\nkinds:\n  cities: {remove: Gone.}\n", encoding="utf-8"
    )
    result = CliRunner().invoke(cli.main, ["diff", str(added), str(removed)])
    assert '- Removed: the kind "Cities" (cities)  (was at cities.yaml:6)\n' in result.output


def test_a_variant_may_not_add_a_kind_the_base_has(folder):
    path = variant(
        folder,
        "kinds:\n  cards:\n    add: true\n    title: C\n    item: c\n    table: x.csv\n    columns: {points: number}\n",
    )
    with pytest.raises(CompileError) as info:
        pipeline.load_rules(str(path))
    [d] = info.value.diagnostics
    assert d.code == "E304" and "the base already has the kind 'cards'" in d.message


# --------------------------------------------------------------------------- optional values tested (issue 26, item 16)

CHARMS = ROOT / "tests" / "specs" / "charms.yaml"


@pytest.fixture(scope="module")
def charms_engine(tmp_path_factory):
    from tests.helpers.engines import load_engine

    path = tmp_path_factory.mktemp("charms") / "charms.py"
    path.write_text(pipeline.compile_spec(str(CHARMS)).text, encoding="utf-8")
    return load_engine(path)


def charms(folder: pathlib.Path, old: str, new: str) -> list:
    """The diagnostics of tests/specs/charms.yaml with one change, checked in `folder`."""
    shutil.copy(CHARMS.with_suffix(".csv"), folder / "charms.csv")
    text = CHARMS.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    diagnostics, _ = refused(folder, text.replace(old, new), "charms.yaml")
    return [(d.code, d.message) for d in diagnostics]


def test_an_optional_gem_columns_empty_cell_is_none_and_is_tested_before_it_is_used(charms_engine, folder):
    E, seen = charms_engine, set()
    for seed in range(12):
        game = E.new_game(2, seed)
        offered = {
            int(s.split()[1]) - 1 for s in map(E.action_to_string, game.legal_actions()) if s.startswith("charm ")
        }
        colours = {slot: E._k_charms[x][1] for slot, x in enumerate(game.z_charm_row)}
        assert offered == {slot for slot, colour in colours.items() if colour is not None}
        seen |= set(colours.values())
    assert None in seen and len(seen) > 2  # charms without a colour, and with
    assert charms(
        folder, "condition: charm.colour != none and supply[charm.colour] >= 1", "condition: supply[charm.colour] >= 1"
    ) == [
        (
            "E410",
            "'charm.colour' may be none here (column 'colour' of a charm may be empty): test 'charm.colour "
            '!= none\' first, as in "charm.colour != none and ..."',
        )
    ]
    assert charms(folder, "condition: charm.colour != none and", "condition: charm.mark != none and")[0] == (
        "E410",
        "'charm.mark' is never none: only an optional choice can be none",
    )


def test_an_optional_choice_is_read_in_a_price_after_a_test(charms_engine, folder):
    E = charms_engine
    game = E.new_game(2, 1)
    card = game.market[0][0]
    cost = dict(zip(E.GEMS, E.CARD_COST[card], strict=True))
    state = game.to_dict()
    state["seats"][0]["tokens"] = {**{g: cost[g] for g in E.GEMS}, E.WILD: 0}
    state["supply"] = {c: n - state["seats"][0]["tokens"][c] for c, n in state["supply"].items()}
    game = E.from_json(state)
    legal = set(map(E.action_to_string, game.legal_actions()))
    short = next(g for g in E.GEMS if cost[g] == 0)
    assert "tipbuy 1.1" in legal and f"tipbuy 1.1 tip {short}" not in legal  # a tip costs one gem more
    assert charms(folder, "(if tip != none and c == tip then 1 else 0)", "(if c == tip then 1 else 0)") == [
        (
            "E410",
            "'tip' may be none here (its choice is optional): test 'tip != none' first, as in \"tip != none and ...\"",
        )
    ]


def test_the_sheets_phrase_a_test_of_an_optional_column_in_four_languages():
    from compiler.sheets import content, render

    rules = pipeline.load_rules(str(CHARMS))
    base = pipeline.load_rules(rules.bases[0].path)
    for lang, words in (
        ("en", "the “colour” of the chosen charm is not empty"),
        ("fr", "n'est pas vide"),
        ("nl", "niet leeg is"),
        ("sr", "није празна"),
    ):
        assert words in render.markdown(content.build(rules, lang, base), rules), lang
