"""The notation of an engine's actions read as the moves the greedy models (the contract's words).

Every spec's notation keeps the contract's forms (``take``, ``take2``, ``reserve``, ``buy``,
``return``, ``noble``, ``pass``); :func:`parse_move` reads an action's text as such a move when
its choices (:func:`action_domains`, as the engine declares them) are those the form means,
and None otherwise (a house rule's own action, the payment step), which the greedy then plays
on a clone. Read once per engine by :class:`playtest.bots.engine_facts.Facts`.
"""

from __future__ import annotations


def action_domains(module, action: int) -> tuple[str, ...] | None:
    """The domains of an action's choices, as its engine declares them (``("face_up",)`` for
    ``reserve 1.2``): what the words of its notation stand for. An optional choice left out
    (`none`) is not written, so it is not counted. None for an engine that declares none (one
    written by hand to the contract, such as the playtest tests' stand-in): its words are the
    contract's."""
    table, params = getattr(module, "ACTIONS", None), getattr(module, "ACTION_PARAMS", None)
    if table is None or params is None:
        return None
    decision, args = table[action]
    return tuple(param.domain for param, value in zip(params[decision], args, strict=True) if value is not None)


def _buys(module, action: int) -> bool:
    """Does the action buy a card: a card chosen (face up or reserved) by a decision that pays?
    (An engine that declares no choices: its notation begins with the contract's word `buy`.)"""
    domains = action_domains(module, action)
    if domains is None:
        return module.action_to_string(action).startswith("buy")
    pays = module.DECISION_INFO[module.ACTIONS[action][0]].pays  # the payment step itself does not
    return pays and domains[:1] in (("face_up",), ("reserved",))


# The forms of the contract's notation (see Facts): the first word(s), and the domains of the
# choices the rest stands for. A spec may write other choices with the same words (`noble {city}`
# for a city of a zone): an action is read as a move only when its choices are those the form means.
MEANINGS = {
    "take": ("gem_set",),
    "take2": ("gem",),
    "return": ("colour",),
    "pass": (),
    "reserve": ("face_up",),
    "reserve deck": ("deck",),
    "buy": ("face_up",),
    "buy reserved": ("reserved",),
    "noble": ("noble",),
}


def parse_move(text: str, module, domains: tuple[str, ...] | None) -> tuple[str, object] | None:
    """An action's notation as a move: ``("tokens", ((colour, count), ...))`` for takes and
    returns, ``("reserve", (level, slot))``, ``("reserve_deck", level)``, ``("buy", (level,
    slot))``, ``("buy_reserved", k)``, ``("noble", k)``, ``("pass", None)`` (indexes from 0);
    None for any other form, and for a form whose choices (`domains`, the engine's; None: an
    engine that declares none) are not the ones the form means."""
    words = text.split()
    form = " ".join(words[:2]) if " ".join(words[:2]) in MEANINGS and len(words) > 2 else words[0]
    if domains is not None and MEANINGS.get(form) != domains and not (form == "return" and domains == ("gem",)):
        return None
    return _read_move(words, module)


def _read_move(words: list[str], module) -> tuple[str, object] | None:
    colour = {c: i for i, c in enumerate(module.COLOURS)}
    gems = set(module.GEMS)
    levels = [str(x) for x in module.LEVELS]
    head, rest = words[0], words[1:]

    def slot(word):
        level, _, k = word.partition(".")
        if level in levels and k.isdigit() and int(k) >= 1:
            return levels.index(level), int(k) - 1
        return None

    if head == "take" and rest and all(w in gems for w in rest) and len(set(rest)) == len(rest):
        return "tokens", tuple((colour[w], 1) for w in rest)
    if head == "take2" and len(rest) == 1 and rest[0] in gems:
        return "tokens", ((colour[rest[0]], 2),)
    if head == "return" and len(rest) == 1 and rest[0] in colour:
        return "tokens", ((colour[rest[0]], -1),)
    if head == "pass" and not rest:
        return "pass", None
    if head == "reserve" and len(rest) == 1 and slot(rest[0]):
        return "reserve", slot(rest[0])
    if head == "reserve" and len(rest) == 2 and rest[0] == "deck" and rest[1] in levels:
        return "reserve_deck", levels.index(rest[1])
    if head == "buy" and len(rest) == 1 and slot(rest[0]):
        return "buy", slot(rest[0])
    if head == "buy" and len(rest) == 2 and rest[0] == "reserved" and rest[1].isdigit() and int(rest[1]) >= 1:
        return "buy_reserved", int(rest[1]) - 1
    if head == "noble" and len(rest) == 1 and rest[0].isdigit() and int(rest[0]) >= 1:
        return "noble", int(rest[0]) - 1
    return None
