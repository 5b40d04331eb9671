"""The rule model: the typed, immutable description of a game that later passes consume.

Produced by :mod:`compiler.check` from a loaded (and overlaid) spec; consumed by the
engine lowering, the sheets and the diff. Every element keeps the :class:`Span` of its
definition so generated code and messages can point back to the spec, and variants
keep the note and provenance of each change.

Expressions and effects are the typed nodes of :mod:`compiler.front.expr`; their types are
re-derived on demand by :func:`compiler.check.types.infer`, which needs only the model.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .diagnostics import Span
from .front.expr import Expr, Stmt
from .language import COLUMN_TYPES as _COLUMN_TYPES
from .language import DOMAINS as _DOMAINS
from .language import SHAPES as _SHAPES
from .language import ColumnType, Shape

# Parameter domains an action or a step can choose from (declared in compiler/language/domains.py).
DOMAINS = tuple(_DOMAINS)

# How many times a step runs in a turn, and who decides.
REPEATS = ("once", "while")
RESOLVES = ("choice", "all")
FINISHES = ("complete_round", "immediately")
PREFERS = ("highest", "lowest")
# The types of a column of a component table (rulespec/README.md, Kinds; compiler/language/columns.py).
COLUMN_TYPES: tuple[ColumnType, ...] = tuple(_COLUMN_TYPES)
# Where components lie (rulespec/README.md, Zones; compiler/language/shapes.py): a hidden ordered pile, a
# face-up display of fixed slots, a face-up row that closes up, a holding (per player or shared).
SHAPES: tuple[Shape, ...] = tuple(_SHAPES)
STARTS = ("empty", "all", "dealt")
# How long a declared variable keeps its value: the whole game, or until the next turn begins.
RESETS = ("game", "turn")
# The value that, when a spec states it, is the length cap of its engines in turns (a game still
# going after it ends as truncated); a value like any other in expressions.
LENGTH_CAP = "max_turns"


@dataclass(frozen=True, slots=True)
class Text:
    """A piece of prose from the spec: an English text and optional translations."""

    en: str
    translations: tuple[tuple[str, str], ...] = ()

    def get(self, lang: str) -> str | None:
        if lang == "en":
            return self.en
        return dict(self.translations).get(lang)


@dataclass(frozen=True, slots=True)
class AuthoredText:
    """A rule told in players' words (`text:`), with placeholders (`{token_limit}`) for the spec's numbers.

    The sheets print it instead of the generated phrase while it is fresh: `fingerprint` is the
    hash of the rule's checked tree in the file that wrote the text (:mod:`compiler.check.texts`),
    and a variant that changes the rule without writing a new text leaves it stale (`stale`, with
    `changed_at`, the variant's change), so that a sheet never states a rule the engine replaced."""

    texts: tuple[tuple[str, str], ...]  # (language, text), in the order of the sheet languages
    span: Span  # the `text:` mapping, in the file that wrote it
    fingerprint: str  # the described rule's fingerprint where the text is written
    spans: tuple[tuple[str, Span], ...] = ()  # each language's string, for diagnostics
    stale: bool = False  # the rule is not the one the text was written for
    changed_at: Span | None = None  # stale: where the rule was changed

    def get(self, lang: str) -> str | None:
        return dict(self.texts).get(lang)


@dataclass(frozen=True, slots=True)
class ItemWords:
    """One component of a kind, in one language, as a phrase needs it to agree: its plural forms
    (CLDR category -> word; ``one`` is the item's text) and its gender (compiler/language/grammar.py),
    each only where the spec gives them."""

    lang: str
    forms: tuple[tuple[str, str], ...] = ()
    gender: str = ""

    def form(self, category: str) -> str | None:
        return dict(self.forms).get(category)


@dataclass(frozen=True, slots=True)
class Change:
    """What a variant did to one element of its base, for sheets and diffs."""

    kind: str  # "set", "add" or "remove"
    path: str  # e.g. "actions.take_pair.condition"
    file: str  # the variant file that made the change
    span: Span | None
    note: Text | None = None


@dataclass(frozen=True, slots=True)
class Card:
    id: int  # index in the spec's card list
    level: int
    bonus: int  # index into Rules.gems
    points: int
    cost: tuple[int, ...]  # per gem, in Rules.gems order
    span: Span
    gives: int = 1  # how many bonuses of its colour it gives (the kind's `bonus_count` column; else 1)
    series: str = (
        ""  # the series of the kind it belongs to (Kind.series), '' for the kind's own table: dealt by the base game
    )


@dataclass(frozen=True, slots=True)
class Noble:
    id: int
    points: int
    requires: tuple[int, ...]
    span: Span


@dataclass(frozen=True, slots=True)
class Column:
    """A declared column of a component table: its attribute name and type (one of COLUMN_TYPES)."""

    name: str
    type: ColumnType
    span: Span  # where the spec declares it
    group: bool = False  # number only: it groups the components (levels)
    optional: bool = False  # gem only: an empty cell is `none`
    prefix: str = ""  # gems only: the headers are prefix + each gem colour
    header: str = ""  # not gems: the CSV header, when it is not the name
    titles: tuple = ()  # keyword only: (keyword, Text) of each of its keywords, what sheets call it
    title: Text | None = None  # what sheets call the column (default: its name)
    default: object = None  # the value of the rows of a table that leaves the column out (with `defaulted`)
    defaulted: bool = False  # a table may leave the column out (`default:`): its rows then hold `default`


@dataclass(frozen=True, slots=True)
class Component:
    """One row of a kind's table: its values in the order of Kind.columns.

    A value is an int (number), a gem index or None (gem), a colour index (colour: the gems,
    then the wild colour), a tuple of ints in gem order (gems), or a str (keyword, prose)."""

    id: int  # the row's index among the table's components
    values: tuple
    span: Span  # the row in its CSV file
    piece: int = -1  # the value of the kind's faces_of column; -1 without one


@dataclass(frozen=True, slots=True)
class Series:
    """A further table of a base kind's components (`kinds: cards: series:`, rulespec/README.md, Kinds):
    cards of the same kind, read by the same columns, numbered after the kind's own table and those
    of the series before it, that the base game's deal leaves out: zones naming the series deal them."""

    name: str
    title: Text
    table: str  # its file, as shown in messages
    first: int  # the id of its first component
    count: int  # how many components it has
    span: Span  # where the spec names it

    @property
    def ids(self) -> range:
        """The ids of its components."""
        return range(self.first, self.first + self.count)


@dataclass(frozen=True, slots=True)
class Kind:
    """A kind of component: a CSV table with declared columns (rulespec/README.md, Kinds)."""

    name: str
    title: Text
    item: Text
    table: str  # the table's file, as shown in messages
    columns: tuple[Column, ...]
    components: tuple[Component, ...]
    span: Span  # where the spec declares the kind
    key: str = ""
    faces_of: str = ""
    note: Text | None = None
    grammar: tuple[ItemWords, ...] = ()  # the item's plural and gender, per language, where the spec gives them
    bonus_count: str = ""  # the base cards: the number column of the bonuses each card gives ("": one)
    series: tuple[Series, ...] = ()  # further tables of the kind, their components after the table's own

    def words(self, lang: str) -> ItemWords:
        """The item's plural forms and gender in `lang` (empty where the spec gives none)."""
        return next((w for w in self.grammar if w.lang == lang), ItemWords(lang))

    def value(self, component: Component, column: str):
        """A component's value of `column` (a column the kind has)."""
        return component.values[next(i for i, c in enumerate(self.columns) if c.name == column)]


@dataclass(frozen=True, slots=True)
class PlayerCount:
    players: int
    gems: int  # tokens of each gem colour
    gold: int
    nobles: int  # nobles revealed
    face_up: int  # face-up cards per level
    span: Span
    note: Text | None = None
    fields: tuple[tuple[str, int], ...] = ()  # the spec's declared fields (player_fields), in declaration order

    def field(self, name: str) -> int:
        """The row's value of a field, built in (`gems`) or declared by the spec (`cities`)."""
        return getattr(self, name) if name in BUILTIN_SETUP_FIELDS else dict(self.fields)[name]


# The fields every row of the player-count table has (the engines' own setup).
BUILTIN_SETUP_FIELDS = ("gems", "gold", "nobles", "face_up")


def setup_fields(declared, players) -> tuple[str, ...]:
    """The fields of the player-count table an expression may read as `setup.NAME`: the built-in
    ones, then the declared ones (`declared`: PlayerField values) every row gives (a row without
    one had its E543)."""
    return BUILTIN_SETUP_FIELDS + tuple(f.name for f in declared if all(f.name in dict(p.fields) for p in players))


@dataclass(frozen=True, slots=True)
class PlayerField:
    """A field of the player-count table the spec declares (`player_fields`): a number per row,
    read as `setup.NAME`, shown as a column of the setup table."""

    name: str
    title: Text
    span: Span
    note: Text | None = None


@dataclass(frozen=True, slots=True)
class Value:
    name: str
    value: int
    span: Span
    note: Text | None = None


@dataclass(frozen=True, slots=True)
class Wilds:
    """Components a payment may spend as wild tokens (`wilds:` on a payment choice): the acting
    player's components in a per-player holding, each standing for the wild tokens its `units`
    column says, each one used going where `spent` says (a zone of the kind, or "discard": out of
    the game). The holding's `limit` and the column's largest value bound the payments (E575)."""

    source: str  # the per-player holding they are taken from
    units: str  # the number column of its kind: the wild tokens one component stands for
    spent: str  # "discard", or the zone each component used goes to
    limit: int  # the holding's limit: at most this many set aside in one payment
    most_units: int  # the largest value of the column: what one component may add to a payment
    span: Span = field(compare=False)  # where the spec writes it (two specs' alike `wilds` are equal)


@dataclass(frozen=True, slots=True)
class Param:
    name: str
    domain: str  # one of DOMAINS
    span: Span
    min: int = 1  # gem_set only
    max: int = 1  # gem_set only
    optional: bool = False  # adds the value `none`
    price: Expr | None = None  # payment only: the price of gem `c`
    slots: int = 0  # reserved: how many reserved cards a player can hold; component: the positions it
    # names (a display's slots, a row's capacity, a holding's limit, a kind's components); sizes the action space
    slots_name: str = ""  # the value `slots` was taken from
    source: str = ""  # component only: the zone or kind the component is chosen from
    group: int = 0  # component only: of a zone split by a group column (`from: row[1]`), the group chosen from
    # component only, a choice across several zones (`from: [rows[1], rows[2]]`): each (zone, group, positions),
    # in order; its positions are theirs one after the other (source, group: the first's)
    parts: tuple[tuple[str, int, int], ...] = ()
    worth: Expr | None = None  # payment only: how many gems one wild token may stand for
    worth_max: int = 1  # payment only: the largest worth a game can reach (set by check; sizes the PAYMENTS table)
    wilds: Wilds | None = None  # payment only: components it may spend as wild tokens


@dataclass(frozen=True, slots=True)
class Decision:
    """An action, or an end-of-turn step: a choice among parameter values under a condition."""

    name: str
    title: Text
    notation: str
    params: tuple[Param, ...]
    condition: Expr
    effects: tuple[Stmt, ...]
    span: Span
    only_when_stuck: bool = False  # actions only
    ends_turn: bool = True  # actions only: false, the player chooses again in the same turn (at most once a turn)
    while_: Expr | None = None  # steps only: run while this holds
    repeat: str = "once"  # steps only
    max_: Expr | None = None  # steps with `repeat: while` only: at most this many of its actions a turn
    resolve: str = "choice"  # steps only
    # steps only: what a queued step is given, by name and type (it runs only when queued: queue(...),
    # compiler/check/queue.py); None for a step of every turn
    given: tuple[tuple[str, Any], ...] | None = None
    limit: int | None = None  # a queued step's longest chain in one turn (it can queue itself)
    note: Text | None = None
    text: AuthoredText | None = None  # the rule in players' words, if the spec gives it

    def param(self, name: str) -> Param | None:
        return next((p for p in self.params if p.name == name), None)


@dataclass(frozen=True, slots=True)
class SetupBlock:
    """Effects run once when a game is dealt, after the deal: once for the first player, or
    (each_player) once for each player in seat order."""

    name: str
    title: Text
    effects: tuple[Stmt, ...]
    span: Span
    each_player: bool = False
    note: Text | None = None


@dataclass(frozen=True, slots=True)
class Zone:
    """Where components of one kind lie (rulespec/README.md, Zones)."""

    name: str
    title: Text
    holds: str  # the kind
    shape: Shape
    span: Span
    per_player: bool = False  # holding only: one per seat
    by: str = ""  # a group column of the kind: one zone per group value
    size: Expr | None = None  # display/row: slots or capacity
    sizes: tuple[tuple[int, int], ...] = ()  # (players, size), computed by check from `size`
    source: str = ""  # display/row: the pile it is dealt and refilled from
    start: str = "empty"  # one of STARTS
    limit: int = 0  # holding: the most it holds (0: no limit)
    limit_name: str = ""  # the value `limit` was taken from
    size_field: str = ""  # the field of the player-count table `size` reads (setup.FIELD), if it reads one
    private_when_drawn: bool = False  # holding: a component drawn into it is seen by its owner only
    scores: str = ""  # holding: a number column its components add to the owner's prestige
    bonus: str = ""  # holding: a gem column, one bonus of that colour per component
    note: Text | None = None
    place: str = ""  # the base game's place it names (compiler/language/places.py), or ''
    series: str = ""  # a zone of a base kind that names no place: the series of the kind it deals (Kind.series)
    item: Text | None = None  # what one component lying there is called ("claimed city"), if the spec says
    grammar: tuple[ItemWords, ...] = ()  # that item's plural and gender, per language, where the spec gives them

    def words(self, lang: str) -> ItemWords:
        """The zone's item's plural forms and gender in `lang` (empty where the spec gives none)."""
        return next((w for w in self.grammar if w.lang == lang), ItemWords(lang))


@dataclass(frozen=True, slots=True)
class Variable:
    """Declared state: per game or per player, with a lifetime (rulespec/README.md, State)."""

    name: str
    title: Text
    type: object  # a compiler.check.types type
    span: Span
    per_player: bool = False
    initial: object = None  # int, bool, a colour index, a seat, or None (the type's default)
    optional: bool = False  # the value may be `none`
    reset: str = "game"  # one of RESETS
    private: bool = False  # per player: other seats do not see it
    note: Text | None = None
    display: bool = False  # a turn's variable shown on the web board as the game's state
    text: AuthoredText | None = None  # what players keep track of, in their words, if the spec gives it
    bonus_colour: bool = False  # by card: a set entry is the card's bonus colour in place of its column's


@dataclass(frozen=True, slots=True)
class Definition:
    """A named, parameterised predicate or quantity, inlined where it is called; or a procedure (`do:`),
    effects written out where it is called as an effect (compiler/check/procedures.py)."""

    name: str
    title: Text  # with a placeholder {param} for each parameter
    params: tuple[tuple[str, object], ...]  # (name, compiler.check.types type), in order
    body: Expr | Stmt  # a procedure's: its effects, a Sequence (their calls written out)
    result: object  # the type of `body` (a procedure's: EFFECTS, compiler/language/types.py)
    span: Span
    note: Text | None = None
    text: AuthoredText | None = None  # the rule in players' words, if the spec gives it


@dataclass(frozen=True, slots=True)
class PrestigeSource:
    """Prestige a player has besides their cards and nobles: a number over `player`."""

    name: str
    title: Text
    by: Expr
    span: Span
    note: Text | None = None
    text: AuthoredText | None = None  # the rule in players' words, if the spec gives it


@dataclass(frozen=True, slots=True)
class EndTrigger:
    name: str
    title: Text
    when: Expr
    finish: str  # one of FINISHES
    span: Span
    note: Text | None = None
    text: AuthoredText | None = None  # the rule in players' words, if the spec gives it


@dataclass(frozen=True, slots=True)
class RankLevel:
    name: str
    title: Text
    by: Expr  # over `player`
    prefer: str  # "highest" or "lowest"
    span: Span
    note: Text | None = None


@dataclass(frozen=True, slots=True)
class Winners:
    eligible: Expr  # over `player`: who may win at all
    ranking: tuple[RankLevel, ...]
    ties: str  # "shared": players still tied all win
    span: Span


@dataclass(frozen=True, slots=True)
class SectionText:
    """A whole section of the sheets told in players' words (`sections: {end: {text: ...}}`): `name` is
    the section (`setup`, `goal`, `end`), `text` its text, fingerprinted like a rule's over every rule
    the section states (:func:`compiler.check.texts.section_rules`)."""

    name: str
    span: Span
    text: AuthoredText | None = None


@dataclass(frozen=True, slots=True)
class SpecFile:
    """One file in a variant chain, for headers and provenance."""

    name: str
    path: str  # relative, with forward slashes
    sha256: str


@dataclass(frozen=True, slots=True)
class Rules:
    name: str
    title: Text
    description: Text
    source: SpecFile  # the spec this model was compiled from
    bases: tuple[SpecFile, ...]  # its bases, nearest first ("extends" chain)
    gems: tuple[str, ...]
    wild: str
    levels: tuple[int, ...]
    cards: tuple[Card, ...]
    nobles: tuple[Noble, ...]
    players: tuple[PlayerCount, ...]  # sorted by player count
    values: tuple[Value, ...]
    actions: tuple[Decision, ...]
    steps: tuple[Decision, ...]
    end: tuple[EndTrigger, ...]
    winners: Winners
    interpretations: tuple[Text, ...]
    changes: tuple[Change, ...] = ()  # empty for a spec that extends nothing
    kinds: tuple[Kind, ...] = ()  # every kind of component, the base game's `cards` and `nobles` first
    spans: Mapping[str, Span] = field(default_factory=dict)  # dotted path -> where it is defined
    first_player: Text | None = None  # who takes the first turn, in words (the language has no such rule)
    setup: tuple[SetupBlock, ...] = ()  # run once after the deal, in order
    zones: tuple[Zone, ...] = ()  # zones beyond the base game's layout, in declaration order
    variables: tuple[Variable, ...] = ()  # declared state, in declaration order
    definitions: tuple[Definition, ...] = ()
    prestige: tuple[PrestigeSource, ...] = ()  # added to every player's card and noble prestige
    player_fields: tuple[PlayerField, ...] = ()  # the player-count table's declared fields, in order
    symbols: tuple[tuple[str, Text], ...] = ()  # (colour, symbol) the spec writes on a colour's gems
    handling: tuple[Text, ...] = ()  # how the pieces are handled at the table, in words (sheets only)
    sections: tuple[SectionText, ...] = ()  # whole sections of the sheets told in players' words (`sections`)

    @property
    def colours(self) -> tuple[str, ...]:
        """Token colours: the gems, then the wild colour."""
        return self.gems + (self.wild,)

    def value(self, name: str) -> int:
        return next(v.value for v in self.values if v.name == name)

    @property
    def max_turns(self) -> int | None:
        """The engines' length cap: the value LENGTH_CAP where the spec states it, else none."""
        return next((v.value for v in self.values if v.name == LENGTH_CAP), None)

    def player_count(self, n: int) -> PlayerCount | None:
        return next((p for p in self.players if p.players == n), None)
