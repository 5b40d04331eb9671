"""The Cython declarations of a native build: engine text -> the text of its `.pxd` file.

Cython compiles a pure-Python module as it is; a `.pxd` of the same name beside it declares
more, without a line of the module changing (the pure engine stays the reference, and the
native one plays its games move by move). Two declarations, found by walking the engine
module's tree (``ast``: never its printed text, never a spec's):

- ``Game`` as a ``cdef class`` whose fields are its slots (Python objects, as before): an
  attribute is read at a fixed offset of the object instead of through a slot descriptor;
- each module-level function whose first parameter is the game ``g`` (the rule functions the
  lowering made, the runtime's helpers) as ``cpdef`` with ``g`` typed as that class: a call
  from another function of the module is a C call, and ``g.attribute`` a field read. A function
  that Cython cannot compile as ``cpdef`` is left as it is: one with a closure (a nested
  function, a lambda or a generator expression), a default, ``*args``, ``**kwargs``, keyword-only
  parameters or a decorator, or a name the module defines twice.

The slots are the string literals of ``Game.__slots__`` and the attribute names of
``_EXTRA_SLOTS`` (the spec's own zones and state, a literal tuple of (attribute, one per player,
initial value)); a slot the pure class leaves out for this spec (``face_up_costs``) is declared
anyway and never read. A module that changes the class once it is made (:func:`changes_game`)
gets no declarations: a cdef class cannot be changed, and such an engine is built as it is.
"""

from __future__ import annotations

import ast

from .numbers import integer_locals, module_types, slot_types

SELF = "g"  # the game's parameter in every generated rule function and runtime helper
CLOSURES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.GeneratorExp, ast.ClassDef)


def declarations(text: str) -> str:
    """The `.pxd` text for the engine module `text` (empty when it defines no ``Game`` class)."""
    tree = ast.parse(text)
    slots = game_slots(tree)
    if slots is None or changes_game(tree):
        return ""
    lines = ["# Cython declarations of this engine's native build (compiler/native/declarations.py)", ""]
    lines.append("cimport cython")
    lines.append("")
    lines.append("cdef class Game:")
    lines.extend(f"    cdef public object {name}" for name in slots)
    lines.append("")
    attributes, tables = slot_types(tree), module_types(tree)
    for fn in typed(tree):
        numbers = integer_locals(fn, attributes, tables)
        if numbers:  # machine integers (compiler/native/numbers.py says which, and why it is safe)
            lines.append(f"@cython.locals({', '.join(f'{name}=cython.long' for name in numbers)})")
        lines.append(f"cpdef {fn.name}(Game {SELF}{''.join(', ' + a.arg for a in fn.args.args[1:])})")
    return "\n".join(lines) + "\n"


def game_slots(tree: ast.Module) -> list[str] | None:
    """The slot names of the module's ``Game`` class, in order, without repeats; None without one."""
    game = next((n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Game"), None)
    if game is None:
        return None
    names: list[str] = []
    for statement in game.body:
        if isinstance(statement, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "__slots__" for t in statement.targets
        ):
            names.extend(
                n.value for n in ast.walk(statement.value) if isinstance(n, ast.Constant) and isinstance(n.value, str)
            )
    names.extend(_extra_slots(tree))
    return list(dict.fromkeys(names))


def changes_game(tree: ast.Module) -> bool:
    """Does the module change the ``Game`` class once it is made (``Game.prestige = property(...)``,
    as an engine whose prestige has sources of its own does; ``setattr(Game, ...)``)? A cdef
    class cannot be changed: such an engine is built without declarations."""
    for node in ast.walk(tree):
        targets: list[ast.expr] = []
        if isinstance(node, (ast.Assign, ast.Delete)):
            targets = node.targets
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign)):
            targets = [node.target]
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("setattr", "delattr"):
            targets = [ast.Attribute(value=node.args[0], attr="", ctx=ast.Store())] if node.args else []
        for target in targets:
            for part in ast.walk(target):
                if isinstance(part, ast.Attribute) and isinstance(part.value, ast.Name) and part.value.id == "Game":
                    return True
    return False


def _extra_slots(tree: ast.Module) -> list[str]:
    """The attribute names of the module's ``_EXTRA_SLOTS`` literal (none when it has none)."""
    for statement in tree.body:
        if (
            isinstance(statement, ast.Assign)
            and len(statement.targets) == 1
            and isinstance(statement.targets[0], ast.Name)
            and statement.targets[0].id == "_EXTRA_SLOTS"
        ):
            return [str(slot[0]) for slot in ast.literal_eval(statement.value)]
    return []


def typed(tree: ast.Module) -> list[ast.FunctionDef]:
    """The module-level functions declared ``cpdef`` with the game typed, in module order."""
    defined: dict[str, int] = {}
    for statement in tree.body:
        for name in _bound_names(statement):
            defined[name] = defined.get(name, 0) + 1
    return [
        statement
        for statement in tree.body
        if isinstance(statement, ast.FunctionDef) and defined[statement.name] == 1 and _compilable(statement)
    ]


def _bound_names(statement: ast.stmt) -> list[str]:
    """The module-level names a statement binds (a definition, an assignment's plain names)."""
    if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return [statement.name]
    if isinstance(statement, ast.Assign):
        return [n.id for t in statement.targets for n in ast.walk(t) if isinstance(n, ast.Name)]
    if isinstance(statement, (ast.AnnAssign, ast.AugAssign)) and isinstance(statement.target, ast.Name):
        return [statement.target.id]
    return []


def _compilable(fn: ast.FunctionDef) -> bool:
    """Takes the game first, plain positional parameters only, no decorator, no closure."""
    args = fn.args
    plain = not (args.posonlyargs or args.vararg or args.kwonlyargs or args.kwarg or args.defaults)
    if not plain or fn.decorator_list or not args.args or args.args[0].arg != SELF:
        return False
    return not any(isinstance(node, CLOSURES) or _yields(node) for node in _inner(fn))


def _inner(fn: ast.FunctionDef) -> list[ast.AST]:
    """Every node of the function's body (its own node left out)."""
    return [node for statement in fn.body for node in ast.walk(statement)]


def _yields(node: ast.AST) -> bool:
    return isinstance(node, (ast.Yield, ast.YieldFrom, ast.Await))
