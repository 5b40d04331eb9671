"""Sheets, content: the house rules box -- each rule a variant changed (a group of changes),
numbered as its marks in the body are, with what the element now says and the variant's note.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...check.reach import reached
from ...front.expr import Bool
from ...model import Rules
from ..facts import change_group, decision_nodes, value_names
from ..phrases import Phraser, capitalise, explain_definition, join, sentence
from .tree import HouseRule, Item

if TYPE_CHECKING:  # the class these functions are bound to (the package re-exports it)
    from . import Builder


# The sections whose every element the body of a sheet states in full, with its house rule's mark.
_TOLD_IN_THE_BODY = ("actions", "end_of_turn", "prestige", "state")


def house_rules(self: Builder) -> list[HouseRule]:
    out = []
    for number, group in enumerate(self.groups, 1):
        folded = [v for v, into in self.folded.items() if into == group]
        changes = [c for c in self.rules.changes if change_group(c.path) in (group, *folded)]
        kinds = {c.kind for c in changes if c.path == group}
        kind = "remove" if "remove" in kinds else "add" if "add" in kinds else "set"
        if kind == "set" and all(c.path == f"{group}.position" for c in changes):
            kind = "move"  # only its place in the order changed (before/after)
        notes: list[str] = []
        notes_en: list[str] = []
        for c in changes:
            note = self.spec_text(c.note)
            into = notes_en if self.is_english_only(c.note) else notes
            if note and note not in into:
                into.append(note)
        lead, text = self.describe_group(group, kind)
        if self.compact and kind != "remove" and group.split(".")[0] in _TOLD_IN_THE_BODY:
            text = ""
        rows = [group] + [g for g in folded if g.startswith("players.")]
        if len(rows) > 1:
            lead = self.text(
                "sheet.house.players_many", counts=join(self.t, sorted((g.split(".")[1] for g in rows), key=int))
            )
        if kind == "set" and group in self.row_fields:  # only what changed (alike in each row), and what it was
            text = sentence(join(self.t, [self.row_field_was(rows, f, v) for f, v in self.row_fields[group]]))
        for value in (g for g in folded if g.startswith("values.")):  # the number it replaces, if the base had one
            now, was = self.element(self.rules, value), self.element(self.base, value)
            if text and now is not None and was is not None and now.value != was.value:
                text += " " + self.text("sheet.house.was_number", old=was.value, new=now.value)
        out.append(HouseRule(number, self.text(f"sheet.house.{kind}"), lead, text, " ".join(notes), " ".join(notes_en)))
    return out


def row_field(self: Builder, field: str, value) -> str:
    """One field of a player-count row as the house rules say it ("0 nobles", "5 gold tokens")."""
    if field == "gold":
        n = self.count("noun.token.lit", value, colour=self.t.form(f"colour.{self.rules.wild}.adj", value))
    else:
        n = self.count({"gems": "noun.token", "nobles": "noun.noble", "face_up": "noun.card"}[field], value)
    return self.text(f"sheet.house.players_field.{field}", n=value, x=n)


def row_field_was(self: Builder, rows: list[str], field: str, value: object) -> str:
    """One changed field of the player-count rows `rows` (told as one), with the base game's value
    when every row had the same ("0 gold tokens (base game: 5)")."""
    said = self.row_field(field, value)
    olds = {getattr(self.element(self.base, g), field, None) for g in rows}
    if len(olds) != 1 or None in olds or value in olds:
        return said
    return self.text("sheet.house.was", text=said, old=olds.pop())


def element(self: Builder, rules: Rules | None, group: str):
    if rules is None:
        return None
    section, _, name = group.partition(".")
    if section == "actions":
        return next((d for d in rules.actions if d.name == name), None)
    if section == "end_of_turn":
        return next((d for d in rules.steps if d.name == name), None)
    if section == "end":
        return next((e for e in rules.end if e.name == name), None)
    if section == "setup":
        return next((s for s in rules.setup if s.name == name), None)
    if section == "define":
        return next((d for d in rules.definitions if d.name == name), None)
    if section == "prestige":
        return next((s for s in rules.prestige if s.name == name), None)
    if section == "state":
        return next((v for v in rules.variables if v.name == name), None)
    if section == "values":
        return next((v for v in rules.values if v.name == name), None)
    if section == "players":
        return next((p for p in rules.players if str(p.players) == name), None)
    if group == "first_player":
        return rules.first_player
    if group.startswith("winners.ranking."):
        return next((lv for lv in rules.winners.ranking if lv.name == group.split(".")[2]), None)
    return None


def describe_group(self: Builder, group: str, kind: str) -> tuple[str, str]:
    """(lead, text) of one house rule: what the element is, and what it now says."""
    now = self.element(self.rules, group) if kind != "remove" else None
    was = self.element(self.base, group)
    section = group.split(".")[0]
    for told in (_rule_or_value, _declared, _end_or_readings):
        said = told(self, group, section, now, was)
        if said is not None:
            return said
    return self.text("sheet.house.other"), ""


def _rule_or_value(self: Builder, group: str, section: str, now, was) -> tuple[str, str] | None:
    """An action, a step, a value, a player-count row or the setup table's columns (`now`: the
    element as the rules have it, None when removed; `was`: as the base had it), else None."""
    r = self.rules
    if section in ("actions", "end_of_turn"):
        d = now or was
        if d is None:  # removed by a variant this one extends: the base shown has it no more
            return self.text(f"sheet.house.section.{section}"), ""
        owner = r if now else self.base
        assert owner is not None  # `was` (not None when `now` is) came from the base
        collection = owner.actions if section == "actions" else owner.steps
        lead = self.headline(d, collection.index(d) + 1, section == "end_of_turn")
        if now is None:
            return lead, ""
        item = self.decision_item(now, collection.index(now) + 1, section, section == "end_of_turn", False)
        return lead, item.text
    if section == "values":
        v = now or was
        users = self.value_users(v.name if v else group.split(".")[1])
        # told by a rule that is not a house rule of its own, when one uses it
        users = [u for u in users if u[0] not in self.groups] + [u for u in users if u[0] in self.groups]
        told = [(headline, phrase) for _, headline, phrase in users]
        lead = told[0][0] if told else self.text("sheet.house.value")
        if now is None:
            return lead, ""
        text = told[0][1] if told else str(now.value)
        if was is not None and was.value != now.value:
            text = self.text("sheet.house.was", text=text, old=was.value)
        return lead, sentence(text)
    if section == "players":
        p = now or was
        lead = self.text("sheet.house.players", n=p.players if p else 0)
        if now is None:
            return lead, ""
        wild = self.t.form(f"colour.{r.wild}.adj")
        row = self.text(
            "sheet.house.players_row",
            gems=self.count("noun.token", now.gems),
            gold=self.count("noun.token.lit", now.gold, colour=wild),
            nobles=self.count("noun.noble", now.nobles),
            face_up=self.count("noun.card", now.face_up),
        )
        declared = [
            self.text("sheet.house.players_declared", title=self.spec_text(f.title), n=now.field(f.name))
            for f in r.player_fields
        ]  # the spec's own columns, as the setup table titles them
        return lead, sentence(join(self.t, [row] + declared) if declared else row)
    if section == "player_fields":  # a new column of the setup table: its values are in the rows' rules
        titles = [self.spec_text(f.title) for f in r.player_fields]
        return self.text("sheet.house.player_fields"), sentence(
            self.text("sheet.house.player_fields.columns", n=len(titles), titles=join(self.t, titles))
        ) if titles else ""
    return None


def _declared(self: Builder, group: str, section: str, now, was) -> tuple[str, str] | None:
    """A setup block, a definition, a prestige source, a variable, the spec's zones or kinds, else None."""
    r = self.rules
    if section == "setup":
        block = now or was
        lead = self.spec_text(block.title) if block is not None else self.text("sheet.setup.title")
        return lead, (self.setup_item(now).text if now is not None else "")
    if section == "define":
        return self.text("sheet.house.define"), (self.definition_item(now).text if now is not None else "")
    if section == "prestige":
        source = now or was
        lead = self.spec_text(source.title) if source is not None else self.text("sheet.goal.lead")
        return lead, (self.prestige_item(now).text if now is not None else "")
    if section == "state":
        var = now or was
        lead = self.spec_text(var.title) if var is not None else self.text("sheet.setup.title")
        return lead, (self.state_item(now).text if now is not None else "")
    if section == "zones":  # the spec's own zones: how they are dealt
        return self.text("sheet.house.zones"), " ".join(item.text for item in self.zone_items())
    if section == "kinds":
        name = group.partition(".")[2]
        kinds = [k for k in r.kinds if k.name == name or not name and k.name in reached(r)]
        if not kinds:
            return self.text("sheet.house.other"), ""
        return (
            join(self.t, [self.spec_text(k.title) for k in kinds]),
            " ".join(sentence(self.text("sheet.house.kind", count=self.counted(k, len(k.components)))) for k in kinds),
        )
    return None


def _end_or_readings(self: Builder, group: str, section: str, now, was) -> tuple[str, str] | None:
    """An end trigger, a ranking level, the readings, who starts or who may win, else None."""
    r = self.rules
    if section == "end":
        lead = self.text("sheet.house.end")
        if now is None:
            return lead, ""
        cond = self.you().condition(now.when)
        return lead, sentence(self.text("sheet.end.trigger", cond=cond, finish=self.text(f"sheet.finish.{now.finish}")))
    if group.startswith("winners.ranking."):
        lv = now or was
        lead = self.text("sheet.rank.title")
        if now is None or lv is None:
            return lead, capitalise(self.rank_phrase(lv)) if lv else ""
        position = r.winners.ranking.index(now) + 1
        return lead, sentence(self.text("sheet.house.rank", n=position, x=self.rank_phrase(now)))
    if group in ("interpretations", "handling"):  # the lines this variant's own file states, as written
        own = [
            sentence(self.spec_text(text))
            for i, text in enumerate(getattr(r, group))
            if (span := r.spans.get(f"{group}.{i}")) is not None and span.file == r.source.path
        ]
        return self.text("sheet.house.readings" if group == "interpretations" else "sheet.setup.handling"), " ".join(
            own
        )
    if group == "first_player":
        return self.text("sheet.glance.first"), sentence(self.spec_text(r.first_player)) if now is not None else ""
    if group == "winners.eligible" or group == "winners":
        w = r.winners
        if isinstance(w.eligible, Bool) and w.eligible.value:
            return self.text("sheet.glance.winner"), sentence(self.winner_summary())
        return self.text("sheet.glance.winner"), sentence(
            self.text("sheet.winner.eligible", cond=self.you_player().condition(w.eligible))
        )
    return None


def value_users(self: Builder, name: str) -> list[tuple[str, str, str]]:
    """(group, headline, phrase) of each rule whose condition uses the value `name`."""
    r = self.rules
    out = []
    for section, decisions in (("actions", r.actions), ("end_of_turn", r.steps)):
        for i, d in enumerate(decisions):
            p = Phraser(self.lang, r, d, table=self.table)
            said = self.idiom(d, section == "end_of_turn")
            if said is not None and name in value_names(r, decision_nodes(d)):  # the idiom holds the number
                out.append((f"{section}.{d.name}", self.headline(d, i + 1, section == "end_of_turn"), said[0]))
                continue
            for node, key in ((d.while_, "sheet.step.while"), (d.condition, "sheet.condition")):
                if node is not None and name in value_names(r, [node]):
                    out.append(
                        (
                            f"{section}.{d.name}",
                            self.headline(d, i + 1, section == "end_of_turn"),
                            self.text(key, cond=p.condition(node)),
                        )
                    )
                    break
    for e in r.end:
        if name in value_names(r, [e.when]):
            out.append(
                (
                    f"end.{e.name}",
                    self.text("sheet.house.end"),
                    self.text(
                        "sheet.end.trigger",
                        cond=self.you().condition(e.when),
                        finish=self.text(f"sheet.finish.{e.finish}"),
                    ),
                )
            )
    return out


def definition_item(self: Builder, definition) -> Item:
    """A definition as a house rule: what its title means."""
    title, meaning = explain_definition(definition, self.lang, self.rules, self.table)
    keys = {"condition": "sheet.define.means", "list of effects": "sheet.define.does"}  # else a value
    key = keys.get(str(definition.result), "sheet.define.means_value")
    return self.with_text(
        self.note_item(
            sentence(self.text(key, title=title, meaning=meaning)),
            self.text("sheet.house.define"),
            self.marks(f"define.{definition.name}"),
            definition.note,
        ),
        definition,
    )
