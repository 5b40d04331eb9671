"""Play N seeded two-player random games with an engine and print the number of decisions.

Used by bench/callgrind_engine.sh to count interpreter instructions per decision, a
figure that does not depend on how busy the machine is.

    python bench/playouts.py ENGINE.py N
"""
import importlib.util
import random
import sys

spec = importlib.util.spec_from_file_location("engine", sys.argv[1])
engine = importlib.util.module_from_spec(spec)
spec.loader.exec_module(engine)
rng = random.Random(1)
decisions = 0
for seed in range(int(sys.argv[2])):
    game = engine.new_game(2, seed=seed)
    while not game.is_over():
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])
        decisions += 1
print(decisions)
