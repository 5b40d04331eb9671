"""Pass 1, load: a spec file's bytes -> a tree of YAML nodes that know where they are.

Takes a path, returns a :class:`Document` whose root is a :class:`MapNode`,
:class:`SeqNode` or :class:`ScalarNode`, each with the :class:`Span` it came from.
Nothing after this pass sees a raw PyYAML object.

PyYAML is used only to *compose* (build the node graph with marks), never to
construct Python objects, so no tag can run code. It composes with libyaml
(``yaml.CSafeLoader``) when PyYAML has it, after one pass over the parser's events
that bounds the depth (libyaml's composer recurses in C) and notes where each alias
is; a YAML error is reported through PyYAML's own loader, whose messages say more
and are the same on every machine, and a file holding a tab is read by PyYAML's own
loader too (libyaml accepts tabs where PyYAML does not). On top of PyYAML this pass refuses
what PyYAML lets through: duplicate keys (PyYAML keeps the last one silently),
tags other than the YAML core schema, several documents in one file, alias graphs
that expand past a budget (the "billion laughs"), recursive aliases, bytes that are
not UTF-8, files too large or nested too deep to be a spec, and anything that is not an
ordinary file (a FIFO, a device, a folder: see :mod:`compiler.front.reading`).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import yaml
import yaml.reader
from yaml.constructor import ConstructorError, SafeConstructor
from yaml.nodes import MappingNode, SequenceNode
from yaml.nodes import Node as YamlNode
from yaml.nodes import ScalarNode as YamlScalar

from ..diagnostics import CompileError, Diagnostic, SourceMap, Span
from .reading import MAX_INPUT_BYTES, NotAFile, read_input
from .yaml_errors import clamp, mark_span, place, yaml_error

MAX_FILE_BYTES = MAX_INPUT_BYTES
MAX_NODES = 100_000
MAX_DEPTH = 64

# libyaml when PyYAML was built with it (it composes about 15 times faster), else PyYAML's own.
# Both give the same positions (tests/test_source.py compares every node of the specs).
LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

_CORE = "tag:yaml.org,2002:"
_SCALAR_TAGS = {_CORE + t for t in ("str", "int", "float", "bool", "null")}


@dataclass(frozen=True, slots=True)
class ScalarNode:
    value: object  # str, int, float, bool or None
    span: Span
    style: str | None = None  # None for plain scalars, '"', "'", '|' or '>'

    @property
    def text_start(self) -> tuple[int, int]:
        """Line and column of the first character of the scalar's text (after a quote)."""
        if self.style in ('"', "'"):
            return self.span.line, self.span.col + 1
        if self.style in ("|", ">"):
            return self.span.line + 1, self.span.col  # refined by the expression pass
        return self.span.line, self.span.col


@dataclass(frozen=True, slots=True)
class SeqNode:
    items: tuple[Node, ...]
    span: Span


@dataclass(frozen=True, slots=True)
class MapNode:
    entries: tuple[tuple[ScalarNode, Node], ...]
    span: Span

    def get(self, key: object) -> Node | None:
        for k, v in self.entries:
            if k.value == key:
                return v
        return None

    def key_node(self, key: object) -> ScalarNode | None:
        for k, _ in self.entries:
            if k.value == key:
                return k
        return None

    def key_span(self, key: object) -> Span:
        """Where the key is written (the mapping itself if it is not: a place to point at either way)."""
        found = self.key_node(key)
        return found.span if found is not None else self.span

    def keys(self) -> list[object]:
        return [k.value for k, _ in self.entries]

    def items(self) -> Iterator[tuple[ScalarNode, Node]]:
        return iter(self.entries)


Node = ScalarNode | SeqNode | MapNode


@dataclass
class Document:
    path: str  # as given by the user, or relative to the working directory
    text: str
    root: Node | None
    raw_lines: list[str] = field(default_factory=list)

    def line(self, number: int) -> str:
        return self.raw_lines[number - 1] if 1 <= number <= len(self.raw_lines) else ""


def to_plain(node: Node | None) -> object:
    """The plain Python value of a node (for jsonschema and for tests)."""
    if node is None:
        return None
    if isinstance(node, ScalarNode):
        return node.value
    if isinstance(node, SeqNode):
        return [to_plain(i) for i in node.items]
    return {k.value: to_plain(v) for k, v in node.entries}


PROJECT = Path(__file__).resolve().parents[2]  # the folder of rulespec/, variants/ (an installed copy's too)


def display_path(path: str) -> str:
    """A path relative to the working directory when it lies below it (stable in messages)."""
    try:
        rel = os.path.relpath(path)
    except ValueError:
        return path
    return path if rel.startswith("..") else rel.replace(os.sep, "/")


def shown_path(path: str) -> str:
    """A spec's path as a generated file (engine, sheet) names it: never an absolute path.

    A path relative to the working directory (and below it) stays as it is; one in this
    project (the official spec, a variant of the catalogue, seen from elsewhere) is
    relative to the project; any other is only its file name, so an engine made in a
    temporary folder or a home directory does not carry that folder, nor the install's.
    """
    path = os.path.normpath(str(path))
    parts = path.replace(os.sep, "/").split("/")
    if not os.path.isabs(path) and ".." not in parts:
        return "/".join(parts)
    full = Path(os.path.realpath(path))
    if full.is_relative_to(PROJECT):
        return full.relative_to(PROJECT).as_posix()
    return full.name


def load(path: str, sources: SourceMap | None = None) -> Document:
    """Read and compose one spec file; raise CompileError with located diagnostics."""
    name = display_path(path)
    try:
        data = read_input(path, MAX_FILE_BYTES)
    except FileNotFoundError:
        raise CompileError([Diagnostic("E001", f"file not found: {name}")]) from None
    except NotAFile as err:  # a folder, a FIFO (that would block), a device (that would never end)
        raise CompileError([Diagnostic("E001", f"not a file but {err.kind}: {name}")]) from None
    except OSError as err:
        raise CompileError([Diagnostic("E001", f"cannot read {name}: {err.strerror}")]) from None
    return load_bytes(data, name, sources)


def load_bytes(data: bytes, name: str, sources: SourceMap | None = None) -> Document:
    if len(data) > MAX_FILE_BYTES:
        raise CompileError(
            [
                Diagnostic(
                    "E002", f"file is too large for a spec (over {MAX_FILE_BYTES // 1_000_000} MB)", Span(name, 1, 1)
                )
            ]
        )
    if b"\x00" in data:
        line = data[: data.index(b"\x00")].count(b"\n") + 1
        raise CompileError(
            [Diagnostic("E002", "file is binary, not a YAML text file (it contains a NUL byte)", Span(name, line, 1))]
        )
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data[: err.start].count(b"\n") + 1
        col = err.start - (data.rfind(b"\n", 0, err.start) + 1) + 1
        raise CompileError(
            [
                Diagnostic(
                    "E002",
                    f"file is not valid UTF-8 (byte 0x{data[err.start]:02x} at offset {err.start})",
                    Span(name, line, col),
                )
            ]
        ) from None
    if text.startswith("\ufeff"):
        text = text[1:]
    if sources is not None:
        sources.add(name, text)
    document = Document(name, text, None, text.splitlines())
    document.root = _compose(text, name, document.raw_lines)
    return document


def _compose(text: str, name: str, lines: list[str], loader: type | None = None) -> Node | None:
    # libyaml reads a tab between tokens (after a colon, before a comment) as YAML 1.2
    # allows; PyYAML's own loader refuses it. A file with a tab is read by PyYAML's rules,
    # so that it means the same on every machine, with or without libyaml.
    loader = loader or (yaml.SafeLoader if "\t" in text else LOADER)
    try:
        scan = _scan(text, name, lines, loader)
        nodes = list(yaml.compose_all(text, Loader=loader))
    except yaml.YAMLError as err:
        if loader is not yaml.SafeLoader:
            # libyaml's messages are terser ("did not find expected key") and vary with its
            # version; PyYAML's say what was expected. Report through PyYAML so that a
            # mistake reads the same on every machine (positions are the same in both).
            return _compose(text, name, lines, yaml.SafeLoader)
        raise CompileError([yaml_error(err, text, name, lines)]) from None
    except RecursionError:  # pragma: no cover - _scan bounds the depth before composing
        raise CompileError(
            [Diagnostic("E012", f"nesting is deeper than {MAX_DEPTH} levels", Span(name, 1, 1))]
        ) from None
    if not nodes:
        raise CompileError([Diagnostic("E011", "the file is empty: a spec is a YAML mapping", Span(name, 1, 1))])
    if len(nodes) > 1:
        second = nodes[1].start_mark
        raise CompileError(
            [
                Diagnostic(
                    "E011",
                    "a spec file holds one YAML document, this one holds several",
                    clamp(Span(name, second.line + 1, second.column + 1), lines),
                )
            ]
        )
    converter = _Converter(name, lines, scan)
    try:
        root = converter.convert(nodes[0])
    except CompileError:
        if converter.splits:  # a value cut in two at a comma explains what comes of it
            raise CompileError(converter.splits) from None
        raise
    if converter.splits:
        raise CompileError(converter.splits)
    return root


# --------------------------------------------------------------------------- depth and aliases


@dataclass
class _Scan:
    """What the event stream tells that the node graph forgets: where each alias is."""

    aliases: list[tuple[str, Span]]  # (anchor, span of `*anchor`) of the first document, in order
    anchors: dict[str, tuple[int, int]]  # anchor -> 0-based (line, column) of the node it names


def _scan(text: str, name: str, lines: list[str], loader: type) -> _Scan:
    """Read the events once, before composing, to refuse deep nesting at its first level too many.

    Composing recurses once per level (in C with libyaml, where nothing stops it before the
    stack overflows), so the depth must be bounded first; the parser itself does not recurse.
    """
    depth = documents = 0
    scan = _Scan([], {})
    for event in yaml.parse(text, Loader=loader):
        if isinstance(event, yaml.NodeEvent):
            if depth > MAX_DEPTH and isinstance(event, yaml.CollectionStartEvent):  # deeper scalars: the converter
                line, col = place(event.start_mark)
                span = clamp(Span(name, line, col, line, col + 1), lines)
                raise CompileError([Diagnostic("E012", f"nesting is deeper than {MAX_DEPTH} levels", span)])
            if documents == 1:
                if isinstance(event, yaml.AliasEvent) and event.anchor is not None:
                    scan.aliases.append((event.anchor, mark_span(name, event.start_mark, event.end_mark, lines)))
                elif event.anchor is not None:
                    line, col = place(event.start_mark)
                    scan.anchors[event.anchor] = (line - 1, col - 1)
            if isinstance(event, yaml.CollectionStartEvent):
                depth += 1
        elif isinstance(event, yaml.CollectionEndEvent):
            depth -= 1
        elif isinstance(event, yaml.DocumentStartEvent):
            documents += 1
    return scan


class _Converter:
    """PyYAML node graph -> our frozen nodes, with the checks PyYAML does not make.

    An alias is the same PyYAML node met again: the converter pairs each such meeting
    (outside the expansion of another alias) with the next alias of the event stream, in
    document order, so that a problem found while expanding an alias points at the alias.
    """

    def __init__(self, name: str, lines: list[str] | None = None, scan: _Scan | None = None) -> None:
        self.name = name
        self.lines = lines or []
        self.count = 0
        self.constructor = SafeConstructor()
        self.aliases = iter(scan.aliases if scan else ())
        self.anchors = dict(scan.anchors) if scan else {}
        self.seen: set[int] = set()
        self.via: tuple[str, Span | None, YamlNode] | None = None  # the alias being expanded
        self.splits: list[Diagnostic] = []  # values of [...] or {...} cut at a comma (see _cut_at_commas)

    def span(self, node: YamlNode) -> Span:
        return mark_span(self.name, node.start_mark, node.end_mark, self.lines)

    def error(self, code: str, message: str, node: YamlNode, *notes: str) -> CompileError:
        return CompileError([Diagnostic(code, message, self.span(node), tuple(notes))])

    def at_alias(self, code: str, message: str, note: str) -> CompileError:
        """A problem met through the alias being expanded: at the alias, the anchor in a note.

        `message` and `note` may name {alias}, {anchor}, {where} (the anchor's place) and
        {size} (how many nodes the anchor expands to)."""
        assert self.via is not None
        anchor, span, target = self.via
        words = {
            "alias": f"'*{anchor}'",
            "anchor": f"'&{anchor}'",
            "where": f"line {target.start_mark.line + 1}, column {target.start_mark.column + 1}",
        }
        if "{size}" in note:
            words["size"] = f"{_size(target):,}"
        return CompileError([Diagnostic(code, message.format(**words), span, (note.format(**words),))])

    def meet(self, node: YamlNode) -> bool:
        """Note a node met in document order; True when this meeting is an alias to expand."""
        if id(node) not in self.seen:
            self.seen.add(id(node))
            return False
        if self.via is not None:
            return False  # inside an expansion: not an alias written here
        anchor, span = next(self.aliases, (None, None))
        if anchor is not None and self.anchors.get(anchor) == (node.start_mark.line, node.start_mark.column):
            self.via = (anchor, span, node)
            return True
        self.aliases = iter(())  # out of step with the events (should not happen): point at nodes instead
        return False

    def convert(self, node: YamlNode, depth: int = 0, stack: tuple = ()) -> Node:
        if not self.meet(node):
            return self._convert(node, depth, stack)
        try:
            if id(node) in stack:
                raise self.at_alias(
                    "E013",
                    "the alias {alias} refers to a node that contains it",
                    "{anchor} ({where}) contains {alias}: it would expand forever",
                )
            return self._convert(node, depth, stack)
        finally:
            self.via = None

    def _convert(self, node: YamlNode, depth: int, stack: tuple) -> Node:
        self.count += 1
        if self.count > MAX_NODES:
            if self.via is not None and _size(self.via[2]) >= MAX_NODES // 100:  # an alias that repeats a lot
                raise self.at_alias(
                    "E013",
                    f"the alias {{alias}} makes the document expand to more than {MAX_NODES} nodes",
                    "{anchor} ({where}) expands to {size} nodes, and every {alias} repeats them all",
                )
            span = self.via[1] if self.via is not None else self.span(node)
            raise CompileError([Diagnostic("E013", f"the document has more than {MAX_NODES} nodes", span)])
        if depth > MAX_DEPTH:
            if self.via is not None:
                raise self.at_alias(
                    "E012",
                    f"nesting is deeper than {MAX_DEPTH} levels through the alias {{alias}}",
                    "{alias} puts a copy of {anchor} ({where}) at this depth",
                )
            raise self.error("E012", f"nesting is deeper than {MAX_DEPTH} levels", node)
        if id(node) in stack:
            raise self.error("E013", "an alias refers to a node that contains it", node)
        if isinstance(node, YamlScalar):
            return self.scalar(node)
        stack = stack + (id(node),)
        if isinstance(node, (SequenceNode, MappingNode)) and node.flow_style:
            self.splits.extend(self._cut_at_commas(node))
        if isinstance(node, SequenceNode):
            if node.tag != _CORE + "seq":
                raise self.error("E014", f"unsupported YAML tag '{node.tag}'", node)
            return SeqNode(tuple(self.convert(i, depth + 1, stack) for i in node.value), self.span(node))
        if isinstance(node, MappingNode):
            if node.tag != _CORE + "map":
                raise self.error("E014", f"unsupported YAML tag '{node.tag}'", node)
            entries: list[tuple[ScalarNode, Node]] = []
            seen: dict[object, ScalarNode] = {}
            for key_node, value_node in node.value:
                if key_node.tag == _CORE + "merge":
                    raise self.error("E014", "merge keys ('<<') are not supported in specs; use 'extends'", key_node)
                if not isinstance(key_node, YamlScalar):
                    raise self.error("E015", "a mapping key must be a plain value, not a list or mapping", key_node)
                if self.meet(key_node):  # an alias as a key: a scalar, nothing to expand
                    self.via = None
                key = self.scalar(key_node)
                if isinstance(key.value, bool):
                    raise CompileError(
                        [
                            Diagnostic(
                                "E015",
                                f"a mapping key must be a name or a whole number, not the truth value {key_node.value}",
                                key.span,
                                (f"quote it to make it a name: '{key_node.value}'",),
                            )
                        ]
                    )
                if isinstance(key.value, float) or key.value is None:
                    raise self.error(
                        "E015", f"a mapping key must be a name or a whole number, not {key_node.value!r}", key_node
                    )
                if key.value in seen:
                    first = seen[key.value].span
                    raise CompileError(
                        [
                            Diagnostic(
                                "E016", f"duplicate key '{key.value}' (first defined at line {first.line})", key.span
                            )
                        ]
                    )
                seen[key.value] = key
                entries.append((key, self.convert(value_node, depth + 1, stack)))
            return MapNode(tuple(entries), self.span(node))
        raise self.error("E014", "unsupported YAML node", node)  # pragma: no cover

    def _cut_at_commas(self, node: SequenceNode | MappingNode) -> list[Diagnostic]:
        """Expressions that YAML cut in two at a comma inside a list or mapping written inline.

        In `[...]` and `{...}` a comma always separates items, even inside parentheses:
        `effects: [take(colour, 2)]` is the list 'take(colour', '2)', and `{when: max(a, b) >= 3}`
        a mapping with a key 'b) >= 3'. Each fragment then fails on its own, far from the
        cause; a plain value that leaves a parenthesis open, followed in the same collection
        by plain values that close it, is reported once, as the whole text the user wrote.
        """
        if isinstance(node, SequenceNode):
            order = [(item, None) for item in node.value]
        else:  # keys and values in document order; a value follows its key
            order = [pair for key, value in node.value for pair in ((key, None), (value, key))]
        found, i = [], 0
        while i < len(order):
            first, key = order[i]
            depth = _open_parens(first)
            i += 1
            if depth is None or depth <= 0:
                continue
            pieces = [first]
            while i < len(order) and depth > 0 and _open_parens(order[i][0]) is not None:
                piece = order[i][0]
                i += 1
                if piece.value == "" and piece.tag == _CORE + "null":
                    continue  # the missing value of a key that is itself a piece
                pieces.append(piece)
                depth += _open_parens(piece) or 0
            if len(pieces) > 1:
                found.append(self._cut_diagnostic(node, pieces, key))
        return found

    def _cut_diagnostic(
        self, node: SequenceNode | MappingNode, pieces: list[YamlScalar], key: YamlScalar | None
    ) -> Diagnostic:
        text = ", ".join(p.value for p in pieces)
        if isinstance(node, SequenceNode):
            where, help_text = (
                "in a list written in [...], a comma separates the items",
                f'put it in quotes, "{text}", or write the list one item per line: - {text}',
            )
        else:
            quoted = f'{key.value}: "{text}"' if key is not None else f'"{text}"'
            where, help_text = (
                "in a mapping written in {...}, a comma separates the entries",
                f"put it in quotes, {quoted}, or write the mapping one key per line",
            )
        span = mark_span(self.name, pieces[0].start_mark, pieces[-1].end_mark, self.lines)
        commas = "its comma" if len(pieces) == 2 else "its commas"
        return Diagnostic("E017", f"YAML cut '{text}' at {commas}: {where}", span, (help_text,))

    def scalar(self, node: YamlScalar) -> ScalarNode:
        if node.tag not in _SCALAR_TAGS:
            raise self.error("E014", f"unsupported YAML tag '{node.tag}' (specs use plain YAML values only)", node)
        if node.tag == _CORE + "bool" and not node.style and node.value.lower() not in ("true", "false"):
            # YAML 1.1 reads on, off, yes and no as truth values (a definition named `on` became the key
            # True); a spec is read as YAML 1.2 reads it, where only true and false are.
            return ScalarNode(node.value, self.span(node), None)
        try:
            value = self.constructor.construct_object(node)
        except (ConstructorError, ValueError) as err:
            raise self.error("E014", f"bad value {node.value!r}: {err}", node) from None
        if isinstance(value, float) and value != value:
            raise self.error("E014", "NaN is not a value a spec can use", node)
        if isinstance(value, str):
            surrogate = _SURROGATE.search(value)
            if surrogate:  # only an escape (\uDFFF) makes one; no output could encode the text
                raise self.error(
                    "E014",
                    f"bad value: the escape \\u{ord(surrogate.group()):04X} is half of a "
                    "UTF-16 pair (a lone surrogate), not a character",
                    node,
                )
        return ScalarNode(value, self.span(node), node.style or None)  # libyaml says "" for plain


_SURROGATE = re.compile("[\ud800-\udfff]")


def _open_parens(node: YamlNode) -> int | None:
    """How many parentheses a plain scalar leaves open (None for any other node)."""
    if not isinstance(node, YamlScalar) or node.style:
        return None
    return node.value.count("(") - node.value.count(")")


def _size(node: YamlNode) -> int:
    """How many nodes a PyYAML node stands for once every alias in it is expanded."""
    sizes: dict[int, int] = {}

    def size(n: YamlNode) -> int:
        if id(n) not in sizes:
            sizes[id(n)] = 0  # a cycle counts nothing more (it is reported on its own)
            children = (
                [v for _, v in n.value]
                if isinstance(n, MappingNode)
                else (n.value if isinstance(n, SequenceNode) else [])
            )  # keys are not counted, as in the budget
            sizes[id(n)] = 1 + sum(size(c) for c in children)
        return sizes[id(n)]

    return size(node)
