"""Sheets, language quality: every committed sheet in French, Dutch and Serbian (and English)
is held to the faults a native rules editor listed (issue 20):

* every number-noun pair takes the plural form its number calls for (CLDR, :mod:`plurals`);
* no list item has a sentence fragment (a sentence that is only a condition or a label);
* one term per concept: the words each language's terminology table (``term.*.avoid`` in
  ``compiler/sheets/lang/*.yaml``) sets aside never appear;
* none of the quoted sentences of the issue survives.

The spec's own texts (titles, notes) are held to the same terms: a sheet quotes them as written,
so a title saying "gems" where the sheet says tokens is a fault of the sheet too.
"""

from __future__ import annotations

import pathlib
import re
from collections.abc import Mapping

import pytest

from compiler.pipeline import load_rules
from compiler.sheets import plurals, tables
from compiler.sheets.phrases import describe
from tests.helpers.sheets import phrase_text

ROOT = pathlib.Path(__file__).resolve().parent.parent
SHEETS = ROOT / "generated" / "sheets"
LANGS = ("en", "fr", "nl", "sr")


def sheets(lang: str) -> dict[str, str]:
    found = {p.name: p.read_text(encoding="utf-8") for p in sorted(SHEETS.glob(f"*.{lang}.md"))}
    assert len(found) >= 15, "the catalogue's sheets are committed in generated/sheets"
    return found


def nouns(lang: str) -> dict[str, dict[str, str]]:
    """The plural nouns of the language table (forms without placeholders)."""
    table = tables.load(lang)
    return {
        key: dict(entry)
        for key, entry in table.entries.items()
        if isinstance(entry, Mapping)
        and (key.startswith("noun.") or key.endswith(".noun"))
        and not any("{" in form for form in entry.values())
    }


def list_items(text: str) -> list[str]:
    """The text of every list item ('- ...', '1. ...'), without its lead, marks and note."""
    items = []
    for line in text.splitlines():
        m = re.match(r"^(?:> )?(?:- |\d+\. )(.*)$", line)
        if m:
            item = re.sub(r"^\*\*.+?\*\*\s?:\s", "", m[1])  # the bold lead
            item = re.sub(r"\s_.*_$", "", item)  # a variant's note
            items.append(re.sub(r"(\s★\d+)+$", "", item).strip())
    return items


# Sentences that are only a condition, a permission or a label: what opens them, per language.
FRAGMENT = {
    "en": r"^(As long as|Allowed only|On a tie:)",
    "fr": r"^(Tant que|Permis seulement|En cas d'égalité :)",
    "nl": r"^(Zolang|Alleen toegestaan|Bij gelijkspel:)",
    "sr": r"^(Све док|Дозвољено само|Код нерешеног:)",
}
# A sentence opened by a condition must go on to its main clause.
CONDITIONAL = {"en": r"^(If|When) ", "fr": r"^(Si|S'il|Quand) ", "nl": r"^(Als|Wanneer) ", "sr": r"^(Ако|Када) "}

# The sentences issue 20 quotes, which no sheet may say again.
QUOTED = {
    "fr": [
        "La fin de la partie arrive quand",
        "tours passés d'affilée",
        "et le nombre de couleurs choisies vaut 3, ou",
        "Choisissez un noble. Permis seulement si",
        "Tant que vous avez plus de",
        "Chaque jeton or paie",
        "remplacez la carte choisie",
        "En cas d'égalité :",
    ],
    "nl": [
        "Het spel eindigt wanneer je minstens",
        "vereist hebt",
        "in je hand",
        "Schud de 10 edelen ",
        "Bij gelijkspel:",
    ],
    "sr": ["преко границе", "од 1 до 3 различитих боја", "круг се доигра ", "има 1 племића", "такав жетон"],
    "en": ["Do exactly one of the 7 actions", "The end of the game comes when"],
}
# The sentences the native readers' review of December 2026 quotes (issue 30), templates every sheet
# shared: fixed once for all languages, so no sheet may say them again.
QUOTED_2026 = {
    "en": [
        "nothing happens",
        "The end is triggered",
        "to your purchased cards",
        "does a noble require no more",
        "if the number of passes in a row is at least",
    ],
    "fr": [
        "ne demande pas plus que vos bonus",
        "La fin est déclenchée",
        "rien ne se passe",
        "Faites-en une seule",
        "à vos cartes achetées",
        "passes consécutives atteint",
        "Lectures",
        "puis les étapes",
        "l'élément (",
    ],
    "nl": [
        "Tafel voor",
        "elk)",
        "Lezingen",
        "De prestige van",
        "de limiet telt",
        "er gebeurt niets",
        "Vraagt een edele niet meer",
        "Doe er één",
        "daarna de stappen",
        "aan je gekochte kaarten",
        "Het einde wordt ingeluid",
        "als de speler aan de eisen",  # a step's condition about you: "als je aan de eisen ... voldoet"
        "de speler handelspost",
        "winnen: de zone",
    ],
    "sr": [
        "Граница",
        "код нерешеног",
        "Код нерешеног",
        "ваша цена је: цена",
        "Ако на крају вашег",
        "ако на крају вашег",
        "На крају вашег потеза, ако",
        "отворено по нивоу",
        "тражи највише онолико",
        "ништа се не дешава",
        "па кораке",
        "својим купљеним картама",
        "Крај игре почиње",
    ],
}
# Where every number is known (the worked example: Anna has exactly 15), a comparison is said with
# the number itself, never "at least" (issue 30: "Comme Anne a au moins 15 points").
AT_LEAST = {"en": r"\bat least\b", "fr": r"\bau moins\b", "nl": r"\bminstens\b", "sr": r"\bнајмање\b|\bбар\b"}


def sentences(item: str) -> list[str]:
    return [s for s in re.split(r"(?<=[.!?])\s+(?=\S)", item) if s]


@pytest.mark.parametrize("lang", LANGS)
def test_every_number_takes_its_plural_form(lang):
    wrong = {name: plurals.disagreements(lang, text, nouns(lang)) for name, text in sheets(lang).items()}
    assert {name: pairs for name, pairs in wrong.items() if pairs} == {}


@pytest.mark.parametrize("lang", LANGS)
def test_no_list_item_is_a_sentence_fragment(lang):
    bad = []
    for name, text in sheets(lang).items():
        for item in list_items(text):
            for said in sentences(item):
                opened = re.match(CONDITIONAL[lang], said)
                if re.match(FRAGMENT[lang], said) or (opened and not re.search(r"[,:;]", said)):
                    bad.append(f"{name}: {said}")
    assert bad == []


@pytest.mark.parametrize("lang", LANGS)
def test_one_term_per_concept(lang):
    table = tables.load(lang)
    concepts = [key[: -len(".avoid")] for key in table.entries if key.startswith("term.") and key.endswith(".avoid")]
    assert concepts, "the terminology table is in the language table (term.*)"
    bad = []
    for concept in concepts:
        avoid = table.text(f"{concept}.avoid")
        if not avoid:
            continue
        for name, text in sheets(lang).items():
            bad += [f"{name}: {m[0]!r} (say {table.text(concept)!r})" for m in re.finditer(avoid, text, re.IGNORECASE)]
    assert bad == []


@pytest.mark.parametrize("lang", LANGS)
def test_no_quoted_fault_survives(lang):
    bad = [f"{name}: {quote!r}" for name, text in sheets(lang).items() for quote in QUOTED[lang] if quote in text]
    assert bad == []


@pytest.mark.parametrize(
    "lang, text, wrong",
    [
        ("sr", "мање од 3 резервисане карте и 5 карте", ["5 карте"]),
        ("sr", "21 карта, 22 карте, 25 карата, 12 карата", []),
        ("sr", "3 карата", ["3 карата"]),
        ("fr", "1 cartes et 0 carte", ["1 cartes"]),
        ("en", "1 cards, 2 card, 12 + 3 cards", ["1 cards", "2 card"]),
    ],
)
def test_plural_disagreements_are_found(lang, text, wrong):
    assert plurals.disagreements(lang, text, nouns(lang)) == sorted(wrong)


# In French a clause joined to a subordinate clause repeats its "que" ("que si A et qu'il reste B"):
# a clause opened by its subject right after "et"/"ou" in the same subordinate clause is a fault.
FR_BARE_JOINED_CLAUSE = re.compile(
    r"\b(?:si|que|quand|comme) [^.;:,!?]*? (?:et|ou) (?:il|elle|on|vous|la banque|le nombre|le joueur|chaque)\b"
)


def test_french_joined_clauses_repeat_que():
    bad = [f"{name}: {m[0]!r}" for name, text in sheets("fr").items() for m in FR_BARE_JOINED_CLAUSE.finditer(text)]
    assert bad == []
    official = phrase_text(str(ROOT / "rulespec" / "official.yaml"), "fr")  # the phrase, where the spec has a text
    assert "que si vous avez moins de 3 cartes réservées et qu'il reste au moins 1 carte" in official


def test_a_condition_is_phrased_as_the_clause_it_is():
    """After "si" the joined clauses take "que" (elided before a vowel); shown on its own (the diff's
    before and after) a condition keeps its bare clauses; other languages join clauses as they are."""
    rules = load_rules(str(ROOT / "rulespec" / "official.yaml"))
    blind = next(d for d in rules.actions if d.name == "reserve_blind")
    assert (
        describe(blind.condition, "fr", rules, blind)
        == "vous avez moins de 3 cartes réservées et qu'il reste au moins 1 carte dans la pioche du niveau choisi"
    )
    assert (
        describe(blind.condition, "fr", rules, blind, main_clause=True)
        == "vous avez moins de 3 cartes réservées et il reste au moins 1 carte dans la pioche du niveau choisi"
    )
    assert describe(blind.condition, "en", rules, blind) == describe(blind.condition, "en", rules, blind, True)


@pytest.mark.parametrize("lang", LANGS)
def test_no_sentence_of_the_2026_review_survives(lang):
    bad = [f"{name}: {quote!r}" for name, text in sheets(lang).items() for quote in QUOTED_2026[lang] if quote in text]
    assert bad == []


@pytest.mark.parametrize("lang", LANGS)
def test_the_worked_example_says_the_numbers_it_knows(lang):
    title = "## " + tables.load(lang).text("sheet.example.title")
    bad = []
    for name, text in sheets(lang).items():
        if title not in text:
            continue
        example = text.split(title, 1)[1].split("\n## ", 1)[0]
        bad += [f"{name}: {m[0]!r}" for m in re.finditer(AT_LEAST[lang], example)]
    assert bad == []


@pytest.mark.parametrize("lang", LANGS)
def test_the_engine_words_are_a_term_to_avoid(lang):
    """The words of the rule engine ("la valeur", "élément", "étape") are the table's `term.engine.avoid`:
    test_one_term_per_concept holds every committed sheet to it; here, that the rule catches them."""
    avoid = tables.load(lang).text("term.engine.avoid")
    said = {
        "en": "the value “prestige” of the element",
        "fr": "la valeur « prestige » de l'élément (cité), étape",
        "nl": "de waarde ‘prestige’ van het onderdeel in de zone ‘Opgeëiste steden’",
        "sr": "вредност „престиж“ елемента",
    }[lang]
    assert len(re.findall(avoid, said, re.IGNORECASE)) >= (3 if lang == "nl" else 2)


def test_a_dutch_definition_title_reads_with_je():
    """Where a definition is called about you, a Dutch sheet says "je" where the title has its player
    ("als je aan de eisen van een stad voldoet"): the title's verb must be one "je" takes as well
    as "de speler" (not "heeft" nor "is"), in every catalogue spec that defines one."""
    specs = [ROOT / "rulespec" / "official.yaml"] + sorted((ROOT / "variants").glob("*.yaml"))
    bad = []
    for path in specs:
        if "\ndefine:" not in path.read_text(encoding="utf-8"):
            continue
        for d in load_rules(str(path)).definitions:
            title = d.title.get("nl") or ""
            if any(str(t) == "player" for _, t in d.params) and re.search(r"\b(heeft|is)\b", title):
                bad.append(f"{path.name}: {d.name}: {title}")
    assert bad == []
