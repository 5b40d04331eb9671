"""Sheets, content: the rule model -> the text of a reference sheet in one language.

Takes a :class:`~compiler.model.Rules` and a language; returns a :class:`Sheet`, a
plain tree of sections, paragraphs, lists and one table, every string final (phrased,
plural forms chosen) but not yet marked up. The templates of :mod:`.render` only lay
it out. All decisions are made here, from the model: which actions belong to which
topic (by their effects), which common mistakes apply (by what the rules say), which
items a variant changed (by the paths of ``rules.changes``).

Every number is read from the model; the words come from the language table.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..check.zones import reached
from ..front.expr import Bool, Effect, Index, Name, When, unparse, walk
from ..front.source import shown_path
from ..model import Decision, Rules, Text
from . import example, pictures, tables
from .example import prestige_target
from .facts import (
    action_kind,
    change_group,
    decision_nodes,
    effect_names,
    held_limit,
    noble_visit,
    rare,
    rare_trigger,
    related,
    return_to_limit,
    shape,
    take_different,
    topic,
    uses_attribute,
    value_names,
    wild_sources,
)
from .phrases import PLAYER, Phraser, Ref, capitalise, explain_definition, join, sentence, state_type_key

# ---------------------------------------------------------------------------- the sheet tree


@dataclass
class Item:
    """A paragraph or a list entry: an optional bold lead, the text, the house-rule marks."""

    text: str
    lead: str = ""
    marks: tuple[int, ...] = ()
    note: str = ""  # a variant's note, shown in small type
    note_en: str = ""  # the same, written only in English: shown in English, marked as such


@dataclass
class Grid:
    header: list[str]
    rows: list[list[str]]
    marks: list[tuple[int, ...]]  # per row


@dataclass
class Part:
    """One block of a section: a paragraph list, a bullet/numbered list, a sub-heading or a table."""

    # "para", "list", "steps" (numbered), "heading", "grid", "qa" (lead: a question),
    # "picture" (HTML and PDF only)
    kind: str
    items: list[Item] = field(default_factory=list)
    grid: Grid | None = None
    title: str = ""
    picture: pictures.CardPicture | pictures.TablePicture | None = None


@dataclass
class Section:
    key: str
    title: str
    parts: list[Part]
    marks: tuple[int, ...] = ()


@dataclass
class HouseRule:
    number: int
    kind: str  # "set", "add", "remove" (as words)
    lead: str
    text: str
    note: str
    note_en: str = ""  # the notes written only in English (shown marked as English)


@dataclass
class Sheet:
    lang: str
    title: str
    subtitle: str
    source: str  # "rulespec/official.yaml"
    sha256: str
    bases: list[tuple[str, str]]  # (path, sha256), nearest first
    source_line: str  # the printed provenance line
    house_title: str
    house_intro: str
    house: list[HouseRule]
    sections: list[Section]
    labels: dict[str, str]  # a few words the templates need (mark, language name)
    summary_title: str = ""
    summary: list[Item] = field(default_factory=list)  # the turn summary box, in the order of a turn
    colour_words: pictures.Words | None = None  # the words that name a colour: a swatch goes beside them
    title_lang: str = ""  # "en" when the title is the English one (no text in the sheet's language)
    subtitle_en: str = ""  # the variant's description, when it has no text in the sheet's language


# ---------------------------------------------------------------------------- the builder


def _conjuncts(node) -> list:
    """The parts of a condition joined by 'and'."""
    if getattr(node, "op", None) == "and":
        return _conjuncts(node.left) + _conjuncts(node.right)
    return [node]


class Builder:
    """Builds the :class:`Sheet` of one rule model in one language."""

    def __init__(self, rules: Rules, lang: str, base: Rules | None = None, table: tables.Table | None = None,
                 compact: int = 0):
        self.rules = rules
        self.lang = lang
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

    # ------------------------------------------------------------------ helpers

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
        users = [f"{section}.{d.name}" for section, decisions in (("actions", r.actions), ("end_of_turn", r.steps))
                 for d in decisions if name in value_names(r, decision_nodes(d))]
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

    # ------------------------------------------------------------------ the sheet

    def build(self) -> Sheet:
        r = self.rules
        title = self.spec_text(r.title)
        subtitle = r.description.get(self.lang) or ""
        # A description written only in English is shown (in English, marked as such), never dropped.
        subtitle_en = sentence(r.description.en) if not subtitle and r.description.en else ""
        if r.bases:
            base_title = self.spec_text(self.base.title) if self.base is not None else r.bases[0].name
            variant_of = sentence(self.text("sheet.variant_of", base=base_title))
            if subtitle and sentence(subtitle).casefold() == variant_of.casefold():
                subtitle = ""  # `new` writes this very description: said once
            base_title_en = self.base.title.en if self.base is not None else r.bases[0].name
            english = sentence(tables.load("en").text("sheet.variant_of", base=base_title_en))
            if subtitle_en.casefold() == english.casefold():
                subtitle_en = ""  # `new` writes this description in English: the line above says it
            subtitle = variant_of + (" " + sentence(subtitle) if subtitle else "")
        bases = [(shown_path(b.path), b.sha256) for b in r.bases]  # never an absolute path in a sheet
        source_line = self.text("sheet.source", path=shown_path(r.source.path), sha=r.source.sha256)
        for path, sha in bases:
            source_line += " " + self.text("sheet.source_base", path=path, sha=sha)
        sections = [self.glance(), self.scoring(), self.setup(), self.turn()]
        sections += [s for s in (self.tokens(), self.reserving(), self.buying(), self.nobles()) if s is not None]
        sections += [self.ending(), self.worked_example() if self.compact < 2 else None,
                     self.faq() if self.compact < 3 else None, self.mistakes() if self.compact < 4 else None]
        shown = [s for s in sections if s is not None and s.parts]
        return Sheet(
            lang=self.lang, title=title, subtitle=subtitle, source=shown_path(r.source.path), sha256=r.source.sha256,
            bases=bases, source_line=source_line,
            house_title=self.text("sheet.house.title"),
            house_intro=self.text("sheet.house.intro", mark=self.text("sheet.mark")) if self.groups else "",
            house=self.house_rules(), sections=shown,
            labels={"mark": self.text("sheet.mark"), "lang": self.lang, "note": self.text("sheet.note"),
                    "colon": self.text("sheet.colon"), "in_english": self.text("sheet.in_english")},
            summary_title=self.text("sheet.summary.title"), summary=self.summary(),
            colour_words=self.colour_words(),
            title_lang="en" if self.is_english_only(r.title) else "", subtitle_en=subtitle_en)

    # ------------------------------------------------------------------ at a glance

    def players_phrase(self) -> str:
        counts = [p.players for p in self.rules.players]
        if not counts:
            return ""
        if len(counts) == 1:
            return self.text("sheet.players.one", n=counts[0])
        if counts == list(range(counts[0], counts[-1] + 1)):
            return self.text("sheet.players.range", a=counts[0], b=counts[-1], n=counts[-1])
        return self.text("sheet.players.list", items=join(self.t, [str(c) for c in counts], "or"), n=counts[-1])

    def glance(self) -> Section:
        r = self.rules
        items = [Item(sentence(self.players_phrase()), self.text("sheet.glance.players"),
                      self.marks("players"))]
        items.append(Item(self.first_player(), self.text("sheet.glance.first"), self.marks("first_player")))
        kinds = {action_kind(d) for d in r.actions if not rare(d)}
        items.append(Item(sentence(self.text("sheet.glance.turn_text", n=len(kinds),
                                             steps=len(r.steps))), self.text("sheet.glance.turn")))
        # The end as it is played (the trigger, then how the game finishes); an end that only a
        # rare case brings is told in the section, not in the summary.
        headline_ends = [e for e in r.end if not rare_trigger(e, r)] or list(r.end)
        ends = [sentence(self.text("sheet.glance.end_text", cond=self.you().condition(e.when),
                                   finish=self.text(f"sheet.finish.{e.finish}"))) for e in headline_ends]
        items.append(Item(" ".join(ends), self.text("sheet.glance.end"),
                          self.marks(*self.trigger_paths(headline_ends))))
        items.append(Item(sentence(self.winner_summary()), self.text("sheet.glance.winner"),
                          self.marks("winners")))
        return Section("glance", self.text("sheet.glance.title"), [Part("para", items)])

    def first_player(self) -> str:
        """Who starts (the spec's words, or: agree on it) and the order of play, which the language fixes."""
        who = self.spec_text(self.rules.first_player) or self.text("sheet.order.agree")
        return sentence(who) + " " + sentence(self.text("sheet.order.clockwise"))

    def trigger_paths(self, triggers=None) -> list[str]:
        paths = []
        for e in self.rules.end if triggers is None else triggers:
            paths.append(f"end.{e.name}")
            paths += [f"values.{v}" for v in sorted(value_names(self.rules, [e.when]))]
        return paths

    def winner_summary(self) -> str:
        w = self.rules.winners
        levels = [self.rank_phrase(level) for level in w.ranking]
        if not levels:
            text = self.text("sheet.winner.all_tied")
        else:
            text = self.text("sheet.winner.first", x=levels[0])
            for extra in levels[1:]:
                text += self.text("sheet.winner.then", x=extra)
            text += self.text("sheet.winner.shared_tail")
        if not (isinstance(w.eligible, Bool) and w.eligible.value):
            eligible = self.text("sheet.winner.eligible", cond=self.you_player().condition(w.eligible))
            text = sentence(eligible) + " " + capitalise(text)
        return text

    # ------------------------------------------------------------------ goal and scoring

    def scoring(self) -> Section | None:
        """What gives prestige: the points on the spec's cards, level by level, and its nobles' points
        when a rule makes nobles visit (a player's prestige is the sum of the two)."""
        r = self.rules
        if not r.cards:
            return None
        visits = any("visit" in effect_names(d.effects) for d in r.actions + r.steps)
        key = "sheet.goal.sources_nobles" if visits and r.nobles else "sheet.goal.sources"
        items = [Item(sentence(self.text(key)), self.text("sheet.goal.lead"), self.marks("components"))]
        ranges = []
        for level in r.levels:
            points = [c.points for c in r.cards if c.level == level]
            lo, hi = min(points), max(points)
            ranges.append(self.text("sheet.goal.level_range" if lo != hi else "sheet.goal.level_one",
                                    level=level, a=lo, b=hi, n=hi))
        items.append(Item(sentence(join(self.t, ranges)), self.text("sheet.goal.cards_lead")))
        if visits and r.nobles:
            points = sorted({n.points for n in r.nobles})
            worth = (self.text("sheet.nobles.worth", n=points[0]) if len(points) == 1 else
                     self.text("sheet.nobles.worth_range", a=points[0], b=points[-1], n=points[-1]))
            items.append(Item(sentence(worth), self.text("sheet.goal.nobles_lead")))
        items += [self.prestige_item(source) for source in r.prestige]
        parts = [Part("para", items)]
        picture = self.card_picture() if not self.compact else None
        if picture is not None:
            parts.append(Part("picture", picture=picture))
        return Section("goal", self.text("sheet.goal.title"), parts)

    def card_picture(self) -> pictures.CardPicture | None:
        """The first card of the spec's table with prestige points and a cost in two colours or more."""
        r = self.rules
        card = next((c for c in r.cards if c.points > 0 and sum(1 for n in c.cost if n) >= 2), None)
        if card is None:
            return None
        cost = tuple((g, n) for g, n in zip(r.gems, card.cost, strict=True) if n > 0)
        cost_words = join(self.t, [self.count("noun.token.lit", n, colour=self.t.form(f"colour.{g}.adj", n))
                                   for g, n in cost])
        title = self.text("sheet.picture.card", level=card.level, points=self.count("noun.point", card.points),
                          bonus=self.text(f"colour.{r.gems[card.bonus]}"), cost=cost_words)
        return pictures.CardPicture(
            title=sentence(title), points=card.points, bonus=r.gems[card.bonus], cost=cost,
            label_points=capitalise(self.text("sheet.picture.points")),
            label_bonus=capitalise(self.text("sheet.picture.bonus")),
            label_cost=capitalise(self.text("sheet.picture.cost")))

    def table_picture(self) -> pictures.TablePicture | None:
        """The middle of the table for the most players the player-count table allows."""
        r = self.rules
        if not r.players or not r.levels:
            return None
        row = r.players[-1]
        tokens = tuple((g, row.gems) for g in r.gems) + (((r.wild, row.gold),) if row.gold else ())
        title = self.text("sheet.picture.table", n=row.players, players=row.players,
                          nobles=self.count("noun.noble", row.nobles), face_up=self.count("noun.card", row.face_up),
                          gems=self.count("noun.token", row.gems),
                          gold=self.count("noun.token.lit", row.gold,
                                          colour=self.t.form(f"colour.{r.wild}.adj", row.gold)))
        levels = tuple(reversed(r.levels))
        return pictures.TablePicture(
            title=sentence(title), caption=self.text("sheet.picture.table_caption", players=row.players, n=row.players),
            nobles=row.nobles, face_up=row.face_up, tokens=tokens,
            label_nobles=self.text("sheet.picture.nobles"),
            deck_labels=tuple(self.text("sheet.picture.deck", level=lv) for lv in levels))

    def colour_words(self) -> pictures.Words:
        """Every form of every colour's name in this language (the words a swatch goes beside)."""
        forms: dict[str, list[str]] = {}
        for colour in self.rules.colours:
            texts = forms.setdefault(colour, [])
            for key in (f"colour.{colour}", f"colour.{colour}.adj"):
                if self.table.has(key):
                    entry = self.table.entries[key]
                    texts += [entry] if isinstance(entry, str) else list(entry.values())
        return pictures.words(forms)

    # ------------------------------------------------------------------ the turn summary box

    def rare_trigger(self, e) -> bool:
        """A trigger only stuck players can fire (every pass is allowed only when stuck): told in the
        end section, not in the summary of an ordinary turn."""
        passes = [d for d in self.rules.actions if shape(d) == "pass"]
        uses_passes = any(isinstance(n, Name) and n.id == "passes" for n in walk(e.when))
        return uses_passes and bool(passes) and all(d.only_when_stuck for d in passes)

    def summary(self) -> list[Item]:
        """One turn, in order: the action, then each end-of-turn step and each end trigger as a check."""
        r = self.rules
        kinds: list[str] = []
        for i, d in enumerate(r.actions):
            if d.only_when_stuck:
                continue
            kind = topic(d, r)
            word = (self.text(f"sheet.summary.kind.{kind}") if kind != "other"
                    else self.text("sheet.quote", x=self.headline(d, i + 1, False)))
            if word not in kinds:
                kinds.append(word)
        # the line lists kinds of action: a variant changes it by adding or removing an action
        added_or_removed = [c.path for c in r.changes if c.kind in ("add", "remove") and c.path.startswith("actions.")
                            and c.path == change_group(c.path)]
        items = [Item(sentence(self.text("sheet.summary.action", items=join(self.t, kinds, "or"))),
                      self.text("sheet.summary.action_lead"), self.marks(*added_or_removed))]
        limit_step, limit = held_limit(r)
        for i, d in enumerate(r.steps):
            paths = self.decision_paths(d, "end_of_turn")
            if d is limit_step and return_to_limit(d, r) is not None:  # "tokens of your choice": the plain return
                text = self.text("sheet.summary.limit", n=limit)
            elif shape(d) == "visit" and d.repeat == "once" and d.resolve == "choice":
                text = self.text("sheet.summary.visit")
            elif shape(d) == "visit":
                text = self.text("sheet.summary.visit_all")
            else:
                text = self.headline(d, i + 1, True)
            items.append(Item(sentence(text), self.text("sheet.summary.check_lead"), self.marks(*paths)))
        trigger, target = prestige_target(r)
        for e in r.end:
            if self.rare_trigger(e):
                continue
            paths = [f"end.{e.name}"] + [f"values.{v}" for v in sorted(value_names(r, [e.when]))]
            if e is trigger and e.finish == "complete_round":
                text = self.text("sheet.summary.target", n=target)
            else:
                text = self.text("sheet.summary.trigger", cond=self.you().condition(e.when),
                                 finish=self.text(f"sheet.finish.{e.finish}"))
            items.append(Item(sentence(text), self.text("sheet.summary.end_lead"), self.marks(*paths)))
        return items

    # ------------------------------------------------------------------ setup

    def setup(self) -> Section:
        r = self.rules
        nobles = any(p.nobles for p in r.players)  # a module without nobles (the Cities) says nothing of them
        header = [capitalise(self.text("sheet.setup.col.players")), self.text("sheet.setup.col.gems"),
                  capitalise(self.text("sheet.setup.col.gold"))] + [self.text("sheet.setup.col.nobles")] * nobles + \
            [self.text("sheet.setup.col.face_up")] + [self.spec_text(f.title) for f in r.player_fields]
        rows, marks = [], []
        for p in r.players:
            rows.append([str(p.players), str(p.gems), str(p.gold)] + [str(p.nobles)] * nobles + [str(p.face_up)]
                        + [str(p.field(f.name)) for f in r.player_fields])
            marks.append(self.marks(f"players.{p.players}"))
        parts = [Part("grid", grid=Grid(header, rows, marks))]
        decks = []
        for level in r.levels:
            n = sum(1 for c in r.cards if c.level == level)
            decks.append(self.text("sheet.setup.deck", level=level, count=self.count("noun.card", n)))
        items = [
            Item(sentence(self.text("sheet.setup.decks", n=len(r.levels), decks=join(self.t, decks)))),
            Item(sentence(self.text("sheet.setup.nobles", n=len(r.nobles)))),
            Item(sentence(self.text("sheet.setup.tokens",
                                    colours=join(self.t, [self.text(f"colour.{c}") for c in r.gems]),
                                    n=len(r.gems)))),
        ]
        if not nobles:
            del items[1]
        items += self.zone_items()
        items += self.setup_blocks()
        items += [self.state_item(v) for v in self.rules.variables]
        parts.append(Part("list", items))
        parts += self.kind_tables()
        picture = self.table_picture() if not self.compact else None  # the text first, where room is short
        if picture is not None:
            parts.append(Part("picture", picture=picture))
        return Section("setup", self.text("sheet.setup.title"), parts)

    def zone_items(self) -> list[Item]:
        """The deal of the spec's own zones, after the base game's: a pile shuffled (a piece with
        faces showing one at random), a display or row laid out from its source."""
        items = []
        for zone in self.rules.zones:
            kind = next(k for k in self.rules.kinds if k.name == zone.holds)
            kind_title = self.spec_text(kind.title).lower()
            title = self.spec_text(zone.title)
            sizes = {n for _, n in zone.sizes}
            if zone.start == "all":
                text = self.text("sheet.setup.faces" if kind.faces_of else "sheet.setup.pile", kind=kind_title,
                                 zone=title)
            elif zone.start == "dealt" and len(sizes) == 1:
                [n] = sizes
                source = next((z for z in self.rules.zones if z.name == zone.source), None)
                if source is not None:
                    text = self.text("sheet.setup.deal", n=n, source=self.spec_text(source.title), zone=title)
                else:
                    text = self.text("sheet.setup.deal_kind", n=n, kind=kind_title, zone=title)
            elif zone.start == "dealt" and zone.size_field:  # as many as a column of the setup table shows
                source = next((z for z in self.rules.zones if z.name == zone.source), None)
                column = self.setup_column(zone.size_field)
                if source is not None:
                    text = self.text("sheet.setup.deal_column", source=self.spec_text(source.title), zone=title,
                                     column=column)
                else:
                    text = self.text("sheet.setup.deal_kind_column", kind=kind_title, zone=title, column=column)
            else:
                continue
            items.append(Item(sentence(text), marks=self.marks(f"zones.{zone.name}")))
        return items

    def setup_column(self, field: str) -> str:
        """The title of a column of the setup table: a built-in field's, or a declared one's own."""
        declared = next((f for f in self.rules.player_fields if f.name == field), None)
        return self.spec_text(declared.title) if declared is not None else self.text(f"sheet.setup.col.{field}")

    def kind_tables(self) -> list[Part]:
        """A table of each kind the rules reach (a zone or a variable holds it, or a choice is made from
        it): one row per component, its columns (a table by gem colour: one column per colour; a
        titled keyword by its title; prose columns too, as written)."""
        parts = []
        for name in reached(self.rules):
            kind = next(k for k in self.rules.kinds if k.name == name)
            header: list[str] = []
            for col in kind.columns:
                header += [self.text(f"colour.{g}") for g in self.rules.gems] if col.type == "gems" \
                    else [self.spec_text(col.title) if col.title is not None else col.name.replace("_", " ")]
            cells = [self.component_cells(kind, c) for c in kind.components]
            if kind.faces_of:  # one row per piece, its faces' values side by side ("13 / 14")
                pieces: dict[int, list[list[str]]] = {}
                for c, row in zip(kind.components, cells, strict=True):
                    pieces.setdefault(c.piece, []).append(row)
                # joined by non-breaking spaces: "1 / 2" stays on one line of a narrow column
                rows = [["\u00a0/\u00a0".join(dict.fromkeys(values)) for values in zip(*faces, strict=True)]
                        for faces in pieces.values()]
            else:
                rows = cells
            parts.append(Part("heading", title=self.text("sheet.kind.table", kind=self.spec_text(kind.title))))
            parts.append(Part("grid", grid=Grid(header, rows, [() for _ in rows])))
        return parts

    def component_cells(self, kind, component) -> list[str]:
        """A component's values as table cells (a table by gem colour: one cell per colour)."""
        row: list[str] = []
        for col, v in zip(kind.columns, component.values, strict=True):
            if col.type == "gems":
                row += [str(x) for x in v]
            elif col.type in ("gem", "colour"):
                row.append("" if v is None else self.text(f"colour.{self.rules.colours[v]}"))
            elif col.titles:  # a keyword the spec titles in each language
                row.append(self.spec_text(dict(col.titles)[v]))
            else:
                row.append(str(v))
        return row

    def setup_blocks(self) -> list[Item]:
        """The spec's setup blocks, after the deal: each one's effects phrased as for a turn,
        led by its title."""
        return [self.setup_item(block) for block in self.rules.setup]

    def setup_item(self, block) -> Item:
        text = self.text(f"sheet.setup.block.{'each' if block.each_player else 'once'}",
                         effects=self.you().effects(block.effects))
        return self.note_item(sentence(text), self.spec_text(block.title), self.marks(f"setup.{block.name}"),
                              block.note)

    def prestige_item(self, source) -> Item:
        """A prestige source of the spec, where the sheet says what prestige is made of."""
        by = self.you().number(source.by)
        return self.note_item(sentence(self.text("sheet.prestige.source", by=by)), self.spec_text(source.title),
                              self.marks(f"prestige.{source.name}"), source.note)

    def definition_item(self, definition) -> Item:
        """A definition as a house rule: what its title means."""
        title, meaning = explain_definition(definition, self.lang, self.rules, self.table)
        key = "sheet.define.means" if str(definition.result) == "condition" else "sheet.define.means_value"
        return self.note_item(sentence(self.text(key, title=title, meaning=meaning)),
                              self.text("sheet.house.define"), self.marks(f"define.{definition.name}"),
                              definition.note)
    def state_item(self, var) -> Item:
        """A declared variable where players read what the game remembers: who keeps it, what it
        holds and its first value; when a turn forgets it, and whether the others see it."""
        text = self.text(f"sheet.state.{'each' if var.per_player else 'shared'}",
                         title=self.text("sheet.state.title", title=self.spec_text(var.title)),
                         type=self.state_type(var), initial=self.state_value(var))
        if var.reset == "turn":
            text = self.text("sheet.state.turn", item=text)
        if var.private:
            text = self.text("sheet.state.private", item=text)
        return self.note_item(sentence(text), "", self.marks(f"state.{var.name}"), var.note)

    def state_type(self, var) -> str:
        """What a variable holds, in words; a set of components names its kind ("a set of “Trading posts”")."""
        key = state_type_key(var.type)
        if key == "set_comp":
            kind = next(k for k in self.rules.kinds if k.name == var.type.elem.kind)
            return self.text("state.type.set_comp", kind=self.spec_text(kind.title))
        return self.text(f"state.type.{key}")

    def state_value(self, var) -> str:
        """A variable's initial value in words: 0, yes, no, a colour's name, player 2, none, empty."""
        v, t = var.initial, state_type_key(var.type)
        if t.startswith("set_"):
            return self.text("state.value.empty")
        if v is None:
            return self.text("state.value.none")
        if t == "flag":
            return self.text(f"state.value.{str(v).lower()}")
        if t in ("gem", "colour"):
            return self.text(f"colour.{self.rules.colours[v]}")
        if t == "player":
            return self.text("state.value.player", n=v + 1)
        return str(v)

    # ------------------------------------------------------------------ decisions

    def choice_phrase(self, d: Decision) -> list[str]:
        out = []
        for prm in d.params:
            if prm.domain == "payment":
                continue
            key = f"sheet.choose.{prm.domain}"
            if prm.domain == "gem_set":
                key += ".exact" if prm.min == prm.max else ".range"
                text = self.text(key, a=prm.min, b=prm.max, n=prm.max)
            elif prm.domain == "component":  # from a zone (or a kind) of the spec's own
                text = self.text(key, zone=self.source_title(prm.source))
            else:
                text = self.text(key)
            if prm.optional:
                text = self.text("sheet.choose.optional", x=text)
            out.append(text)
        return out

    def source_title(self, source: str) -> str:
        """The title of the zone (or kind) a component is chosen from, in this language."""
        found = next((z.title for z in self.rules.zones if z.name == source), None) or next(
            (k.title for k in self.rules.kinds if k.name == source), None)
        return (found.get(self.lang) or found.en) if found is not None else source

    def idiom(self, d: Decision, is_step: bool) -> list[str] | None:
        """The phrases (one per sentence) a rule sheet uses for a decision of a common shape (see the shapes of
        :mod:`.facts`), else None (the general phrasing applies). A part the printed rules leave
        open (the fallback of "take 3 different") is marked as a clarification."""
        r = self.rules
        wild = self.text(f"colour.{r.wild}")
        if not is_step:
            take = take_different(d, r)
            if take is None:
                return None
            key = "sheet.idiom.take_up_to" if take.up_to else "sheet.idiom.take_different"
            said = [self.text(key, n=take.count, wild=wild)]
            if take.fallback:
                said.append(self.text("sheet.clarification", x=self.text(
                    "sheet.idiom.take_different.fallback", n=take.count)))
            return said
        limit = return_to_limit(d, r)
        if limit is not None:
            return [self.text("sheet.idiom.limit", n=limit.limit, wild=wild)]
        visit = noble_visit(d)
        if visit is not None:
            return [self.text(f"sheet.idiom.visit.{visit.resolve}")]
        return None

    def decision_item(self, d: Decision, index: int, section: str, is_step: bool, price_shown: bool) -> Item:
        p = Phraser(self.lang, self.rules, d, table=self.table)
        paths = self.decision_paths(d, "end_of_turn" if is_step else "actions")
        said = self.idiom(d, is_step)
        if said is not None:
            return self.note_item(" ".join(sentence(x) for x in said), self.headline(d, index, is_step),
                                  self.marks(*paths), d.note)
        sentences = []
        if is_step and d.while_ is not None:
            sentences.append(sentence(self.text("sheet.step.while", cond=p.condition(d.while_))))
        chosen = self.choice_phrase(d)
        if chosen:
            sentences.append(sentence(self.text("sheet.choose", items=join(self.t, chosen))))
        if d.only_when_stuck:
            sentences.append(sentence(self.text("sheet.only_when_stuck")))
        if not (isinstance(d.condition, Bool) and d.condition.value):
            sentences.append(sentence(self.text("sheet.condition", cond=p.condition(d.condition))))
        sentences.append(sentence(p.effects(d.effects)))
        for prm in d.params:
            if prm.domain == "payment" and not price_shown:
                sentences.append(sentence(self.price_sentence(p, prm)))
            if prm.domain == "payment" and prm.worth is not None:
                sentences.append(sentence(p.worth(prm.worth)))
        if is_step:
            if d.repeat == "once" and d.resolve == "choice":
                sentences.append(sentence(self.text("sheet.step.once")))
            elif d.max_ is not None:
                sentences.append(sentence(self.text("sheet.step.max", times=p.number(d.max_))))
            if d.params and d.resolve == "choice":
                sentences.append(sentence(self.text("sheet.step.choice")))
            elif d.params and d.resolve == "all":
                sentences.append(sentence(self.text("sheet.step.all")))
        return self.note_item(" ".join(sentences), self.headline(d, index, is_step), self.marks(*paths), d.note)

    def price_sentence(self, p: Phraser, prm) -> str:
        return p.price(prm.price)

    def actions_of(self, kind: str) -> list[tuple[int, Decision]]:
        return [(i + 1, d) for i, d in enumerate(self.rules.actions) if topic(d, self.rules) == kind and not rare(d)]

    def rare_item(self, d: Decision, index: int) -> Item:
        """A rare-case action (taken only when stuck), told as a short note."""
        p = Phraser(self.lang, self.rules, d, table=self.table)
        text = sentence(self.text("sheet.rare.stuck", action=self.text("sheet.quote", x=self.headline(d, index, False)),
                                  effects=p.effects(d.effects)))
        if not (isinstance(d.condition, Bool) and d.condition.value):
            text += " " + sentence(self.text("sheet.condition", cond=p.condition(d.condition)))
        paths = self.decision_paths(d, "actions")
        return self.note_item(text, self.text("sheet.rare"), self.marks(*paths), d.note)

    def turn(self) -> Section:
        r = self.rules
        usual = [(i + 1, d) for i, d in enumerate(r.actions) if not rare(d)]
        parts = [Part("para", [Item(sentence(self.text("sheet.turn.intro", n=len(usual))))])]
        parts.append(Part("list", [Item(self.headline(d, i, False)) for i, d in usual]))
        other = self.actions_of("other")
        if other:
            parts.append(Part("heading", title=self.text("sheet.turn.other")))
            parts.append(Part("list", [self.decision_item(d, i, "actions", False, False) for i, d in other]))
        stuck = [(i + 1, d) for i, d in enumerate(r.actions) if rare(d)]
        if stuck:
            parts.append(Part("para", [self.rare_item(d, i) for i, d in stuck]))
        if r.steps:
            steps = [d for d in r.steps if d is not self.limit_step() and "visit" not in effect_names(d.effects)]
            headlines = join(self.t, [self.headline(d, i + 1, True) for i, d in enumerate(r.steps)])
            parts.append(Part("para", [Item(sentence(self.text("sheet.turn.steps", n=len(r.steps),
                                                               items=headlines)))]))
            if steps:
                parts.append(Part("list", [self.decision_item(d, r.steps.index(d) + 1, "end_of_turn", True, False)
                                           for d in steps]))
        return Section("turn", self.text("sheet.turn.title"), parts)

    def limit_step(self):
        return held_limit(self.rules)[0]

    def tokens(self) -> Section | None:
        actions = self.actions_of("tokens")
        step, limit = held_limit(self.rules)
        if not actions and step is None:
            return None
        parts = []
        if actions:
            parts.append(Part("list", [self.decision_item(d, i, "actions", False, False) for i, d in actions]))
        if step is not None:
            item = self.decision_item(step, self.rules.steps.index(step) + 1, "end_of_turn", True, False)
            parts.append(Part("heading", title=self.text("sheet.tokens.limit", n=limit)))
            parts.append(Part("list", [item]))
        return Section("tokens", self.text("sheet.tokens.title"), parts)

    def reserving(self) -> Section | None:
        actions = self.actions_of("reserve")
        if not actions:
            return None
        items = [self.decision_item(d, i, "actions", False, False) for i, d in actions]
        parts = [Part("list", items), Part("para", [Item(sentence(self.text("sheet.reserve.hand")))])]
        return Section("reserve", self.text("sheet.reserve.title"), parts)

    def buying(self) -> Section | None:
        actions = self.actions_of("buy")
        if not actions:
            return None
        prices = {unparse(prm.price) for _, d in actions for prm in d.params if prm.domain == "payment"}
        shared = len(prices) == 1
        parts = [Part("list", [self.decision_item(d, i, "actions", False, shared) for i, d in actions])]
        facts = []
        if shared:  # a buying action may have no payment (a card acquired for free): the price is another's
            d, prm = next((d, prm) for _, d in actions for prm in d.params if prm.domain == "payment")
            p = Phraser(self.lang, self.rules, d, table=self.table)
            paths = [f"actions.{dd.name}" for _, dd in actions]
            facts.append(Item(sentence(self.price_sentence(p, prm)), self.text("sheet.buy.price_lead"),
                              self.marks(*paths)))
            card = next((q.name for q in d.params if q.domain in ("face_up", "reserved")), None)
            bought = example.purchase(self.rules, prm.price, card) if card is not None else None
            if bought is not None:
                facts.append(Item(sentence(self.purchase_text(bought)), self.text("sheet.example.lead")))
        facts.append(Item(sentence(self.text("sheet.buy.bonus")), self.text("sheet.buy.bonus_lead")))
        worths = any(prm.worth is not None for _, d in actions for prm in d.params if prm.domain == "payment")
        facts.append(Item(sentence(self.text("sheet.buy.wild.worth" if worths else "sheet.buy.wild", n=1)),
                          capitalise(self.text(f"colour.{self.rules.wild}"))))
        parts.append(Part("para", facts))
        return Section("buy", self.text("sheet.buy.title"), parts)

    def tokens_list(self, amounts: dict[str, int]) -> str:
        return join(self.t, [self.count("noun.token.lit", n, colour=self.t.form(f"colour.{g}.adj"))
                             for g, n in amounts.items() if n > 0]) or self.text("sheet.example.nothing")

    def purchase_text(self, bought: example.Purchase) -> str:
        card = bought.card
        cost = dict(zip(self.rules.gems, card.cost, strict=True))
        bonus = join(self.t, [self.count("attr.bonus.noun.lit", n, colour=self.t.form(f"colour.{g}.adj"))
                              for g, n in bought.bonus.items()])
        return self.text("sheet.example.purchase", **self.p.level(_int(card.level)),
                         cost=self.tokens_list(cost), bonus=bonus, price=self.tokens_list(bought.price),
                         wild=self.text(f"colour.{self.rules.wild}"))

    def nobles(self) -> Section | None:
        steps = [d for d in self.rules.steps if "visit" in effect_names(d.effects)]
        if not steps:
            return None
        items = [self.decision_item(d, self.rules.steps.index(d) + 1, "end_of_turn", True, False) for d in steps]
        points = sorted({n.points for n in self.rules.nobles})
        facts = []
        if points:
            if len(points) == 1:
                worth = self.text("sheet.nobles.worth", n=points[0])
            else:
                worth = self.text("sheet.nobles.worth_range", a=points[0], b=points[-1], n=points[-1])
            facts.append(Item(sentence(worth)))
        return Section("nobles", self.text("sheet.nobles.title"), [Part("list", items), Part("para", facts)])

    # ------------------------------------------------------------------ end of the game

    def ending(self) -> Section:
        r = self.rules
        items = []
        for e in r.end:
            cond = self.you().condition(e.when)
            text = self.text("sheet.end.trigger", cond=cond, finish=self.text(f"sheet.finish.{e.finish}"))
            paths = [f"end.{e.name}"] + [f"values.{v}" for v in sorted(value_names(r, [e.when]))]
            marks = self.marks(*paths)
            lead = self.text("sheet.rare") if rare_trigger(e, r) else ""
            items.append(self.note_item(sentence(text), lead, marks, e.note))
        parts = [Part("list", items)]
        played = [Item(sentence(self.text("sheet.end.played", cond=self.you().condition(e.when))),
                       self.text("sheet.end.played_lead"),
                       self.marks(f"end.{e.name}", *(f"values.{v}" for v in sorted(value_names(r, [e.when])))))
                  for e in r.end if e.finish == "complete_round"]
        if played and self.compact < 4:  # it tells the rule above again, as it is played
            parts.append(Part("para", played))
        ranking = []
        w = r.winners
        if not (isinstance(w.eligible, Bool) and w.eligible.value):
            ranking.append(Item(sentence(self.text("sheet.winner.eligible",
                                                   cond=self.you_player().condition(w.eligible))),
                                "", self.marks("winners.eligible")))
        for i, level in enumerate(w.ranking):
            key = "sheet.rank.level_first" if i == 0 else "sheet.rank.level_next"
            marks = self.marks(f"winners.ranking.{level.name}",
                               *(f"values.{v}" for v in sorted(value_names(r, [level.by]))))
            ranking.append(self.note_item(sentence(self.text(key, x=self.rank_phrase(level))), "", marks, level.note))
        ranking.append(Item(sentence(self.text("sheet.rank.shared")), "", self.marks("winners.ties")))
        parts.append(Part("heading", title=self.text("sheet.rank.title")))
        parts.append(Part("steps", ranking))
        return Section("end", self.text("sheet.end.title"), parts)

    def you_player(self) -> Phraser:
        """A phraser in which `player` (of the winners section) is "you"."""
        ph = Phraser(self.lang, self.rules, table=self.table)
        ph.scope["player"] = ph.scope["me"]
        return ph

    # ------------------------------------------------------------------ worked example

    def named(self, key: str) -> Phraser:
        """A phraser in which `me` is one of the example's players, by name."""
        ph = Phraser(self.lang, self.rules, table=self.table)
        ph.scope["me"] = Ref(PLAYER, key)
        ph.scope["player"] = Ref(PLAYER, key)
        return ph

    def worked_example(self) -> Section | None:
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
            cond = self.named("sheet.example.a").condition(s.trigger.when)
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

    # ------------------------------------------------------------------ questions every table asks

    def faq(self) -> Section | None:
        """Questions and answers, each only where the rules make it arise, answered from the rules."""
        r = self.rules
        items = []
        wild = self.text(f"colour.{r.wild}")
        step, limit = held_limit(r)
        if step is not None:
            # "tokens of your choice, even those just taken": a colour choice whose condition asks
            # only that the player holds a token of it (no-churn's, which reads what was taken, asks more)
            chosen = [p.name for p in step.params if p.domain == "colour"]
            returns_any = bool(chosen) and all(
                unparse(c) in ("true", f"me.tokens[{chosen[0]}] >= 1") for c in _conjuncts(step.condition))
            items.append(Item(sentence(self.text("sheet.faq.limit.a_any" if returns_any else "sheet.faq.limit.a",
                                                 n=limit,
                                                 wild=wild)),
                              self.text("sheet.faq.limit.q", n=limit),
                              self.marks(f"end_of_turn.{step.name}",
                                         *(f"values.{v}" for v in value_names(r, [step.while_])))))
        gold_if_left = [d for d in r.actions if effect_names(d.effects) & {"reserve", "reserve_top"}
                        and self.wild_only_if_left(d)]
        if gold_if_left:
            items.append(Item(sentence(self.text("sheet.faq.no_gold.a", n=1)),
                              self.text("sheet.faq.no_gold.q"),
                              self.marks(*(f"actions.{d.name}" for d in gold_if_left))))
        refills = [d for d in r.actions if "refill" in effect_names(d.effects)]
        blind = [d for d in r.actions if "reserve_top" in effect_names(d.effects) and self.needs_deck(d)]
        if refills or blind:
            answers = ([self.text("sheet.faq.deck.a_refill")] if refills else []) + \
                      ([self.text("sheet.faq.deck.a_blind")] if blind else [])
            items.append(Item(" ".join(sentence(a) for a in answers), self.text("sheet.faq.deck.q"),
                              self.marks(*(f"actions.{d.name}" for d in refills + blind))))
        visitors = [d for d in r.steps if shape(d) == "visit"]
        for d in visitors:
            key = "sheet.faq.two_nobles.a_one" if d.repeat == "once" and d.resolve == "choice" else \
                "sheet.faq.two_nobles.a_all"
            items.append(Item(sentence(self.text(key)), self.text("sheet.faq.two_nobles.q"),
                              self.marks(f"end_of_turn.{d.name}")))
        if visitors or any(shape(d) == "visit" for d in r.actions):
            items.append(Item(sentence(self.text("sheet.faq.replaced.a")), self.text("sheet.faq.replaced.q")))
        if not items:
            return None
        return Section("faq", self.text("sheet.faq.title"), [Part("qa", items)])

    def wild_only_if_left(self, d: Decision) -> bool:
        """The action gives a wild token under `if supply[wild] ...` and does not itself require one."""
        wild = self.rules.wild

        def names_wild_supply(node) -> bool:
            return any(isinstance(n, Index) and isinstance(n.obj, Name) and n.obj.id == "supply"
                       and isinstance(n.index, Name) and n.index.id == wild for n in walk(node))

        guarded = any(isinstance(n, When) and names_wild_supply(n.test) and any(
            isinstance(e, Effect) and e.name == "take" and e.args and isinstance(e.args[0], Name)
            and e.args[0].id == wild for e in walk(n.then)) for s in d.effects for n in walk(s))
        return guarded and not names_wild_supply(d.condition)

    @staticmethod
    def needs_deck(d: Decision) -> bool:
        """The action's condition reads the size of a deck (so an empty deck forbids it)."""
        return any(isinstance(n, Index) and isinstance(n.obj, Name) and n.obj.id == "deck" for n in walk(d.condition))

    # ------------------------------------------------------------------ common mistakes

    def mistakes(self) -> Section | None:
        r = self.rules
        items = []
        wild = self.text(f"colour.{r.wild}")
        givers, from_taking = wild_sources(r)
        token_actions = self.actions_of("tokens")
        if token_actions and not from_taking:
            paths = [f"actions.{d.name}" for _, d in token_actions] + [f"{s}.{d.name}" for s, d in givers]
            by_action = [d for s, d in givers if s == "actions"]
            by_step = [d for s, d in givers if s == "end_of_turn"]
            ways = join(self.t, [self.text("sheet.quote", x=self.headline(d, r.actions.index(d) + 1, False))
                                 for d in by_action], "or")
            steps = join(self.t, [self.text("sheet.quote", x=self.headline(d, r.steps.index(d) + 1, True))
                                  for d in by_step], "and")
            if by_action and by_step:
                text = self.text("sheet.mistake.wild_and_steps", wild=wild, ways=ways, steps=steps)
            elif by_step:
                text = self.text("sheet.mistake.wild_steps", wild=wild, steps=steps)
            elif by_action:
                text = self.text("sheet.mistake.wild", wild=wild, ways=ways)
            else:
                text = self.text("sheet.mistake.wild_never", wild=wild)
            items.append(Item(sentence(text), "", self.marks(*paths)))
        step, limit = held_limit(r)
        if step is not None:
            items.append(Item(sentence(self.text("sheet.mistake.limit", n=limit, wild=wild)), "",
                              self.marks(f"end_of_turn.{step.name}",
                                         *(f"values.{v}" for v in value_names(r, [step.while_])))))
        reservers = [d for d in r.actions if effect_names(d.effects) & {"reserve", "reserve_top"}]
        if reservers:
            items.append(Item(sentence(self.text("sheet.mistake.reserved")), "",
                              self.marks(*(f"actions.{d.name}" for d in reservers))))
        visitors = [d for d in r.steps if "visit" in effect_names(d.effects)]
        if visitors and not any("visit" in effect_names(d.effects) for d in r.actions):
            key = "sheet.mistake.noble_card" if any(uses_attribute([lv.by], "purchased") for lv in r.winners.ranking) \
                else "sheet.mistake.noble"
            items.append(Item(sentence(self.text(key)), "",
                              self.marks(*(f"end_of_turn.{d.name}" for d in visitors), "winners.ranking")))
        for e in r.end:
            if e.finish == "complete_round":
                items.append(Item(sentence(self.text("sheet.mistake.round", cond=self.you().condition(e.when))), "",
                                  self.marks(f"end.{e.name}", *(f"values.{v}" for v in value_names(r, [e.when])))))
        if not items:
            return None
        return Section("mistakes", self.text("sheet.mistakes.title"), [Part("list", items)])

    # ------------------------------------------------------------------ house rules

    def house_rules(self) -> list[HouseRule]:
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
                lead = self.text("sheet.house.players_many",
                                 counts=join(self.t, sorted((g.split(".")[1] for g in rows), key=int)))
            if len(rows) > 1 and kind == "set" and group in self.row_fields:  # only what changed, alike in each
                text = sentence(join(self.t, [self.row_field(f, v) for f, v in self.row_fields[group]]))
            for value in (g for g in folded if g.startswith("values.")):  # the number it replaces, if the base had one
                now, was = self.element(self.rules, value), self.element(self.base, value)
                if text and now is not None and was is not None and now.value != was.value:
                    text += " " + self.text("sheet.house.was_number", old=was.value, new=now.value)
            out.append(HouseRule(number, self.text(f"sheet.house.{kind}"), lead, text, " ".join(notes),
                                 " ".join(notes_en)))
        return out

    def row_field(self, field: str, value) -> str:
        """One field of a player-count row as the house rules say it ("0 nobles", "5 gold tokens")."""
        if field == "gold":
            n = self.count("noun.token.lit", value, colour=self.t.form(f"colour.{self.rules.wild}.adj", value))
        else:
            n = self.count({"gems": "noun.token", "nobles": "noun.noble", "face_up": "noun.card"}[field], value)
        return self.text(f"sheet.house.players_field.{field}", n=value, x=n)

    def element(self, rules: Rules | None, group: str):
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

    def describe_group(self, group: str, kind: str) -> tuple[str, str]:
        """(lead, text) of one house rule: what the element is, and what it now says."""
        r = self.rules
        now = self.element(r, group) if kind != "remove" else None
        was = self.element(self.base, group)
        section = group.split(".")[0]
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
            row = self.text("sheet.house.players_row", gems=self.count("noun.token", now.gems),
                            gold=self.count("noun.token.lit", now.gold, colour=wild),
                            nobles=self.count("noun.noble", now.nobles), face_up=self.count("noun.card", now.face_up))
            declared = [self.text("sheet.house.players_declared", title=self.spec_text(f.title), n=now.field(f.name))
                        for f in r.player_fields]  # the spec's own columns, as the setup table titles them
            return lead, sentence(join(self.t, [row] + declared) if declared else row)
        if section == "player_fields":  # a new column of the setup table: its values are in the rows' rules
            titles = [self.spec_text(f.title) for f in r.player_fields]
            return self.text("sheet.house.player_fields"), sentence(self.text(
                "sheet.house.player_fields.columns", n=len(titles), titles=join(self.t, titles))) if titles else ""
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
            return (join(self.t, [self.spec_text(k.title) for k in kinds]),
                    " ".join(sentence(self.text("sheet.house.kind", n=len(k.components))) for k in kinds))
        if section == "end":
            lead = self.text("sheet.house.end")
            if now is None:
                return lead, ""
            cond = self.you().condition(now.when)
            return lead, sentence(self.text("sheet.end.trigger", cond=cond,
                                            finish=self.text(f"sheet.finish.{now.finish}")))
        if group.startswith("winners.ranking."):
            lv = now or was
            lead = self.text("sheet.rank.title")
            if now is None or lv is None:
                return lead, capitalise(self.rank_phrase(lv)) if lv else ""
            position = r.winners.ranking.index(now) + 1
            return lead, sentence(self.text("sheet.house.rank", n=position, x=self.rank_phrase(now)))
        if group == "interpretations":  # the readings this variant's own file states, as written
            own = [sentence(self.spec_text(text)) for i, text in enumerate(r.interpretations)
                   if (span := r.spans.get(f"interpretations.{i}")) is not None and span.file == r.source.path]
            return self.text("sheet.house.readings"), " ".join(own)
        if group == "first_player":
            return self.text("sheet.glance.first"), sentence(self.spec_text(r.first_player)) if now is not None else ""
        if group == "winners.eligible" or group == "winners":
            w = r.winners
            if isinstance(w.eligible, Bool) and w.eligible.value:
                return self.text("sheet.glance.winner"), sentence(self.winner_summary())
            return self.text("sheet.glance.winner"), sentence(self.text(
                "sheet.winner.eligible", cond=self.you_player().condition(w.eligible)))
        return self.text("sheet.house.other"), ""

    def value_users(self, name: str) -> list[tuple[str, str, str]]:
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
                        out.append((f"{section}.{d.name}", self.headline(d, i + 1, section == "end_of_turn"),
                                    self.text(key, cond=p.condition(node))))
                        break
        for e in r.end:
            if name in value_names(r, [e.when]):
                out.append((f"end.{e.name}", self.text("sheet.house.end"), self.text(
                    "sheet.end.trigger", cond=self.you().condition(e.when),
                    finish=self.text(f"sheet.finish.{e.finish}"))))
        return out


def _int(n: int):
    from ..diagnostics import Span
    from ..front.expr import Int
    return Int(n, Span("", 0, 0))


# The sections whose every element the body of a sheet states in full, with its house rule's mark.
_TOLD_IN_THE_BODY = ("actions", "end_of_turn", "prestige", "state")


COMPACT_LEVELS = 4  # see Builder: the most a sheet gives way to fit two printed pages


def build(rules: Rules, lang: str, base: Rules | None = None, table: tables.Table | None = None,
          compact: int = 0) -> Sheet:
    """The sheet of `rules` in `lang` (`base`: the rules a variant extends, for old values;
    `compact`: how much of what restates or illustrates a rule gives way, 0 to COMPACT_LEVELS)."""
    return Builder(rules, lang, base, table, compact).build()
