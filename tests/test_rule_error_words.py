"""An engine's RuleError carries a key and its fields (issue 31): str() says it in English for an
embedder, and `play` and the web table say it in each sheet language from the key and fields
(the sheets' ``rule_error.KEY``), never by reading the English back.

runtime -> words: every key the runtime and the lowering raise has its words in en, fr, nl and
sr; the web table's Words and `play`'s sentence are the same words; the error survives pickling
(a bot's worker process); web/rule_words.py reads no text back (no regular expression left).
"""

from __future__ import annotations

import ast
import pickle

import pytest

from compiler.emit.runtime import zones  # noqa: F401 - the engines with zones add their key (wrong_group)
from compiler.emit.runtime.errors import _RULE_ERRORS, RuleError
from compiler.sheets import refusals, tables
from compiler.sheets.plurals import LANGUAGES
from tests.helpers import ROOT
from web import rule_words

LOCATED = "take(gold, 2) (house.yaml:9)"
SAMPLES = {  # a RuleError of each key, as an engine raises it, and its English message
    "out_of_game": ({"located": LOCATED, "kind": "city", "id": 4}, "city 4 is out of the game (in no zone)"),
    "zone_full": ({"located": LOCATED, "zone": "board"}, "zone 'board' is full"),
    "nothing_to_move": ({"located": LOCATED}, "there is no component to move"),
    "wrong_level": (
        {"located": LOCATED, "card_level": 2, "level": 1, "zone": "rows"},
        "a level 2 card cannot go to level 1 of 'rows'",
    ),
    "wrong_group": (
        {"located": LOCATED, "column": "era", "value": 2, "group": 1, "zone": "relic_rows"},
        "a component of era 2 cannot go to era 1 of 'relic_rows'",
    ),
    "nothing_to_discard": ({"located": LOCATED}, "there is no component to discard"),
    "pile_empty": ({"located": LOCATED, "pile": "posts"}, "pile 'posts' is empty"),
    "negative_tokens": ({"located": LOCATED, "amount": -2}, "a negative number of tokens (-2)"),
    "short_supply": ({"located": LOCATED, "n": 1, "colour": "gold"}, "only 1 gold token(s) in the supply"),
    "short_held": ({"located": LOCATED, "n": 3, "colour": "white"}, "only 3 white token(s) held by the player"),
    "deck_empty": ({"located": LOCATED, "level": 3}, "the deck of level 3 is empty"),
    "reserved_most": (
        {"located": LOCATED, "n": 3},
        "the player holds 3 reserved cards, the most this spec's choices of a reserved card can name",
    ),
    "number_too_large": ({"located": LOCATED, "most": 10**12}, "the number passed 1,000,000,000,000 (either sign)"),
    "step_budget": (
        {"step": "trade", "count": 10000},
        "step 'trade' was stopped after 10,000 actions in one turn: its 'while' condition did not turn false",
    ),
}


def test_every_key_of_the_runtime_has_a_sample_here():
    assert set(SAMPLES) == set(_RULE_ERRORS)


@pytest.mark.parametrize("key", sorted(SAMPLES))
def test_a_rule_error_says_itself_in_english_from_its_key_and_fields(key):
    fields, english = SAMPLES[key]
    error = RuleError(key, fields)
    assert str(error) == (f"{LOCATED}: {english}" if "located" in fields else english)
    back = pickle.loads(pickle.dumps(error))  # as a worker process sends it back
    assert (back.key, back.fields, str(back)) == (key, fields, str(error))


@pytest.mark.parametrize("key", sorted(SAMPLES))
def test_each_key_is_said_in_four_languages_alike_by_play_and_the_web_table(key):
    error = RuleError(key, SAMPLES[key][0])
    words = rule_words.rule_error_words(error)
    assert not isinstance(words, str), key
    texts = {}
    for lang in LANGUAGES:
        told = refusals.rule_error_told(error, lang)
        assert told is not None and words.said(lang) == told, (lang, key)  # one source of words
        assert "{" not in told and "(s)" not in told, told
        assert told.startswith(LOCATED) or "located" not in SAMPLES[key][0]
        texts[lang] = told
    assert len(set(texts.values())) == len(LANGUAGES)  # each language its own


def test_a_count_takes_its_plural_and_a_long_number_is_grouped():
    short = RuleError("short_supply", {"located": LOCATED, "n": 1, "colour": "gold"})
    assert refusals.rule_error_told(short, "en") == f"{LOCATED}: only 1 gold token in the supply"
    held = RuleError("short_held", {"located": LOCATED, "n": 3, "colour": "white"})
    assert refusals.rule_error_told(held, "sr") == f"{LOCATED}: играч има само 3 жетона боје white"
    budget = RuleError("step_budget", {"step": "trade", "count": 10000})
    assert refusals.rule_error_told(budget, "fr").startswith(
        "l'étape « trade » a été arrêtée après 10\u202f000 actions"
    )


def test_an_error_of_an_older_engine_is_said_in_its_own_words():
    class RuleError(RuntimeError):  # an engine built before RuleErrors had a key
        pass

    old = RuleError("take(x) (s.yaml:1): something \x1b[2J new")
    assert refusals.rule_error_told(old, "fr") is None
    assert rule_words.rule_error_words(old) == "take(x) (s.yaml:1): something \\x1b[2J new"
    unknown = RuleError()
    unknown.key, unknown.fields = "from_a_newer_engine", {"located": "x"}  # type: ignore[attr-defined]
    assert refusals.rule_error_told(unknown, "nl") is None


HELPERS = ("rule_error", "raise_rule_error")  # compiler/lower/tokens.py: a key passed on, not written


def raised_keys(path) -> list[str]:
    """The key of each RuleError a module of the compiler writes: `RuleError("KEY", ...)` in the
    runtime, `rule_error("KEY", ...)` in the lowering (a constant, or one of two constants)."""
    keys = []
    tree = ast.parse(path.read_text(encoding="utf-8"))
    helpers = [f for f in ast.walk(tree) if isinstance(f, ast.FunctionDef) and f.name in HELPERS]
    passed_on = {id(node) for f in helpers for node in ast.walk(f)}  # the helpers pass a key on
    for node in ast.walk(tree):
        if (
            id(node) not in passed_on
            and isinstance(node, ast.Call)
            and getattr(node.func, "id", None) in ("RuleError", "rule_error")
        ):
            first = node.args[0]
            branches = [first.body, first.orelse] if isinstance(first, ast.IfExp) else [first]
            assert all(isinstance(b, ast.Constant) for b in branches), f"{path}:{node.lineno}: a key not written out"
            keys += [b.value for b in branches]
    return keys


def test_every_rule_error_the_compiler_writes_has_a_known_key_and_words_in_each_language():
    modules = [*(ROOT / "compiler" / "emit" / "runtime").glob("*.py"), *(ROOT / "compiler" / "lower").glob("*.py")]
    keys = [key for path in modules for key in raised_keys(path)]
    assert len(keys) >= 14 and set(keys) == set(_RULE_ERRORS)  # every key raised, and only those
    for lang in LANGUAGES:
        table = tables.load(lang)
        assert [k for k in _RULE_ERRORS if not table.has(f"rule_error.{k}")] == [], lang


def test_the_web_reads_no_rule_error_back_from_its_text():
    source = (ROOT / "web" / "rule_words.py").read_text(encoding="utf-8")
    tree = ast.parse(source)
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    imported |= {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module}
    assert "re" not in imported and "regex" not in imported and "re.compile" not in source
