"""What the board writes on a gem besides its colour: the colour's name in the page's language
and a short symbol, so that a cost, a requirement, a token or a bonus reads without colour.

The colours are the spec's (a variant may rename them or add some), so nothing here lists them:
a colour's name comes from the sheets' language tables (``colour.NAME``, the words the reference
sheet uses; the spec's own name for a colour they do not know) and its symbol is derived from
those names (:func:`symbols`), unique among the spec's colours in that language.
"""

from __future__ import annotations

import functools

from compiler.model import Rules
from compiler.sheets import tables


def symbols(names: list[str]) -> list[str]:
    """A short symbol for each name, unique among them: the capital initial, and where several
    names share it, the initial and the letter at the first place where the name differs from
    every other of them (English "blue" and "black": "Bu" and "Ba"; Serbian "црвена" and "црна":
    "Цв" and "Цн"). Names still alike get their place in the spec's order after the symbol."""
    initials = [name[:1].upper() or "?" for name in names]
    out = []
    for i, name in enumerate(names):
        rivals = [other for j, other in enumerate(names) if j != i and initials[j] == initials[i]]
        place = next((k for k in range(1, len(name)) if all(other[k : k + 1] != name[k] for other in rivals)), None)
        out.append(initials[i] if not rivals else initials[i] + name[place] if place is not None else name)
    if len(set(out)) < len(out):
        out = [f"{s}{i + 1}" for i, s in enumerate(out)]
    return out


@functools.lru_cache(maxsize=256)
def words(colours: tuple[str, ...], lang: str, declared: tuple[tuple[str, str], ...] = ()) -> dict[str, dict[str, str]]:
    """For each of `colours` (the gems then the wild colour), its name in `lang` and its symbol:
    the spec's own (`declared`: (colour, symbol in `lang`), from ``components.symbols``), else
    derived from the names (:func:`symbols`); a derived symbol that a declared one already takes
    gets its place in the spec's order after it."""
    table = tables.load(lang)
    names = [table.text(f"colour.{c}") if table.has(f"colour.{c}") else c.replace("_", " ") for c in colours]
    own = dict(declared)
    taken = set(own.values())
    derived = [s if s not in taken else f"{s}{i + 1}" for i, s in enumerate(symbols(names))]
    return {
        c: {"name": name, "symbol": own.get(c, symbol)} for c, name, symbol in zip(colours, names, derived, strict=True)
    }


def declared(rules: Rules | None, lang: str) -> tuple[tuple[str, str], ...]:
    """The symbols a spec's rule model declares (``components.symbols``), in `lang` (English
    where it gives none in that language); none without a rule model."""
    return tuple((colour, text.get(lang) or text.en) for colour, text in (rules.symbols if rules is not None else ()))
