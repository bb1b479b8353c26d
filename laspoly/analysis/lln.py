"""The law of large numbers, measured: how far a run of dice totals is from two fair dice, as the rolls add up.

The distance is the total variation distance, half the sum over the totals
2-12 of the gap between the share rolled and the exact share: 0 when the shares
match, 1 when they share nothing.  For fair dice it shrinks about as
``1/sqrt(n)`` with ``n`` rolls, the envelope the teacher's page draws with it.
Pure Python (no plotting), so that the numbers are tested apart from the chart; the distance
itself is :func:`laspoly.predict.distance`, the table's own.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from laspoly.predict import distance

__all__ = ["checkpoints", "envelope", "tv_curve"]


def checkpoints(n: int, points: int = 80) -> list[int]:
    """About ``points`` roll counts from 1 to ``n``, spaced evenly on a log scale (every count while there are few)."""
    if n <= 0:
        return []
    if n <= points:
        return list(range(1, n + 1))
    ratio = n ** (1 / (points - 1))
    return sorted({min(n, max(1, round(ratio ** k))) for k in range(points)} | {n})


def envelope(ns: Sequence[int]) -> list[float]:
    """``1/sqrt(n)`` for each roll count: the scale at which a fair run's distance shrinks."""
    return [1 / math.sqrt(n) for n in ns]


def tv_curve(totals: Sequence[int], points: int = 80) -> tuple[list[int], list[float]]:
    """The distance from two dice of the first ``n`` totals, at :func:`checkpoints` ``n`` of the run, in the run's order.

    ``totals`` are dice totals 2-12 as rolled; anything else is a :class:`ValueError`.
    """
    marks = checkpoints(len(totals), points)
    counts = [0] * 11
    ns: list[int] = []
    tvs: list[float] = []
    wanted = iter(marks)
    mark = next(wanted, None)
    for i, total in enumerate(totals, start=1):
        if not (isinstance(total, int) and 2 <= total <= 12):
            raise ValueError(f"a two-dice total is 2 to 12, not {total!r}")
        counts[total - 2] += 1
        if i == mark:
            ns.append(i)
            tvs.append(distance(counts))
            mark = next(wanted, None)
    return ns, tvs
