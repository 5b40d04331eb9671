"""Inlining of hooks: a tree transformation of a runtime function that calls a spec's hooks.

The runtime is pasted into engines whole, and calls the hooks a spec defines
(compiler/emit/runtime/spec.py). Game.apply calls two of them at every turn, _end_of_turn and
_reset_turn; a Python call per turn costs the official engine about 0.7 % of its instructions
per decision each (bench/callgrind_engine.sh: 37,930 without, 38,211 with one call that does
nothing), more than the 1 % its speed may lose. So the engine's Game.apply holds their bodies
instead of the calls: this module parses the runtime's function with :mod:`ast`, replaces each
call statement by the hook's body (as the lowering printed it, parsed), and prints the function
with :func:`ast.unparse`. The hooks stay defined in the engine, with their comments: they are
what the runtime's unit tests run, and what a reader of the engine reads.

A hook inlined this way is held to what makes the transformation exact: it is called as a
statement, `hook(args)`, or as `if hook(args): return` (a hook returning a bool: True, return
at once); its arguments are names; its body returns only `True` (or `False` as its last
statement: falling through) for the second form, and never for the first.
"""

from __future__ import annotations

import ast

from ..lower.printer import unparse

INLINED = ("_end_of_turn", "_reset_turn", "_keep_turn", "_turn_again")  # the hooks Game.apply calls at every turn


class InlineError(ValueError):
    """A hook or a call that the transformation cannot inline exactly (a bug of the compiler)."""


def _call(node: ast.stmt, hooks: dict[str, ast.FunctionDef]) -> tuple[ast.Call, bool] | None:
    """(the call, whether it is `if hook(...): return`) of a statement that calls a hook; else None."""
    if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
        call, guarded = node.value, False
    elif (
        isinstance(node, ast.If)
        and isinstance(node.test, ast.Call)
        and not node.orelse
        and len(node.body) == 1
        and isinstance(node.body[0], ast.Return)
        and node.body[0].value is None
    ):
        call, guarded = node.test, True
    else:
        return None
    if not (isinstance(call.func, ast.Name) and call.func.id in hooks):
        return None
    return call, guarded


def _body(hook: ast.FunctionDef) -> list[ast.stmt]:
    """A hook's statements, without its docstring and its `pass`."""
    body = hook.body
    if (
        body
        and isinstance(body[0], ast.Expr)
        and isinstance(body[0].value, ast.Constant)
        and isinstance(body[0].value.value, str)
    ):
        body = body[1:]
    return [node for node in body if not isinstance(node, ast.Pass)]


class _Returns(ast.NodeTransformer):
    """`return True` as `return` (the caller returns at once); any other return refused."""

    def __init__(self, guarded: bool) -> None:
        self.guarded = guarded

    def visit_Return(self, node: ast.Return) -> ast.Return:
        if not (self.guarded and isinstance(node.value, ast.Constant) and node.value.value is True):
            raise InlineError(f"a hook inlined here returns only True, not {ast.unparse(node)!r}")
        return ast.Return(value=None)

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.FunctionDef:
        return node  # a function defined inside returns for itself

    def visit_Lambda(self, node: ast.Lambda) -> ast.Lambda:
        return node


class _Rename(ast.NodeTransformer):
    def __init__(self, names: dict[str, str]) -> None:
        self.names = names

    def visit_Name(self, node: ast.Name) -> ast.Name:
        return ast.Name(id=self.names.get(node.id, node.id), ctx=node.ctx)


def _names(nodes: list[ast.stmt]) -> set[str]:
    return {n.id for node in nodes for n in ast.walk(node) if isinstance(n, ast.Name)}


def _bound(nodes: list[ast.stmt]) -> set[str]:
    return {n.id for node in nodes for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}


def inlined(hook: ast.FunctionDef, call: ast.Call, guarded: bool) -> list[ast.stmt]:
    """The statements that stand for `call` of `hook`: its body, each parameter renamed to the name
    passed for it (the body binds neither), every `return True` a `return` (guarded: the caller's
    `if hook(...): return`), a last `return False` dropped."""
    params = [a.arg for a in hook.args.args]
    if call.keywords or len(call.args) != len(params) or not all(isinstance(a, ast.Name) for a in call.args):
        raise InlineError(f"{hook.name} is inlined only where it is called with one name per parameter")
    body = _body(hook)
    if (
        guarded
        and body
        and isinstance(body[-1], ast.Return)
        and isinstance(body[-1].value, ast.Constant)
        and body[-1].value.value is False
    ):
        body = body[:-1]
    names = {p: a.id for p, a in zip(params, call.args, strict=True) if isinstance(a, ast.Name) and a.id != p}
    clash = (_bound(body) & (set(names) | set(names.values()))) | (set(names.values()) & (_names(body) - set(names)))
    if clash:
        raise InlineError(f"{hook.name} binds or reads {sorted(clash)}, which its call site names otherwise")
    body = [_Rename(names).visit(node) for node in body]
    return [ast.fix_missing_locations(_Returns(guarded).visit(node)) for node in body]


class _Inliner(ast.NodeTransformer):
    def __init__(self, hooks: dict[str, ast.FunctionDef]) -> None:
        self.hooks = hooks

    def generic_visit(self, node: ast.AST) -> ast.AST:
        for field in ("body", "orelse", "finalbody"):
            block = getattr(node, field, None)
            if isinstance(block, list) and block and isinstance(block[0], ast.stmt):
                setattr(node, field, self._block(block) or [ast.Pass()])
        return node

    def _block(self, block: list[ast.stmt]) -> list[ast.stmt]:
        out: list[ast.stmt] = []
        for node in block:
            found = _call(node, self.hooks)
            if found is None:
                out.append(self.visit(node))
            else:
                out += inlined(self.hooks[found[0].func.id], *found)  # type: ignore[attr-defined]
        return out


def inline_hooks(function: ast.FunctionDef, hooks: dict[str, ast.FunctionDef]) -> ast.FunctionDef:
    """A copy of `function` with every call statement of one of `hooks` replaced by its body."""
    tree = ast.parse(ast.unparse(function)).body[0]  # a copy of its own
    assert isinstance(tree, ast.FunctionDef)
    return ast.fix_missing_locations(_Inliner(hooks).visit(tree))


def find_method(tree: ast.Module, cls: str, name: str) -> ast.FunctionDef:
    """The method `name` of class `cls` of a module."""
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name == cls:
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and item.name == name:
                    return item
    raise InlineError(f"no method {cls}.{name}")


def game_text(runtime_text: str, hooks_text: str) -> str:
    """The runtime module game.py's text as an engine holds it: as written, but for Game.apply,
    whose hook calls (INLINED) are replaced by the hooks' bodies, printed by the one printer's
    unparse (the function is a node of the module's tree; the other lines are the module's own)."""
    hooks = {
        node.name: node
        for node in ast.parse(hooks_text).body
        if isinstance(node, ast.FunctionDef) and node.name in INLINED
    }
    if set(hooks) != set(INLINED):
        raise InlineError(f"the engine defines {sorted(hooks)} of the hooks {list(INLINED)}")
    apply = find_method(ast.parse(runtime_text), "Game", "apply")
    # Printed as the method of a class, so that the unparser indents it (and leaves the text of
    # its docstring as it is); the class line is not kept.
    holder = ast.ClassDef(name="Game", bases=[], keywords=[], body=[inline_hooks(apply, hooks)], decorator_list=[])
    printed = unparse(ast.fix_missing_locations(holder)).split("\n")[1:]
    while printed and not printed[0]:
        printed = printed[1:]
    lines = runtime_text.split("\n")
    assert apply.end_lineno is not None and apply.col_offset == 4 and not apply.decorator_list
    return "\n".join(lines[: apply.lineno - 1] + printed + lines[apply.end_lineno :])
