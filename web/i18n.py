"""The words of the web table's interface in en, fr, nl and sr: one catalogue per language.

A catalogue (``web/locales/LANG.json``) is a flat mapping from a key to a message; a message
may hold ``{name}`` fields, filled from the values given with the key. A message that depends
on a number is a family of keys, one per plural category of the language (``count.card.one``,
``count.card.few``, ``count.card.other``: compiler.sheets.plurals's CLDR rules) and is asked for
by its stem with ``n`` among the values. The page gets its language's catalogue in its data and
reads every string through ``t(key, vars)`` (web/static/play.js), which follows the same rules
as :func:`translate` here, used by the templates.

The language is the one asked for (``?lang=``), else the first of the browser's languages
(Accept-Language) that has a catalogue, else English.
"""

from __future__ import annotations

import functools
import json
import pathlib
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from markupsafe import Markup, escape

from compiler.sheets import tables
from compiler.sheets.plurals import LANGUAGES, category

HERE = pathlib.Path(__file__).resolve().parent
LOCALES = HERE / "locales"  # the package's own data, read as such (tests/test_reading.py)
DEFAULT = "en"
FIELD = re.compile(r"\{(\w+)\}")


# The sheets' words a page says as well, taken from the sheets' language tables rather than
# written twice: an engine's RuleError (web.rule_words), which `play` words from the same table.
FROM_SHEETS = ("rule_error.",)


@functools.lru_cache(maxsize=len(LANGUAGES))
def catalogue(lang: str) -> dict[str, str]:
    """The messages of `lang` (one of compiler.sheets.plurals.LANGUAGES), by key: its own
    catalogue's, and the sheets' table's under FROM_SHEETS (a plural family as KEY.CATEGORY)."""
    if lang not in LANGUAGES:
        raise KeyError(lang)
    messages: dict[str, str] = json.loads((HERE / "locales" / f"{lang}.json").read_text(encoding="utf-8"))
    for key, entry in tables.load(lang).entries.items():
        if key.startswith(FROM_SHEETS):
            forms = entry.items() if isinstance(entry, Mapping) else ()
            messages.update({f"{key}.{cat}": text for cat, text in forms} if forms else {key: str(entry)})
    return messages


def pick(asked: str, accept_language: str) -> str:
    """`asked` (a ``?lang=``) when it is a language of the table, else the first of the browser's
    languages that is, else English."""
    if asked in LANGUAGES:
        return asked
    for part in accept_language.split(","):
        code = part.split(";")[0].strip().lower()[:2]
        if code in LANGUAGES:
            return code
    return DEFAULT


def message(lang: str, key: str, values: Mapping[str, object]) -> str:
    """The message `key` of `lang` with its fields filled: by the plural category of
    ``values["n"]`` when the key is a plural family's stem; an unknown key or field stays as
    written (the test of the catalogues makes sure neither happens)."""
    messages = catalogue(lang)
    text = messages.get(key)
    if text is None and "n" in values:
        n = values["n"]
        text = messages.get(f"{key}.{category(lang, int(n))}") if isinstance(n, int) else None
        text = text if text is not None else messages.get(f"{key}.other")
    if text is None:
        return key
    return FIELD.sub(lambda m: str(values[m[1]]) if m[1] in values else m[0], text)


@dataclass(frozen=True, slots=True)
class Words:
    """A sentence of the server for the players (a refusal, why a table stopped), kept as its
    catalogue key and values until the language it is said in is known: the request's (a
    refusal), each page's (a table's problem, which every seat reads in its own). A value may be
    Words itself (the problem inside "this table was stopped: ..."); any other value is said as
    it is (a number, or text the server cannot translate: a spec's name, an engine's own words)."""

    key: str
    values: tuple[tuple[str, object], ...] = ()

    def said(self, lang: str) -> str:
        """The sentence in `lang`."""
        return message(lang, self.key, {k: v.said(lang) if isinstance(v, Words) else v for k, v in self.values})

    def __str__(self) -> str:  # in the server's log and its command line, which are English
        return self.said(DEFAULT)

    @classmethod
    def from_json(cls, text: str) -> Words | None:
        """Words stored as :meth:`as_json` in a file (data: a value is a number, a text or Words
        in turn); None for anything else (a sentence stored before the catalogues)."""
        try:
            data = json.loads(text)
        except (ValueError, RecursionError):
            return None
        return cls._of(data)

    @classmethod
    def _of(cls, data: object) -> Words | None:
        if (
            not isinstance(data, dict)
            or not isinstance(data.get("key"), str)
            or not isinstance(data.get("values"), dict)
        ):
            return None
        values: list[tuple[str, object]] = []
        for name, value in data["values"].items():
            inner = cls._of(value) if isinstance(value, dict) else None
            if inner is None and not isinstance(value, (str, int, float)):
                return None
            values.append((str(name), inner if inner is not None else value))
        return cls(data["key"], tuple(values))

    def as_json(self) -> dict[str, object]:
        """The key and values for a page, which says it with its own catalogue (play.js's
        ``said``, a Words value in turn)."""
        return {"key": self.key, "values": {k: v.as_json() if isinstance(v, Words) else v for k, v in self.values}}


def words(key: str, **values: object) -> Words:
    """The sentence `key` of the catalogues with `values`, to be said once a language is known."""
    return Words(key, tuple(values.items()))


def said(lang: str, text: str | Words) -> str:
    """`text` in `lang`: Words said, a sentence already worded (the rules' refusal) as it is."""
    return text.said(lang) if isinstance(text, Words) else text


def translator(lang: str) -> Callable[..., Markup]:
    """``t(key, **values)`` for a template in `lang`: the catalogue's message as markup (the
    catalogues hold no tag: tests/test_web_i18n.py), each value escaped as it goes in."""
    return functools.partial(_translate, lang)


def _translate(lang: str, key: str, /, **values: object) -> Markup:
    return Markup(message(lang, key, {name: escape(value) for name, value in values.items()}))


def page_words(asked: str, accept_language: str) -> dict[str, object]:
    """What every page's template needs for its words: its language (:func:`pick`), ``t`` and the
    languages a page may be read in (each by its own name)."""
    lang = pick(asked, accept_language)
    names = {code: catalogue(code)["lang.name"] for code in LANGUAGES}
    return {"lang": lang, "t": translator(lang), "languages": names}


def ended_by(lang: str, reason: str | None, ends: Mapping[str, str]) -> str:
    """Why a game ended, in words of `lang`: the length cap and the deadlock in full, any other
    trigger by its title in the spec (`ends`: name -> title), else by its name."""
    if reason in ("truncated", "deadlock"):
        return message(lang, f"result.{reason}", {})
    name = str(reason)
    return message(lang, "result.ended_by", {"reason": ends.get(name) or name.replace("_", " ")})
