"""How a spec's actions are written: the text of every action id an engine will number.

An engine parses an action's text back to its id (``string_to_action``), so no two of its
actions may be written the same way; :func:`collisions` finds any two that are, from the
rule model alone, for `check` to report (E522) before anything is compiled. The labels and
the filling of a notation follow rulespec/README.md (Notation), exactly as the engine
writes them: a choice's values in the order of the action table, a ``[group]`` dropped when
an optional choice inside it is ``none``, and a payment chosen last not written at all (it is
asked afterwards, in the engine's payment step: ``pay gold for red``, ``pay without gold``).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Sequence

from ..model import Decision, Param, PlayerCount

PAY_STEP_NAME = "the payment step"  # how a collision with the payment step's texts names it


def choice_labels(
    param: Param, gems: Sequence[str], wild: str, levels: Sequence[int], players: Sequence[PlayerCount]
) -> list[str]:
    """How each value of a choice is written, in the order of the action table ('' for `none`)."""
    domain = param.domain
    if domain == "gem":
        labels = list(gems)
    elif domain == "colour":
        labels = [*gems, wild]
    elif domain == "gem_set":  # by size, then in gem order
        labels = [" ".join(s) for k in range(param.min, param.max + 1) for s in itertools.combinations(gems, k)]
    elif domain == "face_up":
        slots = max((p.face_up for p in players), default=0)
        labels = [f"{level}.{slot}" for level in levels for slot in range(1, slots + 1)]
    elif domain == "deck":
        labels = [str(level) for level in levels]
    elif domain in ("reserved", "component"):  # positions, from 1
        labels = [str(i) for i in range(1, param.slots + 1)]
    elif domain == "noble":
        labels = [str(i) for i in range(1, max((p.nobles for p in players), default=0) + 1)]
    else:  # a payment: chosen after the action, in the payment step
        labels = [""]
    return labels + ([""] if param.optional else [])


def fill(notation: str, labels: dict[str, str]) -> str:
    """A notation with each {choice} replaced by its label; a [group] is dropped when a choice
    inside it is written as nothing (an optional choice that is `none`, or a payment)."""
    out, i = [], 0
    while i < len(notation):
        ch = notation[i]
        if ch == "[":
            j = notation.index("]", i)
            group = notation[i + 1 : j]
            names = [part.split("}")[0] for part in group.split("{")[1:]]
            if all(labels.get(n) for n in names):
                out.append(fill(group, labels))
            i = j + 1
        elif ch == "{":
            j = notation.index("}", i)
            out.append(labels[notation[i + 1 : j]])
            i = j + 1
        else:
            out.append(ch)
            i += 1
    return " ".join("".join(out).split())


def decision_texts(decision: Decision, gems, wild, levels, players) -> Iterator[str]:
    """The text of each action of a decision, in the order of its action ids."""
    names = [p.name for p in decision.params]
    for combo in itertools.product(*(choice_labels(p, gems, wild, levels, players) for p in decision.params)):
        yield fill(decision.notation, dict(zip(names, combo, strict=True)))


def payment_words(gems: Sequence[str], vec: Sequence[int]) -> list[str]:
    """The words that write a payment: per colour, one word per wild token placed on it. A vector
    of today's tables holds the tokens per colour; a table with a worth holds the tokens, then the
    gems they cover: a token standing for more than one gem is written `red*2`, the covers spread
    as evenly as the tokens allow (2 tokens for 3 red: `red*2 red`). The engines' runtime writes
    the same words (compiler/emit/runtime/notation.py, _payment_words)."""
    n = len(gems)
    words: list[str] = []
    for g in range(n):
        gold = vec[g]
        covers = vec[n + g] if len(vec) > n else gold
        if not gold:
            continue
        each, extra = divmod(covers, gold)
        words += [gems[g] + (f"*{each + 1}" if each + 1 > 1 else "")] * extra
        words += [gems[g] + (f"*{each}" if each > 1 else "")] * (gold - extra)
    return words


def payment_texts(gems: Sequence[str], wild: str, most_gold: int) -> Iterator[str]:
    """The texts of the payment step: each way to spend up to `most_gold` wild tokens."""
    for total in range(most_gold + 1):
        for paid in itertools.combinations_with_replacement(gems, total):
            yield f"pay {wild} for {' '.join(paid)}" if paid else f"pay without {wild}"


def collisions(
    decisions: Sequence[Decision], gems, wild, levels, players: Sequence[PlayerCount]
) -> list[tuple[str, Decision | None, Decision]]:
    """Each pair of decisions (or a decision and itself) with two actions written alike, once:
    (the text, the decision that wrote it first or None for the payment step, the other)."""
    seen: dict[str, Decision | None] = {}
    found: list[tuple[str, Decision | None, Decision]] = []
    reported: set[tuple[int, int]] = set()
    deferred = any(d.params and d.params[-1].domain == "payment" for d in decisions)
    spends = {p.wilds.source: p.wilds for d in decisions for p in d.params if p.wilds is not None}
    extra = max((w.limit * w.most_units for w in spends.values()), default=0)  # sizes.wild_extra
    pay_texts: Iterable[str] = ()
    if deferred:
        pay_texts = itertools.chain(
            payment_texts(gems, wild, max((p.gold for p in players), default=0) + extra),
            (f"pay with {zone} {k}" for zone, w in spends.items() for k in range(1, w.limit + 1)),
        )
    for decision in decisions:
        for text in decision_texts(decision, gems, wild, levels, players):
            if text in seen:
                first = seen[text]
                pair = (id(first), id(decision))
                if pair not in reported:
                    reported.add(pair)
                    found.append((text, first, decision))
            else:
                seen[text] = decision
    pay_owner = {}
    for text in pay_texts:
        owner = seen.get(text)
        if owner is not None and id(owner) not in pay_owner:
            pay_owner[id(owner)] = True
            found.append((text, None, owner))
    return found
