"""Sheets in players' words (issue 30, leftovers): a piece of a zone called by its kind's item with
the article its gender takes (the base cards' own plural and gender, kept by a spec that declares
them in full), a base card in a zone read as a card, a colour column as a colour, a drawn piece by
its item, Serbian's reflexive "свој" for what you act on, a fixed prestige source under a condition.
Spec -> sheet text, in the four languages; no engine word ("pièce", "део", "le nombre « level »")
where the spec gives the words.
"""

from __future__ import annotations

import pytest

from compiler import pipeline
from compiler.sheets import content
from compiler.sheets import render as sheet_render
from tests.helpers import ROOT

BASE_ROWS = str(ROOT / "tests" / "specs" / "base-rows.yaml")
TRADING_POSTS = str(ROOT / "variants" / "trading-posts.yaml")
RAINBOW = str(ROOT / "variants" / "rainbow.yaml")
CHARMS = str(ROOT / "tests" / "specs" / "charm-bonus.yaml")
SECRETS = str(ROOT / "tests" / "specs" / "secret-hands.yaml")


@pytest.fixture(autouse=True)
def at_root(monkeypatch):
    monkeypatch.chdir(ROOT)  # a variant extends the catalogue's by name


def sheet(path: str, lang: str) -> str:
    rules = pipeline.load_rules(path)
    base = pipeline.load_rules(rules.bases[0].path) if rules.bases else None
    return sheet_render.markdown(content.build(rules, lang, base), rules)


CHOOSE_CARD = {
    "en": "Choose a card from “Face-up cards” of level 2 or a card from “Face-up cards” of level 3.",
    "fr": "Choisissez une carte de la zone « Cartes visibles » du niveau 2 ou une carte de la zone",
    "nl": "Kies een kaart uit ‘Open kaarten’ van niveau 2 of een kaart uit ‘Open kaarten’ van niveau 3.",
    "sr": "Изаберите једну карту из зоне „Отворене карте“ нивоа 2 или једну карту из зоне",
}
CARD_COLUMNS = {  # a card of a row declared as a zone: its level and its points as a card's
    "en": "for each card in the “Face-up cards” of level 1, the level of that card is 1",
    "fr": "pour chaque carte de la zone « Cartes visibles » du niveau 1, le niveau de cette carte vaut 1",
    "nl": "die kaart precies 0 prestigepunten waard is",
    "sr": "та карта вреди тачно 0 поена престижа",
}


@pytest.mark.parametrize("lang", ["en", "fr", "nl", "sr"])
def test_a_piece_of_a_zone_is_called_by_its_kind_with_its_article(lang):
    text = sheet(BASE_ROWS, lang)
    assert CHOOSE_CARD[lang] in text
    assert CARD_COLUMNS[lang] in text
    for engine_word in ("pièce (carte)", "« level »", "stuk (kaart)", "део", "(„карта“)"):
        assert engine_word not in text


def test_serbian_says_svoj_for_what_you_act_on_and_agrees_the_item_in_the_accusative():
    rules = pipeline.load_rules(TRADING_POSTS)
    base = pipeline.load_rules(rules.bases[0].path)
    text = sheet_render.html(content.build(rules, "sr", base), rules)  # the rule in full: the HTML's details
    assert "Изаберите једну трговачку станицу из зоне „Трговачке станице“." in text
    assert "Додајте изабрану трговачку станицу у свој запис „Отворене станице“." in text
    assert "То смете само ако изабрана трговачка станица не спада у ваш запис" in text  # the subject: ваш


DRAWN = {
    "en": "Draw the top secret tile of “Secret pile” into your “Secret hand”",
    "fr": "Piochez la pièce (tuile secrète) du dessus de la zone « Pile secrète »",  # no French gender given
    "nl": "trek het bovenste stuk (geheime tegel) van ‘Geheime stapel’",
    "sr": "извуците горњу плочицу („тајна плочица“) зоне „Тајна гомила“ у своју зону „Тајна рука“",
}


@pytest.mark.parametrize("lang", ["en", "fr", "nl", "sr"])
def test_a_drawn_piece_is_its_kind_s_item(lang):
    assert DRAWN[lang].lower() in sheet(SECRETS, lang).lower()


SOURCE = {
    "en": "A player's prestige also includes 3 prestige points if the player has a bonus of every gem colour",
    "fr": "Le prestige d'un joueur comprend aussi 3 points de prestige si le joueur a un bonus de chaque",
    "nl": "Het prestige van een speler omvat ook 3 prestigepunten als de speler over een bonus in elke",
    "sr": "Престиж играча обухвата и 3 поена престижа ако играч има бонус сваке боје драгуља",
}


@pytest.mark.parametrize("lang", ["en", "fr", "nl", "sr"])
def test_a_source_worth_points_under_a_condition_says_no_otherwise_zero(lang):
    text = sheet(RAINBOW, lang)
    assert SOURCE[lang] in text
    assert not any(zero in text for zero in ("otherwise 0", "sinon 0", "anders 0", "иначе 0"))


COLOUR_COLUMN = {
    "en": "Take 1 token of the “colour” of the chosen charm",
    "fr": "Prenez 1 jeton de la couleur « colour » de la pièce choisie (charme)",
    "nl": "Neem 1 fiche van de kleur ‘colour’ van",
    "sr": "Узмите 1 жетон боје „colour“ изабране плочице („амајлија“)",
}


@pytest.mark.parametrize("lang", ["en", "fr", "nl", "sr"])
def test_a_colour_column_is_a_colour_not_a_number(lang):
    text = sheet(CHARMS, lang)
    assert COLOUR_COLUMN[lang] in text
    assert "jeton le nombre" not in text and "жетон број" not in text
