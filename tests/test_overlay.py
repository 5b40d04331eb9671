"""Pass 2b, overlay: a variant resolved onto its base (compiler/front/overlay.py).

Golden diagnostics for overlay mistakes live in tests/overlay_errors/: NAME.yaml is a
broken variant, NAME.out the exact diagnostics (render_all with the SourceMap).
`pytest --update-goldens` rewrites the .out files; read every diff.
"""

from __future__ import annotations

import pathlib
import shutil
import textwrap

import pytest

from compiler import pipeline
from compiler.diagnostics import CompileError, SourceMap, render_all
from compiler.front import overlay, source
from compiler.front.shapes import shapes
from compiler.front.source import MapNode, ScalarNode, SeqNode

ROOT = pathlib.Path(__file__).resolve().parent.parent
ERRORS = ROOT / "tests" / "overlay_errors"
CASES = sorted(p.stem for p in ERRORS.glob("*.yaml"))

# The kind of mistake each case shows: the code of its first diagnostic.
EXPECTED = {
    "unknown_target": "E303",
    "unknown_value": "E303",
    "unknown_choice": "E303",
    "new_without_add": "E303",
    "remove_missing": "E305",
    "remove_missing_row": "E305",
    "remove_blank_reason": "E306",
    "add_existing": "E304",
    "before_unknown": "E307",
    "after_unknown": "E307",
    "field_needs_domain": "E308",
    "base_not_found": "E301",
    "base_path_not_found": "E301",
    "cycle_a": "E302",
    "cycle_b": "E302",
    "self_cycle": "E302",
    "broken_base": "E303",
    "chain_error": "E303",
    "removed_value_used": "E401",
    "several": "E303",
    "nested_add": "E311",
    "move_unknown": "E307",
    "move_itself": "E307",
    "move_both": "E111",
    "move_unordered": "E111",
    "players_placed": "E111",
    "edit_new_entry": "E313",
    "edit_unknown_key": "E101",
}


@pytest.fixture(autouse=True)
def at_root(monkeypatch):
    monkeypatch.chdir(ROOT)  # diagnostics show paths relative to the working directory


def diagnostics_of(path: str) -> tuple[list, SourceMap]:
    sources = SourceMap()
    with pytest.raises(CompileError) as caught:
        pipeline.load_rules(path, sources)
    return caught.value.diagnostics, sources


def resolve_text(tmp_path: pathlib.Path, text: str, name: str = "variant.yaml") -> overlay.Resolved:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return pipeline.resolve_spec(str(path))


def keys(node) -> list:
    return [k.value for k, _ in node.entries]


def walk(node):
    yield node
    if isinstance(node, MapNode):
        for k, v in node.entries:
            yield k
            yield from walk(v)
    elif isinstance(node, SeqNode):
        for item in node.items:
            yield from walk(item)


# --------------------------------------------------------------------------- goldens


def test_every_case_has_an_expected_code():
    assert sorted(EXPECTED) == CASES


@pytest.mark.parametrize("case", CASES)
def test_overlay_mistake(case, golden):
    diagnostics, sources = diagnostics_of(f"tests/overlay_errors/{case}.yaml")
    assert diagnostics[0].code == EXPECTED[case]
    assert all(d.span is not None for d in diagnostics), "every overlay diagnostic is located"
    golden.check(ERRORS / f"{case}.out", render_all(diagnostics, sources) + "\n")


def test_several_mistakes_are_all_reported():
    diagnostics, _ = diagnostics_of("tests/overlay_errors/several.yaml")
    assert [d.code for d in diagnostics] == ["E303", "E304", "E305", "E303"]


def test_a_mistake_in_a_base_points_into_the_base():
    diagnostics, _ = diagnostics_of("tests/overlay_errors/chain_error.yaml")
    assert {d.span.file for d in diagnostics} == {"tests/overlay_errors/broken_base.yaml"}


def test_a_check_error_after_a_removal_points_where_the_name_is_used():
    diagnostics, _ = diagnostics_of("tests/overlay_errors/removed_value_used.yaml")
    assert {d.span.file for d in diagnostics} == {"rulespec/official.yaml"}
    assert all("pair_minimum" in d.message for d in diagnostics)


def test_cycle_shows_the_chain():
    diagnostics, _ = diagnostics_of("tests/overlay_errors/cycle_a.yaml")
    assert diagnostics[0].message == (
        "variant chain has a cycle: tests/overlay_errors/cycle_a.yaml extends "
        "tests/overlay_errors/cycle_b.yaml extends tests/overlay_errors/cycle_a.yaml"
    )


# --------------------------------------------------------------------------- merging


def test_a_spec_without_extends_resolves_to_itself():
    sources = SourceMap()
    document = source.load("rulespec/official.yaml", sources)
    resolved = overlay.resolve(document, sources)
    assert resolved.root is document.root
    assert resolved.bases == () and resolved.changes == ()
    assert resolved.source.name == "official"


def test_changes_merge_field_by_field_and_keep_spans(tmp_path):
    resolved = resolve_text(
        tmp_path,
        """\
        spec: 1
        name: merged
        extends: official
        title: Merged
        values:
          target: {value: 12, note: Shorter.}
          pair_minimum: 3
        actions:
          take_pair:
            condition: supply[colour] >= pair_minimum + 1
            note: {en: Pairs need one more., fr: Une de plus.}
        players:
          2: {gold: 0}
    """,
    )
    root = resolved.root
    official = "rulespec/official.yaml"
    here = str(tmp_path / "variant.yaml")
    take_pair = root.get("actions").get("take_pair")
    assert take_pair.get("condition").value == "supply[colour] >= pair_minimum + 1"
    assert take_pair.get("condition").span.file == here
    assert take_pair.get("title").get("en").value == "Take two tokens of one colour"
    assert take_pair.get("title").span.file == official  # untouched fields keep the base's span
    assert take_pair.get("effects").span.file == official
    row = root.get("players").get(2)
    assert (row.get("gems").value, row.get("gold").value) == (4, 0)
    assert (row.get("gems").span.file, row.get("gold").span.file) == (official, here)
    values = root.get("values")
    assert keys(values) == ["target", "token_limit", "reserve_limit", "pair_minimum", "take_count"]
    assert values.get("target").get("value").value == 12 and values.get("target").get("note").value == "Shorter."
    assert values.get("pair_minimum").value == 3 and values.get("pair_minimum").span.file == here
    assert root.get("extends") is None and root.get("name").value == "merged"
    assert resolved.bases[0].name == "official" and resolved.bases[0].path == official
    changes = [(c.kind, c.path, c.note.en if c.note else None) for c in resolved.changes]
    assert changes == [
        ("set", "values.target", "Shorter."),
        ("set", "values.pair_minimum", None),
        ("set", "actions.take_pair.condition", "Pairs need one more."),
        ("set", "players.2.gold", None),
    ]
    note = resolved.changes[2].note
    assert note.get("fr") == "Une de plus."
    assert all(c.file == here and c.span.file == here for c in resolved.changes)


def test_add_remove_and_positions(tmp_path):
    resolved = resolve_text(
        tmp_path,
        """\
        spec: 1
        name: shuffled
        extends: official
        title: Shuffled
        values:
          turn_limit: {value: 25, add: true, note: Twenty-five turns.}
        actions:
          pass: {remove: Nobody passes.}
          take_one:
            add: true
            before: take_pair
            title: Take one gem
            notation: take1 {colour}
            choose:
              colour: {domain: gem}
            condition: supply[colour] >= 1
            effects: ["take(colour, 1)"]
          reserve_face_up:
            choose:
              tax: {add: true, domain: colour, optional: true}
        winners:
          ranking:
            nobles: {add: true, after: prestige, title: Most nobles, by: player.nobles, prefer: highest}
        players:
          5: {add: true, gems: 8, gold: 7, nobles: 6, face_up: 4}
          3: {remove: Not for three.}
    """,
    )
    root = resolved.root
    assert keys(root.get("actions")) == [
        "take_different",
        "take_one",
        "take_pair",
        "reserve_face_up",
        "reserve_blind",
        "buy_face_up",
        "buy_reserved",
    ]
    assert keys(root.get("winners").get("ranking")) == ["prestige", "nobles", "purchased"]
    assert keys(root.get("players")) == [2, 4, 5]
    assert keys(root.get("values"))[-1] == "turn_limit"
    assert keys(root.get("actions").get("reserve_face_up").get("choose")) == ["card", "tax"]
    # the bookkeeping keys are gone from the merged tree; notes stay on entries
    for node in walk(root):
        if isinstance(node, ScalarNode) and node in [
            k for n in walk(root) if isinstance(n, MapNode) for k, _ in n.entries
        ]:
            assert node.value not in ("add", "remove", "before", "after", "extends")
    assert root.get("values").get("turn_limit").get("note").value == "Twenty-five turns."
    kinds = [(c.kind, c.path) for c in resolved.changes]
    assert kinds == [
        ("add", "values.turn_limit"),
        ("remove", "actions.pass"),
        ("add", "actions.take_one"),
        ("add", "actions.reserve_face_up.choose.tax"),
        ("add", "winners.ranking.nobles"),
        ("add", "players.5"),
        ("remove", "players.3"),
    ]
    assert [c.note.en for c in resolved.changes if c.kind == "remove"] == ["Nobody passes.", "Not for three."]


def test_chains_accumulate_changes_nearest_base_first(tmp_path):
    (tmp_path / "first.yaml").write_text(
        "spec: 1\nname: first\nextends: official\nvalues:\n  target: {value: 12, note: First.}\n", encoding="utf-8"
    )
    resolved = resolve_text(
        tmp_path,
        """\
        spec: 1
        name: second
        extends: first
        values:
          target: {value: 10, note: Second.}
          take_count: 2
    """,
    )
    assert [b.name for b in resolved.bases] == ["first", "official"]
    assert [(c.path, c.file.rsplit("/", 1)[-1]) for c in resolved.changes] == [
        ("values.target", "first.yaml"),
        ("values.target", "variant.yaml"),
        ("values.take_count", "variant.yaml"),
    ]
    target = resolved.root.get("values").get("target")
    assert target.get("value").value == 10 and target.get("value").span.file.endswith("variant.yaml")


def test_a_base_is_found_in_the_variants_own_folder_first(tmp_path):
    (tmp_path / "official.yaml").write_text(
        (ROOT / "rulespec" / "official.yaml").read_text(encoding="utf-8").replace("target: 15", "target: 14"),
        encoding="utf-8",
    )
    resolved = resolve_text(tmp_path, "spec: 1\nname: local\nextends: official\n")
    assert resolved.bases[0].path == str(tmp_path / "official.yaml")
    assert resolved.root.get("values").get("target").value == 14


def test_a_path_base_is_relative_to_the_variant(tmp_path):
    (tmp_path / "sub").mkdir()
    (tmp_path / "mine.yaml").write_text("spec: 1\nname: mine\nextends: target-12\n", encoding="utf-8")
    resolved = resolve_text(tmp_path, "spec: 1\nname: by-path\nextends: ../mine.yaml\n", name="sub/v.yaml")
    assert [b.name for b in resolved.bases] == ["mine", "target-12", "official"]
    assert resolved.root.get("values").get("target").get("value").value == 12


def test_every_catalogue_variant_resolves_with_a_change_per_file():
    for path in pipeline.catalogue()[1:]:
        resolved = pipeline.resolve_spec(path)
        assert resolved.changes, path
        files = {c.file for c in resolved.changes}
        assert path in files, path  # the variant's own file changes something
        # the others are the variants it extends (cities-declinable: cities), never the official spec
        assert all(f == path or f.startswith("variants/") for f in files), (path, files)


def test_the_fields_come_from_the_schema():
    shape = shapes()
    assert shape.fields["actions"].kind == "keyed"
    action = shape.fields["actions"].entry
    assert {"condition", "effects", "choose", "note"} <= set(action.fields)
    assert not {"add", "remove", "before", "after"} & set(action.fields)
    param = action.fields["choose"].entry
    assert param.requires["price"] == ("domain", ("payment",))
    assert action.lists == {"effects"} and shape.lists == {"interpretations", "handling"}
    assert [name for name in ("players", "values", "actions", "end_of_turn", "end") if shape.fields[name].movable] == [
        "actions",
        "end_of_turn",
        "end",
    ]
    assert shape.fields["winners"].fields["ranking"].movable and not action.fields["choose"].movable
    assert shape.fields["winners"].fields["ranking"].kind == "keyed"


def test_an_existing_entry_of_an_ordered_collection_moves(tmp_path):
    resolved = resolve_text(
        tmp_path,
        """\
        spec: 1
        name: moved
        extends: official
        title: Moved
        end_of_turn:
          noble_visit: {before: return_tokens, note: Nobles visit first.}
        end:
          deadlock: {before: target}
        winners:
          ranking:
            prestige: {after: purchased, prefer: highest}
    """,
    )
    root = resolved.root
    here = str(tmp_path / "variant.yaml")
    assert keys(root.get("end_of_turn")) == ["noble_visit", "return_tokens"]
    assert keys(root.get("end")) == ["deadlock", "target"]
    assert keys(root.get("winners").get("ranking")) == ["purchased", "prestige"]
    visit = root.get("end_of_turn").get("noble_visit")
    assert visit.get("before") is None and visit.get("note").span.file == here
    assert visit.get("effects").span.file == "rulespec/official.yaml"  # a move changes nothing else
    assert [(c.kind, c.path, c.span.line, c.note.en if c.note else None) for c in resolved.changes] == [
        ("set", "end_of_turn.noble_visit.position", 6, "Nobles visit first."),
        ("set", "end.deadlock.position", 8, None),
        ("set", "winners.ranking.prestige.prefer", 11, None),
        ("set", "winners.ranking.prestige.position", 11, None),
    ]


def test_a_moved_step_shows_in_the_diff(tmp_path):
    from click.testing import CliRunner

    from app import cli

    path = tmp_path / "nobles-first.yaml"
    path.write_text(
        "spec: 1\nname: nobles-first\nextends: official\ntitle: Nobles first\nend_of_turn:\n"
        "  noble_visit: {before: return_tokens, note: Nobles visit first.}\n",
        encoding="utf-8",
    )
    rules = pipeline.load_rules(str(path))
    assert [s.name for s in rules.steps] == ["noble_visit", "return_tokens"]
    result = CliRunner().invoke(cli.main, ["diff", "official", str(path)])
    assert result.exit_code == 1  # the rules differ
    assert "before: return_tokens, noble_visit" in result.output
    assert "after: noble_visit, return_tokens" in result.output


def test_a_list_is_edited_in_place_with_prepend_and_append(tmp_path):
    resolved = resolve_text(
        tmp_path,
        """\
        spec: 1
        name: edited
        extends: official
        title: Edited
        actions:
          reserve_blind:
            effects:
              append: ["if supply[gold] >= 1: take(gold, 1)"]
              prepend: ["take(white, 1)", "take(blue, 1)"]
          take_pair:
            effects: ["take(colour, 1)"]
        interpretations:
          append: [A new reading.]
    """,
    )
    root = resolved.root
    here, official = str(tmp_path / "variant.yaml"), "rulespec/official.yaml"
    effects = root.get("actions").get("reserve_blind").get("effects")
    assert isinstance(effects, SeqNode)
    assert [i.value for i in effects.items] == [
        "take(white, 1)",
        "take(blue, 1)",
        "reserve_top(level)",
        "if supply[gold] >= 1: take(gold, 1)",
        "if supply[gold] >= 1: take(gold, 1)",
    ]
    assert [i.span.file for i in effects.items] == [here, here, official, official, here]
    assert [i.value for i in root.get("actions").get("take_pair").get("effects").items] == ["take(colour, 1)"]
    base = source.load(official, SourceMap()).root.get("interpretations").items
    readings = root.get("interpretations").items
    assert [overlay.text_of(i) for i in readings] == [overlay.text_of(i) for i in base] + [
        overlay.text_of(readings[-1])
    ] and readings[-1].value == "A new reading."
    assert readings[-1].span.file == here and readings[0].span.file == official
    assert [(c.kind, c.path) for c in resolved.changes] == [
        ("set", "actions.reserve_blind.effects"),
        ("set", "actions.take_pair.effects"),
        ("set", "interpretations"),
    ]


def test_a_full_spec_takes_only_a_plain_list(tmp_path):
    text = (
        (ROOT / "rulespec" / "official.yaml")
        .read_text(encoding="utf-8")
        .replace(
            '      - reserve_top(level)\n      - "if supply[gold] >= 1: take(gold, 1)"\n',
            "      prepend: [reserve_top(level)]\n",
            1,
        )
    )
    path = tmp_path / "full.yaml"
    path.write_text(text, encoding="utf-8")
    for table in ("splendor_cards.csv", "splendor_nobles.csv"):  # the spec's tables, beside it
        shutil.copy(ROOT / "rulespec" / table, tmp_path / table)
    with pytest.raises(CompileError) as caught:
        pipeline.load_rules(str(path))
    first = caught.value.diagnostics[0]
    assert first.code.startswith("E1") and "effects" in first.message, first


def test_reserve_tax_prepends_its_tax_to_the_official_effects():
    rules = pipeline.load_rules("variants/reserve-tax.yaml")
    official = pipeline.load_rules("rulespec/official.yaml")
    for name in ("reserve_face_up", "reserve_blind"):
        mine = next(a for a in rules.actions if a.name == name).effects
        base = next(a for a in official.actions if a.name == name).effects
        assert len(mine) == len(base) + 1 and mine[1:] == base


def test_a_choice_changed_with_the_shorthand_changes_its_domain(tmp_path):
    """`colour: gem` stands for `colour: {domain: gem}` in a variant too (issue 26, item 17):
    it is no E111 'gives both before and after' and merges like the mapping it stands for."""
    resolved = resolve_text(
        tmp_path,
        """\
        spec: 1
        name: shorthand
        extends: official
        actions:
          take_pair:
            choose:
              colour: colour
    """,
    )
    choice = resolved.root.get("actions").get("take_pair").get("choose").get("colour")
    assert keys(choice) == ["domain"] and choice.get("domain").value == "colour"
    assert choice.get("domain").span.file == str(tmp_path / "variant.yaml")
    assert [(c.kind, c.path) for c in resolved.changes] == [("set", "actions.take_pair.choose.colour.domain")]
    rules = pipeline.load_rules(str(tmp_path / "variant.yaml"))
    [take_pair] = [a for a in rules.actions if a.name == "take_pair"]
    assert [p.domain for p in take_pair.params] == ["colour"]


def test_a_choice_shorthand_in_the_base_is_merged_with_a_variants_fields(tmp_path):
    base = (
        (ROOT / "tests" / "broken" / "_clean.yaml")
        .read_text(encoding="utf-8")
        .replace("../../rulespec/", str(ROOT / "rulespec") + "/")
        .replace("colour: {domain: gem}", "colour: gem", 1)
    )
    (tmp_path / "base.yaml").write_text(base, encoding="utf-8")
    resolved = resolve_text(
        tmp_path,
        """\
        spec: 1
        name: merged
        extends: base.yaml
        actions:
          take_pair:
            choose:
              colour: {domain: colour}
    """,
    )
    choice = resolved.root.get("actions").get("take_pair").get("choose").get("colour")
    assert choice.get("domain").value == "colour"
