"""An expression of the official spec put into a variant: the names it may use (`environment_of`), the
type it must have (`wanted_type`), the overlay that replaces it (`overlay_at`) and the variant file's
text (`variant_text`), for the phrase mutation tests and the gate."""

from __future__ import annotations

import yaml

from tests.helpers import expr_shapes as shapes
from tests.helpers.mutations import OFFICIAL, get_at


def environment_of(path: tuple) -> dict:
    """The names an expression at `path` of the official spec may use, with their types."""
    if path[0] == "winners":
        return {"player": "player"}
    env = {"me": "player"}
    if path[0] in ("actions", "end_of_turn"):
        for name, choice in (OFFICIAL[path[0]][path[1]].get("choose") or {}).items():
            domain = choice if isinstance(choice, str) else choice["domain"]
            env[name] = shapes.DOMAIN_TYPES[domain]
    if "price" in path:
        env["c"] = "gem"
    return env


def wanted_type(path: tuple) -> str:
    return "int" if path[-1] in ("price", "by") else "stmt" if "effects" in path else "bool"


def overlay_at(path: tuple, new: str) -> dict:
    """The variant's change: the expression at `path` becomes `new` (an effect list is replaced whole)."""
    if "effects" in path:
        effects = list(get_at(OFFICIAL, path[:-1]))
        effects[path[-1]] = new
        path, value = path[:-1], effects
    else:
        value = new
    for part in reversed(path):
        value = {part: value}
    return value


def variant_text(changes: dict) -> str:
    doc = {"spec": 1, "name": "mutant", "extends": "official", "title": "Mutant", **changes}
    return yaml.safe_dump(doc, sort_keys=False, allow_unicode=True, width=1000)
