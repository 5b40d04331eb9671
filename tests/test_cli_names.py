"""Every command, and the engine loader, takes a spec by name (`official`, `target-12`) as `diff`
and `extends` do."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from app import cli


def run(*args: str):
    return CliRunner().invoke(cli.main, list(args))


def test_check_takes_spec_names():
    result = run("check", "official", "target-12")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith("official: ok (")
    assert "\ntarget-12: ok (variant of official, 1 change;" in result.stdout


def test_an_unknown_name_is_reported_with_the_names_nearby():
    result = run("check", "offical")
    assert result.exit_code == 1
    assert "error[E301]: spec 'offical' not found (did you mean 'official'?)" in result.stderr


def test_compile_and_sheet_take_spec_names(tmp_path):
    result = run("compile", "target-12", "-o", str(tmp_path))
    assert result.exit_code == 0, result.stderr
    assert (tmp_path / "target_12.py").is_file()
    result = run("sheet", "target-12", "--lang", "en", "--format", "md", "-o", str(tmp_path))
    assert result.exit_code == 0, result.stderr
    assert (tmp_path / "target-12.en.md").is_file()


def test_simulate_and_play_take_spec_names(tmp_path):
    result = run(
        "simulate",
        "official",
        "target-12",
        "--games",
        "2",
        "--jobs",
        "1",
        "--no-progress",
        "--cache-dir",
        str(tmp_path),
    )
    assert result.exit_code == 0, result.stderr
    result = CliRunner().invoke(
        cli.main, ["play", "official", "--seed", "1", "--cache-dir", str(tmp_path)], input="quit\n"
    )
    assert result.exit_code == 0, result.stderr


def test_play_names_what_it_looked_for():
    result = run("play", "nosuch")
    assert result.exit_code == 2
    assert "nosuch: no spec of that name, and no engine module to import" in result.stderr


def test_the_engine_loader_takes_spec_names_too(tmp_path):
    from playtest import engines

    assert engines.load("target-12", cache_dir=tmp_path).module.SPEC_NAME == "target-12"
    with pytest.raises(engines.EngineError, match=r"spec 'target-13' not found \(did you mean 'target-1[28]'\?\)"):
        engines.load("target-13")


def test_a_variant_index_stands_for_the_variants_it_lists(tmp_path, monkeypatch):
    import pathlib

    from compiler.pipeline import catalogue

    monkeypatch.chdir(pathlib.Path(__file__).resolve().parent.parent)
    listed = catalogue()[1:]
    everything = sorted(str(p) for p in pathlib.Path("variants").glob("*.yaml"))  # what a shell glob passes
    result = run("check", *everything)
    assert result.exit_code == 0, result.stderr
    checked = [line.split(": ok")[0] for line in result.stdout.splitlines()]
    assert sorted(checked) == sorted(set(listed) | set(everything) - {"variants/index.yaml"})
    assert len(checked) == len(set(checked))  # each once, though the index lists them again
    bad = tmp_path / "index.yaml"
    bad.write_text("variants: nothing\n", encoding="utf-8")
    result = run("check", str(bad))
    assert result.exit_code == 1
    assert "error[E114]: the variant index needs a list 'variants' of variant names" in result.stderr


def test_a_folder_stands_for_its_specs(tmp_path, monkeypatch):
    import pathlib

    monkeypatch.chdir(pathlib.Path(__file__).resolve().parent.parent)
    everything = sorted(str(p) for p in pathlib.Path("variants").glob("*.yaml"))
    assert run("check", "variants").stdout == run("check", *everything).stdout  # as the shell's glob
    assert run("check", "variants/").exit_code == 0
    written = run("compile", "variants", "-o", str(tmp_path / "engines"))
    assert written.exit_code == 0, written.stderr
    assert len(list((tmp_path / "engines").glob("*.py"))) == len(everything) - 1  # the index is no spec
    empty = tmp_path / "nothing here"
    empty.mkdir()
    result = run("check", str(empty))
    assert result.exit_code == 1
    assert result.stderr == f"error[E001]: the folder {empty} holds no spec (no .yaml file)\n1 error\n"
