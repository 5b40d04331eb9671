"""Writing calls out: a definition's body, or a procedure's effects, with the arguments in place of
the parameters.

A call of a definition (`has_rainbow(me)`, an expression) is written out by the lowering and by the
bounds (:func:`inline`, :func:`inline_all`); a call of a procedure (`apply(card)`, an effect) is
written out as soon as check reads it (:func:`expand`, called by Checker.statement), as a
:class:`~compiler.front.expr.Performed`: a sequence of the procedure's effects that every pass walking
statements reads as it reads any other, and that the sheets and `diff` still name as the call.
A loop variable of the body that would capture a name an argument reads is renamed apart.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from ..front.expr import Aggregate, Call, Effect, ForEach, Name, Performed, Sequence, When, children, walk
from ..model import Definition


def _free(node: Any) -> set[str]:
    match node:
        case Name(id=i):
            return {i}
        case Aggregate(var=v, body=b, collection=c) | ForEach(var=v, body=b, collection=c):
            return _free(c) | (_free(b) - {v})
    out: set[str] = set()
    for child in children(node):
        out |= _free(child)
    return out


def _fresh(name: str, taken: set[str]) -> str:
    n = 2
    while f"{name}{n}" in taken:
        n += 1
    return f"{name}{n}"


def _bound(var: str, body: Any, args: dict[str, Any], avoid: set[str], span: Any) -> tuple[str, dict[str, Any]]:
    """The loop variable `var` of a body, renamed apart when an argument reads a name it would
    capture, and the arguments that stay free inside the body."""
    inner = {k: x for k, x in args.items() if k != var}
    if var in avoid and inner:
        fresh = _fresh(var, avoid | _free(body))
        inner[var] = Name(fresh, span)
        return fresh, inner
    return var, inner


def _substitute(node: Any, args: dict[str, Any], avoid: set[str]) -> Any:
    """`node` with each free name of `args` replaced by its argument; a loop variable that would
    capture a name an argument reads is renamed apart."""
    match node:
        case Name(id=i) if i in args:
            return args[i]
        case Aggregate(func=f, body=b, var=v, collection=c, span=s):
            var, inner = _bound(v, b, args, avoid, s)
            return Aggregate(f, _substitute(b, inner, avoid | {var}), var, _substitute(c, args, avoid), s)
        case ForEach(var=v, collection=c, body=b, span=s):
            var, inner = _bound(v, b, args, avoid, s)
            return ForEach(var, _substitute(c, args, avoid), _substitute(b, inner, avoid | {var}), s)
    if not dataclasses.is_dataclass(node) or isinstance(node, type):
        return node
    changes = {}
    for fld in dataclasses.fields(node):
        value = getattr(node, fld.name)
        new = (
            tuple(_substitute(x, args, avoid) for x in value)
            if isinstance(value, tuple)
            else _substitute(value, args, avoid)
            if dataclasses.is_dataclass(value)
            else value
        )
        if new is not value:
            changes[fld.name] = new
    return dataclasses.replace(node, **changes) if changes else node


def inline(
    call: Call, definition: Definition, definitions: dict[str, Definition], bodies: dict[str, Any] | None = None
) -> Any:
    """The body of `definition` with the arguments of `call` in place of its parameters (and the
    calls in it inlined too): what the call means, as an expression without calls to definitions.
    `bodies` keeps each definition's body written out, so that it is written out once."""
    bodies = {} if bodies is None else bodies
    args = {p: inline_all(a, definitions, bodies) for (p, _), a in zip(definition.params, call.args, strict=False)}
    avoid = set().union(*(_free(a) for a in args.values())) if args else set()
    if definition.name not in bodies:
        bodies[definition.name] = inline_all(definition.body, definitions, bodies)
    return _substitute(bodies[definition.name], args, avoid)


def inline_all(node: Any, definitions: dict[str, Definition], bodies: dict[str, Any] | None = None) -> Any:
    """`node` (an expression or a statement) with every call to a definition inlined; the same
    object when it calls none."""
    if not definitions or not any(isinstance(x, Call) and x.func in definitions for x in walk(node)):
        return node
    bodies = {} if bodies is None else bodies
    if isinstance(node, Call) and node.func in definitions:
        return inline(node, definitions[node.func], definitions, bodies)
    changes = {}
    for fld in dataclasses.fields(node):
        value = getattr(node, fld.name)
        new = (
            tuple(inline_all(x, definitions, bodies) for x in value)
            if isinstance(value, tuple)
            else inline_all(value, definitions, bodies)
            if dataclasses.is_dataclass(value)
            else value
        )
        if new is not value:
            changes[fld.name] = new
    return dataclasses.replace(node, **changes) if changes else node


# ---------------------------------------------------------------------------- procedures


@dataclasses.dataclass(frozen=True, slots=True)
class Procedure:
    """What a call of a procedure is written out from: its parameters' names, in order, and its
    effects, their own calls already written out (empty when the body has errors: reported once,
    where it is written, and its calls are then typed by their arguments only)."""

    params: tuple[str, ...]
    body: tuple[Any, ...]
    broken: bool = False  # its body or its parameters have errors (reported where they are written)


def expand(stmt: Any, procedures: dict[str, Procedure]) -> Any:
    """`stmt` with every effect naming a procedure written out as a Performed node: the body with
    the call's arguments in place of the parameters (each argument is evaluated where the body reads
    it, as a definition's is: arguments are names and expressions without effects)."""
    if not procedures:
        return stmt
    match stmt:
        case Effect(name=name, args=args, span=span, keywords=()) if name in procedures:
            proc = procedures[name]
            bound = dict(zip(proc.params, args, strict=False))
            avoid = set().union(*(_free(a) for a in args)) if args else set()
            body = tuple(_substitute(x, bound, avoid) for x in proc.body)
            return Performed(body, span, name, tuple(args))
        case ForEach(var=v, collection=c, body=b, span=s):
            return ForEach(v, c, expand(b, procedures), s)
        case When(test=t, then=a, otherwise=b, span=s):
            return When(t, expand(a, procedures), expand(b, procedures) if b is not None else None, s)
        case Sequence(stmts=stmts) if not isinstance(stmt, Performed):
            return dataclasses.replace(stmt, stmts=tuple(expand(x, procedures) for x in stmts))
    return stmt
