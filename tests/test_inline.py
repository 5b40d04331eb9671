"""compiler/emit/inline.py: a hook's body in place of its call, as a transformation of the syntax tree."""

from __future__ import annotations

import ast

import pytest

from compiler.emit import inline

CALLER = """
class Game:
    def apply(self, action):
        step = count = 0
        if _end_of_turn(self, step, count):
            return
        self.turn += 1
        _reset_turn(self)
        return action
"""


def hooks(end: str, reset: str = "    pass") -> str:
    return (
        f'def _end_of_turn(g, step, count):\n    """doc"""\n{end}\n\n\ndef _reset_turn(g):\n{reset}\n'
        "def _keep_turn(g, d):\n    return False\n\n\ndef _turn_again(g):\n    pass\n"
    )


def test_a_hook_body_replaces_its_call_its_parameters_named_as_the_caller_names_them():
    text = inline.game_text(
        CALLER, hooks("    if g.over:\n        return True\n    g.step = step\n    return False", "    g.flag = None")
    )
    method = ast.parse(text).body[0].body[0]
    assert ast.unparse(method) == ast.unparse(
        ast.parse(
            "def apply(self, action):\n    step = count = 0\n    if self.over:\n        return\n    self.step = step\n"
            "    self.turn += 1\n    self.flag = None\n    return action"
        ).body[0]
    )


def test_a_hook_that_does_nothing_leaves_nothing():
    text = inline.game_text(CALLER, hooks("    return False"))
    assert "_end_of_turn" not in text and "_reset_turn" not in text and "self.turn += 1" in text


@pytest.mark.parametrize(
    "end, says",
    [
        ("    if g.x:\n        return False\n    return False", "returns only True"),
        ("    g = 1\n    return False", "binds or reads"),
        ("    self.x = 1\n    return False", "binds or reads"),
    ],
)
def test_what_cannot_be_inlined_exactly_is_refused(end, says):
    with pytest.raises(inline.InlineError, match=says):
        inline.game_text(CALLER, hooks(end))


def test_an_engine_must_define_the_hooks():
    with pytest.raises(inline.InlineError, match="the engine defines"):
        inline.game_text(CALLER, "def _reset_turn(g):\n    pass\n")
