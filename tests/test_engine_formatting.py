"""The engines' layout (compiler/emit/formatting.py): ruff's formatter, pinned, run in memory.

An engine is laid out before it is written or hashed, so the committed engines are what the
formatter makes of them (formatting again changes nothing), the formatter moved only whitespace,
brackets and quotes (the printed module and the laid-out one are the same tree, docstrings
aside, whose indentation it normalises), and a formatter that cannot be used is a located E598,
never a traceback or an engine laid out by another release.
"""

from __future__ import annotations

import ast
import inspect
import re

import pytest
from click.testing import CliRunner

from app.cli import main
from compiler import pipeline
from compiler.diagnostics import CompileError
from compiler.emit import engine as engine_mod
from compiler.emit import formatting
from compiler.lower import lower
from tests.helpers import ROOT

ENGINES = sorted((ROOT / "generated" / "engines").glob("*.py"))


@pytest.mark.parametrize("path", ENGINES, ids=lambda p: p.stem)
def test_a_committed_engine_is_as_the_formatter_lays_it_out(path):
    text = path.read_text(encoding="utf-8")
    assert formatting.laid_out(text) == text


class _CleanDocstrings(ast.NodeTransformer):
    """Docstrings as inspect.cleandoc reads them: the formatter re-indents their lines."""

    def generic_visit(self, node: ast.AST) -> ast.AST:
        body = getattr(node, "body", None)
        if (
            isinstance(body, list)
            and body
            and isinstance(body[0], ast.Expr)
            and isinstance(body[0].value, ast.Constant)
            and isinstance(body[0].value.value, str)
        ):
            body[0].value.value = " ".join(inspect.cleandoc(body[0].value.value).split())
        return super().generic_visit(node)


def _tree(text: str) -> str:
    return ast.dump(_CleanDocstrings().visit(ast.parse(text)))


@pytest.mark.parametrize("spec", ["rulespec/official.yaml", "variants/cities.yaml", "variants/trading-posts.yaml"])
def test_the_formatter_moves_only_layout(spec):
    rules = pipeline.compile_spec(str(ROOT / spec)).rules
    printed = engine_mod.render_module(lower(rules, explain=engine_mod.refusal_words))
    laid = formatting.laid_out(printed)
    assert laid != printed  # it did lay something out
    assert _tree(laid) == _tree(printed)


def test_the_pinned_release_is_the_one_pyproject_installs():
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert re.search(r'^\s*"ruff==([0-9.]+)",', pyproject, re.M).group(1) == formatting.RUFF_VERSION


def _without_ruff(monkeypatch, version: str | None = None):
    formatting.ruff_binary.cache_clear()
    if version is None:
        import ruff.__main__

        def missing():
            raise FileNotFoundError("ruff")

        monkeypatch.setattr(ruff.__main__, "find_ruff_bin", missing)
    else:
        monkeypatch.setattr(formatting, "RUFF_VERSION", version)


@pytest.mark.parametrize(
    "version, said",
    [
        (None, "cannot lay out the engine: ruff 0.17.6 is not installed (pip install 'ruff==0.17.6')"),
        ("0.0.1", "cannot lay out the engine: the engines are laid out by ruff 0.0.1, and ruff 0.17.6 is installed"),
    ],
)
def test_a_formatter_that_cannot_be_used_is_E598(monkeypatch, tmp_path, version, said):
    # a spec of its own: no engine of it is in the session's cache of compiled engines (tests/conftest.py)
    spec = tmp_path / "laid.yaml"
    spec.write_text(
        f"spec: 1\nname: laid\nextends: official\ntitle: {{en: 'Laid out by {version}'}}\nvalues:\n  target: 14\n",
        encoding="utf-8",
    )
    _without_ruff(monkeypatch, version)
    try:
        with pytest.raises(CompileError) as info:
            pipeline.compile_spec(str(spec))
        assert [d.code for d in info.value.diagnostics] == ["E598"]
        assert info.value.diagnostics[0].message.startswith(said)
        out = tmp_path / "engines"
        result = CliRunner().invoke(main, ["compile", str(spec), "-o", str(out)])
        assert result.exit_code != 0 and "E598" in result.output and "Traceback" not in result.output
        assert not out.exists() or not any(out.iterdir())  # nothing half-written
    finally:
        formatting.ruff_binary.cache_clear()
