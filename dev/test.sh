#!/usr/bin/env bash
# Install splendor-rules with every extra the tests exercise into .venv and run the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash dev/system-packages.sh
python3 -m venv .venv
.venv/bin/pip install -q --upgrade pip
.venv/bin/pip install -q -e '.[test]'
.venv/bin/python -m pytest -p no:cacheprovider "$@"
