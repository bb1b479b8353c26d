"""Game rooms: a dashboard game stored in the database after every action, shared by several devices.

A :class:`RoomModel` is a :class:`GameModel` whose game lives in a
:class:`~laspoly.store.Store`.  Every action is first checked against the seat
this browser holds, then stored as the next entry of the room's log (exactly
one device wins a given entry), and only then played locally.  Each session
polls the log and replays what other devices stored, so every seat and the
spectator see each change within a second, across server processes.

Seat and spectator tokens are derived from the owner's secret key with HMAC,
so the owner can always show the invitation links again while the database
keeps only their hashes.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
from typing import Any

import param

from laspoly.engine import actions as A
from laspoly.engine.actions import action_from_dict
from laspoly.engine.game import Game
from laspoly.errors import LaspolyError
from laspoly.record import new_game_from_setup
from laspoly.store import Seat, Store, StoreError, token
from laspoly.ui.model import PERSON, GameModel

log = logging.getLogger("laspoly.rooms")


def seat_token(owner_key: str, room_id: str, seat: int | str) -> str:
    """The link token of a seat (or ``"view"`` for the spectator), derived from the owner's key."""
    return hmac.new(owner_key.encode(), f"{room_id}:{seat}".encode(), hashlib.sha256).hexdigest()[:32]


class RoomModel(GameModel):
    """A stored, shared game seen from one seat (or as a spectator)."""

    room_id = param.String(default="", doc="The room's id (in the page's URL).")
    seat = param.Integer(default=None, allow_None=True, doc="The seat this browser plays; None for a spectator.")

    def __init__(self, store: Store, room_id: str, game: Game, seats: list[str], *, seat: int | None,
                 owner_key: str | None = None, **params: Any) -> None:
        super().__init__(game, seats=seats, room_id=room_id, seat=seat, **params)
        self.store = store
        self.owner_key = owner_key
        self._joined_flags = [s.joined for s in store.room(room_id).seats]
        self._rebuild_bots()

    # ------------------------------------------------------------ creating and joining

    @classmethod
    def create(cls, store: Store, names: list[str], seats: list[str], owner_key: str, *, lang: str = "en",
               **game_kwargs: Any) -> RoomModel:
        """Start a game in a new room; the creator sits in the first person seat."""
        game = Game(names, **game_kwargs)
        room_id = token()
        first = cls._first_person(seats)
        # tokens derived from the owner's key, so the owner can show the links again; only hashes are stored
        store.create_room(game.setup, seats, owner_key, lang, room_id=room_id,
                          seat_tokens=tuple(seat_token(owner_key, room_id, i) for i in range(len(seats))),
                          spectator_token=seat_token(owner_key, room_id, "view"),
                          joined=tuple(i == first for i in range(len(seats))))
        return cls(store, room_id, game, seats, seat=first, owner_key=owner_key, lang=lang)

    @staticmethod
    def _first_person(seats: list[str]) -> int | None:
        return next((i for i, s in enumerate(seats) if s == PERSON), None)

    @classmethod
    def join(cls, store: Store, room_id: str, secret: str, owner_key: str | None = None) -> RoomModel:
        """Open a room by a seat's or the spectator's token; a wrong token is refused and logged."""
        try:
            room = store.room(room_id)
        except StoreError:
            store.refuse(room_id, "unknown room")
            log.warning("refused: unknown room")
            raise
        seat = room.seat_of(secret)
        if seat is None and not room.is_spectator(secret):
            store.refuse(room_id, "wrong or forged token")
            log.warning("refused: wrong or forged token for a room")
            raise StoreError("this link is not valid for that game")
        game = new_game_from_setup(room.setup)
        for raw in store.actions(room_id):
            game.apply(action_from_dict(raw))
        if seat is not None and not room.seats[seat].joined and room.seats[seat].kind == PERSON:
            seats = tuple(Seat(s.kind, s.token_hash, s.joined or i == seat) for i, s in enumerate(room.seats))
            store.set_seats(room_id, seats)
        owner = owner_key if owner_key and room.is_owner(owner_key) else None
        return cls(store, room_id, game, [s.kind for s in room.seats], seat=seat, owner_key=owner, lang=room.lang)

    # ------------------------------------------------------------ links

    def links(self) -> dict[str, str]:
        """Query strings of every seat and of the spectator (only the owner can derive them)."""
        if self.owner_key is None:
            return {}
        out = {f"seat {i + 1}": f"?room={self.room_id}&seat={seat_token(self.owner_key, self.room_id, i)}"
               for i in range(len(self.game.players))}
        out["spectator"] = f"?room={self.room_id}&view={seat_token(self.owner_key, self.room_id, 'view')}"
        return out

    # ------------------------------------------------------------ seats and bots

    def _rebuild_bots(self) -> None:
        """Bots play bot seats and the person seats nobody has joined yet."""
        super()._rebuild_bots()
        store = getattr(self, "store", None)
        if store is None:
            return
        from laspoly.bots.basic import make_bot

        for i, joined in enumerate(getattr(self, "_joined_flags", [])):
            if self.seats[i] == PERSON and not joined and i != self.seat:
                self._bots[i] = make_bot("basic", seed=self.game.setup["seed"] + i)

    def is_person(self, player: int) -> bool:
        """A person seat that someone has joined (a bot keeps the others warm)."""
        return self.seats[player] == PERSON and player not in self._bots

    @property
    def person_to_move(self) -> int | None:
        """The seat of this browser, when it must decide now (never for a spectator)."""
        who = super().person_to_move
        return who if who is not None and who == self.seat else None

    def set_seat(self, player: int, seat: str) -> None:
        """The owner swaps a seat between a person and a bot."""
        if self.owner_key is None:
            self.message = "Only the person who started the game can swap seats."
            self.redraw()
            return
        room = self.store.room(self.room_id)
        seats = tuple(Seat(seat if i == player else s.kind, s.token_hash, s.joined) for i, s in enumerate(room.seats))
        self.store.set_seats(self.room_id, seats)
        super().set_seat(player, seat)

    # ------------------------------------------------------------ acting

    def act(self, action: A.Action, *, confirmed: bool = False) -> bool:
        """Only this browser's seat may act; a spectator never."""
        if self.seat is None:
            self.store.refuse(self.room_id, "a spectator tried to act")
            self.message = "This is a spectator's view: it cannot act."
            self.redraw()
            return False
        if action.player != self.seat:
            self.store.refuse(self.room_id, f"seat {self.seat + 1} tried to act for seat {action.player + 1}")
            self.message = f"You play seat {self.seat + 1} ({self.game.players[self.seat].name}) only."
            self.redraw()
            return False
        self.sync()
        return super().act(action, confirmed=confirmed)

    def _commit(self, action: A.Action) -> bool:
        """Store the action as the next entry of the log; if another device was first, catch up instead."""
        index = len(self.game.history)
        if not self.store.append(self.room_id, index, action.as_dict()):
            self.sync()
            self.message = "The game has changed on another device; your action was not applied. Look again and choose."
            return False
        self.game.apply(action)
        return True

    def sync(self) -> bool:
        """Replay what other devices stored since this session last looked.  True if anything changed."""
        stored = self.store.actions(self.room_id, since=len(self.game.history))
        if not stored:
            return False
        try:
            for raw in stored:
                self.game.apply(action_from_dict(raw))
        except LaspolyError:
            # the stored log is the truth: rebuild from it
            game = new_game_from_setup(self.store.room(self.room_id).setup)
            for raw in self.store.actions(self.room_id):
                game.apply(action_from_dict(raw))
            self.game = game
        self._refresh_seats()
        self._changed()
        return True

    def _refresh_seats(self) -> None:
        room = self.store.room(self.room_id)
        seats, joined = [s.kind for s in room.seats], [s.joined for s in room.seats]
        if seats != self.seats or joined != self._joined_flags:
            self.seats, self._joined_flags = seats, joined
            self._rebuild_bots()

    def poll(self) -> bool:
        """Called about twice a second: catch up with other devices (and seats that were joined or swapped)."""
        if self.store.count(self.room_id) > len(self.game.history):
            return self.sync()
        before = (list(self.seats), list(self._joined_flags))
        self._refresh_seats()
        if before != (self.seats, self._joined_flags):
            self.redraw()
            return True
        return False


    def undo(self) -> bool:
        """A shared room keeps its log: undo is for games on one screen."""
        self.message = "Undo is not available in a shared room: every device has seen the move."
        self.redraw()
        return False

    def load_json(self, raw: bytes, name: str = "save file") -> bool:
        """Loading a file into a room is refused: start a new game and load it there."""
        self.message = "A shared room cannot load a file; open a new game for it."
        self.redraw()
        return False


def new_owner_key() -> str:
    """A new owner key for a browser that has none (kept in its URL as ``me``)."""
    return token()


class RoomGameModel(RoomModel):
    """The dashboard's room: a new game opens a new room, and the page moves to its link."""

    navigate = param.String(default="", doc="A query string the page should move to (a new room).")

    @classmethod
    def _from(cls, room: RoomModel) -> RoomGameModel:
        """The same room as a dashboard model."""
        return cls(room.store, room.room_id, room.game, list(room.seats), seat=room.seat, owner_key=room.owner_key, lang=room.lang)

    def new_game(self, names: Any, seats: Any, *, preset: str = "laspoly", rules: Any = "", seed: int = 0, dice: str = "",
                 lang: str | None = None, max_rounds: int | None = None, minutes: float | None = None) -> bool:
        """Start the game in a new room owned by this browser's key, then move the page there."""
        from laspoly.rules.options import parse_rule_args
        from laspoly.rules.presets import load_preset

        owner = self.owner_key or new_owner_key()
        try:
            overrides = parse_rule_args(rules.split()) if isinstance(rules, str) else dict(rules)
            if len(names) != len(seats) or not 2 <= len(names) <= 6:
                raise LaspolyError("choose 2 to 6 players, each a person or a bot")
            if PERSON not in seats:
                seats = list(seats)
            room = RoomModel.create(self.store, list(names), list(seats), owner, lang=lang or load_preset(preset).lang,
                                    preset=preset, seed=seed, rules=overrides or None, dice=dice or None, max_rounds=max_rounds)
        except LaspolyError as exc:
            self.message = f"Could not start the game: {exc}"
            self.redraw()
            return False
        seat = room.seat if room.seat is not None else 0
        self.navigate = f"?room={room.room_id}&seat={seat_token(owner, room.room_id, seat)}&me={owner}"
        return True

    def load_json(self, raw: bytes, name: str = "save file") -> bool:
        """Load a save file into a new room of this browser's; a bad file leaves the current game untouched."""
        game = self.read_save(raw, name)
        if game is None:
            return False
        owner = self.owner_key or new_owner_key()
        room_id = token()
        seats = [PERSON] + ["basic"] * (len(game.players) - 1)
        self.store.create_room(game.setup, seats, owner, self.lang, room_id=room_id,
                               seat_tokens=tuple(seat_token(owner, room_id, i) for i in range(len(seats))),
                               spectator_token=seat_token(owner, room_id, "view"),
                               joined=tuple(i == 0 for i in range(len(seats))))
        for k, action in enumerate(game.history):
            self.store.append(room_id, k, action.as_dict())
        self.message = f"Loaded {name}."
        self.navigate = f"?room={room_id}&seat={seat_token(owner, room_id, 0)}&me={owner}"
        return True

    def can_drive(self) -> bool:
        """Whether this browser may make bots move: a seat's holder, not the spectator."""
        return self.seat is not None

    def step(self) -> int:
        """"Next" from a seat (a spectator's view only watches)."""
        if not self.can_drive():
            self.message = "This is a spectator's view: it cannot act."
            self.redraw()
            return 0
        return super().step()

    def run_to_end(self) -> None:
        """"Run to end" plays people's seats too, so in a room only a lone person may use it."""
        people = [i for i in range(len(self.seats)) if self.is_person(i)]
        if not self.can_drive() or people not in ([], [self.seat]):
            self.message = "Run to end would play other people's seats: it is not available while others play."
            self.redraw()
            return
        super().run_to_end()
