"""Code sinking: a pass over one rule function's statement tree (:mod:`.tree`).

Takes a :class:`~.tree.Def`; returns it with each pure binding moved down its block past the
filters that may end the round before it is read (`if not test: continue`, a `return` or a
`break`), and into the one branch of an `if` that reads it. The legal scan of a face-up choice
unpacks a card's cost at the head of the slot's loop, then tests the card's other conditions
(`holder[card] != me`): after this pass, a card that fails them costs no unpacking. An effect
computes what it pays (`p_payment_S0 = ...`) before `if card != none:`; after it, a declined
choice computes nothing.

A statement moves when:

* it binds names only (an assignment marked pure by the lowering: no effect, cannot fail, or of
  a constant; or an `if` with a pure test whose branches are such bindings), and reads no name
  it binds;
* every statement it moves past is a comment, another such binding that reads none of its names
  and binds none of the names it reads or binds, or an `if` whose test reads none of its names
  and binds nothing (no `:=`): a filter whose branch only leaves (`continue`, `break`, `return`
  of what reads none of its names), or the `if` it enters;
* nothing reads its names where the moved binding no longer reaches: after a filter it passes
  leaves (the rest of the round, the next round before it binds them again, the code after the
  loop: :func:`exposed`, the names a block may read before binding them), nor in the other
  branch of an `if` it enters, nor after that `if`. It never enters a loop, where it would run
  more often.

A binding moves only when it computes something (:func:`_worth_moving`: not a plain read) and
passes a filter or enters a branch: the order of the others is kept. Blocks are taken outermost
first, so that a binding moved into a branch may sink further inside it. Quadratic in a block's
length at worst (each binding looks down its block once, and the reads after it are gathered
again for each block).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from . import ir
from .purity import is_pure, own_names, walrus_names
from .tree import Assign, Break, Comment, Continue, Def, For, If, Node, Return, While, bound_names


def sink_bindings(fn: Def) -> Def:
    """`fn` with its pure bindings computed only where a path goes on to read them."""
    _READS.clear()
    try:
        return Def(fn.name, fn.params, _block(fn.body, _Exits(set(), None, None)), fn.doc)
    finally:
        _READS.clear()


# What each statement reads before it binds (_reads), kept for the one function being sunk: a block
# asks it again for every statement after each of its own, and a nested block for each level above
# it (quadratic without it: a fifth of a large engine's compile). Keyed by the node's id, the node
# kept beside its answer so that an id reused by a node made later never finds another's answer.
_READS: dict[int, tuple[Node, frozenset[str]]] = {}


@dataclass(frozen=True)
class _Exits:
    """What is read after a block, by where it is left: falling through its end, `continue` and
    `break` of the loop around it (None outside a loop); `return` reads nothing more."""

    end: set[str]
    again: set[str] | None
    out: set[str] | None


def _block(body: list[Node], exits: _Exits) -> list[Node]:
    """A block with its bindings sunk, then the blocks inside its statements in turn."""
    body = list(body)
    for k in range(len(body) - 1, -1, -1):  # from the end: a binding sinks past those that sank already
        body = _sink(body, k, exits)
    # what each statement's successors read before binding, from the end: exposed(body[k + 1 :])
    follows: list[set[str]] = [set()] * len(body)
    later: set[str] = set()
    for k in range(len(body) - 1, -1, -1):
        follows[k] = later
        later = set(_reads(body[k])) | (later - _binds(body[k]))
    return [_inner(node, _Exits(follows[k] | exits.end, exits.again, exits.out)) for k, node in enumerate(body)]


def _inner(node: Node, exits: _Exits) -> Node:
    match node:
        case If(test=test, body=body, orelse=orelse, note=note, chained=chained, role=role):
            return If(test, _block(body, exits), _block(orelse, exits), note, chained, role)
        case For(target=target, iter=it, body=body, orelse=orelse, note=note):
            head = exposed(body) | exposed(orelse) | exits.end  # the next round, or the loop's end
            inside = _Exits(head, head, exits.end)
            return For(target, it, _block(body, inside), _block(orelse, exits), note)
        case While(test=test, body=body, note=note):
            head = exposed(body) | ir.names(test) | exits.end
            return While(test, _block(body, _Exits(head, head, exits.end)), note)
    return node


def exposed(body: list[Node]) -> set[str]:
    """The names `body` may read before it binds them (conservatively: a binding inside a loop,
    or in one branch only, binds nothing for what follows)."""
    out: set[str] = set()
    bound: set[str] = set()
    for node in body:
        out |= _reads(node) - bound
        bound |= _binds(node)
    return out


def _reads(node: Node) -> frozenset[str]:
    known = _READS.get(id(node))
    if known is not None and known[0] is node:
        return known[1]
    found = frozenset(_statement_reads(node))
    _READS[id(node)] = (node, found)
    return found


def _statement_reads(node: Node) -> set[str]:
    own = set(own_names(node))
    match node:
        case If(body=body, orelse=orelse):
            return own | exposed(body) | exposed(orelse)
        case For(target=target, body=body, orelse=orelse):
            return own | (exposed(body) - set(ir.names(target))) | exposed(orelse)
        case While(body=body):
            return own | exposed(body)
    return own


def _binds(node: Node) -> set[str]:
    """The names a statement binds on every path through it."""
    match node:
        case Assign(targets=targets, op="="):
            return {n for t in targets for n in bound_names(t)}
        case If(body=body, orelse=orelse):
            return set().union(*map(_binds, body)) & set().union(*map(_binds, orelse)) if orelse else set()
    return set()


def _binding(node: Node) -> tuple[set[str], set[str]] | None:
    """(names bound, names read) of a statement that only binds names, else None."""
    match node:
        case Assign(targets=targets, value=value, op="=") if (
            (node.pure or isinstance(value, ast.Constant))
            and is_pure(value, walrus=True)
            and all(
                isinstance(t, ast.Name) or (isinstance(t, ast.Tuple) and all(isinstance(e, ast.Name) for e in t.elts))
                for t in targets
            )
        ):
            bound = {n for t in targets for n in bound_names(t)} | walrus_names(value)
            read = set(ir.names(value)) - walrus_names(value)
            return (bound, read) if not bound & read else None
        case If(test=test, body=body, orelse=orelse) if is_pure(test):
            bound, read = set(), set(ir.names(test))
            for branch in (body, orelse):
                before: set[str] = set()  # a branch may read what it bound itself
                for child in branch:
                    inner = _binding(child) if not isinstance(child, Comment) else (set(), set())
                    if inner is None:
                        return None
                    read |= inner[1] - before
                    before |= inner[0]
                bound |= before
            return (bound, read) if bound and not bound & read else None
    return None


def _exit_reads(node: Node, exits: _Exits) -> set[str] | None:
    """What is read after a filter leaves (None: `node` is no filter, or leaves a way not known)."""
    if not (isinstance(node, If) and not node.orelse and len(node.body) == 1 and is_pure(node.test)):
        return None
    match node.body[0]:
        case Continue():
            return exits.again
        case Break():
            return exits.out
        case Return(value=value):  # what it returns is read there, and nothing after
            return set(ir.names(value)) if value is not None else set()
    return None


def _worth_moving(node: Node) -> bool:
    """Does the binding compute something (an operator, a call, several names unpacked)? A plain
    read (`tok = g._tok[me]`) costs a load and a store wherever it is: moved, it saves next to
    nothing, and only changes which instructions the interpreter pairs."""
    match node:
        case Assign(targets=targets, value=value):
            unpacks = any(isinstance(t, ast.Tuple) and len(t.elts) > 1 for t in targets)
            return unpacks or not isinstance(value, (ast.Name, ast.Attribute, ast.Subscript, ast.Constant))
        case If(body=body, orelse=orelse):
            return any(_worth_moving(n) for n in body + orelse)
    return False


def _sink(body: list[Node], k: int, exits: _Exits) -> list[Node]:
    """`body` with its k-th statement moved down as far as it may go, if that passes a filter or
    enters a branch (else `body` as it was)."""
    found = _binding(body[k])
    if found is None or not _worth_moving(body[k]):
        return body
    bound, read = found
    j, passed = k + 1, k
    while j < len(body):
        node = body[j]
        other = _binding(node)
        if isinstance(node, Comment) or (
            other is not None and not (other[1] & bound) and not (other[0] & (bound | read))
        ):
            j += 1
            continue
        if not isinstance(node, If) or walrus_names(node.test) or ir.names(node.test) & bound:
            break
        leaving = _exit_reads(node, exits)
        if leaving is None or leaving & bound:
            break
        passed = j
        j += 1
    target = body[j] if j < len(body) else None
    if (
        isinstance(target, If)
        and is_pure(target.test)
        and not (ir.names(target.test) & bound)
        and exposed(target.body) & bound
        and not ((exposed(target.orelse) | exposed(body[j + 1 :]) | exits.end) & bound)
    ):
        entered = If(target.test, [body[k], *target.body], target.orelse, target.note, target.chained, target.role)
        return body[:k] + body[k + 1 : j] + [entered] + body[j + 1 :]
    if passed == k:
        return body
    return body[:k] + body[k + 1 : passed + 1] + [body[k]] + body[passed + 1 :]
