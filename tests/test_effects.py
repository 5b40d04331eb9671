"""One focused test per effect added since the registry (compiler/language/effects.py): what the
README's contributor section ("Adding an effect") asks of a new one. `to_bottom` is the example
walked there: checked (its arguments' roles), played (the component lies under the pile), phrased
(its phrase key in the four languages)."""

from __future__ import annotations

import pytest

from compiler import pipeline
from compiler.diagnostics import CompileError
from compiler.language import EFFECTS
from compiler.sheets.phrases import describe
from tests.helpers.engines import load_engine

BURY_A_CITY = """\
spec: 1
name: bury-city
extends: cities
title: {en: "The Cities, buried", fr: "Les Cités, enterrées", nl: "De Steden, begraven", sr: "Градови, закопани"}
actions:
  bury_city:
    add: true
    title: {en: Bury a city, fr: Enterrer une cité, nl: Een stad begraven, sr: Закопавање града}
    notation: "bury {city}"
    choose:
      city: {domain: component, from: city_display}
    effects: ["to_bottom(city, WHERE)"]
"""


def _spec(tmp_path, where: str) -> str:
    path = tmp_path / "bury-city.yaml"
    path.write_text(BURY_A_CITY.replace("WHERE", where), encoding="utf-8")
    return str(path)


def test_to_bottom_is_declared_once_with_its_roles_and_runtime_helper():
    decl = EFFECTS["to_bottom"]
    assert (decl.name, [str(p) for p in decl.params], decl.fields) == (
        "to_bottom",
        ["component", "pile"],
        ("x", "zone"),
    )
    assert (decl.moves, decl.puts_in, decl.draws) == (True, True, None)
    assert (decl.check, decl.lowering, decl.runtime, decl.phrase) == (
        "zone",
        "zone",
        "_zone_to_bottom",
        "eff.to_bottom",
    )


def test_to_bottom_puts_the_chosen_component_under_the_pile(tmp_path):
    path = tmp_path / "engine.py"
    path.write_text(pipeline.compile_spec(_spec(tmp_path, "city_pile")).text, encoding="utf-8")
    engine = load_engine(path)
    game = engine.new_game(2, seed=3)
    city, pile = game.z_city_display[0], list(game.z_city_pile)
    game.apply(engine.string_to_action("bury 1"))
    assert game.z_city_pile == [city, *pile]  # the bottom is the first: drawn last
    assert city not in game.z_city_display


def test_to_bottom_needs_a_pile(tmp_path):
    with pytest.raises(CompileError) as refused:
        pipeline.compile_spec(_spec(tmp_path, "city_display"))
    assert [(d.code, d.message) for d in refused.value.diagnostics] == [
        ("E410", "'to_bottom' needs a pile here, but this is a row (city_display)")
    ]


@pytest.mark.parametrize(
    "lang, says",
    [
        ("en", "put the chosen city at the bottom of “City tiles”"),
        ("fr", "placez la cité choisie au fond de la zone « Tuiles Cité »"),
        ("nl", "leg de gekozen stad onderaan ‘Stadstegels’"),
        ("sr", "ставите изабрани град на дно зоне „Плочице градова“"),
    ],
)
def test_to_bottom_is_phrased_in_every_language(tmp_path, lang, says):
    rules = pipeline.load_rules(_spec(tmp_path, "city_pile"))
    action = next(a for a in rules.actions if a.name == "bury_city")
    assert describe(action.effects[0], lang, rules, action) == says
