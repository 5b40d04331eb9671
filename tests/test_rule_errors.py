"""A RuleError met in a game (simulate, play) is a fault of the spec: E535 at the effect, exit 1.

The variant below gives every player 2 gold tokens at the end of each turn, one for each gem
colour (`resolve: all`), while its condition asks for only one: the second gift of a turn
finds the supply short, and the engine stops with a RuleError.
"""

from __future__ import annotations

import pathlib
import re

import pytest
from click.testing import CliRunner

from app.cli import main
from app.rule_errors import Fault, rule_error
from compiler.diagnostics import SourceMap
from playtest.simulate import game_seed
from tests.helpers.engines import official_engine

ROOT = pathlib.Path(__file__).resolve().parent.parent
VARIANT = """spec: 1
extends: official
name: gold-gift
title: {en: Gold gift, fr: Gold gift, nl: Gold gift, sr: Gold gift}
end_of_turn:
  gold_gift:
    add: true
    title: {en: Gold gift, fr: Gold gift, nl: Gold gift, sr: Gold gift}
    notation: gift {colour}
    choose:
      colour: {domain: gem}
    condition: supply[gold] >= 1
    effects:
      - take(gold, 2)
    resolve: all
"""
SEED = game_seed(1, "gold-gift", 0)  # game 0 of `simulate --seed 1`
LOCATED = (
    "gold-gift.yaml:14:9: error[E535]: take(gold, 2) cannot be carried out in {game}: only 1 gold token(s) "
    "in the supply\n"
    " 14 |       - take(gold, 2)\n"
    "    |         ^^^^^^^^^^^^^\n"
    "  = note: the spec made this move legal and its effect impossible; `check -W` warns of the tokens a "
    "condition does not ensure (E512)\n"
    "1 error\n"
)


@pytest.fixture
def variant(tmp_path, monkeypatch) -> pathlib.Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "gold-gift.yaml").write_text(VARIANT, encoding="utf-8")
    return tmp_path / "gold-gift.yaml"


@pytest.mark.parametrize("jobs", ["1", "2"])  # in this process, and pickled back from a worker
def test_simulate_reports_a_rule_error_at_the_effect_with_the_game_and_its_seed(variant, tmp_path, jobs):
    result = CliRunner().invoke(
        main,
        [
            "simulate",
            "gold-gift.yaml",
            "--games",
            "2",
            "--seed",
            "1",
            "--jobs",
            jobs,
            "--cache-dir",
            str(tmp_path / "cache"),
        ],
    )
    assert result.exit_code == 1, result.output
    index = int(re.search(r"in game (\d+) of", result.stderr)[1])  # with 2 workers, the first game to fail
    game = f"game {index} of gold-gift (seed {game_seed(1, 'gold-gift', index)}, 2 players: greedy, greedy)"
    assert result.stderr == LOCATED.format(game=game)
    assert "internal error" not in result.output


def test_play_reports_a_rule_error_at_the_effect_with_the_seed(variant, tmp_path):
    result = CliRunner().invoke(
        main,
        [
            "play",
            "gold-gift.yaml",
            "--seat",
            "greedy",
            "--seat",
            "greedy",
            "--seed",
            "1",
            "--cache-dir",
            str(tmp_path / "cache"),
        ],
    )
    assert result.exit_code == 1, result.output
    assert result.stderr.endswith(LOCATED.format(game="the game of gold-gift (seed 1, turn 1)"))


def test_an_engine_without_its_spec_at_hand_reports_the_engines_words(variant, tmp_path):
    assert CliRunner().invoke(main, ["compile", "gold-gift.yaml", "-o", "engines"]).exit_code == 0
    variant.unlink()  # the engine names gold-gift.yaml:14, which is no longer here
    result = CliRunner().invoke(
        main, ["simulate", "engines/gold_gift.py", "--games", "1", "--seed", "1", "--jobs", "1"]
    )
    assert result.exit_code == 1, result.output
    assert result.stderr.startswith(
        f"error[E535]: game 0 of gold-gift (seed {SEED}, 2 players: greedy, greedy) stopped: "
        "take(gold, 2) (gold-gift.yaml:14): only 1 gold token(s) in the supply\n"
    )


def test_play_tells_the_players_in_their_language_then_reports_the_spec_error(variant, tmp_path):
    args = ["play", "gold-gift.yaml", "--seat", "greedy", "--seat", "greedy", "--seed", "1", "--lang", "fr"]
    result = CliRunner().invoke(main, [*args, "--cache-dir", str(tmp_path / "cache")])
    assert result.exit_code == 1, result.output
    said = (
        "La partie ne peut pas continuer : take(gold, 2) (gold-gift.yaml:14) : seulement 1 jeton gold dans la réserve\n"
    )
    assert said in result.stderr
    assert result.stderr.endswith(LOCATED.format(game="the game of gold-gift (seed 1, turn 1)"))  # for the author


def _short_supply(**fields):
    """The RuleError an engine raises at the variant's `take(gold, 2)`, with `fields` changed."""
    return official_engine().RuleError(
        "short_supply", {"located": "take(gold, 2) (gold-gift.yaml:14)", "n": 1, "colour": "gold"} | fields
    )


def test_the_effect_is_found_by_the_errors_located_field_not_its_english_words(variant):
    class Reworded(official_engine().RuleError):  # the same key and fields, said in other words
        def __str__(self) -> str:
            return "seulement 1 jeton gold"

    error = Reworded("short_supply", _short_supply().fields)
    found = rule_error(Fault.of(error), "gold-gift.yaml", SourceMap(), "game 0")
    assert found.span is not None and (found.span.line, found.span.col) == (14, 9)
    assert found.message == "take(gold, 2) cannot be carried out in game 0: seulement 1 jeton gold"  # its own words
    # A message that begins with the effect's words but has no such field names no effect.
    unlocated = Fault(None, "only 1 gold token(s) in the supply", str(_short_supply()))
    assert rule_error(unlocated, "gold-gift.yaml", SourceMap(), "game 0").span is None
    # Nor does a field naming another line of the spec.
    elsewhere = Fault.of(_short_supply(located="take(gold, 2) (gold-gift.yaml:15)"))
    assert rule_error(elsewhere, "gold-gift.yaml", SourceMap(), "game 0").span is None
