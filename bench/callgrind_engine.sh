#!/usr/bin/env bash
# Instructions per random-playout decision of an engine, counted by callgrind (repeatable on a
# busy machine): the run of 41 games minus the run of 1 game, over the decisions in between.
# PYTHONHASHSEED is fixed: with random string hashing the count varies by about 0.5% per run.
#   bash bench/callgrind_engine.sh [generated/engines/official.py] [api|playout]
# api (the default): a loop here calls legal_actions, randrange and apply; playout: Game.playout.
set -euo pipefail
export PYTHONHASHSEED=0
engine=${1:-generated/engines/official.py}
loop=${2:-api}
python=$(python3 -c 'import sys; print(sys.executable)')
here=$(dirname "$0")
count() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/stdout "$python" "$here/playouts.py" "$engine" "$1" "$loop" 2>/dev/null \
    | awk '/^summary:/ {print $2}'
}
i1=$(count 1); i41=$(count 41)
d1=$("$python" "$here/playouts.py" "$engine" 1 "$loop"); d41=$("$python" "$here/playouts.py" "$engine" 41 "$loop")
echo "$engine ($loop): $(( (i41 - i1) / (d41 - d1) )) instructions per decision ($(( d41 - d1 )) decisions)"
