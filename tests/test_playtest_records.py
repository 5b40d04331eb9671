"""Seating rotation and per-game records (issue 18, items 3 and 4).

Rotation: every bot plays every seat equally often, each deal once per seating, the same
for any --jobs; --fixed-seats keeps today's games. Records: every field of a game, JSON
Lines and CSV, the same for any --jobs, replayed by `play SPEC --replay FILE --game N`, and
every broken or mismatched record file refused with a located message.
"""

from __future__ import annotations

import csv
import json
import pathlib
import subprocess
import sys

import pytest

from playtest import records
from playtest import simulate as sim
from tests.helpers import ROOT
from tests.helpers.playtest import STANDIN, run_app, run_games, standin

HERE = pathlib.Path(__file__).resolve().parent


def cli(*args, **kw):
    return subprocess.run(
        [sys.executable, "-m", "app", *args], cwd=ROOT, capture_output=True, text=True, timeout=600, **kw
    )


# ----------------------------------------------------------------------------- seating


def test_seatings_are_the_distinct_rotations():
    assert sim.seatings(["greedy", "random"]) == [("greedy", "random"), ("random", "greedy")]
    assert sim.seatings(["greedy", "greedy"]) == [("greedy", "greedy")]
    assert sim.seatings(["a", "b", "a", "b"]) == [("a", "b", "a", "b"), ("b", "a", "b", "a")]
    assert sim.seatings(["a", "b", "c"]) == [("a", "b", "c"), ("b", "c", "a"), ("c", "a", "b")]
    assert sim.seatings(["greedy", "random"], fixed_seats=True) == [("greedy", "random")]


def test_each_deal_is_played_in_each_seating():
    assert [sim.deal(i, ["g", "r"]) for i in range(4)] == [
        (0, ("g", "r")),
        (0, ("r", "g")),
        (1, ("g", "r")),
        (1, ("r", "g")),
    ]
    assert [sim.deal(i, ["g", "r"], fixed_seats=True) for i in range(2)] == [(0, ("g", "r")), (1, ("g", "r"))]


def test_rotation_separates_seat_advantage_from_bot_strength():
    result = run_games([standin()], games=12, seed=3, bots=["greedy", "random"], jobs=1)
    spec = result.to_dict(games=True)["specs"][0]
    seats = [r["seats"] for r in spec["results"]]
    assert seats.count(["greedy", "random"]) == seats.count(["random", "greedy"]) == 6
    # the same deal (seed) for games 2k and 2k + 1
    assert all(spec["results"][2 * k]["seed"] == spec["results"][2 * k + 1]["seed"] for k in range(6))
    bots = {b["bot"]: b for b in spec["bots"]}
    assert bots["greedy"]["seat_games"] == bots["random"]["seat_games"] == 12
    greedy_wins = sum(1 for r in spec["results"] if [r["seats"][w] for w in r["winners"]] == ["greedy"])
    assert bots["greedy"]["wins"] >= greedy_wins > 6
    assert sum(s["wins"] for s in spec["seats"]) == sum(b["wins"] for b in spec["bots"])
    assert spec["seats"][0]["wins"] < bots["greedy"]["wins"]  # seat 1 is greedy only half the time


def test_fixed_seats_keep_the_bots_in_their_seats():
    fixed = run_games([standin()], games=6, seed=3, bots=["greedy", "random"], jobs=1, fixed_seats=True)
    spec = fixed.to_dict(games=True)["specs"][0]
    assert all(r["seats"] == ["greedy", "random"] for r in spec["results"])
    assert [r["seed"] for r in spec["results"]] == [sim.game_seed(3, "standin", i) for i in range(6)]
    assert fixed.to_dict()["seatings"] == [["greedy", "random"]]


def test_rotated_results_are_the_same_for_any_jobs():
    kw = dict(games=8, seed=2, bots=["greedy", "random"])
    assert run_games([standin()], jobs=1, **kw).to_dict(games=True) == run_games(
        [standin()], jobs=2, chunk=3, **kw
    ).to_dict(games=True)


def test_the_table_names_seats_and_bots_apart():
    text = sim.format_table(run_games([standin()], games=4, seed=1, bots=["greedy", "random"], jobs=1))
    assert "seat 1 wins (bots rotated)" in text and "greedy wins (every seat)" in text
    assert "random wins (every seat)" in text and "--fixed-seats" in text
    fixed = sim.format_table(
        run_games([standin()], games=4, seed=1, bots=["greedy", "random"], jobs=1, fixed_seats=True)
    )
    assert "seat 1 wins (greedy)" in fixed and "bots rotated" not in fixed


# ----------------------------------------------------------------------------- records


def test_a_game_result_has_its_record_fields():
    r = run_games([standin()], games=2, seed=4, bots=["greedy", "random"], jobs=1).specs[0].results[0]
    assert r.seats == ("greedy", "random") and len(r.cards) == 2 and all(len(c) == 3 for c in r.cards)
    uses = dict(r.uses)
    assert sum(uses.values()) == len(r.actions) > 0
    # the stand-in has no ACTIONS table: a decision is named by its notation's first word
    assert (
        uses["take"] > 0
        and uses["buy"] > 0
        and set(uses) <= {"take", "take2", "reserve", "buy", "return", "noble", "pass"}
    )
    assert r.end_reason in ("target", "deadlock", "stuck", "truncated")
    assert len(r.nobles) == len(r.gold_spent) == 2


def test_margin_and_end_reason_from_hand_made_results():
    base = dict(index=0, seed=1, rounds=20, turns=40, over=True, stuck=False, passes=0, tied=False, end="target")
    assert sim.GameResult(winners=(1,), scores=(12, 17), **base).margin == 5
    assert sim.GameResult(winners=(0, 1), scores=(15, 15), **{**base, "tied": True}).margin == 0
    assert sim.GameResult(winners=(), scores=(3, 4), **{**base, "over": False, "end": None}).margin is None
    assert sim.GameResult(winners=(), scores=(3, 4), **{**base, "over": False, "end": None}).end_reason == "truncated"
    assert sim.GameResult(winners=(2,), scores=(9, 16, 18), **base).margin == 2


def test_records_list_every_field(tmp_path):
    result = run_games([standin()], games=4, seed=4, bots=["greedy", "random"], jobs=1)
    path = tmp_path / "games.jsonl"
    assert records.write(result, path) == 4
    rows = [json.loads(line) for line in path.read_text().splitlines()]
    assert [r["index"] for r in rows] == [0, 1, 2, 3]
    first = rows[0]
    for key in (
        "seed",
        "spec",
        "seats",
        "rounds",
        "end_reason",
        "winners",
        "scores",
        "margin",
        "cards",
        "nobles",
        "gold_spent",
        "uses",
        "actions",
        "max_turns",
        "sha256",
        "players",
    ):
        assert key in first, key
    game = result.specs[0].results[0]
    assert first["seed"] == game.seed and first["actions"] == list(game.actions)
    assert first["spec"] == "standin" and first["seats"] == ["greedy", "random"]


def test_csv_records_hold_the_same_games(tmp_path):
    result = run_games([standin()], games=3, seed=4, bots=["greedy", "random"], jobs=1)
    records.write(result, tmp_path / "g.csv")
    rows = list(csv.DictReader((tmp_path / "g.csv").open()))
    assert len(rows) == 3
    game = result.specs[0].results[1]
    assert rows[1]["seats"] == ";".join(game.seats) and rows[1]["actions"] == " ".join(map(str, game.actions))
    assert rows[1]["cards"] == ";".join("/".join(map(str, c)) for c in game.cards)
    assert int(rows[1]["uses.take"]) == dict(game.uses)["take"]


def test_record_files_are_the_same_for_any_jobs(tmp_path):
    for jobs in (1, 2):
        out = cli(
            "simulate",
            str(STANDIN),
            "--games",
            "4",
            "--bots",
            "greedy,random",
            "--seed",
            "3",
            "--jobs",
            str(jobs),
            "--games-out",
            str(tmp_path / f"g{jobs}.jsonl"),
        )
        assert out.returncode == 0, out.stderr
        assert "wrote 4 game records" in out.stderr
    assert (tmp_path / "g1.jsonl").read_text() == (tmp_path / "g2.jsonl").read_text()


def test_a_record_replays_the_same_game(tmp_path):
    engine = standin()
    result = run_games([engine], games=3, seed=8, bots=["greedy", "random"], jobs=1)
    for kind in ("jsonl", "csv"):
        p = tmp_path / f"g.{kind}"
        records.write(result, p)
        row, where = records.read_record(p, "standin", 2)
        game = records.replay(engine.module, row, where)
        expected = result.specs[0].results[2]
        assert game.scores() == list(expected.scores) and tuple(game.winners()) == expected.winners
        assert where == f"{p}:{3 if kind == 'jsonl' else 4}"  # game 2: the third line, or the CSV header's fourth


def test_play_replay_shows_the_moves_and_the_end(tmp_path):
    path = tmp_path / "g.jsonl"
    out = cli(
        "simulate",
        str(STANDIN),
        "--games",
        "2",
        "--bots",
        "greedy,random",
        "--seed",
        "1",
        "--jobs",
        "1",
        "--games-out",
        str(path),
    )
    assert out.returncode == 0, out.stderr
    shown = cli("play", str(STANDIN), "--replay", str(path), "--game", "1")
    assert shown.returncode == 0, shown.stderr
    row = json.loads(path.read_text().splitlines()[1])
    assert shown.stdout.startswith(f"replay of game 1 of standin ({path}:2): seed {row['seed']}, seats random, greedy")
    assert shown.stdout.count("  turn ") == len(row["actions"])
    assert "game over" in shown.stdout


@pytest.mark.parametrize(
    "text, message",
    [
        ('{"spec": "standin", "index": 0\n', ":1:31: error: not a JSON record: Expecting ',' delimiter"),
        ("[1, 2]\n", ":1:1: error: a record is a JSON object, not list"),
        (
            '{"spec": "standin", "index": 0, "seed": -1, "players": 2, "seats": ["greedy", "random"], "actions": []}\n',
            ":1: error: 'seed' must be a whole number from 0",
        ),
        (
            '{"spec": "standin", "index": 0, "seed": 1, "players": 2, "seats": ["greedy", "\\u001b[2J"], "actions": []}\n',
            ":1: error: 'seats' holds '\\x1b[2J', not a bot name",
        ),
        (
            '{"spec": "standin", "index": 0, "seed": 1, "players": 2, "seats": ["greedy"], "actions": []}\n',
            ":1: error: 'seats' must list one bot per player (2)",
        ),
        (
            '{"spec": "standin", "index": 0, "seed": 1, "players": 2, "seats": ["greedy", "random"], "actions": [1.5]}\n',
            ":1: error: 'actions' must be a list of action ids",
        ),
        (
            '{"spec": "standin", "index": 0, "seed": 1, "players": 2, "seats": ["greedy", "random"], "actions": [9999]}\n',
            ":1: error: move 1 of the record (id 9999) is not legal there",
        ),
        (
            '{"spec": "other", "index": 0, "seed": 1, "players": 2, "seats": ["greedy", "random"], "actions": []}\n',
            ": no game 0 of spec 'standin' (it holds games of 'other')",
        ),
        (
            '{"spec": "standin", "sha256": "abc", "index": 0, "seed": 1, "players": 2, "seats": ["greedy", "random"], '
            '"actions": []}\n',
            ":1: error: the record is for another version of spec 'standin'",
        ),
        (
            '\n\n{"spec": "standin", "index": 0, "seed": 1, "players": 2, "seats": ["greedy", "random"], '
            '"actions": [], "format": "x"}\n',
            ":3: error: 'format' must be 'splendor-rules/game'",
        ),
    ],
)
def test_broken_record_files_get_a_located_error(tmp_path, text, message):
    path = tmp_path / "bad.jsonl"
    path.write_text(text, encoding="utf-8")
    out = run_app("play", str(STANDIN), "--replay", str(path), "--game", "0")
    assert out.returncode == 1, out.stderr
    assert out.stderr.startswith(str(path)) and message in out.stderr, out.stderr
    assert "Traceback" not in out.stderr and "\x1b" not in out.stderr


def test_broken_csv_and_other_files_get_a_located_error(tmp_path):
    bad = tmp_path / "bad.csv"
    bad.write_text("spec,index,seed,players,seats,actions\nstandin,0,x,2,greedy;random,1 2\n", encoding="utf-8")
    out = run_app("play", str(STANDIN), "--replay", str(bad), "--game", "0")
    assert out.returncode == 1 and f"{bad}:2: error: column 'seed' must be a whole number, not 'x'" in out.stderr
    short = tmp_path / "short.csv"
    short.write_text("spec,index,seed,players,seats,actions\nstandin,0\n", encoding="utf-8")
    out = run_app("play", str(STANDIN), "--replay", str(short), "--game", "0")
    assert out.returncode == 1 and f"{short}:2: error: 2 cells where the header has 6" in out.stderr
    binary = tmp_path / "bin.jsonl"
    binary.write_bytes(b'{"a": 1}\n\xff\xfe\n')
    out = run_app("play", str(STANDIN), "--replay", str(binary), "--game", "0")
    assert out.returncode == 1 and f"{binary}:2: error: not UTF-8 text" in out.stderr
    out = run_app("play", str(STANDIN), "--replay", str(tmp_path / "missing.jsonl"), "--game", "0")
    assert out.returncode == 1 and "cannot read the game records" in out.stderr
    out = run_app("play", str(STANDIN), "--replay", str(tmp_path / "g.txt"), "--game", "0")
    assert out.returncode == 1 and "a record file ends in .jsonl (JSON Lines) or .csv, not '.txt'" in out.stderr
    out = run_app("play", str(STANDIN), "--replay", str(bad))
    assert out.returncode == 2 and f"{bad} is a record file, a run of games: say which with --game N" in out.stderr
    out = run_app("play", str(STANDIN), "--game", "0")
    assert out.returncode == 2 and "--game N goes with --replay FILE" in out.stderr


def test_games_out_with_a_wrong_extension_is_a_usage_error(tmp_path):
    out = run_app("simulate", str(STANDIN), "--games", "1", "--games-out", str(tmp_path / "g.txt"))
    assert out.returncode == 2 and "a record file ends in .jsonl" in out.stderr


# ----------------------------------------------------------------------------- streaming (--games-out)


def test_in_order_hands_games_over_in_game_order_whatever_order_they_finish():
    def game(index):
        return sim.GameResult(index, index, 1, 2, (0,), (15, 3), True, False, 0, False, "target")

    got = []
    order = sim.InOrder(2, lambda k, r: got.append((r.index, k)))
    order.add(1, [game(0), game(1)])  # spec 1 first: waits for game 0 of spec 0
    assert got == []
    order.add(0, [game(1)])
    assert got == []
    order.add(0, [game(0)])
    assert got == [(0, 0), (0, 1), (1, 0), (1, 1)]
    order.add(1, [game(3)])
    order.add(0, [game(4)])
    assert got[4:] == []
    order.flush()  # a stopped run_games: the games still waiting, in order
    assert got[4:] == [(3, 1), (4, 0)]


def test_records_are_written_as_the_games_finish(tmp_path):
    """Each game is on disk (flushed) as soon as the games before it are: the file grows during the run_games."""
    path = tmp_path / "g.jsonl"
    engine = standin()
    stream = records.stream(path, [engine], 2)
    seen = []

    def progress(done, total):
        seen.append((done, len(path.read_text().splitlines())))

    result = run_games([engine], games=6, seed=2, jobs=1, progress=progress, on_game=stream.add)
    stream.close()
    assert seen[1:] == [(n, n) for n in range(1, 7)]  # one game at a time here, each on disk when reported
    assert stream.written == 6
    assert path.read_text() == records.format_records(records.records(result), "jsonl")


def test_an_interrupted_run_keeps_its_games_on_disk(tmp_path):
    path = tmp_path / "g.csv"
    engine = standin()
    stream = records.stream(path, [engine], 2)

    def stop(done, total):
        if done >= 3:
            raise KeyboardInterrupt

    result = run_games([engine], games=50, seed=2, jobs=2, chunk=1, progress=stop, on_game=stream.add)
    stream.close()
    assert result.interrupted
    rows = list(csv.DictReader(path.open()))
    assert [int(r["index"]) for r in rows] == sorted(r.index for r in result.specs[0].results)
    assert path.read_text() == records.format_records(records.records(result), "csv")


@pytest.mark.parametrize("kind", ["jsonl", "csv"])
def test_streamed_records_of_two_specs_are_the_same_for_any_jobs(tmp_path, kind):
    engines_run = [standin(), standin(tmp_path, name="other")]
    texts = []
    for jobs in (1, 2):
        path = tmp_path / f"g{jobs}.{kind}"
        stream = records.stream(path, engines_run, 2)
        result = run_games(engines_run, games=5, seed=6, jobs=jobs, chunk=2, on_game=stream.add)
        stream.close()
        texts.append(path.read_text())
        assert texts[-1] == records.format_records(records.records(result), kind)
    assert texts[0] == texts[1]
    lines = texts[0].splitlines()[1 if kind == "csv" else 0 :]
    specs = [json.loads(x)["spec"] for x in lines] if kind == "jsonl" else [x.split(",")[2] for x in lines]
    assert specs == ["standin", "other"] * 5  # game 0 of each spec, then game 1 of each, ...


def test_a_record_file_that_cannot_be_written_is_said_before_the_games(tmp_path):
    out = cli(
        "simulate", str(STANDIN), "--games", "2", "--jobs", "1", "--games-out", str(tmp_path / "missing" / "g.jsonl")
    )
    assert out.returncode == 1, out.stderr
    assert (
        f"error: {tmp_path / 'missing' / 'g.jsonl'}: cannot write the game records: No such file or directory"
        in out.stderr
    )
    assert "rounds, mean" not in out.stdout


def test_a_usage_error_leaves_an_existing_record_file_alone(tmp_path):
    path = tmp_path / "g.jsonl"
    path.write_text("kept\n")
    out = cli("simulate", str(STANDIN), "--games", "2", "--players", "9", "--games-out", str(path))
    assert out.returncode == 2 and "9 players is not a player count" in out.stderr
    assert path.read_text() == "kept\n"
