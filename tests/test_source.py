"""Pass 1, load (compiler.source): nodes with positions, and what the loader refuses."""
from __future__ import annotations

import time

import pytest

from compiler import source
from compiler.diagnostics import CompileError, SourceMap, Span
from compiler.source import MapNode, ScalarNode, SeqNode


def load(text: str | bytes, name: str = "t.yaml", sources: SourceMap | None = None) -> source.Document:
    data = text.encode("utf-8") if isinstance(text, str) else text
    return source.load_bytes(data, name, sources)


def error(text: str | bytes):
    with pytest.raises(CompileError) as info:
        load(text)
    [d] = info.value.diagnostics
    return d


# --------------------------------------------------------------------------- positions


def test_keys_and_values_know_where_they_are():
    doc = load("spec: 1\nplayers:\n  2: {gems: 4, gold: 5}\nname: x\n")
    root = doc.root
    assert isinstance(root, MapNode)
    assert root.keys() == ["spec", "players", "name"]
    assert root.key_node("spec").span == Span("t.yaml", 1, 1, 1, 5)
    assert root.get("spec").span == Span("t.yaml", 1, 7, 1, 8)
    row = root.get("players").get(2)
    assert isinstance(row, MapNode)
    assert row.span.line == 3 and row.span.col == 6
    assert row.key_node("gold").span == Span("t.yaml", 3, 16, 3, 20)
    assert row.get("gold") == ScalarNode(5, Span("t.yaml", 3, 22, 3, 23), None)


def test_sequence_items_and_scalar_styles():
    doc = load('gems: [white, "blue", \'red\']\neffects:\n  - take(c, 1)\n  - "if x: y"\ntext: |\n  line\n')
    gems = doc.root.get("gems")
    assert isinstance(gems, SeqNode)
    assert [i.value for i in gems.items] == ["white", "blue", "red"]
    assert [(i.span.col, i.style) for i in gems.items] == [(8, None), (15, '"'), (23, "'")]
    assert gems.items[1].text_start == (1, 16)  # after the quote
    effects = doc.root.get("effects")
    assert [(i.span.line, i.span.col) for i in effects.items] == [(3, 5), (4, 5)]
    block = doc.root.get("text")
    assert block.style == "|" and block.value == "line\n" and block.text_start[0] == 6  # column: refined by expr


def test_values_are_typed_as_yaml_core_reads_them():
    doc = load("a: 1\nb: -2\nc: true\nd: null\ne: 1.5\nf: '1'\ng: ~\n")
    assert source.to_plain(doc.root) == {"a": 1, "b": -2, "c": True, "d": None, "e": 1.5, "f": "1", "g": None}


def test_the_text_is_registered_for_carets():
    sources = SourceMap()
    load("# comment\nspec: 1\n", "here.yaml", sources)
    assert sources.line("here.yaml", 2) == "spec: 1"


def test_a_bom_is_ignored():
    doc = load(b"\xef\xbb\xbfspec: 1\n")
    assert doc.root.key_node("spec").span.col == 1


def test_display_path_is_relative_below_the_working_directory(tmp_path, monkeypatch):
    (tmp_path / "sub").mkdir()
    monkeypatch.chdir(tmp_path)
    assert source.display_path(str(tmp_path / "sub" / "x.yaml")) == "sub/x.yaml"
    assert source.display_path("/elsewhere/x.yaml") == "/elsewhere/x.yaml"


def test_load_reads_a_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "x.yaml").write_text("spec: 1\n")
    doc = source.load("x.yaml")
    assert doc.path == "x.yaml" and doc.line(1) == "spec: 1" and doc.line(9) == ""


# --------------------------------------------------------------------------- refusals


def test_duplicate_keys_are_errors_at_the_second_key():
    d = error("a: 1\nb:\n  c: 1\n  d: 2\n  c: 3\n")
    assert d.code == "E016"
    assert d.message == "duplicate key 'c' (first defined at line 3)"
    assert (d.span.line, d.span.col) == (5, 3)


def test_keys_equal_as_values_are_duplicates():
    d = error("players:\n  2: {}\n  0x2: {}\n")
    assert d.code == "E016" and d.span.line == 3


def test_a_small_alias_is_expanded():
    doc = load("a: &x [1, 2]\nb: *x\n")
    assert source.to_plain(doc.root) == {"a": [1, 2], "b": [1, 2]}


def test_an_alias_bomb_stops_quickly():
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]" for i in range(1, 10)]
    start = time.perf_counter()
    d = error("\n".join(lines) + "\n")
    assert d.code == "E013" and "more than" in d.message
    assert time.perf_counter() - start < 5


def test_a_recursive_alias_is_an_error():
    d = error("a: &x [1, *x]\n")
    assert d.code == "E013" and d.message == "an alias refers to a node that contains it"
    assert (d.span.line, d.span.col) == (1, 4)


@pytest.mark.parametrize("text, where", [
    ("a: !!python/object/apply:os.system ['true']\n", (1, 4)),
    ("a: !!python/name:os.system\n", (1, 4)),
    ("a: !custom 3\n", (1, 4)),
    ("a: !!set {x}\n", (1, 4)),
    ("b: 1\na: !!binary aGk=\n", (2, 4)),
])
def test_tags_beyond_the_core_schema_are_refused(text, where):
    d = error(text)
    assert d.code == "E014" and "tag" in d.message
    assert (d.span.line, d.span.col) == where


def test_merge_keys_are_refused():
    d = error("base: &b {x: 1}\nother:\n  <<: *b\n")
    assert d.code == "E014" and "merge keys" in d.message and d.span.line == 3


@pytest.mark.parametrize("text", ["[a]: 1\n", "{a: 1}: 2\n", "~: 1\n", "1.5: x\n"])
def test_keys_must_be_names_or_numbers(text):
    assert error(text).code == "E015"


def test_nan_is_refused():
    assert error("a: .nan\n").code == "E014"


@pytest.mark.parametrize("text", ["", "\n\n", "# only a comment\n"])
def test_empty_files(text):
    d = error(text)
    assert d.code == "E011" and "empty" in d.message and d.span == Span("t.yaml", 1, 1)


def test_several_documents_point_at_the_second():
    d = error("a: 1\n---\nb: 2\n")
    assert d.code == "E011" and (d.span.line, d.span.col) == (3, 1)


def test_binary_files_are_refused_with_the_line_of_the_nul():
    d = error(b"a: 1\nb: \x00\x01\n")
    assert d.code == "E002" and "binary" in d.message and d.span.line == 2


def test_files_that_are_not_utf8_point_at_the_byte():
    d = error("a: 1\ntitle: caf\u00e9\n".encode("latin-1"))
    assert d.code == "E002" and "0xe9" in d.message
    assert (d.span.line, d.span.col) == (2, 11)


def test_control_characters_point_at_the_character():
    d = error("a: 1\nb: x\x7fy\n")
    assert d.code == "E010"
    assert "\n" not in d.message
    assert (d.span.line, d.span.col) == (2, 5)


def test_too_large_files_are_refused_before_parsing(tmp_path):
    big = tmp_path / "big.yaml"
    big.write_bytes(b"a: 1\n" + b"# padding\n" * (source.MAX_FILE_BYTES // 10 + 1))
    start = time.perf_counter()
    with pytest.raises(CompileError) as info:
        source.load(str(big))
    assert info.value.diagnostics[0].code == "E002"
    assert time.perf_counter() - start < 2


@pytest.mark.parametrize("depth", [source.MAX_DEPTH + 5, 3000, 20000])
def test_deep_nesting_is_an_error_not_a_crash(depth):
    d = error("a: " + "[" * depth + "]" * depth + "\n")
    assert d.code == "E012" and str(source.MAX_DEPTH) in d.message


def test_nesting_within_the_limit_is_fine():
    depth = source.MAX_DEPTH - 2
    doc = load("a: " + "[" * depth + "]" * depth + "\n")
    assert isinstance(doc.root.get("a"), SeqNode)


def test_yaml_syntax_errors_are_located():
    d = error("a: [1, 2\nb: 3\n")
    assert d.code == "E010" and d.message.startswith("invalid YAML: ")
    assert d.span.line == 2


def test_tabs_are_located():
    d = error("a:\n\tb: 1\n")
    assert d.code == "E010" and (d.span.line, d.span.col) == (2, 1)


def test_missing_files_and_directories(tmp_path):
    with pytest.raises(CompileError) as info:
        source.load(str(tmp_path / "nope.yaml"))
    assert info.value.diagnostics[0].code == "E001"
    with pytest.raises(CompileError) as info:
        source.load(str(tmp_path))
    assert info.value.diagnostics[0].code == "E001"
