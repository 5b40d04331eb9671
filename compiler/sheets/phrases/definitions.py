"""Sheets, phrasing: calls of the spec's definitions.

Bound into :class:`~.core.Phraser`: a call reads as its definition's title with each
placeholder replaced by its argument in words, never as its body.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ...front.expr import Word
from .. import tables
from .kinds import BOOL, NUMBER, PLAYER

if TYPE_CHECKING:  # the class these functions are bound to (the package re-exports it)
    from . import Phraser


def definition(self: Phraser, name: str):
    """The spec's definition `name`, or None (a built-in function, or no such definition)."""
    return next((d for d in self.rules.definitions if d.name == name), None)


def defined(self: Phraser, node) -> str:
    """A call of a definition: its title in this language, each placeholder {param} replaced
    by its argument in words ("the player has a bonus of every gem colour"), not its body."""
    d = self.definition(node.func)
    title = d.title.get(self.lang) or d.title.en
    you = self.takes_you(title)
    fields = {p: self.argument(a, t, you=you) for (p, t), a in zip(d.params, node.args, strict=False)}
    return tables.PLACEHOLDER.sub(lambda m: fields.get(m.group(1), m.group(0)), title)


def performed(self: Phraser, node) -> str:
    """A call of a procedure (a definition with `do:`) among effects: its title in this language, an
    imperative as effects read ("gain the chosen card"), each placeholder replaced by its argument."""
    d = self.definition(node.name)
    title = d.title.get(self.lang) or d.title.en
    you = self.takes_you(title)
    fields = {p: self.argument(a, t, "_acc", you=you) for (p, t), a in zip(d.params, node.args, strict=False)}
    return tables.PLACEHOLDER.sub(lambda m: fields.get(m.group(1), m.group(0)), title)


def takes_you(self: Phraser, title: str) -> bool:
    """Whether a title's verb agrees with the words for you (``ref.player.you_in_title``) as well
    as with its third-person player: not where it holds a verb only the third person takes (the
    table's ``ref.player.you_in_title.unless``: Dutch "heeft", "is"), which keeps "de speler"."""
    unless = self.t.text("ref.player.you_in_title.unless")
    return not (unless and re.search(unless, title))


def argument(self: Phraser, node, param_type=None, case: str = "", you: bool = True) -> str:
    """An argument of a call, as the title's placeholder stands for it: a player in the third
    person (a title is written of "{p}", never of "you"), or where the call is about you, the
    words for you that a third-person verb agrees with (``ref.player.you_in_title``: Dutch "je",
    whose verb in a subordinate clause is the third person's: "als je aan de eisen voldoet";
    unless `you` is false: :func:`takes_you`); a keyword by the component it names. A procedure's
    title is an imperative, its placeholders the verb's objects (`case` "_acc")."""
    if isinstance(node, Word):
        return self.word(node, param_type)
    kind = self.kind(node)
    if kind == BOOL:
        return self.condition(node)
    if kind == NUMBER:
        return self.number(node)
    if kind == PLAYER and self.is_you(node):
        return self.t.text(("ref.player.you_in_title" if you else "ref.player.the") + case.replace("_", "."))
    forms = self.thing(node)
    return forms.get(case) or forms[""]
