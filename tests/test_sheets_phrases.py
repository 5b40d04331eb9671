"""Sheets, phrasing: expressions and effects as sentences, plural forms, never code."""

from __future__ import annotations

import re

import pytest

from compiler.front.expr import Origin, parse_expr, parse_stmt
from compiler.pipeline import load_rules
from compiler.sheets import describe
from compiler.sheets.phrases import Phraser
from compiler.sheets.plurals import CATEGORIES, LANGUAGES, category


@pytest.fixture(scope="module")
def rules(request):
    return load_rules(str(request.config.rootpath / "rulespec" / "official.yaml"))


def expr(text):
    return parse_expr(text, Origin.plain("test.yaml", 1, 1, text))


def stmt(text):
    return parse_stmt(text, Origin.plain("test.yaml", 1, 1, text))


def action(rules, name):
    return next(d for d in rules.actions + rules.steps if d.name == name)


# ---------------------------------------------------------------------------- CLDR plurals


@pytest.mark.parametrize(
    "n, expected",
    [
        (0, "other"),
        (1, "one"),
        (2, "few"),
        (4, "few"),
        (5, "other"),
        (11, "other"),
        (12, "other"),
        (14, "other"),
        (15, "other"),
        (21, "one"),
        (22, "few"),
        (24, "few"),
        (25, "other"),
        (101, "one"),
        (111, "other"),
        (112, "other"),
        (122, "few"),
        (1001, "one"),
    ],
)
def test_serbian_plural_categories(n, expected):
    assert category("sr", n) == expected


@pytest.mark.parametrize(
    "n, fr, en", [(0, "one", "other"), (1, "one", "one"), (2, "other", "other"), (15, "other", "other")]
)
def test_french_counts_zero_as_one_english_does_not(n, fr, en):
    assert category("fr", n) == fr
    assert category("en", n) == en
    assert category("nl", n) == en


def test_every_language_has_its_categories():
    assert CATEGORIES == {
        "en": ("one", "other"),
        "fr": ("one", "other"),
        "nl": ("one", "other"),
        "sr": ("one", "few", "other"),
    }


# ---------------------------------------------------------------------------- the shapes of the spec


def test_the_examples_of_the_brief(rules):
    assert describe(expr("me.reserved < reserve_limit"), "en", rules) == "you hold fewer than 3 reserved cards"
    pair = action(rules, "take_pair")
    assert describe(pair.condition, "en", rules, pair) == "4 or more tokens of the chosen colour are in the supply"
    # Without the decision, a choice is found by name among the rules' decisions.
    assert (
        describe(expr("supply[colour] >= pair_minimum"), "en", rules)
        == "4 or more tokens of the chosen colour are in the supply"
    )


def test_official_conditions_in_english(rules):
    assert (
        describe(action(rules, "reserve_blind").condition, "en", rules, action(rules, "reserve_blind"))
        == "you hold fewer than 3 reserved cards and at least 1 card is left in the deck of the chosen level"
    )
    ret = action(rules, "return_tokens")
    assert describe(ret.while_, "en", rules, ret) == "you hold more than 10 tokens (gold included)"
    noble = action(rules, "noble_visit")
    assert (
        describe(noble.condition, "en", rules, noble)
        == "for each gem colour, you have at least as many bonuses of that colour as the chosen noble requires"
    )
    assert describe(expr("me.prestige >= target"), "en", rules) == "you have 15 or more prestige points"


def test_official_effects_in_english(rules):
    take = action(rules, "take_different")
    assert describe(take.effects[0], "en", rules, take) == "take 1 token of each chosen colour"
    assert describe(stmt("if supply[gold] >= 1: take(gold, 1)"), "en", rules) == "take 1 gold token if any is left"
    assert (
        describe(list(action(rules, "buy_reserved").effects), "en", rules, action(rules, "buy_reserved"))
        == "pay its price and put the chosen reserved card in front of you"
    )


@pytest.mark.parametrize(
    "lang, text",
    [
        ("fr", "vous avez moins de 3 cartes réservées"),
        ("nl", "je minder dan 3 gereserveerde kaarten hebt"),
        ("sr", "имате мање од 3 резервисане карте"),
    ],
)
def test_reserve_limit_in_each_language(rules, lang, text):
    assert describe(expr("me.reserved < reserve_limit"), lang, rules) == text


@pytest.mark.parametrize(
    "n, text",
    [
        (1, "имате најмање 1 резервисану карту"),
        (3, "имате 3 или више резервисане карте"),
        (5, "имате 5 или више резервисаних карата"),
        (21, "имате најмање 21 резервисану карту"),
        (12, "имате 12 или више резервисаних карата"),
    ],
)
def test_serbian_nouns_agree_with_the_number(rules, n, text):
    assert describe(expr(f"me.reserved >= {n}"), "sr", rules) == text


@pytest.mark.parametrize(
    "n, text",
    [
        (0, "vous avez au moins 0 carte réservée"),
        (1, "vous avez au moins 1 carte réservée"),
        (2, "vous avez 2 cartes réservées ou plus"),
    ],
)
def test_french_zero_is_singular(rules, n, text):
    assert describe(expr(f"me.reserved >= {n}"), "fr", rules) == text


@pytest.mark.parametrize(
    "n, text",
    [
        (1, "у банци има најмање 1 златни жетон"),
        (2, "у банци има 2 или више златна жетона"),
        (7, "у банци има 7 или више златних жетона"),
    ],
)
def test_serbian_adjectives_agree_too(rules, n, text):
    assert describe(expr(f"supply[gold] >= {n}"), "sr", rules) == text


def test_values_come_from_the_rules(rules):
    """A value name is phrased as the rules' number, and arithmetic on constants is folded."""
    assert describe(expr("me.held > token_limit - 2"), "en", rules) == "you hold more than 8 tokens (gold included)"
    assert describe(expr("target"), "en", rules) == "15"


# ---------------------------------------------------------------------------- the whole language, never as code

EXPRESSIONS = [
    "true",
    "false",
    "not (me.prestige >= target)",
    "not me.reserved < 3",
    "not all(supply[c] >= 1 for c in gems)",
    "me.prestige >= target or me.purchased > 20",
    "me.held <= token_limit and (passes == 0 or round > 3)",
    "me.tokens[gold] == 0",
    "me.tokens[white] != 2",
    "me.bonus[red] * 2 >= 4",
    "me.turns >= 10",
    "me.seat == 1",
    "me.nobles >= 1",
    "sum(me.bonus[c] for c in gems) >= 8",
    "count(me.tokens[c] >= 1 for c in colours) == 3",
    "min(me.bonus[c] for c in gems) >= 1",
    "max(supply[c] for c in colours) > 5",
    "any(p.prestige > me.prestige for p in others)",
    "all(p.nobles == 0 for p in players)",
    "size(gems) == 5",
    "abs(me.prestige - 10) < 3",
    "max(1, me.reserved) + min(2, 3, passes) > 0",
    "(me.prestige // 3) % 2 == 1",
    "-me.prestige < 0",
    "if me.held > 5 then 1 else 2",
    "(if me.held > 5 then 1 else 2) >= 1",
    "nobles_left >= 1",
    "player_count > 2",
    "turn >= round",
    "setup.gems + setup.gold + setup.nobles + setup.face_up > 0",
    "face_up[2] >= 1",
    "deck[3] == 0",
    "all(deck[l] >= 1 for l in levels)",
    "count(face_up[l] >= 4 for l in levels) >= 2",
    "3 <= me.prestige",
    "target > me.prestige",
    "me.prestige > me.purchased",
]
DECISION_EXPRESSIONS = {  # (decision, expression)
    "take_different": [
        "white in picked",
        "gold not in picked",
        "size(picked) >= 2",
        "count(c == red for c in picked) == 0",
        "all(supply[c] >= 2 for c in picked)",
    ],
    "take_pair": ["colour == red", "colour != gold", "supply[colour] > me.tokens[colour]"],
    "buy_face_up": [
        "card.points >= 2",
        "card.level == 3",
        "card.bonus == white",
        "card.cost[blue] <= me.bonus[blue]",
        "payment.gold_total == 0",
        "payment.gold[red] + payment.spent[red] >= 1",
        "me.bonus[card.bonus] >= 1",
        "card.cost[white] >= 3",
    ],
    "reserve_blind": ["level == 1", "level >= 2", "deck[level] >= 1 and face_up[level] >= 1"],
    "noble_visit": [
        "noble.points >= 3",
        "noble.requires[green] <= me.bonus[green]",
        "all(noble.requires[c] <= me.bonus[c] for c in gems)",
    ],
}
STATEMENTS = [
    "take(white, 2)",
    "put_back(gold, 1)",
    "for c in gems: take(c, 1)",
    "for c in colours: put_back(c, me.tokens[c])",
    "if supply[gold] >= 1: take(gold, 1) else: take(white, 1)",
    "for l in levels: reserve_top(l)",
    "if me.held > 3: for c in gems: put_back(c, 1)",
]
CODE = re.compile(r"[\[\]_]|==|!=|>=|<=|\bme\.|\bfor \w+ in\b|\w\(")


def _all_phrases(rules, lang):
    out = []
    for text in EXPRESSIONS:
        out.append((text, describe(expr(text), lang, rules)))
    for name, texts in DECISION_EXPRESSIONS.items():
        d = action(rules, name)
        for text in texts:
            out.append((text, describe(expr(text), lang, rules, d)))
    for text in STATEMENTS:
        out.append((text, describe(stmt(text), lang, rules)))
    d = action(rules, "buy_reserved")
    for text in ("acquire(card)", "pay(payment)"):
        out.append((text, describe(stmt(text), lang, rules, d)))
    d = action(rules, "reserve_face_up")
    for text in ("reserve(card)", "refill(card)"):
        out.append((text, describe(stmt(text), lang, rules, d)))
    d = action(rules, "noble_visit")
    out.append(("visit(noble)", describe(stmt("visit(noble)"), lang, rules, d)))
    return out


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_construct_is_phrased_in_words(rules, lang):
    for source, phrase in _all_phrases(rules, lang):
        assert phrase and phrase == phrase.strip(), source
        assert not CODE.search(phrase), f"{source!r} phrased as code in {lang}: {phrase!r}"
        assert "{" not in phrase and "}" not in phrase, f"unfilled placeholder in {phrase!r}"


def test_general_fallbacks_in_english(rules):
    assert (
        describe(expr("sum(me.bonus[c] for c in gems) >= 8"), "en", rules)
        == "the total, over all gem colours, of the number of your bonuses of that colour is at least 8"
    )
    assert (
        describe(expr("any(p.prestige > me.prestige for p in others)"), "en", rules)
        == "for at least one other player, the prestige of that player is greater than your prestige"
    )
    assert describe(expr("not (me.prestige >= target)"), "en", rules) == "you have fewer than 15 prestige points"
    assert (
        describe(expr("me.held <= token_limit and (passes == 0 or round > 3)"), "en", rules)
        == "you hold at most 10 tokens (gold included) and either exactly 0 passes in a row have been made "
        "or the round number is more than 3"
    )
    assert describe(expr("3 <= me.prestige"), "en", rules) == "you have 3 or more prestige points"
    assert (
        describe(stmt("for c in colours: put_back(c, me.tokens[c])"), "en", rules)
        == "for each token colour, return as many tokens of that colour as the number of tokens of that colour you hold "
        "to the supply"
    )


def test_quantities_are_phrased_as_noun_phrases(rules):
    p = Phraser("en", rules)
    assert p.describe(expr("me.prestige")) == "your prestige"
    assert p.describe(expr("min(2, passes)")) == "the smaller of 2 and the number of passes in a row"
    assert p.describe(expr("size(gems)")) == "5"


# ---------------------------------------------------------------------------- shapes that once stopped the sheets


@pytest.mark.parametrize(
    "lang, member, equal, level, price",
    [
        (
            "en",
            "you are not one of the other players",
            "for each other player, that player is not you",
            "reserve the top card of the deck of level 2 if you hold at least 1 reserved card, otherwise level 1",
            "for each gem colour, you pay the cost of the chosen card in that colour plus 1",
        ),
        (
            "fr",
            "vous n'êtes pas parmi les autres joueurs",
            "pour chaque autre joueur, ce joueur n'est pas vous",
            "réservez la première carte de la pioche du niveau 2 si vous avez au moins 1 carte réservée, sinon du niveau 1",
            "pour chaque couleur, payez le coût de la carte choisie dans cette couleur plus 1",
        ),
        (
            "nl",
            "jij niet een van de andere spelers bent",
            "voor elke andere speler geldt dat die speler niet jij is",
            "reserveer de bovenste kaart van de stapel van niveau 2 als je minstens 1 gereserveerde kaart hebt, "
            "anders niveau 1",
            "per kleur betaal je de prijs van de gekozen kaart in die kleur plus 1",
        ),
        (
            "sr",
            "ви не спадате у остали играчи",
            "за сваког другог играча важи да тај играч није ви",
            "резервишите горњу карту из шпила нивоа 2 ако имате најмање 1 резервисану карту, иначе нивоа 1",
            "за сваку боју плаћате износ: цена изабране карте у тој боји плус 1",
        ),
    ],
)
def test_you_as_a_value_levels_by_if_and_prices(rules, lang, member, equal, level, price):
    """`me` compared or tested for membership, a level chosen by an 'if', a price of `c` (each once exit 3)."""
    assert describe(expr("me not in others"), lang, rules) == member
    assert describe(expr("all(p != me for p in others)"), lang, rules) == equal
    assert describe(stmt("reserve_top(if me.reserved >= 1 then 2 else 1)"), lang, rules) == level
    assert Phraser(lang, rules, action(rules, "buy_face_up")).price(expr("card.cost[c] + 1")) == price


def test_you_are_never_the_subject_of_is(rules):
    assert describe(expr("any(me == p for p in players)"), "en", rules) == "for at least one player, that player is you"
    assert describe(expr("me in players"), "en", rules) == "you are one of the players"
    assert describe(expr("me == me"), "en", rules) == "always"
    assert describe(expr("me != me"), "en", rules) == "never"


@pytest.mark.parametrize(
    "lang, text",
    [
        ("en", "at least 1 card is left in the deck of the level whose number is the number of your nobles"),
        ("fr", "il reste au moins 1 carte dans la pioche du niveau dont le numéro est le nombre de vos nobles"),
        ("nl", "er minstens 1 kaart over is in de stapel van het niveau met nummer het aantal edelen dat je hebt"),
        ("sr", "у шпилу нивоа чији је број број ваших племића остаје најмање 1 карта"),
    ],
)
def test_a_level_given_by_a_quantity(rules, lang, text):
    assert describe(expr("deck[me.nobles] >= 1"), lang, rules) == text


def test_the_gold_of_the_setup_is_a_number(rules):
    """`setup.gold` is a number of the player-count row, not the table `payment.gold`."""
    assert describe(expr("setup.gold"), "en", rules) == "the number of gold tokens at setup"
    assert (
        describe(expr("player.prestige + setup.gold"), "en", rules)
        == "the prestige of the player plus the number of gold tokens at setup"
    )
