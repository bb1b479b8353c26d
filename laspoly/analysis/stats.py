"""Small, dependency-free statistics for the probability lab: intervals and tests."""

from __future__ import annotations

import math
from collections.abc import Sequence


def wilson(successes: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson 95% interval of a proportion (sensible even at 0 or n successes)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_interval(values: list[float], z: float = 1.96) -> tuple[float, float, float]:
    """Mean of ``values`` with a normal-approximation 95% interval."""
    n = len(values)
    if n == 0:
        return (math.nan, math.nan, math.nan)
    mean = sum(values) / n
    if n == 1:
        return (mean, mean, mean)
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    half = z * sd / math.sqrt(n)
    return (mean, mean - half, mean + half)


def chi2_sf(x: float, df: int) -> float:
    """P(X >= x) for a chi-square variable with ``df`` degrees of freedom."""
    if x <= 0:
        return 1.0
    return 1.0 - _lower_gamma_regularized(df / 2, x / 2)


def _lower_gamma_regularized(a: float, x: float) -> float:
    """P(a, x), by its series for x < a + 1 and its continued fraction otherwise."""
    if x < a + 1:
        term = total = 1.0 / a
        k = a
        for _ in range(10_000):
            k += 1
            term *= x / k
            total += term
            if term < total * 1e-15:
                break
        return total * math.exp(-x + a * math.log(x) - math.lgamma(a))
    # Lentz's continued fraction for Q(a, x)
    b = x + 1 - a
    c = 1 / 1e-300
    d = 1 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = 1e-300 if abs(d) < 1e-300 else d
        c = b + an / c
        c = 1e-300 if abs(c) < 1e-300 else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return 1.0 - math.exp(-x + a * math.log(x) - math.lgamma(a)) * h


def goodness_of_fit(observed: list[int], shares: list[float]) -> tuple[float, float]:
    """Chi-square test that ``observed`` counts follow the expected ``shares``: (statistic, p-value).

    This is the right test for tournament wins: each game has exactly one winner,
    so the bots' win counts are one multinomial sample, not independent samples.
    """
    total = sum(observed)
    if total == 0 or len(observed) < 2:
        return (0.0, 1.0)
    norm = sum(shares)
    stat = sum((o - total * s / norm) ** 2 / (total * s / norm) for o, s in zip(observed, shares, strict=True) if s > 0)
    return (stat, chi2_sf(stat, len(observed) - 1))


def binomial_two_sided_p(k: int, n: int, p: float = 0.5) -> float:
    """Exact two-sided binomial p-value: the chance of a count at most as likely as ``k`` out of ``n``."""
    if n == 0:
        return 1.0
    if n > 3000:
        se = math.sqrt(n * p * (1 - p))
        return math.erfc(abs(k - n * p) / se / math.sqrt(2))

    def pmf(i: int) -> float:
        return math.exp(math.lgamma(n + 1) - math.lgamma(i + 1) - math.lgamma(n - i + 1) + i * math.log(p) + (n - i) * math.log(1 - p))

    observed = pmf(k)
    return min(1.0, sum(q for i in range(n + 1) if (q := pmf(i)) <= observed * (1 + 1e-9)))


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile (0-1) by linear interpolation."""
    if not values:
        return math.nan
    xs = sorted(values)
    k = (len(xs) - 1) * q
    lo, hi = math.floor(k), math.ceil(k)
    return xs[lo] + (xs[hi] - xs[lo]) * (k - lo)
