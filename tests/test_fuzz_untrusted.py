"""The attacker's fuzzer: a shared variant, a card table and a saved game are untrusted input.

Each example builds what someone could share -- the official spec with hostile texts in
every text position, numbers at and beyond the documented ranges, expressions from the
grammar that divide and index, names that clash with the generated code's, odd card
tables, long `extends` chains, hostile file names, or a corrupted saved game -- and runs
it as a user would: `check`, `compile`, importing the engine under `python -I` and playing
seeded random games, `new --from`, `sheet --format md,html`, `diff official X`,
`play --load FILE`.

The rule (issue 14): every run exits 0, 1 or 2; with errors every diagnostic is located
(file:line:col, the source line, a caret); never a traceback, an "internal error" (exit 3),
an exception escaping a command, a hang or a crash (every step runs bounded in time and
memory: tests/helpers/fuzz.py). A spec that checks clean compiles, and its engine imports
without running anything but its own definitions and plays without undocumented
exceptions. A saved game loads or is refused with a StateError; a game that loads plays on.

The suite draws EXAMPLES examples per test (the file runs in well under 90 seconds on two
cores); SPLENDOR_FUZZ_EXAMPLES=2000 searches deeper. On CI (CI=true) the examples are the
same on every run.
"""

from __future__ import annotations

import copy
import functools
import json
import os
import pathlib
import shutil
import signal
import unicodedata

import pytest
import yaml
from hypothesis import HealthCheck, Phase, example, given, note, settings
from hypothesis import strategies as st

import compiler.check.build
import compiler.pipeline  # noqa: F401
import tests.helpers.engines as H
import tests.helpers.fuzz as F
from tests.helpers.mutations import OFFICIAL

ROOT = pathlib.Path(__file__).resolve().parent.parent
RULESPEC = ROOT / "rulespec"
TABLES = ("splendor_cards.csv", "splendor_nobles.csv")
BIDI_CONTROLS = ("RLO", "LRO", "RLE", "LRE", "PDF", "RLI", "LRI", "FSI", "PDI")  # Unicode bidi classes

EXAMPLES = int(os.environ.get("SPLENDOR_FUZZ_EXAMPLES", "4"))
# A failing example is reported as found, with notes saying what it changed: shrinking one
# that runs the whole pipeline takes minutes. SPLENDOR_FUZZ_SHRINK=1 shrinks it.
PHASES = tuple(
    p for p in Phase if p is not Phase.explain and (p is not Phase.shrink or os.environ.get("SPLENDOR_FUZZ_SHRINK"))
)


def fuzz_settings(scale: float = 1.0):
    """Hypothesis settings for one test: `scale` times EXAMPLES examples, no deadline (a step
    has its own time limit), derandomized on CI."""
    return settings(
        max_examples=max(1, int(EXAMPLES * scale)),
        deadline=None,
        database=None,
        derandomize=bool(os.environ.get("CI")),
        phases=PHASES,
        suppress_health_check=[
            HealthCheck.too_slow,
            HealthCheck.function_scoped_fixture,
            HealthCheck.filter_too_much,
            HealthCheck.data_too_large,
        ],
    )


# --------------------------------------------------------------------------- fixtures


@pytest.fixture(scope="module")
def official_shape(tmp_path_factory) -> dict:
    """The top-level shape of the official engine as this compiler writes it; also warms
    every cache (Lark, Jinja) in this process before the forked steps copy it."""
    out = tmp_path_factory.mktemp("official-engine")
    for args in (
        ["check", str(RULESPEC / "official.yaml")],
        ["compile", str(RULESPEC / "official.yaml"), "-o", str(out)],
        ["sheet", str(RULESPEC / "official.yaml"), "--lang", "en", "--format", "md,html", "-o", str(out)],
        ["diff", "official", str(RULESPEC / "official.yaml")],
    ):
        F.invoke(args, None, None)
    return F.engine_shape((out / "official.py").read_text(encoding="utf-8"))


@pytest.fixture
def fresh_dir(tmp_path_factory):
    """A new empty folder per example (hypothesis runs many examples in one test call)."""
    return lambda: tmp_path_factory.mktemp("fuzz")


def write_spec(folder: pathlib.Path, tree, file_name: str = "variant.yaml", tables: dict | None = None) -> pathlib.Path:
    """Write a spec beside copies of the card and noble tables (or the given table texts)."""
    for name in TABLES:
        if tables and name in tables:
            (folder / name).write_bytes(tables[name].encode("utf-8", "surrogatepass"))
        else:
            shutil.copy(RULESPEC / name, folder / name)
    path = folder / file_name
    path.write_text(
        yaml.dump(tree, Dumper=EscapingDumper, sort_keys=False, allow_unicode=False, width=1000), encoding="utf-8"
    )
    return path


class EscapingDumper(yaml.SafeDumper):
    """Writes a text holding any character that is not printable ASCII as a double-quoted
    YAML string with escapes, so that every character (NUL, lone surrogates, escapes) reaches
    the spec's loader exactly as drawn."""


def _represent_text(dumper, text: str):
    odd = any(not (c.isascii() and c.isprintable()) for c in text)
    return dumper.represent_scalar("tag:yaml.org,2002:str", text, style='"' if odd else None)


EscapingDumper.add_representer(str, _represent_text)


# --------------------------------------------------------------------------- the pipeline


def assert_no_terminal_control(result: F.CliResult, what: str) -> None:
    """Text a spec shows on a terminal carries no control characters (escape sequences set
    the clipboard or clear the screen) and no bidi controls (they reorder what is shown)."""
    for stream in (result.stdout, result.stderr):
        bad = sorted(
            {
                c
                for c in stream
                if (unicodedata.category(c) == "Cc" and c not in "\n\t")
                or unicodedata.bidirectional(c) in BIDI_CONTROLS
            }
        )
        assert not bad, f"{what}: control characters reach the terminal: {bad!r}"


def assert_sheets_safe(out: pathlib.Path) -> None:
    """No text from the spec (or its file name) becomes markup in a sheet: the Markdown's
    HTML comments stay closed where they should, and the HTML holds no tag from the spec."""
    for md in out.glob("*.md"):
        first = md.read_text(encoding="utf-8").split("\n", 1)[0]
        if first.startswith("<!--"):
            assert first.count("-->") == 1 and first.endswith("-->"), f"{md.name}: the first line is broken: {first!r}"
    for page in out.glob("*.html"):
        text = page.read_text(encoding="utf-8")
        for tag in ("<script>alert(1)", "</textarea>", "<!--\n"):
            assert tag not in text, f"{page.name} holds {tag!r} from the spec"


def through_the_pipeline(
    spec: pathlib.Path, shape: dict, work: pathlib.Path, players=None, play: bool = True, new: bool = False
) -> str:
    """Run a spec through every command a user would; returns "error" or "clean".

    check: 0 or 1, located diagnostics. When clean: compile writes an engine whose
    top-level shape is the official engine's (nothing from the spec became code), which
    (with `play`) imports under `python -I` and plays seeded random games; `new --from`
    writes a skeleton that checks clean and changes nothing; `sheet` writes md and html
    that stay markup-safe; `diff official` exits 0 or 1.
    """
    spec_arg = str(spec)
    check = F.run_cli(["check", spec_arg], cwd=str(spec.parent))
    F.assert_well_behaved(check, (0, 1), "check: ")
    assert_no_terminal_control(check, "check")
    if check.exit_code == 1:
        F.assert_located(check.stderr, "check: ")
        return "error"
    out = work / "out"
    compiled = F.run_cli(["compile", spec_arg, "-o", str(out)], cwd=str(spec.parent))
    F.assert_well_behaved(compiled, (0,), "compile of a check-clean spec: ")
    [engine] = out.glob("*.py")
    found = F.engine_shape(engine.read_text(encoding="utf-8"))
    assert not found["bare"], f"the engine has statements the compiler did not write: {found['bare']}"
    assert found["kinds"] <= shape["kinds"] and found["imports"] <= shape["imports"], (
        f"the engine's top level differs from the official engine's: {found} vs {shape}"
    )
    if play:
        counts = sorted(int(n) for n in players) if players else [2]
        empty = work / "cwd"
        empty.mkdir()
        note(F.play_engine(str(engine), [c for c in counts if c <= 6][:2] or counts[:1], str(empty)))
    if new:
        skeleton = F.run_cli(["new", "fuzz-copy", "--from", spec_arg, "-o", str(work / "new")], cwd=str(spec.parent))
        F.assert_well_behaved(skeleton, (0,), "new --from a check-clean spec: ")
        again = F.run_cli(["diff", spec_arg, str(work / "new" / "fuzz-copy.yaml")], cwd=str(spec.parent))
        F.assert_well_behaved(again, (0,), "the skeleton of `new` changes nothing: ")
    sheets = F.run_cli(
        ["sheet", spec_arg, "--lang", "en", "--format", "md,html", "-o", str(out / "sheets")], cwd=str(spec.parent)
    )
    F.assert_well_behaved(sheets, (0,), "sheet of a check-clean spec: ")
    assert_sheets_safe(out / "sheets")
    diff = F.run_cli(["diff", "official", spec_arg], cwd=str(spec.parent))
    F.assert_well_behaved(diff, (0, 1), "diff official: ")
    assert_no_terminal_control(diff, "diff")
    return "clean"


# --------------------------------------------------------------------------- specs: texts and file names


@fuzz_settings(2)
@given(data=st.data(), positions=st.lists(st.sampled_from(F.TEXT_POSITIONS + F.NOTE_POSITIONS), min_size=1, max_size=3))
def test_hostile_texts_in_every_text_position(official_shape, fresh_dir, data, positions):
    """Quotes, backslashes, `\\N{`, newlines, NUL, surrogates, bidi controls, terminal
    escapes, `%`, `-->` and tags in titles, descriptions, notes, interpretations and
    notations: the spec checks (or is refused, located); nothing becomes code or markup."""
    tree = copy.deepcopy(OFFICIAL)
    for path in positions:
        text = data.draw(F.hostile_text(), label=str(path))
        if path in F.NOTE_POSITIONS:
            F.get_at(tree, path)["note"] = text
        else:
            F.put_text(tree, path, text)
    work = fresh_dir()
    through_the_pipeline(write_spec(work, tree), official_shape, work, tree["players"], new=True)


@fuzz_settings(1)
@example(title=F.EXPLOIT_TITLE, file_name=F.EXPLOIT_FILE)
@example(title='x""" + """y', file_name="variant.yaml")
@example(title="a\\N{foo}b", file_name="a%s-->b.yaml")
@given(title=F.hostile_text(), file_name=F.hostile_file_name())
def test_hostile_titles_and_file_names(official_shape, fresh_dir, title, file_name):
    """A title and a file name together (the file name reaches the engine, the sheets'
    first line and every message): the issue's exploit, then drawn ones. Importing the
    engine writes no file and defines nothing the compiler did not write."""
    tree = copy.deepcopy(OFFICIAL)
    tree["title"] = title
    work = fresh_dir()
    through_the_pipeline(write_spec(work, tree, file_name), official_shape, work, tree["players"])


# --------------------------------------------------------------------------- specs: numbers and expressions


@fuzz_settings(2)
@given(
    changes=st.lists(
        st.tuples(st.sampled_from(F.NUMBER_POSITIONS), st.sampled_from(F.EDGE_NUMBERS)), min_size=1, max_size=3
    ),
    extra_rows=st.sampled_from([(), (1,), (5, 6), (1, 5), tuple(range(5, 12))]),
)
def test_numbers_at_and_beyond_the_documented_ranges(official_shape, fresh_dir, changes, extra_rows):
    """Values and player-count rows at the limits of rulespec/README.md and past them:
    each is either refused at `check` (located) or compiles in bounded time and memory
    into an engine that plays."""
    tree = copy.deepcopy(OFFICIAL)
    for n in extra_rows:
        tree["players"][n] = dict(tree["players"][4])
    for path, value in changes:
        note(f"{path} = {value!r}")
        F._set_path(tree, path, value)
    work = fresh_dir()
    through_the_pipeline(write_spec(work, tree), official_shape, work, tree["players"])


KNOWN_EXPRESSIONS = [
    (("actions", "take_pair", "effects"), ["take(colour, supply[colour] // 0)"]),
    (("actions", "take_pair", "condition"), "supply[colour] % (turn - turn) >= 0"),
    (("actions", "reserve_blind", "effects"), ["reserve_top(turn)"]),
    (("actions", "reserve_blind", "effects"), ["reserve_top(nobles_left)"]),
    (("actions", "reserve_blind", "condition"), "deck[9] >= 1"),
    (("actions", "reserve_face_up", "condition"), "me.reserved < reserve_limit and face_up[turn] >= 1"),
    (("winners", "ranking", "prestige", "by"), "(player.prestige < 3)"),
    (("winners", "ranking", "prestige", "by"), "target"),
]


@fuzz_settings(3)
@given(data=st.data(), known=st.sampled_from([None] * 3 + KNOWN_EXPRESSIONS))
def test_expressions_from_the_grammar(official_shape, fresh_dir, data, known):
    """Expressions drawn from rulespec/expr.lark in conditions, effects, prices, end
    triggers and rankings: divisions and modulos by anything, indexes that are no level,
    aggregates, comparisons used as values. `check` refuses them (located) or the engine
    plays them without ZeroDivisionError, IndexError or any undocumented exception, and
    `sheet` and `diff` can phrase them."""
    tree = copy.deepcopy(OFFICIAL)
    if known is not None:
        F._set_path(tree, known[0], copy.deepcopy(known[1]))
        note(f"{known[0]} = {known[1]!r}")
    else:
        note(data.draw(F.with_expression(tree)))
    work = fresh_dir()
    through_the_pipeline(write_spec(work, tree), official_shape, work, tree["players"])


# --------------------------------------------------------------------------- specs: names, tables, chains


@fuzz_settings(2)
@example(rename=F.RENAMES[0], new_name="card_id")
@example(rename=F.RENAMES[0], new_name="card_li")
@given(rename=st.sampled_from(F.RENAMES), new_name=st.sampled_from(F.CLASHING_NAMES))
def test_names_that_clash_with_the_generated_code(official_shape, fresh_dir, rename, new_name):
    """Choices, values, actions, steps, triggers and ranking levels named as the generated
    code's locals and globals, Python's builtins and keywords, or the language's words:
    refused (located) or compiled into an engine that plays exactly as before."""
    kind, where, old = rename
    tree = copy.deepcopy(OFFICIAL)
    F.rename(tree, kind, where, old, new_name)
    work = fresh_dir()
    through_the_pipeline(write_spec(work, tree), official_shape, work, tree["players"])


@fuzz_settings(2)
@example(
    which="splendor_cards.csv",
    odd=(
        "cell",
        (RULESPEC / "splendor_cards.csv").read_text().replace("1,black,0,1,1,1,1,0", "1,black,0,²,1,1,1,0", 1),
    ),
)
@given(which=st.sampled_from(TABLES), odd=st.data())
def test_odd_card_and_noble_tables(official_shape, fresh_dir, which, odd):
    """A card or noble table with an odd cell (`²`, a 5,000-digit number, an empty cell,
    NUL), a column missing or extra, rows doubled or cut: a located E107 (in the CSV
    file) or a clean spec whose engine plays."""
    if not isinstance(odd, tuple):
        odd = odd.draw(F.odd_table((RULESPEC / which).read_text(encoding="utf-8")))
    note(f"{which}: {odd[0]}")
    work = fresh_dir()
    spec = write_spec(work, copy.deepcopy(OFFICIAL), tables={which: odd[1]})
    through_the_pipeline(spec, official_shape, work, OFFICIAL["players"])


@fuzz_settings(1.2)
@given(kind=st.sampled_from(["fifo", "dev_zero", "folder", "missing", "absolute", "dangling"]))
def test_card_tables_that_are_no_regular_file(official_shape, fresh_dir, kind):
    """The cards' `table` naming a FIFO (which blocks a reader forever), a symlink to
    /dev/zero (endless), a folder, a missing or dangling file: a located E112, in bounded
    time and memory."""
    work = fresh_dir()
    tree = copy.deepcopy(OFFICIAL)
    target = work / "table.csv"
    if kind == "fifo":
        os.mkfifo(target)
    elif kind == "dev_zero":
        target.symlink_to("/dev/zero")
    elif kind == "folder":
        target.mkdir()
    elif kind == "dangling":
        target.symlink_to(work / "nowhere.csv")
    elif kind == "absolute":
        target = RULESPEC / "splendor_cards.csv"
    tree["kinds"]["cards"]["table"] = str(target) if kind == "absolute" else target.name
    assert through_the_pipeline(write_spec(work, tree), official_shape, work, play=False) in ("error", "clean")


@fuzz_settings(1)
@example(depth=1000, ending="none")
@given(
    depth=st.sampled_from([1, 2, 3, 8, 40, 150, 1000]),
    ending=st.sampled_from(["none", "cycle", "self", "absolute", "missing", "parent"]),
)
def test_extends_chains(official_shape, fresh_dir, depth, ending):
    """Variants extending variants, `depth` deep (each changes the target), ending in the
    official spec, a cycle, itself, an absolute path, a missing file or a path out of the
    folder: the chain resolves, or a located error says why (never a RecursionError)."""
    work = fresh_dir()
    base = {
        "none": "official",
        "cycle": f"v{depth - 1}.yaml",
        "self": "v0.yaml",
        "absolute": str(RULESPEC / "official.yaml"),
        "missing": "nowhere.yaml",
        "parent": "../../../rulespec/official.yaml",
    }[ending]
    for i in range(depth):
        variant = {
            "spec": 1,
            "name": f"v{i}",
            "extends": base if i == 0 else f"v{i - 1}.yaml",
            "values": {"target": 10 + i % 20},
        }
        (work / f"v{i}.yaml").write_text(yaml.safe_dump(variant, sort_keys=False), encoding="utf-8")
    through_the_pipeline(work / f"v{depth - 1}.yaml", official_shape, work, OFFICIAL["players"], play=depth < 10)


# --------------------------------------------------------------------------- saved games


def _real_states() -> list[dict]:
    """States a real official game passes through: the start, mid-game action turns, a
    payment, a token return, a noble visit, the end (seeded random play)."""
    import random

    E = H.official_engine()
    wanted, found = {"action", "payment", "return_tokens", "noble_visit", "over"}, {}
    for seed in range(40):
        game, rng = E.new_game(2 + seed % 3, seed=seed), random.Random(seed)
        found.setdefault("start", json.loads(game.to_json()))
        while not game.is_over():
            if game.phase in wanted and (game.phase not in found or rng.random() < 0.02):
                found[game.phase] = json.loads(game.to_json())
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])
        found.setdefault("over", json.loads(game.to_json()))
        if wanted <= set(found):
            break
    return list(found.values())


REAL_STATES = _real_states()


class Hang(Exception):
    pass


def _alarm(signum, frame):
    raise Hang()


def loads_and_plays(E, text: str, moves: int = 40) -> str:
    """from_json either refuses the state with a StateError or gives a game that plays on:
    legal actions in every unfinished phase, `moves` random moves, an `ending` that ends the
    game within the round, to_json/from_json and record/replay round trips. Bounded by an
    alarm: a hang is a failure."""
    import random

    signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(int(F.STEP_SECONDS))
    try:
        try:
            game = E.from_json(text)
        except E.StateError:
            return "refused"
        data = json.loads(text)
        ending = isinstance(data, dict) and data.get("ending") is not None
        first_turn = game.turn
        rng = random.Random(0)
        for _ in range(moves):
            if game.is_over():
                break
            legal = game.legal_actions()
            assert legal, f"a loaded game in phase {game.phase!r} has no legal action"
            game.apply(legal[rng.randrange(len(legal))])
        if ending and not game.is_over():
            assert game.turn - first_turn <= game.num_players, (
                f"an ending was set yet the game goes on from turn {first_turn} to {game.turn}"
            )
        saved = game.to_json()
        assert E.from_json(saved).to_json() == saved, "to_json/from_json is no round trip"
        assert E.replay(game.record()).to_json() == saved, "replay(record()) gives another game"
        game.scores(), game.winners(), game.returns(), game.observation(0)
        return "loaded"
    except Hang:
        raise AssertionError(f"a saved game hangs the engine (over {F.STEP_SECONDS:g} s)") from None
    finally:
        signal.alarm(0)


@fuzz_settings(40)
@example(case=(dict(REAL_STATES[0], players=2.0), ["players = 2.0"]))
@example(case=(dict(REAL_STATES[0], start=0), ["start = 0"]))
@example(
    case=(
        dict(REAL_STATES[0], ending={"trigger": "target", "finish": "complete_round", "last_seat": 7}),
        ["ending.last_seat 7"],
    )
)
@given(case=st.sampled_from(REAL_STATES).flatmap(F.corrupted_state))
def test_corrupted_saved_games_through_from_json(case):
    """Real states with wrong types, out-of-range and huge numbers, bools and floats, keys
    missing and extra, cards doubled and lost, inconsistent phase, pending and ending, odd
    `start`s and deep nesting: StateError, or a game that plays on (never another
    exception, a half-loaded game or a game that cannot end)."""
    state, notes = case
    note("; ".join(notes))
    text = state if isinstance(state, str) else json.dumps(state)
    loads_and_plays(H.official_engine(), text)


@fuzz_settings(4)
@example(case=(dict(REAL_STATES[0], players=2.0), ["players = 2.0"]))
@given(case=st.sampled_from(REAL_STATES).flatmap(F.corrupted_state))
def test_corrupted_saved_games_through_play_load(fresh_dir, case):
    """`play official --load FILE` with a corrupted saved game and "quit": exit 0 (loaded),
    or 1/2 with a message that starts with the file's name (exit 1: every problem located,
    file:line:col, the line and a caret, as the compiler shows a spec's); never an exception,
    a traceback or an internal error."""
    state, notes = case
    note("; ".join(notes))
    saved = fresh_dir() / "saved.json"
    saved.write_text(state if isinstance(state, str) else json.dumps(state), encoding="utf-8")
    result = F.run_cli(["play", "official", "--load", str(saved)], stdin="quit\n", cwd=str(ROOT))
    F.assert_well_behaved(result, (0, 1, 2), "play --load: ")
    if result.exit_code == 1:
        assert result.stderr.startswith(f"{saved}:"), f"the message does not name the file:\n{result.stderr[-2000:]}"
        F.assert_located(result.stderr, "play --load: ")


# The Trading Posts (variants/trading-posts.yaml): a seat's posts are a set of components, saved as the
# ids of their rows (`ids:posts:5`). Values a hand-edited or hostile file could hold there instead.
ODD_MARKERS = [
    [],
    [0],
    [4, 3, 2, 1, 0],
    [2, 0],
    [0, 0],
    [5],
    [-1],
    [True],
    [False],
    [0.0],
    [1.5],
    ["0"],
    ["five_prestige"],
    [[0]],
    [None],
    [10**30],
    list(range(6)),
    "0",
    0,
    3,
    None,
    True,
    {},
    {"0": 0},
    "five_prestige",
    [0] * 1000,
    [[[[[[[[0]]]]]]]],
]


@functools.cache
def _trading_posts_state() -> dict:
    """A real 2-player Trading Posts state in which a seat has opened a post (seeded random play)."""
    import random

    E = H.load_engine(ROOT / "generated" / "engines" / "trading_posts.py")
    game, rng = E.new_game(2, seed=0), random.Random(0)
    while not any(json.loads(game.to_json())["seats"][p]["vars"]["markers"] for p in (0, 1)):
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])
    return json.loads(game.to_json())


def _sound_markers(value) -> bool:
    """A seat's posts as a saved game may hold them: distinct whole numbers, rows 0 to 4 of the table."""
    return (
        isinstance(value, list) and all(type(x) is int and 0 <= x < 5 for x in value) and len(set(value)) == len(value)
    )


@fuzz_settings(4)
@example(seat=1, markers=[0, 0], drop=False)
@given(seat=st.sampled_from([0, 1]), markers=st.sampled_from(ODD_MARKERS), drop=st.booleans())
def test_corrupted_posts_in_a_trading_posts_saved_game(fresh_dir, seat, markers, drop):
    """`seats[k].vars.markers` of a real Trading Posts game replaced by an odd value (or dropped):
    a sound set loads and plays on, anything else is refused with a StateError by from_json and
    with a located problem by `play trading-posts --load` (exit 1); never a traceback."""
    state = copy.deepcopy(_trading_posts_state())
    if drop:
        del state["seats"][seat]["vars"]["markers"]
    else:
        state["seats"][seat]["vars"]["markers"] = markers
    sound = not drop and _sound_markers(markers)
    note(f"seat {seat}: " + ("markers dropped" if drop else f"markers = {markers!r}"))
    text = json.dumps(state)
    E = H.load_engine(ROOT / "generated" / "engines" / "trading_posts.py")
    assert loads_and_plays(E, text) == ("loaded" if sound else "refused")
    saved = fresh_dir() / "saved.json"
    saved.write_text(text, encoding="utf-8")
    result = F.run_cli(["play", "trading-posts", "--load", str(saved)], stdin="quit\n", cwd=str(ROOT))
    F.assert_well_behaved(result, (0,) if sound else (1,), "play --load: ")
    if not sound:
        assert result.stderr.startswith(f"{saved}:"), f"the message does not name the file:\n{result.stderr[-2000:]}"
        assert f"seats[{seat}].vars" in result.stderr, result.stderr[-2000:]
        F.assert_located(result.stderr, "play --load: ")


@fuzz_settings(2)
@given(
    answer=st.sampled_from(
        [
            "²",
            "9" * 5000,
            "load " + "x" * 5000,
            "take \x1b[2J",
            "save /",
            "\x00",
            "1 2",
            "-1",
            "take2",
            "buy 9.9",
            "noble 0",
            "undo undo",
            "%s",
            "{0}",
        ]
    ),
    nested=st.sampled_from([10, 100_000]),
)
def test_odd_answers_in_play_keep_the_game(fresh_dir, answer, nested):
    """An odd answer at the prompt, or `load` of a file nested deep, says what is wrong and
    leaves the game as it was: the session goes on to `quit` (exit 0)."""
    deep = fresh_dir() / "deep.json"
    deep.write_text("[" * nested + "]" * nested, encoding="utf-8")
    stdin = f"{answer}\nload {deep}\nquit\n"
    result = F.run_cli(
        ["play", "official", "--seed", "1", "--seat", "human", "--seat", "greedy"], stdin=stdin, cwd=str(ROOT)
    )
    F.assert_well_behaved(result, (0,), f"play, answering {answer[:40]!r}: ")
    assert "bye" in result.stdout
