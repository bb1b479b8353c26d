"""The storage suite, run against SQLite and a real PostgreSQL server."""

from __future__ import annotations

import multiprocessing
import sqlite3
import threading
from pathlib import Path

import pytest

from laspoly.errors import StoreError
from laspoly.server.store import Store, digest, open_store


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Store:
    if request.param == "sqlite":
        return open_store(f"sqlite:///{tmp_path / 'rooms.db'}")
    return open_store(request.getfixturevalue("postgres_url"))


SETUP = {"preset": "laspoly", "players": ["Ana", "Ben"], "seed": 1, "rules": {}, "dice": [], "max_rounds": None}


def test_a_room_keeps_its_setup_and_only_hashes_of_its_tokens(store: Store) -> None:
    new = store.create_room(SETUP, ["person", "basic"], "owner-key", "es")
    room = store.room(new.room.id)
    assert room.setup == SETUP and room.lang == "es" and [s.kind for s in room.seats] == ["person", "basic"]
    assert room.seat_of(new.seat_tokens[1]) == 1 and room.seat_of("forged") is None
    assert room.is_spectator(new.spectator_token) and not room.is_spectator(new.seat_tokens[0])
    assert room.is_owner("owner-key") and not room.is_owner("someone")
    assert all(s.token_hash == digest(t) for s, t in zip(room.seats, new.seat_tokens, strict=True))
    with pytest.raises(StoreError, match="no such game"):
        store.room("nope")


def test_each_log_entry_is_written_once(store: Store) -> None:
    room = store.create_room(SETUP, ["person", "basic"], "k").room
    assert store.append(room.id, 0, {"type": "Roll", "player": 0})
    assert not store.append(room.id, 0, {"type": "EndTurn", "player": 0})
    assert store.append(room.id, 1, {"type": "EndTurn", "player": 0})
    assert store.actions(room.id) == [{"type": "Roll", "player": 0}, {"type": "EndTurn", "player": 0}]
    assert store.actions(room.id, since=1) == [{"type": "EndTurn", "player": 0}] and store.count(room.id) == 2


def test_a_whole_log_is_stored_at_once_all_or_nothing(store: Store) -> None:
    log = [{"type": "Roll", "player": 0}, {"type": "EndTurn", "player": 0}] * 3
    room = store.create_room(SETUP, ["person", "basic"], "k").room
    store.append_many(room.id, log)
    assert store.actions(room.id) == log and store.last_activity(room.id) >= room.created
    taken = store.create_room(SETUP, ["person", "basic"], "k").room
    assert store.append(taken.id, 3, {"type": "Roll", "player": 0})
    with pytest.raises(StoreError, match="nothing was stored"):  # entry 3 is taken: the whole batch is rolled back
        store.append_many(taken.id, log)
    assert store.count(taken.id) == 1


def test_my_games_lists_deletes_only_for_the_owner(store: Store) -> None:
    a = store.create_room(SETUP, ["person", "basic"], "mine").room
    store.create_room(SETUP, ["person", "basic"], "theirs")
    assert [r[0] for r in store.rooms_of("mine")] == [a.id]
    assert not store.delete_room(a.id, "theirs")
    assert store.delete_room(a.id, "mine") and store.rooms_of("mine") == []


def test_the_last_undo_entry_of_each_of_an_owners_rooms_is_found(store: Store) -> None:
    a = store.create_room(SETUP, ["person", "basic"], "mine").room
    b = store.create_room(SETUP, ["person", "basic"], "mine").room
    store.create_room(SETUP, ["person", "basic"], "theirs")
    store.append_many(a.id, [{"type": "Roll", "player": 0}, {"type": "undo", "keep": 0},
                             {"type": "Roll", "player": 0}, {"type": "undo", "keep": 1}, {"type": "EndTurn", "player": 0}])
    store.append(b.id, 0, {"type": "Roll", "player": 0})
    assert store.last_undo_entries("mine") == {a.id: (3, {"type": "undo", "keep": 1})}
    assert store.last_undo_entries("theirs") == {}


def test_refusals_are_logged(store: Store) -> None:
    room = store.create_room(SETUP, ["person", "basic"], "k").room
    store.refuse(room.id, "wrong or forged token")
    assert store.refusals(room.id) == ["wrong or forged token"]


def test_concurrent_writers_in_threads_never_write_an_entry_twice(store: Store) -> None:
    room = store.create_room(SETUP, ["person", "basic"], "k").room
    won: list[tuple[int, int]] = []

    def writer(me: int) -> None:
        for index in range(60):
            if store.append(room.id, index, {"type": "Roll", "player": me}):
                won.append((index, me))

    threads = [threading.Thread(target=writer, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(i for i, _ in won) == list(range(60)) and store.count(room.id) == 60
    stored = store.actions(room.id)
    assert [stored[i]["player"] for i, _ in sorted(won)] == [m for _, m in sorted(won)]


def _process_writer(url: str, room_id: str, me: int, out: multiprocessing.Queue) -> None:  # type: ignore[type-arg]
    store = open_store(url)
    wins = [i for i in range(80) if store.append(room_id, i, {"type": "Roll", "player": me})]
    out.put((me, wins))


def test_concurrent_writers_in_processes_never_corrupt_or_duplicate(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'rooms.db'}"
    store = open_store(url)
    room = store.create_room(SETUP, ["person", "basic"], "k").room
    ctx = multiprocessing.get_context("spawn")
    out = ctx.Queue()
    procs = [ctx.Process(target=_process_writer, args=(url, room.id, k, out)) for k in range(3)]
    for p in procs:
        p.start()
    results = [out.get(timeout=120) for _ in procs]
    for p in procs:
        p.join(timeout=60)
    indices = sorted(i for _, wins in results for i in wins)
    assert indices == list(range(80)) and store.count(room.id) == 80
    assert sqlite3.connect(tmp_path / "rooms.db").execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def test_a_bad_database_url_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="unsupported database URL"):
        open_store("mysql://x")
    with pytest.raises(StoreError, match="cannot"):
        open_store("postgresql://nobody@127.0.0.1:1/none")


KILLED_WRITER = """
import os, signal, sys
from laspoly.server.store import open_store
store = open_store(sys.argv[1])
room = store.create_room({setup!r}, ["person", "basic"], "k").room
for i in range(40):
    store.append(room.id, i, {{"type": "Roll", "player": 0}})
print(room.id, flush=True)
os.kill(os.getpid(), signal.SIGKILL)  # at once: no flush, no clean close
"""


def test_a_server_killed_right_after_a_commit_keeps_every_stored_action(tmp_path: Path) -> None:
    """A commit is in the write-ahead log at once: a killed process loses none of it, even before the log is synced."""
    import subprocess
    import sys

    url = f"sqlite:///{tmp_path / 'rooms.db'}"
    out = subprocess.run([sys.executable, "-c", KILLED_WRITER.format(setup=SETUP), url], capture_output=True, text=True, timeout=120)
    assert out.returncode == -9, out.stderr
    room_id = out.stdout.split()[0]
    store = open_store(url)
    assert store.count(room_id) == 40
    assert [a["type"] for a in store.actions(room_id)] == ["Roll"] * 40
    assert sqlite3.connect(tmp_path / "rooms.db").execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def test_a_committed_action_is_synced_to_the_disk_by_the_flusher_off_the_callers_thread(tmp_path: Path,
                                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """The caller does not wait for the disk; the write-ahead log is synced within FLUSH_WITHIN seconds, from another thread."""
    import os

    from laspoly.server import store as store_module

    synced: list[tuple[str, str]] = []
    real_fsync = os.fsync

    def fsync(fd: int) -> None:
        synced.append((os.readlink(f"/proc/self/fd/{fd}"), threading.current_thread().name))
        real_fsync(fd)

    monkeypatch.setattr(store_module.os, "fsync", fsync)
    path = tmp_path / "rooms.db"
    store = open_store(f"sqlite:///{path}")
    room = store.create_room(SETUP, ["person", "basic"], "k").room
    synced.clear()
    assert store.append(room.id, 0, {"type": "Roll", "player": 0})
    assert store_module.FLUSH_WITHIN <= 1.0
    deadline = threading.Event()
    for _ in range(100):  # a loaded machine may run the flusher's thread late; it runs
        if any(p == f"{path}-wal" for p, _ in synced):
            break
        deadline.wait(0.1)
    assert (f"{path}-wal", "laspoly-store-flush") in synced
    assert all(name == "laspoly-store-flush" for _, name in synced)
