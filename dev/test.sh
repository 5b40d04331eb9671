#!/usr/bin/env bash
# Install splendor-rules with every extra the tests exercise into .venv and run the whole test suite,
# saying which stage runs; pytest runs the tests on every core (pytest-xdist, -n auto) and shows
# its progress, a percentage at the end of each line.
#   bash dev/test.sh          the whole suite (what CI runs)
#   bash dev/test.sh --fast   the fast tier for the loop while you work: every test but the slow
#                             modules (tests/conftest.py SLOW_MODULES), about two minutes
# Any other arguments go to pytest (bash dev/test.sh tests/test_check.py -x).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = "--fast" ]; then
  shift
  set -- -m "not slow" "$@"
fi
STAGES=5
source dev/stages.sh
stage "system packages (apt, for the PDF sheets; only what is missing)"
bash dev/system-packages.sh
stage "virtual environment (.venv)"
python3 -m venv .venv
stage "install (pip: splendor-rules with the test extra; several minutes the first time)"
.venv/bin/pip install -q --upgrade pip
.venv/bin/pip install -q -e '.[test]'
# Byte-compile the project once: an editable install leaves its sources uncompiled, and where
# PYTHONDONTWRITEBYTECODE is set (as on some CI machines) every command the tests start in a new
# interpreter would compile them again (~0.3 s of CPU each, hundreds of times).
.venv/bin/python -m compileall -q -j 0 app compiler playtest web tests bench > /dev/null
stage "lint (ruff check, ruff format --check)"
.venv/bin/python -m ruff check app compiler playtest web tests bench
.venv/bin/python -m ruff format --check app compiler playtest web tests bench
stage "tests (pytest on every core, its progress in percent; the longest stage)"
# --dist worksteal: a worker that runs out of tests takes some of another's, so a few long
# tests (the property searches, the browser games) scheduled late do not leave a core idle.
.venv/bin/python -m pytest -p no:cacheprovider -n auto --dist worksteal "$@"
