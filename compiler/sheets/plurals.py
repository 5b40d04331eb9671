"""Plural categories (CLDR) for the languages of the reference sheets.

A phrase that depends on a number is written in a language table as a mapping from
plural category to text; :func:`category` says which category a whole number falls
in. Only integers occur on the sheets (counts of tokens, cards, points), so the CLDR
operands reduce to ``n`` (no visible fraction digits).

* English, Dutch: ``one`` for 1, ``other`` for everything else.
* French: ``one`` for 0 and 1, ``other`` for everything else (CLDR puts 0 with 1).
* Serbian: ``one`` when n % 10 == 1 and n % 100 != 11; ``few`` when n % 10 is 2..4
  and n % 100 is not 12..14; ``other`` for everything else (5 to 20, 0, 25...).
"""

from __future__ import annotations

CATEGORIES: dict[str, tuple[str, ...]] = {
    "en": ("one", "other"),
    "fr": ("one", "other"),
    "nl": ("one", "other"),
    "sr": ("one", "few", "other"),
}

LANGUAGES = tuple(CATEGORIES)


def category(lang: str, n: int) -> str:
    """The CLDR plural category of the whole number `n` in `lang`."""
    n = abs(int(n))
    if lang in ("en", "nl"):
        return "one" if n == 1 else "other"
    if lang == "fr":
        return "one" if n in (0, 1) else "other"
    if lang == "sr":
        if n % 10 == 1 and n % 100 != 11:
            return "one"
        if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
            return "few"
        return "other"
    raise ValueError(f"no plural rules for language {lang!r}")


def disagreements(lang: str, text: str, nouns: dict[str, dict[str, str]]) -> list[str]:
    """Every "number noun" pair of `text` whose noun is in a plural form its number does not take.

    `nouns` maps a noun's name to its forms by plural category (a language table's plural
    entries). A pair is wrong when the noun after a whole number is the form of another category
    and not also the form of the number's own ("3 cards" is right in English, "3 card" is not;
    Serbian "3 карте" is right, "3 карата" is not). Numbers inside larger ones ("1.5", "12 + 3")
    are read whole.
    """
    import re

    found = []
    for forms in nouns.values():
        by_form: dict[str, set[str]] = {}
        for cat, form in forms.items():
            by_form.setdefault(form, set()).add(cat)
        for form, cats in by_form.items():
            for m in re.finditer(rf"(?<![\w.,])(\d+) {re.escape(form)}(?!\w)", text):
                own = category(lang, int(m[1]))
                if own not in cats and forms.get(own, forms.get("other")) != form:
                    found.append(m[0])
    return sorted(set(found))
