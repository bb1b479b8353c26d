"""A game that checks the engine's invariants after every event, for the tests and the soak run.

The checks themselves are in :mod:`~laspoly.engine.invariants`, below the game;
this module builds on both.
"""

from __future__ import annotations

from laspoly.engine import events as E
from laspoly.engine.game import Game
from laspoly.engine.invariants import STRUCTURE_EVENTS, InvariantError, always_problems, money_problems
from laspoly.engine.native import mypyc_attr

__all__ = ["CheckedGame", "InvariantError"]


@mypyc_attr(allow_interpreted_subclasses=True)  # the soak subclasses it with a deliberately broken rule
class CheckedGame(Game):
    """A game that checks the invariants after every event.

    Money after every event; ownership, buildings and cards after every event
    that can change them (:data:`STRUCTURE_EVENTS`).
    """

    events_checked = 0

    def _emit(self, event: E.Event) -> None:
        super()._emit(event)
        self.events_checked += 1
        found = always_problems(self) if isinstance(event, STRUCTURE_EVENTS) else money_problems(self)
        if found:
            raise InvariantError(f"after {type(event).__name__} ({self.describe(event)}): " + "; ".join(found))
