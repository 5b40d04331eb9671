"""Sheets, content: the worked example -- two players' scores at the end, the trigger and the
ranking levels applied to them (the numbers from :mod:`..example`).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .. import example
from ..facts import effect_names, value_names
from ..phrases import PLAYER, Phraser, Ref, capitalise, sentence
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
    r = self.rules
    with_nobles = any("visit" in effect_names(d.effects) for d in r.steps + r.actions)
    s = example.scoring(r, with_nobles)
    if s is None:
        return None
    anna, ben = s.anna, s.ben
    a_forms, b_forms = self.p.forms("sheet.example.a"), self.p.forms("sheet.example.b")
    names = {**self.p.named("a", a_forms), **self.p.named("b", b_forms)}
    card_points = sum(c.points for c in anna.purchased)
    noble_points = sum(n.points for n in anna.nobles)
    total = anna.attribute("prestige")
    items = []
    cards = self.count("attr.purchased.noun", len(anna.purchased))
    worth = self.count("noun.point", card_points)
    if anna.nobles:
        text = self.text("sheet.example.anna_nobles", **names, cards=cards, worth=worth,
                         nobles=self.text("sheet.example.nobles", n=len(anna.nobles)),
                         noble_worth=self.count("noun.point", noble_points),
                         sum=f"{card_points} + {noble_points} = {total}",
                         total=self.count("noun.point", total))
    else:
        text = self.text("sheet.example.anna", **names, cards=cards, worth=worth,
                         total=self.count("noun.point", total))
    items.append(Item(sentence(text)))
    if anna.reserved and any(effect_names(d.effects) & {"reserve", "reserve_top"} for d in r.actions):
        items.append(Item(sentence(self.text("sheet.example.reserved", **names,
                                             worth=self.count("noun.point", anna.reserved[0].points)))))
    marks: tuple[int, ...] = ()
    if s.trigger is not None and s.target is not None:
        said = self.named("sheet.example.a")
        said.known["me.prestige"] = total
        cond = said.condition(s.trigger.when)
        items.append(Item(sentence(self.text("sheet.example.trigger", cond=cond,
                                             finish=self.text(f"sheet.finish.{s.trigger.finish}"))),
                          "", self.marks(f"end.{s.trigger.name}",
                                         *(f"values.{v}" for v in value_names(r, [s.trigger.when])))))
        last = example.last_card(ben) if ben is not None else None
        if s.trigger.finish == "complete_round" and ben is not None and last is not None:
            items.append(Item(sentence(self.text(
                "sheet.example.final_round", **names, worth=self.count("noun.point", last.points),
                total=self.count("noun.point", ben.attribute("prestige")))), "",
                self.marks(f"end.{s.trigger.name}")))
    if ben is not None and s.levels:
        items.append(Item(sentence(self.text("sheet.example.ben", **names,
                                             total=self.count("noun.point", ben.attribute("prestige")),
                                             cards=self.count("attr.purchased.noun", len(ben.purchased))))))
        steps = []
        for out in s.levels:
            phrase = capitalise(self.rank_phrase(out.level))
            lm = self.marks(f"winners.ranking.{out.level.name}")
            marks += lm
            if out.winner is None:
                steps.append(Item(sentence(self.text("sheet.example.level_tie", level=phrase,
                                                     x=out.values[0])), "", lm))
            else:
                winner, loser = (a_forms, b_forms) if out.winner == 0 else (b_forms, a_forms)
                wv, lv = out.values[out.winner], out.values[1 - out.winner]
                steps.append(Item(sentence(self.text(
                    "sheet.example.level_win", level=phrase, **self.p.named("winner", winner),
                    **self.p.named("loser", loser), x=wv, y=lv)), "", lm))
        if s.decided is not None:
            winner = a_forms if s.levels[s.decided].winner == 0 else b_forms
            steps.append(Item(sentence(self.text("sheet.example.wins", **self.p.named("winner", winner)))))
        elif s.complete:
            steps.append(Item(sentence(self.text("sheet.example.shared", **names)), "",
                              self.marks("winners.ties")))
        items.append(Item(self.text("sheet.example.ranking"), "", marks))
        return Section("example", self.text("sheet.example.title"), [Part("para", items), Part("steps", steps)])
    return Section("example", self.text("sheet.example.title"), [Part("para", items)])
