"""Checkers for the classroom notebooks' exercises.

``check(answer, expected, hint=...)`` prints friendly feedback and returns
True or False; it never raises, so a student's notebook always runs to the
end.  An exercise left as ``...`` says so and shows the hint.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any


def _close(a: Any, b: Any, tol: float) -> bool:
    if isinstance(b, str):
        return isinstance(a, str) and a.strip().casefold() == b.strip().casefold()
    if isinstance(b, Sequence):
        return isinstance(a, Sequence) and len(a) == len(b) and all(_close(x, y, tol) for x, y in zip(a, b, strict=True))
    try:
        return math.isclose(float(a), float(b), rel_tol=tol, abs_tol=tol)
    except (TypeError, ValueError):
        return False


def check(answer: Any, expected: Any, hint: str = "", *, tol: float = 1e-6, quiet: bool = False) -> bool:
    """Compare an exercise's answer with the expected one (numbers to ``tol``); print feedback."""
    if answer is Ellipsis:
        if not quiet:
            print(f"Not answered yet. Hint: {hint}" if hint else "Not answered yet.")
        return False
    ok = _close(answer, expected, tol)
    if not quiet:
        print("Correct!" if ok else f"Not quite: you gave {answer!r}. Hint: {hint}" if hint else f"Not quite: you gave {answer!r}.")
    return ok
