"""The diagnostic codes: every code defined once, with its family, severity and meaning.

A :class:`~compiler.diagnostics.Diagnostic` refuses a code that is not here (or one made
with another severity than the code's), so a pass cannot invent a code, and a code cannot
mean one thing in one module and another elsewhere. ``rulespec/README.md`` (its
Diagnostics section) documents the same codes with the same one-line meanings;
``tests/test_codes.py`` holds the two together and finds code literals in the sources
that are not registered.

The meanings are written as the README shows them (Markdown: `name` is code).
"""

from __future__ import annotations

from dataclasses import dataclass

ERROR = "error"
WARNING = "warning"  # shown by `check -W`; a spec with only warnings is clean


@dataclass(frozen=True, slots=True)
class Family:
    """A group of codes: the pass that reports them."""

    name: str
    passes: str  # the modules that report them


LOAD = Family("load", "`compiler/front/source.py`")
SCHEMA = Family(
    "schema",
    "`compiler/front/schema.py`, `compiler/check/` (`reader`, the section modules, `kinds`), `compiler/pipeline.py`",
)
EXPRESSIONS = Family("expression syntax", "`compiler/front/expr.py`")
OVERLAY = Family("overlay", "`compiler/front/overlay.py`")
NAMES_AND_TYPES = Family("names and types", "`compiler/check/` (`tables`, `choices`, `ending`, `types`)")
SENSE = Family(
    "sense and flow",
    "`compiler/check/` (`tables`, `decisions`, `choices`, `sizes`, `setup`, `ending`, "
    "`kinds`, `flow`, `bounds`), "
    "`compiler/emit/engine.py`, `app/rule_errors.py`",
)
NATIVE = Family("native build", "`compiler/native/build.py`")
INTERNAL = Family("internal", "`compiler/emit/engine.py`")
SHEETS = Family(
    "translations and sheets", "`compiler/sheets/lint.py`, `compiler/sheets/tables.py`, `compiler/check/texts.py`"
)
SAVED_GAMES = Family("saved games", "`playtest/saved_games.py` (`play --load FILE`, `load FILE` in play)")


@dataclass(frozen=True, slots=True)
class Code:
    code: str
    family: Family
    meaning: str
    severity: str = ERROR


def _codes(family: Family, *entries: tuple[str, str] | tuple[str, str, str]) -> list[Code]:
    return [Code(entry[0], family, entry[1], *entry[2:]) for entry in entries]


def _index(entries: list[Code]) -> dict[str, Code]:
    """The codes by name; a code defined twice is refused when the module is imported."""
    index: dict[str, Code] = {}
    for entry in entries:
        if entry.code in index:
            raise ValueError(f"diagnostic code {entry.code} is defined twice")
        index[entry.code] = entry
    return index


CODES: dict[str, Code] = _index(
    [
        *_codes(
            LOAD,
            (
                "E001",
                "a file that cannot be read: not found, not a file, not readable (or a folder that holds no spec)",
            ),
            ("E002", "a file that is binary, not UTF-8 or too large"),
            ("E010", "a YAML syntax error"),
            ("E011", "an empty file, or a file of several YAML documents"),
            ("E012", "nesting too deep"),
            ("E013", "an alias bomb or a recursive alias"),
            (
                "E014",
                "tags, merge keys and values no spec can use (NaN, a lone surrogate from an escape such as "
                '`"\\uDFFF"`)',
            ),
            (
                "E015",
                "a key that is not a name or a whole number (a list, a mapping, a fraction, a truth value, nothing)",
            ),
            ("E016", "a duplicate key"),
            ("E017", "a value cut at a comma inside `[...]` or `{...}` (`effects: [take(colour, 2)]`)"),
        ),
        *_codes(
            SCHEMA,
            ("E100", "the file is not a mapping"),
            ("E101", 'unknown key (with "did you mean", or the keys allowed there)'),
            ("E102", "missing required key(s)"),
            ("E103", "wrong type (\"must be a whole number, not the text 'four'\")"),
            ("E104", "a text in a language the sheets do not have, or a text without its English (`en`)"),
            ("E105", "a malformed name"),
            ("E106", "a value outside its choices (with the allowed values)"),
            ("E107", "a component table (CSV: cards, nobles, any kind) with a wrong header, row or cell"),
            ("E108", "a number out of range"),
            ("E109", "an empty text, list or table"),
            ("E110", "an item listed twice"),
            (
                "E111",
                "a key that does not fit with the others: `min` outside `gem_set`, `optional` on a `gem_set` or "
                "a `payment`, overlay keys in a full spec, "
                "`before` without `add`, a removal with other keys",
            ),
            (
                "E112",
                "a component table that cannot be found or read, or that is named by an absolute path "
                "(tables are named relative to the spec's folder)",
            ),
            ("E113", "a key given both as text and as a number (`3:` and `'3':`)"),
            ("E114", "a variant index (`variants/index.yaml`) that is not a list `variants` of variant names"),
            (
                "E120",
                "a column declaration that makes no sense: `group`, `optional`, `prefix`, `header` or `default` on "
                "a type that has none, two columns reading the same CSV header, a `default` that does not fit its "
                "column (or on a group column)",
            ),
            ("E121", "a base kind given twice in one file: as `components.cards` (or `nobles`) and in `kinds`"),
            (
                "E122",
                "a kind's `key`, `faces_of` or `bonus_count` naming no column, or a column of the wrong type; "
                "`bonus_count` on a kind but `cards`",
            ),
            ("E123", "two components with the same `key`"),
            ("E124", "a component table with no rows"),
            ("E125", "a kind no rule can reach (no zone holds it)", WARNING),
            ("E126", "a kind's `item` with a plural form or a gender its language does not have, or without its word"),
            (
                "E127",
                "a kind's `series` on a kind but `cards` (a series is a further table of development cards, "
                "which the base game's deal leaves out), or a series no zone deals (a `start: all` pile, or a "
                "display or row dealt without a source, naming it): its cards would lie nowhere",
            ),
        ),
        *_codes(
            EXPRESSIONS,
            ("E200", "an empty expression"),
            ("E201", "an unexpected character"),
            ("E202", "an expression that ends too early (a bracket or a quote never closed)"),
            ("E203", "an unexpected token (`=` for `==`)"),
            ("E204", "an expression too long or too deeply nested"),
        ),
        *_codes(
            OVERLAY,
            ("E301", "a base spec (or a spec name) not found"),
            ("E302", "a cycle of `extends`"),
            ("E303", "a change to a key the base lacks"),
            ("E304", "`add: true` for a key the base already has"),
            ("E305", "a removal of what the base does not have"),
            ("E306", "a removal without a reason"),
            ("E307", "`before` or `after` naming no entry of the base, or the entry itself, or both given"),
            ("E308", "a field that does not exist or does not fit the entry"),
            ("E309", "a bad `extends` (neither a name nor a relative path ending in .yaml)"),
            ("E310", "an entry that is not a mapping"),
            ("E311", "a bookkeeping key (`add`, `remove`, `before`, `after`) where it means nothing"),
            ("E312", "a removal with other fields"),
            ("E313", "`prepend` or `append` where the base has no list to edit"),
            ("E314", "a chain of variants more than 32 deep"),
        ),
        *_codes(
            NAMES_AND_TYPES,
            ("E401", "unknown name"),
            ("E402", "a function named without brackets"),
            ("E403", "unknown attribute"),
            ("E404", "an index (`[...]`) on what cannot be indexed"),
            ("E405", "unknown function or aggregate"),
            (
                "E406",
                "built-in name reused (or an end trigger named `stuck` or `truncated`, the engines' own end reasons)",
            ),
            ("E407", "an aggregate called as a function (`max(x)` for `max(x for x in ...)`)"),
            ("E408", "wrong number of arguments"),
            ("E409", "unknown effect"),
            ("E410", "type mismatch"),
            ("E411", "unknown domain of a choice"),
            (
                "E412",
                "a keyword (`'five_prestige'`) where no keyword column's value is wanted, or that no component "
                "has in the column it is compared with",
            ),
        ),
        *_codes(
            SENSE,
            (
                "E501",
                "gem colours or player counts that make no sense (no colour, a colour listed twice or also "
                "the wild colour, a player count below 1, a negative count), or a colour's symbol that does not "
                "fit (`components.symbols`)",
            ),
            ("E502", "gap in the player-count table (or no row)"),
            ("E503", "too few nobles"),
            ("E504", "too few cards for the face-up rows (or card levels with a gap)"),
            ("E505", "no action, or a misuse of `only_when_stuck` or of a field of end-of-turn steps"),
            (
                "E506",
                "notation that does not show the choices as written (a lone brace, a bad optional part, a "
                "choice missing or unknown)",
            ),
            (
                "E507",
                "an action (or step) that can never be legal: its condition never holds, or one of its choices "
                "has no value (no row reveals a noble or has face-up cards, no reserved slots, gem sets larger "
                "than the colours)",
            ),
            (
                "E508",
                "a choice whose keys do not fit its domain (`min`/`max` outside `gem_set` or not a range, "
                "`price` outside `payment`, `slots` outside `reserved` or below 1, "
                "`optional` on a `gem_set` or a `payment`)",
            ),
            ("E509", "an end trigger that can never fire (or no end trigger)"),
            ("E510", "effects that move a chosen card or noble twice or refill a slot its card has not left"),
            ("E511", "a payment after tokens left the player"),
            ("E512", "an effect that can move more tokens than its condition ensures", WARNING),
            ("E513", "a divisor (`//`, `%`) that can be 0"),
            (
                "E514",
                "a deck, face-up or market index (or `reserve_top` argument, or the group of a zone split by "
                'a column: `rows[level]`, `from: "rows[1]"`, `relic_decks[4]`) that can be no level (no value of '
                "the column)",
            ),
            ("E515", "an engine of more than 10,000 actions"),
            ("E516", "no end trigger is sure to fire", WARNING),
            ("E517", "a `price` that can be below 0 (paying it would give the player tokens; write `max(0, ...)`)"),
            ("E518", "an action or step named as an engine phase (`action`, `over`, `payment`)"),
            ("E519", "a step named as an action"),
            (
                "E521",
                "a payment that is not the last choice after another, or in an end-of-turn step that resolves all",
            ),
            ("E522", "two actions written the same way"),
            (
                "E530",
                "a `repeat: while` step that may repeat for ever: nothing proves its actions make `while` false, "
                "and it has no `max`",
            ),
            (
                "E531",
                "a step's `max` that is not a number of actions fixed for the game, from 1 to 10,000 (and at most "
                "200,000 with its choices), or on a step that does not repeat",
            ),
            (
                "E535",
                "an effect a game could not carry out (`simulate`, `play`): the engine's RuleError, at the effect",
            ),
            (
                "E546",
                "a base kind (`cards`, `nobles`) declared without a column the engines read, with it of another "
                "type, or with an extra column the engines cannot name (`id`, a Python keyword, a leading `_`)",
            ),
            ("E548", "a payment's `worth` not proved within 1 to 4 gems in every game under the spec"),
            (
                "E575",
                "a payment's `wilds` that cannot be bounded: not from a per-player holding with a `limit`, "
                "`units` not a number column of 1 to 4, or `spent` neither `discard` nor a shared zone of its kind",
            ),
            (
                "E581",
                "a base noble taken out of the game (`discard` of a noble of the noble row or of a player's "
                "visiting nobles): the nobles in play stay as many as the deal revealed",
            ),
            ("E549", "a spec without the base kinds `cards` and `nobles` (the engines are built around them)"),
            (
                "E552",
                "a setup block without `each_player: true` with an effect that acts for a player (or a procedure "
                "that reads `me`), or setup that takes more tokens than the supply holds, reserves more cards "
                "than a deck holds or draws more components than a pile holds (or into a full zone) at some "
                "player count",
            ),
            (
                "E540",
                "a name declared by a spec (a variable, zone, kind, definition, player-count field) that is "
                "already the name of something else",
            ),
            (
                "E550",
                "a definition that is recursive (calls itself, directly or through others; a procedure too) or, "
                "with `is:`, reads `me` or `player`",
            ),
            ("E554", "a prestige source that is not a number, or that reads prestige"),
            (
                "E556",
                "a call of a definition that an engine would write out as more than 10,000 expression nodes "
                "(definitions calling others several times, down a chain)",
            ),
            (
                "E544",
                "a variable whose type, initial value or options do not fit (a missing or mistyped initial value, "
                "an unknown type, `optional` on a number, `private` on a shared variable, a `by:` naming no colour "
                "or kind, or keying a set; a `bonus_colour` variable that is not an optional gem for the game "
                "keyed by `cards`, or a second one)",
            ),
            (
                "E545",
                "an effect on state that does not fit: `set`/`add`/`insert`/`drop` on something that is not a "
                "declared variable, writing a value of another type, or a keyed variable written without its key",
            ),
            ("E555", "a `reset: turn` variable that no effect sets", WARNING),
            (
                "E557",
                "a `for` over a collection that an earlier `for` of the same effects empties (its body takes each "
                "element out), with nothing put back in between: it walks nothing",
                WARNING,
            ),
            (
                "E543",
                "a field of the player-count table that does not fit `player_fields`: a row giving a field that "
                "is not declared, a row without a declared field, or a value that is not a whole number from 0 to "
                "1000",
            ),
            (
                "E541",
                "a zone that does not fit its shape: `holds` naming no kind of the spec (or a base kind, in a "
                "pile, display or row without the `place` of the base game it is or a `series` of the cards; a "
                "`series` the cards have not, or beside a `place`), a key its shape has not, a `source` that is "
                "no pile of the same kind, `refill` of a zone without one, a `place` of another kind or shape, "
                "named twice, or given what the base game lays out (`start`, `source`, `size`, "
                "`private_when_drawn`; `by` but where it splits the place: `by: level` on `face_up` and `decks`, "
                "which need it), a `by` that is no `group: true` column of the kind, a split display's or row's "
                "`source` that is not split by the same column (or a split source of a zone that is not split)",
            ),
            (
                "E542",
                "a zone's `size` that is not fixed before play, is outside 0..100, or exceeds what its kind can deal "
                "at some player count (or a holding's `limit` outside 1..100)",
            ),
            ("E547", "a chosen component moved twice in one list of effects (or inside a `for`)"),
            ("E551", "the contents of a face-down pile read (only `size(pile)` may be)"),
            (
                "E558",
                "another seat's private data read: a `private` variable or the components drawn into a "
                "`private_when_drawn` holding, read by a rule for another player (or by a prestige source)",
            ),
            (
                "E553",
                "a `component` choice from a pile, from a holding without `limit`, or from no zone or kind; "
                'from a zone split by level without its level (`from: "rows[1]"`), or an index of a zone that '
                "is not split",
            ),
            (
                "E560",
                "a kind dealt twice: a second zone dealt from the kind itself (a `start: all` pile, or a "
                "`start: dealt` display or row without a `source`) after another",
            ),
            (
                "E570",
                "an action that does not end the turn (`ends_turn: false`) where a turn could not end: every "
                "action of the spec, or the action taken when stuck",
            ),
            ("E571", "`extra_turn()` where no turn is played: in `setup`"),
            (
                "E572",
                "a procedure (a definition with `do:`) called in an expression, where a value is wanted, or a "
                "definition of a value (`is:`) called as an effect",
            ),
            (
                "E576",
                "`queue(...)` that names no queued step (one with `given:`), gives it a value it does not declare "
                "or leaves one out, or stands in `setup`; a card or noble given to a queued step moved by it",
            ),
            (
                "E577",
                "a queued step that can queue itself again (a chain with no end) without `limit: N`, or a `limit` "
                "that is not a whole number from 1 to 100 on a queued step",
            ),
            (
                "E578",
                "a queued step (one with `given:`) that no `queue(...)` of the spec names: it never runs",
                WARNING,
            ),
        ),
        *_codes(
            NATIVE,
            (
                "E597",
                "a native engine that cannot be built (`--native`): Cython (the `native` extra), a C compiler or "
                "Python's C headers missing, or a build step that failed; the pure-Python engine still plays",
            ),
        ),
        *_codes(
            INTERNAL,
            (
                "E598",
                "the engine cannot be laid out: ruff, the formatter pinned in pyproject.toml, is missing, "
                "another release, or failed (reported by `compile`)",
            ),
            ("E599", "the generated engine does not parse: a bug of splendor-rules (reported by `compile`)"),
        ),
        *_codes(
            SHEETS,
            (
                "E601",
                "a language table that is not a flat mapping of texts, or a text whose plural forms are not "
                "its language's",
            ),
            ("E602", "a key that the English table has and another table lacks"),
            ("E603", "a key that another table has and the English table lacks"),
            ("E604", "a text whose placeholders differ from the English text's"),
            ("E605", "a colour of the spec that a language table has no words for"),
            ("E606", "a sheet language that has no table"),
            ("E610", "a text written by a variant that lacks one of the sheet languages", WARNING),
            ("E620", "a placeholder in a rule's `text` that names no number of the spec (or a lone brace)"),
            ("E621", "a rule's `text` without a language that the spec's other rule texts have"),
            (
                "E622",
                "a number written as a digit in a rule's `text` where a placeholder names that value of the rule",
                WARNING,
            ),
            (
                "E623",
                "a rule's `text` that describes the rule it replaced: a variant changed the rule, not its text "
                "(the sheets print the generated phrase)",
                WARNING,
            ),
        ),
        *_codes(
            SAVED_GAMES,
            ("E701", "the file is not UTF-8 text"),
            ("E702", "the file is not JSON"),
            ("E703", "JSON past what a saved game holds: nested too deeply, or a whole number of thousands of digits"),
            (
                "E710",
                "a state the engine refuses (one per problem: types, ranges, the invariants between fields, a "
                "player to move with no legal action, a history that does not lead from `start` to the state)",
            ),
            (
                "E711",
                "a sound state that does not fit the game in play (`load FILE` of a game with another number of "
                "players)",
            ),
        ),
    ]
)


class UnknownCode(ValueError):
    """A diagnostic made with a code that is not registered (a bug of splendor-rules)."""


def require(code: str, severity: str) -> Code:
    """The registered `code`, made with its own severity; UnknownCode otherwise."""
    entry = CODES.get(code)
    if entry is None:
        raise UnknownCode(f"diagnostic code {code!r} is not registered in compiler/codes.py")
    if severity != entry.severity:
        raise UnknownCode(
            f"diagnostic code {code} is {'a warning' if entry.severity == WARNING else 'an error'}, "
            f"not made as {severity!r}"
        )
    return entry


def documented(entry: Code) -> str:
    """The meaning as the README's table writes it: a warning says so first."""
    return f"(warning) {entry.meaning}" if entry.severity == WARNING else entry.meaning
