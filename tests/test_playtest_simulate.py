"""The simulation machinery on the stand-in game (tests/test_playtest_standin.py).

Statistics, job splitting, determinism across job counts and runners (in process,
worker processes, a local Dask cluster), progress, interruption, caps, stuck games and
the report formats. The same machinery on the real generated engines is tested in
tests/test_playtest_engines.py.
"""

from __future__ import annotations

import csv
import io
import json
import os
import pathlib
import signal
import subprocess
import sys
import time

import pytest

from playtest import engines, plots
from playtest import simulate as sim
from playtest.bots import BotError, parse_bot
from playtest.simulate import GameResult, SpecSummary
from playtest.simulate import game as sim_game
from tests.helpers.playtest import STANDIN, run_app, run_games, standin

HERE = pathlib.Path(__file__).resolve().parent


def test_game_seeds_depend_on_seed_spec_and_index_only():
    a = sim.game_seed(7, "official", 3)
    assert a == sim.game_seed(7, "official", 3)
    others = {sim.game_seed(8, "official", 3), sim.game_seed(7, "target-12", 3), sim.game_seed(7, "official", 4)}
    assert len(others | {a}) == 4
    assert 0 <= a < 2**63


def test_same_seed_same_results_for_any_jobs_and_chunking(tmp_path):
    engine = standin()
    variant = standin(tmp_path, "standin-12", **{"TARGET = 15": "TARGET = 12"})
    kw = dict(games=6, seed=5, bots=["greedy", "random"])
    base = run_games([engine, variant], jobs=1, **kw).to_dict(games=True)
    assert base["specs"][0]["games"] == 6 and base["specs"][1]["games"] == 6
    assert run_games([engine, variant], jobs=2, chunk=4, **kw).to_dict(games=True) == base
    random_only = dict(games=6, bots=["random"])
    other_seed = run_games([engine], seed=6, **random_only).to_dict(games=True)
    assert run_games([engine], seed=5, **random_only).to_dict(games=True) != other_seed
    # Results are kept in game-index order, and a spec's games do not depend on the others.
    indexes = [r["index"] for r in base["specs"][0]["results"]]
    assert indexes == list(range(6))
    alone = run_games([engine], jobs=1, chunk=5, **kw).to_dict(games=True)
    assert alone["specs"][0] == base["specs"][0]


def test_mcts_games_are_the_same_in_worker_processes():
    kw = dict(games=2, seed=9, bots=["mcts:12", "random"], chunk=1)
    here = run_games([standin()], jobs=1, **kw).to_dict(games=True)
    assert run_games([standin()], jobs=2, **kw).to_dict(games=True) == here


def test_same_results_on_a_local_dask_cluster(tmp_path):
    import distributed  # the optional extra dask[distributed]: CI installs it

    engine = standin()
    expected = run_games([engine], games=8, seed=3, jobs=1).to_dict(games=True)
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None
    ) as cluster:
        with distributed.Client(cluster) as client:
            by_client = run_games([engine], games=8, seed=3, scheduler=client).to_dict(games=True)
            by_address = run_games([engine], games=8, seed=3, scheduler=cluster.scheduler_address, chunk=2)
    assert by_client == expected
    assert by_address.to_dict(games=True) == expected


def test_a_known_effect_is_detected(tmp_path):
    engine = standin()
    short = standin(tmp_path, "standin-10", **{"TARGET = 15": "TARGET = 10"})
    result = run_games([engine, short], games=30, bots=["random"], seed=1).to_dict()
    comparison = result["comparisons"][0]
    assert comparison["rounds"]["difference"] < 0
    assert comparison["rounds"]["welch"]["p_value"] < 0.01
    assert comparison["rounds"]["mann_whitney"]["p_value"] < 0.01
    assert result["specs"][1]["winning_prestige"] < result["specs"][0]["winning_prestige"]


def test_progress_is_reported_up_to_the_total():
    seen = []
    run_games([standin()], games=9, jobs=2, chunk=2, progress=lambda done, total: seen.append((done, total)))
    assert seen[0] == (0, 9) and seen[-1] == (9, 9)
    assert all(a[0] < b[0] for a, b in zip(seen, seen[1:], strict=False))


@pytest.mark.parametrize("jobs", [1, 2])
def test_ctrl_c_stops_and_keeps_what_finished(jobs):
    def stop(done, total):
        if done >= 4:
            raise KeyboardInterrupt

    result = run_games([standin()], games=200, jobs=jobs, chunk=2, progress=stop)
    assert result.interrupted
    assert 4 <= result.finished < 200
    summary = result.to_dict()["specs"][0]
    assert summary["games"] == result.finished and summary["requested"] == 200
    assert "interrupted: " in sim.format_table(result)
    # What finished is exactly what the same games give in a full run_games.
    last = max(r.index for r in result.specs[0].results)
    full = {r.index: r for r in run_games([standin()], games=last + 1).specs[0].results}
    assert all(full[r.index] == r for r in result.specs[0].results)


def test_the_cap_on_turns_stops_games():
    result = run_games([standin()], games=3, max_turns=6).to_dict(games=True)
    spec = result["specs"][0]
    assert spec["shares"]["capped"] == 1.0
    assert spec["ends"] == {"cap": 3}
    assert all(r["turns"] == 6 and r["rounds"] == 3 and not r["over"] and r["winners"] == [] for r in spec["results"])


def test_stuck_games_and_passes_are_counted(tmp_path):
    # No tokens at all: after reserving what they can, players can only pass, and the game
    # ends when everybody has passed in a row.
    dry = standin(tmp_path, "standin-dry", **{"SETUP = {2: (4, 5, 3),": "SETUP = {2: (0, 0, 3),"})
    result = run_games([dry], games=4, bots=["random"]).to_dict(games=True)
    spec = result["specs"][0]
    assert spec["shares"]["stuck"] == 1.0 and spec["shares"]["passes"] == 1.0
    assert spec["ends"] == {"deadlock": 4}
    assert all(r["passes"] >= 2 for r in spec["results"])
    assert spec["shares"]["ties"] == 1.0 and spec["shares"]["shared_victories"] == 1.0


def _result(index, rounds, winners, scores, **kw):
    fields = dict(
        index=index,
        seed=index,
        rounds=rounds,
        turns=2 * rounds,
        winners=tuple(winners),
        scores=tuple(scores),
        over=True,
        stuck=False,
        passes=0,
        tied=False,
        end="target",
    )
    fields.update(kw)
    return GameResult(**fields)


def test_summary_statistics_from_known_results():
    results = [
        _result(0, 20, [0], [15, 10]),
        _result(1, 22, [1], [12, 16]),
        _result(2, 24, [0], [17, 9]),
        _result(3, 30, [0, 1], [15, 15], tied=True),
        _result(4, 26, [], [3, 4], over=False, end=None),
    ]
    s = SpecSummary("a.yaml", "a", results, 6).to_dict(2)
    assert s["games"] == 5 and s["requested"] == 6
    # the game stopped at the cap (26 rounds) is left out of the lengths (issue 18)
    assert s["rounds"]["mean"] == 24.0 and s["rounds"]["median"] == 23
    assert [x["wins"] for x in s["seats"]] == [3, 2]
    assert s["seats"][0]["win_rate"] == 0.6
    lo, hi = s["seats"][0]["ci95"]
    assert lo == pytest.approx(0.23072, abs=1e-4) and hi == pytest.approx(0.88237, abs=1e-4)
    assert s["winning_prestige"] == pytest.approx((15 + 16 + 17 + 15) / 4)
    assert s["shares"]["ties"] == 0.2 and s["shares"]["shared_victories"] == 0.2 and s["shares"]["capped"] == 0.2
    assert s["ends"] == {"cap": 1, "target": 4}


def test_comparison_uses_the_first_spec_as_reference():
    a = SpecSummary("a", "a", [_result(i, 28 + i % 3, [i % 2], [15, 12]) for i in range(30)], 30)
    b = SpecSummary("b", "b", [_result(i, 24 + i % 3, [0], [12, 9]) for i in range(30)], 30)
    c = sim.compare(a, b, 2)
    assert c["spec"] == "b" and c["against"] == "a"
    assert c["rounds"]["difference"] == pytest.approx(-4.0)
    assert c["rounds"]["welch"]["p_value"] < 1e-10
    assert c["first_seat_win_rate"]["difference"] == pytest.approx(0.5)
    assert c["first_seat_win_rate"]["two_proportion"]["p_value"] < 0.001
    assert c["winning_prestige"]["difference"] == pytest.approx(12 - 13.5)


def test_report_formats(tmp_path):
    variant = standin(tmp_path, "standin-12", **{"TARGET = 15": "TARGET = 12"})
    result = run_games([standin(), variant], games=6, seed=2, fixed_seats=True)  # bots rotated: test_playtest_records
    table = sim.format_table(result)
    assert "rounds, mean" in table and "seat 1 wins (greedy)" in table and "vs first: rounds" in table
    assert str(STANDIN) in table
    data = json.loads(sim.format_json(result))
    assert data["format"] == "splendor-rules/simulation" and len(data["specs"]) == 2
    assert len(data["comparisons"]) == 1
    rows = list(csv.DictReader(io.StringIO(sim.format_csv(result))))
    assert [r["name"] for r in rows] == ["standin", "standin-12"]
    assert float(rows[0]["rounds_mean"]) == data["specs"][0]["rounds"]["mean"]
    assert rows[0]["rounds_welch_p"] == "" and rows[1]["rounds_welch_p"] != ""


def test_progress_line():
    assert sim.progress_line(0, 10, 0.0, width=10) == "[..........] 0/10 games   0%  0:00 elapsed, ETA --:--"
    assert sim.progress_line(5, 10, 30.0, width=10) == "[#####.....] 5/10 games  50%  0:30 elapsed, ETA 0:30"
    assert sim.progress_line(10, 10, 3725.0, width=4).endswith("1:02:05 elapsed, ETA 0:00")


def test_bad_parameters_are_refused():
    engine = standin()
    with pytest.raises(ValueError, match="5 players"):
        run_games([engine], players=5, bots=["greedy"])
    with pytest.raises(ValueError, match="3 bots for 2 players"):
        run_games([engine], bots=["greedy", "random", "greedy"])
    with pytest.raises(ValueError, match="did you mean 'greedy'"):
        run_games([engine], bots=["greddy"])
    assert parse_bot("mcts:200") == ("mcts", {"playouts": 200}) and parse_bot(" Greedy ") == ("greedy", {})
    for text, message in (("mcts:x", "number of playouts"), ("mcts:0", "at least 1"), ("greedy:3", "no parameter")):
        with pytest.raises(BotError, match=message):
            parse_bot(text)
    assert sim.chunk_size(1000, 2, ["greedy"]) == 10 and sim.chunk_size(1000, 2, ["mcts:50", "greedy"]) == 2
    assert sim.chunk_size(3, 2, ["greedy"]) == 1


def test_plots_write_pngs_and_a_page(tmp_path):
    result = run_games([standin()], games=4)
    files = plots.write(result, tmp_path / "charts")
    names = sorted(p.name for p in files)
    assert names == ["endings.png", "index.html", "rounds.png", "seats.png", "uses.png"]  # uses: issue 18
    for p in files:
        if p.suffix == ".png":
            assert p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    page = (tmp_path / "charts" / "index.html").read_text()
    assert '<img src="rounds.png"' in page and '<img src="seats.png"' in page
    assert sorted(p.name for p in (tmp_path / "charts").iterdir()) == names  # no temporary file left
    mask = os.umask(0)
    os.umask(mask)
    assert all(p.stat().st_mode & 0o777 == 0o666 & ~mask for p in files)  # ordinary files, not 0600


def test_plots_without_matplotlib_say_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # makes `import matplotlib` fail
    with pytest.raises(plots.PlotError, match="pip install matplotlib"):
        plots.require()


# ----------------------------------------------------------------------------- the command


def cli(*args, **kw):
    return subprocess.run(
        [sys.executable, "-m", "app", *args], cwd=HERE.parent, capture_output=True, text=True, timeout=120, **kw
    )


def test_cli_simulate_json_is_the_same_for_any_jobs():
    args = ("simulate", str(STANDIN), "--games", "6", "--bots", "greedy,random", "--seed", "4", "--json")
    one = cli(*args, "--jobs", "1")
    two = cli(*args, "--jobs", "2")
    assert one.returncode == 0, one.stderr
    assert one.stdout == two.stdout
    assert json.loads(one.stdout)["specs"][0]["games"] == 6
    assert one.stderr == ""  # no progress bar when stderr is not a terminal


def test_cli_progress_and_csv():
    out = cli("simulate", str(STANDIN), "--games", "3", "--jobs", "1", "--csv", "--progress")
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("spec,name,games")
    assert "3/3 games 100%" in out.stderr


def test_cli_usage_errors():
    out = run_app("simulate", str(STANDIN), "--bots", "gredy")
    assert out.returncode == 2 and "did you mean 'greedy'" in out.stderr and "Traceback" not in out.stderr
    out = run_app("simulate", "nowhere.yaml")
    assert out.returncode == 2 and "no such spec file" in out.stderr
    out = run_app("simulate", str(STANDIN), "--players", "7")
    assert out.returncode == 2 and "7 players" in out.stderr
    out = run_app("simulate", str(STANDIN), "--json", "--csv")
    assert out.returncode == 2


def test_cli_ctrl_c_reports_what_finished():
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "app",
            "simulate",
            str(STANDIN),
            "--games",
            "100000",
            "--jobs",
            "2",
            "--progress",
            "--bots",
            "random",
        ],
        cwd=HERE.parent,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        # as at a terminal: a test run started in the background (`nohup ... &`) ignores SIGINT,
        # and a child inherits that, so the command would never see its Ctrl-C
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        deadline = time.monotonic() + 60
        line = ""
        while time.monotonic() < deadline:  # wait for the first progress line
            line = proc.stderr.readline()
            if "games" in line:
                break
        assert "games" in line, line
        time.sleep(1.0)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, err
    assert "interrupted: " in err and "Traceback" not in err
    assert "rounds, mean" in out and "interrupted: " in out


def test_plot_into_a_folder_that_cannot_be_made_says_so(tmp_path):
    (tmp_path / "file").write_text("not a folder", encoding="utf-8")
    result = cli(
        "simulate",
        "official",
        "--games",
        "2",
        "--jobs",
        "1",
        "--no-progress",
        "--plot",
        str(tmp_path / "file" / "charts"),
        "--cache-dir",
        str(tmp_path / "cache"),
    )
    assert result.returncode == 1
    assert f"error: cannot write the charts to {tmp_path / 'file' / 'charts'}: Not a directory" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_billion_games_stream_from_the_first_game(jobs):
    """The chunks are made as the runners ask: a billion games start at once, in bounded memory,
    and Ctrl-C keeps the games already played (the same as a short run_games's)."""
    import itertools
    import tracemalloc

    first = list(itertools.islice(sim.make_chunks([standin()], 2, 10**9, ("greedy", "greedy"), 0, 50, 10), 3))
    assert [c.indexes for c in first] == [tuple(range(0, 10)), tuple(range(10, 20)), tuple(range(20, 30))]

    RANDOM = ["random", "random"]  # what the games are does not matter here: the quickest bots

    def stop(done, total):
        if done >= 6:
            raise KeyboardInterrupt

    tracemalloc.start()
    try:
        result = run_games([standin()], games=10**9, jobs=jobs, chunk=2, progress=stop, max_turns=60, bots=RANDOM)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert result.interrupted and 6 <= result.finished < 100
    assert peak < 50_000_000, f"{peak} bytes traced for a billion games"
    played = max(r.index for r in result.specs[0].results) + 1  # a short run of as many games as were reached
    short = {r.index: r for r in run_games([standin()], games=played, max_turns=60, bots=RANDOM).specs[0].results}
    assert all(short[r.index] == r for r in result.specs[0].results)


def test_the_engine_cap_ends_a_simulated_game_as_capped(tmp_path):
    result = run_games([standin()], games=4, max_turns=6)
    assert all(not r.over and r.end is None and r.turns == 6 and r.winners == () for r in result.specs[0].results)
    assert result.to_dict()["specs"][0]["shares"]["capped"] == 1.0


@pytest.mark.parametrize("name", ["official", "auto-noble", "sweep"])
def test_a_game_read_from_to_dict_records_what_its_json_says(name, monkeypatch):
    """play_game reads the end of a game from the engine's to_dict (not its JSON text written and
    parsed again): every result field, the record included, is the same as read from the JSON."""
    root = HERE.parent
    module = engines.load(
        str(root / ("rulespec/official.yaml" if name == "official" else f"variants/{name}.yaml"))
    ).module
    fast = [
        sim.play_game(module, 2, ("greedy", "random"), seed, seed, max_turns=20 if seed == 0 else 300)
        for seed in range(4)
    ]
    for seed in range(4):  # the state itself, at the end of each game
        g = module.new_game(2, seed=seed, max_turns=20 if seed == 0 else 300)
        for a in fast[seed].actions:
            g.apply(a)
        assert sim_game._state(g) == json.loads(g.to_json())
    monkeypatch.setattr(sim_game, "_state", lambda game: json.loads(game.to_json()))
    slow = [
        sim.play_game(module, 2, ("greedy", "random"), seed, seed, max_turns=20 if seed == 0 else 300)
        for seed in range(4)
    ]
    assert fast == slow
    assert {r.end_reason for r in fast} >= {"truncated"} and any(r.over for r in fast)


def test_an_engine_without_to_dict_is_read_from_its_json():
    game = standin().module.new_game(2, seed=3)
    assert not hasattr(game, "to_dict")
    assert sim_game._state(game) == json.loads(game.to_json())
