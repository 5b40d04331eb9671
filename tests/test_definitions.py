"""Definitions (`define`) and prestige sources (`prestige`): checked (E540, E550, E554, calls
typed E408/E410, E604 on a title), inlined by the lowering, counted in every total of prestige
(the end trigger, the ranking, scores()), phrased by title on the sheets and reported by diff.

Diagnostics come from the catalogue's clean spec with one change, written beside its tables;
behaviour from variants/rainbow.yaml's generated engine against the official one.
"""

from __future__ import annotations

import json
import pathlib
import random
import re
import shutil

import pytest

from compiler import diff, pipeline
from compiler.check.inlining import inline_all
from compiler.check.types import GEM, INT, PLAYER
from compiler.diagnostics import CompileError, SourceMap
from compiler.emit.engine import render_module
from compiler.front.expr import Origin, parse_expr, unparse
from compiler.lower import lower
from compiler.model import Definition, Text
from compiler.sheets.lint import lint_definition_titles
from tests.helpers.engines import ROOT, give_card, load, load_engine, position

CLEAN = (ROOT / "tests" / "broken" / "_clean.yaml").read_text(encoding="utf-8")
ENGINES = ROOT / "generated" / "engines"
SHEETS = ROOT / "generated" / "sheets"
END = "end:\n  target:"
RICH = """define:
  rich:
    title: {en: "{p} is rich", fr: "{p} est riche", nl: "{p} rijk is", sr: "{p} је богат"}
    params: {p: player}
    is: p.tokens[gold] >= 2
"""


@pytest.fixture
def folder(tmp_path: pathlib.Path) -> pathlib.Path:
    for name in ("splendor_cards.csv", "splendor_nobles.csv"):
        shutil.copy(ROOT / "rulespec" / name, tmp_path / name)
    return tmp_path


def spec(*changes: tuple[str, str], sections: str = "") -> str:
    """The clean spec with `sections` before its end triggers and each (old, new) replaced once."""
    text = CLEAN.replace("../../rulespec/", "").replace(END, sections + END, 1)
    for old, new in changes:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    return text


def check(folder: pathlib.Path, text: str):
    """The rules of a clean spec, or the diagnostics of a broken one."""
    (folder / "spec.yaml").write_text(text, encoding="utf-8")
    try:
        return pipeline.load_rules(str(folder / "spec.yaml"), SourceMap())
    except CompileError as err:
        return err.diagnostics


def problems(folder, *changes, sections: str = "") -> list[tuple[str, str]]:
    found = check(folder, spec(*changes, sections=sections))
    assert isinstance(found, list), "the spec checked clean"
    return [(d.code, d.message) for d in found]


# --------------------------------------------------------------------------- diagnostics


def test_a_definition_reading_me_is_e550_with_the_fix(folder):
    found = check(folder, spec(sections="define:\n  rich:\n    title: rich\n    is: me.tokens[gold] >= 2\n"))
    [d] = found
    assert (d.code, d.message) == (
        "E550",
        "definition 'rich' reads 'me': a definition reads its parameters and "
        "the game's names only, so that it means the same wherever it is called",
    )
    assert d.notes == ("give it a parameter `p: player` and call it as rich(me)",)
    assert (d.span.line, d.span.end_col - d.span.col) == (94, 2)


def test_a_definition_reading_player_is_e550_but_a_loop_may_bind_player(folder):
    assert problems(
        folder,
        sections="define:\n  top:\n    title: '{n} tops'\n    params: {n: number}\n    is: player.prestige >= n\n",
    ) == [
        (
            "E550",
            "definition 'top' reads 'player': a definition reads its parameters and the game's names only, "
            "so that it means the same wherever it is called",
        )
    ]
    rules = check(
        folder,
        spec(
            sections="define:\n  leader:\n    title: some player leads\n"
            "    is: any(player.prestige >= 10 for player in players)\n"
        ),
    )
    assert [d.name for d in rules.definitions] == ["leader"]


def test_recursion_is_e550_directly_and_through_another(folder):
    direct = "define:\n  loop:\n    title: '{n}'\n    params: {n: number}\n    is: loop(n) + 1\n"
    assert problems(folder, sections=direct) == [
        (
            "E550",
            "definition 'loop' calls itself: a definition is written out where it is called, so it cannot be recursive",
        )
    ]
    mutual = (
        "define:\n  a:\n    title: '{n}'\n    params: {n: number}\n    is: b(n)\n"
        "  b:\n    title: '{n}'\n    params: {n: number}\n    is: a(n) * 2\n"
    )
    assert [m for _, m in problems(folder, sections=mutual)] == [
        "definition 'a' calls itself (through 'b'): a definition is written out where it is called, so it cannot "
        "be recursive",
        "definition 'b' calls itself (through 'a'): a definition is written out where it is called, so it cannot "
        "be recursive",
    ]


def test_a_call_is_typed_count_and_arguments(folder):
    found = problems(folder, ("when: me.prestige >= target", "when: rich(me, 2) or rich(3)"), sections=RICH)
    assert found == [
        ("E408", "'rich' takes 1 argument (2 given)"),
        ("E410", "argument 'p' of 'rich' must be a player, but this is a number"),
    ]


def test_a_call_gives_the_type_of_its_body(folder):
    found = problems(folder, ("when: me.prestige >= target", "when: rich(me) + 1 >= target"), sections=RICH)
    assert found == [("E410", "the left side of '+' must be a number, but this is a condition")]


def test_a_definition_named_like_something_else_is_e540(folder):
    def named(name, params="{}"):
        return problems(folder, sections=f"define:\n  {name}:\n    title: x\n    params: {params}\n    is: '1'\n")

    assert named("size") == [
        (
            "E540",
            "'size' is already the name of a built-in function (size(...)): choose another name for this definition",
        )
    ]
    assert named("red") == [
        ("E540", "'red' is already the name of a gem colour: choose another name for this definition")
    ]
    assert named("target") == [
        ("E540", "'target' is already the name of a value: choose another name for this definition")
    ]
    assert named("take") == [
        ("E540", "'take' is already the name of an effect (take(...)): choose another name for this definition")
    ]
    assert named("x", "{supply: number}") == [
        (
            "E540",
            "'supply' is already the name of a name of the game (rulespec/README.md, Names): choose another "
            "name for this parameter of 'x'",
        )
    ]


def test_a_parameter_type_is_one_of_the_words(folder):
    assert problems(folder, sections="define:\n  x:\n    title: '{p}'\n    params: {p: person}\n    is: '1'\n") == [
        (
            "E106",
            "parameter 'p' in definition 'x' must have a type: one of number, flag, gem, colour, player, card, "
            "noble, cards, nobles",
        )
    ]


def test_a_definition_gives_a_value_the_sheets_can_phrase(folder):
    assert problems(
        folder, sections="define:\n  hand:\n    title: '{p}'\n    params: {p: player}\n    is: p.tokens\n"
    ) == [
        (
            "E410",
            "definition 'hand' must give a number, a condition, a colour or a player, but this is a table of "
            "numbers by token colour",
        )
    ]


def test_a_prestige_source_is_a_number_e554(folder):
    assert problems(folder, sections="prestige:\n  w:\n    title: W\n    by: player.tokens[gold] >= 3\n") == [
        ("E554", "prestige source 'w' must be a number of prestige, but this is a condition")
    ]


def test_a_prestige_source_reading_prestige_is_e554_even_through_a_definition(folder):
    sections = (
        "define:\n  half:\n    title: '{p}'\n    params: {p: player}\n    is: p.prestige // 2\n"
        "prestige:\n  w:\n    title: W\n    by: half(player)\n"
    )
    assert problems(folder, sections=sections) == [
        ("E554", "prestige source 'w' reads prestige, which it is part of: the total would be defined by itself")
    ]


def test_a_prestige_source_reads_player_only(folder):
    assert problems(folder, sections="prestige:\n  w:\n    title: W\n    by: me.turns\n")[0][0] == "E401"


def test_bounds_see_through_a_call(folder):
    never = "define:\n  huge:\n    title: huge\n    is: setup.gems >= 50\n"
    found = problems(
        folder,
        (
            "condition: all(me.bonus[c] >= noble.requires[c] for c in gems)",
            "condition: huge() and all(me.bonus[c] >= noble.requires[c] for c in gems)",
        ),
        sections=never,
    )
    assert found == [
        ("E507", "step 'noble_visit' can never be taken: this condition never holds in any game under this spec")
    ]


def test_a_trigger_out_of_reach_counts_a_bounded_source_and_not_an_unbounded_one(folder):
    bounded = "prestige:\n  bonus:\n    title: B\n    by: if player.turns > 5 then 3 else 0\n"
    far = ("when: me.prestige >= target", "when: me.prestige >= 200")
    assert [c for c, _ in problems(folder, far, sections=bounded)] == ["E509"]
    unbounded = "prestige:\n  time:\n    title: T\n    by: player.turns\n"
    assert not isinstance(check(folder, spec(far, sections=unbounded)), list)


def test_a_title_whose_placeholders_are_not_the_parameters_is_e604():
    d = Definition(
        "rich",
        Text("{q} is rich", (("fr", "{p} est riche"),)),
        (("p", PLAYER),),
        parse_expr("p.turns >= 1", Origin.plain("x", 1, 1, "p.turns >= 1")),
        INT,
        None,
    )

    class Rules:
        definitions = (d,)
        spans: dict = {}

    [found] = lint_definition_titles(Rules())
    assert (found.code, found.message) == (
        "E604",
        "the en title of definition 'rich' lacks {p} and has {q}, which is not a parameter",
    )


# --------------------------------------------------------------------------- inlining


def _parse(text: str):
    return parse_expr(text, Origin.plain("t", 1, 1, text))


def test_inlining_substitutes_arguments_and_renames_loop_variables_apart():
    better = Definition(
        "better",
        Text("{p} {k}"),
        (("p", PLAYER), ("k", GEM)),
        _parse("all(p.bonus[k] >= p.bonus[c] for c in gems)"),
        INT,
        None,
    )
    node = inline_all(_parse("any(better(me, c) for c in gems)"), {"better": better})
    assert unparse(node) == "any(all(me.bonus[c] >= me.bonus[c2] for c2 in gems) for c in gems)"
    untouched = _parse("me.prestige >= 3")
    assert inline_all(untouched, {"better": better}) is untouched


def test_the_engine_has_no_call_and_is_the_body_written_out(folder):
    """The same engine, but for comments and headers, as the spec with the body written in place."""
    with_call = spec(("when: me.prestige >= target", "when: me.prestige >= target or rich(me)"), sections=RICH)
    written = spec(("when: me.prestige >= target", "when: me.prestige >= target or me.tokens[gold] >= 2"))
    engines = []
    for text in (with_call, written):
        rules = check(folder, text)
        assert not isinstance(rules, list)
        engines.append(render_module(lower(rules)))
    code = [line for line in engines[0].splitlines() if not line.lstrip().startswith("#")]
    assert not any("rich(" in line.split("#")[0] for line in code)
    strip = [
        [line.split("#")[0] for line in e.splitlines() if "sha256" not in line and "SHA256" not in line]
        for e in engines
    ]
    assert [a for a, b in zip(*strip, strict=True) if a != b] == []


def test_the_rainbow_engine_inlines_has_rainbow():
    code = (ENGINES / "rainbow.py").read_text(encoding="utf-8")
    assert "has_rainbow(" not in "\n".join(line.split("#")[0] for line in code.splitlines())
    assert "g._pts[me] + _xp(g, me) >= 15" in code


def test_an_engine_without_sources_keeps_the_prestige_it_had():
    """Its prestige hook is the list the effects keep (Game.prestige as before: no copy, no sum)."""
    code = (ENGINES / "official.py").read_text(encoding="utf-8")
    assert "_xp" not in code
    assert (
        'def _prestige_totals(g):\n    """Each seat\'s prestige: its cards and nobles."""\n    return g._pts\n' in code
    )


# --------------------------------------------------------------------------- behaviour


@pytest.fixture(scope="module")
def engines():
    return load_engine(ENGINES / "official.py"), load_engine(ENGINES / "rainbow.py")


def _rainbow_position(E):
    """Two players; seat 0 holds one card of each gem colour and 12 or 13 prestige in cards."""
    state = position(E, 2, seed=4)
    chosen: list[int] = []
    for colour in E.GEMS:
        chosen.append(max((c for c in E.CARDS if c.bonus == colour and c.level == 1), key=lambda c: c.points).id)
    total = sum(E.CARDS[c].points for c in chosen)
    for card in sorted(E.CARDS, key=lambda c: -c.points):
        if card.id not in chosen and total + card.points <= 13:
            chosen.append(card.id)
            total += card.points
        if total >= 12:
            break
    assert 12 <= total <= 13
    give_card(E, state, 0, *chosen)
    return state, total


def _take(game, E):
    """The first legal taking of tokens (the turn ends without a purchase)."""
    game.apply(next(a for a in game.legal_actions() if E.ACTION_STRINGS[a].startswith("take ")))


def test_rainbow_prestige_ends_the_game_and_wins(engines):
    official, rainbow = engines
    (base_state, cards), (state, _) = _rainbow_position(official), _rainbow_position(rainbow)
    base, game = load(official, base_state), load(rainbow, state)
    assert base.prestige[0] == cards and game.prestige[0] == cards + 3
    assert game.scores() == [cards + 3, 0] and base.scores() == [cards, 0]
    _take(base, official)
    _take(game, rainbow)
    assert base.ending is None
    assert game.ending is not None and game.ending[0] == "target"
    _take(game, rainbow)  # the second seat completes the round
    assert game.is_over() and game.winners() == [0] and game.scores()[0] >= 15


def test_rainbow_ranking_counts_the_source(engines):
    _, rainbow = engines
    state, cards = _rainbow_position(rainbow)
    game = load(rainbow, state)
    assert rainbow._rank_key(game, 0)[0] == cards + 3
    assert rainbow._rank_key(game, 1)[0] == 0


def test_rainbow_plays_random_games_and_replays(engines):
    _, rainbow = engines
    for seed in (1, 2):
        game, rng = rainbow.new_game(3, seed), random.Random(seed)
        while not game.is_over() and game.turn < 400:
            game.apply(rng.choice(game.legal_actions()))
        rainbow_bonus = [3 if all(b >= 1 for b in game.bonus[p]) else 0 for p in range(3)]
        assert game.scores() == [game._pts[p] + rainbow_bonus[p] for p in range(3)]
        assert rainbow.replay(game.record()).to_json() == game.to_json()


# --------------------------------------------------------------------------- sheets and diff


@pytest.mark.parametrize(
    "lang,line",
    [
        (
            "en",
            "**Rainbow**: A player's prestige also includes 3 prestige points if the player has a bonus of every gem "
            "colour; it counts wherever prestige does (the end of the game and the winner).",
        ),
        (
            "fr",
            "**Arc-en-ciel** : Le prestige d'un joueur comprend aussi 3 points de prestige si le joueur a un bonus de "
            "chaque couleur de gemme ; il compte partout où compte le prestige (la fin de la partie et le vainqueur).",
        ),
        (
            "nl",
            "**Regenboog**: Het prestige van een speler omvat ook 3 prestigepunten als de speler over een bonus in elke "
            "edelsteenkleur beschikt; dat telt overal waar prestige telt (het einde van het spel en de winnaar).",
        ),
        (
            "sr",
            "**Дуга**: Престиж играча обухвата и 3 поена престижа ако играч има бонус сваке боје драгуља; то се рачуна "
            "свуда где и престиж (за крај игре и за победника).",
        ),
    ],
)
def test_the_sheets_phrase_the_source_and_the_call_by_its_title(lang, line):
    text = (SHEETS / f"rainbow.{lang}.md").read_text(encoding="utf-8")
    assert line in text


@pytest.mark.parametrize(
    "lang,line",
    [
        (
            "en",
            "“the player has a bonus of every gem colour” means: for each gem colour, the player has at least 1 "
            "bonus of that colour.",
        ),
        (
            "fr",
            "« le joueur a un bonus de chaque couleur de gemme » signifie : pour chaque couleur de gemme, le joueur "
            "a au moins 1 bonus de cette couleur.",
        ),
        (
            "nl",
            "Dat de speler over een bonus in elke edelsteenkleur beschikt, wil zeggen: voor elke edelsteenkleur geldt dat de "
            "speler minstens 1 bonus van die kleur heeft.",
        ),
        (
            "sr",
            "„играч има бонус сваке боје драгуља“ значи: за сваку боју драгуља важи да играч има најмање 1 бонус те "
            "боје.",
        ),
    ],
)
def test_the_sheets_list_the_definition_with_its_meaning(lang, line):
    assert line in (SHEETS / f"rainbow.{lang}.md").read_text(encoding="utf-8")


def test_a_call_in_a_condition_reads_as_the_title(folder):
    from compiler.sheets.phrases import describe

    rules = check(
        folder, spec(("when: me.prestige >= target", "when: me.prestige >= target or rich(me)"), sections=RICH)
    )
    when = rules.end[0].when
    assert describe(when, "en", rules) == "you have 15 or more prestige points or the player is rich"
    assert describe(when, "nl", rules).endswith("of de speler rijk is")


def _diff(lang: str) -> str:
    official = pipeline.load_rules(str(ROOT / "rulespec" / "official.yaml"))
    rainbow = pipeline.load_rules(str(ROOT / "variants" / "rainbow.yaml"))
    return diff.render(diff.compare(official, rainbow), official, rainbow, lang)


@pytest.mark.parametrize(
    "lang,lines",
    [
        (
            "en",
            [
                "Definitions",
                "- Added: the definition has_rainbow  (variants/rainbow.yaml:13)",
                "    parameters: p: player",
                "    means: for each gem colour, the player has at least 1 bonus of that colour",
                "Prestige sources",
                '- Added: the prestige source "Rainbow" (rainbow)  (variants/rainbow.yaml:28)',
                "    prestige: 3 if the player has a bonus of every gem colour, otherwise 0",
            ],
        ),
        (
            "fr",
            [
                "Définitions",
                "- Ajout : la définition has_rainbow  (variants/rainbow.yaml:13)",
                "Sources de prestige",
                "    prestige : 3 si le joueur a un bonus de chaque couleur de gemme, sinon 0",
            ],
        ),
        (
            "nl",
            [
                "Definities",
                "Prestigebronnen",
                "    prestige: 3 als de speler over een bonus in elke edelsteenkleur beschikt, anders 0",
            ],
        ),
        ("sr", ["Дефиниције", "Извори престижа", "    престиж: 3 ако играч има бонус сваке боје драгуља, иначе 0"]),
    ],
)
def test_diff_reports_definitions_and_sources(lang, lines):
    text = _diff(lang).splitlines()
    for line in lines:
        assert line in text, line


def test_diff_reports_a_changed_definition_body(folder):
    before = check(folder, spec(sections=RICH))
    after_text = spec(sections=RICH.replace(">= 2", ">= 3"))
    (folder / "after.yaml").write_text(after_text, encoding="utf-8")
    after = pipeline.load_rules(str(folder / "after.yaml"))
    text = diff.render(diff.compare(before, after), before, after, "en")
    assert "- The definition rich" in text
    assert f"      before: the player holds 2 or more gold tokens  ({folder / 'spec.yaml'}:95)" in text
    assert f"      after: the player holds 3 or more gold tokens  ({folder / 'after.yaml'}:95)" in text


def test_the_rl_observation_encodes_the_total_prestige(engines):
    from playtest import rl

    _, rainbow = engines
    state, cards = _rainbow_position(rainbow)
    game = load(rainbow, state)
    encoder = rl.Encoder(rainbow, 2)
    [field] = [f for f in encoder.fields if f.name == "seat[0]"]
    prestige_at = field.start + len(rainbow.COLOURS) + len(rainbow.GEMS)
    vector = encoder.encode(game.observation(0), game.prestige)
    assert vector[prestige_at] == cards + 3
    assert encoder.high[prestige_at] == rl.UNBOUNDED  # a source may add any prestige the space must hold
    env = rl.SplendorEnv(rainbow, players=2)
    env.reset(seed=3)
    env.game = game
    assert env._observation()[prestige_at] == cards + 3


def test_a_loop_variable_hiding_a_name_the_definition_reads_is_e540(folder):
    sections = "define:\n  reds:\n    title: '{p}'\n    params: {p: player}\n    is: p.tokens[red]\n"
    found = problems(
        folder, ("when: me.prestige >= target", "when: all(reds(red) >= 1 for red in players)"), sections=sections
    )
    assert found == [
        (
            "E540",
            "'red' is already the name of what 'reds' reads (a gem colour): the loop variable "
            "'red' here would take its place; name the loop variable otherwise",
        )
    ]


def test_calls_in_a_while_and_in_an_effects_argument_are_written_out(folder):
    sections = (
        "define:\n  over:\n    title: '{p} holds too many tokens'\n    params: {p: player}\n"
        "    is: p.held > token_limit\n"
        "  one:\n    title: one\n    is: 2 - 1\n"
    )
    rules = check(
        folder,
        spec(
            ("while: me.held > token_limit", "while: over(me)"),
            ("put_back(colour, 1)", "put_back(colour, one())"),
            sections=sections,
        ),
    )
    assert not isinstance(rules, list)
    plain = check(folder, spec(("put_back(colour, 1)", "put_back(colour, 2 - 1)")))
    code, written = render_module(lower(rules)), render_module(lower(plain))
    assert not re.search(r"\b(over|one)\(", "\n".join(line.split("#")[0] for line in code.splitlines()))
    strip = [
        [line.split("#")[0] for line in e.splitlines() if "sha256" not in line and "SHA256" not in line]
        for e in (code, written)
    ]
    assert [a for a, b in zip(*strip, strict=True) if a != b] == []


def test_play_shows_the_total_prestige(engines):
    from playtest import terminal

    _, rainbow = engines
    state, cards = _rainbow_position(rainbow)
    game = load(rainbow, state)
    seats = terminal.make_seats(rainbow, ["human", "human"], 1)
    board = terminal.draw_board(rainbow, game, seats, 0)
    assert f"· prestige {cards + 3}" in board


def test_a_definition_with_a_wrong_parameter_says_so_once(folder):
    sections = "define:\n  rich:\n    title: '{p}'\n    params: {p: person}\n    is: p.tokens[gold] >= 2\n"
    found = problems(folder, ("when: me.prestige >= target", "when: rich(me, 1)"), sections=sections)
    assert [code for code, _ in found] == ["E106"]


def test_a_recursive_definition_called_by_a_source_is_e550_not_a_crash(folder):
    sections = (
        "define:\n  deep:\n    title: '{p}'\n    params: {p: player}\n    is: deep(p)\n"
        "prestige:\n  w:\n    title: W\n    by: if deep(player) then 1 else 0\n"
    )
    found = problems(
        folder, ("when: me.prestige >= target", "when: me.prestige >= target or deep(me)"), sections=sections
    )
    assert [code for code, _ in found] == ["E550"]


def test_a_prestige_source_reading_the_supply_runs(folder, tmp_path):
    """A source may read the supply (`supply[white]`): _xp binds it as the rule functions do (the
    engine once failed with a NameError at the first score it counted: tests/test_phrase_mutations.py)."""
    sections = (
        "prestige:\n  left:\n    title: White tokens left\n    by: supply[white] + sum(supply[c] for c in colours)\n"
    )
    rules = check(folder, spec(sections=sections))
    assert not isinstance(rules, list), rules
    (tmp_path / "supply_source.py").write_text(render_module(lower(rules)), encoding="utf-8")
    E = load_engine(tmp_path / "supply_source.py")
    game, rng = E.new_game(2, seed=1), random.Random(1)
    for _ in range(10):
        supply = json.loads(game.to_json())["supply"]
        assert game.scores() == [game._pts[p] + supply["white"] + sum(supply.values()) for p in (0, 1)]
        if game.is_over():  # the source gives far more than the target: the first round ends the game
            break
        game.apply(rng.choice(game.legal_actions()))


def test_a_definition_named_like_a_yaml_1_1_truth_value_is_a_definition(folder):
    """`on`, `off`, `yes`, `no` are names (YAML 1.2): a definition so named is called like any other."""
    rules = check(
        folder,
        spec(
            (
                "condition: supply[colour] >= pair_minimum",
                "condition: supply[colour] >= pair_minimum and on(me) and not off(me)",
            ),
            sections="define:\n  on:\n    title: rich\n    params: {p: player}\n"
            "    is: p.tokens[gold] >= 0\n  off:\n    title: poor\n"
            "    params: {p: player}\n    is: p.tokens[gold] < 0\n",
        ),
    )
    assert not isinstance(rules, list), rules
    assert [d.name for d in rules.definitions] == ["on", "off"]


def test_a_hazard_in_a_body_is_found_once_per_signature_with_the_call_that_gives_it(folder):
    """The bounds work a call out from the body with its parameters bound to what the arguments are
    (issue 26, item 9): `10 // n` is a division by 0 when called as f(0), said once in the body
    however often f(0) is called, and not at all for f(turn) (1 or more)."""
    sections = "define:\n  f:\n    title: '{n}'\n    params: {n: number}\n    is: 10 // n\n"
    found = check(
        folder,
        spec(
            (
                "condition: supply[colour] >= pair_minimum",
                "condition: supply[colour] >= pair_minimum + f(0) + f(0) + f(turn)",
            ),
            sections=sections,
        ),
    )
    assert isinstance(found, list)
    [d] = found
    assert (d.code, d.message) == (
        "E513",
        "'//' by n: the divisor can be 0 in a game under this spec (it is always 0), and nothing divides by 0",
    )
    assert (d.span.line, d.span.col) == (95, 15)
    assert d.notes[-1] == f"in 'f' as f(0) ({folder / 'spec.yaml'}:35) calls it"
    fine = check(
        folder,
        spec(
            (
                "condition: supply[colour] >= pair_minimum",
                "condition: supply[colour] >= pair_minimum + f(turn) + f(player_count)",
            ),
            sections=sections,
        ),
    )
    assert not isinstance(fine, list), fine


@pytest.mark.parametrize(
    "define, call, never",
    [
        ("b: flag}\n    is: b", "holds(setup.gems >= 50)", True),  # a condition's argument: its truth
        ("b: flag}\n    is: b", "holds(setup.gems >= 5)", False),
        ("c: colour}\n    is: supply[c] >= 6", "holds(gold)", True),  # a colour's: wild (at most 5) or gem (7)
        ("c: colour}\n    is: supply[c] >= 6", "holds(red)", False),
        ("n: number}\n    is: n >= 8", "holds(setup.gems)", True),  # a number's: its range (4 to 7)
    ],
)
def test_the_bounds_of_a_call_see_what_its_arguments_are(folder, define, call, never):
    sections = "define:\n  holds:\n    title: '{" + define.split(":")[0] + "}'\n    params: {" + define + "\n"
    found = check(
        folder,
        spec(
            (
                "condition: all(me.bonus[c] >= noble.requires[c] for c in gems)",
                f"condition: {call} and all(me.bonus[c] >= noble.requires[c] for c in gems)",
            ),
            sections=sections,
        ),
    )
    if never:
        assert [(d.code, d.message) for d in found] == [
            ("E507", "step 'noble_visit' can never be taken: this condition never holds in any game under this spec")
        ]
    else:
        assert not isinstance(found, list), found
