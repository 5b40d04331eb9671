"""Every catalogue engine plays as it did: a move-by-move fingerprint of seeded random games.

A change to the compiler (the lowering, the runtime, a new section of the language) must leave
every engine whose spec did not change playing exactly as before: the same deal for a seed, the
same legal actions at every decision, the same state after each move. For each engine under
generated/engines, each player count and three seeds, a game is played by a seeded random
chooser over the legal actions (at most 400 decisions): the fingerprint is the sha256 of every
(legal actions, chosen action) pair and of the final saved state with the spec's hash blanked (a
spec's text may change without its rules changing, e.g. a comment). The fingerprints are golden
files in tests/fingerprints/; `pytest --update-goldens` rewrites them, and a changed line is read
before it is accepted: it says which engine, player count and seed now plays differently.
"""

from __future__ import annotations

import hashlib
import json
import random

import pytest

from tests.helpers.engines import ROOT, load_engine

ENGINES = sorted((ROOT / "generated" / "engines").glob("*.py"))
SEEDS = (1, 2, 3)
MAX_DECISIONS = 400


def fingerprint(engine, players: int, seed: int) -> str:
    """The sha256 of a seeded random game: each decision's legal list and choice, then the final state."""
    game = engine.new_game(players, seed=seed)
    chooser = random.Random(seed)
    digest = hashlib.sha256()
    decisions = 0
    while not game.is_over() and decisions < MAX_DECISIONS:
        legal = game.legal_actions()
        action = chooser.choice(legal)
        digest.update(repr((legal, action)).encode())
        game.apply(action)
        decisions += 1
    state = json.loads(game.to_json())
    state["spec"]["sha256"] = ""
    digest.update(json.dumps(state, sort_keys=True).encode())
    return f"{players} players, seed {seed}: {decisions} decisions, {digest.hexdigest()}"


@pytest.mark.parametrize("path", ENGINES, ids=[p.stem for p in ENGINES])
def test_engine_plays_as_its_fingerprints_say(path, golden):
    engine = load_engine(path)
    lines = [fingerprint(engine, players, seed) for players in engine.PLAYER_COUNTS for seed in SEEDS]
    golden.check(ROOT / "tests" / "fingerprints" / f"{path.stem}.txt", "\n".join(lines) + "\n")


def test_a_different_move_changes_the_fingerprint():
    """The fingerprint sees one move: the same seed played with another first choice differs."""
    engine = load_engine(ROOT / "generated" / "engines" / "official.py")
    assert fingerprint(engine, 2, 1) == fingerprint(engine, 2, 1)
    assert fingerprint(engine, 2, 1) != fingerprint(engine, 2, 2)


def test_every_engine_has_its_fingerprints_and_no_stale_ones_remain():
    kept = {p.stem for p in (ROOT / "tests" / "fingerprints").glob("*.txt")}
    assert kept == {p.stem for p in ENGINES}
