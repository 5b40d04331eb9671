"""Helpers of the attacker's fuzzer (tests/test_fuzz_untrusted.py): hostile inputs, and a
way to run each step of the pipeline so that no input can crash, hang or exhaust the suite.

A spec, a card table and a saved game are untrusted input (issue 14). The strategies here
build what an attacker would share: texts made of the characters that break code, markup
and terminals; numbers at and beyond the documented ranges; expressions drawn from the
grammar (rulespec/expr.lark) that divide, index and aggregate; names that clash with the
generated code's own; odd card tables; long `extends` chains; corrupted saved games.

`bounded()` runs one step in a forked child with a time and a memory limit, so that a step
that hangs or eats memory is reported as a failure with its input instead of stopping the
suite; `run_cli()` runs one `splendor-rules` command that way.
"""

from __future__ import annotations

import ast
import copy
import dataclasses
import json
import os
import pickle
import re
import resource
import select
import signal
import subprocess
import sys
import textwrap
import time
import traceback

from hypothesis import strategies as st

from tests.helpers.mutations import LOCATED as HEAD
from tests.helpers.mutations import OFFICIAL, get_at, paths_of

# Limits of one step. The official spec checks, compiles and renders in well under a second;
# a step ten times slower than that on a slow CI machine is still far from these.
STEP_SECONDS = float(os.environ.get("SPLENDOR_FUZZ_STEP_SECONDS", "10"))
STEP_MEMORY = 2 * 1024**3  # bytes of address space for a step (the forked child)
ENGINE_MOVES = 100  # moves of each seeded random game played with a fuzzed engine


# --------------------------------------------------------------------------- bounded runs


@dataclasses.dataclass
class Outcome:
    """What a bounded step did: `value` when it returned, else `failure` says how it failed
    ("hang: ...", "raised: ...", "died: ...")."""

    value: object = None
    failure: str | None = None


def bounded(fn, *args, seconds: float = STEP_SECONDS, memory: int = STEP_MEMORY) -> Outcome:
    """Run fn(*args) in a forked child limited to `seconds` and `memory` bytes.

    A fork shares the parent's imported modules (the compiler, Jinja's compiled templates),
    so a step costs what it costs in process, and a step that never returns or eats the
    machine's memory is killed and reported rather than taking the suite down with it.
    """
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: run, send the result back, and leave without running any cleanup
        os.close(read_end)
        try:
            resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
            message = Outcome(value=fn(*args))
        except BaseException as exc:  # noqa: BLE001 - everything is reported to the parent
            message = Outcome(failure="raised: " + "".join(traceback.format_exception(exc))[-4000:])
        try:
            with os.fdopen(write_end, "wb") as pipe:
                pipe.write(pickle.dumps(message))
        finally:
            os._exit(0)
    os.close(write_end)
    chunks, deadline = [], time.monotonic() + seconds
    with os.fdopen(read_end, "rb") as pipe:
        while True:
            left = deadline - time.monotonic()
            ready = left > 0 and select.select([pipe], [], [], left)[0]
            if not ready:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                return Outcome(failure=f"hang: still running after {seconds:g} s")
            chunk = os.read(pipe.fileno(), 1 << 16)
            if not chunk:
                break
            chunks.append(chunk)
    _, status = os.waitpid(pid, 0)
    if not chunks:
        return Outcome(failure=f"died: the step ended without a result (wait status {status})")
    return pickle.loads(b"".join(chunks))


@dataclasses.dataclass
class CliResult:
    """A `splendor-rules` run: exit status, both streams, and an exception CliRunner caught."""

    exit_code: int
    stdout: str
    stderr: str
    exception: str | None


def invoke(args: list[str], stdin: str | None, cwd: str | None) -> CliResult:
    from click.testing import CliRunner

    from app import cli

    if cwd is not None:
        os.chdir(cwd)  # the child's own directory; the parent's stays where it was
    result = CliRunner().invoke(cli.main, args, input=stdin)
    exc = result.exception
    caught = None if exc is None or isinstance(exc, SystemExit) else "".join(traceback.format_exception(exc))[-3000:]
    return CliResult(result.exit_code, result.stdout, result.stderr, caught)


def run_cli(
    args: list[str], stdin: str | None = None, cwd: str | None = None, seconds: float = STEP_SECONDS
) -> CliResult:
    """One `splendor-rules ARGS` in a bounded child; a hang or a crash fails the test here."""
    outcome = bounded(invoke, list(args), stdin, cwd, seconds=seconds)
    command = "splendor-rules " + " ".join(map(repr, args))
    assert outcome.failure is None, f"{command}: {outcome.failure}"
    result = outcome.value
    assert result.exception is None, f"{command}: an exception escaped the command:\n{result.exception}"
    return result


def assert_well_behaved(result: CliResult, allowed: tuple[int, ...] = (0, 1, 2), what: str = "") -> None:
    """The rule for every run: an allowed exit status, and no traceback or internal error."""
    output = result.stdout + result.stderr
    assert result.exit_code in allowed, f"{what}exit status {result.exit_code}:\n{output[-3000:]}"
    assert "Traceback" not in output, f"{what}a traceback:\n{output[-3000:]}"
    assert "internal error" not in output, f"{what}an internal error:\n{output[-3000:]}"


def assert_located(stderr: str, what: str = "") -> None:
    """Every diagnostic says file:line:col, then (where the file has that line) the source
    line and a caret; and the closing count matches the located diagnostics."""
    lines = stderr.splitlines()
    heads = 0
    for i, line in enumerate(lines):
        if line.startswith(("error[", "warning[", "error:")):
            raise AssertionError(f"{what}a diagnostic without a location: {line}\n{stderr[-3000:]}")
        m = HEAD.match(line)
        if not m:
            continue
        heads += 1
        assert int(m["line"]) >= 1 and int(m["col"]) >= 1, line
        following = lines[i + 1] if i + 1 < len(lines) else ""
        if following.startswith(f" {m['line']} | "):
            assert i + 2 < len(lines) and "^" in lines[i + 2], f"{what}no caret under {line}"
        else:  # only an empty file may have no line to show
            assert m["line"] == "1", f"{what}no source line under {line}\n{stderr[-3000:]}"
    assert heads, f"{what}no located diagnostic in:\n{stderr[-3000:]}"
    counted = re.search(r"^(\d+) errors?$", stderr, re.MULTILINE)
    assert counted and int(counted[1]) == heads, f"{what}every diagnostic counted is located:\n{stderr[-3000:]}"


# --------------------------------------------------------------------------- generated engines

ALLOWED_ENGINE_EXCEPTIONS = ("RuleError", "IllegalAction")  # documented: an effect short of tokens, a refused move


def engine_shape(source: str) -> dict:
    """The top-level shape of a generated module: statement kinds, imported modules and
    bare expressions (only the docstring). Text from a spec that escaped a string or a
    comment shows up here as a new kind of statement, a new import or a bare call."""
    tree = ast.parse(source)
    imported = set()
    for node in tree.body:
        if isinstance(node, ast.Import):
            imported |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            imported.add(node.module)
    bare = [ast.unparse(n)[:80] for n in tree.body[1:] if isinstance(n, ast.Expr)]
    return {"kinds": {type(n).__name__ for n in tree.body}, "imports": imported, "bare": bare}


PLAY_SCRIPT = textwrap.dedent("""
    import importlib.util, json, os, random, sys
    path, players, seeds, moves = sys.argv[1], json.loads(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    spec = importlib.util.spec_from_file_location("fuzzed_engine", path)
    E = importlib.util.module_from_spec(spec)
    sys.modules["fuzzed_engine"] = E
    spec.loader.exec_module(E)
    for n in players:
        for seed in range(seeds):
            rng = random.Random(seed)
            try:
                game = E.new_game(n, seed=seed)
                for _ in range(moves):
                    if game.is_over():
                        break
                    legal = game.legal_actions()
                    assert legal, f"no legal action in phase {game.phase!r}"
                    action = legal[rng.randrange(len(legal))]
                    E.action_to_string(action)
                    game.apply(action)
                again = E.from_json(game.to_json())
                assert again.to_json() == game.to_json(), "to_json/from_json is no round trip"
                game.scores(); game.winners(); game.record()
            except (E.RuleError, E.IllegalAction) as err:
                print(f"documented {type(err).__name__} ({n} players, seed {seed}): {err}")
    print("played")
""")


def play_engine(path: str, players: list[int], cwd: str, seeds: int = 1, moves: int = ENGINE_MOVES) -> str:
    """Import an engine under `python -I` in a fresh process (in the empty folder `cwd`) and
    play `seeds` seeded random games of `moves` moves for each player count; returns the
    process's output. Fails on a crash, an undocumented exception, a hang, or a file the
    import or the games left behind (code that ran which should not have)."""
    command = [
        sys.executable,
        "-I",
        "-c",
        PLAY_SCRIPT,
        os.path.abspath(path),
        json.dumps(players),
        str(seeds),
        str(moves),
    ]
    try:
        done = subprocess.run(
            command,
            check=False,
            cwd=cwd,
            capture_output=True,
            text=True,
            timeout=STEP_SECONDS,
            preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_AS, (STEP_MEMORY, STEP_MEMORY)),
        )
    except subprocess.TimeoutExpired:
        raise AssertionError(f"the engine {path} hangs: no result after {STEP_SECONDS:g} s") from None
    assert done.returncode == 0 and done.stdout.endswith("played\n"), (
        f"the engine {path} fails (exit {done.returncode}):\n{done.stderr[-3000:]}{done.stdout[-1000:]}"
    )
    assert os.listdir(cwd) == [], f"importing or playing {path} wrote {os.listdir(cwd)}"
    return done.stdout


# --------------------------------------------------------------------------- hostile texts

# Pieces that break something somewhere: Python string literals and escapes, comments,
# %-formatting and str.format, Markdown and HTML comments and tags, YAML, shells, and
# terminals (escape sequences, bidi controls, odd line breaks).
HOSTILE_PIECES = [
    '"',
    "'",
    '"""',
    "'''",
    "\\",
    "\\N{",
    "\\N{foo}",
    "\\x",
    "\\u12",
    "\\",
    "\n",
    "\r",
    "\r\n",
    "\x00",
    "\t",
    "\ud800",
    "\udfff",
    "\u202e",
    "\u2066",
    "\u200f",
    "\u0085",
    "\u2028",
    "\ufeff",
    "\x7f",
    "\x1b[2J",
    "\x1b]52;c;aGk=\x07",
    "\x1b[31m",
    "\x9b",
    "%",
    "%s",
    "%d",
    "%(x)s",
    "{",
    "}",
    "{0}",
    "{card}",
    "-->",
    "<!--",
    "<script>alert(1)</script>",
    "</textarea>",
    "&amp;",
    "]]>",
    "`",
    "$(id)",
    "#",
    "*",
    "_",
    "|",
    "[x](javascript:1)",
    "\\n",
    "é",
    "Сплендор",
    "𝔖",
    " ",
    "x" * 300,
    ":",
    "- ",
    "{{ 7*7 }}",
    "{% raw %}",
]

# The exploit: a title that opens a string in the engine's docstring, and a file
# name that closes it and runs code on import.
EXPLOIT_TITLE = "House rules\"\"\" '''"
EXPLOIT_FILE = "house\\''';open('PWNED','w');SPEC_NAME='house'#.yaml"


def hostile_text(most: int = 5):
    """A text made of hostile pieces and ordinary letters (a title, a note, a notation word)."""
    return st.lists(st.sampled_from(HOSTILE_PIECES + ["a", "Z", "1"]), min_size=1, max_size=most).map("".join)


def hostile_file_name():
    """A spec file name (no '/' or NUL, which no file name holds) made of hostile pieces."""
    pieces = [p for p in HOSTILE_PIECES if "/" not in p and "\x00" not in p and not 0xD800 <= ord(p[0]) <= 0xDFFF]
    return (
        st.lists(st.sampled_from(pieces + ["house", "v"]), min_size=1, max_size=4)
        .map(lambda parts: ("".join(parts) + ".yaml")[-200:])
        .filter(lambda name: name not in (".yaml",) and not name.startswith("-"))
    )


def _text_positions(tree) -> list[tuple]:
    """Paths of every text in a spec: titles, descriptions, notes, interpretations (each
    language), and notations."""
    found = []
    for path in paths_of(tree):
        value = get_at(tree, path) if path else tree
        keys = [p for p in path if isinstance(p, str)]
        if (
            isinstance(value, str)
            and keys
            and (keys[-1] in ("notation",) or set(keys) & {"title", "description", "note", "interpretations"})
        ):
            found.append(path)
    return found


TEXT_POSITIONS = _text_positions(OFFICIAL)
# Entries that may carry a `note` (a text shown with them on sheets and in diffs).
NOTE_POSITIONS = (
    [("players", n) for n in OFFICIAL["players"]]
    + [("values",)]
    + [("actions", a) for a in OFFICIAL["actions"]]
    + [("end_of_turn", s) for s in OFFICIAL["end_of_turn"]]
    + [("end", e) for e in OFFICIAL["end"]]
    + [("winners",)]
    + [("winners", "ranking", r) for r in OFFICIAL["winners"]["ranking"]]
    + [("actions", "take_pair", "choose", "colour")]
)


def put_text(tree, path: tuple, text: str) -> None:
    """Write `text` at a text position; a notation keeps its placeholders so that only the
    words change (a notation without them is a spec error, found by other tests)."""
    parent = get_at(tree, path[:-1])
    old = parent[path[-1]]
    if path[-1] == "notation":
        placeholders = " ".join(re.findall(r"\{[a-z_]+\}", old))
        text = f"{text} {placeholders}".strip()
    parent[path[-1]] = text


# --------------------------------------------------------------------------- numbers

# At and beyond the documented ranges: the player-count table takes 0 to 1000 (face_up
# from 1), values -1,000,000 to 1,000,000.
EDGE_NUMBERS = [
    -(10**6) - 1,
    -(10**6),
    -1,
    0,
    1,
    2,
    3,
    4,
    7,
    15,
    20,
    40,
    99,
    100,
    999,
    1000,
    1001,
    10**6,
    10**6 + 1,
    2**31,
    2**63,
    10**30,
    True,
    2.5,
    "3",
    None,
]

NUMBER_POSITIONS = (
    [("players", n, k) for n in OFFICIAL["players"] for k in ("gems", "gold", "nobles", "face_up")]
    + [("values", v) for v in OFFICIAL["values"]]
    + [("actions", "take_different", "choose", "picked", k) for k in ("min", "max")]
    + [("actions", "buy_reserved", "choose", "card", "slots"), ("spec",)]
)


# --------------------------------------------------------------------------- expressions

COLOUR_NAMES = OFFICIAL["components"]["gems"] + [OFFICIAL["components"]["wild"]]
NUMBER_NAMES = [
    "turn",
    "round",
    "passes",
    "nobles_left",
    "player_count",
    "setup.gold",
    "setup.gems",
    "setup.face_up",
    "setup.nobles",
] + list(OFFICIAL["values"])
PLAYER_NUMBERS = ["prestige", "purchased", "reserved", "nobles", "held", "turns", "seat"]


@st.composite
def number_expr(draw, who: str = "me", loop: bool = False, depth: int = 3) -> str:
    """A number from the grammar: literals (zero and huge ones), names, `who`'s attributes,
    tables indexed by colours and levels (including indexes that are no level), the five
    operators (division and modulo by anything), calls, aggregates, conditionals, and
    comparisons used as values."""
    colour = st.sampled_from(COLOUR_NAMES + (["c"] if loop else []))
    leaves = [
        st.sampled_from(["0", "1", "2", "3", "9", "99999999999999999999"]),
        st.sampled_from(NUMBER_NAMES),
        st.sampled_from(PLAYER_NUMBERS).map(lambda a: f"{who}.{a}"),
        st.tuples(st.sampled_from(["supply", f"{who}.tokens", f"{who}.bonus"]), colour).map(
            lambda t: f"{t[0]}[{t[1]}]"
        ),
    ]
    if depth <= 0:
        return draw(st.one_of(leaves))
    inner = number_expr(who, loop, depth - 1)
    cond = condition_expr(who, loop, depth - 1)
    level = st.one_of(st.sampled_from(["0", "1", "3", "4", "9", "turn", "nobles_left", "-1"]), inner)
    forms = leaves + [
        st.tuples(inner, st.sampled_from(["+", "-", "*", "//", "%"]), inner).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
        inner.map(lambda e: f"-{e}"),
        st.tuples(st.sampled_from(["deck", "face_up"]), level).map(lambda t: f"{t[0]}[{t[1]}]"),
        st.tuples(st.sampled_from(["min", "max"]), inner, inner).map(lambda t: f"{t[0]}({t[1]}, {t[2]})"),
        inner.map(lambda e: f"abs({e})"),
        st.sampled_from(["size(gems)", "size(colours)", "size(levels)", "size(players)"]),
        st.tuples(st.sampled_from(["sum", "min", "max"]), number_expr(who, True, depth - 1)).map(
            lambda t: f"{t[0]}({t[1]} for c in gems)"
        ),
        condition_expr(who, True, depth - 1).map(lambda e: f"count({e} for c in colours)"),
        st.tuples(cond, inner, inner).map(lambda t: f"(if {t[0]} then {t[1]} else {t[2]})"),
        st.tuples(inner, st.sampled_from(["<", "==", ">="]), inner).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
    ]
    return draw(st.one_of(forms))


@st.composite
def condition_expr(draw, who: str = "me", loop: bool = False, depth: int = 3) -> str:
    """A condition from the grammar: comparisons, logic, membership, aggregates, literals,
    and numbers used as conditions."""
    inner_number = number_expr(who, loop, max(0, depth - 1))
    forms = [
        st.sampled_from(["true", "false"]),
        st.tuples(inner_number, st.sampled_from(["==", "!=", "<", "<=", ">", ">="]), inner_number).map(
            lambda t: f"{t[0]} {t[1]} {t[2]}"
        ),
    ]
    if depth > 0:
        inner = condition_expr(who, loop, depth - 1)
        forms += [
            st.tuples(inner, st.sampled_from(["and", "or"]), inner).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
            inner.map(lambda e: f"not {e}"),
            st.tuples(st.sampled_from(["all", "any"]), condition_expr(who, True, depth - 1)).map(
                lambda t: f"{t[0]}({t[1]} for c in gems)"
            ),
            st.sampled_from(COLOUR_NAMES).map(lambda c: f"{c} in gems"),
            inner_number,
        ]
    return draw(st.one_of(forms))


def _set_path(tree, path, value):
    get_at(tree, path[:-1])[path[-1]] = value


# Where an expression goes, and what kind: (path, "number"|"condition"|"effect", whose names).
EXPRESSION_SLOTS = [
    (("actions", "take_pair", "condition"), "condition", "me"),
    (("actions", "take_pair", "effects"), "take", "me"),
    (("actions", "reserve_blind", "condition"), "condition", "me"),
    (("actions", "reserve_blind", "effects"), "reserve_top", "me"),
    (("actions", "buy_face_up", "choose", "payment", "price"), "price", "me"),
    (("end_of_turn", "return_tokens", "while"), "condition", "me"),
    (("end_of_turn", "noble_visit", "condition"), "condition", "me"),
    (("end", "target", "when"), "condition", "me"),
    (("winners", "eligible"), "condition", "player"),
    (("winners", "ranking", "prestige", "by"), "number", "player"),
]


@st.composite
def with_expression(draw, tree) -> str:
    """Put a drawn expression in one slot of the spec; returns a note of what went where."""
    path, kind, who = draw(st.sampled_from(EXPRESSION_SLOTS))
    if kind == "condition":
        text = draw(condition_expr(who))
    elif kind == "number":
        text = draw(number_expr(who))
    elif kind == "price":
        text = draw(number_expr(who, loop=True)).replace("for c in", "for d in")
    elif kind == "take":
        text = [f"take(colour, {draw(number_expr(who))})"]
    else:
        text = [f"reserve_top({draw(number_expr(who))})", "if supply[gold] >= 1: take(gold, 1)"]
    _set_path(tree, path, text)
    return f"{'.'.join(map(str, path))} = {text!r}"


# --------------------------------------------------------------------------- names

# Names a spec may use that the generated code (or Python) uses too: the lowering's locals,
# the engine's globals and attributes, Python builtins and keywords, the language's own words.
CLASHING_NAMES = [
    "card_id",
    "card_li",
    "card",
    "g",
    "c",
    "i",
    "j",
    "k",
    "n",
    "p",
    "x",
    "a",
    "len",
    "list",
    "int",
    "range",
    "print",
    "self",
    "game",
    "state",
    "data",
    "out",
    "legal",
    "mode",
    "cp",
    "step",
    "tok",
    "pending",
    "history",
    "spec_name",
    "json",
    "random",
    "os",
    "sys",
    "_",
    "__",
    "__class__",
    "__init__",
    "__builtins__",
    "_legal",
    "_apply",
    "class",
    "def",
    "lambda",
    "return",
    "import",
    "none",
    "true",
    "false",
    "if",
    "for",
    "in",
    "not",
    "and",
    "or",
    "then",
    "else",
    "player",
    "colour",
    "level",
    "slot",
    "payment",
    "gold",
    "red",
    "actions",
    "steps",
    "name_",
    "a" * 200,
]

# What a name can be given to: a choice (parameter), a value, an action, a step, an end
# trigger, a ranking level. Each rename rewrites the expressions that use the old name.
RENAMES = [
    ("choice", ("actions", "take_pair", "choose"), "colour"),
    ("choice", ("actions", "reserve_blind", "choose"), "level"),
    ("choice", ("actions", "buy_face_up", "choose"), "card"),
    ("value", ("values",), "target"),
    ("value", ("values",), "reserve_limit"),
    ("key", ("actions",), "take_pair"),
    ("key", ("end_of_turn",), "noble_visit"),
    ("key", ("end",), "target"),
    ("key", ("winners", "ranking"), "prestige"),
]


def _rekey(mapping: dict, old: str, new: str) -> None:
    items = [(new if k == old else k, v) for k, v in mapping.items()]
    mapping.clear()
    mapping.update(items)


def _rename_in(
    node,
    old: str,
    new: str,
    keys=("condition", "effects", "while", "when", "by", "eligible", "price", "notation", "slots"),
):
    """Rename a name in every expression (and notation placeholder) under `node`."""
    word = re.compile(rf"(?<![\w.]){re.escape(old)}\b")
    if isinstance(node, dict):
        for k, v in node.items():
            if k in keys and isinstance(v, str):
                node[k] = word.sub(new, v) if k != "notation" else v.replace(f"{{{old}}}", f"{{{new}}}")
            elif k in keys and isinstance(v, list):
                node[k] = [word.sub(new, e) if isinstance(e, str) else e for e in v]
            else:
                _rename_in(v, old, new, keys)
    elif isinstance(node, list):
        for v in node:
            _rename_in(v, old, new, keys)


def rename(tree, kind: str, where: tuple, old: str, new: str) -> None:
    """Give the entry `old` at `where` the name `new`, and rewrite its uses."""
    _rekey(get_at(tree, where), old, new)
    if kind == "choice":
        _rename_in(get_at(tree, where[:-1]), old, new)  # the decision's own notation and expressions
    elif kind == "value":
        _rename_in(tree, old, new)


# --------------------------------------------------------------------------- card tables

ODD_CELLS = [
    "²",
    "",
    " ",
    "-1",
    "1e3",
    "0x10",
    "9" * 5000,
    "1.5",
    "red",
    '"',
    "=cmd()",
    "\x00",
    "NaN",
    "٣",
    "１",
    "+3",
    "1_0",
    " 3",
    "3 ",
    "99999999999999999999",
    "0",
    "7",
    "gold",
    "white",
    "-0",
]


@st.composite
def odd_table(draw, text: str) -> tuple[str, str]:
    """A CSV card or noble table with one mistake: an odd cell, a column dropped or added,
    a header changed, a row doubled or lost, rows cut away, an empty file, a BOM, CRLF."""
    lines = text.splitlines()
    op = draw(
        st.sampled_from(
            [
                "cell",
                "cell",
                "cell",
                "drop_column",
                "add_column",
                "header",
                "duplicate_row",
                "delete_rows",
                "empty",
                "bom",
                "crlf",
                "blank_lines",
                "quote",
            ]
        )
    )
    i = draw(st.integers(1, len(lines) - 1))
    rows = [line.split(",") for line in lines]
    if op == "cell":
        j = draw(st.integers(0, len(rows[i]) - 1))
        rows[i][j] = draw(st.sampled_from(ODD_CELLS))
    elif op == "drop_column":
        j = draw(st.integers(0, len(rows[0]) - 1))
        rows = [r[:j] + r[j + 1 :] for r in rows]
    elif op == "add_column":
        rows = [r + [draw(st.sampled_from(["extra", "1", ""]))] for r in rows]
    elif op == "header":
        j = draw(st.integers(0, len(rows[0]) - 1))
        rows[0][j] = draw(st.sampled_from(["", "gold", "Level", rows[0][j] + " ", "white", "x" * 100]))
    elif op == "duplicate_row":
        rows.insert(i, rows[i])
    elif op == "delete_rows":
        del rows[i : i + draw(st.integers(1, len(rows)))]
    elif op == "empty":
        return op, ""
    out = "\n".join(",".join(r) for r in rows) + "\n"
    if op == "bom":
        out = "\ufeff" + out
    elif op == "crlf":
        out = out.replace("\n", "\r\n")
    elif op == "blank_lines":
        out = out.replace("\n", "\n\n", 3)
    elif op == "quote":
        out = out.replace(",", ',"', 1)
    return op, out


# --------------------------------------------------------------------------- saved games

ODD_STATE_VALUES = [
    None,
    True,
    False,
    0,
    -1,
    1,
    2,
    7,
    2.0,
    2.5,
    -0.0,
    1e308,
    float("inf"),
    10**30,
    -(10**30),
    "",
    "2",
    "action",
    "over",
    "payment",
    "noble_visit",
    "return_tokens",
    [],
    [0],
    [None],
    {},
    {"x": 1},
    {"trigger": "target", "finish": "complete_round", "last_seat": 7},
    {"trigger": "nope", "finish": "immediately", "last_seat": 0},
    {"last_seat": 1},
]


def deeply_nested(depth: int):
    """A JSON value nested `depth` lists deep (built without recursion)."""
    value = 0
    for _ in range(depth):
        value = [value]
    return value


def _state_paths(state, deepest: int = 8) -> list[tuple]:
    """Paths into a state, at most `deepest` keys long (a corrupted `start` nests states)."""
    found, todo = [], [((), state)]
    while todo:
        path, value = todo.pop()
        if path:
            found.append(path)
        if len(path) < deepest:
            items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
            todo.extend((path + (k,), v) for k, v in items)
    return sorted(found, key=repr)


@st.composite
def corrupted_state(draw, state: dict) -> tuple[dict | str, list[str]]:
    """A saved game with one to three corruptions: a field set to a value of another type or
    out of range, a key dropped or added, cards and nobles doubled, moved or lost, the
    phase, the pending purchase and the ending made inconsistent, `start` replaced, JSON
    nested deep. Returns the state (a dict, or text when the JSON itself is odd) and notes."""
    state = copy.deepcopy(state)
    notes = []
    for _ in range(draw(st.integers(1, 3))):
        paths = _state_paths(state)
        op = draw(
            st.sampled_from(["set", "set", "set", "drop", "extra", "card", "phase", "ending", "start", "nest", "swap"])
        )
        if op == "set" and paths:
            path = draw(st.sampled_from(paths))
            value = draw(st.sampled_from(ODD_STATE_VALUES))
            _set_path(state, path, copy.deepcopy(value))
            notes.append(f"set {path} = {value!r}")
        elif op == "drop" and paths:
            path = draw(st.sampled_from(paths))
            parent = get_at(state, path[:-1])
            del parent[path[-1]]
            notes.append(f"drop {path}")
        elif op == "extra":
            path = draw(st.sampled_from([()] + [p for p in paths if isinstance(get_at(state, p), dict)]))
            get_at(state, path)[draw(st.sampled_from(["x", "__proto__", "Players", "format", "9"]))] = 1
            notes.append(f"extra key under {path}")
        elif op == "card":
            # lists of card ids only (not the list of seats: popping a seat would move the target)
            card_lists = [
                p
                for p in paths
                if p
                and p[0] in ("market", "decks", "seats")
                and isinstance(get_at(state, p), list)
                and not any(isinstance(x, (dict, list)) for x in get_at(state, p))
            ]
            if card_lists:
                source, target = draw(st.sampled_from(card_lists)), draw(st.sampled_from(card_lists))
                items = get_at(state, source)
                if items:
                    k = draw(st.integers(0, len(items) - 1))
                    moved = items[k] if draw(st.booleans()) else items.pop(k)  # doubled, or moved
                    get_at(state, target).append(copy.deepcopy(moved))  # a copy: never a cycle
                    notes.append(f"card {moved!r} from {source} to {target}")
        elif op == "phase":
            state["phase"] = draw(st.sampled_from(["action", "over", "payment", "noble_visit", "return_tokens"]))
            state["pending"] = draw(st.sampled_from([None, 0, 20, 21, 44, 45, 60, 10**9]))
            notes.append(f"phase {state['phase']!r}, pending {state['pending']!r}")
        elif op == "ending":
            state["ending"] = copy.deepcopy(
                draw(
                    st.sampled_from(
                        ODD_STATE_VALUES[-3:]
                        + [
                            {"trigger": "target", "finish": "complete_round", "last_seat": -1},
                            {"trigger": "deadlock", "finish": "immediately", "last_seat": 1},
                            {"trigger": None, "finish": None, "last_seat": 1},
                        ]
                    )
                )
            )  # a copy: later ops may edit it
            notes.append(f"ending {state['ending']!r}")
        elif op == "start":
            state["start"] = draw(st.sampled_from([0, {}, [], "x", {"players": 2}, copy.deepcopy(state)]))
            notes.append("start replaced")
        elif op == "nest":
            depth = draw(st.sampled_from([50, 1000, 100_000]))
            notes.append(f"nested {depth} deep")
            key = draw(st.sampled_from(["history", "start", "x", "seats"]))
            return json.dumps(state)[:-1] + f', "{key}": ' + "[" * depth + "]" * depth + "}", notes
        elif op == "swap" and len(paths) > 1:
            a, b = draw(st.sampled_from(paths)), draw(st.sampled_from(paths))
            if a[: len(b)] != b and b[: len(a)] != a:
                va, vb = copy.deepcopy(get_at(state, a)), copy.deepcopy(get_at(state, b))
                _set_path(state, a, vb)
                _set_path(state, b, va)
                notes.append(f"swap {a} and {b}")
    return state, notes
