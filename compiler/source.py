"""Pass 1, load: a spec file's bytes -> a tree of YAML nodes that know where they are.

Takes a path, returns a :class:`Document` whose root is a :class:`MapNode`,
:class:`SeqNode` or :class:`ScalarNode`, each with the :class:`Span` it came from.
Nothing after this pass sees a raw PyYAML object.

PyYAML is used only to *compose* (build the node graph with marks), never to
construct Python objects, so no tag can run code. On top of PyYAML this pass refuses
what PyYAML lets through: duplicate keys (PyYAML keeps the last one silently),
tags other than the YAML core schema, several documents in one file, alias graphs
that expand past a budget (the "billion laughs"), recursive aliases, bytes that are
not UTF-8, and files too large or nested too deep to be a spec.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Iterator, Union

import yaml
import yaml.reader
from yaml.constructor import ConstructorError, SafeConstructor
from yaml.nodes import MappingNode, Node as YamlNode, ScalarNode as YamlScalar, SequenceNode

from .diagnostics import CompileError, Diagnostic, SourceMap, Span

MAX_FILE_BYTES = 1_000_000
MAX_NODES = 100_000
MAX_DEPTH = 64

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
    items: tuple["Node", ...]
    span: Span


@dataclass(frozen=True, slots=True)
class MapNode:
    entries: tuple[tuple[ScalarNode, "Node"], ...]
    span: Span

    def get(self, key: object) -> "Node | None":
        for k, v in self.entries:
            if k.value == key:
                return v
        return None

    def key_node(self, key: object) -> ScalarNode | None:
        for k, _ in self.entries:
            if k.value == key:
                return k
        return None

    def keys(self) -> list[object]:
        return [k.value for k, _ in self.entries]

    def items(self) -> Iterator[tuple[ScalarNode, "Node"]]:
        return iter(self.entries)


Node = Union[ScalarNode, SeqNode, MapNode]


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


def display_path(path: str) -> str:
    """A path relative to the working directory when it lies below it (stable in messages)."""
    try:
        rel = os.path.relpath(path)
    except ValueError:
        return path
    return path if rel.startswith("..") else rel.replace(os.sep, "/")


def load(path: str, sources: SourceMap | None = None) -> Document:
    """Read and compose one spec file; raise CompileError with located diagnostics."""
    name = display_path(path)
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_FILE_BYTES + 1)
    except FileNotFoundError:
        raise CompileError([Diagnostic("E001", f"file not found: {name}")]) from None
    except IsADirectoryError:
        raise CompileError([Diagnostic("E001", f"not a file but a directory: {name}")]) from None
    except OSError as err:
        raise CompileError([Diagnostic("E001", f"cannot read {name}: {err.strerror}")]) from None
    return load_bytes(data, name, sources)


def load_bytes(data: bytes, name: str, sources: SourceMap | None = None) -> Document:
    if len(data) > MAX_FILE_BYTES:
        raise CompileError([Diagnostic(
            "E002", f"file is too large for a spec (over {MAX_FILE_BYTES // 1_000_000} MB)",
            Span(name, 1, 1))])
    if b"\x00" in data:
        line = data[: data.index(b"\x00")].count(b"\n") + 1
        raise CompileError([Diagnostic("E002", "file is binary, not a YAML text file (it contains a NUL byte)",
                                       Span(name, line, 1))])
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data[: err.start].count(b"\n") + 1
        col = err.start - (data.rfind(b"\n", 0, err.start) + 1) + 1
        raise CompileError([Diagnostic(
            "E002", f"file is not valid UTF-8 (byte 0x{data[err.start]:02x} at offset {err.start})",
            Span(name, line, col))]) from None
    if text.startswith("\ufeff"):
        text = text[1:]
    if sources is not None:
        sources.add(name, text)
    document = Document(name, text, None, text.splitlines())
    document.root = _compose(text, name)
    return document


def _compose(text: str, name: str) -> Node | None:
    try:
        nodes = list(yaml.compose_all(text, Loader=yaml.SafeLoader))
    except yaml.MarkedYAMLError as err:
        mark = err.problem_mark or err.context_mark
        message = err.problem or err.context or "invalid YAML"
        if err.context and err.problem:
            message = f"{err.problem} ({err.context})"
        span = Span(name, mark.line + 1, mark.column + 1) if mark else Span(name, 1, 1)
        raise CompileError([Diagnostic("E010", f"invalid YAML: {message}", span)]) from None
    except yaml.reader.ReaderError as err:  # a character YAML does not allow; it knows only the offset
        line = text.count("\n", 0, err.position) + 1
        col = err.position - (text.rfind("\n", 0, err.position) + 1) + 1
        char = err.character if isinstance(err.character, str) else chr(err.character)
        raise CompileError([Diagnostic(
            "E010", f"invalid YAML: the character U+{ord(char):04X} is not allowed in a YAML file",
            Span(name, line, col, line, col + 1))]) from None
    except yaml.YAMLError as err:
        first = str(err).strip().splitlines()[0] if str(err).strip() else "invalid YAML"
        raise CompileError([Diagnostic("E010", f"invalid YAML: {first}", Span(name, 1, 1))]) from None
    except RecursionError:
        raise CompileError([Diagnostic("E012", f"nesting is deeper than {MAX_DEPTH} levels", Span(name, 1, 1))]) from None
    if not nodes:
        raise CompileError([Diagnostic("E011", "the file is empty: a spec is a YAML mapping", Span(name, 1, 1))])
    if len(nodes) > 1:
        second = nodes[1].start_mark
        raise CompileError([Diagnostic(
            "E011", "a spec file holds one YAML document, this one holds several",
            Span(name, second.line + 1, second.column + 1))])
    return _Converter(name).convert(nodes[0])


class _Converter:
    """PyYAML node graph -> our frozen nodes, with the checks PyYAML does not make."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.count = 0
        self.constructor = SafeConstructor()

    def span(self, node: YamlNode) -> Span:
        s, e = node.start_mark, node.end_mark
        return Span(self.name, s.line + 1, s.column + 1, e.line + 1, e.column + 1)

    def error(self, code: str, message: str, node: YamlNode) -> CompileError:
        return CompileError([Diagnostic(code, message, self.span(node))])

    def convert(self, node: YamlNode, depth: int = 0, stack: tuple = ()) -> Node:
        self.count += 1
        if self.count > MAX_NODES:
            raise self.error("E013", f"the document expands to more than {MAX_NODES} nodes "
                             "(aliases that repeat a large part?)", node)
        if depth > MAX_DEPTH:
            raise self.error("E012", f"nesting is deeper than {MAX_DEPTH} levels", node)
        if id(node) in stack:
            raise self.error("E013", "an alias refers to a node that contains it", node)
        if isinstance(node, YamlScalar):
            return self.scalar(node)
        stack = stack + (id(node),)
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
                key = self.scalar(key_node)
                if isinstance(key.value, float) or key.value is None:
                    raise self.error("E015", f"a mapping key must be a name or a whole number, not {key_node.value!r}", key_node)
                if key.value in seen:
                    first = seen[key.value].span
                    raise CompileError([Diagnostic(
                        "E016", f"duplicate key '{key.value}' (first defined at line {first.line})", key.span)])
                seen[key.value] = key
                entries.append((key, self.convert(value_node, depth + 1, stack)))
            return MapNode(tuple(entries), self.span(node))
        raise self.error("E014", "unsupported YAML node", node)  # pragma: no cover

    def scalar(self, node: YamlScalar) -> ScalarNode:
        if node.tag not in _SCALAR_TAGS:
            raise self.error("E014", f"unsupported YAML tag '{node.tag}' (specs use plain YAML values only)", node)
        try:
            value = self.constructor.construct_object(node)
        except (ConstructorError, ValueError) as err:
            raise self.error("E014", f"bad value {node.value!r}: {err}", node) from None
        if isinstance(value, float) and value != value:
            raise self.error("E014", "NaN is not a value a spec can use", node)
        return ScalarNode(value, self.span(node), node.style)
