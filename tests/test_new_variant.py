"""`splendor-rules new` (app/scaffold.py), and a fresh variant end to end.

A new variant needs no change outside its own file: a variant written into a temporary
folder checks, compiles to an engine and plays a whole game, and nothing in the project
changes meanwhile.
"""

from __future__ import annotations

import hashlib
import json
import pathlib
import random

import pytest
from click.testing import CliRunner

from app import cli
from compiler import diff, pipeline
from tests.helpers.engines import load_engine

ROOT = pathlib.Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def at_root(monkeypatch):
    monkeypatch.chdir(ROOT)


def run(*args: str):
    return CliRunner().invoke(cli.main, list(args))


def project_files() -> dict[str, str]:
    """A fingerprint of the project's own files (specs, variants, engines, compiler)."""
    out = {}
    for folder in ("rulespec", "variants", "generated", "compiler"):
        for path in sorted((ROOT / folder).rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                out[str(path.relative_to(ROOT))] = hashlib.sha256(path.read_bytes()).hexdigest()
    return out


def test_new_writes_a_skeleton_that_checks_clean(tmp_path):
    result = run("new", "house-rules", "--from", "official", "-o", str(tmp_path))
    assert result.exit_code == 0, result.output
    path = tmp_path / "house-rules.yaml"
    text = path.read_text(encoding="utf-8")
    for pointer in ("rulespec/README.md", "rulespec/schema.json", "add: true", "remove:", "note:", "before:"):
        assert pointer in text
    for section in (
        "players:",
        "values:",
        "actions:",
        "end_of_turn:",
        "end:",
        "winners:",
        "components",
        "interpretations",
    ):
        assert f"# {section}" in text or f"-- {section}" in text, section
    rules = pipeline.load_rules(str(path))
    official = pipeline.load_rules("rulespec/official.yaml")
    assert rules.name == "house-rules" and rules.title.en == "House rules"
    assert rules.changes == () and [b.name for b in rules.bases] == ["official"]
    assert diff.compare(official, rules) == []
    assert run("diff", "official", str(path)).exit_code == 0


def test_new_extends_the_official_rules_by_default(tmp_path):
    result = run("new", "plain", "-o", str(tmp_path))
    assert result.exit_code == 0, result.output
    text = (tmp_path / "plain.yaml").read_text(encoding="utf-8")
    assert "\nextends: official\n" in text
    # the comments name the base as the user did, never by where the project happens to sit
    assert text.startswith("# plain: a house variant of Splendor (official).\n")
    assert f"#   see what changes:  splendor-rules diff official {tmp_path}/plain.yaml\n" in text
    assert str(ROOT) not in text


def test_new_lists_the_bases_own_entries(tmp_path):
    assert run("new", "on-target", "--from", "target-12", "-o", str(tmp_path)).exit_code == 0
    text = (tmp_path / "on-target.yaml").read_text(encoding="utf-8")
    base = pipeline.load_rules("variants/target-12.yaml")
    assert "extends: target-12\n" in text
    assert "target: 12" in text  # the base's value, not the official one
    for decision in base.actions + base.steps:
        assert f"#   {decision.name} " in text
    rules = pipeline.load_rules(str(tmp_path / "on-target.yaml"))
    assert [b.name for b in rules.bases] == ["target-12", "official"]


def test_every_commented_example_is_a_valid_change(tmp_path):
    """Uncommenting the examples of the skeleton gives a variant that checks clean."""
    assert run("new", "all-examples", "--from", "official", "-o", str(tmp_path)).exit_code == 0
    path = tmp_path / "all-examples.yaml"
    lines = path.read_text(encoding="utf-8").splitlines()
    sections = (
        "players:",
        "values:",
        "actions:",
        "end_of_turn:",
        "setup:",
        "state:",
        "define:",
        "prestige:",
        "end:",
        "winners:",
    )
    out, active = [], False
    for line in lines:
        if line.startswith("# ") and line[2:] in sections:
            active = True
            out.append(line[2:])
        elif active and line.startswith("#   "):
            out.append(line[2:])
        else:
            active = False
            out.append(line)
    path.write_text("\n".join(out) + "\n", encoding="utf-8")
    rules = pipeline.load_rules(str(path))
    kinds = {(c.kind, c.path.split(".")[0]) for c in rules.changes}
    assert {
        ("set", "players"),
        ("add", "players"),
        ("set", "values"),
        ("add", "values"),
        ("set", "actions"),
        ("remove", "actions"),
        ("set", "end_of_turn"),
        ("add", "setup"),
        ("add", "state"),
        ("add", "define"),
        ("add", "prestige"),
        ("set", "end"),
        ("add", "winners"),
    } <= kinds


def test_new_into_a_folder_that_cannot_be_made_says_so(tmp_path):
    (tmp_path / "file").write_text("not a folder", encoding="utf-8")
    result = run("new", "mine", "-o", str(tmp_path / "file" / "variants"))
    assert result.exit_code == 2
    assert "cannot write" in result.output and "Not a directory" in result.output
    assert "Traceback" not in result.output


def test_new_refuses_to_overwrite(tmp_path):
    path = tmp_path / "mine.yaml"
    path.write_text("# my own work\n", encoding="utf-8")
    result = run("new", "mine", "--from", "official", "-o", str(tmp_path))
    assert result.exit_code == 2
    assert "already exists" in result.stderr
    assert path.read_text(encoding="utf-8") == "# my own work\n"


@pytest.mark.parametrize("name", ["My Rules", "-x", "rules.yaml", "a/b", ""])
def test_new_refuses_a_bad_name(tmp_path, name):
    result = run("new", name, "--from", "official", "-o", str(tmp_path))
    assert result.exit_code == 2
    assert not any(tmp_path.iterdir())


def test_new_refuses_an_unknown_base(tmp_path):
    result = run("new", "mine", "--from", "offical", "-o", str(tmp_path))
    assert result.exit_code == 2
    assert "base spec 'offical' not found (did you mean 'official'?)" in result.stderr
    assert not any(tmp_path.iterdir())


def test_new_from_a_path_writes_a_relative_extends(tmp_path):
    result = run("new", "mine", "--from", "variants/solo.yaml", "-o", str(tmp_path / "deep"))
    assert result.exit_code == 0, result.output
    text = (tmp_path / "deep" / "mine.yaml").read_text(encoding="utf-8")
    extends = next(line for line in text.splitlines() if line.startswith("extends: "))[len("extends: ") :]
    assert extends.endswith("variants/solo.yaml") and not extends.startswith("/")
    assert "splendor-rules diff variants/solo.yaml " in text  # the base as given, from where the user stands
    assert pipeline.load_rules(str(tmp_path / "deep" / "mine.yaml")).bases[0].name == "solo"


def test_a_fresh_variant_checks_compiles_and_plays_with_no_change_outside_its_file(tmp_path):
    before = project_files()
    assert run("new", "quick-pairs", "--from", "official", "-o", str(tmp_path)).exit_code == 0
    path = tmp_path / "quick-pairs.yaml"
    with path.open("a", encoding="utf-8") as handle:
        handle.write(
            "\nvalues:\n"
            "  target: {value: 10, note: A quick game.}\n"
            "  pair_minimum: {value: 3, note: Pairs come easier.}\n"
            "actions:\n"
            "  take_one:\n"
            "    add: true\n"
            "    before: take_pair\n"
            "    title: Take one gem\n"
            "    notation: take1 {colour}\n"
            "    choose:\n"
            "      colour: {domain: gem}\n"
            "    condition: supply[colour] >= 1 and me.held < token_limit\n"
            '    effects: ["take(colour, 1)"]\n'
            "    note: A quiet turn takes a single gem.\n"
        )
    check = run("check", str(path))
    assert check.exit_code == 0, check.output
    compiled = pipeline.compile_spec(str(path))
    assert [a.name for a in compiled.rules.actions][:3] == ["take_different", "take_one", "take_pair"]
    engine_file = tmp_path / compiled.file_name
    engine_file.write_text(compiled.text, encoding="utf-8")
    E = load_engine(engine_file)
    assert "take1 white" in [E.action_to_string(a) for a in E.new_game(2, seed=1).legal_actions()]
    rng = random.Random(11)
    for seed in range(3):
        game = E.new_game(3, seed=seed)
        steps = 0
        while not game.is_over():
            game.apply(rng.choice(game.legal_actions()))
            steps += 1
            assert steps < 20_000
        reason = json.loads(game.to_json())["end_reason"]
        assert reason in ("target", "deadlock")
        assert (max(game.scores()) >= 10) == (reason == "target")
        replayed = E.replay(game.record())
        assert replayed.to_json() == game.to_json()
    assert project_files() == before
