"""Do two folders of generated engines play the same games? Move by move, for every engine
found in both: the same legal action ids, the same to_json after every move (so the same
deals for a seed), and the same end (winners, scores). Random seeded games, every player
count the spec allows. Prints one line per engine and a total; exit 1 on any difference.

    python bench/compare_engines.py OLD_DIR NEW_DIR [--games 20] [--seed 1]

Used to hold a change of the lowering to "the engines behave exactly as before".
"""

from __future__ import annotations

import argparse
import importlib.util
import pathlib
import random
import sys


def load(path: pathlib.Path, tag: str):
    spec = importlib.util.spec_from_file_location(f"{path.stem}_{tag}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def compare(old, new, games: int, seed: int) -> tuple[int, int, str]:
    """(games played, decisions compared, the first difference or '')."""
    decisions = played = 0
    for players in old.PLAYER_COUNTS:
        for i in range(games):
            game_seed = seed * 100_003 + players * 1_000 + i
            rng = random.Random(game_seed)
            a, b = old.new_game(players, seed=game_seed), new.new_game(players, seed=game_seed)
            if a.to_json() != b.to_json():
                return played, decisions, f"{players} players, game {i}: different deal"
            while not a.is_over():
                legal = a.legal_actions()
                if legal != b.legal_actions():
                    return played, decisions, f"{players} players, game {i}, decision {decisions}: legal actions differ"
                action = legal[rng.randrange(len(legal))]
                a.apply(action)
                b.apply(action)
                decisions += 1
                if a.to_json() != b.to_json():
                    return played, decisions, f"{players} players, game {i}: to_json differs after action {action}"
            if not b.is_over() or (a.winners(), a.scores()) != (b.winners(), b.scores()):
                return played, decisions, f"{players} players, game {i}: different end"
            played += 1
    return played, decisions, ""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("--games", type=int, default=20, help="games per player count")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    names = sorted(p.name for p in pathlib.Path(args.old).glob("*.py") if (pathlib.Path(args.new) / p.name).exists())
    failures = total_games = total_decisions = 0
    for name in names:
        old = load(pathlib.Path(args.old) / name, "old")
        new = load(pathlib.Path(args.new) / name, "new")
        played, decisions, problem = compare(old, new, args.games, args.seed)
        total_games += played
        total_decisions += decisions
        failures += bool(problem)
        print(f"{name:28} {played:4} games {decisions:7} decisions  {problem or 'same'}")
    print(f"{len(names)} engines, {total_games} games, {total_decisions} decisions, {failures} different")
    return 1 if failures or not names else 0


if __name__ == "__main__":
    sys.exit(main())
