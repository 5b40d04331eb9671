"""Language tables: the words of the sheets and of `splendor-rules diff`, one YAML file per language.

``compiler/sheets/lang/LANG.yaml`` maps a flat dotted key (``quant.ge``,
``attr.reserved.you.count``) to a text. The keys under ``diff.`` are the fixed words of
:mod:`compiler.diff` (``diff.header``, ``diff.field.condition``); they are held to the
same checks as the sheets' keys. A text that depends on a number is a mapping
from CLDR plural category (see :mod:`.plurals`) to text; :meth:`Table.text` picks the
form for the number it is given. Placeholders are written ``{name}``; a field's value
may itself be a plural mapping (a Serbian adjective agrees with its noun), and is
then resolved in the same category as the text it goes into.

Tables hold words, never rule values: every number on a sheet is a placeholder filled
from the rule model. The files are read with :mod:`compiler.front.source`, so every key
keeps its line for the E6xx diagnostics of :mod:`.lint`.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from ..diagnostics import CompileError, Diagnostic, Span
from ..front import source
from .plurals import CATEGORIES, LANGUAGES, category

LANG_DIR = Path(__file__).resolve().parent / "lang"
PLACEHOLDER = re.compile(r"\{([a-z_][a-z0-9_]*)\}")

Entry = str | Mapping[str, str]


class Plural(dict):
    """A text in several plural forms (category -> text)."""


@dataclass(frozen=True)
class Table:
    lang: str
    path: str  # as shown in diagnostics
    entries: Mapping[str, Entry]
    spans: Mapping[str, Span]
    span: Span  # the whole file

    def has(self, key: str) -> bool:
        return key in self.entries

    def text(self, key: str, n: int | None = None, **fields) -> str:
        """The text of `key`, in the plural form for `n`, with its placeholders filled."""
        try:
            entry = self.entries[key]
        except KeyError:
            raise KeyError(f"no key {key!r} in {self.path} (run `splendor-rules check` for the E6xx errors)") from None
        cat = category(self.lang, n) if n is not None else "other"
        template = self.pick(entry, cat)
        values = {"n": n, **fields}

        def fill(match: re.Match) -> str:
            name = match.group(1)
            if name not in values or values[name] is None:
                raise KeyError(f"{self.path}: key {key!r} uses {{{name}}}, which this phrase does not provide")
            value = values[name]
            return self.pick(value, cat) if isinstance(value, Mapping) else str(value)

        return PLACEHOLDER.sub(fill, template)

    def form(self, key: str, n: int | None = None) -> Entry:
        """An entry as a value for another text's field: kept whole if it has plural forms."""
        entry = self.entries[key]
        if isinstance(entry, Mapping):
            return Plural(entry) if n is None else self.pick(entry, category(self.lang, n))
        return entry

    @staticmethod
    def pick(entry: Entry, cat: str) -> str:
        if isinstance(entry, Mapping):
            return entry.get(cat, entry.get("other", ""))
        return entry


def placeholders(entry: Entry) -> set[str]:
    texts = entry.values() if isinstance(entry, Mapping) else [entry]
    return {name for text in texts for name in PLACEHOLDER.findall(text)}


def read(path: Path, lang: str) -> Table:
    """Read one table; raise CompileError (E601) if it is not a flat mapping of texts."""
    shown = source.display_path(str(path))
    doc = source.load(str(path))
    root = doc.root
    if not isinstance(root, source.MapNode):
        raise CompileError(
            [
                Diagnostic(
                    "E601",
                    "a language table is a mapping of keys to texts",
                    root.span if root is not None else Span(shown, 1, 1),
                )
            ]
        )
    problems: list[Diagnostic] = []
    entries: dict[str, Entry] = {}
    spans: dict[str, Span] = {}
    categories = CATEGORIES.get(lang, ())
    for key, value in root.items():
        name = str(key.value)
        spans[name] = key.span
        if isinstance(value, source.ScalarNode) and isinstance(value.value, str):
            entries[name] = value.value
        elif isinstance(value, source.MapNode) and all(
            isinstance(v, source.ScalarNode) and isinstance(v.value, str) for _, v in value.items()
        ):
            forms = {str(k.value): str(v.value) for k, v in value.items() if isinstance(v, source.ScalarNode)}
            wrong = [f for f in forms if f not in categories]
            if wrong:
                problems.append(
                    Diagnostic(
                        "E601",
                        f"'{name}' has the plural form '{wrong[0]}', which {lang} does not use"
                        f" (its forms: {', '.join(categories)})",
                        value.key_span(wrong[0]),
                    )
                )
            missing = [f for f in categories if f not in forms]
            if missing:
                problems.append(
                    Diagnostic(
                        "E601",
                        f"'{name}' lacks the plural form{'s' if len(missing) > 1 else ''} "
                        f"{', '.join(repr(m) for m in missing)} ({lang} uses {', '.join(categories)})",
                        key.span,
                    )
                )
            entries[name] = Plural(forms)
        else:
            problems.append(
                Diagnostic("E601", f"'{name}' must be a text or a mapping of plural forms to texts", value.span)
            )
    if problems:
        raise CompileError(problems)
    return Table(lang, shown, entries, spans, root.span)


@functools.cache
def load(lang: str, directory: str | None = None) -> Table:
    """The table of `lang` from the package (or from `directory`, for tests)."""
    if lang not in LANGUAGES:
        raise CompileError([Diagnostic("E606", f"no sheet language '{lang}' (languages: {', '.join(LANGUAGES)})")])
    base = Path(directory) if directory else LANG_DIR
    return read(base / f"{lang}.yaml", lang)
