"""Sheets, content: the worked example -- a real game of the spec, told from its end.

The game is the builder's `worked` (:mod:`..worked_game`: played by the spec's own engine, and
replayed by a test). Anna is its winner, Ben the other player: who played first; what the rules
a variant adds did for Anna (a city claimed, a post opened and its power used); Anna's prestige
at the end of the turn that triggered the end, and that trigger; the last turn of the round;
who may win; and the ranking levels applied to the two final positions.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...front.expr import Attribute, Bool, Expr, walk
from ...model import Decision, Rules
from .. import example
from ..facts import effect_names, value_names
from ..phrases import PLAYER, Phraser, Ref, capitalise, sentence
from ..worked_game import Seat, WorkedGame, added_decisions, added_holdings
from .tree import Item, Part, Section

if TYPE_CHECKING:  # the class these functions are bound to (the package re-exports it)
    from . import Builder


def named(self: Builder, key: str) -> Phraser:
    """A phraser in which `me` is one of the example's players, by name."""
    ph = Phraser(self.lang, self.rules, table=self.table)
    ph.scope["me"] = Ref(PLAYER, key)
    ph.scope["player"] = Ref(PLAYER, key)
    return ph


def worked_example(self: Builder) -> Section | None:
    """The worked example's section; None without a game to tell (or without cards to tell of)."""
    w = self.worked
    if w is None or not self.rules.cards or w.trigger_seat is None:
        return None
    names: dict[str, Any] = {
        **self.p.named("a", self.p.forms("sheet.example.a")),
        **self.p.named("b", self.p.forms("sheet.example.b")),
    }
    items = _order(self, w, names) + _module_moves(self, w, names) + _at_trigger(self, w, names)
    items += _last_turn(self, w, names)
    title = self.text("sheet.example.title")
    steps = _outcome(self, w, names, items)
    if steps is None:
        return Section("example", title, [Part("para", items)])
    return Section("example", title, [Part("para", items), Part("steps", steps)])


def _other(w: WorkedGame) -> int | None:
    """Ben's seat: the player who is not the winner (a game of two), None in a game of one."""
    anna = w.winners[0]
    return next((p for p in range(w.players) if p != anna), None) if w.players == 2 else None


def _order(self: Builder, w: WorkedGame, names: dict[str, Any]) -> list[Item]:
    """Who plays first: it decides whether the round goes on once Anna triggers the end."""
    if _other(w) is None:
        return []
    key = "sheet.example.a_first" if w.winners[0] == 0 else "sheet.example.b_first"
    return [Item(sentence(self.text(key, **names)))]


def _module_moves(self: Builder, w: WorkedGame, names: dict[str, Any]) -> list[Item]:
    """What the rules a variant adds did for Anna, in the order of the game: the first time she
    took each added rule, and the first time each zone or set of her own that it adds grew."""
    anna, r = w.winners[0], self.rules
    found = []
    for is_step, decisions in ((False, r.actions), (True, r.steps)):
        for number, d in enumerate(decisions, 1):
            move = w.first(anna, d.name) if d.name in added_decisions(r) else None
            if move is not None:
                found.append((w.moves.index(move), self.headline(d, number, is_step), d.name))
    for held in added_holdings(r):
        move = w.first_gain(anna, held)
        if move is None:
            continue
        for is_step, decisions in ((False, r.actions), (True, r.steps)):
            # the rule that fills it: a step that applies itself (a post opened), told by its title
            found += [
                (w.moves.index(move), self.headline(d, number, is_step), d.name)
                for number, d in enumerate(decisions, 1)
                if d.name not in added_decisions(r)
                and d.name in {x.name for x in r.steps if x.resolve == "all"}
                and _fills(d, held)
            ]
    items = []
    for index, rule, name in sorted(set(found)):
        section = "end_of_turn" if any(d.name == name for d in r.steps) else "actions"
        marks = self.marks(f"{section}.{name}") if any(d.name == name for d in r.actions + r.steps) else ()
        items.append(
            Item(
                sentence(self.text("sheet.example.module_move", **names, turn=w.moves[index].turn, rule=rule)),
                "",
                marks,
            )
        )
    return items


def _fills(decision: Decision, held: str) -> bool:
    """Does `decision`'s effects name the zone or set `held` (`me.claimed`, `me.markers`)?"""
    return any(isinstance(node, Attribute) and node.name == held for stmt in decision.effects for node in walk(stmt))


def _card_points(self: Builder, seat: Seat) -> tuple[int, int]:
    """The prestige a seat's purchased cards and its nobles bring."""
    cards = {c.id: c.points for c in self.rules.cards}
    nobles = {n.id: n.points for n in self.rules.nobles}
    return sum(cards[c] for c in seat.purchased), sum(nobles[n] for n in seat.nobles)


def _at_trigger(self: Builder, w: WorkedGame, names: dict[str, Any]) -> list[Item]:
    """Anna's prestige at the end of the turn that triggered the end, and the trigger."""
    r, anna = self.rules, w.at_trigger[w.winners[0]]
    card_points, noble_points = _card_points(self, anna)
    cards = self.count("attr.purchased.noun", len(anna.purchased))
    worth, total = self.count("noun.point", card_points), self.count("noun.point", anna.prestige)
    if card_points + noble_points != anna.prestige:  # prestige of the spec's own sources too
        text = self.text("sheet.example.anna_other", **names, cards=cards, worth=worth, total=total)
    elif anna.nobles:
        text = self.text(
            "sheet.example.anna_nobles",
            **names,
            cards=cards,
            worth=worth,
            nobles=self.text("sheet.example.nobles", n=len(anna.nobles)),
            noble_worth=self.count("noun.point", noble_points),
            sum=f"{card_points} + {noble_points} = {total}",  # "12 + 3 = 15 prestige points": the sum says the total
        )
    else:
        text = self.text("sheet.example.anna", **names, cards=cards, worth=worth, total=total)
    items = [Item(sentence(text))]
    reserves = any(effect_names(d.effects) & {"reserve", "reserve_top"} for d in r.actions)
    if len(anna.reserved) == 1 and reserves:
        points = next(c.points for c in r.cards if c.id == anna.reserved[0])
        items.append(
            Item(sentence(self.text("sheet.example.reserved", **names, worth=self.count("noun.point", points))))
        )
    trigger = next(t for t in r.end if t.name == w.trigger)
    said = self.named("sheet.example.a")
    _know(said, anna)
    cond = said.condition(trigger.when)
    items.append(
        Item(
            sentence(self.text("sheet.example.trigger", cond=cond, finish=self.text(f"sheet.finish.{trigger.finish}"))),
            "",
            self.marks(f"end.{trigger.name}", *(f"values.{v}" for v in value_names(r, [trigger.when]))),
        )
    )
    return items


def _know(said: Phraser, seat: Seat) -> None:
    """The quantities of Anna's position a phrase of the example says as they are ("since Anna has 15
    points", "holds 1 city"), not as the rule's bound ("at least 15", "at least 1 city")."""
    for who in ("me", "player"):  # the turn's player (a trigger), the player judged (who may win)
        said.known[f"{who}.prestige"] = seat.prestige
        for name, ids in seat.holdings:
            said.known[f"size({who}.{name})"] = len(ids)


def _last_turn(self: Builder, w: WorkedGame, names: dict[str, Any]) -> list[Item]:
    """Ben's last turn, when Anna played first and the trigger completes the round."""
    ben = _other(w)
    trigger = next(t for t in self.rules.end if t.name == w.trigger)
    if ben is None or trigger.finish != "complete_round" or w.trigger_seat != 0:
        return []
    before, after = w.at_trigger[ben], w.at_end[ben]
    bought = [c for c in after.purchased if c not in before.purchased]
    total = self.count("noun.point", after.prestige)
    if len(bought) == 1:
        worth = next(c.points for c in self.rules.cards if c.id == bought[0])
        text = self.text("sheet.example.final_round", **names, worth=self.count("noun.point", worth), total=total)
    else:
        text = self.text("sheet.example.last_turn", **names, total=total)
    return [Item(sentence(text), "", self.marks(f"end.{trigger.name}"))]


def _player(self: Builder, seat: Seat, p: int) -> example.Player:
    """A seat's final position, for the ranking's expressions."""
    r = self.rules
    cards = {c.id: c for c in r.cards}
    nobles = {n.id: n for n in r.nobles}
    return example.Player(
        [cards[c] for c in seat.purchased],
        [nobles[n] for n in seat.nobles],
        [cards[c] for c in seat.reserved],
        p + 1,
        r.gems,
        r.wild,
        points=seat.prestige,
        held=seat.tokens,
        own=seat.holdings,
    )


def _outcome(self: Builder, w: WorkedGame, names: dict, items: list[Item]) -> list[Item] | None:
    """Who may win, then the ranking applied to the two final positions (appended to `items`:
    Ben's end and the lead of the ranking's steps); the steps, or None in a game of one."""
    r, anna, ben = self.rules, w.winners[0], _other(w)
    if ben is None:
        return None
    a_forms, b_forms = self.p.forms("sheet.example.a"), self.p.forms("sheet.example.b")
    final = {anna: _player(self, w.at_end[anna], anna), ben: _player(self, w.at_end[ben], ben)}
    eligible = r.winners.eligible
    restricted = eligible is not None and not (isinstance(eligible, Bool) and eligible.value)
    steps: list[Item] = []
    if restricted and not _holds(r, eligible, final[ben]):
        ph = self.named("sheet.example.a")
        ph.main_clause = True
        _know(ph, w.at_end[anna])
        items.append(
            Item(
                sentence(self.text("sheet.example.only_eligible", **names, cond=ph.condition(eligible))),
                "",
                self.marks("winners.eligible"),
            )
        )
        steps.append(Item(sentence(self.text("sheet.example.wins", **self.p.named("winner", a_forms)))))
        return steps
    levels, decided = _levels(r, final[anna], final[ben])
    tied = bool(levels) and levels[0].winner is None
    key = "sheet.example.ben" if tied else "sheet.example.ben_ends"
    items.append(
        Item(
            sentence(
                self.text(
                    key,
                    **names,
                    total=self.count("noun.point", w.at_end[ben].prestige),
                    cards=self.count("attr.purchased.noun", len(w.at_end[ben].purchased)),
                )
            )
        )
    )
    marks: tuple[int, ...] = ()
    for out in levels:
        phrase = capitalise(self.rank_phrase(out.level))
        lm = self.marks(f"winners.ranking.{out.level.name}")
        marks += lm
        if out.winner is None:
            steps.append(Item(sentence(self.text("sheet.example.level_tie", level=phrase, x=out.values[0])), "", lm))
            continue
        winner, loser = (a_forms, b_forms) if out.winner == 0 else (b_forms, a_forms)
        steps.append(
            Item(
                sentence(
                    self.text(
                        "sheet.example.level_win",
                        level=phrase,
                        **self.p.named("winner", winner),
                        **self.p.named("loser", loser),
                        x=out.values[out.winner],
                        y=out.values[1 - out.winner],
                    )
                ),
                "",
                lm,
            )
        )
    if decided:
        steps.append(Item(sentence(self.text("sheet.example.wins", **self.p.named("winner", a_forms)))))
    items.append(Item(self.text("sheet.example.ranking"), "", marks))
    return steps


def _holds(rules: Rules, condition: Expr, player: example.Player) -> bool:
    """Does `condition` (over `player`) hold for a final position? True when it cannot be told."""
    try:
        return bool(example.Evaluator(rules, {"player": player})(condition))
    except example.Unsupported:
        return True


def _levels(rules: Rules, anna: example.Player, ben: example.Player) -> tuple[list[example.LevelOutcome], bool]:
    """The ranking levels applied to Anna and Ben in turn, up to the one that separates them;
    and whether one did (the engine says who won: a level it cannot evaluate here stops the walk)."""
    out: list[example.LevelOutcome] = []
    for level in rules.winners.ranking:
        try:
            a = example.Evaluator(rules, {"player": anna})(level.by)
            b = example.Evaluator(rules, {"player": ben})(level.by)
        except example.Unsupported:
            return out, False
        winner = None if a == b else (0 if (a > b) == (level.prefer == "highest") else 1)
        out.append(example.LevelOutcome(level, (a, b), winner))
        if winner is not None:
            return out, True
    return out, False
