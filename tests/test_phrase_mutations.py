"""Every expression `check` accepts can be phrased: the sheets and the diff of mutated specs.

Each example is a house variant of the official rules in which an expression -- a
condition, a `while`, an effect, a price, an end condition, the eligibility or a ranking
key -- has a sub-expression (or the whole) replaced by a well-typed shape drawn by
:mod:`expr_shapes`, or which adds an action with a plain and an optional choice of one
domain and a drawn condition and effect. When `check` accepts the variant, `sheet`
(Markdown, the four languages, into a temporary folder) and `diff official VARIANT` must
succeed: never exit 3, never a traceback. (`check` refusing it is fine: the catalogue and
tests/test_mutations.py hold its diagnostics to being located.) The Trading Posts' expressions
(keyword literals, a set of posts held as state) are mutated too, and their variants are also
compiled and played.

The suite draws some 150 examples (seven tests of 20, one of 6: each example checks a spec, writes its
sheets in four languages, which plays the deals of a worked example, and its diff, some two
seconds); SPLENDOR_PHRASE_EXAMPLES=2000 searches deeper, as before a release.
On CI (CI=true) the examples are the same on every run.
"""

from __future__ import annotations

import copy
import os
import pathlib
import random
import runpy

import pytest
import yaml
from click.testing import CliRunner
from hypothesis import HealthCheck, event, given, note, settings
from hypothesis import strategies as st
from hypothesis.control import currently_in_test_context

from app import cli
from tests.helpers import expr_shapes as shapes
from tests.helpers.mutations import EXPRESSIONS, OFFICIAL, get_at
from tests.helpers.phrases import environment_of, overlay_at, variant_text, wanted_type

EXAMPLES = int(os.environ.get("SPLENDOR_PHRASE_EXAMPLES", "20"))
SETTINGS = settings(
    max_examples=EXAMPLES,
    deadline=None,
    database=None,
    derandomize=bool(os.environ.get("CI")),
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture, HealthCheck.filter_too_much],
)
LANGS = "en,fr,nl,sr"


@pytest.fixture(autouse=True)
def at_root(monkeypatch):
    monkeypatch.chdir(pathlib.Path(__file__).resolve().parent.parent)


# Variants phrased in this run, with their outcome. Hypothesis draws some variants twice (on CI's
# draw, 9 of the 158 variants the module phrases repeat one drawn before: 7 % of its time);
# `check`, `sheet` and `diff` of one text beside the same files do the same every time, so a variant
# seen is not run again. The key is the text and every file beside it (a table the text may name).
_PHRASED: dict[tuple, bool] = {}


def phrase_outcome(tmp: pathlib.Path, text: str) -> bool:
    """Check the variant `text`; when it is clean, its sheets and its diff must be written. True if it was clean."""
    key = (text, tuple(sorted((p.name, p.read_bytes()) for p in tmp.iterdir() if p.is_file())))
    if key not in _PHRASED:
        _PHRASED[key] = _phrased(tmp, text)
    return _PHRASED[key]


def _phrased(tmp: pathlib.Path, text: str) -> bool:
    spec = tmp / "mutant.yaml"
    spec.write_text(text, encoding="utf-8")
    runner = CliRunner()
    checked = runner.invoke(cli.main, ["check", str(spec)])
    if currently_in_test_context():
        note(checked.output)
    assert checked.exit_code in (0, 1), checked.output
    if checked.exit_code != 0:
        return False
    for args, ok in (
        (["sheet", str(spec), "--lang", LANGS, "--format", "md", "-o", str(tmp / "sheets")], (0,)),
        (["diff", "official", str(spec)], (0, 1)),
    ):
        result = runner.invoke(cli.main, args)
        assert result.exit_code in ok, f"{args[0]}: exit status {result.exit_code}\n{result.output}"
        assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
        assert "Traceback" not in result.output and "internal error" not in result.output, result.output
    return True


@SETTINGS
@given(data=st.data(), path=st.sampled_from(EXPRESSIONS))
def test_a_mutated_expression_is_phrased_or_refused(tmp_path_factory, data, path):
    text = get_at(OFFICIAL, path)
    wanted = wanted_type(path)
    new = data.draw(shapes.mutate(text, wanted, environment_of(path), is_effect=wanted == "stmt"), "new")
    note(f"{path}: {new}")
    phrase_outcome(tmp_path_factory.mktemp("phrase"), variant_text(overlay_at(path, new)))


# A new action choosing one of a domain, and maybe none of it (`o`).
PROBES = {
    "gem": {},
    "colour": {},
    "gem_set": {"min": 1, "max": 2},
    "face_up": {},
    "deck": {},
    "noble": {},
    "reserved": {"slots": "reserve_limit"},
}


@SETTINGS
@given(data=st.data(), domain=st.sampled_from(sorted(PROBES)))
def test_a_new_action_with_optional_choices_is_phrased_or_refused(tmp_path_factory, data, domain):
    env = {"me": "player", "x": shapes.DOMAIN_TYPES[domain], "o": "opt:" + shapes.DOMAIN_TYPES[domain]}
    condition = data.draw(shapes.shape("bool", env), "condition")
    effect = data.draw(st.one_of(st.just("take(gold, 1)"), shapes.statement(env)), "effect")
    action = {
        "add": True,
        "title": "Probe",
        "notation": "probe {x} [or {o}]",
        "choose": {
            "x": {"domain": domain, **PROBES[domain]},
            "o": {"domain": domain, "optional": True, **PROBES[domain]},
        },
        "condition": condition,
        "effects": [effect],
    }
    phrase_outcome(tmp_path_factory.mktemp("phrase"), variant_text({"actions": {"probe": action}}))


# A procedure (a definition with `do:`) whose effect is drawn, called by a new action with its choice: a call
# is phrased by its title, the procedure among the definitions, both in every language, and `diff` names them.
PARAM_WORDS = {
    "gem": "gem",
    "colour": "colour",
    "face_up": "card",
    "reserved": "card",
    "deck": "number",
    "noble": "noble",
}


@SETTINGS
@given(data=st.data(), domain=st.sampled_from(sorted(PARAM_WORDS)))
def test_a_procedure_called_by_a_new_action_is_phrased_or_refused(tmp_path_factory, data, domain):
    effect = data.draw(shapes.statement({"me": "player", "x": shapes.DOMAIN_TYPES[domain]}), "effect")
    procedure = {"add": True, "title": "probe {x}", "params": {"x": PARAM_WORDS[domain]}, "do": [effect]}
    action = {
        "add": True,
        "title": "Probe",
        "notation": "probe {x}",
        "choose": {"x": {"domain": domain, **PROBES[domain]}},
        "effects": ["probe_effects(x)"],
    }
    changes = {"define": {"probe_effects": procedure}, "actions": {"probe": action}}
    phrase_outcome(tmp_path_factory.mktemp("phrase"), variant_text(changes))


# The Cities (variants/cities.yaml): its zones are collections too, so a loop, an aggregate, a size or an
# `in` may run over the cities on display or a player's claimed cities, and a city has its kind's columns.
CITIES = yaml.safe_load(
    (pathlib.Path(__file__).resolve().parent.parent / "variants" / "cities.yaml").read_text(encoding="utf-8")
)
CITY_EXPRESSIONS = [
    ("end_of_turn", "claim_city", "condition"),
    ("end_of_turn", "claim_city", "effects", 0),
    ("end", "city_claimed", "when"),
    ("winners", "eligible"),
    *(p for p in EXPRESSIONS if p[0] == "actions"),
]


def _city_environment(path: tuple) -> dict:
    """The names an expression at `path` of the Cities may use: those of the official spec's place, the
    cities on display, the player's claimed cities and the city a step chooses."""
    if path[0] == "winners":
        return {"player": "player", "player.claimed": "set:city", "city_display": "set:city"}
    if path[:2] == ("end_of_turn", "claim_city"):
        return {"me": "player", "city": "city", "me.claimed": "set:city", "city_display": "set:city"}
    return {**environment_of(path), "me.claimed": "set:city", "city_display": "set:city"}


def _city_overlay(path: tuple, new: str) -> dict:
    """The change of a variant of the Cities: the expression at `path` becomes `new`."""
    value: object = new
    if "effects" in path:
        source = CITIES if path[0] == "end_of_turn" else OFFICIAL
        effects = list(get_at(source, path[:-1]))
        effects[path[-1]] = new
        path, value = path[:-1], effects
    for part in reversed(path):
        value = {part: value}
    return value  # type: ignore[return-value]


def test_the_shapes_know_the_columns_of_the_cities():
    columns = {
        c: t["type"] if isinstance(t, dict) else t  # the long form {type, title} or the type
        for c, t in CITIES["kinds"]["cities"]["columns"].items()
    }
    drawn = shapes.COMPONENT_COLUMNS["city"]
    assert sorted(drawn["int"]) == sorted(c for c, t in columns.items() if t == "number")
    assert sorted(drawn["map:gem"]) == sorted(c for c, t in columns.items() if t == "gems")
    assert shapes.PLAYER_ZONES["set:city"] == tuple(z for z, d in CITIES["zones"].items() if d.get("per_player"))


@SETTINGS
@given(data=st.data(), path=st.sampled_from(CITY_EXPRESSIONS))
def test_a_mutated_expression_of_the_cities_is_phrased_or_refused(tmp_path_factory, data, path):
    text = get_at(CITIES if path[0] != "actions" else OFFICIAL, path)
    wanted = wanted_type(path)
    new = data.draw(shapes.mutate(text, wanted, _city_environment(path), is_effect=wanted == "stmt"), "new")
    note(f"{path}: {new}")
    doc = variant_text({"extends": "cities", **_city_overlay(path, new)})
    phrase_outcome(tmp_path_factory.mktemp("phrase"), doc)


@SETTINGS
@given(data=st.data())
def test_a_loop_over_a_zone_is_phrased(tmp_path_factory, data):
    """Always a loop or an aggregate over a zone: the end trigger of the Cities, rewritten."""
    env = {"me": "player", "me.claimed": "set:city", "city_display": "set:city"}
    zone = data.draw(st.sampled_from(["me.claimed", "city_display"]), "zone")
    body = data.draw(shapes.shape("bool", {**env, "c": "city"}, 2), "body")
    func = data.draw(st.sampled_from(["count", "all", "any"]), "func")
    when = f"{func}({body} for c in {zone})" + (" >= 1" if func == "count" else "")
    note(when)
    doc = variant_text({"extends": "cities", "end": {"city_claimed": {"when": when}}})
    phrase_outcome(tmp_path_factory.mktemp("phrase"), doc)


@SETTINGS
@given(data=st.data())
def test_a_new_action_choosing_a_city_or_none_is_phrased_or_refused(tmp_path_factory, data):
    """A choice of a component, plain and optional (`x`, `o`), in a variant of the Cities."""
    env = {"me": "player", "x": "city", "o": "opt:city", "me.claimed": "set:city", "city_display": "set:city"}
    condition = data.draw(shapes.shape("bool", env), "condition")
    effect = data.draw(st.one_of(st.just("take(gold, 1)"), shapes.statement(env)), "effect")
    action = {
        "add": True,
        "title": "Probe",
        "notation": "probe {x} [or {o}]",
        "choose": {
            "x": {"domain": "component", "from": "city_display"},
            "o": {"domain": "component", "from": "city_display", "optional": True},
        },
        "condition": condition,
        "effects": [effect],
    }
    phrase_outcome(tmp_path_factory.mktemp("phrase"), variant_text({"extends": "cities", "actions": {"probe": action}}))


# The Trading Posts (variants/trading-posts.yaml): keyword literals typed by a keyword column
# (`post.power == 'five_prestige'`) or by a definition's `posts.power` parameter, a player's set of posts
# held as declared state (loops, sizes, `in`, insert/drop), a step choosing a post from the kind.
TRADING = yaml.safe_load(
    (pathlib.Path(__file__).resolve().parent.parent / "variants" / "trading-posts.yaml").read_text(encoding="utf-8")
)
HAS_POWER = {"has_power": "def:player,kw:power"}
TRADING_ENVIRONMENTS = {
    ("end_of_turn", "open_posts", "condition"): {"me": "player", "post": "post", "me.markers": "set:post"},
    ("end_of_turn", "open_posts", "effects", 0): {"me": "player", "post": "post", "me.markers": "set:post"},
    ("end_of_turn", "gem_after_purchase", "condition"): {
        "me": "player",
        "colour": "gem",
        "bought": "bool",
        "me.markers": "set:post",
    },
    ("end_of_turn", "third_token", "condition"): {
        "me": "player",
        "colour": "gem",
        "paired": "opt:gem",
        "me.markers": "set:post",
    },
    ("prestige", "fourth_post", "by"): {"player": "player", "player.markers": "set:post"},
    ("prestige", "fifth_post", "by"): {"player": "player", "player.markers": "set:post"},
    ("define", "has_power", "is"): {"p": "player", "power": "kw:power", "p.markers": "set:post"},
}


def test_the_shapes_know_the_columns_of_the_trading_posts():
    columns = TRADING["kinds"]["posts"]["columns"]
    types = {c: t["type"] if isinstance(t, dict) else t for c, t in columns.items()}  # long form or type
    drawn = shapes.COMPONENT_COLUMNS["post"]
    assert sorted(drawn["int"]) == sorted(c for c, t in types.items() if t == "number")
    assert sorted(drawn["map:gem"]) == sorted(c for c, t in types.items() if t == "gems")
    assert drawn["kw:power"] == ("power",) and columns["power"]["type"] == "keyword"
    assert sorted(shapes.KEYWORDS["kw:power"]) == sorted(columns["power"]["titles"])
    assert shapes.STATE_SETS == tuple(n for n, v in TRADING["state"].items() if v["type"] == {"set_of": "posts"})
    assert TRADING["define"]["has_power"]["params"] == {"p": "player", "power": "posts.power"}


@SETTINGS
@given(data=st.data(), path=st.sampled_from(sorted(TRADING_ENVIRONMENTS)))
def test_a_mutated_expression_of_the_trading_posts_is_phrased_or_refused(tmp_path_factory, data, path):
    text = get_at(TRADING, path)
    wanted = wanted_type(path)
    env = {**TRADING_ENVIRONMENTS[path], **(HAS_POWER if path[0] != "define" else {})}
    new = data.draw(shapes.mutate(text, wanted, env, is_effect=wanted == "stmt"), "new")
    note(f"{path}: {new}")
    change: object = [new] if "effects" in path else new
    for part in reversed(path[:-1] if "effects" in path else path):
        change = {part: change}
    clean = phrase_outcome(tmp_path_factory.mktemp("phrase"), variant_text({"extends": "trading-posts", **change}))
    event("checks clean" if clean else "refused")


@settings(SETTINGS, max_examples=max(1, EXAMPLES // 3))
@given(data=st.data(), path=st.sampled_from(sorted(TRADING_ENVIRONMENTS)))
def test_a_mutated_expression_of_the_trading_posts_compiles_and_plays(tmp_path_factory, data, path):
    """The same well-typed shapes, compiled: what `compile` accepts plays random games at 2 and 3 players
    (up to the engine's documented RuleError) and saves and loads back; never a crash of the engine
    (a prestige source reading the supply once failed with a NameError)."""
    wanted = wanted_type(path)
    env = {**TRADING_ENVIRONMENTS[path], **(HAS_POWER if path[0] != "define" else {})}
    new = data.draw(shapes.mutate(get_at(TRADING, path), wanted, env, is_effect=wanted == "stmt"), "new")
    note(f"{path}: {new}")
    change: object = [new] if "effects" in path else new
    for part in reversed(path[:-1] if "effects" in path else path):
        change = {part: change}
    tmp = tmp_path_factory.mktemp("engine")
    (tmp / "mutant.yaml").write_text(variant_text({"extends": "trading-posts", **change}), encoding="utf-8")
    result = CliRunner().invoke(cli.main, ["compile", str(tmp / "mutant.yaml"), "-o", str(tmp)])
    assert result.exit_code in (0, 1), result.output
    event("compiles" if result.exit_code == 0 else "refused")
    if result.exit_code:
        return
    engine = runpy.run_path(str(tmp / "mutant.py"))
    for players in (2, 3):
        game, rng = engine["new_game"](players, 1), random.Random(players)
        for _ in range(100):
            if game.is_over():
                break
            try:
                game.apply(rng.choice(game.legal_actions()))
            except engine["RuleError"]:  # documented: an effect the game cannot carry out
                break
        game.scores()
        assert engine["from_json"](game.to_json()).to_json() == game.to_json()


# Queued steps and wilds (issue 28): the condition of a queued step, which reads the value it is given
# (tests/specs/queue.yaml's `level`), the definition that queues it, and the condition and price of a
# step whose payment may spend wild treasures (tests/specs/treasures.yaml), written into a copy of the spec.
SPECS = pathlib.Path(__file__).resolve().parent / "specs"
NEW_CONSTRUCTS = {
    name: yaml.safe_load((SPECS / f"{name}.yaml").read_text(encoding="utf-8")) for name in ("queue", "treasures")
}
NEW_CONSTRUCT_ENVIRONMENTS = {
    ("queue", "end_of_turn", "free_card", "condition"): {"me": "player", "card": "face_up", "level": "int"},
    ("queue", "define", "gain", "do", 1): {"me": "player", "card": "face_up"},
    ("treasures", "end_of_turn", "bargain", "condition"): {"me": "player", "card": "face_up"},
    ("treasures", "end_of_turn", "bargain", "choose", "payment", "price"): {
        "me": "player",
        "card": "face_up",
        "c": "gem",
    },
}


@settings(SETTINGS, max_examples=max(1, EXAMPLES // 4))
@given(data=st.data(), spot=st.sampled_from(sorted(NEW_CONSTRUCT_ENVIRONMENTS)))
def test_a_mutated_expression_of_a_queue_or_wilds_is_phrased_or_refused(tmp_path_factory, data, spot):
    name, *path = spot
    tree = copy.deepcopy(NEW_CONSTRUCTS[name])
    wanted = "stmt" if "do" in path else wanted_type(tuple(path))
    new = data.draw(
        shapes.mutate(get_at(tree, path), wanted, NEW_CONSTRUCT_ENVIRONMENTS[spot], is_effect=wanted == "stmt"), "new"
    )
    note(f"{spot}: {new}")
    get_at(tree, path[:-1])[path[-1]] = new
    tmp = tmp_path_factory.mktemp("phrase")
    (tmp / "treasures.csv").write_bytes((SPECS / "treasures.csv").read_bytes())
    clean = phrase_outcome(tmp, yaml.safe_dump(tree, sort_keys=False, allow_unicode=True, width=1000))
    event("checks clean" if clean else "refused")


def test_the_suite_draws_enough_examples():
    tests = [
        test_a_mutated_expression_is_phrased_or_refused,
        test_a_new_action_with_optional_choices_is_phrased_or_refused,
        test_a_mutated_expression_of_the_cities_is_phrased_or_refused,
        test_a_mutated_expression_of_the_trading_posts_is_phrased_or_refused,
        test_a_mutated_expression_of_a_queue_or_wilds_is_phrased_or_refused,
    ]
    assert sum(t._hypothesis_internal_use_settings.max_examples for t in tests) >= 80


# ---------------------------------------------------------------------------- the shapes found so far

CLEAN_SHAPES = [  # each once ended `sheet` or `diff` with exit 3
    {"actions": {"buy_face_up": {"choose": {"payment": {"price": "card.cost[c]"}}}}},
    {"actions": {"take_pair": {"condition": "supply[colour] >= pair_minimum and me not in others"}}},
    # a loop over a player's zone (the Cities)
    {"extends": "cities", "end": {"city_claimed": {"when": "count(c.prestige >= 0 for c in me.claimed) >= 1"}}},
    {"extends": "cities", "winners": {"eligible": "any(c.prestige >= 0 for c in player.claimed)"}},
    {
        "extends": "cities",
        "end_of_turn": {
            "claim_city": {"condition": "city in city_display and all(c.prestige >= 1 for c in city_display)"}
        },
    },
    {"extends": "cities", "end_of_turn": {"claim_city": {"effects": ["for c in city_display: discard(c)"]}}},
    # an optional city, tested for none (cities-declinable's condition)
    {
        "extends": "cities",
        "end_of_turn": {
            "claim_city": {
                "choose": {"city": {"optional": True}},
                "condition": "city == none or qualifies(me, city)",
                "effects": ["if city != none: move(city, me.claimed)"],
            }
        },
    },
    {"actions": {"take_pair": {"condition": "supply[colour] >= pair_minimum and all(p != me for p in others)"}}},
    {"actions": {"reserve_blind": {"effects": ["reserve_top(if me.reserved >= 1 then 2 else 1)"]}}},
    {"actions": {"reserve_blind": {"condition": "me.reserved < reserve_limit and deck[min(3, me.nobles + 1)] >= 1"}}},
    {"actions": {"reserve_face_up": {"effects": ["acquire(card)", "refill(card)"]}}},
    {"winners": {"ranking": {"purchased": {"by": "setup.gold"}}}},
    # two conjuncts, the first not the "colours available" aggregate the idiom looks for
    {
        "actions": {
            "take_different": {
                "condition": "(true) and size(picked) == min(take_count, count(supply[c] >= 1 for c in gems))"
            }
        }
    },
]


@pytest.mark.parametrize("changes", CLEAN_SHAPES, ids=range(len(CLEAN_SHAPES)))
def test_shapes_that_check_are_phrased(tmp_path, changes):
    assert phrase_outcome(tmp_path, variant_text(changes))


REFUSED_SHAPES = [  # each passed `check`, then ended `sheet` or `diff` with exit 3
    "supply[colour] >= 1 and supply == supply",
    "setup == setup",
    "none == none",
    "white in gems and none in gems",
    "me.tokens == me.tokens",
    "(if passes > 0 then me.tokens else supply)[white] >= 1",
    "gems == colours",
    "sum(1 for c in (if passes > 0 then gems else colours)) >= 1",
    "(if passes > 0 then me else me).prestige >= 1",
    "(if passes > 0 then white else none) == red",
    "size(if passes > 0 then gems else colours) >= 2",
]


@pytest.mark.parametrize("condition", REFUSED_SHAPES)
def test_shapes_that_cannot_be_phrased_are_refused(tmp_path, condition):
    spec = tmp_path / "mutant.yaml"
    spec.write_text(variant_text({"actions": {"take_pair": {"condition": condition}}}), encoding="utf-8")
    result = CliRunner().invoke(cli.main, ["check", str(spec)])
    assert result.exit_code == 1, result.output
    assert "error[E410]" in result.stderr and "^" in result.stderr, result.stderr
