"""The differences of two rule models, rule by rule (see :mod:`compiler.diff`)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import Any

from ..check.kinds import BASE_KINDS
from ..check.texts import SHEET_SECTIONS
from ..check.types import MapOf
from ..check.variables import key_name
from ..diagnostics import Span
from ..model import AuthoredText, Decision, Rules
from ..sheets.phrases import state_type_key
from .kinds import kinds_differences
from .record import Difference

# --------------------------------------------------------------------------- differences


def compare(a: Rules, b: Rules) -> list[Difference]:
    """Every rule that differs between `a` (before) and `b` (after), in spec order."""
    out: list[Difference] = []
    out += _components(a, b)
    out += kinds_differences(a, b)
    out += _tables(a, b)
    out += _decisions(a, b, "actions", a.actions, b.actions, ordered=True)
    out += _decisions(a, b, "end_of_turn", a.steps, b.steps, ordered=True)
    out += _sections(a, b)
    out += _sheet_sections(a, b)
    out += _winners(a, b)
    out += _first_player(a, b)
    out += _said(a, b, "interpretations", "interpretation")
    out += _said(a, b, "handling", "handling")
    return [_with_note(d, a, b) for d in out]


def _tables(a: Rules, b: Rules) -> list[Difference]:
    """The player fields, the player-count table (with the fields a spec declares) and the values."""
    out = _keyed(
        a,
        b,
        "player_fields",
        a.player_fields,
        b.player_fields,
        lambda f: f.name,
        (("title", lambda f: f.title, "text", None),),
        lambda f: ("player_field", f.name, f.title),
        ordered=False,
    )
    out += _keyed(
        a,
        b,
        "players",
        a.players,
        b.players,
        lambda p: p.players,
        _PLAYER_FIELDS + _declared_fields(a, b),
        lambda p: ("player", p.players, None),
        ordered=False,
    )
    out += _keyed(
        a,
        b,
        "values",
        a.values,
        b.values,
        lambda v: v.name,
        _VALUE_FIELDS,
        lambda v: ("value", v.name, None),
        ordered=False,
    )
    return out


def _sections(a: Rules, b: Rules) -> list[Difference]:
    """Zones, setup, state, end triggers, definitions and prestige sources: named elements with a title."""
    out: list[Difference] = []
    for section, attribute, fields, subject, ordered in _SECTIONS:
        out += _keyed(
            a,
            b,
            section,
            getattr(a, attribute),
            getattr(b, attribute),
            lambda e: e.name,
            fields,
            lambda e, subject=subject: (subject, e.name, e.title),
            ordered=ordered,
        )
    return out


@dataclass(frozen=True)
class _Told:
    """A section of the sheets as `diff` compares it: its text, none where the spec gives none."""

    name: str
    text: AuthoredText | None
    span: Span | None


def _sheet_sections(a: Rules, b: Rules) -> list[Difference]:
    """The sections of the sheets told whole in words (`sections`), compared by their texts; a section
    without a text on one side reads none, so a text given or reworded is a changed text, not a rule."""

    def each(rules: Rules) -> list[_Told]:
        own = {s.name: s for s in rules.sections}
        return [
            _Told(name, own[name].text, own[name].span) if name in own else _Told(name, None, None)
            for name in SHEET_SECTIONS
        ]

    return _keyed(
        a,
        b,
        "sections",
        each(a),
        each(b),
        lambda e: e.name,
        (_TEXT,),
        lambda e: ("sheet_section", e.name, None),
        ordered=False,
    )


def _first_player(a: Rules, b: Rules) -> list[Difference]:
    """Who takes the first turn, in words: a rule of the table (the final round is counted from
    that player), so a variant that changes only it does not read as the same rules."""
    if a.first_player == b.first_player:
        return []
    return [
        Difference(
            "changed",
            "first_player",
            ("first_player", None, None),
            "value",
            ("first_player", a.first_player),
            ("first_player", b.first_player),
            a.spans.get("first_player"),
            b.spans.get("first_player"),
        )
    ]


def _said(a: Rules, b: Rules, section: str, subject: str) -> list[Difference]:
    """Texts of a list `section` (the readings of silent rules, the handling lines) that one side
    states and the other does not (by their English text)."""
    out = []
    said_a, said_b = getattr(a, section), getattr(b, section)
    after = {t.en for t in said_b}
    before = {t.en for t in said_a}
    for i, t in enumerate(said_a):
        if t.en not in after:
            out.append(
                Difference(
                    "removed",
                    f"{section}.{i}",
                    (subject, i + 1, t),
                    None,
                    before_at=a.spans.get(f"{section}.{i}"),
                )
            )
    for i, t in enumerate(said_b):
        if t.en not in before:
            out.append(
                Difference(
                    "added",
                    f"{section}.{i}",
                    (subject, i + 1, t),
                    None,
                    after_at=b.spans.get(f"{section}.{i}"),
                )
            )
    return out


# A field: (name, getter, kind of value for phrasing, path of its own span in Rules.spans or None).
Field = tuple[str, Callable, str, str | None]

_PLAYER_FIELDS: tuple[Field, ...] = (
    ("gems", lambda p: p.gems, "int", None),
    ("gold", lambda p: p.gold, "int", None),
    ("nobles", lambda p: p.nobles, "int", None),
    ("face_up", lambda p: p.face_up, "int", None),
)


def _declared_fields(a: Rules, b: Rules) -> tuple[Field, ...]:
    """The player-count fields either side declares (player_fields), compared row by row like the
    built-in ones; a row of the side that lacks the field reads none."""
    names = dict.fromkeys(f.name for f in a.player_fields + b.player_fields)
    return tuple((name, lambda p, n=name: dict(p.fields).get(n), "int", None) for name in names)


_VALUE_FIELDS: tuple[Field, ...] = (("value", lambda v: v.value, "int", None),)
# A rule's own text for players (`text`): compared by its words in every language, not where it is written.
_TEXT: Field = ("text", lambda e: e.text.texts if e.text is not None else None, "rule_text", None)
_TRIGGER_FIELDS: tuple[Field, ...] = (
    ("title", lambda t: t.title, "text", None),
    ("when", lambda t: t.when, "expr", None),
    ("finish", lambda t: t.finish, "finish", None),
    _TEXT,
)
_SETUP_FIELDS: tuple[Field, ...] = (
    ("title", lambda s: s.title, "text", None),
    ("each_player", lambda s: s.each_player, "bool", None),
    ("effects", lambda s: s.effects, "effects", None),
)


_does: Callable[[Any], bool] = lambda d: str(d.result) == "list of effects"  # noqa: E731 - a procedure (`do:`)
_DEFINE_FIELDS: tuple[Field, ...] = (
    ("title", lambda d: d.title, "text", None),
    ("params", lambda d: tuple((p, str(t)) for p, t in d.params), "params", None),
    ("meaning", lambda d: None if _does(d) else (d.params, d.body), "definition", "meaning"),  # a value's, or:
    ("does", lambda d: (d.params, d.body) if _does(d) else None, "definition", "meaning"),
    _TEXT,
)
_PRESTIGE_FIELDS: tuple[Field, ...] = (
    ("title", lambda s: s.title, "text", None),
    ("amount", lambda s: s.by, "expr", "by"),
    _TEXT,
)
_STATE_FIELDS: tuple[Field, ...] = (
    ("title", lambda v: v.title, "text", None),
    ("type", lambda v: state_type_key(v.type), "state_type", None),
    ("per_player", lambda v: v.per_player, "bool", None),
    ("keyed_by", lambda v: key_name(v.type.key) if isinstance(v.type, MapOf) else None, "state_key", None),
    ("initial", lambda v: (v.type.value if isinstance(v.type, MapOf) else v.type, v.initial), "initial", None),
    ("optional", lambda v: v.optional, "bool", None),
    ("reset", lambda v: v.reset, "reset", None),
    ("private", lambda v: v.private, "bool", None),
    ("display", lambda v: v.display, "bool", None),
    ("bonus_colour", lambda v: v.bonus_colour, "bool", None),
    _TEXT,
)
_ZONE_FIELDS: tuple[Field, ...] = (  # the spec's own zones (compiler/check/zones.py)
    ("title", lambda z: z.title, "text", None),
    ("holds", lambda z: z.holds, "name", None),
    ("shape", lambda z: z.shape, "name", None),
    ("size", lambda z: ", ".join(dict.fromkeys(str(n) for _, n in z.sizes)) or None, "name", None),
    ("source", lambda z: z.source or None, "name", None),
    ("start", lambda z: None if z.place else z.start, "name", None),
    ("per_player", lambda z: z.per_player, "bool", None),
    ("limit", lambda z: z.limit or None, "int", None),
    ("private_when_drawn", lambda z: z.private_when_drawn, "bool", None),
    ("place", lambda z: z.place or None, "name", None),
    ("split_by", lambda z: z.by or None, "name", None),  # `by`: one zone per value of the column
)
_RANK_FIELDS: tuple[Field, ...] = (
    ("title", lambda r: r.title, "text", None),
    ("by", lambda r: r.by, "expr", None),
    ("prefer", lambda r: r.prefer, "prefer", None),
)
_PARAM_FIELDS: tuple[Field, ...] = (
    ("domain", lambda p: p.domain, "domain", None),
    ("min", lambda p: p.min, "int", None),
    ("max", lambda p: p.max, "int", None),
    ("optional", lambda p: p.optional, "bool", None),
    ("price", lambda p: p.price, "price", None),
    ("slots", lambda p: p.slots, "int", None),
    ("worth", lambda p: p.worth, "worth", None),
    ("wilds", lambda p: p.wilds, "wilds", None),
)
_ACTION_FIELDS: tuple[Field, ...] = (
    ("title", lambda d: d.title, "text", None),
    ("notation", lambda d: d.notation, "code", None),
    ("condition", lambda d: d.condition, "expr", "condition"),
    ("effects", lambda d: d.effects, "effects", "effects"),
    ("only_when_stuck", lambda d: d.only_when_stuck, "bool", None),
    ("ends_turn", lambda d: d.ends_turn, "bool", None),
    _TEXT,
)
_STEP_FIELDS: tuple[Field, ...] = _ACTION_FIELDS[:-3] + (
    ("while", lambda d: d.while_, "expr", None),
    ("repeat", lambda d: "queued" if d.given is not None and d.repeat == "once" else d.repeat, "repeat", None),
    ("resolve", lambda d: d.resolve, "resolve", None),
    ("max_actions", lambda d: d.max_, "expr", "max"),
    ("given", lambda d: tuple((p, str(t)) for p, t in d.given or ()), "params", None),  # a queued step's
    ("chain_limit", lambda d: d.limit, "limit", "limit"),
    _TEXT,
)


# The named sections compared element by element, after the actions and steps, in spec order:
# (section, attribute of Rules, fields, kind of subject, ordered).
_SECTIONS: tuple[tuple[str, str, tuple[Field, ...], str, bool], ...] = (
    ("zones", "zones", _ZONE_FIELDS, "zone", True),
    ("setup", "setup", _SETUP_FIELDS, "setup", True),
    ("state", "variables", _STATE_FIELDS, "state", False),
    ("end", "end", _TRIGGER_FIELDS, "trigger", True),
    ("define", "definitions", _DEFINE_FIELDS, "definition", False),
    ("prestige", "prestige", _PRESTIGE_FIELDS, "prestige", False),
)


def _at(rules: Rules, path: str, node: object, fallback: Span | None) -> Span | None:
    """Where `rules` defines the rule at `path`: its recorded span, the node's own, or the element's."""
    if path in rules.spans:
        return rules.spans[path]
    span = getattr(node, "span", None)
    return span if span is not None else fallback


def _relevant(field: str, element) -> bool:
    """Whether an added element's field is worth listing: a parameter's options that its domain uses."""
    if field == "max_actions":  # a step's bound, listed where it has one
        return element.max_ is not None
    if field in ("given", "chain_limit"):  # a queued step's, listed where it has them
        return (element.given if field == "given" else element.limit) is not None
    if field in ("meaning", "does"):  # a definition's meaning, or a procedure's effects
        return (field == "does") == _does(element)
    domain = getattr(element, "domain", None)
    if domain is None:
        return True
    return {
        "min": domain == "gem_set",
        "max": domain == "gem_set",
        "price": domain == "payment",
        "slots": domain == "reserved",
        "optional": bool(element.optional),
        "worth": getattr(element, "worth", None) is not None,
        "wilds": getattr(element, "wilds", None) is not None,
    }.get(field, True)


def _keyed(
    a: Rules,
    b: Rules,
    section: str,
    xs: Iterable,
    ys: Iterable,
    key: Callable,
    fields: tuple[Field, ...],
    subject: Callable,
    ordered: bool,
    owner: tuple = (),
) -> list[Difference]:
    xs, ys = list(xs), list(ys)
    amap, bmap = {key(x): x for x in xs}, {key(y): y for y in ys}
    out: list[Difference] = []
    for x in xs:
        if key(x) not in bmap:
            path = f"{section}.{key(x)}"
            out.append(Difference("removed", path, subject(x) + owner, None, before_at=_at(a, path, None, x.span)))
    names_b = [key(y) for y in ys]
    for i, y in enumerate(ys):
        name = key(y)
        path = f"{section}.{name}"
        if name not in amap:
            details = tuple((f, g(y), k) for f, g, k, _ in fields if f != "title" and _relevant(f, y))
            if ordered:  # where it stands matters (steps run, levels break ties, in order)
                details = (("position", ("after", names_b[i - 1]) if i > 0 else ("first", None), "position"),) + details
            out.append(
                Difference(
                    "added", path, subject(y) + owner, None, after_at=_at(b, path, None, y.span), details=details
                )
            )
            continue
        x = amap[name]
        for field, get, kind, sub in fields:
            if get(x) != get(y):
                sub_path = f"{path}.{sub or field}"
                out.append(
                    Difference(
                        "changed",
                        f"{path}.{field}",
                        subject(y) + owner,
                        field,
                        (kind, get(x)),
                        (kind, get(y)),
                        _at(a, sub_path, get(x), x.span),
                        _at(b, sub_path, get(y), y.span),
                    )
                )
    if ordered:
        common_a = [key(x) for x in xs if key(x) in bmap]
        common_b = [key(y) for y in ys if key(y) in amap]
        if common_a != common_b:
            out.append(
                Difference(
                    "order",
                    f"{section}.order",
                    ("section", section, None) + owner,
                    None,
                    [key(x) for x in xs],
                    [key(y) for y in ys],
                    _at(a, section, None, xs[0].span if xs else None),
                    _at(b, section, None, ys[0].span if ys else None),
                )
            )
    return out


def _decisions(
    a: Rules, b: Rules, section: str, xs: tuple[Decision, ...], ys: tuple[Decision, ...], ordered: bool
) -> list[Difference]:
    kind = "action" if section == "actions" else "step"
    fields = _ACTION_FIELDS if kind == "action" else _STEP_FIELDS
    out = _keyed(a, b, section, xs, ys, lambda d: d.name, fields, lambda d: (kind, d.name, d.title), ordered)
    added = {d.path for d in out if d.kind == "added"}
    for i, d in enumerate(out):  # an added decision lists its choices too
        if d.kind == "added":
            decision = next(y for y in ys if f"{section}.{y.name}" == d.path)
            choices = tuple((p.name, p.domain) for p in decision.params)
            out[i] = replace(d, details=d.details[:1] + (("choose", choices, "choices"),) + d.details[1:])
    bmap = {y.name: y for y in ys}
    for x in xs:
        y = bmap.get(x.name)
        if y is None or f"{section}.{x.name}" in added:
            continue
        out += _keyed(
            a,
            b,
            f"{section}.{x.name}.choose",
            x.params,
            y.params,
            lambda p: p.name,
            _PARAM_FIELDS,
            lambda p: ("param", p.name, None),
            ordered=False,
            owner=(kind, y.name, y.title),
        )
    return _in_spec_order(out, [f"{section}.{y.name}" for y in ys] + [f"{section}.{x.name}" for x in xs])


def _in_spec_order(diffs: list[Difference], prefixes: list[str]) -> list[Difference]:
    def rank(d: Difference) -> int:
        for i, p in enumerate(prefixes):
            if d.path == p or d.path.startswith(p + "."):
                return i
        return len(prefixes)

    return sorted(diffs, key=rank)  # stable: fields keep their order within an element


def _components(a: Rules, b: Rules) -> list[Difference]:
    out = []
    subject = ("components", None, None)
    if a.gems != b.gems:
        out.append(Difference("changed", "components.gems", subject, "gems", ("list", a.gems), ("list", b.gems)))
    if a.wild != b.wild:
        out.append(Difference("changed", "components.wild", subject, "wild", ("code", a.wild), ("code", b.wild)))

    def cards(r: Rules):
        return tuple((c.level, r.gems[c.bonus], c.points, tuple(zip(r.gems, c.cost, strict=True))) for c in r.cards)

    def nobles(r: Rules):
        return tuple((n.points, tuple(zip(r.gems, n.requires, strict=True))) for n in r.nobles)

    if cards(a) != cards(b):
        out.append(
            Difference(
                "changed",
                "components.cards",
                subject,
                "cards",
                ("cards", len(a.cards)),
                ("cards", len(b.cards)),
                a.cards[0].span if a.cards else None,
                b.cards[0].span if b.cards else None,
            )
        )
    if nobles(a) != nobles(b):
        out.append(
            Difference(
                "changed",
                "components.nobles",
                subject,
                "noble_tiles",
                ("tiles", len(a.nobles)),
                ("tiles", len(b.nobles)),
                a.nobles[0].span if a.nobles else None,
                b.nobles[0].span if b.nobles else None,
            )
        )
    return out


def _winners(a: Rules, b: Rules) -> list[Difference]:
    wa, wb = a.winners, b.winners
    out = []
    subject = ("winners", None, None)
    if wa.eligible != wb.eligible:
        out.append(
            Difference(
                "changed",
                "winners.eligible",
                subject,
                "eligible",
                ("expr", wa.eligible),
                ("expr", wb.eligible),
                getattr(wa.eligible, "span", wa.span),
                getattr(wb.eligible, "span", wb.span),
            )
        )
    out += _keyed(
        a,
        b,
        "winners.ranking",
        wa.ranking,
        wb.ranking,
        lambda r: r.name,
        _RANK_FIELDS,
        lambda r: ("rank", r.name, r.title),
        ordered=True,
    )
    if wa.ties != wb.ties:
        out.append(
            Difference(
                "changed", "winners.ties", subject, "ties", ("ties", wa.ties), ("ties", wb.ties), wa.span, wb.span
            )
        )
    return out


# The differences of a base kind's table are shown under `components`; a variant may change it in `kinds`.
_BASE_KIND_PATHS = {f"components.{k}": f"kinds.{k}" for k in BASE_KINDS}


def _with_note(d: Difference, a: Rules, b: Rules) -> Difference:
    """The note of the variant change that explains `d` (the nearest recorded change)."""
    best = None
    for rules in (b, a):
        for ch in rules.changes:
            if ch.note is None:
                continue
            moved = ch.path.endswith(".position") and d.path == ch.path.rsplit(".", 2)[0] + ".order"
            for path in (d.path, _BASE_KIND_PATHS.get(d.path, d.path)):
                if moved or path == ch.path or path.startswith(ch.path + ".") or ch.path.startswith(path + "."):
                    score = (path == ch.path, len(ch.path))
                    if best is None or score > best[0]:
                        best = (score, ch.note)
        if best is not None:
            break
    if best is None:
        return d
    return replace(d, note=best[1])
