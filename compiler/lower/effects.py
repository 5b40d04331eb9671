"""The lowering of each effect: one routine per declaration's `lowering` (compiler/language/effects.py).

The lowering's effect dispatch is this table, keyed by the routine names the registry gives;
tests/test_language.py checks that every declared effect names a routine here. A routine takes
the expression compiler, the effect's name and arguments, the bound names, the effect's node and
its text with its spec line (for the engine's RuleError), and returns the effect's statements,
or None when the arguments are not its own (the zones' `refill(ZONE)` beside `refill(card)`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..front.expr import Name
from ..language import Family
from ..language.effects import named
from . import ir, wilds
from . import variables as state
from . import zones as lower_zones
from .cards import acquire, bury, refill
from .layout import LoweringBug
from .queue import lower_queue_effect
from .tokens import G, _name_of, mine, move_tokens, pay, reserve_top
from .tree import Append, Assign, Do, If

Routine = Callable[..., list | None]


def _origin(arg, env) -> str:
    """Where a card argument was chosen ("face_up", "reserved"), or "" when it is not a choice."""
    bound = env.get(arg.id) if isinstance(arg, Name) else None
    return bound[3] if bound is not None and len(bound) > 3 else ""


def _values(compiler, args, env) -> list:
    """The arguments as nodes."""
    return [compiler.expr(x, env) for x in args]


def _local(compiler, args, env) -> str:
    """The name of the local a chosen card, noble or payment (the first argument) is known by: the
    names the compiler derives from it (`p_card_LI`, `p_pay_GOLD`) are built from it."""
    return _name_of(_values(compiler, args, env)[0])


def _state(compiler, name, args, env, node, located) -> list:
    return state.effect(compiler, name, args, env, located)


def _zone(compiler, name, args, env, node, located) -> list | None:
    return lower_zones.effect(compiler, name, args, env, node, located) if compiler.plan.rules.zones else None


def _tokens(compiler, name, args, env, node, located) -> list:
    return move_tokens(compiler, name, args, _values(compiler, args, env), node)


def _pay(compiler, name, args, env, node, located) -> list:
    local = _local(compiler, args, env)
    spent = compiler.wild_params.get(local)  # a payment with `wilds`: its components set aside, spent too
    return pay(compiler, local) + (wilds.spend(compiler.plan.rules, spent, local, located) if spent else [])


def _reserve_top(compiler, name, args, env, node, located) -> list:
    return reserve_top(compiler, _values(compiler, args, env)[0], node)


def _acquire(compiler, name, args, env, node, located) -> list:
    if lower_zones.is_component(compiler.kind_of(args[0], env)):  # a card of a place (a component)
        return lower_zones.place_card(name, compiler.expr(args[0], env), located)
    kind = env[args[0].id][1] if isinstance(args[0], Name) and args[0].id in env else "card"
    assert kind == "card"
    return acquire(compiler, _local(compiler, args, env), _origin(args[0], env))


def _bury(compiler, name, args, env, node, located) -> list:
    """To the bottom of its level's deck (drawn last)."""
    if lower_zones.is_component(compiler.kind_of(args[0], env)):  # a card of a place (a component)
        return lower_zones.place_card(name, compiler.expr(args[0], env), located)
    return bury(compiler, _local(compiler, args, env), _origin(args[0], env))


def _reserve(compiler, name, args, env, node, located) -> list:
    if lower_zones.is_component(compiler.kind_of(args[0], env)):  # a card of a place (a component)
        card = compiler.expr(args[0], env)
        return [*compiler.reserve_room(node), *lower_zones.place_card(name, card, located)]
    p = _local(compiler, args, env)
    place = ir.sub(ir.sub(ir.attr(G, "market"), f"{p}_LI"), f"{p}_SI")
    return [
        *compiler.reserve_room(node),
        Append(mine("_res"), ir.name(p)),
        Assign((place,), ir.const(None)),
        *compiler.face_up_cost(p, ir.name("_NO_CARD_COST")),
    ]


def _refill(compiler, name, args, env, node, located) -> list:
    return refill(compiler, _local(compiler, args, env))


def _visit(compiler, name, args, env, node, located) -> list:
    p = _local(compiler, args, env)
    return [
        Do(ir.method(ir.attr(G, "noble_row"), "remove", p)),
        Append(mine("_nob"), ir.name(p)),
        Assign((mine("_pts"),), ir.sub("NOBLE_POINTS", p), "+="),
    ]


def _extra_turn(compiler, name, args, env, node, located) -> list:
    """The acting player plays again after this turn (Game.extra 1), unless this turn is already
    an extra one (Game.extra 2): a player plays at most one extra turn in a row, so extra turns
    never chain (rulespec/README.md, "The turn")."""
    extra = ir.attr(G, "extra")
    return [If(ir.compare(extra, "==", ir.const(0)), [Assign((extra,), ir.const(1))])]


def _queue(compiler: Any, name: str, args: Any, env: dict[str, Any], node: Any, located: str) -> list[Any]:
    """A queued step's entry appended to the game's queue (compiler/lower/queue.py)."""
    return lower_queue_effect(compiler, name, args, env, node, located)


# The routines by the name an effect's declaration gives as its `lowering`.
LOWERINGS: dict[str, Routine] = {
    "state": _state,
    "zone": _zone,
    "tokens": _tokens,
    "pay": _pay,
    "reserve_top": _reserve_top,
    "acquire": _acquire,
    "bury": _bury,
    "reserve": _reserve,
    "refill": _refill,
    "visit": _visit,
    "extra_turn": _extra_turn,
    "queue": _queue,
}


def lower_effect(compiler, name: str, args, env, node, located: str) -> list:
    """The statements of one effect, `name(args)`: a name declared twice (refill) is the zones' effect when
    its routine takes the arguments (a zone), else the base game's."""
    for decl in sorted(named(name), key=lambda d: d.family is not Family.ZONE):
        out = LOWERINGS[decl.lowering](compiler, name, args, env, node, located)
        if out is not None:
            return out
    raise LoweringBug(f"unknown effect {name}")  # pragma: no cover - the checker rejects unknown effects
