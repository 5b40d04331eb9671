"""A move in players' words: spec -> engine -> describe_action -> the words a player reads (issue 30).

The notation stays what a player types; the words name the rule as the sheets do and its choices
in the player's language (compiler.sheets.moves), and `play` says them after each move.
"""

from __future__ import annotations

import pathlib

import pytest
from click.testing import CliRunner

from app.cli import main
from compiler.pipeline import load_rules
from compiler.sheets import moves
from playtest import engines

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


@pytest.fixture(scope="module")
def official():
    return engines.load(str(OFFICIAL)).module, load_rules(str(OFFICIAL))


@pytest.mark.parametrize("notation", sorted(WORDS))
def test_a_move_is_said_in_each_language(official, notation):
    module, rules = official
    action = module.string_to_action(notation)
    for lang in LANGS:
        assert moves.of_engine(module, action, rules, lang) == WORDS[notation][lang], lang


def test_every_move_of_the_engine_has_words(official):
    """No move is left as the engine's raw value: each choice is worded (no tuple, no dict)."""
    module, rules = official
    for action in range(module.NUM_ACTIONS):
        for lang in LANGS:
            said = moves.of_engine(module, action, rules, lang)
            assert said and not any(c in said for c in "(){}[]"), (action, lang, said)


def test_play_says_each_move_in_the_players_language():
    result = CliRunner().invoke(
        main,
        ["play", str(OFFICIAL), "--seat", "human", "--seat", "human", "--seed", "3", "--lang", "fr"],
        input="take white blue green\nquit\n",
    )
    assert result.exit_code == 0, result.output
    assert f"player 1 (human): take white blue green ({WORDS['take white blue green']['fr']})" in result.output
