"""What a seat may see, as JSON for its browser.

A seat receives the engine's ``observation(seat)`` (the deck order and the other seats' blind
reserves hidden) and nothing derived from more: the legal actions only at its own decision,
the log of moves in notation (a blind reserve's notation names the deck, not the card), and
who sits where. The whole state (``to_json``) is shown only once the game is over, when
nothing is hidden any more. The seed, which would tell the deck order, is never sent before.
Three things are read from the engine beyond the observation, each public or the seat's own
(web.moves): the card each move of the log took, named only when everyone saw it (never a
blind reserve still hidden); at the seat's own decision, what each purchase would take from its
tokens and how many times its step is asked, worked out on a clone of the game.

:func:`meta` is what the page needs about the engine itself (cards, nobles, colours, every
action's notation and what it points at on the board); it holds nothing of a game.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from typing import Any

from compiler.check.kinds import BASE_KINDS
from compiler.emit.runtime.meta import BAG, PILE
from compiler.language.places import BASE_PLACE
from compiler.language.types import Comp
from compiler.model import Column, Rules
from compiler.sheets import moves as sheet_moves
from compiler.sheets import tables as sheet_tables
from compiler.sheets.content.authored import own_text
from compiler.sheets.phrases.core import describe, explain_definition
from compiler.sheets.phrases.text import sentence

from . import moves
from .i18n import Words
from .tables import undo_refusal


def _colours_of(value, colours) -> list[str]:
    """The colours an action parameter names (one colour, or a set of them)."""
    if isinstance(value, str) and value in colours:
        return [value]
    if isinstance(value, (tuple, list)) and value and all(isinstance(v, str) and v in colours for v in value):
        return list(value)
    return []


def _market_slot(value, levels) -> list[int] | None:
    """A face-up card's (level, slot), when the parameter is one."""
    if isinstance(value, tuple) and len(value) == 2 and all(type(v) is int for v in value) and value[0] in levels:
        return [value[0], value[1]]
    return None


def _paid(payment: dict[str, Any]) -> dict[str, int]:
    """What a payment's wild tokens stand for, colour by colour, in units of the cost (a wild
    token worth two counts two: the engine gives each colour the worth of each token)."""
    return {c: sum(v) if isinstance(v, (tuple, list)) else int(v) for c, v in payment.items()}


@functools.lru_cache(maxsize=64)
def meta(module) -> dict:
    """The engine's constants for the page: colours, cards, nobles, and for every action id its
    notation, its rule, the colours it names and what else it points at (web.moves.targets: a
    face-up card, a reserved card, a deck, a noble, a component; a purchase, a payment, and what
    a payment's wild tokens stand for): what the page says a move with, in its own language."""
    colours = tuple(module.COLOURS)
    levels = tuple(module.LEVELS)
    steps = set(getattr(module, "STEPS", ()))
    actions = []
    for a, target in enumerate(moves.targets(module)):
        rule, params = module.describe_action(a)
        card, named, paid = target["card"], [], None
        slots = [slot for value in params.values() if (slot := _market_slot(value, levels))]
        for value in params.values():
            card = card or _market_slot(value, levels)
            named += _colours_of(value, colours)
            paid = _paid(value) if isinstance(value, dict) else paid
        actions.append(
            {
                **target,
                "text": module.action_to_string(a),
                "rule": rule,
                "card": card,
                "colours": named,
                "step": rule in steps,
                **({"paid": paid} if paid is not None else {}),
                # a move naming several face-up cards (a stronghold moved from one card to another):
                # no one card on the board stands for it
                **({"cards": len(slots)} if len(slots) > 1 else {}),
            }
        )
    return {
        "spec": module.SPEC_NAME,
        "colours": list(colours),
        "gems": list(module.GEMS),
        "wild": module.WILD,
        "levels": list(levels),
        "cards": {
            c.id: {"level": c.level, "bonus": c.bonus, "points": c.points, "cost": list(c.cost)} for c in module.CARDS
        },
        "nobles": {n.id: {"points": n.points, "requires": list(n.requires)} for n in module.NOBLES},
        "actions": actions,
        **extras(module),
    }


def extras(module) -> dict:
    """The spec's own zones, declared state and kinds, as the engine declares them (state format
    2): each zone's name, kind and shape (a pile is shown as a count), each variable's name, type
    (and kind, for a set of components) and whether it is a player's and private, and the table of
    every kind they hold (one row of values per component; a gems column as a list in gem order).
    Nothing of a game: the rows are the rules."""
    split = getattr(module, "ZONE_GROUPS", {})  # a zone split by a group column: a list per group
    zones = [
        {
            "name": z.name,
            "kind": z.kind,
            "shape": z.shape,
            "per_player": bool(z.per_player),
            **({"by": split[z.name][0], "groups": list(split[z.name][1])} if z.name in split else {}),
        }
        for z in getattr(module, "ZONES", ())
        if z.start != BASE_PLACE  # a place of the base game: the board shows it as the base game's
    ]
    variables = [
        {
            "name": v.name,
            "type": v.type,
            "per_player": bool(v.per_player),
            "private": bool(v.private),
            **({"kind": v.kind} if v.kind else {}),
            **_keyed(v, tuple(module.COLOURS)),
        }
        for v in getattr(module, "VARIABLES", ())
    ]
    held = [z["kind"] for z in zones] + [v.get("kind") or v.get("by") for v in variables]
    tables = getattr(module, "KINDS", {})
    # the base game's cards and nobles are drawn from `cards` and `nobles`: no second table of them
    kinds = {
        k: [_plain(row) for row in tables[k].rows] for k in dict.fromkeys(held) if k in tables and k not in BASE_KINDS
    }
    return {"zones": zones, "vars": variables, "kinds": kinds}


def _keyed(variable: Any, colours: tuple[str, ...]) -> dict[str, Any]:
    """What the board needs of a variable keyed by a colour or a component (its type
    ``by:KEY:N:TYPE``, the runtime's tag): what it is keyed by (gem, colour or a kind), the type of
    each entry, and each entry's value at the start, which the board leaves unsaid (a card with no
    stronghold says nothing of strongholds). Nothing for any other variable."""
    if not variable.type.startswith("by:"):
        return {}
    _, key, _, entry = variable.type.split(":", 3)
    coloured = entry in ("gem", "colour")  # an entry's colour as the observation writes it: by its name
    initial = [colours[x] if coloured and x is not None else _plain(x) for x in variable.initial]
    return {"by": key, "entry": entry, "initial": initial}


def _plain(value: Any) -> Any:
    """A kind's row (tuples within) as JSON lists."""
    return [_plain(v) for v in value] if isinstance(value, (tuple, list)) else value


def labels(rules, module, lang: str) -> dict:
    """Words for the spec's own zones, variables, kinds, steps and end triggers in `lang`, from the
    variant's rule model: titles, a kind's item, key and columns (each by its title, a keyword by
    the title of each of its keywords, as the sheet's table of the kind has them), each action's
    and step's title and where each one's component is chosen from (a zone or a kind: what the
    board highlights when the engine offers it), and what the board shows: the noble row only
    when some player count reveals nobles, the variables that are board state (a turn's
    bookkeeping, ``reset: turn``, only when the spec marks it ``display: true``). A kind whose
    columns do not match the engine's table (a table resumed on an engine older than the spec)
    gets none, so a name is never put on the wrong value. Spec text: the page shows it as text,
    never markup."""

    def text(t) -> str:
        return (t.get(lang) or t.en) if hasattr(t, "en") else str(t) if t is not None else ""

    tables = extras(module)["kinds"]
    kinds = {}
    for kind in getattr(rules, "kinds", ()):
        rows = tables.get(kind.name)
        if rows is None or any(len(row) != len(kind.columns) for row in rows):
            continue
        kinds[kind.name] = {
            "title": text(kind.title),
            "item": text(kind.item),
            "gender": kind.words(lang).gender,  # "none" agrees with the item where a language says it so
            "key": kind.key or kind.faces_of,
            "columns": [_column(c, text, hidden=c.name == kind.faces_of) for c in kind.columns],
            "rules": kind_rules(rules, kind.name, lang),
        }
    variables = getattr(rules, "variables", ())
    decisions = tuple(getattr(rules, "actions", ())) + tuple(getattr(rules, "steps", ()))
    return {
        "zones": {z.name: text(z.title) for z in getattr(rules, "zones", ())},
        "vars": {v.name: text(v.title) for v in variables},
        "kinds": kinds,
        "steps": {d.name: text(d.title) for d in getattr(rules, "steps", ())},
        "decisions": {d.name: text(d.title) for d in decisions},
        "sources": {d.name: p.source for d in decisions for p in d.params if p.domain == "component" and p.source},
        # the places of a choice from one group of a split zone, or across zones: [zone, group (0: none),
        # positions] each, in the order the choice's positions run
        "parts": {
            d.name: [list(part) for part in p.parts] if p.parts else [[p.source, p.group, p.slots]]
            for d in decisions
            for p in d.params
            if p.domain == "component" and (p.parts or getattr(p, "group", 0))
        },
        "ends": {e.name: text(e.title) for e in getattr(rules, "end", ())},
        "nobles": any(p.nobles for p in rules.players) if rules is not None else True,
        "vars_shown": [v.name for v in variables if v.reset != "turn" or getattr(v, "display", False)]
        if rules is not None
        else None,
        "moves": list(move_words(rules, module, lang))
        if rules is not None and hasattr(module, "DECISION_INFO")
        else [],
    }


MOVE_WORDS: dict[tuple[int, int, str], tuple[Any, Any, tuple[str, ...]]] = {}
MOVE_WORDS_KEPT = 64  # engines and languages whose words are kept: a bound on the memory


def move_words(rules: Rules, module: Any, lang: str) -> tuple[str, ...]:
    """Every action of `module` in players' words in `lang`, by id: what the log and the replay
    say a move with, the words `play` prints (compiler.sheets.moves: the rule's name as the sheets
    give it, its choices in words). Worked out once per engine, rule model and language (a few
    thousand actions for the Trading Posts); the entry keeps both alive, so no id is reused while
    it is kept. Spec text: the page shows it as text, never markup."""
    key = (id(module), id(rules), lang)
    held = MOVE_WORDS.get(key)
    if held is None or held[0] is not module or held[1] is not rules:
        said = tuple(sheet_moves.of_engine(module, a, rules, lang) for a in range(module.NUM_ACTIONS))
        if len(MOVE_WORDS) >= MOVE_WORDS_KEPT:
            MOVE_WORDS.pop(next(iter(MOVE_WORDS)))
        held = MOVE_WORDS[key] = (module, rules, said)
    return held[2]


def kind_rules(rules: Rules, kind: str, lang: str) -> list[dict[str, str]]:
    """What the rules ask of a component of `kind`, in the words of the reference sheet (its own
    text where the spec gives one, else the same phrase functions): each action or step that
    chooses one, with its condition ("you may do this only if ..."), and each definition about
    one, with what it means."""
    table = sheet_tables.load(lang)
    out = []
    for decision in (*rules.actions, *rules.steps):
        sources = {p.source for p in decision.params if p.domain == "component"}
        if not any(s == kind or any(z.name == s and z.holds == kind for z in rules.zones) for s in sources):
            continue
        title = decision.title.get(lang) or decision.title.en
        said = own_text(decision, lang, rules)
        if said is None:
            condition = describe(decision.condition, lang, rules, decision)
            said = sentence(table.text("sheet.condition", cond=condition))
        out.append({"title": title, "text": said})
    for definition in rules.definitions:
        if any(isinstance(t, Comp) and t.kind == kind for _, t in definition.params):
            said = own_text(definition, lang, rules)
            if said is None:
                title, meaning = explain_definition(definition, lang, rules, table)
                said = sentence(table.text("sheet.define.means", title=title, meaning=meaning))
            out.append({"title": "", "text": said})
    return out


def _column(column: Column, text: Callable[[Any], str], hidden: bool) -> dict[str, Any]:
    """A kind's column for the board: its name and type, its title (the spec's, else its name in
    words), each keyword's title, and whether the board leaves it out (the faces' piece number)."""
    title = text(column.title) if column.title is not None else column.name.replace("_", " ")
    return {
        "name": column.name,
        "type": str(column.type),
        "title": title,
        "hidden": hidden,
        **({"titles": {keyword: text(t) for keyword, t in column.titles}} if column.titles else {}),
    }


def full_state(game, module) -> dict:
    """The whole state of a finished game, in the observation's shape (decks and the spec's
    shared piles as counts: the order left in a pile is no one's business, as a deck's is not)."""
    state = json.loads(game.to_json())
    state["decks"] = {k: len(v) if isinstance(v, list) else v for k, v in state["decks"].items()}
    zones = extras(module)["zones"]
    piles = {z["name"] for z in zones if z["shape"] in (PILE, BAG) and not z["per_player"]}
    split = {z["name"] for z in zones if "groups" in z}  # a list per group: each one's count
    for name, items in (state.get("zones") or {}).items():
        if name in piles and isinstance(items, list):
            state["zones"][name] = [len(group) for group in items] if name in split else len(items)
    state.pop("start", None)
    state.pop("history", None)
    return state


def public_state(game) -> dict:
    """What anyone at the table may see (a spectator): each seat's part as another seat's
    observation shows it, so every blind reserve is hidden. Needs two seats or more."""
    n = game.num_players
    state = game.observation(1 % n)
    state["seats"] = [game.observation((p + 1) % n)["seats"][p] for p in range(n)]
    state["observer"] = None
    return state


def ended_by(reason: str | None) -> str:
    """Why a game ended, in words: the length cap and the deadlock in full, any other trigger of
    the spec by its name (as `play` says it)."""
    if reason == "truncated":
        return "stopped at the turn limit before anyone won: nobody wins"
    if reason == "deadlock":
        return "deadlock: no player could make a move"
    return "ended by: " + str(reason).replace("_", " ")


def result(table) -> dict | None:
    """A finished game's result, the same for every seat: why it ended, the winners, and each
    seat's prestige, cards and nobles, winners first then by prestige (None while it goes on)."""
    game = table.game
    if not game.is_over():
        return None
    state = json.loads(game.to_json())
    reason = state.get("end_reason")
    winners = list(game.winners())
    scores = list(game.scores())
    order = sorted(range(game.num_players), key=lambda p: (p not in winners, -scores[p], p))
    return {
        "reason": reason,
        "ended_by": ended_by(reason),
        "truncated": bool(game.is_truncated()),
        "winners": winners,
        "rounds": state.get("round"),
        "standings": [
            {
                "seat": p,
                "who": table.seats[p].who,
                "prestige": scores[p],
                "winner": p in winners,
                "cards": len(state["seats"][p]["purchased"]),
                "nobles": len(state["seats"][p]["nobles"]),
            }
            for p in order
        ],
    }


def seat_view(table, seat: int | None) -> dict:
    """Everything `seat` may know of `table` now (`seat` None: a spectator). `table` is a live
    table, or a web.streams.Frame of one (what a worker thread renders from). Besides the
    observation: at the seat's own decision what each purchase or payment would take from its
    tokens and how many times its step is asked (web.moves, from the engine); the log with the
    card each move took when everyone may know it (web.moves.named_card, kept by the table);
    whether the table's house rule lets the seat undo its last move now."""
    game, module = table.game, table.module
    over = game.is_over()
    current = game.current_player
    state = full_state(game, module) if over else public_state(game) if seat is None else game.observation(seat)
    pending = state.get("pending")
    deciding = not over and not table.problem and current == seat
    named = list(table.named)
    named += [None] * (len(table.log) - len(named))
    return {
        "table": table.id,
        "spec": table.spec,
        "you": seat,
        "moves": len(table.log),
        "version": len(table.log) + 2 * table.undone,  # grows with every move and every undo
        "seats": [{"who": s.who, "human": s.human} for s in table.seats],
        "over": over,
        "phase": game.phase,
        "current": current,
        "pending": module.action_to_string(pending) if isinstance(pending, int) else None,
        "pending_id": pending if isinstance(pending, int) else None,
        "legal": list(game.legal_actions()) if deciding else [],
        "payments": moves.payments(module, game, seat) if deciding and seat is not None else {},
        "repeats": moves.repeats(game, seat) if deciding and seat is not None else 1,
        "undo": {"allowed": table.undo, "now": seat is not None and undo_refusal(table, seat) is None},
        "state": state,
        "prestige": list(game.scores()),
        "bonus": [list(game.bonus[p]) for p in range(game.num_players)],
        "log": [
            {"seat": s, "action": a, "text": module.action_to_string(a), "card": card}
            for (s, a), card in zip(table.log, named, strict=True)
        ],
        "winners": list(game.winners()) if over else [],
        "end_reason": state.get("end_reason"),
        "truncated": bool(game.is_truncated()) if over else False,
        "result": result(table),
        "problem": str(table.problem) if table.problem is not None else None,  # in English, for the API
        "problem_words": table.problem.as_json() if isinstance(table.problem, Words) else None,  # the page says it
    }
