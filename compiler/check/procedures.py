"""Procedures: definitions with a body of effects (`do:`), called as an effect, checked.

A procedure is a definition whose meaning is a list of effects instead of a value:

    define:
      gain:
        title: {en: "gain {card}", ...}
        params: {card: card}
        do: ["acquire(card)", "if card.level == 1: take(gold, 1)"]

and `gain(card)` is then an effect in any list of effects (an action's, a step's, a setup
block's, another procedure's). Its body is typed once, where it is written, with its parameters
typed as declared and `me` the acting player (:func:`body_type`); a call is typed by its
arguments (E408, E410: compiler/check/inference.py) and written out where it stands
(compiler/check/inlining.py, :func:`~.inlining.expand`), so that every analysis after the types
(the flows E510, E511, E547, the guarantees E512, the proofs E530) and the lowering read the effects
the call stands for, at that place. A procedure cannot call itself, directly or through others
(E550: it would be written out for ever), so every list of effects a spec writes ends; it gives
no value, so a call in an expression is an E572, and so is a definition of a value called as an
effect.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from ..diagnostics import Diagnostic
from ..front.expr import Name, Performed, Sequence, children, unparse, walk
from ..front.source import MapNode, SeqNode
from ..language.types import EFFECTS, ERROR, PLAYER
from .inlining import Procedure, expand
from .types import Scope


def read_body(c: Any, entry: MapNode, name: str) -> Sequence | None:
    """The effects of a procedure's `do:` as written (its calls not yet written out: its callees may
    come later in the spec), or None when the list is not one (reported)."""
    node = c.node(entry, "do", SeqNode, where=f" in definition '{name}'")
    if node is None:
        return None
    c.spans[f"define.{name}.meaning"] = node.span
    stmts = [stmt for item in node.items if (stmt := c.statement(item, "effect", expanding=False)) is not None]
    if len(stmts) != len(node.items):
        return None
    return Sequence(tuple(stmts), node.span)


def body_type(
    c: Any, scope_names: dict[str, Any], name: str, params: tuple[tuple[str, Any], ...], body: Sequence
) -> Sequence | None:
    """A procedure's body typed (its calls of the procedures before it written out), where `me` is
    the acting player and its parameters are typed as declared; the procedure is then known to every
    later call (Checker.procedures). EFFECTS, or ERROR when the body has errors."""
    written = tuple(expand(stmt, c.procedures) for stmt in body.stmts)
    scope_of = {**scope_names, "me": PLAYER, **dict(params)}
    before = len(c.r.diagnostics)
    for stmt in written:
        c.types.statement(stmt, Scope(scope_of))
    ok = len(c.r.diagnostics) == before
    register(c, name, params, written if ok else (), broken=not ok)
    return Sequence(written, body.span) if ok else None


def register(
    c: Any, name: str, params: tuple[tuple[str, Any], ...] | None, body: tuple[Any, ...], broken: bool = True
) -> None:
    """A procedure known to the calls after it (a broken one, with errors reported where it is written,
    has no body: its calls are typed by their arguments only), and to the Inferrer as a definition
    giving effects."""
    c.procedures[name] = Procedure(tuple(p for p, _ in params or ()), body, broken)
    c.types.definitions[name] = (params, EFFECTS if params is not None else ERROR)


# ---------------------------------------------------------------------------- calls (the Inferrer's)


def call(inferrer: Any, node: Performed, scope: Scope) -> None:
    """A call of a procedure as an effect: its arguments against its parameters (E408, E410), and E552
    where its body reads the acting player (`me`) and nobody acts here (a setup block run once)."""
    inferrer.defined(node, node.name, node.args, scope)
    me = next((x for x in walk(node) if isinstance(x, Name) and x.id == "me" and x.span is not None), None)
    if me is not None and me.span is not None and scope.lookup("me") is None:
        inferrer.r.error(
            "E552",
            f"'{node.name}' reads the acting player ('me'), and it is called where nobody in particular acts",
            node.span,
            f"'me' is read at {me.span.file}:{me.span.line}:{me.span.col}; call it in a setup block with "
            "'each_player: true', or give it a parameter `p: player`",
        )


def named(inferrer: Any) -> list[str]:
    """The spec's procedures known so far, in the order they were typed: effects a spec may write."""
    return [name for name, (_, result) in inferrer.definitions.items() if result == EFFECTS]


def in_expression(inferrer: Any, node: Any, func: str, args: tuple[Any, ...], scope: Scope) -> Any:
    """E572: a procedure called where a value is wanted."""
    inferrer.r.error(
        "E572",
        f"'{func}' is a procedure (a definition with 'do:'): it has effects and gives no value, so it is "
        "called as an effect, in a list of effects, not in an expression",
        node.span,
    )
    for a in args:
        inferrer.infer(a, scope)
    return ERROR


def value_as_effect(inferrer: Any, node: Any, scope: Scope) -> None:
    """E572: a definition of a value called as an effect."""
    inferrer.r.error(
        "E572",
        f"'{node.name}' is a definition of a value (with 'is:'), not of effects: use it in an expression, "
        "or give it 'do:' and a list of effects to call it as an effect",
        node.span,
    )
    for a in node.args:
        inferrer.infer(a, scope)


def named_arguments(inferrer: Any, node: Any, scope: Scope) -> None:
    """E408: named arguments (`name: value`) given to an effect or a procedure: only queue(...) takes them."""
    inferrer.r.error(
        "E408",
        f"'{node.name}' takes no named argument ('{node.keywords[0]}: ...'): only queue(STEP, name: value) does",
        node.span,
    )
    for a in node.args:
        inferrer.infer(a, scope)


def through_calls(found: list[Diagnostic], stmts: Any) -> list[Diagnostic]:
    """The flows' diagnostics of a list of effects, each found in a procedure's body as written out at a
    call of this list with a note naming that call and where it stands (the caret is in the body, where
    the effect is written; the call says which use of the procedure the problem is in)."""
    calls = [x for stmt in stmts for x in _outermost_calls(stmt)]
    out = []
    for d in found:
        call = next(
            (p for p in calls if d.span is not None and any(x.span == d.span for x in walk(p) if x is not p)), None
        )
        if call is not None and call.span is not None:
            at = f"{call.span.file}:{call.span.line}:{call.span.col}"
            d = dataclasses.replace(d, notes=(*d.notes, f"through the call {unparse(call)} at {at}"))
        out.append(d)
    return out


def _outermost_calls(node: Any) -> list[Performed]:
    """The calls of procedures in a statement that no other call holds."""
    if isinstance(node, Performed):
        return [node]
    return [p for child in children(node) for p in _outermost_calls(child)]


def calls_broken(stmts: Any, procedures: dict[str, Procedure]) -> bool:
    """Do these effects call a procedure with errors? Their flows are then not checked: the call stands
    for no effects, and what it would move is unknown."""
    return any(
        isinstance(x, Performed) and x.name in procedures and procedures[x.name].broken
        for stmt in stmts
        for x in walk(stmt)
    )
