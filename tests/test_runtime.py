"""The engine runtime (compiler/emit/runtime) as Python modules, and the rule that pastes it into engines.

The runtime modules are imported here as they are, not through an engine: each test binds
the names a module takes from the rest of an engine (the spec interface, compiler/emit/runtime/
spec.py, and the other runtime modules) to the globals of a compiled engine, then calls the
module's own functions. So the code under test is the file in compiler/emit/runtime, run against
a real spec's tables (the official engine's, and gold_for_shortfall's, which keeps no
face-up cost cache).
"""

from __future__ import annotations

import ast
import importlib
import inspect
import itertools
import json
import pathlib
import random

import pytest

from compiler.emit import inline, runtime
from compiler.emit.formatting import laid_out
from compiler.emit.runtime import deal, errors, game, notation, problems, queue, spec, state, variables, zones
from tests.helpers.engines import ROOT, load_engine

ENGINES = sorted((ROOT / "generated" / "engines").glob("*.py"))
RUNTIME = pathlib.Path(runtime.__file__).parent
# Every runtime module, as runtime.MODULES lists them (a module added there is tested here too).
MODULES = {name: importlib.import_module(f"compiler.emit.runtime.{name}") for name in runtime.MODULES}
# only in the engines of specs that use them
SPEC_MODULES = {"variables": variables, "zones": zones, "queue": queue}


# How to tell the engine of a spec that uses a runtime module of SPEC_MODULES: the table it reads.
_USES = {
    "variables": "\nVARIABLES = (\n",
    "zones": "\nZONES = (\n",
    "queue": '("queued", False, ())',
}


def uses(module: str, engine_text: str) -> bool:
    """Does this engine's spec use runtime module `module` of SPEC_MODULES (state, zones)?"""
    return _USES[module] in engine_text


def official():
    return load_engine(ROOT / "generated" / "engines" / "official.py")


_NO_CACHE: list = []


def no_cost_cache():
    """An engine that keeps no face-up costs (no purchase loop walks them): tests/specs/treasures.yaml's,
    compiled once (every catalogue engine keeps them since their purchase scans walk the costs)."""
    if not _NO_CACHE:
        import tempfile

        from compiler import pipeline

        folder = pathlib.Path(tempfile.mkdtemp(prefix="no_cost_cache_"))
        path = folder / "treasures_engine.py"
        path.write_text(pipeline.compile_spec(str(ROOT / "tests" / "specs" / "treasures.yaml")).text, encoding="utf-8")
        _NO_CACHE.append(load_engine(path))
    return _NO_CACHE[0]


def bind(monkeypatch, module, engine):
    """Run `module` against `engine`: the module's own functions and classes stay its own; every
    other global the engine also has (tables, caches, what the header imports) is the engine's."""
    for name, value in list(vars(module).items()):
        if name.startswith("__"):
            continue
        own = (inspect.isfunction(value) or inspect.isclass(value)) and value.__module__ == module.__name__
        if not own and hasattr(engine, name):
            monkeypatch.setattr(module, name, getattr(engine, name))
    slots = (("face_up_costs",) if engine._FACE_UP_COSTS else ()) + tuple(name for name, _, _ in engine._EXTRA_SLOTS)
    if module is game and slots:
        # Game's slots are chosen when the class is made, from the placeholder spec (no face-up
        # cost cache, no slots of its own) on import: the class this engine's text makes has them.
        monkeypatch.setattr(game, "Game", type("Game", (game.Game,), {"__slots__": slots}))


def bind_deal(monkeypatch, engine):
    """deal.new_game run against `engine`, dealing into the runtime's own Game (bound as `bind` binds it)."""
    bind(monkeypatch, deal, engine)
    monkeypatch.setattr(deal, "Game", game.Game)


def header_names(module) -> set[str]:
    """The names a runtime module's header binds by importing (stdlib modules, the spec interface,
    other runtime modules), but for `from __future__` and an `if TYPE_CHECKING:` block's."""
    names = set()
    for node in runtime.header(ast.parse(pathlib.Path(module.__file__).read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {alias.asname or alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module != "__future__":
            names |= {alias.asname or alias.name for alias in node.names}
    return names


def definitions(tree: ast.Module) -> dict[str, ast.AST]:
    """The functions and classes a module defines at its top level, and each method as CLASS.NAME."""
    out: dict[str, ast.AST] = {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            out[node.name] = node
        if isinstance(node, ast.ClassDef):
            out.update((f"{node.name}.{item.name}", item) for item in node.body if isinstance(item, ast.FunctionDef))
    return out


def hooks_of(tree: ast.Module) -> dict[str, ast.FunctionDef]:
    """The hooks an engine defines (the functions the spec interface declares after its tables)."""
    return {node.name: node for node in tree.body if isinstance(node, ast.FunctionDef) and node.name in HOOKS}


HOOKS = (
    "_end_of_turn",
    "_reset_turn",
    "_keep_turn",
    "_turn_again",
    "_state_json",
    "_state_problems",
    "_load_state",
    "_deal_spec_zones",
    "_setup",
)


# --------------------------------------------------------------------------- the paste rule


def test_the_header_is_the_docstring_and_the_imports():
    text = (
        '"""doc"""\nfrom __future__ import annotations\n\nimport json\nfrom typing import TYPE_CHECKING\n\n'
        "if TYPE_CHECKING:\n    from .game import Game\n\n# a comment\nA = 1\n\n\ndef f():\n    return A\n\n"
    )
    assert runtime.split_header(text)[1] == "# a comment\nA = 1\n\n\ndef f():\n    return A"


def test_only_runtime_modules_are_pasted():
    with pytest.raises(ValueError, match="not a runtime module: 'spec'"):
        runtime.engine_text("spec")


def test_every_runtime_module_is_listed():
    files = {p.stem for p in RUNTIME.glob("*.py")} - {"__init__", "spec"}
    assert set(runtime.MODULES + runtime.SPEC_MODULES) == files
    assert set(SPEC_MODULES) == set(runtime.SPEC_MODULES)


@pytest.mark.parametrize("name", runtime.MODULES + runtime.SPEC_MODULES)
def test_no_runtime_module_is_cut(name):
    """No marker, no cut point: the text an engine holds is the module's whole body after its header,
    every function of it whole (the same syntax tree as the module's own)."""
    text = (RUNTIME / f"{name}.py").read_text(encoding="utf-8")
    assert "# ---- engine text" not in text
    tree = ast.parse(text)
    body = [node for node in tree.body if node not in runtime.header(tree)]
    assert ast.dump(ast.Module(body, [])) == ast.dump(ast.parse(runtime.engine_text(name)))


@pytest.mark.parametrize("name", runtime.MODULES + runtime.SPEC_MODULES)
def test_a_header_holds_only_the_docstring_and_imports(name):
    tree = ast.parse((RUNTIME / f"{name}.py").read_text(encoding="utf-8"))
    header = runtime.header(tree)
    assert isinstance(header[0], ast.Expr) and isinstance(header[0].value, ast.Constant)  # the docstring
    relative = [node.module for node in header if isinstance(node, ast.ImportFrom) and node.level]
    assert set(relative) <= {"spec"} | set(runtime.MODULES)


@pytest.mark.parametrize("name", runtime.MODULES + runtime.SPEC_MODULES)
def test_the_pasted_text_imports_nothing(name):
    """An engine's imports are the template's (the standard library): the runtime's own imports
    are in its headers, which are not pasted."""
    tree = ast.parse(runtime.engine_text(name))
    assert not [node for node in ast.walk(tree) if isinstance(node, (ast.Import, ast.ImportFrom))], name


@pytest.mark.parametrize("path", ENGINES, ids=lambda p: p.stem)
def test_every_engine_holds_the_runtime_verbatim(path):
    """Each runtime module's text is in the engine as it is written (as the formatter lays it out:
    compiler/emit/formatting.py); game.py's with the hooks the engine defines inlined into Game.apply
    (compiler/emit/inline.py)."""
    text = path.read_text(encoding="utf-8")
    hooks = "\n\n".join(ast.unparse(node) for node in hooks_of(ast.parse(text)).values())
    for name in runtime.MODULES:
        pasted = runtime.engine_text(name) if name != "game" else inline.game_text(runtime.engine_text(name), hooks)
        assert laid_out(pasted).strip() in text, f"{path.name} lacks the text of compiler/emit/runtime/{name}.py"
    for name in runtime.SPEC_MODULES:  # exactly in the engines of the specs that use them
        held = laid_out(runtime.engine_text(name)).strip() in text
        assert held == uses(name, text), f"{path.name} and compiler/emit/runtime/{name}.py"


@pytest.mark.parametrize("path", ENGINES, ids=lambda p: p.stem)
def test_every_engine_runs_the_runtime_functions(path):
    """Every function and method of the runtime (the ones its unit tests here run) is, node for node,
    the engine's of the same name; Game.apply is the runtime's with the engine's hooks inlined, and
    every engine defines every hook."""
    text = path.read_text(encoding="utf-8")
    engine = definitions(ast.parse(text))
    hooks = hooks_of(ast.parse(text))
    assert set(hooks) == set(HOOKS), path.name
    for name in runtime.MODULES + tuple(m for m in runtime.SPEC_MODULES if uses(m, text)):
        for key, node in definitions(ast.parse(runtime.engine_text(name))).items():
            if key == "Game":  # its methods, one by one
                continue
            if key == "Game.apply":
                node = inline.inline_hooks(node, {h: hooks[h] for h in inline.INLINED})
                engine_node = ast.parse(ast.unparse(engine[key])).body[0]
                node = ast.parse(ast.unparse(node)).body[0]
            else:
                engine_node = engine[key]
            assert ast.dump(node) == ast.dump(engine_node), f"{path.name}: {key} of compiler/emit/runtime/{name}.py"


@pytest.mark.parametrize("path", ENGINES, ids=lambda p: p.stem)
def test_every_engine_defines_what_the_runtime_imports(path):
    """The spec interface is complete: each name a runtime header imports (from spec.py, from
    another runtime module, or of the standard library) is a global of every engine."""
    engine = load_engine(path)
    text = path.read_text(encoding="utf-8")
    used = {**MODULES, **{name: m for name, m in SPEC_MODULES.items() if uses(name, text)}}
    for module in used.values():
        missing = sorted(name for name in header_names(module) if not hasattr(engine, name))
        assert not missing, f"{path.name} lacks {missing}, which compiler/emit/runtime/{module.__name__} reads"


def test_the_spec_interface_lists_only_what_the_runtime_reads():
    read = set().union(*(header_names(m) for m in {**MODULES, **SPEC_MODULES}.values()))
    tree = ast.parse(pathlib.Path(spec.__file__).read_text(encoding="utf-8"))
    listed = {
        t.id
        for node in tree.body
        if isinstance(node, (ast.Assign, ast.AnnAssign))
        for t in (node.targets if isinstance(node, ast.Assign) else [node.target])
        if isinstance(t, ast.Name)
    }
    listed |= {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}
    assert listed - read == set()
    assert set(HOOKS) <= listed


def test_the_runtime_is_annotated_whole():
    """Every function of the runtime has its parameters and its return annotated (mypy checks
    their bodies: pyproject.toml)."""
    for path in RUNTIME.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef):
                params = node.args.posonlyargs + node.args.args + node.args.kwonlyargs
                bare = [a.arg for a in params if a.annotation is None and a.arg != "self"]
                assert not bare and node.returns is not None, f"{path.name}: {node.name} ({bare})"


# --------------------------------------------------------------------------- errors


def test_state_error_keeps_its_problems():
    err = errors.StateError("invalid state", [(("seats", 1, "tokens", "red"), "too many")])
    assert err.problems == ((("seats", 1, "tokens", "red"), "too many"),)
    assert str(err) == "invalid state"
    assert errors.StateError("not JSON").problems == ()


class _Index:
    """An integer type of another library (numpy's int64, say): it has __index__."""

    def __index__(self):
        return 3


def test_whole_takes_integer_types_and_names_what_it_refuses():
    assert errors._whole(_Index(), "a seed") == 3
    with pytest.raises(ValueError, match="^a seed must be a whole number, not bool True$"):
        errors._whole(True, "a seed")
    with pytest.raises(ValueError, match=r"^the number of players must be a whole number, not str '2'$"):
        errors._whole("2", "the number of players")


def test_shown_keeps_every_value_short():
    assert errors._shown(10**100) == "a number of about 101 digits"
    assert errors._shown("x" * 50) == repr("x" * 40) + "..."
    assert errors._shown([[1], 2]) == "a list of 2"
    assert errors._shown({"a": 1}) == "an object of 1 key"
    assert errors._shown(None) == "None"
    assert errors._shown(object()) == "object"


# --------------------------------------------------------------------------- the game and the deal


def test_shuffle_deals_what_a_seed_always_dealt():
    """Fisher-Yates with getrandbits, as random.shuffle of Python 3.11: these deals are pinned."""
    dealt = {}
    for seed, n in [(1, 10), (7, 5), (42, 20)]:
        items = list(range(n))
        deal._shuffle(random.Random(seed), items)
        dealt[seed, n] = items
    assert dealt == {
        (1, 10): [6, 8, 9, 7, 5, 3, 0, 4, 1, 2],
        (7, 5): [4, 0, 3, 1, 2],
        (42, 20): [19, 5, 14, 4, 9, 13, 15, 18, 6, 12, 17, 10, 1, 11, 2, 16, 7, 8, 0, 3],
    }
    for n in (0, 1):
        items = list(range(n))
        deal._shuffle(random.Random(1), items)
        assert items == list(range(n))


@pytest.mark.parametrize("engine", [official, no_cost_cache], ids=["official", "treasures"])
def test_new_game_deals_as_the_engine_does(monkeypatch, engine):
    engine = engine()
    bind(monkeypatch, game, engine)
    bind_deal(monkeypatch, engine)
    for seed in (0, 1, 2024):
        assert deal.new_game(2, seed=seed).to_json() == engine.new_game(2, seed=seed).to_json()


@pytest.mark.parametrize("stem", ["official", "no_churn", "trading_posts", "cities"])
def test_the_runtime_plays_as_the_engine_does(monkeypatch, stem):
    """The runtime's own Game.apply (its hooks the engine's: the steps, the end triggers, the turn
    resets, the zones and the declared state) plays every game as the engine does, move for move."""
    engine = load_engine(ROOT / "generated" / "engines" / f"{stem}.py")
    bind(monkeypatch, game, engine)
    bind_deal(monkeypatch, engine)
    for seed in (0, 1):
        mine, theirs = deal.new_game(2, seed=seed), engine.new_game(2, seed=seed)
        rng = random.Random(seed)
        while not theirs.is_over():
            assert mine.legal_actions() == theirs.legal_actions()
            action = rng.choice(theirs.legal_actions())
            mine.apply(action)
            theirs.apply(action)
            assert mine.to_json() == theirs.to_json()
        assert mine.is_over() and mine.winners() == theirs.winners()


def test_the_face_up_cost_cache_follows_the_market(monkeypatch):
    engine = official()
    bind(monkeypatch, game, engine)
    bind_deal(monkeypatch, engine)
    g = deal.new_game(3, seed=5)
    slots = engine._FACE_UP_SLOTS
    for li, row in enumerate(g.market):
        for si, card in enumerate(row):
            assert g.face_up_costs[li * slots + si] == engine.CARD_COST[card]
    assert g.clone().face_up_costs == g.face_up_costs


def test_a_spec_without_the_cache_keeps_no_face_up_costs():
    engine = no_cost_cache()
    assert engine._FACE_UP_COSTS is False
    assert "face_up_costs" not in engine.Game.__slots__
    assert not hasattr(engine.new_game(2, seed=1), "face_up_costs")
    assert "face_up_costs" in official().Game.__slots__


def test_game_reads_and_copies_its_state(monkeypatch):
    engine = official()
    bind(monkeypatch, game, engine)
    bind_deal(monkeypatch, engine)
    g = deal.new_game(2, seed=9)
    assert (g.phase, g.current_player, g.num_players) == ("action", 0, 2)
    assert g.legal_actions() == engine.new_game(2, seed=9).legal_actions()
    copy = g.clone()
    assert copy.to_dict() == g.to_dict() and copy.tokens is not g.tokens
    seen = g.observation(1)
    assert seen["decks"] == {str(lv): len(deck) for lv, deck in zip(engine.LEVELS, g.decks, strict=True)}
    assert "history" not in seen and seen["observer"] == 1
    with pytest.raises(ValueError, match="^no player 2 in a game of 2$"):
        g.observation(2)


def test_new_game_names_what_it_refuses(monkeypatch):
    bind(monkeypatch, game, official())
    bind_deal(monkeypatch, official())
    with pytest.raises(ValueError, match="^this engine plays with 2, 3, 4 players, not 5$"):
        deal.new_game(5, seed=1)
    with pytest.raises(ValueError, match="^max_turns must be at least 1, not 0$"):
        deal.new_game(2, seed=1, max_turns=0)
    with pytest.raises(ValueError, match="^a seed must be a whole number, not float 1.5$"):
        deal.new_game(2, seed=1.5)


def test_an_illegal_id_is_explained(monkeypatch):
    engine = official()
    bind(monkeypatch, game, engine)
    bind_deal(monkeypatch, engine)
    g = deal.new_game(2, seed=1)
    with pytest.raises(engine.IllegalAction, match=r"^no action has id 9999 \(ids run from 0 to 323\)$"):
        g._as_legal_id(9999, g.legal_actions())
    with pytest.raises(engine.IllegalAction, match=r"string_to_action reads the notation"):
        g._as_legal_id("take white", g.legal_actions())


# --------------------------------------------------------------------------- loading a state


def test_a_sound_state_has_no_problem(monkeypatch):
    engine = official()
    bind(monkeypatch, state, engine)
    bind(monkeypatch, problems, engine)
    g = engine.new_game(2, seed=4)
    for _ in range(30):
        g.apply(g.legal_actions()[0])
    assert problems._problems(g.to_dict()) == []
    loaded = state.from_json(g.to_json())
    assert type(loaded) is engine.Game and loaded.to_json() == g.to_json()


def test_each_problem_has_the_path_of_its_value(monkeypatch):
    engine = official()
    bind(monkeypatch, state, engine)
    bind(monkeypatch, problems, engine)
    data = engine.new_game(2, seed=3).to_dict()
    data["supply"]["red"] += 1
    data["seats"][1]["tokens"]["blue"] = -1
    data["ending"] = {"trigger": "target", "finish": "complete_round", "last_seat": 7}
    assert problems._problems(data) == [
        (("seats", 1, "tokens", "blue"), "seats[1].tokens.blue must be a whole number of at least 0, not -1"),
        (("supply", "red"), "red tokens add up to 5, the game has 4"),
        (("ending", "last_seat"), "'ending.last_seat' must be a seat from 0 to 1, not 7"),
    ]
    with pytest.raises(engine.StateError) as info:
        state.from_json(data)
    assert [path for path, _ in info.value.problems] == [
        ("seats", 1, "tokens", "blue"),
        ("supply", "red"),
        ("ending", "last_seat"),
    ]


def test_a_start_state_problem_is_under_start(monkeypatch):
    engine = official()
    bind(monkeypatch, problems, engine)
    data = engine.new_game(2, seed=3).to_dict()
    data["start"] = dict(engine.new_game(2, seed=3).to_dict(), round=0)
    assert (("start", "round"), "start: 'round' must be a whole number of at least 1, not 0") in problems._problems(
        data
    )


def test_text_that_is_not_json_is_shown_with_a_caret(monkeypatch):
    bind(monkeypatch, state, official())
    with pytest.raises(official().StateError) as info:
        state.from_json('{"players": 2,\n "seats": [1, 2,]}')
    assert str(info.value) == (
        'the state is not valid JSON: line 2, column 17: expecting value\n   "seats": [1, 2,]}\n                  ^'
    )
    assert info.value.problems == ()


def test_dotted_writes_a_path_as_a_message_does():
    assert problems._dotted(("seats", 1, "tokens", "red")) == "seats[1].tokens.red"
    assert problems._dotted(()) == ""


def test_replay_refuses_a_record_of_another_spec(monkeypatch):
    engine = official()
    bind(monkeypatch, state, engine)
    record = engine.new_game(2, seed=1).record()
    assert state.replay(record).to_json() == engine.replay(record).to_json()
    with pytest.raises(engine.StateError, match="^the record is for spec 'other'"):
        state.replay(dict(record, spec="other"))


# --------------------------------------------------------------------------- notation


def test_every_action_string_reads_back_as_its_id(monkeypatch):
    engine = official()
    bind(monkeypatch, notation, engine)
    for action, text in enumerate(engine.ACTION_STRINGS):
        assert notation.action_to_string(action) == text
        assert notation.string_to_action(text) == action
    assert notation.string_to_action("  Take WHITE blue   green ") == notation.string_to_action("take white blue green")


@pytest.mark.parametrize(
    "text, message",
    [
        (
            "take white blue grean",
            "not an action: 'take white blue grean' (did you mean 'take white blue green'?); "
            "take is written 'take PICKED', where PICKED is 1 to 3 different gem colours among white, blue, green, red, black",
        ),
        ("fly 3", "not an action: 'fly 3' (actions start with: buy, noble, pass, pay, reserve, return, take, take2)"),
        (
            "buy 1.9",
            "not an action: 'buy 1.9'; buy is written 'buy CARD', where CARD is a face-up card as level.slot "
            "(1.1 to 3.4), or 'buy reserved CARD', where CARD is one of your reserved cards (1 to 3) "
            "(how to pay is asked next, when gold gives a choice)",
        ),
    ],
)
def test_text_that_is_no_action_says_how_actions_are_written(monkeypatch, text, message):
    engine = official()
    bind(monkeypatch, notation, engine)
    with pytest.raises(engine.NotationError) as info:
        notation.string_to_action(text)
    assert str(info.value) == message


def test_an_id_that_is_no_action_is_refused(monkeypatch):
    engine = official()
    bind(monkeypatch, notation, engine)
    assert notation.action_to_string(_Index()) == engine.ACTION_STRINGS[3]
    for value, message in [
        (True, "an action id must be a whole number, not bool True"),
        (-1, "no action has id -1 (ids run from 0 to 323)"),
    ]:
        with pytest.raises(engine.NotationError) as info:
            notation.action_to_string(value)
        assert str(info.value) == message


def test_describe_action_gives_values_people_read(monkeypatch):
    engine = official()
    bind(monkeypatch, notation, engine)
    assert notation.describe_action(notation.string_to_action("take white blue green")) == (
        "take_different",
        {"picked": ("white", "blue", "green")},
    )
    assert notation.describe_action(notation.string_to_action("buy 2.3")) == ("buy_face_up", {"card": (2, 3)})
    assert notation.describe_action(notation.string_to_action("pay gold for red black")) == (
        "payment",
        {"payment": {"red": 1, "black": 1}},
    )


@pytest.mark.parametrize("path", ENGINES, ids=lambda p: p.stem)
def test_a_set_is_read_in_any_order_and_written_in_one(monkeypatch, path):
    """Every action whose choice is a set (gem colours to take, the colours gold pays for) is
    read back from its set's words in every order; the text written stays the table's."""
    engine = load_engine(path)
    bind(monkeypatch, notation, engine)
    orders = 0
    for action, text in enumerate(engine.ACTION_STRINGS):
        d, args = engine.ACTIONS[action]
        for param, value in zip(engine.ACTION_PARAMS[d], args, strict=True):
            words = (
                notation._set_words(param.domain, value)
                if param.domain in notation._SET_KINDS and value is not None
                else []
            )
            if len(words) < 2:
                continue
            head, tail = text.split(" ".join(words))
            for order in set(itertools.permutations(words)):
                assert notation.string_to_action(head + " ".join(order) + tail) == action, (text, order)
                orders += 1
            assert notation.action_to_string(action) == text
    assert orders > 0


def test_every_kind_of_choice_is_read_either_as_a_set_or_word_by_word():
    schema = json.loads((ROOT / "rulespec" / "schema.json").read_text(encoding="utf-8"))
    domains = set(schema["$defs"]["param"]["anyOf"][1]["properties"]["domain"]["enum"])
    assert not set(notation._SET_KINDS) & set(notation._WORD_KINDS)
    # a component (a place of a zone) is one word too; its kind is left out of the table pasted into
    # every engine, so that the engines of specs without zones keep their text
    assert set(notation._SET_KINDS) | set(notation._WORD_KINDS) | {"component"} == domains


@pytest.mark.parametrize(
    "text, says",
    [
        ("take red black green", "take green red black"),
        ("TAKE black  White", "take white black"),
        ("pay gold for black red red", "pay gold for red red black"),
    ],
)
def test_a_set_in_another_order_is_shown_back_in_the_written_order(monkeypatch, text, says):
    engine = official()
    bind(monkeypatch, notation, engine)
    assert notation.action_to_string(notation.string_to_action(text)) == says


@pytest.mark.parametrize(
    "text, meant",
    [
        ("take gren red black", "take green red black"),
        ("take red gren black", "take green red black"),
        ("take blakc wite", "take white black"),
        ("pay gold for blakc red", "pay gold for red black"),
    ],
)
def test_a_misspelt_colour_in_any_order_gets_a_did_you_mean(monkeypatch, text, meant):
    engine = official()
    bind(monkeypatch, notation, engine)
    with pytest.raises(engine.NotationError) as info:
        notation.string_to_action(text)
    assert str(info.value).startswith(f"not an action: {text!r} (did you mean {meant!r}?); ")


def test_a_colour_twice_is_no_set(monkeypatch):
    engine = official()
    bind(monkeypatch, notation, engine)
    with pytest.raises(engine.NotationError, match="^not an action: 'take red red blue'; take is written"):
        notation.string_to_action("take red red blue")


def test_a_typo_is_a_slip_of_letters_not_of_numbers():
    assert notation._a_typo(["take", "grean"], ["take", "green"])
    assert not notation._a_typo(["sweep", "9.9"], ["sweep", "3.4"])
    assert not notation._a_typo(["take"], ["take", "green"])


# --------------------------------------------------------------------------- the spec's own slots


def test_extra_slots_start_from_their_initial_values_and_each_clone_owns_its_lists(monkeypatch):
    """A spec's own zones and state are Game attributes listed in _EXTRA_SLOTS: made for each
    game from their initial values (one per player where per_player), and copied, never shared,
    by clone (a bot's look-ahead must not move a real game's components)."""
    bind(monkeypatch, game, official())
    slots = (("z_pile", False, (3, 1, 2)), ("s_markers", True, 5), ("z_rows", False, ((), ())), ("s_flag", False, None))
    monkeypatch.setattr(game, "_EXTRA_SLOTS", slots)
    cls = type("Game", (game.Game,), {"__slots__": tuple(name for name, _, _ in slots)})
    monkeypatch.setattr(game, "Game", cls)
    g = cls(3)
    assert (g.z_pile, g.s_markers, g.z_rows, g.s_flag) == ([3, 1, 2], [5, 5, 5], [[], []], None)
    g.origin, g.history, g.pending, g.max_turns, g.out_of_play, g._legal = None, [], None, None, (), None
    c = g.clone()
    c.z_pile.pop()
    c.s_markers[1] = 4
    c.z_rows[0].append(7)
    assert (g.z_pile, g.s_markers, g.z_rows) == ([3, 1, 2], [5, 5, 5], [[], []])
    assert (c.z_pile, c.s_markers, c.z_rows) == ([3, 1], [5, 4, 5], [[7], []])


def test_engines_without_zones_or_state_of_their_own_keep_state_version_1():
    """Only a spec that declares state or zones of its own (no-churn, the Cities, the Trading
    Posts, the court's favours, the Strongholds: compiler/emit/runtime/variables.py, zones.py) has
    slots of its own and saves version 2; every other engine is as it was."""
    own = {"no_churn", "cities", "cities_declinable", "trading_posts", "court_favours", "strongholds"}
    for path in ENGINES:
        engine = load_engine(path)
        if path.stem == "no_churn":
            assert engine._EXTRA_SLOTS == (("s_taken", False, ()),) and engine.STATE_VERSION == 2
        elif path.stem in own:
            assert engine._EXTRA_SLOTS and engine.STATE_VERSION == 2, path.name
        else:
            assert engine._EXTRA_SLOTS == () and engine.STATE_VERSION == 1, path.name


def test_the_engine_template_pastes_every_runtime_module_once():
    """A runtime module the template leaves out would leave its names undefined in every engine
    (found only when an engine runs); one pasted twice would define them twice."""
    template = (ROOT / "compiler" / "emit" / "templates" / "engine.py.j2").read_text(encoding="utf-8")
    for name in runtime.MODULES + runtime.SPEC_MODULES:
        assert template.count("{{ runtime.%s }}" % name) == 1, name  # noqa: UP031 - braces of Jinja2
