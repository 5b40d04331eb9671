"""Sheets, content: the :class:`Builder` of a sheet -- what it knows of the rules (the changed
groups a variant numbers as house rules, the marks) and the helpers every section uses."""

from __future__ import annotations

from ...model import Decision, Rules, Text
from .. import tables
from ..facts import change_group, decision_nodes, related, shape, value_names
from ..phrases import Phraser
from ..worked_game import WorkedGame
from . import authored as _authored
from . import decisions as _decisions
from . import ending as _ending
from . import faq as _faq
from . import glance as _glance
from . import house as _house
from . import mistakes as _mistakes
from . import scoring as _scoring
from . import setup as _setup
from . import sheet as _sheet
from . import summary as _summary
from . import turn as _turn
from . import worked as _worked
from .tree import Item, Sheet


class Builder:
    """Builds the :class:`Sheet` of one rule model in one language.

    Its helpers are here; the methods that build each section live in that section's module
    and are bound below, so that every one still reaches any other as ``self.x``."""

    def __init__(
        self,
        rules: Rules,
        lang: str,
        base: Rules | None = None,
        table: tables.Table | None = None,
        compact: int = 0,
        worked: WorkedGame | None = None,
    ):
        self.rules = rules
        self.lang = lang
        self.worked = worked  # the real game the worked example tells (None: no example)
        # compact (0 to COMPACT_LEVELS): how much of what restates or illustrates a rule gives way, so
        # that a printed sheet fits two pages (render.printed tries each level in turn); never a rule.
        # 1: the house rules box names a changed rule whose full text the body holds (an action, a step,
        # a prestige source, a variable, each marked with its number there) by its title and note only,
        # and the pictures (a card, the table) go; 2: the worked example; 3: the questions; 4: the end
        # told again "as it is played" and the common mistakes.
        self.compact = compact
        self.base = base
        self.table = table or tables.load(lang)
        self.p = Phraser(lang, rules, table=self.table)
        self.t = self.p.t
        changed: list[str] = []
        for c in rules.changes:
            if c.path.endswith(".text") or c.path.split(".")[0] == "sections":  # new wording is no house rule:
                continue  # the rule is the same (a rule's `text`, a section's)
            g = change_group(c.path)
            if g not in changed:
                changed.append(g)
        # A changed value whose every user is a changed rule is told as part of the first of
        # them (whose text already shows the new number), not as a house rule of its own
        # that would repeat that rule's title.
        self.folded: dict[str, str] = {}
        for g in changed:
            users = self.value_user_groups(g.split(".", 1)[1]) if g.startswith("values.") else []
            if users and all(u in changed for u in users):
                self.folded[g] = users[0]
        # Player-count rows removed for the same reason are one house rule ("Removed: Setup
        # for 2, 3 and 4 players"), told with the first of them.
        removed: dict[str, str] = {}
        for c in rules.changes:
            if c.kind == "remove" and c.path.startswith("players.") and c.path == change_group(c.path):
                reason = self.spec_text(c.note)
                if reason in removed:
                    self.folded[c.path] = removed[reason]
                else:
                    removed[reason] = c.path
        # Player-count rows changed alike (the same fields to the same numbers, for the same reason) are
        # one house rule too ("Changed: Setup for 2, 3 and 4 players: 0 nobles"), told by those fields.
        self.row_fields: dict[str, list[tuple[str, object]]] = {}
        alike: dict[tuple, str] = {}
        for g in changed:
            fields = self.changed_row_fields(g)
            if not fields:
                continue
            key = (tuple(fields), self.spec_text(next(c.note for c in rules.changes if change_group(c.path) == g)))
            if key in alike:
                self.folded[g] = alike[key]
            else:
                alike[key] = g
                self.row_fields[g] = fields
        self.groups: list[str] = [g for g in changed if g not in self.folded]  # house-rule numbers: index + 1
        self.values = {v.name: v.value for v in rules.values}

    def changed_row_fields(self, group: str) -> list[tuple[str, object]]:
        """(field, new value) of each field a variant sets on an existing player-count row, in path
        order; [] when the group is no such row or the row was added or removed."""
        if not group.startswith("players."):
            return []
        changes = [c for c in self.rules.changes if change_group(c.path) == group]
        row = self.element(self.rules, group)
        if row is None or not changes or any(c.kind != "set" or c.path.count(".") != 2 for c in changes):
            return []
        fields = [c.path.split(".")[2] for c in changes]
        if any(not hasattr(row, f) for f in fields):
            return []
        return [(f, getattr(row, f)) for f in fields]

    def text(self, key: str, n: int | None = None, **fields) -> str:
        return self.t.text(key, n, **fields)

    def spec_text(self, text: Text | None) -> str:
        """A text written in the spec, in this language (English when it has no translation)."""
        if text is None:
            return ""
        return text.get(self.lang) or text.en

    def is_english_only(self, text: Text | None) -> bool:
        """Is `text` shown in English on this sheet for want of a translation (E610)?"""
        return text is not None and self.lang != "en" and not text.get(self.lang)

    def note_item(self, text: str, lead: str, marks: tuple[int, ...], note: Text | None) -> Item:
        """An item with a variant's note (only where the item is marked), in its language."""
        shown = self.spec_text(note) if marks and note is not None else ""
        if shown and self.is_english_only(note):
            return Item(text, lead, marks, note_en=shown)
        return Item(text, lead, marks, shown)

    def marks(self, *paths: str) -> tuple[int, ...]:
        paths = tuple(self.folded.get(change_group(p), p) for p in paths if p)
        return tuple(i + 1 for i, g in enumerate(self.groups) if any(related(g, p) for p in paths))

    def value_user_groups(self, name: str) -> list[str]:
        """The rule elements whose conditions, effects or prices use the value `name`, in sheet order."""
        r = self.rules
        users = [
            f"{section}.{d.name}"
            for section, decisions in (("actions", r.actions), ("end_of_turn", r.steps))
            for d in decisions
            if name in value_names(r, decision_nodes(d))
        ]
        users += [f"end.{e.name}" for e in r.end if name in value_names(r, [e.when])]
        users += [f"winners.ranking.{lv.name}" for lv in r.winners.ranking if name in value_names(r, [lv.by])]
        if name in value_names(r, [r.winners.eligible]):
            users.append("winners.eligible")
        return users

    def marks_of(self, *groups: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(sorted({m for g in groups for m in g}))

    def decision_paths(self, d: Decision, section: str) -> list[str]:
        return [f"{section}.{d.name}"] + [f"values.{v}" for v in sorted(value_names(self.rules, decision_nodes(d)))]

    def count(self, noun_key: str, n: int, **fields) -> str:
        return self.text("count.n", n=n, noun=self.text(noun_key, n=n, **fields))

    def headline(self, d: Decision, index: int, is_step: bool) -> str:
        own = d.title.get(self.lang)
        if own:
            return own
        s = shape(d)
        if s == "other":
            return self.text("sheet.headline.step" if is_step else "sheet.headline.action", n=index)
        return self.text(f"sheet.headline.{s}")

    def noun_of(self, node) -> str | None:
        """'prestige points' for `player.prestige`: the plural noun of a counted quantity."""
        form = self.p.count_form(node)
        if form is None:
            return None
        _, noun_key, fields = form
        if self.table.has(noun_key + ".rank"):  # "purchased development cards", where the count says "purchased"
            noun_key += ".rank"
        return self.t.text(noun_key, n=None, **fields)

    def rank_phrase(self, level) -> str:
        noun = self.noun_of(level.by)
        if noun is not None:
            return self.text(f"sheet.rank.{'most' if level.prefer == 'highest' else 'fewest'}", noun=noun)
        return self.text(f"sheet.rank.{level.prefer}", x=self.p.number(level.by))

    def you(self) -> Phraser:
        return Phraser(self.lang, self.rules, table=self.table)

    def you_player(self) -> Phraser:
        """A phraser in which `player` (of the winners section) is "you"."""
        ph = Phraser(self.lang, self.rules, table=self.table)
        ph.scope["player"] = ph.scope["me"]
        return ph

    # authored.py
    told = _authored.told
    with_text = _authored.with_text
    told_section = _authored.told_section

    # sheet.py
    build = _sheet.build
    left_out = _sheet.left_out
    colour_words = _sheet.colour_words

    # glance.py
    players_phrase = _glance.players_phrase
    glance = _glance.glance
    first_player = _glance.first_player
    trigger_paths = _glance.trigger_paths
    winner_summary = _glance.winner_summary

    # summary.py
    rare_trigger = _summary.rare_trigger
    summary = _summary.summary
    action_lines = _summary.action_lines
    step_line = _summary.step_line

    # scoring.py
    scoring = _scoring.scoring
    card_picture = _scoring.card_picture
    prestige_item = _scoring.prestige_item

    # setup.py
    setup = _setup.setup
    table_picture = _setup.table_picture
    fewer_players = _setup.fewer_players
    zone_items = _setup.zone_items
    split_deal = _setup.split_deal
    counted = _setup.counted
    handling = _setup.handling
    setup_column = _setup.setup_column
    kind_tables = _setup.kind_tables
    component_cells = _setup.component_cells
    setup_blocks = _setup.setup_blocks
    setup_item = _setup.setup_item
    state_item = _setup.state_item
    state_type = _setup.state_type
    state_value = _setup.state_value

    # decisions.py
    choice_phrase = _decisions.choice_phrase
    source_title = _decisions.source_title
    one_of = _decisions.one_of
    idiom = _decisions.idiom
    decision_item = _decisions.decision_item
    folded_choice = _decisions.folded_choice
    price_sentence = _decisions.price_sentence
    actions_of = _decisions.actions_of
    rare_item = _decisions.rare_item
    limit_step = _decisions.limit_step

    # turn.py
    turn = _turn.turn
    tokens = _turn.tokens
    reserving = _turn.reserving
    buying = _turn.buying
    tokens_list = _turn.tokens_list
    purchase_text = _turn.purchase_text
    nobles = _turn.nobles
    noble_picture = _turn.noble_picture

    # ending.py
    ending = _ending.ending

    # worked.py
    named = _worked.named
    worked_example = _worked.worked_example

    # faq.py
    faq = _faq.faq
    wild_only_if_left = _faq.wild_only_if_left
    needs_deck = staticmethod(_faq.needs_deck)

    # mistakes.py
    mistakes = _mistakes.mistakes

    # house.py
    house_rules = _house.house_rules
    row_field = _house.row_field
    row_field_was = _house.row_field_was
    element = _house.element
    describe_group = _house.describe_group
    value_users = _house.value_users
    definition_item = _house.definition_item


COMPACT_LEVELS = 4  # see Builder: the most a sheet gives way to fit two printed pages


def build(
    rules: Rules,
    lang: str,
    base: Rules | None = None,
    table: tables.Table | None = None,
    compact: int = 0,
    worked: WorkedGame | None = None,
) -> Sheet:
    """The sheet of `rules` in `lang` (`base`: the rules a variant extends, for old values;
    `compact`: how much of what restates or illustrates a rule gives way, 0 to COMPACT_LEVELS;
    `worked`: the game its worked example tells, played by the spec's engine
    (``compiler.pipeline.worked_game``); without one the sheet has no worked example)."""
    return Builder(rules, lang, base, table, compact, worked).build()
