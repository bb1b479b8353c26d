"""The lessons' self-checks: answers accepted to a stated precision, near misses told about rounding, no hint
that gives an answer away."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from helpers import load_tool

from laspoly.lessons import EXERCISES, check


@pytest.mark.parametrize(("exercise", "answer"), [
    ("01.2", 0.1667), ("01.2", 0.17), ("01.2", Fraction(1, 6)), ("01.2", 6 / 36), ("01.2", "1/6"), ("01.2", "16.7%"),
    ("01.2", 16.67), ("01.4", 0.0046), ("01.4", 0.00463), ("01.4", (1 / 6) ** 3), ("01.4", "0.46%"),
    ("05.4", 0.42), ("05.4", 0.4213), ("05.4", "91 / 216"), ("05.4", 1 - (5 / 6) ** 3), ("05.4", np.float64(0.421)),
    ("03.4", 2359), ("03.4", 2360), ("03.4", 2359.1), ("05.1", 100), ("05.1", 100.0), ("05.1", np.int64(100)),
    ("02.2", "casino"), ("04.4", " Yes "),
])
def test_a_reasonable_answer_is_accepted_at_the_precision_it_is_given(exercise: str, answer: object, capsys) -> None:
    assert check(exercise, answer)
    assert capsys.readouterr().out.startswith("Correct!")


@pytest.mark.parametrize(("exercise", "answer", "says"), [
    ("01.2", 0.1666, "Round, do not cut off"),          # cut off, not rounded
    ("01.4", 0.0047, "Round, do not cut off"),
    ("05.4", 0.4, "too few digits"),                     # right size, one significant figure
    ("03.4", 2400, "too few digits"),
    ("05.4", 3, "between 0 and 1"),
    ("01.2", 0.5, "Hint:"),
    ("01.2", ..., "Not answered yet"),
    ("01.2", "a sixth", "Cannot read"),
    ("05.1", 99, "Give a whole number"),
])
def test_a_wrong_answer_is_told_what_precision_is_wanted_or_how_to_round(exercise: str, answer: object, says: str,
                                                                        capsys) -> None:
    assert not check(exercise, answer)
    assert says in capsys.readouterr().out


def test_the_wanted_precision_is_stated_when_an_answer_is_missing(capsys) -> None:
    check("01.4", ...)
    assert "at least 2 significant figures" in capsys.readouterr().out


def test_an_unknown_exercise_id_is_reported_not_raised(capsys) -> None:
    assert not check("99.9", 1)
    assert "no exercise '99.9'" in capsys.readouterr().out


@pytest.mark.parametrize("exercise", sorted(EXERCISES))
def test_no_hint_or_feedback_states_the_answer(exercise: str) -> None:
    tool = load_tool("make_student_notebooks")
    spec = EXERCISES[exercise]
    messages = [spec.judge(...).message, spec.judge(-12345).message, spec.judge("nonsense").message]
    for message in messages:
        for token in tool.number_tokens(message):
            assert not spec.judge(token).ok, f"{exercise}: {token!r} in {message!r} is the answer"
        if spec.kind == "text" and not spec.choices:
            assert str(spec.expected).casefold() not in message.casefold()
