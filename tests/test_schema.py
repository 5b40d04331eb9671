"""Pass 2, schema (compiler.front.schema and rulespec/schema.json): the format's reference, and
how each violation is mapped to the node the user wrote."""

from __future__ import annotations

import pathlib
import re

import jsonschema
import pytest

from compiler import model
from compiler.check import types
from compiler.diagnostics import CompileError, Diagnostic
from compiler.front import schema, source

ROOT = pathlib.Path(__file__).resolve().parent.parent
OFFICIAL = (ROOT / "rulespec" / "official.yaml").read_text(encoding="utf-8")
SCHEMA = schema.load_schema()


def diagnostics(text: str, name: str = "t.yaml", **kw) -> list[Diagnostic]:
    doc = source.load_bytes(text.encode("utf-8"), name)
    if kw:
        return schema.check_tree(doc.root, name, **kw)
    try:
        schema.validate(doc)
    except CompileError as err:
        return err.diagnostics
    return []


def one(text: str, **kw) -> Diagnostic:
    found = diagnostics(text, **kw)
    assert len(found) == 1, found
    return found[0]


def official(old: str, new: str) -> str:
    assert OFFICIAL.count(old) == 1, old
    return OFFICIAL.replace(old, new)


def at(d: Diagnostic, text: str) -> str:
    """The source text under a diagnostic's span (one line)."""
    line = text.splitlines()[d.span.line - 1]
    end = d.span.end_col if d.span.end_line == d.span.line else len(line) + 1
    return line[d.span.col - 1 : end - 1]


# --------------------------------------------------------------------------- the schema itself


def test_the_schema_is_valid_draft_2020_12():
    assert SCHEMA["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    jsonschema.Draft202012Validator.check_schema(SCHEMA)


def _properties(node, path=""):
    """(path, name, schema) of every property a mapping of the format can have.

    The properties inside if/then rules only restate or forbid a key and are skipped.
    """
    if isinstance(node, dict):
        for name, sub in node.get("properties", {}).items():
            yield path, name, sub
        for key, value in node.items():
            if key not in ("if", "then"):
                yield from _properties(value, f"{path}/{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _properties(value, f"{path}/{i}")


def test_every_property_has_a_description():
    missing = [f"{path}/{name}" for path, name, sub in _properties(SCHEMA) if not sub.get("description")]
    assert missing == []
    assert len(list(_properties(SCHEMA))) > 100


def _objects(node, path=""):
    if isinstance(node, dict):
        if node.get("type") == "object" or "properties" in node:
            yield path, node
        for key, value in node.items():
            yield from _objects(value, f"{path}/{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _objects(value, f"{path}/{i}")


def test_every_mapping_with_fixed_keys_refuses_unknown_keys():
    for path, node in _objects(SCHEMA["$defs"]):
        if "/if" in path or "/then" in path or "/not" in path:
            continue  # rules over a mapping, not the mapping itself
        assert "additionalProperties" in node, path


def test_the_schema_agrees_with_the_model():
    defs = SCHEMA["$defs"]
    assert defs["param"]["anyOf"][1]["properties"]["domain"]["enum"] == list(model.DOMAINS)
    assert defs["step"]["properties"]["repeat"]["enum"] == list(model.REPEATS)
    assert defs["step"]["properties"]["resolve"]["enum"] == list(model.RESOLVES)
    assert defs["trigger"]["properties"]["finish"]["enum"] == list(model.FINISHES)
    assert defs["rank_level"]["properties"]["prefer"]["enum"] == list(model.PREFERS)
    assert set(types.DOMAIN_TYPES) == set(model.DOMAINS)


def test_variant_entries_have_the_fields_of_full_entries():
    defs = SCHEMA["$defs"]
    for name in ("player_count", "action", "step", "trigger", "rank_level"):
        full = set(defs[name]["properties"])
        change = set(defs[name + "_change"]["properties"])
        assert change == full | set(schema.OVERLAY_KEYS), name
    assert set(defs["param_change"]["anyOf"][1]["properties"]) == set(defs["param"]["anyOf"][1]["properties"]) | set(
        schema.OVERLAY_KEYS
    )


def test_the_readme_documents_every_key_and_name():
    readme = (ROOT / "rulespec" / "README.md").read_text(encoding="utf-8")
    documented = set(re.findall(r"`([a-z_0-9]+)", readme))
    keys = {name for _, name, _ in _properties(SCHEMA)}
    names = (
        set(types.GLOBALS)
        | set(types.FUNCTIONS)
        | set(types.AGGREGATES)
        | set(types.EFFECTS)
        | {a for table in types.ATTRIBUTES.values() for a in table}
        | set(model.DOMAINS)
    )
    assert sorted(keys - documented) == []
    assert sorted(names - documented) == []


# --------------------------------------------------------------------------- valid documents


def test_the_official_spec_is_valid():
    assert diagnostics(OFFICIAL) == []


def test_the_catalogue_base_is_valid():
    assert diagnostics((ROOT / "tests" / "broken" / "_clean.yaml").read_text()) == []


VARIANT = """\
spec: 1
name: target-12
extends: official
title: {en: Target 12, fr: Objectif 12}
description: Shorter games.
values:
  target: {value: 12, note: "Games are shorter."}
  turn_limit: {value: 25, add: true}
  pair_minimum: 3
actions:
  take_different:
    condition: "all(supply[c] >= 1 for c in picked)"
    note: "Take 1, 2 or 3 at will."
    choose:
      picked: {max: 3}
      tax: {add: true, domain: colour, optional: true}
  new_action: {add: true, before: pass, title: New, notation: new, effects: []}
  pass: {remove: "Nobody passes in this variant."}
winners:
  ranking:
    nobles: {add: true, before: purchased, title: Most nobles, by: player.nobles, prefer: highest}
  ties: shared
players:
  2: {gold: 0, note: "No gold with two players."}
  5: {add: true, gems: 8, gold: 7, nobles: 6, face_up: 4}
  3: {remove: "Not for three."}
"""


def test_the_contract_variant_is_valid():
    assert diagnostics(VARIANT) == []


def test_a_variant_needs_little():
    assert diagnostics("spec: 1\nname: v\nextends: official\n") == []


def test_a_resolved_tree_is_checked_as_a_full_spec():
    doc = source.load_bytes(VARIANT.encode(), "v.yaml")
    found = schema.check_tree(doc.root, "v.yaml", variant=False)
    assert any(d.code == "E101" and "'extends'" in d.message for d in found)
    assert any(d.code == "E102" and "'components'" in d.message for d in found)


def test_the_param_shorthand():
    assert diagnostics(official("colour: {domain: gem}", "colour: gem")) == []
    d = one(official("colour: {domain: gem}", "colour: payment"))
    assert d.code == "E106" and "expected one of gem, colour, gem_set, face_up, deck, noble" in d.message


# --------------------------------------------------------------------------- errors, located


def test_the_root_must_be_a_mapping():
    for text, what in (
        ("- a\n", "a list"),
        ("3\n", "the number 3"),
        ("~\n", "an empty value"),
        ("hello\n", "the text 'hello'"),
    ):
        d = one(text)
        assert d.code == "E100" and d.message.endswith(f"this file holds {what}")
        assert (d.span.line, d.span.col) == (1, 1)


def test_an_unknown_key_points_at_the_key_with_a_suggestion():
    text = official("    condition: supply[colour] >= pair_minimum", "    conditon: supply[colour] >= pair_minimum")
    d = one(text)
    assert d.code == "E101"
    assert d.message == "unknown key 'conditon' in action 'take_pair' (did you mean 'condition'?)"
    assert at(d, text) == "conditon"


def test_an_unknown_key_without_a_close_match_lists_the_keys():
    d = one(official("    only_when_stuck: true", "    only_when_stuck: true\n    zzz: 1"))
    assert d.message == "unknown key 'zzz' in action 'pass'"
    assert d.notes == (
        "the keys allowed here are: title, notation, choose, condition, effects, note, only_when_stuck, "
        "ends_turn, text",
    )


def test_an_unknown_top_level_key_does_not_also_report_the_key_it_resembles():
    text = official("\nwinners:\n", "\nwinner:\n")
    d = one(text)
    assert d.message == "unknown top-level key 'winner' (did you mean 'winners'?)"
    assert at(d, text) == "winner"


def test_a_wrong_type_points_at_the_value_and_says_what_was_expected():
    text = official("  3: {gems: 5,", "  3: {gems: [5],")
    d = one(text)
    assert d.code == "E103"
    assert d.message == "'gems' of player count 3 must be a whole number, not a list"
    assert at(d, text) == "[5]"


@pytest.mark.parametrize(
    "value, words",
    [
        ("4.0", "the number 4"),
        ("true", "true"),
        ("'4'", "the text '4'"),
        ("yes", "the text 'yes'"),  # YAML 1.2: a name, not a truth value
        ("{}", "a mapping"),
        ("", "an empty value"),
    ],
)
def test_whole_numbers_are_whole_numbers(value, words):
    d = one(official("  2: {gems: 4,", f"  2: {{gems: {value},"))
    assert d.message == f"'gems' of player count 2 must be a whole number, not {words}"


def test_an_empty_value_points_at_its_key():
    text = official(
        "  pass:\n    title:\n      en: Pass\n      fr: Passer\n      nl: Passen\n      sr: Пас\n",
        "  pass:\n    title:\n",
    )
    d = one(text)
    assert at(d, text) == "title"


def test_unquoted_yaml_values_where_text_belongs_get_a_hint():
    d = one(
        official(
            '    condition: "true"\n    effects:\n      - pay(payment)\n      - acquire(card)\n      - refill',
            "    condition: true\n    effects:\n      - pay(payment)\n      - acquire(card)\n      - refill",
        )
    )
    assert d.message == (
        "'condition' of action 'buy_face_up' must be an expression written as text (quote it: \"...\"), not true"
    )
    assert d.notes == ('YAML reads an unquoted true as a yes/no value; put it in quotes to make it a text: "true"',)


def test_a_missing_key_points_at_the_mapping_that_lacks_it():
    text = official("    finish: immediately\n", "")
    d = one(text)
    assert d.code == "E102" and d.message == "end trigger 'deadlock' is missing the required key 'finish'"
    assert at(d, text) == "deadlock"


def test_a_missing_top_level_key_points_at_the_first_key():
    text = official("spec: 1\n", "")
    d = one(text)
    assert d.message == "the spec is missing the required key 'spec'"
    assert at(d, text) == "name"


def test_enum_violations_list_the_allowed_values():
    text = official("    repeat: once ", "    repeat: often ")
    d = one(text)
    assert d.code == "E106"
    assert d.message == "'repeat' of step 'noble_visit' cannot be 'often': expected one of once, while"
    assert at(d, text) == "often"


def test_every_error_is_reported():
    text = (
        official("  wild: gold", "  wild: 7")
        .replace("prefer: lowest", "prefer: least")
        .replace("  reserve_limit: 3", "  reserve_limit: three")
    )
    found = diagnostics(text)
    assert [d.code for d in found] == ["E103", "E103", "E106"]
    assert [d.span.line for d in found] == sorted(d.span.line for d in found)


def test_errors_inside_lists_name_the_item():
    text = official("      - acquire(card)\n      - refill(card)", "      - acquire(card)\n      - [refill(card)]")
    d = one(text)
    assert d.message.startswith("effect 3 of action 'buy_face_up' must be an effect written as text")


def test_translations():
    title = "title:\n  en: Splendor\n  fr: Splendor\n  nl: Splendor\n  sr: Сплендор\n"
    assert diagnostics(official(title, "title: Splendor\n")) == []  # a plain text is English only
    assert diagnostics(official(title, "title: {en: Splendor, fr: Splendor}\n")) == []
    d = one(official(title, "title: {fr: Splendor}\n"))
    assert d.message == "'title' is missing the required key 'en'"
    d = one(official(title, "title: {en: Splendor, es: Splendor}\n"))
    assert d.message == "unknown language 'es' in 'title'"


def test_values_are_numbers_or_mappings():
    assert diagnostics(official("  target: 15 ", "  target: {value: 15, note: Why.} ")) == []
    d = one(official("  target: 15 ", "  target: {valu: 15} "))
    assert d.message == "unknown key 'valu' in value 'target' (did you mean 'value'?)"
    d = one(official("  target: 15 ", "  target: [15] "))
    assert d.message == "value 'target' must be a whole number, or a mapping {value, note}, not a list"


def test_names():
    d = one(official("  take_pair:\n", "  take pair:\n"))
    assert d.code == "E105" and d.message.startswith("action name 'take pair' in 'actions' must be a name")
    d = one(official("  2: {gems", "  '2x': {gems"))
    assert d.message == "'2x' in 'players' is not a player count: write a whole number of players from 1 to 99"


def test_ranges_and_sizes():
    assert one(official("  2: {gems: 4,", "  2: {gems: -1,")).code == "E108"
    assert (
        one(official("nobles: 3, face_up: 4}", "nobles: 3, face_up: 0}")).message
        == "'face_up' of player count 2 must be at least 1, not 0"
    )
    assert one(official("[white, blue, green, red, black]", "[]")).code == "E109"
    d = one(official("[white, blue, green, red, black]", "[white, blue, white, red, black]"))
    assert d.code == "E110" and d.message == "'white' appears twice in 'gems' of 'components' (items 1 and 3)"
    assert (d.span.col, d.span.end_col) == (23, 28)


def test_keys_that_depend_on_the_domain():
    d = one(official("colour: {domain: gem}", "colour: {domain: gem, max: 2}"))
    assert (
        d.code == "E111"
        and d.message == "'max' in parameter 'colour' of action 'take_pair' applies only to the domain 'gem_set'"
    )
    d = one(official("card: {domain: reserved, slots: reserve_limit}", "card: {domain: reserved}"))
    assert d.message == "parameter 'card' of action 'buy_reserved' is missing the required key 'slots'"
    d = one(
        official(
            'payment: {domain: payment, price: "max(0, card.cost[c] - me.bonus[c])"}\n    condition: "true"\n    effects:\n      - pay(payment)\n      - acquire(card)\n      - refill',
            'payment: {domain: payment}\n    condition: "true"\n    effects:\n      - pay(payment)\n      - acquire(card)\n      - refill',
        )
    )
    assert d.message == "parameter 'payment' of action 'buy_face_up' is missing the required key 'price'"


def test_a_repeating_step_needs_its_while():
    d = one(official("    while: me.held > token_limit\n", ""))
    assert d.message == "step 'return_tokens' is missing the required key 'while'"


def test_overlay_keys_in_a_full_spec():
    text = official("  pass:\n", "  pass:\n    remove: gone\n")
    d = one(text)
    assert d.code == "E111"
    assert (
        d.message
        == "'remove' is for variants only (a file with 'extends'); a full spec writes action 'pass' out in full"
    )
    assert at(d, text) == "remove"


def test_overlay_rules_in_a_variant():
    base = "spec: 1\nname: v\nextends: official\nactions:\n"
    d = one(base + "  pass: {remove: Gone., title: Pass}\n")
    assert d.message == "action 'pass' is removed: 'remove: reason' cannot be combined with other keys"
    assert (d.span.line, d.span.col) == (5, 3)
    d = one(base + "  take_pair:\n    choose:\n      colour: {before: x}\n")
    assert (
        d.message
        == "'before' in parameter 'colour' of action 'take_pair' needs 'add: true' (only a new entry is placed)"
    )
    assert (d.span.line, d.span.col) == (7, 16)
    assert diagnostics(base + "  take_pair: {before: take_different}\n") == []  # an existing action may move
    found = diagnostics(base + "  x: {add: true, title: X, notation: x, effects: [], before: pass, after: pass}\n")
    assert [d.message for d in found] == ["action 'x' gives both 'before' and 'after': give one of them"]
    found = diagnostics(base + "  x: {add: true, title: X}\n")
    assert [d.message for d in found] == ["action 'x' is missing the required keys 'effects' and 'notation'"]
    d = one(base + "  pass: {add: false}\n")
    assert d.message == "'add' of action 'pass' must be true, not false"
    d = one(base + "  pass: {remove: true}\n")
    assert d.code == "E103" and d.message.startswith("'remove' of action 'pass' must be a text")


def test_keys_that_collide_once_read_as_text():
    d = one(official("  2: {gems: 4,", "  '3': {gems: 1, gold: 1, nobles: 1, face_up: 1}\n  2: {gems: 4,"))
    assert d.code == "E113" and d.message.startswith("key '3' is given twice")


def test_describe():
    describe = schema._describe
    assert describe(()) == "the spec"
    assert describe(("components", "gems", 2)) == "gem 3 of 'components'"
    assert describe(("interpretations", 0)) == "interpretation 1"
    assert describe(("actions", "x", "choose", "p", "domain")) == "'domain' of parameter 'p' of action 'x'"
    assert describe(("winners", "ranking", "r", "title", "fr")) == "'fr' of 'title' of ranking level 'r'"
    assert describe(("players", "2")) == "player count 2"
    assert describe(("end_of_turn", "s", "effects", 0)) == "effect 1 of step 's'"
