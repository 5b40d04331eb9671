"""Sheets in players' words (issue 30, what was left): a zone counted by what lies there, what players
keep track of (declared state) by its own text, a keyword of a component as a word, the module's own
pieces at the table. Spec -> diagnostics, spec -> sheet text, in the four languages.
"""

from __future__ import annotations

import pathlib

import pytest

from compiler import pipeline
from compiler.diagnostics import CompileError, SourceMap, render
from compiler.sheets import content
from compiler.sheets import render as sheet_render
from tests.helpers import ROOT
from tests.helpers.sheets import phrase_text, sheet_text

CITIES = str(ROOT / "variants" / "cities.yaml")
POSTS = str(ROOT / "variants" / "trading-posts.yaml")


@pytest.fixture(autouse=True)
def at_root(monkeypatch):
    monkeypatch.chdir(ROOT)  # a variant in tmp_path extends the catalogue's by name


def variant(tmp_path: pathlib.Path, extends: str, body: str) -> str:
    path = tmp_path / "v.yaml"
    path.write_text(f"spec: 1\nname: v\nextends: {extends}\ntitle: {{en: V, fr: V, nl: V, sr: V}}\n" + body, "utf-8")
    return str(path)


def sheet(path: str, lang: str = "en") -> str:
    rules = pipeline.load_rules(path)
    base = pipeline.load_rules(rules.bases[0].path) if rules.bases else None
    return sheet_render.markdown(content.build(rules, lang, base), rules)


def diagnostics(path: str, tmp_path: pathlib.Path, code: str) -> list[str]:
    sources = SourceMap()
    try:
        found = list(pipeline.check_spec(path, sources).warnings)
    except CompileError as err:
        found = err.diagnostics
    return [render(d, sources).replace(str(tmp_path) + "/", "") for d in found if d.code == code]


# --------------------------------------------------------------------------- a zone by what lies there

WINNER = {
    "en": "You can win only if you have at least 1 claimed city.",
    "fr": "Vous ne pouvez gagner que si vous avez au moins 1 cité revendiquée.",
    "nl": "Je kunt alleen winnen als je minstens 1 opgeëiste stad hebt.",
    "sr": "Можете победити само ако имате најмање 1 освојени град.",
}
EXAMPLE = {
    "en": "Anna has 1 claimed city",
    "fr": "Anne a 1 cité revendiquée",
    "nl": "Anna 1 opgeëiste stad heeft",
    "sr": "Ана има 1 освојени град",
}
ENGINE_ZONE = {
    "en": "holds at least",
    "fr": "zone « Cités revendiquées »",
    "nl": "in je ‘Opgeëiste",
    "sr": "зона „Освојени",
}


@pytest.mark.parametrize("lang", ["en", "fr", "nl", "sr"])
def test_a_players_zone_is_counted_by_what_lies_there(lang):
    """ "Si votre zone « Cités revendiquées » contient au moins 1 cité" read as engine text: the zone's
    `item` says it as players do, in the winners, the end and the worked example."""
    text = sheet_text(CITIES, lang)
    assert WINNER[lang] in text
    assert EXAMPLE[lang] in text.split("\n## ")[-3]  # the worked example
    assert ENGINE_ZONE[lang] not in text


def test_the_count_follows_the_zones_item_in_the_spec(tmp_path):
    path = variant(
        tmp_path,
        "cities",
        "zones:\n  claimed:\n    item:\n      en: {one: trophy, other: trophies}\n"
        "      fr: {one: trophée, other: trophées, gender: m}\n",
    )
    assert "You can win only if you have at least 1 trophy." in sheet(path)
    assert "Vous ne pouvez gagner que si vous avez au moins 1 trophée." in sheet(path, "fr")
    # no Dutch item: the zone by its title, as before
    assert "Je kunt alleen winnen als er in je ‘Opgeëiste steden’ minstens 1 stad ligt." in sheet(path, "nl")


def test_a_zones_item_with_a_gender_its_language_lacks_is_located(tmp_path):
    path = variant(tmp_path, "cities", "zones:\n  claimed:\n    item: {en: trophy, fr: {one: trophée, gender: n}}\n")
    assert diagnostics(path, tmp_path, "E126") == [
        "v.yaml:7:51: error[E126]: 'n' is not a gender of fr (genders: m, f)\n"
        " 7 |     item: {en: trophy, fr: {one: trophée, gender: n}}\n"
        "   |                                                   ^"
    ]


# --------------------------------------------------------------------------- what players keep track of

BOUGHT = {
    "en": "★3 **New: Bought this turn** During your turn, keep in mind whether you bought a card.",
    "fr": "★3 **Nouveau : Achat ce tour** Pendant votre tour, retenez si vous avez acheté une carte.",
    "nl": "★3 **Nieuw: Gekocht** Onthoud tijdens je beurt of je een kaart gekocht hebt.",
    "sr": "★3 **Ново: Куповина** Током свог потеза запамтите да ли сте купили карту.",
}
DEFINED = {
    "en": "★5 **New: Definition** A player has a power when they hold the trading post that gives it.",
    "fr": "★5 **Nouveau : Définition** Un joueur dispose d'un pouvoir quand il a ouvert le comptoir qui le donne.",
    "nl": "★5 **Nieuw: Definitie** Een speler beschikt over een kracht als hij de handelspost heeft geopend die die "
    "kracht geeft.",
    "sr": "★5 **Ново: Дефиниција** Играч има моћ када има отворену станицу која је даје.",
}


@pytest.mark.parametrize("lang", ["en", "fr", "nl", "sr"])
def test_declared_state_is_told_by_its_text_in_the_house_box(lang):
    """ "Le jeu retient « Achat ce tour » (oui ou non, au départ non), oublié à chaque tour" was the
    engine's bookkeeping: the variable's `text` says what players keep in mind."""
    box = sheet(POSTS, lang).split("\n## ", 1)[0]
    assert BOUGHT[lang] in box
    assert DEFINED[lang] in box
    assert not any(word in box for word in ("retient", "onthoudt", "remembers", "игра памти", "het getal"))


def test_a_variant_changing_a_variable_under_its_text_gets_the_phrase_and_a_warning(tmp_path):
    path = variant(tmp_path, "trading-posts", "state:\n  bought:\n    reset: game\n")
    [warning] = diagnostics(path, tmp_path, "E623")
    assert warning.startswith("v.yaml:7:12: warning[E623]: the text of state.bought describes the rule")
    md = sheet(path)
    assert "keep in mind whether you bought a card" not in md
    assert "The game remembers “Bought this turn” (yes or no, at first no)." in md


def test_a_keyword_of_a_component_is_no_number():
    """The generated phrase (the HTML's precise form) of has_power: "het getal ‘kracht’" was wrong."""
    said = {lang: phrase_text(POSTS, lang) for lang in ("fr", "nl")}
    assert "la valeur « pouvoir » de ce comptoir est une valeur « pouvoir » donnée" in said["fr"]
    assert "de ‘kracht’ van die handelspost een gegeven ‘kracht’ is" in said["nl"]
    assert "le nombre « pouvoir »" not in said["fr"] and "het getal ‘kracht’" not in said["nl"]


# --------------------------------------------------------------------------- the module's pieces

PIECES = {
    ("trading-posts", "en"): "Lay the trading posts board, which shows the route and its five trading posts, beside "
    "the cards; each player takes the markers (coats of arms) of one colour.",
    ("trading-posts", "fr"): "Posez le plateau des comptoirs, qui montre la route et ses cinq comptoirs, à côté des "
    "cartes ; chaque joueur prend les blasons d'une couleur.",
    ("trading-posts", "nl"): "Leg het bord met de handelsroute en haar vijf handelsposten naast de kaarten; elke "
    "speler neemt de wapenschilden van één kleur.",
    ("trading-posts", "sr"): "Поставите таблу са трговачким путем и његових пет станица поред карата; сваки играч "
    "узима грбове једне боје.",
    ("cities", "en"): "The city tiles take the place of the noble tiles, which stay in the box;",
    ("cities", "fr"): "Les tuiles Cité prennent la place des tuiles Noble, qui restent dans la boîte ;",
    ("cities", "nl"): "De stadstegels nemen de plaats in van de edelentegels, die in de doos blijven;",
    ("cities", "sr"): "Плочице градова заузимају место плочица племића, које остају у кутији;",
}


@pytest.mark.parametrize(("name", "lang"), sorted(PIECES))
def test_a_modules_own_pieces_are_named_at_the_table(name, lang):
    text = sheet(str(ROOT / "variants" / f"{name}.yaml"), lang)
    body = text.split("\n## ", 1)[1]
    at_table = next(line for line in body.splitlines() if PIECES[name, lang] in line)
    assert at_table.startswith("- **")  # the setup's handling line, after the base game's
    assert PIECES[name, lang] in text.split("\n## ", 1)[0]  # and a house rule of the module
