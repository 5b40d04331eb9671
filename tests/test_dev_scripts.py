"""The set-up scripts (dev/build.sh, dev/test.sh) say which stage they are running, and the
test suite shows its progress one line per test file, so that a long stage is not taken for a hang."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def run_bash(script: str) -> subprocess.CompletedProcess:
    return subprocess.run(["bash", "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=60)


def test_each_stage_is_announced_numbered_with_the_time_of_the_one_before():
    done = run_bash(
        "set -euo pipefail; STAGES=2; source dev/stages.sh; stage 'first part'; echo work; "
        "stage 'second part'; echo more"
    )
    assert done.returncode == 0, done.stderr
    lines = [re.sub(r"\d+ s\b", "N s", line) for line in done.stdout.splitlines()]
    assert lines == [
        "==> [1/2] first part",
        "work",
        "    (done in N s)",
        "==> [2/2] second part",
        "more",
        "    (done in N s)",
        "==> all 2 stages done in N s",
    ]


def test_a_failing_stage_is_named():
    done = run_bash(
        "set -euo pipefail; STAGES=3; source dev/stages.sh; stage 'first part'; stage 'second part'; exit 4"
    )
    assert done.returncode == 4
    assert re.fullmatch(r"==> stage 2/3 failed \(exit status 4\) after \d+ s: second part\n", done.stderr)
    assert "all 3 stages done" not in done.stdout


@pytest.mark.parametrize(
    "script, stages",
    [
        ("dev/test.sh", ["system packages", "virtual environment", "install", "lint", "tests"]),
        ("dev/build.sh", ["system packages", "virtual environment", "install", "build"]),
    ],
)
def test_the_set_up_scripts_announce_their_stages(script, stages):
    text = (ROOT / script).read_text(encoding="utf-8")
    announced = re.findall(r'^stage "([^"]+)"$', text, re.M)
    assert [a.split(" (")[0] for a in announced] == stages
    assert f"\nSTAGES={len(stages)}\nsource dev/stages.sh\n" in text


def test_pytest_shows_its_progress_and_its_count():
    """As dev/test.sh runs it (its own options: every core), on two small test files: a line of
    dots ends with its percentage, so that a long stage is not mistaken for a hang, and the last
    line counts what passed (what CI reads)."""
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            "-n",
            "2",
            "tests/test_playtest_stats.py",  # two modules of pure functions: a few seconds with -n 2
            "tests/test_playtest_summary.py",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout[-2000:]
    assert re.search(r"^[.sFE]+ +\[100%\]$", done.stdout, re.M), done.stdout[-2000:]
    assert re.search(r"^=+ \d+ passed in [\d.]+s", done.stdout.splitlines()[-1]), done.stdout[-2000:]


def test_every_single_slow_test_named_in_conftest_exists():
    """tests/helpers/tiers.py SLOW_TESTS names tests by module and name: a test renamed or removed must
    leave the list too, or a new test of the same name would silently leave the fast tier."""
    from tests.helpers.tiers import SLOW_TESTS

    for key in SLOW_TESTS:
        module, name = key.split("::")
        text = (ROOT / "tests" / module).read_text(encoding="utf-8")
        assert re.search(rf"^def {re.escape(name)}\(", text, re.M), f"{key} is no test of tests/{module}"


def test_every_catalogue_test_named_in_tiers_exists_and_the_fast_specs_are_in_the_catalogue():
    """tests/helpers/tiers.py CATALOGUE_TESTS names tests run once per catalogue spec, FAST_SPECS the
    specs the fast tier runs them on: a renamed test must leave the list, and a fast spec must be one
    of the catalogue's (a spec of another name would leave every catalogue test to the whole suite)."""
    import yaml

    from tests.helpers.tiers import CATALOGUE_TESTS, FAST_SPECS, spec_of

    for key in CATALOGUE_TESTS:
        module, name = key.split("::")
        text = (ROOT / "tests" / module).read_text(encoding="utf-8")
        assert re.search(rf"^@pytest\.mark\.parametrize\(.*\n(?:@.*\n)*def {re.escape(name)}\(", text, re.M), key
    index = yaml.safe_load((ROOT / "variants" / "index.yaml").read_text(encoding="utf-8"))
    assert FAST_SPECS <= {"official", *index["variants"]}
    ids = ("variants/trading-posts.yaml", "trading-posts", "trading_posts", "generated/engines/trading_posts.py")
    assert {spec_of(i) for i in ids} == {"trading-posts"}
