"""Hidden information (rulespec/README.md, Hidden information; compiler/check/hidden.py): a rule reads a
seat's private variable, or the components it drew unseen, for that seat only (E558), and an
engine whose spec passes that check tells no seat another's private data through its legal
actions.

The checks run on tests/specs/private-reads.yaml (its own player's private data read everywhere a
rule may read them) with one change, written beside it; the four catalogue cases
(tests/broken/private_*.yaml) pin the messages.
"""

from __future__ import annotations

import json
import pathlib
import random
import shutil

import pytest

from compiler import pipeline
from compiler.check import hidden
from compiler.diagnostics import CompileError
from compiler.front.expr import Origin, parse_stmt
from compiler.model import SetupBlock, Text
from tests.helpers.engines import ROOT, load_engine

SPECS = ROOT / "tests" / "specs"
PRIVATE_READS = (SPECS / "private-reads.yaml").read_text(encoding="utf-8")


@pytest.fixture
def folder(tmp_path: pathlib.Path) -> pathlib.Path:
    for name in ("secret-hands.yaml", "secrets.csv"):
        shutil.copy(SPECS / name, tmp_path / name)
    return tmp_path


def check(folder: pathlib.Path, *changes: tuple[str, str], extra: str = "") -> list[tuple[str, str]]:
    """(code, the spec's text from the caret on) of each diagnostic of the spec changed so; [] when
    it is clean."""
    text = PRIVATE_READS + extra
    for old, new in changes:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    (folder / "spec.yaml").write_text(text, encoding="utf-8")
    try:
        pipeline.check_spec(str(folder / "spec.yaml"))
    except CompileError as err:
        lines = text.splitlines()
        return [(d.code, lines[d.span.line - 1][d.span.col - 1 :]) for d in err.diagnostics]
    return []


def e558(found) -> list[str]:
    """The spec's text from each caret on, when every diagnostic is an E558."""
    assert found and all(code == "E558" for code, _ in found), found
    return [at for _, at in found]


BOAST = "condition: any(x.worth >= 2 for x in me.hand) and me.hoard % 2 == 0 and supply[gold] >= 1"
PLAYER_VARIABLES = """  rival:
    add: true
    title: {en: Rival, fr: Rival, nl: Rivaal, sr: Ривал}
    type: player
    initial: 2
  partner:
    add: true
    title: {en: Partner, fr: Partenaire, nl: Partner, sr: Партнер}
    type: player
    per_player: true
    initial: 1
define:"""


def test_its_own_players_private_data_may_be_read_everywhere_a_rule_reads(folder):
    assert check(folder) == []  # conditions, a definition called with me, a trigger, effects writing others'
    winners = "winners:\n  eligible: player.hoard >= 0 and all(player.hoard >= q.hoard for q in others)\n"
    assert check(folder, extra=winners) == []  # found once the game is over: nothing left to hide
    setup = """setup:
  own_count:
    add: true
    title: {en: Count, fr: Compter, nl: Tellen, sr: Бројање}
    each_player: true
    effects: ["if me.hoard == 0 and all(x.worth >= 0 for x in me.hand): add(me.hoard, 1)"]
"""
    assert check(folder, extra=setup) == []


@pytest.mark.parametrize(
    "condition, caret",
    [
        ("any(q.hoard >= 2 for q in others)", "q.hoard"),  # another seat, by a loop over others
        ("all(me.hoard >= q.hoard for q in players)", "q.hoard"),  # players includes others
        ("any(me.hoard >= 2 for me in others)", "me.hoard"),  # a loop variable named me is not me
        ("rival.hoard >= 2", "rival.hoard"),  # a player variable may be anyone
        ("me.partner.hoard >= 2", "me.partner.hoard"),  # so may a player's own player variable
        ("any(x.worth >= 2 for x in rival.hand)", "rival.hand"),  # another's privately drawn tiles
        ("any(x.family == 'owl' for x in rival.hand)", "rival.hand"),
        ("hoards(rival, 2)", "rival"),  # a definition passed another player for the parameter it reads
    ],
)
def test_a_rule_that_reads_another_players_private_data_is_refused_at_the_read(folder, condition, caret):
    [at] = e558(check(folder, ("define:", PLAYER_VARIABLES), (BOAST, f"condition: {condition}")))
    assert at.startswith(caret)


def test_size_is_public_and_what_an_effect_writes_is_not_read(folder):
    written = (
        'effects: ["take(gold, 1)"]',
        'effects: ["take(gold, 1)", "for q in others: add(q.hoard, 1)", "for q in others: set(q.hoard, 0)"]',
    )
    assert (
        check(folder, (BOAST, "condition: all(size(q.hand) >= 1 for q in players) and supply[gold] >= 1"), written)
        == []
    )


@pytest.mark.parametrize(
    "effect, caret",
    [
        ("for q in others: set(me.hoard, q.hoard)", "q.hoard"),  # copied into one's own: still read
        ("for q in others: if q.hoard > 3: take(gold, 1)", "q.hoard"),  # what the effect changes shows it
        ("for q in others: for x in q.hand: discard(x)", "q.hand"),
    ],
)
def test_an_effect_that_reads_another_players_private_data_is_refused(folder, effect, caret):
    found = check(folder, ('effects: ["take(gold, 1)"]', f'effects: ["{effect}"]'))
    [at] = e558(found)
    assert at.startswith(caret)


def test_a_setup_block_run_once_is_for_nobody():
    """Such a block has no effect today (E552: each acts for a player); were one allowed, reading
    any player's private data there would be an E558."""
    rules = pipeline.load_rules(str(SPECS / "private-reads.yaml"))
    text = "for q in players: for x in q.hand: discard(x)"
    stmt = parse_stmt(text, Origin.plain("spec.yaml", 3, 5, text))
    block = SetupBlock("count", Text("Count"), (stmt,), stmt.span)
    [found] = hidden.leaks(rules.variables, rules.zones, rules.definitions, (), (), (block,), ())
    assert (found.code, found.span.col, found.message) == (
        "E558",
        5 + text.index("q.hand"),
        "'q.hand' reads the components drawn unseen into 'hand' (private_when_drawn), and this rule is for no player",
    )
    each = SetupBlock("count", Text("Count"), (stmt,), stmt.span, each_player=True)
    [found] = hidden.leaks(rules.variables, rules.zones, rules.definitions, (), (), (each,), ())
    assert found.message.endswith("and 'q' may be another player than 'me', whom this rule is for")


def test_an_end_trigger_and_a_definitions_body_are_checked_through_their_calls(folder):
    everyone = (
        "    is: p.hoard >= n\n",
        '    is: p.hoard >= n\n  anyone:\n    add: true\n    title: {en: "anyone hoards {n}", '
        'fr: "quelqu\'un amasse {n}", nl: "iemand spaart {n}", sr: "неко чува {n}"}\n    params: {n: number}\n'
        "    is: any(hoards(q, n) for q in players)\n",
    )
    assert check(folder, everyone) == []  # never called: no rule reads it yet
    assert e558(check(folder, everyone, ("when: hoards(me, 40)", "when: anyone(40)"))) == ["anyone(40)"]


def test_a_prestige_source_reads_no_private_data_not_even_its_players(folder):
    source = """prestige:
  hoarded:
    add: true
    title: {en: Hoard, fr: Magot, nl: Schat, sr: Ризница}
    by: "if hoards(player, 9) then 1 else 0"
"""
    assert e558(check(folder, extra=source)) == ['player, 9) then 1 else 0"']
    public = source.replace("hoards(player, 9)", "size(player.hand) >= 9")
    assert check(folder, extra=public) == []


def test_a_column_named_like_a_private_variable_is_no_players(folder):
    """`x.worth` of a tile is its column, whatever a variable of the players is called."""
    worth = (
        "  hoard:\n",
        "  worth:\n    add: true\n    title: {en: Worth, fr: Valeur, nl: Waarde, sr: Вредност}\n"
        "    type: number\n    per_player: true\n    private: true\n  hoard:\n",
    )
    assert check(folder, worth) == []


# --------------------------------------------------------------------------- the engine


@pytest.fixture(scope="module")
def engine(tmp_path_factory):
    path = tmp_path_factory.mktemp("hidden") / "private_reads.py"
    path.write_text(pipeline.compile_spec(str(SPECS / "private-reads.yaml")).text, encoding="utf-8")
    return load_engine(path)


def perturbed(engine, game, seat: int, rng: random.Random):
    """The game loaded from its saved state with `seat`'s private data changed: its hoard, and the
    tiles it drew unseen swapped with tiles of the face-down pile; the rest the same."""
    data = json.loads(game.to_json())
    data["seats"][seat]["vars"]["hoard"] += rng.choice((1, 2, 5))
    pile, zones = data["zones"]["secret_pile"], data["seats"][seat]["zones"]
    for i, x in enumerate(zones.get("hand_private", [])):
        if pile:
            j = rng.randrange(len(pile))
            pile[j], zones["hand"][zones["hand"].index(x)], zones["hand_private"][i] = x, pile[j], pile[j]
    return engine.from_json(json.dumps(data))


def test_the_legal_actions_do_not_depend_on_another_seats_private_data(engine):
    """Over seeded games, each state against the same state where one other seat's private data
    differs: the acting player's legal mask and observation are the same. The same change to the
    acting player's own data changes its menu somewhere (the test can see a leak)."""
    rng = random.Random(26)
    compared = own_changed = 0
    for seed in range(12):
        game = engine.new_game(2 + seed % 3, seed)
        for _ in range(60):
            if game.is_over():
                break
            me = game.current_player
            for seat in range(game._n):
                other = perturbed(engine, game, seat, rng)
                assert other.to_json() != game.to_json()
                if seat == me:
                    own_changed += other.legal_mask() != game.legal_mask()
                    continue
                assert other.legal_mask() == game.legal_mask(), (seed, seat, game.to_json())
                assert other.observation(me) == game.observation(me)
                compared += 1
            game.apply(rng.choice(game.legal_actions()))
    assert compared > 500 and own_changed > 10


def test_the_mcts_bot_plays_with_another_seats_private_data_unseen(engine):
    """Its worlds are dealt from the acting seat's observation, where another seat's private
    variable is null: each world gives it its initial value (from_json refused the null, and
    `simulate --bots mcts` exited 3)."""
    from playtest.bots import determinize, make_bot

    game = engine.new_game(2, 3)
    game.apply(engine.string_to_action("draw secret"))  # seat 0's hoard 2, seat 1's 1
    assert [seat["vars"]["hoard"] for seat in game.observation(1)["seats"]] == [None, 1]
    world = determinize(game, 1, random.Random(1), engine)
    assert [seat["vars"]["hoard"] for seat in world.to_dict()["seats"]] == [0, 1]
    assert world.legal_mask() == game.legal_mask()
    bot = make_bot("mcts:8", engine, 1)
    for _ in range(6):
        game.apply(bot.choose(game))
