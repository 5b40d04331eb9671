"""Pass 2b, overlay: a variant resolved onto its base (compiler/overlay.py).

Golden diagnostics for overlay mistakes live in tests/overlay_errors/: NAME.yaml is a
broken variant, NAME.out the exact diagnostics (render_all with the SourceMap).
`pytest --update-goldens` rewrites the .out files; read every diff.
"""
from __future__ import annotations

import pathlib
import textwrap

import pytest

from compiler import overlay, pipeline, schema, source
from compiler.diagnostics import CompileError, SourceMap, render_all
from compiler.source import MapNode, ScalarNode, SeqNode

ROOT = pathlib.Path(__file__).resolve().parent.parent
ERRORS = ROOT / "tests" / "overlay_errors"
CASES = sorted(p.stem for p in ERRORS.glob("*.yaml"))

# The kind of mistake each case shows: the code of its first diagnostic.
EXPECTED = {
    "unknown_target": "E303", "unknown_value": "E303", "unknown_choice": "E303", "new_without_add": "E303",
    "remove_missing": "E305", "remove_missing_row": "E305", "remove_blank_reason": "E306",
    "add_existing": "E304", "before_unknown": "E307", "after_unknown": "E307", "field_needs_domain": "E308",
    "base_not_found": "E301", "base_path_not_found": "E301", "cycle_a": "E302", "cycle_b": "E302",
    "self_cycle": "E302", "broken_base": "E303", "chain_error": "E303", "removed_value_used": "E401",
    "several": "E303", "nested_add": "E311",
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
    sources = SourceMap()
    document = source.load(str(path), sources)
    schema.validate(document)
    return overlay.resolve(document, sources)


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
    assert diagnostics[0].message == ("variant chain has a cycle: tests/overlay_errors/cycle_a.yaml extends "
                                      "tests/overlay_errors/cycle_b.yaml extends tests/overlay_errors/cycle_a.yaml")


# --------------------------------------------------------------------------- merging


def test_a_spec_without_extends_resolves_to_itself():
    sources = SourceMap()
    document = source.load("rulespec/official.yaml", sources)
    resolved = overlay.resolve(document, sources)
    assert resolved.root is document.root
    assert resolved.bases == () and resolved.changes == ()
    assert resolved.source.name == "official"


def test_changes_merge_field_by_field_and_keep_spans(tmp_path):
    resolved = resolve_text(tmp_path, """\
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
    """)
    root = resolved.root
    official = "rulespec/official.yaml"
    here = str(tmp_path / "variant.yaml")
    take_pair = root.get("actions").get("take_pair")
    assert take_pair.get("condition").value == "supply[colour] >= pair_minimum + 1"
    assert take_pair.get("condition").span.file == here
    assert take_pair.get("title").get("en").value == "Take two gems of one colour"
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
        ("set", "values.target", "Shorter."), ("set", "values.pair_minimum", None),
        ("set", "actions.take_pair.condition", "Pairs need one more."), ("set", "players.2.gold", None)]
    note = resolved.changes[2].note
    assert note.get("fr") == "Une de plus."
    assert all(c.file == here and c.span.file == here for c in resolved.changes)


def test_add_remove_and_positions(tmp_path):
    resolved = resolve_text(tmp_path, """\
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
    """)
    root = resolved.root
    assert keys(root.get("actions")) == ["take_different", "take_one", "take_pair", "reserve_face_up",
                                         "reserve_blind", "buy_face_up", "buy_reserved"]
    assert keys(root.get("winners").get("ranking")) == ["prestige", "nobles", "purchased"]
    assert keys(root.get("players")) == [2, 4, 5]
    assert keys(root.get("values"))[-1] == "turn_limit"
    assert keys(root.get("actions").get("reserve_face_up").get("choose")) == ["card", "tax"]
    # the bookkeeping keys are gone from the merged tree; notes stay on entries
    for node in walk(root):
        if isinstance(node, ScalarNode) and node in [k for n in walk(root) if isinstance(n, MapNode)
                                                     for k, _ in n.entries]:
            assert node.value not in ("add", "remove", "before", "after", "extends")
    assert root.get("values").get("turn_limit").get("note").value == "Twenty-five turns."
    kinds = [(c.kind, c.path) for c in resolved.changes]
    assert kinds == [
        ("add", "values.turn_limit"), ("remove", "actions.pass"), ("add", "actions.take_one"),
        ("add", "actions.reserve_face_up.choose.tax"), ("add", "winners.ranking.nobles"),
        ("add", "players.5"), ("remove", "players.3")]
    assert [c.note.en for c in resolved.changes if c.kind == "remove"] == ["Nobody passes.", "Not for three."]


def test_chains_accumulate_changes_nearest_base_first(tmp_path):
    (tmp_path / "first.yaml").write_text("spec: 1\nname: first\nextends: official\nvalues:\n"
                                         "  target: {value: 12, note: First.}\n", encoding="utf-8")
    resolved = resolve_text(tmp_path, """\
        spec: 1
        name: second
        extends: first
        values:
          target: {value: 10, note: Second.}
          take_count: 2
    """)
    assert [b.name for b in resolved.bases] == ["first", "official"]
    assert [(c.path, c.file.rsplit("/", 1)[-1]) for c in resolved.changes] == [
        ("values.target", "first.yaml"), ("values.target", "variant.yaml"), ("values.take_count", "variant.yaml")]
    target = resolved.root.get("values").get("target")
    assert target.get("value").value == 10 and target.get("value").span.file.endswith("variant.yaml")


def test_a_base_is_found_in_the_variants_own_folder_first(tmp_path):
    (tmp_path / "official.yaml").write_text((ROOT / "rulespec" / "official.yaml").read_text(encoding="utf-8")
                                            .replace("target: 15", "target: 14"), encoding="utf-8")
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
        sources = SourceMap()
        document = source.load(path, sources)
        resolved = overlay.resolve(document, sources)
        assert resolved.changes, path
        assert {c.file for c in resolved.changes} == {path}


def test_the_fields_come_from_the_schema():
    shape = overlay.shapes()
    assert shape.fields["actions"].kind == "keyed"
    action = shape.fields["actions"].entry
    assert {"condition", "effects", "choose", "note"} <= set(action.fields)
    assert not {"add", "remove", "before", "after"} & set(action.fields)
    param = action.fields["choose"].entry
    assert param.requires["price"] == ("domain", ("payment",))
    assert shape.fields["winners"].fields["ranking"].kind == "keyed"
