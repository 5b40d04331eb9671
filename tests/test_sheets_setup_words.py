"""Sheets in players' words (issue 30, leftovers): the deal of a module's own zones as a player aid says
it (the pieces by their kind's item, the zone by its own item), a negative add said as a subtraction,
a flag in Dutch. Spec -> sheet text, in the four languages.
"""

from __future__ import annotations

import pytest

from compiler import pipeline
from compiler.sheets import content
from compiler.sheets import render as sheet_render
from tests.helpers import ROOT

CITIES = str(ROOT / "variants" / "cities.yaml")
BY_COUNT = str(ROOT / "tests" / "specs" / "cities-by-count.yaml")
DEALT_OPEN = str(ROOT / "tests" / "specs" / "cities-dealt-open.yaml")
FAVOURS = str(ROOT / "variants" / "court-favours.yaml")


@pytest.fixture(autouse=True)
def at_root(monkeypatch):
    monkeypatch.chdir(ROOT)  # a variant in tmp_path extends the catalogue's by name


def sheet(path: str, lang: str) -> str:
    """The sheet without its worked example (the sentences read here are the rules' own)."""
    rules = pipeline.load_rules(path)
    base = pipeline.load_rules(rules.bases[0].path) if rules.bases else None
    return sheet_render.markdown(content.build(rules, lang, base), rules)


DEAL = {
    "en": "Reveal 3 cities from the “City tiles” pile: these are the cities on display.",
    "fr": "Révélez 3 cités de la pile « Tuiles Cité » : ce sont les cités exposées.",
    "nl": "Leg van de stapel ‘Stadstegels’ 3 steden open: dat zijn de uitgestalde steden.",
    "sr": "Откријте 3 града из гомиле „Плочице градова“ и поређајте их лицем нагоре у ред „Изложени градови“.",
}
PILE = {
    "en": "Shuffle the cities into a face-down pile, “City tiles”",
    "fr": "Mélangez les cités en une pile face cachée, « Tuiles Cité »",
    "nl": "Schud de steden tot een gesloten stapel, ‘Stadstegels’",
    "sr": "Од свих градова направите гомилу лицем надоле, „Плочице градова“, и промешајте је",
}
ENGINE_WORDS = ("pièce", "zone", "Lay out", "делове врсте", "зону", "Disposez")


@pytest.mark.parametrize("lang", ["en", "fr", "nl", "sr"])
def test_the_deal_of_a_modules_zones_reads_as_a_player_aid(lang):
    """The Cities' setup: the tiles shuffled into their pile, three cities revealed from it, called by
    the kind's item (its plural and case) and the zone's own item, never "3 pieces of the pile in the
    zone"."""
    setup = sheet(CITIES, lang).split("\n## ")[3]
    lines = [line for line in setup.splitlines() if "★3" in line]
    assert lines[0].startswith(f"- {PILE[lang]}")
    assert lines[1] == f"- {DEAL[lang]} ★3"
    assert not any(word in line for line in lines for word in ENGINE_WORDS)


@pytest.mark.parametrize(
    "lang, said",
    [
        ("en", "Reveal from the “City tiles” pile as many cities as the table shows under “Cities”: these are"),
        (
            "fr",
            "Révélez de la pile « Tuiles Cité » autant de cités que le tableau en indique dans la colonne « Cités »",
        ),
        ("nl", "Leg van de stapel ‘Stadstegels’ zoveel steden open als de tabel in de kolom ‘Steden’ aangeeft:"),
        ("sr", "Откријте из гомиле „Плочице градова“ онолико градова колико табела показује у колони „Градови“"),
    ],
)
def test_a_display_dealt_by_a_column_of_the_setup_table(lang, said):
    assert said in sheet(BY_COUNT, lang)


@pytest.mark.parametrize(
    "lang, said",
    [
        ("en", "Reveal 4 pieces (city) at random and lay them out face up in “Cities on display”; the others are"),
        ("fr", "Révélez 4 pièces (cité) au hasard et alignez-les face visible (« Cités exposées ») ; les autres"),
        ("nl", "Leg willekeurig 4 stukken (stad) open in ‘Uitgestalde steden’; de andere worden niet gebruikt."),
        ("sr", "Откријте 4 плочице („град“) насумично и поређајте их лицем нагоре у ред „Изложени градови“;"),
    ],
)
def test_a_display_dealt_from_the_kind_itself_without_the_items_forms(lang, said):
    """No pile to deal from: drawn at random, the rest unused; a spec that gives no plural of its item
    and no item of its zone gets the table's neutral words and the zone's title."""
    assert said in sheet(DEALT_OPEN, lang)


SPEND = {
    "en": "Subtract 1 from your “Favours” and take 1 token of one colour.",
    "fr": "Retirez 1 de votre « Faveurs » et prenez 1 jeton d'une même couleur.",
    "nl": "Trek 1 af van je ‘Gunsten’ en neem 1 fiche van één kleur.",
    "sr": "Одузмите 1 од свог записа „Услуге“ и узмите 1 жетон једне боје.",
}


@pytest.mark.parametrize("lang", ["en", "fr", "nl", "sr"])
def test_a_negative_add_is_said_as_a_subtraction(lang):
    text = sheet(FAVOURS, lang)
    assert SPEND[lang] in text
    assert "-1" not in text


def test_a_flag_in_dutch_is_noted_not_set_to_yes():
    """A condition on a flag: 'als bij ‘Gekocht’ ja genoteerd staat', not 'als ‘Gekocht’ op ja staat'."""
    rules = pipeline.load_rules(str(ROOT / "variants" / "trading-posts.yaml"))
    html = sheet_render.html(content.build(rules, "nl", pipeline.load_rules(rules.bases[0].path)), rules)
    assert "bij ‘Gekocht’ ja genoteerd staat" in html
    assert "op ja staat" not in html


BASE_ROWS = str(ROOT / "tests" / "specs" / "base-rows.yaml")
PLACES = {
    "en": ("10 or more cards are left in the deck of level 2", "you have purchased 4 or more development cards"),
    "fr": (
        "s'il reste 10 cartes ou plus dans la pioche du niveau 2",
        "vous avez acheté 4 cartes Développement ou plus",
    ),
    "nl": (
        "er 10 of meer kaarten over zijn in de stapel van niveau 2",
        "je 4 of meer ontwikkelingskaarten gekocht hebt",
    ),
    "sr": ("у шпилу нивоа 2 остаје 10 или више карата", "у купљеним картама имате 4 или више развојне карте"),
}


@pytest.mark.parametrize("lang", ["en", "fr", "nl", "sr"])
def test_a_count_of_a_base_games_place_is_said_as_the_base_game_says_it(lang):
    """`size(piles[2])` of a zone that is the decks (`place: decks`) and `size(me.tableau)` of the
    purchased cards read as the base game's own counts, not "the “Decks” of level 2 holds 10 pieces"."""
    text = sheet(BASE_ROWS, lang)
    deck, purchased = PLACES[lang]
    assert deck in text and purchased in text
    assert not any(word in text for word in ("« Pioches » du niveau 2 contient", "holds 10", "10 или више плочица"))
