"""Sheets, content: every number, condition and tiebreak level comes from the spec.

Each test writes a modified copy of the official spec (or a variant) into tmp_path and
checks that the sheet text follows the change.
"""

from __future__ import annotations

import pathlib
import re

import pytest

from compiler.pipeline import load_rules
from compiler.sheets import content, render, tables
from tests.helpers.sheets import OFFICIAL, phrase_text, sheet_text, spec

ROOT = pathlib.Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def official_en() -> str:
    return sheet_text(str(OFFICIAL))


def test_official_numbers(official_en):
    for needle in (
        "you have 15 or more prestige points",
        "The limit: 10 tokens",
        "more than 10 tokens",
        "at most 3 reserved cards",
        "at least 4 tokens of that colour",
        "| 3 | 5 | 5 | 4 | 4 |",
        "For 2 to 4 players",
        "the fewest purchased development cards",
        "level 1: 40 cards",
        "Each noble is worth 3 prestige points",
    ):
        assert needle in official_en, needle


def test_target_changes_the_sheet(tmp_path, official_en):
    text = sheet_text(spec(tmp_path, ("  target: 15 ", "  target: 13 ")))
    assert "you have 13 or more prestige points" in text
    rules_text = re.sub(r"## Worked example\n.*?\n## ", "## ", text, flags=re.S)  # the game's scores are its own
    assert "15 prestige points" not in rules_text
    assert (
        text.count("13 or more prestige points") + text.count("13 prestige points or more") >= 4
    )  # at a glance, end, rule, mistakes
    assert text != official_en


def test_token_limit_changes_the_sheet(tmp_path):
    text = sheet_text(spec(tmp_path, ("  token_limit: 10 ", "  token_limit: 8 ")))
    assert "The limit: 8 tokens" in text
    assert (
        "At the end of your turn, if you hold more than 8 tokens (gold included), return tokens of your choice "
        "to the supply until you have 8 left."
    ) in text
    assert "Gold tokens count towards the limit of 8 tokens" in text
    assert "10 tokens" not in text


def test_player_count_entry_changes_the_table(tmp_path):
    text = sheet_text(
        spec(
            tmp_path,
            ("  3: {gems: 5, gold: 5, nobles: 4, face_up: 4}", "  3: {gems: 6, gold: 4, nobles: 4, face_up: 4}"),
        )
    )
    assert "| 3 | 6 | 4 | 4 | 4 |" in text
    assert "| 3 | 5 | 5 | 4 | 4 |" not in text


def test_player_counts_change_the_glance(tmp_path):
    text = sheet_text(
        spec(
            tmp_path,
            (
                "  4: {gems: 7, gold: 5, nobles: 5, face_up: 4}\n",
                "  4: {gems: 7, gold: 5, nobles: 5, face_up: 4}\n  5: {gems: 8, gold: 5, nobles: 6, face_up: 4}\n",
            ),
        )
    )
    assert "For 2 to 5 players" in text
    assert "| 5 | 8 | 5 | 6 | 4 |" in text


def test_tiebreak_level_changes_the_sheet(tmp_path):
    text = sheet_text(
        spec(
            tmp_path,
            ("      by: player.purchased\n      prefer: lowest", "      by: player.nobles\n      prefer: highest"),
        )
    )
    assert "On a tie, the player with the most nobles wins." in text
    assert "fewest purchased" not in text
    # The worked example is a game of these rules: its ranking starts the chain at prestige.
    assert "1. The most prestige points: Anna (" in text


def test_removing_the_tiebreak_leaves_a_shared_victory(tmp_path):
    official = (ROOT / "rulespec" / "official.yaml").read_text(encoding="utf-8")
    start = official.index("    purchased:\n")
    level = official[start : official.index("  ties:", start)]  # the whole ranking level, titles included
    text = sheet_text(spec(tmp_path, (level, "")))
    assert "On a tie" not in text
    assert "A noble visit is not an action: it comes at the end of your turn" in text  # no 'not a card' clause


@pytest.mark.parametrize(
    "target, serbian",
    [
        (21, "имате најмање 21 поен престижа"),
        (22, "имате 22 или више поена престижа"),
        (25, "имате 25 или више поена престижа"),
    ],
)
def test_serbian_plural_follows_the_spec_value(tmp_path, target, serbian):
    text = sheet_text(spec(tmp_path, ("  target: 15 ", f"  target: {target} ")), "sr")
    assert serbian in text


def test_french_limit_of_one_is_singular(tmp_path):
    text = phrase_text(spec(tmp_path, ("  reserve_limit: 3 ", "  reserve_limit: 1 ")), "fr")
    assert "vous avez moins de 1 carte réservée" in text


def test_mistakes_follow_the_rules(tmp_path, official_en):
    assert "Gold never comes from taking tokens" in official_en
    assert "the game does not stop at once: the round is completed" in official_en
    # Taking any colour (the wild one included) makes the gold mistake wrong: it is not shown.
    text = sheet_text(
        spec(
            tmp_path,
            (
                "      colour: {domain: gem}\n    condition: supply[colour] >= pair_minimum",
                "      colour: {domain: colour}\n    condition: supply[colour] >= pair_minimum",
            ),
        )
    )
    assert "never comes from taking tokens" not in text
    # An immediate end has no round to complete.
    text = sheet_text(
        spec(
            tmp_path,
            (
                "    when: me.prestige >= target\n    finish: complete_round",
                "    when: me.prestige >= target\n    finish: immediately",
            ),
        )
    )
    assert "the round is completed" not in text.split("## End of the game")[1].split("## Worked")[0]
    assert "the game does not stop at once" not in text


def test_variant_house_rules_and_marks(tmp_path):
    variant = tmp_path / "house.yaml"
    variant.write_text(
        "spec: 1\nname: house\nextends: official\n"
        "title: {en: House, fr: Maison, nl: Huis, sr: Кућа}\n"
        "values:\n  token_limit: {value: 9, note: {en: Nine only., fr: Neuf., nl: Negen., sr: Девет.}}\n"
        "players:\n  2: {remove: {en: Not for two., fr: Pas à deux., nl: Niet met twee., sr: Не за двоје.}}\n",
        encoding="utf-8",
    )
    text = sheet_text(str(variant))
    box = text.split("## At a glance")[0]
    assert "★1 **Changed: Return tokens over the limit** At the end of your turn, if you hold more than 9 tokens" in box
    assert "(base game: 10)" in box and "_Nine only._" in box
    assert "★2 **Removed: Setup for 2 players** _Not for two._" in box
    assert "The limit: 9 tokens" in text
    limit_item = next(line for line in text.splitlines() if line.startswith("- **Return tokens over the limit**"))
    assert limit_item.rstrip().endswith("until you have 9 left. ★1")  # the note is in the box
    assert "| 2 |" not in text
    assert "**Players**: For 3 to 4 players. ★2" in text
    french = sheet_text(str(variant), "fr")
    assert "_Neuf._" in french and "Supprimé" in french


@pytest.mark.parametrize("lang, word", [("en", "Moved"), ("fr", "Déplacé"), ("nl", "Verplaatst"), ("sr", "Премештено")])
def test_a_moved_action_is_marked_moved(tmp_path, lang, word):
    variant = tmp_path / "moved.yaml"
    variant.write_text(
        "spec: 1\nname: moved\nextends: official\ntitle: {en: Moved, fr: Moved, nl: Moved, sr: Moved}\n"
        "actions:\n  buy_face_up: {before: take_different}\n",
        encoding="utf-8",
    )
    box = sheet_text(str(variant), lang).split("\n## ")[0]
    assert f"★1 **{word}" in box  # French puts a (narrow no-break) space before the colon


def test_every_sheet_section_is_there(official_en):
    for title in (
        "At a glance",
        "Setup",
        "Your turn",
        "Tokens",
        "Reserving",
        "Buying",
        "Nobles",
        "End of the game",
        "Worked example",
        "Common mistakes",
    ):
        assert f"## {title}" in official_en
    assert "House rules" not in official_en


@pytest.mark.parametrize(
    "lang, was",
    [
        ("en", "Base game: 15 instead of 12."),
        ("fr", "Jeu de base : 15 au lieu de 12."),
        ("nl", "Basisspel: 15 in plaats van 12."),
        ("sr", "Основна игра: 15 уместо 12."),
    ],
)
def test_a_value_only_changed_rules_use_is_told_with_the_first_of_them(tmp_path, lang, was):
    variant = tmp_path / "short.yaml"
    variant.write_text(
        "spec: 1\nname: short\nextends: official\ntitle: {en: Short, fr: Court, nl: Kort, sr: Кратко}\n"
        "description: A house variant of Splendor.\n"  # what `new` writes: not said twice
        "values:\n  target: {value: 12, note: Shorter.}\n  bonus_gold: {value: 1, add: true}\n"
        'actions:\n  take_pair:\n    effects: ["take(colour, 2)", "take(gold, bonus_gold)"]\n'
        "end:\n  target: {finish: immediately, note: At once.}\n",
        encoding="utf-8",
    )
    text = sheet_text(str(variant), lang)
    box = text.split("\n## ")[0]
    # two house rules, not four: each value is told by the changed rule that uses it
    assert "★2 " in box and "★3 " not in box
    # the notes are written in English only: shown in English, and said to be
    english = "" if lang == "en" else f" ({tables.load(lang).text('sheet.in_english')})"
    assert was in box and f"_Shorter. At once.{english}_" in box
    if lang == "en":
        assert text.splitlines()[3] == "_A house variant of Splendor._"
        assert "★1 **Changed: Take two tokens of one colour**" in box and "take 1 gold token" in box
        assert (
            "★2 **Changed: End of the game** If you have 12 or more prestige points at the end of your turn, "
            "the game ends at once. Base game: 15 instead of 12. _Shorter. At once._" in box
        )


def test_a_value_an_unchanged_rule_uses_keeps_its_own_house_rule(tmp_path):
    variant = tmp_path / "nine.yaml"
    variant.write_text(
        "spec: 1\nname: nine\nextends: official\ntitle: {en: Nine, fr: Nine, nl: Nine, sr: Nine}\n"
        "values:\n  reserve_limit: 2\n"
        "actions:\n  reserve_face_up: {title: Reserve a card from the table}\n",
        encoding="utf-8",
    )
    box = sheet_text(str(variant)).split("\n## ")[0]
    # reserve_blind uses the limit too and is not a house rule: the value's entry is told through it
    assert "★1 **Changed: Reserve the top card of a deck**" in box and "(base game: 3)" in box
    assert "★2 **Changed: Reserve a card from the table**" in box


@pytest.mark.parametrize(
    "lang, lead",
    [
        ("en", "Removed: Setup for 2, 3 and 4 players"),
        ("fr", "Supprimé : Mise en place pour 2, 3 et 4 joueurs"),
        ("nl", "Verwijderd: Voorbereiding voor 2, 3 en 4 spelers"),
        ("sr", "Уклоњено: Припрема за 2, 3 и 4 играча"),
    ],
)
def test_player_rows_removed_for_one_reason_are_one_house_rule(lang, lead):
    text = sheet_text(str(ROOT / "variants" / "solo.yaml"), lang)
    box = text.split("\n## ")[0]
    assert f"★2 **{lead}**" in box.replace("\u202f", " ")
    assert "★4 " in box and "★5 " not in box  # setup added, rows removed, end trigger, winner


GOLD_STEP = (
    "spec: 1\nname: gold-rain\nextends: official\n"
    "title: {en: Gold rain, fr: Pluie d'or, nl: Gouden regen, sr: Златна киша}\n"
    "end_of_turn:\n  gold_rain:\n    add: true\n"
    "    title: {en: Gold rain, fr: Pluie d'or, nl: Gouden regen, sr: Златна киша}\n"
    '    notation: gold rain\n    effects:\n      - "if supply[gold] >= 1: take(gold, 1)"\n'
    "    repeat: once\n    resolve: all\n"
)


@pytest.mark.parametrize(
    "lang, said",
    [
        (
            "en",
            "Gold never comes from taking tokens: you get it only with the action “Reserve a face-up card” or "
            "“Reserve the top card of a deck”, and at the end of your turn with the step “Gold rain”.",
        ),
        ("fr", "à la fin de votre tour avec la vérification « Pluie d'or »."),
        ("nl", "en aan het einde van je beurt met ‘Gouden regen’."),
        ("sr", "и на крају потеза кораком „Златна киша“."),
    ],
)
def test_gold_from_an_end_of_turn_step_is_told_by_the_mistakes(tmp_path, lang, said):
    """Where gold comes from is read from every decision: a step that gives each player a gold
    token at the end of their turn is named, not contradicted."""
    variant = tmp_path / "gold-rain.yaml"
    variant.write_text(GOLD_STEP, encoding="utf-8")
    mistakes = sheet_text(str(variant), lang).split("\n## ")[-1]
    gold = next(line for line in mistakes.splitlines() if said in line)
    assert gold.startswith("- ") and gold.endswith("★1"), gold


def test_gold_only_from_a_step(tmp_path):
    text = GOLD_STEP + (
        "actions:\n  reserve_face_up:\n    effects: [reserve(card), refill(card)]\n"
        "  reserve_blind:\n    effects: [reserve_top(level)]\n"
    )
    variant = tmp_path / "gold-rain.yaml"
    variant.write_text(text, encoding="utf-8")
    mistakes = sheet_text(str(variant)).split("\n## ")[-1]
    assert (
        "- Gold never comes from taking tokens: you get it only at the end of your turn, with the step “Gold rain”."
    ) in mistakes


ENGLISH_ONLY = (
    "spec: 1\nname: english-only\nextends: official\n"
    "title: {en: Tight limit, fr: Limite serrée, nl: Krappe limiet, sr: Тесна граница}\n"
    "description: Nine tokens at most.\n"
    "values:\n  token_limit: {value: 9, note: Hands are smaller.}\n"
)


@pytest.mark.parametrize(
    "lang, title, in_english",
    [
        ("fr", "Limite serrée", "en anglais"),
        ("nl", "Krappe limiet", "in het Engels"),
        ("sr", "Тесна граница", "на енглеском"),
    ],
)
def test_a_description_written_only_in_english_is_shown_marked_as_english(tmp_path, lang, title, in_english):
    """E610 says the other sheets show English: the description and the notes are there, in
    English, said to be English (lang="en" in the HTML)."""
    variant = tmp_path / "english-only.yaml"
    variant.write_text(ENGLISH_ONLY, encoding="utf-8")
    rules = load_rules(str(variant))
    base = load_rules(rules.bases[0].path)
    sheet = content.build(rules, lang, base)
    md = render.markdown(sheet, rules)
    assert f"# {title}\n" in md
    subtitle = md.split(f"# {title}\n")[1].split("\n\n")[0].strip()
    assert subtitle.startswith("_") and subtitle.endswith(f" Nine tokens at most. ({in_english})_"), subtitle
    assert f"_Hands are smaller. ({in_english})_" in md.split("\n## ")[0]  # in the house-rules box
    html = render.html(sheet, rules)
    assert f'<span lang="en">Nine tokens at most.</span> ({in_english})</p>' in html
    assert f'<span class="note"><span lang="en">Hands are smaller.</span> ({in_english})</span>' in html


def test_an_english_description_is_not_marked_on_the_english_sheet(tmp_path):
    variant = tmp_path / "english-only.yaml"
    variant.write_text(ENGLISH_ONLY, encoding="utf-8")
    md = sheet_text(str(variant))
    assert "_A house variant of Splendor. Nine tokens at most._" in md and "in English" not in md
