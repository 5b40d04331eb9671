"""Text from a spec or a file name reaches a generated engine only through compiler.lower.pysource.

A spec is untrusted input and its engine is Python that is imported. These tests render
every text of a spec that can reach the engine (titles, descriptions, notes, notation, the
file's name and folder, a base's path) with hostile strings, and check that the module
is the same program as the one made from harmless texts (the same AST, but for the
strings), that the texts come back intact where they are kept as literals, and that
importing any engine (committed or hostile) in a fresh interpreter defines only the
documented names and does nothing else.
"""

from __future__ import annotations

import ast
import io
import json
import os
import random
import re
import subprocess
import sys
import tokenize

import pytest

from compiler import lower, pipeline
from compiler.emit import engine as emit_engine
from compiler.emit.engine import module_name
from compiler.emit.runtime import errors
from compiler.front.source import shown_path
from compiler.lower import ir, pysource
from compiler.lower.pysource import Code, comment, docstring, identifier, literal, printable
from tests.helpers import ROOT

# Every way a text has broken out of a comment, a docstring or a literal, or hidden code.
PIECES = [
    '"""',
    "'''",
    '"',
    "'",
    "\\",
    "\\N{foo}",
    "\\x",
    "\\u12",
    "\n",
    "\r",
    "\r\n",
    "\x0c",
    "\x0b",
    "\x00",
    "\ud800",
    "\udcff",
    "\u202e",
    "\u2066",
    "\u2069",
    "\u2028",
    "\u2029",
    "\x85",
    "\x1b[2J",
    "\ufeff",
    "#",
    "%s",
    "%",
    "%(x)d",
    "{",
    "}",
    "\t",
]
HOSTILE = "House" + "".join(f"{piece}{i}" for i, piece in enumerate(PIECES)) + '"'
ATTACK = "x''';import os;os.system('echo PWNED>PWNED');SPEC_NAME='x'#"


# --------------------------------------------------------------------------- the functions


@pytest.mark.parametrize("text", PIECES + [HOSTILE, ATTACK, "House rules\"\"\" '''", 'x""" + """y'])
def test_a_comment_is_one_line_of_printable_text_that_hides_no_code(text):
    made = comment(text)
    assert isinstance(made, Code) and made.isprintable() and len(made.splitlines()) <= 1
    module = ast.parse(f"before = 1  # {made}\n# {made}\nafter = 2\n")
    assert [type(s).__name__ for s in module.body] == ["Assign", "Assign"]


@pytest.mark.parametrize("text", PIECES + [HOSTILE, ATTACK, "", '"', '""', 'a"', "end\\", '"""' * 3])
def test_a_docstring_literal_is_the_text_exactly_and_nothing_more(text):
    made = docstring(text)
    module = ast.parse(made + "\nafter = 1\n")
    assert [type(s).__name__ for s in module.body] == ["Expr", "Assign"]
    assert module.body[0].value.value == text == ast.literal_eval(made)
    tokens = [
        t
        for t in tokenize.generate_tokens(io.StringIO(made).readline)
        if t.type not in (tokenize.NEWLINE, tokenize.NL, tokenize.ENDMARKER)
    ]
    assert [(t.type, t.string) for t in tokens] == [(tokenize.STRING, made)]  # one string: nothing closes it early
    assert made.startswith('"""') and made.endswith('"""') and '""' not in made[3:-3].replace('\\"', "_")


@pytest.mark.parametrize("value", PIECES + [HOSTILE, ("a", (1, None, True)), {"k": [1.5, "\u2028"]}])
def test_a_literal_evaluates_to_its_value_on_one_printable_line(value):
    made = literal(value)
    assert ast.literal_eval(made) == value and made.isprintable()


def test_only_plain_data_becomes_a_literal():
    class Sneaky(str):
        def __repr__(self):
            return "__import__('os')"

    for value in (Sneaky("x"), object(), ("fine", Sneaky("x")), {Sneaky("k"): 1}):
        with pytest.raises(TypeError):
            literal(value)


def test_a_spec_name_never_spells_a_name_the_compiler_derives_or_another_use():
    assert identifier("p_", "card") == "p_card"
    assert identifier("p_", "card", "LI") == "p_card_LI" != identifier("p_", "card_li")
    assert identifier("cc_p_", "card", "G0") != identifier("cc_p_", "card_0")
    for prefix in pysource.SPEC_PREFIXES:  # no prefix starts another: the prefix says what a name is for
        assert not [other for other in pysource.SPEC_PREFIXES if other != prefix and other.startswith(prefix)]
    for bad in ("card\n", "Card", "1card", "card-2", "", "ca rd", "card_\u0131"):
        with pytest.raises(pysource.UnsafeName):
            identifier("p_", bad)
    with pytest.raises(ValueError):
        identifier("p_", "card", "li")  # a derived part is upper-case
    with pytest.raises(ValueError):
        identifier("q_", "card")  # an unknown prefix


def test_a_path_in_an_engine_is_relative_or_only_the_file_name(tmp_path):
    assert shown_path("variants/solo.yaml") == "variants/solo.yaml"
    assert shown_path(str(ROOT / "rulespec" / "official.yaml")) == "rulespec/official.yaml"
    assert shown_path(str(tmp_path / "mine" / "house.yaml")) == "house.yaml"
    assert shown_path("../elsewhere/house.yaml") == "house.yaml"


def test_an_effect_s_text_with_percent_signs_and_braces_is_kept_whole_in_its_rule_error():
    statement = lower.raise_rule_error(
        "short_supply", "take(c, turn % 2) (100%s{x}.yaml:3)", n=ir.const(1), colour=ir.const("red")
    )
    with pytest.raises(errors.RuleError) as caught:
        exec(statement, {"RuleError": errors.RuleError})  # noqa: S102 - a statement made by the compiler
    assert str(caught.value) == "take(c, turn % 2) (100%s{x}.yaml:3): only 1 red token(s) in the supply"
    assert (caught.value.key, caught.value.fields["n"]) == ("short_supply", 1)


def test_the_engine_template_writes_only_code():
    """A value that did not go through compiler.lower.pysource is refused, so a template edit cannot
    write a spec's text raw (Jinja's finalize hook)."""
    env = emit_engine._environment()
    with pytest.raises(TypeError, match="not Code"):
        env.from_string("{{ title }}").render(title="House")
    with pytest.raises(TypeError, match="not Code"):
        env.from_string("x = {{ n }}").render(n=3)
    assert env.from_string("x = {{ n|literal }}  # {{ t|comment }}").render(n="a'", t="b\nc") == 'x = "a\'"  # b\\nc'


# --------------------------------------------------------------------------- hostile specs

FS_HOSTILE = "".join(ch for ch in HOSTILE if ch not in "/\x00\ud800")  # what a file name can hold here
# What a spec's text can hold: a lone surrogate is refused at load (E014, tests/broken/lone_surrogate.yaml);
# a file name can still bring one (an undecodable byte), so the file names above keep theirs.
SPEC_HOSTILE = "".join(ch for ch in HOSTILE if not "\ud800" <= ch <= "\udfff")
LANGUAGES = ("en", "fr", "nl", "sr")


def _text(value: str) -> str:
    return "{" + ", ".join(f"{lang}: {json.dumps(value)}" for lang in LANGUAGES) + "}"


def write_chain(folder, text: str, variant_dir: str, variant_file: str, base_dir: str, base_file: str) -> str:
    """A variant (in variant_dir) of a base (in base_dir) of the official spec, with `text` in
    every text of both: titles, descriptions, notes. The base adds an effect that fails in
    words (its RuleError names the base's path). Returns the variant's path, relative to `folder`."""
    (folder / base_dir).mkdir()
    (folder / variant_dir).mkdir()
    (folder / base_dir / base_file).write_text(
        f"spec: 1\nname: hostile-base\nextends: official\ntitle: {_text(text)}\ndescription: {_text(text)}\n"
        f"actions:\n  take_pair:\n    note: {_text(text)}\n    effects:\n      append:\n"
        "        - take(colour, turn % 2 + 9)\n",
        encoding="utf-8",
    )
    extends = json.dumps(f"../{base_dir}/{base_file}")
    (folder / variant_dir / variant_file).write_text(
        f"spec: 1\nname: hostile\nextends: {extends}\ntitle: {_text(text)}\ndescription: {_text(text)}\n"
        f"values:\n  target: {{value: 16, note: {_text(text)}}}\n",
        encoding="utf-8",
    )
    return f"{variant_dir}/{variant_file}"


def _file_name(name: str, limit: int = 250) -> str:
    while len((name + ".yaml").encode("utf-8", "surrogateescape")) > limit:
        name = name[:-1]
    return name + ".yaml"


HOSTILE_FILES = dict(
    variant_dir=_file_name(FS_HOSTILE[:60])[:-5],
    variant_file=_file_name(ATTACK + FS_HOSTILE),
    base_dir=_file_name("b" + FS_HOSTILE[:60].replace("\udcff", ""))[:-5],
    base_file=_file_name("base" + FS_HOSTILE.replace("\udcff", "")),
)
BENIGN_FILES = dict(variant_dir="variant", variant_file="house.yaml", base_dir="base", base_file="base.yaml")


def compile_in(folder, text: str, files: dict) -> tuple[str, str]:
    """The engine made from a chain written in `folder`, compiled from there (relative paths),
    and the variant's path."""
    cwd = os.getcwd()
    os.chdir(folder)
    try:
        path = write_chain(folder, text, **files)
        return pipeline.compile_spec(path).text, path
    finally:
        os.chdir(cwd)


def program(source: str) -> str:
    """The module's AST with every string constant blanked: what the module does."""
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            node.value = ""
    return ast.dump(tree)


@pytest.fixture(scope="module")
def hostile(tmp_path_factory):
    folder = tmp_path_factory.mktemp("hostile")
    source, path = compile_in(folder, SPEC_HOSTILE, HOSTILE_FILES)
    module = folder / module_name(pipeline.load_rules(str(folder / path)))
    module.write_text(source, encoding="utf-8")
    return dict(folder=folder, source=source, path=path, module=module)


@pytest.fixture(scope="module")
def benign(tmp_path_factory):
    folder = tmp_path_factory.mktemp("benign")
    source, path = compile_in(folder, "House", BENIGN_FILES)
    module = folder / "hostile.py"
    module.write_text(source, encoding="utf-8")
    return dict(folder=folder, source=source, path=path, module=module)


def test_hostile_texts_make_the_same_program_as_harmless_ones(hostile, benign):
    """Titles (every language), descriptions, notes, the file's name and folder and a base's
    path full of quotes, backslashes, escapes, line breaks, NUL, surrogates and bidi controls:
    the module parses, and it is the program the same spec makes with harmless texts."""
    source = hostile["source"]
    assert program(source) == program(benign["source"])
    kinds = [type(s).__name__ for s in ast.parse(source).body]
    assert kinds == [type(s).__name__ for s in ast.parse(benign["source"]).body]
    for line in source.splitlines():
        assert line.isprintable(), line  # no control, bidi or line-breaking character anywhere

    # No text makes a line of its own: each line is printable (above), and the hostile module has as many
    # logical lines as the harmless one (the printer may break a longer text over more physical lines,
    # inside its brackets, or a longer comment over more comment lines: neither is a statement).
    def statements(text: str) -> int:
        return sum(1 for t in tokenize.generate_tokens(io.StringIO(text).readline) if t.type == tokenize.NEWLINE)

    assert statements(source) == statements(benign["source"])


def test_hostile_texts_come_back_intact_where_the_engine_keeps_them(hostile):
    tree = ast.parse(hostile["source"])
    values = {
        node.targets[0].id: ast.literal_eval(node.value)
        for node in tree.body
        if isinstance(node, ast.Assign)
        and isinstance(node.targets[0], ast.Name)
        and node.targets[0].id in ("SPEC_NAME", "SPEC_PATH", "BASES")
    }
    assert values == {"SPEC_NAME": "hostile", "SPEC_PATH": hostile["path"], "BASES": ("hostile-base", "official")}
    doc = ast.get_docstring(tree, clean=False)
    shown_path = printable(hostile["path"])
    first = f"{printable(SPEC_HOSTILE)}: a Splendor rules engine generated from {shown_path}."
    assert " ".join(doc.split()).startswith(" ".join(first.split()))  # a long first line is wrapped at spaces
    header = hostile["source"].splitlines()[:5]
    assert header[0] == f"# Generated by splendor-rules from {printable(hostile['path'])}"
    assert header[1].startswith("# (sha256 ")
    base = f"{HOSTILE_FILES['base_dir']}/{HOSTILE_FILES['base_file']}"
    assert header[2] == f"# Base spec: {printable(base)}" and header[3].startswith("# (sha256 ")


def test_a_percent_sign_in_a_file_name_or_an_effect_stays_in_its_rule_error(hostile):
    """`turn % 2` in the effect and `%s`, `%(x)d` in the base's file name: the engine raises
    its RuleError with them as written (not a ValueError or TypeError of the formatting)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("hostile_engine", hostile["module"])
    engine = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(engine)
    game = engine.new_game(2, seed=1)
    base = f"{HOSTILE_FILES['base_dir']}/{HOSTILE_FILES['base_file']}"
    with pytest.raises(engine.RuleError) as caught:
        game.apply(engine.string_to_action("take2 white"))
    assert str(caught.value).startswith(f"take(colour, turn % 2 + 9) ({base}:")
    assert str(caught.value).endswith("): only 2 white token(s) in the supply")


def test_an_engine_made_outside_the_project_names_no_absolute_path(hostile, tmp_path):
    """Compiled from elsewhere (the working directory is not the spec's folder), a variant of
    the official spec names its own file and its bases by file name or project-relative path."""
    path = tmp_path / "mine" / "house.yaml"
    path.parent.mkdir()
    path.write_text(
        "spec: 1\nname: house\nextends: official\ntitle: {en: House}\nvalues:\n  target: 16\n", encoding="utf-8"
    )
    source = pipeline.compile_spec(str(path)).text
    assert str(tmp_path) not in source and str(ROOT) not in source
    assert 'SPEC_PATH = "house.yaml"\n' in source
    assert "# Base spec: rulespec/official.yaml\n# (sha256 " in source
    assert "(rulespec/official.yaml:" in source  # the rules' own comments and messages
    assert not re.search(r"(?m)(^|[\s('\"])/(tmp|work|home|usr)/", source)


def test_a_choice_or_action_named_like_the_compilers_own_names_changes_nothing(tmp_path):
    """Spec names (`card_li`, `card_id`, an action named `actions`, Python's keywords and
    builtins, the engine's globals in lower case) never meet a name the compiler makes: the
    engine plays as before (same legal actions and outcome as the official engine)."""
    official = ROOT / "generated" / "engines" / "official.py"
    import importlib.util

    def load(path, name):
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module

    reference = load(official, "official_reference")
    renames = {
        "card": "card_li",
        "colour": "card_id",
        "level": "lambda",
        "payment": "g",
        "noble_visit": "actions",
        "return_tokens": "range",
    }
    text = (ROOT / "rulespec" / "official.yaml").read_text(encoding="utf-8")
    start = text.index("\nplayers:\n")  # the rules, after the kinds (whose column `level` is not a choice)
    rules_part = text[start:]
    for old, new in renames.items():
        rules_part = re.sub(rf"(?<![\w.])(?<!domain: ){old}\b", new, rules_part)  # the choice, not the domain
    text = text[:start] + rules_part
    folder = tmp_path / "clash"
    folder.mkdir()
    for table in ("splendor_cards.csv", "splendor_nobles.csv"):
        (folder / table).write_text((ROOT / "rulespec" / table).read_text(encoding="utf-8"), encoding="utf-8")
    spec = folder / "official.yaml"
    spec.write_text(text.replace("name: official", "name: clash"), encoding="utf-8")
    compiled = pipeline.compile_spec(str(spec))
    rules = compiled.rules
    assert {p.name for d in rules.actions for p in d.params} >= {"card_li", "card_id", "lambda", "g"}
    assert {s.name for s in rules.steps} == {"actions", "range"}
    module = folder / "clash.py"
    module.write_text(compiled.text, encoding="utf-8")
    engine = load(module, "clash_engine")
    for seed in range(3):
        ours, theirs = engine.new_game(2, seed=seed), reference.new_game(2, seed=seed)
        for game in (ours, theirs):
            game.playout(rng=random.Random(seed), max_turns=400)
        assert ours.history == theirs.history and ours.scores() == theirs.scores()


# --------------------------------------------------------------------------- importing an engine

# The engine API as the README documents it (module functions, exceptions, the action count).
DOCUMENTED = (
    "new_game",
    "from_json",
    "replay",
    "action_to_string",
    "string_to_action",
    "describe_action",
    "IllegalAction",
    "NotationError",
    "StateError",
    "NUM_ACTIONS",
    "ZONES",
    "KINDS",
    "VARIABLES",
    "DECISION_INFO",
    "ACTION_PARAMS",
    "saved_value",
)
HELPER_TABLE = re.compile(r"SUBSET(?:_IDS|S)_\d+_\d+")  # tables the lowering makes for a spec's gem sets
# a spec's named constants (pysource.CONSTANT_PREFIXES): a decision's first action id, a colour's index
SPEC_CONSTANT = re.compile(r"(?:BASE|COLOUR)_[A-Z0-9_]+")
IMPORT = """
import importlib.util, json, sys
spec = importlib.util.spec_from_file_location("engine_under_test", sys.argv[1])
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
print(json.dumps(sorted(name for name in vars(module) if not name.startswith("__"))))
"""


def defined_names(source: str) -> set[str]:
    """The names a module's own top-level statements bind."""
    names = set()
    for node in ast.parse(source).body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names |= {n.id for t in node.targets for n in ast.walk(t) if isinstance(n, ast.Name)}
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names |= {(a.asname or a.name).split(".")[0] for a in node.names}
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            names.add(node.target.id)
    return names


def import_isolated(module, tmp_path) -> list[str]:
    """Import an engine in a fresh `python -I` run from an empty folder; the names it defines.
    Importing prints nothing and leaves the folder empty."""
    cwd = tmp_path / "cwd"
    cwd.mkdir(exist_ok=True)
    done = subprocess.run(
        [sys.executable, "-I", "-c", IMPORT, str(module)], cwd=cwd, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert list(cwd.iterdir()) == [], "importing the engine wrote files"
    return json.loads(done.stdout)


def public(names) -> set[str]:
    return {
        n for n in names if not n.startswith("_") and not HELPER_TABLE.fullmatch(n) and not SPEC_CONSTANT.fullmatch(n)
    }


def test_the_documented_api_is_what_the_readme_documents():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert all(f"`{name}" in readme or f"{name}(" in readme or name in readme for name in DOCUMENTED)


ENGINES = sorted((ROOT / "generated" / "engines").glob("*.py"))


@pytest.mark.parametrize("module", ENGINES, ids=[p.stem for p in ENGINES])
def test_a_catalogue_engine_imported_alone_defines_only_its_api(module, tmp_path):
    names = import_isolated(module, tmp_path)
    assert set(names) == defined_names(module.read_text(encoding="utf-8"))
    official = ROOT / "generated" / "engines" / "official.py"
    assert public(names) == public(defined_names(official.read_text(encoding="utf-8")))
    assert set(DOCUMENTED) <= set(names)


def test_a_hostile_engine_imported_alone_defines_what_the_harmless_one_does(hostile, benign, tmp_path):
    names = import_isolated(hostile["module"], tmp_path)
    assert names == import_isolated(benign["module"], tmp_path)
    assert public(names) == public(
        defined_names((ROOT / "generated" / "engines" / "official.py").read_text(encoding="utf-8"))
    )
    assert not (hostile["folder"] / "PWNED").exists()


def test_choices_named_like_the_parts_the_compiler_derives_from_another_choice(tmp_path):
    """`card_li` and `card_id` beside a face-up choice `card`, whose row and slot id the
    lowering names: an IndexError in new_game() when they met. The engine now plays, and its
    fast legal actions agree with the plain compilation of the conditions."""
    from tests.helpers.specs import check_games

    text = (ROOT / "rulespec" / "official.yaml").read_text(encoding="utf-8")
    old = (
        "    notation: reserve {card}\n    choose:\n      card: {domain: face_up}\n"
        "    condition: me.reserved < reserve_limit\n"
    )
    new = (
        "    notation: reserve {card} {card_li} {card_id}\n    choose:\n      card: {domain: face_up}\n"
        "      card_li: {domain: gem}\n      card_id: {domain: deck}\n"
        "    condition: me.reserved < reserve_limit and supply[card_li] >= 0 and card_id >= 1\n"
    )
    assert old in text
    for table in ("splendor_cards.csv", "splendor_nobles.csv"):
        (tmp_path / table).write_text((ROOT / "rulespec" / table).read_text(encoding="utf-8"), encoding="utf-8")
    spec = tmp_path / "idclash.yaml"
    spec.write_text(text.replace(old, new).replace("name: official", "name: idclash"), encoding="utf-8")
    module = tmp_path / "idclash.py"
    module.write_text(pipeline.compile_spec(str(spec)).text, encoding="utf-8")
    from tests.helpers.engines import load_engine

    engine = load_engine(module)
    assert engine.string_to_action("reserve 1.1 red 2") >= 0
    assert check_games(engine, games=2, seed=3) > 50
