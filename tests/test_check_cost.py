"""The checks' cost is linear in the spec, however its definitions call one another (issue 26, item 9).

A definition is written out where it is called (compiler/check/definitions.py), so a chain of
definitions each calling the one before twice (`d_i(p) = d_{i-1}(p) + d_{i-1}(p)`) stands for
2^N nodes. The checks see through a call by working out each definition once per signature
(compiler/check/bounds.py, Bounds.call), and a call the engine would write out past
MAX_WRITTEN_OUT nodes is refused (E556) before the lowering writes anything.

As tests/test_sizes.py does, these tests count work instead of timing it: the Python
function calls the whole of `check` makes (sys.setprofile), which grow with the spec's text
by a steady amount per definition, never doubling.
"""

from __future__ import annotations

import pathlib
import shutil
import sys

import pytest

from compiler import pipeline
from compiler.check.definitions import MAX_WRITTEN_OUT
from compiler.diagnostics import CompileError, SourceMap, render_all
from compiler.emit.engine import render_module
from compiler.lower import lower

ROOT = pathlib.Path(__file__).resolve().parent.parent
CLEAN = (ROOT / "tests" / "broken" / "_clean.yaml").read_text(encoding="utf-8").replace("../../rulespec/", "")
TITLE = "{en: '{p}', fr: '{p}', nl: '{p}', sr: '{p}'}"


def chain(n: int) -> str:
    """The clean spec with definitions d0..dN, each calling the one before twice; dN is called in an
    action's condition, a step's `while` (its termination is proved), an end trigger and a prestige
    source (the bounds of each are checked)."""
    defs = f"define:\n  d0:\n    title: {TITLE}\n    params: {{p: player}}\n    is: p.purchased\n"
    for i in range(1, n + 1):
        defs += f"  d{i}:\n    title: {TITLE}\n    params: {{p: player}}\n    is: d{i - 1}(p) + d{i - 1}(p)\n"
    defs += f"prestige:\n  far:\n    title: Far\n    by: if d{n}(player) >= 1000000 then 1 else 0\n"
    text = CLEAN.replace("end:\n  target:", defs + "end:\n  target:", 1)
    for old, new in (
        ("when: me.prestige >= target", f"when: me.prestige >= target or d{n}(me) >= 1000000"),
        ("condition: supply[colour] >= pair_minimum", f"condition: supply[colour] >= pair_minimum and d{n}(me) >= 0"),
        ("while: me.held > token_limit", f"while: me.held > token_limit and d{n}(me) >= 0"),
    ):
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    return text


class TooMuchWork(Exception):
    pass


def check_work(folder: pathlib.Path, n: int, most: float = float("inf")) -> tuple[int, list[str]]:
    """(the Python calls `check` makes on chain(n), the codes it reports); TooMuchWork past `most`."""
    path = folder / f"chain{n}.yaml"
    path.write_text(chain(n), encoding="utf-8")
    calls = 0

    def count(frame, event, arg):
        nonlocal calls
        if event == "call":
            calls += 1
            if calls > most:
                raise TooMuchWork(f"checking {n} definitions took more than {most:,.0f} calls")

    codes: list[str] = []
    sys.setprofile(count)
    try:
        pipeline.load_rules(str(path), SourceMap())
    except CompileError as err:
        codes = [d.code for d in err.diagnostics]
    finally:
        sys.setprofile(None)
    return calls, codes


@pytest.fixture
def folder(tmp_path: pathlib.Path) -> pathlib.Path:
    for name in ("splendor_cards.csv", "splendor_nobles.csv"):
        shutil.copy(ROOT / "rulespec" / name, tmp_path / name)
    return tmp_path


def test_checking_a_chain_of_doubling_definitions_costs_the_same_per_definition(folder):
    check_work(folder, 1)  # the parser and the schema are built once per process: not the spec's work
    w8, codes8 = check_work(folder, 8)
    assert codes8 == []  # 8 definitions: 3 * 2^8 nodes written out, within the bound
    # Linear: the 8 definitions from 8 to 16 cost what any 8 more cost. Before, 16 definitions
    # took 2^8 times the work of 8 (seconds became minutes); 5 times the work of 8 stops the count.
    most = 5 * w8
    w16, codes16 = check_work(folder, 16, most)
    w32, codes32 = check_work(folder, 32, most)
    w64, codes64 = check_work(folder, 64, most)
    per_definition = (w16 - w8) / 8
    assert 0 < per_definition
    assert w32 - w16 <= 1.25 * 16 * per_definition, (w8, w16, w32, w64)
    assert w64 - w32 <= 1.25 * 32 * per_definition, (w8, w16, w32, w64)
    # written out, each call of d16 and beyond is past the bound: refused where it is called
    assert codes16 == codes32 == codes64 == ["E556", "E556", "E556", "E556"]


def test_a_call_written_out_past_the_bound_is_refused_where_it_is_called(folder):
    (folder / "spec.yaml").write_text(chain(40), encoding="utf-8")
    sources = SourceMap()
    with pytest.raises(CompileError) as err:
        pipeline.load_rules(str(folder / "spec.yaml"), sources)
    first = render_all(err.value.diagnostics[:1], sources).replace(str(folder) + "/", "")
    assert first.splitlines() == [
        "spec.yaml:35:51: error[E556]: this call of 'd40' is 3,298,534,883,327 expression nodes written out, more "
        "than 10,000: an engine writes a definition out where it is called, and the definitions it calls in it",
        " 35 |     condition: supply[colour] >= pair_minimum and d40(me) >= 0",
        "    |                                                   ^^^^^^^",
        "  = note: a definition that calls another twice doubles it, and so on down the chain: call each once "
        "(`2 * d(p)`, not `d(p) + d(p)`)",
    ]


def test_the_longest_chain_within_the_bound_compiles_to_an_engine_of_its_size(folder):
    n = max(i for i in range(20) if 3 * 2**i < MAX_WRITTEN_OUT)  # d_i written out: 2^i leaves of 2 nodes, 2^i - 1 sums
    (folder / "spec.yaml").write_text(chain(n), encoding="utf-8")
    rules = pipeline.load_rules(str(folder / "spec.yaml"))
    text = render_module(lower(rules))
    official = len((ROOT / "generated" / "engines" / "official.py").read_text(encoding="utf-8"))
    # five calls, each a few thousand nodes written out: the engine grows by what it writes, no more
    assert len(text) < official + 5 * MAX_WRITTEN_OUT * 30
    (folder / "spec.yaml").write_text(chain(n + 1), encoding="utf-8")
    with pytest.raises(CompileError) as err:
        pipeline.load_rules(str(folder / "spec.yaml"))
    assert {d.code for d in err.value.diagnostics} == {"E556"}
