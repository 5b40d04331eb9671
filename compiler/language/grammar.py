"""The registry of what a language's words need to agree: its grammatical genders and the plural
forms (CLDR categories) it writes.

A spec's kind names one component by its `item`; where a language needs them, the item also gives
its plural and its gender (``fr: {one: cité, other: cités, gender: f}``), so that a sheet says "la
cité choisie" and not "l'élément choisi (cité)". The checker reads these tables (E126); the sheets
pick the article and the agreement of each phrase by the gender (``compiler/sheets/lang/*.yaml``,
keys written ``KEY@GENDER``).
"""

from __future__ import annotations

# The genders a language's phrases agree with; English has none (an article does not change).
GENDERS: dict[str, tuple[str, ...]] = {
    "en": (),
    "fr": ("m", "f"),
    "nl": ("de", "het"),
    "sr": ("m", "f", "n"),
}

# The plural forms a language writes (CLDR categories; compiler/sheets/plurals.py picks among them).
PLURAL_FORMS: dict[str, tuple[str, ...]] = {
    "en": ("one", "other"),
    "fr": ("one", "other"),
    "nl": ("one", "other"),
    "sr": ("one", "few", "other"),
}
