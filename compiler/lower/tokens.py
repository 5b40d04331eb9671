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


def rule_error(located: str, template: str, *values: ast.expr) -> ast.expr:
    """The RuleError of an effect: the effect's text as it is (a constant: it may hold a '%', as the
    spec's `turn % 2` or a file name may), then a message of the compiler's own formatted with
    `values` (nodes)."""
    args = values[0] if len(values) == 1 else ir.tuple_(*values)
    return ir.call("RuleError", ir.add(ir.const(located), ir.binop(ir.const(template), "%", args)))


def raise_rule_error(located: str, template: str, *values: ast.expr) -> str:
    """The statement raising that RuleError, as the printer writes a Raise of it."""
    return render([Raise(rule_error(located, template, *values))])


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
                [Raise(rule_error(effect_located(node, name), ": a negative number of tokens (%d)", amount))],
            ),
        ]
    pool = "supply" if name == "take" else "tokens"
    if not compiler.guaranteed(pool, args[0], args[1]):
        # a spec whose tests do not ensure the tokens are there: say so, never go below 0
        held = "in the supply" if name == "take" else "held by the player"
        message = f": only %d %s token(s) {held}"
        out.append(
            If(
                ir.compare(ir.sub(source, a[0]), "<", amount),
                [Raise(rule_error(effect_located(node, name), message, ir.sub(source, a[0]), ir.sub("COLOURS", a[0])))],
            )
        )
    return out + [Assign((ir.sub(source, a[0]),), amount, "-="), Assign((ir.sub(dest, a[0]),), amount, "+=")]


def reserve_top(compiler: Any, level: ast.expr, node: Any) -> list[Node]:
    deck, card = ir.name("_deck"), ir.name("_card")
    return [
        *compiler.reserve_room(node),
        Assign((deck,), ir.sub(ir.attr(G, "decks"), ir.minus(level, 1))),
        If(
            ir.not_(deck),
            [Raise(rule_error(effect_located(node, "reserve_top"), ": the deck of level %d is empty", level))],
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
