"""The spec interface: every name the runtime reads from the per-spec part of an engine.

In an engine these are globals that the template (compiler/emit/templates/engine.py.j2) writes
from the spec, before the runtime's text: tables, constants derived from them, and the
functions that the lowering built from the rules. The runtime modules import them from
here only in their headers, which are not pasted into engines, so that each module is
ordinary Python that imports, lints and type-checks on its own.

The values here are placeholders of the right types: a runtime module imported alone has
no spec to play. Its unit tests (tests/test_runtime.py) bind each of these names to the
value of a compiled engine, and a test checks that every engine defines every one of them.

The hooks (the last section) are the functions by which the runtime runs what a spec adds to
a runtime function: its end-of-turn steps and end triggers, the reset of its `reset: turn`
variables, its declared state and zones in a saved game, its deal and its setup. Every engine
defines every hook, with the signature declared here (a spec without that feature: a hook that
does nothing), so the runtime's functions are whole and the same in every engine.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from .aliases import Problem, State
from .errors import Refusal

# `g`, the game, is typed Any in the signatures below, as the rules' functions take it: the runtime's
# Game (game.py imports this module, which cannot import it back) with the spec's own slots.

# -- the spec and the state format
SPEC_NAME: str = ""
SPEC_SHA256: str = ""
STATE_FORMAT: str = "splendor-rules/state"
STATE_VERSION: int = 1

# -- the components: gem colours (the wild one last), levels, player counts and their setup
COLOURS: tuple[str, ...] = ()
GEMS: tuple[str, ...] = ()
WILD: str = ""
LEVELS: tuple[int, ...] = ()
PLAYER_COUNTS: tuple[int, ...] = ()
SETUP: dict[int, tuple[int, int, int, int]] = {}  # players: (tokens of each gem, gold, nobles, face-up)
MAX_RESERVED: int = 0  # 0: no bound
MAX_TURNS: int | None = None  # the length cap

# -- the cards and nobles (an id is an index), and columns of them
CARDS: tuple[Any, ...] = ()  # Card(id, level, bonus, points, cost)
NOBLES: tuple[Any, ...] = ()  # Noble(id, points, requires)
CARD_LEVEL: tuple[int, ...] = ()
CARD_BONUS: tuple[int, ...] = ()  # index in GEMS
CARD_POINTS: tuple[int, ...] = ()
CARD_COST: tuple[tuple[int, ...], ...] = ()
NOBLE_POINTS: tuple[int, ...] = ()
NOBLE_IDS: tuple[int, ...] = ()
LEVEL_CARDS: tuple[tuple[int, ...], ...] = ()  # each level's deck before shuffling
_FACE_UP_COSTS: bool = False  # does Game keep face_up_costs (see compiler/emit/runtime/game.py)?
_FACE_UP_SLOTS: int = 0  # face-up slots per level in Game.face_up_costs
# The spec's own zones and state as Game attributes: (attribute, one per player?, initial value: an
# int, bool, str or None, or a tuple that each game holds as a list of its own). Empty: none.
_EXTRA_SLOTS: tuple[tuple[str, bool, Any], ...] = ()
# The spec's metadata (compiler/emit/runtime/meta.py): its own zones in declaration order, the kinds
# its rules reach by name, its declared variables (empty for a spec without them).
ZONES: tuple[Any, ...] = ()  # of meta.Zone (meta reads COLOURS from here: spec imports nothing of it)
KINDS: dict[str, Any] = {}  # name -> meta.Kind
# The spec's own zones split by a group column of their kind (`by:`): name -> (the column, its groups,
# the values the column holds, in order); such a zone is a list per group, group g's at index g - 1.
ZONE_GROUPS: dict[str, tuple[str, tuple[int, ...]]] = {}
# The spec's own zones that deal a series of the base cards (`series:`): name -> the ids of its cards
# (a zone not listed deals every piece of its kind). Only in the engine of a spec with zones.
_ZONE_DEALS: dict[str, tuple[int, ...]] = {}
VARIABLES: tuple[Any, ...] = ()  # of meta.Variable

# -- the decisions and their actions
PAYMENTS: tuple[tuple[int, ...], ...] = ()  # every way to spend gold on a price
DECISIONS: tuple[str, ...] = ()
STEPS: tuple[str, ...] = ()  # the names of the end-of-turn steps
ACTIONS: tuple[tuple[int, tuple[Any, ...]], ...] = ()  # action id -> (decision index, arguments)
ACTION_STRINGS: tuple[str, ...] = ()
NOTATION_FORMS: tuple[tuple[str, str, bool], ...] = ()  # (form, what its capitals stand for, payment asked next)
NUM_ACTIONS: int = 0
ACTION_PARAMS: tuple[tuple[Any, ...], ...] = ()  # per decision index: its choices (meta.Param), as arguments
TRIGGERS: tuple[tuple[str, str], ...] = ()  # the end triggers: (name, finish)
TRUNCATED: str = "truncated"

# -- the phases: decision indexes, modes and action ids the game loop dispatches on
_ACTION_MODE: int = -1
_OVER_MODE: int = -2
_PAY: int = -1  # the payment step (-1: none)
_PAY_BASE: int = 0  # the action id of PAYMENTS[0]
_SPEND_BASE: int = 0  # the action id of the first component set aside as wild tokens (`wilds`), after the payments
_WILD_PLACES: tuple[tuple[str, int], ...] = ()  # (holding, place from 1) of each such action; empty: no `wilds`
_STUCK: int = -1  # the action taken only when stuck (-1: none)
_KEEPS_TURN: tuple[int, ...] = ()  # the actions that do not end the turn (`ends_turn: false`), as decision indexes
_EXTRA_TURNS: bool = False  # may an effect give a player another turn (`extra_turn()`)?
_STEPS: tuple[int, ...] = ()  # the end-of-turn steps, as decision indexes
_N_STEPS: int = 0
_N_ACTION_DECISIONS: int = 0
_WILD_INDEX: int = 0  # the wild colour's index in COLOURS


# -- the rules, as the lowering built them: per decision, its legal actions, effects, why an
# action is illegal, and the payments it accepts (None where a decision has none)
def _action_phase_legal(g: Any, out: list[int]) -> None:
    """Appends the legal ids of the action phase to `out` (in an engine, written from the spec)."""
    raise NotImplementedError("the rules of a spec are in an engine")


def _eligible(g: Any, p: int) -> bool:
    """May player `p` win (in an engine, written from the spec's ranking)?"""
    raise NotImplementedError("the rules of a spec are in an engine")


def _rank_key(g: Any, p: int) -> tuple[Any, ...]:
    """The key that ranks player `p` (in an engine, written from the spec's ranking)."""
    raise NotImplementedError("the rules of a spec are in an engine")


_LEGAL: tuple[Callable[[Any, list[int]], None] | None, ...] = ()
_APPLY: tuple[Callable[[Any, tuple[Any, ...]], None], ...] = ()
_WHY: tuple[Callable[[Any, tuple[Any, ...]], str | Refusal | None], ...] = ()
_PAYOPTS: tuple[Callable[[Any, tuple[Any, ...]], list[int]] | None, ...] = ()


# -- the hooks: what a spec adds to the runtime's functions, lowered (compiler/lower/hooks.py)
def _end_of_turn(g: Any, step: int, count: int) -> bool:
    """The end-of-turn steps from step `step` (`count` of its actions done) in order, then the end
    triggers in spec order (the first whose condition holds acts). True when Game.apply must
    return at once: a step asks the player (several legal actions), or a trigger ended the game.
    Game.apply holds this function's body inlined (compiler/emit/inline.py)."""
    raise NotImplementedError("the rules of a spec are in an engine")


def _reset_turn(g: Any) -> None:
    """Gives every `reset: turn` variable its initial value back, as the next turn begins
    (inlined into Game.apply, as _end_of_turn is)."""
    raise NotImplementedError("the rules of a spec are in an engine")


def _keep_turn(g: Any, d: int) -> bool:
    """After an action of decision `d` in the action phase: True when the turn goes on (an action
    with `ends_turn: false`, and some action is legal now), Game.apply then returning at once
    (inlined into Game.apply, as _end_of_turn is)."""
    raise NotImplementedError("the rules of a spec are in an engine")


def _turn_again(g: Any) -> None:
    """Before Game.apply finds the next seat: an extra turn owed (extra_turn()) is played, the seat
    set back by one so that the next seat is this one again (inlined, as _end_of_turn is)."""
    raise NotImplementedError("the rules of a spec are in an engine")


def _set_aside(g: Any, place: int, d: int, args: tuple[Any, ...]) -> None:
    """In the payment step, the component at _WILD_PLACES[place] set aside to be spent as wild
    tokens by the purchase waiting (decision `d`, `args`; `wilds` on its payment), spent when it is
    paid; the game's legal actions are then that purchase's payment options again."""
    raise NotImplementedError("the rules of a spec are in an engine")


def _state_json(g: Any, state: State, observer: int | None) -> None:
    """Adds the spec's declared state and zones to a saved state (observer None: the whole state)."""
    raise NotImplementedError("the rules of a spec are in an engine")


def _state_problems(data: State, n: int) -> list[Problem]:
    """Every problem of the spec's declared state and zones in a state dict of `n` players."""
    raise NotImplementedError("the rules of a spec are in an engine")


def _load_state(g: Any, data: State) -> None:
    """Gives a loaded game the declared state and zones of a sound state dict."""
    raise NotImplementedError("the rules of a spec are in an engine")


def _prestige_totals(g: Any) -> list[int]:
    """Each seat's prestige, as Game.prestige and Game.scores() read it: Game._pts (the cards'
    and nobles', kept as they come), or with the spec's prestige sources added."""
    raise NotImplementedError("the rules of a spec are in an engine")


def _deal_spec_zones(g: Any, rng: random.Random) -> None:
    """Deals the spec's own zones of a new game, after the cards and nobles."""
    raise NotImplementedError("the rules of a spec are in an engine")


def _setup(g: Any) -> None:
    """The spec's setup blocks, run once by new_game after the deal."""
    raise NotImplementedError("the rules of a spec are in an engine")
