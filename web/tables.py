"""The games in play: who sits where, who may act, bots, and live updates.

A :class:`Hub` holds every table of a server. A move, a human's or a bot's, goes through
:meth:`Hub.act` alone: checked (the seat's turn, an action id of this engine, the board the
player saw), applied to a clone of the game (IllegalAction gives the engine's reason and
changes nothing), stored, and only then made the table's game and announced to every seat's
stream. One asyncio lock per table orders the moves of its seats and bots.

Bots play their seats on their own: a task per table chooses (in a worker process, see
:mod:`web.botwork`) whenever a bot is to move, after ``bot_delay`` seconds so that the humans
see the moves one by one.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import secrets
import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from compiler.sheets import refusals
from playtest.bots import BotError, parse_bot
from playtest.engines import EngineError

from .botwork import Thinkers, bot_seed
from .closing import tables_to_close
from .i18n import Words, said, words
from .links import HUMAN, seat_secrets, watch_secret
from .moves import named_card, taken_card
from .rule_words import rule_failure
from .store import Store, digest, same_secret

MOVE_SECONDS = 10.0  # a move (its rules, the end-of-turn steps) that takes longer stops its table
QUEUE_SECONDS = 30.0  # a move waiting this long for a mover (all busy) is refused as the server being busy
MOVERS = 4  # threads that run moves and setups (each bounded: see Hub._in_worker)
BOT_SECONDS = 120.0  # a bot that has not chosen by then stops its table (an mcts:5000 move takes seconds)
MAX_SEAT_NAME = 20
MAX_PLAYOUTS = 5000  # an mcts bot's budget: more would hold a worker thread for minutes a move
log = logging.getLogger("splendor_rules.web")


class Refused(Exception):
    """A request that changes nothing: an HTTP status and a sentence for the player (the
    catalogues' Words, said in the language of whoever asked, or a sentence already worded in it:
    the rules' refusal), and for a refusal that time lifts (429, 503) the seconds after which to
    ask again (Retry-After)."""

    def __init__(self, status: int, message: str | Words, retry_after: int | None = None, details: str | None = None):
        super().__init__(str(message))
        self.status = status
        self.words = message
        self.retry_after = retry_after
        self.details = details  # for a move the rules refuse: the condition as written and where (spec authors)

    @property
    def message(self) -> str:
        """The sentence in English (the server's log, the command line)."""
        return str(self.words)

    def said(self, lang: str) -> str:
        """The sentence in `lang`."""
        return said(lang, self.words)

    @property
    def headers(self) -> dict[str, str]:
        return {"Retry-After": str(self.retry_after)} if self.retry_after is not None else {}


@dataclass
class Seat:
    who: str  # "human" or a bot's name ("greedy", "mcts:64")
    secret_hash: str | None

    @property
    def human(self) -> bool:
        return self.who == HUMAN


@dataclass
class LiveTable:
    id: str
    spec: str
    module: ModuleType  # the generated engine
    source: str
    game: Any  # that engine's Game: its class is generated, one per engine
    seed: int
    host_hash: str
    seats: list[Seat]
    log: list[tuple[int, int]] = field(default_factory=list)  # (seat, action) of every move
    named: list[int | None] = field(default_factory=list)  # per move, the card it took when public (web.moves)
    undo: bool = False  # the host's house rule: a player may take their move back until the next player acts
    undone: int = 0  # moves taken back so far (a view's version counts them)
    watch_hash: str | None = None  # of the spectators' secret (None: a table stored before they had one)
    problem: Words | str | None = None  # why the table stopped (a rule error, a bot failed): no move is taken since
    last_at: float = 0.0  # when the table was made or last moved (time.time()): how long it has been idle
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    listeners: set = field(default_factory=set)
    bot_task: asyncio.Task | None = None

    def seat_allowed(self, seat: int, secret: str) -> bool:
        """Whether `secret` opens `seat` (a human's seat; a bot's has no link)."""
        return 0 <= seat < len(self.seats) and same_secret(secret, self.seats[seat].secret_hash)

    def watch_allowed(self, secret: str) -> bool:
        """Whether `secret` is the spectators' (never the host's: a watch link is shared freely)."""
        return same_secret(secret, self.watch_hash)

    def host_allowed(self, secret: str) -> bool:
        return same_secret(secret, self.host_hash)

    def notify(self) -> None:
        for queue in list(self.listeners):
            queue.put_nowait(len(self.log))


def seat_names(module, players: int, seats: list) -> list[str]:
    """The seats asked for, checked: one per player, each human or a bot of playtest.bots."""
    if not isinstance(seats, list) or len(seats) != players:
        raise Refused(422, words("refused.seats", players=players))
    out = []
    for i, name in enumerate(seats):
        if not isinstance(name, str) or len(name) > MAX_SEAT_NAME:
            raise Refused(422, words("refused.seat_name", seat=i + 1))
        name = name.strip().lower()
        if name != HUMAN:
            try:
                _, options = parse_bot(name)
            except BotError as e:
                raise Refused(422, words("refused.seat_bot", seat=i + 1, error=str(e), human=HUMAN)) from None
            if options.get("playouts", 0) > MAX_PLAYOUTS:
                raise Refused(422, words("refused.seat_playouts", seat=i + 1, n=MAX_PLAYOUTS))
        out.append(name)
    if HUMAN not in out and players < 2:
        raise Refused(422, words("refused.solo"))
    return out


def hidden_information(module) -> bool:
    """Whether a game of the engine hides something that its seed decides (a face-down deck, a
    blind reserve): true unless the engine says otherwise (a module constant HIDDEN_INFORMATION
    = False). Every Splendor-family engine shuffles a face-down deck, and none says otherwise."""
    return bool(getattr(module, "HIDDEN_INFORMATION", True))


def undo_refusal(table: LiveTable, seat: int) -> Words | None:
    """Why `seat` may not take back the table's last move now, in a sentence (None: it may)."""
    if not table.undo:
        return words("refused.undo_off")
    if table.problem:
        return words("refused.stopped", problem=table.problem)
    if table.game.is_over():
        return words("refused.undo_over")
    if not table.log:
        return words("refused.undo_none")
    last = table.log[-1][0]
    if last != seat:
        return words("refused.undo_not_yours", player=last + 1)
    return None


def applied(game: Any, action: int) -> Any:
    """A clone of `game` with `action` applied (`game` itself unchanged: it may be the table's)."""
    trial = game.clone()
    trial.apply(action)
    return trial


def replayed(module: ModuleType, players: int, seed: int, moves: list[int]) -> Any:
    """The game dealt from `seed` with `moves` applied: a table's position again."""
    game = module.new_game(players, seed=seed)
    for action in moves:
        game.apply(action)
    return game


class Hub:
    """Every table of one server, its store, and the variants on offer."""

    def __init__(
        self,
        variants: dict,
        store: Store,
        bot_delay: float = 0.6,
        bot_workers: int = 1,
        expire_after: float | None = None,
        max_tables: int | None = None,
        move_seconds: float = MOVE_SECONDS,
        bot_seconds: float = BOT_SECONDS,
        abandon_after: float = 86400.0,
    ):
        self.variants = variants
        self.move_seconds = move_seconds  # the time a move may take before its table is stopped
        self.bot_seconds = bot_seconds  # and a bot's choice
        self.movers = concurrent.futures.ThreadPoolExecutor(MOVERS, thread_name_prefix="splendor-rules-move")
        self.expire_after = expire_after  # seconds without a move after which a table is removed
        self.abandon_after = abandon_after  # seconds without a move after which a game no longer counts as open
        self.max_tables = max_tables  # tables kept in the store, at most (finished ones make room)
        self.sweeper: asyncio.Task | None = None
        self.store = store
        self.bot_delay = bot_delay
        self.bot_workers = bot_workers
        self.thinkers: Thinkers | None = None
        # (table, game, log, named) of a move about to be stored: web.streams.Views.prepare
        self.prepare: Callable[[LiveTable, Any, tuple[Any, ...], tuple[Any, ...]], None] | None = None
        self.tables: dict[str, LiveTable] = {}
        self.unavailable: dict[str, Words] = {}  # stored tables that could not be resumed, and why
        self.unavailable_since: dict[str, float] = {}  # and when they last moved
        self.shutting_down = False  # the server is stopping: no bot move is started or played (close)
        self.thinking = 0  # bot moves asked of the workers and not answered yet (all tables)
        self.clicks = 0  # people's moves under way (Hub.act): the bots wait for none (Hub.after_clicks)
        self.no_clicks = asyncio.Event()
        self.no_clicks.set()
        self.draw_seed = lambda: secrets.randbelow(2**62)  # a new table's seed, unless its maker may choose

    def open_tables(self, now: float | None = None) -> int:
        """Games in play: not over, and moved within `abandon_after` seconds (a game left for
        longer is abandoned: it holds no bot work, and makes room when the store is full)."""
        now = time.time() if now is None else now
        return sum(1 for t in self.tables.values() if not t.game.is_over() and now - t.last_at < self.abandon_after)

    # -- making tables (web.resuming resumes stored ones)

    async def create(
        self, spec: object, players, seats, seed=None, admit=None
    ) -> tuple[LiveTable, str, dict[int, str]]:
        """A new table; returns it, the host's secret and each human seat's secret. `admit(seats)`,
        called once the request is valid and before anything is stored, may refuse it (a limit)."""
        variant = self.variants.get(spec) if isinstance(spec, str) else None
        if variant is None:
            shown = repr(spec[:40] + ("..." if len(spec) > 40 else "")) if isinstance(spec, str) else ""
            raise Refused(422, words("refused.no_spec", name=shown) if shown else words("refused.name_spec"))
        if type(players) is not int or players not in variant.player_counts:
            counts = ", ".join(map(str, variant.player_counts))
            raise Refused(422, words("refused.players", spec=variant.key, counts=counts))
        try:  # a first use checks the spec and builds its engine: off the event loop
            await asyncio.to_thread(variant.build)
        except EngineError as e:
            raise Refused(422, words("refused.setup", failure=str(e))) from None
        names = seat_names(variant.module, players, seats)
        if seed is None:
            seed = self.draw_seed()
        elif type(seed) is not int or not 0 <= seed < 2**62:
            raise Refused(422, words("refused.seed"))
        elif HUMAN in names and hidden_information(variant.module):
            # With the seed and the public log anyone replays the deck order and every blind reserve.
            raise Refused(422, words("refused.seed_people"))
        if admit is not None:
            admit(names)
        try:
            game = await self._in_worker(variant.module.new_game, players, seed=seed)
        except Refused:
            raise
        except Exception as e:  # noqa: BLE001 - the spec's setup failed: the request's answer, not the server's
            raise Refused(422, words("refused.setup", failure=rule_failure(e))) from None
        host = secrets.token_urlsafe(24)
        table_id = secrets.token_urlsafe(9)
        links = seat_secrets(host, table_id, [Seat(who, None) for who in names])
        seat_rows = [(who, digest(links[i]) if i in links else None) for i, who in enumerate(names)]
        watch_hash = digest(watch_secret(host, table_id))
        try:
            await self.store.create_table(
                table_id, variant.key, variant.source_sha256, players, seed, digest(host), seat_rows, watch_hash
            )
        except sqlite3.Error as e:
            log.error("table not stored: %s", e)
            raise Refused(503, words("refused.store_table")) from None
        table = LiveTable(
            table_id,
            variant.key,
            variant.module,
            variant.source,
            game,
            seed,
            digest(host),
            [Seat(who, h) for who, h in seat_rows],
            last_at=time.time(),
            watch_hash=watch_hash,
        )
        self.tables[table_id] = table
        if self.max_tables is not None and len(self.tables) + len(self.unavailable) > self.max_tables:
            try:
                await self.sweep()  # the oldest finished tables make room
            except sqlite3.Error as e:  # the new table stands; the next sweep tries again
                log.error("old tables not removed: %s", e)
        return table, host, links

    # -- removing old tables

    async def sweep(self, now: float | None = None) -> dict[str, Words]:
        """Remove the tables :func:`tables_to_close` picks (in the store first: a table stays
        playable until its removal is committed); returns them and why."""
        listed = [(t.id, t.game.is_over(), t.last_at) for t in self.tables.values()]
        listed += [(table_id, False, at) for table_id, at in self.unavailable_since.items()]
        closing = tables_to_close(
            listed, time.time() if now is None else now, self.expire_after, self.max_tables, self.abandon_after
        )
        if closing:
            await self.remove(closing)
            log.info("removed %d old table(s)", len(closing))
        return closing

    async def remove(self, closing: dict[str, Words]) -> None:
        """Remove tables (id -> why, what their links answer from now on): from the store first,
        then from play; their bots stop and their seats' streams end."""
        await self.store.close_tables(closing)
        for table_id in closing:
            self.unavailable.pop(table_id, None)
            self.unavailable_since.pop(table_id, None)
            table = self.tables.pop(table_id, None)
            if table is not None:
                if table.bot_task is not None:
                    table.bot_task.cancel()
                for queue in list(table.listeners):
                    queue.put_nowait(None)

    async def _sweep_now_and_then(self, every: float) -> None:
        while True:
            await asyncio.sleep(every)
            try:
                await self.sweep()
            except sqlite3.Error as e:  # the next sweep tries again
                log.error("old tables not removed: %s", e)

    # -- moves

    async def act(self, table: LiveTable, seat: int, action, after=None, lang: str = "en") -> None:
        """Play `action` for `seat` (after `after` moves, when given): stored, then announced. A
        move the rules refuse is answered with the rule's words in `lang`."""
        if type(action) is not int:
            raise Refused(422, words("refused.action"))
        if after is not None and type(after) is not int:
            raise Refused(422, words("refused.after"))
        self.clicks += 1  # the bots wait (Hub.after_clicks) until this move is announced
        self.no_clicks.clear()
        try:
            async with table.lock:
                game = table.game
                if not 0 <= action < table.module.NUM_ACTIONS:
                    raise Refused(422, words("refused.no_action", action=action, last=table.module.NUM_ACTIONS - 1))
                if game.is_over():
                    raise Refused(409, words("refused.over"))
                if table.problem:
                    raise Refused(409, words("refused.stopped", problem=table.problem))
                if after is not None and after != len(table.log):
                    raise Refused(409, words("refused.moved_on"))
                if game.current_player != seat:
                    raise Refused(409, words("refused.not_your_turn", player=game.current_player + 1))
                await self._play(table, seat, action, lang, synced=True)
        finally:
            self.clicks -= 1
            if not self.clicks:
                self.no_clicks.set()
        self.kick(table)

    async def after_clicks(self) -> None:
        """Wait until no person's move is on its way (checked, applied, stored, announced). A bot's
        move is the server's own pace (it waits bot_delay anyway) and a person's click is someone
        waiting for the board: so a bot starts no work of its move (its state sent to the
        thinkers, its move applied and stored) while a click is under way, and the click's move
        never waits for a mover thread, the interpreter or the store's commit behind bots' moves
        started after it (issue 31: the click-to-update p95 with 100 bot tables). Clicks come
        one by one, a few milliseconds each, so a bot waits at most that long."""
        while self.clicks:
            await self.no_clicks.wait()

    # -- the house rule "undo until the next player acts"

    async def set_undo(self, table: LiveTable, on: bool) -> None:
        """The host switches the table's undo on or off: stored, then announced to every seat."""
        async with table.lock:
            try:
                await self.store.set_undo(table.id, on)
            except sqlite3.Error as e:
                log.error("table %s: undo not switched: %s", table.id, e)
                raise Refused(503, words("refused.store_undo_switch")) from None
            table.undo = on
            table.notify()

    async def undo(self, table: LiveTable, seat: int) -> None:
        """Take back the last move, for the seat that made it and only until the next player acts
        (any other seat's move since, a bot's included, makes it stand), when the host switched
        the house rule on. The game is dealt again from its seed and replayed without that move
        (the engines are deterministic), the move removed from the store, then every seat told."""
        async with table.lock:
            refusal = undo_refusal(table, seat)
            if refusal is not None:
                raise Refused(409 if table.undo else 403, refusal)
            moves = [action for _, action in table.log[:-1]]
            try:
                game = await self._in_worker(replayed, table.module, len(table.seats), table.seed, moves)
            except Refused:
                raise
            except Exception as e:  # noqa: BLE001 - the same moves replayed before: a rule failure stops the table
                await self.stop_for_good(table, words("problem.undo_replay", failure=rule_failure(e)))
                raise Refused(409, words("refused.stopped", problem=table.problem)) from None
            try:
                await self.store.take_back(table.id, len(table.log) - 1)
            except sqlite3.Error as e:
                log.error("table %s: undo not stored: %s", table.id, e)
                raise Refused(503, words("refused.store_undo")) from None
            table.game = game
            table.log.pop()
            table.named.pop()
            table.undone += 1
            table.last_at = time.time()
            table.notify()

    async def _play(self, table: LiveTable, seat: int, action: int, lang: str = "en", synced: bool = False) -> None:
        """Apply on a clone, store, then swap: a refused or unstored move changes nothing. A
        person's move is `synced` (on disk before it is announced); a bot's is committed without
        the disk sync (web.store.Store: the same move again after a crash)."""
        try:  # cloned and applied in a mover thread: no engine code on the event loop
            trial = await self._in_worker(applied, table.game, action)
        except table.module.IllegalAction as e:
            variant = self.variants.get(table.spec)  # its rules name a step by its title
            rules = variant.rules if variant is not None else None
            reason, _ = refusals.told(e, lang, rules, table.module)  # details apart; the open moves in words
            raise Refused(422, reason, details=getattr(e, "details", None)) from None
        except Refused:
            raise
        except Exception as e:  # noqa: BLE001 - a rule that fails or overruns stops this table, not the server
            await self.stop_for_good(
                table, words("problem.rule_failed", move=len(table.log) + 1, failure=rule_failure(e))
            )
            raise Refused(409, words("refused.stopped", problem=table.problem)) from None
        named = named_card(taken_card(table.module, table.game, seat, action), trial, seat)
        if self.prepare is not None and table.listeners:  # the seats' views, rendered while the move is stored
            self.prepare(table, trial, (*table.log, (seat, action)), (*table.named, named))
        try:
            await self.store.store_move(table.id, len(table.log), seat, action, synced)
        except sqlite3.Error as e:
            log.error("table %s: move not stored: %s", table.id, e)
            raise Refused(503, words("refused.store_move")) from None
        table.named.append(named)
        table.game = trial
        table.log.append((seat, action))
        table.last_at = time.time()
        table.notify()

    async def _in_worker(self, call: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """`call(*args)` (engine code: a move, a setup) in a thread of the server's movers, never
        on the event loop that serves every table, and given at most `move_seconds` once it runs:
        TimeoutError past them. Time spent waiting for a mover is not counted against the rules:
        past QUEUE_SECONDS the request is refused as the server being busy (503), the table
        untouched. `check` proves that every loop of a spec ends and bounds each step's work, and
        the engines stop a step at their budget, so a mover always comes back."""
        if self.shutting_down:  # the movers are closing (and a move asked for now is not the rules' fault)
            raise Refused(503, words("refused.busy"), 5)
        loop = asyncio.get_running_loop()
        started = asyncio.Event()

        def run():
            loop.call_soon_threadsafe(started.set)
            return call(*args, **kwargs)

        future = loop.run_in_executor(self.movers, run)
        try:
            await asyncio.wait_for(started.wait(), QUEUE_SECONDS)
        except TimeoutError:
            if future.cancel():  # still waiting for a mover: not the rules' fault
                raise Refused(503, words("refused.busy"), 5) from None
        return await asyncio.wait_for(future, self.move_seconds)

    def stop_table(self, table: LiveTable, why: Words | str) -> None:
        """Stop a table (a rule failed or overran, a bot failed): no move is taken from now on,
        every seat is told why; the other tables play on."""
        table.problem = why
        log.error("table %s: %s", table.id, why)
        table.notify()

    async def stop_for_good(self, table: LiveTable, why: Words) -> None:
        """Stop a table, and store why (web.store), so that it stays stopped after a restart and
        is said in each reader's language."""
        self.stop_table(table, why)
        try:
            await self.store.set_problem(table.id, why)
        except sqlite3.Error as e:  # stopped all the same while this server runs
            log.error("table %s: why it stopped not stored: %s", table.id, e)

    def kick(self, table: LiveTable) -> None:
        """Start the table's bot task if a bot is to move and none is running."""
        game = table.game
        if game.is_over() or table.problem or table.seats[game.current_player].human or self.shutting_down:
            return
        if table.bot_task is None or table.bot_task.done():
            table.bot_task = asyncio.get_running_loop().create_task(self._drive(table))

    async def _drive(self, table: LiveTable) -> None:
        while True:
            game = table.game
            if game.is_over() or self.shutting_down:
                return
            seat = game.current_player
            who = table.seats[seat].who
            if who == HUMAN:
                return
            if self.bot_delay:
                await asyncio.sleep(self.bot_delay)
            moves = len(table.log)
            await self.after_clicks()
            if self.thinkers is None:
                self.thinkers = Thinkers(self.bot_workers)
            self.thinking += 1
            try:
                action = await self.thinkers.choose(
                    table.module, table.source, game, who, bot_seed(table.seed, seat, moves), self.bot_seconds
                )
            except Exception as e:  # noqa: BLE001 - a bot that fails or is slow stops its table, not the server
                if not self.shutting_down:  # else its workers closing: chosen again, the same, after a restart
                    slow = words("problem.bot_slow", player=seat + 1, seconds=f"{self.bot_seconds:g}")
                    failed = words("problem.bot_failed", player=seat + 1, failure=rule_failure(e))
                    await self.stop_for_good(table, slow if isinstance(e, TimeoutError) else failed)
                return
            finally:
                self.thinking -= 1
            await self.after_clicks()
            async with table.lock:
                if table.game is not game:  # a move or an undo since: choose again
                    continue
                try:
                    await self._play(table, seat, action)
                except Refused as e:
                    if not table.problem and not self.shutting_down:
                        await self.stop_for_good(table, words("problem.bot_illegal", player=seat + 1, refusal=e.words))
                    return

    def start(self) -> None:
        for table in self.tables.values():
            self.kick(table)
        if self.expire_after is not None:
            every = min(3600.0, max(1.0, self.expire_after / 10))
            self.sweeper = asyncio.get_running_loop().create_task(self._sweep_now_and_then(every))

    async def close(self) -> None:
        """At shutdown, in order and losing nothing: no bot move is started or played from now on,
        the bot tasks end (cancelled, and awaited: a move chosen and not stored is chosen again,
        the same, after a restart), and only then the movers and the bots' workers close (stop)."""
        self.shutting_down = True
        tasks = [t.bot_task for t in self.tables.values() if t.bot_task is not None and not t.bot_task.done()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self.stop()

    def stop(self) -> None:
        """Stop everything at once: bots, sweeper, movers, workers, and every seat's stream."""
        self.shutting_down = True
        if self.sweeper is not None:
            self.sweeper.cancel()
        for table in self.tables.values():
            if table.bot_task is not None:
                table.bot_task.cancel()
            for queue in list(table.listeners):
                queue.put_nowait(None)
        self.movers.shutdown(wait=False, cancel_futures=True)
        if self.thinkers is not None:
            self.thinkers.close()
            self.thinkers = None
