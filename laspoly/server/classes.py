"""A class: many rooms played at once, one teacher who watches them all, and their dice pooled.

A teacher creates a class (:func:`create_class`) and gets two links: the
*student link* (``?class=CODE``), from which every game started belongs to the
class, and the *teacher link* (``?class=CODE&teacher=KEY``), whose key is
random, shown once, and stored only as its hash, like a room's tokens.  The
teacher's page shows a *watch link* for each room (``?room=ID&view=TOKEN``):
its token is derived from the teacher's key and the room (:func:`watch_token`),
stored only as its hash, and opens that one room read-only; the teacher's key
itself is in no link but the teacher link, and opens no room.  Students only
ever hold their own room's links.  A wrong key is refused and logged, and a
device that keeps trying wrong keys is held off for a while (:func:`open_class`).

:class:`ClassData` replays every room of the class from the store and keeps
each one's game, catching up by the actions stored since it last looked (as a
room's device does), so a live teacher's page costs one query per room per
refresh.  It pools every dice roll and every landing of all the rooms, for the
law of large numbers with the whole class's data.  Nothing here imports a UI
library.
"""

from __future__ import annotations

import hashlib
import hmac
import io
import itertools
import logging
import secrets
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from laspoly.analysis import log as gamelog
from laspoly.analysis.log import roll_landing
from laspoly.csv_export import write_csv
from laspoly.engine import actions as A
from laspoly.engine.game import Game
from laspoly.engine.registry import action_from_dict
from laspoly.engine.state import clean_name, name_key
from laspoly.errors import LaspolyError, StoreError
from laspoly.record import replay
from laspoly.server.roomlog import undo_keep
from laspoly.server.store import ClassRecord, Store, token

__all__ = [
    "ClassData",
    "ClassRecord",
    "ClassRoom",
    "NewClass",
    "TeacherKeyThrottle",
    "check_class_name",
    "check_code",
    "class_names",
    "create_class",
    "find_class",
    "is_class_watch",
    "open_class",
    "student_link",
    "teacher_link",
    "watch_token",
]

log = logging.getLogger("laspoly.server.classes")

#: A class code's letters: no 0/O or 1/I/L, so a code read aloud or from a board is typed right.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6
#: The most rooms a teacher's page follows: the newest ones (older rooms are counted, not replayed).
MAX_CLASS_ROOMS = 200
#: Wrong teacher keys one device may try for one class within :data:`TEACHER_KEY_WINDOW` seconds.
MAX_WRONG_TEACHER_KEYS = 5
TEACHER_KEY_WINDOW = 60.0
#: How many devices (and classes) the throttle remembers; the least recently seen are forgotten first.
THROTTLE_ENTRIES = 4096


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


def watch_token(teacher_key: str, room_id: str) -> str:
    """The token of a class room's watch link, derived from the teacher's key (which no link shows) and the room."""
    return hmac.new(teacher_key.encode(), f"{room_id}:watch".encode(), hashlib.sha256).hexdigest()[:32]


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


class TeacherKeyThrottle:
    """Counts wrong teacher keys per device and class, and holds a device off once it has tried too many.

    At most :data:`MAX_WRONG_TEACHER_KEYS` wrong keys per ``window`` seconds; past
    that every attempt from that device for that class, right or wrong, is refused
    until the oldest wrong one is ``window`` seconds old, so guessing a key is
    hopeless.  A right key clears the device's count.  At most ``entries`` devices
    and classes are remembered (the least recently seen are forgotten), so a flood
    of addresses cannot grow the server's memory.
    """

    def __init__(self, limit: int = MAX_WRONG_TEACHER_KEYS, window: float = TEACHER_KEY_WINDOW,
                 entries: int = THROTTLE_ENTRIES, clock: Any = time.monotonic) -> None:
        self.limit, self.window, self.entries, self.clock = limit, window, entries, clock
        self._wrong: OrderedDict[tuple[str, str], deque[float]] = OrderedDict()
        self._lock = threading.Lock()

    def wait(self, client: str, code: str) -> float:
        """Seconds this device must wait before it may try a key for this class again (0: it may now)."""
        now = self.clock()
        with self._lock:
            times = self._wrong.get((client, code))
            if times is None:
                return 0.0
            while times and now - times[0] >= self.window:
                times.popleft()
            return self.window - (now - times[0]) if len(times) >= self.limit else 0.0

    def wrong(self, client: str, code: str) -> None:
        """Note a wrong key from this device for this class."""
        with self._lock:
            times = self._wrong.pop((client, code), None) or deque(maxlen=self.limit)
            times.append(self.clock())
            self._wrong[(client, code)] = times  # the most recently seen last
            while len(self._wrong) > self.entries:
                self._wrong.popitem(last=False)

    def right(self, client: str, code: str) -> None:
        """A right key: the device's wrong ones are forgotten."""
        with self._lock:
            self._wrong.pop((client, code), None)


#: The server's one throttle of teacher keys (each process has its own).
TEACHER_KEYS = TeacherKeyThrottle()


def open_class(store: Store, code: str, teacher_key: str, client: str = "", throttle: TeacherKeyThrottle | None = None) -> ClassRecord:
    """The class of a teacher link; an empty, wrong or forged key is refused and logged.

    ``client`` names the device (its address): after too many wrong keys for a class
    (:class:`TeacherKeyThrottle`) its attempts are refused for a while, with a message that says so.
    """
    throttle = throttle or TEACHER_KEYS
    typed = code.strip().upper()[:20]
    wait = throttle.wait(client, typed)
    if wait > 0:
        log.warning("refused: too many wrong teacher keys from one device for class %s", typed)
        raise StoreError(f"too many wrong teacher keys from this device: try again in {int(wait) + 1} seconds")
    if not teacher_key:
        store.refuse(f"class:{typed}", "a teacher link without its key")
        log.warning("refused: a teacher link without its key")
        raise StoreError("this teacher link has no key: open the teacher link exactly as it was shown when the class was made")
    try:
        record = find_class(store, code)
    except StoreError:
        throttle.wrong(client, typed)
        store.refuse(f"class:{typed}", "unknown class for a teacher link")
        log.warning("refused: a teacher link for an unknown class")
        raise
    if not record.is_teacher(teacher_key):
        throttle.wrong(client, typed)
        store.refuse(f"class:{record.code}", "wrong teacher key")
        log.warning("refused: wrong teacher key for class %s", record.code)
        raise StoreError("this teacher link is not valid for that class")
    throttle.right(client, typed)
    return record


@dataclass
class ClassRoom:
    """One room of the class as the teacher's page lists it."""

    room_id: str
    players: list[str]
    preset: str
    round: int
    leader: str
    over: bool
    actions: int
    last_activity: float
    watch: str  # the read-only watch link to it (:func:`watch_token`), as a query string


@dataclass
class _Followed:
    """A class room's game, kept and caught up from the store, with where each of its rolls landed."""

    game: Game
    watch: str  # the room's watch link, as a query string
    logged: int = 0  # how many entries of the room's log it has played (actions and undo entries)
    last_activity: float = 0.0
    #: Per roll of the game as it stands, (player, slot) as the chain counts it (:func:`roll_landing`).
    landed: list[tuple[int, int]] = field(default_factory=list)

    def play(self, actions: Iterable[Any]) -> None:
        """Play stored actions on the game, noting where each roll landed."""
        for raw in actions:
            action = raw if isinstance(raw, A.Action) else action_from_dict(raw)
            from_prison = isinstance(action, A.Roll) and self.game.players[action.player].in_prison
            self.game.apply(action)
            landing = roll_landing(self.game, action, from_prison)
            if landing is not None:
                self.landed.append(landing)

    def catch_up(self, entries: Iterable[dict[str, Any]]) -> None:
        """Play the log's newer entries: actions on the game, an undo entry by replaying the actions it keeps."""
        for entry in entries:
            keep = undo_keep(entry, len(self.game.history))
            if keep is None:
                self.play([entry])
            elif keep < len(self.game.history):
                kept = list(self.game.history[:keep])
                self.game, self.landed = replay(self.game.setup, []), []
                self.play(kept)
            self.logged += 1


@dataclass
class ClassData:
    """The class's rooms, followed live, and their dice and landings pooled.

    It follows the newest :data:`MAX_CLASS_ROOMS` rooms; :attr:`total` counts them all.
    Each room is the game as it stands: an undo entry of its log (:mod:`laspoly.server.roomlog`) takes its
    decisions back here too, so an undone roll or landing is not counted, nor written in the CSV.
    """

    store: Store
    code: str
    teacher_key: str = field(repr=False)  # never in a log line, a link or anything the page holds
    rooms: dict[str, _Followed] = field(default_factory=dict)
    #: How many rooms the class has (the newest :data:`MAX_CLASS_ROOMS` of them are followed).
    total: int = 0

    def refresh(self) -> None:
        """Catch up with the class's newest rooms: new rooms are replayed (and get their watch link), known ones get their new actions."""
        newest = self.store.class_rooms(self.code, limit=MAX_CLASS_ROOMS)
        self.total = self.store.class_room_count(self.code)
        kept: dict[str, _Followed] = {}
        for room_id in newest:  # newest first: the order the teacher's page lists them in
            followed = self.rooms.get(room_id)
            try:
                if followed is None:
                    room = self.store.room(room_id)
                    token_ = watch_token(self.teacher_key, room_id)
                    self.store.set_watch_token(room_id, token_)
                    followed = _Followed(replay(room.setup, []), f"?room={room_id}&view={token_}")
                    followed.catch_up(self.store.actions(room_id))
                else:
                    followed.catch_up(self.store.actions(room_id, since=followed.logged))
                followed.last_activity = self.store.last_activity(room_id)
                kept[room_id] = followed
            except LaspolyError:  # a room that cannot be read is left out, never the page
                log.exception("a class room could not be read")
        self.rooms = kept  # rooms pushed out by newer ones are let go

    def summaries(self, start: int = 0, count: int | None = None) -> list[ClassRoom]:
        """The followed rooms, newest first (``count`` of them from ``start``): players, round, leader by net worth
        (the winner once over), last activity and a watch link."""
        out = []
        ids = list(self.rooms)[start:None if count is None else start + count]
        for room_id in ids:
            f = self.rooms[room_id]
            g = f.game
            lead = g.winner if g.is_over and g.winner >= 0 else (g.standings()[0][0] if g.active_players else 0)
            out.append(ClassRoom(room_id, [p.name for p in g.players], g.preset.id, g.round, g.players[lead].name,
                                   g.is_over, len(g.history), f.last_activity, f.watch))
        return out

    def dice_totals(self) -> list[int]:
        """How often each total 2-12 was rolled in all the class's rooms (index 0: a total of 2)."""
        return gamelog.count_totals(t for f in self.rooms.values() for t in gamelog.roll_totals(f.game))

    def dice_sequence(self) -> list[int]:
        """The class's dice totals pooled in the order a class rolls them: each room's first roll, then each one's second, ...

        The rooms play at the same time, so taking their rolls in turn is the
        nearest to the order in which the class rolled; the counts are those of
        :meth:`dice_totals`.
        """
        runs = [gamelog.roll_totals(f.game) for f in self.rooms.values()]
        return [t for turn in itertools.zip_longest(*runs) for t in turn if t is not None]

    def landings(self) -> dict[str, list[int]]:
        """Per preset, where the class's rolls ended, counted as the movement chain counts (:func:`roll_landing`).

        One count per field, then "in prison" last, so the shares compare with the
        chain's per-roll landing probabilities and its "in prison" share.
        """
        out: dict[str, list[int]] = {}
        for f in self.rooms.values():
            counts = out.setdefault(f.game.preset.id, [0] * (len(f.game.fields) + 1))
            for _, slot in f.landed:
                counts[slot] += 1
        return out

    def csv(self) -> io.StringIO:
        """Every roll and landing of the class as CSV: room, preset, kind, player, die 1, die 2, total or field.

        A landing is where a roll ended, as :meth:`landings` counts it; "in prison" has no field number.
        """
        rows = []
        for room_id, f in self.rooms.items():
            g = f.game
            rows += [[room_id, g.preset.id, "roll", g.players[e.who].name, e.d1, e.d2, e.d1 + e.d2, ""] for e in gamelog.rolls(g)]
        for room_id, f in self.rooms.items():
            g = f.game
            for who, slot in f.landed:
                where = ("", "in prison") if slot == len(g.fields) else (slot, g.field_name(slot))
                rows.append([room_id, g.preset.id, "landing", g.players[who].name, "", "", *where])
        return write_csv(["room", "preset", "kind", "player", "die1", "die2", "value", "field_name"], rows)


def is_class_watch(store: Store, room_id: str, secret: str) -> bool:
    """True if ``secret`` is the watch token a class's teacher page showed for this room (it opens the room read-only)."""
    return store.class_of(room_id) is not None and store.is_watch_token(room_id, secret)


def class_names(store: Store, code: str) -> dict[str, str]:
    """The names of the people playing in the class's rooms, by their :func:`~laspoly.engine.state.name_key`.

    A name joining the class is compared in that form, so "Ana", "ANA" and "Ａｎａ"
    are one name.  Bots' seats are left out: every room has its "Bot 1".
    """
    names: dict[str, str] = {}
    for room_id in store.class_rooms(code):
        try:
            room = store.room(room_id)
        except LaspolyError:  # a room that cannot be read holds no name
            continue
        for kind, name in zip((s.kind for s in room.seats), room.setup.get("players", ()), strict=False):
            if kind == "person" and isinstance(name, str):
                names.setdefault(name_key(name), name)
    return names
