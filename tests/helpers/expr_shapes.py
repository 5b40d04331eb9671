"""Well-typed expression shapes, drawn by hypothesis, for the property tests of the phrasing.

A line edit of a spec rarely makes an expression that checks; these strategies write
expressions of a wanted type (a number, a condition, a colour, a card, a collection, a
table, ...) out of every construct of the language -- every global, attribute, index,
function, aggregate over every collection, arithmetic, ``if ... then ... else``, ``in``,
``none`` -- so that what `check` accepts is reached in every shape, and the sheets and the
diff have to phrase it. :func:`mutate` puts such a shape in place of a whole expression
of a spec or of one of its sub-expressions.

Types are short strings: ``int``, ``bool``, ``gem``, ``colour``, ``player``, ``face_up``,
``reserved``, ``noble``, ``payment``, ``setup``, ``none``, ``set:ELEM`` and ``map:KEY``.
An environment maps the names a place may use (choices, ``me``, ``player``, loop
variables) to their types; an optional choice has the type ``opt:TYPE``. A spec's own
collections are names of the environment too: a zone of cities (``city_display``,
``me.claimed``) has the type ``set:city``, and loops, sizes and ``in`` then draw over it
as over the built-in collections; a city has the columns :data:`COMPONENT_COLUMNS` gives.
A keyword column's values have the type ``kw:COLUMN`` (a post's ``power``): the column itself,
or a keyword literal of it (:data:`KEYWORDS`), compared with ``==``/``!=`` or passed to a
definition the environment names with the type ``def:PARAM,PARAM`` (``has_power``); a set of
components held as declared state (:data:`STATE_SETS`, ``me.markers``) is written by
``insert``/``drop`` where a zone's component is moved.
"""

from __future__ import annotations

import dataclasses

from hypothesis import strategies as st

from compiler.front.expr import (
    Aggregate,
    Attribute,
    Binary,
    Bool,
    Call,
    Compare,
    Index,
    Int,
    Logic,
    Name,
    Origin,
    Unary,
    parse_expr,
    parse_stmt,
    unparse,
    walk,
)

GEMS = ("white", "blue", "green", "red", "black")
WILD = "gold"
VALUES = ("target", "token_limit", "reserve_limit", "pair_minimum", "take_count")
INT_GLOBALS = ("nobles_left", "player_count", "round", "turn", "passes")
PLAYER_INTS = ("prestige", "purchased", "reserved", "nobles", "held", "turns", "seat")
CARD_TYPES = ("face_up", "reserved")
SETS = {
    "gems": "set:gem",
    "colours": "set:colour",
    "players": "set:player",
    "others": "set:player",
    "levels": "set:level",
}
ELEMENT = {"set:gem": "gem", "set:colour": "colour", "set:player": "player", "set:level": "int"}
MAPS = ("map:colour", "map:gem", "map:level")
THINGS = (
    "int",
    "gem",
    "colour",
    "player",
    "face_up",
    "reserved",
    "noble",
    "payment",
    "setup",
    "none",
    "set:gem",
    "set:colour",
    "set:player",
    "set:level",
    "map:colour",
    "map:gem",
    "map:level",
)
DOMAIN_TYPES = {
    "gem": "gem",
    "colour": "colour",
    "gem_set": "set:gem",
    "face_up": "face_up",
    "deck": "int",
    "reserved": "reserved",
    "noble": "noble",
    "payment": "payment",
}
LOOP_VARS = ("c", "p", "x", "v")
# The columns of the spec's own kinds by element type, as expressions read them (variants/cities.yaml's
# cities; tests/test_phrase_mutations.py holds them to the spec's kind), and the per-player zones of each.
COMPONENT_COLUMNS = {
    "city": {"int": ("tile", "side", "prestige", "any_one_colour"), "map:gem": ("requires",)},
    "post": {"int": ("space", "nobles"), "map:gem": ("requires",), "kw:power": ("power",)},
}
PLAYER_ZONES = {"set:city": ("claimed",), "set:post": ("markers",)}
# The values of each keyword column (variants/trading_posts.csv's power), and the state sets of components.
KEYWORDS = {
    "kw:power": (
        "extra_gem_after_purchase",
        "third_token_with_pair",
        "gold_counts_double",
        "five_prestige",
        "prestige_per_post",
    )
}
STATE_SETS = ("markers",)


def _collections(env: dict) -> list[str]:
    """The collection types a loop, a size or an `in` may draw: the built-in ones, and the zones of `env`."""
    return sorted(set(ELEMENT) | {t for t in env.values() if t.startswith("set:") and t[4:] in COMPONENT_COLUMNS})


def _element(coll_type: str) -> str:
    return ELEMENT.get(coll_type, coll_type[4:])


def _fits(actual: str, wanted: str) -> bool:
    if actual == wanted:
        return True
    return (actual, wanted) in {("gem", "colour"), ("set:gem", "set:colour")} or (
        wanted == "card" and actual in CARD_TYPES
    )


def _vars(env: dict, wanted: str) -> list[str]:
    return sorted(name for name, t in env.items() if _fits(t, wanted))


def _pick(draw, options):
    return draw(st.sampled_from(list(options)))


@st.composite
def shape(draw, wanted: str, env: dict, depth: int = 3) -> str:
    """The text of an expression of type `wanted` (mostly check-clean; `check` filters the rest)."""
    leaves = _leaves(wanted, env)
    if depth <= 0 or (leaves and draw(st.integers(0, 3)) == 0):
        if leaves:
            return _pick(draw, leaves)
    maker = _pick(draw, _MAKERS.get(wanted.split(":")[0] if wanted.startswith("set") else wanted, ()) or [None])
    if maker is None:
        return _pick(draw, leaves) if leaves else draw(shape("int", env, depth - 1))
    return draw(maker(wanted, env, depth - 1))


def _leaves(wanted: str, env: dict) -> list[str]:
    out = _vars(env, wanted)
    if wanted == "int":
        out += ["0", "1", "2", "3", *VALUES, *INT_GLOBALS]
    elif wanted == "bool":
        out += ["true", "false"]
    elif wanted in ("gem", "colour"):
        out += list(GEMS) + ([WILD] if wanted == "colour" else [])
    elif wanted.startswith("set:"):
        out += [name for name, t in SETS.items() if _fits(t, wanted)]
    elif wanted == "map:colour":
        out += ["supply"]
    elif wanted == "map:level":
        out += ["deck", "face_up"]
    elif wanted == "setup":
        out += ["setup"]
    elif wanted == "none":
        out += ["none"]
    elif wanted in KEYWORDS:
        out += [f"'{k}'" for k in KEYWORDS[wanted]] + _columns(env, wanted)
    return out


def _columns(env: dict, wanted: str) -> list[str]:
    """The columns of type `wanted` of the components `env` names: city.requires, post.power."""
    return [f"{v}.{c}" for t, cols in COMPONENT_COLUMNS.items() for v in _vars(env, t) for c in cols.get(wanted, ())]


def _keyword_tests(env: dict) -> list[tuple[str, str]]:
    """(kind, what) of the keyword tests `env` allows: a keyword column compared, a definition called."""
    return [("column", t) for t in KEYWORDS if _columns(env, t)] + [
        ("call", name) for name, t in env.items() if t.startswith("def:")
    ]


def _bind(draw, env: dict, depth: int) -> tuple[str, str, dict]:
    """A loop: (variable, collection text, the environment of its body)."""
    coll_type = _pick(draw, _collections(env))
    coll = draw(shape(coll_type, env, depth))
    var = _pick(draw, LOOP_VARS)
    return var, coll, {**env, var: _element(coll_type)}


@st.composite
def _int(draw, wanted, env, depth):
    kind = draw(st.integers(0, 16))
    s = lambda t, d=depth: shape(t, env, d)  # noqa: E731 - a short alias
    components = [(v, c) for t, cols in COMPONENT_COLUMNS.items() for v in _vars(env, t) for c in cols["int"]]
    if kind == 16 and components:  # a column of a component: city.prestige
        var, column = _pick(draw, components)
        return f"{var}.{column}"
    if kind == 0:
        return f"{draw(s('map:colour'))}[{draw(s('colour'))}]"
    if kind == 1:
        return f"{draw(s('map:gem'))}[{draw(s('gem'))}]"
    if kind == 2:
        return f"{draw(s('map:level'))}[{draw(st.sampled_from(['1', '2', '3', *_vars(env, 'int')]))}]"
    if kind == 3:
        return f"{draw(s('player'))}.{_pick(draw, PLAYER_INTS)}"
    if kind == 4:
        return f"{draw(s('card'))}.{_pick(draw, ['points', 'level'])}"
    if kind == 5:
        return _pick(
            draw,
            [f"{n}.points" for n in _vars(env, "noble")]
            + [f"{p}.gold_total" for p in _vars(env, "payment")]
            + [f"setup.{a}" for a in ("gems", "gold", "nobles", "face_up")],
        )
    if kind == 6:
        return f"size({draw(s(_pick(draw, _collections(env))))})"
    if kind == 7:
        args = draw(st.lists(s("int"), min_size=2, max_size=3))
        return f"{_pick(draw, ['min', 'max'])}({', '.join(args)})"
    if kind == 8:
        return f"abs({draw(s('int'))})"
    if kind in (9, 10):
        var, coll, inner = _bind(draw, env, depth)
        func = _pick(draw, ["sum", "count", "min", "max"])
        body = draw(shape("bool" if func == "count" else "int", inner, depth))
        return f"{func}({body} for {var} in {coll})"
    if kind == 11:
        op = _pick(draw, ["+", "-", "*"])
        return f"({draw(s('int'))} {op} {draw(s('int'))})"
    if kind == 12:
        return f"({draw(s('int'))} {_pick(draw, ['//', '%'])} {_pick(draw, ['2', '3', 'target'])})"
    if kind == 13:
        return f"-{draw(s('int'))}"
    return f"(if {draw(s('bool'))} then {draw(s('int'))} else {draw(s('int'))})"


@st.composite
def _bool(draw, wanted, env, depth):
    keyword_tests = _keyword_tests(env)
    kind = draw(st.integers(0, 10 if keyword_tests else 9))
    s = lambda t, d=depth: shape(t, env, d)  # noqa: E731
    if kind == 10:  # post.power == 'five_prestige', has_power(me, 'five_prestige')
        how, what = _pick(draw, keyword_tests)
        if how == "column":
            return f"{_pick(draw, _columns(env, what))} {_pick(draw, ['==', '!='])} {draw(s(what))}"
        args = ", ".join(draw(s(t)) for t in env[what][4:].split(","))
        return f"{what}({args})"
    if kind in (0, 1):
        return f"{draw(s('int'))} {_pick(draw, ['>=', '>', '<=', '<', '==', '!='])} {draw(s('int'))}"
    if kind == 2:
        t = _pick(draw, THINGS)
        return f"{draw(s(t))} {_pick(draw, ['==', '!='])} {draw(s(t))}"
    if kind == 3:
        coll_type = _pick(draw, _collections(env))
        return f"{draw(s(_element(coll_type)))} {_pick(draw, ['in', 'not in'])} {draw(s(coll_type))}"
    if kind == 4:
        return f"({draw(s('bool'))} {_pick(draw, ['and', 'or'])} {draw(s('bool'))})"
    if kind == 5:
        return f"not {draw(s('bool'))}"
    if kind == 6:
        var, coll, inner = _bind(draw, env, depth)
        return f"{_pick(draw, ['all', 'any'])}({draw(shape('bool', inner, depth))} for {var} in {coll})"
    if kind == 7:
        return f"(if {draw(s('bool'))} then {draw(s('bool'))} else {draw(s('bool'))})"
    optional = sorted(name for name, t in env.items() if t.startswith("opt:"))
    if not optional:
        return draw(s("bool"))
    name = _pick(draw, optional)
    if kind == 8:
        return f"{name} {_pick(draw, ['==', '!='])} none"
    known = {**env, name: env[name][4:]}
    return f"({name} != none and {draw(shape('bool', known, depth))})"


@st.composite
def _thing(draw, wanted, env, depth):
    """A colour, card, player, collection or table: a choice, a literal, an attribute or an 'if'."""
    s = lambda t, d=depth: shape(t, env, d)  # noqa: E731
    options = ["if"]
    if wanted == "gem" and _vars(env, "card"):
        options.append("bonus")
    if wanted == "map:colour":
        options.append("tokens")
    if wanted == "map:gem":
        options += (
            ["bonus_map"]
            + (["cost"] if _vars(env, "card") else [])
            + (["requires"] if _vars(env, "noble") else [])
            + (["paid"] if _vars(env, "payment") else [])
        )
    tables = [f"{v}.{c}" for t, cols in COMPONENT_COLUMNS.items() for v in _vars(env, t) for c in cols.get(wanted, ())]
    zones = [f"{p}.{z}" for z in PLAYER_ZONES.get(wanted, ()) for p in _vars(env, "player")]
    options += ["column"] * bool(tables) + ["player_zone"] * bool(zones)
    choice = _pick(draw, options)
    if choice == "column":  # city.requires
        return _pick(draw, tables)
    if choice == "player_zone":  # p.claimed
        return _pick(draw, zones)
    if choice == "bonus":
        return f"{draw(s('card'))}.bonus"
    if choice == "tokens":
        return f"{draw(s('player'))}.tokens"
    if choice == "bonus_map":
        return f"{draw(s('player'))}.bonus"
    if choice == "cost":
        return f"{draw(s('card'))}.cost"
    if choice == "requires":
        return f"{draw(s('noble'))}.requires"
    if choice == "paid":
        return f"{draw(s('payment'))}.{_pick(draw, ['gold', 'spent'])}"
    return f"(if {draw(s('bool'))} then {draw(s(wanted))} else {draw(s(wanted))})"


_MAKERS = {
    "int": [_int],
    "bool": [_bool],
    **{t: [_thing] for t in THINGS if t not in ("int", "bool")},
    "set": [_thing],
    "card": [_thing],
}


@st.composite
def statement(draw, env: dict, depth: int = 2) -> str:
    """The text of an effect: any effect with typed arguments, a loop or an 'if'."""
    s = lambda t, d=depth: shape(t, env, d)  # noqa: E731
    kind = draw(st.integers(0, 8 if depth > 0 else 6))
    if kind in (0, 1):
        return f"{_pick(draw, ['take', 'put_back'])}({draw(s('colour'))}, {draw(s('int'))})"
    if kind == 2:  # a card from a deck, or another turn (extra_turn(), which takes nothing)
        return f"reserve_top({draw(s('int'))})" if draw(st.booleans()) else "extra_turn()"
    if kind == 3:
        return f"{_pick(draw, ['reserve', 'refill'])}({draw(s('face_up'))})"
    if kind == 4:
        return f"{_pick(draw, ['acquire', 'bury'])}({draw(s('card'))})"
    if kind == 5:
        return f"visit({draw(s('noble'))})" if _vars(env, "noble") else f"pay({draw(s('payment'))})"
    moved = [(v, z) for t in COMPONENT_COLUMNS for v in _vars(env, t) for z in _vars(env, f"set:{t}")]
    if kind == 6 and moved and draw(st.booleans()):  # a component moved to a zone, or out of the game
        var, zone = _pick(draw, moved)
        if zone.rsplit(".", 1)[-1] in STATE_SETS:  # a set held as declared state: insert(me.markers, post)
            return f"{_pick(draw, ['insert', 'drop'])}({zone}, {var})"
        return f"move({var}, {zone})" if draw(st.booleans()) else f"discard({var})"
    if kind == 6:
        return f"take({draw(s('colour'))}, 1)"
    if kind == 7:
        var, coll, inner = _bind(draw, env, depth - 1)
        return f"for {var} in {coll}: {draw(statement(inner, depth - 1))}"
    tail = f" else: {draw(statement(env, depth - 1))}" if draw(st.booleans()) else ""
    return f"if {draw(s('bool'))}: {draw(statement(env, depth - 1))}{tail}"


# --------------------------------------------------------------------------- mutating a spec


def _origin(text: str) -> Origin:
    return Origin.plain("shape.yaml", 1, 1, text)


def _replace(node, target, hole):
    """`node` with the sub-node `target` (by identity) replaced by `hole`."""
    if node is target:
        return hole
    if not dataclasses.is_dataclass(node):
        return node
    changes = {}
    for f in dataclasses.fields(node):
        value = getattr(node, f.name)
        if isinstance(value, tuple):
            new = tuple(_replace(v, target, hole) for v in value)
        else:
            new = _replace(value, target, hole)
        if new is not value:
            changes[f.name] = new
    return dataclasses.replace(node, **changes) if changes else node


def syntactic_type(node) -> str | None:
    """The type a sub-expression has whatever its names mean (None when it depends on them)."""
    match node:
        case Bool() | Compare() | Logic() | Unary(op="not") | Aggregate(func="all" | "any"):
            return "bool"
        case Int() | Binary() | Unary(op="-") | Call() | Aggregate():
            return "int"
        case Attribute(name=n) if n in PLAYER_INTS + ("points", "level", "gold_total"):
            return "int"
        case Index():
            return "int"
        case Name(id=i) if i in GEMS:
            return "gem"
    return None


@st.composite
def mutate(draw, text: str, wanted: str, env: dict, is_effect: bool = False) -> str:
    """`text` (an expression of type `wanted`, or an effect) with a sub-expression or the whole replaced."""
    tree = (parse_stmt if is_effect else parse_expr)(text, _origin(text))
    places = [(n, syntactic_type(n)) for n in walk(tree)]
    places = [(n, t) for n, t in places if t is not None]
    if is_effect and (not places or draw(st.integers(0, 3)) == 0):
        return draw(statement(env))
    if not is_effect:
        places.append((tree, wanted))
    node, t = draw(st.sampled_from(places))
    new = draw(shape(t, env))
    hole = Name("shape_hole_", node.span)
    return unparse(_replace(tree, node, hole)).replace("shape_hole_", f"({new})")
