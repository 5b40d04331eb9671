"""The worked example of every sheet is a real game of its spec: spec -> engine -> game -> sheet text.

Each catalogue spec's example game (compiler.sheets.worked_game, found by playing the spec's
own engine) is replayed move by move by the generated engine and reaches the positions it
states; the sheet states that game's numbers; a module's game shows what the module changes (a
city claimed by the winner, who alone may win; a trading post opened and its power used).
"""

from __future__ import annotations

import re

import pytest
import yaml

from compiler.pipeline import load_rules, worked_game
from compiler.sheets import content, render
from compiler.sheets.worked_game import added_decisions, added_holdings, replay
from playtest import engines
from tests.helpers import ROOT
from tests.helpers.sheets import spec


def catalogue() -> list[str]:
    index = yaml.safe_load((ROOT / "variants" / "index.yaml").read_text(encoding="utf-8"))
    return ["rulespec/official.yaml"] + [f"variants/{name}.yaml" for name in index["variants"]]


def example_of(rules, worked, lang: str = "en") -> str:
    """The worked example's section of the Markdown sheet ('' when the sheet has none)."""
    base = load_rules(rules.bases[0].path) if rules.bases else None
    text = render.markdown(content.build(rules, lang, base, worked=worked), rules)
    title = content.Builder(rules, lang).text("sheet.example.title")
    part = text.split(f"## {title}\n", 1)
    return part[1].split("\n## ", 1)[0] if len(part) == 2 else ""


@pytest.mark.parametrize("path", catalogue())
def test_the_example_is_a_game_the_engine_replays_and_the_sheet_states(path):
    rules = load_rules(str(ROOT / path))
    worked = worked_game(rules)
    if worked is None:  # no deal tried ends with one winner by the rules' aim: the sheet tells no game
        assert example_of(rules, None) == ""
        return
    module = engines.load(str(ROOT / path)).module
    assert replay(module, worked) == worked  # the moves, the positions at the trigger and at the end
    game = module.new_game(worked.players, seed=worked.seed)
    for move in worked.moves:
        game.apply(module.string_to_action(move.text))
    assert game.is_over() and tuple(game.winners()) == worked.winners and len(worked.winners) == 1
    assert list(game.scores()) == [seat.prestige for seat in worked.at_end]
    assert worked.trigger == rules.end[0].name and worked.trigger_seat == worked.winners[0]
    # and the sheet states that game's numbers
    text = example_of(rules, worked)
    anna = worked.winners[0]
    at_trigger = worked.at_trigger[anna]
    assert f"{at_trigger.prestige} prestige point" in text
    assert f"{len(at_trigger.purchased)} development card" in text
    if worked.players == 2 and "The ranking decides" in text:
        a, b = worked.at_end[anna].prestige, worked.at_end[1 - anna].prestige
        assert (f"Anna ({a}) before Ben ({b})" if a != b else f"tied ({a} each)") in text
        assert text.rstrip().endswith("Anna wins.")
    first = "Anna plays first, Ben second." if anna == 0 else "Ben plays first, Anna second."
    assert first in text


def test_the_cities_example_has_the_winner_claim_a_city_and_win_alone():
    rules = load_rules(str(ROOT / "variants" / "cities.yaml"))
    worked = worked_game(rules)
    assert worked is not None
    anna = worked.winners[0]
    claim = worked.first(anna, "claim_city") or worked.first_gain(anna, "claimed")
    assert claim is not None and worked.at_end[anna].held("claimed")
    text = example_of(rules, worked)
    assert re.search(rf"Anna, turn {claim.turn}: Claim a city\.", text), text
    for lang, words in (("fr", "Revendiquer une cité"), ("nl", "Een stad opeisen"), ("sr", "Освајање града")):
        assert words in example_of(rules, worked, lang), lang
    if not worked.at_end[1 - anna].held("claimed"):
        assert "only Anna can win" in text
    assert "1 prestige point" not in text.split("\n")[0]


def test_the_trading_posts_example_opens_a_post_and_uses_its_power():
    rules = load_rules(str(ROOT / "variants" / "trading-posts.yaml"))
    worked = worked_game(rules)
    assert worked is not None
    anna = worked.winners[0]
    assert added_holdings(rules) == ("markers",) and worked.at_end[anna].held("markers")
    powers = [d for d in added_decisions(rules) if worked.first(anna, d) is not None]
    assert powers, "the winner uses no power of a post"
    text = example_of(rules, worked)
    opened = worked.first_gain(anna, "markers")
    assert f"Anna, turn {opened.turn}: Open trading posts." in text
    assert f"Anna, turn {worked.first(anna, powers[0]).turn}: " in text


def test_a_changed_spec_gets_a_game_of_its_own_rules(tmp_path):
    rules = load_rules(spec(tmp_path, ("  target: 15 ", "  target: 11 ")))
    worked = worked_game(rules)
    assert worked is not None and worked == worked_game(rules)  # deterministic
    assert 11 <= worked.at_trigger[worked.winners[0]].prestige < 15 + 5
    said = worked.at_trigger[worked.winners[0]].prestige
    assert f"Since Anna has {said} prestige points, the round is completed" in example_of(rules, worked)
