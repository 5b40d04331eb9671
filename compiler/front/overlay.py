"""Pass 2b, overlay: a variant file resolved onto its base.

Takes a loaded, schema-valid :class:`~compiler.front.source.Document`. A spec that extends
nothing resolves to itself. A variant (``extends: NAME`` or ``extends: path.yaml``)
has its base loaded, schema-checked and resolved first (chains recurse, cycles are
errors), then the variant is laid over it; :func:`resolve` returns a :class:`Resolved`
whose root is one merged :class:`~compiler.front.source.MapNode` in which every node keeps
the span of the file that wrote it, so a later pass points into whichever file holds
the problem.

The rules of the overlay (the reference is rulespec/README.md):

* Keyed collections -- ``kinds``, ``players``, ``values``, ``actions``, ``end_of_turn``, ``end``,
  ``winners.ranking`` and a decision's ``choose`` -- are matched by key (a base without
  the collection has it empty). An existing
  key is merged field by field; a new key needs ``add: true`` and is then complete,
  placed at the end or by ``before: KEY`` / ``after: KEY``; ``remove: REASON`` deletes
  a key. In an ordered collection (``actions``, ``end_of_turn``, ``end``, ``winners.ranking``: those
  whose schema entry lets ``before``/``after`` go without ``add``, ``kinds`` too) an existing key given
  ``before``/``after`` moves there, recorded as a set of ``PATH.KEY.position``.
* An editable list (``effects``, ``interpretations``: a schema field that also takes
  ``{prepend, append}``) given as that mapping keeps the base's items and adds the
  prepended ones before them and the appended ones after them (a set of the list's path);
  every item keeps the span of the file that wrote it. A plain list replaces.
* Fixed mappings (the document, ``components``, ``winners``, an entry's fields) are
  merged field by field; scalars, lists and texts (``title``, ``note``...) replace.
* Changing what the base does not have is an error, with a "did you mean".

Every set, add and remove is recorded as a :class:`~compiler.model.Change` with its
dotted path, file, span and note (the entry's own note; for a field of ``winners``,
the note on ``winners``; for a new choice without one, its decision's note). The
bookkeeping keys (``add``, ``remove``, ``before``, ``after``) and ``extends`` do not
appear in the merged tree; ``note`` stays where the schema allows it. A merged
mapping takes the key and span of the variant's side, the fields it did not touch
keep the base's. Which fields each kind of entry has comes from rulespec/schema.json.

Codes: E301 base not found, E302 cycle, E303 a key the base lacks, E304 ``add`` of a
key the base has, E305 removing what is not there, E306 a removal without a reason,
E307 ``before``/``after`` naming no entry (or the entry itself), E308 a field that does not exist or does
not fit the entry, E309 a bad ``extends``, E310 an entry that is not a mapping, E311
bookkeeping keys where they mean nothing, E312 a removal with other fields, E313
``prepend``/``append`` where there is no base list to edit (a new entry), E314 a chain of
variants deeper than MAX_CHAIN (an absolute path in ``extends`` is an E309).
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass

from ..diagnostics import CompileError, Diagnostic, Reporter, SourceMap, Span, did_you_mean, sorted_diagnostics
from ..model import Change, SpecFile, Text
from . import schema, source
from .locate import find_base
from .partial import leave_out, overlaps
from .reading import read_input
from .shapes import BOOKKEEPING, LIST_EDITS, Shape, shapes
from .source import Document, MapNode, Node, ScalarNode, SeqNode


@dataclass(frozen=True)
class Resolved:
    root: MapNode
    source: SpecFile
    bases: tuple[SpecFile, ...]
    changes: tuple[Change, ...]
    # Entries with schema errors were left out (partial.leave_out): a collection may be empty
    # for that reason alone, which check does not report again.
    incomplete: bool = False


def spec_file(doc: Document) -> SpecFile:
    name_node = doc.root.get("name") if isinstance(doc.root, MapNode) else None
    name = name_node.value if isinstance(name_node, ScalarNode) and name_node.value else doc.path
    return SpecFile(str(name), doc.path, hashlib.sha256(doc.text.encode("utf-8")).hexdigest())


# Top-level fields that name and describe the file itself: replaced, never a rule change.
IDENTITY = ("spec", "name", "title", "description", "extends")
MAX_CHAIN = 32  # variants in one chain of `extends` (rulespec/README.md): deeper is a mistake or an attack


# --------------------------------------------------------------------------- resolving


def resolve(doc: Document, sources: SourceMap | None = None, found: list[Diagnostic] | None = None) -> Resolved:
    """Resolve `doc` onto its chain of bases; raise CompileError with located diagnostics.

    With a list `found`, the errors of the variant's own changes go there instead, and the
    resolution goes on without the changes they are about (the base's entry stays) and without
    the entries the schema check of the result finds wrong (``partial.leave_out``), so that the
    next pass still checks the rest; CompileError when nothing is left to check."""
    return _resolve(doc, sources, (), found)


def _resolve(
    doc: Document,
    sources: SourceMap | None,
    chain: tuple[tuple[str, str, Span], ...],
    found: list[Diagnostic] | None = None,
) -> Resolved:
    if not isinstance(doc.root, MapNode):
        raise CompileError([Diagnostic("E100", "a spec is a YAML mapping", None)])
    extends = doc.root.get("extends")
    if extends is None:
        return Resolved(doc.root, spec_file(doc), (), ())
    here = (os.path.realpath(doc.path), doc.path, extends.span)
    if len(chain) >= MAX_CHAIN:
        raise CompileError([_chain_too_long(chain + (here,))])
    base_path = find_base(extends, doc)
    real = os.path.realpath(base_path)
    seen = [c[0] for c in chain] + [here[0]]
    if real in seen:
        names = [c[1] for c in chain] + [here[1]]
        loop = names[seen.index(real) :] + [names[seen.index(real)]]
        raise CompileError(
            [
                Diagnostic(
                    "E302",
                    "variant chain has a cycle: " + " extends ".join(loop),
                    extends.span,
                    (f"{here[1]} extends {source.display_path(base_path)}, which is already in the chain",),
                )
            ]
        )
    base = _base(base_path, sources, chain + (here,))
    merger = _Merger(doc.path)
    root = merger.fixed(base.root, doc.root, shapes(), (), None)
    if found is None:
        merger.reporter.raise_if_errors()
        # The merged document must be a complete spec: validate it as one (its nodes keep their spans).
        schema.validate(Document(doc.path, doc.text, root, doc.raw_lines))
    else:
        # The entries a change in error was about are left out (half merged); the other changes
        # in error were not applied. A schema error of the result at the node of a change in
        # error is the same mistake, reported once.
        mistakes = merger.reporter.diagnostics
        found.extend(mistakes)
        kept = leave_out(root, mistakes, variant=False, strict=False)
        errors = schema.check_tree(kept, doc.path, variant=False) if kept is not None else []
        found.extend(e for e in errors if not any(overlaps(e.span, m.span) for m in mistakes))
        kept = leave_out(kept, errors, variant=False) if errors else kept
        if kept is None:
            raise CompileError(sorted_diagnostics(found))
        root = kept
    return Resolved(root, spec_file(doc), (base.source,) + base.bases, base.changes + tuple(merger.changes))


def _base(path: str, sources: SourceMap | None, chain: tuple[tuple[str, str, Span], ...]) -> Resolved:
    """The base at `path` read, validated and resolved onto its own bases: once per run for one
    file at one depth of the chain (every variant of a catalogue extends the official rules, which
    a server's start read and validated once per variant). The key names the file's bytes; a
    base in error raises, and is not kept. The chain above does not change a base that resolves:
    a cycle through it would have been found within it."""

    def resolved() -> Resolved:
        doc = source.load(path, sources)
        schema.validate(doc)
        return _resolve(doc, sources, chain)

    if sources is None:
        return resolved()
    try:
        digest = hashlib.sha256(read_input(path)).hexdigest()
    except OSError:
        return resolved()  # source.load says why, located
    return sources.derived(("resolved base", os.path.realpath(path), digest, len(chain)), resolved)


def _chain_too_long(chain: tuple[tuple[str, str, Span], ...]) -> Diagnostic:
    """E314 at the `extends` of the file the user gave: the chain from it is too long to follow."""
    files = [c[1] for c in chain]
    shown = " extends ".join(files[:3]) + f" ... {files[-1]} ({len(files)} variants so far)"
    return Diagnostic(
        "E314",
        f"the chain of variants is longer than {MAX_CHAIN}: a variant of a variant of ... "
        f"goes at most {MAX_CHAIN} deep",
        chain[0][2],
        (shown,),
    )


# --------------------------------------------------------------------------- merging


def text_of(node: Node | None) -> Text | None:
    """A note or reason as a model Text (a string, or a mapping en/fr/nl/sr); None if neither."""
    if isinstance(node, ScalarNode) and isinstance(node.value, str) and node.value.strip():
        return Text(node.value.strip())
    if isinstance(node, MapNode):
        plain = {
            str(k.value): v.value for k, v in node.entries if isinstance(v, ScalarNode) and isinstance(v.value, str)
        }
        if isinstance(plain.get("en"), str) and plain["en"].strip():
            return Text(plain["en"].strip(), tuple(sorted((k, v.strip()) for k, v in plain.items() if k != "en")))
    return None


class _Merger:
    """Lays one variant document over its resolved base; collects diagnostics and changes."""

    def __init__(self, file: str):
        self.file = file
        self.reporter = Reporter()
        self.changes: list[Change] = []

    def error(self, code: str, message: str, span: Span | None, *notes: str) -> None:
        self.reporter.error(code, message, span, *notes)

    def change(self, kind: str, path: tuple, span: Span, note: Text | None) -> None:
        self.changes.append(Change(kind, ".".join(str(p) for p in path), self.file, span, note))

    # ---- fixed mappings

    def fixed(self, base: MapNode, var: MapNode, shape: Shape, path: tuple, note: Text | None) -> MapNode:
        """Merge a fixed mapping field by field; the variant's fields replace or merge into the base's."""
        if not shape.is_entry and isinstance(var.get("note"), (ScalarNode, MapNode)):
            note = text_of(var.get("note")) or note  # a note on `winners` explains the changes inside it
        entries = [(k, v) for k, v in base.entries if not (path == () and k.value == "extends")]
        index = {k.value: i for i, (k, _) in enumerate(entries)}
        for key, vnode in var.entries:
            name = key.value
            if path == () and name == "extends":
                continue
            if name in BOOKKEEPING:
                if shape.is_entry:
                    continue  # handled by the keyed collection that holds this entry
                self.error(
                    "E311",
                    f"'{name}' applies to an entry of a keyed collection (kinds, players, values, "
                    f"actions, end_of_turn, end, winners.ranking, choose), not to {shape.label}",
                    key.span,
                )
                continue
            if not shape.has(name):
                self.error(
                    "E308",
                    f"{shape.label} has no field '{name}'{did_you_mean(str(name), shape.fields)}",
                    key.span,
                    f"the fields of {shape.label}: {', '.join(shape.fields)}",
                )
                continue
            sub = shape.fields.get(name) if isinstance(name, str) else None
            bnode = entries[index[name]][1] if name in index else None
            if bnode is None and name in shape.requires:
                other, allowed = shape.requires[name]
                onode = var.get(other) if var.get(other) is not None else base.get(other)
                have = onode.value if isinstance(onode, ScalarNode) else None
                if have not in allowed:
                    self.error(
                        "E308",
                        f"'{name}' only applies to {shape.label} whose {other} is "
                        f"{' or '.join(allowed)}, and this one's is {have!r}",
                        key.span,
                    )
                    continue
            if name in shape.lists and isinstance(vnode, MapNode):
                merged = self.edit_list(bnode, vnode, path + (name,), note)
            else:
                merged = self.field(bnode, vnode, sub, path + (name,), note)
            if name in index:
                entries[index[name]] = (key, merged)
            else:
                index[name] = len(entries)
                entries.append((key, merged))
        return MapNode(tuple(entries), var.span)

    def field(self, bnode: Node | None, vnode: Node, sub: Shape | None, path: tuple, note: Text | None) -> Node:
        """One field of a fixed mapping: merged when both sides are mappings of a known shape, else replaced."""
        if sub is not None and isinstance(vnode, MapNode):
            if sub.kind == "keyed":
                return self.keyed(bnode if isinstance(bnode, MapNode) else None, vnode, sub, path, note)
            if isinstance(bnode, MapNode):
                return self.fixed(bnode, vnode, sub, path, note)
        # a replaced value: a scalar, a list, a text, or a whole fixed mapping the base did not have
        if sub is not None and sub.kind == "fixed" and isinstance(vnode, MapNode):
            self.no_bookkeeping(vnode, sub)
        if not (path[0] in IDENTITY and len(path) == 1) and path[-1] != "note":
            change_path = path[:-1] if path[-1] == "value" and len(path) == 3 and path[0] == "values" else path
            self.change("set", change_path, vnode.span, note)
        return vnode

    def edit_list(self, bnode: Node | None, vnode: MapNode, path: tuple, note: Text | None) -> Node:
        """A list edited in place: {prepend: [...], append: [...]} around the base's items."""
        if bnode is not None and not isinstance(bnode, SeqNode):
            self.error(
                "E313",
                f"'{path[-1]}' of the base is not a list, so it cannot be edited with "
                f"{' or '.join(LIST_EDITS)}; give the whole list",
                vnode.span,
            )
            return vnode
        kept = bnode.items if bnode is not None else ()
        added = {k.value: v.items for k, v in vnode.entries if isinstance(v, SeqNode)}
        items = tuple(added.get("prepend", ())) + tuple(kept) + tuple(added.get("append", ()))
        self.change("set", path, vnode.span, text_of(vnode.get("note")) or note)  # an edit may say why
        return SeqNode(items, vnode.span)

    # ---- keyed collections

    def add(
        self,
        entries: list[tuple[ScalarNode, Node]],
        key: ScalarNode,
        vnode: MapNode,
        add: Node,
        shape: Shape,
        path: tuple[object, ...],
        of: str,
        note: Text | None,
    ) -> None:
        """A new entry (`add: true`), put where `before`/`after` say or last."""
        name, what = key.value, shape.label
        keys = [k.value for k, _ in entries]
        assert shape.entry is not None
        if not (isinstance(add, ScalarNode) and add.value is True):
            self.error(
                "E311", "'add' is written 'add: true' (a new entry); leave it out to change an existing one", add.span
            )
            return
        if name in keys:
            self.error(
                "E304",
                f"the base already has the {what} '{name}'{of}; to change it, drop 'add: true' "
                "and give only the fields that change",
                key.span,
            )
            return
        entry = self.new_entry(vnode, shape.entry)
        position = self.position(vnode, keys, what, path)
        index = len(entries) if position is None else position
        entries.insert(index, (key, entry))
        own = text_of(vnode.get("note")) if vnode.get("note") is not None else None
        self.change("add", path + (name,), key.span, own or note)

    def change_entry(
        self,
        entries: list[tuple[ScalarNode, Node]],
        i: int,
        key: ScalarNode,
        vnode: MapNode,
        shape: Shape,
        path: tuple[object, ...],
        shorthand: bool,
        note: Text | None,
    ) -> None:
        """An existing entry changed field by field (a value written alone replaces it), and moved
        when the collection's order matters and `before`/`after` say where."""
        name, what = key.value, shape.label
        assert shape.entry is not None
        bentry = entries[i][1]
        if shape.entry.shorthand and not isinstance(bentry, MapNode):
            bentry = MapNode(((ScalarNode(shape.entry.shorthand, bentry.span), bentry),), bentry.span)
        if not isinstance(bentry, MapNode):
            self.error("E310", f"the base's {what} '{name}' is not a mapping and cannot be merged", key.span)
            return
        note_node = vnode.get("note")
        entry_note = text_of(note_node) if note_node is not None else None
        fixed = self.fixed(bentry, vnode, shape.entry, path + (name,), entry_note or note)
        written, kept = vnode.get("value"), fixed.get("value")
        merged: Node = fixed
        if shape.entry.is_value and shorthand and written is not None:
            merged = written
        elif shape.entry.is_value and kept is not None and fixed.keys() == ["value"]:
            merged = kept
        entries[i] = (key, merged)
        if vnode.get("before") is None and vnode.get("after") is None:
            return
        if not shape.movable:
            for word in ("before", "after"):
                if vnode.get(word) is not None:
                    self.error(
                        "E311",
                        f"'{word}' places a new entry (with 'add: true'); an existing {what} keeps its place",
                        vnode.key_span(word),
                    )
            return
        self.move(entries, i, key, vnode, what, path, entry_note or note)

    def keyed(self, base: MapNode | None, var: MapNode, shape: Shape, path: tuple, note: Text | None) -> MapNode:
        """Merge a keyed collection: change, add or remove its entries by key.

        `note` is the note of the entry that holds this collection (an action, for its
        choices): a new choice without a note of its own is explained by it."""
        entries: list[tuple[ScalarNode, Node]] = list(base.entries) if base is not None else []
        original = [k.value for k, _ in entries]
        what = shape.label
        of = f" of '{path[-2]}'" if path and path[-1] == "choose" else ""  # a decision's choices
        assert shape.entry is not None
        for key, vnode in var.entries:
            name = key.value
            keys = [k.value for k, _ in entries]
            if shape.entry.shorthand and not isinstance(vnode, MapNode):
                vnode = MapNode(((ScalarNode(shape.entry.shorthand, vnode.span), vnode),), vnode.span)
                shorthand = True
            else:
                shorthand = False
            if not isinstance(vnode, MapNode):
                self.error("E310", f"the {what} '{name}' must be a mapping of the fields it changes", vnode.span)
                continue
            add, remove = vnode.get("add"), vnode.get("remove")
            if remove is not None:
                self.remove(entries, key, vnode, remove, shape, path, original, of)
                continue
            if add is not None:
                self.add(entries, key, vnode, add, shape, path, of, note)
                continue
            if name not in keys:
                close = _close(name, original)
                self.error(
                    "E303",
                    f"the base has no {what} '{name}'{of}" + (f" (did you mean '{close}'?)" if close else ""),
                    key.span,
                    f"the base's {what}s{of}: {', '.join(map(str, original)) or 'none'}",
                    "" if close else f"a new {what} is given complete, with 'add: true'",
                )
                continue
            self.change_entry(entries, keys.index(name), key, vnode, shape, path, shorthand, note)
        return MapNode(tuple(entries), var.span)

    def move(
        self, entries: list, i: int, key: ScalarNode, vnode: MapNode, what: str, path: tuple, note: Text | None
    ) -> None:
        """Move the existing entry at `i` before or after another entry (an ordered collection)."""
        name = key.value
        word = "before" if vnode.get("before") is not None else "after"
        target = vnode.get(word)
        if vnode.get("before") is not None and vnode.get("after") is not None:
            self.error("E307", "give 'before' or 'after', not both", vnode.key_span("after"))
            return
        if isinstance(target, ScalarNode) and target.value == name:
            self.error(
                "E307",
                f"'{word}' names the {what} '{name}' itself: name the {what} it goes {word}",
                target.span,
                f"the other {what}s: " + ", ".join(str(k.value) for k, _ in entries if k.value != name),
            )
            return
        moving = entries.pop(i)
        position = self.position(vnode, [k.value for k, _ in entries], what, path)
        if position is None:  # reported; it stays where it was
            entries.insert(i, moving)
            return
        entries.insert(position, moving)
        self.change("set", path + (name, "position"), vnode.key_span(word), note)

    def remove(
        self,
        entries: list,
        key: ScalarNode,
        vnode: MapNode,
        remove: Node,
        shape: Shape,
        path: tuple,
        original: list,
        of: str,
    ) -> None:
        name, what = key.value, shape.label
        others = [k for k in vnode.entries if k[0].value != "remove"]
        keys = [k.value for k, _ in entries]
        if others:
            fields = ", ".join(str(k.value) for k, _ in others)
            self.error("E312", f"a removed {what} takes no other fields (here: {fields})", others[0][0].span)
            return
        reason = text_of(remove)
        if reason is None:
            self.error("E306", f"removing the {what} '{name}'{of} needs a reason: remove: \"why it goes\"", remove.span)
            return
        if name not in keys:
            close = _close(name, original)
            self.error(
                "E305",
                f"cannot remove the {what} '{name}'{of}: the base has no such {what}"
                + (f" (did you mean '{close}'?)" if close else ""),
                key.span,
                f"the base's {what}s{of}: {', '.join(map(str, original)) or 'none'}",
            )
            return
        del entries[keys.index(name)]
        self.change("remove", path + (name,), key.span, reason)

    def position(self, vnode: MapNode, keys: list, what: str, path: tuple) -> int | None:
        """The index named by before/after among `keys`, or None (at the end / where it is)."""
        before, after = vnode.get("before"), vnode.get("after")
        if before is not None and after is not None:
            self.error("E307", "give 'before' or 'after', not both", after.span)
            return None
        node = before if before is not None else after
        if node is None:
            return None
        target = node.value if isinstance(node, ScalarNode) else None
        if target not in keys:
            close = _close(target, keys) if target is not None else None
            self.error(
                "E307",
                f"'{'before' if before is not None else 'after'}' names no {what} of the base: "
                f"'{target}'" + (f" (did you mean '{close}'?)" if close else ""),
                node.span,
                f"the {what}s: {', '.join(map(str, keys)) or 'none'}",
            )
            return None
        i = keys.index(target)
        return i if before is not None else i + 1

    def new_entry(self, vnode: MapNode, shape: Shape) -> MapNode:
        """A new entry as written, without its own bookkeeping keys."""
        entries = tuple((k, v) for k, v in vnode.entries if k.value not in BOOKKEEPING)
        out = MapNode(entries, vnode.span)
        for k, v in entries:
            if k.value in shape.lists and isinstance(v, MapNode):
                self.error(
                    "E313",
                    f"a new {shape.label.split(' ', 1)[-1]} has no '{k.value}' of the base to edit: "
                    f"give the whole list, not {' or '.join(LIST_EDITS)}",
                    v.entries[0][0].span if v.entries else v.span,
                )
                continue
            sub = shape.fields.get(k.value) if isinstance(k.value, str) else None
            if sub is not None and isinstance(v, MapNode):
                self.no_bookkeeping(v, sub)
        if shape.is_value and [k.value for k, _ in entries] == ["value"]:
            return entries[0][1]  # type: ignore[return-value]
        return out

    def no_bookkeeping(self, node: MapNode, shape: Shape) -> None:
        """Inside a new or wholly replaced part, add/remove/before/after mean nothing: report them."""
        if shape.kind == "keyed":
            for _, entry in node.entries:
                if isinstance(entry, MapNode) and shape.entry is not None:
                    self.no_bookkeeping(entry, shape.entry)
            return
        for k, v in node.entries:
            if k.value in BOOKKEEPING:
                self.error("E311", f"'{k.value}' has no meaning inside a new part: all of it is new", k.span)
                continue
            sub = shape.fields.get(k.value) if isinstance(k.value, str) else None
            if sub is not None and isinstance(v, MapNode):
                self.no_bookkeeping(v, sub)


def _close(name: object, keys: list) -> str | None:
    hint = did_you_mean(str(name), [str(k) for k in keys])
    return hint[len(" (did you mean '") : -len("'?)")] if hint else None
