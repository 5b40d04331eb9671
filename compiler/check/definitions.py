"""The `define` and `prestige` sections: definitions and prestige sources, checked.

A definition is a named, parameterised condition or quantity (`has_rainbow(p)`), called as
`name(arguments)` in every expression. It reads its parameters and the game's globals only,
so it means the same in a condition, a ranking and a prestige source: `me` or `player` in
its body is E550, and so is recursion (a definition calling itself, directly or through
others), which inlining could never finish. Its result type is inferred from its body; a
call is typed like a built-in function (E408 count, E410 argument types) by the Inferrer.

A prestige source is a number over `player` (E554 otherwise) that every reader of a
player's prestige adds to their cards and nobles. It may not read prestige itself (E554):
the total would be defined by itself.

Both are kept in the model as written (the sheets phrase a call by its title); the lowering
inlines calls (:func:`inline`, compiler/lower/definitions.py), and so do the bounds.
"""

from __future__ import annotations

from ..diagnostics import Diagnostic, Span
from ..front.expr import Aggregate, Attribute, Call, Effect, ForEach, Name, Sequence, children, walk
from ..front.source import MapNode, ScalarNode
from ..language import ColumnType
from ..language.types import EFFECTS as EFFECTS_GIVEN
from ..model import Definition, PrestigeSource
from . import procedures as procedures_mod
from .inlining import _free
from .types import (
    AGGREGATES,
    BOOL,
    CARD,
    COLOUR,
    EFFECTS,
    ERROR,
    FUNCTIONS,
    GEM,
    GLOBALS,
    INT,
    NOBLE,
    PLAYER,
    AnyType,
    Keyword,
    Scope,
    assignable,
    component_type,
    noun,
)

# The types a parameter may be declared with, by the word a spec writes (a kind's name too).
PARAM_TYPES = {
    "number": INT,
    "flag": BOOL,
    "gem": GEM,
    "colour": COLOUR,
    "player": PLAYER,
    "card": CARD,
    "noble": NOBLE,
}
# What a definition may give: the values the sheets phrase and the engines compare.
RESULTS = (INT, BOOL, GEM, COLOUR, PLAYER, ERROR)  # not a keyword: a definition compares, never names one
# The names that stand for a player only where the spec's text is about one (a decision's actor,
# the player ranked); a definition is about its parameters.
CONTEXT_NAMES = ("me", "player")
_ENDS = (
    "every list of effects a spec writes ends: repeat an effect with a `for` over a collection, or with a "
    "step that repeats (`repeat: while`)"
)
_KEYWORDS = ("true", "false", "if", "then", "else", "and", "or", "not", "in", "for")


def builtin_meaning(name: str) -> str:
    """What a built-in name already means, as E540 says it ('' when it is not built in)."""
    if name in FUNCTIONS or name in AGGREGATES:
        return f"a built-in function ({name}(...))"
    if name in EFFECTS:
        return f"an effect ({name}(...))"
    if name in GLOBALS:
        return "a name of the game (rulespec/README.md, Names)"
    if name in CONTEXT_NAMES:
        return "the player a rule is about"
    if name in _KEYWORDS:
        return "a word of the expression language"
    return ""


class Sections:
    """Checks the `define` and `prestige` sections with the Checker's helpers (its reporter,
    its parsers and its Inferrer, which learns each definition as it is typed)."""

    def __init__(self, checker, scope_names: dict, gems: tuple[str, ...], wild: str, kinds, values):
        self.c = checker
        self.r = checker.r
        self.scope_names = scope_names
        self.gems, self.wild = gems, wild
        self.kinds = {k.name: k for k in kinds}
        self.values = {v.name: v for v in values}

    def taken(self, name: str) -> tuple[str, Span | None] | None:
        """What `name` already means in this spec, and where it is declared (None: free)."""
        builtin = builtin_meaning(name)
        if builtin:
            return builtin, None
        if name in self.gems:
            return "a gem colour", self.c.spans.get("components.gems")
        if name == self.wild:
            return "the wild colour", None
        if name in self.values:
            return "a value", self.values[name].span
        if name in self.kinds:
            return "a kind of component", self.kinds[name].span
        return None

    def clash(self, name: str, span: Span, what: str) -> bool:
        """E540 when `name` (of a `what`) is already taken; True when it was."""
        taken = self.taken(name)
        if taken is None:
            return False
        meaning, where = taken
        notes = (f"it is declared at {where.file}:{where.line}",) if where is not None else ()
        self.r.error(
            "E540", f"'{name}' is already the name of {meaning}: choose another name for this {what}", span, *notes
        )
        return True

    # ------------------------------------------------------------------ definitions

    def definitions(self) -> tuple[Definition, ...]:
        table = self.c.node(self.c.root, "define", MapNode, required=False)
        raw: list[tuple[str, ScalarNode, MapNode]] = []
        for key, entry in table.entries if table else ():
            if not isinstance(entry, MapNode):
                self.r.error("E103", f"definition '{key.value}' must be a mapping", entry.span)
                continue
            self.c.spans[f"define.{key.value}"] = key.span
            if self.clash(str(key.value), key.span, "definition"):
                continue
            raw.append((str(key.value), key, entry))
        names = {name for name, _, _ in raw}
        parsed = {}
        for name, key, entry in raw:
            where = f" in definition '{name}'"
            params = self.params(name, entry, where)
            if entry.get("do") is not None:  # a procedure: effects (compiler/check/procedures.py)
                body = procedures_mod.read_body(self.c, entry, name)
            else:
                body_node = self.c.node(entry, "is", where=where)
                body = self.c.expression(body_node, "definition")
                if body_node is not None:
                    self.c.spans[f"define.{name}.meaning"] = body_node.span
            title = self.c.text(entry, "title")
            parsed[name] = (key, entry, params, body, title)
        cyclic = self.recursion({n: p[3] for n, p in parsed.items() if p[3] is not None}, names)
        out: dict[str, Definition] = {}
        for name in self.order(parsed):
            key, entry, params, body, title = parsed[name]
            if body is None or params is None or name in cyclic:  # reported; a cycle never inlines
                self.c.types.definitions[name] = (params, ERROR)  # params None: calls not checked
                if entry.get("do") is not None:
                    procedures_mod.register(self.c, name, params, ())
                continue
            if isinstance(body, Sequence):  # a procedure's effects
                written = procedures_mod.body_type(self.c, self.scope_names, name, params, body)
                if written is not None:
                    out[name] = Definition(name, title, params, written, EFFECTS_GIVEN, key.span, self.c.note(entry))
                continue
            result = self.body_type(name, params, body)
            self.c.types.definitions[name] = (params, result)
            out[name] = Definition(name, title, params, body, result, key.span, self.c.note(entry))
        return tuple(out[name] for name, _, _ in raw if name in out)

    def params(self, name: str, entry: MapNode, where: str) -> tuple[tuple[str, object], ...] | None:
        node = entry.get("params")
        if node is None:
            return ()
        if not isinstance(node, MapNode):
            self.r.error("E103", f"'params'{where} must be a mapping of parameter names to types", node.span)
            return None
        out: list[tuple[str, object]] = []
        ok = True
        for pkey, pnode in node.entries:
            pname = str(pkey.value)
            if self.clash(pname, pkey.span, f"parameter of '{name}'"):
                ok = False
                continue
            word = pnode.value if isinstance(pnode, ScalarNode) else None
            t: AnyType | None = PARAM_TYPES.get(word) if isinstance(word, str) else None
            if t is None and isinstance(word, str) and word in self.kinds:
                t = component_type(self.kinds[word])
            if t is None and isinstance(word, str) and word.count(".") == 1:
                t = self.keyword_type(word)
            if t is None:
                known = (
                    list(PARAM_TYPES)
                    + list(self.kinds)
                    + [
                        f"{k}.{c.name}"
                        for k, kind in self.kinds.items()
                        for c in kind.columns
                        if c.type is ColumnType.KEYWORD
                    ]
                )
                self.r.error(
                    "E106", f"parameter '{pname}'{where} must have a type: one of {', '.join(known)}", pnode.span
                )
                ok = False
                continue
            out.append((pname, t))
        return tuple(out) if ok else None

    def keyword_type(self, word: str) -> AnyType | None:
        """`posts.power`: a keyword of that column of that kind (None when it names none)."""
        kind, column = word.split(".")
        found = self.kinds.get(kind)
        if found is not None and any(c.name == column and c.type is ColumnType.KEYWORD for c in found.columns):
            return Keyword(kind, column)
        return None

    def recursion(self, bodies: dict, names: set[str]) -> set[str]:
        """E550 at the call that closes a cycle of definitions; the names on cycles."""
        calls = {n: [x for x in walk(b) if _callee(x) in names] for n, b in bodies.items()}
        on_cycles = _on_cycles({n: [_callee(c) for c in cs] for n, cs in calls.items()})
        cyclic: set[str] = set()
        for start in bodies:
            if start not in on_cycles:
                continue
            path = self._cycle(start, calls)
            cyclic.add(start)
            call = next(x for x in calls[start] if _callee(x) == (path[0] if path else start))
            through = f" (through {', '.join(repr(p) for p in path)})" if path else ""
            what = "procedure" if isinstance(bodies[start], Sequence) else "definition"
            notes = (_ENDS,) if what == "procedure" else ()
            self.r.error(
                "E550",
                f"{what} '{start}' calls itself{through}: a {what} is written out where it "
                "is called, so it cannot be recursive",
                call.span,
                *notes,
            )
        return cyclic

    @staticmethod
    def _cycle(start: str, calls: dict) -> list[str]:
        """The definitions between `start` and a call back to it, the first found in call order
        (`start` is on a cycle): a search that visits each definition once."""
        stack: list[tuple[str, list[str]]] = [(start, [])]
        seen = {start}
        while stack:
            at, path = stack.pop(0)
            for call in calls.get(at, ()):
                if _callee(call) == start:
                    return path
            for call in calls.get(at, ()):
                if _callee(call) not in seen:
                    seen.add(_callee(call))
                    stack.append((_callee(call), path + [_callee(call)]))
        return []

    def order(self, parsed: dict) -> list[str]:
        """The definitions, each after those it calls (cycles left in spec order)."""
        done: dict[str, None] = {}  # in order; a dict, so that each definition is visited once

        def visit(name: str, seen: frozenset) -> None:
            if name in done or name in seen or name not in parsed:
                return
            body = parsed[name][3]
            for x in walk(body) if body is not None else ():
                if _callee(x):
                    visit(_callee(x), seen | {name})
            done[name] = None

        for name in parsed:
            visit(name, frozenset())
        return list(done)

    def body_type(self, name: str, params, body):
        """The type of a definition's body, over its parameters and the globals; E550 for `me`/`player`."""
        bound = {p for p, _ in params}
        for context in sorted(free_context(body) - bound):
            span = next(x.span for x in walk(body) if isinstance(x, Name) and x.id == context)
            self.r.error(
                "E550",
                f"definition '{name}' reads '{context}': a definition reads its parameters and the "
                "game's names only, so that it means the same wherever it is called",
                span,
                f"give it a parameter `p: player` and call it as {name}({context}{', ...' if params else ''})",
            )
        names = {**self.scope_names, **{c: ERROR for c in CONTEXT_NAMES}, **dict(params)}
        before = len(self.r.diagnostics)
        result = self.c.types.infer(body, Scope(names))
        self.c.types.definition_reads[name] = {n: names[n] for n in sorted(_free(body) - bound) if n in names}
        if len(self.r.diagnostics) == before and result not in RESULTS:
            self.r.error(
                "E410",
                f"definition '{name}' must give a number, a condition, a colour or a player, but "
                f"this is {noun(result)}",
                body.span,
            )
            return ERROR
        return result if len(self.r.diagnostics) == before else ERROR

    # ------------------------------------------------------------------ prestige sources

    def prestige(self, definitions) -> tuple[PrestigeSource, ...]:
        table = self.c.node(self.c.root, "prestige", MapNode, required=False)
        scope = Scope({**self.scope_names, "player": PLAYER})
        by_name = {d.name: d for d in definitions}
        out = []
        for key, entry in table.entries if table else ():
            if not isinstance(entry, MapNode):
                self.r.error("E103", f"prestige source '{key.value}' must be a mapping", entry.span)
                continue
            name = str(key.value)
            where = f" in prestige source '{name}'"
            self.c.spans[f"prestige.{name}"] = key.span
            by_node = self.c.node(entry, "by", where=where)
            by = self.c.expression(by_node, "prestige")
            if by_node is not None:
                self.c.spans[f"prestige.{name}.by"] = by_node.span
            title = self.c.text(entry, "title")
            if by is None:
                continue
            before = len(self.r.diagnostics)
            t = self.c.types.infer(by, scope)
            if len(self.r.diagnostics) == before and not assignable(t, INT):
                self.r.error(
                    "E554",
                    f"prestige source '{name}' must be a number of prestige, but this is {noun(t)}",
                    by.span,
                    "write the prestige it gives, as in 'if ... then 3 else 0'",
                )
                continue
            reading = prestige_reading(by, by_name, {})
            if len(self.r.diagnostics) == before and reading is not None:
                self.r.error(
                    "E554",
                    f"prestige source '{name}' reads prestige, which it is part of: the total would "
                    "be defined by itself",
                    reading.span,
                    "count what the prestige comes from (cards, bonuses, nobles) instead",
                )
                continue
            out.append(PrestigeSource(name, title, by, key.span, self.c.note(entry)))
        return tuple(out)


def _callee(node) -> str:
    """The name a node calls: a definition in an expression, a procedure as an effect ('' for none)."""
    if isinstance(node, Call):
        return node.func
    return node.name if isinstance(node, Effect) else ""


def _on_cycles(graph: dict[str, list[str]]) -> set[str]:
    """The nodes of `graph` (name -> the names it calls) that lie on a cycle: those of a strongly
    connected component of two or more, or calling themselves (Tarjan's algorithm, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: set[str] = set()
    for root in graph:
        if root in index:
            continue
        work = [(root, 0)]
        while work:
            node, i = work.pop()
            if i == 0:
                index[node] = low[node] = len(index)
                stack.append(node)
                on_stack.add(node)
            succ = [s for s in graph.get(node, ()) if s in graph]
            if i < len(succ):
                work.append((node, i + 1))
                nxt = succ[i]
                if nxt not in index:
                    work.append((nxt, 0))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    x = stack.pop()
                    on_stack.discard(x)
                    component.append(x)
                    if x == node:
                        break
                if len(component) > 1 or node in graph.get(node, ()):
                    out.update(component)
    return out


def prestige_reading(node, definitions: dict, memo: dict):
    """The first place `node` reads prestige (`p.prestige`), through the definitions it calls (each
    body searched once, `memo`), or None."""
    for x in walk(node):
        if isinstance(x, Attribute) and x.name == "prestige":
            return x
        if isinstance(x, Call) and x.func in definitions:
            if x.func not in memo:
                memo[x.func] = None  # a cycle never reaches here (E550), but stop if it did
                memo[x.func] = prestige_reading(definitions[x.func].body, definitions, memo)
            if memo[x.func] is not None:
                return memo[x.func]
    return None


def free_context(node, bound: frozenset = frozenset()) -> set[str]:
    """The names `me` and `player` where `node` reads them unbound (a loop may bind `player`)."""
    match node:
        case Name(id=i) if i in CONTEXT_NAMES and i not in bound:
            return {i}
        case Aggregate(var=v, body=b, collection=c):
            return free_context(c, bound) | free_context(b, bound | {v})
    out: set[str] = set()
    for child in children(node):
        out |= free_context(child, bound)
    return out


# ---------------------------------------------------------------------------- written-out size

MAX_WRITTEN_OUT = 10_000  # expression nodes one call of a definition may stand for, written out in an engine


def rule_expressions(rules):
    """Every expression and statement of the rules where a definition may be called (what the
    lowering writes out: compiler/lower/definitions.py), with the prestige sources."""
    for d in rules.actions + rules.steps:
        for p in d.params:
            yield from (x for x in (p.price, p.worth) if x is not None)
        yield from (x for x in (d.condition, d.while_) if x is not None)
        yield from d.effects
    for t in rules.end:
        yield t.when
    if rules.winners.eligible is not None:
        yield rules.winners.eligible
    yield from (level.by for level in rules.winners.ranking)
    for block in rules.setup:
        yield from block.effects
    yield from (s.by for s in rules.prestige)


def written_out(rules) -> list[Diagnostic]:
    """E556 at each call of a definition that the engine would write out as more than
    MAX_WRITTEN_OUT expression nodes (a definition calling another twice, which calls another
    twice...: 2^N nodes). Each definition's size is worked out once, from those it calls."""
    definitions = {d.name: d for d in rules.definitions}
    size_of = _sizes(definitions, {})
    found: list[Diagnostic] = []
    for node in rule_expressions(rules):
        _too_large(node, size_of, definitions, found)
    return found


def written_size(node, definitions: dict, sizes: dict) -> int:
    """The expression nodes of `node` with every call of a definition written out; `sizes` keeps
    what each definition's body comes to, so that each is worked out once."""
    return _expand(node, frozenset(), _sizes(definitions, sizes), definitions)[0]


def _sizes(definitions: dict, sizes: dict):
    """size_of(name): (the nodes of the definition's body written out, each parameter one node;
    how often each parameter stands in it), kept in `sizes`."""

    def size_of(name: str) -> tuple[int, tuple[int, ...]]:
        if name not in sizes:
            d = definitions[name]
            params = tuple(p for p, _ in d.params)
            total, uses = _expand(d.body, frozenset(params), size_of, definitions)
            sizes[name] = (total, tuple(uses.get(p, 0) for p in params))
        return sizes[name]

    return size_of


def _too_large(node, size_of, definitions: dict, found: list) -> None:
    if isinstance(node, Call) and node.func in definitions:
        total, _ = _expand(node, frozenset(), size_of, definitions)
        if total > MAX_WRITTEN_OUT:
            found.append(
                Diagnostic(
                    "E556",
                    f"this call of '{node.func}' is {total:,} expression nodes written out, more than "
                    f"{MAX_WRITTEN_OUT:,}: an engine writes a definition out where it is called, and the definitions "
                    "it calls in it",
                    node.span,
                    (
                        "a definition that calls another twice doubles it, and so on down the chain: call each "
                        "once (`2 * d(p)`, not `d(p) + d(p)`)",
                    ),
                )
            )
            return
    for child in children(node):
        _too_large(child, size_of, definitions, found)


def _expand(node, params: frozenset, size_of, definitions: dict) -> tuple[int, dict[str, int]]:
    """(the nodes of `node` with every call written out, how often each of `params` stands in it)."""
    match node:
        case Name(id=i) if i in params:
            return 1, {i: 1}
        case Call(func=f, args=args) if f in definitions:
            total, uses = size_of(f)
            out: dict[str, int] = {}
            for arg, n in zip(args, uses, strict=False):
                size, inner = _expand(arg, params, size_of, definitions)
                total += n * (size - 1)
                for k, v in inner.items():
                    out[k] = out.get(k, 0) + n * v
            return total, out
        case Aggregate(var=v, body=b, collection=c) | ForEach(var=v, body=b, collection=c):
            s1, u1 = _expand(c, params, size_of, definitions)
            s2, u2 = _expand(b, params - {v}, size_of, definitions)
            return 1 + s1 + s2, {k: u1.get(k, 0) + u2.get(k, 0) for k in u1.keys() | u2.keys()}
    total, out = 1, {}
    for child in children(node):
        size, inner = _expand(child, params, size_of, definitions)
        total += size
        for k, v in inner.items():
            out[k] = out.get(k, 0) + v
    return total, out
