"""A game that checks the engine's invariants after every event, for the tests and the soak run.

The checks themselves are in :mod:`~laspoly.engine.invariants`, below the game; a checked game is a
:class:`Game` whose observer (:mod:`~laspoly.engine.gamestate`) runs them, so this module sits above both.
"""

from __future__ import annotations

from typing import Any, Final

from laspoly.engine import events as E
from laspoly.engine.game import Game
from laspoly.engine.gamestate import RentPolicy, SalaryHook
from laspoly.engine.invariants import ROUTINE_EVENTS, STRUCTURE_EVENTS, InvariantError, always_problems, money_problems
from laspoly.engine.native import mypyc_attr
from laspoly.rules.board import Board
from laspoly.rules.presets import Preset

__all__ = ["CheckedGame", "InvariantError"]

#: The event types of :data:`ROUTINE_EVENTS` and :data:`STRUCTURE_EVENTS` as sets: one lookup by an event's type,
#: not a walk along a tuple, after every event (no event type has subclasses).
_ROUTINE: Final = frozenset(ROUTINE_EVENTS)
_STRUCTURE: Final = frozenset(STRUCTURE_EVENTS)


@mypyc_attr(allow_interpreted_subclasses=True)  # copy.deepcopy copies it
class CheckedGame(Game):
    """A game that checks the invariants after every event, as its observer.

    Money after every event but the routine ones of every turn (:data:`ROUTINE_EVENTS`: the dice, a move, a new
    turn, a payment), whose money the next event checks; ownership, buildings and cards after every event that
    can change them (:data:`STRUCTURE_EVENTS`).  It takes every argument a
    :class:`Game` takes (a position too, so ``CheckedGame.from_position`` checks as well)
    but the observer, which is its own.
    """

    events_checked: int

    # Game's arguments written out, not forwarded as ``*args, **kwargs``: the compiled build passes them on by name
    def __init__(
        self,
        players: list[str] | int | Any = 4,
        *,
        preset: str | Preset | Any = "laspoly",
        seed: int | Any = 0,
        rules: dict[str, Any] | Any | None = None,
        dice: Any = None,
        max_rounds: int | Any | None = None,
        board: Board | None = None,
        record_events: bool = True,
        keep_history: bool = True,
        rent_policy: RentPolicy | None = None,
        salary: SalaryHook | None = None,
        position: Any = None,
    ) -> None:
        self.events_checked = 0
        super().__init__(players, preset=preset, seed=seed, rules=rules, dice=dice, max_rounds=max_rounds, board=board,
                         record_events=record_events, keep_history=keep_history, observer=self.check_event,
                         rent_policy=rent_policy, salary=salary, position=position)

    def check_event(self, event: E.Event) -> None:
        """The observer: the invariants after ``event``; the first broken one raises :class:`InvariantError`."""
        self.events_checked += 1
        kind = type(event)
        if kind in _ROUTINE:
            return
        s = self.state
        found = always_problems(s) if kind in _STRUCTURE else money_problems(s)
        if found:
            raise InvariantError(f"after {type(event).__name__} ({self.describe(event)}): " + "; ".join(found))
