"""The statements of the built-in token and card effects that stand alone (take, put_back, pay,
reserve_top), and the RuleError an effect raises: the routines of compiler/lower/effects.py's table
call these; the `compiler` they take is the ExprCompiler (compiler/lower/expressions.py)."""

from __future__ import annotations

import ast
from collections.abc import Sequence
from typing import Any

from ..front.expr import unparse
from . import fold, ir
from .layout import LoweringBug, where
from .printer import render
from .tree import Append, Assign, If, Node, Raise

G = ir.name("g")
ME = ir.name("me")


def effect_located(node: Any, name: str) -> str:
    """An effect as written, and its spec line, for the RuleError an engine raises there."""
    return f"{unparse(node)} ({where(node.span)})" if node is not None else name


def rule_error(key: str, located: str | None, **values: ast.expr) -> ast.expr:
    """The RuleError `key` (compiler/emit/runtime/errors.py's _RULE_ERRORS) of an effect: its
    fields, `located` (the effect's text as it is and its spec line, a constant: it may hold a
    '%' or a brace, as the spec's `turn % 2` or a file name may; None for a step) and `values`
    (nodes), written as a dict the engine's message and a player's words are made from."""
    fields = ({"located": ir.const(located)} if located is not None else {}) | values
    return ir.call("RuleError", ir.const(key), ast.Dict(keys=[ir.const(k) for k in fields], values=[*fields.values()]))


def raise_rule_error(key: str, located: str | None, **values: ast.expr) -> str:
    """The statement raising that RuleError, as the printer writes a Raise of it."""
    return render([Raise(rule_error(key, located, **values))])


def _name_of(node: ast.expr) -> str:
    """The identifier of a node that names a local (a chosen card, a payment): the names the
    compiler derives from it (`p_card_LI`, `p_pay_GOLD`) are built from it."""
    if not isinstance(node, ast.Name):
        raise LoweringBug(f"not a local: {ir.text(node)}")
    return node.id


def mine(attribute: str) -> ast.expr:
    """`g.ATTRIBUTE[me]`: the acting seat's entry of a per-seat list of the game."""
    return ir.sub(ir.attr(G, attribute), ME)


def move_tokens(compiler: Any, name: str, args: Sequence[Any], a: list[ast.expr], node: Any) -> list[Node]:
    """take (supply to tokens) or put_back (tokens to supply), never below 0."""
    source, dest = (ir.name("sup"), ir.name("tok")) if name == "take" else (ir.name("tok"), ir.name("sup"))
    out: list[Node] = []
    amount = a[1]
    known = fold.as_int(amount)
    if known is None or known < 0:  # an expression: evaluated once
        amount = ir.name("_n")
        # a negative amount would move tokens the other way and take that pool below 0
        out += [
            Assign((amount,), a[1]),
            If(
                ir.compare(amount, "<", 0),
                [Raise(rule_error("negative_tokens", effect_located(node, name), amount=amount))],
            ),
        ]
    pool = "supply" if name == "take" else "tokens"
    if not compiler.guaranteed(pool, args[0], args[1]):
        # a spec whose tests do not ensure the tokens are there: say so, never go below 0
        located, held, colour = effect_located(node, name), ir.sub(source, a[0]), ir.sub("COLOURS", a[0])
        error = rule_error("short_supply" if name == "take" else "short_held", located, n=held, colour=colour)
        out.append(If(ir.compare(held, "<", amount), [Raise(error)]))
    return out + [Assign((ir.sub(source, a[0]),), amount, "-="), Assign((ir.sub(dest, a[0]),), amount, "+=")]


def reserve_top(compiler: Any, level: ast.expr, node: Any) -> list[Node]:
    deck, card = ir.name("_deck"), ir.name("_card")
    return [
        *compiler.reserve_room(node),
        Assign((deck,), ir.sub(ir.attr(G, "decks"), ir.minus(level, 1))),
        If(
            ir.not_(deck),
            [Raise(rule_error("deck_empty", effect_located(node, "reserve_top"), level=level))],
        ),
        Assign((card,), ir.method(deck, "pop")),
        Append(mine("_res"), card),
        Append(mine("blind"), card),
    ]


def pay(compiler: Any, p: str) -> list[Node]:
    out: list[Node] = []
    tok, sup = ir.name("tok"), ir.name("sup")
    for gi in range(len(compiler.plan.gems)):
        spent = ir.name(f"{p}_S{gi}")
        out.append(If(spent, [Assign((ir.sub(tok, gi),), spent, "-="), Assign((ir.sub(sup, gi),), spent, "+=")]))
    wild, gold = len(compiler.plan.gems), ir.name(f"{p}_GT")
    out.append(If(gold, [Assign((ir.sub(tok, wild),), gold, "-="), Assign((ir.sub(sup, wild),), gold, "+=")]))
    return out
