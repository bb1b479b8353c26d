"""Limits the server holds whatever a page sends: rate limits, a loaded game's length, one transaction, upload size."""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from laspoly.bots.registry import make_bot
from laspoly.bots.runner import play_game
from laspoly.engine.game import Game
from laspoly.errors import StoreError
from laspoly.record import MAX_ACTIONS, MAX_SAVE_BYTES, TooManyActions, game_from_json, game_to_dict
from laspoly.server import limits
from laspoly.server.limits import ROOM_MAX_ACTIONS, RateLimit, client_limited, is_loopback
from laspoly.server.rooms import open_room
from laspoly.server.store import SqliteStore, Store, open_store
from laspoly.ui.model import GameModel
from laspoly.ui.views import SaveFileDropper

OWNER = "owner-key-for-limit-tests"


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


# ------------------------------------------------------------------ rate limits


def test_a_client_gets_its_burst_at_once_then_one_more_per_refill_interval() -> None:
    clock = Clock()
    limit = RateLimit(burst=3, per_minute=6, clock=clock)  # one token every 10 s
    assert [limit.allow("10.0.0.5") for _ in range(4)] == [True, True, True, False]
    assert limit.wait("10.0.0.5") == pytest.approx(10.0)
    clock.now += 9.9
    assert not limit.allow("10.0.0.5")
    clock.now += 0.2
    assert limit.allow("10.0.0.5") and not limit.allow("10.0.0.5")
    clock.now += 3600  # a long pause refills the burst, never more
    assert [limit.allow("10.0.0.5") for _ in range(4)] == [True, True, True, False]


def test_one_client_over_its_limit_leaves_every_other_client_untouched() -> None:
    limit = RateLimit(burst=2, per_minute=1, clock=Clock())
    assert limit.allow("10.0.0.5") and limit.allow("10.0.0.5") and not limit.allow("10.0.0.5")
    assert limit.allow("10.0.0.6") and limit.wait("10.0.0.6") == 0.0


def test_the_limit_remembers_a_bounded_number_of_clients_forgetting_the_least_recently_seen() -> None:
    limit = RateLimit(burst=1, per_minute=1, max_clients=100, clock=Clock())
    for i in range(10_000):
        limit.allow(f"10.{i // 65536}.{i // 256 % 256}.{i % 256}")
    assert len(limit) == 100
    assert not limit.allow("10.0.39.15")  # among the last hundred: still limited
    assert limit.allow("10.0.0.0")  # long forgotten: a fresh bucket


def test_a_rate_limit_refuses_a_setting_that_would_never_let_anyone_in() -> None:
    for burst, per_minute in ((0, 1), (1, 0), (1, -5)):
        with pytest.raises(ValueError):
            RateLimit(burst=burst, per_minute=per_minute)


def test_the_server_s_own_machine_and_an_unknown_address_are_never_limited() -> None:
    limit = RateLimit(burst=1, per_minute=1, clock=Clock())
    assert is_loopback("127.0.0.1") and is_loopback("::1") and is_loopback("127.8.0.1")
    assert not is_loopback("192.168.1.20") and not is_loopback("not an address")
    assert not any(client_limited(limit, "127.0.0.1") for _ in range(10))
    assert not any(client_limited(limit, None) for _ in range(10))
    assert [client_limited(limit, "192.168.1.20") for _ in range(3)] == [False, True, True]


# ------------------------------------------------------------------ one transaction for a loaded game


@pytest.fixture()
def store(tmp_path: Path) -> Store:
    return open_store(f"sqlite:///{tmp_path / 'rooms.db'}")


def _played(seed: int = 3) -> Game:
    game = Game(["Ana", "Ben", "Cy"], seed=seed, max_rounds=40)
    play_game(game, [make_bot("basic", seed=k) for k in range(3)])
    return game


def _commits(store: Store) -> list[str]:
    """Every COMMIT this thread's connection runs from now on."""
    assert isinstance(store, SqliteStore)
    seen: list[str] = []
    store._conn().set_trace_callback(lambda sql: seen.append(sql) if sql.strip().upper() == "COMMIT" else None)
    return seen


def test_a_whole_log_is_stored_in_one_transaction(store: Store) -> None:
    room = open_room(store, Game(["Ana", "Ben"], seed=1), ["person", "basic"], OWNER).room_id
    commits = _commits(store)
    store.append_many(room, [{"type": "Roll", "player": 0}] * 500)
    assert len(commits) == 1 and store.count(room) == 500


def test_a_log_that_fails_half_way_leaves_nothing_stored(store: Store) -> None:
    room = open_room(store, Game(["Ana", "Ben"], seed=1), ["person", "basic"], OWNER).room_id
    store.append(room, 250, {"type": "Roll", "player": 0})  # entry 250 is taken: the 251st row of the batch fails
    with pytest.raises(StoreError):
        store.append_many(room, [{"type": "Roll", "player": 0}] * 500)
    assert store.count(room) == 1


def test_a_loaded_game_is_stored_in_its_new_room_with_one_commit_for_its_whole_log(store: Store) -> None:
    game = _played()
    assert len(game.history) > 200
    commits = _commits(store)
    table = open_room(store, game, ["person", "basic", "basic"], OWNER)
    assert len(commits) <= 2  # the room, then its whole log (never one per action)
    assert store.count(table.room_id) == len(game.history)


# ------------------------------------------------------------------ a loaded game's length


def _save(game: Game) -> bytes:
    return json.dumps(game_to_dict(game)).encode()


def test_a_save_file_over_the_server_s_action_limit_is_refused_with_one_message_and_one_log_line(
        store: Store, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    game = _played()
    monkeypatch.setattr("laspoly.ui.model.ROOM_MAX_ACTIONS", len(game.history) - 1)
    m = GameModel(table=open_room(store, Game(["Ana", "Bot"], seed=1), ["person", "basic"], OWNER))
    rooms = len(store.rooms_of(OWNER))
    with caplog.at_level(logging.WARNING, logger="laspoly.ui"):
        assert not m.load_json(_save(game), "long.json")
    assert m.message == f"Could not load long.json: it holds {len(game.history)} actions, and a game on this server holds at most {len(game.history) - 1}."
    assert len([r for r in caplog.records if "refused: a save file" in r.getMessage()]) == 1
    assert not any(r.exc_info for r in caplog.records)
    assert len(store.rooms_of(OWNER)) == rooms and not m.navigate


def test_the_server_s_action_limit_is_a_class_period_s_game_and_the_command_line_keeps_its_own() -> None:
    assert ROOM_MAX_ACTIONS == 20_000 and MAX_ACTIONS == 200_000
    game = _played()
    with pytest.raises(TooManyActions) as refused:
        game_from_json(_save(game), "game.json", max_actions=10)
    assert refused.value.count == len(game.history) and refused.value.limit == 10
    assert game_from_json(_save(game), "game.json").digest() == game.digest()


def test_a_game_on_one_screen_takes_the_command_line_s_limit() -> None:
    assert GameModel().max_actions == MAX_ACTIONS


def test_a_loaded_game_is_replayed_and_stored_in_a_worker_thread_and_the_page_then_moves_to_its_room(store: Store) -> None:
    import threading

    game = _played()
    m = GameModel(table=open_room(store, Game(["Ana", "Bot"], seed=1), ["person", "basic"], OWNER))
    threads: list[str] = []
    read_and_store = m._read_and_store
    m._read_and_store = lambda raw, name: (threads.append(threading.current_thread().name), read_and_store(raw, name))[1]  # type: ignore[method-assign]
    # a loop of its own in a thread of its own: a browser test earlier in this worker may have left one running here
    loaded: list[bool] = []
    runner = threading.Thread(target=lambda: loaded.append(asyncio.run(m.load_json_off_loop(_save(game), "game.json"))))
    runner.start()
    runner.join(60)
    assert loaded == [True]
    assert threads and threads[0] not in (threading.main_thread().name, runner.name)
    assert m.navigate.startswith("?room=") and m.message == "Loaded game.json."
    room = m.navigate.split("room=")[1].split("&")[0]
    assert store.count(room) == len(game.history)


# ------------------------------------------------------------------ uploads held by the server


def _chunk(name: str, chunk: int, total: int, size: int) -> Any:
    return SimpleNamespace(event_name="upload_event",
                           data={"name": name, "chunk": chunk, "total_chunks": total, "type": "application/json", "data": b"x" * size})


def test_an_upload_sent_in_chunks_past_the_limit_is_dropped_as_it_arrives(caplog: pytest.LogCaptureFixture) -> None:
    dropper = SaveFileDropper(limit=1000)
    with caplog.at_level(logging.WARNING, logger="laspoly.ui"):
        for k in range(1, 61):  # sixty chunks of 400 bytes, as a page's JavaScript could send them
            dropper._process_event(_chunk("big.json", k, 60, 400))
    assert dropper.refused == "big.json" and dropper.value == {} and dropper._file_buffer == {}
    assert len([r for r in caplog.records if "refused: an upload" in r.getMessage()]) == 1


def test_an_upload_within_the_limit_still_arrives_whole_in_chunks() -> None:
    dropper = SaveFileDropper(limit=1000)
    for k in (1, 2, 3):
        dropper._process_event(_chunk("game.json", k, 3, 300))
    assert dropper.value == {"game.json": b"x" * 900} and not dropper.refused


def test_a_chunk_of_an_upload_that_never_began_is_ignored_without_a_traceback() -> None:
    dropper = SaveFileDropper(limit=1000)
    dropper._process_event(_chunk("stray.json", 2, 3, 10))
    assert dropper.value == {} and dropper._file_buffer == {}


def test_the_page_s_dropper_sends_a_whole_save_file_as_one_chunk_and_the_server_keeps_at_most_the_limit() -> None:
    from laspoly.ui.views import FilesView

    view = FilesView(model=GameModel())
    import panel as pn
    from bokeh.document import Document

    pn.panel(view).get_root(Document())  # the page's model is made: the server's own parameters stay on the server
    assert view.load.limit == MAX_SAVE_BYTES and view.load.chunk_size > MAX_SAVE_BYTES
    assert limits.WEBSOCKET_MAX_MESSAGE_BYTES > 4 * view.load.limit / 3
    view.load.param.trigger("refused")
    view.load.refused = "huge.json"
    assert "save files are limited to 5 MB" in view.note.object


# ------------------------------------------------------------------ the rate limits on the page's entry


@pytest.fixture()
def client(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """A page's request as the app sees it: the client's address and the link's arguments, with fresh limits."""
    from laspoly.ui import app

    request: dict[str, Any] = {"address": "192.168.1.20", "args": {}}
    monkeypatch.setattr(app, "_client_address", lambda: request["address"])
    monkeypatch.setattr(app, "_arg", lambda name: request["args"].get(name, ""))
    monkeypatch.setattr(app, "SESSIONS", RateLimit(burst=3, per_minute=6, clock=Clock()))
    monkeypatch.setattr(app, "CLASS_JOINS", RateLimit(burst=2, per_minute=6, clock=Clock()))
    return request


def test_new_pages_past_a_client_s_limit_get_a_page_that_says_to_wait_and_one_log_line_each(
        client: dict[str, Any], caplog: pytest.LogCaptureFixture) -> None:
    from laspoly.ui.app import over_rate_limit

    with caplog.at_level(logging.WARNING, logger="laspoly.server.limits"):
        outcomes = [over_rate_limit() for _ in range(5)]
    assert outcomes[:3] == [None, None, None]
    page = outcomes[3]
    assert page is not None
    text = " ".join(str(o.object) for o in page.objects)
    assert "Too many new pages from this computer at once. Wait 10 s, then reload the page." in text
    assert "Demasiadas páginas nuevas" in text
    assert [r.getMessage() for r in caplog.records] == ["refused: too many new pages from 192.168.1.20"] * 2
    client["address"] = "192.168.1.21"  # the next student's computer is not held back
    assert over_rate_limit() is None


def test_class_links_have_a_limit_of_their_own_and_a_teacher_s_page_is_not_a_join(
        client: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    from laspoly.ui import app
    from laspoly.ui.app import over_rate_limit

    monkeypatch.setattr(app, "SESSIONS", RateLimit(burst=10, per_minute=6, clock=Clock()))
    client["args"] = {"class": "ABC123"}
    assert over_rate_limit() is None and over_rate_limit() is None
    page = over_rate_limit()
    assert page is not None and "Too many class links" in str(page.objects[0].object)
    client["args"] = {"class": "ABC123", "teacher": "key"}
    assert over_rate_limit() is None


def test_the_server_s_own_machine_opens_as_many_pages_as_it_likes(client: dict[str, Any]) -> None:
    from laspoly.ui.app import over_rate_limit

    client["address"] = "127.0.0.1"
    assert all(over_rate_limit() is None for _ in range(20))


def test_a_refused_page_stores_no_room(client: dict[str, Any], tmp_path: Path) -> None:
    from laspoly.ui.app import build_app

    url = f"sqlite:///{tmp_path / 'rooms.db'}"
    for _ in range(3):
        build_app(url)
    refused = build_app(url)
    assert "Too many new pages" in str(refused.objects[0].object)  # type: ignore[union-attr]
    with sqlite3.connect(tmp_path / "rooms.db") as db:
        # a page nobody played stores no room either, so the refused one adds nothing to the three unplayed ones' none
        assert db.execute("SELECT COUNT(*) FROM rooms").fetchone()[0] == 0

