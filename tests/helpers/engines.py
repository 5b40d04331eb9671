"""Helpers for the tests of generated engines: loading a module by path, and building positions.

A generated engine is a standalone module (``generated/engines/official.py`` and one per
variant); tests load it by path with :mod:`importlib`, so any engine module can be tested
the same way (``load_engine(path)``). ``SPLENDOR_ENGINE=/path/to/official.py`` points the
official-engine tests at another build of the official engine.

Positions are built in the state JSON of the engine contract: start from
``new_game(n, seed).to_json()`` and move cards, tokens and nobles around with the
helpers below, which keep every token and every card accounted for (a card is moved,
never copied or dropped), then load the result with ``from_json``. A helper that cannot
do what it is asked (not enough tokens in the supply, say) raises ``SetupError``: the
test is wrong, not the engine.

Rule numbers (limits, the target, the setup table) are read from the spec through
:func:`compiler.pipeline.load_rules`, never written here.
"""

from __future__ import annotations

import collections
import functools
import importlib.util
import itertools
import json
import os
import pathlib
import sys
from collections.abc import Iterable
from types import ModuleType

import pytest

from tests.helpers import ROOT

OFFICIAL_SPEC = ROOT / "rulespec" / "official.yaml"
OFFICIAL_ENGINE = ROOT / "generated" / "engines" / "official.py"


class SetupError(Exception):
    """A position helper was asked for something impossible (a mistake in the test)."""


# --------------------------------------------------------------------------- loading


@functools.cache
def _load(path: pathlib.Path) -> ModuleType:
    name = "_splendor_engine_" + "_".join(path.with_suffix("").parts[-3:]).replace("-", "_").replace(".", "_")
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses and pickling look the module up by name
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    return module


def load_engine(path: str | os.PathLike) -> ModuleType:
    """Import a generated engine module from its file (cached per path)."""
    path = pathlib.Path(path).resolve()
    if not path.is_file():
        pytest.fail(f"engine module {path} does not exist; run `splendor-rules compile` first")
    return _load(path)


def official_engine_path() -> pathlib.Path:
    return pathlib.Path(os.environ.get("SPLENDOR_ENGINE", OFFICIAL_ENGINE))


def official_engine() -> ModuleType:
    return load_engine(official_engine_path())


@functools.cache
def load_spec(path: str | os.PathLike):
    """The rule model of a spec (compiler.model.Rules), for the numbers the tests need."""
    if str(ROOT) not in sys.path:  # bare `pytest` or a script: the compiler is not installed
        sys.path.insert(0, str(ROOT))
    from compiler.pipeline import load_rules

    return load_rules(str(path))


def official_rules():
    return load_spec(OFFICIAL_SPEC)


def values(rules) -> dict[str, int]:
    """The spec's named numbers: {"target": 15, "token_limit": 10, ...}."""
    return {v.name: v.value for v in rules.values}


def setup_row(rules, players: int):
    """The spec's player-count row (gems, gold, nobles, face_up) for `players`."""
    row = rules.player_count(players)
    assert row is not None, f"the spec has no row for {players} players"
    return row


# --------------------------------------------------------------------------- notation and play


def module_of(game) -> ModuleType:
    """The engine module a Game comes from."""
    return sys.modules[type(game).__module__]


def legal_strings(game) -> list[str]:
    E = module_of(game)
    return [E.action_to_string(a) for a in game.legal_actions()]


def act(game, text: str) -> None:
    """Apply the action written `text` in the engine's notation.

    A purchase may be written with its payment, "buy 1.4 paying gold for red" (as buys_of
    lists them): the engine takes that as "buy 1.4", then "pay gold for red" in the payment
    step when several payments are possible; with a single one it must be that one.
    """
    E = module_of(game)
    if not text.startswith("buy "):
        game.apply(E.string_to_action(text))
        return
    purchase, _, paid = text.partition(" paying ")
    action = E.string_to_action(purchase)
    wanted = "pay " + paid if paid else "pay without gold"
    options = [E.action_to_string(a) for a in game.payment_options(action)]
    assert wanted in options, f"{text!r}: the engine accepts only {options}"
    game.apply(action)
    if game.phase == "payment":
        game.apply(E.string_to_action(wanted))


def take_colours(text: str) -> frozenset[str] | None:
    """The colours of a "take a b c" action, or None for any other action."""
    words = text.split()
    if words and words[0] == "take":
        return frozenset(words[1:])
    return None


def payment_of(text: str) -> collections.Counter:
    """Gold spent per gem in a buy action: "buy 1.4 paying gold for red red" -> {red: 2}."""
    marker = " paying gold for "
    if marker not in text:
        return collections.Counter()
    return collections.Counter(text.split(marker, 1)[1].split())


def buy_target(text: str) -> str | None:
    """The card a buy action names: "buy 1.4 paying ..." -> "1.4", "buy reserved 2 ..." -> "reserved 2"."""
    words = text.split()
    if not words or words[0] != "buy":
        return None
    if words[1] == "reserved":
        return "reserved " + words[2]
    return words[1]


def buys_of(game, target: str) -> list[str]:
    """Every legal purchase of one card ("1.4" or "reserved 2"), one per payment the engine accepts.

    Written "buy 1.4" (no gold) or "buy 1.4 paying gold for red red", whether the engine asks
    for the payment in its payment step or pays at once because only one payment is possible.
    """
    E = module_of(game)
    out = []
    for a in game.legal_actions():
        text = E.action_to_string(a)
        if buy_target(text) != target:
            continue
        for pay in game.payment_options(a):
            words = E.action_to_string(pay)
            out.append(text if words == "pay without gold" else text + " paying " + words[len("pay ") :])
    return out


def state_json(game) -> dict:
    return json.loads(game.to_json())


def finish_forced_steps(game, seat: int) -> None:
    """Apply the only legal choice while `seat` is in an end-of-turn step with exactly one choice.

    An engine may present a step with one option (a single qualifying noble) or resolve it by
    itself; both are allowed, so scenario tests call this before looking at the next turn.
    """
    while game.phase not in ("action", "over") and game.current_player == seat:
        legal = game.legal_actions()
        if len(legal) != 1:
            break
        game.apply(legal[0])


def play_a_quiet_turn(game) -> None:
    """Let the current player take tokens (or reserve/pass if it cannot), resolving its steps."""
    seat = game.current_player
    strings = legal_strings(game)
    choice = next((s for s in strings if s.startswith("take ")), None)
    choice = choice or next((s for s in strings if s.startswith("take2 ")), None)
    choice = choice or next((s for s in strings if s.startswith("reserve deck")), strings[0])
    act(game, choice)
    while not game.is_over() and game.current_player == seat and game.phase != "action":
        game.apply(game.legal_actions()[0])


# --------------------------------------------------------------------------- positions


def position(E: ModuleType, players: int, seed: int = 0) -> dict:
    """A fresh game's state as a dict in the state JSON format."""
    return json.loads(E.new_game(players, seed=seed).to_json())


def load(E: ModuleType, state: dict):
    """A Game from a position dict (through the JSON text, as users would)."""
    return E.from_json(json.dumps(state))


def _colours(state: dict) -> list[str]:
    return list(state["supply"])


def give_tokens(state: dict, seat: int, **counts: int) -> dict:
    """Move tokens from the supply to a seat (negative counts move them back)."""
    tokens = state["seats"][seat]["tokens"]
    for colour, n in counts.items():
        if colour not in state["supply"]:
            raise SetupError(f"no token colour {colour!r}")
        if state["supply"][colour] - n < 0 or tokens[colour] + n < 0:
            raise SetupError(
                f"cannot move {n} {colour} to seat {seat}: supply {state['supply'][colour]}, "
                f"seat holds {tokens[colour]}"
            )
        state["supply"][colour] -= n
        tokens[colour] += n
    return state


def set_tokens(state: dict, seat: int, **counts: int) -> dict:
    """Make a seat hold exactly `counts` (other colours 0), through the supply."""
    tokens = state["seats"][seat]["tokens"]
    give_tokens(state, seat, **{c: -tokens[c] for c in _colours(state)})
    return give_tokens(state, seat, **counts)


def set_supply(state: dict, seats: Iterable[int], limit: int, **counts: int) -> dict:
    """Make the supply hold exactly `counts` of the named colours.

    Extra tokens go to `seats` (filling each up to `limit` held tokens, in order); missing
    ones come back from them.
    """
    seats = list(seats)
    for colour, want in counts.items():
        surplus = state["supply"][colour] - want
        for seat in seats:
            held = state["seats"][seat]["tokens"]
            if surplus > 0:
                n = min(surplus, limit - sum(held.values()))
            else:
                n = -min(-surplus, held[colour])
            if n:
                give_tokens(state, seat, **{colour: n})
                surplus -= n
        if surplus:
            raise SetupError(f"cannot bring the supply of {colour} to {want} through seats {seats}")
    return state


def held(state: dict, seat: int) -> int:
    return sum(state["seats"][seat]["tokens"].values())


def locate(state: dict, card: int) -> tuple:
    """Where a card is: ("market", level, slot) / ("deck", level, index) / ("reserved"|"purchased", seat, index)."""
    for level, row in state["market"].items():
        if card in row:
            return ("market", level, row.index(card))
    for level, deck in state["decks"].items():
        if card in deck:
            return ("deck", level, deck.index(card))
    for seat, s in enumerate(state["seats"]):
        for where in ("reserved", "purchased"):
            if card in s[where]:
                return (where, seat, s[where].index(card))
    raise SetupError(f"card {card} is nowhere in the position")


def _level_key(E: ModuleType, card: int) -> str:
    return str(E.CARDS[card].level)


def remove_card(E: ModuleType, state: dict, card: int) -> None:
    """Take a card out of its place; an emptied market slot is refilled from the bottom of its deck."""
    where, key, index = locate(state, card)
    if where == "market":
        deck = state["decks"][key]
        state["market"][key][index] = deck.pop() if deck else None
    elif where == "deck":
        del state["decks"][key][index]
    else:
        del state["seats"][key][where][index]
        _forget_blind(state)


def _forget_blind(state: dict) -> None:
    """Keep an engine's optional per-seat "blind" list (blind reserves) within the seat's reserved cards."""
    for seat in state["seats"]:
        if "blind" in seat:
            seat["blind"] = [c for c in seat["blind"] if c in seat["reserved"]]


def give_card(E: ModuleType, state: dict, seat: int, *cards: int) -> dict:
    """Add cards to a seat's purchased cards (taken from wherever they are)."""
    for card in cards:
        remove_card(E, state, card)
        state["seats"][seat]["purchased"].append(card)
    return state


def set_reserved(E: ModuleType, state: dict, seat: int, cards: Iterable[int]) -> dict:
    """Make a seat's reserved cards exactly `cards`; its former reserves go to the bottom of their decks."""
    cards = list(cards)
    old = state["seats"][seat]["reserved"]
    state["seats"][seat]["reserved"] = []
    for card in old:
        state["decks"][_level_key(E, card)].append(card)
    _forget_blind(state)
    for card in cards:
        remove_card(E, state, card)
        state["seats"][seat]["reserved"].append(card)
    return state


def put_in_market(E: ModuleType, state: dict, card: int, slot: int) -> dict:
    """Show `card` in market slot `slot` (1-based) of its level; the card it replaces takes its place."""
    key = _level_key(E, card)
    row = state["market"][key]
    displaced = row[slot - 1]
    if displaced == card:
        return state
    where, owner, index = locate(state, card)
    if where == "market":
        row[index] = displaced
    elif where == "deck":
        if displaced is None:
            del state["decks"][key][index]
        else:
            state["decks"][key][index] = displaced
    else:
        del state["seats"][owner][where][index]
        _forget_blind(state)
        if displaced is not None:
            state["decks"][key].append(displaced)
    row[slot - 1] = card
    return state


def set_deck_top(E: ModuleType, state: dict, card: int) -> dict:
    """Put `card` on top of its deck (it must be in that deck)."""
    where, key, index = locate(state, card)
    if where != "deck":
        raise SetupError(f"card {card} is not in a deck but in {where}")
    deck = state["decks"][key]
    deck.insert(0, deck.pop(index))
    return state


def empty_deck(state: dict, level: int, seat: int) -> dict:
    """Empty a deck by handing its cards to `seat` as purchased cards."""
    key = str(level)
    state["seats"][seat]["purchased"].extend(state["decks"][key])
    state["decks"][key] = []
    return state


def set_noble_row(state: dict, nobles: Iterable[int]) -> dict:
    row = list(nobles)
    owned = {n for s in state["seats"] for n in s["nobles"]}
    if owned & set(row) or len(set(row)) != len(row):
        raise SetupError(f"noble row {row} repeats a noble or one a seat holds")
    state["nobles"] = row
    return state


def give_noble(state: dict, seat: int, noble: int) -> dict:
    if noble in state["nobles"]:
        state["nobles"].remove(noble)
    state["seats"][seat]["nobles"].append(noble)
    return state


def set_turn(state: dict, seat: int, round_: int = 1) -> dict:
    """Make it `seat`'s action in round `round_` (turns begun per seat kept consistent)."""
    n = state["players"]
    for i, s in enumerate(state["seats"]):
        s["turns"] = round_ if i <= seat else round_ - 1
    state["current_player"] = seat
    state["phase"] = "action"
    state["round"] = round_
    state["turn"] = sum(s["turns"] for s in state["seats"])
    state["passes"] = 0
    state["ending"] = None
    assert n == len(state["seats"])
    return state


# --------------------------------------------------------------------------- card and noble data


def cost(E: ModuleType, card: int) -> dict[str, int]:
    return dict(zip(E.GEMS, E.CARDS[card].cost, strict=True))


def requires(E: ModuleType, noble: int) -> dict[str, int]:
    return dict(zip(E.GEMS, E.NOBLES[noble].requires, strict=True))


def bonuses(E: ModuleType, state: dict, seat: int) -> dict[str, int]:
    counts = dict.fromkeys(E.GEMS, 0)
    for card in state["seats"][seat]["purchased"]:
        counts[E.CARDS[card].bonus] += 1
    return counts


def prestige(E: ModuleType, state: dict, seat: int) -> int:
    s = state["seats"][seat]
    return sum(E.CARDS[c].points for c in s["purchased"]) + sum(E.NOBLES[n].points for n in s["nobles"])


def price(E: ModuleType, state: dict, seat: int, card: int) -> dict[str, int]:
    """What a card costs a seat in tokens: cost minus bonuses, per gem."""
    b = bonuses(E, state, seat)
    return {g: max(0, c - b[g]) for g, c in cost(E, card).items()}


def qualifies(E: ModuleType, state: dict, seat: int, noble: int) -> bool:
    b = bonuses(E, state, seat)
    return all(b[g] >= r for g, r in requires(E, noble).items())


def in_decks(state: dict) -> set[int]:
    return {c for deck in state["decks"].values() for c in deck}


def find_cards(E: ModuleType, state: dict, n: int = 1, *, where: str = "deck", **attrs) -> list[int]:
    """`n` cards currently in a deck (or anywhere with where="any") whose attributes match `attrs`.

    attrs: level, bonus, points, or `cost` as a predicate on the per-gem cost dict.
    """
    pool = in_decks(state) if where == "deck" else set(range(len(E.CARDS)))
    test_cost = attrs.pop("cost", None)
    found = []
    for card in E.CARDS:
        if card.id not in pool:
            continue
        if any(getattr(card, k) != v for k, v in attrs.items()):
            continue
        if test_cost is not None and not test_cost(cost(E, card.id)):
            continue
        found.append(card.id)
        if len(found) == n:
            return found
    raise SetupError(f"fewer than {n} cards with {attrs} (cost test: {test_cost is not None}) in {where}")


def cards_worth(E: ModuleType, state: dict, points: int, count: int, *, exclude: Iterable[int] = ()) -> list[int]:
    """`count` cards from the decks or the market whose points add up to exactly `points`."""
    exclude = set(exclude)
    unowned = in_decks(state) | {c for row in state["market"].values() for c in row if c is not None}
    pool = sorted((c for c in unowned if c not in exclude), key=lambda c: (-E.CARDS[c].points, c))
    by_points = collections.defaultdict(list)
    for c in pool:
        by_points[E.CARDS[c].points].append(c)
    for combo in itertools.combinations_with_replacement(sorted(by_points, reverse=True), count):
        if sum(combo) != points:
            continue
        need = collections.Counter(combo)
        if all(len(by_points[p]) >= k for p, k in need.items()):
            return [c for p, k in sorted(need.items(), reverse=True) for c in by_points[p][:k]]
    raise SetupError(f"no {count} cards in the decks or the market worth {points} points")


def cards_for_bonuses(E: ModuleType, state: dict, wanted: dict[str, int]) -> list[int]:
    """Cards worth 0 points from the decks giving at least the bonuses `wanted` (lowest level first)."""
    chosen = []
    for gem, n in wanted.items():
        if n <= 0:
            continue
        pool = sorted(
            (c for c in in_decks(state) if c not in chosen and E.CARDS[c].bonus == gem and E.CARDS[c].points == 0),
            key=lambda c: (E.CARDS[c].level, c),
        )
        if len(pool) < n:
            raise SetupError(f"not {n} cards worth 0 points with a {gem} bonus left in the decks")
        chosen += pool[:n]
    return chosen


def grant_bonuses(E: ModuleType, state: dict, seat: int, wanted: dict[str, int]) -> dict:
    """Give a seat 0-point purchased cards until its bonuses reach `wanted` (per gem)."""
    have = bonuses(E, state, seat)
    return give_card(E, state, seat, *cards_for_bonuses(E, state, {g: n - have[g] for g, n in wanted.items()}))


def nobles_not_met(
    E: ModuleType, bonus: dict[str, int], n: int | None = None, exclude: Iterable[int] = ()
) -> list[int]:
    """`n` nobles (all of them if n is None) whose requirements the bonuses `bonus` do not meet."""
    exclude = set(exclude)
    found = [
        nb.id
        for nb in E.NOBLES
        if nb.id not in exclude and not all(bonus[g] >= r for g, r in zip(E.GEMS, nb.requires, strict=True))
    ]
    if n is None:
        return found
    if len(found) < n:
        raise SetupError(f"fewer than {n} nobles out of reach of bonuses {bonus}")
    return found[:n]


def pay_for(E: ModuleType, state: dict, seat: int, card: int) -> dict:
    """Give a seat exactly the tokens (coloured ones, gold where the supply runs short) to buy `card`."""
    wild = E.WILD
    p = price(E, state, seat, card)
    for gem, n in p.items():
        from_supply = min(n, state["supply"][gem])
        give_tokens(state, seat, **{gem: from_supply})
        if n - from_supply:
            give_tokens(state, seat, **{wild: n - from_supply})
    return state
