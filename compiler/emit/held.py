"""The base game's cards and nobles in holdings of the spec's own, counted by the saved-state check:
the runtime's statements that gather the cards and nobles in play, made to add them.

The runtime is pasted into engines whole (compiler/emit/runtime), and an engine whose spec keeps
the base components in the base game's places only (the official) must keep its text. Where a
spec's holding of its own holds base cards or nobles (`zones: kept: {holds: nobles, shape:
holding}`, rulespec/README.md, Zones), the two statements of problems.py that gather the cards
placed and the nobles in play add what lies there (compiler/emit/runtime/held.py, pasted into such
engines): each is found in the module's tree and printed again in place, as compiler/emit/counted.py
does; a module holding another number of them is a bug of the compiler (the runtime changed).
"""

from __future__ import annotations

import ast

from ..lower import ir
from ..lower.printer import unparse


class HeldError(ValueError):
    """The runtime no longer holds the statements this module rewrites (a bug of the compiler)."""


def _placed(node: ast.stmt) -> bool:
    """`placed += _out_of_play_cards(...)`: the cards out of the game added to those placed."""
    match node:
        case ast.AugAssign(target=ast.Name(id="placed"), value=ast.Call(func=ast.Name(id="_out_of_play_cards"))):
            return True
    return False


def _in_play(node: ast.stmt) -> bool:
    """`_noble_problems(row, owned + _boxed(data), ...)`: the nobles in play checked."""
    match node:
        case ast.Expr(value=ast.Call(func=ast.Name(id="_noble_problems"), args=[_, ast.BinOp(op=ast.Add()), *_])):
            return True
    return False


def held(module: str, text: str, holds: bool) -> str:
    """Runtime module `module`'s text, where the spec's own holdings hold base components (`holds`),
    with problems.py's cards placed and nobles in play counting them."""
    if not holds or module != "problems":
        return text
    lines = text.split("\n")
    tree = ast.parse(text)
    placed = [n for n in ast.walk(tree) if isinstance(n, ast.stmt) and _placed(n)]
    in_play = [n for n in ast.walk(tree) if isinstance(n, ast.stmt) and _in_play(n)]
    if len(placed) != 1 or len(in_play) != 1:
        raise HeldError(f"runtime problems.py gathers the cards and nobles in {len(placed)} and {len(in_play)} places")
    data = ir.name("data")
    for node in placed + in_play:
        assert node.lineno == node.end_lineno
        if isinstance(node, ast.AugAssign):
            new: ast.stmt = ast.AugAssign(node.target, ast.Add(), ir.add(node.value, ir.call("_held_cards", data)))
        else:
            assert isinstance(node, ast.Expr) and isinstance(node.value, ast.Call)
            call = node.value
            args = [call.args[0], ir.add(call.args[1], ir.call("_held_nobles", data)), *call.args[2:]]
            new = ast.Expr(ast.Call(call.func, args, call.keywords))
        printed = unparse(ast.fix_missing_locations(new))
        lines[node.lineno - 1] = lines[node.lineno - 1][: node.col_offset] + printed
    return "\n".join(lines)
