"""Pass 4, check: the state of the pass and its readers of nodes and texts.

A :class:`Checker` holds what one run of the check pass over a resolved spec has learnt so far
(the reporter, the type inferrer, where each rule is said, the tables read) and reads the tree
defensively: the schema pass should have caught a malformed tree, but no reader here crashes on
one; each says what it wanted (E102, E103, E104, E106). The sections are read by the modules
that :mod:`compiler.check.build` runs in order.
"""

from __future__ import annotations

from typing import Any, TypeVar, overload

from ..diagnostics import CompileError, Reporter, SourceMap, Span, did_you_mean
from ..front.expr import Bool, Origin, parse_expr, parse_stmt
from ..front.overlay import Resolved
from ..front.reading import read_input
from ..front.source import MapNode, Node, ScalarNode, SeqNode
from ..language.grammar import GENDERS, PLURAL_FORMS
from ..model import ItemWords, Kind, PlayerField, Text
from . import bounds as bounds_mod
from . import kinds as kinds_mod
from .inference import Inferrer
from .inlining import Procedure, expand
from .types import AGGREGATES, EFFECTS, FUNCTIONS, GLOBALS, Scope

_N = TypeVar("_N", ScalarNode, SeqNode, MapNode)  # the kind of node Checker.node is asked for

LANGS = ("en", "fr", "nl", "sr")
RESERVED_NAMES = (
    set(GLOBALS)
    | set(FUNCTIONS)
    | set(AGGREGATES)
    | set(EFFECTS)
    | {"me", "player", "true", "false", "if", "then", "else", "and", "or", "not", "in", "for", "c"}
)


class Checker:
    """The state of one check pass over one resolved spec, and its readers of nodes and texts.

    The section modules (:mod:`.tables`, :mod:`.decisions`, :mod:`.setup`, :mod:`.ending`) and the
    analyses that read a section of their own (:mod:`.kinds`, :mod:`.zones`, :mod:`.variables`,
    :mod:`.definitions`) take it as `c`: they read nodes through it, report to `c.r` and note
    where each rule is said in `c.spans`; :mod:`.build` runs them in order."""

    def __init__(self, resolved: Resolved, sources: SourceMap | None):
        self.resolved = resolved
        self.root = resolved.root
        self.sources = sources
        self.r = Reporter()
        self.step_max: dict[str, tuple[int, Span | None]] = {}  # a repeated step's `max` (its largest value), by step
        self.types = Inferrer(self.r)
        self.spans: dict[str, Span] = {}
        self.value_spans: dict[tuple[int, str], Span] = {}  # (players, field) -> span of the number in the row
        self.unread: set[str] = set()  # tables that could not be read: no follow-up errors about their size
        self.refused_zones: set[str] = set()  # zones refused (compiler/check/zones.py): no follow-up errors about them
        self.zones: tuple = ()
        self.notation_spans: dict[tuple[bool, str], Span] = {}  # (is a step, name) -> the span of its notation
        self.ends_turn_spans: dict[str, Span] = {}  # an action's name -> the span of its `ends_turn` value
        self.gems_wild: tuple[tuple[str, ...], str] = ((), "gold")  # the colours, once read (state reads them)
        self.kinds: tuple[Kind, ...] = ()
        self.player_fields: tuple[PlayerField, ...] = ()  # the player-count table's declared fields, once read
        self.refused_fields: set[str] = set()  # declared fields refused (E540): their values are not reported again
        self.value_table: dict[str, int] = {}  # the `values` section, once read (zones, choices and variables read it)
        self.procedures: dict[
            str, Procedure
        ] = {}  # the definitions with `do:`, once typed (compiler/check/procedures.py)

    @overload
    def node(
        self, parent: Node | None, key: str, kind: type[_N], required: bool = ..., where: str = ...
    ) -> _N | None: ...

    @overload
    def node(
        self, parent: Node | None, key: str, kind: None = ..., required: bool = ..., where: str = ...
    ) -> Node | None: ...

    def node(self, parent: Node | None, key: str, kind=None, required=True, where="") -> Node | None:
        """The value under `key` of a mapping, when it is one of `kind` (typed as that kind)."""
        if not isinstance(parent, MapNode):
            return None
        value = parent.get(key)
        if value is None:
            if required:
                self.r.error("E102", f"missing key '{key}'{where}", parent.span)
            return None
        if kind is not None and not isinstance(value, kind):
            want = {MapNode: "a mapping", SeqNode: "a list", ScalarNode: "a single value"}[kind]
            self.r.error("E103", f"'{key}' must be {want}", value.span)
            return None
        return value

    def scalar(
        self, parent: Any, key: str, types: Any, required: bool = True, default: Any = None, where: str = ""
    ) -> tuple[Any, Any]:
        node = self.node(parent, key, ScalarNode, required, where)
        if node is None:
            return default, None
        if not isinstance(node.value, types) or (isinstance(node.value, bool) and bool not in _tuple(types)):
            want = " or ".join(t.__name__.replace("str", "text").replace("int", "whole number") for t in _tuple(types))
            self.r.error("E103", f"'{key}' must be a {want}, not {node.value!r}", node.span)
            return default, node
        return node.value, node

    def text(self, parent, key, required=True, default="") -> Text:
        node = self.node(parent, key, None, required)
        if node is None:
            return Text(default)
        if isinstance(node, ScalarNode):
            return Text(str(node.value) if node.value is not None else "")
        if isinstance(node, MapNode):
            entries = {}
            for k, v in node.entries:
                if k.value not in LANGS:
                    self.r.error(
                        "E104",
                        f"unknown language '{k.value}'{did_you_mean(str(k.value), LANGS)}"
                        f" (languages: {', '.join(LANGS)})",
                        k.span,
                    )
                elif isinstance(v, ScalarNode):
                    entries[k.value] = str(v.value)
            if "en" not in entries:
                self.r.error("E104", f"'{key}' needs an English text ('en')", node.span)
            return Text(entries.get("en", default), tuple(sorted((k, v) for k, v in entries.items() if k != "en")))
        self.r.error("E103", f"'{key}' must be a text or a mapping of languages to texts", node.span)
        return Text(default)

    def item(self, parent: MapNode, key: str) -> tuple[Text, tuple[ItemWords, ...]]:
        """A kind's `item`: a text, where a language may give instead of its word a mapping of its
        plural forms and gender (``fr: {one: cité, other: cités, gender: f}``); E126 for a form or a
        gender that language does not have."""
        node = self.node(parent, key, None, True)
        if not isinstance(node, MapNode):
            return self.text(parent, key), ()
        plain: dict[str, str] = {}
        grammar = []
        for k, v in node.entries:
            lang = str(k.value)
            if lang not in LANGS:
                self.r.error(
                    "E104",
                    f"unknown language '{lang}'{did_you_mean(lang, LANGS)} (languages: {', '.join(LANGS)})",
                    k.span,
                )
            elif isinstance(v, ScalarNode):
                plain[lang] = str(v.value)
            elif isinstance(v, MapNode):
                words = self._item_words(lang, v)
                grammar.append(words)
                plain[lang] = words.form("one") or ""
        if "en" not in plain:
            self.r.error("E104", f"'{key}' needs an English text ('en')", node.span)
        text = Text(plain.get("en", ""), tuple(sorted((k, v) for k, v in plain.items() if k != "en")))
        return text, tuple(grammar)

    def _item_words(self, lang: str, node: MapNode) -> ItemWords:
        forms, gender = [], ""
        allowed = PLURAL_FORMS[lang]
        for k, v in node.entries:
            name, value = str(k.value), "" if v is None or not isinstance(v, ScalarNode) else str(v.value)
            if name == "gender":
                if value not in GENDERS[lang]:
                    have = ", ".join(GENDERS[lang]) or "none: its words do not change with a gender"
                    self.r.error("E126", f"'{value}' is not a gender of {lang} (genders: {have})", v.span)
                else:
                    gender = value
            elif name in allowed:
                forms.append((name, value))
            else:
                self.r.error(
                    "E126",
                    f"'{name}' is not a plural form {lang} writes (forms: {', '.join(allowed)}; and `gender`)",
                    k.span,
                )
        if "one" not in dict(forms):
            self.r.error("E126", f"the {lang} item needs its word, `one`", node.span)
        return ItemWords(lang, tuple(forms), gender)

    def note(self, entry: MapNode) -> Text | None:
        return self.text(entry, "note") if isinstance(entry, MapNode) and entry.get("note") is not None else None

    def expression(self, node: Node | None, what: str):
        if node is None:
            return None
        if not isinstance(node, ScalarNode) or isinstance(node.value, (list, dict)):
            self.r.error("E103", f"{what} must be an expression written as text", node.span)
            return None
        if isinstance(node.value, bool):
            return Bool(node.value, node.span)
        text = str(node.value) if node.value is not None else ""
        origin = Origin.of_scalar(text, node.span, self._raw_lines(node.span.file))
        try:
            return parse_expr(text, origin, what)
        except CompileError as err:
            self.r.extend(err.diagnostics)
            return None

    def statement(self, node: Node, what: str, expanding: bool = True):
        """An effect, parsed; with `expanding`, its calls of procedures written out (compiler/check/inlining.py)."""
        if not isinstance(node, ScalarNode) or not isinstance(node.value, str):
            self.r.error("E103", f"{what} must be an effect written as text", node.span)
            return None
        origin = Origin.of_scalar(node.value, node.span, self._raw_lines(node.span.file))
        try:
            stmt = parse_stmt(node.value, origin, what)
        except CompileError as err:
            self.r.extend(err.diagnostics)
            return None
        return expand(stmt, self.procedures) if expanding else stmt

    def _raw_lines(self, file: str) -> list[str]:
        if self.sources is not None:
            lines = self.sources.lines(file)
            if lines is not None:
                return lines
        try:
            return read_input(file).decode("utf-8").splitlines()
        except (OSError, UnicodeDecodeError):
            return []

    def choice(self, entry, key, allowed, default, where) -> str:
        """One of the words `allowed` under `key` (E106 for another, and `default` instead)."""
        value, node = self.scalar(entry, key, str, required=False, default=default, where=where)
        if node is not None and value not in allowed:
            self.r.error(
                "E106", f"'{key}' must be one of: {', '.join(allowed)}{did_you_mean(str(value), allowed)}", node.span
            )
            return default
        return str(value)

    def typed_hazards(self, node, scope: Scope, expected, what: str, facts) -> None:
        """Type `node`; once it makes sense, report what in it would stop the engine (E513, E514)."""
        before = len(self.r.diagnostics)
        self.types.expect(node, scope, expected, what)
        if len(self.r.diagnostics) == before:
            self.r.extend(bounds_mod.hazards(node, bounds_mod.Bounds(facts)))

    def file_rank(self, file: str) -> int:
        """How far a file is along the chain of variants: 0 for the spec given, 1 for its base..."""
        chain = [self.resolved.source.path] + [b.path for b in self.resolved.bases]
        return chain.index(file) if file in chain else len(chain)

    @property
    def base_tables_read(self) -> bool:
        """Whether the cards and nobles were read: without them, what can never happen is not known."""
        return not self.unread & set(kinds_mod.BASE_KINDS)


def _tuple(types) -> tuple:
    return types if isinstance(types, tuple) else (types,)
