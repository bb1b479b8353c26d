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
keeps only their hashes.  The owner key itself is made by the server
(:func:`new_owner_key`) and never taken from an address: a ``me=`` key is given
back to a page only when the server issued it and it owns the stored room that
page opens (:func:`adopt_owner_key`).

A new page's game is a room that exists only on that page
(``open_room(..., stored=False)``) until its first stored decision: a move, a
seat swapped, or its invitation links shown.  A page nobody played leaves
nothing in the database.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import os
import re
import time
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from laspoly.bots.registry import canonical_bot
from laspoly.engine import actions as A
from laspoly.engine.game import Game
from laspoly.errors import LaspolyError, StoreError
from laspoly.predict import Guess
from laspoly.server.classes import NewClass, create_class, is_class_watch
from laspoly.server.roomlog import catch_up, played_count, replay_log, undo_entry
from laspoly.server.store import Room, Seat, Store, default_url, digest, open_store, token
from laspoly.server.table import PERSON, OwnedGame, Refused, check_seat, first_person, seat_bots, take_back

log = logging.getLogger("laspoly.server.rooms")


def server_store(db_url: str | None = None) -> Store:
    """The server's store: ``db_url``, else ``$LASPOLY_DB``, else the default SQLite file; one per URL and process."""
    return _shared_store(db_url or os.environ.get("LASPOLY_DB") or default_url())


@lru_cache(maxsize=8)
def _shared_store(url: str) -> Store:
    """One store per database URL and process (its connections are per thread inside it)."""
    return open_store(url)


def seat_token(owner_key: str, room_id: str, seat: int | str) -> str:
    """The link token of a seat (or ``"view"`` for the spectator), derived from the owner's key."""
    return hmac.new(owner_key.encode(), f"{room_id}:{seat}".encode(), hashlib.sha256).hexdigest()[:32]


#: The form of a key this server makes (:func:`laspoly.server.store.token`): 24 URL-safe characters.
KEY_FORM = re.compile(r"[A-Za-z0-9_-]{24}")


def new_owner_key() -> str:
    """A new owner key, made by the server, for a page that brings none it may keep (kept in its URL as ``me``).

    The database learns its hash with the first room stored under it.
    """
    return token()


def adopt_owner_key(store: Store, me: str | None, room: Room) -> str | None:
    """The owner key of a page's address, when this server issued it and it owns ``room``; else None.

    A key someone chose, one of another form, or one that does not own the room
    the address opens is never taken: a link that carries a stranger's ``me=``
    does not put the games opened from it in the stranger's "My games".
    """
    if not me or not KEY_FORM.fullmatch(me):
        return None
    if not room.is_owner(me) or not store.knows_owner(me):
        return None
    return me


def unplayed_page(store: Store, room_id: str, secret: str, me: str | None) -> bool:
    """True for the address of a page nobody played: its owner's seat link of a room that was never stored.

    Reloading such a page opens a new game, as it was (with a new key: nothing was stored under the old one),
    instead of refusing the link.
    """
    if not me or not hmac.compare_digest(secret, seat_token(me, room_id, 0)):
        return False
    try:
        store.room(room_id)
    except StoreError:
        return True
    return False


def owner_link(owner_key: str, room_id: str, seat: int = 0) -> str:
    """The owner's query string for a seat of a room: the room, the seat's token and the owner's key."""
    return f"?room={room_id}&seat={seat_token(owner_key, room_id, seat)}&me={owner_key}"


def open_room(store: Store, game: Game, seats: Sequence[str], owner_key: str, lang: str = "en", *,
              class_code: str | None = None, stored: bool = True) -> RoomTable:
    """Store a new or loaded game, with the actions played so far, in a new room owned by ``owner_key``.

    The creator sits in the first person seat (a spectator when there is none).  With ``class_code``
    the room is one of that class's games (:mod:`laspoly.server.classes`).  With ``stored=False`` the room
    is written only at its first stored decision (:meth:`RoomTable.keep`): a new page's game.
    """
    seats = [check_seat(kind) for kind in seats]
    room_id, first = token(), first_person(seats)
    joined = tuple(i == first for i in range(len(seats)))
    room = Room(room_id, time.time(), digest(owner_key), digest(seat_token(owner_key, room_id, "view")), game.setup,
                tuple(Seat(kind, digest(seat_token(owner_key, room_id, i)), j) for i, (kind, j) in enumerate(zip(seats, joined, strict=True))),
                lang)
    table = RoomTable(store, room, game, seat=first, owner_key=owner_key, class_code=class_code, stored=False)
    if stored:
        table.keep()
    return table


def _store_room(store: Store, room: Room, owner_key: str, game: Game, class_code: str | None) -> Room:
    """Write a room made on a page, with the actions played so far, and make it one of its class's games."""
    # tokens derived from the owner's key, so the owner can show the links again; only hashes are stored
    new = store.create_room(game.setup, [s.kind for s in room.seats], owner_key, room.lang, room_id=room.id,
                            seat_tokens=tuple(seat_token(owner_key, room.id, i) for i in range(len(room.seats))),
                            spectator_token=seat_token(owner_key, room.id, "view"),
                            joined=tuple(s.joined for s in room.seats))
    store.append_many(room.id, [action.as_dict() for action in game.history])  # a loaded game's log: one transaction
    if class_code is not None:
        store.add_to_class(class_code, room.id)
    return new.room


def join_room(store: Store, room_id: str, secret: str, owner_key: str | None = None) -> RoomTable:
    """Open a room by a seat's or the spectator's token; a wrong token is refused and logged.

    The watch link a class's teacher page shows for the room opens it read-only too (:func:`~laspoly.server.classes.watch_token`);
    the teacher's key itself opens no room.  ``owner_key`` makes this page the owner's only when :func:`adopt_owner_key` takes it.
    """
    try:
        room = store.room(room_id)
    except StoreError:
        store.refuse(room_id, "unknown room")
        log.warning("refused: unknown room")
        raise
    seat = room.seat_of(secret)
    if seat is None and not room.is_spectator(secret) and not is_class_watch(store, room_id, secret):
        store.refuse(room_id, "wrong or forged token")
        log.warning("refused: wrong or forged token for a room")
        raise StoreError("this link is not valid for that game")
    entries = store.actions(room_id)
    game = replay_log(room.setup, entries)
    if seat is not None and not room.seats[seat].joined and room.seats[seat].kind == PERSON:
        seats = tuple(Seat(s.kind, s.token_hash, s.joined or i == seat) for i, s in enumerate(room.seats))
        store.set_seats(room_id, seats)
        room = store.room(room_id)
    owner = adopt_owner_key(store, owner_key, room)
    if owner_key and owner is None:
        log.warning("refused: an owner key in a room's address that this server did not issue for that room")
    table = RoomTable(store, room, game, seat=seat, owner_key=owner, class_code=store.class_of(room_id))
    table.logged = len(entries)
    return table


class RoomTable:
    """A stored, shared game seen from one seat (or, with no seat, as a spectator).

    Bots play the bot seats.  A person seat nobody has joined by its link is
    played on the owner's device, in turn (a hot seat): the owner holds the key
    the room was opened with, sees the links and swaps seats.  A seat's link
    acts only for that seat, and a spectator never acts.
    """

    shared = True

    def __init__(self, store: Store, room: Room, game: Game, *, seat: int | None, owner_key: str | None = None,
                 class_code: str | None = None, stored: bool = True) -> None:
        self.store = store
        #: The room as made on this page, until its first stored decision writes it (None once it is stored).
        self._unstored: Room | None = None if stored else room
        #: The class this room's games belong to (a new game started here joins it too), or None.
        self.class_code = class_code
        self.room_id = room.id
        self.lang = room.lang
        self.game = game
        self.seat = seat
        self.owner_key = owner_key
        #: How many entries of the room's log this page has played: actions, and undo entries (:mod:`laspoly.server.roomlog`).
        self.logged = len(game.history)
        self._take_seats(room)

    @property
    def stored(self) -> bool:
        """True once the room is in the database (a new page's room is written at its first stored decision)."""
        return self._unstored is None

    def keep(self) -> None:
        """Write the room now, if this page has not yet: a decision is about to be stored, or its links shown."""
        room = self._unstored
        if room is None:
            return
        assert self.owner_key is not None  # a room made on a page is its owner's
        _store_room(self.store, room, self.owner_key, self.game, self.class_code)
        self._unstored = None
        self.logged = len(self.game.history)

    def _take_seats(self, room: Room) -> None:
        self.seats = [canonical_bot(s.kind) for s in room.seats]
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
        """Log a refused request once, in the room's refusals and as one line of the server's log, then refuse it."""
        self.store.refuse(self.room_id, logged)
        log.warning("refused in a room: %s", logged)
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
            who = "a spectator" if self.seat is None else f"seat {self.seat + 1}"
            self._refuse(f"{who} asked to run to the end while others play",
                         "Run to end would play other people's seats: it is not available while others play.", "refused.run_to_end")
        if not self.can_drive:
            self._refuse("a spectator tried to move the bots", "This is a spectator's view: it cannot act.", "refused.spectator")

    # ------------------------------------------------------------ the log

    def commit(self, action: A.Action) -> bool:
        """Store the action as the next entry of the log, then play it; if another device was first, catch up instead."""
        self.keep()
        if not self.store.append(self.room_id, self.logged, action.as_dict()):
            self.sync()
            return False
        self.game.apply(action)
        self.logged += 1
        return True

    def sync(self) -> bool:
        """Replay what other devices stored since this device last looked, and their seat changes.  True if anything changed."""
        if not self.stored:  # nobody else can have opened a room that exists only on this page
            return False
        stored = self.store.actions(self.room_id, since=self.logged)
        try:
            self.game = catch_up(self.game, stored)
            self.logged += len(stored)
        except LaspolyError:  # the stored log is the truth: rebuild from it
            entries = self.store.actions(self.room_id)
            self.game, self.logged = replay_log(self.store.room(self.room_id).setup, entries), len(entries)
        room = self.store.room(self.room_id)
        seated = [canonical_bot(s.kind) for s in room.seats] != self.seats or [s.joined for s in room.seats] != self.joined
        if seated:
            self._take_seats(room)
        return bool(stored) or seated

    def undo_refusal(self) -> Refused | None:
        """Why Undo would be refused now (a spectator, another device has joined, nothing to take back), or None.

        Undo takes a decision back only where nobody else has seen it: in a room no
        other device has joined by a seat's link.
        """
        if self.seat is None:
            return Refused("This is a spectator's view: it cannot act.", "refused.spectator")
        others = [i for i, joined in enumerate(self.joined) if joined and i != self.seat]
        if others:
            return Refused(f"Undo is off: seat {others[0] + 1} plays on another device, which has seen the move.",
                           "refused.undo_joined", seat=others[0] + 1)
        if not any(self.plays_here(a.player) for a in self.game.history):
            return Refused("There is no decision of a person to take back.", "refused.nothing_to_undo")
        return None

    def undo(self) -> None:
        """Take back the last decision made here (and the bot moves after it), stored as an undo entry of the log.

        Only in a room no other device has joined (:meth:`undo_refusal`); a reload,
        another process and the teacher's page replay the same undone game.
        """
        self.sync()  # a seat joined just now, or an entry stored elsewhere, counts
        refusal = self.undo_refusal()
        if refusal is not None:
            self._refuse(f"undo refused: {refusal}", str(refusal), refusal.key, **refusal.values)
        game = take_back(self.game, self.plays_here)
        if self.stored:
            if not self.store.append(self.room_id, self.logged, undo_entry(len(game.history))):
                self.sync()
                raise Refused("The game has changed on another device: nothing was taken back.", "refused.undo_moved_on")
            self.logged += 1
            self.store.drop_guesses(self.room_id, len(game.history))  # an undone roll takes its guess with it
        self.game = game

    # ------------------------------------------------------------ seats, links and the owner's games

    def set_seat(self, player: int, kind: str) -> None:
        """The owner swaps a seat between a person and a bot."""
        check_seat(kind)
        if self.owner_key is None:
            raise Refused("Only the person who started the game can swap seats.", "refused.not_owner_seats")
        self.keep()
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
        """Query strings of every seat and of the spectator (only the owner can derive them).

        Links shown may be opened on other devices at once, so showing them stores the room.
        """
        if self.owner_key is None:
            return {}
        self.keep()
        out = {f"seat {i + 1}": f"?room={self.room_id}&seat={seat_token(self.owner_key, self.room_id, i)}"
               for i in range(len(self.seats))}
        out["spectator"] = f"?room={self.room_id}&view={seat_token(self.owner_key, self.room_id, 'view')}"
        return out

    def my_games(self) -> list[OwnedGame] | None:
        """The games opened with this browser's owner key, newest first (at most 50)."""
        if self.owner_key is None:
            return None
        undone = self.store.last_undo_entries(self.owner_key)
        return [OwnedGame(room_id, created, played_count(entries, undone.get(room_id)),
                          owner_link(self.owner_key, room_id), room_id == self.room_id)
                for room_id, created, entries in self.store.rooms_of(self.owner_key)[:50]]

    def delete_game(self, room_id: str) -> bool:
        """Delete one of the owner's other games (never the one on this screen)."""
        if self.owner_key is None or room_id == self.room_id:
            return False
        return self.store.delete_room(room_id, self.owner_key)

    def add_guess(self, guess: Guess) -> None:
        """Store a guess beside its roll, for every device and the projector."""
        self.keep()
        self.store.add_guess(self.room_id, guess)

    def guesses(self) -> list[Guess]:
        """The room's guesses so far."""
        return [g for g in self.store.guesses(self.room_id) if g.index < len(self.game.history)] if self.stored else []

    def create_class(self, name: str) -> NewClass:
        """A new class in this room's database; its teacher key is shown once."""
        return create_class(self.store, name)

    def export_game(self, room_id: str) -> Game:
        """One of the owner's games, replayed from its stored log."""
        room = self.store.room(room_id)
        if self.owner_key is None or not room.is_owner(self.owner_key):
            raise Refused("only the person who started a game can export it from here", "refused.not_owner_export")
        return replay_log(room.setup, self.store.actions(room_id))
