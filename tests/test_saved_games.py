"""Corrupt saved games are shown as the compiler shows a spec error (issue 14).

tests/broken_states/NAME.json is a saved game of the official spec with one kind of mistake
(or several), and NAME.txt the exact output of `splendor-rules play official --load` on it
(stderr, then the exit status): `FILE:line:col: error[E7xx]: ...`, the line and a caret under
the value, for one-line files as to_json writes them and for pretty-printed ones.
`pytest --update-goldens` rewrites the goldens; read every diff.

The position finder behind it (compiler.front.json_position) is checked against json.loads on
random JSON texts.
"""

from __future__ import annotations

import json
import pathlib
import re

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

import tests.helpers.engines as H
from app import cli
from compiler.front import json_position
from playtest import terminal

STATES = pathlib.Path(__file__).resolve().parent / "broken_states"
CASES = sorted(p.stem for p in STATES.glob("*.json"))

# Files the test writes itself: too big to commit.
GENERATED = {
    "nested_100000_deep": lambda: "[" * 100_000 + "]" * 100_000 + "\n",
}

HEAD = re.compile(r"^(?P<file>[^\s:][^:]*):(?P<line>\d+):(?P<col>\d+): error\[(?P<code>E7\d\d)\]: .+$")


@pytest.fixture(scope="module")
def official():
    return H.official_engine()


def play_load(path: str):
    return CliRunner().invoke(cli.main, ["play", "official", "--load", path], input="quit\n")


def rendered(result) -> str:
    return f"{result.stderr}[exit status: {result.exit_code}]\n"


def assert_located(text: str, case: str) -> None:
    """Every problem has file:line:col, its source line and a caret; the count closes the list."""
    lines = text.splitlines()
    heads = [i for i, line in enumerate(lines) if HEAD.match(line)]
    assert heads, f"{case}: no located diagnostic in\n{text}"
    assert "Traceback" not in text and "internal error" not in text
    assert lines[-1] == f"{len(heads)} error{'s' if len(heads) != 1 else ''}", text
    for i in heads:
        m = HEAD.match(lines[i])
        assert m["file"].endswith(f"{case}.json"), lines[i]
        gutter = f" {m['line']} | "
        assert lines[i + 1].startswith(gutter), f"{case}: no source line after\n{lines[i]}"
        assert re.fullmatch(r" +\| +\^+", lines[i + 2]), f"{case}: no caret line after\n{lines[i + 1]}"


def test_the_catalogue_covers_each_kind_of_problem():
    goldens = {p.stem for p in STATES.glob("*.txt")}
    assert goldens == set(CASES) | set(GENERATED), "every golden has its input and every input its golden"
    codes = {
        HEAD.match(line)["code"]
        for p in STATES.glob("*.txt")
        for line in p.read_text(encoding="utf-8").splitlines()
        if HEAD.match(line)
    }
    assert codes == {"E701", "E702", "E703", "E710"}


def test_the_catalogue_states_are_for_this_official_spec(official):
    """A state saved for another version of official.yaml would add an error to every golden:
    after a change to the spec, refresh spec.sha256 in tests/broken_states/*.json."""
    for case in CASES:
        found = re.search(rb'"sha256": "([0-9a-f]{64})"', (STATES / f"{case}.json").read_bytes())
        assert found is None or found[1].decode() == official.SPEC_SHA256, case


@pytest.mark.parametrize("case", CASES)
def test_a_corrupt_saved_game_is_shown_where_it_is_wrong(case, golden, monkeypatch):
    monkeypatch.chdir(STATES.parent.parent)
    result = play_load(f"tests/broken_states/{case}.json")
    assert result.exit_code == 1 and result.stdout == "", rendered(result)
    assert_located(result.stderr, case)
    golden.check(STATES / f"{case}.txt", rendered(result))


@pytest.mark.parametrize("case", sorted(GENERATED))
def test_a_generated_corrupt_saved_game(case, golden, monkeypatch, tmp_path):
    (tmp_path / f"{case}.json").write_text(GENERATED[case](), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = play_load(f"{case}.json")
    assert result.exit_code == 1
    assert_located(result.stderr, case)
    golden.check(STATES / f"{case}.txt", rendered(result))


def test_load_during_play_shows_the_same_and_keeps_the_game(official, monkeypatch):
    monkeypatch.chdir(STATES.parent.parent)
    table = terminal.new_table(official, 2, ["human", "greedy"], seed=6)
    said = []
    move = str(table.game.legal_actions()[0])  # an action's number is its id
    answers = iter([move, "load tests/broken_states/several_problems_pretty.json", "quit"])
    session = terminal.Session(table, ask=lambda prompt: next(answers), say=said.append)
    assert session.run() == 0
    before_load = table.game.to_json()
    golden_text = (STATES / "several_problems_pretty.txt").read_text(encoding="utf-8")
    shown = golden_text.rsplit("[exit status", 1)[0].rstrip("\n")
    assert shown in said, said
    assert table.game.to_json() == before_load and len(table.game.history) >= 1


def test_load_of_a_game_for_another_table_points_at_its_players(official, tmp_path):
    four = tmp_path / "four.json"
    four.write_text(json.dumps(json.loads(official.new_game(4, seed=1).to_json()), indent=2), encoding="utf-8")
    table = terminal.new_table(official, 2, ["human", "greedy"], seed=6)
    said = []
    answers = iter([f"load {four}", "quit"])
    terminal.Session(table, ask=lambda prompt: next(answers), say=said.append).run()
    line = next(n for n, text in enumerate(four.read_text().split("\n"), 1) if '"players"' in text)
    assert (
        f"{four}:{line}:14: error[E711]: it is a game of 4 players and this table seats 2 (start "
        f'`play SPEC --load {four}` instead)\n {line} |   "players": 4,\n {" " * len(str(line))} |'
        f"              ^\n1 error"
    ) in said, said


def test_an_old_engine_without_paths_is_shown_at_the_state(official, tmp_path):
    """An engine built before StateError carried paths: its message, under the state's first brace."""

    class Old:
        class StateError(ValueError):
            pass

        @staticmethod
        def from_json(data):
            raise Old.StateError("invalid state:\n  - something")

    with pytest.raises(terminal.SavedGameError) as info:
        terminal.load_game(Old, '\n  {"a": 1}', "old.json")
    assert str(info.value) == (
        'old.json:2:3: error[E710]: invalid state: - something\n 2 |   {"a": 1}\n   |   ^^^^^^^^\n1 error'
    )


# =========================================================================== the position finder

JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False)
    | st.text(st.characters(blacklist_categories=("Cs",)), max_size=8),
    lambda inner: (
        st.lists(inner, max_size=5)
        | st.dictionaries(st.text(st.sampled_from('ab"\\\u2028\u00e9 \n'), max_size=3), inner, max_size=5)
    ),
    max_leaves=30,
)


def paths_of(value, prefix=()):
    """Every path into `value`, the value itself first."""
    yield prefix
    if isinstance(value, dict):
        for key, item in value.items():
            yield from paths_of(item, prefix + (key,))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from paths_of(item, prefix + (i,))


def at(value, path):
    for key in path:
        value = value[key]
    return value


SPACES = st.text(st.sampled_from(" \t\n\r"), max_size=3)


@st.composite
def json_texts(draw):
    """A random JSON value as a text, in one of the ways a file can hold it: compact, indented,
    with odd whitespace around every token, with a BOM, with non-ASCII written raw."""
    value = draw(JSON_VALUES)
    style = draw(st.sampled_from(["compact", "indent", "tabs", "spaced", "raw"]))
    if style == "compact":
        text = json.dumps(value, separators=(",", ":"))
    elif style == "indent":
        text = json.dumps(value, indent=draw(st.integers(0, 4)))
    elif style == "tabs":
        text = json.dumps(value, indent="\t").replace("\n", "\r\n")
    elif style == "raw":
        text = json.dumps(value, ensure_ascii=False, indent=1)
    else:  # whitespace of every kind JSON allows, between every token
        text = respaced(value, lambda: draw(SPACES))
    return draw(st.sampled_from(["", "\ufeff"])) + draw(SPACES) + text + draw(SPACES), value


def respaced(value, space) -> str:
    if isinstance(value, dict):
        items = [
            space() + json.dumps(k) + space() + ":" + space() + respaced(v, space) + space() for k, v in value.items()
        ]
        return "{" + ",".join(items) + space() + "}"
    if isinstance(value, list):
        return "[" + ",".join(space() + respaced(v, space) + space() for v in value) + space() + "]"
    return json.dumps(value)


@settings(max_examples=300, deadline=None)
@given(case=json_texts())
def test_value_span_finds_what_json_loads_reads(case):
    text, value = case
    parsed = json.loads(text.encode("utf-8"))  # bytes: json.loads takes the BOM too
    assert parsed == value
    for path in paths_of(parsed):
        start, end = json_position.value_span(text, path)
        assert json.loads(text[start:end]) == at(parsed, path), (path, text[start:end])
        line, col = json_position.line_col(text, start)
        assert json_position.lines(text)[line - 1][col - 1 :].startswith(text[start:end].split("\n")[0].rstrip("\r"))


def test_value_span_with_duplicate_keys_missing_keys_and_deep_nesting():
    text = '{"a": 1, "b": {"c": [10, 20]}, "a": {"d": 2}}'
    assert text[slice(*json_position.value_span(text, ("a",)))] == '{"d": 2}'  # the last "a", as json.loads
    assert text[slice(*json_position.value_span(text, ("a", "d")))] == "2"
    assert text[slice(*json_position.value_span(text, ("b", "c", 1)))] == "20"
    assert text[slice(*json_position.value_span(text, ("b", "c", 5)))] == "[10, 20]"  # past the end: the list
    assert text[slice(*json_position.value_span(text, ("b", "x", 0)))] == '{"c": [10, 20]}'  # missing: the object
    assert text[slice(*json_position.value_span(text, ("a", "d", "e")))] == "2"  # into a number: the number
    deep = "[" * 900 + "7" + "]" * 900  # as deep as json.loads reads
    assert json.loads(deep)
    start, end = json_position.value_span(deep, (0,) * 900)
    assert deep[start:end] == "7"


def test_lines_are_counted_as_json_counts_them():
    text = '{"a": "x\u2028y\u0085z",\r\n "b": 1}'
    assert json_position.line_col(text, text.index("1")) == (2, 7)
    assert json_position.lines(text)[1] == ' "b": 1}' and json_position.lines(text)[0].endswith(",")
    broken = text.replace("1}", "1,}")
    with pytest.raises(json.JSONDecodeError) as info:
        json.loads(broken)
    assert (info.value.lineno, info.value.colno) == json_position.line_col(broken, broken.index("}"))
