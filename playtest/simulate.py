"""Simulation: many seeded bot games per spec, spread over workers, summarised and compared.

The unit of work is a *chunk*: a few games of one engine, given by their indexes. A
game's seed is derived from (the run's seed, the spec's name, the game's index) by
SHA-256, and each bot's seed from (the game's seed, its seat), so a game is the same
whichever worker plays it and in whatever order; results are put back in game-index
order before anything is computed. The same seed therefore gives identical results for
any number of jobs, locally or on a Dask cluster.

A chunk carries the engine's source text, not a path, so a worker anywhere rebuilds the
same module (:func:`playtest.engines.from_source`). Three runners execute chunks: in
this process (``jobs=1``), in worker processes (``multiprocessing``), or on a Dask
cluster (``scheduler="tcp://..."``, the optional ``dask[distributed]`` extra).

Nothing here prints: progress goes to a callback, and Ctrl-C (``KeyboardInterrupt``)
stops the run and returns what finished, marked ``interrupted``.
"""
from __future__ import annotations

import hashlib
import itertools
import json
import math
import signal
import time
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from compiler.safe_text import csv_cell, visible

from . import engines, stats
from .bots import make_bot, parse_bot

DEFAULT_MAX_TURNS = 1000
Progress = Callable[[int, int], None]


class SimulationError(Exception):
    """A game that failed in a worker: the message names the spec, the game and its seed.

    The parts travel as the exception's args, which survive the pickling back from a worker:
    the spec's position in the run, the game's index and seed, the failure's class name
    and message, and the bots in seat order (a RuleError is a fault of the spec, which the CLI
    reports at the effect)."""

    def __init__(self, message: str, spec: int = -1, game: int = -1, seed: int | None = None, kind: str = "",
                 detail: str = "", seats: str = ""):
        super().__init__(message, spec, game, seed, kind, detail, seats)
        self.spec, self.game, self.seed, self.kind, self.detail = spec, game, seed, kind, detail
        self.seats = seats  # the bots in seat order for this game (seatings rotate between games)

    def __str__(self) -> str:
        return self.args[0]


class SchedulerError(ValueError):
    """A Dask scheduler address that cannot be reached (a usage error, not a failing game)."""


# ----------------------------------------------------------------------------- one game

def game_seed(seed: int, spec: str, index: int) -> int:
    """The seed of game `index` of `spec` in a run seeded with `seed` (63 bits)."""
    digest = hashlib.sha256(f"splendor-rules/simulate\0{seed}\0{spec}\0{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def bot_seed(game: int, seat: int) -> int:
    digest = hashlib.sha256(f"splendor-rules/bot\0{game}\0{seat}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


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


def play_game(module, players: int, bots: Sequence[str], seed: int, index: int = 0,
              max_turns: int = DEFAULT_MAX_TURNS) -> GameResult:
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
    cards = tuple(tuple(sum(1 for c in seat["purchased"] if levels.get(c) == lv) for lv in all_levels)
                  for seat in state["seats"])
    return GameResult(
        index=index, seed=seed, rounds=-(-played // players), turns=played,
        winners=tuple(game.winners()), scores=scores, over=over, stuck=stuck, passes=passes,
        tied=sum(1 for s in scores if s == top) > 1, end=end, seats=tuple(bots), cards=cards,
        nobles=tuple(len(seat["nobles"]) for seat in state["seats"]), gold_spent=tuple(spent),
        uses=tuple(counts.items()), actions=tuple(game.record()["actions"]), max_turns=cap)


# ----------------------------------------------------------------------------- chunks

@dataclass(frozen=True)
class Chunk:
    spec: int  # position of the spec in the run
    name: str  # the spec's name (SPEC_NAME), part of every game seed
    source: str  # the engine's source text
    filename: str
    indexes: tuple[int, ...]
    players: int
    bots: tuple[str, ...]
    seed: int
    max_turns: int
    fixed_seats: bool = False


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


def run_chunk(chunk: Chunk) -> tuple[int, list[GameResult]]:
    """Plays a chunk's games (in a worker or here); returns (spec position, results)."""
    module = engines.from_source(chunk.source, chunk.filename)
    out = []
    for i in chunk.indexes:
        number, seated = deal(i, chunk.bots, chunk.fixed_seats)
        s = game_seed(chunk.seed, chunk.name, number)
        try:
            out.append(play_game(module, chunk.players, seated, s, i, chunk.max_turns))
        except Exception as e:  # a bug in an engine or a bot: say which game reproduces it
            raise SimulationError(f"{chunk.name}: game {i} (seed {s}, seats {','.join(seated)}) failed: "
                                  f"{type(e).__name__}: {e}", chunk.spec, i, s, type(e).__name__, str(e),
                                  ", ".join(seated)) from e
    return chunk.spec, out


def make_chunks(sources: Sequence[engines.Engine], players: int, games: int, bots: Sequence[str], seed: int,
                max_turns: int, size: int, fixed_seats: bool = False) -> Iterator[Chunk]:
    """Chunks of `size` games, interleaved across specs so that a stopped run has some of each.

    Made one at a time as the runners ask (a billion games are a hundred million chunks:
    listed up front they would fill the memory before the first game).
    """
    for lo in range(0, games, size):
        indexes = range(lo, min(games, lo + size))
        for k, e in enumerate(sources):
            yield Chunk(k, e.name, e.source, e.path or e.label, tuple(indexes), players, tuple(bots), seed, max_turns,
                        fixed_seats)


def chunk_size(games: int, jobs: int, bots: Sequence[str] = ()) -> int:
    """Small enough for even load and frequent progress, large enough to amortise the transfer.

    A greedy game takes about a tenth of a second, an MCTS game seconds: chunks of MCTS
    games are kept to two so that progress moves and Ctrl-C loses little.
    """
    cap = 2 if any(b.startswith("mcts") for b in bots) else 10
    return max(1, min(cap, math.ceil(games / (8 * max(1, jobs)))))


# ----------------------------------------------------------------------------- runners

IN_FLIGHT = 4  # chunks handed to each worker ahead of its results: enough to keep it busy, few to hold


def _run_here(chunks: Iterable[Chunk]) -> Generator[tuple[int, list[GameResult]], None, None]:
    for c in chunks:  # game by game, so that Ctrl-C loses at most the game being played
        for i in c.indexes:
            yield run_chunk(Chunk(c.spec, c.name, c.source, c.filename, (i,), c.players, c.bots, c.seed,
                                  c.max_turns, c.fixed_seats))


def _ignore_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides what Ctrl-C means


def _run_processes(chunks: Iterable[Chunk], jobs: int) -> Generator[tuple[int, list[GameResult]], None, None]:
    """The chunks on `jobs` worker processes, at most IN_FLIGHT per worker queued at a time
    (Pool.imap would read the whole iterable into its queue)."""
    import multiprocessing
    import queue

    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    pool = context.Pool(processes=jobs, initializer=_ignore_sigint)
    done: queue.SimpleQueue = queue.SimpleQueue()
    try:
        waiting = 0
        for chunk in chunks:
            pool.apply_async(run_chunk, (chunk,), callback=lambda r: done.put((True, r)),
                             error_callback=lambda e: done.put((False, e)))
            waiting += 1
            while waiting >= IN_FLIGHT * jobs:
                waiting -= 1
                yield _result(done.get())
        while waiting:
            waiting -= 1
            yield _result(done.get())
        pool.close()
        pool.join()
    finally:
        pool.terminate()  # on Ctrl-C or an error: stop the games still running
        pool.join()


def _result(outcome):
    ok, value = outcome
    if not ok:
        raise value
    return value


def connect(address: str):
    """A ``distributed.Client`` of the Dask scheduler at `address` (the caller closes it)."""
    try:
        from distributed import Client
    except ImportError:
        raise SimulationError("--scheduler needs Dask: pip install 'dask[distributed]'") from None
    try:
        return Client(address)
    except (OSError, ValueError) as e:  # nothing listening there, or not an address: the user's to fix
        raise SchedulerError(f"cannot reach the Dask scheduler at '{address}': {e}") from None


def _run_dask(chunks: Iterable[Chunk], scheduler) -> Generator[tuple[int, list[GameResult]], None, None]:
    """The chunks on a Dask cluster, submitted as results come back: IN_FLIGHT per worker thread."""
    try:
        from distributed import as_completed
    except ImportError:
        raise SimulationError("--scheduler needs Dask: pip install 'dask[distributed]'") from None
    own = isinstance(scheduler, str)
    client = connect(scheduler) if own else scheduler
    chunks = iter(chunks)
    threads = max(1, sum(client.nthreads().values()))
    futures = [client.submit(run_chunk, c, pure=False) for c in itertools.islice(chunks, IN_FLIGHT * threads)]
    running = as_completed(futures)
    try:
        for future in running:
            futures.remove(future)
            for c in itertools.islice(chunks, 1):  # one more for the one done
                futures.append(client.submit(run_chunk, c, pure=False))
                running.add(futures[-1])
            yield future.result()
    finally:
        client.cancel(futures)
        if own:
            client.close()


# ----------------------------------------------------------------------------- summaries

@dataclass
class SpecSummary:
    label: str
    name: str
    results: list[GameResult]
    requested: int
    sha256: str | None = None  # the engine's SPEC_SHA256: a record names the rules its moves are for
    steps: tuple[str, ...] = ()  # the engine's end-of-turn steps: counted only when a player was asked

    @property
    def games(self) -> int:
        return len(self.results)

    def rounds(self) -> list[int]:
        """Lengths of the games that ended by the rules: a game stopped at the cap has no length."""
        return [r.rounds for r in self.results if r.over]

    def capped(self) -> list[GameResult]:
        return [r for r in self.results if not r.over]

    def margins(self) -> list[int]:
        """Margins of victory of the games one seat won."""
        return [r.margin for r in self.results if len(r.winners) == 1 and r.margin is not None]

    def uses(self) -> dict[str, list[int]]:
        """Per decision, the times it was made in each game (0 in a game that never made it)."""
        played = [r for r in self.results if r.over]  # a capped game has no "per game" to speak of
        names = list(dict.fromkeys(name for r in played for name, _ in r.uses))
        return {name: [dict(r.uses).get(name, 0) for r in played] for name in names}

    def skill(self, bots: Sequence[str]) -> tuple[str, str, int, int] | None:
        """With two different bots in the lineup: (first bot, second bot, games the first won
        alone against the second, games either won alone); None otherwise."""
        names = list(dict.fromkeys(bots))
        if len(names) != 2:
            return None
        first = second = 0
        for r in self.results:
            if len(r.winners) != 1 or not r.seats:
                continue
            who = r.seats[r.winners[0]]
            first += who == names[0]
            second += who == names[1]
        return names[0], names[1], first, first + second

    def seat_wins(self, players: int) -> list[int]:
        wins = [0] * players
        for r in self.results:
            for w in r.winners:
                wins[w] += 1
        return wins

    def bot_wins(self) -> dict[str, tuple[int, int]]:
        """Per bot name: (seat-games played, seat-games won); a shared victory counts for each winner."""
        out: dict[str, list[int]] = {}
        for r in self.results:
            for p, name in enumerate(r.seats):
                entry = out.setdefault(name, [0, 0])
                entry[0] += 1
                entry[1] += p in r.winners
        return {name: (n, k) for name, (n, k) in out.items()}

    def share(self, pred) -> float:
        return sum(1 for r in self.results if pred(r)) / self.games if self.games else math.nan

    def to_dict(self, players: int) -> dict:
        n = self.games
        rounds = self.rounds()
        wins = self.seat_wins(players)
        winning = [max(r.scores[w] for w in r.winners) for r in self.results if r.winners]
        ends: dict[str, int] = {}
        for r in self.results:
            key = r.end if r.end is not None else "cap"
            ends[key] = ends.get(key, 0) + 1
        return {
            "spec": self.label, "name": self.name, "games": n, "requested": self.requested,
            "rounds": {"mean": _num(stats.mean(rounds)), "median": _num(stats.median(rounds)),
                       "sd": _num(math.sqrt(stats.variance(rounds)) if n > 1 else math.nan),
                       "min": min(rounds, default=None), "max": max(rounds, default=None)},
            "seats": [{"seat": s + 1, "wins": wins[s], "win_rate": _num(wins[s] / n if n else math.nan),
                       "ci95": [_num(x) for x in stats.wilson(wins[s], n)]} for s in range(players)],
            "bots": [{"bot": name, "seat_games": n, "wins": k, "win_rate": _num(k / n if n else math.nan),
                      "ci95": [_num(x) for x in stats.wilson(k, n)]}
                     for name, (n, k) in sorted(self.bot_wins().items())],
            "winning_prestige": _num(stats.mean(winning)),
            "shares": {
                "ties": _num(self.share(lambda r: r.tied)),
                "shared_victories": _num(self.share(lambda r: len(r.winners) > 1)),
                "no_winner": _num(self.share(lambda r: r.over and not r.winners)),
                "passes": _num(self.share(lambda r: r.passes > 0)),
                "stuck": _num(self.share(lambda r: r.stuck)),
                "capped": _num(self.share(lambda r: not r.over)),
            },
            "passes_per_game": _num(stats.mean([r.passes for r in self.results])),
            "ends": dict(sorted(ends.items())),
            "capped": {"games": len(self.capped()), "seeds": [r.seed for r in self.capped()][:CAPPED_LISTED],
                       "indexes": [r.index for r in self.capped()][:CAPPED_LISTED]},
            "margin": {"games": len(self.margins()), "mean": _num(stats.mean(self.margins())),
                       "median": _num(stats.median(self.margins()))},
            "uses": {name: {"per_game": _num(stats.mean(xs)), "games_using": sum(1 for x in xs if x),
                            "rare": bool(xs) and stats.mean(xs) < RARE_USE and name not in self.steps}
                     for name, xs in self.uses().items()},
            "nobles_per_game": _num(stats.mean([sum(r.nobles) for r in self.results if r.over and r.nobles])),
        }


CAPPED_LISTED = 20  # seeds of capped games listed in the summary (all of them are in --games-out)
RARE_USE = 0.05  # a decision made less often than this per game gets a note: the rule is almost never used


def skill_dict(summary: SpecSummary, bots: Sequence[str]) -> dict | None:
    found = summary.skill(bots)
    if found is None:
        return None
    first, second, k, n = found
    return {"bot": first, "against": second, "decided": n, "wins": k, "share": _num(k / n if n else math.nan),
            "ci95": [_num(x) for x in stats.wilson(k, n)]}


def _num(x: float) -> float | None:
    return None if x is None or (isinstance(x, float) and math.isnan(x)) else x


def _uses(summary: SpecSummary, name: str) -> list[int]:
    """Times `name` was chosen in each game that ended by the rules (0 each where the spec has no such decision)."""
    found = summary.uses().get(name)
    return found if found is not None else [0] * sum(1 for r in summary.results if r.over)


def compare(base: SpecSummary, other: SpecSummary, players: int) -> dict:
    """`other` against the first spec: differences and their significance tests."""
    a, b = other.rounds(), base.rounds()
    first_a, first_b = other.seat_wins(players)[0], base.seat_wins(players)[0]
    win_a = [max(r.scores[w] for w in r.winners) for r in other.results if r.winners]
    win_b = [max(r.scores[w] for w in r.winners) for r in base.results if r.winners]
    stuck_a = sum(1 for r in other.results if r.stuck or not r.over)
    stuck_b = sum(1 for r in base.results if r.stuck or not r.over)
    return {
        "spec": other.label, "against": base.label,
        "rounds": {"difference": _num(stats.mean(a) - stats.mean(b)) if a and b else None,
                   "welch": stats.welch(a, b).to_dict(), "mann_whitney": stats.mann_whitney(a, b).to_dict()},
        "first_seat_win_rate": {
            "difference": _num(first_a / other.games - first_b / base.games) if other.games and base.games else None,
            "two_proportion": stats.two_proportions(first_a, other.games, first_b, base.games).to_dict()},
        "winning_prestige": {"difference": _num(stats.mean(win_a) - stats.mean(win_b)) if win_a and win_b else None,
                             "welch": stats.welch(win_a, win_b).to_dict()},
        "margin": {"difference": _num(stats.mean(other.margins()) - stats.mean(base.margins()))
                   if other.margins() and base.margins() else None,
                   "welch": stats.welch(other.margins(), base.margins()).to_dict()},
        "uses_per_game": {name: {"difference": _num(stats.mean(_uses(other, name)) - stats.mean(_uses(base, name)))
                                 if _uses(other, name) and _uses(base, name) else None,
                                 "welch": stats.welch(_uses(other, name), _uses(base, name)).to_dict()}
                          for name in dict.fromkeys([*base.uses(), *other.uses()])},
        "capped": {"difference": _num(len(other.capped()) / other.games - len(base.capped()) / base.games)
                   if other.games and base.games else None,
                   "two_proportion": stats.two_proportions(len(other.capped()), other.games, len(base.capped()),
                                                           base.games).to_dict()},
        "stuck_or_capped": {
            "difference": _num(stuck_a / other.games - stuck_b / base.games) if other.games and base.games else None,
            "two_proportion": stats.two_proportions(stuck_a, other.games, stuck_b, base.games).to_dict()},
    }


@dataclass
class Simulation:
    players: int
    games: int
    bots: tuple[str, ...]
    seed: int
    max_turns: int
    specs: list[SpecSummary]
    interrupted: bool = False
    jobs: int = 1
    seconds: float = 0.0
    extra: dict = field(default_factory=dict)
    fixed_seats: bool = False

    @property
    def finished(self) -> int:
        return sum(s.games for s in self.specs)

    def to_dict(self, games: bool = False) -> dict:
        """The results as data. Timings are left out so that the same seed gives the same dict."""
        out: dict[str, Any] = {
            "format": "splendor-rules/simulation", "version": 1,
            "players": self.players, "games": self.games, "bots": list(self.bots), "seed": self.seed,
            "max_turns": self.max_turns, "interrupted": self.interrupted, "fixed_seats": self.fixed_seats,
            "seatings": [list(x) for x in seatings(self.bots, self.fixed_seats)],
            "specs": [s.to_dict(self.players) for s in self.specs],
            "comparisons": [compare(self.specs[0], s, self.players) for s in self.specs[1:]],
        }
        for d, s in zip(out["specs"], self.specs, strict=True):
            d["skill"] = skill_dict(s, self.bots)
        for c, s in zip(out["comparisons"], self.specs[1:], strict=True):
            a, b = s.skill(self.bots), self.specs[0].skill(self.bots)
            # Always there, as a spec's "skill" is: null without a skill check (one kind of bot).
            c["skill"] = None if a is None or b is None else {
                "difference": _num(a[2] / a[3] - b[2] / b[3]) if a[3] and b[3] else None,
                "two_proportion": stats.two_proportions(a[2], a[3], b[2], b[3]).to_dict()}
        if games:
            for d, s in zip(out["specs"], self.specs, strict=True):
                d["results"] = [r.to_dict() for r in s.results]
        return out


class InOrder:
    """Hands games over in stream order, whatever order the workers finish them in.

    The order is game 0 of each spec (in the run's spec order), then game 1 of each, ...:
    it depends on nothing but the games, so a stream written from it is the same for any
    jobs. A game that finishes early waits here until every game before it has come.
    """

    def __init__(self, specs: int, emit: Callable[[int, GameResult], None]):
        self.specs, self.emit = specs, emit
        self.waiting: dict[tuple[int, int], GameResult] = {}
        self.next = (0, 0)  # (game index, spec position) due next

    def add(self, spec: int, results: Iterable[GameResult]) -> None:
        for r in results:
            self.waiting[(r.index, spec)] = r
        while self.next in self.waiting:
            index, k = self.next
            self.emit(k, self.waiting.pop(self.next))
            self.next = (index, k + 1) if k + 1 < self.specs else (index + 1, 0)

    def flush(self) -> None:
        """The games still waiting (a run stopped before the games before them came), in order."""
        for index, k in sorted(self.waiting):
            self.emit(k, self.waiting.pop((index, k)))


def check_players(sources: Sequence[engines.Engine], players: int) -> None:
    """ValueError unless every engine plays with `players` players."""
    for e in sources:
        counts = tuple(getattr(e.module, "PLAYER_COUNTS", ()))
        if players not in counts:
            raise ValueError(f"{e.label}: {players} players is not a player count of '{e.name}' "
                             f"(it plays with {', '.join(map(str, counts))})")


def check_bots(bots: Sequence[str], players: int) -> tuple[str, ...]:
    """One bot name per seat: a single name plays every seat. Raises BotError/ValueError."""
    names = tuple(b.strip() for b in bots if b.strip())
    for b in names:
        parse_bot(b)
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        raise ValueError(f"{len(names)} bots for {players} players: give one bot, or one per seat")
    return names


def simulate(sources: Sequence[engines.Engine], players: int, games: int, bots: Sequence[str], seed: int = 0,
             jobs: int = 1, max_turns: int = DEFAULT_MAX_TURNS, scheduler=None,
             progress: Progress | None = None, chunk: int | None = None, fixed_seats: bool = False,
             on_game: Callable[[int, GameResult], None] | None = None) -> Simulation:
    """Plays `games` games of each engine and summarises them (see the module docstring).

    `scheduler` is a Dask scheduler address (or a ``distributed.Client``); `progress` is
    called with (games finished, games requested) after each chunk. `on_game` is called
    with (spec position, result) for each game as soon as every game before it has been
    handed over, in the order game 0 of each spec, game 1 of each spec, ... (the same for
    any jobs: :class:`InOrder`); a run that stops early hands over the games it holds, in
    that order. Ctrl-C returns the games finished so far with ``interrupted=True``.
    """
    if games < 1:
        raise ValueError("the number of games must be at least 1")
    if jobs < 1:
        raise ValueError("the number of jobs must be at least 1")
    check_players(sources, players)
    bots = check_bots(bots, players)
    size = chunk or chunk_size(games, jobs, bots)
    chunks = make_chunks(sources, players, games, bots, seed, max_turns, size, fixed_seats)
    total = games * len(sources)
    found: list[list[GameResult]] = [[] for _ in sources]
    done = 0
    interrupted = False
    start = time.monotonic()
    if scheduler is not None:
        runner = _run_dask(chunks, scheduler)
    elif jobs > 1:
        runner = _run_processes(chunks, jobs)
    else:
        runner = _run_here(chunks)
    in_order = InOrder(len(sources), on_game) if on_game is not None else None
    try:
        if progress:
            progress(0, total)
        for k, results in runner:
            found[k].extend(results)
            done += len(results)
            if in_order is not None:
                in_order.add(k, results)
            if progress:
                progress(done, total)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        runner.close()
        if in_order is not None:
            in_order.flush()
    summaries = [SpecSummary(e.label, e.name, sorted(found[k], key=lambda r: r.index), games,
                             getattr(e.module, "SPEC_SHA256", None), tuple(getattr(e.module, "STEPS", ())))
                 for k, e in enumerate(sources)]
    return Simulation(players, games, bots, seed, max_turns, summaries, interrupted, jobs,
                      time.monotonic() - start, fixed_seats=fixed_seats)


# ----------------------------------------------------------------------------- rendering

def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def _f(x: float | None, digits: int = 1) -> str:
    return "-" if x is None else f"{x:.{digits}f}"


def _p(x: float | None) -> str:
    if x is None:
        return "-"
    return "<0.001" if x < 0.001 else f"{x:.3f}"


def format_table(sim: Simulation) -> str:
    """The terminal report: one column per spec, then the comparisons with the first spec."""
    data = sim.to_dict()
    specs = data["specs"]
    rows: list[tuple[str, list[str]]] = []
    rows.append(("games", [f"{s['games']}" + ("" if s["games"] == s["requested"] else f" of {s['requested']}")
                           for s in specs]))
    rows.append(("rounds, mean", [_f(s["rounds"]["mean"]) for s in specs]))
    rows.append(("rounds, median", [_f(s["rounds"]["median"]) for s in specs]))
    rotated = len(seatings(sim.bots, sim.fixed_seats)) > 1
    for seat in range(sim.players):
        rows.append((f"seat {seat + 1} wins" + (" (bots rotated)" if rotated else f" ({sim.bots[seat]})"),
                     [f"{_pct(s['seats'][seat]['win_rate'])} [{_pct(s['seats'][seat]['ci95'][0])}, "
                      f"{_pct(s['seats'][seat]['ci95'][1])}]" for s in specs]))
    if len(set(sim.bots)) > 1:
        for name in dict.fromkeys(sim.bots):
            cells = []
            for s in specs:
                b = next((b for b in s["bots"] if b["bot"] == name), None)
                cells.append("-" if b is None else
                             f"{_pct(b['win_rate'])} [{_pct(b['ci95'][0])}, {_pct(b['ci95'][1])}]")
            rows.append((f"{name} wins (every seat)", cells))
    rows.append(("capped (not in lengths)", [f"{s['capped']['games']}" for s in specs]))
    rows.append(("margin of victory, mean", [_f(s["margin"]["mean"]) for s in specs]))
    if any(s["skill"] for s in specs):
        k = next(s["skill"] for s in specs if s["skill"])
        rows.append((f"skill: {k['bot']} beats {k['against']}",
                     [f"{_pct(x['share'])} [{_pct(x['ci95'][0])}, {_pct(x['ci95'][1])}]" if x else "-"
                      for x in (s["skill"] for s in specs)]))
    rows.append(("nobles per game", [_f(s["nobles_per_game"], 2) for s in specs]))
    rows.append(("winning prestige, mean", [_f(s["winning_prestige"]) for s in specs]))
    for key, title in (("ties", "ties on prestige"), ("shared_victories", "shared victories"),
                       ("no_winner", "no winner"), ("passes", "games with passes"),
                       ("stuck", "stuck"), ("capped", f"stopped at {sim.max_turns} turns")):
        rows.append((title, [_pct(s["shares"][key]) for s in specs]))
    decisions = list(dict.fromkeys(name for s in specs for name in s["uses"]))
    rare = set()
    for name in decisions:
        cells = []
        for s in specs:
            u = s["uses"].get(name)
            cells.append("-" if u is None else _f(u["per_game"], 2) + (" (rare)" if u["rare"] else ""))
            if u is not None and u["rare"]:
                rare.add(name)
        rows.append((f"{name} per game", cells))
    if data["comparisons"]:
        length, first = [""], [""]  # the first spec is the reference
        for c in data["comparisons"]:
            d_len, d_first = c["rounds"]["difference"], c["first_seat_win_rate"]["difference"]
            length.append(f"{'-' if d_len is None else format(d_len, '+.2f')} "
                          f"(p={_p(c['rounds']['welch']['p_value'])})")
            first.append(f"{'-' if d_first is None else format(100 * d_first, '+.1f') + '%'} "
                         f"(p={_p(c['first_seat_win_rate']['two_proportion']['p_value'])})")
        rows.append(("vs first: rounds", length))
        rows.append(("vs first: seat 1 wins", first))
        margin = [""] + [f"{_f(c['margin']['difference'], 2)} (p={_p(c['margin']['welch']['p_value'])})"
                         for c in data["comparisons"]]
        rows.append(("vs first: margin", margin))
        if all(c["skill"] for c in data["comparisons"]):
            rows.append(("vs first: skill", [""] + [
                f"{'-' if c['skill']['difference'] is None else format(100 * c['skill']['difference'], '+.1f') + '%'} "
                f"(p={_p(c['skill']['two_proportion']['p_value'])})" for c in data["comparisons"]]))
        for name in decisions:
            rows.append((f"vs first: {name}", [""] + [
                f"{_f(c['uses_per_game'][name]['difference'], 2)} "
                f"(p={_p(c['uses_per_game'][name]['welch']['p_value'])})" if name in c["uses_per_game"] else "-"
                for c in data["comparisons"]]))
    header = ["", *[visible(s["spec"]) for s in specs]]  # a label is what the user typed: one line
    width0 = max(len(r[0]) for r in rows + [("", [])])
    widths = [max(len(header[i + 1]), *(len(r[1][i]) for r in rows)) for i in range(len(specs))]
    lines = ["  ".join([header[0].ljust(width0), *(h.rjust(w) for h, w in zip(header[1:], widths, strict=True))])]
    lines.append("  ".join(["-" * width0, *("-" * w for w in widths)]))
    for title, cells in rows:
        if all(c == "" for c in cells):
            continue
        lines.append("  ".join([title.ljust(width0), *(c.rjust(w) for c, w in zip(cells, widths, strict=True))]))
    notes = [f"{sim.players} players, bots {','.join(sim.bots)}, seed {sim.seed}; win rates with 95% Wilson "
             "intervals (a shared victory counts for each winner)"]
    notes.append("lengths, margins and per-game uses leave out the games stopped at the cap (capped); "
                 "margin: winner's prestige minus the next seat's, in games one seat won; a step (such as a "
                 "noble visit) counts only when a player was asked to choose")
    if rare:
        notes.append(f"rarely used (under {RARE_USE} times a game): {', '.join(sorted(rare))}: "
                     "is the rule worth its text?")
    if rotated:
        notes.append("bots rotated: each deal is played once with each bot in each seat, so seat wins measure the "
                     "seat and bot wins the bot (--fixed-seats keeps each bot in its seat)")
    if len(specs) > 1:
        notes.append("vs first: difference from the first spec; p from Welch's t-test (rounds, margin, uses per "
                     "game) and the two-proportion z-test (seat 1, skill)")
    if sim.interrupted:
        notes.append(f"interrupted: {sim.finished} of {sim.games * len(specs)} games finished")
    return "\n".join(visible(line) for line in lines + [""] + notes)


CSV_COLUMNS = ("spec", "name", "games", "requested", "rounds_mean", "rounds_median", "rounds_sd",
               "winning_prestige", "ties", "shared_victories", "no_winner", "passes", "stuck", "capped")


def format_csv(sim: Simulation) -> str:
    """One row per spec; seat win rates and comparisons as extra columns."""
    import csv
    import io

    data = sim.to_dict()
    seat_cols = []
    for s in range(sim.players):
        seat_cols += [f"seat{s + 1}_win_rate", f"seat{s + 1}_ci_low", f"seat{s + 1}_ci_high"]
    cmp_cols = ["rounds_difference", "rounds_welch_p", "rounds_mann_whitney_p", "seat1_difference",
                "seat1_p"]
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow([*CSV_COLUMNS, *seat_cols, *cmp_cols])
    comparisons = {c["spec"]: c for c in data["comparisons"]}
    for i, s in enumerate(data["specs"]):
        row = [s["spec"], s["name"], s["games"], s["requested"], s["rounds"]["mean"], s["rounds"]["median"],
               s["rounds"]["sd"], s["winning_prestige"], *(s["shares"][k] for k in CSV_COLUMNS[8:])]
        for seat in s["seats"]:
            row += [seat["win_rate"], *seat["ci95"]]
        c = comparisons.get(s["spec"]) if i > 0 else None
        if c:
            row += [c["rounds"]["difference"], c["rounds"]["welch"]["p_value"],
                    c["rounds"]["mann_whitney"]["p_value"], c["first_seat_win_rate"]["difference"],
                    c["first_seat_win_rate"]["two_proportion"]["p_value"]]
        else:
            row += [""] * len(cmp_cols)
        w.writerow([csv_cell("" if v is None else v) for v in row])  # a spec named =HYPERLINK(...) is text
    return out.getvalue()


def format_json(sim: Simulation, games: bool = False) -> str:
    return json.dumps(sim.to_dict(games=games), indent=2, sort_keys=False)


def progress_line(done: int, total: int, elapsed: float, width: int = 30) -> str:
    """``[#########.........] 120/400 games  30%  0:12 elapsed, ETA 0:28``."""
    frac = done / total if total else 1.0
    filled = int(round(width * frac))
    bar = "#" * filled + "." * (width - filled)
    eta = "ETA --:--" if done == 0 else f"ETA {_clock(elapsed * (total - done) / done)}"
    return f"[{bar}] {done}/{total} games {100 * frac:3.0f}%  {_clock(elapsed)} elapsed, {eta}"


def _clock(seconds: float) -> str:
    seconds = int(round(seconds))
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"
