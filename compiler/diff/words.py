"""The differences in words, in one of the sheet languages (see :mod:`compiler.diff`)."""

from __future__ import annotations

from collections.abc import Mapping

from ..check import texts
from ..diagnostics import Span
from ..language import DOMAINS
from ..model import Decision, Definition, Rules, Text
from ..safe_text import visible
from ..sheets import tables
from ..sheets.phrases import Phraser, describe, explain_definition, state_type_key
from ..sheets.plurals import LANGUAGES as _LANGUAGES
from .record import Difference

# --------------------------------------------------------------------------- words

# The fixed words are the `diff.*` keys of the sheets' language tables
# (compiler/sheets/lang/LANG.yaml), checked by `splendor-rules check` like every other key
# (E601-E604). Expressions and effects are phrased by the sheets' phrases.
LANGUAGES = _LANGUAGES
_PREFIX = "diff."
# The kinds of value (see the Field tuples) whose values are words of the table: diff.enum.KIND.VALUE.
_ENUMS = ("finish", "prefer", "repeat", "resolve", "ties", "domain", "state_type", "state_key", "reset")


class _Strings(Mapping):
    """Language -> the diff's words as nested mappings ("subject" -> "player" -> plural forms).

    A read-only view of the `diff.*` keys of each language table, read on first use;
    :func:`render` reads the tables themselves.
    """

    def __getitem__(self, lang: str) -> dict:
        if lang not in LANGUAGES:
            raise KeyError(lang)
        nested: dict = {}
        for key, entry in tables.load(lang).entries.items():
            if key.startswith(_PREFIX):
                *groups, last = key[len(_PREFIX) :].split(".")
                node = nested
                for group in groups:
                    node = node.setdefault(group, {})
                node[last] = dict(entry) if isinstance(entry, Mapping) else entry
        return nested

    def __iter__(self):
        return iter(LANGUAGES)

    def __len__(self) -> int:
        return len(LANGUAGES)


STRINGS: Mapping[str, dict] = _Strings()


class _Words:
    """Phrases values and subjects in one language, with the `diff.*` texts of its table."""

    def __init__(self, lang: str, titles: dict[str, Text] | None = None):
        self.lang = lang
        self.table = tables.load(lang)
        self.titles = titles or {}  # the declared player-count fields' titles (they have no words in the table)

    def __call__(self, key: str, n: int | None = None, **fields) -> str:
        """The text of `diff.KEY`, in the plural form for `n`, with its placeholders filled."""
        return self.table.text(_PREFIX + key, n, **fields)

    def text(self, t: Text | None) -> str:
        return "" if t is None else (t.get(self.lang) or t.en)

    def phrase(self, node, rules: Rules, decision: Decision | None, main_clause: bool = False) -> str:
        return describe(node, self.lang, rules, decision, main_clause)

    def value(self, kind: str, v, rules: Rules, subject: tuple = ()) -> str:
        if kind == "first_player":  # unsaid, the sheets tell the players to agree who starts
            return self.text(v) if v is not None else self("first_player.unsaid")
        if kind == "worth" and v is None:  # a payment without a worth: each wild token stands for one gem
            return "1"
        if v is None:
            return self("none")
        decision = _decision_of(subject, rules)
        if kind == "worth":
            return self.phrase(v, rules, decision, main_clause=True)
        if kind == "expr":  # shown on its own, not after "if"
            return self.phrase(v, rules, decision, main_clause=True)
        if kind == "wilds":  # the components a payment may spend, phrased as the sheets phrase them
            return Phraser(self.lang, rules, decision, table=self.table).wilds(v)
        if kind == "price":  # an expression of the gem colour `c`, phrased as the sheets phrase it
            return Phraser(self.lang, rules, decision, table=self.table).price(v)
        if kind == "effects":
            return self("effects_join").join(self.phrase(x, rules, decision) for x in v) if v else self("nothing")
        if kind == "text":
            return self.text(v)
        if kind == "rule_text":  # (language, text) pairs: in this language (else English), as this side reads it
            said = dict(v)
            text = said.get(self.lang) or said.get("en") or next(iter(said.values()))
            return texts.fill(text, texts.numbers(rules.values, rules.players, rules.player_fields))
        if kind == "initial":  # a variable's first value: its type says how to read it
            return self._initial(v, rules)
        if kind == "bool":
            return self("yes") if v else self("no")
        if kind == "list":
            return ", ".join(v)
        if kind in ("cards", "tiles", "components"):
            return self(f"count.{kind}", v)
        if kind == "params":  # a definition's parameters, as the spec writes their types
            return ", ".join(f"{name}: {t}" for name, t in v) or self("nothing")
        if kind == "limit":  # a queued step's longest chain, or none
            return self("none") if v is None else str(v)
        if kind == "definition" and v is None:  # a procedure that was a value, or the other way round
            return self("nothing")
        if kind == "definition":  # what a definition means, its parameters in words
            params, body = v
            shown = Definition("", Text(""), params, body, None, body.span)
            return explain_definition(shown, self.lang, rules, self.table)[1]
        if kind == "choices":
            return ", ".join(f"{name} ({self.domain(domain)})" for name, domain in v) or self("nothing")
        if kind == "position":
            where, name = v
            return self("position.first") if where == "first" else self("position.after", name=name)
        if kind == "domain" and v in DOMAINS:
            return self.domain(v)
        if kind in _ENUMS:  # a value the table has no words for is shown as written
            key = f"enum.{kind}.{v}"
            return self(key) if self.table.has(_PREFIX + key) else str(v)
        return str(v)

    def domain(self, name: str) -> str:
        """A choice's domain in words, by its declaration's phrase key (compiler/language/domains.py)."""
        return self.table.text(DOMAINS[name].phrase)

    def _initial(self, v, rules: Rules) -> str:
        t, value = v
        key = state_type_key(t)
        if key.startswith("set_"):
            return self("state.empty")
        if value is None:
            return self("none")
        if key == "flag":
            return self("yes") if value else self("no")
        if key in ("gem", "colour"):
            return tables.load(self.lang).text(f"colour.{rules.colours[value]}")
        return str(value + 1 if key == "player" else value)

    def subject(self, subject: tuple) -> str:
        kind, name, title = subject[:3]
        if kind == "player":
            return self("subject.player", name, name=name)
        if kind == "section":  # an ordered section: "end_of_turn" or "winners.ranking"
            return self(f"things.{name.rsplit('.', 1)[-1]}")
        if kind == "param":
            okind, oname, otitle = subject[3:6]
            return self("subject.param", name=name, owner=self(f"owner.{okind}", title=self.text(otitle) or oname))
        return self(f"subject.{kind}", name=name, title=self.text(title) or name)

    def field(self, d: Difference) -> str:
        return self.field_name("gem_colours" if d.path == "components.gems" else d.field or "")

    def field_name(self, field: str) -> str:
        """A field's words: the table's, or a declared player-count field's title in this language."""
        title = self.titles.get(field)
        return self.text(title) if title is not None else self("field." + field)


def _decision_of(subject: tuple, rules: Rules) -> Decision | None:
    """The action or step whose choices an expression of `subject` may name."""
    if subject[:1] in (("action",), ("step",)):
        kind, name = subject[:2]
    elif subject[:1] == ("param",):
        kind, name = subject[3:5]
    else:
        return None
    decisions = rules.actions if kind == "action" else rules.steps
    return next((d for d in decisions if d.name == name), None)


def _loc(span: Span | None) -> str:
    return f"{span.file}:{span.line}" if span is not None else "?"


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def only_texts(diffs: list[Difference]) -> bool:
    """Whether the rules are the same and only their texts for players (`text`) differ."""
    return bool(diffs) and all(d.kind == "changed" and d.field == "text" for d in diffs)


def render(diffs: list[Difference], a: Rules, b: Rules, lang: str = "en") -> str:
    """The differences in words, grouped by section and by rule; empty text when there are none."""
    if not diffs:
        return ""
    w = _Words(lang, {f.name: f.title for f in a.player_fields + b.player_fields})
    lines = [w("header", a=w.text(a.title), pa=a.source.path, b=w.text(b.title), pb=b.source.path)]
    section = None
    i = 0
    while i < len(diffs):
        d = diffs[i]
        top = d.path.split(".")[0]
        if top != section:
            section = top
            lines += ["", w(f"section.{top}")]
        group = [d]
        if d.kind == "changed":  # the changed fields of one rule are shown together
            while (
                i + len(group) < len(diffs)
                and diffs[i + len(group)].kind == "changed"
                and diffs[i + len(group)].subject == d.subject
            ):
                group.append(diffs[i + len(group)])
        i += len(group)
        subject = w.subject(d.subject)
        if d.kind == "changed":
            lines.append("- " + _cap(subject))
            for c in group:
                indent = "    "
                if c.field != "value":
                    lines.append(f"    {w.field(c)}")
                    indent = "      "
                (kind_before, before), (kind_after, after) = c.before, c.after
                lines.append(indent + w("before", v=w.value(kind_before, before, a, c.subject), at=_loc(c.before_at)))
                lines.append(indent + w("after", v=w.value(kind_after, after, b, c.subject), at=_loc(c.after_at)))
        elif d.kind == "added":
            lines.append("- " + w("added", subject=subject, at=_loc(d.after_at)))
            for field, value, kind in d.details:
                lines.append("    " + w("detail", field=w.field_name(field), v=w.value(kind, value, b, d.subject)))
        elif d.kind == "removed":
            lines.append("- " + w("removed", subject=subject, at=_loc(d.before_at)))
        else:  # order
            lines.append("- " + _cap(w("order", things=subject)))
            lines.append("    " + w("before", v=", ".join(d.before), at=_loc(d.before_at)))
            lines.append("    " + w("after", v=", ".join(d.after), at=_loc(d.after_at)))
        for note in dict.fromkeys(c.note for c in group if c.note is not None):
            lines.append("    " + w("note", v=w.text(note)))
    lines += ["", w("total", len(diffs))]
    if only_texts(diffs):
        lines.append(w("only_texts"))
    # Each line one line: a spec's file name or text holding a line break cannot forge another.
    return "\n".join(visible(line) for line in lines) + "\n"
