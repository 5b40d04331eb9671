"""Pass 1, load (compiler.front.source): nodes with positions, and what the loader refuses."""

from __future__ import annotations

import pytest
import yaml

from compiler.diagnostics import CompileError, SourceMap, Span, render
from compiler.front import source
from compiler.front.source import MapNode, ScalarNode, SeqNode


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


def test_an_alias_bomb_stops_quickly_at_the_alias_that_overflows(monkeypatch):
    """A billion-node bomb: the converter stops once it has made MAX_NODES nodes (counted, not
    timed: the work done is what a timer would stand for, without the noise of a shared machine)."""
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]" for i in range(1, 10)]
    visits = []
    convert = source._Converter._convert
    monkeypatch.setattr(source._Converter, "_convert", lambda self, *a: visits.append(1) or convert(self, *a))
    d = error("\n".join(lines) + "\n")
    assert len(visits) <= source.MAX_NODES + 2
    # a0..a3 hold 11 + 111 + 1,111 + 11,111 nodes; a4 repeats a3: the 8th *a3 passes 100,000
    assert d.code == "E013"
    assert d.message == f"the alias '*a3' makes the document expand to more than {source.MAX_NODES} nodes"
    assert (d.span.line, d.span.col, d.span.end_col) == (5, 10 + 5 * 7, 13 + 5 * 7)
    assert lines[4][d.span.col - 1 : d.span.end_col - 1] == "*a3"
    assert d.notes == ("'&a3' (line 4, column 5) expands to 11,111 nodes, and every '*a3' repeats them all",)


def test_aliases_are_paired_with_the_nodes_they_repeat():
    """Aliases as keys, as scalars and inside other anchors keep the pairing in step."""
    text = (
        "k: &k key\nv: &v [1, 2]\nm: {*k : 1, other: *v}\nn: &n {a: *v, b: *k}\nlist: [*n, *n, *v]\n"
        "deep: &d [[[[x]]]]\n" + "".join(f"d{i}: &d{i} [*d{i - 1 if i > 1 else ''}]\n" for i in range(1, 70))
    )
    d = error(text)
    # x lies 4 levels down in &d, each &dN wraps one more: in `d60: &d60 [*d59]` it reaches level 2 + 59 + 4
    assert d.code == "E012"
    assert d.message == f"nesting is deeper than {source.MAX_DEPTH} levels through the alias '*d59'"
    assert (d.span.line, d.span.col, d.span.end_col) == (6 + 60, 12, 16)
    assert d.notes == ("'*d59' puts a copy of '&d59' (line 65, column 6) at this depth",)
    doc = load(text.split("deep:")[0])
    assert source.to_plain(doc.root) == {
        "k": "key",
        "v": [1, 2],
        "m": {"key": 1, "other": [1, 2]},
        "n": {"a": [1, 2], "b": "key"},
        "list": [{"a": [1, 2], "b": "key"}] * 2 + [[1, 2]],
    }


def test_a_document_with_too_many_nodes_without_a_big_alias(monkeypatch):
    monkeypatch.setattr(source, "MAX_NODES", 3000)  # the same logic, a smaller file
    d = error("a: [" + ", ".join(["1"] * (source.MAX_NODES + 5)) + "]\n")
    assert d.code == "E013" and d.message == f"the document has more than {source.MAX_NODES} nodes"
    # the mapping and the list count 2: item number MAX_NODES - 1 is the first one too many
    assert (d.span.line, d.span.col) == (1, 5 + 3 * (source.MAX_NODES - 2))
    text = "a: &a [1, 2]\nb: [" + ", ".join(["*a"] * source.MAX_NODES) + "]\n"
    d = error(text)
    assert d.message == f"the document has more than {source.MAX_NODES} nodes" and not d.notes
    # 5 nodes before b's items, 3 for each *a: the alias during which the count passes the budget
    k = (source.MAX_NODES - 5) // 3 + 1
    assert (d.span.line, d.span.col) == (2, 5 + 4 * (k - 1))
    assert text.splitlines()[1][d.span.col - 1 : d.span.end_col - 1] == "*a"  # the alias, not the inside of `&a`


def test_a_recursive_alias_is_an_error_at_the_alias():
    d = error("a: &x [1, *x]\n")
    assert d.code == "E013" and d.message == "the alias '*x' refers to a node that contains it"
    assert (d.span.line, d.span.col, d.span.end_col) == (1, 11, 13)
    assert d.notes == ("'&x' (line 1, column 4) contains '*x': it would expand forever",)


@pytest.mark.parametrize(
    "text, where",
    [
        ("a: !!python/object/apply:os.system ['true']\n", (1, 4)),
        ("a: !!python/name:os.system\n", (1, 4)),
        ("a: !custom 3\n", (1, 4)),
        ("a: !!set {x}\n", (1, 4)),
        ("b: 1\na: !!binary aGk=\n", (2, 4)),
    ],
)
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


def test_too_large_files_are_refused_before_parsing(tmp_path, monkeypatch):
    big = tmp_path / "big.yaml"
    big.write_bytes(b"a: 1\n" + b"# padding\n" * (source.MAX_FILE_BYTES // 10 + 1))
    parsed = []
    monkeypatch.setattr(source.yaml, "parse", lambda *a, **k: parsed.append(1) or iter(()))
    monkeypatch.setattr(source.yaml, "compose_all", lambda *a, **k: parsed.append(1) or iter(()))
    with pytest.raises(CompileError) as info:
        source.load(str(big))
    assert info.value.diagnostics[0].code == "E002"
    assert parsed == []  # refused on its size: YAML never saw it


@pytest.mark.parametrize("depth", [source.MAX_DEPTH + 1, source.MAX_DEPTH + 5, 3000, 20000, 200_000])
def test_deep_nesting_is_an_error_at_the_first_bracket_too_deep(depth):
    # libyaml's composer recurses in C and would overflow the stack: the depth is checked first
    d = error("a: " + "[" * depth + "]" * depth + "\n")
    assert d.code == "E012" and d.message == f"nesting is deeper than {source.MAX_DEPTH} levels"
    # the root mapping is level 0, the first '[' (column 4) level 1
    assert (d.span.line, d.span.col, d.span.end_col) == (1, 4 + source.MAX_DEPTH, 5 + source.MAX_DEPTH)


def test_deep_nesting_with_pyyaml_alone(monkeypatch):
    monkeypatch.setattr(source, "LOADER", yaml.SafeLoader)
    events, parse = [], yaml.parse
    monkeypatch.setattr(source.yaml, "parse", lambda *a, **k: (events.append(e) or e for e in parse(*a, **k)))
    d = error("a: " + "[" * 200_000 + "]" * 200_000 + "\n")
    assert (d.code, d.span.col) == ("E012", 4 + source.MAX_DEPTH)
    assert len(events) < source.MAX_DEPTH + 10  # stopped at the first bracket too deep, not after 400,000


def test_deep_nesting_without_brackets():
    d = error("a:\n" + "- " * 30_000 + "x\n")
    assert d.code == "E012" and (d.span.line, d.span.col) == (2, 1 + 2 * source.MAX_DEPTH)
    d = error("a: " + "{b: " * 30_000 + "1" + "}" * 30_000 + "\n")
    assert d.code == "E012" and d.span.col == 4 + 4 * source.MAX_DEPTH  # the first '{' too deep
    d = error("a: " + "[" * source.MAX_DEPTH + "x" + "]" * source.MAX_DEPTH + "\n")
    assert d.code == "E012" and d.span.col == 4 + source.MAX_DEPTH  # a scalar one level too deep


def test_nesting_within_the_limit_is_fine():
    depth = source.MAX_DEPTH - 2
    doc = load("a: " + "[" * depth + "]" * depth + "\n")
    assert isinstance(doc.root.get("a"), SeqNode)


def test_yaml_syntax_errors_are_located_and_say_where_the_construct_began():
    d = error("a: [1, 2\nb: 3\n")
    assert d.code == "E010" and d.message == "invalid YAML: expected ',' or ']', but got ':'"
    assert (d.span.line, d.span.col) == (2, 2)
    assert d.notes == ("while reading the list opened with '[' at line 1, column 4",)


def test_an_unclosed_quote_says_where_it_was_opened():
    text = 'a: 1\ntitle: "Splendor\nb: 2\nc:\n  - "x: y"\n'
    d = error(text)
    assert d.code == "E010" and (d.span.line, d.span.col) == (5, 6)
    assert d.notes == ("the quoted text opened at line 2, column 8 runs to line 5: is its closing quote missing?",)
    d = error('a: 1\ntitle: "Splendor\nb: 2\n')
    assert d.message == "invalid YAML: the file ends too early"
    assert (d.span.line, d.span.col) == (3, 5)  # the end of the last line, not past it
    assert d.notes == ("the quoted text that starts at line 2, column 8 is never closed",)


def test_a_duplicate_anchor_names_the_first():
    d = error("x: &a 1\ny: &a 2\n")
    assert d.message == "invalid YAML: found duplicate anchor 'a'" and (d.span.line, d.span.col) == (2, 4)
    assert d.notes == ("its first occurrence is at line 1, column 4",)


@pytest.mark.parametrize(
    "text, where",
    [
        ("a:\n\tb: 1\n", (2, 1)),
        ("a:\n  b: 1\n\tc: 2\n", (3, 1)),
        ("a:\n \tb: 1\n", (2, 2)),
        ("a:\n  - x\n\t- y\n", (3, 1)),
    ],
)
def test_tabs_that_indent_say_so(text, where):
    d = error(text)
    assert d.code == "E010" and d.message == "invalid YAML: tabs cannot indent YAML; use spaces"
    assert (d.span.line, d.span.col) == where


@pytest.mark.parametrize("text, col", [("a:\tb\n", 3), ("a: b\t# c\n", 5), ("a: [1,\t2]\n", 7), ("a: \tb\n", 4)])
@pytest.mark.parametrize("loader", ["libyaml if present", "PyYAML"])
def test_a_tab_between_tokens_is_refused_the_same_with_or_without_libyaml(monkeypatch, loader, text, col):
    """libyaml alone would read these (as YAML 1.2 allows); PyYAML refuses them. A spec must
    mean the same on every machine, so a file with a tab is always read by PyYAML's rules."""
    if loader == "PyYAML":
        monkeypatch.setattr(source, "LOADER", yaml.SafeLoader)
    d = error(text)
    assert d.message == "invalid YAML: a tab cannot stand here in YAML; use spaces"
    assert (d.span.line, d.span.col) == (1, col)


# --------------------------------------------------------------------------- the end of the file


@pytest.mark.parametrize(
    "text, where",
    [
        ("a: [1, 2\n", (1, 9)),
        ("a: [1, 2", (1, 9)),
        ("a: 1\nb: [1,\n  2\n\n\n", (3, 4)),  # blank lines at the end: the last line with text
        ("a: 1\nb: {c: 1   \n", (2, 9)),  # trailing spaces: just after the text
        ('a: "x\n\n', (1, 6)),
    ],
)
def test_errors_at_the_end_of_the_file_point_at_the_end_of_its_last_line(text, where):
    d = error(text)
    assert (d.span.line, d.span.col) == where


def test_a_caret_is_drawn_for_an_error_at_the_end_of_the_file(root):
    text = (root / "rulespec" / "official.yaml").read_text(encoding="utf-8")
    at = len(text) - 30
    broken = text[:at] + "\r" + text[at:]  # a lone carriage return: YAML breaks the line there
    sources = SourceMap()
    with pytest.raises(CompileError) as info:
        load(broken, "official.yaml", sources)
    [d] = info.value.diagnostics
    lines = broken.splitlines()
    assert (d.span.line, d.span.col) == (len(lines), len(lines[-1]) + 1)
    shown = render(d, sources).splitlines()
    where = f"official.yaml:{len(lines)}:{len(lines[-1]) + 1}"
    assert shown[0] == f"{where}: error[E010]: invalid YAML: could not find expected ':'"
    assert shown[1] == f" {len(lines)} | {lines[-1]}"
    assert shown[2] == f" {' ' * len(str(len(lines)))} | {' ' * len(lines[-1])}^"
    assert f"line {len(lines) - 1} ends with a lone carriage return (\\r), which YAML reads as a line break" in d.notes


def test_reader_errors_count_lines_as_yaml_does():
    d = error("a: 1\rb: 2\rc: x\x7fy\r")
    assert (d.span.line, d.span.col) == (3, 5)


# --------------------------------------------------------------------------- libyaml


def _walk(node, seen=None):
    seen = set() if seen is None else seen
    if id(node) in seen:
        return
    seen.add(id(node))
    yield node
    if isinstance(node, yaml.MappingNode):
        for k, v in node.value:
            yield from _walk(k, seen)
            yield from _walk(v, seen)
    elif isinstance(node, yaml.SequenceNode):
        for item in node.value:
            yield from _walk(item, seen)


def _marks(text: str, loader) -> list[tuple]:
    return [
        (
            type(n).__name__,
            n.tag,
            n.value if isinstance(n, yaml.ScalarNode) else len(n.value),
            (n.style or None) if isinstance(n, yaml.ScalarNode) else n.flow_style,
            n.start_mark.line,
            n.start_mark.column,
            n.end_mark.line,
            n.end_mark.column,
        )
        for document in yaml.compose_all(text, Loader=loader)
        for n in _walk(document)
    ]


TRICKY = {
    "unicode": "title: {sr: Сплендор, fr: \"Splendor à la française\", e: 😀😀 x}\nnext: [😀, é, 'ж']\n",
    "crlf": "a: 1\r\nb:\r\n  - x\r\n  - 'y\r\n    z'\r\n",
    "cr": "a: 1\rb: [1,\r 2]\rc: 3\r",
    "unicode breaks": "a: 1\x85b: 2\u2028c: 3\u2029d: x\n",
    "block scalars": 'a: |2\n    indented\n  more\nb: >-\n  folded\n  text\n\nc: "multi\n  line"\n',
    "anchors": "a: &x {k: [1, 2]}\nb: *x\n*x : 3\n? complex\n: value\n",
    "comments": "# c\na: 1 # c\n# c\nb:\n  # c\n  - 1\n",
}


def test_libyaml_is_used_when_pyyaml_has_it():
    assert source.LOADER is (yaml.CSafeLoader if yaml.__with_libyaml__ else yaml.SafeLoader)


def test_both_loaders_give_every_node_the_same_place(root):
    """libyaml (source.LOADER) and PyYAML's own loader agree on every node of every spec and
    variant: kind, tag, value, style, start and end. (Where PyYAML lacks libyaml, both are one.)"""
    texts = {
        p.name: p.read_text(encoding="utf-8")
        for p in [root / "rulespec" / "official.yaml", *sorted((root / "variants").glob("*.yaml"))]
    }
    texts.update(TRICKY)
    assert len(_marks(texts["official.yaml"], yaml.SafeLoader)) > 400
    for name, text in texts.items():
        assert _marks(text, source.LOADER) == _marks(text, yaml.SafeLoader), name


def test_both_loaders_build_the_same_tree(root, monkeypatch):
    for path in [root / "rulespec" / "official.yaml", *sorted((root / "variants").glob("*.yaml"))]:
        data = path.read_bytes()
        fast = load(data, path.name)
        monkeypatch.setattr(source, "LOADER", yaml.SafeLoader)
        slow = load(data, path.name)
        monkeypatch.undo()
        assert fast.root == slow.root, path.name  # frozen nodes: spans and styles compared too


@pytest.mark.parametrize(
    "text",
    [
        "a: [1, 2\nb: 3\n",
        'a: "x\n',
        "a:\n\tb: 1\n",
        "x: &a 1\ny: &a 2\n",
        "x: *b\n",
        "a: b: c\n",
        "a: |\n\tx\n  y: [\n",
        "a: 1\n--- \nb: 2\n...\n---\n",
        "a: &x [1, *x]\n",
        "a: 1\nb: x\x7fy\n",
    ],
)
def test_both_loaders_report_the_same_mistakes(text, monkeypatch):
    fast = error(text)
    monkeypatch.setattr(source, "LOADER", yaml.SafeLoader)
    assert error(text) == fast


def test_missing_files_and_directories(tmp_path):
    with pytest.raises(CompileError) as info:
        source.load(str(tmp_path / "nope.yaml"))
    assert info.value.diagnostics[0].code == "E001"
    with pytest.raises(CompileError) as info:
        source.load(str(tmp_path))
    assert info.value.diagnostics[0].code == "E001"


# --------------------------------------------------------------------------- values cut at a comma


def test_an_expression_cut_at_its_comma_in_an_inline_list_is_one_error():
    d = error("effects: [take(colour, 2)]\n")
    assert d.code == "E017"
    assert d.message == (
        "YAML cut 'take(colour, 2)' at its comma: in a list written in [...], a comma separates the items"
    )
    assert d.span == Span("t.yaml", 1, 11, 1, 26)
    assert d.notes == ('put it in quotes, "take(colour, 2)", or write the list one item per line: - take(colour, 2)',)


def test_an_expression_cut_in_an_inline_mapping_names_its_key():
    d = error("end: {when: max(a, b, c) >= 3, finish: immediately}\n")
    assert d.message == (
        "YAML cut 'max(a, b, c) >= 3' at its commas: in a mapping written in {...}, a comma separates the entries"
    )
    assert d.notes == ('put it in quotes, when: "max(a, b, c) >= 3", or write the mapping one key per line',)
    assert (d.span.col, d.span.end_col) == (13, 30)


def test_every_cut_value_is_reported():
    with pytest.raises(CompileError) as info:
        load("a: {x: min(p, q), y: 1}\nb: [f(1, 2), g(3, 4)]\n")
    assert [(d.code, d.span.line, d.span.col) for d in info.value.diagnostics] == [
        ("E017", 1, 8),
        ("E017", 2, 5),
        ("E017", 2, 14),
    ]


def test_the_cut_values_stand_for_the_duplicate_key_they_make():
    with pytest.raises(CompileError) as info:  # both cuts leave a key 'q)': not reported as E016
        load("a: {x: min(p, q), y: min(r, q)}\n")
    assert [(d.code, d.span.col) for d in info.value.diagnostics] == [("E017", 8), ("E017", 22)]


def test_balanced_or_quoted_inline_values_are_not_cut():
    doc = load(
        'effects: ["take(colour, 2)", take(gold), f(x)]\nnote: {text: plain (no comma)}\nblock:\n  - take(colour, 2)\n'
    )
    assert doc.root.get("effects").items[0].value == "take(colour, 2)"
    assert doc.root.get("block").items[0].value == "take(colour, 2)"


@pytest.mark.parametrize("word", ["on", "off", "yes", "no", "On", "NO", "Yes", "OFF"])
def test_only_true_and_false_are_truth_values_as_in_yaml_1_2(word):
    """YAML 1.1 reads an unquoted on/off/yes/no as a truth value: a definition named `on` vanished
    into the key True. A spec is read as YAML 1.2 reads it: a name, as a key and as a value."""
    doc = load(f"define:\n  {word}: {{is: '3'}}\nflag: {word}\nlist: [{word}, true]\n")
    assert source.to_plain(doc.root) == {"define": {word: {"is": "3"}}, "flag": word, "list": [word, True]}


@pytest.mark.parametrize("text, shown", [("true: 1\n", "true"), ("a:\n  False: x\n", "False")])
def test_a_truth_value_as_a_key_is_e015_with_the_fix(text, shown):
    d = error(text)
    assert d.code == "E015"
    assert d.message == f"a mapping key must be a name or a whole number, not the truth value {shown}"
    assert d.notes == (f"quote it to make it a name: '{shown}'",)
