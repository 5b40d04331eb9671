"""The deal of the zones, counted by `check`: how many components each zone holds once a game is
dealt at each player count, and setup that then draws from a pile more than it holds (E552).

Called by :mod:`compiler.check` (setup_overdraws) with the zones, the kinds, the setup blocks and
the player-count table, once they are checked; returns the diagnostics. It follows the engines'
deal (compiler/emit/runtime/zones.py, _deal_zones): zones in declaration order, a `start: all` pile
takes every piece of its kind, a `start: dealt` display or row its size from its source (or from
the kind itself), every other zone starts empty. Then the setup's zone effects with constant
arguments outside any `if` or `for`, as the token and card counts of compiler/check/setup.py do:
`draw` takes the top of a pile (the engine stops `new_game` when it is empty: said here, with the
pile, what it holds and what the setup takes), `reveal` and `refill` take what the pile and the
room allow. The others are guarded when they run (a RuleError at the effect).
"""

from __future__ import annotations

from ..diagnostics import Diagnostic
from ..front.expr import Attribute, Effect, Name
from ..language import Shape
from ..model import Kind, PlayerCount, SetupBlock, Zone
from .zones import pieces

UNBOUNDED = 10**9  # the room of a pile, or of a holding without a limit


class Counts:
    """What each zone holds at one player count: shared zones by name, per-player ones by (name, seat)."""

    def __init__(self, zones: tuple[Zone, ...], kinds: dict[str, Kind], players: int):
        self.zones = {z.name: z for z in zones}
        self.players = players
        self.held: dict[tuple[str, int], int] = {}
        self.dealt: dict[str, list[str]] = {}  # pile -> the zones dealt from it
        for zone in zones:
            if zone.per_player:
                self.held.update({(zone.name, seat): 0 for seat in range(players)})
                continue
            count = 0
            if zone.place:  # a place of the base game: the noble row holds its nobles (setup.nobles)
                count = dict(zone.sizes).get(players, 0)
            elif zone.start == "all":
                count = pieces(kinds[zone.holds])
            elif zone.start == "dealt":
                size = dict(zone.sizes).get(players, 0)
                if zone.source:
                    count = min(size, self.held[zone.source, 0])
                    self.held[zone.source, 0] -= count
                    self.dealt.setdefault(zone.source, []).append(zone.name)
                else:
                    count = min(size, pieces(kinds[zone.holds]))
            self.held[zone.name, 0] = count
        self.after_deal = dict(self.held)

    def room(self, key: tuple[str, int]) -> int:
        zone = self.zones[key[0]]
        if zone.shape.laid_out:
            return dict(zone.sizes).get(self.players, 0) - self.held[key]
        if zone.shape is Shape.HOLDING and zone.limit:
            return zone.limit - self.held[key]
        return UNBOUNDED

    def move(self, source: tuple[str, int], target: tuple[str, int], most: int) -> int:
        """Move up to `most` from `source` to `target`, as the room and the source allow; how many."""
        n = max(0, min(most, self.held[source], self.room(target)))
        self.held[source] -= n
        self.held[target] += n
        return n


def _zone_key(node, counts: Counts, seat: int) -> tuple[str, int] | None:
    """The zone an argument names (`pile`, `me.hand` for the seat acting), or None."""
    match node:
        case Name(id=name) if name in counts.zones and not counts.zones[name].per_player:
            return name, 0
        case Attribute(obj=Name(id="me"), name=name) if name in counts.zones and counts.zones[name].per_player:
            return name, seat
    return None


Failure = tuple[Effect, "tuple[str, int] | None"]  # a draw the engine cannot carry out, and the full zone (if so)


def _apply(stmt, counts: Counts, seat: int, drawn: dict, taken: dict) -> Failure | None:
    """Count one setup effect (the draws from each pile in `drawn`, what reveal and refill take in
    `taken`); a `draw` the engine cannot carry out, as (the effect, None) when its pile is empty or
    (the effect, the zone) when the zone it draws into is full; else None."""
    if not isinstance(stmt, Effect):
        return None
    found = [_zone_key(a, counts, seat) for a in stmt.args]
    keys = [k for k in found if k is not None]
    if len(keys) != len(found) or not keys:
        return None
    if stmt.name == "draw" and len(keys) == 2:
        pile, target = keys
        drawn[pile[0]] = drawn.get(pile[0], 0) + 1
        if counts.held[pile] == 0:
            return stmt, None
        if counts.room(target) <= 0:  # the engine looks at the pile first, then at the room
            return stmt, target
        counts.held[pile] -= 1
        counts.held[target] += 1
    elif stmt.name == "reveal" and len(keys) == 2:
        taken[keys[0][0]] = taken.get(keys[0][0], 0) + counts.move(keys[0], keys[1], 1)
    elif stmt.name == "refill" and len(keys) == 1:
        source = counts.zones[keys[0][0]].source
        if source in counts.zones:
            taken[source] = taken.get(source, 0) + counts.move((source, 0), keys[0], UNBOUNDED)
    return None


def setup_overdraws(
    zones: tuple[Zone, ...], kinds: tuple[Kind, ...], setup: tuple[SetupBlock, ...], players: tuple[PlayerCount, ...]
) -> list[Diagnostic]:
    """E552 for the first setup `draw` that finds its pile empty (naming the pile, what it holds after
    the deal and what the setup takes from it) or the zone it draws into full, at some player count
    (the fewest players first)."""
    if not zones or not setup:
        return []
    by_name = {k.name: k for k in kinds}
    for pc in players:
        counts = Counts(zones, by_name, pc.players)
        drawn: dict[str, int] = {}
        taken: dict[str, int] = {}
        first: Failure | None = None
        for block in setup:
            for seat in range(pc.players if block.each_player else 1):
                for stmt in block.effects:
                    failed = _apply(stmt, counts, seat, drawn, taken)
                    first = first or failed
        if first is not None and first[1] is not None:
            return [_full_zone(first[0], first[1], counts, by_name, pc.players)]
        if first is not None:
            return [_empty_pile(first[0], counts, drawn, taken, by_name, pc.players)]
    return []


def _full_zone(
    stmt: Effect, target: tuple[str, int], counts: Counts, kinds: dict[str, Kind], players: int
) -> Diagnostic:
    zone = counts.zones[target[0]]
    most = zone.limit if zone.shape is Shape.HOLDING else dict(zone.sizes).get(players, 0)
    whose = f"player {target[1] + 1}'s " if zone.per_player else ""
    why = "its limit" if zone.shape is Shape.HOLDING else "its size"
    kind = kinds[zone.holds]
    return Diagnostic(
        "E552",
        f"setup draws into {whose}zone '{zone.name}' with {players} players when it is full: it "
        f"holds at most {most} {kind.item.en if most == 1 else kind.name} ({why})",
        stmt.span,
        (
            "the setup blocks run in order, each_player blocks once for each player; a draw into a full "
            "zone stops every new game",
        ),
    )


def _empty_pile(
    stmt: Effect, counts: Counts, drawn: dict, taken: dict, kinds: dict[str, Kind], players: int
) -> Diagnostic:
    name = stmt.args[0].id if isinstance(stmt.args[0], Name) else ""
    zone = counts.zones[name]
    kind = kinds[zone.holds]
    held = counts.after_deal[name, 0]
    draws = (
        f"setup draws {drawn[name]} {kind.item.en if drawn[name] == 1 else kind.name} from pile '{name}' with "
        f"{players} players"
    )
    if zone.start != "all":
        message = f"{draws}, but the pile starts empty (it has no 'start: all')"
    else:
        dealt = counts.dealt.get(name, [])
        given = f", {pieces(kind) - held} dealt to {', '.join(repr(z) for z in dealt)}" if dealt else ""
        message = f"{draws}, but the pile holds {held} after the deal ({pieces(kind)} in all{given})"
    if taken.get(name):
        message += f" and reveal or refill take {taken[name]} of them"
    return Diagnostic(
        "E552",
        message,
        stmt.span,
        (
            "the setup blocks run in order, each_player blocks once for each player; a draw from an empty "
            "pile stops every new game",
        ),
    )


__all__ = ["Counts", "setup_overdraws"]
