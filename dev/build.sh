#!/usr/bin/env bash
# Install splendor-rules into .venv and run the main job (check, compile, sheets, demo, simulation).
set -euo pipefail
cd "$(dirname "$0")/.."
bash dev/system-packages.sh
python3 -m venv .venv
.venv/bin/pip install -q --upgrade pip
.venv/bin/pip install -q -e '.[pdf]'
.venv/bin/splendor-rules build
