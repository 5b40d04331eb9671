"""Shared test fixtures: golden files and paths.

Golden files are compared byte for byte; `pytest --update-goldens` rewrites them
(read every golden diff before committing it).
"""
from __future__ import annotations

import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent


def pytest_addoption(parser):
    parser.addoption("--update-goldens", action="store_true", default=False,
                     help="rewrite golden files instead of comparing against them")


class Golden:
    def __init__(self, update: bool):
        self.update = update

    def check(self, path: pathlib.Path, actual: str) -> None:
        """Compare `actual` with the golden file at `path` (or rewrite it with --update-goldens)."""
        if self.update:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(actual, encoding="utf-8")
            return
        if not path.exists():
            pytest.fail(f"golden file {path.relative_to(ROOT)} is missing; run pytest --update-goldens")
        expected = path.read_text(encoding="utf-8")
        assert actual == expected, f"output differs from {path.relative_to(ROOT)} (pytest --update-goldens rewrites it)"


@pytest.fixture
def golden(request) -> Golden:
    return Golden(request.config.getoption("--update-goldens"))


@pytest.fixture
def root() -> pathlib.Path:
    return ROOT
