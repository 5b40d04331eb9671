"""Sheets, the parts players look for (issue 20): goal and scoring, first player and order of play,
the turn summary box, the end as it is played, the questions every table asks, the final round
of the worked example, and the pictures of the HTML sheet.

Each part is computed from the spec: the tests change the spec and check the part follows.
"""

from __future__ import annotations

import re

import pytest
from markupsafe import Markup

from compiler.pipeline import load_rules
from compiler.sheets import content, pictures, render
from compiler.sheets.plurals import LANGUAGES
from tests.helpers import ROOT
from tests.helpers.sheets import OFFICIAL, phrase_text, sheet_text, spec


def summary(text: str) -> list[str]:
    """The numbered lines of the turn summary box of a Markdown sheet."""
    box = text.split("**Turn summary**", 1)[1].split("\n## ", 1)[0]
    return [line[2:] for line in box.splitlines() if re.match(r"> \d+\. ", line)]


def html_of(path: str, lang: str = "en") -> str:
    rules = load_rules(path)
    base = load_rules(rules.bases[0].path) if rules.bases else None
    return render.html(content.build(rules, lang, base), rules)


@pytest.fixture(scope="module")
def official_en() -> str:
    return sheet_text(str(OFFICIAL))


def test_turn_summary_of_the_official_rules(official_en):
    assert summary(official_en) == [
        "1. **Action**: Do one of these 4.",
        "2. **Then check**: More than 10 tokens? Return tokens of your choice down to 10.",
        "3. **Then check**: Do your bonuses, colour by colour, reach what a noble requires? That noble visits you "
        "(one a turn; you choose if several qualify).",
        "4. **Finally**: 15 prestige points or more? This is the last round: finish it, then the game ends.",
    ]


def test_turn_summary_follows_the_limit_the_target_and_the_visit(tmp_path):
    path = spec(
        tmp_path,
        ("  target: 15 ", "  target: 12 "),
        ("  token_limit: 10 ", "  token_limit: 8 "),
        ("    resolve: choice        # the player chooses when several", "    resolve: all  #"),
    )
    lines = summary(sheet_text(path))
    assert lines[1] == "2. **Then check**: More than 8 tokens? Return tokens of your choice down to 8."
    assert (
        lines[2]
        == "3. **Then check**: Do your bonuses, colour by colour, reach what some nobles require? They all visit you."
    )
    assert lines[3].startswith("4. **Finally**: 12 prestige points or more? This is the last round")


def test_turn_summary_of_a_variant_marks_what_it_changes():
    lines = summary(sheet_text(str(ROOT / "variants" / "sudden-death.yaml")))
    assert lines[3] == "4. **Finally**: If you have 15 or more prestige points, the game ends at once. ★1"
    assert not any("★" in line for line in lines[:3])
    lines = summary(sheet_text(str(ROOT / "variants" / "target-12.yaml")))
    assert lines[3].startswith("4. **Finally**: 12 prestige points or more?") and lines[3].endswith("★1")


def test_the_summary_lists_the_kinds_of_action_with_their_limits(official_en):
    """Issue 30: the four actions of a turn, one a line, each with its limit (as the glance counts them)."""
    box = official_en.split("**Turn summary**", 1)[1].split("\n## ", 1)[0]
    assert [line for line in box.splitlines() if line.startswith(">    - ")] == [
        ">    - Take 3 tokens of different colours (never gold).",
        ">    - Take 2 tokens of one colour, if 4 or more tokens of that colour are in the supply.",
        ">    - Reserve a card, face up or the top card of a deck, and take 1 gold token if any is left; only if you "
        "hold fewer than 3 reserved cards.",
        ">    - Buy a card, face up or one of your reserved cards.",
    ]


def test_a_step_of_its_own_says_when_it_applies_in_the_summary():
    lines = summary(phrase_text(str(ROOT / "variants" / "cities.yaml")))
    assert lines[2] == "3. **Then check**: Claim a city, if the player meets the requirement of a city. ★6"
    french = phrase_text(str(ROOT / "variants" / "cities.yaml"), "fr")
    assert "Revendiquer une cité, si le joueur remplit les conditions d'une cité. ★6" in french


@pytest.mark.parametrize(
    ("lang", "line"),
    [
        (
            "en",
            "If you took 2 tokens of one colour this turn and hold trading post 2, also take 1 token of another gem colour.",
        ),
        (
            "fr",
            "Si vous avez pris 2 jetons d'une même couleur ce tour-ci et que vous avez ouvert le comptoir 2, prenez "
            "aussi 1 jeton d'une autre couleur de gemme.",
        ),
        (
            "nl",
            "Heb je deze beurt 2 fiches van één kleur genomen en heb je handelspost 2, neem dan ook 1 fiche van een "
            "andere edelsteenkleur.",
        ),
        ("sr", "Ако сте у овом потезу узели 2 жетона исте боје и имате станицу 2, узмите још 1 жетон друге боје."),
    ],
)
def test_a_step_with_its_own_text_gives_its_condition_in_the_summary(lang, line):
    """The summary tells a step by the spec's text where it has one (its condition as players say it),
    not by its bare title ("A third token with a pair.") or an engine condition ("“Bought” is yes")."""
    text = sheet_text(str(ROOT / "variants" / "trading-posts.yaml"), lang)
    box = text.split("\n## ", 1)[0]
    assert f"{line} ★10" in box
    assert not any(word in box for word in ("op ja staat", "vaut oui", "is yes", "гласи „да“"))


def test_the_stuck_pass_is_not_in_the_summary(official_en):
    assert not any("pass" in line.lower() for line in summary(official_en))


@pytest.mark.parametrize(
    "lang, first",
    [
        ("en", "**First player**: The youngest player starts. Play then passes"),
        ("fr", "**Premier joueur** : Le joueur le plus jeune commence."),
        ("nl", "**Startspeler**: De jongste speler begint."),
        ("sr", "**Први играч**: Почиње најмлађи играч."),
    ],
)
def test_the_first_player_is_the_specs(lang, first):
    assert first in sheet_text(str(OFFICIAL), lang)


def test_a_spec_that_names_no_first_player(tmp_path):
    text = sheet_text(
        spec(
            tmp_path,
            (
                "first_player:\n  en: The youngest player starts.\n  fr: Le joueur le plus jeune "
                "commence.\n  nl: De jongste speler begint.\n  sr: Почиње најмлађи играч.\n",
                "",
            ),
        )
    )
    assert "**First player**: Agree who takes the first turn. Play then passes to the left (clockwise)" in text


def test_a_variant_may_say_who_starts(tmp_path):
    (tmp_path / "oldest.yaml").write_text(
        "spec: 1\nname: oldest\nextends: official\ntitle: Oldest first\n"
        "first_player: {en: The oldest player starts., fr: Le joueur le plus âgé commence., "
        "nl: De oudste speler begint., sr: Почиње најстарији играч.}\n",
        encoding="utf-8",
    )
    text = sheet_text(str(tmp_path / "oldest.yaml"))
    assert (
        "**First player**: The oldest player starts. Play then passes to the left (clockwise); a round ends "
        "with the player on the first player's right. ★1" in text
    )
    assert "> ★1 **Changed: First player** The oldest player starts." in text


def test_scoring_is_read_from_the_card_and_noble_tables(official_en, tmp_path):
    assert (
        "**Prestige**: Your prestige points are the points printed on the development cards you have "
        "purchased, plus those of the nobles who have visited you"
    ) in official_en
    assert "**Points per card**: Level 1: 0 to 1, level 2: 1 to 3 and level 3: 3 to 5." in official_en
    nobles = (ROOT / "rulespec" / "splendor_nobles.csv").read_text(encoding="utf-8")
    path = spec(tmp_path, ("  target: 15 ", "  target: 15 "))
    (tmp_path / "splendor_nobles.csv").write_text(re.sub(r"^3,", "4,", nobles, flags=re.M), encoding="utf-8")
    assert "**Nobles**: Each noble is worth 4 prestige points." in sheet_text(path)


def test_scoring_without_noble_visits_names_only_the_cards(tmp_path):
    path = spec(tmp_path, ("      - visit(noble)\n", "      - put_back(gold, 0)\n"))
    text = sheet_text(path)
    assert (
        "**Prestige**: Your prestige points are the points printed on the development cards you have "
        "purchased; reserved cards and tokens score nothing." in text
    )
    assert "**Nobles**:" not in text


def test_the_end_as_it_is_played(official_en):
    assert (
        "**As it is played**: If you have 15 or more prestige points at the end of your turn, the round is "
        "played to its end: the players after you, up to the player on the first player's right, each play "
        "one more turn; then the game ends."
    ) in official_en
    assert "As it is played" not in sheet_text(str(ROOT / "variants" / "sudden-death.yaml"))


def test_the_worked_example_shows_the_final_round(official_en):
    assert (
        "Anna took the first turn of the game, so the round goes on: Ben, the last player of the round, plays "
        "one more turn, buys a card worth 0 prestige points and reaches 7 prestige points; the round is "
        "complete and the game ends."
    ) in official_en
    assert "the round goes on" not in sheet_text(str(ROOT / "variants" / "sudden-death.yaml"))


def faq(text: str) -> dict[str, str]:
    part = text.split("## Questions", 1)[1].split("\n## ", 1)[0]
    return dict(re.findall(r"^\*\*(.+?)\*\* (.+)$", part, flags=re.M))


def test_the_questions_of_the_official_rules(official_en):
    assert faq(official_en) == {
        "More than 10 tokens in the middle of your turn?": "Yes: the limit is checked only at the end of your "
        "turn; then return tokens of your choice, gold included and even tokens you have just taken, down to 10.",
        "Reserving when no gold is left?": "Yes: you reserve the card but take no gold token.",
        "A deck is empty?": "A card that leaves the row is not replaced: its space stays empty. "
        "You cannot reserve the top card of that deck.",
        "Two nobles at once?": "You choose one of them: only one noble visits a turn; the other may visit you at "
        "the end of a later turn.",
        "Is a noble replaced?": "No: a noble who visits leaves the row for good, and no new noble is revealed.",
    }


def test_the_questions_follow_the_rules(tmp_path):
    path = spec(
        tmp_path,
        ("  token_limit: 10 ", "  token_limit: 7 "),
        (
            '      - "if supply[gold] >= 1: take(gold, 1)"\n\n  reserve_blind',
            "      - take(gold, 1)\n\n  reserve_blind",
        ),
        (
            "    condition: me.reserved < reserve_limit\n",
            "    condition: me.reserved < reserve_limit and supply[gold] >= 1\n",
        ),
        (
            "    condition: me.reserved < reserve_limit and deck[level] >= 1\n",
            "    condition: me.reserved < reserve_limit\n",
        ),
        ('      - "if supply[gold] >= 1: take(gold, 1)"\n\n  buy_face_up', "\n  buy_face_up"),
        ("    resolve: choice        # the player chooses when several", "    resolve: all  #"),
    )
    questions = faq(sheet_text(path))
    assert questions["More than 7 tokens in the middle of your turn?"].endswith("down to 7.")
    assert "Reserving when no gold is left?" not in questions  # reserving now needs gold: the question is moot
    assert questions["A deck is empty?"] == "A card that leaves the row is not replaced: its space stays empty."
    assert questions["Two nobles at once?"] == "They all visit you at the end of the turn."


def test_every_new_part_in_every_language():
    for lang in LANGUAGES:
        sheet = content.build(load_rules(str(OFFICIAL)), lang, None)
        keys = [s.key for s in sheet.sections]
        assert keys[:2] == ["glance", "goal"] and "faq" in keys, (lang, keys)
        assert len(sheet.summary) == 4 and sheet.summary_title


# ---------------------------------------------------------------------------- pictures


def test_the_html_has_the_pictures_with_names_and_the_markdown_none(official_en):
    html = html_of(str(OFFICIAL))
    svgs = re.findall(r'<svg class="picture [a-z]+" role="img" aria-labelledby="([\w-]+)".*?</svg>', html, re.S)
    assert svgs == ["picture-card", "picture-layout", "picture-noble"]
    assert (
        '<title id="picture-card">A development card of level 2: 1 prestige point at the top left, a white bonus '
        "gem at the top right, a cost of 3 green tokens, 2 red tokens and 2 black tokens at the bottom left."
        "</title>"
    ) in html
    assert (
        '<title id="picture-layout">The table for 4 players: 5 nobles in a row; for each level, a face-down deck '
        "and 4 cards face up; in the supply, 7 tokens of each gem colour and 5 gold tokens.</title>"
    ) in html
    assert "<svg" not in official_en


def test_the_table_layout_is_drawn_from_the_player_count_table(tmp_path):
    path = spec(
        tmp_path, ("  4: {gems: 7, gold: 5, nobles: 5, face_up: 4}", "  4: {gems: 6, gold: 3, nobles: 2, face_up: 3}")
    )
    html = html_of(path)
    layout = re.search(r'<svg class="picture layout".*?</svg>', html, re.S)[0]
    assert "2 nobles in a row" in layout and "3 cards face up" in layout and "3 gold tokens" in layout
    assert layout.count('fill="#f3e6c4"') == 2  # the noble tiles
    assert layout.count('fill="#faf7f0"') == 3 * 3  # face-up cards: 3 levels of 3
    numbers = re.findall(
        r'font-family="Sheet Sans" font-size="9" text-anchor="middle" font-weight="bold" fill="#[0-9a-f]+">(\d+)</text>',
        layout,
    )
    assert numbers == ["6"] * 5 + ["3"]  # the token stacks: 6 of each gem, 3 gold


def test_a_swatch_stands_beside_every_colour_name():
    html = html_of(str(OFFICIAL), "fr")
    main = html.split("<main", 1)[1]
    words = re.findall(r'<span class="colour"><svg class="gem"[^>]*aria-hidden="true".*?</svg>([^<]+)</span>', main)
    assert {"blanc", "bleu", "vert", "rouge", "noir", "or"} <= set(words)
    assert "vert" in words and "verts" in words  # every form of a colour's name
    assert 'fill="#1e8a3c"' in main  # green is painted green


def test_swatches_and_pictures_escape_their_text():
    ws = pictures.words({"red": ["red"]})
    out = pictures.with_swatches("<script>red & </script>", ws)
    assert isinstance(out, Markup) and "<script>" not in out and "&lt;script&gt;" in out
    assert out.count('class="colour"') == 1
    svg = pictures.card(pictures.CardPicture("<b>t</b>", 2, "red", (("red", 1),), "<i>", "&", '"x"'))
    assert "<b>" not in svg and "<i>" not in svg and "&lt;b&gt;t&lt;/b&gt;" in svg and "&amp;" in svg


def test_an_unknown_colour_is_painted_neutral():
    assert pictures.paint("purple") == pictures.UNKNOWN
    assert pictures.paint("gold") != pictures.UNKNOWN


def test_a_swatch_stands_beside_colour_names_in_the_house_rules_and_the_subtitle(tmp_path):
    """The house-rules box (its lead, rule text and note) and the variant's description under the
    title name colours like the rest of the sheet: each name has its swatch there too."""
    variant = tmp_path / "golden-pair.yaml"
    variant.write_text(
        "spec: 1\nname: golden-pair\nextends: official\ntitle: {en: Golden pair, fr: Paire dorée}\n"
        "description: {en: Red tokens are scarce., fr: Les jetons rouges sont rares.}\n"
        'actions:\n  take_pair:\n    effects: ["take(colour, 2)", "take(gold, 1)"]\n'
        "end:\n  target: {finish: immediately, note: {en: Gold is gone then., fr: L'or est alors épuisé.}}\n",
        encoding="utf-8",
    )
    swatched = r'<span class="colour"><svg class="gem"[^>]*aria-hidden="true".*?</svg>([^<]+)</span>'
    for lang, red, gold in (("en", "Red", "gold"), ("fr", "rouges", "or")):
        html = html_of(str(variant), lang)
        subtitle = re.search(r'<p class="subtitle">.*?</p>', html, re.S)[0]
        assert re.findall(swatched, subtitle) == [red], lang
        box = re.search(r'<aside class="house">.*?</aside>', html, re.S)[0]
        rule = re.search(r'<li><span class="mark">★1</span>(.*?)</li>', box, re.S)[1]
        note = re.search(r'<li><span class="mark">★2</span>.*?<span class="note">(.*?)</span></li>', box, re.S)[1]
        assert re.findall(swatched, rule) == [gold] and re.findall(swatched, note) == [
            gold.capitalize() if lang == "en" else gold
        ], lang
