"""Mutation testing of the front end: the official spec, broken at random.

Each example mutates rulespec/official.yaml -- drops a key, changes a value's type,
corrupts an expression, swaps two values, renames a key, duplicates, deletes or swaps
lines, inserts garbage characters or bytes -- and runs `splendor-rules check` on the
result. Whatever the mutation, the run ends clean (exit 0) or with diagnostics that are
all located (file:line:col, the source line and a caret), never with a traceback or an
internal error (exit 3). Sections the official spec lacks (setup, definitions and prestige
sources, state, zones, a payment's worth) are added and mutated too, and so is the Trading
Posts variant (a keyword column and its titles, a set of posts as state, keyword literals,
its table's power cells); a mutant that checks clean compiles and its engine plays. The suite
draws 420 examples in all.
"""

from __future__ import annotations

import copy
import os
import pathlib
import random
import re
import runpy
import shutil

import pytest
import yaml
from click.testing import CliRunner
from hypothesis import HealthCheck, event, given, note, settings
from hypothesis import strategies as st

import compiler.check.build  # noqa: F401 - import every pass up front
import compiler.pipeline  # noqa: F401
from app import cli
from tests.helpers import ROOT
from tests.helpers.mutations import (
    ALL_PATHS,
    EXPRESSIONS,
    GARBAGE,
    HEAD,
    KEYED,
    LEAVES,
    LINES,
    NAMES,
    ODD_VALUES,
    OFFICIAL,
    OFFICIAL_TEXT,
    WITH_ZONES,
    ZONE_PATHS,
    ZONE_VALUES,
    dump,
    get_at,
    mutated,
    paths_of,
    set_at,
)

# Examples per test (eleven tests, and two of the Trading Posts at half: 420 in all); SPLENDOR_MUTATION_EXAMPLES=5000 searches deeper.
# On CI (CI=true) the examples are the same on every run, so a red build is never a dice roll.
EXAMPLES = int(os.environ.get("SPLENDOR_MUTATION_EXAMPLES", "35"))
SETTINGS = settings(
    max_examples=EXAMPLES,
    deadline=None,
    database=None,
    derandomize=bool(os.environ.get("CI")),
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


@pytest.fixture(scope="module")
def workdir(tmp_path_factory) -> pathlib.Path:
    """A directory with the card and noble tables, where mutated specs are written."""
    path = tmp_path_factory.mktemp("mutations")
    for name in ("splendor_cards.csv", "splendor_nobles.csv"):
        shutil.copy(ROOT / "rulespec" / name, path / name)
    shutil.copy(ROOT / "variants" / "cities.csv", path / "cities.csv")  # the zones' kind
    return path


def check_outcome(workdir: pathlib.Path, data: bytes) -> int:
    """`check` of the spec `data`, written as workdir/mutant.yaml: its exit status (0 clean, 1
    refused, every diagnostic located)."""
    spec = workdir / "mutant.yaml"
    spec.write_bytes(data)
    result = CliRunner().invoke(cli.main, ["check", str(spec)])
    note(result.stderr)
    assert result.exit_code in (0, 1), f"exit status {result.exit_code}:\n{result.output}"
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output and "internal error" not in result.output
    if result.exit_code == 0:
        assert result.stderr == "" and ": ok (" in result.stdout
        return 0
    lines = result.stderr.splitlines()
    assert re.fullmatch(r"\d+ errors?", lines[-1]), lines[-1]
    heads = 0
    for i, line in enumerate(lines):
        if line.startswith("error[") or line.startswith("warning["):
            pytest.fail(f"a diagnostic without a location: {line}")
        m = HEAD.match(line)
        if not m:
            continue
        heads += 1
        assert int(m["line"]) >= 1 and int(m["col"]) >= 1
        empty = data.strip() == b"" and m["file"] == str(spec)
        if not empty:
            assert lines[i + 1].startswith(f" {m['line']} | "), f"no source line under {line}"
            assert "^" in lines[i + 2], f"no caret under {line}"
    assert heads == int(lines[-1].split()[0]), "every diagnostic counted is located"
    return result.exit_code


# --------------------------------------------------------------------------- data mutations


@SETTINGS
@given(path=st.sampled_from(ALL_PATHS), value=st.sampled_from(ODD_VALUES), drop=st.booleans())
def test_drop_a_key_or_change_its_type(workdir, path, value, drop):
    tree = copy.deepcopy(OFFICIAL)
    parent = get_at(tree, path[:-1])
    if drop:
        note(f"drop {path}")
        del parent[path[-1]]
    else:
        note(f"set {path} to {value!r}")
        parent[path[-1]] = value
    check_outcome(workdir, dump(tree))


@SETTINGS
@given(
    a=st.sampled_from(LEAVES),
    b=st.sampled_from(LEAVES),
    rename=st.sampled_from(KEYED),
    new_name=st.sampled_from(NAMES + [1, True, "Bad Name", "x-y"]),
)
def test_swap_values_or_rename_a_key(workdir, a, b, rename, new_name):
    tree = copy.deepcopy(OFFICIAL)
    note(f"swap {a} and {b}, rename {rename} to {new_name!r}")
    va, vb = get_at(tree, a), get_at(tree, b)
    set_at(tree, a, vb)
    set_at(tree, b, va)
    parent = get_at(tree, rename[:-1])
    if isinstance(parent, dict) and rename[-1] in parent and new_name not in parent:
        items = [(new_name if k == rename[-1] else k, v) for k, v in parent.items()]
        parent.clear()
        parent.update(items)
    check_outcome(workdir, dump(tree))


def junk(pieces: list[str], most: int):
    """A short string made of the given pieces (some are two characters long)."""
    return st.lists(st.sampled_from(pieces), min_size=1, max_size=most).map("".join)


@st.composite
def corrupted(draw, text: str) -> str:
    op = draw(st.sampled_from(["delete", "insert", "truncate", "duplicate", "rename", "wrap"]))
    i = draw(st.integers(0, len(text)))
    j = draw(st.integers(i, len(text)))
    if op == "delete":
        return text[:i] + text[j:]
    if op == "insert":
        return text[:i] + draw(junk(GARBAGE + list("abcz019_"), 4)) + text[i:]
    if op == "truncate":
        return text[:i]
    if op == "duplicate":
        return text[:j] + text[i:j] + text[j:]
    if op == "rename":
        names = re.findall(r"[a-z_]+", text)
        if names:
            return text.replace(draw(st.sampled_from(names)), draw(st.sampled_from(NAMES)), 1)
        return text
    before = draw(st.sampled_from(["(", "not ", "-", "all(", "sum(x for x in "]))
    return before + text + draw(st.sampled_from([")", "", "]", " and", "[0]"]))


@SETTINGS
@given(data=st.data(), paths=st.lists(st.sampled_from(EXPRESSIONS), min_size=1, max_size=3))
def test_corrupt_expressions(workdir, data, paths):
    tree = copy.deepcopy(OFFICIAL)
    for path in paths:
        new = data.draw(corrupted(get_at(tree, path)))
        note(f"{path}: {new!r}")
        set_at(tree, path, new)
    check_outcome(workdir, dump(tree))


# The setup section (the official spec has none): a head start, then mutated like the rest.
WITH_SETUP = {
    **OFFICIAL,
    "setup": {
        "head_start": {
            "title": {"en": "Starting holdings"},
            "each_player": True,
            "effects": ["take(gold, 1)", "reserve_top(1)"],
        }
    },
}
SETUP_PATHS = [p for p in paths_of(WITH_SETUP) if p[:1] == ("setup",)]


@SETTINGS
@given(
    path=st.sampled_from(SETUP_PATHS),
    value=st.sampled_from(ODD_VALUES + ["take(gold, 9)", "reserve_top(4)", "take(me, 1)", "reserve(card)"]),
    drop=st.booleans(),
)
def test_mutate_the_setup_section(workdir, path, value, drop):
    tree = copy.deepcopy(WITH_SETUP)
    if drop and len(path) > 1:
        note(f"drop {path}")
        del get_at(tree, path[:-1])[path[-1]]
    elif len(path) > 1:
        note(f"set {path} to {value!r}")
        set_at(tree, path, value)
    else:
        note(f"setup: {value!r}")
        tree["setup"] = value
    check_outcome(workdir, dump(tree))
    runs = len(path) == 1 or any(part in ("effects", "each_player") for part in path)
    if runs and CliRunner().invoke(cli.main, ["check", str(workdir / "mutant.yaml")]).exit_code == 0:
        # a mutation of what runs, check clean: it compiles, and its setup runs at every player count
        result = CliRunner().invoke(cli.main, ["compile", str(workdir / "mutant.yaml"), "-o", str(workdir)])
        assert result.exit_code == 0, result.output
        written = re.search(r"wrote (\S+\.py)", result.output)
        assert written, result.output
        engine = runpy.run_path(written[1])
        for players in engine["PLAYER_COUNTS"]:
            engine["new_game"](players, 1)


# Definitions and prestige sources (the official spec has none): a rainbow bonus, then mutated.
WITH_DEFINE = {
    **OFFICIAL,
    "define": {
        "has_rainbow": {
            "title": {"en": "{p} has a bonus of every gem colour"},
            "params": {"p": "player"},
            "is": "all(p.bonus[c] >= 1 for c in gems)",
        }
    },
    "prestige": {"rainbow": {"title": {"en": "Rainbow"}, "by": "if has_rainbow(player) then 3 else 0"}},
}
WITH_DEFINE["end"] = copy.deepcopy(OFFICIAL["end"])
for _trigger in WITH_DEFINE["end"].values():
    _trigger["when"] = f"({_trigger['when']}) or has_rainbow(me) and me.prestige >= 99"
DEFINE_PATHS = [p for p in paths_of(WITH_DEFINE) if p[:1] in (("define",), ("prestige",))] + [
    p for p in paths_of(WITH_DEFINE) if p[:1] == ("end",) and p[-1:] == ("when",)
]
DEFINE_VALUES = ODD_VALUES + [
    "person",
    "number",
    "flag",
    "gem",
    "colour",
    "card",
    "noble",
    "cards",
    "p.tokens",
    "p.bonus[c] >= 1",
    "me.prestige",
    "player.turns",
    "p",
    "red",
    "3",
    "has_rainbow(p)",
    "has_rainbow(player)",
    "has_rainbow(player, 1)",
    "has_rainbow(me)",
    "player.prestige",
    "if has_rainbow(player) then player else 0",
    "has_rainbow(3)",
    "size(gems)",
    {"p": "player", "q": "gem"},
    {"p": "nobody"},
    {"size": "number"},
]


@SETTINGS
@given(path=st.sampled_from(DEFINE_PATHS), value=st.sampled_from(DEFINE_VALUES), drop=st.booleans())
def test_mutate_definitions_and_prestige_sources(workdir, path, value, drop):
    """Wrong parameter types, bodies of the wrong type, calls with the wrong arguments, sources
    that are conditions or read prestige: located diagnostics; and whatever checks clean compiles
    to an engine whose scores include the sources."""
    tree = copy.deepcopy(WITH_DEFINE)
    if drop and len(path) > 1:
        note(f"drop {path}")
        del get_at(tree, path[:-1])[path[-1]]
    elif len(path) > 1:
        note(f"set {path} to {value!r}")
        set_at(tree, path, value)
    else:
        note(f"{path[0]}: {value!r}")
        tree[path[0]] = value
    check_outcome(workdir, dump(tree))
    if CliRunner().invoke(cli.main, ["check", str(workdir / "mutant.yaml")]).exit_code == 0:
        result = CliRunner().invoke(cli.main, ["compile", str(workdir / "mutant.yaml"), "-o", str(workdir)])
        assert result.exit_code == 0, result.output
        written = re.search(r"wrote (\S+\.py)", result.output)
        assert written, result.output
        engine = runpy.run_path(written[1])
        game = engine["new_game"](2, 1)
        for _ in range(30):
            if game.is_over():
                break
            game.apply(game.legal_actions()[0])
        assert len(game.scores()) == 2 and game.scores() == list(game.prestige)


# The state section (the official spec has none): a turn memory of the colours taken and a marker
# count per player, written by the effects of an action, then mutated like the rest.
WITH_STATE = copy.deepcopy(
    {
        **OFFICIAL,
        "state": {
            "taken": {"title": {"en": "Colours taken this turn"}, "type": {"set_of": "colour"}, "reset": "turn"},
            "markers": {"title": {"en": "Markers"}, "per_player": True, "type": "number", "initial": 5},
        },
    }
)
WITH_STATE["actions"]["take_pair"]["effects"] = ["take(colour, 2)", "insert(taken, colour)", "add(me.markers, -1)"]
STATE_PATHS = [p for p in paths_of(WITH_STATE) if p[:1] == ("state",)] + [
    ("actions", "take_pair", "effects", 1),
    ("actions", "take_pair", "effects", 2),
]
STATE_VALUES = ODD_VALUES + [
    "number",
    "flag",
    "gem",
    "colour",
    "player",
    "turn",
    "game",
    "red",
    "gold",
    5,
    True,
    {"set_of": "gem"},
    {"set_of": "nobles"},
    {"one_of": "cards"},
    "insert(taken, gold)",
    "drop(taken, colour)",
    "set(taken, picked)",
    "add(taken, 1)",
    "set(me.markers, colour)",
    "set(me.prestige, 1)",
    "if markers >= 1: add(me.markers, 1); insert(taken, red)",
]


@SETTINGS
@given(path=st.sampled_from(STATE_PATHS), value=st.sampled_from(STATE_VALUES), drop=st.booleans())
def test_mutate_the_state_section(workdir, path, value, drop):
    """A mutant of the declared state checks clean exactly when it compiles, and its engine plays."""
    tree = copy.deepcopy(WITH_STATE)
    if drop and len(path) > 1:
        note(f"drop {path}")
        del get_at(tree, path[:-1])[path[-1]]
    elif len(path) > 1:
        note(f"set {path} to {value!r}")
        set_at(tree, path, value)
    else:
        note(f"state: {value!r}")
        tree["state"] = value
    check_outcome(workdir, dump(tree))
    checked = CliRunner().invoke(cli.main, ["check", str(workdir / "mutant.yaml")]).exit_code == 0
    result = CliRunner().invoke(cli.main, ["compile", str(workdir / "mutant.yaml"), "-o", str(workdir)])
    assert result.exit_code == (0 if checked else 1), result.output
    if checked:
        written = re.search(r"wrote (\S+\.py)", result.output)
        assert written, result.output
        engine = runpy.run_path(written[1])
        game = engine["new_game"](2, 1)
        for _ in range(30):
            if game.is_over():
                break
            game.apply(game.legal_actions()[-1])
        assert engine["from_json"](game.to_json()).to_json() == game.to_json()


@SETTINGS
@given(path=st.sampled_from(ZONE_PATHS), value=st.sampled_from(ODD_VALUES + ZONE_VALUES), drop=st.booleans())
def test_mutate_the_zones_section(workdir, path, value, drop):
    tree = mutated(WITH_ZONES, path, value, drop)
    check_outcome(workdir, dump(tree))
    if CliRunner().invoke(cli.main, ["check", str(workdir / "mutant.yaml")]).exit_code == 0:
        # check clean: it compiles, and deals at every player count
        result = CliRunner().invoke(cli.main, ["compile", str(workdir / "mutant.yaml"), "-o", str(workdir)])
        assert result.exit_code == 0, result.output
        written = re.search(r"wrote (\S+\.py)", result.output)
        assert written, result.output
        engine = runpy.run_path(written[1])
        for players in engine["PLAYER_COUNTS"]:
            engine["new_game"](players, 1)


# A payment's worth (issue 16, item 7; the official spec has none): worths in and out of 1..4, of
# another type, on a choice of another domain, with the price dropped.
WORTHS = [
    "2",
    "1",
    "4",
    "0",
    "5",
    "-1",
    "me.nobles + 1",
    "if me.nobles >= 1 then 2 else 1",
    "me.tokens[gold]",
    "min(4, max(1, me.nobles))",
    "if card.level >= 2 then 3 else 1",
    "card.points",
    "payment.gold_total",
    "2 // (me.nobles)",
    "me.nobles >= 1",
    "true",
    "",
    "1 +",
    2,
    9,
    None,
    [],
    {"en": "2"},
]
WORTH_PLACES = [
    ("actions", "buy_face_up", "choose", "payment"),
    ("actions", "buy_reserved", "choose", "payment"),
    ("actions", "take_different", "choose", "picked"),
    ("actions", "reserve_blind", "choose", "level"),
]


@SETTINGS
@given(
    worths=st.lists(st.tuples(st.sampled_from(WORTH_PLACES), st.sampled_from(WORTHS)), min_size=1, max_size=3),
    drop_price=st.booleans(),
)
def test_mutate_a_payments_worth(workdir, worths, drop_price):
    """Whatever the worth, check is clean exactly when compile succeeds (never an exit 3), and a
    clean one's engine plays."""
    tree = copy.deepcopy(OFFICIAL)
    for place, worth in worths:
        choice = get_at(tree, place)
        if isinstance(choice, str):
            choice = {"domain": choice}
            set_at(tree, place, choice)
        choice["worth"] = worth
        note(f"{place}: worth {worth!r}")
    if drop_price:
        del get_at(tree, WORTH_PLACES[0])["price"]
        note("price dropped")
    check_outcome(workdir, dump(tree))
    checked = CliRunner().invoke(cli.main, ["check", str(workdir / "mutant.yaml")]).exit_code
    result = CliRunner().invoke(cli.main, ["compile", str(workdir / "mutant.yaml"), "-o", str(workdir)])
    assert result.exit_code == (0 if checked == 0 else 1), result.output
    if result.exit_code == 0:
        written = re.search(r"wrote (\S+\.py)", result.output)
        assert written, result.output
        engine = runpy.run_path(written[1])
        game, rng = engine["new_game"](2, 1), random.Random(1)
        for _ in range(60):
            if game.is_over():
                break
            game.apply(rng.choice(game.legal_actions()))


# The Trading Posts (variants/trading-posts.yaml, issue 16): a kind with a keyword column and its titles, a
# per-player set of its components, a definition with a `posts.power` parameter called with keywords,
# steps choosing a post from the kind, and worths that read a keyword; mutated like the rest, with the
# keyword literals and the table's power cells corrupted too.
TRADING_POSTS = yaml.safe_load((ROOT / "variants" / "trading-posts.yaml").read_text(encoding="utf-8"))
POSTS_CSV = (ROOT / "variants" / "trading_posts.csv").read_text(encoding="utf-8")
TRADING_PATHS = [
    p
    for p in paths_of(TRADING_POSTS)
    if p[:2] == ("kinds", "posts")
    or p[:1] in (("state",), ("define",), ("prestige",))
    or p[:2] in (("end_of_turn", "open_posts"), ("end_of_turn", "gem_after_purchase"), ("end_of_turn", "third_token"))
    or p[:1] == ("actions",)
    and p[-1:] == ("worth",)
]
TRADING_VALUES = [
    "number",
    "flag",
    "keyword",
    "gems",
    "posts",
    "posts.power",
    "posts.space",
    "posts.requires",
    "posts.nope",
    "cities.power",
    "power",
    "space",
    "component",
    "all",
    "choice",
    "once",
    "while",
    "turn",
    "game",
    {"type": "keyword"},
    {"type": "number", "titles": {"five_prestige": {"en": "Five"}}},
    {"type": "keyword", "titles": {"five_prestige": {"en": "Five"}}},
    {"type": "keyword", "titles": {"nope": {"en": "No such"}}},
    {"five_prestige": "Five"},
    {"set_of": "posts"},
    {"set_of": "power"},
    {"set_of": "posts.power"},
    {"one_of": "posts"},
    {"set_of": "cards"},
    {"domain": "component", "from": "posts"},
    {"domain": "component", "from": "markers"},
    {"domain": "component", "from": "posts", "optional": True},
    {"domain": "keyword"},
    {"p": "player"},
    {"p": "player", "power": "posts.space"},
    {"p": "posts", "power": "posts.power"},
    "'five_prestige'",
    "'nope'",
    "has_power(me, 'five_prestige')",
    "has_power(me, 'nope')",
    "has_power(me, 3)",
    "has_power(me, white)",
    "has_power(player, power)",
    "post.power == 'five_prestige'",
    "post.power == 'white'",
    "post.power == post.power",
    "'five_prestige' == 'five_prestige'",
    "post in me.markers",
    "size(me.markers) >= post.space",
    "any(t.power == power for t in posts)",
    "count(t.nobles >= 1 for t in p.markers)",
    "any(t.power == 'gold_counts_double' for t in me.markers)",
    "insert(me.markers, post)",
    "drop(me.markers, post)",
    "insert(markers, post)",
    "insert(me.markers, 'five_prestige')",
    "set(me.markers, post)",
    "for t in me.markers: drop(me.markers, t)",
    "for t in posts: insert(me.markers, t)",
    "size(player.markers)",
    "if has_power(me, 'five_prestige') then 3 else 1",
    "sum(t.space for t in me.markers)",
]


@pytest.fixture()
def posts_table(workdir):
    """The posts' table beside the mutant, as the variant has it (a test may corrupt it)."""
    (workdir / "trading_posts.csv").write_text(POSTS_CSV, encoding="utf-8")
    return workdir / "trading_posts.csv"


def plays_if_clean(workdir: pathlib.Path, checked: int, moves: int = 60) -> bool:
    """The mutant written last compiles when it checks clean (`checked`: the exit status of its
    check, by check_outcome: compile may pass what only the sheets refuse, never exit 3); the engine
    plays `moves` random moves, and its saved game (with the sets of posts) loads back as it was."""
    result = CliRunner().invoke(cli.main, ["compile", str(workdir / "mutant.yaml"), "-o", str(workdir)])
    assert result.exit_code in ((0,) if checked == 0 else (0, 1)), result.output
    if result.exit_code != 0:
        return False
    written = re.search(r"wrote (\S+\.py)", result.output)
    assert written, result.output
    engine = runpy.run_path(written[1])
    game, rng = engine["new_game"](2, 1), random.Random(1)
    for _ in range(moves):
        if game.is_over():
            break
        before = game.to_json()
        try:
            game.apply(rng.choice(game.legal_actions()))
        except engine["RuleError"]:  # documented: an effect the game cannot carry out (take from an empty supply)
            game = engine["from_json"](before)  # the move stopped the game half made: the state before it
            break
    assert engine["from_json"](game.to_json()).to_json() == game.to_json()
    return True


# Each mutant of the Trading Posts that checks clean compiles and plays (about 1.5 s): half the examples of the others.
TRADING_SETTINGS = settings(SETTINGS, max_examples=max(1, EXAMPLES // 2))


@TRADING_SETTINGS
@given(path=st.sampled_from(TRADING_PATHS), value=st.sampled_from(ODD_VALUES + TRADING_VALUES), drop=st.booleans())
def test_mutate_the_trading_posts(workdir, posts_table, path, value, drop):
    """The kind, its keyword column and titles, the set-of-posts state, the definition and its
    `posts.power` parameter, the steps choosing a post, the prestige sources and the worths:
    located diagnostics, or a mutant that compiles and plays."""
    tree = mutated(TRADING_POSTS, path, value, drop)
    checked = check_outcome(workdir, dump(tree))
    event("compiles and plays" if plays_if_clean(workdir, checked) else "compile refuses it")


# Queued steps (tests/specs/queue.yaml, issue 28): a definition that queues a step given a value, the
# step's `given:` and `limit:`; and wild components (tests/specs/treasures.yaml): a payment's
# `wilds: {from, units, spent}` in two actions and an end-of-turn step, over a kind of the spec's own.
# Mutated like the Trading Posts, with the values these constructs take.
QUEUE = yaml.safe_load((ROOT / "tests" / "specs" / "queue.yaml").read_text(encoding="utf-8"))
TREASURES = yaml.safe_load((ROOT / "tests" / "specs" / "treasures.yaml").read_text(encoding="utf-8"))
QUEUED_PATHS = [
    ("queue", p)
    for p in paths_of(QUEUE)
    if p[:1] in (("define",), ("actions",)) or p[:2] == ("end_of_turn", "free_card")
] + [
    ("treasures", p)
    for p in paths_of(TREASURES)
    if "wilds" in p or p[:2] in (("end_of_turn", "bargain"), ("kinds", "treasures"), ("zones", "vault"))
]
QUEUED_VALUES = [
    "number",
    "flag",
    "card",
    "gem",
    "player",
    "treasures",
    "vault",
    "treasure_row",
    "units",
    "name",
    "discard",
    "return",
    "free_card",
    "bargain",
    "level",
    {"level": "number"},
    {"level": "card"},
    {"level": "number", "card": "card"},
    {"level": "number", "me": "number"},  # a given value hiding a name of the game (E406)
    {"card": "number"},
    {"from": "vault", "units": "units"},
    {"from": "vault", "units": "name"},
    {"from": "treasure_row", "units": "units"},
    {"from": "nope", "units": "units"},
    {"from": "vault", "units": "units", "spent": "return"},
    {"from": "vault", "units": "units", "spent": "nope"},
    {"from": "vault"},
    {"domain": "payment", "wilds": {"from": "vault", "units": "units"}},
    {"wilds": {"from": "vault", "units": "units"}, "optional": True},
    "queue(free_card, level: 1)",
    "queue(free_card, level: card.level - 1)",
    "queue(free_card, level: card)",
    "queue(free_card)",
    "queue(free_card, 1)",
    "queue(free_card, level: 1, level: 2)",
    "queue(free_card, nope: 1)",
    "queue(bargain)",
    "queue(gain, card: card)",
    "queue(take_gems, level: 1)",
    "if card.level >= 2: queue(free_card, level: card.level - 1)",
    "for c in face_up: queue(free_card, level: c.level)",
    "gain(card)",
    "card.level == level",
    "level >= 1",
    "size(me.vault) >= 1",
    "sum(t.units for t in me.vault)",
    "move(treasure, me.vault)",
]


@TRADING_SETTINGS
@given(
    spot=st.sampled_from(QUEUED_PATHS),
    value=st.sampled_from(ODD_VALUES + QUEUED_VALUES),
    drop=st.booleans(),
)
def test_mutate_queued_steps_and_wilds(workdir, spot, value, drop):
    """A queue() and its named values, a step's given: and limit:, a payment's wilds (from, units,
    spent) and the kind and zone they read: located diagnostics, or a mutant that compiles and plays."""
    (workdir / "treasures.csv").write_text(TREASURES_CSV, encoding="utf-8")
    base, path = spot
    tree = mutated(QUEUE if base == "queue" else TREASURES, path, value, drop)
    checked = check_outcome(workdir, dump(tree))
    event("compiles and plays" if plays_if_clean(workdir, checked) else "compile refuses it")


TREASURES_CSV = (ROOT / "tests" / "specs" / "treasures.csv").read_text(encoding="utf-8")


KEYWORD_LITERALS = [
    p
    for p in paths_of(TRADING_POSTS)
    if isinstance(get_at(TRADING_POSTS, p), str) and re.search(r"'\w+'", get_at(TRADING_POSTS, p))
]
KEYWORDS = [
    "'five_prestige'",
    "'prestige_per_post'",
    "'gold_counts_double'",
    "'nope'",
    "'Five_Prestige'",
    "''",
    "'white'",
    "'space'",
    "'power'",
    "five_prestige",
    "'five prestige'",
    '"five_prestige"',
    "'five_prestige",
    "five_prestige'",
    "'a'b'",
    "'\u00e9t\u00e9'",
    "'five_prestige'[0]",
    "'five_prestige'.power",
    "size('five_prestige')",
    "'five_prestige' + 1",
    "not 'five_prestige'",
    "none",
    "3",
    "white",
]
POWER_CELLS = [
    "",
    "nope",
    "5",
    "Five_Prestige",
    "five prestige",
    " five_prestige",
    "five_prestige ",
    "'five_prestige'",
    "extra_gem_after_purchase",
    "prestige_per_post",
    "\u00e9t\u00e9",
    "=1+1",
    '"a,b"',
    "\u200b",
    "none",
    "white",
    "true",
    "x" * 300,
]


@TRADING_SETTINGS
@given(
    literals=st.lists(st.tuples(st.sampled_from(KEYWORD_LITERALS), st.sampled_from(KEYWORDS)), max_size=2),
    cells=st.lists(st.tuples(st.integers(1, 5), st.sampled_from(POWER_CELLS)), max_size=2),
)
def test_corrupt_keywords_and_power_cells(workdir, posts_table, literals, cells):
    """A keyword literal of an expression (the definition's calls, the worths, the prestige sources)
    turned into another keyword, an unknown one, a colour, a bare name or broken syntax, and a power
    cell of the table left empty, unknown, spaced or doubled (a title no row holds): located
    diagnostics, never a traceback; what checks clean compiles and plays."""
    tree = copy.deepcopy(TRADING_POSTS)
    for path, keyword in literals:
        text = get_at(tree, path)
        literal = re.search(r"'\w+'", text)  # none left when the same place was drawn twice
        text = text[: literal.start()] + keyword + text[literal.end() :] if literal else text
        note(f"{path}: {text!r}")
        set_at(tree, path, text)
    rows = POSTS_CSV.splitlines()
    for row, cell in cells:
        fields = rows[row].split(",")
        rows[row] = ",".join(fields[:-1] + [cell])
        note(f"table row {row}: power {cell!r}")
    posts_table.write_text("\n".join(rows) + "\n", encoding="utf-8")
    checked = check_outcome(workdir, dump(tree))
    event("compiles and plays" if plays_if_clean(workdir, checked) else "compile refuses it")


# --------------------------------------------------------------------------- text mutations


@SETTINGS
@given(
    op=st.sampled_from(["duplicate", "delete", "swap", "indent", "dedent", "tab"]),
    i=st.integers(0, len(LINES) - 1),
    j=st.integers(0, len(LINES) - 1),
)
def test_line_mutations(workdir, op, i, j):
    lines = list(LINES)
    note(f"{op} line {i + 1} (and {j + 1})")
    if op == "duplicate":
        lines.insert(i, lines[i])  # a key written twice, mostly
    elif op == "delete":
        del lines[i]
    elif op == "swap":
        lines[i], lines[j] = lines[j], lines[i]
    elif op == "indent":
        lines[i] = "  " + lines[i]
    elif op == "dedent":
        lines[i] = lines[i][min(2, len(lines[i]) - len(lines[i].lstrip(" "))) :]
    else:
        lines[i] = "\t" + lines[i].lstrip(" ")
    check_outcome(workdir, "".join(lines).encode("utf-8"))


@SETTINGS
@given(at=st.integers(0, len(OFFICIAL_TEXT)), garbage=junk(GARBAGE, 6), count=st.integers(1, 3))
def test_insert_garbage_characters(workdir, at, garbage, count):
    text = OFFICIAL_TEXT
    for k in range(count):
        pos = (at * (k + 1)) % (len(text) + 1)
        text = text[:pos] + garbage + text[pos:]
    note(repr(garbage))
    check_outcome(workdir, text.encode("utf-8"))


@SETTINGS
@given(at=st.integers(0, len(OFFICIAL_TEXT)), junk=st.binary(min_size=1, max_size=8), cut=st.integers(0, 400))
def test_insert_bytes_or_truncate(workdir, at, junk, cut):
    data = OFFICIAL_TEXT.encode("utf-8")
    if cut % 2:
        data = data[:at]  # a file cut short
        note(f"cut at {at}")
    else:
        data = data[:at] + junk + data[at:]
        note(f"insert {junk!r} at {at}")
    check_outcome(workdir, data)


def test_the_suite_draws_enough_examples():
    tests = [
        test_drop_a_key_or_change_its_type,
        test_swap_values_or_rename_a_key,
        test_corrupt_expressions,
        test_line_mutations,
        test_insert_garbage_characters,
        test_insert_bytes_or_truncate,
        test_mutate_the_setup_section,
        test_mutate_definitions_and_prestige_sources,
        test_mutate_the_state_section,
        test_mutate_the_zones_section,
        test_mutate_a_payments_worth,
        test_mutate_the_trading_posts,
        test_corrupt_keywords_and_power_cells,
        test_mutate_queued_steps_and_wilds,
    ]
    assert (
        sum(t._hypothesis_internal_use_settings.max_examples for t in tests) >= 400
    )  # the default draws 419 (SPLENDOR_MUTATION_EXAMPLES)
