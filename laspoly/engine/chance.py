"""The one place chance enters a game: dice and deck shuffles.

Every game owns a :class:`Chance` seeded at setup.  A scripted list of dice
can be put in front of it, so that a lesson or a test can say "the next roll is
double six"; once the script runs out the seeded generator takes over.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, MutableSequence, Sequence
from typing import Any

from laspoly.errors import SetupError

MAX_SCRIPT = 10_000


def parse_dice_script(script: Iterable[Any] | str | None) -> list[tuple[int, int]]:
    """Validate a dice script: pairs like ``[(6, 6), (1, 2)]`` or the text ``"6-6 1-2"``."""
    if script is None:
        return []
    if isinstance(script, str):
        script = [tuple(part.split("-")) for part in script.replace(",", " ").split()]
    pairs = []
    for i, pair in enumerate(script):
        try:
            a, b = (int(x) for x in pair)
        except (TypeError, ValueError):
            raise SetupError(f"dice script entry {i + 1} ({pair!r}) must be two dice like 6-6") from None
        if not (1 <= a <= 6 and 1 <= b <= 6):
            raise SetupError(f"dice script entry {i + 1} ({a}-{b}): each die shows 1 to 6")
        pairs.append((a, b))
        if len(pairs) > MAX_SCRIPT:
            raise SetupError(f"a dice script holds at most {MAX_SCRIPT} rolls")
    return pairs


class Chance:
    """Seeded dice and shuffles, with an optional script of dice played first."""

    __slots__ = ("_next", "_random", "_rng", "_script", "seed")

    def __init__(self, seed: int, script: Sequence[tuple[int, int]] = ()) -> None:
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
            raise SetupError(f"the seed must be a whole number from 0 to 2**63-1, not {seed!r}")
        self.seed = seed
        self._rng = random.Random(seed)
        self._random = self._rng.random
        self._script = list(script)
        self._next = 0

    def roll(self) -> tuple[int, int]:
        """Two six-sided dice: the next scripted pair, else two seeded draws."""
        if self._next < len(self._script):
            self._next += 1
            return self._script[self._next - 1]
        r = self._random
        return int(r() * 6) + 1, int(r() * 6) + 1

    def shuffle(self, items: MutableSequence[Any]) -> None:
        """Shuffle a deck in place with the game's generator."""
        self._rng.shuffle(items)

    def choice_index(self, n: int) -> int:
        """A seeded draw of one index out of ``n`` (the first player, L1)."""
        return self._rng.randrange(n)

    @property
    def script_left(self) -> int:
        """How many scripted rolls have not been played yet."""
        return len(self._script) - self._next

    def getstate(self) -> tuple[Any, int]:
        """The generator's state and script position, for snapshots and digests."""
        return self._rng.getstate(), self._next

    def setstate(self, generator: Any) -> None:
        """Put the generator back in a state :meth:`getstate` gave (a position carries it)."""
        self._rng.setstate(generator)
