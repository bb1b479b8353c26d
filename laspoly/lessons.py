"""The classroom notebooks' exercises and their checker.

A lesson's check cell names its exercise and nothing else: ``check("01.2", answer_doubles)``.  The
expected value, the precision wanted and a hint live here, keyed by exercise id (lesson number, dot,
exercise number), so a student's copy of a notebook shows none of them.  ``check`` prints feedback and
returns True or False; it never raises, so a student's notebook always runs to the end.

What a check accepts, so that it teaches rather than nags:

* a **probability** as an exact fraction (``Fraction(1, 6)``, ``"1/6"``, ``1 / 6``), as a decimal
  rounded to at least two significant figures (``0.1667``, ``0.17``), or as a percentage
  (``"16.7%"``, or ``16.7``, read as a percentage because a probability is at most 1);
* a **number** as a decimal rounded to at least the exercise's significant figures, or unrounded;
* a **whole** number exactly; a **text** answer whatever its case.

A decimal is right when it is the expected value *correctly rounded* to the digits it shows
(``0.0046`` for 1/216 = 0.004629..., but not ``0.0047`` nor a cut-off ``0.1666`` for 1/6).  An
answer within 5% that fails this gets a hint about rounding instead of a plain "not quite".
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal

Kind = Literal["probability", "number", "whole", "text"]

#: an answer this close (relative error) but not right gets a hint about rounding and precision
NEAR = 0.05

_FRACTION = re.compile(r"^\s*([+-]?\d+)\s*/\s*(\d+)\s*$")
_DECIMAL = re.compile(r"^\s*([+-]?(?:\d[\d,]*)?(?:\.\d+)?(?:[eE][+-]?\d+)?)\s*(%?)\s*$")


@dataclass(frozen=True)
class Exercise:
    """One exercise: its expected value, what precision it wants, and a hint that does not give it away."""

    expected: Fraction | float | int | str
    hint: str
    kind: Kind = "number"
    #: significant figures a rounded decimal must show at least
    min_sig: int = 2
    #: an unrounded answer (worked out in Python) within this relative error is right
    rel_tol: float = 1e-6
    #: the answers a text exercise offers ("yes" or "no"): naming them in the instructions gives nothing away
    choices: tuple[str, ...] = ()

    def precision(self) -> str:
        """The precision wanted, in words, printed with every check that is not right."""
        if self.kind == "probability":
            return (f"Give a probability as a fraction (like 3/8), or as a decimal or a percentage rounded to at least "
                    f"{self.min_sig} significant figures.")
        if self.kind == "number":
            return f"Give a number, unrounded or rounded to at least {self.min_sig} significant figures."
        if self.kind == "whole":
            return "Give a whole number."
        if self.choices:
            return "Answer " + " or ".join(f'"{c}"' for c in self.choices) + ", in quotes."
        return "Give the answer as text, in quotes."

    def judge(self, answer: Any) -> Verdict:
        """The verdict on ``answer``: right or not, and the feedback a student reads."""
        if answer is Ellipsis:
            return Verdict(False, f"Not answered yet. {self.precision()} Hint: {self.hint}")
        if self.kind == "text":
            ok = isinstance(answer, str) and answer.strip().strip("'\"").casefold() == str(self.expected).casefold()
            return Verdict(ok, "Correct!" if ok else self._wrong(answer))
        given = _read(answer, percent_ok=self.kind == "probability")
        if given is None:
            return Verdict(False, f"Cannot read {answer!r} as a number. {self.precision()}")
        value, sig, percent = given
        if sig is None and self.kind != "whole" and isinstance(answer, int) and answer:
            sig = _significant(str(answer))  # 2400 for a pot in the thousands is a rounded number
        if self.kind == "whole":
            ok = float(value) == float(self.expected)  # 150.0 is 150 too
            return Verdict(ok, "Correct!" if ok else self._wrong(answer))
        expected = float(self.expected)
        given_value = float(value)
        if self._right(value, sig, expected):
            return Verdict(True, "Correct!" + (" (read as a percentage)" if percent else ""))
        if self.kind == "probability" and sig is not None and not percent and 1 < float(value) <= 100:
            as_percent = value / 100
            if self._right(as_percent, sig, expected):
                return Verdict(True, "Correct! (read as a percentage)")
            value = as_percent
        near = _relative_error(float(value), expected) <= NEAR
        if sig is not None and sig < self.min_sig and _rounds_to(float(value), sig, expected):
            return Verdict(False, f"Close: you gave {answer!r}, the right size but too few digits. "
                                  f"Give at least {self.min_sig} significant figures.")
        if near:
            return Verdict(False, f"Close, but not right to the digits you gave ({answer!r}). Round, do not cut off: "
                                  f"0.12345 to 3 significant figures is 0.123, 0.12355 is 0.124. {self.precision()} "
                                  "If your rounding is right, check your working.")
        if self.kind == "probability" and not 0 <= given_value <= 1:
            return Verdict(False, f"Not quite: {answer!r} is not a probability, which is between 0 and 1. Hint: {self.hint}")
        return Verdict(False, self._wrong(answer))

    def _right(self, value: Fraction, sig: int | None, expected: float) -> bool:
        if sig is None:  # exact (a whole number or a fraction)
            return math.isclose(float(value), expected, rel_tol=max(self.rel_tol, 1e-12), abs_tol=1e-15)
        if _relative_error(float(value), expected) <= self.rel_tol:
            return True
        return sig >= self.min_sig and _rounds_to(float(value), sig, expected)

    def _wrong(self, answer: Any) -> str:
        return f"Not quite: you gave {answer!r}. {self.precision()} Hint: {self.hint}"


@dataclass(frozen=True)
class Verdict:
    """Whether an answer is right, and what to tell the student."""

    ok: bool
    message: str


def _relative_error(value: float, expected: float) -> float:
    return abs(value - expected) / abs(expected) if expected else abs(value)


def _rounds_to(value: float, sig: int, expected: float) -> bool:
    """Whether ``value``, written with ``sig`` significant figures, is ``expected`` correctly rounded."""
    if value == 0:
        return expected == 0
    unit = 10.0 ** (math.floor(math.log10(abs(value))) - sig + 1)
    return abs(value - expected) <= 0.5 * unit * (1 + 1e-9)


def _significant(text: str) -> int:
    """Significant figures of a decimal as written (an integer's trailing zeros do not count)."""
    mantissa = re.split(r"[eE]", text.strip().lstrip("+-"))[0].replace(",", "")
    digits = mantissa.replace(".", "").lstrip("0")
    if "." not in mantissa:
        digits = digits.rstrip("0")
    return max(len(digits), 1)


def _read(answer: Any, *, percent_ok: bool) -> tuple[Fraction, int | None, bool] | None:
    """An answer as (value, significant figures or None when exact, written as a percentage)."""
    if isinstance(answer, bool):
        return None
    if isinstance(answer, int | Fraction):
        return Fraction(answer), None, False
    if isinstance(answer, str):
        m = _FRACTION.match(answer)
        if m:
            return (Fraction(int(m.group(1)), int(m.group(2))), None, False) if int(m.group(2)) else None
        m = _DECIMAL.match(answer)
        if not m or not any(ch.isdigit() for ch in m.group(1)) or (m.group(2) and not percent_ok):
            return None
        number = float(m.group(1).replace(",", ""))
        if not math.isfinite(number):
            return None
        sig = _significant(m.group(1))
        return (Fraction(number) / 100, sig, True) if m.group(2) else (Fraction(number), sig, False)
    try:
        number = float(answer)  # numpy scalars and other numbers
    except (TypeError, ValueError, OverflowError):
        return None
    if not math.isfinite(number):
        return None
    if number.is_integer() and not isinstance(answer, float) and hasattr(answer, "dtype") and answer.dtype.kind in "iu":
        return Fraction(int(number)), None, False
    text = repr(number)
    if number.is_integer() and abs(number) < 1e16:
        text = str(int(number))
    return Fraction(number), _significant(text), False


#: Every exercise of the lessons, by id.  The teacher notebooks' own solutions are checked against these
#: values each time the lessons run (their hidden ``assert check(...)`` cells), so a value that drifts from
#: what the library computes fails the lesson's test.
EXERCISES: dict[str, Exercise] = {
    # Lesson 01: two dice
    "01.1": Exercise(Fraction(1, 6), "List the totals that are 10 or more and count the outcomes that make each of them.",
                     kind="probability"),
    "01.2": Exercise(Fraction(1, 6), "Count the pairs (a, b) with a == b among the 36 outcomes.", kind="probability"),
    "01.3": Exercise((5 / 36 / 10_000) ** 0.5, "Put p = your answer to exercise 2 and n = 10000 into sqrt(p * (1 - p) / n).",
                     min_sig=2),
    "01.4": Exercise(Fraction(1, 216), "Three independent rolls: multiply P(doubles) by itself, once for each roll.",
                     kind="probability"),
    # Lesson 02: the board as a Markov chain
    "02.1": Exercise(123, "Multiply the squares by the doubles counts, then add the prison turns times the tries per turn.",
                     kind="whole"),
    "02.2": Exercise("Casino", "Sort frame.iloc[:-1] by the probability column; the answer is a field name in quotes.",
                     kind="text"),
    "02.3": Exercise(Fraction(91, 216), "Use the complement: the three tries all fail with probability (5/6)**3.",
                     kind="probability"),
    "02.4": Exercise(0.10788369793876487, "Read .squares[25] of the per-turn chain with train_target=25: a probability, "
                                          "not a percent.", kind="probability", min_sig=3, rel_tol=1e-3),
    # Lesson 03: the casino pot
    "03.1": Exercise(Fraction(7, 144), "Weigh 1/4 by P(doubles other than 6-6) = 5/36 and 1/2 by P(6-6) = 1/36, then add.",
                     kind="probability"),
    "03.2": Exercise(0.04238871450440879, "Same weights as exercise 1, with the chain's probabilities given a landing "
                                          "on the Casino.", kind="probability", min_sig=3, rel_tol=1e-4),
    "03.3": Exercise(3.8558989797981686, "Multiply each field's payment by its landing probability per roll (p[4], p[38]) "
                                         "and add.", min_sig=3, rel_tol=1e-3),
    "03.4": Exercise(2359.118486350869, "Solve s * pot = 100 for the pot, with s from exercise 2; the pot is in the thousands.",
                     min_sig=3, rel_tol=1e-3),
    # Lesson 04: factories or hotels
    "04.1": Exercise(6.071689948048643, "Fewer opponents means fewer landings, so the factory gives up less group rent: "
                                        "expect fewer rounds than against 3 opponents.", min_sig=3, rel_tol=1e-3),
    "04.2": Exercise(11, "A boolean column sums to the number of its True values.", kind="whole"),
    "04.3": Exercise(0.02154336145631356, "centre - half-width, with p = wins / games and n = games.", kind="probability",
                     min_sig=2, rel_tol=1e-3),
    "04.4": Exercise("yes", "Significant at the 5% level means a p-value below 0.05.", kind="text", choices=("yes", "no")),
    # Lesson 05: play Las Poly
    "05.1": Exercise(200 - 100, "Passing Start pays a salary; then look up what field 4 does.", kind="whole"),
    "05.2": Exercise(100, "Work out the pot from what Ben and Cy paid, then apply rule L8 to a double six.", kind="whole"),
    "05.3": Exercise(150, "Count the stations forward from 25 to 5; each costs the same fare, and no salary by train.",
                     kind="whole"),
    "05.4": Exercise(Fraction(91, 216), "Use the complement: P(no doubles in one try) = 5/6, and the tries are independent.",
                     kind="probability"),
}


def check(exercise: str, answer: Any, *, quiet: bool = False) -> bool:
    """Check ``answer`` to the exercise with id ``exercise`` (such as ``"01.2"``); print feedback unless quiet."""
    spec = EXERCISES.get(exercise)
    if spec is None:
        if not quiet:
            print(f"There is no exercise {exercise!r} (known: {', '.join(EXERCISES)}).")
        return False
    verdict = spec.judge(answer)
    if not quiet:
        print(verdict.message)
    return verdict.ok
