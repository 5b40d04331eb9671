"""The words of the web table's interface: one catalogue per language (``web/locales/LANG.json``).

A catalogue is a flat mapping from a key to a message; a message may hold ``{name}`` fields,
filled from the values given with the key. A message that depends on a number is a family of
keys, one per plural category (``count.token.one``, ``count.token.other``), asked for by its
stem with ``n`` among the values. The page gets its catalogue in its data and reads every
string through ``t(key, vars)`` (web/static/play.js), which follows the same rules as
:func:`message` here, used by the templates (``t`` of :func:`translator`).

A language without a catalogue, or a key its catalogue lacks, reads English.
"""
from __future__ import annotations

import functools
import json
import pathlib
import re
from collections.abc import Callable, Mapping

from compiler.sheets.plurals import LANGUAGES, category

HERE = pathlib.Path(__file__).resolve().parent
LOCALES = HERE / "locales"  # the package's own data, read as such (tests/test_reading.py)
DEFAULT = "en"
FIELD = re.compile(r"\{(\w+)\}")


@functools.lru_cache(maxsize=8)
def catalogue(lang: str) -> dict[str, str]:
    """The messages of `lang` by key, English for any key it lacks (and for a language without
    a catalogue)."""
    english: dict[str, str] = json.loads((HERE / "locales" / f"{DEFAULT}.json").read_text(encoding="utf-8"))
    if lang == DEFAULT or not re.fullmatch(r"[a-z]{2}", lang) or not (LOCALES / f"{lang}.json").is_file():
        return english
    return {**english, **json.loads((HERE / "locales" / f"{lang}.json").read_text(encoding="utf-8"))}


def message(lang: str, key: str, values: Mapping[str, object]) -> str:
    """The message `key` of `lang` with its fields filled; a plural family's stem by the CLDR
    category of ``values["n"]`` in `lang` (compiler.sheets.plurals). An unknown key reads as itself."""
    messages = catalogue(lang)
    text = messages.get(key)
    n = values.get("n")
    if text is None and isinstance(n, int):
        form = category(lang if lang in LANGUAGES else DEFAULT, n)
        text = messages.get(f"{key}.{form}", messages.get(f"{key}.other"))
    if text is None:
        return key
    return FIELD.sub(lambda m: str(values[m[1]]) if m[1] in values else m[0], text)


def translator(lang: str) -> Callable[..., str]:
    """``t(key, **values)`` for a template in `lang`."""
    return functools.partial(_translate, lang)


def _translate(lang: str, key: str, **values: object) -> str:
    return message(lang, key, values)
