"""Sheets, language quality: every committed sheet in French, Dutch and Serbian (and English)
is held to the faults a native rules editor listed (issue 20):

* every number-noun pair takes the plural form its number calls for (CLDR, :mod:`plurals`);
* no list item has a sentence fragment (a sentence that is only a condition or a label);
* one term per concept: the words each language's terminology table (``term.*.avoid`` in
  ``compiler/sheets/lang/*.yaml``) sets aside never appear;
* none of the quoted sentences of the issue survives.
"""
from __future__ import annotations

import dataclasses
import functools
import pathlib
import re
from collections.abc import Mapping

import pytest

from compiler.model import Text
from compiler.pipeline import load_rules
from compiler.sheets import plurals, tables

ROOT = pathlib.Path(__file__).resolve().parent.parent
SHEETS = ROOT / "generated" / "sheets"
LANGS = ("en", "fr", "nl", "sr")


def sheets(lang: str) -> dict[str, str]:
    found = {p.name: p.read_text(encoding="utf-8") for p in sorted(SHEETS.glob(f"*.{lang}.md"))}
    assert len(found) >= 15, "the catalogue's sheets are committed in generated/sheets"
    return found


@functools.lru_cache(maxsize=None)
def spec_texts(name: str, lang: str) -> tuple[str, ...]:
    """Every text the spec of sheet `name` and its base write (titles, descriptions, notes), in `lang`:
    the spec author's words, which the terminology check leaves to `check` and the spec's
    reviewers (the sheets quote them as written)."""
    path = ROOT / ("rulespec/official.yaml" if name == "official" else f"variants/{name}.yaml")
    found: list[str] = []

    def walk(node):
        if isinstance(node, Text):
            found.extend(t for t in (node.get(lang), node.en) if t)
        elif isinstance(node, (tuple, list)):
            for item in node:
                walk(item)
        elif dataclasses.is_dataclass(node) and not isinstance(node, type):
            for f in dataclasses.fields(node):
                if f.name not in ("source", "bases", "spans", "cards", "nobles"):
                    walk(getattr(node, f.name))

    walk(load_rules(str(path)))
    if name != "official":  # a variant's sheet also quotes its base (a removed step's title)
        found.extend(spec_texts("official", lang))
    return tuple(sorted(set(found), key=len, reverse=True))


def generated_words(name: str, lang: str, text: str) -> str:
    """The sheet's text without what its spec wrote (see :func:`spec_texts`)."""
    for written in spec_texts(name.split(".")[0], lang):
        text = text.replace(written, "")
    return text


def nouns(lang: str) -> dict[str, dict[str, str]]:
    """The plural nouns of the language table (forms without placeholders)."""
    table = tables.load(lang)
    return {key: dict(entry) for key, entry in table.entries.items()
            if isinstance(entry, Mapping) and (key.startswith("noun.") or key.endswith(".noun"))
            and not any("{" in form for form in entry.values())}


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
    "fr": ["La fin de la partie arrive quand", "tours passés d'affilée", "et le nombre de couleurs choisies vaut 3, ou",
           "Choisissez un noble. Permis seulement si", "Tant que vous avez plus de", "Chaque jeton or paie",
           "remplacez la carte choisie", "En cas d'égalité :"],
    "nl": ["Het spel eindigt wanneer je minstens", "vereist hebt", "in je hand", "Schud de 10 edelen ",
           "Bij gelijkspel:"],
    "sr": ["преко границе", "од 1 до 3 различитих боја", "круг се доигра ", "има 1 племића", "такав жетон"],
    "en": ["Do exactly one of the 7 actions", "The end of the game comes when"],
}


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
            text = generated_words(name, lang, text)
            bad += [f"{name}: {m[0]!r} (say {table.text(concept)!r})" for m in re.finditer(avoid, text, re.IGNORECASE)]
    assert bad == []


@pytest.mark.parametrize("lang", LANGS)
def test_no_quoted_fault_survives(lang):
    bad = [f"{name}: {quote!r}" for name, text in sheets(lang).items() for quote in QUOTED[lang]
           if quote in generated_words(name, lang, text)]
    assert bad == []


@pytest.mark.parametrize("lang, text, wrong", [
    ("sr", "мање од 3 резервисане карте и 5 карте", ["5 карте"]),
    ("sr", "21 карта, 22 карте, 25 карата, 12 карата", []),
    ("sr", "3 карата", ["3 карата"]),
    ("fr", "1 cartes et 0 carte", ["1 cartes"]),
    ("en", "1 cards, 2 card, 12 + 3 cards", ["1 cards", "2 card"]),
])
def test_plural_disagreements_are_found(lang, text, wrong):
    assert plurals.disagreements(lang, text, nouns(lang)) == sorted(wrong)
