"""A class: many rooms played at once, one teacher who watches them all, and their dice pooled.

A teacher creates a class (:func:`create_class`) and gets two links: the
*student link* (``?class=CODE``), from which every game started belongs to the
class, and the *teacher link* (``?class=CODE&teacher=KEY``), whose key is
random, shown once, and stored only as its hash, like a room's tokens.  The
teacher's key also opens each of the class's rooms read-only, so the teacher
watches any game without its owner's links; students only ever hold their own
room's links.  A wrong key is refused and logged (:func:`open_class`).

:class:`ClassData` replays every room of the class from the store and keeps
each one's game, catching up by the actions stored since it last looked (as a
room's device does), so a live teacher's page costs one query per room per
refresh.  It pools every dice roll and every landing of all the rooms, for the
law of large numbers with the whole class's data.  Nothing here imports a UI
library.
"""

from __future__ import annotations

import io
import logging
import secrets
from collections.abc import Iterable
from dataclasses import dataclass, field

from laspoly.csv_export import write_csv
from laspoly.engine import events as E
from laspoly.engine.actions import action_from_dict
from laspoly.engine.game import Game
from laspoly.engine.state import clean_name
from laspoly.errors import LaspolyError
from laspoly.record import replay
from laspoly.store import ClassRecord, Store, StoreError, token

__all__ = ["ClassData", "ClassRecord", "NewClass", "RoomSummary", "check_class_name", "check_code", "create_class",
           "find_class", "join_class_room", "open_class", "student_link", "teacher_link"]

log = logging.getLogger("laspoly.classes")

#: A class code's letters: no 0/O or 1/I/L, so a code read aloud or from a board is typed right.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6
#: The most rooms a teacher's page follows (the newest are dropped past it).
MAX_CLASS_ROOMS = 200


@dataclass(frozen=True)
class NewClass:
    """A class just created, with its teacher's key (shown once; only its hash is stored)."""

    code: str
    name: str
    teacher_key: str

    @property
    def student_link(self) -> str:
        """The query string students open: every game started there belongs to the class."""
        return student_link(self.code)

    @property
    def teacher_link(self) -> str:
        """The query string of the teacher's page."""
        return teacher_link(self.code, self.teacher_key)


def student_link(code: str) -> str:
    """The class's student link, as a query string."""
    return f"?class={code}"


def teacher_link(code: str, teacher_key: str) -> str:
    """The class's teacher link, as a query string."""
    return f"?class={code}&teacher={teacher_key}"


def check_class_name(name: object) -> str:
    """A class's name: 1 to 40 printable characters, checked as a player's name is."""
    try:
        return clean_name(name)
    except LaspolyError as exc:
        raise LaspolyError(str(exc).replace("a player's name", "a class's name")) from None


def check_code(code: str) -> str:
    """A class code as typed: spaces and case do not matter; anything but the code's letters is refused."""
    text = code.strip().upper()
    if len(text) != CODE_LENGTH or any(c not in CODE_ALPHABET for c in text):
        raise StoreError(f"a class code is {CODE_LENGTH} letters and digits, such as K7QM2X")
    return text


def create_class(store: Store, name: str) -> NewClass:
    """Store a new class with a fresh code and teacher key."""
    name = check_class_name(name)
    key = token()
    for _ in range(20):
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
        if store.create_class(code, name, key) is not None:
            return NewClass(code, name, key)
    raise StoreError("could not find a free class code; please try again")  # pragma: no cover - 31^6 codes


def find_class(store: Store, code: str) -> ClassRecord:
    """The class of a student link; an unknown code is a :class:`StoreError` (the code is public, not a secret)."""
    return store.class_record(check_code(code))


def open_class(store: Store, code: str, teacher_key: str) -> ClassRecord:
    """The class of a teacher link; a wrong or forged key is refused and logged."""
    try:
        record = find_class(store, code)
    except StoreError:
        store.refuse(f"class:{code[:20]}", "unknown class for a teacher link")
        log.warning("refused: a teacher link for an unknown class")
        raise
    if not record.is_teacher(teacher_key):
        store.refuse(f"class:{record.code}", "wrong teacher key")
        log.warning("refused: wrong teacher key for class %s", record.code)
        raise StoreError("this teacher link is not valid for that class")
    return record


@dataclass
class RoomSummary:
    """One room of the class as the teacher's page lists it."""

    room_id: str
    players: list[str]
    preset: str
    round: int
    leader: str
    over: bool
    actions: int
    last_activity: float
    watch: str  # the teacher's read-only link to it, as a query string


@dataclass
class _Followed:
    """A class room's game, kept and caught up from the store."""

    game: Game
    last_activity: float = 0.0


@dataclass
class ClassData:
    """The class's rooms, followed live, and their dice and landings pooled."""

    store: Store
    code: str
    teacher_key: str
    rooms: dict[str, _Followed] = field(default_factory=dict)

    def refresh(self) -> None:
        """Catch up with every room of the class: new rooms are replayed, known ones get their new actions."""
        for room_id in self.store.class_rooms(self.code)[:MAX_CLASS_ROOMS]:
            followed = self.rooms.get(room_id)
            try:
                if followed is None:
                    room = self.store.room(room_id)
                    followed = self.rooms[room_id] = _Followed(replay(room.setup, self.store.actions(room_id)))
                else:
                    for raw in self.store.actions(room_id, since=len(followed.game.history)):
                        followed.game.apply(action_from_dict(raw))
                followed.last_activity = self.store.last_activity(room_id)
            except LaspolyError:  # a room that cannot be read is left out, never the page
                log.exception("a class room could not be read")
                self.rooms.pop(room_id, None)

    def summaries(self) -> list[RoomSummary]:
        """Every room: players, round, leader by net worth (the winner once over), last activity and a watch link."""
        out = []
        for room_id, f in self.rooms.items():
            g = f.game
            lead = g.winner if g.is_over and g.winner >= 0 else (g.standings()[0][0] if g.active_players else 0)
            out.append(RoomSummary(room_id, [p.name for p in g.players], g.preset.id, g.round, g.players[lead].name,
                                   g.is_over, len(g.history), f.last_activity, f"?room={room_id}&view={self.teacher_key}"))
        return out

    def _events(self) -> Iterable[tuple[str, Game, E.Event]]:
        for room_id, f in self.rooms.items():
            for event in f.game.log:
                yield room_id, f.game, event

    def dice_totals(self) -> list[int]:
        """How often each total 2-12 was rolled in all the class's rooms (index 0: a total of 2)."""
        counts = [0] * 11
        for _, _, e in self._events():
            if isinstance(e, E.Rolled):
                counts[e.d1 + e.d2 - 2] += 1
        return counts

    def landings(self) -> dict[str, list[int]]:
        """Per preset, how often a token arrived on each field (by dice, cards and train) in all the class's rooms."""
        out: dict[str, list[int]] = {}
        for _, g, e in self._events():
            if isinstance(e, (E.Moved, E.Travelled)):
                out.setdefault(g.preset.id, [0] * len(g.fields))[e.dst] += 1
        return out

    def csv(self) -> io.StringIO:
        """Every roll and landing of the class as CSV: room, preset, kind, player, die 1, die 2, total or field."""
        rows = []
        for room_id, g, e in self._events():
            if isinstance(e, E.Rolled):
                rows.append([room_id, g.preset.id, "roll", g.players[e.who].name, e.d1, e.d2, e.d1 + e.d2, ""])
            elif isinstance(e, (E.Moved, E.Travelled)):
                rows.append([room_id, g.preset.id, "landing", g.players[e.who].name, "", "", e.dst, g.field_name(e.dst)])
        return write_csv(["room", "preset", "kind", "player", "die1", "die2", "value", "field_name"], rows)


def join_class_room(store: Store, room_id: str, teacher_key: str) -> bool:
    """True if ``teacher_key`` is the key of the class this room belongs to (it then opens the room read-only)."""
    code = store.class_of(room_id)
    if code is None:
        return False
    try:
        return store.class_record(code).is_teacher(teacher_key)
    except StoreError:
        return False
