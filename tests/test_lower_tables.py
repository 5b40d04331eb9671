"""Strength reduction of an aggregate over components (compiler/lower/collections.py's
component_table, issue 29 item 1): a body that reads only the component's columns becomes a table
of its value by component, worked out from the kind's table at compile time."""

import csv
import random
import re

import pytest

from compiler import pipeline
from compiler.lower.optimise import unoptimised
from tests.helpers import ROOT
from tests.helpers.specs import engine_from_text

CHARM_BONUS = ROOT / "tests" / "specs" / "charm-bonus.yaml"
GEMS = ("white", "blue", "green", "red", "black")


@pytest.fixture(scope="module")
def texts():
    after = pipeline.compile_spec(str(CHARM_BONUS)).text
    with unoptimised():
        before = pipeline.compile_spec(str(CHARM_BONUS)).text
    return before, after


def test_each_colours_count_of_charms_reads_a_table_made_from_the_kinds_table(texts):
    before, after = texts
    with open(ROOT / "tests" / "specs" / "charms.csv", encoding="utf-8") as rows:
        colours = [row["colour"] for row in csv.DictReader(rows)]
    tables = dict(re.findall(r"\n(_ct\d+) = (\([^)]*\))", after))
    for gem in GEMS:  # the table the count of this colour reads, as the charms table says it
        expected = str(tuple(int(c == gem) for c in colours))
        assert expected in tables.values(), (gem, tables)
    assert "sum(_ct" in after and "sum(_ct" not in before
    assert "_k_charms[v_x][1] == 2" in before and "_k_charms[v_x][1] == 2" not in after


def test_the_tables_play_as_the_walks_they_replace(tmp_path, texts):
    before, after = (engine_from_text(tmp_path / f"cb_{n}.py", t) for n, t in zip(("b", "a"), texts, strict=True))
    rng = random.Random(9)
    for seed in range(3):
        games = [engine.new_game(2 + seed, seed=seed + 10) for engine in (before, after)]
        while not games[0].is_over():
            legal = games[0].legal_actions()
            assert games[1].legal_actions() == legal
            choice = legal[rng.randrange(len(legal))]
            for game in games:
                game.apply(choice)
        assert games[0].to_json() == games[1].to_json()


def test_a_table_made_by_a_prestige_source_is_printed_and_read(tmp_path):
    """A prestige source is lowered on its own, after the rule functions: an aggregate it reads
    through a definition (here over a player's trading posts) gets its table like any other; it
    once reached the printer as a tree node (an internal error in `compile`, `sheet` and `diff`)."""
    (tmp_path / "mutant.yaml").write_text(
        "spec: 1\nname: mutant\nextends: trading-posts\ntitle: Mutant\n"
        "define:\n  has_power:\n    is: 'any((true) for t in p.markers)'\n",
        encoding="utf-8",
    )
    text = pipeline.compile_spec(str(tmp_path / "mutant.yaml")).text
    engine = engine_from_text(tmp_path / "mutant.py", text)
    table = re.search(r"\n(_ct\d+) = ", text)
    assert table is not None and text.count(table.group(1)) >= 2  # made, and read
    game, rng = engine.new_game(2, seed=3), random.Random(3)
    for _ in range(200):
        if game.is_over():
            break
        game.apply(rng.choice(game.legal_actions()))
    assert game.scores() == [engine.from_json(game.to_json()).scores()[p] for p in range(2)]
