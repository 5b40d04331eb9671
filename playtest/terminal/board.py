"""The board as text: a position as one seat sees it, the legal actions, and the standings.

- :func:`draw_board` draws a position as one seat sees it (``observation(seat)``: deck
  order and the other seats' blind reserves hidden), or in full when the game is over;
- :func:`action_lines` lists the legal actions with their notation, each numbered by its id;
- :func:`standings` says how a finished game ended and who won.

The board is drawn as lines of (text, style) segments, then written either as plain text
(piped output, NO_COLOR, TERM=dumb, rich not installed, and draw_board for the RL
environments' render) or as a rich Text in colour (:mod:`playtest.terminal.colour`). Every
segment's text goes through safe_text.visible where the segment is made (_seg), so no text of
a spec or a saved game can hold a terminal control in either; and a rich Text is built with
append(text, style), never from markup, so '[bold red]' in a spec's name is shown as written.
"""

from __future__ import annotations

import json
from typing import Any

from compiler.emit.runtime.meta import BAG, DISPLAY, PILE
from compiler.language import ColumnType
from compiler.language.places import BASE_PLACE
from compiler.safe_text import visible

WIDTH = 100  # columns of the action list
BUYABLE_MARK = "*"

Segment = tuple[str, str]  # (text, style name: "" for none, "gem:NAME" for a colour's own)
Line = list[Segment]


def _seg(text, style: str = "") -> Segment:
    """A segment of the board: its text shown with any control character escaped."""
    return (visible(str(text)), style)


def _gem(name) -> Segment:
    return _seg(name, f"gem:{name}")


def plain(lines: list[Line]) -> str:
    """The board as plain text."""
    return "\n".join("".join(text for text, _ in line).rstrip() for line in lines)


def seat_label(seats: list, p: int, viewer: int | None = None) -> str:
    """``player 2 (greedy)``; ``player 1 (you)`` for the seat whose view is drawn.

    `seats` holds :class:`Seat` objects or plain names (an RL environment's agents).
    """
    who = "you" if p == viewer else getattr(seats[p], "who", seats[p])
    return f"player {p + 1} ({who})"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _counts(names, values, skip_zero: bool = True, sep: str = "  ") -> str:
    parts = [
        f"{v} {n}" if sep == ", " else f"{n} {v}" for n, v in zip(names, values, strict=False) if v or not skip_zero
    ]
    return sep.join(parts) if parts else "none"


def _counted(names, values, skip_zero: bool = True) -> list[Segment]:
    """`white 4  blue 2`: each count after its colour's name, the name in its colour."""
    out: list[Segment] = []
    for n, v in zip(names, values, strict=False):
        if v or not skip_zero:
            out += ([_seg("  ")] if out else []) + [_gem(n), _seg(f" {v}")]
    return out or [_seg("none")]


def _wrap(first: str, items: list[str], indent: int = 10, gap: str = "   ") -> list[str]:
    """`items` after the label `first`, as many to a line as fit in WIDTH columns."""
    lines, line = [], first.ljust(indent)
    for i, item in enumerate(items):
        if i and len(line) + len(gap) + len(item) > WIDTH:
            lines.append(line + gap.rstrip())
            line = " " * indent + item
        else:
            line += (gap if i else "") + item
    lines.append(line)
    return lines


def _wrap_lines(first: str, items: list[Line], indent: int = 10, gap: str = "   ") -> list[Line]:
    """_wrap for items made of segments."""
    lines: list[Line] = []
    line: Line = [_seg(first.ljust(indent))]
    width = len(first.ljust(indent))
    for i, item in enumerate(items):
        size = sum(len(t) for t, _ in item)
        if i and width + len(gap) + size > WIDTH:
            lines.append(line)
            line, width = [_seg(" " * indent)] + item, indent + size
        else:
            line = line + ([_seg(gap)] if i else []) + item
            width += (len(gap) if i else 0) + size
    lines.append(line)
    return lines


class Catalogue:
    """Cards and nobles of an engine by id, and the text of each."""

    def __init__(self, module):
        self.module = module
        self.gems = tuple(module.GEMS)
        self.cards = {c.id: c for c in module.CARDS}
        self.nobles = {n.id: n for n in module.NOBLES}
        self.bonus_width = max((len(str(c.bonus)) for c in module.CARDS), default=0)

    def cost(self, values) -> str:
        return "".join(t for t, _ in self.cost_segments(values))

    def cost_segments(self, values) -> list[Segment]:
        out: list[Segment] = []
        for g, v in zip(self.gems, values, strict=False):
            if v:
                out += ([_seg(" ")] if out else []) + [_seg(f"{v} "), _gem(g)]
        return out or [_seg("free")]

    def card(self, card_id: int) -> str:
        return "".join(t for t, _ in self.card_segments(card_id))

    def card_segments(self, card_id: int) -> list[Segment]:
        c = self.cards[card_id]
        bonus = str(c.bonus)
        return [
            _gem(bonus),
            _seg(" " * (self.bonus_width - len(bonus)) + f"  {_plural(c.points, 'pt'):<6}  cost "),
            *self.cost_segments(c.cost),
        ]

    def noble(self, noble_id: int) -> str:
        return "".join(t for t, _ in self.noble_segments(noble_id))

    def noble_segments(self, noble_id: int) -> list[Segment]:
        n = self.nobles[noble_id]
        return [_seg(f"{_plural(n.points, 'pt')} for "), *self.cost_segments(n.requires)]


def full_view(module, game) -> dict:
    """The whole state in the observation's shape, for a finished game or spectators: decks and the
    spec's own piles as counts (what is left in a face-down pile, and its order, stays unseen)."""
    state = json.loads(game.to_json())
    state["decks"] = {k: len(v) if isinstance(v, list) else v for k, v in state["decks"].items()}
    piles = {z.name for z in getattr(module, "ZONES", ()) if z.shape in (PILE, BAG) and not z.per_player}
    split = getattr(module, "ZONE_GROUPS", {})  # a zone split by a group column: a list per group
    for name, items in (state.get("zones") or {}).items():
        if name in piles and isinstance(items, list):
            state["zones"][name] = [len(group) for group in items] if name in split else len(items)
    return state


def buyable_cards(game) -> set[int]:
    """The cards the player to move can buy now, in the action phase: those that one of the legal
    actions adds to that player's purchases (each tried on a copy of the game, so the spec's own
    rules decide, whatever its actions are called; a payment asked next is made the first way)."""
    if game.is_over() or game.phase != "action":
        return set()
    p = game.current_player
    had = set(game.purchased[p])
    found: set[int] = set()
    for action in game.legal_actions():
        trial = game.clone()
        trial.apply(action)
        if trial.phase == "payment" and trial.current_player == p:
            trial.apply(trial.legal_actions()[0])
        found |= set(trial.purchased[p]) - had
    return found


def draw_board(module, game, seats: list, viewer: int | None, brief: bool = False) -> str:
    """The position as `viewer` sees it (its observation), or in full when `viewer` is None, as plain text."""
    return plain(board_lines(module, game, seats, viewer, brief))


def board_lines(module, game, seats: list, viewer: int | None, brief: bool = False) -> list[Line]:
    """The position as `viewer` sees it (its observation), or in full when `viewer` is None.

    `brief`: only the heading, the supply and the viewer's own seat (for a further decision
    of the same turn, such as returning tokens or choosing how to pay). The cards the viewer
    can buy now (at their own turn) are marked with BUYABLE_MARK.
    """
    cat = Catalogue(module)
    state = game.observation(viewer) if viewer is not None else full_view(module, game)
    colours = tuple(module.COLOURS)
    lines: list[Line] = []
    head = f"{module.SPEC_NAME}, {_plural(game.num_players, 'player')} · round {state['round']}, turn {state['turn']}"
    if game.is_over():
        head += " · game over"
    else:
        cp = game.current_player
        phase = game.phase
        doing = "an action" if phase == "action" else phase.replace("_", " ")
        head += f" · {seat_label(seats, cp, viewer)} to choose: {doing}"
        pending = state.get("pending")
        if isinstance(pending, int):
            head += f" (for '{module.action_to_string(pending)}')"
    lines.append([_seg(f"== {head} ==", "head")])
    lines.append([_seg("supply    "), *_counted(colours, [state["supply"][c] for c in colours], skip_zero=False)])
    if state.get("vars"):  # the spec's declared state shared by the game (version 2 states)
        said = _vars_text(module, state["vars"], hidden=False)
        lines += [[_seg("state     "), _seg(said)]] if said else []
        lines += _component_set_lines(module, cat, state["vars"])
    buyable = buyable_cards(game) if viewer is not None and viewer == game.current_player else set()
    if brief and viewer is not None:
        return lines + _seat_lines(module, cat, game, seats, viewer, state["seats"][viewer], viewer, buyable)
    nobles = [[_seg(f"{i}) "), *cat.noble_segments(n)] for i, n in enumerate(state["nobles"], 1)]
    lines += _wrap_lines("nobles", nobles or [[_seg("none left")]])
    shared = state.get("zones") or {}  # in the spec's order (a saved state's keys are sorted)
    lines += [
        line
        for zone in getattr(module, "ZONES", ())
        if zone.name in shared
        for label, items in _groups(module, zone.name, shared[zone.name])
        for line in _zone_lines(module, cat, zone.name, items, label=label)
    ]
    out_of_play = state.get("out_of_play") or {}
    for level in reversed(tuple(module.LEVELS)):
        deck = state["decks"][str(level)]
        aside = len(out_of_play.get(str(level), []))
        lines.append(
            [_seg(f"level {level}   {_plural(deck, 'card')} in the deck" + (f", {aside} out of play" if aside else ""))]
        )
        for slot, card in enumerate(state["market"][str(level)], 1):
            mark = [_seg(BUYABLE_MARK, "buyable"), _seg(" ")] if card in buyable else [_seg("  ")]
            lines.append(
                [
                    *mark,
                    _seg(f"{level}.{slot}  "),
                    *(cat.card_segments(card) if card is not None else [_seg("(empty)")]),
                ]
            )
    if buyable:
        lines.append([_seg(BUYABLE_MARK, "buyable"), _seg(" you can buy it now")])
    for p, seat in enumerate(state["seats"]):
        lines += _seat_lines(module, cat, game, seats, p, seat, viewer, buyable)
    return lines


# The seat's list that a zone naming a place of the base game reads (its Game attribute -> the key of a
# saved state's seat): shown numbered under the zone's name, as a choice from it names a position
# (`sacrifice 2`). The reserved cards are numbered already, the noble row too.
_PLACE_LISTS = {"_bought": "purchased", "_nob": "nobles"}


def _places(module: Any, seat: dict[str, Any]) -> dict[str, Any]:
    """The seat's lists of the per-player zones that name a place of the base game, by zone name."""
    return {
        zone.name: seat[_PLACE_LISTS[zone.attribute]]
        for zone in getattr(module, "ZONES", ())
        if zone.start == BASE_PLACE and zone.per_player and zone.attribute in _PLACE_LISTS
    }


def _groups(module: Any, name: str, value: Any) -> list[tuple[str, Any]]:
    """A shared zone's saved value as (label, its list or count): one per group, `relic_decks[2]`,
    for a zone split by a group column (ZONE_GROUPS), else the zone's own."""
    if name not in getattr(module, "ZONE_GROUPS", {}) or not isinstance(value, list):
        return [(name, value)]
    return [(f"{name}[{g}]", items) for g, items in enumerate(value, 1)]


def _zone_lines(module, cat: Catalogue, name: str, items, indent: str = "", label: str = "") -> list[Line]:
    """A zone of the spec's own (state format 2): a pile as its count; else its components, one a
    line, numbered from 1 as a choice of one names its position (`city 2`), each with its kind's
    columns by name (a hidden one, another seat's privately drawn, as such)."""
    zone = next((z for z in getattr(module, "ZONES", ()) if z.name == name), None)
    if zone is None:  # NAME_private: the owner's list of what it drew unseen, not a zone
        return []
    label = f"{indent}{label or name}   "
    if isinstance(items, int):
        return [[_seg(f"{label}{_plural(items, 'piece')}, face down")]]
    if not items:
        return [[_seg(f"{label}none")]]
    out: list[Line] = []
    for i, x in enumerate(items, 1):
        lead = _seg(label if i == 1 else " " * len(label))
        if x is None:
            out.append([lead, _seg(f"{i}) " + ("(empty)" if zone.shape == DISPLAY else "(hidden)"))])
        else:
            out.append([lead, _seg(f"{i}) "), *_component_segments(module, cat, zone.kind, x)])
    return out


def _component_segments(module, cat: Catalogue, kind: str, x: int) -> list[Segment]:
    """A component as `column value` pairs in its table's order: a table by gem colour as a cost
    (the gems in their colours), a gem or colour by its name; prose columns are not in the engine."""
    spec_kind = getattr(module, "KINDS", {}).get(kind)
    if spec_kind is None or not 0 <= x < spec_kind.size:
        return [_seg(f"#{x}")]
    out: list[Segment] = []
    for column, value in zip(spec_kind.columns, spec_kind.rows[x], strict=True):
        cname, ctype = column.name, column.type
        if ctype == ColumnType.PROSE:
            continue
        out += [_seg("  " if out else ""), _seg(f"{cname} ")]
        if ctype == ColumnType.GEMS:
            out += cat.cost_segments(value) if any(value) else [_seg("none")]
        elif ctype in (ColumnType.GEM, ColumnType.COLOUR):
            names = cat.gems if ctype == ColumnType.GEM else tuple(module.COLOURS)
            out += [_gem(names[value])] if value is not None else [_seg("none")]
        else:
            out.append(_seg(value))
    return out


def _seat_lines(module, cat: Catalogue, game, seats, p: int, seat: dict, viewer, buyable) -> list[Line]:
    colours = tuple(module.COLOURS)
    tokens = [seat["tokens"][c] for c in colours]
    label = _seg(seat_label(seats, p, viewer), "you" if p == viewer else "head")
    marker = [_seg("  <- to play", "to_play")] if p == game.current_player else []
    out: list[Line] = [
        [label, _seg(f" · prestige {game.prestige[p]}"), *marker],
        [_seg("    tokens    "), *_counted(colours, tokens), _seg(f"   ({sum(tokens)} held)")],
        [
            _seg("    bonuses   "),
            *_counted(cat.gems, game.bonus[p]),
            _seg(f"   ({_plural(len(seat['purchased']), 'card')} bought)"),
        ],
    ]
    if seat.get("vars"):  # the player's own declared state; another's private values are hidden
        said = _vars_text(module, seat["vars"], hidden=p != viewer and viewer is not None)
        out += [[_seg("    state     "), _seg(said)]] if said else []
        out += _component_set_lines(module, cat, seat["vars"], indent="    ")
    if seat["nobles"]:
        nobles: Line = [_seg("    nobles    ")]
        for i, n in enumerate(seat["nobles"]):
            nobles += ([_seg("   ")] if i else []) + cat.noble_segments(n)
        out.append(nobles)
    own = {**_places(module, seat), **(seat.get("zones") or {})}
    for zone in getattr(module, "ZONES", ()):
        if zone.name in own:
            out += _zone_lines(module, cat, zone.name, own[zone.name], indent="    ")
    blind = seat.get("blind") or []
    hidden_levels = list(blind) if p != viewer and viewer is not None else []
    for i, card in enumerate(seat["reserved"], 1):
        lead = _seg("    reserved  " if i == 1 else " " * 14)
        if card is None:  # another seat's blind reserve: only its level is known
            level = hidden_levels.pop(0) if hidden_levels else None
            out.append([lead, _seg(f"{i}) a hidden card" + (f" of level {level}" if level is not None else ""))])
        else:
            note = " (blind)" if card in blind and (viewer is None or p == viewer) else ""
            mark = [_seg("  "), _seg(BUYABLE_MARK, "buyable")] if p == viewer and card in buyable else []
            out.append([lead, _seg(f"{i}) L{cat.cards[card].level} "), *cat.card_segments(card), _seg(note), *mark])
    return out


def _set_kinds(module) -> dict[str, str]:
    """The variables that hold a set of components, and their kinds (saved as ids:KIND:N)."""
    return {v.name: v.kind for v in getattr(module, "VARIABLES", ()) if v.kind}


def _vars_text(module, values: dict, hidden: bool) -> str:
    """Declared variables as `name value` pairs: numbers, yes/no, colours (a set lists its colours,
    or "none"); a value another seat may not see is "hidden". A set of components is left to
    _component_set_lines, which shows it as zones are shown."""
    private = {v.name for v in getattr(module, "VARIABLES", ()) if v.private}
    sets = _set_kinds(module)
    keyed = {v.name: v for v in getattr(module, "VARIABLES", ()) if v.type.startswith("by:")}
    shown = []
    for name, value in values.items():
        if name in sets and isinstance(value, list):
            continue
        if value is None:
            text = "hidden" if hidden and name in private else "none"
        elif isinstance(value, bool):
            text = "yes" if value else "no"
        elif isinstance(value, list) and name in keyed:
            text = _keyed_text(module, keyed[name], value)
        elif isinstance(value, list):
            text = ",".join(str(x) for x in value) or "none"
        else:
            text = str(value + 1) if _is_player(module, name) else str(value)
        shown.append(f"{name} {text}")
    return "   ".join(shown)


def _keyed_text(module: Any, variable: Any, value: list[Any]) -> str:
    """A keyed variable's entries as `key:value` pairs: every colour's (`red:2`), or the components'
    (`#12:yes`, by id from 1) whose value is not the initial one ("none" when all are)."""
    key = variable.type.split(":", 3)[1]
    by_colour = key in ("gem", "colour")
    names = (
        list(getattr(module, "COLOURS", ()))[: len(value)] if by_colour else [f"#{i + 1}" for i in range(len(value))]
    )
    initial = variable.initial[0] if variable.initial else None
    pairs = [(k, x) for k, x in zip(names, value, strict=True) if by_colour or x != initial]
    return " ".join(f"{k}:{'yes' if x is True else 'no' if x is False else x}" for k, x in pairs) or "none"


def _component_set_lines(module, cat: Catalogue, values: dict, indent: str = "") -> list[Line]:
    """Each variable holding a set of components (a player's trading posts), its components one a
    line with their kind's columns by name, as a holding zone is shown."""
    out: list[Line] = []
    for name, kind in _set_kinds(module).items():
        items = values.get(name)
        if not isinstance(items, list):
            continue
        label = f"{indent}{name}   "
        if not items:
            out.append([_seg(f"{label}none")])
        for i, x in enumerate(items, 1):
            lead = _seg(label if i == 1 else " " * len(label))
            out.append([lead, _seg(f"{i}) "), *_component_segments(module, cat, kind, x)])
    return out


def _is_player(module, name: str) -> bool:
    """Is variable `name` a player (saved as a seat from 0, shown as a seat from 1)?"""
    return any(v.name == name and v.type == "player" for v in getattr(module, "VARIABLES", ()))


def draw_actions(module, legal: list[int]) -> str:
    """The legal actions with their notation, in columns, as plain text (see action_lines)."""
    return plain(action_lines(module, legal))


def action_lines(module, legal: list[int]) -> list[Line]:
    """The legal actions, each numbered by its id (the same number for the same action on every
    turn and in every game of the spec) and written in the spec's notation, in columns; the
    words that are gem colours in their colour (`red*2` too: a wild token standing for 2 red)."""
    width_id = len(str(max(module.NUM_ACTIONS - 1, 0)))
    gems = set(module.COLOURS)
    items = []
    for a in legal:
        text = module.action_to_string(a)
        item: Line = [_seg(f"{a:>{width_id}}", "number")]
        for word in text.split(" "):
            gem, star, times = word.partition("*")  # a wild token standing for several gems: red*2
            item += [_seg(" "), _gem(gem) if gem in gems else _seg(gem)] + ([_seg(star + times)] if star else [])
        items.append(item)
    width = max(sum(len(t) for t, _ in item) for item in items) + 3
    columns = max(1, WIDTH // width)
    rows = -(-len(items) // columns)
    lines: list[Line] = []
    for r in range(rows):
        line: Line = []
        row = [items[r + c * rows] for c in range(columns) if r + c * rows < len(items)]
        for c, item in enumerate(row):
            size = sum(len(t) for t, _ in item)
            line += item + ([_seg(" " * (width - size))] if c < len(row) - 1 else [])
        lines.append(line)
    return lines


def standings(module, game, seats: list) -> str:
    """The end of a game: why it ended, the winners, and each seat's prestige, cards and nobles."""
    cat = Catalogue(module)
    state = full_view(module, game)
    winners = game.winners()
    scores = game.scores()
    reason = state.get("end_reason")
    lines = [
        f"game over after {_plural(state['round'], 'round')}"
        + (f" (ended by: {str(reason).replace('_', ' ')})" if reason else "")
    ]
    if not winners:
        lines.append("no winner: no player met the conditions to win")
    elif len(winners) == 1:
        lines.append(f"winner: {seat_label(seats, winners[0])}")
    else:
        lines.append("shared victory: " + ", ".join(seat_label(seats, p) for p in winners))
    order = sorted(range(game.num_players), key=lambda p: (p not in winners, -scores[p], p))
    width = max(len(seat_label(seats, p)) for p in order)
    for p in order:
        seat = state["seats"][p]
        bought = seat["purchased"]
        by_bonus = [sum(1 for c in bought if cat.cards[c].bonus == g) for g in cat.gems]
        card_points = sum(cat.cards[c].points for c in bought)
        tag = "  winner" if p in winners else ""
        lines.append(f"  {seat_label(seats, p):<{width}}  {_plural(scores[p], 'prestige point')}{tag}")
        lines.append(
            f"      purchased {_plural(len(bought), 'card')} ({_counts(cat.gems, by_bonus, sep=', ')}), "
            f"{_plural(card_points, 'pt')} from cards"
        )
        if seat["nobles"]:
            lines += _wrap("      nobles", [cat.noble(n) for n in seat["nobles"]], indent=14)
        # what the spec's own rules gave the seat: its declared state, its holdings (a claimed city)
        if seat.get("vars"):
            said = _vars_text(module, seat["vars"], hidden=False)
            lines += ["      state     " + said] if said else []
            lines += [plain([line]) for line in _component_set_lines(module, cat, seat["vars"], indent="      ")]
        own = seat.get("zones") or {}
        lines += [
            plain([line])
            for zone in getattr(module, "ZONES", ())
            if zone.name in own
            for line in _zone_lines(module, cat, zone.name, own[zone.name], indent="      ")
        ]
    return "\n".join(lines)
