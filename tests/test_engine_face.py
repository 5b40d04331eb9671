"""The engine object's public face (issue 15, item 8): the state is read under the long names the
README and every engine's docstring document (`tokens`, `bonus`, `prestige`...); the engine's
own short names (`tok`, `bon`, `cp`...) are private (a leading underscore), so a reader of the
state never meets two names for one thing."""

import importlib.util
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ENGINES = sorted((ROOT / "generated" / "engines").glob("*.py"))
INTERNAL = ("n", "cp", "tok", "bon", "pts", "bought", "res", "nob")


def _documented() -> list[str]:
    """The attribute names of the README's sentence on the state (`tokens[p]` is `tokens`)."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    sentence = text[text.index("The state is readable as attributes:") :]
    sentence = sentence[: sentence.index(".\n")]
    return [re.match(r"\w+", name)[0] for name in re.findall(r"`([^`]+)`", sentence)]


def _load(path: Path):
    spec = importlib.util.spec_from_file_location(f"{path.stem}_face", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("path", ENGINES, ids=[p.stem for p in ENGINES])
def test_the_state_is_public_under_its_documented_names_only(path):
    engine = _load(path)
    game = engine.new_game(engine.PLAYER_COUNTS[0], seed=5)
    for _ in range(12):  # a few moves in, so that hands are not all empty
        if game.is_over():
            break
        game.apply(game.legal_actions()[0])
    documented = _documented()
    assert {"supply", "tokens", "bonus", "prestige", "purchased", "reserved", "nobles"} <= set(documented)
    for name in documented + ["num_players", "current_player", "phase"]:
        assert hasattr(game, name), name
        assert name in engine.__doc__, f"{name} is not in the engine's docstring"
    assert [name for name in INTERNAL if hasattr(game, name)] == []
    owners: dict[int, str] = {}  # one public name per list of the state
    for name in dir(game):
        value = None if name.startswith("_") else getattr(game, name)
        if isinstance(value, list):
            assert id(value) not in owners, f"{name} and {owners[id(value)]} are the same list"
            owners[id(value)] = name
