"""playtest.stats against reference values (computed with SciPy 1.17 and checked by hand)."""

from __future__ import annotations

import math

import pytest

from playtest import stats

XS = [14, 18, 17, 22, 19, 20, 16, 21, 18, 19]
YS = [23, 25, 21, 26, 24, 22, 27, 25, 23, 24]


def test_mean_median_variance():
    assert stats.mean([1, 2, 3, 4]) == 2.5
    assert stats.median([5, 1, 3]) == 3 and stats.median([4, 1, 3, 2]) == 2.5
    assert stats.variance([2, 4, 4, 4, 5, 5, 7, 9]) == pytest.approx(32 / 7)
    assert math.isnan(stats.mean([])) and math.isnan(stats.median([])) and math.isnan(stats.variance([1]))


def test_wilson_interval():
    lo, hi = stats.wilson(7, 20)
    assert lo == pytest.approx(0.181192, abs=1e-6) and hi == pytest.approx(0.567146, abs=1e-6)
    assert stats.wilson(0, 10)[0] == pytest.approx(0.0, abs=1e-12)
    assert stats.wilson(10, 10)[1] == pytest.approx(1.0, abs=1e-12)
    assert stats.wilson(0, 10)[1] == pytest.approx(0.277533, abs=1e-6)
    assert all(math.isnan(x) for x in stats.wilson(0, 0))


def test_student_t_tail():
    assert stats.t_sf2(2.1, 3.5) == pytest.approx(0.1135258252, rel=1e-8)
    assert stats.t_sf2(0.3, 120) == pytest.approx(0.7646962112, rel=1e-8)
    assert stats.t_sf2(0.0, 5) == pytest.approx(1.0)
    assert stats.t_sf2(40.0, 2) == pytest.approx(0.0006244146721847406, rel=1e-8)


def test_welch_t_test():
    t = stats.welch(XS, YS)
    assert t.statistic == pytest.approx(-5.924903173212226, rel=1e-10)
    assert t.p_value == pytest.approx(1.6995244155215105e-05, rel=1e-8)
    same = stats.welch([3, 3, 3], [3, 3, 3])
    assert same.statistic == 0.0 and same.p_value == 1.0
    assert math.isnan(stats.welch([1], [2, 3]).p_value)


def test_mann_whitney_u_test():
    u = stats.mann_whitney(XS, YS)
    assert u.statistic == 2.0
    assert u.p_value == pytest.approx(0.00031803479817687374, rel=1e-8)
    ties = stats.mann_whitney([1, 2, 2, 3, 3, 3], [2, 3, 3, 4, 4, 5])
    assert ties.statistic == 7.0
    assert ties.p_value == pytest.approx(0.07840293453326791, rel=1e-8)


def test_two_proportion_z_test():
    z = stats.two_proportions(30, 50, 20, 50)
    assert z.statistic == pytest.approx(2.0)
    assert z.p_value == pytest.approx(0.04550026389635842, rel=1e-9)
    assert stats.two_proportions(0, 10, 0, 10).p_value == 1.0


def test_to_dict_turns_infinities_into_null():
    d = stats.Test("welch_t", math.inf, 0.0).to_dict()
    assert d == {"test": "welch_t", "statistic": None, "p_value": 0.0}
