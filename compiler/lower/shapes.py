"""The shapes of the face-up purchase loops: transformations of the statement tree, chosen
from what a loop's body reads (measured with ``bench/callgrind_engine.sh``).

A :class:`~.tree.FaceUpLoop` is written, in order of preference:

* flat (:func:`flat_face_up_loop`): when the body reads nothing of the card but its unpacked
  cost, and its first word on a card is the cannot-pay test, the costs are walked in
  ``g.face_up_costs`` (level by level, ``max_face_up`` slots each), which the effects keep in
  step with the market; an empty slot there costs _NO_CARD_COST, which that test always
  rejects, so no ``is None`` test is needed either. When the body is only that test and the
  append of the id, the slots are written out one by one (:func:`unrolled_slots`);
* a shortcut for a full market (:func:`every_face_up_slot`), when the engine keeps
  ``g.face_up_costs`` and the body only appends the slot's id;
* nested loops over the market's rows and slots (:func:`expanded`).
"""

from __future__ import annotations

import ast
from collections.abc import Callable

from . import fold, ir
from .layout import EnginePlan
from .pysource import comment
from .tree import Append, Assign, Comment, Continue, FaceUpLoop, For, If, Node, read_after_each, reads, statements


def cost_names(loop: FaceUpLoop, plan: EnginePlan) -> list[str]:
    return [f"cc_{loop.name}_G{gi}" for gi in range(len(plan.gems))]


def _id(loop: FaceUpLoop) -> ast.Name:
    return ir.name(f"{loop.name}_ID")


def _is_append_of_id(body: list[Node], loop: FaceUpLoop) -> bool:
    """Is `body` only `out.append(NAME_ID)`?"""
    return body == [Append(ir.name("out"), _id(loop))]


def _row_tests(loop: FaceUpLoop, plan: EnginePlan) -> tuple[list, list[Node]]:
    """The body's first tests (`if T: continue`) that read nothing of the slot (`deck[card.level]`
    reads the row alone), and the rest of the body: those are tested once per row."""
    name = loop.name
    per_slot = {name, f"{name}_ID", f"cc_{name}", "_row", *cost_names(loop, plan)}
    tests: list[Node] = []
    for k, node in enumerate(loop.body):
        if isinstance(node, Comment):
            continue
        if not (
            isinstance(node, If)
            and node.body == [Continue()]
            and not node.orelse
            and not node.role
            and not reads(node) & per_slot
        ):
            return tests, [n for n in loop.body[k:] if n not in tests]
        tests.append(node)
    return tests, []


def expanded(loop: FaceUpLoop, plan: EnginePlan) -> list[Node]:
    """The loop as nested loops over the market: rows, then slots, skipping empty ones. The tests
    that read only the row come first, once a row; when nothing else is tested, a full row's ids
    are added at once."""
    name = loop.name
    row_tests, body = _row_tests(loop, plan)
    if row_tests:
        loop = FaceUpLoop(loop.name, loop.first, loop.stride, loop.row_stride, body)
    inner = [
        Assign((_id(loop),), ir.const(loop.stride), "+="),
        If(ir.compare(name, "is", ir.const(None)), [Continue()]),
    ]
    read = set().union(*map(reads, loop.body)) if loop.body else set()
    gems = cost_names(loop, plan)
    if f"cc_{name}" in read:
        inner.append(Assign((ir.name(f"cc_{name}"),), ir.sub("CARD_COST", name), pure=True))
        if read & set(gems):
            inner.append(Assign((ir.unpack(gems),), ir.name(f"cc_{name}"), pure=True))
    elif read & set(gems):
        inner.append(Assign((ir.unpack(gems),), ir.sub("CARD_COST", name), pure=True))
    row = ir.mul(f"{name}_LI", loop.row_stride)
    head = ir.add(loop.first, row) if loop.first is not None else row
    slots: list[Node] = [For(ir.name(name), ir.name("_row"), inner + loop.body)]
    if row_tests and _is_append_of_id(loop.body, loop):  # every slot of the row holds a card: its ids at once
        stride = [ir.const(loop.stride)] if loop.stride != 1 else []
        width = ir.mul(ir.call("len", "_row"), loop.stride) if loop.stride != 1 else ir.call("len", "_row")
        last = ir.add(ir.add(_id(loop), width), 1)
        ids = ir.call("range", ir.add(_id(loop), loop.stride), last, *stride)
        full = ir.compare(ir.const(None), "not in", "_row")
        slots = [If(full, [Append(ir.name("out"), ids, many=True)], slots, note=comment("every slot holds a card"))]
    return [
        For(
            ir.tuple_(f"{name}_LI", "_row"),
            ir.call("enumerate", ir.dotted("g.market")),
            [Assign((_id(loop),), head), *row_tests, *slots],
        )
    ]


def _contains_append(node: Node) -> bool:
    return any(isinstance(s, Append) for s in statements([node]))


def _unpayable_test(body: list[Node]) -> int | None:
    """The position of the body's cannot-pay test (followed by `continue` alone), when no id
    is appended before it."""
    for k, node in enumerate(body):
        if (
            isinstance(node, If)
            and node.role == "unpayable"
            and len(node.body) == 1
            and isinstance(node.body[0], Continue)
            and not node.orelse
        ):
            return k
        if _contains_append(node):
            return None
    return None


def flat_face_up_loop(loop: FaceUpLoop, plan: EnginePlan, read_after: set[str]) -> list[Node] | None:
    """The loop walking g.face_up_costs (or written out slot by slot), or None when it reads
    more of the card than its cost; `read_after`: the names the code after the loop reads."""
    name, body = loop.name, loop.body
    read = set().union(*map(reads, body)) if body else set()
    gems = cost_names(loop, plan)
    if not read & set(gems) or read & {name, f"cc_{name}", f"{name}_LI", "_row"}:
        return None
    test = _unpayable_test(body)
    if test is None:
        return None
    first = loop.first if loop.first is not None else ir.const(0)
    unrolled = unrolled_slots(loop, test, first, plan)
    if unrolled is not None and f"{name}_ID" not in read_after:
        return unrolled
    return [
        Assign((_id(loop),), first),
        For(ir.unpack(gems), ir.dotted("g.face_up_costs"), [Assign((_id(loop),), ir.const(loop.stride), "+="), *body]),
    ]


def unrolled_slots(loop: FaceUpLoop, test: int, first: ast.expr, plan: EnginePlan) -> list[Node] | None:
    """The flat purchase loop written out slot by slot, when its body is only the cannot-pay
    test and the append of the slot's id (comments aside): each slot's cost is unpacked from
    a local and its id is a constant, which saves the loop's own work (the iterator, the id
    counter, a jump back) on the hottest lines of a playout (about 3% of its instructions)."""
    body = loop.body
    rest = [node for k, node in enumerate(body) if k != test]
    comments = [node for node in rest if isinstance(node, Comment)]
    others = [node for node in rest if not isinstance(node, Comment)]
    check = body[test]
    if not _is_append_of_id(others, loop) or check.note is not None:
        return None
    skip = check.body[0].note if check.body[0].note is not None else "its test fails"
    slots = [(li, si) for li in range(len(plan.levels)) for si in range(plan.max_face_up)]
    names = [f"fu_{plan.levels[li]}_{si + 1}" for li, si in slots]
    out: list[Node] = [
        Comment(
            comment(
                "each face-up slot in turn (Game.face_up_costs, level by level), written out; "
                f"a slot is left out when {skip}"
            )
        ),
        *comments,
        Assign((ir.unpack(names),), ir.dotted("g.face_up_costs")),
    ]
    targets = ir.unpack(cost_names(loop, plan))
    for k, slot in enumerate(names):
        ident = fold.plus(first, (k + 1) * loop.stride)
        out += [Assign((targets,), ir.name(slot)), If(ir.not_(check.test), [Append(ir.name("out"), ident)])]
    return out


def every_face_up_slot(loop: FaceUpLoop, plan: EnginePlan) -> list[Node] | None:
    """A loop that adds the id of every occupied face-up slot, and tests nothing else, gets a
    shortcut for a full market (the usual case): the whole range of ids at once, when
    Game.face_up_costs holds no empty slot's cost."""
    start = fold.as_int(loop.first) if loop.first is not None else None
    if not _is_append_of_id(loop.body, loop) or start is None or start < 0:
        return None
    stride = loop.stride
    last = start + stride * len(plan.levels) * plan.max_face_up
    ids = ir.call("range", start + stride, last + 1, *([stride] if stride != 1 else []))
    return [
        If(
            ir.compare("_NO_CARD_COST", "not in", ir.dotted("g.face_up_costs")),
            [Append(ir.name("out"), ids, many=True)],
            expanded(loop, plan),
            note=comment("every face-up slot holds a card"),
        )
    ]


def shape_face_up_loops(
    nodes: list[Node],
    plan: EnginePlan,
    choose: Callable[[FaceUpLoop, set[str]], list[Node] | None],
    after: frozenset[str] = frozenset(),
) -> list[Node]:
    """`nodes` with each FaceUpLoop replaced by what `choose(loop, names read after it)` returns
    (a list of statements), or left as it is when that is None."""
    out: list[Node] = []
    for node, later in zip(nodes, read_after_each(nodes, set(after)), strict=True):
        if isinstance(node, FaceUpLoop):
            node.body = shape_face_up_loops(node.body, plan, choose, frozenset(later))
            replaced = choose(node, later)
            if replaced is not None:
                out += replaced
                continue
        for part in ("body", "orelse"):
            if getattr(node, part, None) and not isinstance(node, FaceUpLoop):
                setattr(node, part, shape_face_up_loops(getattr(node, part), plan, choose, frozenset(later)))
        out.append(node)
    return out
