"""Hidden information: a rule reads a seat's private data only for that seat (E558).

A pass of the check over the typed rule model, once every expression makes sense. It takes the
model's pieces and returns diagnostics.

A per-player variable declared `private` and the components a `private_when_drawn` holding got by
`draw` are seen by their owner only: `observation(p)` shows null, or a hidden component. Whatever
a rule reads shows in what it decides -- an action's condition and its choices' tests make the
acting player's menu (`legal_actions`, `legal_mask`, the web table's buttons), a step's make the
phase, an effect changes what every player sees -- so reading another seat's private data there
would tell it, as reading a face-down pile would tell its order (E551). A rule therefore reads
the private data of the player it is for only: `me` in an action, a step, an end trigger and a
setup block run for each player (a setup block run once is for nobody); a definition reads its
player parameter's, and a call passes the rule's own player for it. Any other player (an element
of `players` or `others`, a player variable, a definition's result, a loop variable named like
the rule's player) may be another seat: reading its private data is E558. The winners are not
walked: they are found once the game is over, when nothing is left to decide.

`size(q.hand)` is public (the others see how many hidden components lie there), and what an
effect writes is not read (`add(q.secret, 1)`, `move(x, q.hand)`, `draw(pile, q.hand)`). A prestige
source reads no private data at all, not even its own player's: every player's prestige is
shown to every player at every turn.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..diagnostics import Diagnostic, Span
from ..front.expr import Aggregate, Attribute, Call, Effect, ForEach, Index, Name, children, unparse
from ..language import Role
from .types import PLAYER, STATE_EFFECTS
from .zones import ZONE_EFFECTS

# The roles of a player name: the player the rule is for, a player who may be another seat, or (in a
# definition's body) the name of its player parameter, which no role written with '=' can be.
OWNER = "=owner"
SEAT = "=seat"
PLAYER_COLLECTIONS = ("players", "others")  # the collections whose elements are players


@dataclass(frozen=True)
class Private:
    """One private datum a player attribute names: a variable, or a holding's drawn components."""

    name: str
    zone: bool  # a private_when_drawn holding (else a private variable)


@dataclass(frozen=True)
class Context:
    """Whom a rule is for -- the name that is its player (`me`; '' for nobody) -- and what its
    outcome shows (a note of E558); `public`: every player sees it whoever's data it reads (a prestige source)."""

    owner: str
    shows: str
    public: bool = False


@dataclass(frozen=True)
class Read:
    """A read of private data in a definition's body: the datum, the player expression it is read
    through and where."""

    datum: Private
    through: str
    span: Span


class Leaks:
    """Walks every expression of the rules with the roles of the player names in scope."""

    def __init__(self, variables, zones, definitions) -> None:
        self.private = {v.name: Private(v.name, False) for v in variables if v.per_player and v.private}
        self.private.update({z.name: Private(z.name, True) for z in zones if z.per_player and z.private_when_drawn})
        self.player_variables = {v.name for v in variables if v.per_player and v.type == PLAYER}
        self.shared_players = {v.name: SEAT for v in variables if not v.per_player and v.type == PLAYER}
        self.definitions = {d.name: d for d in definitions}
        # by definition: its player parameters whose private data its body reads, and SEAT when it reads
        # another player's, each with the first such read
        self.summaries: dict[str, dict[str, Read]] = {}
        self.found: list[Diagnostic] = []

    # ------------------------------------------------------------------ roles

    def role(self, node, env: dict) -> str | None:
        """OWNER, SEAT, a definition's parameter name (in its body), or None when `node` is no player."""
        match node:
            case Name(id=name):
                return env.get(name)
            case Attribute(obj=obj, name=name) if name in self.player_variables:
                return SEAT if self.role(obj, env) is not None else None  # `me.partner` may be anyone
            case Call(func=func) if func in self.definitions:
                return SEAT if self.definitions[func].result == PLAYER else None
        return None

    def summary(self, name: str) -> dict[str, Read]:
        """What definition `name` reads (see `summaries`), its body walked once."""
        if name not in self.summaries:
            definition = self.definitions[name]
            env = {**self.shared_players, **{p: p for p, t in definition.params if t == PLAYER}}
            reads: dict[str, Read] = {}
            self.expr(definition.body, env, Context("", ""), reads)
            self.summaries[name] = reads
        return self.summaries[name]

    # ------------------------------------------------------------------ reads

    def expr(self, node, env: dict, ctx: Context, inside: dict[str, Read] | None = None) -> None:
        """Every read of private data in `node` (`inside`: the reads of the definition whose body it is)."""
        match node:
            case Attribute(obj=obj, name=name) if name in self.private:
                who = self.role(obj, env)
                if who is not None:
                    self.read(Read(self.private[name], unparse(obj), node.span), who, ctx, inside)
                self.expr(obj, env, ctx, inside)
                return
            case Call(func="size", args=(Attribute(obj=obj, name=name),)) if (
                name in self.private and self.private[name].zone
            ):
                self.expr(obj, env, ctx, inside)  # how many: public
                return
            case Call(func=func, args=args) if func in self.definitions:
                reads = self.summary(func)
                if SEAT in reads:
                    self.read(reads[SEAT], SEAT, ctx, inside, node)
                for (param, _), arg in zip(self.definitions[func].params, args, strict=False):
                    if param in reads:
                        self.read(reads[param], self.role(arg, env) or SEAT, ctx, inside, node, arg)
            case Aggregate(var=var, collection=coll, body=body) | ForEach(var=var, collection=coll, body=body):
                self.expr(coll, env, ctx, inside)
                self.expr(body, self.bind(env, var, coll), ctx, inside)
                return
            case Effect(name=name, args=args) if name in STATE_EFFECTS and args:
                self.written(args[0], env, ctx, inside)
                for arg in args[1:]:
                    self.expr(arg, env, ctx, inside)
                return
            case Effect(name=name, args=args) if name in ZONE_EFFECTS:
                for arg, what in zip(args, ZONE_EFFECTS[name] + ("",) * len(args), strict=False):
                    if what is Role.COMPONENT:
                        self.expr(arg, env, ctx, inside)
                    else:  # a zone named as the place moved from or to: not read
                        self.written(arg, env, ctx, inside)
                return
        for child in children(node):
            self.expr(child, env, ctx, inside)

    def written(self, target, env: dict, ctx: Context, inside) -> None:
        """A place an effect writes (`q.secret` in add, `q.hand` in move): its player is read, not its data;
        an entry of a keyed variable (`q.secret[c]`): its key is read too."""
        if isinstance(target, Index):
            self.written(target.obj, env, ctx, inside)
            self.expr(target.index, env, ctx, inside)
        elif isinstance(target, Attribute) and target.name in self.private:
            self.expr(target.obj, env, ctx, inside)
        else:
            self.expr(target, env, ctx, inside)

    def bind(self, env: dict, var: str, coll) -> dict:
        """The roles inside a loop over `coll`: `var` is a player who may be another seat over
        `players` and `others`, and no player otherwise (it hides what the name meant outside)."""
        inner = {k: v for k, v in env.items() if k != var}
        if isinstance(coll, Name) and coll.id in PLAYER_COLLECTIONS:
            inner[var] = SEAT
        return inner

    def read(self, first: Read, who: str, ctx: Context, inside: dict[str, Read] | None, call=None, arg=None) -> None:
        """A read of private data through a player whose role is `who`: directly (`first`), or by a `call`
        of a definition whose body reads `first` (through the parameter that `arg` is given for). In a
        definition's body it is the definition's to report, at its calls; elsewhere an error unless it is
        the rule's own player's."""
        if inside is not None:
            if who != OWNER:
                here = (
                    first
                    if call is None
                    else Read(
                        first.datum, unparse(arg if arg is not None else call), (arg if arg is not None else call).span
                    )
                )
                inside.setdefault(who, here)
            return
        if who == OWNER and not ctx.public:
            return
        self.found.append(_leak(first, ctx, call, arg))


_PRESTIGE_NOTE = "a ranking level of the winners (by: ...) may read it: the winners are found once the game is over"


def _leak(read: Read, ctx: Context, call, arg) -> Diagnostic:
    """E558 at a read, or at a `call` of a definition whose body reads (given `arg` for the player read)."""
    datum = read.datum
    player = unparse(arg) if arg is not None else read.through
    of = f" of '{player}'" if call is not None else ""
    if datum.zone:
        what = f"the components{of} drawn unseen into '{datum.name}' (private_when_drawn)"
    else:
        what = f"the private variable '{datum.name}'{of} (the others see null)"
    if ctx.public:
        why = "a prestige source reads no private data: every player's prestige is shown to every player"
    elif not ctx.owner:
        why = "this rule is for no player"
    elif player == ctx.owner:
        why = f"'{player}' here is a loop variable, who may be another player than the one this rule is for"
    else:
        why = f"'{player}' may be another player than '{ctx.owner}', whom this rule is for"
    notes = (
        []
        if call is None
        else [f"'{call.func}' reads it at {read.span.file}:{read.span.line}:{read.span.col} ('{read.through}')"]
    )
    notes.append(_PRESTIGE_NOTE if ctx.public else ctx.shows)
    if datum.zone and not ctx.public:
        notes.append(f"how many there are is public: size({player}.{datum.name}) may be read")
    shown = unparse(call) if call is not None else f"{read.through}.{datum.name}"
    span = (arg if arg is not None else call).span if call is not None else read.span
    return Diagnostic("E558", f"'{shown}' reads {what}, and {why}", span, tuple(notes))


_DECIDES = (
    "what a rule reads shows in what it decides: the acting player's legal actions (the menu, legal_mask, "
    "the web table's buttons), and what its effects change, which every player sees"
)
_SETUP = "what a setup block reads shows in what its effects change, which every player sees"


def leaks(variables, zones, definitions, prestige, decisions, setup, end) -> list[Diagnostic]:
    """E558 for each read of a seat's private data by a rule that is not for that seat. The winners
    are not walked: they are found once the game is over, when nothing is left to decide or hide."""
    walker = Leaks(variables, zones, definitions)
    if not walker.private:
        return []
    base = dict(walker.shared_players)
    mine = Context("me", _DECIDES)
    for decision in decisions:
        env = {**base, "me": OWNER}
        for node in (decision.condition, decision.while_, *decision.effects, *(p.worth for p in decision.params)):
            if node is not None:
                walker.expr(node, env, mine)
        for price in (p.price for p in decision.params if p.price is not None):  # over the gem colour `c`
            walker.expr(price, walker.bind(env, "c", None), mine)
    for block in setup:
        env, ctx = ({**base, "me": OWNER}, Context("me", _SETUP)) if block.each_player else (base, Context("", _SETUP))
        for stmt in block.effects:
            walker.expr(stmt, env, ctx)
    for trigger in end:
        walker.expr(
            trigger.when, {**base, "me": OWNER}, Context("me", "an end trigger shows every player that the game ends")
        )
    for source in prestige:
        walker.expr(source.by, {**base, "player": SEAT}, Context("player", "", public=True))
    return walker.found


__all__ = ["leaks"]
