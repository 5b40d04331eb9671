"""What an action's effects move, in order (checks of the sense pass).

Where each chosen card is while the effects run (card_flow, E510), when the payment is
made (pay_flow, E511), and how many tokens a condition guarantees to the effects that move
them (token_bounds: the engine leaves out the tests it makes sure of; overdraws, warning E512).

A chosen card starts where its choice found it: in its face-up slot, or in the acting
player's hand of reserved cards. `reserve`, `acquire` and `bury` move it out, once;
`refill` puts the top card of the deck into the slot a face-up card left. Effects
in another order lose a card or copy one: `refill(card)` with the card still in its
slot throws it away, and `acquire(card)` after `bury(card)` hands the player a card
that also lies in the deck. The generated engine does exactly what the effects say,
so these are reported here (E510), at the effect, before any game is played.

The walk follows the effects in order; after an `if`, a card is where both branches
leave it, or "maybe moved" when they disagree, which no later effect may rely on.
"""

from __future__ import annotations

from ..diagnostics import Diagnostic
from ..front.expr import (
    Aggregate,
    Attribute,
    Compare,
    Effect,
    ForEach,
    Index,
    Int,
    Logic,
    Name,
    Sequence,
    When,
    unparse,
    walk,
)
from ..language import EFFECTS, Family
from ..model import Param, Rules

# The flow facts of the base game's effects (compiler/language/effects.py): those that move the card (or, visit,
# the noble) given first, those that refill the place it left, those that pay the chosen payment.
MOVES = tuple(d.name for d in EFFECTS.values() if d.family is Family.BASE and d.moves)
REFILLS = tuple(d.name for d in EFFECTS.values() if d.family is Family.BASE and d.refills)
PAYS = tuple(d.name for d in EFFECTS.values() if d.pays)

IN_PLACE, MOVED, REFILLED, MAYBE = "in place", "moved", "refilled", "maybe"


def card_flow(effects, params: tuple[Param, ...]) -> list[Diagnostic]:
    """E510 for every effect that moves a chosen card (or noble) twice, or refills a slot its card has not left."""
    cards = {p.name: p.domain for p in params if p.domain in ("face_up", "reserved", "noble")}
    if not cards:
        return []
    found: list[Diagnostic] = []
    state = {name: (IN_PLACE, None) for name in cards}
    for stmt in effects:
        state = _walk(stmt, state, cards, found, looped=False)
    return found


def _walk(stmt, state: dict, cards: dict, found: list, looped: bool) -> dict:
    if isinstance(stmt, Sequence):  # its effects in order, as the effects of a list
        for part in stmt.stmts:
            state = _walk(part, state, cards, found, looped)
        return state
    if isinstance(stmt, When):
        then = _walk(stmt.then, dict(state), cards, found, looped)
        other = _walk(stmt.otherwise, dict(state), cards, found, looped) if stmt.otherwise is not None else state
        return {name: then[name] if then[name][0] == other[name][0] else (MAYBE, stmt) for name in state}
    if isinstance(stmt, ForEach):
        return _walk(stmt.body, state, cards, found, looped=True)
    if not isinstance(stmt, Effect) or stmt.name not in (*MOVES, *REFILLS):
        return state
    arg = stmt.args[0] if stmt.args else None
    if not isinstance(arg, Name) or arg.id not in cards:
        return state
    name, (where, by) = arg.id, state[arg.id]
    place = {"face_up": "its face-up slot", "reserved": "your reserved cards", "noble": "the row"}[cards[name]]
    thing, once = ("noble", "a noble visits once") if cards[name] == "noble" else ("card", "a card moves once")
    if looped:
        found.append(
            Diagnostic(
                "E510",
                f"{stmt.name}({name}) inside 'for' would act on the chosen {thing} at every pass; {once}",
                stmt.span,
            )
        )
        return {**state, name: (MOVED if stmt.name in MOVES else REFILLED, stmt)}  # reported once
    if stmt.name in MOVES:
        if where == IN_PLACE:
            return {**state, name: (MOVED, stmt)}
        found.append(
            Diagnostic("E510", f"{stmt.name}({name}): the chosen {thing} {_left(where, by, place)}; {once}", stmt.span)
        )
        return state
    # refill: the slot must be empty, its card gone, and not refilled yet
    if where == MOVED:
        return {**state, name: (REFILLED, stmt)}
    if where == IN_PLACE:
        message = (
            f"refill({name}) while the chosen card is still in {place}: it would be lost; move it first "
            "with reserve, acquire or bury"
        )
    elif where == REFILLED:
        message = (
            f"refill({name}): its slot was refilled already (line {by.span.line}); the card there now would be lost"
        )
    else:
        message = (
            f"refill({name}) may run while the chosen card is still in {place} (when the 'if' at line "
            f"{by.span.line} does not move it): it would be lost"
        )
    found.append(Diagnostic("E510", message, stmt.span))
    return state


def _left(where: str, by, place: str) -> str:
    if where == MAYBE:
        return f"may have left {place} already (the 'if' at line {by.span.line})"
    return f"left {place} already ({by.name}, line {by.span.line})"


def pay_flow(effects) -> list[Diagnostic]:
    """E511 for a payment made after tokens left the player, or made twice.

    A payment is chosen among those the player's tokens allow when the action begins;
    `put_back` (or another `pay`) before it can leave the player short of what it spends.
    """
    found: list[Diagnostic] = []
    spent = None  # the first effect that took tokens from the player
    for stmt in effects:
        for node, looped in _effects_in(stmt, False):
            if node.name in PAYS:
                if looped:
                    found.append(Diagnostic("E511", f"{unparse(node)} inside 'for' would pay at every pass", node.span))
                elif spent is not None:
                    found.append(
                        Diagnostic(
                            "E511",
                            f"{unparse(node)} after {unparse(spent)} (line {spent.span.line}): "
                            "the payment was chosen from the tokens held when the action "
                            "began; pay first",
                            node.span,
                        )
                    )
            if DRAWS.get(node.name) == "tokens" and spent is None:  # pay, put_back: tokens leave the player
                spent = node
    return found


def _effects_in(stmt, looped: bool):
    """(effect, inside a 'for') for every effect of a statement, in order."""
    if isinstance(stmt, Effect):
        yield stmt, looped
    elif isinstance(stmt, ForEach):
        yield from _effects_in(stmt.body, True)
    elif isinstance(stmt, Sequence):
        for part in stmt.stmts:
            yield from _effects_in(part, looped)
    elif isinstance(stmt, When):
        yield from _effects_in(stmt.then, looped)
        if stmt.otherwise is not None:
            yield from _effects_in(stmt.otherwise, looped)


# What each effect draws on: after it, the condition no longer speaks for that pool.
DRAWS = {d.name: d.draws for d in EFFECTS.values() if d.draws is not None}


def token_bounds(test, values: dict) -> dict:
    """(pool, colour) -> the least number of tokens a condition guarantees when it holds.

    From its conjuncts `supply[X] >= k` (or `> k - 1`), `me.tokens[X] >= k`, and `all(...)`
    of these over a collection S (colour "each S"); k a number or a named value. Also
    ("reserved", "room"): with `me.reserved < k` (or `<= k - 1`), the count is below k.
    """
    out: dict = {}

    def pool_of(node):
        match node:
            case Index(obj=Name(id="supply"), index=colour):
                return "supply", colour
            case Index(obj=Attribute(obj=Name(id="me"), name="tokens"), index=colour):
                return "tokens", colour
        return None, None

    def least(op, right):
        k = right.value if isinstance(right, Int) else values.get(right.id) if isinstance(right, Name) else None
        if not isinstance(k, int) or op not in (">=", ">"):
            return None
        return k if op == ">=" else k + 1

    def add(key, k):
        if k is not None and key[0] is not None:
            out[key] = max(out.get(key, k), k)

    stack = [test]
    while stack:
        node = stack.pop()
        match node:
            case Logic(op="and", left=left, right=right):
                stack += [left, right]
            case Compare(op="<" | "<=" as op, left=Attribute(obj=Name(id="me"), name="reserved"), right=right):
                k = least(">=" if op == "<" else ">", right)  # below k: k as a number, or k + 1 for <=
                add(("reserved", "room"), k)
            case Compare(op=op, left=left, right=right):
                pool, colour = pool_of(left)
                if pool is not None:
                    add((pool, unparse(colour)), least(op, right))
            case Aggregate(func="all", var=var, collection=coll, body=Compare(op=op, left=left, right=right)):
                pool, colour = pool_of(left)
                if pool is not None and colour == Name(var, None):
                    add((pool, "each " + unparse(coll)), least(op, right))
    return out


def overdraws(rules: Rules, choices: dict[str, int]) -> list[Diagnostic]:
    """E512 warnings: an effect that moves more tokens than its decision's condition ensures.

    `take(colour, 2)` under `supply[colour] >= pair_minimum` with pair_minimum 1: legal with
    one token left, when the engine stops with a RuleError. Only the first effect that draws
    on a pool, outside any `for` or `if`, is weighed against the condition (as the engine does).
    Every decision is weighed alike: an action, a step, and a step resolved whole (`resolve:
    all`), whose choices are all found legal before the first is applied, so that its
    condition speaks for the first choice only where several of them draw on the same tokens
    (:func:`_shared_draw`): there, m choices need m times what one moves. `choices` is the
    most choices of each decision that can be legal at once (``check.action_sizes``).
    """
    values = {v.name: v.value for v in rules.values}
    found = []
    for d in (*rules.actions, *rules.steps):
        bounds = token_bounds(d.condition, values)
        drawn: set[str] = set()
        for stmt in d.effects:
            if isinstance(stmt, Effect) and stmt.name in ("take", "put_back") and len(stmt.args) == 2:
                pool = "supply" if stmt.name == "take" else "tokens"
                amount = stmt.args[1]
                n = (
                    amount.value
                    if isinstance(amount, Int)
                    else values.get(amount.id)
                    if isinstance(amount, Name)
                    else None
                )
                k = bounds.get((pool, unparse(stmt.args[0])))
                if pool in drawn or not isinstance(n, int) or k is None:
                    pass
                elif k < n:
                    found.append(
                        _overdraw(stmt, d, f"can move {n} tokens where the condition of '{d.name}' ensures {k}", values)
                    )
                elif d.resolve == "all" and _shared_draw(d, stmt.args[0]) and k < n * choices[d.name]:
                    found.append(
                        _overdraw(
                            stmt,
                            d,
                            f"moves {n} tokens for each of the up to {choices[d.name]} "
                            f"choices '{d.name}' resolves at once (resolve: all), where its "
                            f"condition, checked for all of them before the first, ensures "
                            f"{k} in all",
                            values,
                        )
                    )
            drawn |= {DRAWS[x.name] for x in _effects(stmt) if x.name in DRAWS}
    return found


def _overdraw(stmt: Effect, d, what: str, values: dict) -> Diagnostic:
    """The E512 warning at `stmt`: what it moves against what the condition of `d` ensures,
    and the named values the condition uses."""
    named = [f"{v} is {values[v]}" for v in sorted(values) if v in _names(d.condition)]
    return Diagnostic(
        "E512",
        f"{unparse(stmt)} {what}"
        + (f" ({', '.join(named)})" if named else "")
        + ": the engine stops with an error when fewer are there",
        stmt.span,
        severity="warning",
    )


def _shared_draw(d, colour) -> bool:
    """Whether two choices of `d` applied in one go can draw on the same tokens of `colour`:
    always, but where `colour` is the decision's only choice (each choice then names its own)."""
    if not d.params:
        return False  # a single choice
    return not (isinstance(colour, Name) and len(d.params) == 1 and d.params[0].name == colour.id)


def _names(node) -> set[str]:
    return {x.id for x in walk(node) if isinstance(x, Name)}


def _effects(stmt):
    return [effect for effect, _ in _effects_in(stmt, False)]


# ---------------------------------------------------------------------------- loops that empty what a later loop walks

# The effects that take a component out of the collection it lies in: a face-up card out of its
# row (`market[level]`), a component out of its zone (visit too: no collection of nobles is walked).
TAKES_OUT = tuple(dict.fromkeys(d.name for d in EFFECTS.values() if d.moves))
# The effects that put components into a collection again: a slot refilled, a zone filled; and those
# that put one into the zone given second.
PUTS_IN = tuple(dict.fromkeys(d.name for d in EFFECTS.values() if d.refills or d.puts_in))
PUTS_INTO_SECOND = tuple(d.name for d in EFFECTS.values() if d.puts_in)


def emptied_loops(rules: Rules) -> list[Diagnostic]:
    """E557 (warning): a `for` over a collection that a `for` before it, in the same effects, has
    emptied (its body takes each element out, `bury(card)` without `refill(card)`), with nothing
    put back in between: the later loop walks nothing, so what it should do is never done
    (`for card in market[level]: bury(card)`, then `for card in market[level]: refill(card)`
    leaves the row empty)."""
    found: list[Diagnostic] = []
    lists = [d.effects for d in rules.actions + rules.steps] + [b.effects for b in rules.setup]
    for effects in lists:
        emptied: list[ForEach] = []
        for stmt in effects:
            if isinstance(stmt, ForEach):
                earlier = next((e for e in emptied if e.collection == stmt.collection), None)
                if earlier is not None:
                    found.append(
                        Diagnostic(
                            "E557",
                            f"this loop over {unparse(stmt.collection)} walks nothing: the loop before it takes "
                            f"every element out of {unparse(stmt.collection)}, so its effects are never carried out",
                            stmt.collection.span,
                            (
                                f"the loop that empties it is at line {earlier.span.line}" if earlier.span else "",
                                "do both in one loop, as in `for card in market[level]: bury(card); refill(card)`",
                            ),
                            severity="warning",
                        )
                    )
            emptied = [e for e in emptied if not _puts_in(stmt, e.collection)]
            if isinstance(stmt, ForEach) and _empties(stmt):
                emptied.append(stmt)
    return found


def _empties(loop: ForEach) -> bool:
    """Does every pass of the loop surely take its element out of the collection it walks (and put
    nothing back into it)?"""
    body = loop.body.stmts if isinstance(loop.body, Sequence) else (loop.body,)
    var = Name(loop.var, None)
    out = any(
        isinstance(s, Effect)
        and s.name in TAKES_OUT
        and s.args
        and s.args[0] == var
        and not (s.name in PUTS_INTO_SECOND and len(s.args) > 1 and s.args[1] == loop.collection)
        for s in body
    )  # unconditionally: an effect of the body itself, not under an `if`
    return out and not _puts_in(loop.body, loop.collection, var)


def _puts_in(stmt, collection, var=None) -> bool:
    """Does `stmt` put something into `collection` (a refill of a slot of it, a move into it)?"""
    for node in walk(stmt):
        if not isinstance(node, Effect) or node.name not in PUTS_IN or not node.args:
            continue
        if node.name in REFILLS and (
            node.args[0] == collection or node.args[0] == var or isinstance(collection, Index)
        ):
            return True  # refill(card) fills the slot a card of a row left; refill(ZONE) the zone
        if node.name in PUTS_INTO_SECOND and len(node.args) > 1 and node.args[1] == collection:
            return True
    return False
