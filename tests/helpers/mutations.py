"""The official spec as a tree to mutate: its paths, leaves and expressions, odd values to put
anywhere, and the sections the official spec lacks (zones) written in, for the mutation tests
(tests/test_mutations.py, test_phrase_mutations.py, test_gate.py, test_zone_states.py, the fuzzer)."""

from __future__ import annotations

import copy
import re

import yaml
from hypothesis import note

from . import ROOT

OFFICIAL_TEXT = (ROOT / "rulespec" / "official.yaml").read_text(encoding="utf-8")
OFFICIAL = yaml.safe_load(OFFICIAL_TEXT)
LINES = OFFICIAL_TEXT.splitlines(keepends=True)
# A located diagnostic's first line: file:line:col: error[CODE]: message.
LOCATED = re.compile(r"^(?P<file>[^\s:][^:]*):(?P<line>\d+):(?P<col>\d+): error\[(?P<code>E\d{3})\]: .+$")

HEAD = re.compile(r"^(?P<file>\S[^:]*):(?P<line>\d+):(?P<col>\d+): error\[E\d{3}\]: ")


def paths_of(tree, prefix=()):
    yield prefix
    if isinstance(tree, dict):
        for key, value in tree.items():
            yield from paths_of(value, prefix + (key,))
    elif isinstance(tree, list):
        for i, value in enumerate(tree):
            yield from paths_of(value, prefix + (i,))


def get_at(tree, path):
    for part in path:
        tree = tree[part]
    return tree


def set_at(tree, path, value):
    get_at(tree, path[:-1])[path[-1]] = value


def mutated(base, path, value, drop: bool):
    """A copy of spec tree `base` with the entry at `path` dropped (when `drop`, and it is not a
    section) or set to `value`, noted for hypothesis's report."""
    tree = copy.deepcopy(base)
    if drop and len(path) > 1:
        note(f"drop {path}")
        del get_at(tree, path[:-1])[path[-1]]
    else:
        note(f"set {path} to {value!r}")
        set_at(tree, path, value)
    return tree


ALL_PATHS = list(paths_of(OFFICIAL))[1:]
LEAVES = [p for p in ALL_PATHS if not isinstance(get_at(OFFICIAL, p), (dict, list))]
KEYED = [p for p in ALL_PATHS if isinstance(get_at(OFFICIAL, p[:-1]), dict)]
EXPRESSION_KEYS = {"condition", "while", "when", "by", "eligible", "price", "effects"}
EXPRESSIONS = [
    p
    for p in LEAVES
    if isinstance(get_at(OFFICIAL, p), str) and any(part in EXPRESSION_KEYS for part in p if isinstance(part, str))
]
NAMES = sorted(
    {w for p in EXPRESSIONS for w in re.findall(r"[a-z_]+", get_at(OFFICIAL, p))}
    | {str(k) for p in KEYED for k in p[-1:]}
)

ODD_VALUES = [
    None,
    0,
    -1,
    7,
    1_000_000_000,
    2.5,
    True,
    False,
    "",
    "text",
    "x" * 300,
    [],
    [1, "a"],
    {},
    {"en": "x"},
    {"value": 3},
    {"domain": "gem"},
    "1 +",
    "me.prestige >= target",
    "{",
    "!!",
    "&x",
    "*x",
]
GARBAGE = list("()[]{}.,:;=<>!&|+-*/%#'\"\\ \t@`?~^$") + ["\u00e9", "\u200b", "\ufeff", "\x7f", "\r", "\n", "- ", ": "]


def dump(tree) -> bytes:
    return yaml.safe_dump(tree, sort_keys=False, allow_unicode=True, width=1000).encode("utf-8")


# The zones section (the official spec has none): the Cities' kind and zones and a claim, then mutated.
WITH_ZONES = {
    **OFFICIAL,
    "kinds": {
        **OFFICIAL["kinds"],
        "cities": {
            "title": {"en": "Cities"},
            "item": {"en": "city"},
            "table": "cities.csv",
            "faces_of": "tile",
            "columns": {
                "tile": "number",
                "side": "number",
                "prestige": "number",
                "requires": "gems",
                "any_one_colour": "number",
            },
        },
    },
    "zones": {
        "city_pile": {"title": {"en": "City tiles"}, "holds": "cities", "shape": "pile", "start": "all"},
        "city_display": {
            "title": {"en": "Cities on display"},
            "holds": "cities",
            "shape": "row",
            "size": 3,
            "source": "city_pile",
            "start": "dealt",
        },
        "claimed": {"title": {"en": "Claimed cities"}, "holds": "cities", "shape": "holding", "per_player": True},
    },
    "end_of_turn": {
        **OFFICIAL["end_of_turn"],
        "claim_city": {
            "title": {"en": "Claim a city"},
            "notation": "city {city}",
            "choose": {"city": {"domain": "component", "from": "city_display"}},
            "condition": "me.prestige >= city.prestige",
            "effects": ["move(city, me.claimed)"],
        },
    },
}
ZONE_PATHS = [p for p in paths_of(WITH_ZONES) if p[:1] == ("zones",) or p[:2] == ("end_of_turn", "claim_city")]
ZONE_VALUES = [
    "city_pile",
    "claimed",
    "cards",
    "nobles",
    "pile",
    "display",
    "row",
    "holding",
    "all",
    "dealt",
    8,
    100,
    101,
    "setup.nobles",
    "setup.nope",
    "cities_shown",
    "tile",
    "draw(city_pile, me.claimed)",
    "refill(city_display)",
    "discard(city)",
    "to_bottom(city, city_pile)",
    "size(city_pile) >= 1",
    "any(x.prestige > 15 for x in city_display)",
    "reveal(city_pile, city_display)",
]
