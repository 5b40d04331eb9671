"""A wild token's worth (`worth:` on a payment choice; issue 16, item 7): the checks (E548, E508,
E308), the payment table (gold + covers vectors, today's ids when no payment has a worth), the
engine's feasible payments, the `red*2` notation, saved games, sheets and diff in four languages,
read from the catalogue's royal-favour engine and from specs compiled here."""

from __future__ import annotations

import json
import random
import shutil

import pytest
from click.testing import CliRunner

import tests.helpers.engines as H
from app import cli
from compiler import pipeline
from compiler.check.notation import payment_words
from compiler.check.sizes import action_sizes, payment_count
from compiler.diagnostics import CompileError, SourceMap, render
from compiler.lower import payment_vectors
from tests.helpers.engines import ROOT, load_engine
from tests.helpers.sheets import phrase_text

ENGINES = ROOT / "generated" / "engines"
CLEAN = (ROOT / "tests" / "broken" / "_clean.yaml").read_text(encoding="utf-8")
PAYMENT = '      payment: {domain: payment, price: "max(0, card.cost[c] - me.bonus[c])"}'


@pytest.fixture(scope="module")
def official():
    return load_engine(ENGINES / "official.py")


@pytest.fixture(scope="module")
def royal():
    return load_engine(ENGINES / "royal_favour.py")


# --------------------------------------------------------------------------- checks


def check(tmp_path, *changes: tuple[str, str], count: int = 1):
    """The clean catalogue spec with each (old, new) replaced (`count` times), checked: the
    rules, or the diagnostics rendered as `check` shows them."""
    text = CLEAN.replace("../../rulespec/", "")
    for old, new in changes:
        assert text.count(old) >= count, old
        text = text.replace(old, new, count)
    for name in ("splendor_cards.csv", "splendor_nobles.csv"):
        shutil.copy(ROOT / "rulespec" / name, tmp_path / name)
    (tmp_path / "spec.yaml").write_text(text, encoding="utf-8")
    sources = SourceMap()
    try:
        return pipeline.load_rules(str(tmp_path / "spec.yaml"), sources)
    except CompileError as err:
        return "\n".join(render(d, sources) for d in err.diagnostics).replace(str(tmp_path) + "/", "")


def with_worth(worth: str) -> tuple[str, str]:
    return PAYMENT, PAYMENT[:-1] + f', worth: "{worth}"}}'


def test_an_unbounded_worth_is_e548_at_the_expression(tmp_path):
    shown = check(tmp_path, with_worth("me.nobles + 1"))
    assert shown == (
        "spec.yaml:53:87: error[E548]: a wild token's worth must be 1 to 4 gems in every game under this spec, "
        "and 'me.nobles + 1' is 1 to 11\n"
        ' 53 |       payment: {domain: payment, price: "max(0, card.cost[c] - me.bonus[c])", worth: "me.nobles + 1"}\n'
        "    |                                                                                       ^^^^^^^^^^^^^\n"
        "  = note: write a number from 1 to 4, or bound it, as in 'if me.nobles >= 1 then 2 else 1' or "
        "'min(4, max(1, ...))'"
    )


@pytest.mark.parametrize(
    "worth, said", [("0", "always 0"), ("5", "always 5"), ("me.tokens[gold]", "0 to 5"), ("2 - me.nobles", "-8 to 2")]
)
def test_a_worth_outside_1_to_4_is_e548(tmp_path, worth, said):
    shown = check(tmp_path, with_worth(worth))
    assert (
        f"error[E548]: a wild token's worth must be 1 to 4 gems in every game under this spec, and "
        f"'{worth}' is {said}" in shown
    )


def test_a_worth_sees_me_and_the_choices_before_the_payment_not_the_payment(tmp_path):
    shown = check(tmp_path, with_worth("payment.gold_total"))
    assert (
        shown.splitlines()[0] == "spec.yaml:53:87: error[E401]: unknown name 'payment' (did you mean 'player_count'?)"
    )
    rules = check(tmp_path, with_worth("if card.level >= 2 then 2 else 1"))
    assert not isinstance(rules, str), rules


def test_a_worth_that_is_not_a_number_is_a_type_error(tmp_path):
    shown = check(tmp_path, with_worth("me.nobles >= 1"))
    assert "error[E4" in shown and "a worth" in shown and "E548" not in shown


def test_worth_on_another_domain_is_refused_by_the_schema(tmp_path):
    shown = check(
        tmp_path, ("picked: {domain: gem_set, min: 1, max: 3}", 'picked: {domain: gem_set, min: 1, max: 3, worth: "2"}')
    )
    assert "'worth' in" in shown and "applies only to the domain 'payment'" in shown
    assert shown.count("error[") == 1 and "^" in shown


def test_worth_on_another_domain_in_a_variant_is_e308(tmp_path):
    (tmp_path / "v.yaml").write_text(
        'spec: 1\nname: v\nextends: official\nactions:\n  take_different:\n    choose:\n      picked: {worth: "2"}\n',
        encoding="utf-8",
    )
    result = CliRunner().invoke(cli.main, ["check", str(tmp_path / "v.yaml")])
    assert result.exit_code == 1
    assert (
        "error[E308]: 'worth' only applies to a choice whose domain is payment, and this one's is 'gem_set'"
        in result.stderr
    )
    assert '      picked: {worth: "2"}\n   |                ^^^^^' in result.stderr


def test_a_worth_in_range_checks_clean_and_sizes_the_payment_step(tmp_path):
    rules = check(tmp_path, with_worth("if me.nobles >= 1 then 2 else 1"), count=2)
    assert not isinstance(rules, str), rules
    [buy] = [d for d in rules.actions if d.name == "buy_face_up"]
    assert buy.params[-1].worth_max == 2
    sizes = action_sizes(rules.gems, rules.levels, rules.players, (*rules.actions, *rules.steps))
    assert sizes["the payment step"] == 3003 == payment_count(5, 5, 2)


def test_payment_counts():
    assert [payment_count(5, 5, w) for w in (1, 2, 3)] == [252, 3003, len(payment_vectors(5, 5, 3))]
    assert payment_count(2, 2, 2) == len(payment_vectors(2, 2, 2)) == 1 + 2 * 2 + 2 * 3 + 2 * 2


# --------------------------------------------------------------------------- the payment table


def test_without_a_worth_the_table_and_its_ids_are_todays(official):
    assert tuple(payment_vectors(5, 5)) == official.PAYMENTS
    assert len(official.PAYMENTS) == 252 and official.PAYMENTS[0] == (0,) * 5


def test_with_a_worth_each_gold_vector_is_followed_by_its_covers_in_order(official, royal):
    table = royal.PAYMENTS
    assert len(table) == 3003 and table[0] == (0,) * 10
    golds = list(dict.fromkeys(v[:5] for v in table))
    assert tuple(golds) == official.PAYMENTS  # today's gold vectors, in today's order
    for gold in golds[:40]:
        covers = [v[5:] for v in table if v[:5] == gold]
        assert covers == sorted(covers)
        assert all(g <= c <= 2 * g for v in covers for g, c in zip(gold, v, strict=True))
    # every action before the payment step keeps its id and text
    assert royal.ACTION_STRINGS[: official._PAY_BASE] == official.ACTION_STRINGS[: official._PAY_BASE]
    assert royal._PAY_BASE == official._PAY_BASE


def test_payment_words_spread_the_covers_evenly():
    gems = ("white", "blue", "green", "red", "black")
    assert payment_words(gems, (0, 0, 0, 2, 0, 0, 0, 0, 3, 0)) == ["red*2", "red"]
    assert payment_words(gems, (0, 0, 0, 2, 0, 0, 0, 0, 4, 0)) == ["red*2", "red*2"]
    assert payment_words(gems, (1, 0, 0, 0, 1, 1, 0, 0, 0, 2)) == ["white", "black*2"]
    assert payment_words(gems, (0, 0, 0, 2, 0)) == ["red", "red"]  # a gold vector: today's words


# --------------------------------------------------------------------------- the engine


def position(E, *, cost: dict, tokens: dict, favour: bool) -> tuple[dict, int]:
    """Seat 0 to play, holding `tokens`, a level-1 card costing exactly `cost` at 1.1, and (with
    `favour`) two nobles visited: 6 prestige points, and no bonus that would lower the price."""
    st = H.position(E, 2)
    [card] = H.find_cards(E, st, level=1, where="any", cost=lambda c: {g: n for g, n in c.items() if n} == cost)
    H.put_in_market(E, st, card, 1)
    H.set_tokens(st, 0, **tokens)
    if favour:
        st["seats"][0]["nobles"] += [st["nobles"].pop(0), st["nobles"].pop(0)]
    return st, card


def options(E, game, text="buy 1.1") -> list[str]:
    return [E.action_to_string(a) for a in game.payment_options(E.string_to_action(text))]


def test_double_gold_offers_exactly_the_feasible_payments(royal, official):
    """Gold 2 and red 1 held, a card costing red 3: gold may cover 2 or 3 red (never more than
    the price), and the red token pays the rest."""
    st, _ = position(royal, cost={"red": 3}, tokens={"gold": 2, "red": 1}, favour=True)
    game = H.load(royal, st)
    assert options(royal, game) == ["pay gold for red*2", "pay gold for red red", "pay gold for red*2 red"]
    plain, _ = position(official, cost={"red": 3}, tokens={"gold": 2, "red": 1}, favour=True)
    assert options(official, H.load(official, plain)) == ["pay gold for red red"]


def test_below_6_prestige_each_gold_token_pays_for_one_token(royal):
    st, _ = position(royal, cost={"red": 3}, tokens={"gold": 2, "red": 1}, favour=False)
    assert options(royal, H.load(royal, st)) == ["pay gold for red red"]


def test_a_card_costing_red_4_with_gold_2_is_payable_only_with_worth_2(royal):
    st, card = position(royal, cost={"red": 4}, tokens={"gold": 2}, favour=True)
    game = H.load(royal, st)
    assert "buy 1.1" in H.legal_strings(game)
    assert options(royal, game) == ["pay gold for red*2 red*2"]
    H.act(game, "buy 1.1 paying gold for red*2 red*2")  # the one payment is made at once
    after = H.state_json(game)
    assert card in after["seats"][0]["purchased"]
    assert after["seats"][0]["tokens"]["gold"] == 0 and after["supply"]["gold"] == st["supply"]["gold"] + 2
    assert after["supply"]["red"] == st["supply"]["red"]  # no red token was paid
    without, _ = position(royal, cost={"red": 4}, tokens={"gold": 2}, favour=False)
    lost = H.load(royal, without)
    assert "buy 1.1" not in H.legal_strings(lost)
    with pytest.raises(royal.IllegalAction) as err:
        lost.apply(royal.string_to_action("buy 1.1"))
    assert "the player cannot pay the price of this card in any way the rules allow" in str(err.value)


def test_a_chosen_double_payment_moves_the_right_tokens(royal):
    st, card = position(royal, cost={"red": 3}, tokens={"gold": 2, "red": 1}, favour=True)
    game = H.load(royal, st)
    game.apply(royal.string_to_action("buy 1.1"))
    assert game.phase == "payment"
    game.apply(royal.string_to_action("pay gold for red*2"))  # one gold for 2 red, the red token for the third
    after = H.state_json(game)
    assert card in after["seats"][0]["purchased"]
    assert after["seats"][0]["tokens"]["gold"] == 1 and after["seats"][0]["tokens"]["red"] == 0


def test_every_payment_text_reads_back_in_any_order(royal):
    base = royal._PAY_BASE
    for i in range(0, len(royal.PAYMENTS), 7):
        text = royal.action_to_string(base + i)
        assert royal.string_to_action(text) == base + i
        words = text.split()
        assert royal.string_to_action(" ".join(words[:3] + words[3:][::-1])) == base + i
    assert royal.string_to_action("PAY gold  for red red*2") == royal.string_to_action("pay gold for red*2 red")
    assert royal.describe_action(royal.string_to_action("pay gold for red*2 red blue")) == (
        "payment",
        {"payment": {"blue": (1,), "red": (2, 1)}},
    )


@pytest.mark.parametrize(
    "text",
    [
        "pay gold for red*0",
        "pay gold for red*",
        "pay gold for red*x",
        "pay gold for red*3",
        "pay gold for *2",
        "pay gold for red**2",
    ],
)
def test_malformed_double_gold_is_a_notation_error(royal, text):
    with pytest.raises(royal.NotationError) as err:
        royal.string_to_action(text)
    message = str(err.value)
    assert message.startswith(f"not an action: {text!r}")
    assert (
        "pay is written 'pay gold for GEMS', where GEMS is the gem colour each gold token stands for, "
        "written white*2 when it stands for 2 gems" in message
    )


def test_a_game_with_double_gold_saves_and_replays(royal):
    st, _ = position(royal, cost={"red": 3}, tokens={"gold": 2, "red": 1}, favour=True)
    game = H.load(royal, st)
    game.apply(royal.string_to_action("buy 1.1"))
    saved = royal.from_json(game.to_json())  # saved in the payment step
    assert saved.phase == "payment" and saved.legal_actions() == game.legal_actions()
    game.apply(royal.string_to_action("pay gold for red*2 red"))
    rng = random.Random(3)
    for _ in range(40):
        if game.is_over():
            break
        game.apply(rng.choice(game.legal_actions()))
    assert json.loads(game.to_json())["version"] == 1
    assert royal.from_json(game.to_json()).to_json() == game.to_json()
    assert royal.replay(game.record()).to_json() == game.to_json()


def test_random_games_play_to_the_end(royal):
    for seed in range(3):
        game, rng = royal.new_game(3, seed), random.Random(seed)
        for _ in range(3000):
            if game.is_over():
                break
            game.apply(rng.choice(game.legal_actions()))
        assert game.is_over()


# --------------------------------------------------------------------------- sheets and diff


SHEET_TEXT = {
    "en": "Each gold token may pay for more than one token of one colour, never more than the price; the most it "
    "may pay for: 2 if you have 6 or more prestige points, otherwise 1.",
    "fr": "Chaque jeton or peut remplacer plusieurs jetons d'une même couleur, jamais plus que le prix ; au plus : "
    "2 si vous avez 6 points de prestige ou plus, sinon 1.",
    "nl": "Elke gouden fiche mag meer dan één fiche van één kleur vervangen, nooit meer dan de prijs; ten "
    "hoogste: 2 als je 6 of meer prestigepunten hebt, anders 1.",
    "sr": "Сваки златни жетон може да замени више жетона исте боје, никад више од цене; највише: 2 ако имате "
    "6 или више поена престижа, иначе 1.",
}


@pytest.mark.parametrize("lang", sorted(SHEET_TEXT))
def test_the_sheets_say_what_a_gold_token_may_stand_for(lang):
    text = phrase_text(str(ROOT / "variants" / "royal-favour.yaml"), lang)  # the phrases: the spec has texts
    assert text.count(SHEET_TEXT[lang]) >= 2  # both purchases
    official = phrase_text(str(ROOT / "rulespec" / "official.yaml"), lang)
    assert SHEET_TEXT[lang][:20] not in official


def test_a_constant_worth_is_phrased_with_its_number(tmp_path):
    rules = check(tmp_path, with_worth("2"))
    assert not isinstance(rules, str), rules
    from compiler.sheets.phrases import Phraser

    [buy] = [d for d in rules.actions if d.name == "buy_face_up"]
    said = {lang: Phraser(lang, rules, buy).worth(buy.params[-1].worth) for lang in SHEET_TEXT}
    assert said == {
        "en": "each gold token may pay for up to 2 tokens of one colour, never more than the price",
        "fr": "chaque jeton or peut remplacer jusqu'à 2 jetons d'une même couleur, jamais plus que le prix",
        "nl": "elke gouden fiche mag ten hoogste 2 fiches van één kleur vervangen, nooit meer dan de prijs",
        "sr": "сваки златни жетон може да замени до 2 жетона исте боје, никад више од цене",
    }


DIFF_TEXT = {
    "en": (
        "tokens one wild token may pay for",
        "before: 1",
        "after: 2 if you have 6 or more prestige points, otherwise 1",
    ),
    "fr": (
        "jetons qu'un jeton joker peut remplacer",
        "avant : 1",
        "après : 2 si vous avez 6 points de prestige ou plus, sinon 1",
    ),
    "nl": (
        "fiches die één jokerfiche mag vervangen",
        "voor: 1",
        "na: 2 als je 6 of meer prestigepunten hebt, anders 1",
    ),
    "sr": (
        "жетони које један жетон џокер може да замени",
        "пре: 1",
        "после: 2 ако имате 6 или више поена престижа, иначе 1",
    ),
}


@pytest.mark.parametrize("lang", sorted(DIFF_TEXT))
def test_diff_reports_a_worth_added(lang, monkeypatch):
    monkeypatch.chdir(ROOT)
    result = CliRunner().invoke(
        cli.main, ["diff", "rulespec/official.yaml", "variants/royal-favour.yaml", "--lang", lang]
    )
    assert result.exit_code == 1, result.output  # diff exits 1 when the rules differ
    field, before, after = DIFF_TEXT[lang]
    lines = [line.strip() for line in result.stdout.splitlines()]
    i = lines.index(field)
    assert lines[i + 1].startswith(before + "  (rulespec/official.yaml:")
    assert lines[i + 2].startswith(after + "  (variants/royal-favour.yaml:")
    assert lines.count(field) == 2  # both purchases


def brute_force_payments(E, game, card_cost, worth: int) -> list[int]:
    """Every entry of the payment table the seat to play can make for `card_cost`, by filtering
    the whole table (what the engine must never do per purchase, and what it must agree with)."""
    me = game.current_player
    n = len(E.GEMS)
    held = game.tokens[me]
    price = [max(0, c - b) for c, b in zip(card_cost, game.bonus[me], strict=True)]
    out = []
    for i, v in enumerate(E.PAYMENTS):
        gold, covers = v[:n], v[n:]
        if sum(gold) > held[n]:
            continue
        if all(
            g <= c <= worth * g and c <= p and p - c <= held[k]
            for k, (g, c, p) in enumerate(zip(gold, covers, price, strict=True))
        ):
            out.append(E._PAY_BASE + i)
    return out


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_engine_offers_exactly_the_payments_a_filter_of_the_table_finds(royal, seed):
    """Seats visited by two nobles from the start (6 prestige: worth 2), random positions: a
    purchase is legal exactly when some payment is feasible, and it offers exactly the feasible ones."""
    st = H.position(royal, 3, seed)
    for seat in (0, 1, 2):
        st["seats"][seat]["nobles"] += [st["nobles"].pop(0)]
    st["seats"][0]["nobles"].append(st["nobles"].pop(0))  # seat 0: 6 prestige, worth 2; the others 3, worth 1
    game, rng = H.load(royal, st), random.Random(seed)
    checked = 0
    for _ in range(100):
        if game.is_over():
            break
        if game.phase == "action":
            legal = set(game.legal_actions())
            me = game.current_player
            buys = [
                (text, royal.CARDS[game.to_dict()["market"][text[4]][int(text[6]) - 1]].cost)
                for text in (f"buy {lv}.{s}" for lv in (1, 2, 3) for s in range(1, 5))
                if game.to_dict()["market"][text[4]][int(text[6]) - 1] is not None
            ]
            buys += [(f"buy reserved {k + 1}", royal.CARDS[c].cost) for k, c in enumerate(game.reserved[me])]
            for text, cost in buys:
                action = royal.string_to_action(text)
                want = brute_force_payments(royal, game, cost, 2 if game.prestige[me] >= 6 else 1)
                assert sorted(game.payment_options(action)) == want, text
                assert (action in legal) == bool(want), text
                checked += 1
        game.apply(rng.choice(game.legal_actions()))
    assert checked > 60


def test_play_and_the_web_table_list_double_gold_payments(royal):
    from playtest.terminal import action_lines, plain
    from web.views import meta

    st, _ = position(royal, cost={"red": 3}, tokens={"gold": 2, "red": 1}, favour=True)
    game = H.load(royal, st)
    game.apply(royal.string_to_action("buy 1.1"))
    lines = action_lines(royal, game.legal_actions())
    shown = plain(lines)
    for text in ("pay gold for red*2", "pay gold for red red", "pay gold for red*2 red"):
        assert f"{royal.string_to_action(text)} {text}" in shown
    styled = [seg for line in lines for seg in line if seg[0] == "red"]
    assert styled == [("red", "gem:red")] * 5  # every red in its colour, red*2 too
    texts = {a["text"]: a for a in meta(royal)["actions"]}
    assert texts["pay gold for red*2 red"]["rule"] == "payment"
    assert len(texts) == royal.NUM_ACTIONS


def compiled(tmp_path, *changes, count: int = 1):
    """The engine of the clean catalogue spec with `changes`, compiled into tmp_path."""
    rules = check(tmp_path, *changes, count=count)
    assert not isinstance(rules, str), rules
    result = CliRunner().invoke(cli.main, ["compile", str(tmp_path / "spec.yaml"), "-o", str(tmp_path)])
    assert result.exit_code == 0, result.output
    return load_engine(tmp_path / "mini.py"), rules


def test_conditions_read_covers_and_spent(tmp_path):
    """`payment.covers[c]` (the gems the gold stands for) and `payment.spent[c]` in a condition:
    here, at most one colour may have gold counting double."""
    E, rules = compiled(
        tmp_path,
        with_worth("2"),
        (
            "    effects:\n      - pay(payment)\n      - acquire(card)\n      - refill(card)",
            '    condition: "count(payment.covers[c] > payment.gold[c] for c in gems) <= 1 and '
            'all(payment.spent[c] + payment.covers[c] >= payment.gold[c] for c in gems)"\n'
            "    effects:\n      - pay(payment)\n      - acquire(card)\n      - refill(card)",
        ),
    )
    st = H.position(E, 2)
    [card] = H.find_cards(E, st, level=1, where="any", cost=lambda c: sorted(n for n in c.values() if n) == [2, 2])
    H.put_in_market(E, st, card, 1)
    H.set_tokens(st, 0, gold=3)
    game = H.load(E, st)
    a, b = (gem for gem in E.GEMS if E.CARDS[card].cost[E.GEMS.index(gem)])
    assert sorted(options(E, game)) == sorted([f"pay gold for {a}*2 {b} {b}", f"pay gold for {a} {a} {b}*2"])
    # never a*2 b*2: two colours with gold counting double
    [buy] = [d for d in rules.actions if d.name == "buy_face_up"]
    from compiler.sheets.phrases import describe

    said = {lang: describe(buy.condition, lang, rules, buy) for lang in ("en", "fr", "nl", "sr")}
    assert "the number of red tokens paid with gold tokens" not in said["en"]  # a loop over the colours, not red
    assert "paid with gold tokens" in said["en"] and "payés avec des jetons or" in said["fr"]
    assert "met gouden fiches betaald wordt" in said["nl"] and "плаћених помоћу златних жетона" in said["sr"]


def test_without_a_worth_covers_is_the_gold(tmp_path, official):
    E, _ = compiled(
        tmp_path,
        (
            "    effects:\n      - pay(payment)\n      - acquire(card)\n      - refill(card)",
            '    condition: "all(payment.covers[c] == payment.gold[c] for c in gems)"\n'
            "    effects:\n      - pay(payment)\n      - acquire(card)\n      - refill(card)",
        ),
    )
    assert E.PAYMENTS == official.PAYMENTS
    st, _ = position(E, cost={"red": 3}, tokens={"gold": 2, "red": 1}, favour=False)
    assert options(E, H.load(E, st)) == ["pay gold for red red"]
