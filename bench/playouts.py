"""Play N seeded two-player random games with an engine and print the number of decisions.

Used by bench/callgrind_engine.sh to count interpreter instructions per decision, a
figure that does not depend on how busy the machine is.

    python bench/playouts.py ENGINE.py N [api|playout]

`api` (the default) drives each decision from here (legal_actions, randrange, apply);
`playout` lets the engine's Game.playout play the same games.
"""

import importlib.util
import random
import sys

spec = importlib.util.spec_from_file_location("engine", sys.argv[1])
engine = importlib.util.module_from_spec(spec)
spec.loader.exec_module(engine)
rng = random.Random(1)
decisions = 0
loop = sys.argv[3] if len(sys.argv) > 3 else "api"
for seed in range(int(sys.argv[2])):
    game = engine.new_game(2, seed=seed)
    if loop == "playout":
        decisions += game.playout(rng)
        continue
    while not game.is_over():
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])
        decisions += 1
print(decisions)
