#!/usr/bin/env bash
# Install splendor-rules into .venv and run the main job (check, compile, sheets, demo, simulation),
# saying which stage runs.
set -euo pipefail
cd "$(dirname "$0")/.."
STAGES=4
source dev/stages.sh
stage "system packages (apt, for the PDF sheets; only what is missing)"
bash dev/system-packages.sh
stage "virtual environment (.venv)"
python3 -m venv .venv
stage "install (pip: splendor-rules with the pdf extra)"
.venv/bin/pip install -q --upgrade pip
.venv/bin/pip install -q -e '.[pdf]'
stage "build (splendor-rules build: check, compile, sheets, demo game, simulation)"
.venv/bin/splendor-rules build
