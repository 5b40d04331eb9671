"""One game of a run: its seeds, its seating, playing it, and what it says (:class:`GameResult`).

A game's seed is derived from (the run's seed, the spec's name, the game's index) by SHA-256,
and each bot's seed from (the game's seed, its seat); :func:`deal` says which deal a game
plays and in which seating. So a game is the same whichever worker plays it and in whatever
order: what makes a run's results independent of its jobs (:mod:`playtest.simulate.runners`).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass

from ..bots import make_bot

DEFAULT_MAX_TURNS = 1000


def game_seed(seed: int, spec: str, index: int) -> int:
    """The seed of game `index` of `spec` in a run seeded with `seed` (63 bits)."""
    digest = hashlib.sha256(f"splendor-rules/simulate\0{seed}\0{spec}\0{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def bot_seed(game: int, seat: int) -> int:
    digest = hashlib.sha256(f"splendor-rules/bot\0{game}\0{seat}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def seatings(bots: Sequence[str], fixed_seats: bool = False) -> list[tuple[str, ...]]:
    """The seatings a run cycles through: the lineup's distinct rotations (seat k holds
    bots[(k + r) % n] in rotation r), so that every bot plays every seat equally often; with
    `fixed_seats`, the lineup alone."""
    lineup = tuple(bots)
    if fixed_seats:
        return [lineup]
    out: list[tuple[str, ...]] = []
    for r in range(len(lineup)):
        seating = lineup[r:] + lineup[:r]
        if seating not in out:
            out.append(seating)
    return out


def deal(index: int, bots: Sequence[str], fixed_seats: bool = False) -> tuple[int, tuple[str, ...]]:
    """Game `index` as (the deal it plays, its seating): each deal is played once in each of the
    k seatings, game i being deal i // k in seating i % k (the same cards for every seating,
    so that seat and bot differences are not those of the deals). Fixed seats: deal i."""
    options = seatings(bots, fixed_seats)
    return index // len(options), options[index % len(options)]


@dataclass(frozen=True, slots=True)
class GameResult:
    """What one game says about the rules (no timings: results must not depend on the machine).

    Also what a designer drills into (the per-game record, ``--games-out``): who sat where,
    cards bought per level, nobles and gold spent per seat, how often each decision (an
    action or an end-of-turn step a player was asked) was made, and the moves themselves,
    from which the game is replayed.
    """

    index: int
    seed: int
    rounds: int  # rounds begun: every seat has played at most this many turns
    turns: int  # turns begun
    winners: tuple[int, ...]  # seats; several on a shared victory, none if nobody was eligible
    scores: tuple[int, ...]  # prestige per seat
    over: bool  # False when stopped at the cap on turns
    stuck: bool  # the game ended because nobody could act (every seat passed in a row, or no legal action)
    passes: int  # pass actions played
    tied: bool  # several seats shared the highest prestige at the end
    end: str | None  # why the game ended: the end trigger's name, "stuck", or None at the cap
    seats: tuple[str, ...] = ()  # the bot in each seat
    cards: tuple[tuple[int, ...], ...] = ()  # per seat, cards bought of each level
    nobles: tuple[int, ...] = ()  # per seat
    gold_spent: tuple[int, ...] = ()  # per seat, wild tokens paid for cards
    uses: tuple[tuple[str, int], ...] = ()  # (decision, times made), in the engine's decision order
    actions: tuple[int, ...] = ()  # the action ids played, in order (steps applied without asking excluded)
    max_turns: int | None = None  # the length cap the game was played with

    @property
    def end_reason(self) -> str:
        """The end as a record states it: the trigger's name, "stuck", or "truncated"."""
        return self.end if self.end is not None else "truncated"

    @property
    def margin(self) -> int | None:
        """The winner's prestige minus the best other seat's; 0 on a shared victory, None without a winner."""
        if not self.winners:
            return None
        if len(self.winners) > 1:
            return 0
        w = self.winners[0]
        others = [x for p, x in enumerate(self.scores) if p != w]
        return self.scores[w] - max(others) if others else None

    def to_dict(self) -> dict:
        d = asdict(self)
        for key in ("winners", "scores", "seats", "nobles", "gold_spent", "actions"):
            d[key] = list(d[key])
        d["cards"] = [list(c) for c in self.cards]
        d["uses"] = dict(self.uses)
        d["end_reason"] = self.end_reason
        d["margin"] = self.margin
        return d


def decision_names(module) -> list[str]:
    """The decision each action id belongs to (an action of the spec, or a step such as
    "return_tokens"): the engine's ACTIONS and DECISIONS, else the notation's first word."""
    decisions, actions = getattr(module, "DECISIONS", None), getattr(module, "ACTIONS", None)
    if decisions is not None and actions is not None:
        return [decisions[actions[a][0]] for a in range(module.NUM_ACTIONS)]
    return [module.action_to_string(a).split()[0] for a in range(module.NUM_ACTIONS)]


_NAMES: dict[int, tuple] = {}


def _engine_facts(module) -> tuple:
    """(decision per action id, decision names in order, pays? and pass? per action id, level per card id),
    once per module."""
    found = _NAMES.get(id(module))
    if found is None or found[0] is not module:
        names = decision_names(module)
        order = list(dict.fromkeys(names))
        if hasattr(module, "ACTIONS") and hasattr(module, "DECISIONS"):  # every decision, in the spec's order
            order = list(dict.fromkeys([*module.DECISIONS, *names]))
        heads = [module.action_to_string(a).split()[0] for a in range(module.NUM_ACTIONS)]
        pays = [h in ("buy", "pay") for h in heads]
        passes = [module.action_to_string(a) == "pass" for a in range(module.NUM_ACTIONS)]
        levels = {c.id: c.level for c in module.CARDS}
        found = _NAMES[id(module)] = (module, names, order, pays, passes, levels)
    return found[1:]


def decision_order(module) -> list[str]:
    """The decisions a game's `uses` counts, in the order it lists them (every one, 0 when unused)."""
    return list(_engine_facts(module)[1])


def _state(game) -> dict:
    """The game's saved state, as its JSON reads back: the engine's ``to_dict`` when it has one
    (the same values, without writing and parsing the text: a tenth of the time), else the JSON."""
    to_dict = getattr(game, "to_dict", None)
    return to_dict() if to_dict is not None else json.loads(game.to_json())


def play_game(
    module, players: int, bots: Sequence[str], seed: int, index: int = 0, max_turns: int = DEFAULT_MAX_TURNS
) -> GameResult:
    """Plays one game of `module` with the named bots (one per seat) to the end or the cap.

    The cap is the engine's length cap (the spec's `max_turns`, when it states one), and at
    most `max_turns`: a game that reaches it ends truncated and counts as not over.
    """
    spec_cap = getattr(module, "MAX_TURNS", None)
    cap = max_turns if spec_cap is None else min(spec_cap, max_turns)
    game = module.new_game(players, seed=seed, max_turns=cap)
    seats = [make_bot(name, module, bot_seed(seed, s)) for s, name in enumerate(bots)]
    names, order, pays, is_pass, levels = _engine_facts(module)
    wild = list(module.COLOURS).index(module.WILD)
    counts = dict.fromkeys(order, 0)
    spent = [0] * players
    passes = 0
    tokens = game.tokens
    while not game.is_over():
        p = game.current_player
        action = seats[p].choose(game)
        if pays[action]:
            gold = tokens[p][wild]
            game.apply(action)
            spent[p] += max(0, gold - tokens[p][wild])
        else:
            game.apply(action)
        counts[names[action]] += 1
        passes += is_pass[action]
    state = _state(game)
    over = not game.is_truncated()
    played = game.turn
    scores = tuple(game.scores())
    top = max(scores)
    end = None
    if over:
        end = state.get("end_reason") or (state.get("ending") or {}).get("trigger")
    stuck = over and (end == "stuck" or state.get("passes", 0) >= players)
    all_levels = sorted(set(levels.values()))
    cards = tuple(
        tuple(sum(1 for c in seat["purchased"] if levels.get(c) == lv) for lv in all_levels) for seat in state["seats"]
    )
    return GameResult(
        index=index,
        seed=seed,
        rounds=-(-played // players),
        turns=played,
        winners=tuple(game.winners()),
        scores=scores,
        over=over,
        stuck=stuck,
        passes=passes,
        tied=sum(1 for s in scores if s == top) > 1,
        end=end,
        seats=tuple(bots),
        cards=cards,
        nobles=tuple(len(seat["nobles"]) for seat in state["seats"]),
        gold_spent=tuple(spent),
        uses=tuple(counts.items()),
        actions=tuple(game.record()["actions"]),
        max_turns=cap,
    )
