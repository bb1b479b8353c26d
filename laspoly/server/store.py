"""Game rooms in a database: SQLite (the default) or PostgreSQL, behind one small interface.

A room is a game's setup, its seats and its action log.  Every action is one
row with its index in the log; the primary key (room, index) makes two devices
that act at once write at most one action for that index, so exactly one is
applied and the other is told the game has changed.  Tokens are random
(:mod:`secrets`) and only their SHA-256 hashes are stored, so the database
cannot be read back into working links.

``open_store("sqlite:///path/to/rooms.db")`` or ``open_store("postgresql://user@host/db")``.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
import sqlite3
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from laspoly.errors import StoreError
from laspoly.predict import Guess

SCHEMA = [
    """CREATE TABLE IF NOT EXISTS rooms (
        id TEXT PRIMARY KEY, created DOUBLE PRECISION NOT NULL, owner_hash TEXT NOT NULL,
        spectator_hash TEXT NOT NULL, setup TEXT NOT NULL, seats TEXT NOT NULL, lang TEXT NOT NULL)""",
    """CREATE TABLE IF NOT EXISTS actions (
        room_id TEXT NOT NULL, idx INTEGER NOT NULL, action TEXT NOT NULL, PRIMARY KEY (room_id, idx))""",
    """CREATE TABLE IF NOT EXISTS refusals (
        room_id TEXT NOT NULL, at DOUBLE PRECISION NOT NULL, reason TEXT NOT NULL)""",
    """CREATE TABLE IF NOT EXISTS room_activity (room_id TEXT PRIMARY KEY, at DOUBLE PRECISION NOT NULL)""",
    """CREATE TABLE IF NOT EXISTS classes (
        id TEXT PRIMARY KEY, created DOUBLE PRECISION NOT NULL, teacher_hash TEXT NOT NULL, name TEXT NOT NULL)""",
    """CREATE TABLE IF NOT EXISTS class_rooms (room_id TEXT PRIMARY KEY, class_id TEXT NOT NULL)""",
    # a person's name playing in a class, in its name_key form: the primary key makes two devices joining with one
    # name at the same moment a conflict in the database, not two rooms with that name
    """CREATE TABLE IF NOT EXISTS class_names (
        class_id TEXT NOT NULL, name_key TEXT NOT NULL, room_id TEXT NOT NULL, PRIMARY KEY (class_id, name_key))""",
    """CREATE TABLE IF NOT EXISTS owners (key_hash TEXT PRIMARY KEY, created DOUBLE PRECISION NOT NULL)""",
    """CREATE TABLE IF NOT EXISTS room_watch (room_id TEXT PRIMARY KEY, token_hash TEXT NOT NULL)""",
    """CREATE TABLE IF NOT EXISTS guesses (
        room_id TEXT NOT NULL, idx INTEGER NOT NULL, player INTEGER NOT NULL, guess INTEGER NOT NULL,
        total INTEGER NOT NULL, PRIMARY KEY (room_id, idx))""",
]


#: A committed write reaches the disk within this many seconds (:class:`SqliteStore`); a killed server loses none.
FLUSH_WITHIN = 1.0


def token() -> str:
    """An unguessable token for a room, a seat, a spectator link or an owner."""
    return secrets.token_urlsafe(18)


def digest(secret: str) -> str:
    """The stored form of a token."""
    return hashlib.sha256(secret.encode()).hexdigest()


def default_url() -> str:
    """``sqlite:///`` in the per-user data directory ($LASPOLY_DB overrides it)."""
    if os.environ.get("LASPOLY_DB"):
        return os.environ["LASPOLY_DB"]
    base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share") / "laspoly"
    return f"sqlite:///{base / 'rooms.db'}"


@dataclass(frozen=True)
class Seat:
    """One seat of a room: who plays it, and whether a person has opened its link."""

    kind: str  # "person" or a bot temperament
    token_hash: str
    joined: bool = False

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "token_hash": self.token_hash, "joined": self.joined}


@dataclass(frozen=True)
class Room:
    """A stored room: its setup, seats and language (the log is read separately)."""

    id: str
    created: float
    owner_hash: str
    spectator_hash: str
    setup: dict[str, Any]
    seats: tuple[Seat, ...]
    lang: str

    def seat_of(self, secret: str) -> int | None:
        """The seat whose token this is, or None (compared in constant time)."""
        h = digest(secret)
        found = None
        for i, seat in enumerate(self.seats):
            if hmac.compare_digest(seat.token_hash, h):
                found = i
        return found

    def is_spectator(self, secret: str) -> bool:
        """True for the read-only spectator token."""
        return hmac.compare_digest(self.spectator_hash, digest(secret))

    def is_owner(self, secret: str) -> bool:
        """True for the owner's key (it may swap seats between people and bots)."""
        return hmac.compare_digest(self.owner_hash, digest(secret))


@dataclass(frozen=True)
class ClassRecord:
    """A stored class: its code, name and the hash of its teacher's key."""

    code: str
    created: float
    teacher_hash: str
    name: str

    def is_teacher(self, secret: str) -> bool:
        """True for the class's teacher key (compared in constant time)."""
        return hmac.compare_digest(self.teacher_hash, digest(secret))


@dataclass(frozen=True)
class NewRoom:
    """A room just created, with the tokens that are shown once (only their hashes are kept)."""

    room: Room
    seat_tokens: tuple[str, ...]
    spectator_token: str


class Store:
    """The storage interface; :class:`SqliteStore` and :class:`PostgresStore` implement its SQL."""

    placeholder = "?"

    # -- connection plumbing, per implementation
    @contextmanager
    def _tx(self, write: bool = True) -> Iterator[Any]:  # pragma: no cover - abstract
        raise NotImplementedError

    def _is_conflict(self, exc: Exception) -> bool:  # pragma: no cover - abstract
        raise NotImplementedError

    def _q(self, sql: str) -> str:
        return sql.replace("?", self.placeholder)

    def _init(self) -> None:
        with self._tx() as cur:
            for stmt in SCHEMA:
                cur.execute(stmt)

    # -- rooms
    def create_room(self, setup: dict[str, Any], seats: list[str], owner_key: str, lang: str = "en", *,
                    room_id: str | None = None, seat_tokens: tuple[str, ...] | None = None,
                    spectator_token: str | None = None, joined: tuple[bool, ...] | None = None) -> NewRoom:
        """Store a new room; returns the seat and spectator tokens (random unless given)."""
        seat_tokens = seat_tokens or tuple(token() for _ in seats)
        spectator = spectator_token or token()
        flags = joined or (False,) * len(seats)
        room = Room(room_id or token(), time.time(), digest(owner_key), digest(spectator), setup,
                    tuple(Seat(kind, digest(t), j) for kind, t, j in zip(seats, seat_tokens, flags, strict=True)), lang)
        with self._tx() as cur:
            cur.execute(self._q("INSERT INTO rooms (id, created, owner_hash, spectator_hash, setup, seats, lang) VALUES (?, ?, ?, ?, ?, ?, ?)"),
                        (room.id, room.created, room.owner_hash, room.spectator_hash, json.dumps(setup),
                         json.dumps([s.as_dict() for s in room.seats]), lang))
            # the server made this key (it never adopts one from an address): from now on it may be given back
            cur.execute(self._q("INSERT INTO owners (key_hash, created) VALUES (?, ?) ON CONFLICT (key_hash) DO NOTHING"),
                        (room.owner_hash, room.created))
        return NewRoom(room, seat_tokens, spectator)

    def knows_owner(self, owner_key: str) -> bool:
        """True if this server issued ``owner_key`` and stored a room with it (only its hash is kept)."""
        with self._tx(write=False) as cur:
            cur.execute(self._q("SELECT 1 FROM owners WHERE key_hash = ?"), (digest(owner_key),))
            return cur.fetchone() is not None

    def room(self, room_id: str) -> Room:
        """A room by id; an unknown id is a :class:`StoreError`."""
        with self._tx(write=False) as cur:
            cur.execute(self._q("SELECT id, created, owner_hash, spectator_hash, setup, seats, lang FROM rooms WHERE id = ?"), (room_id,))
            row = cur.fetchone()
        if row is None:
            raise StoreError("there is no such game")
        seats = tuple(Seat(s["kind"], s["token_hash"], s["joined"]) for s in json.loads(row[5]))
        return Room(row[0], row[1], row[2], row[3], json.loads(row[4]), seats, row[6])

    def rooms_of(self, owner_key: str) -> list[tuple[str, float, int]]:
        """The owner's rooms: (id, created, entries of its log), newest first."""
        with self._tx(write=False) as cur:
            cur.execute(self._q("SELECT r.id, r.created, (SELECT COUNT(*) FROM actions a WHERE a.room_id = r.id) "
                                "FROM rooms r WHERE r.owner_hash = ? ORDER BY r.created DESC"), (digest(owner_key),))
            return [(r[0], r[1], int(r[2])) for r in cur.fetchall()]

    def last_undo_entries(self, owner_key: str) -> dict[str, tuple[int, Any]]:
        """For each of the owner's rooms whose log has an undo entry, the last one: room id -> (index, entry).

        The undo entries are the ones :mod:`laspoly.server.roomlog` writes, ``{"type": "undo", ...}``; the caller
        checks each one it is given (:func:`laspoly.server.roomlog.undo_keep`).
        """
        with self._tx(write=False) as cur:
            cur.execute(self._q("SELECT a.room_id, a.idx, a.action FROM actions a JOIN rooms r ON r.id = a.room_id "
                                "WHERE r.owner_hash = ? AND a.action LIKE ? ORDER BY a.room_id, a.idx"),
                        (digest(owner_key), '{"type": "undo"%'))
            return {r[0]: (int(r[1]), json.loads(r[2])) for r in cur.fetchall()}

    def delete_room(self, room_id: str, owner_key: str) -> bool:
        """Delete a room and its log (only its owner may)."""
        if not self.room(room_id).is_owner(owner_key):
            return False
        with self._tx() as cur:
            for table in ("actions", "room_activity", "class_rooms", "class_names", "room_watch", "guesses"):
                cur.execute(self._q(f"DELETE FROM {table} WHERE room_id = ?"), (room_id,))
            cur.execute(self._q("DELETE FROM rooms WHERE id = ?"), (room_id,))
        return True

    def set_seats(self, room_id: str, seats: tuple[Seat, ...]) -> None:
        """Store who plays each seat (a person joining, a teacher swapping a seat to a bot)."""
        with self._tx() as cur:
            cur.execute(self._q("UPDATE rooms SET seats = ? WHERE id = ?"), (json.dumps([s.as_dict() for s in seats]), room_id))

    # -- the action log
    def append(self, room_id: str, index: int, action: dict[str, Any]) -> bool:
        """Store action number ``index``; False if another device stored that index first."""
        try:
            with self._tx() as cur:
                cur.execute(self._q("INSERT INTO actions (room_id, idx, action) VALUES (?, ?, ?)"), (room_id, index, json.dumps(action)))
                cur.execute(self._q("INSERT INTO room_activity (room_id, at) VALUES (?, ?) "
                                    "ON CONFLICT (room_id) DO UPDATE SET at = excluded.at"), (room_id, time.time()))
            return True
        except Exception as exc:
            if self._is_conflict(exc):
                return False
            raise

    def append_many(self, room_id: str, actions: Sequence[dict[str, Any]], start: int = 0) -> None:
        """Store a whole log (a loaded game's) as entries ``start``, ``start + 1``... in one transaction: all or none.

        An entry already stored makes it a :class:`StoreError`, with nothing stored.

        One commit for the lot, where :meth:`append` commits each action: a
        save file's thousands of actions are stored in a fraction of a second.
        """
        if not actions:
            return
        rows = [(room_id, start + k, json.dumps(action)) for k, action in enumerate(actions)]
        try:
            with self._tx() as cur:
                cur.executemany(self._q("INSERT INTO actions (room_id, idx, action) VALUES (?, ?, ?)"), rows)
                cur.execute(self._q("INSERT INTO room_activity (room_id, at) VALUES (?, ?) "
                                    "ON CONFLICT (room_id) DO UPDATE SET at = excluded.at"), (room_id, time.time()))
        except Exception as exc:
            if self._is_conflict(exc):
                raise StoreError("the game's log overlaps entries already stored: nothing was stored") from None
            raise

    def actions(self, room_id: str, since: int = 0) -> list[dict[str, Any]]:
        """The stored actions from index ``since`` on, in order."""
        with self._tx(write=False) as cur:
            cur.execute(self._q("SELECT action FROM actions WHERE room_id = ? AND idx >= ? ORDER BY idx"), (room_id, since))
            return [json.loads(r[0]) for r in cur.fetchall()]

    def count(self, room_id: str) -> int:
        """How many actions are stored for the room."""
        with self._tx(write=False) as cur:
            cur.execute(self._q("SELECT COUNT(*) FROM actions WHERE room_id = ?"), (room_id,))
            return int(cur.fetchone()[0])

    def last_activity(self, room_id: str) -> float:
        """When the room's last action was stored (its creation when it has none)."""
        with self._tx(write=False) as cur:
            cur.execute(self._q("SELECT at FROM room_activity WHERE room_id = ?"), (room_id,))
            row = cur.fetchone()
        return float(row[0]) if row else self.room(room_id).created

    # -- guesses (predict, then roll)
    def add_guess(self, room_id: str, guess: Guess) -> None:
        """Keep a player's guess of a roll's total beside the roll (the action's index in the log); once per roll."""
        try:
            with self._tx() as cur:
                cur.execute(self._q("INSERT INTO guesses (room_id, idx, player, guess, total) VALUES (?, ?, ?, ?, ?)"),
                            (room_id, guess.index, guess.player, guess.guess, guess.total))
        except Exception as exc:
            if not self._is_conflict(exc):
                raise

    def drop_guesses(self, room_id: str, since: int) -> None:
        """Forget the guesses of the rolls from action ``since`` of the game on (an undo took those rolls back)."""
        with self._tx() as cur:
            cur.execute(self._q("DELETE FROM guesses WHERE room_id = ? AND idx >= ?"), (room_id, since))

    def guesses(self, room_id: str) -> list[Guess]:
        """The room's guesses, in the order of the rolls."""
        with self._tx(write=False) as cur:
            cur.execute(self._q("SELECT idx, player, guess, total FROM guesses WHERE room_id = ? ORDER BY idx"), (room_id,))
            return [Guess(int(r[0]), int(r[1]), int(r[2]), int(r[3])) for r in cur.fetchall()]

    # -- classes
    def create_class(self, code: str, name: str, teacher_key: str) -> ClassRecord | None:
        """Store a class under ``code``; None when the code is taken (the caller draws another)."""
        record = ClassRecord(code, time.time(), digest(teacher_key), name)
        try:
            with self._tx() as cur:
                cur.execute(self._q("INSERT INTO classes (id, created, teacher_hash, name) VALUES (?, ?, ?, ?)"),
                            (record.code, record.created, record.teacher_hash, record.name))
            return record
        except Exception as exc:
            if self._is_conflict(exc):
                return None
            raise

    def class_record(self, code: str) -> ClassRecord:
        """A class by its code; an unknown code is a :class:`StoreError`."""
        with self._tx(write=False) as cur:
            cur.execute(self._q("SELECT id, created, teacher_hash, name FROM classes WHERE id = ?"), (code,))
            row = cur.fetchone()
        if row is None:
            raise StoreError("there is no class with that code")
        return ClassRecord(row[0], float(row[1]), row[2], row[3])

    def add_to_class(self, code: str, room_id: str) -> None:
        """Make a room one of the class's games."""
        with self._tx() as cur:
            cur.execute(self._q("INSERT INTO class_rooms (room_id, class_id) VALUES (?, ?)"), (room_id, code))

    def claim_names(self, code: str, room_id: str, name_keys: Sequence[str]) -> bool:
        """Hold ``name_keys`` in the class for ``room_id``, all or none, in one transaction.

        False when one of them is already held (by another room, or by a device that claimed it
        a moment before): the database's primary key decides, so no race lets a name in twice.
        """
        try:
            with self._tx() as cur:
                for key in dict.fromkeys(name_keys):
                    cur.execute(self._q("INSERT INTO class_names (class_id, name_key, room_id) VALUES (?, ?, ?)"),
                                (code, key, room_id))
            return True
        except Exception as exc:
            if self._is_conflict(exc):
                return False
            raise

    def held_names(self, code: str) -> set[str]:
        """The name keys held in the class (:meth:`claim_names`)."""
        with self._tx(write=False) as cur:
            cur.execute(self._q("SELECT name_key FROM class_names WHERE class_id = ?"), (code,))
            return {r[0] for r in cur.fetchall()}

    def release_names(self, room_id: str) -> None:
        """Let go of the names a room held (its room was not stored after all)."""
        with self._tx() as cur:
            cur.execute(self._q("DELETE FROM class_names WHERE room_id = ?"), (room_id,))

    def class_of(self, room_id: str) -> str | None:
        """The code of the class a room belongs to, or None."""
        with self._tx(write=False) as cur:
            cur.execute(self._q("SELECT class_id FROM class_rooms WHERE room_id = ?"), (room_id,))
            row = cur.fetchone()
        return row[0] if row else None

    def class_rooms(self, code: str, limit: int | None = None, offset: int = 0) -> list[str]:
        """The ids of the class's rooms, newest first: ``limit`` of them from ``offset`` on (all without a limit)."""
        sql = "SELECT c.room_id FROM class_rooms c JOIN rooms r ON r.id = c.room_id WHERE c.class_id = ? ORDER BY r.created DESC, r.id"
        args: tuple[Any, ...] = (code,)
        if limit is not None:
            sql, args = sql + " LIMIT ? OFFSET ?", (code, int(limit), max(0, int(offset)))
        with self._tx(write=False) as cur:
            cur.execute(self._q(sql), args)
            return [r[0] for r in cur.fetchall()]

    def class_room_count(self, code: str) -> int:
        """How many rooms the class has."""
        with self._tx(write=False) as cur:
            cur.execute(self._q("SELECT COUNT(*) FROM class_rooms c JOIN rooms r ON r.id = c.room_id WHERE c.class_id = ?"), (code,))
            return int(cur.fetchone()[0])

    def set_watch_token(self, room_id: str, watch_token: str) -> None:
        """Keep the hash of the read-only link a class's teacher shows for one of its rooms (one per room; kept once set)."""
        with self._tx() as cur:
            cur.execute(self._q("INSERT INTO room_watch (room_id, token_hash) VALUES (?, ?) ON CONFLICT (room_id) DO NOTHING"),
                        (room_id, digest(watch_token)))

    def is_watch_token(self, room_id: str, secret: str) -> bool:
        """True for the teacher's read-only link of this room (compared in constant time)."""
        with self._tx(write=False) as cur:
            cur.execute(self._q("SELECT token_hash FROM room_watch WHERE room_id = ?"), (room_id,))
            row = cur.fetchone()
        return row is not None and hmac.compare_digest(row[0], digest(secret))

    def refuse(self, room_id: str, reason: str) -> None:
        """Log a refused request (a wrong or forged token, a spectator trying to act)."""
        with self._tx() as cur:
            cur.execute(self._q("INSERT INTO refusals (room_id, at, reason) VALUES (?, ?, ?)"), (room_id[:64], time.time(), reason[:300]))

    def refusals(self, room_id: str) -> list[str]:
        """The refusals logged for a room."""
        with self._tx(write=False) as cur:
            cur.execute(self._q("SELECT reason FROM refusals WHERE room_id = ? ORDER BY at"), (room_id,))
            return [r[0] for r in cur.fetchall()]


class SqliteStore(Store):
    """SQLite in WAL mode; one connection per thread, each action its own transaction.

    How a stored action is kept: a commit is in the database file's write-ahead
    log at once, so a server that is killed, or crashes, loses nothing; the log
    reaches the disk itself (an ``fsync``) within :data:`FLUSH_WITHIN` seconds,
    from a thread of its own.  Waiting for the disk at every commit
    (``synchronous=FULL``) held the server's one event loop for about 5 ms an
    action, and a class of thirty stores about fifty actions a second; so only a
    power cut can take back the last second of moves, never a game or the file.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._local = threading.local()
        self._written = threading.Event()  # set by a commit, cleared by the flusher that syncs it
        self._flusher: threading.Thread | None = None
        self._flusher_pid = 0
        try:
            conn = self._conn()
            conn.execute("PRAGMA journal_mode=WAL")
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open the game database {self.path}: {exc}") from None
        self._init()

    def _conn(self) -> sqlite3.Connection:
        conn = getattr(self._local, "conn", None)
        if conn is None:
            conn = sqlite3.connect(self.path, timeout=30, isolation_level=None, check_same_thread=True)
            conn.execute("PRAGMA busy_timeout=30000")
            # a commit is in the write-ahead log at once and survives a killed process; the flusher syncs the log
            conn.execute("PRAGMA synchronous=NORMAL")
            self._local.conn = conn
        return conn

    @contextmanager
    def _tx(self, write: bool = True) -> Iterator[Any]:
        conn = self._conn()
        cur = conn.cursor()
        cur.execute("BEGIN IMMEDIATE" if write else "BEGIN")  # readers never wait for the write lock in WAL
        try:
            yield cur
        except BaseException:
            cur.execute("ROLLBACK")
            raise
        else:
            cur.execute("COMMIT")
            if write:
                self._wrote()

    def _wrote(self) -> None:
        """A write was committed: wake the flusher (this process's own, started on the first write)."""
        if self.path == ":memory:":
            return
        if self._flusher is None or self._flusher_pid != os.getpid() or not self._flusher.is_alive():
            self._flusher_pid = os.getpid()  # a forked server process starts one of its own
            self._flusher = threading.Thread(target=self._flush_loop, name="laspoly-store-flush", daemon=True)
            self._flusher.start()
        self._written.set()

    def _flush_loop(self) -> None:
        """Sync the write-ahead log to the disk after each write, at most every :data:`FLUSH_WITHIN` seconds."""
        while True:
            self._written.wait()
            time.sleep(FLUSH_WITHIN / 2)  # gather the writes of the moment into one sync
            self._written.clear()
            self.flush()

    def flush(self) -> None:
        """Put every committed write on the disk now (the write-ahead log, where commits go)."""
        for path in (self.path + "-wal", self.path):
            try:
                fd = os.open(path, os.O_RDONLY)
            except OSError:  # no log (nothing written since it was checkpointed away): nothing to sync
                continue
            try:
                os.fsync(fd)
            except OSError:
                pass  # a file system that cannot sync a read-only handle: SQLite's own checkpoints still sync it
            finally:
                os.close(fd)

    def _is_conflict(self, exc: Exception) -> bool:
        return isinstance(exc, sqlite3.IntegrityError)


class PostgresStore(Store):
    """PostgreSQL through psycopg, for several app processes or machines."""

    placeholder = "%s"

    def __init__(self, url: str) -> None:
        try:
            import psycopg
        except ImportError:
            from laspoly.extras import missing_message

            raise StoreError(missing_message("postgres", "a postgresql:// database", "psycopg")) from None
        self._psycopg = psycopg
        self.url = url
        self._local = threading.local()
        try:
            self._conn()
        except psycopg.Error as exc:
            raise StoreError(f"cannot connect to the game database: {str(exc).strip()[:200]}") from None
        self._init()

    def _conn(self) -> Any:
        conn = getattr(self._local, "conn", None)
        if conn is None or conn.closed:
            conn = self._psycopg.connect(self.url, autocommit=False)
            self._local.conn = conn
        return conn

    @contextmanager
    def _tx(self, write: bool = True) -> Iterator[Any]:
        conn = self._conn()
        try:
            with conn.cursor() as cur:
                yield cur
            conn.commit()
        except BaseException:
            conn.rollback()
            raise

    def _is_conflict(self, exc: Exception) -> bool:
        return isinstance(exc, self._psycopg.errors.UniqueViolation)


def open_store(url: str | None = None) -> Store:
    """A store for ``sqlite:///path`` (the default: :func:`default_url`) or ``postgresql://...``."""
    url = url or default_url()
    if url.startswith("sqlite:///"):
        return SqliteStore(url[len("sqlite:///"):] or ":memory:")
    if url.startswith(("postgresql://", "postgres://")):
        return PostgresStore(url)
    raise StoreError(f"unsupported database URL {url.split(':')[0]!r}: use sqlite:///path or postgresql://...")
