"""Game rooms: a game stored in the database after every action, shared by several devices.

A room is opened once, by :func:`open_room`, for a new game and for a loaded
save file alike, and joined by a seat's or the spectator's link with
:func:`join_room`.  Either gives a :class:`RoomTable`, the room seen from one
seat: every action is first checked against the seat this device holds, then
stored as the next entry of the room's log (exactly one device wins a given
entry), and only then played locally.  :meth:`RoomTable.sync` replays what
other devices stored, so every seat and the spectator see each change, across
server processes.

Seat and spectator tokens are derived from the owner's secret key with HMAC,
so the owner can always show the invitation links again while the database
keeps only their hashes.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
from collections.abc import Sequence
from typing import Any

from laspoly.classes import NewClass, create_class, join_class_room
from laspoly.engine import actions as A
from laspoly.engine.actions import action_from_dict
from laspoly.engine.game import Game
from laspoly.errors import LaspolyError
from laspoly.predict import Guess
from laspoly.record import replay
from laspoly.store import Room, Seat, Store, StoreError, token
from laspoly.table import PERSON, Refused, RoomSummary, check_seat, first_person, seat_bots

log = logging.getLogger("laspoly.rooms")


def seat_token(owner_key: str, room_id: str, seat: int | str) -> str:
    """The link token of a seat (or ``"view"`` for the spectator), derived from the owner's key."""
    return hmac.new(owner_key.encode(), f"{room_id}:{seat}".encode(), hashlib.sha256).hexdigest()[:32]


def new_owner_key() -> str:
    """A new owner key for a browser that has none (kept in its URL as ``me``)."""
    return token()


def owner_link(owner_key: str, room_id: str, seat: int = 0) -> str:
    """The owner's query string for a seat of a room: the room, the seat's token and the owner's key."""
    return f"?room={room_id}&seat={seat_token(owner_key, room_id, seat)}&me={owner_key}"


def open_room(store: Store, game: Game, seats: Sequence[str], owner_key: str, lang: str = "en", *,
              class_code: str | None = None) -> RoomTable:
    """Store a new or loaded game, with the actions played so far, in a new room owned by ``owner_key``.

    The creator sits in the first person seat (a spectator when there is none).  With ``class_code``
    the room is one of that class's games (:mod:`laspoly.classes`).
    """
    seats = [check_seat(kind) for kind in seats]
    room_id, first = token(), first_person(seats)
    # tokens derived from the owner's key, so the owner can show the links again; only hashes are stored
    new = store.create_room(game.setup, seats, owner_key, lang, room_id=room_id,
                            seat_tokens=tuple(seat_token(owner_key, room_id, i) for i in range(len(seats))),
                            spectator_token=seat_token(owner_key, room_id, "view"),
                            joined=tuple(i == first for i in range(len(seats))))
    store.append_many(room_id, [action.as_dict() for action in game.history])  # a loaded game's log: one transaction
    if class_code is not None:
        store.add_to_class(class_code, room_id)
    return RoomTable(store, new.room, game, seat=first, owner_key=owner_key, class_code=class_code)


def join_room(store: Store, room_id: str, secret: str, owner_key: str | None = None) -> RoomTable:
    """Open a room by a seat's or the spectator's token; a wrong token is refused and logged.

    The key of the class a room belongs to opens it read-only too: the teacher watches every game of the class.
    """
    try:
        room = store.room(room_id)
    except StoreError:
        store.refuse(room_id, "unknown room")
        log.warning("refused: unknown room")
        raise
    seat = room.seat_of(secret)
    if seat is None and not room.is_spectator(secret) and not join_class_room(store, room_id, secret):
        store.refuse(room_id, "wrong or forged token")
        log.warning("refused: wrong or forged token for a room")
        raise StoreError("this link is not valid for that game")
    game = replay(room.setup, store.actions(room_id))
    if seat is not None and not room.seats[seat].joined and room.seats[seat].kind == PERSON:
        seats = tuple(Seat(s.kind, s.token_hash, s.joined or i == seat) for i, s in enumerate(room.seats))
        store.set_seats(room_id, seats)
        room = store.room(room_id)
    owner = owner_key if owner_key and room.is_owner(owner_key) else None
    return RoomTable(store, room, game, seat=seat, owner_key=owner, class_code=store.class_of(room_id))


class RoomTable:
    """A stored, shared game seen from one seat (or, with no seat, as a spectator).

    Bots play the bot seats.  A person seat nobody has joined by its link is
    played on the owner's device, in turn (a hot seat): the owner holds the key
    the room was opened with, sees the links and swaps seats.  A seat's link
    acts only for that seat, and a spectator never acts.
    """

    shared = True

    def __init__(self, store: Store, room: Room, game: Game, *, seat: int | None, owner_key: str | None = None,
                 class_code: str | None = None) -> None:
        self.store = store
        #: The class this room's games belong to (a new game started here joins it too), or None.
        self.class_code = class_code
        self.room_id = room.id
        self.lang = room.lang
        self.game = game
        self.seat = seat
        self.owner_key = owner_key
        self._take_seats(room)

    def _take_seats(self, room: Room) -> None:
        self.seats = [s.kind for s in room.seats]
        self.joined = [s.joined for s in room.seats]
        self.bots = seat_bots(self.seats, self.game.setup["seed"])

    # ------------------------------------------------------------ who decides

    @property
    def can_drive(self) -> bool:
        """A seat's holder may make bots move; the spectator only watches."""
        return self.seat is not None

    def is_person(self, player: int) -> bool:
        """True if a person decides for this seat (on its own device, or on the owner's)."""
        return self.bots[player] is None

    @property
    def hosts(self) -> bool:
        """True on the owner's device at a seat: it plays the person seats no link has claimed (hot seat)."""
        return self.owner_key is not None and self.seat is not None

    def plays_here(self, player: int) -> bool:
        """This device's own seat, and on the owner's device every person seat nobody has joined."""
        if not self.is_person(player):
            return False
        return player == self.seat or (self.hosts and not self.joined[player])

    def has_joined(self, player: int) -> bool:
        """True if a person has opened this seat's link."""
        return self.joined[player]

    def _refuse(self, logged: str, message: str, key: str, **values: Any) -> None:
        self.store.refuse(self.room_id, logged)
        raise Refused(message, key, **values)

    def check_act(self, action: A.Action) -> None:
        """Only the seats played here may act (:meth:`plays_here`); a spectator never.  A refusal is logged in the room."""
        if self.seat is None:
            self._refuse("a spectator tried to act", "This is a spectator's view: it cannot act.", "refused.spectator")
        elif action.player != self.seat and not self.plays_here(action.player):
            self._refuse(f"seat {self.seat + 1} tried to act for seat {action.player + 1}",
                         f"You play seat {self.seat + 1} ({self.game.players[self.seat].name}) only.",
                         "refused.other_seat", seat=self.seat + 1, name=self.game.players[self.seat].name)

    def check_advance(self, to_end: bool) -> None:
        """A spectator never moves the bots; "Run to end" plays people's seats too, so only when all of them are played here."""
        people = [i for i in range(len(self.seats)) if self.is_person(i)]
        if to_end and (not self.can_drive or not all(self.plays_here(i) for i in people)):
            raise Refused("Run to end would play other people's seats: it is not available while others play.", "refused.run_to_end")
        if not self.can_drive:
            raise Refused("This is a spectator's view: it cannot act.", "refused.spectator")

    # ------------------------------------------------------------ the log

    def commit(self, action: A.Action) -> bool:
        """Store the action as the next entry of the log, then play it; if another device was first, catch up instead."""
        if not self.store.append(self.room_id, len(self.game.history), action.as_dict()):
            self.sync()
            return False
        self.game.apply(action)
        return True

    def sync(self) -> bool:
        """Replay what other devices stored since this device last looked, and their seat changes.  True if anything changed."""
        stored = self.store.actions(self.room_id, since=len(self.game.history))
        try:
            for raw in stored:
                self.game.apply(action_from_dict(raw))
        except LaspolyError:  # the stored log is the truth: rebuild from it
            self.game = replay(self.store.room(self.room_id).setup, self.store.actions(self.room_id))
        room = self.store.room(self.room_id)
        seated = [s.kind for s in room.seats] != self.seats or [s.joined for s in room.seats] != self.joined
        if seated:
            self._take_seats(room)
        return bool(stored) or seated

    def undo(self) -> None:
        """A shared room keeps its log: undo is for games on one screen."""
        raise Refused("Undo is not available in a shared room: every device has seen the move.", "refused.undo_shared")

    # ------------------------------------------------------------ seats, links and the owner's games

    def set_seat(self, player: int, kind: str) -> None:
        """The owner swaps a seat between a person and a bot."""
        check_seat(kind)
        if self.owner_key is None:
            raise Refused("Only the person who started the game can swap seats.", "refused.not_owner_seats")
        room = self.store.room(self.room_id)
        seats = tuple(Seat(kind if i == player else s.kind, s.token_hash, s.joined) for i, s in enumerate(room.seats))
        self.store.set_seats(self.room_id, seats)
        self._take_seats(self.store.room(self.room_id))

    def open(self, game: Game, seats: list[str], lang: str) -> str:
        """A new or loaded game opens a new room of this browser's owner key; returns the link to move to."""
        owner = self.owner_key or new_owner_key()  # a key of its own for a browser that does not own this room
        room = open_room(self.store, game, seats, owner, lang, class_code=self.class_code)
        return owner_link(owner, room.room_id, room.seat if room.seat is not None else 0)

    def links(self) -> dict[str, str]:
        """Query strings of every seat and of the spectator (only the owner can derive them)."""
        if self.owner_key is None:
            return {}
        out = {f"seat {i + 1}": f"?room={self.room_id}&seat={seat_token(self.owner_key, self.room_id, i)}"
               for i in range(len(self.seats))}
        out["spectator"] = f"?room={self.room_id}&view={seat_token(self.owner_key, self.room_id, 'view')}"
        return out

    def my_games(self) -> list[RoomSummary] | None:
        """The games opened with this browser's owner key, newest first (at most 50)."""
        if self.owner_key is None:
            return None
        return [RoomSummary(room_id, created, count, owner_link(self.owner_key, room_id), room_id == self.room_id)
                for room_id, created, count in self.store.rooms_of(self.owner_key)[:50]]

    def delete_game(self, room_id: str) -> bool:
        """Delete one of the owner's other games (never the one on this screen)."""
        if self.owner_key is None or room_id == self.room_id:
            return False
        return self.store.delete_room(room_id, self.owner_key)

    def add_guess(self, guess: Guess) -> None:
        """Store a guess beside its roll, for every device and the projector."""
        self.store.add_guess(self.room_id, guess)

    def guesses(self) -> list[Guess]:
        """The room's guesses so far."""
        return self.store.guesses(self.room_id)

    def create_class(self, name: str) -> NewClass:
        """A new class in this room's database; its teacher key is shown once."""
        return create_class(self.store, name)

    def export_game(self, room_id: str) -> Game:
        """One of the owner's games, replayed from its stored log."""
        room = self.store.room(room_id)
        if self.owner_key is None or not room.is_owner(self.owner_key):
            raise Refused("only the person who started a game can export it from here", "refused.not_owner_export")
        return replay(room.setup, self.store.actions(room_id))
