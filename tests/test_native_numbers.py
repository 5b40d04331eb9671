"""Which locals a native build declares machine integers (compiler/native/numbers.py).

The pass reads the engine's tree; a wrong "always an integer" would make the native engine raise
TypeError (or count differently) where the pure one plays on, so each way a name can fail to be
an integer is held here. tests/test_native.py (slow tier) plays the built official engine against
the pure one move by move.
"""

from __future__ import annotations

import ast
import pathlib
import textwrap

from compiler.native.declarations import declarations
from compiler.native.numbers import integer_locals, module_types, slot_types
from playtest import engines

ROOT = pathlib.Path(__file__).resolve().parent.parent

GAME = """
from __future__ import annotations

CARD_COST: tuple[tuple[int, ...], ...] = ((1, 2), (3, 4))
NAMES: tuple[str, ...] = ("a", "b")
TWICE: tuple[int, ...] = (1,)
TWICE = (2,)

class Game:
    __slots__ = ("_cp", "supply", "_tok", "market", "ending")

    def __init__(self) -> None:
        self._cp: int = 0
        self.supply: list[int] = [4, 4, 5]
        self._tok: list[list[int]] = [[0, 0, 0]]
        self.market: list[list[int | None]] = [[None]]
        self.ending: tuple[str, str, int] | None = None
"""


def _numbers(body: str) -> list[str]:
    tree = ast.parse(GAME + textwrap.dedent(body))
    fn = next(n for n in tree.body if isinstance(n, ast.FunctionDef))
    return integer_locals(fn, slot_types(tree), module_types(tree))


def test_the_game_s_annotated_counters_and_tables_are_the_facts():
    tree = ast.parse(GAME)
    assert slot_types(tree) == {"_cp": "int", "supply": ("seq", "int"), "_tok": ("seq", ("seq", "int"))}
    assert module_types(tree) == {"CARD_COST": ("seq", ("seq", "int"))}  # TWICE is bound twice


def test_numbers_unpacked_indexed_and_counted_from_the_counters_are_integers():
    assert _numbers("""
        def f(g, out):
            me = g._cp
            s0, s1, s5 = g.supply
            t0 = g._tok[me][0]
            w0 = s0 + t0 if s0 > t0 else -t0
            c0, c1 = CARD_COST[out]
            n = 0
            for x in g.supply:
                n = n + x * 2 // 3 % 5
            n += len(out)
            if (k := s1 - 1) > 0:
                out.append(k)
            return w0 + c0 + c1 + n + s5
        """) == ["c0", "c1", "k", "me", "n", "s0", "s1", "s5", "t0", "w0", "x"]


def test_a_name_that_may_hold_anything_else_is_left_an_object():
    assert (
        _numbers("""
        def f(g, count):
            a = 0
            a = None                  # None
            b = True                  # a flag: stored as a C long it would read back as 1
            c = count                 # a parameter: its type is the caller's
            d = 1.5                   # a float
            e = 1
            e = e / 2                 # true division
            h = g.market[0][0]        # int | None
            i = g.ending[2]           # a tuple of mixed types is not read
            j = NAMES[0]              # a string
            k, = g.unknown            # an attribute the game does not annotate
            m = 0
            [m := str(v) for v in "ab"]  # a comprehension's := binds the function's name
            for q, r in enumerate(g.supply):  # enumerate() is not read
                pass
            return a, b, c, d, e, h, i, j, k, m, q, r
        """)
        == []
    )


def test_parameters_globals_and_a_shadowed_len_are_never_declared():
    assert (
        _numbers("""
        def f(g, n):
            n = 3
            global z
            z = 4
            return n + z
        """)
        == []
    )
    assert (
        _numbers("""
        def f(g, out):
            len = lambda x: "many"
            a = len(out)
            return a
        """)
        == []
    )


def test_the_official_engine_s_legal_scan_counts_in_machine_integers():
    engine = engines.load(str(ROOT / "rulespec/official.yaml"))
    pxd = declarations(engine.source)
    lines = pxd.splitlines()
    scan = lines.index(next(line for line in lines if line.startswith("cpdef _action_phase_legal(")))
    assert lines[scan - 1].startswith("@cython.locals(")
    declared = {part.split("=")[0] for part in lines[scan - 1][len("@cython.locals(") : -1].split(", ")}
    assert {"me", "s0", "s5", "t5", "w0", "w4"} <= declared
    assert all(part.endswith("=cython.long") for part in lines[scan - 1][len("@cython.locals(") : -1].split(", "))
