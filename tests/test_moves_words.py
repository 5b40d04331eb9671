"""A move in players' words: spec -> engine -> describe_action -> the words a player reads (issue 30).

The notation stays what a player types; the words name the rule as the sheets do and its choices
in the player's language (compiler.sheets.moves), and `play` says them after each move.
"""

from __future__ import annotations

import pathlib
import re

import pytest
from click.testing import CliRunner

from app.cli import main
from compiler.pipeline import load_rules
from compiler.sheets import moves
from playtest import engines
from tests.helpers.engines import load_engine

ROOT = pathlib.Path(__file__).resolve().parent.parent
OFFICIAL = ROOT / "rulespec" / "official.yaml"
LANGS = ("en", "fr", "nl", "sr")

WORDS = {
    "take white blue green": {
        "en": "Take tokens of different colours: white, blue and green",
        "fr": "Prendre des jetons de couleurs différentes : blanc, bleu et vert",
        "nl": "Fiches van verschillende kleuren nemen: wit, blauw en groen",
        "sr": "Узимање жетона различитих боја: бела, плава и зелена",
    },
    "reserve 2.3": {
        "en": "Reserve a face-up card: level 2, card 3",
        "fr": "Réserver une carte face visible : niveau 2, carte 3",
        "nl": "Een open kaart reserveren: niveau 2, kaart 3",
        "sr": "Резервисање отворене карте: ниво 2, карта 3",
    },
    "pay gold for white": {
        "en": "Pay: 1 gold token for white",
        "fr": "Payer : 1 jeton or pour le blanc",
        "nl": "Betalen: 1 gouden fiche voor wit",
        "sr": "Плаћање: 1 златни жетон за боју: бела",
    },
    "pass": {"en": "Pass", "fr": "Passer", "nl": "Passen", "sr": "Пас"},
}


# A module's own moves: a component by its kind's item, a wild token that counts for two.
MODULE_WORDS = {
    ("cities", "city 1"): {
        "en": "Claim a city: city 1",
        "fr": "Revendiquer une cité : cité 1",
        "nl": "Een stad opeisen: stad 1",
        "sr": "Освајање града: град 1",
    },
    ("trading-posts", "pay gold for white*2 white blue"): {
        "en": "Pay: 2 gold tokens worth 3 for white and 1 gold token for blue",
        "fr": "Payer : 2 jetons or valant 3 pour le blanc et 1 jeton or pour le bleu",
        "nl": "Betalen: 2 gouden fiches ter waarde van 3 voor wit en 1 gouden fiche voor blauw",
        "sr": "Плаћање: 2 златна жетона вредности 3 за боју: бела и 1 златни жетон за боју: плава",
    },
}


@pytest.fixture(scope="module")
def official():
    return engines.load(str(OFFICIAL)).module, load_rules(str(OFFICIAL))


def variant(name: str):
    """A catalogue variant's generated engine (tests/test_generated.py keeps it current) and rules."""
    module = load_engine(ROOT / "generated" / "engines" / f"{name.replace('-', '_')}.py")
    return module, load_rules(str(ROOT / "variants" / f"{name}.yaml"))


@pytest.mark.parametrize("notation", sorted(WORDS))
def test_a_move_is_said_in_each_language(official, notation):
    module, rules = official
    action = module.string_to_action(notation)
    for lang in LANGS:
        assert moves.of_engine(module, action, rules, lang) == WORDS[notation][lang], lang


@pytest.mark.parametrize(("name", "notation"), sorted(MODULE_WORDS))
def test_a_modules_own_move_is_said_in_each_language(name, notation):
    module, rules = variant(name)
    action = module.string_to_action(notation)
    for lang in LANGS:
        assert moves.of_engine(module, action, rules, lang) == MODULE_WORDS[name, notation][lang], lang


@pytest.mark.parametrize("name", ["official", "cities", "trading-posts"])
def test_every_move_of_the_engine_has_words(official, name):
    """No move is left as the engine's raw value: each choice is worded (no tuple, no dict, no
    component by its bare number)."""
    module, rules = official if name == "official" else variant(name)
    for action in range(module.NUM_ACTIONS):
        for lang in LANGS:
            said = moves.of_engine(module, action, rules, lang)
            assert said and not any(c in said for c in "(){}[]"), (action, lang, said)
            assert not re.search(r":\s*\d+$", said), (action, lang, said)


def test_play_says_each_move_in_the_players_language():
    result = CliRunner().invoke(
        main,
        ["play", str(OFFICIAL), "--seat", "human", "--seat", "human", "--seed", "3", "--lang", "fr"],
        input="take white blue green\nquit\n",
    )
    assert result.exit_code == 0, result.output
    assert f"player 1 (human): take white blue green ({WORDS['take white blue green']['fr']})" in result.output
