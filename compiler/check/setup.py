"""Pass 4, check: the `setup` section - blocks of effects run once after the deal.

Setup asks nobody, so a block has no choices; an effect that acts for a player runs only in a
block run for each player (E552). Setup that would take more tokens than the supply holds, or
reserve more cards than a deck holds after the deal, at some player count, is said by `check`
(E552), not found by the first `new_game` (with :mod:`compiler.check.deal` for the spec's zones).
"""

from __future__ import annotations

from ..front.expr import Effect, Int, Name, walk
from ..front.source import MapNode, SeqNode
from ..language import EFFECTS
from ..model import SetupBlock
from . import bounds as bounds_mod
from . import deal as deal_mod
from . import zones as zones_mod
from .flow import card_flow
from .procedures import calls_broken
from .reader import Checker
from .types import PLAYER, STATE_EFFECTS, Scope

# The effects that act for no player unless told which (a zone's, a variable's: `me.hand` is no name in
# a block run once), so a setup block run once may hold them (E552 is for the others).
FOR_NOBODY = frozenset(zones_mod.ZONE_EFFECTS) | frozenset(STATE_EFFECTS)
# The effects that change who plays next (extra_turn): they have a meaning only in a turn (E571).
TURN_EFFECTS = frozenset(d.name for d in EFFECTS.values() if d.gives_turn)


def setup_blocks(c: Checker, scope_names, facts) -> tuple[SetupBlock, ...]:
    """The `setup` section: blocks of effects run once after the deal. Setup asks nobody, so
    no block has choices; every effect acts for a player, so a block names `me` (and may
    carry effects) only when it runs for each player (E552)."""
    table = c.node(c.root, "setup", MapNode, required=False)
    out = []
    for key, entry in table.entries if table else ():
        if not isinstance(entry, MapNode):
            c.r.error("E103", f"setup block '{key.value}' must be a mapping", entry.span)
            continue
        where = f" in setup block '{key.value}'"
        c.spans[f"setup.{key.value}"] = key.span
        each_player, _ = c.scalar(entry, "each_player", bool, required=False, default=False, where=where)
        scope = Scope({**scope_names, "me": PLAYER}) if each_player else Scope(dict(scope_names))
        effects = []
        before = len(c.r.diagnostics)
        effects_node = c.node(entry, "effects", SeqNode, where=where)
        for item in effects_node.items if effects_node else ():
            stmt = c.statement(item, "effect")
            if stmt is None:
                continue
            again = next((x for x in walk(stmt) if isinstance(x, Effect) and x.name in TURN_EFFECTS), None)
            if again is not None:
                c.r.error(
                    "E571",
                    f"effect '{again.name}'{where} gives a turn, and setup is played before any turn",
                    again.span,
                    "give the turn in an action or an end-of-turn step",
                )
                continue
            queued = next((x for x in walk(stmt) if isinstance(x, Effect) and x.name == "queue"), None)
            if queued is not None:
                c.r.error(
                    "E576",
                    f"queue(...){where} queues a step, and setup is played before any turn has steps",
                    queued.span,
                    "queue the step in an action, an end-of-turn step or a procedure they call",
                )
                continue
            acting = next((x for x in walk(stmt) if isinstance(x, Effect) and x.name not in FOR_NOBODY), None)
            if acting is not None and not each_player:
                c.r.error(
                    "E552",
                    f"effect '{acting.name}'{where} acts for a player, and this block runs once "
                    "for nobody in particular",
                    acting.span,
                    "give the block 'each_player: true' to run it once for each player in seat order",
                )
                continue
            c.types.statement(stmt, scope)
            effects.append(stmt)
        if len(c.r.diagnostics) == before and not calls_broken(effects, c.procedures):
            c.r.extend(card_flow(effects, ()))
            for stmt in effects:
                c.r.extend(bounds_mod.hazards(stmt, bounds_mod.Bounds(facts)))
        if effects_node is not None:
            c.spans[f"setup.{key.value}.effects"] = effects_node.span
        out.append(
            SetupBlock(
                str(key.value), c.text(entry, "title"), tuple(effects), key.span, bool(each_player), c.note(entry)
            )
        )
    return tuple(out)


def setup_overdraws(c: Checker, setup, players, cards, gems, wild) -> None:
    """Setup that takes more tokens than the supply holds, or reserves more cards than a
    deck holds after the deal, at some player count (E552): said by `check`, not found by
    the first `new_game`. Counts the effects with constant arguments outside any `if` or
    `for`; the others are guarded when they run (a RuleError at the effect)."""
    colours = gems + (wild,)
    for pc in players:
        supply = {colour: pc.gems for colour in gems} | {wild: pc.gold}
        decks: dict[int, int] = {}
        for card in cards:
            decks[card.level] = decks.get(card.level, 0) + 1
        decks = {level: n - pc.face_up for level, n in decks.items()}
        for block in setup:
            for _ in range(pc.players if block.each_player else 1):
                for stmt in block.effects:
                    problem = _setup_draw(stmt, colours, supply, decks)
                    if problem:
                        c.r.error(
                            "E552",
                            f"setup {problem} with {pc.players} players",
                            stmt.span,
                            "the setup blocks run in order, each_player blocks once for each player",
                        )
                        return
    c.r.extend(deal_mod.setup_overdraws(c.zones, c.kinds, setup, players))


def _setup_draw(stmt, colours, supply: dict, decks: dict) -> str:
    """Apply one setup effect with constant arguments to the counts of the supply and the
    decks; what it cannot take, in words ('' when it can, or when its arguments are not constants)."""
    if not isinstance(stmt, Effect):
        return ""
    args = stmt.args
    if (
        stmt.name in ("take", "put_back")
        and len(args) == 2
        and isinstance(args[0], Name)
        and args[0].id in colours
        and isinstance(args[1], Int)
    ):
        if stmt.name == "take":
            supply[args[0].id] -= args[1].value
            if supply[args[0].id] < 0:
                return f"takes more {args[0].id} tokens than the supply holds"
        return ""
    if stmt.name == "reserve_top" and len(args) == 1 and isinstance(args[0], Int) and args[0].value in decks:
        decks[args[0].value] -= 1
        if decks[args[0].value] < 0:
            return f"reserves more cards of level {args[0].value} than its deck holds after the deal"
    return ""
