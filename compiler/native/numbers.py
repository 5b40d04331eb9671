"""Which locals of an engine function always hold an integer: engine text -> names to type `long`.

A native build runs the engine module through Cython as it is, so a local is a Python object and
every `+` or `>` on it a call into the interpreter. The rule functions the lowering writes are
mostly integer arithmetic on numbers unpacked from the game's counters (``b0, b1, ... =
g._bon[me]``, ``w0 = b0 + t0``, ``cc_G0 > w0``): declared C ``long`` (``@cython.locals`` in the
`.pxd`, never a change to the module), those become machine arithmetic.

A name is declared only when every store to it in the function is provably an integer, by a
fixpoint from "every candidate is an integer" down (so ``n = 0`` then ``n = n + 1`` qualifies):

- an ``int`` literal (never ``True``/``False``: a flag stored as a C long would read back as 1);
- ``+``, ``-``, ``*``, ``//``, ``%`` and unary ``-``/``+`` of integers (division and modulo keep
  Python's semantics under ``cdivision=False``, Cython's default), a conditional expression both of
  whose branches are integers, ``len(...)``;
- an element of a game attribute annotated as a list or tuple of ints (``self.supply: list[int]``,
  ``self._tok: list[list[int]]`` in ``Game.__init__``): the runtime's annotations are the facts,
  read from the module's tree; unpacked (``s0, s1 = g.supply``), indexed or iterated.

A parameter is never declared (the function's Python signature stays what it is), nor a name the
function declares ``global`` or ``nonlocal``. A C long that overflowed would wrap where Python's int
grows: the build turns ``overflowcheck`` on, so it raises OverflowError instead (no engine counts
anywhere near 2**63).
"""

from __future__ import annotations

import ast
from typing import TypeAlias

SELF = "g"
INT = "int"
# a type: INT, ("seq", element type) for a list or a tuple of one element type; BOTTOM and UNKNOWN
# below in the fixpoint; annotation_type's None for an annotation this pass does not read
Type: TypeAlias = "str | tuple[str, Type]"
ARITHMETIC = (ast.Add, ast.Sub, ast.Mult, ast.FloorDiv, ast.Mod)


def slot_types(tree: ast.Module) -> dict[str, Type]:
    """The types of the ``Game`` attributes its ``__init__`` annotates (``self.X: T = ...``) that
    this pass can read: ints and lists or tuples of them, nested."""
    game = next((n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Game"), None)
    init = game and next((n for n in game.body if isinstance(n, ast.FunctionDef) and n.name == "__init__"), None)
    found: dict[str, Type] = {}
    for node in ast.walk(init) if init else ():
        if (
            isinstance(node, ast.AnnAssign)
            and isinstance(node.target, ast.Attribute)
            and isinstance(node.target.value, ast.Name)
            and node.target.value.id == "self"
        ):
            kind = annotation_type(node.annotation)
            if kind is not None:
                found[node.target.attr] = kind
    return found


def module_types(tree: ast.Module) -> dict[str, Type]:
    """The types of the module's tables annotated where they are bound (``CARD_COST:
    tuple[tuple[int, ...], ...] = ...``), each bound once at module level."""
    bound: dict[str, int] = {}
    for statement in tree.body:
        targets = statement.targets if isinstance(statement, ast.Assign) else []
        if isinstance(statement, (ast.AnnAssign, ast.AugAssign)):
            targets = [statement.target]
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound[statement.name] = bound.get(statement.name, 0) + 1
        for target in targets:
            for node in ast.walk(target):
                if isinstance(node, ast.Name):
                    bound[node.id] = bound.get(node.id, 0) + 1
    found: dict[str, Type] = {}
    for statement in tree.body:
        if isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name):
            kind = annotation_type(statement.annotation)
            if kind is not None and bound[statement.target.id] == 1:
                found[statement.target.id] = kind
    return found


def annotation_type(node: ast.expr) -> Type | None:
    """``int`` -> INT; ``list[T]`` / ``tuple[T, ...]`` of a readable T -> ("seq", T); else None."""
    if isinstance(node, ast.Name) and node.id == "int":
        return INT
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id in ("list", "tuple"):
        inner = node.slice
        if isinstance(inner, ast.Tuple):  # tuple[int, ...] only: a fixed tuple of mixed types is not read
            if len(inner.elts) != 2 or not (isinstance(inner.elts[1], ast.Constant) and inner.elts[1].value is ...):
                return None
            inner = inner.elts[0]
        element = annotation_type(inner)
        return None if element is None else ("seq", element)
    return None


def integer_locals(fn: ast.FunctionDef, slots: dict[str, Type], tables: dict[str, Type]) -> list[str]:
    """The names of `fn`'s locals that always hold an integer, sorted.

    Each local's type is the join of what its stores give it, found by an ascending fixpoint from
    "no store seen" (BOTTOM) up: a name stored an integer and a list gets UNKNOWN, as does one
    stored anything this pass cannot read. A name holding a list of ints is tracked too (it is
    never declared, but what is unpacked from it is an integer)."""
    stores = _stores(fn)
    excluded = {a.arg for a in (*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs)}
    for node in _own_nodes(fn):
        if isinstance(node, (ast.Global, ast.Nonlocal)):
            excluded.update(node.names)
    if "len" in stores:  # a local named len is not the builtin this pass reads `len(...)` as
        return []
    env: dict[str, Type] = {name: kind for name, kind in tables.items() if name not in stores}
    env.update({name: (UNKNOWN if name in excluded else BOTTOM) for name in stores})
    changed = True
    while changed:
        changed = False
        for name in sorted(stores):
            if env[name] == UNKNOWN:
                continue
            joined: Type = BOTTOM
            for source in stores[name]:
                joined = _join(joined, _source_type(source, env, slots))
            if joined != env[name]:
                env[name] = joined
                changed = True
    return sorted(name for name, kind in env.items() if kind == INT and name in stores)


BOTTOM = "bottom"  # no store read yet (the fixpoint's start)
UNKNOWN = "unknown"  # not something this pass can tell


def _join(a: Type, b: Type) -> Type:
    if a == BOTTOM:
        return b
    if b == BOTTOM or a == b:
        return a
    return UNKNOWN


# What a store gives a name: an expression whose value it takes (an int iff the expression is one),
# or ("element", expr) for a name unpacked from or iterated over `expr`, or None when not readable.
Source: TypeAlias = "ast.expr | tuple[str, ast.expr] | None"


def _stores(fn: ast.FunctionDef) -> dict[str, list[Source]]:
    """Every store to a name in the function's own body (not in nested scopes), with its source."""
    stores: dict[str, list[Source]] = {}

    def bind(target: ast.expr, source: Source) -> None:
        if isinstance(target, ast.Name):
            stores.setdefault(target.id, []).append(source)
        elif isinstance(target, (ast.Tuple, ast.List)):
            value = source if isinstance(source, ast.expr) else None
            if isinstance(value, (ast.Tuple, ast.List)) and len(value.elts) == len(target.elts):
                for part, element in zip(target.elts, value.elts, strict=True):
                    bind(part, element)
            else:
                for part in target.elts:
                    bind(part, ("element", value) if value is not None else None)
        elif isinstance(target, ast.Starred):
            bind(target.value, None)

    for node in _own_nodes(fn):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                bind(target, node.value)
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            bind(node.target, node.value)
        elif isinstance(node, ast.AnnAssign) or isinstance(node, ast.Delete):
            for target in [node.target] if isinstance(node, ast.AnnAssign) else node.targets:
                bind(target, None)
        elif isinstance(node, ast.AugAssign):
            bind(node.target, ast.BinOp(left=_load(node.target), op=node.op, right=node.value))
        elif isinstance(node, ast.NamedExpr):
            bind(node.target, node.value)
        elif isinstance(node, (ast.For, ast.AsyncFor)):
            bind(node.target, ("element", node.iter))
        elif isinstance(node, (ast.With, ast.AsyncWith)):
            for item in node.items:
                if item.optional_vars is not None:
                    bind(item.optional_vars, None)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            stores.setdefault(node.name, []).append(None)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            stores.setdefault(node.name, []).append(None)
        elif isinstance(node, (ast.MatchAs, ast.MatchStar)) and node.name:
            stores.setdefault(node.name, []).append(None)
        elif isinstance(node, ast.MatchMapping) and node.rest:
            stores.setdefault(node.rest, []).append(None)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                stores.setdefault((alias.asname or alias.name).split(".")[0], []).append(None)
    return stores


def _load(target: ast.expr) -> ast.expr:
    return ast.Name(id=target.id, ctx=ast.Load()) if isinstance(target, ast.Name) else target


def _own_nodes(fn: ast.FunctionDef) -> list[ast.AST]:
    """The nodes of `fn`'s body, nested functions, lambdas and comprehensions left out (their names
    are their own scope's), the nested definitions' own nodes kept (they bind a name here)."""
    found: list[ast.AST] = []
    pending: list[ast.AST] = list(fn.body)
    while pending:
        node = pending.pop()
        found.append(node)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        if isinstance(node, (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
            # its targets are its own; a `:=` inside binds a name of the function
            found.extend(n for n in ast.walk(node) if isinstance(n, ast.NamedExpr))
            continue
        pending.extend(ast.iter_child_nodes(node))
    return found


def _source_type(source: Source, env: dict[str, Type], slots: dict[str, Type]) -> Type:
    if source is None:
        return UNKNOWN
    if isinstance(source, tuple):  # ("element", expr): unpacked from or iterated over expr
        outer = _type(source[1], env, slots)
        return outer[1] if isinstance(outer, tuple) else (BOTTOM if outer == BOTTOM else UNKNOWN)
    assert isinstance(source, ast.expr)
    return _type(source, env, slots)


def _type(node: ast.expr, env: dict[str, Type], slots: dict[str, Type]) -> Type:
    """The type of an expression: INT, ("seq", T), BOTTOM (a name not yet typed) or UNKNOWN."""
    if isinstance(node, ast.Constant):
        return INT if type(node.value) is int else UNKNOWN
    if isinstance(node, ast.Name):
        return env.get(node.id, UNKNOWN)  # a local, or an annotated table of the module
    if isinstance(node, ast.Attribute):
        if isinstance(node.value, ast.Name) and node.value.id == SELF:
            return slots.get(node.attr, UNKNOWN)
        return UNKNOWN
    if isinstance(node, ast.Subscript):
        outer = _type(node.value, env, slots)
        if isinstance(outer, tuple) and not isinstance(node.slice, ast.Slice):
            return outer[1]
        return BOTTOM if outer == BOTTOM else UNKNOWN
    if isinstance(node, ast.BinOp):
        if not isinstance(node.op, ARITHMETIC):
            return UNKNOWN
        return _numeric(_type(node.left, env, slots), _type(node.right, env, slots))
    if isinstance(node, ast.UnaryOp):
        if not isinstance(node.op, (ast.USub, ast.UAdd)):
            return UNKNOWN
        return _numeric(_type(node.operand, env, slots), INT)
    if isinstance(node, ast.IfExp):
        return _numeric(_type(node.body, env, slots), _type(node.orelse, env, slots))
    if isinstance(node, ast.NamedExpr):
        return _type(node.value, env, slots)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "len":
        return INT if len(node.args) == 1 and not node.keywords else UNKNOWN
    return UNKNOWN


def _numeric(a: Type, b: Type) -> Type:
    """INT when both are integers; BOTTOM while one is not typed yet and the other may be."""
    if UNKNOWN in (a, b) or isinstance(a, tuple) or isinstance(b, tuple):
        return UNKNOWN
    return INT if a == b == INT else BOTTOM
