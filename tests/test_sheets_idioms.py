"""Sheets, phrasing that reads like a rule sheet (issue 20, item 1).

Common shapes are recognised in the typed expressions and told the way a rule summary tells
them; any change to a shape falls back to the general phrasing, so a variant's sheet still
says exactly what its rules do. Rare cases (passing when stuck, the end after everybody passed)
are notes, not headlines; the summary states the end as it is played.
"""

from __future__ import annotations

import pytest

from compiler.pipeline import load_rules
from compiler.sheets import facts
from tests.helpers.sheets import OFFICIAL, phrase_text, spec

TAKE = {
    "en": "- **Take tokens of different colours**: Take 3 tokens of different colours (never gold). Clarification: if "
    "fewer than 3 colours are left in the supply, take one token of each colour left.",
    "fr": "- **Prendre des jetons de couleurs différentes** : Prenez 3 jetons de couleurs différentes (jamais de jeton "
    "or). Précision : s'il reste moins de 3 couleurs dans la banque, prenez un jeton de chaque couleur restante.",
    "nl": "- **Fiches van verschillende kleuren nemen**: Neem 3 fiches van verschillende kleuren (nooit een gouden "
    "fiche). Verduidelijking: als er minder dan 3 kleuren in de voorraad over zijn, neem je één fiche van elke "
    "overgebleven kleur.",
    "sr": "- **Узимање жетона различитих боја**: Узмите 3 жетона различитих боја (али не злато). Појашњење: ако у банци "
    "остане мање од 3 боје, узмите по један жетон сваке преостале боје.",
}


@pytest.mark.parametrize("lang", sorted(TAKE))
def test_take_different_reads_like_a_rule_sheet(lang):
    lines = phrase_text(str(OFFICIAL), lang).splitlines()
    assert TAKE[lang] in lines


def test_the_take_count_comes_from_the_spec(tmp_path):
    text = phrase_text(spec(tmp_path, ("  take_count: 3 ", "  take_count: 2 ")))
    assert "Take 2 tokens of different colours (never gold). Clarification: if fewer than 2 colours are left" in text


def test_a_changed_shape_keeps_the_general_phrasing(tmp_path):
    text = phrase_text(
        spec(
            tmp_path,
            (
                "size(picked) == min(take_count, count(supply[c] >= 1 for c in gems))",
                "size(picked) == min(take_count, count(supply[c] >= 2 for c in gems))",
            ),
        )
    )
    assert "Take 3 tokens of different colours" not in text
    assert "Choose 1 to 3 different gem colours. You may do this only if" in text
    assert "2 or more tokens of that colour are in the supply" in text


def test_take_up_to_three():
    text = phrase_text("variants/take-up-to-three.yaml")
    assert "Take up to 3 tokens of different colours, as many as you like (never gold)." in text


LIMIT = {
    "en": "At the end of your turn, if you hold more than 10 tokens (gold included), return tokens of your choice to "
    "the supply until you have 10 left.",
    "fr": "À la fin de votre tour, si vous avez plus de 10 jetons (or compris), rendez à la banque des jetons de votre "
    "choix jusqu'à n'en avoir plus que 10.",
    "nl": "Als je aan het einde van je beurt meer dan 10 fiches hebt (goud meegeteld), geef je fiches naar keuze terug "
    "aan de voorraad tot je er nog 10 hebt.",
    "sr": "Ако на крају свог потеза имате више од 10 жетона (укључујући злато), вратите у банку жетоне по свом избору "
    "док вам не остане 10.",
}


@pytest.mark.parametrize("lang", sorted(LIMIT))
def test_the_limit_is_one_sentence(lang):
    text = phrase_text(str(OFFICIAL), lang)
    item = next(line for line in text.splitlines() if LIMIT[lang] in line)
    assert item.endswith(LIMIT[lang])


def test_a_limit_step_of_another_shape_is_told_in_general(tmp_path):
    text = phrase_text(
        spec(
            tmp_path,
            ("      - put_back(colour, 1)\n    repeat: while", "      - put_back(colour, 2)\n    repeat: while"),
        )
    )
    assert "until you have 10 left" not in text
    assert "This step is repeated as long as you hold more than 10 tokens (gold included)." in text


VISIT = {
    "en": "that noble visits you: this is automatic and cannot be refused; if several qualify, you choose which one, "
    "and at most one noble visits you a turn.",
    "fr": "ce noble vous rend visite : c'est automatique et cela ne peut pas être refusé ; si plusieurs nobles "
    "remplissent la condition, vous choisissez lequel, et un seul noble vous rend visite par tour.",
    "nl": "komt die edele op bezoek: dat gebeurt automatisch en je kunt het niet weigeren; komen er meerdere in "
    "aanmerking, dan kies jij welke, en er komt hoogstens één edele per beurt op bezoek.",
    "sr": "тај племић вам долази у посету: то се дешава само од себе и не може се одбити; ако услове испуњава више "
    "племића, ви бирате једног, а у једном потезу долази највише један племић.",
}


@pytest.mark.parametrize("lang", sorted(VISIT))
def test_the_noble_visit_is_automatic(lang):
    text = phrase_text(str(OFFICIAL), lang)
    assert VISIT[lang] in text
    assert "vereist hebt" not in text and "Choisissez un noble" not in text


def test_automatic_nobles_variant():
    text = phrase_text("variants/auto-noble.yaml")
    assert (
        "- **Noble visit**: At the end of your turn, every noble for which you have at least as many bonuses of "
        "each gem colour as it requires visits you: this is automatic and cannot be refused. ★1"
    ) in text
    assert "you choose which one" not in text


def test_a_noble_condition_of_another_shape_is_told_in_general(tmp_path):
    text = phrase_text(
        spec(
            tmp_path,
            (
                "condition: all(me.bonus[c] >= noble.requires[c] for c in gems)",
                "condition: all(me.bonus[c] + 1 >= noble.requires[c] for c in gems)",
            ),
        )
    )
    assert "Choose a noble. You may do this only if" in text
    assert "this is automatic" not in text


GLANCE = {
    "en": (
        "**Your turn**: Do exactly one action (there are 4 kinds), then check the end of your turn.",
        "**End**: If you have 15 or more prestige points at the end of your turn, the round is completed so that every player has had the same number of turns, then the game ends.",
    ),
    "fr": (
        "**Votre tour** : Faites une seule action (il y en a 4 sortes), puis effectuez les vérifications de fin de tour.",
        "**Fin** : Si vous avez 15 points de prestige ou plus à la fin de votre tour, on termine le tour de table pour que chaque joueur ait joué le même nombre de tours, puis la partie s'arrête.",
    ),
    "nl": (
        "**Je beurt**: Voer precies één actie uit (er zijn 4 soorten) en handel daarna het einde van je beurt af.",
        "**Einde**: Als je beurt voorbij is en je 15 of meer prestigepunten hebt, wordt de ronde uitgespeeld zodat iedereen evenveel beurten heeft gehad, en daarna eindigt het spel.",
    ),
    "sr": (
        "**Ваш потез**: Одиграјте тачно једну акцију (постоје 4 врсте), а затим обавите кораке краја потеза.",
        "**Крај**: Ако на крају свог потеза имате 15 или више поена престижа, круг се доиграва до краја, тако да сви играчи одиграју исти број потеза, а онда се игра завршава.",
    ),
}


@pytest.mark.parametrize("lang", sorted(GLANCE))
def test_the_summary_counts_kinds_of_action_and_states_the_end_as_played(lang):
    lines = phrase_text(str(OFFICIAL), lang).splitlines()
    turn, end = GLANCE[lang]
    assert turn in lines and end in lines


def test_rare_cases_are_notes():
    text = phrase_text(str(OFFICIAL))
    turn = text.split("## Your turn")[1].split("\n## ")[0]
    assert "On your turn, you do exactly one of these 6 actions." in turn
    assert "- Pass" not in turn and "### Other actions" not in turn
    assert "**Rare case**: If you cannot do any action, you pass your turn." in turn
    end = text.split("## End of the game")[1].split("\n## ")[0]
    assert "- **Rare case**: If every player has passed in a row at the end of your turn, the game ends at once." in end
    glance = text.split("## At a glance")[1].split("\n## ")[0]
    # the rare end (a run of passes) and the stuck Pass stay out of the summary ("play passes to
    # the left" is the order of play, another sense of the word)
    assert "passes in a row" not in glance and "“Pass”" not in glance and "Pass" not in glance


def test_added_actions_are_kinds_of_their_own():
    text = phrase_text("variants/sweep.yaml")
    assert "Do exactly one action (there are 6 kinds)" in text


def test_a_card_named_twice_is_it_the_second_time():
    text = phrase_text(str(OFFICIAL))
    assert "Reserve a face-up card, replace it with the top card of its deck and" in text
    assert "put the chosen card in front of you and replace it with the top card of its deck." in text
    french = phrase_text(str(OFFICIAL), "fr")
    assert "Réservez une carte face visible, remplacez-la par la première carte de sa pioche" in french


def test_shapes_are_recognised_in_the_model():
    rules = load_rules(str(OFFICIAL))
    by_name = {d.name: d for d in rules.actions + rules.steps}
    assert facts.take_different(by_name["take_different"], rules) == facts.TakeDifferent(3, True)
    assert facts.take_different(by_name["take_pair"], rules) is None
    assert facts.return_to_limit(by_name["return_tokens"], rules) == facts.ReturnToLimit(10)
    assert facts.noble_visit(by_name["noble_visit"]) == facts.NobleVisit("choice", True)
    assert [facts.action_kind(d) for d in rules.actions] == [
        "take_set",
        "take_same",
        "reserve",
        "reserve",
        "buy",
        "buy",
        "pass:pass",
    ]
    assert [facts.rare_trigger(e, rules) for e in rules.end] == [False, True]
