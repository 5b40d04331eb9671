"""Sheets, lint: the checks `splendor-rules check` runs for the sheets (codes E6xx).

Takes the rule model; returns diagnostics, never raises:

* E601 a language table that is not a flat mapping of texts, or a text whose plural
  forms are not the ones its language uses (Serbian: one, few, other);
* E602 a key that English has and another table lacks (located at the table line
  where it belongs), E603 a key another table has and English does not (a gendered form ``KEY@GENDER``
  or ``KEY@GENDER.v``, for an item of one of the language's genders, stands for ``KEY``:
  compiler/language/grammar.py);
* E604 a text whose placeholders differ from the English text's (case forms such as
  ``{card_of}``, ``{card_acc}``, ``{colour_name}`` or ``{wild_adj}`` count as the same placeholder,
  and so do the forms of a collection, ``{each}``, ``{all}``, ``{items}`` and ``{some}``);
* E605 a colour of the spec that a table has no words for;
* E610 a text written by a variant (its title, description and first player, an entry's title,
  description or note, a removal's reason) that lacks one of the sheet languages; the message
  says what those sheets show instead (English, or for an action's or step's title a title
  generated from its rules).
  The severity is :data:`VARIANT_TEXT_SEVERITY`: a warning, because a house variant
  written only in English is a legitimate variant (its own texts then appear in English
  on the other sheets, and `check -W` says so); the shipped catalogue is held to every
  language by the tests.

English (``lang/en.yaml``) is the reference table: the other tables must have
exactly its keys. The words of `splendor-rules diff` are the ``diff.*`` keys of the same
tables (see :mod:`compiler.diff`), so E601-E604 cover them like the sheets' own keys.
"""

from __future__ import annotations

from pathlib import Path

from ..diagnostics import CompileError, Diagnostic, Span, sorted_diagnostics
from ..front import source
from ..language.grammar import GENDERS
from ..model import Rules
from . import tables
from .plurals import LANGUAGES

REFERENCE = "en"
VARIANT_TEXT_SEVERITY = "warning"
_CASE_SUFFIXES = ("_of", "_in", "_acc", "_name", "_adj")
# Placeholders that are forms of one thing: a collection as "each ...", "... (plural)", "at least one ...".
_SAME_THING = {"each": "collection", "items": "collection", "some": "collection", "all": "collection"}
# A kind's pieces by its title or by its item's plural, a zone by its title or by its item's plural:
# a language whose plural has the case a phrase needs (Serbian's genitive plural) may use the other.
_SAME_THING |= {"plural": "kind", "zone_plural": "zone"}
_TEXT_FIELDS = ("title", "description", "note")
_KEYED = ("players", "values", "actions", "end_of_turn", "end", "define", "prestige")
# The sections whose entries' titles a sheet without a translation replaces by a title of its own,
# made from what the entry does (content.Builder.headline), not by the English title.
_TITLED_BY_RULES = ("actions", "end_of_turn")
_ENGLISH = "English"
_GENERATED = "a title generated from its rules instead"


def lint(rules: Rules, directory: str | Path | None = None) -> list[Diagnostic]:
    """Every E6xx problem of the language tables and of the variant texts of `rules`."""
    found = lint_tables(directory, rules.colours)
    found += lint_variant_texts(rules)
    found += lint_definition_titles(rules)
    return sorted_diagnostics(found)


def lint_definition_titles(rules: Rules) -> list[Diagnostic]:
    """E604 for a definition's title, in some language, whose placeholders are not its parameters:
    the sheets put each argument in words where its {parameter} stands."""
    found = []
    for d in rules.definitions:
        params = {p for p, _ in d.params}
        for lang, text in (("en", d.title.en), *d.title.translations):
            have = set(tables.PLACEHOLDER.findall(text))
            lost, added = sorted(params - have), sorted(have - params)
            parts = []
            if lost:
                parts.append("lacks " + ", ".join("{" + n + "}" for n in lost))
            if added:
                parts.append("has " + ", ".join("{" + n + "}" for n in added) + ", which is not a parameter")
            if parts:
                found.append(
                    Diagnostic(
                        "E604",
                        f"the {lang} title of definition '{d.name}' {' and '.join(parts)}",
                        rules.spans.get(f"define.{d.name}", d.span),
                        ("a call is phrased by the title, each {parameter} replaced by its argument",),
                    )
                )
    return found


def _base_name(name: str) -> str:
    for suffix in _CASE_SUFFIXES:
        if name.endswith(suffix):
            name = name[: -len(suffix)]
            break
    return _SAME_THING.get(name, name)


_TABLE_LINTS: dict[tuple, list[Diagnostic]] = {}


def lint_tables(directory: str | Path | None = None, colours: tuple[str, ...] = ()) -> list[Diagnostic]:
    """The table problems, computed once per run for the same files (`check` of many specs)."""
    base = Path(directory) if directory is not None else tables.LANG_DIR
    stamps = []
    for path in sorted(base.glob("*.yaml")):
        info = path.stat()
        stamps.append((path.name, info.st_mtime_ns, info.st_size))
    key = (str(base.resolve()), tuple(colours), tuple(stamps))
    if key not in _TABLE_LINTS:
        _TABLE_LINTS[key] = _lint_tables(base, tuple(colours))
    return list(_TABLE_LINTS[key])


def _lint_tables(base: Path, colours: tuple[str, ...]) -> list[Diagnostic]:
    loaded: dict[str, tables.Table] = {}
    found: list[Diagnostic] = []
    for lang in LANGUAGES:
        try:
            loaded[lang] = tables.read(base / f"{lang}.yaml", lang)
        except CompileError as err:
            found.extend(err.diagnostics)
    reference = loaded.get(REFERENCE)
    for lang, table in loaded.items():
        for colour in colours:
            missing = [k for k in (f"colour.{colour}", f"colour.{colour}.adj") if not table.has(k)]
            if missing:
                found.append(
                    Diagnostic(
                        "E605",
                        f"the spec's colour '{colour}' has no words in this table "
                        f"(add {' and '.join(repr(m) for m in missing)})",
                        _line(table, 1),
                    )
                )
        if reference is None or lang == REFERENCE:
            continue
        keys = list(reference.entries)
        previous_line = 1
        for key in keys:
            if table.has(key):
                previous_line = table.spans[key].line
                continue
            found.append(
                Diagnostic(
                    "E602",
                    f"missing key '{key}' (the English table has it at {reference.path}:{reference.spans[key].line})",
                    _line(table, previous_line),
                    (f"English: {_show(reference.entries[key])}",),
                )
            )
        for key in table.entries:
            ref_key = _gendered_base(key, lang)
            if not reference.has(ref_key):
                found.append(
                    Diagnostic("E603", f"extra key '{key}': the English table has no such key", table.spans[key])
                )
                continue
            want = {_base_name(n) for n in tables.placeholders(reference.entries[ref_key])}
            have = {_base_name(n) for n in tables.placeholders(table.entries[key])}
            if want != have:
                lost, added = sorted(want - have), sorted(have - want)
                parts = []
                if lost:
                    parts.append("lacks " + ", ".join("{" + n + "}" for n in lost))
                if added:
                    parts.append("has " + ", ".join("{" + n + "}" for n in added) + ", which English does not")
                found.append(Diagnostic("E604", f"'{key}' {' and '.join(parts)}", table.spans[key]))
    return found


def _gendered_base(key: str, lang: str) -> str:
    """The key a gendered form stands for (``ref.component.the@f`` or ``...@f.v`` before a vowel: the phrase
    for an item of that gender, compiler/language/grammar.py); the key itself if it is no such form of one
    of `lang`'s genders (a form English cannot have: it has no genders)."""
    base, at, form = key.partition("@")
    if at and form.removesuffix(".v") in GENDERS.get(lang, ()):
        return base
    return key


def _line(table: tables.Table, line: int) -> Span:
    return Span(table.path, line, 1)


def _show(entry) -> str:
    if isinstance(entry, dict):
        return "; ".join(f"{k}: {v}" for k, v in entry.items())
    return str(entry)


# ---------------------------------------------------------------------------- variant texts


def lint_variant_texts(rules: Rules) -> list[Diagnostic]:
    """E610 for each text a variant file writes without every sheet language."""
    if not rules.bases:
        return []
    found: list[Diagnostic] = []
    for spec in (rules.source,) + tuple(rules.bases[:-1]):  # the root base is a full spec, not a variant
        try:
            doc = source.load(spec.path)
        except CompileError:
            continue  # the pipeline reported it already
        if isinstance(doc.root, source.MapNode):
            found.extend(_document_texts(doc.root))
    return found


def _document_texts(root: source.MapNode) -> list[Diagnostic]:
    found = []
    for name in ("title", "description", "first_player"):
        found += _text(root, name, "the variant's")
    for section in _KEYED:
        table = root.get(section)
        if isinstance(table, source.MapNode):
            for key, entry in table.items():
                found += _entry(entry, f"{section} '{key.value}'", titled=section in _TITLED_BY_RULES)
    winners = root.get("winners")
    if isinstance(winners, source.MapNode):
        found += _entry(winners, "winners")
        ranking = winners.get("ranking")
        if isinstance(ranking, source.MapNode):
            for key, entry in ranking.items():
                found += _entry(entry, f"ranking level '{key.value}'")
    return found


def _entry(entry, where: str, titled: bool = False) -> list[Diagnostic]:
    if not isinstance(entry, source.MapNode):
        return []
    found = []
    for name in _TEXT_FIELDS:
        found += _text(entry, name, f"{where}:", shown=_GENERATED if titled and name == "title" else _ENGLISH)
    removal = entry.get("remove")
    if removal is not None and not (isinstance(removal, source.ScalarNode) and isinstance(removal.value, bool)):
        found += _text(entry, "remove", f"{where}: the reason for removing it,", label="")
    return found


def _text(
    parent: source.MapNode, name: str, owner: str, label: str | None = None, shown: str = "English"
) -> list[Diagnostic]:
    """E610 for the text `name` of `parent` if it lacks a sheet language; `shown` is what those
    sheets show in its place (English, or for an action's or step's title a generated one)."""
    node = parent.get(name)
    if node is None:
        return []
    what = f"{owner} {name if label is None else label}".replace("  ", " ").strip().rstrip(",")
    if isinstance(node, source.ScalarNode):
        if not isinstance(node.value, str):
            return []
        missing = [lang for lang in LANGUAGES if lang != REFERENCE]
        span = node.span
    elif isinstance(node, source.MapNode):
        given = {str(k) for k in node.keys()}
        missing = [lang for lang in LANGUAGES if lang not in given]
        span = parent.key_span(name)
    else:
        return []
    if not missing:
        return []
    langs = ", ".join(missing[:-1]) + (" and " if len(missing) > 1 else "") + missing[-1]
    if VARIANT_TEXT_SEVERITY == "error":
        consequence = "every sheet language needs its own text"
    else:
        consequence = f"the {langs} sheet{'s' if len(missing) > 1 else ''} will show {shown}"
    return [
        Diagnostic(
            "E610",
            f"{what} has no {langs} text; {consequence}",
            span,
            (f"write it as a mapping: {{{', '.join(f'{lang}: ...' for lang in LANGUAGES)}}}",),
            severity=VARIANT_TEXT_SEVERITY,
        )
    ]
