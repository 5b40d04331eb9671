"""Payments beyond the player's tokens (issue 28, item 6): components spent as wild tokens (`wilds:`
on a payment choice; E575, E515) and a payment asked in an end-of-turn step (E521 only with
`resolve: all`), read from tests/specs/treasures.yaml (a vault of three treasures, each standing for
one or two gold; a bargain step that buys) compiled once here: the payments offered, the
components spent, the refusals, a game waiting for a payment saved and loaded, the step's payment,
the sheets and diff in four languages, and simulate with the random and greedy bots."""

from __future__ import annotations

import json
import random

import pytest
from click.testing import CliRunner

import tests.helpers.engines as H
from app import cli
from compiler import pipeline
from compiler.diagnostics import CompileError, SourceMap, render
from tests.helpers.engines import ROOT, load_engine

SPEC = ROOT / "tests" / "specs" / "treasures.yaml"
TREASURES = {"chalice": 0, "crown": 1, "coin": 2, "ring": 3, "sceptre": 4, "idol": 5}  # treasures.csv's rows


@pytest.fixture(scope="module")
def E(tmp_path_factory):
    path = tmp_path_factory.mktemp("wilds") / "treasures.py"
    path.write_text(pipeline.compile_spec(str(SPEC)).text, encoding="utf-8")
    return load_engine(path)


def position(E, *, tokens: dict, vault: list[str], cost: dict | None = None) -> dict:
    """Seat 0 to play, holding `tokens` and the treasures `vault` (in that order), the level-1
    card costing `cost` (red 3 by default) face up at 1.1."""
    st = H.position(E, 2)
    [card] = H.find_cards(
        E, st, level=1, where="any", cost=lambda c: {g: n for g, n in c.items() if n} == (cost or {"red": 3})
    )
    H.put_in_market(E, st, card, 1)
    H.set_tokens(st, 0, **tokens)
    for name in vault:
        x = TREASURES[name]
        for zone in st["zones"].values():
            if x in zone:
                zone.remove(x)
        st["seats"][0]["zones"]["vault"].append(x)
    return st


def play(E, game, text: str) -> None:
    game.apply(E.string_to_action(text))


def options(E, game) -> list[str]:
    return [E.action_to_string(a) for a in game.legal_actions()]


def everywhere(st: dict) -> set[int]:
    """Every treasure some zone of the state holds."""
    return {x for z in st["zones"].values() for x in z} | {
        x for seat in st["seats"] for z in seat["zones"].values() for x in z
    }


# --------------------------------------------------------------------------- the engine


def test_a_treasure_pays_for_what_the_tokens_cannot_and_is_discarded(E):
    """Red 1 held, a crown (two gold) and a coin (one): a card costing red 3. The gold alone
    cannot pay, so the engine asks: set the crown aside (the coin alone cannot complete a payment,
    so it is not offered first), then pay gold for the two red the red token does not pay."""
    game = H.load(E, position(E, tokens={"red": 1}, vault=["crown", "coin"]))
    assert "buy 1.1" in options(E, game)
    play(E, game, "buy 1.1")
    assert game.phase == "payment"
    assert options(E, game) == ["pay with vault 1"]
    play(E, game, "pay with vault 1")
    assert game.phase == "payment" and game.to_dict()["wild_spent"] == [0]
    assert options(E, game) == ["pay gold for red red", "pay with vault 2"]
    play(E, game, "pay gold for red red")
    st = game.to_dict()
    assert st["seats"][0]["tokens"]["red"] == 0 and st["seats"][0]["tokens"]["gold"] == 0
    assert st["seats"][0]["zones"]["vault"] == [TREASURES["coin"]]  # the coin was not used
    assert TREASURES["crown"] not in everywhere(st)  # spent: out of the game
    assert len(st["seats"][0]["purchased"]) == 1 and st["wild_spent"] == []


def test_no_component_is_spent_for_nothing(E):
    """With the crown and the coin set aside (three gold), only a payment of all three red is
    offered: two red paid by them would leave the coin unused."""
    game = H.load(E, position(E, tokens={"red": 1}, vault=["crown", "coin"]))
    for move in ("buy 1.1", "pay with vault 1", "pay with vault 2"):
        play(E, game, move)
    assert options(E, game) == ["pay gold for red red red"]
    play(E, game, "pay gold for red red red")
    st = game.to_dict()
    assert st["seats"][0]["tokens"]["red"] == 1  # kept: the treasures paid it all
    assert st["seats"][0]["zones"]["vault"] == []


def test_gold_tokens_pay_what_the_treasures_do_not_cover(E):
    game = H.load(E, position(E, tokens={"gold": 1, "red": 1}, vault=["ring"]))
    before = game.to_dict()["supply"]["gold"]
    play(E, game, "buy 1.1")
    assert options(E, game) == ["pay with vault 1"]  # one gold alone cannot pay two red
    play(E, game, "pay with vault 1")
    play(E, game, "pay gold for red red")
    st = game.to_dict()
    assert st["seats"][0]["tokens"] == {**st["seats"][0]["tokens"], "gold": 0, "red": 0}
    assert st["supply"]["gold"] == before + 1  # the gold token went back; the ring left the game
    assert TREASURES["ring"] not in everywhere(st)


def test_gold_or_treasures_both_offered_and_a_treasure_may_spare_a_token(E):
    game = H.load(E, position(E, tokens={"gold": 2, "red": 1}, vault=["crown"]))
    play(E, game, "buy 1.1")
    assert options(E, game) == ["pay gold for red red", "pay with vault 1"]
    play(E, game, "pay with vault 1")
    # the crown covers two red; one more gold token may pay the third instead of the red token
    assert options(E, game) == ["pay gold for red red", "pay gold for red red red"]


def test_a_purchase_the_vault_cannot_complete_is_refused(E):
    game = H.load(E, position(E, tokens={}, vault=["coin"]))
    assert "buy 1.1" not in options(E, game)
    with pytest.raises(E.IllegalAction, match="illegal action 'buy 1.1'"):
        play(E, game, "buy 1.1")


def test_without_treasures_the_payments_are_todays(E):
    game = H.load(E, position(E, tokens={"red": 3}, vault=[]))
    play(E, game, "buy 1.1")  # one payment: made at once
    assert game.phase != "payment" and game.to_dict()["seats"][0]["tokens"]["red"] == 0


def test_a_game_waiting_for_its_payment_saves_and_loads(E):
    game = H.load(E, position(E, tokens={"red": 1}, vault=["crown", "coin"]))
    play(E, game, "buy 1.1")
    play(E, game, "pay with vault 1")
    again = E.from_json(game.to_json())
    assert again.phase == "payment" and options(E, again) == options(E, game)
    assert again.to_dict()["wild_spent"] == [0]
    assert E.describe_action(E.string_to_action("pay with vault 2")) == ("payment", {"payment": {"vault": 2}})
    for bad, said in (([3], "places from 0 to 2"), ([1, 0], "increasing order")):
        broken = json.loads(game.to_json())
        broken["wild_spent"] = bad
        with pytest.raises(E.StateError, match=said):
            E.from_json(json.dumps(broken))


def test_random_games_conserve_the_treasures_and_reload_anywhere(E):
    """Each treasure lies in one place at most, and the ones out of the game are the ones spent."""
    rng = random.Random(3)
    total = 0
    for seed in range(6):
        game, spent = E.new_game(2, seed), 0
        while not game.is_over():
            legal = game.legal_actions()
            a = legal[rng.randrange(len(legal))]
            spent += E.action_to_string(a).startswith("pay with vault")
            if rng.random() < 0.1:
                assert E.from_json(game.to_json()).legal_actions() == legal
            game.apply(a)
        st = game.to_dict()
        placed = [x for z in st["zones"].values() for x in z] + [
            x for seat in st["seats"] for z in seat["zones"].values() for x in z
        ]
        assert len(placed) == len(set(placed)) and len(TREASURES) - len(placed) == spent
        total += spent
    assert total > 0


def test_the_bargain_steps_payment_is_asked_and_the_step_goes_on(E):
    """A payment chosen in the end-of-turn step `bargain`: the engine asks in its payment phase,
    then the card is bought and the turn's steps go on (a step's payment was a ValueError)."""
    rng, seen = random.Random(5), 0
    for seed in range(30):
        game = E.new_game(2, seed)
        while not game.is_over() and seen < 3:
            pending = game.pending
            if game.phase == "payment" and E.ACTIONS[pending][0] == E.DECISIONS.index("bargain"):
                me, bought = game.current_player, len(game.purchased[game.current_player])
                game.apply(game.legal_actions()[0])
                assert game.phase != "payment" and len(game.purchased[me]) == bought + 1
                seen += 1
                continue
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])
    assert seen == 3


def test_simulate_plays_the_spec_with_the_random_and_greedy_bots():
    result = CliRunner().invoke(
        cli.main, ["simulate", str(SPEC), "--players", "2", "--games", "2", "--bots", "random,greedy", "--json"]
    )
    assert result.exit_code == 0, result.output
    [spec] = json.loads(result.stdout)["specs"]
    assert spec["games"] == 2 and spec["ends"] and set(spec["uses"]) >= {"take_treasure", "bargain", "payment"}


# --------------------------------------------------------------------------- sheets and diff


@pytest.mark.parametrize(
    "lang, words",
    [
        ("en", "You may also pay with the components of your “Vault”, as many as you wish"),
        ("fr", "Vous pouvez aussi payer avec les éléments de votre zone « Coffre »"),
        ("nl", "Je mag ook betalen met de onderdelen uit je ‘Kluis’"),
        ("sr", "Можете платити и елементима ваше зоне „Ризница“"),
    ],
)
def test_the_sheets_and_diff_say_it(tmp_path, lang, words):
    result = CliRunner().invoke(cli.main, ["sheet", str(SPEC), "--lang", lang, "--format", "md", "-o", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert words in (tmp_path / f"treasures.{lang}.md").read_text(encoding="utf-8")
    shown = CliRunner().invoke(cli.main, ["diff", "official", str(SPEC), "--lang", lang])
    assert shown.exit_code == 1 and words[1:] in shown.stdout


# --------------------------------------------------------------------------- checks


def check(tmp_path, *changes: tuple[str, str], units: tuple[int, ...] = (2, 2, 1, 1, 2, 1)) -> str:
    """tests/specs/treasures.yaml with each (old, new) replaced and the units given, checked: the
    diagnostics as `check` renders them ('' when clean)."""
    text = SPEC.read_text(encoding="utf-8")
    for old, new in changes:
        assert old in text, old
        text = text.replace(old, new)
    rows = ["name,units"] + [f"{name},{n}" for name, n in zip(TREASURES, units, strict=True)]
    (tmp_path / "treasures.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    (tmp_path / "spec.yaml").write_text(text, encoding="utf-8")
    sources = SourceMap()
    try:
        pipeline.load_rules(str(tmp_path / "spec.yaml"), sources)
    except CompileError as err:
        return "\n".join(render(d, sources) for d in err.diagnostics).replace(str(tmp_path) + "/", "")
    return ""


WILDS = "wilds: {from: vault, units: units, spent: discard}"


def test_the_spec_checks_clean(tmp_path):
    assert check(tmp_path) == ""


@pytest.mark.parametrize(
    "change, said",
    [
        (("    limit: 3\n", ""), "'vault' is not a per-player holding with a 'limit'"),
        ((WILDS, "wilds: {from: treasure_row, units: units}"), "'treasure_row' is not a per-player holding"),
        ((WILDS, "wilds: {from: vault, units: name}"), "'units' names a number column of 'treasures'"),
        ((WILDS, "wilds: {from: vault, units: units, spent: vault}"), "'spent' is 'discard' or a zone of 'treasures'"),
    ],
)
def test_payments_that_cannot_be_bounded_are_e575_at_the_key(tmp_path, change, said):
    shown = check(tmp_path, change)
    assert "error[E575]" in shown and said in shown and "^" in shown, shown


def test_units_outside_1_to_4_are_e575(tmp_path):
    shown = check(tmp_path, units=(2, 5, 1, 1, 2, 0))
    assert "error[E575]: each component stands for 1 to 4 wild tokens, and column 'units'" in shown
    assert "holds 0 to 5: the payments cannot be bounded" in shown


def test_too_many_wild_tokens_is_e515_at_the_wilds(tmp_path):
    shown = check(tmp_path, ("    limit: 3\n", "    limit: 6\n"), ("size(me.vault) < 3", "size(me.vault) < 6"))
    assert "error[E515]: the engine would number" in shown
    assert "components spent included (6 in 'vault' may stand for 12)" in shown
    assert shown.splitlines()[0].startswith("spec.yaml:52:")


def test_wilds_are_a_payments_only(tmp_path):
    shown = check(
        tmp_path,
        (
            "treasure: {domain: component, from: treasure_row}",
            "treasure: {domain: component, from: treasure_row, wilds: {from: vault, units: units}}",
        ),
    )
    assert "'wilds' in" in shown and "applies only to the domain 'payment'" in shown


def test_a_payment_in_a_step_checks_clean_but_not_where_every_choice_happens(tmp_path):
    shown = check(
        tmp_path,
        (
            "    condition: card.level == 1 and me.held >= 8\n",
            "    condition: card.level == 1 and me.held >= 8\n    resolve: all\n",
        ),
    )
    assert "error[E521]: choice 'payment' is a payment, and a step with `resolve: all` asks nobody" in shown


def test_a_step_that_buys_plays(tmp_path):
    """The catalogue's step that buys (refused there for `resolve: all` only), resolved by choice."""
    text = (ROOT / "tests" / "broken" / "payment_in_a_step.yaml").read_text(encoding="utf-8")
    spec = tmp_path / "step.yaml"
    spec.write_text(text.replace("    resolve: all\n", "").replace("../../rulespec/", ""), encoding="utf-8")
    for name in ("splendor_cards.csv", "splendor_nobles.csv"):
        (tmp_path / name).write_bytes((ROOT / "rulespec" / name).read_bytes())
    path = tmp_path / "step.py"
    path.write_text(pipeline.compile_spec(str(spec)).text, encoding="utf-8")
    engine = load_engine(path)
    rng, paid = random.Random(1), 0
    for seed in range(8):
        game = engine.new_game(2, seed)
        while not game.is_over():
            legal = game.legal_actions()
            if game.phase == "payment":
                paid += engine.ACTIONS[game.pending][0] == engine.DECISIONS.index("buy_after")
            game.apply(legal[rng.randrange(len(legal))])
    assert paid > 0
