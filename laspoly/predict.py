"""Predict, then roll: guesses of the dice total, their scores, and the law of large numbers at the table.

Before each roll of a person the player types a guess of the total.  A guess is
kept beside its roll (:class:`Guess`: the roll's action index, the player, the
guess and the total that came), in the room's database when the game is shared,
so every screen and the projector see the same scores.  Beside the guesses, the
table's totals build up against the two-dice distribution, and their distance
from it (total variation: half the sum of the absolute differences of the
shares) shrinks as the rolls accumulate.  Nothing here imports a UI library.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

#: The exact share of each total 2-12 of two dice.
TWO_DICE = tuple((6 - abs(t - 7)) / 36 for t in range(2, 13))


@dataclass(frozen=True)
class Guess:
    """A guess of a roll's total, typed before the roll, and the total that came."""

    index: int  # the roll's action index in the game's history
    player: int
    guess: int
    total: int

    @property
    def right(self) -> bool:
        """True when the guess was the total."""
        return self.guess == self.total


def check_guess(value: object) -> int:
    """A guess is a whole number from 2 to 12; anything else is refused with the range."""
    if isinstance(value, bool) or not isinstance(value, int) or not 2 <= value <= 12:
        raise ValueError("a guess of two dice is a whole number from 2 to 12")
    return value


def scores(guesses: Iterable[Guess], players: int) -> list[tuple[int, int]]:
    """Per player: (right guesses, guesses made)."""
    out = [[0, 0] for _ in range(players)]
    for g in guesses:
        if 0 <= g.player < players:
            out[g.player][0] += g.right
            out[g.player][1] += 1
    return [(right, made) for right, made in out]


def distance(counts: Sequence[int]) -> float:
    """Total variation distance between the totals rolled (counts of 2..12) and two fair dice; 1.0 before any roll."""
    n = sum(counts)
    if not n:
        return 1.0
    return 0.5 * sum(abs(c / n - p) for c, p in zip(counts, TWO_DICE, strict=True))


def running_distance(totals: Iterable[int]) -> list[float]:
    """The distance after each roll of a sequence of totals: the law of large numbers, roll by roll."""
    counts = [0] * 11
    out = []
    for t in totals:
        counts[t - 2] += 1
        out.append(distance(counts))
    return out
