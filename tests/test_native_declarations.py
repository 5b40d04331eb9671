"""The `.pxd` of a native build (compiler/native/declarations.py), read from the engine's tree.

No build here (tests/test_native.py, in the slow tier, builds the official engine and plays it
against the pure one move by move): these tests hold the declarations to the engine module they
are made from, so a Game slot or a rule function the emitter adds is declared without a change
to the native build.
"""

from __future__ import annotations

import inspect
import pathlib

from compiler.native.declarations import declarations
from playtest import engines

ROOT = pathlib.Path(__file__).resolve().parent.parent


def _declared(text: str) -> tuple[list[str], dict[str, str]]:
    """(the fields of the cdef class Game, each cpdef function's name -> its parameter list)."""
    fields, functions = [], {}
    for line in declarations(text).splitlines():
        if line.startswith("    cdef public object "):
            fields.append(line.split()[-1])
        elif line.startswith("cpdef "):
            name, _, params = line[len("cpdef ") :].partition("(")
            functions[name] = params.rstrip(")")
    return fields, functions


def test_every_slot_of_the_game_is_a_field_and_the_spec_s_own_state_too():
    for name in ("official", "cities"):
        path = ROOT / ("rulespec/official.yaml" if name == "official" else f"variants/{name}.yaml")
        engine = engines.load(str(path))
        fields, _ = _declared(engine.source)
        assert set(engine.module.Game.__slots__) <= set(fields)
        assert len(fields) == len(set(fields))
    cities = engines.load(str(ROOT / "variants/cities.yaml"))
    assert {"z_city_pile", "z_city_display", "z_claimed"} <= set(_declared(cities.source)[0])


def test_the_rule_functions_take_the_game_typed_and_keep_their_parameters():
    engine = engines.load(str(ROOT / "rulespec/official.yaml"))
    _, functions = _declared(engine.source)
    assert len(functions) > 20
    for name, params in functions.items():
        fn = getattr(engine.module, name)
        assert params.split(", ") == ["Game g", *list(inspect.signature(fn).parameters)[1:]]


def test_a_function_cython_cannot_compile_as_cpdef_is_left_as_it_is():
    text = """
class Game:
    __slots__ = ("a", "b")

_EXTRA_SLOTS = (("z_pile", False, ()),)

def plain(g, args):
    return g.a + args

def closure(g):
    return [x for x in (lambda: g.a)()]

def generator(g):
    return any(x for x in g.b)

def defaulted(g, n=1):
    return g.a + n

def keyword_only(g, *, n):
    return n

def yields(g):
    yield g.a

def twice(g):
    return 1

def twice(g):  # noqa: F811
    return 2

def reassigned(g):
    return 1

reassigned = plain

def other(h):
    return h
"""
    fields, functions = _declared(text)
    assert fields == ["a", "b", "z_pile"]
    assert functions == {"plain": "Game g, args"}


def test_an_engine_that_changes_its_game_class_is_built_without_declarations():
    """A cdef class is immutable. No engine changes its class now: a spec's prestige sources are
    the hook _prestige_totals, which Game.prestige calls (trading-posts once set Game.prestige)."""
    for spec in ("variants/trading-posts.yaml", "variants/rainbow.yaml"):
        text = engines.load(str(ROOT / spec)).source
        assert "def _prestige_totals(g):" in text and "cdef class Game:" in declarations(text)
    assert declarations('class Game:\n    __slots__ = ("a",)\n\nsetattr(Game, "b", 1)\n') == ""
    assert declarations('class Game:\n    __slots__ = ("a",)\n\ndef f(g):\n    g.a = 1\n') != ""


def test_a_module_without_a_game_class_has_nothing_declared():
    assert declarations("def f(g):\n    return g\n") == ""
