"""Where a dashboard game is played: one screen, or a room stored in a database.

The dashboard's model holds one *table* and speaks to it through
:class:`Table`.  A :class:`LocalTable` keeps a game on one screen; a
:class:`~laspoly.server.rooms.RoomTable` stores every action of a room before playing
it and catches up with other devices.  A table decides who plays each seat (a
person, or the bot in :attr:`Table.bots`) and which requests this screen may
make; the rules themselves are always the engine's.  Nothing here imports a UI
library.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from laspoly.bots.basic import Bot
from laspoly.bots.registry import DEFAULT_OPPONENT, TEMPERAMENTS, canonical_bot, make_bot
from laspoly.engine import actions as A
from laspoly.engine.game import Game
from laspoly.errors import LaspolyError
from laspoly.record import replay

if TYPE_CHECKING:
    from laspoly.predict import Guess
    from laspoly.server.classes import NewClass

PERSON = "person"
SEAT_CHOICES = (PERSON, *TEMPERAMENTS)


class Refused(LaspolyError):
    """A request this screen may not make: another seat's move, a spectator acting, undo once another device joined.

    The message is English; ``key`` and ``values`` name the dashboard's words for it, so a page in
    another language can say the same.
    """


def check_seat(kind: str) -> str:
    """A seat is a person or one of the bots (by its current name); anything else is refused with the choices."""
    kind = canonical_bot(kind)
    if kind not in SEAT_CHOICES:
        raise LaspolyError(f"a seat is a person or one of the bots: {', '.join(TEMPERAMENTS)}")
    return kind


def default_seats(players: int) -> list[str]:
    """A person in the first seat and the dashboard's default opponent (:data:`DEFAULT_OPPONENT`) in the others."""
    return [PERSON] + [DEFAULT_OPPONENT] * (players - 1)


def first_person(seats: Sequence[str]) -> int | None:
    """The first seat a person plays, or None when every seat is a bot."""
    return next((i for i, kind in enumerate(seats) if kind == PERSON), None)


def seat_bots(seats: Sequence[str], seed: int) -> list[Bot | None]:
    """The bot of each seat, or None where a person decides; each bot is seeded from the game's seed and its seat."""
    return [None if kind == PERSON else make_bot(kind, seed=seed + i) for i, kind in enumerate(seats)]


@dataclass(frozen=True)
class OwnedGame:
    """One of an owner's stored games, for "My games"."""

    room_id: str
    created: float
    actions: int  # the decisions the game stands on: a decision taken back is not counted
    query: str  # the owner's link to it, as a query string
    here: bool  # the game on this screen


class Table(Protocol):
    """What the dashboard's model needs of the place its game is played."""

    game: Game
    seats: list[str]  # per seat: "person" or a bot temperament
    bots: list[Bot | None]  # per seat: the bot that decides there, None where a person does
    shared: bool  # stored in a room that other devices may open

    @property
    def can_drive(self) -> bool:
        """Whether this screen may make bots move (a spectator's may not)."""

    def is_person(self, player: int) -> bool:
        """True if a person decides for this seat."""

    def plays_here(self, player: int) -> bool:
        """True if the person at this screen decides for this seat."""

    def has_joined(self, player: int) -> bool:
        """True if a person has opened this seat's link."""

    def check_act(self, action: A.Action) -> None:
        """Refuse (:class:`Refused`) an action this screen may not make, whatever the rules say."""

    def check_advance(self, to_end: bool) -> None:
        """Refuse (:class:`Refused`) moving the bots from this screen ("Run to end" when ``to_end``)."""

    def commit(self, action: A.Action) -> bool:
        """Play a legal action; False if the game had moved on elsewhere (the table has caught up)."""

    def sync(self) -> bool:
        """Catch up with what other devices did; True if anything changed."""

    def undo(self) -> None:
        """Take back the last decision of a person (and the bot moves after it)."""

    def undo_refusal(self) -> Refused | None:
        """The refusal :meth:`undo` would meet now, or None when it would take a decision back."""

    def set_seat(self, player: int, kind: str) -> None:
        """Make a seat a person or a bot."""

    def open(self, game: Game, seats: list[str], lang: str) -> str:
        """Put a new or loaded game on the table: "" when it is played here, else the query string of its new room."""

    def links(self) -> dict[str, str]:
        """Query strings of each seat's and the spectator's link (empty where there are none to show)."""

    def my_games(self) -> list[OwnedGame] | None:
        """The stored games of this browser's owner key, newest first; None without a key."""

    def delete_game(self, room_id: str) -> bool:
        """Delete one of the owner's stored games."""

    def export_game(self, room_id: str) -> Game:
        """One of the owner's stored games, replayed."""

    def create_class(self, name: str) -> NewClass:
        """A new class in this table's database, with its code and teacher key (:mod:`laspoly.server.classes`)."""

    def add_guess(self, guess: Guess) -> None:
        """Keep a guess of a roll's total (predict, then roll), where every screen of the game sees it."""

    def guesses(self) -> list[Guess]:
        """The game's guesses so far, in the order of the rolls."""


def take_back(game: Game, is_person: Callable[[int], bool]) -> Game:
    """The game before the last decision of a person (and the bot moves after it)."""
    history = game.history
    last = max((k for k, a in enumerate(history) if is_person(a.player)), default=None)
    if last is None:
        raise Refused("There is no decision of a person to take back.", "refused.nothing_to_undo")
    return replay(game.setup, history[:last])


class LocalTable:
    """A game on one screen: whoever sits at it decides for every person seat."""

    shared = False
    can_drive = True

    def __init__(self, game: Game, seats: Sequence[str] | None = None) -> None:
        self.game = game
        self._guesses: list[Guess] = []
        self.seats = list(seats) if seats is not None and len(seats) == len(game.players) else default_seats(len(game.players))
        self.bots = seat_bots(self.seats, game.setup["seed"])

    def is_person(self, player: int) -> bool:
        """True if a person decides for this seat."""
        return self.bots[player] is None

    plays_here = is_person

    def has_joined(self, player: int) -> bool:
        """Nobody joins a game on one screen."""
        return False

    def check_act(self, action: A.Action) -> None:
        """Every person seat is played at this screen."""

    def check_advance(self, to_end: bool) -> None:
        """This screen may always move the bots."""

    def commit(self, action: A.Action) -> bool:
        """Play the action through the checked path."""
        self.game.apply(action)
        return True

    def sync(self) -> bool:
        """Nothing happens elsewhere."""
        return False

    def undo(self) -> None:
        """Take back the last decision of a person (and the bot moves after it)."""
        self.game = take_back(self.game, self.is_person)

    def undo_refusal(self) -> Refused | None:
        """Undo is refused only when no person has decided anything yet."""
        if not any(self.is_person(a.player) for a in self.game.history):
            return Refused("There is no decision of a person to take back.", "refused.nothing_to_undo")
        return None

    def set_seat(self, player: int, kind: str) -> None:
        """Make a seat a person or a bot (every bot starts afresh)."""
        self.seats[player] = check_seat(kind)
        self.bots = seat_bots(self.seats, self.game.setup["seed"])

    def open(self, game: Game, seats: list[str], lang: str) -> str:
        """The new game replaces this one on the screen."""
        self.game, self.seats, self._guesses = game, list(seats), []
        self.bots = seat_bots(self.seats, game.setup["seed"])
        return ""

    def links(self) -> dict[str, str]:
        """A game on one screen has no links."""
        return {}

    def my_games(self) -> list[OwnedGame] | None:
        """A game on one screen is not stored."""
        return None

    def delete_game(self, room_id: str) -> bool:
        """There are no stored games to delete."""
        return False

    def export_game(self, room_id: str) -> Game:
        """There are no stored games to export."""
        raise Refused("a game on one screen has no stored games", "refused.not_stored")

    def add_guess(self, guess: Guess) -> None:
        """Kept with the game on this screen."""
        self._guesses = [g for g in self._guesses if g.index != guess.index] + [guess]

    def guesses(self) -> list[Guess]:
        """The guesses of the rolls still in the game (an undone roll takes its guess with it)."""
        return [g for g in self._guesses if g.index < len(self.game.history)]

    def create_class(self, name: str) -> NewClass:
        """A class lives in the server's database: a game on one screen has none."""
        raise Refused("A class needs the served dashboard (laspoly serve), where its games are stored.", "refused.no_class")
