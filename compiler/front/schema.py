"""Pass 2, schema: a loaded document checked against ``rulespec/schema.json``.

Takes the :class:`~compiler.front.source.Document` of pass 1 (a tree of nodes with spans);
returns nothing when the document has the shape of a spec (or of a variant, when it
has ``extends``) and raises :class:`~compiler.diagnostics.CompileError` with *every*
schema violation otherwise. After this pass, later passes may rely on the shape: a
decision's ``effects`` is a list of strings, a player-count entry holds four whole
numbers, and so on.

jsonschema reports a violation at a path (``actions/take_pair/conditon``); this pass
walks that path down the node tree to point at the node the user wrote, and turns the
validator's words into the project's (codes E1xx):

- an unknown key points at the key, with a "did you mean";
- a wrong type points at the value and says what was expected, in words;
- a missing key points at the key of the mapping that lacks it;
- a value outside an enumeration lists the allowed values.

Codes: E100 the root is not a mapping, E101 unknown key, E102 missing key(s), E103 wrong
type, E105 malformed name, E106 value not among the allowed ones, E108 number out of
range, E109 empty text/list/table, E110 an item listed twice, E111 a key that does not fit
with the others (``min`` outside ``gem_set``, ``add`` in a full spec...), E113 a key given
both as text and as a number. :mod:`compiler.codes` defines every code.

:func:`leave_out` then says what the later passes may still check: the tree without the
entries (actions, steps, end triggers, ranking levels) the violations are about.

``x-expected``, ``x-error`` and ``x-key-noun`` in the schema are hints for these
messages; jsonschema ignores them.
"""

from __future__ import annotations

import functools
import json
import re
from collections import defaultdict
from collections.abc import Iterable
from importlib import resources

import jsonschema
from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError, best_match

from ..diagnostics import CompileError, Diagnostic, Span, did_you_mean, sorted_diagnostics
from .source import Document, MapNode, Node, ScalarNode, SeqNode

# Keys a variant may put on a keyed-collection entry and a full spec may not.
OVERLAY_KEYS = ("add", "remove", "before", "after")

# Keyed collections (path of the collection -> what one entry is called in messages).
_ENTRY_KINDS = {
    ("players",): "player count",
    ("values",): "value",
    ("actions",): "action",
    ("end_of_turn",): "step",
    ("end",): "end trigger",
    ("winners", "ranking"): "ranking level",
}
# List keys whose items have a name of their own in messages.
_ITEM_NOUNS = {"effects": "effect", "interpretations": "interpretation", "gems": "gem"}


@functools.cache
def load_schema() -> dict:
    """The JSON Schema of the spec format (rulespec/schema.json)."""
    text = resources.files("rulespec").joinpath("schema.json").read_text(encoding="utf-8")
    return json.loads(text)


def _is_integer(checker, instance) -> bool:
    # jsonschema counts 4.0 as an integer and YAML reads `4.0` as a float: a spec's
    # whole numbers are written as whole numbers.
    return isinstance(instance, int) and not isinstance(instance, bool)


@functools.cache
def _validator(kind: str = "auto") -> Draft202012Validator:
    """A validator of the whole schema ("auto": a variant when `extends` is given), or of one kind."""
    schema = load_schema()
    if kind != "auto":
        schema = {k: v for k, v in schema.items() if k not in ("if", "then", "else")}
        schema["$ref"] = "#/$defs/" + kind
    checker = Draft202012Validator.TYPE_CHECKER.redefine("integer", _is_integer)
    cls = jsonschema.validators.extend(Draft202012Validator, {"pattern": _pattern}, type_checker=checker)
    return cls(schema)


@functools.cache
def python_pattern(pattern: str) -> re.Pattern:
    r"""A schema pattern (ECMA-262, as JSON Schema reads it) compiled with Python's meaning.

    In ECMA-262 `$` matches only at the end of the text; in Python's `re` it also matches
    before a final newline, so `^[a-z]+$` would accept the name "house\n" (and a file
    named with a newline). Every unescaped `$` outside a character class becomes `\Z`.
    """
    out, i, in_class = [], 0, False
    while i < len(pattern):
        char = pattern[i]
        if char == "\\":
            out.append(pattern[i : i + 2])
            i += 2
            continue
        if char == "[":
            in_class = True
        elif char == "]":
            in_class = False
        out.append("\\Z" if char == "$" and not in_class else char)
        i += 1
    return re.compile("".join(out))


def pattern_matches(pattern: str, text: str) -> bool:
    """Whether `text` matches a pattern of rulespec/schema.json, as JSON Schema means it."""
    return python_pattern(pattern).search(text) is not None


def _pattern(validator, pattern, instance, schema):
    """jsonschema's `pattern` keyword with the schema's (ECMA-262) meaning of `$`."""
    if validator.is_type(instance, "string") and not pattern_matches(pattern, instance):
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


def validate(document: Document) -> None:
    """Check a loaded spec or variant; raise CompileError listing every violation."""
    diagnostics = check_tree(document.root, document.path)
    if diagnostics:
        raise CompileError(diagnostics)


def check_tree(root: Node | None, file: str, *, variant: bool | None = None) -> list[Diagnostic]:
    """Every schema violation of a node tree, located and sorted.

    `variant` picks the schema: None decides by the presence of ``extends``; False
    checks the tree as a full spec (for instance a variant once resolved onto its base).
    """
    if not isinstance(root, MapNode):
        span = root.span if root is not None else Span(file, 1, 1)
        return [
            Diagnostic(
                "E100", f"a spec is a YAML mapping of keys to values, this file holds {_describe_value(root)}", span
            )
        ]
    instance, collisions = _plain(root)
    if collisions:
        return sorted_diagnostics(collisions)
    if variant is None:
        variant = isinstance(instance, dict) and "extends" in instance  # a dict: root is a MapNode
        validator = _validator()
    else:
        validator = _validator("variant" if variant else "spec")
    mapper = _Mapper(root, variant)
    for error in validator.iter_errors(instance):
        mapper.add(error)
    return mapper.result()


# --------------------------------------------------------------------------- the tree as JSON


def key_text(key: ScalarNode) -> str:
    """A mapping key as a string, the way jsonschema and the messages see it."""
    if isinstance(key.value, bool):
        return "true" if key.value else "false"
    return str(key.value)


def _plain(root: Node) -> tuple[object, list[Diagnostic]]:
    """The JSON value of a node tree (keys as strings) and any key collisions that makes."""
    collisions: list[Diagnostic] = []

    def convert(node: Node) -> object:
        if isinstance(node, ScalarNode):
            return node.value
        if isinstance(node, SeqNode):
            return [convert(i) for i in node.items]
        out: dict[str, object] = {}
        first: dict[str, ScalarNode] = {}
        for key, value in node.entries:
            text = key_text(key)
            if text in out:
                collisions.append(
                    Diagnostic(
                        "E113",
                        f"key '{text}' is given twice, once as text and once as a number "
                        f"(first at line {first[text].span.line})",
                        key.span,
                    )
                )
                continue
            first[text] = key
            out[text] = convert(value)
        return out

    return convert(root), collisions


# --------------------------------------------------------------------------- messages


def _describe(path: tuple) -> str:
    """What the node at a schema path is, in words: "action 'take_pair'", "'gems' of player count 2"."""
    if not path:
        return "the spec"
    last = path[-1]
    if isinstance(last, int):
        parent = path[:-1]
        noun = _ITEM_NOUNS.get(parent[-1]) if parent and isinstance(parent[-1], str) else None
        if noun:
            owner = parent[:-1]
            head = f"{noun} {last + 1}"
            return f"{head} of {_describe(owner)}" if owner else head
        return f"item {last + 1} of {_describe(parent)}"
    kind = _ENTRY_KINDS.get(path[:-1])
    if kind == "player count":
        return f"player count {last}"
    if kind:
        return f"{kind} '{last}'"
    if len(path) == 4 and path[0] in ("actions", "end_of_turn") and path[2] == "choose":
        return f"parameter '{last}' of {_describe(path[:2])}"
    if len(path) == 1:
        return f"'{last}'"
    return f"'{last}' of {_describe(path[:-1])}"


def _entry_kind(path: tuple) -> str:
    """What an entry of the mapping at `path` is called ("action", "parameter"...)."""
    kind = _ENTRY_KINDS.get(tuple(path))
    if kind:
        return kind
    if len(path) == 3 and path[0] in ("actions", "end_of_turn") and path[2] == "choose":
        return "parameter"
    return "key"


def _describe_value(node_or_value) -> str:
    value = node_or_value.value if isinstance(node_or_value, ScalarNode) else node_or_value
    if isinstance(node_or_value, MapNode) or isinstance(value, dict):
        return "a mapping"
    if isinstance(node_or_value, SeqNode) or isinstance(value, list):
        return "a list"
    if value is None:
        return "an empty value"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return f"the number {value}"
    if isinstance(value, float):
        return f"the number {value:g}"
    text = str(value)
    if len(text) > 40:
        text = text[:37] + "..."
    return f"the text {text!r}"


def _show(value) -> str:
    if isinstance(value, str):
        return repr(value)
    return _describe_value(value)


_TYPE_WORDS = {
    "string": "a text",
    "integer": "a whole number",
    "number": "a number",
    "boolean": "true or false",
    "array": "a list",
    "object": "a mapping",
    "null": "nothing",
}


def _expected(schema) -> str:
    if isinstance(schema, dict):
        if "x-expected" in schema:
            return schema["x-expected"]
        kind = schema.get("type")
        if isinstance(kind, str):
            return _TYPE_WORDS.get(kind, kind)
        if isinstance(kind, list):
            return " or ".join(_TYPE_WORDS.get(k) or k for k in kind)
    return "something else"


# --------------------------------------------------------------------------- errors -> diagnostics


class _Mapper:
    """Turns jsonschema errors into located diagnostics, one pass over the tree."""

    def __init__(self, root: MapNode, variant: bool):
        self.root = root
        self.variant = variant
        self.diagnostics: list[Diagnostic] = []
        self.missing: list[tuple[tuple, str]] = []  # (mapping path, missing key), reported in result()
        self.suggested: set[tuple[tuple, str]] = set()  # (mapping path, key an unknown key looks like)

    # -- locating

    def _walk(self, path: Iterable) -> tuple[ScalarNode | None, Node | None]:
        """The key node and value node at a schema path (None where the path leaves the tree)."""
        key: ScalarNode | None = None
        node: Node | None = self.root
        for part in path:
            if isinstance(node, MapNode):
                for k, v in node.entries:
                    if key_text(k) == part:
                        key, node = k, v
                        break
                else:
                    return key, None
            elif isinstance(node, SeqNode) and isinstance(part, int) and 0 <= part < len(node.items):
                key, node = None, node.items[part]
            else:
                return key, None
        return key, node

    def _root_span(self) -> Span:
        if self.root.entries:
            return self.root.entries[0][0].span
        return self.root.span

    def value_span(self, path: tuple) -> Span:
        key, node = self._walk(path)
        if node is None:
            return key.span if key is not None else self._root_span()
        if isinstance(node, ScalarNode) and node.value is None and key is not None:
            s = node.span  # an empty value has no width: point at its key
            if s.end_col is None or (s.end_line == s.line and s.end_col <= s.col):
                return key.span
        return node.span

    def key_span(self, path: tuple) -> Span:
        if not path:
            return self._root_span()
        key, node = self._walk(path)
        if key is not None and not isinstance(path[-1], int):
            return key.span
        if node is not None:
            return node.span
        return self._root_span()

    def key_node_span(self, path: tuple, key: str) -> Span:
        _, node = self._walk(path)
        if isinstance(node, MapNode):
            for k, _v in node.entries:
                if key_text(k) == key:
                    return k.span
        return self.key_span(path)

    # -- collecting

    def emit(self, code: str, message: str, span: Span, *notes: str) -> Diagnostic:
        d = Diagnostic(code, message, span, tuple(n for n in notes if n))
        self.diagnostics.append(d)
        return d

    def result(self) -> list[Diagnostic]:
        # A missing key that an unknown key resembles is the same mistake: report it once.
        # The other missing keys of one mapping make one diagnostic.
        missing: dict[tuple, list[str]] = {}
        for path, key in self.missing:
            if (path, key) not in self.suggested and key not in missing.setdefault(path, []):
                missing[path].append(key)
        for path, keys in missing.items():
            if not keys:
                continue
            quoted = [f"'{k}'" for k in sorted(keys)]
            what = quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " and " + quoted[-1]
            self.emit(
                "E102",
                f"{_describe(path)} is missing the required key{'s' if len(keys) > 1 else ''} {what}",
                self.key_span(path),
            )
        return sorted_diagnostics(self.diagnostics)

    def add(self, error: ValidationError) -> None:
        handler = getattr(self, "on_" + str(error.validator), None)
        path = tuple(error.absolute_path)
        schema = error.schema if isinstance(error.schema, dict) else {}
        if "x-error" in schema and error.validator not in ("anyOf", "oneOf"):
            self.on_x_error(error, path, schema)
        elif handler is not None:
            handler(error, path, schema)
        else:
            self.emit("E103", f"{_describe(path)} is not valid here ({error.message})", self.value_span(path))

    # -- one method per JSON Schema keyword

    def on_additionalProperties(self, error, path, schema):
        instance = error.instance
        if not isinstance(instance, dict):
            return
        known = list(schema.get("properties", {}))
        patterns = list(schema.get("patternProperties", {}))
        for key in instance:
            if key in known or any(pattern_matches(p, key) for p in patterns):
                continue
            span = self.key_node_span(path, key)
            if not self.variant and key in OVERLAY_KEYS and path and _entry_kind(path[:-1]) != "key":
                self.emit(
                    "E111",
                    f"'{key}' is for variants only (a file with 'extends'); "
                    f"a full spec writes {_describe(path)} out in full",
                    span,
                )
                continue
            noun = schema.get("x-key-noun", "key")
            where = "top-level key" if not path else noun
            place = "" if not path else f" in {_describe(path)}"
            hint = did_you_mean(key, known)
            note = "" if hint else f"the {noun}s allowed here are: {', '.join(known)}"
            if hint:
                self.suggested.add((path, hint.split("'")[1]))
            self.emit("E101", f"unknown {where} '{key}'{place}{hint}", span, note)

    def on_required(self, error, path, schema):
        instance = error.instance
        if not isinstance(instance, dict):
            return
        for key in error.validator_value:
            if key not in instance:
                self.missing.append((path, key))

    def on_type(self, error, path, schema):
        self._wrong(error.instance, path, schema)

    def on_pattern(self, error, path, schema):
        if "propertyNames" in error.absolute_schema_path:
            self._bad_key(error, path, schema)
        else:
            self._wrong(error.instance, path, schema, code="E105")

    def _wrong(self, instance, path, schema, code="E103"):
        notes = []
        wanted = schema.get("type")
        if wanted == "string" and isinstance(instance, (bool, int, float)) and instance is not None:
            shown = ("true" if instance else "false") if isinstance(instance, bool) else str(instance)
            kind = "a yes/no value" if isinstance(instance, bool) else "a number"
            notes.append(f'YAML reads an unquoted {shown} as {kind}; put it in quotes to make it a text: "{shown}"')
        elif wanted == "integer" and isinstance(instance, str) and re.fullmatch(r"-?\d+", instance.strip()):
            notes.append("remove the quotes: a quoted number is a text")
        self.emit(
            code,
            f"{_describe(path)} must be {_expected(schema)}, not {_describe_value(instance)}",
            self.value_span(path),
            *notes,
        )

    def _bad_key(self, error, path, schema):
        key = error.instance
        span = self.key_node_span(path, key)
        self.emit("E105", f"{_entry_kind(path)} name {key!r} in {_describe(path)} must be {_expected(schema)}", span)

    def on_propertyNames(self, error, path, schema):  # pragma: no cover - errors come from the sub-keywords
        self._bad_key(error, path, schema)

    def on_enum(self, error, path, schema):
        allowed = [str(v) for v in error.validator_value]
        value = error.instance
        hint = did_you_mean(value, allowed) if isinstance(value, str) else ""
        self.emit(
            "E106",
            f"{_describe(path)} cannot be {_show(value)}: expected one of {', '.join(allowed)}{hint}",
            self.value_span(path),
        )

    def on_const(self, error, path, schema):
        notes = []
        if path == ("spec",):
            notes.append("this compiler reads version 1 of the spec language")
        elif path and path[-1] == "add":
            notes.append("leave 'add' out for an entry the base already has")
        self.emit(
            "E106",
            f"{_describe(path)} must be {_expected(schema)}, not {_describe_value(error.instance)}",
            self.value_span(path),
            *notes,
        )

    def on_minimum(self, error, path, schema):
        self.emit(
            "E108",
            f"{_describe(path)} must be at least {error.validator_value}, not {error.instance}",
            self.value_span(path),
        )

    def on_maximum(self, error, path, schema):
        self.emit(
            "E108",
            f"{_describe(path)} must be at most {error.validator_value}, not {error.instance}",
            self.value_span(path),
        )

    def on_minLength(self, error, path, schema):
        self.emit("E109", f"{_describe(path)} must not be empty", self.value_span(path))

    def on_minItems(self, error, path, schema):
        n = error.validator_value
        self.emit(
            "E109", f"{_describe(path)} must list at least {n} item{'s' if n != 1 else ''}", self.value_span(path)
        )

    def on_maxItems(self, error, path, schema):
        self.emit(
            "E109",
            f"{_describe(path)} lists {len(error.instance)} items, at most {error.validator_value}",
            self.value_span(path),
        )

    def on_minProperties(self, error, path, schema):
        self.emit("E109", f"{_describe(path)} must have at least one entry", self.value_span(path))

    def on_uniqueItems(self, error, path, schema):
        seen: list = []
        for i, item in enumerate(error.instance):
            if item in seen:
                first = seen.index(item)
                self.emit(
                    "E110",
                    f"{_show(item)} appears twice in {_describe(path)} (items {first + 1} and {i + 1})",
                    self.value_span(path + (i,)),
                )
            seen.append(item)

    def on_dependentRequired(self, error, path, schema):
        for key, needs in error.validator_value.items():
            if key not in error.instance:
                continue
            for need in needs:
                if need not in error.instance:
                    reason = " (only a new entry is placed)" if need == "add" else ""
                    self.emit(
                        "E111",
                        f"'{key}' in {_describe(path)} needs '{need}: true'{reason}"
                        if need == "add"
                        else f"'{key}' in {_describe(path)} needs '{need}'",
                        self.key_node_span(path, key),
                    )

    def on_x_error(self, error, path, schema):
        names = {
            "key": path[-1] if path else "",
            "value": error.instance,
            "subject": _describe(path),
            "owner": _describe(path[:-1]),
        }
        message = schema["x-error"].format(**names)
        if "propertyNames" in error.absolute_schema_path:
            span = self.key_node_span(path, error.instance)
        else:
            span = self.key_span(path)
        self.emit("E111", message, span)

    def on_anyOf(self, error, path, schema):
        branches: dict[int, list[ValidationError]] = defaultdict(list)
        for sub in error.context or ():
            branches[sub.relative_schema_path[0]].append(sub)
        fitting = [
            errs for errs in branches.values() if not any(e.validator == "type" and not e.relative_path for e in errs)
        ]
        if len(fitting) == 1:
            for sub in fitting[0]:
                self.add(sub)
        elif not fitting:
            self._wrong(error.instance, path, schema)
        else:
            self.add(best_match([e for errs in fitting for e in errs]))

    on_oneOf = on_anyOf
