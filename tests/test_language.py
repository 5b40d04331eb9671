"""The language registry (compiler/language/): every effect, function, aggregate, domain, zone
shape and column type declared once, and every reader true to it.

As tests/test_codes.py does for the diagnostic codes: rulespec/README.md documents every entry
of the registry and nothing else (its tables of effects, functions, aggregates, domains, column
types and the shapes of its zone table); every effect names a lowering routine the lowering has
(compiler/lower/effects.py), a check hook a pass of check installs, a runtime helper the runtime
defines and a phrase key each of the four languages has.
"""

from __future__ import annotations

import ast
import builtins
import json
import pathlib
import re

import pytest

from compiler.check.choices import OPTIONAL_DOMAINS
from compiler.emit.runtime import meta
from compiler.language import AGGREGATES, COLUMN_TYPES, DOMAINS, EFFECTS, FUNCTIONS, SHAPES, ColumnType, Shape
from compiler.lower.effects import LOWERINGS
from compiler.sheets import tables
from compiler.sheets.plurals import LANGUAGES

ROOT = pathlib.Path(__file__).resolve().parent.parent
README = (ROOT / "rulespec" / "README.md").read_text(encoding="utf-8")
TICKED = re.compile(r"`([^`]+)`")


def section(heading: str) -> str:
    """The text of a README section, from its heading ('## Effects') to the next heading of any level."""
    start = README.index(f"\n{heading}\n")
    end = re.compile(r"\n#{2,3} ").search(README, start + 1)
    return README[start : end.start() if end else len(README)]


def tables_in(text: str) -> list[list[list[str]]]:
    """The Markdown tables of a text, each a list of rows (the header first, no separator), each a list of cells."""
    found: list[list[list[str]]] = []
    previous = False
    for line in text.splitlines():
        row = line.startswith("|")
        if row and not re.fullmatch(r"\|( *-+ *\|)+", line.strip()):
            if not previous:
                found.append([])
            found[-1].append([cell.strip() for cell in line.strip().strip("|").split("|")])
        previous = row
    return found


def first_cells(table: list[list[str]]) -> list[str]:
    """Every backticked item of a table's first column, below its header."""
    return [item for row in table[1:] for item in TICKED.findall(row[0])]


def test_every_effect_is_documented_by_its_signature_and_every_documented_effect_is_declared():
    effects = tables_in(section("## Effects"))[0]
    zones = next(t for t in tables_in(section("## Zones")) if t[0][0] == "effect")
    documented = first_cells(effects) + first_cells(zones)
    assert sorted(documented) == sorted(d.signature for d in EFFECTS.values())
    assert all(d.signature.startswith(d.name + "(") for d in EFFECTS.values())


def test_every_function_and_aggregate_is_documented_and_declared():
    functions, aggregates = tables_in(section("### Functions and aggregates"))
    documented = [f for f in first_cells(functions) if not f.startswith("NAME(")]  # a spec's definition
    assert sorted(documented) == sorted(d.signature for d in FUNCTIONS.values())
    assert sorted(first_cells(aggregates)) == sorted(AGGREGATES)


def test_every_domain_is_documented_and_declared():
    table = tables_in(section("## Parameter domains"))[0]
    assert first_cells(table) == list(DOMAINS)
    for row in table[1:]:  # the keys a domain takes
        keys = TICKED.findall(re.sub(r"\([^)]*\)", "", row[3]))  # not the notes in brackets
        assert tuple(keys) == DOMAINS[row[0].strip("`")].keys, row[0]


def test_every_column_type_is_documented_and_declared():
    table = next(t for t in tables_in(section("## Kinds")) if t[0][0] == "`type`")
    assert first_cells(table) == [str(t) for t in ColumnType] == [str(t) for t in COLUMN_TYPES]


def test_every_shape_is_documented_and_declared():
    table = next(t for t in tables_in(section("## Zones")) if t[0][0] == "key")
    shape = next(row for row in table if row[0] == "`shape`")
    assert TICKED.findall(shape[2]) == [str(s) for s in Shape] == [str(s) for s in SHAPES]
    for row in table[1:]:  # the keys only some shapes take: the declared shapes take them
        key, fits = row[0].strip("`"), [s.strip() for s in row[1].split(",")]
        if fits != ["all"]:
            assert fits == [str(s) for s in Shape if key in SHAPES[s].keys], key


def _schema_enums(name: str) -> list[list[str]]:
    """Every `enum` of the properties (or definitions) called `name` in rulespec/schema.json."""
    found = []

    def walk(node) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                if key == name and isinstance(value, dict) and "enum" in value:
                    found.append(value["enum"])
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(json.loads((ROOT / "rulespec" / "schema.json").read_text(encoding="utf-8")))
    return found


def test_the_schema_enumerates_the_declared_shapes_and_column_types():
    assert _schema_enums("shape") and all(e == [str(s) for s in Shape] for e in _schema_enums("shape"))
    assert _schema_enums("column_type") == [[str(t) for t in ColumnType]]


def test_the_engines_shape_constants_are_the_declared_shapes():
    """An engine cannot import the compiler: its runtime spells the shapes again (PILE, ...), as their values."""
    assert meta.SHAPES == tuple(Shape) and all(getattr(meta, s.name) == s for s in Shape)


def test_every_effect_has_a_lowering_routine_and_every_routine_lowers_an_effect():
    assert {d.lowering for d in EFFECTS.values()} == set(LOWERINGS)


def _installed_hooks() -> set[str]:
    """The hook names a module of compiler/check/ installs: `....hooks["NAME"] = ...`."""
    found = set()
    for path in (ROOT / "compiler" / "check").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    if (
                        isinstance(target, ast.Subscript)
                        and isinstance(target.value, ast.Attribute)
                        and target.value.attr == "hooks"
                        and isinstance(target.slice, ast.Constant)
                    ):
                        found.add(target.slice.value)
    return found


def test_every_check_hook_is_installed_by_a_pass_of_check():
    assert {d.check for d in EFFECTS.values() if d.check} == _installed_hooks()


def test_every_runtime_helper_is_defined_by_the_runtime():
    defined = {
        node.name
        for path in (ROOT / "compiler" / "emit" / "runtime").glob("*.py")
        for node in ast.parse(path.read_text(encoding="utf-8")).body
        if isinstance(node, ast.FunctionDef)
    }
    assert {d.runtime for d in EFFECTS.values() if d.runtime} <= defined
    assert all(hasattr(builtins, d.runtime) for d in FUNCTIONS.values())


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_phrase_key_is_in_each_language(lang):
    table = tables.load(lang)
    keys = (
        [d.phrase for d in EFFECTS.values()]
        + [d.phrase for d in FUNCTIONS.values()]
        + [d.phrase for d in AGGREGATES.values()]
        + [d.phrase for d in DOMAINS.values()]
        + [d.phrase for d in SHAPES.values() if d.phrase]
        + [d.phrase for d in COLUMN_TYPES.values() if d.phrase]
    )
    assert [k for k in keys if not table.has(k)] == []


def test_names_are_unique_where_a_spec_writes_them():
    """Only `refill` is written for two effects (the base game's card, a zone), told apart by its argument."""
    names = [d.name for d in EFFECTS.values()]
    assert {n for n in names if names.count(n) > 1} == {"refill"}
    assert set(FUNCTIONS) & set(AGGREGATES) == {"min", "max"}


def test_the_optional_domains_are_the_declared_ones():
    """Every domain whose choice can have no value may be `none` (E508 names them); a set and a payment cannot."""
    assert OPTIONAL_DOMAINS == ("gem", "colour", "face_up", "deck", "reserved", "noble", "component")
