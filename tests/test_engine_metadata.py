"""The engines' metadata API (README.md, "Metadata: what the spec declares, by name"): DECISION_INFO,
ACTION_PARAMS, ZONES, KINDS and VARIABLES, named tuples of compiler/emit/runtime/meta.py read by
field name, on the official engine (all empty but the decisions), the Cities (zones and a kind)
and the Trading Posts (declared state, a kind held by a variable)."""

from __future__ import annotations

import re

import pytest

from compiler.emit.runtime import meta
from compiler.lower.pysource import CONSTANT_PREFIXES
from tests.helpers.engines import ROOT, load_engine

ENGINES = ROOT / "generated" / "engines"
ALL = sorted(ENGINES.glob("*.py"))


@pytest.fixture(scope="module")
def official():
    return load_engine(ENGINES / "official.py")


@pytest.fixture(scope="module")
def cities():
    return load_engine(ENGINES / "cities.py")


@pytest.fixture(scope="module")
def posts():
    return load_engine(ENGINES / "trading_posts.py")


def test_an_engine_without_zones_kinds_or_state_has_them_empty(official):
    assert official.ZONES == () and official.KINDS == {} and official.VARIABLES == ()


@pytest.mark.parametrize("path", ALL, ids=lambda p: p.stem)
def test_each_decision_has_its_block_of_ids_and_its_choices(path):
    engine = load_engine(path)
    info = engine.DECISION_INFO
    assert tuple(d.name for d in info) == engine.DECISIONS
    assert engine.ACTION_PARAMS == tuple(d.params for d in info)
    first = 0
    for index, d in enumerate(info):
        assert isinstance(d, engine.DecisionInfo) and d.first_id == first and d.size >= 1
        for action in range(d.first_id, d.first_id + d.size):
            decision, args = engine.ACTIONS[action]
            assert decision == index and len(args) == len(d.params)
        assert d.pays == (index < len(engine._PAYOPTS) and engine._PAYOPTS[index] is not None)
        first += d.size
    assert first == engine.NUM_ACTIONS


def test_the_payment_step_is_the_last_decision_and_chooses_a_payment(official):
    pay = official.DECISION_INFO[-1]
    assert pay.name == "payment" and pay.first_id == official._PAY_BASE and pay.size == len(official.PAYMENTS)
    assert pay.params == (official.Param(name="payment", domain="payment"),) and not pay.pays
    buy = official.DECISION_INFO[official.DECISIONS.index("buy_face_up")]
    assert buy.pays and [p.domain for p in buy.params] == ["face_up"]  # the payment is not an argument


def test_the_cities_zones_by_name(cities):
    zones = {z.name: z for z in cities.ZONES}
    assert list(zones) == ["city_pile", "city_display", "claimed"]
    pile, display, claimed = zones["city_pile"], zones["city_display"], zones["claimed"]
    assert pile.shape == cities.PILE and pile.start == "all" and pile.source == -1 and not pile.per_player
    assert display.shape == cities.ROW and cities.ZONES[display.source] is pile
    assert display.sizes == {2: 3, 3: 3, 4: 3} and display.start == "dealt"
    assert claimed.shape == cities.HOLDING and claimed.per_player and claimed.limit == 0
    assert {z.kind for z in cities.ZONES} == {"cities"} and all(z.private_attribute == "" for z in cities.ZONES)
    game = cities.new_game(2, seed=3)
    assert len(getattr(game, display.attribute)) == 3 and getattr(game, claimed.attribute) == [[], []]


def test_the_cities_kind_by_name(cities):
    kind = cities.KINDS["cities"]
    assert kind.name == "cities" and kind.size == 14 == len(kind.rows)
    assert [c.name for c in kind.columns] == ["tile", "side", "prestige", "requires", "any_one_colour"]
    assert {c.name: c.type for c in kind.columns}["requires"] == "gems"
    assert sorted(x for piece in kind.pieces for x in piece) == list(range(kind.size))
    assert all(len(piece) == 2 for piece in kind.pieces)  # a tile has two sides
    prestige = [c.name for c in kind.columns].index("prestige")
    assert kind.rows is cities._k_cities and kind.rows[4][prestige] == 17


def test_the_trading_posts_variables_by_name(posts):
    variables = {v.name: v for v in posts.VARIABLES}
    markers, paired = variables["markers"], variables["paired"]
    assert markers.per_player and markers.kind == "posts" and markers.type == "ids:posts:5"
    assert posts.KINDS[markers.kind].size == 5
    assert paired.type == "gem" and paired.optional and paired.initial is None and paired.kind == ""
    assert variables["bought"].type == "bool" and variables["bought"].initial is False
    assert posts.saved_value(paired, 2) == posts.COLOURS[2] and posts.saved_value(paired, None) is None
    assert posts.saved_value(markers, (1, 3)) == [1, 3]
    game = posts.new_game(2, seed=1)
    assert getattr(game, markers.attribute) == [[], []]
    assert posts.ZONES == ()


@pytest.mark.parametrize("path", ALL, ids=lambda p: p.stem)
def test_every_table_is_made_of_the_runtimes_classes(path):
    engine = load_engine(path)
    assert engine.SHAPES == meta.SHAPES
    for zone in engine.ZONES:
        assert isinstance(zone, engine.Zone) and zone.shape in engine.SHAPES and zone.kind in engine.KINDS
        assert zone.source == -1 or engine.ZONES[zone.source].shape == engine.PILE
    for name, kind in engine.KINDS.items():
        assert isinstance(kind, engine.Kind) and kind.name == name
        assert all(isinstance(c, engine.Column) for c in kind.columns)
        assert all(len(row) == len(kind.columns) for row in kind.rows)
    for var in engine.VARIABLES:
        assert isinstance(var, engine.Variable) and (var.kind in engine.KINDS if var.kind else True)


def test_the_readme_documents_every_field():
    readme = ROOT.joinpath("README.md").read_text(encoding="utf-8")
    for cls in (meta.DecisionInfo, meta.Param, meta.Zone, meta.Kind, meta.Column, meta.Variable):
        shown = f"{cls.__name__}({', '.join(cls._fields)})"
        assert shown in readme, shown
    assert re.search(r"`PILE`, `DISPLAY`, `ROW`, `HOLDING`", readme)


@pytest.mark.parametrize("path", ALL, ids=lambda p: p.stem)
def test_the_named_constants_are_the_ids_and_indexes_they_name(path):
    """BASE_NAME is a decision's first action id and COLOUR_NAME a colour's index; no other global of an
    engine starts with those prefixes (pysource.CONSTANT_PREFIXES)."""
    engine = load_engine(path)
    spec = {"BASE_" + d.name.upper(): d.first_id for d in engine.DECISION_INFO if d.name != "payment"}
    spec |= {"COLOUR_" + c.upper(): i for i, c in enumerate(engine.COLOURS)}
    found = {name: value for name, value in vars(engine).items() if name.startswith(CONSTANT_PREFIXES)}
    assert found == spec
    rules = " ".join(path.read_text(encoding="utf-8").split("\n# ------", 1)[1].split())  # docstrings are wrapped
    for d in engine.DECISION_INFO[:-1] if engine._PAY >= 0 else engine.DECISION_INFO:
        assert f"BASE_{d.name.upper()} = {d.first_id}" in rules  # named by its legal code
