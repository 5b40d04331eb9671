"""The Trading Posts (variants/trading-posts.yaml, Cities of Splendor): each rule and each reading of
../shared/expansions/README.md played on the generated engine, from positions built with from_json;
and the two language features the module needed, each with its diagnostics: keywords
('five_prestige', a keyword column's value) and state holding a set of components ({set_of: KIND})."""

from __future__ import annotations

import json
import pathlib
import random
import shutil

import pytest

from compiler import pipeline
from compiler.diagnostics import CompileError, SourceMap
from compiler.sheets import render
from tests.helpers.engines import (
    ROOT,
    act,
    find_cards,
    give_card,
    give_noble,
    give_tokens,
    grant_bonuses,
    in_decks,
    legal_strings,
    load,
    load_engine,
    pay_for,
    position,
    put_in_market,
    set_tokens,
)

POSTS_CSV = ROOT / "variants" / "trading_posts.csv"
CLEAN = (ROOT / "tests" / "broken" / "_clean.yaml").read_text(encoding="utf-8").replace("../../rulespec/", "")
# ids of the posts: their rows in the table, left to right
EXTRA_GEM, THIRD_TOKEN, GOLD_DOUBLE, FIVE_PRESTIGE, PER_POST = range(5)


@pytest.fixture(scope="module")
def tp(tmp_path_factory):
    from compiler.pipeline import compile_spec

    path = tmp_path_factory.mktemp("tp") / "trading_posts.py"
    path.write_text(compile_spec(str(ROOT / "variants" / "trading-posts.yaml")).text, encoding="utf-8")
    return load_engine(path)


def with_posts(state: dict, seat: int, *posts: int) -> dict:
    state["seats"][seat]["vars"]["markers"] = sorted(posts)
    return state


def markers(game, seat: int) -> list[int]:
    return json.loads(game.to_json())["seats"][seat]["vars"]["markers"]


def buy_something(tp, state: dict, seat: int = 0) -> tuple[dict, str]:
    """A market card of level 1 the seat is given the tokens for; its purchase written `buy 1.1`."""
    card = find_cards(tp, state, 1, where="deck", level=1, cost=lambda cost: sum(cost.values()) <= 4)[0]
    put_in_market(tp, state, card, 1)
    set_tokens(state, seat)
    pay_for(tp, state, seat, card)
    return state, "buy 1.1"


# --------------------------------------------------------------------------- opening posts


def test_a_player_opens_every_post_they_qualify_for_at_the_end_of_their_turn(tp):
    state = position(tp, 2)
    grant_bonuses(tp, state, 0, {"white": 2, "red": 3, "black": 3})  # posts 1, 2 and 5; not 3 (blue), not 4
    game = load(tp, state)
    assert markers(game, 0) == []
    act(game, "take white blue green")
    while game.current_player == 0 and not game.is_over():  # nothing to choose: opened without asking
        assert all(not s.startswith("post") for s in legal_strings(game))
        game.apply(game.legal_actions()[0])
    assert markers(game, 0) == [EXTRA_GEM, THIRD_TOKEN, PER_POST]
    assert markers(game, 1) == []  # spaces are not exclusive, and the other player has none


def test_post_four_needs_a_noble_too(tp):
    state = position(tp, 2)
    grant_bonuses(tp, state, 0, {"green": 5})
    game = load(tp, state)
    act(game, "take white blue red")
    assert FIVE_PRESTIGE not in markers(game, 0)
    state = grant_bonuses(tp, position(tp, 2), 0, {"green": 5})
    noble = state["nobles"][0] if isinstance(state.get("nobles"), list) else None
    state = give_noble(state, 0, noble if noble is not None else state["noble_row"][0])
    game = load(tp, state)
    before = game.scores()[0]
    act(game, "take white blue red")
    assert FIVE_PRESTIGE in markers(game, 0)
    assert game.scores()[0] == before + 5


def test_a_post_is_opened_once_and_never_removed(tp):
    state = with_posts(grant_bonuses(tp, position(tp, 2), 0, {"white": 2}), 0, THIRD_TOKEN)
    game = load(tp, state)
    act(game, "take blue green red")
    assert markers(game, 0) == [THIRD_TOKEN]


# --------------------------------------------------------------------------- the powers


def test_post_one_a_gem_after_each_purchase_before_the_token_limit(tp):
    state, buy = buy_something(tp, with_posts(position(tp, 2), 0, EXTRA_GEM))
    game = load(tp, state)
    act(game, buy)
    legal = legal_strings(game)
    assert legal and all(s.startswith("bonus ") for s in legal)
    assert sorted(s.split()[1] for s in legal) == sorted(
        c for c, n in json.loads(game.to_json())["supply"].items() if n >= 1 and c != "gold"
    )
    act(game, "bonus red")
    assert json.loads(game.to_json())["seats"][0]["tokens"]["red"] >= 1


def test_post_one_gives_nothing_without_a_purchase_or_without_the_post(tp):
    game = load(tp, with_posts(position(tp, 2), 0, EXTRA_GEM))
    act(game, "take white blue green")
    assert game.current_player == 1 and game.phase == "action"
    state, buy = buy_something(tp, position(tp, 2))
    game = load(tp, state)
    act(game, buy)
    assert game.current_player == 1 and game.phase == "action"


def test_the_bonus_gem_comes_before_the_token_limit(tp):
    state, buy = buy_something(tp, with_posts(position(tp, 2), 0, EXTRA_GEM))
    spent = sum(state["seats"][0]["tokens"].values())
    give_tokens(state, 0, gold=3)
    others = [c for c in ("white", "blue", "green", "red", "black") if state["supply"][c] >= 2]
    for c in others:
        if sum(state["seats"][0]["tokens"].values()) - spent < 10:
            give_tokens(state, 0, **{c: min(2, 10 - (sum(state["seats"][0]["tokens"].values()) - spent))})
    game = load(tp, state)
    act(game, buy)
    assert sum(json.loads(game.to_json())["seats"][0]["tokens"].values()) == 10
    act(game, next(s for s in legal_strings(game) if s.startswith("bonus ")))
    assert all(s.startswith("return ") for s in legal_strings(game))  # 11 tokens: back to 10


def test_post_two_a_third_token_of_another_colour_with_a_pair(tp):
    game = load(tp, with_posts(position(tp, 2), 0, THIRD_TOKEN))
    act(game, "take2 red")
    legal = legal_strings(game)
    assert legal and all(s.startswith("third ") for s in legal) and "third red" not in legal
    act(game, "third blue")
    tokens = json.loads(game.to_json())["seats"][0]["tokens"]
    assert (tokens["red"], tokens["blue"]) == (2, 1)
    game = load(tp, with_posts(position(tp, 2), 0, THIRD_TOKEN))
    act(game, "take white blue green")  # three different colours: no third token
    assert game.current_player == 1


def test_post_three_a_gold_token_may_pay_for_two_gems_of_one_colour(tp):
    state = position(tp, 2)
    card = find_cards(tp, state, 1, where="deck", level=1, cost=lambda cost: max(cost.values()) >= 2)[0]
    put_in_market(tp, state, card, 1)
    colour = tp.GEMS[list(tp.CARDS[card].cost).index(max(tp.CARDS[card].cost))]
    set_tokens(state, 0)
    pay_for(tp, state, 0, card)
    give_tokens(state, 0, **{colour: -2}, gold=1)  # one gold where two gems of the colour were
    without = load(tp, state)
    assert "buy 1.1" not in legal_strings(without)
    game = load(tp, with_posts(state, 0, GOLD_DOUBLE))
    assert "buy 1.1" in legal_strings(game)
    options = [tp.action_to_string(a) for a in game.payment_options(tp.string_to_action("buy 1.1"))]
    assert f"pay gold for {colour}*2" in options


def test_post_five_one_prestige_per_post_held(tp):
    state = position(tp, 2)
    base = load(tp, state).scores()[0]
    assert load(tp, with_posts(position(tp, 2), 0, PER_POST)).scores()[0] == base + 1
    assert load(tp, with_posts(position(tp, 2), 0, EXTRA_GEM, THIRD_TOKEN, PER_POST)).scores()[0] == base + 3
    assert load(tp, with_posts(position(tp, 2), 0, EXTRA_GEM, THIRD_TOKEN)).scores()[0] == base
    everything = load(tp, with_posts(position(tp, 2), 0, *range(5)))
    assert everything.scores()[0] == base + 5 + 5


def test_post_prestige_counts_for_the_fifteen_that_end_the_game(tp):
    state = position(tp, 2)
    cards = [c for c in sorted(in_decks(state)) if tp.CARDS[c].points]
    total, chosen = 0, []
    for c in sorted(cards, key=lambda c: -tp.CARDS[c].points):
        if total + tp.CARDS[c].points <= 5:
            chosen.append(c)
            total += tp.CARDS[c].points
    assert total == 5
    give_card(tp, state, 0, *chosen)
    game = load(tp, with_posts(state, 0, *range(5)))  # 5 + 5 + 5 = 15
    assert game.scores()[0] == 15
    act(game, "take white blue green")
    while game.current_player == 0 and game.phase != "action":
        game.apply(game.legal_actions()[0])
    act(game, "take white blue green")  # the round completes
    while not game.is_over() and game.phase != "action":
        game.apply(game.legal_actions()[0])
    assert game.is_over() and game.winners() == [0]


# --------------------------------------------------------------------------- saved games and random play


def test_markers_are_saved_loaded_and_checked(tp):
    state = with_posts(position(tp, 3), 1, GOLD_DOUBLE, EXTRA_GEM)
    game = load(tp, state)
    assert json.loads(game.to_json())["seats"][1]["vars"]["markers"] == [EXTRA_GEM, GOLD_DOUBLE]
    state["seats"][1]["vars"]["markers"] = [0, 0]
    with pytest.raises(
        ValueError,
        match=r"seats\[1\]\.vars\.markers must be a list of distinct component ids "
        r"from 0 to 4, not a list of 2",
    ):
        load(tp, state)
    state["seats"][1]["vars"]["markers"] = [7]
    with pytest.raises(ValueError, match="from 0 to 4, not"):
        load(tp, state)


def test_random_games_open_posts_and_end(tp):
    rng = random.Random(7)
    opened = 0
    for seed in range(30):
        game = tp.new_game(2 + seed % 3, seed=seed)
        while not game.is_over():
            game.apply(rng.choice(game.legal_actions()))
        state = json.loads(game.to_json())
        opened += sum(len(s["vars"]["markers"]) for s in state["seats"])
        for seat, s in enumerate(state["seats"]):
            posts = s["vars"]["markers"]
            printed = sum(tp.CARDS[c].points for c in s["purchased"]) + sum(tp.NOBLES[n].points for n in s["nobles"])
            from_posts = (5 if FIVE_PRESTIGE in posts else 0) + (len(posts) if PER_POST in posts else 0)
            assert game.scores()[seat] == printed + from_posts
        assert tp.from_json(game.to_json()).to_json() == game.to_json()
    assert opened > 30


# --------------------------------------------------------------------------- the language: keywords and sets


@pytest.fixture
def folder(tmp_path: pathlib.Path) -> pathlib.Path:
    for name in ("splendor_cards.csv", "splendor_nobles.csv"):
        shutil.copy(ROOT / "rulespec" / name, tmp_path / name)
    shutil.copy(POSTS_CSV, tmp_path / "trading_posts.csv")
    return tmp_path


POSTS_KIND = """
kinds:
  posts:
    title: Trading posts
    item: trading post
    table: trading_posts.csv
    columns: {space: number, requires: gems, nobles: number, power: keyword}
    key: space
"""


def check(folder: pathlib.Path, extra: str, step: str = ""):
    """The clean spec with the posts' kind, `extra` and an end-of-turn `step` first: its rules, or its
    diagnostics as (code, message, line, col)."""
    text = CLEAN.replace("\nend_of_turn:\n", "\nend_of_turn:\n" + step, 1)
    return checked(folder, text + POSTS_KIND + extra)


def checked(folder: pathlib.Path, text: str):
    """The rules of spec `text`, or its diagnostics as (code, message, line, col)."""
    (folder / "spec.yaml").write_text(text, encoding="utf-8")
    try:
        return pipeline.load_rules(str(folder / "spec.yaml"), SourceMap())
    except CompileError as err:
        return [(d.code, d.message, d.span.line, d.span.col) for d in err.diagnostics]


STATE = """
state:
  owned: {title: Owned, per_player: true, type: {set_of: posts}}
"""


def test_a_keyword_not_in_its_column_is_e412_with_the_values_and_a_suggestion(folder):
    found = check(
        folder,
        STATE
        + """
define:
  has(p: player):
    title: "{p} has it"
    params: {p: player}
    is: "any(t.power == 'five_prestig' for t in p.owned)"
""".replace("  has(p: player):", "  has:"),
    )
    assert isinstance(found, list)
    code, message, *_ = found[0]
    assert code == "E412"
    assert "no trading post has the power 'five_prestig' (did you mean 'five_prestige'?)" in message
    assert "extra_gem_after_purchase" in message


def test_a_keyword_alone_or_against_a_number_is_e412(folder):
    found = check(
        folder,
        STATE
        + """
define:
  word_alone:
    title: "{p} is odd"
    params: {p: player}
    is: "size(p.owned) == 'five_prestige'"
""",
    )
    assert isinstance(found, list) and found[0][0] == "E412"
    assert "stands only where a keyword column's value is wanted" in found[0][1]


def test_an_unclosed_keyword_says_how_keywords_are_written():
    from compiler.front.expr import Origin, parse_expr

    with pytest.raises(CompileError) as err:
        parse_expr("t.power == 'five", Origin.plain("x.yaml", 3, 10, "t.power == 'five"))
    d = err.value.diagnostics[0]
    assert d.code == "E201" and any("single quotes" in n for n in d.notes)


HAS_POWER = """
define:
  has_power:
    title: "{p} holds {power}"
    params: {p: player, power: TYPE}
    is: "any(t.power == power for t in p.owned)"
"""


def test_a_definition_parameter_may_be_a_keyword_column_and_others_are_refused(folder):
    ok = check(folder, STATE + HAS_POWER.replace("TYPE", "posts.power"))
    assert not isinstance(ok, list), ok
    bad = check(folder, STATE + HAS_POWER.replace("TYPE", "posts.space"))
    assert isinstance(bad, list) and bad[0][0] == "E106" and "posts.power" in bad[0][1]


def test_a_set_of_base_cards_checks_and_one_of_an_unknown_kind_is_e544(folder):
    cards = check(folder, "\nstate:\n  mine: {title: Mine, type: {set_of: cards}}\n")
    assert not isinstance(cards, list), cards  # tests/test_base_zones.py plays one
    typo = check(folder, "\nstate:\n  mine: {title: Mine, type: {set_of: post}}\n")
    assert isinstance(typo, list) and typo[0][0] == "E544"
    assert "set_of: posts" in typo[0][1] and "did you mean 'posts'" in typo[0][1]


def test_a_set_of_components_holds_that_kind_only(folder):
    found = check(
        folder,
        STATE,
        """  grab:
    title: Grab
    notation: grab {colour}
    choose: {colour: gem}
    effects: ["insert(me.owned, colour)"]
""",
    )
    assert isinstance(found, list) and found[0][0] == "E545"


def test_a_kind_reached_only_by_a_variable_is_not_e125(folder):
    rules = check(folder, STATE)
    assert not isinstance(rules, list), rules
    from compiler.check.reach import unreachable

    assert unreachable(rules) == []


def sheet_text(lang: str, compact: int = 0, phrases: bool = False) -> str:
    """The Markdown sheet of variants/trading-posts.yaml in `lang` (`compact`: see content.build; `phrases`:
    every rule told by its generated phrase, the spec's own texts left out)."""
    from compiler.check import texts
    from compiler.pipeline import load_rules
    from compiler.sheets import content

    rules = load_rules(str(ROOT / "variants" / "trading-posts.yaml"))
    rules = texts.without_texts(rules) if phrases else rules
    base = load_rules(rules.bases[0].path)
    worked = pipeline.worked_game(rules)  # the worked example, as `splendor-rules sheet` tells it
    return render.markdown(content.build(rules, lang, base, compact=compact, worked=worked), rules)


def test_the_sheets_name_a_keyword_by_its_component():
    for lang, words in (
        ("en", "holds trading post 3"),
        ("fr", "a ouvert : comptoir 3"),
        ("nl", "over handelspost 3 beschikt"),
        ("sr", "трговачка станица 3"),
    ):
        text = sheet_text(lang, phrases=True)
        assert words in text
        assert "gold_counts_double" not in text and "'" + "five_prestige" not in text


# --------------------------------------------------------------------------- play, the RL observation, the web board


def test_play_shows_each_players_posts_as_their_rows(tp):
    from playtest import terminal

    game = load(tp, with_posts(position(tp, 2), 1, EXTRA_GEM, PER_POST))
    text = terminal.draw_board(tp, game, ["ann", "bob"], 0)
    lines = text.splitlines()
    first = next(i for i, line in enumerate(lines) if "markers   1)" in line)
    assert "space 1" in lines[first] and "nobles 0" in lines[first] and "power extra_gem_after_purchase" in lines[first]
    assert "2) space 5" in lines[first + 1] and "power prestige_per_post" in lines[first + 1]
    assert "    markers   none" in text  # ann has none


def test_the_rl_observation_has_one_flag_per_post_for_each_seat(tp):
    from playtest import rl

    encoder = rl.Encoder(tp, 2)
    game = load(tp, with_posts(with_posts(position(tp, 2), 1, GOLD_DOUBLE), 0, EXTRA_GEM, PER_POST))
    vector = encoder.encode(game.observation(1))
    fields = {f.name: vector[f.start : f.stop].tolist() for f in encoder.fields}
    assert fields["seat[0].var[markers]"] == [0, 0, 1, 0, 0]  # the observer first
    assert fields["seat[1].var[markers]"] == [1, 0, 0, 0, 1]
    assert encoder.space().contains(vector)


def test_the_web_board_knows_the_kind_of_a_set_of_components(tp):
    from web import views

    extras = views.extras(tp)
    markers = next(v for v in extras["vars"] if v["name"] == "markers")
    assert markers["kind"] == "posts" and markers["per_player"]
    assert extras["kinds"]["posts"][GOLD_DOUBLE] == [3, [0, 3, 0, 0, 1], 0, "gold_counts_double"]
    assert "kind" not in next(v for v in extras["vars"] if v["name"] == "bought")


# --------------------------------------------------------------------------- a keyword column's titles


TITLED = POSTS_KIND.replace(
    "columns: {space: number, requires: gems, nobles: number, power: keyword}",
    """columns:
      space: number
      requires: gems
      nobles: number
      power:
        type: keyword
        titles: {extra_gem_after_purchase: A gem, third_token_with_pair: A third token,
                 gold_counts_double: Gold counts double, five_prestige: Five, prestige_per_post: Per post}""",
)


def check_kind(folder: pathlib.Path, kind: str):
    """The clean spec with `kind` (a posts kind written otherwise): its rules or its diagnostics."""
    return checked(folder, CLEAN + kind)


def test_a_keyword_column_titles_each_of_its_keywords(folder):
    rules = check_kind(folder, TITLED)
    assert not isinstance(rules, list), rules
    power = next(c for k in rules.kinds if k.name == "posts" for c in k.columns if c.name == "power")
    assert dict(power.titles)["gold_counts_double"].en == "Gold counts double"


def test_a_keyword_without_a_title_is_e107_at_its_cell(folder):
    found = check_kind(folder, TITLED.replace("gold_counts_double: Gold counts double, ", "gold_count_double: Gold, "))
    assert isinstance(found, list)
    cell = next(d for d in found if d[0] == "E107")
    assert "'power' is 'gold_counts_double', which column 'power' gives no title" in cell[1]
    assert "did you mean 'gold_count_double'" in cell[1] and cell[2] == 4  # the table's row 4
    assert cell[0] == "E107"


def test_a_title_for_no_row_or_on_another_type_is_e120(folder):
    extra = check_kind(
        folder, TITLED.replace("prestige_per_post: Per post}", "prestige_per_post: Per post, sixth: Sixth}")
    )
    assert isinstance(extra, list) and extra[0][0] == "E120" and "titles 'sixth', which no row" in extra[0][1]
    wrong = check_kind(
        folder, TITLED.replace("      space: number\n", "      space: {type: number, titles: {one: One}}\n")
    )
    assert isinstance(wrong, list) and wrong[0][0] == "E120"
    assert "'titles' applies to a column of type keyword, not to 'number'" in wrong[0][1]


def test_the_sheets_show_a_titled_keyword_by_its_title_in_each_language():
    for lang, title in (
        ("en", "Gold may count double"),
        ("fr", "L'or peut compter double"),
        ("nl", "Goud mag dubbel tellen"),
        ("sr", "Злато може да вреди дупло"),
    ):
        assert f"| 3 | 0 | 3 | 0 | 0 | 1 | 0 | {title} |" in sheet_text(lang)


def test_a_compact_sheet_leaves_a_changed_rule_to_the_body_and_keeps_every_rule():
    """The printed sheet of a module that changes many rules: its house rules box names them (title
    and note), their full text is in the body with their mark; what only illustrates goes."""
    from compiler.sheets import content

    full, compact = sheet_text("en"), sheet_text("en", compact=content.COMPACT_LEVELS, phrases=True)
    box = compact.split("**Turn summary**")[0]
    assert "★7 **Changed: Buy a face-up card** _Posts 1 and 3._" in box
    assert "set “Bought this turn” to yes" not in box and "set “Bought this turn” to yes" in compact
    assert "## Worked example" in full and "## Worked example" not in compact
    for rule in (
        "Take tokens of different colours",
        "A gem after a purchase",
        "Open trading posts",
        "Fifth trading post",
        "Noble visit",
        "Return tokens over the limit",
    ):
        assert f"**{rule}**" in compact


def test_a_column_title_names_the_column_on_the_sheets():
    """`title` of a column: the table's header and the phrase of the attribute, in each language."""
    for lang, header, phrase in (
        ("en", "| space | white |", "“bonuses needed”"),
        ("fr", "| case | blanc |", "« bonus exigés »"),
        ("nl", "| vak | wit |", "‘vereiste bonussen’"),
        ("sr", "| поље | бела |", "„потребни бонуси“"),
    ):
        text = sheet_text(lang, phrases=True)
        assert header in text and phrase in text, lang
        assert "“requires”" not in text and "« requires »" not in text


def test_a_keyword_compared_with_an_unknown_name_says_only_the_name(folder):
    found = check(
        folder,
        STATE
        + HAS_POWER.replace("TYPE", "posts.power").replace(
            "any(t.power == power for t in p.owned)", "any(t.power == 'five_prestige' for t in posts)"
        ),
    )
    assert isinstance(found, list) and [d[0] for d in found] == ["E401"], found
