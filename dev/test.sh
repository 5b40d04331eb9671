#!/usr/bin/env bash
# Install splendor-rules with every extra the tests exercise into .venv and run the whole test suite,
# saying which stage runs; pytest runs the tests on every core (pytest-xdist, -n auto) and shows
# its progress, a percentage at the end of each line.
#   bash dev/test.sh          the whole suite (what CI runs)
#   bash dev/test.sh --fast   the fast tier for the loop while you work: every test but the slow
#                             ones (tests/helpers/tiers.py), about two minutes; it installs only
#                             when pyproject.toml changed since the last install, and adds mypy
#                             with its incremental cache (.mypy_cache) to the lint stage
# Any other arguments go to pytest (bash dev/test.sh tests/test_check.py -x).
set -euo pipefail
cd "$(dirname "$0")/.."
FAST=""
if [ "${1:-}" = "--fast" ]; then
  shift
  FAST=1
  set -- -m "not slow" "$@"
fi
# What the last install was made from: pyproject.toml and the interpreter (see the install stage).
INSTALLED_STAMP=.venv/.installed-from
installed_from() { { sha256sum pyproject.toml; python3 --version; } | sha256sum | cut -d' ' -f1; }
current_install() { [ -x .venv/bin/python ] && [ -f "$INSTALLED_STAMP" ] && [ "$(cat "$INSTALLED_STAMP")" = "$(installed_from)" ]; }
STAGES=5
source dev/stages.sh
stage "system packages (apt, for the PDF sheets; only what is missing)"
bash dev/system-packages.sh
stage "virtual environment (.venv)"
# The fast tier keeps an install made from the same pyproject.toml (the package is installed
# editable: a change to the code needs no new install); the whole suite (CI) always installs.
if [ -n "$FAST" ] && current_install; then
  echo "    .venv is installed from this pyproject.toml: kept"
else
  rm -f "$INSTALLED_STAMP"
  python3 -m venv .venv
fi
stage "install (pip: splendor-rules with the test extra; several minutes the first time)"
if [ -f "$INSTALLED_STAMP" ]; then
  echo "    kept (delete $INSTALLED_STAMP to install again)"
else
  .venv/bin/pip install -q --upgrade pip
  .venv/bin/pip install -q -e '.[test]'
  installed_from > "$INSTALLED_STAMP"
fi
# Byte-compile the project once: an editable install leaves its sources uncompiled, and where
# PYTHONDONTWRITEBYTECODE is set (as on some CI machines) every command the tests start in a new
# interpreter would compile them again (~0.3 s of CPU each, hundreds of times).
.venv/bin/python -m compileall -q -j 0 app compiler playtest web tests bench > /dev/null
stage "lint (ruff check, ruff format --check; mypy in the fast tier)"
.venv/bin/python -m ruff check app compiler playtest web tests bench
.venv/bin/python -m ruff format --check app compiler playtest web tests bench
if [ -n "$FAST" ]; then
  # mypy as tests/test_lint.py runs it, but incremental: its cache (.mypy_cache) makes a run after a
  # small change take a few seconds; the whole suite runs it without the cache (test_lint.py).
  echo "    mypy (incremental)"
  .venv/bin/python -m mypy --no-error-summary --disable-error-code annotation-unchecked  # its notes: no error
fi
stage "tests (pytest on every core, its progress in percent; the longest stage)"
# --dist worksteal: a worker that runs out of tests takes some of another's, so a few long
# tests (the property searches, the browser games) scheduled late do not leave a core idle.
.venv/bin/python -m pytest -p no:cacheprovider -n auto --dist worksteal "$@"
