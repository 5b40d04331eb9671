"""Statistics for playtest results, with the standard library only.

Means and medians, the Wilson score interval for a proportion, Welch's t-test and the
Mann-Whitney U test for two samples of game lengths, and the two-proportion z-test for
win rates. The Student t distribution is computed through the regularized incomplete
beta function (Lentz's continued fraction, as in Numerical Recipes), the normal one
through :func:`math.erfc`. Nothing here knows about games.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

Z95 = 1.959963984540054  # the 97.5 % quantile of the standard normal distribution


@dataclass(frozen=True, slots=True)
class Test:
    """The outcome of a two-sample test: the statistic, its p-value (two-sided), its name."""

    name: str
    statistic: float
    p_value: float

    def to_dict(self) -> dict:
        return {"test": self.name, "statistic": _finite(self.statistic), "p_value": _finite(self.p_value)}


def _finite(x: float) -> float | None:
    return x if math.isfinite(x) else None


def mean(xs: Sequence[float]) -> float:
    return math.fsum(xs) / len(xs) if xs else math.nan


def median(xs: Sequence[float]) -> float:
    if not xs:
        return math.nan
    s = sorted(xs)
    n = len(s)
    return float(s[n // 2]) if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2


def variance(xs: Sequence[float]) -> float:
    """The sample variance (n - 1 in the denominator)."""
    n = len(xs)
    if n < 2:
        return math.nan
    m = mean(xs)
    return math.fsum((x - m) ** 2 for x in xs) / (n - 1)


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a binomial proportion (95 % by default)."""
    if n == 0:
        return (math.nan, math.nan)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def normal_sf2(z: float) -> float:
    """Two-sided tail of the standard normal: P(|Z| >= |z|)."""
    return math.erfc(abs(z) / math.sqrt(2))


def _betacf(a: float, b: float, x: float) -> float:
    """Continued fraction of the incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1, a - 1
    c, d = 1.0, 1 - qab * x / qap
    d = 1 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 400):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1 + aa * d
        d = 1 / (d if abs(d) > tiny else tiny)
        c = 1 + aa / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1 + aa * d
        d = 1 / (d if abs(d) > tiny else tiny)
        c = 1 + aa / c
        c = c if abs(c) > tiny else tiny
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return h


def betainc(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b)."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    log_front = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    if x < (a + 1) / (a + b + 2):
        return math.exp(log_front) * _betacf(a, b, x) / a
    return 1 - math.exp(log_front) * _betacf(b, a, 1 - x) / b


def t_sf2(t: float, df: float) -> float:
    """Two-sided tail of Student's t with `df` degrees of freedom: P(|T| >= |t|)."""
    if math.isnan(t) or math.isnan(df):
        return math.nan
    if math.isinf(t):
        return 0.0
    return betainc(df / 2, 0.5, df / (df + t * t))


def welch(xs: Sequence[float], ys: Sequence[float]) -> Test:
    """Welch's unequal-variance t-test of mean(xs) - mean(ys)."""
    nx, ny = len(xs), len(ys)
    if nx < 2 or ny < 2:
        return Test("welch_t", math.nan, math.nan)
    vx, vy = variance(xs) / nx, variance(ys) / ny
    diff = mean(xs) - mean(ys)
    se2 = vx + vy
    if se2 == 0:
        return Test("welch_t", 0.0 if diff == 0 else math.copysign(math.inf, diff), 1.0 if diff == 0 else 0.0)
    t = diff / math.sqrt(se2)
    df = se2 * se2 / (vx * vx / (nx - 1) + vy * vy / (ny - 1))
    return Test("welch_t", t, t_sf2(t, df))


def mann_whitney(xs: Sequence[float], ys: Sequence[float]) -> Test:
    """The Mann-Whitney U test (normal approximation, tie and continuity corrections).

    The statistic reported is U for `xs`; the p-value is two-sided.
    """
    nx, ny = len(xs), len(ys)
    if nx == 0 or ny == 0:
        return Test("mann_whitney_u", math.nan, math.nan)
    pooled = sorted([(x, 0) for x in xs] + [(y, 1) for y in ys])
    n = nx + ny
    ranks_x = 0.0
    tie_term = 0.0
    i = 0
    while i < n:
        j = i
        while j + 1 < n and pooled[j + 1][0] == pooled[i][0]:
            j += 1
        rank = (i + j) / 2 + 1  # average rank of the tied group, 1-based
        size = j - i + 1
        tie_term += size**3 - size
        ranks_x += rank * sum(1 for k in range(i, j + 1) if pooled[k][1] == 0)
        i = j + 1
    u = ranks_x - nx * (nx + 1) / 2
    mu = nx * ny / 2
    sigma2 = nx * ny / 12 * ((n + 1) - tie_term / (n * (n - 1))) if n > 1 else 0.0
    if sigma2 <= 0:
        return Test("mann_whitney_u", u, 1.0)
    z = (abs(u - mu) - 0.5) / math.sqrt(sigma2)
    return Test("mann_whitney_u", u, min(1.0, normal_sf2(max(0.0, z))))


def two_proportions(k1: int, n1: int, k2: int, n2: int) -> Test:
    """The pooled two-proportion z-test of k1/n1 - k2/n2."""
    if n1 == 0 or n2 == 0:
        return Test("two_proportion_z", math.nan, math.nan)
    p = (k1 + k2) / (n1 + n2)
    se = math.sqrt(p * (1 - p) * (1 / n1 + 1 / n2))
    diff = k1 / n1 - k2 / n2
    if se == 0:
        return Test("two_proportion_z", 0.0, 1.0)
    z = diff / se
    return Test("two_proportion_z", z, normal_sf2(z))
