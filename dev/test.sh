#!/usr/bin/env bash
# Install splendor-rules with every extra the tests exercise into .venv and run the whole test suite,
# saying which stage runs; pytest shows its progress one line per test file.
set -euo pipefail
cd "$(dirname "$0")/.."
STAGES=5
source dev/stages.sh
stage "system packages (apt, for the PDF sheets; only what is missing)"
bash dev/system-packages.sh
stage "virtual environment (.venv)"
python3 -m venv .venv
stage "install (pip: splendor-rules with the test extra; several minutes the first time)"
.venv/bin/pip install -q --upgrade pip
.venv/bin/pip install -q -e '.[test]'
stage "lint (ruff)"
.venv/bin/python -m ruff check compiler playtest tests bench
stage "tests (pytest, one line per test file; the longest stage)"
.venv/bin/python -m pytest -p no:cacheprovider "$@"
