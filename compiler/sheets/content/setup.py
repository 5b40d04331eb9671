"""Sheets, content: the section on setup -- the player-count table, the decks, nobles and
tokens, the deal of the spec's own zones, its setup blocks and variables, a table of each
kind of component, and the table pictured.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...check.kinds import BASE_KINDS
from ...check.reach import reached
from ...language import SHAPES, ColumnType
from ...language.shapes import Shape
from ...model import Kind, Zone
from .. import pictures
from ..phrases import capitalise, join, sentence, state_type_key
from .tree import Grid, Item, Part, Section

if TYPE_CHECKING:  # the class these functions are bound to (the package re-exports it)
    from . import Builder


def setup(self: Builder) -> Section:
    r = self.rules
    nobles = any(p.nobles for p in r.players)  # a module without nobles (the Cities) says nothing of them
    header = (
        [
            capitalise(self.text("sheet.setup.col.players")),
            self.text("sheet.setup.col.gems"),
            capitalise(self.text("sheet.setup.col.gold")),
        ]
        + [self.text("sheet.setup.col.nobles")] * nobles
        + [self.text("sheet.setup.col.face_up")]
        + [self.spec_text(f.title) for f in r.player_fields]
    )
    columns = ["players", "gems", "gold"] + ["nobles"] * nobles + ["face_up"] + [f.name for f in r.player_fields]
    rows, marks, cell_marks = [], [], {}
    for i, p in enumerate(r.players):
        rows.append(
            [str(p.players), str(p.gems), str(p.gold)]
            + [str(p.nobles)] * nobles
            + [str(p.face_up)]
            + [str(p.field(f.name)) for f in r.player_fields]
        )
        row_marks = self.marks(f"players.{p.players}")
        changed = _changed_cells(self, p.players)
        if row_marks and changed and all(f in columns for f in changed):  # the ★ beside each changed value
            cell_marks.update({(i, columns.index(f)): row_marks for f in changed})
            row_marks = ()
        marks.append(row_marks)
    parts = [Part("grid", grid=Grid(header, rows, marks, cell_marks))]
    decks = []
    for level in r.levels:
        n = sum(1 for c in r.cards if c.level == level and not c.series)  # the base deal's (a series': its zones)
        decks.append(self.text("sheet.setup.deck", level=level, count=self.count("noun.card", n)))
    items = [
        Item(sentence(self.text("sheet.setup.decks", n=len(r.levels), decks=join(self.t, decks)))),
        Item(sentence(_nobles_setup(self))),
        Item(
            sentence(
                self.text(
                    "sheet.setup.tokens",
                    colours=join(self.t, [self.text(f"colour.{c}") for c in r.gems]),
                    n=len(r.gems),
                )
            )
        ),
    ]
    if not nobles:
        del items[1]
    items += _bonus_count(self)
    items += _bonus_colour(self)
    items += _series(self)
    items += self.fewer_players()
    items += self.zone_items()
    items += self.setup_blocks()
    items += [self.state_item(v) for v in self.rules.variables]
    items += self.handling()
    parts.append(Part("list", items))
    parts += self.kind_tables()
    picture = self.table_picture() if not self.compact else None  # the text first, where room is short
    if picture is not None:
        parts.append(Part("picture", picture=picture))
    return Section("setup", self.text("sheet.setup.title"), parts)


def _bonus_count(self: Builder) -> list[Item]:
    """Where the cards say how many bonuses each gives (`bonus_count`), the sentence that says so."""
    kind = next((k for k in self.rules.kinds if k.name == "cards" and k.bonus_count), None)
    if kind is None:
        return []
    column = next(c for c in kind.columns if c.name == kind.bonus_count)
    title = self.spec_text(column.title) if column.title is not None else column.name.replace("_", " ")
    return [Item(sentence(self.text("sheet.setup.bonus_count", column=title)))]


def _bonus_colour(self: Builder) -> list[Item]:
    """Where a variable sets a card's bonus colour in play (`bonus_colour: true`), the sentence that says so."""
    var = next((v for v in self.rules.variables if v.bonus_colour), None)
    if var is None:
        return []
    return [Item(sentence(self.text("sheet.setup.bonus_colour", title=self.spec_text(var.title))))]


def _series(self: Builder) -> list[Item]:
    """Each series of the cards (`kinds: cards: series:`): cards like the others, left out of the decks
    the base game deals (their zones deal them, zone_items)."""
    kind = next((k for k in self.rules.kinds if k.name == "cards"), None)
    return [
        Item(
            sentence(
                self.text(
                    "sheet.setup.series", series=self.spec_text(s.title).lower(), count=self.count("noun.card", s.count)
                )
            )
        )
        for s in (kind.series if kind is not None else ())
    ]


def _nobles_setup(self: Builder) -> str:
    """The nobles' setup: the rest go back in the box, or form the pile a zone keeps (`place: noble_box`)."""
    box = next((z for z in self.rules.zones if z.place == "noble_box"), None)
    if box is None:
        return self.text("sheet.setup.nobles", n=len(self.rules.nobles))
    return self.text(
        "sheet.setup.nobles.boxed", n=len(self.rules.nobles), zone=box.title.get(self.lang) or box.title.en
    )


def _changed_cells(self: Builder, players: int) -> list[str]:
    """The fields of the player-count row for `players` that a variant set one by one (a built-in
    field or a declared one); [] when it added, removed or replaced the row as a whole."""
    changes = [
        c for c in self.rules.changes if c.path == f"players.{players}" or c.path.startswith(f"players.{players}.")
    ]
    if any(c.path.count(".") != 2 or c.kind != "set" for c in changes):
        return []
    return [c.path.split(".")[2] for c in changes]


def fewer_players(self: Builder) -> list[Item]:
    """The published rules' "with 2 players, remove 3 tokens of each gem colour; don't touch the
    gold": the tokens a smaller table takes out of the largest table's, when every smaller row has
    fewer of each gem colour (the gold's words only when every row has the same gold)."""
    r = self.rules
    if len(r.players) < 2:
        return []
    largest = r.players[-1]
    smaller = [p for p in reversed(r.players[:-1])]
    if any(p.gems >= largest.gems for p in smaller):
        return []
    rows = [
        self.text("sheet.setup.remove.row", n=p.players, x=self.count("noun.token", largest.gems - p.gems))
        for p in smaller
    ]
    text = join(self.t, rows)
    if largest.gold and all(p.gold == largest.gold for p in smaller):
        text = self.text("sheet.setup.remove.keep", rows=text)
    return [Item(sentence(text), lead=self.text("sheet.setup.remove.lead"), marks=self.marks("players"))]


def handling(self: Builder) -> list[Item]:
    """How the pieces are handled at the table (the spec's `handling` lines, as written: what
    stays hidden, what stays in view), one item with its lead; none where the spec states none."""
    lines = [sentence(self.spec_text(text)) for text in self.rules.handling]
    if not lines:
        return []
    return [Item(" ".join(lines), lead=self.text("sheet.setup.handling"), marks=self.marks("handling"))]


def table_picture(self: Builder) -> pictures.TablePicture | None:
    """The middle of the table for the most players the player-count table allows."""
    r = self.rules
    if not r.players or not r.levels:
        return None
    row = r.players[-1]
    tokens = tuple((g, row.gems) for g in r.gems) + (((r.wild, row.gold),) if row.gold else ())
    # The rows of tiles above the decks: the nobles, and each display or row of the spec's own
    # dealt at the start (the Cities' three city tiles, where the nobles were).
    tiles = (
        [(row.nobles, self.text("sheet.picture.nobles"), self.count("noun.noble", row.nobles))] if row.nobles else []
    )
    for zone in r.zones:
        size = dict(zone.sizes).get(row.players, 0)
        if not zone.per_player and zone.shape in (Shape.DISPLAY, Shape.ROW) and zone.start == "dealt" and size:
            title = self.spec_text(zone.title)
            tiles.append((size, title, f"{title} ({size})"))
    title = self.text(
        "sheet.picture.table",
        n=row.players,
        players=row.players,
        nobles=join(self.t, [t[2] for t in tiles]) if tiles else self.count("noun.noble", 0),
        face_up=self.count("noun.card", row.face_up),
        gems=self.count("noun.token", row.gems),
        gold=self.count("noun.token.lit", row.gold, colour=self.t.form(f"colour.{r.wild}.adj", row.gold)),
    )
    levels = tuple(reversed(r.levels))
    return pictures.TablePicture(
        title=sentence(title),
        caption=self.text("sheet.picture.table_caption", players=row.players, n=row.players),
        tiles=tuple((n, label) for n, label, _ in tiles),
        face_up=row.face_up,
        tokens=tokens,
        deck_labels=tuple(self.text("sheet.picture.deck", level=lv) for lv in levels),
    )


def zone_items(self: Builder) -> list[Item]:
    """The deal of the spec's own zones, after the base game's, as a player aid says it: a pile
    shuffled (a piece with faces showing one at random), then a display or row laid out from its
    source ("reveal 3 cities from the “City tiles” pile: these are the cities on display"), the pieces
    called by their kind's item and the zone by its own item where the spec gives one; a zone split
    by a group column, group by group (split_deal)."""
    items = []
    for zone in self.rules.zones:
        kind = next(k for k in self.rules.kinds if k.name == zone.holds)
        said = {**_kind_words(self, kind), **_series_words(self, zone, kind)}
        title = self.spec_text(zone.title)
        sizes = {n for _, n in zone.sizes}
        if zone.by and not zone.place:
            text = self.split_deal(zone, kind, title)
            if text:
                items.append(Item(sentence(text), marks=self.marks(f"zones.{zone.name}")))
            continue
        if zone.start == "all":
            pile = "sheet.setup.faces" if kind.faces_of else "sheet.setup.pile"
            key = SHAPES[zone.shape].phrase or pile if zone.shape != "pile" else pile  # a bag: its own words
            text = self.text(key, zone=title, **said)
        elif zone.start == "dealt" and (len(sizes) == 1 or zone.size_field):
            text = _deal(self, zone, kind, said)
        else:
            continue
        items.append(Item(sentence(text), marks=self.marks(f"zones.{zone.name}")))
    return items


def _deal(self: Builder, zone: Zone, kind: Kind, said: dict[str, Any]) -> str:
    """A display or row dealt at the start: how many are revealed (a number, or a column of the setup
    table), from where (the source pile or bag, by its title; the kind itself, at random, the rest
    unused), and what they are then (the zone's item, "these are the cities on display", or its title)."""
    source = next((z for z in self.rules.zones if z.name == zone.source), None)
    sizes = {n for _, n in zone.sizes}
    fields: dict[str, Any] = {**said, "zone": self.spec_text(zone.title), **_zone_words(self, zone)}
    if source is None:
        fields["from"], fields["rest"] = self.text("sheet.setup.from.kind", **said), self.text("sheet.setup.rest")
    else:
        shape = "bag" if source.shape == "bag" else "pile"
        fields["from"] = self.text(f"sheet.setup.from.{shape}", source=self.spec_text(source.title))
        fields["rest"] = ""
    fields["into"] = self.text("sheet.setup.into.item" if "zone_plural" in fields else "sheet.setup.into", **fields)
    if len(sizes) == 1:
        return self.text("sheet.setup.deal", items=self.counted(kind, next(iter(sizes))), **fields)
    return self.text("sheet.setup.deal_column", column=self.setup_column(zone.size_field), **fields)


def _kind_words(self: Builder, kind: Kind) -> dict[str, Any]:
    """The words a setup sentence calls a kind's pieces by: its title in lower case (`kind`: "cities"),
    its item's plural (`plural`: Serbian's genitive plural, "градова") and gender."""
    word = self.spec_text(kind.item)
    words = kind.words(self.lang) if kind.item.get(self.lang) else kind.words("en")
    return {
        "kind": self.spec_text(kind.title).lower(),
        "item": word,
        "plural": words.form("other") or self.text("item.plural", item=word),
        "gender": words.gender if words.lang == self.lang else "",
    }


def _series_words(self: Builder, zone: Zone, kind: Kind) -> dict[str, Any]:
    """For a zone that deals a series of the base cards (`series:`), what its pieces are called: the
    series' title in lower case ("the eastern cards", not the development cards the base game deals);
    else nothing."""
    series = next((s for s in kind.series if s.name == zone.series), None)
    return {"kind": self.spec_text(series.title).lower()} if series is not None else {}


def _zone_words(self: Builder, zone: Zone) -> dict[str, Any]:
    """`zone_plural`, what the pieces laid out in a zone are called together ("cities on display"),
    where the spec gives the zone's item and its plural in this language; else nothing (the title)."""
    if zone.item is None or not zone.item.get(self.lang):
        return {}
    plural = zone.words(self.lang).form("other")
    return {"zone_plural": plural} if plural else {}


def split_deal(self: Builder, zone: Zone, kind: Kind, title: str) -> str:
    """The deal of a zone split by a group column, in words ('' for one that starts empty): each
    group's pile shuffled apart, each group's display or row laid out from its own pile."""
    col = next(c for c in kind.columns if c.name == zone.by)
    column = self.spec_text(col.title) if col.title is not None else col.name.replace("_", " ")
    kind_title = _series_words(self, zone, kind).get("kind") or self.spec_text(kind.title).lower()
    source = next((z for z in self.rules.zones if z.name == zone.source), None)
    sizes = {n for _, n in zone.sizes}
    if zone.start == "all":
        return self.text("sheet.setup.split.pile", kind=kind_title, column=column, zone=title)
    if zone.start != "dealt":
        return ""
    if len(sizes) == 1 and source is not None:
        items = self.counted(kind, next(iter(sizes)))
        return self.text(
            "sheet.setup.split.deal", column=column, items=items, source=self.spec_text(source.title), zone=title
        )
    if len(sizes) == 1:
        return self.text("sheet.setup.split.deal_kind", n=next(iter(sizes)), column=column, kind=kind_title, zone=title)
    return self.text(
        "sheet.setup.split.deal_column",
        column=column,
        zone=title,
        source=self.spec_text(source.title) if source is not None else kind_title,
        table_column=self.setup_column(zone.size_field),
    )


def counted(self: Builder, kind: Kind, n: int) -> str:
    """'3 cities': `n` components of `kind` called by its item, in the plural form the number
    calls for where the spec gives the language's forms (else the table's neutral words)."""
    word = self.spec_text(kind.item)
    words = kind.words(self.lang) if kind.item.get(self.lang) else kind.words("en")
    plural = words.form("other") or self.text("item.plural", item=word)
    item_of = words.form("few") or self.text("item.of", item=word)
    return self.count("noun.item", n, item=word, plural=plural, item_of=item_of)


def setup_column(self: Builder, field: str) -> str:
    """The title of a column of the setup table: a built-in field's, or a declared one's own."""
    declared = next((f for f in self.rules.player_fields if f.name == field), None)
    return self.spec_text(declared.title) if declared is not None else self.text(f"sheet.setup.col.{field}")


def kind_tables(self: Builder) -> list[Part]:
    """A table of each kind of the spec's own the rules reach (a zone or a variable holds it, or a
    choice is made from it): one row per component, its columns (a table by gem colour: one column
    per colour; a titled keyword by its title; prose columns too, as written). Not the base cards and
    nobles, which the players have in hand as the base game's sheet assumes (a variable keyed by
    card, `forts: {by: cards}`, or a set of them, reaches them too)."""
    parts = []
    for name in reached(self.rules):
        if name in BASE_KINDS:
            continue
        kind = next(k for k in self.rules.kinds if k.name == name)
        header: list[str] = []
        for col in kind.columns:
            header += (
                [self.text(f"colour.{g}") for g in self.rules.gems]
                if col.type is ColumnType.GEMS
                else [self.spec_text(col.title) if col.title is not None else col.name.replace("_", " ")]
            )
        cells = [self.component_cells(kind, c) for c in kind.components]
        if kind.faces_of:  # one row per piece, its faces' values side by side ("13 / 14")
            pieces: dict[int, list[list[str]]] = {}
            for c, row in zip(kind.components, cells, strict=True):
                pieces.setdefault(c.piece, []).append(row)
            # joined by non-breaking spaces: "1 / 2" stays on one line of a narrow column
            rows = [
                ["\u00a0/\u00a0".join(dict.fromkeys(values)) for values in zip(*faces, strict=True)]
                for faces in pieces.values()
            ]
        else:
            rows = cells
        parts.append(Part("heading", title=self.text("sheet.kind.table", kind=self.spec_text(kind.title))))
        parts.append(Part("grid", grid=Grid(header, rows, [() for _ in rows])))
    return parts


def component_cells(self: Builder, kind, component) -> list[str]:
    """A component's values as table cells (a table by gem colour: one cell per colour)."""
    row: list[str] = []
    for col, v in zip(kind.columns, component.values, strict=True):
        if col.type is ColumnType.GEMS:
            row += [str(x) for x in v]
        elif col.type in (ColumnType.GEM, ColumnType.COLOUR):
            row.append("" if v is None else self.text(f"colour.{self.rules.colours[v]}"))
        elif col.titles:  # a keyword the spec titles in each language
            row.append(self.spec_text(dict(col.titles)[v]))
        else:
            row.append(str(v))
    return row


def setup_blocks(self: Builder) -> list[Item]:
    """The spec's setup blocks, after the deal: each one's effects phrased as for a turn,
    led by its title."""
    return [self.setup_item(block) for block in self.rules.setup]


def setup_item(self: Builder, block) -> Item:
    text = self.text(
        f"sheet.setup.block.{'each' if block.each_player else 'once'}", effects=self.you().effects(block.effects)
    )
    return self.note_item(sentence(text), self.spec_text(block.title), self.marks(f"setup.{block.name}"), block.note)


def state_item(self: Builder, var) -> Item:
    """A declared variable where players read what the game remembers: who keeps it, what it
    holds and its first value; when a turn forgets it, and whether the others see it."""
    text = self.text(
        f"sheet.state.{'each' if var.per_player else 'shared'}",
        title=self.text("sheet.state.title", title=self.spec_text(var.title)),
        type=self.state_type(var),
        initial=self.state_value(var),
    )
    if var.reset == "turn":
        text = self.text("sheet.state.turn", item=text)
    if var.private:
        text = self.text("sheet.state.private", item=text)
    return self.with_text(self.note_item(sentence(text), "", self.marks(f"state.{var.name}"), var.note), var)


def state_type(self: Builder, var) -> str:
    """What a variable holds, in words; a set of components names its kind ("a set of “Trading posts”")."""
    key, t = state_type_key(var.type), getattr(var.type, "value", var.type)
    if key == "set_comp":
        kind = next(k for k in self.rules.kinds if k.name == t.elem.kind)
        said = self.text("state.type.set_comp", kind=self.spec_text(kind.title))
    else:
        said = self.text(f"state.type.{key}")
    if t is var.type:
        return said
    return self.text("state.type.by", type=said, entry=_state_key(self, var.type.key))


def _state_key(self: Builder, key: Any) -> str:
    """What a keyed variable has one entry for: a gem colour, a token colour, a kind's item ("city")."""
    name = getattr(key, "kind", None) or {"card": "cards", "noble": "nobles"}.get(getattr(key, "name", ""))
    kind = next((k for k in self.rules.kinds if k.name == name), None)
    return self.spec_text(kind.item) if kind is not None else self.text(f"state.key.{key.name}")


def state_value(self: Builder, var) -> str:
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
