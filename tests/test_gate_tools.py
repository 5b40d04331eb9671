"""`check` is the gate of every tool: what it accepts of the language-2 constructs works everywhere.

tests/test_gate.py holds `check` and `compile` to agreeing over mutants of the official spec; this
module mutates the Cities and the Trading Posts (variants/cities.yaml, variants/trading-posts.yaml)
with the constructs the official spec lacks -- kinds and their keywords, zones of every shape and
start, declared state (numbers, flags, colours, players, sets of colours and of components,
private ones), setup effects, definitions, prestige sources, a payment's worth, player_fields,
loops over the market's rows, zone effects -- and runs each mutant `check` accepts through every
tool: `compile`, `sheet` (Markdown and HTML in the four languages; one PDF), `diff`, `simulate`
with each kind of bot (random, greedy, mcts) and a record of its games, `play --replay` of that
record (play's path without a terminal), `ladder`, the Gymnasium and PettingZoo environments
(reset and a step), and `serve` (a table made, each seat's page, a move, the rules page and the
saved game, through Starlette's TestClient). None may exit 3 or print a traceback; a game may
stop on the engine's documented RuleError (E535, exit 1).

The mutants are drawn with a fixed seed: MUTANTS (6) check-clean ones, about 40 s on two cores. SPLENDOR_GATE_TOOLS_MUTANTS=N runs more, SPLENDOR_GATE_TOOLS_SEED=S another draw.
"""

from __future__ import annotations

import copy
import os
import pathlib
import random
import re
import urllib.parse

import pytest
import yaml
from click.testing import CliRunner

from app import cli

ROOT = pathlib.Path(__file__).resolve().parent.parent
MUTANTS = int(os.environ.get("SPLENDOR_GATE_TOOLS_MUTANTS", "6"))
SEED = int(os.environ.get("SPLENDOR_GATE_TOOLS_SEED", "139"))  # a draw that covers kinds, keywords, setup, worth


def _action(title: str, notation: str, condition: str, effects: list, choose: dict | None = None) -> dict:
    entry = {
        "add": True,
        "before": "pass",
        "title": title,
        "notation": notation,
        "condition": condition,
        "effects": effects,
    }
    if choose:
        entry["choose"] = choose
    return entry


def _variable(title: str, type_, **more) -> dict:
    return {"add": True, "title": title, "type": type_, **more}


_CITY = {"city": {"domain": "component", "from": "city_display"}}
_FIELD = {
    "player_fields": {"cities": {"add": True, "title": "Cities"}},
    "players": {2: {"cities": 2}, 3: {"cities": 3}, 4: {"cities": 3}},
}

# Changes of the Cities, each a piece of a variant of it (merged when a mutant takes several).
CITY_EDITS: dict[str, dict] = {
    "a display": {"zones": {"city_display": {"shape": "display"}}},
    "two on display": {"zones": {"city_display": {"size": 2}}},
    "a display sized by the player count": {**_FIELD, "zones": {"city_display": {"size": "setup.cities"}}},
    "a display that starts empty": {"zones": {"city_display": {"start": "empty"}}},
    "a limit on claims": {"zones": {"claimed": {"limit": 3}}},
    "a hand drawn unseen": {
        "zones": {
            "hand": {
                "add": True,
                "title": "Hand",
                "holds": "cities",
                "shape": "holding",
                "per_player": True,
                "limit": 2,
                "private_when_drawn": True,
            }
        },
        "actions": {
            "draw_city": _action(
                "Draw a city", "draw city", "size(city_pile) >= 1 and size(me.hand) < 2", ["draw(city_pile, me.hand)"]
            )
        },
    },
    "reveal a city": {
        "actions": {
            "reveal_city": _action("Reveal", "reveal", "size(city_display) < 3", ["reveal(city_pile, city_display)"])
        }
    },
    "refill the display": {
        "actions": {
            "refill_cities": _action("Refill", "refill cities", "size(city_pile) >= 1", ["refill(city_display)"])
        }
    },
    "a city to the bottom": {
        "actions": {
            "bury_city": _action(
                "Bury a city", "bury city {city}", "city.prestige >= 0", ["to_bottom(city, city_pile)"], _CITY
            )
        }
    },
    "a city discarded": {
        "actions": {
            "drop_city": _action(
                "Drop a city", "drop city {city}", "me.tokens[gold] >= 1", ["discard(city)", "put_back(gold, 1)"], _CITY
            )
        }
    },
    "a city chosen from the kind": {
        "end_of_turn": {
            "claim_city": {
                "choose": {"city": {"domain": "component", "from": "cities"}},
                "condition": "city in city_display and qualifies(me, city)",
            }
        }
    },
    "a city that may be declined": {
        "end_of_turn": {
            "claim_city": {
                "choose": {"city": {"optional": True}},
                "condition": "city == none or qualifies(me, city)",
                "effects": ["if city != none: move(city, me.claimed)"],
            }
        }
    },
    "a count of claims": {
        "state": {"claims": _variable("Claims", "number", per_player=True)},
        "end_of_turn": {"claim_city": {"effects": {"append": ["add(me.claims, 1)"]}}},
        "end": {"city_claimed": {"when": "me.claims >= 1"}},
    },
    "a private count": {
        "state": {"hoard": _variable("Hoard", "number", per_player=True, private=True)},
        "actions": {
            "take_pair": {"effects": {"append": ["add(me.hoard, 1)"]}},
            "reserve_face_up": {"condition": "me.reserved < reserve_limit and me.hoard >= 0"},
        },
    },
    "a set of cities": {
        "state": {"seen": _variable("Seen", {"set_of": "cities"}, per_player=True)},
        "end_of_turn": {"claim_city": {"effects": {"append": ["insert(me.seen, city)"]}}},
        "winners": {"eligible": "size(player.claimed) >= 1 and size(player.seen) >= 0"},
    },
    "a shared set of cities": {
        "state": {"shown": _variable("Shown", {"set_of": "cities"})},
        "actions": {"take_pair": {"effects": {"append": ["for c in city_display: insert(shown, c)"]}}},
    },
    "a colour remembered": {
        "state": {"last": _variable("Last", "gem", optional=True, reset="turn")},
        "actions": {
            "take_pair": {
                "effects": {"append": ["set(last, colour)"]},
                "condition": "supply[colour] >= pair_minimum and (last == none or last != colour)",
            }
        },
    },
    "a leader": {
        "state": {"leader": _variable("Leader", "player", initial=1)},
        "end_of_turn": {"claim_city": {"effects": {"append": ["set(leader, me)"]}}},
    },
    "a set of colours": {
        "state": {"taken": _variable("Taken", {"set_of": "colour"}, reset="turn")},
        "actions": {"take_different": {"effects": {"append": ["set(taken, picked)"]}}},
    },
    "a city each at setup": {
        "setup": {
            "deal": {
                "add": True,
                "title": "A city each",
                "each_player": True,
                "effects": ["draw(city_pile, me.claimed)"],
            }
        }
    },
    "gold at setup": {
        "setup": {
            "gold": {"add": True, "title": "Gold", "each_player": True, "effects": ["take(gold, 1)", "reserve_top(1)"]}
        }
    },
    "a definition of a city": {
        "define": {
            "worth_it": {
                "add": True,
                "title": "{city} is worth it",
                "params": {"city": "cities"},
                "is": "city.prestige <= 15",
            }
        },
        "end_of_turn": {"claim_city": {"condition": "qualifies(me, city) and worth_it(city)"}},
    },
    "a definition of a number": {
        "define": {
            "city_points": {
                "add": True,
                "title": "the cities of {p}",
                "params": {"p": "player"},
                "is": "sum(c.any_one_colour + 1 for c in p.claimed)",
            }
        },
        "prestige": {"cities": {"add": True, "title": "Cities", "by": "city_points(player) // 4"}},
    },
    "a prestige source": {"prestige": {"claims": {"add": True, "title": "Claims", "by": "size(player.claimed) * 3"}}},
    "a worth": {
        "actions": {"buy_face_up": {"choose": {"payment": {"worth": "if size(me.claimed) >= 1 then 2 else 1"}}}}
    },
    "a row swept": {
        "actions": {
            "sweep": _action(
                "Sweep",
                "sweep {level}",
                "all(card.points == 0 for card in market[level]) and deck[level] >= face_up[level]",
                ["for card in market[level]: bury(card); refill(card)"],
                {"level": {"domain": "deck"}},
            )
        }
    },
    "a row counted": {
        "actions": {
            "take_pair": {
                "condition": "supply[colour] >= pair_minimum and count(card.points >= 1 for card in market[2]) >= 0"
            }
        }
    },
    "every city at once": {"end_of_turn": {"claim_city": {"resolve": "all"}}},
    "every city taken": {
        "actions": {
            "take_cities": _action(
                "Take every city",
                "take cities",
                "size(city_display) >= 1 and me.tokens[gold] >= 1",
                ["for c in city_display: move(c, me.claimed)", "put_back(gold, 1)"],
            )
        }
    },
    "a city given back": {
        **{"zones": {"claimed": {"limit": 3}}},
        "actions": {
            "give_back": _action(
                "Give a city back",
                "give back {city}",
                "size(city_display) < 3",
                ["move(city, city_display)"],
                {"city": {"domain": "component", "from": "claimed"}},
            )
        },
    },
    "a private flag": {
        "state": {"claimed_once": _variable("Claimed once", "flag", per_player=True, private=True)},
        "end_of_turn": {"claim_city": {"effects": {"append": ["set(me.claimed_once, true)"]}}},
        "actions": {"take_pair": {"condition": "supply[colour] >= pair_minimum and not me.claimed_once"}},
    },
    "a private set of colours": {
        "state": {"wanted": _variable("Wanted", {"set_of": "gem"}, per_player=True, private=True)},
        "actions": {
            "take_pair": {
                "effects": {"append": ["insert(me.wanted, colour)"]},
                "condition": "supply[colour] >= pair_minimum and colour not in me.wanted",
            }
        },
    },
    "a set of cities dropped": {
        "state": {"seen": _variable("Seen", {"set_of": "cities"}, per_player=True)},
        "end_of_turn": {
            "claim_city": {"effects": {"append": ["insert(me.seen, city)", "for c in me.seen: drop(me.seen, c)"]}}
        },
    },
    "a worth on reserved cards": {
        "actions": {"buy_reserved": {"choose": {"payment": {"worth": "if size(me.claimed) >= 1 then 2 else 1"}}}}
    },
    "an optional city to take": {
        "actions": {
            "take_city": _action(
                "Take a city",
                "take city [{city}]",
                "city == none or city.prestige <= me.prestige",
                ["if city != none: move(city, me.claimed)"],
                {"city": {"domain": "component", "from": "city_display", "optional": True}},
            )
        }
    },
    "a ranking by claims": {
        "winners": {
            "ranking": {"claims": {"add": True, "title": "Claims", "by": "size(player.claimed)", "prefer": "highest"}}
        }
    },
}

# Changes (alone or together) that still fail a tool, left out of the draw until they are fixed (each
# reported): `refill(ZONE)` makes `sheet` and `diff` exit 3 (issue 26, item 12: PhraseError: cannot
# phrase Name as a number); a display that starts empty has no slots, so the engine's from_json refuses
# its own to_json ("zones.city_display has 0 slots, 2 players have 3") and `simulate --bots mcts`, which
# deals its worlds through from_json, exits 3 (issue 26, item 16).
FAILING = [{"refill the display"}, {"a display", "a display that starts empty"}]

# Changes of the Trading Posts.
POST_EDITS: dict[str, dict] = {
    "private posts": {"state": {"markers": {"private": True}}},
    "gold worth two with a noble": {
        "actions": {
            "buy_face_up": {
                "choose": {
                    "payment": {"worth": "if has_power(me, 'gold_counts_double') and me.nobles >= 1 then 2 else 1"}
                }
            }
        }
    },
    "another keyword": {
        "end_of_turn": {
            "gem_after_purchase": {"condition": "bought and has_power(me, 'five_prestige') and supply[colour] >= 1"}
        }
    },
    "a keyword compared": {
        "end_of_turn": {
            "open_posts": {
                "condition": "post not in me.markers and post.power != 'five_prestige' and me.nobles >= post.nobles"
            }
        }
    },
    "posts chosen one by one": {"end_of_turn": {"open_posts": {"resolve": "choice"}}},
    "double prestige per post": {"prestige": {"fifth_post": {"by": "size(player.markers) * 2"}}},
    "a count of powers": {
        "define": {
            "powers": {
                "add": True,
                "title": "the powers {power} of {p}",
                "params": {"p": "player", "power": "posts.power"},
                "is": "count(t.power == power for t in p.markers)",
            }
        },
        "prestige": {"fourth_post": {"by": "powers(player, 'five_prestige') * 5"}},
    },
    "a gem each at setup": {
        "setup": {
            "first": {
                "add": True,
                "title": "A gem each",
                "each_player": True,
                "effects": ["take(red, 1)", "set(paired, red)"],
            }
        }
    },
    "a post given back": {
        "actions": {"take_pair": {"effects": {"append": ["for t in me.markers: if t.space == 5: drop(me.markers, t)"]}}}
    },
    "a row of posts": {
        "zones": {
            "post_pile": {"add": True, "title": "Posts", "holds": "posts", "shape": "pile", "start": "all"},
            "post_row": {
                "add": True,
                "title": "Open posts",
                "holds": "posts",
                "shape": "row",
                "size": 3,
                "source": "post_pile",
                "start": "dealt",
            },
        },
        "end_of_turn": {"open_posts": {"choose": {"post": {"from": "post_row"}}}},
    },
    "a pair colour of any colour": {"state": {"paired": {"type": "colour"}}},
    "a keyword passed": {
        "define": {
            "has_any": {
                "add": True,
                "title": "{p} holds {power} or more",
                "params": {"p": "player", "power": "posts.power"},
                "is": "has_power(p, power) or size(p.markers) >= 5",
            }
        },
        "end_of_turn": {
            "gem_after_purchase": {
                "condition": "bought and supply[colour] >= 1 and has_any(me, 'extra_gem_after_purchase')"
            }
        },
    },
    "a private pair colour": {
        "state": {"pair": _variable("Pair", "gem", per_player=True, private=True, optional=True)},
        "actions": {"take_pair": {"effects": {"append": ["set(me.pair, colour)"]}}},
        "end_of_turn": {
            "third_token": {
                "condition": "me.pair != none and colour != me.pair "
                "and has_power(me, 'third_token_with_pair') and "
                "supply[colour] >= 1"
            }
        },
    },
    "posts for everyone": {
        "state": {"opened": _variable("Opened", {"set_of": "posts"})},
        "end_of_turn": {"open_posts": {"effects": {"append": ["insert(opened, post)"]}}},
    },
}

# A kind of the mutants' own, written beside them: a keyword column, a gem and a number.
CHARMS_CSV = "name,power,colour,gain\nowl,watch,red,1\nfox,trick,blue,2\nbear,watch,green,0\nhare,run,white,1\n"
CHARMS = {
    "kinds": {
        "charms": {
            "add": True,
            "title": "Charms",
            "item": "charm",
            "table": "charms.csv",
            "columns": {"name": "prose", "power": "keyword", "colour": "gem", "gain": "number"},
        }
    },
    "zones": {
        "charm_pile": {"add": True, "title": "Charms", "holds": "charms", "shape": "pile", "start": "all"},
        "charm_row": {
            "add": True,
            "title": "Open charms",
            "holds": "charms",
            "shape": "row",
            "size": 2,
            "source": "charm_pile",
            "start": "dealt",
        },
        "charms_held": {
            "add": True,
            "title": "Charms held",
            "holds": "charms",
            "shape": "holding",
            "per_player": True,
            "limit": 4,
        },
    },
    "actions": {
        "take_charm": _action(
            "Take a charm",
            "charm {charm}",
            "charm.power != 'run' and supply[charm.colour] >= 1",
            ["move(charm, me.charms_held)", "take(charm.colour, 1)", "reveal(charm_pile, charm_row)"],
            {"charm": {"domain": "component", "from": "charm_row"}},
        )
    },
    "prestige": {"charms": {"add": True, "title": "Charms", "by": "sum(x.gain for x in player.charms_held)"}},
}

# Changes either may take.
COMMON_EDITS: dict[str, dict] = {
    "a kind of charms": CHARMS,
    "a target of 10": {"values": {"target": 10}},
    "a player-count field read": {
        **_FIELD,
        "actions": {
            "reserve_blind": {"condition": "me.reserved < reserve_limit and deck[level] >= 1 and setup.cities >= 1"}
        },
    },
    "a flag for the turn": {
        "state": {"acted": _variable("Acted", "flag", reset="turn")},
        "actions": {"take_pair": {"effects": {"append": ["set(acted, true)"]}}},
    },
}

BASES = {"cities": CITY_EDITS, "trading-posts": POST_EDITS}


def _merge(into: dict, change: dict) -> None:
    for key, value in change.items():
        if isinstance(value, dict) and isinstance(into.get(key), dict):
            _merge(into[key], value)
        else:
            into[key] = copy.deepcopy(value)


def mutant(rng: random.Random) -> tuple[str, list[str], str]:
    """(base, the names of its changes, the text of a variant of it with one to three changes)."""
    base = rng.choice(sorted(BASES))
    edits = {**BASES[base], **COMMON_EDITS}
    names = rng.sample(sorted(edits), rng.randint(1, 3))
    while any(failing <= set(names) for failing in FAILING):
        names = rng.sample(sorted(edits), rng.randint(1, 3))
    doc: dict = {"spec": 1, "name": "mutant", "extends": base, "title": "Mutant"}
    for name in names:
        _merge(doc, edits[name])
    return base, names, yaml.safe_dump(doc, sort_keys=False, allow_unicode=True, width=1000)


def invoke(*args: str, ok=(0,)) -> str:
    """Run the CLI in-process: an exit status among `ok`, never an internal error or a traceback."""
    result = CliRunner().invoke(cli.main, list(args))
    shown = f"{' '.join(args)}: exit status {result.exit_code}\n{result.output}"
    assert result.exception is None or isinstance(result.exception, SystemExit), (shown, repr(result.exception))
    assert "Traceback" not in result.output and "internal error" not in result.output, shown
    assert result.exit_code in ok, shown
    return result.output


def played(output: str) -> bool:
    """Did a game run without the engine's RuleError (E535, exit 1)?"""
    return "error[E535]" not in output


def every_tool(spec: pathlib.Path, base: str, tmp: pathlib.Path, pdf: bool = False) -> None:
    """`spec` (which `check` accepts) through every tool; see the module's docstring."""
    invoke("compile", str(spec), "-o", str(tmp / "engines"))
    module = tmp / "engines" / "mutant.py"
    invoke("sheet", str(spec), "--format", "md,html", "-o", str(tmp / "sheets"))
    if pdf:
        invoke("sheet", str(spec), "--lang", "en", "--format", "pdf", "-o", str(tmp / "sheets"))
    invoke("diff", base, str(spec), ok=(0, 1))
    record = tmp / "games.jsonl"
    for bots in ("random", "greedy", "mcts:4"):
        out = invoke(
            "simulate",
            str(module),
            "--games",
            "1",
            "--bots",
            bots,
            "--max-turns",
            "6",
            "--jobs",
            "1",
            "--seed",
            "3",
            "--games-out",
            str(record),
            ok=(0, 1),
        )
        if bots == "random" and played(out):
            invoke("play", str(module), "--replay", str(record), "--game", "0", ok=(0, 1))
    invoke(
        "ladder", str(module), "--bots", "random,greedy", "--games", "1", "--max-turns", "6", "--jobs", "1", ok=(0, 1)
    )
    rl_step(module)
    serve(spec, tmp)


def rl_step(module: pathlib.Path) -> None:
    """The Gymnasium and PettingZoo environments: a reset and a step of a legal action."""
    from playtest import rl

    env = rl.SplendorEnv(str(module), opponents="random", max_turns=6)
    engine = env.module
    try:
        _, info = env.reset(seed=1)
        legal = info["action_mask"].nonzero()[0]
        if len(legal):
            env.step(int(legal[0]))
        aec = rl.aec_env(engine=str(module), max_turns=6)
        aec.reset(seed=1)
        mask = aec.observe(aec.agent_selection)["action_mask"]
        aec.step(int(mask.nonzero()[0][0]))
    except engine.RuleError:  # documented: an effect the game cannot carry out
        pass


def serve(spec: pathlib.Path, tmp: pathlib.Path) -> None:
    """A table of the mutant on the web table: made, each seat's page and view, a move, the rules page
    and the saved game."""
    from starlette.testclient import TestClient

    from web import catalogue, server
    from web.quotas import Quotas

    variants = catalogue.load([str(spec)])
    quotas = Quotas(tables_per_address="10000/second", requests_per_address="10000/second")
    app = server.make_app(variants, str(tmp / "tables.sqlite3"), bot_delay=0.0, bot_workers=0, quotas=quotas)
    with TestClient(app) as c:
        made = c.post("/api/tables", json={"spec": "mutant", "players": 2, "seats": ["human", "human"], "seed": 4})
        if made.status_code != 201:  # a setup the engine cannot carry out is refused with a sentence
            assert made.status_code < 500, made.text
            return
        links = [s["link"] for s in made.json()["seats"]]
        for link in links:
            page = c.get(link)
            assert page.status_code == 200, (link, page.text)
        apis = ["/api/tables/{}/seats/{}/{}".format(*urllib.parse.urlparse(link).path.split("/")[2:]) for link in links]
        for api in apis:
            legal = c.get(api).json()["legal"]
            if legal:
                moved = c.post(api + "/actions", json={"action": legal[0]})
                assert moved.status_code < 500, moved.text
        for api in apis:
            view = c.get(api)
            assert view.status_code == 200, (api, view.text)
        saved = c.get(apis[0] + "/game.json")
        assert saved.status_code in (200, 409), saved.text  # 409: the game is not over
        for lang in ("en", "sr"):
            sheet = c.get(f"/rules/mutant/{lang}")
            assert sheet.status_code == 200, (lang, sheet.text)


def draw(count: int, seed: int) -> list[tuple[str, list[str], str]]:
    """`count` mutants `check` accepts, drawn in order with `seed` (and every refused one's names skipped)."""
    rng, out = random.Random(seed), []
    for _ in range(count * 20):
        base, names, text = mutant(rng)
        if (base, names) not in [(b, n) for b, n, _ in out]:
            out.append((base, names, text))
        if len(out) >= count * 3:
            break
    return out


@pytest.fixture
def workdir(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("SPLENDOR_RULES_CACHE", str(tmp_path / "cache"))
    return tmp_path


def test_every_mutant_check_accepts_works_in_every_tool(workdir):
    clean = 0
    for i, (base, names, text) in enumerate(draw(MUTANTS, SEED)):
        if clean >= MUTANTS:
            break
        spec = workdir / f"m{i}" / "mutant.yaml"
        spec.parent.mkdir()
        (spec.parent / "charms.csv").write_text(CHARMS_CSV, encoding="utf-8")
        spec.write_text(text, encoding="utf-8")
        checked = CliRunner().invoke(cli.main, ["check", str(spec)])
        assert checked.exit_code in (0, 1), checked.output
        assert "Traceback" not in checked.output and "internal error" not in checked.output, checked.output
        if checked.exit_code:
            continue
        try:
            every_tool(spec, base, spec.parent, pdf=clean == 0)
        except AssertionError as err:
            raise AssertionError(f"{base} with {names}:\n{text}\n{err}") from None
        clean += 1
    assert clean >= min(MUTANTS, 6), f"only {clean} mutants checked clean"


def test_the_edits_check_clean_alone(tmp_path):
    """Each change alone is a spec `check` accepts (but the ones meant to be refused), so the mutants
    combine constructs that work, not mistakes."""
    refused = {"private posts"}  # the prestige sources read the posts: E558
    found = {}
    for base, edits in [*BASES.items(), *(("cities", {n: e}) for n, e in COMMON_EDITS.items())]:
        for name, edit in edits.items():
            doc: dict = {"spec": 1, "name": "mutant", "extends": base, "title": "Mutant"}
            _merge(doc, edit)
            (tmp_path / "charms.csv").write_text(CHARMS_CSV, encoding="utf-8")
            path = tmp_path / f"{re.sub(r'[^a-z]+', '_', name)}.yaml"
            path.write_text(yaml.safe_dump(doc, sort_keys=False, allow_unicode=True), encoding="utf-8")
            result = CliRunner().invoke(cli.main, ["check", str(path)])
            found[name] = result.exit_code
            assert result.exit_code in (0, 1) and "Traceback" not in result.output, (name, result.output)
    assert {n for n, status in found.items() if status} == refused, found


# The test specs of the constructs added since (issue 28): queued steps -- `queue(STEP, name: value)`,
# a step's `given:` and `limit:` (tests/specs/queue.yaml) --, a payment's `wilds: {from, units,
# spent}` over a kind of the spec's own (tests/specs/treasures.yaml, with its table), the base
# game's rows and decks as places split by level, chosen from and across (tests/specs/base-rows.yaml),
# columns of its own on the base cards and nobles (tests/specs/card-abilities.yaml, with its tables),
# zones of a kind of the spec's own split by a column, `by: level` (tests/specs/relics.yaml, with its table),
# a series of the base cards with decks and rows of its own (tests/specs/card-series.yaml, with its table),
# and The Orient's abilities: a card's bonus colour set in play, nobles kept aside, sacrifices
# (tests/specs/orient-abilities.yaml, with its table).
NEW_CONSTRUCT_SPECS = {
    "queue.yaml": [],
    "treasures.yaml": ["treasures.csv"],
    "base-rows.yaml": [],
    "card-abilities.yaml": ["card-abilities.csv", "card-abilities-nobles.csv"],
    "relics.yaml": ["relics.csv"],
    "orient-abilities.yaml": ["orient-abilities.csv"],
    "card-series.yaml": ["east-cards.csv"],
}


@pytest.mark.parametrize("name", sorted(NEW_CONSTRUCT_SPECS))
def test_the_specs_of_new_constructs_work_in_every_tool(workdir, name):
    specs = ROOT / "tests" / "specs"
    for table in NEW_CONSTRUCT_SPECS[name]:
        (workdir / table).write_text((specs / table).read_text(encoding="utf-8"), encoding="utf-8")
    text = re.sub(r"(?m)^name: .*$", "name: mutant", (specs / name).read_text(encoding="utf-8"), count=1)
    spec = workdir / "mutant.yaml"
    spec.write_text(text, encoding="utf-8")
    assert invoke("check", str(spec)).startswith(f"{spec}: ok"), name
    every_tool(spec, "official", workdir)
