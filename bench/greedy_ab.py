"""The greedy bot's CPU per game against an earlier revision of it, in the same command.

    python bench/greedy_ab.py REV [--games 25] [--runs 7] [SPEC]

Loads playtest's bots as they were at git revision REV next to the working tree's, and
plays the same seeded greedy-vs-greedy games with each, runs interleaved; prints the
median CPU seconds (process time, so a loaded machine slows both alike) and the ratio.
Both must make the same moves (tests/test_playtest_bots.py pins them); this checks it too.
"""

from __future__ import annotations

import argparse
import importlib.util
import pathlib
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playtest import bots as current  # noqa: E402
from playtest import engines  # noqa: E402


def _git_show(rev: str, path: str) -> str:
    return subprocess.run(["git", "show", f"{rev}:{path}"], cwd=ROOT, capture_output=True, text=True, check=True).stdout


def load_revision(rev: str):
    """playtest's bots as they were at `rev`, loaded as playtest.bots_base: the package
    playtest/bots/, or the single module playtest/bots.py it was split from."""
    listed = subprocess.run(
        ["git", "ls-tree", "--name-only", rev, "playtest/bots/"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    folder = pathlib.Path(tempfile.mkdtemp()) / "bots_base"
    folder.mkdir()
    if listed:  # the package: its modules import each other relatively, as playtest.bots_base.NAME
        for name in listed:
            if name.endswith(".py"):
                (folder / pathlib.PurePosixPath(name).name).write_text(_git_show(rev, name), encoding="utf-8")
        path, locations = folder / "__init__.py", [str(folder)]
    else:
        path, locations = folder / "bots_base.py", None
        path.write_text(_git_show(rev, "playtest/bots.py"), encoding="utf-8")
    spec = importlib.util.spec_from_file_location("playtest.bots_base", path, submodule_search_locations=locations)
    module = importlib.util.module_from_spec(spec)
    sys.modules["playtest.bots_base"] = module  # dataclasses look the module up
    spec.loader.exec_module(module)
    return module


def play(bots_module, engine, games: int) -> tuple[float, list[list[int]]]:
    start = time.process_time()
    moves = []
    for s in range(games):
        g = engine.new_game(2, seed=s, max_turns=1000)
        seats = [bots_module.GreedyBot(engine, 2 * s + k) for k in range(2)]
        played = []
        while not g.is_over():
            a = seats[g.current_player].choose(g)
            played.append(a)
            g.apply(a)
        moves.append(played)
    return time.process_time() - start, moves


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("rev")
    ap.add_argument("spec", nargs="?", default=str(ROOT / "rulespec" / "official.yaml"))
    ap.add_argument("--games", type=int, default=25)
    ap.add_argument("--runs", type=int, default=7)
    args = ap.parse_args(argv)
    engine = engines.load(args.spec).module
    base = load_revision(args.rev)
    seconds: dict[str, list[float]] = {"base": [], "new": []}
    same = True
    for _ in range(args.runs):
        b, moves_b = play(base, engine, args.games)
        n, moves_n = play(current, engine, args.games)
        seconds["base"].append(b)
        seconds["new"].append(n)
        same = same and moves_b == moves_n
    b, n = statistics.median(seconds["base"]), statistics.median(seconds["new"])
    decisions = sum(len(m) for m in play(current, engine, args.games)[1])
    print(
        f"{args.rev}: {1000 * b / args.games:.1f} ms CPU per game; now: {1000 * n / args.games:.1f} ms "
        f"({1e6 * n / decisions:.0f} us per decision); {b / n:.2f}x faster "
        f"(median of {args.runs} x {args.games} games); same moves: {'yes' if same else 'NO'}"
    )
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
