"""Pass 4, check: authored rule texts (`text:`) -- read, checked, fingerprinted, found fresh or stale.

A spec may tell an action, an end-of-turn step, an end trigger, a definition, a prestige source
or a declared variable (what players keep track of) in players' words, per language, with
placeholders for its numbers (`{pair_minimum}`). The sheets print such a text instead of the
generated phrase, so it must never say what the engine does not do. It cannot go stale by construction:

* :func:`attach` (run by :mod:`.build`) reads each text, checks its placeholders against the
  numbers the spec names (:func:`numbers`: E620 for one that names nothing, or a lone brace) and
  its languages against the spec's other texts (E621), and records the *fingerprint* of the rule
  it describes: a hash of the rule's checked tree with what is no rule (spans, titles, notes,
  notation, the numbers a named value gives) left out, and with the definitions it calls.
* :func:`freshen` (run by :func:`compiler.pipeline.load_rules` on a variant) compares the
  fingerprint of each text the variant inherits with the rule as the variant has it: a changed
  rule keeps its text, marked stale, so the sheets fall back to the generated phrase.
* :func:`warnings` (run by `check`) says so (E623, at the variant's change), and flags a
  number written in digits where a placeholder names that value of the rule (E622).

A whole section of the sheets (`sections: {setup|goal|end: {text}}`, :func:`sections`) is told the
same way: its text is fingerprinted over every rule the section states (:func:`section_rules`), so
a variant that changes any of them gets the generated sentences back.

Placeholders are filled by :func:`fill`; what fills them is a number, so no spec text becomes
markup or code through them (the sheets escape the text as a whole).
"""

from __future__ import annotations

import dataclasses
import enum
import hashlib
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from ..diagnostics import Diagnostic, Span, did_you_mean
from ..front.expr import Call, Effect, Name, Origin, walk
from ..front.source import MapNode, Node, ScalarNode
from ..model import (
    AuthoredText,
    Decision,
    Definition,
    EndTrigger,
    PlayerCount,
    PlayerField,
    PrestigeSource,
    Rules,
    SectionText,
    Value,
    Variable,
)
from .reader import LANGS, Checker

# The sections whose entries may carry a `text`, and the field of Rules that holds them.
SECTIONS = (
    ("actions", "actions"),
    ("end_of_turn", "steps"),
    ("end", "end"),
    ("define", "definitions"),
    ("prestige", "prestige"),
    ("state", "variables"),
)

# The sections of the sheets a spec may tell whole (`sections:`), and the paths of the spec whose
# changes change what each one states (where a variant made its text stale).
SHEET_SECTIONS = {
    "setup": ("players", "player_fields", "zones", "setup", "kinds", "state", "components", "handling"),
    "goal": ("prestige", "kinds", "components"),
    "end": ("end", "winners"),
}


def section_rules(rules: Rules, name: str) -> tuple[object, ...]:
    """Every rule a sheet's section states, the tree a section's text is fingerprinted over: the setup's
    table, deal, zones, setup blocks, kinds, state and handling; what gives prestige (the prestige
    sources, the cards' and nobles' points, whether nobles visit); the end triggers and the winners."""
    if name == "setup":
        return (
            rules.players,
            rules.player_fields,
            rules.zones,
            rules.setup,
            rules.kinds,
            rules.variables,
            rules.gems,
            rules.wild,
            rules.handling,
        )
    if name == "goal":
        visits = any(
            isinstance(node, Effect) and node.name == "visit"
            for d in rules.actions + rules.steps
            for statement in d.effects
            for node in walk(statement)
        )
        points = tuple((c.level, c.points) for c in rules.cards), tuple(n.points for n in rules.nobles)
        return (rules.prestige, points, visits)
    return (rules.end, rules.winners)


# Fields of a rule that are not the rule: where it is written, what it is called, how a move is
# written, remarks, its own text, and numbers the check pass derives from a named value (a value's
# number is the placeholder's business, not the fingerprint's).
_NOT_THE_RULE = frozenset({"span", "name", "title", "note", "text", "notation", "worth_max"})

_PIECE = re.compile(r"\{\{|\}\}|\{([^{}]*)\}|[{}]")
_DIGITS = re.compile(r"(?<![\w.])\d+(?!\w|[.,]\d)")  # a whole number, not part of a word or a decimal


@dataclass(frozen=True, slots=True)
class Piece:
    """One placeholder (or a lone brace, `name` None) found in a text, at [start, end)."""

    name: str | None
    start: int
    end: int


def pieces(text: str) -> Iterator[Piece]:
    """The placeholders of a text in order, and its lone braces (`{{` and `}}` are braces)."""
    for m in _PIECE.finditer(text):
        if m.group(0) in ("{{", "}}"):
            continue
        yield Piece(m.group(1).strip() if m.group(1) is not None else None, m.start(), m.end())


def fill(text: str, named: Mapping[str, int]) -> str:
    """A text with each placeholder replaced by its number (a placeholder naming nothing stays as
    written: it was refused by `check`)."""

    def one(m: re.Match[str]) -> str:
        if m.group(0) in ("{{", "}}"):
            return m.group(0)[0]
        name = (m.group(1) or "").strip()
        return str(named[name]) if name in named else m.group(0)

    return _PIECE.sub(one, text)


def numbers(values: Iterable[Value], players: Iterable[PlayerCount], fields: Iterable[PlayerField]) -> dict[str, int]:
    """The numbers a text may name: each value, each field of the player-count table that is the same
    for every row (`setup.gold`), and the fewest and most players (`players.min`, `players.max`)."""
    named = {v.name: v.value for v in values}
    rows = list(players)
    if rows:
        for field in ("gems", "gold", "nobles", "face_up", *(f.name for f in fields)):
            found = {
                row.field(field)
                for row in rows
                if field in ("gems", "gold", "nobles", "face_up") or field in dict(row.fields)
            }
            if len(found) == 1:
                named[f"setup.{field}"] = found.pop()
        named["players.min"] = min(row.players for row in rows)
        named["players.max"] = max(row.players for row in rows)
    return named


# --------------------------------------------------------------------------- fingerprints


def _normal(node: object) -> object:
    """A node as plain nested tuples: its class and the fields that make the rule."""
    if isinstance(node, enum.Enum):
        return (type(node).__name__, node.name)
    if dataclasses.is_dataclass(node) and not isinstance(node, type):
        named = getattr(node, "slots_name", "")
        return (
            type(node).__name__,
            *(
                (f.name, _normal(getattr(node, f.name)))
                for f in dataclasses.fields(node)
                if f.name not in _NOT_THE_RULE and not (f.name == "slots" and named)
            ),
        )
    if isinstance(node, (tuple, list)):
        return tuple(_normal(x) for x in node)
    if isinstance(node, frozenset | set):
        return tuple(sorted(repr(_normal(x)) for x in node))
    if node is None or isinstance(node, (bool, int, str)):
        return node
    return (type(node).__name__, str(node))


def expressions(rule: object) -> Iterator[object]:
    """Every node of a rule, depth first: its choices, expressions and effects (not what is no rule)."""
    if isinstance(rule, (tuple, list)):
        for x in rule:
            yield from expressions(x)
    elif dataclasses.is_dataclass(rule) and not isinstance(rule, type):
        yield rule
        for f in dataclasses.fields(rule):
            if f.name not in _NOT_THE_RULE:
                yield from expressions(getattr(rule, f.name))


def called(rule: object, definitions: Mapping[str, Definition]) -> list[Definition]:
    """The definitions a rule calls, directly or through others, each once, in the order first met."""
    seen: dict[str, Definition] = {}
    todo = [rule]
    while todo:
        for node in expressions(todo.pop()):
            if isinstance(node, Call) and node.func in definitions and node.func not in seen:
                seen[node.func] = definitions[node.func]
                todo.append(definitions[node.func])
    return list(seen.values())


def fingerprint(rule: object, definitions: Mapping[str, Definition]) -> str:
    """The rule's fingerprint: a sha256 of its normalised checked tree and of the definitions it calls."""
    tree = (_normal(rule), tuple((d.name, _normal(d)) for d in called(rule, definitions)))
    return hashlib.sha256(repr(tree).encode("utf-8")).hexdigest()


def values_read(rule: object, rules_values: Iterable[str], definitions: Mapping[str, Definition]) -> list[str]:
    """The named values a rule's expressions read, and those of the definitions it calls (not the
    value that only sizes a choice, `slots: reserve_limit`: a text about buying a reserved card
    has no reason to state it)."""
    names = set(rules_values)
    found: list[str] = []
    for part in (rule, *called(rule, definitions)):
        for node in expressions(part):
            if isinstance(node, Name) and node.id in names and node.id not in found:
                found.append(node.id)
    return found


# --------------------------------------------------------------------------- reading


def attach(c: Checker, sections: Mapping[str, tuple[Any, ...]], named: Mapping[str, int]) -> dict[str, tuple[Any, ...]]:
    """Each section's entries (`sections`: section key -> entries) with the `text` the spec gives them
    read and fingerprinted; E620 and E621 reported."""
    definitions = {d.name: d for d in sections.get("define", ())}
    out: dict[str, tuple[Any, ...]] = {}
    read: list[AuthoredText] = []
    for key, entries in sections.items():
        section = c.root.get(key)
        replaced = []
        for entry in entries:
            node = section.get(entry.name) if isinstance(section, MapNode) else None
            said = _read(c, node.get("text") if isinstance(node, MapNode) else None, named)
            if said is not None:
                said = dataclasses.replace(said, fingerprint=fingerprint(entry, definitions))
                read.append(said)
                c.spans[f"{key}.{entry.name}.text"] = said.span  # where the diff points
                entry = dataclasses.replace(entry, text=said)
            replaced.append(entry)
        out[key] = tuple(replaced)
    _languages(c, read)
    return out


def told(
    c: Checker,
    named: Mapping[str, int],
    actions: tuple[Decision, ...],
    steps: tuple[Decision, ...],
    end: tuple[EndTrigger, ...],
    definitions: tuple[Definition, ...],
    prestige: tuple[PrestigeSource, ...],
    variables: tuple[Variable, ...],
) -> tuple[
    tuple[Decision, ...],
    tuple[Decision, ...],
    tuple[EndTrigger, ...],
    tuple[Definition, ...],
    tuple[PrestigeSource, ...],
    tuple[Variable, ...],
]:
    """The entries of the sections that may carry a text, with their texts (:func:`attach`), in that order."""
    sections = {
        "actions": actions,
        "end_of_turn": steps,
        "end": end,
        "define": definitions,
        "prestige": prestige,
        "state": variables,
    }
    out = attach(c, sections, named)
    return out["actions"], out["end_of_turn"], out["end"], out["define"], out["prestige"], out["state"]


def sections(c: Checker, rules: Rules) -> Rules:
    """The rules with the `sections` the spec tells whole: each section's text read (E620), checked for
    the languages of the spec's other texts (E621) and fingerprinted over the rules the section states;
    CompileError with the problems found."""
    node = c.root.get("sections")
    if not isinstance(node, MapNode):
        return rules
    named = numbers(rules.values, rules.players, rules.player_fields)
    definitions = {d.name: d for d in rules.definitions}
    told: list[SectionText] = []
    for key, value in node.entries:
        name = str(key.value)
        if name not in SHEET_SECTIONS or not isinstance(value, MapNode):
            continue  # the schema refused it
        said = _read(c, value.get("text"), named)
        if said is not None:
            said = dataclasses.replace(said, fingerprint=fingerprint(section_rules(rules, name), definitions))
        told.append(SectionText(name, value.span, said))
    _languages(c, [s.text for s in told if s.text is not None], [e.text for _, e in entries(rules) if e.text])
    c.r.raise_if_errors()
    spans = {**rules.spans, **{f"sections.{s.name}.text": s.text.span for s in told if s.text is not None}}
    return dataclasses.replace(rules, sections=tuple(told), spans=spans)


def _read(c: Checker, node: Node | None, named: Mapping[str, int]) -> AuthoredText | None:
    if not isinstance(node, MapNode):
        return None
    texts, spans = [], []
    own = node.span.file == c.resolved.source.path
    unfilled = False  # an inherited text naming a number this spec no longer has
    for k, v in node.entries:
        if k.value in LANGS and isinstance(v, ScalarNode) and isinstance(v.value, str):
            texts.append((str(k.value), v.value))
            spans.append((str(k.value), v.span))
            for piece in pieces(v.value):
                if piece.name is None or piece.name not in named:
                    unfilled = True
                    if own:
                        _placeholder(c, piece, v, named)
    if not texts:
        return None
    order = {lang: i for i, lang in enumerate(LANGS)}
    return AuthoredText(
        tuple(sorted(texts, key=lambda t: order[t[0]])),
        node.span,
        "",
        tuple(sorted(spans, key=lambda t: order[t[0]])),
        stale=unfilled and not own,
    )


def _placeholder(c: Checker, piece: Piece, value: ScalarNode, named: Mapping[str, int]) -> None:
    span = Origin.of_scalar(str(value.value), value.span, c._raw_lines(value.span.file)).at(piece.start, piece.end)
    if piece.name is None:
        c.r.error("E620", "a lone brace in a text (write '{{' or '}}' for a brace, '{NAME}' for a number)", span)
    else:
        c.r.error(
            "E620",
            f"the placeholder '{{{piece.name}}}' names no number of the spec{did_you_mean(piece.name, list(named))}",
            span,
            "a placeholder names a value (`{token_limit}`), a player-count field that is the same "
            "for every row (`{setup.gold}`), `{players.min}` or `{players.max}`",
        )


def _languages(c: Checker, read: list[AuthoredText], among: Iterable[AuthoredText] = ()) -> None:
    """E621: a text of `read` without a language that the spec's other texts (`read` and `among`) have."""
    have = {lang for said in (*read, *among) for lang, _ in said.texts}
    for said in read:
        missing = [lang for lang in LANGS if lang in have and said.get(lang) is None]
        if missing:
            c.r.error(
                "E621",
                f"this text lacks {', '.join(missing)}: the spec's other texts have "
                f"{'it' if len(missing) == 1 else 'them'}",
                said.span,
                "a sheet in a language a text lacks would mix the text with generated phrases",
            )


# --------------------------------------------------------------------------- freshness


Told = Decision | EndTrigger | Definition | PrestigeSource | Variable  # the entries a text may describe


def entries(rules: Rules) -> Iterator[tuple[str, Told]]:
    """(section key, entry) of every entry of the rules that may carry a text."""
    for key, attr in SECTIONS:
        for entry in getattr(rules, attr):
            yield key, entry


def _each(rules: Rules, change: Callable[[str, Any], Any]) -> Rules:
    """The rules with `change(section key, entry)` in place of each entry that may carry a text."""

    def each(key: str, found: tuple[Any, ...]) -> tuple[Any, ...]:
        return tuple(change(key, e) for e in found)

    return dataclasses.replace(
        rules,
        actions=each("actions", rules.actions),
        steps=each("end_of_turn", rules.steps),
        end=each("end", rules.end),
        definitions=each("define", rules.definitions),
        prestige=each("prestige", rules.prestige),
        variables=each("state", rules.variables),
    )


def freshen(rules: Rules, base_rules: Callable[[str], Rules | None]) -> Rules:
    """The rules with every text inherited from a base checked against the rule it was written
    for: a text whose rule the variant changed is marked stale (with where it changed).
    `base_rules(path)` is the nearest base's rule model (None when it cannot be had)."""
    inherited = any(e.text is not None and e.text.span.file != rules.source.path for _, e in entries(rules))
    inherited |= any(s.text is not None and s.text.span.file != rules.source.path for s in rules.sections)
    if not inherited or not rules.bases:
        return rules
    base = base_rules(rules.bases[0].path)
    definitions = {d.name: d for d in rules.definitions}

    def fresh_section(section: SectionText) -> SectionText:
        said = section.text
        if said is None or said.span.file == rules.source.path:
            return section
        was = next((s for s in base.sections if s.name == section.name), None) if base is not None else None
        written = was.text.fingerprint if was is not None and was.text is not None else ""
        stale = said.stale or not written or written != fingerprint(section_rules(rules, section.name), definitions)
        changed = _section_change(rules, section) if stale else None
        return dataclasses.replace(
            section, text=dataclasses.replace(said, fingerprint=written, stale=stale, changed_at=changed)
        )

    rules = dataclasses.replace(rules, sections=tuple(fresh_section(s) for s in rules.sections))

    def fresh(key: str, entry: Any) -> Any:
        said = entry.text
        if said is None or said.span.file == rules.source.path:
            return entry
        was = _twin(base, key, entry.name) if base is not None else None
        written = was.text.fingerprint if was is not None and was.text is not None else ""
        stale = said.stale or not written or written != fingerprint(entry, definitions)
        return dataclasses.replace(
            entry,
            text=dataclasses.replace(
                said, fingerprint=written, stale=stale, changed_at=_change(rules, key, entry) if stale else None
            ),
        )

    return _each(rules, fresh)


def without_texts(rules: Rules) -> Rules:
    """The rules as a sheet tells them with no `text` given: every rule by its generated phrase
    (for a spec author comparing the two, and the tests of the phrases)."""
    rules = dataclasses.replace(rules, sections=())
    return _each(rules, lambda _key, entry: dataclasses.replace(entry, text=None))


def _twin(base: Rules, key: str, name: str) -> Told | None:
    return next((e for k, e in entries(base) if k == key and e.name == name), None)


def _change(rules: Rules, key: str, entry: Told) -> Span | None:
    """Where a variant changed the rule of `entry` (its own fields, or a definition it calls)."""
    calls = called(entry, {d.name: d for d in rules.definitions})
    paths = [f"{key}.{entry.name}"] + [f"define.{d.name}" for d in calls]
    made = [
        c
        for c in rules.changes
        if c.span is not None
        and any(c.path == p or c.path.startswith(p + ".") for p in paths)
        and not c.path.endswith((".title", ".note", ".notation", ".text"))
    ]
    own = [c for c in made if c.file == rules.source.path]  # this spec's change, before its bases'
    return (own or made)[0].span if own or made else entry.span


def _section_change(rules: Rules, section: SectionText) -> Span | None:
    """Where a variant changed a rule that a section it inherits a text for states."""
    paths = SHEET_SECTIONS[section.name]
    made = [
        c
        for c in rules.changes
        if c.span is not None
        and any(c.path == p or c.path.startswith(p + ".") for p in paths)
        and not c.path.endswith((".title", ".note", ".notation", ".text"))
    ]
    own = [c for c in made if c.file == rules.source.path]  # this spec's change, before its bases'
    return (own or made)[0].span if own or made else section.span


# --------------------------------------------------------------------------- warnings


def warnings(rules: Rules, lines: Callable[[str], list[str]]) -> list[Diagnostic]:
    """E623 for each stale text; E622 for a digit, in a text this spec writes, that a placeholder of
    a value its rule reads would give (`lines(file)`: a file's lines, for the carets)."""
    found: list[Diagnostic] = []
    definitions = {d.name: d for d in rules.definitions}
    value_names = [v.name for v in rules.values]
    for key, entry in entries(rules):
        said = entry.text
        if said is None:
            continue
        if said.stale:
            found.append(
                Diagnostic(
                    "E623",
                    f"the text of {key}.{entry.name} describes the rule this spec replaced: the sheets "
                    f"print the generated phrase instead",
                    said.changed_at or entry.span,
                    (f"the text is written at {said.span}; give '{entry.name}' a `text` of its own",),
                    "warning",
                )
            )
        if said.span.file != rules.source.path:
            continue
        read = {name: rules.value(name) for name in values_read(entry, value_names, definitions)}
        for lang, text in said.texts:
            found.extend(_digits(text, dict(said.spans)[lang], read, lines))
    for section in rules.sections:
        found.extend(_section_warnings(rules, section, lines))
    return found


def _section_warnings(rules: Rules, section: SectionText, lines: Callable[[str], list[str]]) -> list[Diagnostic]:
    """E623 for a section's stale text, E622 for a digit in a text this spec writes for a section."""
    said = section.text
    if said is None:
        return []
    found = []
    if said.stale:
        found.append(
            Diagnostic(
                "E623",
                f"the text of sections.{section.name} describes rules this spec changed: the sheets print "
                f"the generated sentences instead",
                said.changed_at or section.span,
                (f"the text is written at {said.span}; give the section a `text` of its own",),
                "warning",
            )
        )
    if said.span.file == rules.source.path:
        definitions = {d.name: d for d in rules.definitions}
        names = values_read(section_rules(rules, section.name), [v.name for v in rules.values], definitions)
        read = {name: rules.value(name) for name in names}
        for lang, text in said.texts:
            found.extend(_digits(text, dict(said.spans)[lang], read, lines))
    return found


def _digits(text: str, span: Span, read: Mapping[str, int], lines: Callable[[str], list[str]]) -> list[Diagnostic]:
    out = []
    inside = [(p.start, p.end) for p in pieces(text)]
    for m in _DIGITS.finditer(text):
        if any(a <= m.start() < b for a, b in inside):
            continue
        names = [name for name, number in read.items() if number == int(m.group(0))]
        if names:
            where = Origin.of_scalar(text, span, lines(span.file)).at(m.start(), m.end())
            out.append(
                Diagnostic(
                    "E622",
                    f"the number {m.group(0)} is written as a digit where the rule's value '{names[0]}' gives it",
                    where,
                    (f"write {{{names[0]}}}, so that a variant changing '{names[0]}' changes the text",),
                    "warning",
                )
            )
    return out
