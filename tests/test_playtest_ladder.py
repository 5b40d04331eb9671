"""`splendor-rules ladder` (issue 18, item 7): round robin with rotated seats, OpenSkill ratings."""

from __future__ import annotations

import json
import pathlib
import subprocess
import sys

import pytest

from playtest import ladder, stats
from tests.helpers.playtest import run_app

pytest.importorskip("openskill")  # the ladder extra, installed by the test extra
from openskill.models import PlackettLuce  # noqa: E402

HERE = pathlib.Path(__file__).resolve().parent
STANDIN = str(HERE / "test_playtest_standin.py")


def cli(*args):
    return subprocess.run(
        [sys.executable, "-m", "app", *args], cwd=HERE.parent, capture_output=True, text=True, timeout=900
    )


def test_ratings_follow_the_games_in_order():
    games = [(("a", "b"), (0,)), (("b", "a"), (1,)), (("a", "b"), ()), (("b", "a"), (0, 1))]
    out = {r["bot"]: r for r in ladder.rate(games, ["a", "b"], PlackettLuce)}
    model = PlackettLuce()
    a, b = model.rating(), model.rating()
    [[a], [b]] = model.rate([[a], [b]], ranks=[0, 1])
    [[b], [a]] = model.rate([[b], [a]], ranks=[1, 0])
    # the third game (stopped at the cap: no winner) is not rated; the fourth is a shared victory
    [[b], [a]] = model.rate([[b], [a]], ranks=[0, 0])
    assert out["a"]["mu"] == pytest.approx(a.mu) and out["a"]["sigma"] == pytest.approx(a.sigma)
    assert out["b"]["mu"] == pytest.approx(b.mu)
    assert out["a"]["ordinal"] == pytest.approx(a.mu - 3 * a.sigma)
    assert out["a"]["ci95"] == pytest.approx([a.mu - 1.96 * a.sigma, a.mu + 1.96 * a.sigma])
    assert (out["a"]["games"], out["a"]["wins"]) == (3, 3) and (out["b"]["games"], out["b"]["wins"]) == (3, 1)
    assert out["b"]["win_rate_ci95"] == pytest.approx(list(stats.wilson(1, 3)))
    assert [r["bot"] for r in ladder.rate(games, ["b", "a"], PlackettLuce)] == ["a", "b"]  # ranked by ordinal


def test_bots_are_checked():
    with pytest.raises(ladder.LadderError, match="each bot of a ladder is named once"):
        ladder.check_bots(["greedy", "greedy"], 2)
    with pytest.raises(ladder.LadderError, match="at least 3 different bots"):
        ladder.check_bots(["greedy", "random"], 3)


def test_cli_ladder_is_the_same_for_any_jobs_and_ranks_greedy_over_random():
    args = ("ladder", STANDIN, "--bots", "random,greedy", "--games", "6", "--seed", "2", "--json")
    one, two = cli(*args, "--jobs", "1"), cli(*args, "--jobs", "2")
    assert one.returncode == 0, one.stderr
    assert one.stdout == two.stdout
    data = json.loads(one.stdout)
    assert [r["bot"] for r in data["ratings"]] == ["greedy", "random"]
    assert data["groups"] == [
        {"bots": ["random", "greedy"], "games": 6, "wins_alone": {"random": 0, "greedy": 6}, "capped": 0}
    ]


def test_cli_ladder_usage_errors():
    out = run_app("ladder", STANDIN, "--bots", "greedy,greedy")
    assert out.returncode == 2 and "each bot of a ladder is named once" in out.stderr
    out = run_app("ladder", STANDIN, "--bots", "greedy,gredy")
    assert out.returncode == 2 and "did you mean 'greedy'" in out.stderr and "Traceback" not in out.stderr


def test_ladder_on_a_dask_scheduler_is_the_same_as_here():
    """`ladder --scheduler ADDRESS` (as `simulate --scheduler`): the same ladder as local jobs, by
    the library (one connection for every group, or a Client given) and by the command line."""
    distributed = pytest.importorskip("distributed")  # the optional extra dask[distributed], in the test extra
    from playtest import engines

    engine = engines.load(STANDIN)
    bots = ["random", "greedy", "mcts:4"]
    here = ladder.ladder(engine, bots, games=4, seed=5, jobs=1).to_dict()
    args = ("ladder", STANDIN, "--bots", ",".join(bots), "--games", "4", "--seed", "5", "--json")
    local = cli(*args, "--jobs", "2")
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=False, protocol="tcp", dashboard_address=None
    ) as cluster:  # tcp: the command line connects from outside
        by_address = ladder.ladder(engine, bots, games=4, seed=5, scheduler=cluster.scheduler_address).to_dict()
        with distributed.Client(cluster) as client:
            by_client = ladder.ladder(engine, bots, games=4, seed=5, scheduler=client).to_dict()
        remote = cli(*args, "--scheduler", cluster.scheduler_address)
    assert by_address == here and by_client == here
    assert len(here["groups"]) == 3 and all(g["games"] == 4 for g in here["groups"])
    assert remote.returncode == 0, remote.stderr
    assert remote.stdout == local.stdout
    assert json.loads(remote.stdout) == json.loads(json.dumps(here))


def test_an_unreachable_scheduler_is_a_usage_error():
    pytest.importorskip("distributed")
    out = run_app("ladder", STANDIN, "--bots", "random,greedy", "--games", "2", "--scheduler", "nonsense://x")
    assert out.returncode == 2, out.stderr
    assert "cannot reach the Dask scheduler at 'nonsense://x'" in out.stderr and "Traceback" not in out.stderr
