"""The one place chance enters a game: dice, card draws and deck shuffles.

Every game owns a :class:`Chance` seeded at setup.  A scripted list of dice
can be put in front of it, so that a lesson or a test can say "the next roll is
double six"; once the script runs out the seeded generator takes over.

Each roll of the dice and each random card draw is a *chance node*, as in
OpenSpiel: a :class:`ChanceNode` lists its outcomes with their exact
probabilities (:class:`~fractions.Fraction`: 1/36 for each ordered pair of
dice, 1/n for each card of an n-card deck).  A simulator lets the seeded
generator pick the outcome; anything else can choose it through a
:class:`Chooser` installed on the :class:`Chance`.  Two choosers come with the
engine: :class:`OutcomeQueue` plays outcomes pushed in advance
(:meth:`Game.push_outcome <laspoly.engine.game.Game.push_outcome>`), and
:func:`walk_outcomes` enumerates every path of outcomes through a piece of play
by replaying it with a longer prefix at each chance node it meets, which is how
the exact Markov chain walks the engine's own rules.  With no chooser (every
seeded game) a roll or a draw costs one extra test of ``chooser is None``.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable, Iterable, Iterator, MutableSequence, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any, TypeVar

from laspoly.engine.native import mypyc_attr
from laspoly.errors import ChanceError, SetupError

MAX_SCRIPT = 10_000

#: An outcome: a pair of dice ``(d1, d2)``, or a card ``(deck name, index in the deck's card list)``.
Outcome = tuple[Any, int]
T = TypeVar("T")


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


@dataclass(frozen=True, slots=True)
class ChanceNode:
    """A chance event and every outcome it can have, each with its exact probability.

    ``deck`` is ``None`` for a roll of the dice, else the name of the deck a card
    is drawn from.  ``probabilities`` repeats ``outcomes``' probabilities as
    floats, for solvers that multiply many of them.
    """

    deck: str | None
    outcomes: tuple[tuple[Outcome, Fraction], ...]
    probabilities: tuple[float, ...]

    @property
    def is_roll(self) -> bool:
        """True for a roll of two dice, False for a card draw."""
        return self.deck is None

    def describe(self) -> str:
        """A few words for messages: "a roll of the dice" or "a card of the chance deck"."""
        return "a roll of the dice" if self.deck is None else f"a card of the {self.deck} deck"


def _node(deck: str | None, outcomes: Sequence[Outcome]) -> ChanceNode:
    p = Fraction(1, len(outcomes))
    return ChanceNode(deck, tuple((o, p) for o in outcomes), (float(p),) * len(outcomes))


#: Two fair dice: the 36 ordered pairs, 1/36 each.
ROLL = _node(None, [(a, b) for a in range(1, 7) for b in range(1, 7)])

#: The same roll with the order of the dice left out: 21 pairs ``a <= b``, a double 1/36, any other 2/36.
#: The rules read the dice only through their total, whether they are doubles and which faces show, never
#: through their order, so a solver may walk these (``tests/engine/test_chance.py`` holds every preset to it).
ROLL_UNORDERED = ChanceNode(
    None,
    tuple(((a, b), Fraction(1 if a == b else 2, 36)) for a in range(1, 7) for b in range(a, 7)),
    tuple((1 if a == b else 2) / 36 for a in range(1, 7) for b in range(a, 7)),
)


@cache
def draw_node(deck: str, size: int) -> ChanceNode:
    """A random draw from a deck of ``size`` cards: each card 1/size (``card_draw=random``)."""
    return _node(deck, [(deck, i) for i in range(size)])


@mypyc_attr(allow_interpreted_subclasses=True)  # a solver's or a lesson's own chooser builds on it
class Chooser:
    """Chooses the outcome of chance nodes in place of the seeded generator.

    :meth:`choose` returns the outcome, or ``None`` to let the dice script and
    the generator decide as usual; it may also raise (see :func:`walk_outcomes`).
    """

    def choose(self, node: ChanceNode) -> Outcome | None:
        """The outcome of ``node``, or ``None`` for the seeded one."""
        raise NotImplementedError


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled, this is what lets copy.deepcopy copy it (figures.branch)
class Chance:
    """Seeded dice and shuffles, with an optional script of dice played first and an optional chooser."""

    __slots__ = ("_next", "_random", "_rng", "_script", "chooser", "seed")

    def __init__(self, seed: int | Any, script: Sequence[tuple[int, int]] = ()) -> None:  # Any: checked below
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
            raise SetupError(f"the seed must be a whole number from 0 to 2**63-1, not {seed!r}")
        self.seed = seed
        self._rng = random.Random(seed)
        self._random = self._rng.random
        self._script = list(script)
        self._next = 0
        self.chooser: Chooser | None = None

    def roll(self) -> tuple[int, int]:
        """Two six-sided dice: the chooser's pair, else the next scripted pair, else two seeded draws."""
        if self.chooser is not None:
            chosen = self.chooser.choose(ROLL)
            if chosen is not None:
                return chosen
        if self._next < len(self._script):
            self._next += 1
            return self._script[self._next - 1]
        r = self._random
        return int(r() * 6) + 1, int(r() * 6) + 1

    def draw(self, deck: str, size: int) -> int:
        """A random card of a deck (``card_draw=random``): the chooser's card, else a seeded draw."""
        if self.chooser is not None:
            chosen = self.chooser.choose(draw_node(deck, size))
            if chosen is not None:
                return chosen[1]
        return self._rng.randrange(size)

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


class OutcomeQueue(Chooser):
    """Outcomes pushed in advance: dice for the next rolls, cards for the next draws from each deck.

    Dice and each deck have a queue of their own, so an outcome always meets the
    kind of event it was meant for.  Once every queue is empty the queue takes
    itself off the :class:`Chance`, and the seeded path is as fast as before.
    """

    __slots__ = ("_chance", "_queues")

    def __init__(self, chance: Chance) -> None:
        self._chance = chance
        self._queues: dict[str | None, deque[Outcome]] = {}

    def push(self, deck: str | None, outcome: Outcome) -> None:
        """Queue ``outcome`` for the next roll (``deck=None``) or the next draw from ``deck``."""
        self._queues.setdefault(deck, deque()).append(outcome)

    def choose(self, node: ChanceNode) -> Outcome | None:
        """The next queued outcome of this kind of event, if any."""
        queue = self._queues.get(node.deck)
        if not queue:
            return None
        outcome = queue.popleft()
        if not any(self._queues.values()):
            self._chance.chooser = None
        return outcome


class ChanceNodeReached(Exception):
    """Raised by :class:`Explorer` at the first chance node its prefix does not decide."""

    def __init__(self, node: ChanceNode) -> None:
        super().__init__(node.describe())
        self.node = node


class Explorer(Chooser):
    """Plays a fixed prefix of outcomes, then stops the play at the next chance node."""

    __slots__ = ("_at", "_prefix")

    def __init__(self, prefix: Sequence[Outcome]) -> None:
        self._prefix = prefix
        self._at = 0

    def choose(self, node: ChanceNode) -> Outcome:
        """The prefix's next outcome; past the prefix, raise :class:`ChanceNodeReached`."""
        if self._at == len(self._prefix):
            raise ChanceNodeReached(node)
        self._at += 1
        return self._prefix[self._at - 1]


def walk_outcomes(play: Callable[[Chooser], T], *, ordered_dice: bool = True,
                  max_nodes: int = 16) -> Iterator[tuple[float, tuple[Outcome, ...], T]]:
    """Every path of chance outcomes through ``play``, with its probability and what ``play`` returned.

    ``play(chooser)`` must set up the same starting position every time, put
    ``chooser`` on the game's :class:`Chance`, play, and return what it wants to
    record.  The walk replays it depth first: at a chance node its prefix does
    not decide, the play stops (:class:`ChanceNodeReached`) and is replayed once
    for each outcome of that node.  With ``ordered_dice=False`` a roll branches
    into the 21 pairs of :data:`ROLL_UNORDERED` instead of 36.  A path longer
    than ``max_nodes`` chance nodes raises :class:`~laspoly.errors.ChanceError`
    (a loop of card draws).  Probabilities are floats of the exact ones
    (products of 1/36, 2/36 and 1/n).
    """
    stack: list[tuple[float, tuple[Outcome, ...]]] = [(1.0, ())]
    while stack:
        p, prefix = stack.pop()
        try:
            result = play(Explorer(prefix))
        except ChanceNodeReached as reached:
            node = reached.node if ordered_dice or not reached.node.is_roll else ROLL_UNORDERED
            if len(prefix) >= max_nodes:
                raise ChanceError(f"more than {max_nodes} chance events in one play (a loop of cards?)") from None
            for (outcome, _), q in zip(reversed(node.outcomes), reversed(node.probabilities), strict=True):
                stack.append((p * q, (*prefix, outcome)))
            continue
        yield p, prefix, result
