"""The error types of laspoly, all subclasses of :class:`ValueError`.

Every bad input (an illegal move, a malformed board, a corrupt save file, an
unknown rule option) raises one of these with a message a person can act on.
"""

from __future__ import annotations

from typing import Any


class LaspolyError(ValueError):
    """Base class for every error laspoly raises on bad input.

    The message is English.  An error a person may meet on a page also names its words in the catalogues
    (``laspoly/locale``): ``key`` and the ``values`` that fill it, so a page in another language can say the
    same (:func:`laspoly.ui.i18n.said`).  An error without a key reads in English everywhere.
    """

    def __init__(self, message: str = "", key: str = "", **values: Any) -> None:
        super().__init__(message)
        self.key, self.values = key, values


class IllegalActionError(LaspolyError):
    """An action that the rules do not allow now.  The game is left unchanged."""

    def __init__(self, player: str, action: Any, reason: str) -> None:
        self.player = player
        self.action = action
        self.reason = reason
        super().__init__(f"{player} cannot {action}: {reason}")


class BoardError(LaspolyError):
    """A board or deck file that does not validate; the message lists every problem."""


class RuleOptionError(LaspolyError):
    """An unknown rule option, or a value the option does not allow."""


class SetupError(LaspolyError):
    """A game set up with bad players, seed or dice script."""


class ChanceError(LaspolyError):
    """An outcome forced on a chance event that the event cannot have, or a walk of chance that does not end."""


class SaveFileError(LaspolyError):
    """A save file that is corrupt, truncated, foreign, oversized or does not replay."""


class StoreError(LaspolyError):
    """A database that cannot be opened or used, or a room that does not exist."""


class PositionError(SaveFileError):
    """A position that is malformed, oversized or impossible under its rules; the message lists every problem."""
