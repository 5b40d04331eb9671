"""Pass 2b, overlay: the shape of a spec, as the overlay merges it (read from rulespec/schema.json).

A :class:`Shape` says how the overlay treats a mapping: `fixed` fields merged field by field,
or a `keyed` collection matched by key, with what each entry may carry (add/remove/before/after,
lists edited with {prepend, append}, a shorthand). :func:`shapes` builds the shape of a variant
document from the schema, the one reference of the format; :mod:`compiler.front.overlay` merges
by it and :mod:`app.scaffold` lists a section's fields from it.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

from . import schema

BOOKKEEPING = ("add", "remove", "before", "after")
LIST_EDITS = ("prepend", "append")  # the keys of a list edited in place, in the order they apply


@dataclass(frozen=True)
class Shape:
    """How the overlay treats a mapping: ``fixed`` fields, or a ``keyed`` collection."""

    kind: str  # "fixed" or "keyed"
    label: str  # what one of these is called in messages ("an action")
    fields: dict[str, Shape | None] = field(default_factory=dict)  # fixed: field -> shape (None: replaced)
    entry: Shape | None = None  # keyed: the shape of each entry
    # fixed: a field that only makes sense with another field's value: field -> (field, values)
    requires: dict[str, tuple[str, tuple[str, ...]]] = field(default_factory=dict)
    is_entry: bool = False  # an entry of a keyed collection (may carry add/remove/before/after)
    is_value: bool = False  # an entry of `values` (a number, or {value, note})
    shorthand: str = ""  # an entry that may be written as one field's value alone: `colour: gem` is {domain: gem}
    lists: frozenset[str] = frozenset()  # fixed: list fields a variant may edit with {prepend, append}
    movable: bool = False  # keyed: an existing entry may be moved with before/after (an ordered collection)
    # fixed: name patterns of further fields (replaced) the schema accepts besides `fields` (a player-count
    # row's declared fields, `cities: 3`): which names are declared is for check to say (E543)
    patterns: tuple[str, ...] = ()

    def has(self, name: object) -> bool:
        """Whether the mapping may have the field `name`: a named one, or one matching a pattern."""
        return (
            name in self.fields or isinstance(name, str) and any(schema.pattern_matches(p, name) for p in self.patterns)
        )

    def part(self, name: str) -> Shape:
        """The shape of a merged field the schema defines (its absence is a bug in the schema)."""
        found = self.fields.get(name)
        if found is None:
            raise LookupError(f"the schema gives {self.label} no merged field '{name}'")
        return found

    def each(self) -> Shape:
        """The shape of one entry of a keyed collection."""
        if self.entry is None:
            raise LookupError(f"{self.label} is not a keyed collection")
        return self.entry


# Which fields the overlay merges rather than replaces: a keyed collection (by key) or a
# fixed mapping (field by field), with the schema definition of one entry or of the mapping.
# The field names themselves come from rulespec/schema.json, the one reference of the format.
_NESTED = {
    "variant": {
        "components": ("fixed", "#components"),
        "kinds": ("keyed", "kind_change"),
        "players": ("keyed", "player_count_change"),
        "player_fields": ("keyed", "player_field_change"),
        "values": ("keyed", "value_change"),
        "actions": ("keyed", "action_change"),
        "end_of_turn": ("keyed", "step_change"),
        "end": ("keyed", "trigger_change"),
        "setup": ("keyed", "setup_block_change"),
        "state": ("keyed", "variable_change"),
        "define": ("keyed", "definition_change"),
        "prestige": ("keyed", "prestige_source_change"),
        "zones": ("keyed", "zone_change"),
        "winners": ("fixed", "winners_change"),
        "sections": ("fixed", "section_texts"),
    },
    "action_change": {"choose": ("keyed", "param_change")},
    "step_change": {"choose": ("keyed", "param_change")},
    "winners_change": {"ranking": ("keyed", "rank_level_change")},
}
_LABELS = {
    "variant": ("a spec", ""),
    "#components": ("the components", ""),
    "winners_change": ("the winners", ""),
    "section_texts": ("the sections told in words", ""),
    "player_count_change": ("a player count", "player count"),
    "value_change": ("a value", "value"),
    "player_field_change": ("a player-count field", "player-count field"),
    "action_change": ("an action", "action"),
    "step_change": ("an end-of-turn step", "end-of-turn step"),
    "trigger_change": ("an end trigger", "end trigger"),
    "rank_level_change": ("a ranking level", "ranking level"),
    "param_change": ("a choice", "choice"),
    "kind_change": ("a kind", "kind"),
    "setup_block_change": ("a setup block", "setup block"),
    "variable_change": ("a variable", "variable"),
    "definition_change": ("a definition", "definition"),
    "prestige_source_change": ("a prestige source", "prestige source"),
    "zone_change": ("a zone", "zone"),
}


# Entries that may be written as the value of one field (rulespec/README.md): a value's number
# (`target: 12`) and a choice's domain (`colour: gem`).
_SHORTHANDS = {"value_change": "value", "param_change": "domain"}


def object_schema(defn: dict) -> dict:
    """The object form of a definition (a value is `12` or `{value: 12, ...}`)."""
    if "properties" in defn:
        return defn
    return next((alt for alt in defn.get("anyOf", []) if "properties" in alt), {"properties": {}})


def _requires(defn: dict) -> dict[str, tuple[str, tuple[str, ...]]]:
    """Fields the schema allows only with another field's value (``if domain is not payment
    then no price``); the schema cannot see it in a partial change that leaves out ``domain``."""
    out: dict[str, tuple[str, tuple[str, ...]]] = {}
    for rule in defn.get("allOf", []):
        test, then = rule.get("if", {}), rule.get("then", {})
        for other, cond in test.get("properties", {}).items():
            allowed = cond.get("not", {}).get("const")
            if allowed is None:
                continue
            for name, forbidden in then.get("properties", {}).items():
                if forbidden.get("not") == {}:
                    out[name] = (other, (allowed,))
    return out


def _edits_a_list(prop: dict, defs: dict) -> bool:
    """Whether a schema property also takes ``{prepend, append}`` (a list edited in place)."""
    ref = prop.get("$ref", "")
    defn = defs.get(ref.rsplit("/", 1)[-1], {}) if ref.startswith("#/$defs/") else prop
    return any(set(LIST_EDITS) <= set(alt.get("properties", {})) for alt in defn.get("anyOf", []))


def _movable(defn: dict) -> bool:
    """Whether an existing entry may take before/after: the schema does not tie them to ``add``
    (nor forbid them, as it does for player counts, which are kept in order)."""
    obj = object_schema(defn)
    before = obj.get("properties", {}).get("before")
    return before is not None and before.get("not") != {} and "before" not in obj.get("dependentRequired", {})


@functools.cache
def shapes() -> Shape:
    """The shape of a variant document, built from rulespec/schema.json."""
    defs = schema.load_schema()["$defs"]

    def build(ref: str, is_entry: bool) -> Shape:
        defn = defs["variant"]["properties"]["components"] if ref == "#components" else object_schema(defs[ref])
        nested = _NESTED.get(ref, {})
        fields: dict[str, Shape | None] = {}
        for name in defn.get("properties", {}):
            if name in BOOKKEEPING:
                continue
            kind, sub = nested.get(name, ("", ""))
            if kind == "keyed":
                fields[name] = Shape("keyed", _LABELS[sub][1], entry=build(sub, True), movable=_movable(defs[sub]))
            elif kind == "fixed":
                fields[name] = build(sub, False)
            else:
                fields[name] = None
        lists = frozenset(name for name, prop in defn.get("properties", {}).items() if _edits_a_list(prop, defs))
        return Shape(
            "fixed",
            _LABELS[ref][0],
            fields,
            requires=_requires(object_schema(defs.get(ref, {}))),
            is_entry=is_entry,
            is_value=ref == "value_change",
            lists=lists,
            shorthand=_SHORTHANDS.get(ref, ""),
            patterns=tuple(defn.get("patternProperties", {})),
        )

    return build("variant", False)
