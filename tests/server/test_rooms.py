"""Game rooms: one stored game, several devices, each acting for its own seat only.

The dashboard's model plays at a table: a :class:`LocalTable` on one screen or a
:class:`RoomTable` stored in a room.  These tests pin the rooms, the seam
between the model and its table, and the one bot driver.
"""

from __future__ import annotations

import ast
import inspect
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from laspoly.engine import actions as A
from laspoly.engine import events as E
from laspoly.engine.game import Game
from laspoly.errors import StoreError
from laspoly.record import replay
from laspoly.server.rooms import RoomTable, adopt_owner_key, join_room, new_owner_key, open_room, owner_link, seat_token
from laspoly.server.store import Store, digest, open_store
from laspoly.server.table import LocalTable
from laspoly.ui.model import GameModel

OWNER = "owner-key-for-tests-0001"  # of the form the server's keys have
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture()
def store(tmp_path: Path) -> Store:
    return open_store(f"sqlite:///{tmp_path / 'rooms.db'}")


def _room(store: Store, seats: tuple[str, ...] = ("person", "person", "basic"), dice: str = "1-2 3-4 2-2") -> GameModel:
    return GameModel(table=open_room(store, Game(["Ana", "Ben", "Cy"], seed=4, dice=dice), list(seats), OWNER))


def _join(store: Store, model: GameModel, seat: int | str, owner_key: str | None = None) -> GameModel:
    room_id = model.table.room_id  # type: ignore[attr-defined]
    return GameModel(table=join_room(store, room_id, seat_token(OWNER, room_id, seat), owner_key=owner_key))


def test_every_action_is_stored_and_a_reload_resumes_exactly(store: Store) -> None:
    ana = _room(store)
    ana.act(A.Roll(0))
    ana.act(A.Buy(0))
    again = _join(store, ana, 0, owner_key=OWNER)
    room_id = again.table.room_id  # type: ignore[attr-defined]
    assert again.game.digest() == ana.game.digest() and again.table.seat == 0  # type: ignore[attr-defined]
    assert replay(store.room(room_id).setup, store.actions(room_id)).digest() == ana.game.digest()


def test_each_seat_sees_the_others_moves_and_acts_only_for_itself(store: Store) -> None:
    ana = _room(store)
    ben = _join(store, ana, 1)
    ana.sync()
    assert ana.is_person(1) and ben.table.seat == 1  # type: ignore[attr-defined]
    assert ana.act(A.Roll(0))
    assert ben.sync() and ben.game.digest() == ana.game.digest()
    assert not ben.act(A.DeclineBuy(0)) and "You play seat 2 (Ben) only" in ben.message
    assert store.refusals(ana.table.room_id) == ["seat 2 tried to act for seat 1"]  # type: ignore[attr-defined]
    assert ben.person_to_move is None and ana.person_to_move == 0


def test_a_spectator_sees_everything_and_cannot_act_or_move_the_bots(store: Store) -> None:
    ana = _room(store)
    view = _join(store, ana, "view")
    ana.act(A.Roll(0))
    view.sync()
    assert view.table.seat is None and view.game.digest() == ana.game.digest()  # type: ignore[attr-defined]
    assert not view.act(A.Buy(0)) and "spectator" in view.message
    assert "a spectator tried to act" in store.refusals(ana.table.room_id)  # type: ignore[attr-defined]
    assert view.advance() == 0 and "spectator" in view.message and not view.can_drive and not view.bots_move_alone


def test_a_wrong_or_forged_token_is_refused_and_logged(store: Store) -> None:
    ana = _room(store)
    room_id = ana.table.room_id  # type: ignore[attr-defined]
    with pytest.raises(StoreError, match="not valid"):
        join_room(store, room_id, "forged" * 5)
    with pytest.raises(StoreError):
        join_room(store, "no-such-room", seat_token(OWNER, room_id, 0))
    assert store.refusals(room_id) == ["wrong or forged token"]
    assert store.refusals("no-such-room") == ["unknown room"]


def test_two_devices_acting_at_once_apply_exactly_one_action(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    first = _room(store)
    second = _join(store, first, 0, owner_key=OWNER)
    room_id = first.table.room_id  # type: ignore[attr-defined]
    looked: list[bool] = []
    catch_up = second.table.sync
    # the second device looks at the log just before the first device stores its roll
    monkeypatch.setattr(second.table, "sync", lambda: looked.append(True) or (catch_up() if len(looked) > 1 else False))
    assert first.act(A.Roll(0))
    assert not second.act(A.Roll(0))
    assert "changed on another device" in second.message
    assert store.count(room_id) == 1 and second.game.digest() == first.game.digest()


def test_the_owners_device_plays_unjoined_person_seats_in_turn_and_the_owner_swaps_seats(store: Store) -> None:
    ana = _room(store, dice="1-2 1-2")
    for who in (0, 1):  # Ben's seat, which no link has claimed, is a hot seat on the owner's device
        assert ana.person_to_move == who
        assert ana.act(A.Roll(who)) and ana.act(A.DeclineBuy(who)) and ana.act(A.EndTurn(who))
    assert ana.game.current == 2 and ana.advance() > 0 and ana.person_to_move == 0
    ana.set_seat(2, "greedy")
    assert store.room(ana.table.room_id).seats[2].kind == "greedy" and ana.seats[2] == "greedy"  # type: ignore[attr-defined]
    ben = _join(store, ana, 1)
    ben.set_seat(0, "basic")
    assert "Only the person who started" in ben.message and ben.seats[0] == "person"


def test_a_joined_seat_leaves_the_owners_hot_seat_and_other_devices_never_play_unjoined_seats(store: Store) -> None:
    ana = _room(store, seats=("person", "person", "person"), dice="1-2 1-2")
    cy = _join(store, ana, 2)
    view = _join(store, ana, "view", owner_key=OWNER)  # the projector, even opened by the owner, never acts
    ana.act(A.Roll(0))
    ana.act(A.DeclineBuy(0))
    ana.act(A.EndTurn(0))
    for device in (cy, view):
        device.sync()
        assert device.person_to_move is None and not device.act(A.Roll(1))  # Ben's turn is played on Ana's device only
    assert "You play seat 3 (Cy) only" in cy.message and "spectator" in view.message
    assert ana.person_to_move == 1 and ana.table.plays_here(1) and not ana.table.plays_here(2)  # type: ignore[attr-defined]
    ben = _join(store, ana, 1)  # Ben opens his link: from now on his seat is his device's alone
    assert not ana.act(A.Roll(1)) and "You play seat 1 (Ana) only" in ana.message
    assert ana.person_to_move is None and ben.person_to_move == 1 and ben.act(A.Roll(1))
    assert not ana.advance(to_end=True) and "other people's seats" in ana.message


def test_only_the_owner_can_show_the_links(store: Store) -> None:
    ana = _room(store)
    assert set(ana.links()) == {"seat 1", "seat 2", "seat 3", "spectator"}
    assert _join(store, ana, 1).links() == {}


def test_a_new_game_or_a_loaded_file_opens_a_new_room(store: Store) -> None:
    m = _room(store)
    assert m.new_game(["X", "Y"], ["person", "basic"], seed=2) and m.navigate.startswith("?room=")
    raw = m.save_json().getvalue()
    m2 = _room(store)
    assert not m2.load_json(b"{broken", "bad.json") and "Could not load" in m2.message
    assert m2.load_json(raw, "game.json") and m2.navigate != m.navigate and m2.message == "Loaded game.json."
    assert len(store.rooms_of(OWNER)) == 4


def test_a_new_game_on_a_lesson_page_moves_to_an_address_that_keeps_the_lesson(store: Store) -> None:
    lesson = _room(store)
    lesson.odds = True  # a page opened with ?lesson=1
    assert lesson.new_game(["X", "Y"], ["person", "basic"], seed=2)
    assert lesson.navigate.startswith("?room=") and lesson.navigate.endswith("&me=" + OWNER + "&lesson=1")
    assert lesson.load_json(lesson.save_json().getvalue(), "game.json") and lesson.navigate.endswith("&lesson=1")
    plain = _room(store)
    assert plain.new_game(["X", "Y"], ["person", "basic"], seed=2) and "lesson" not in plain.navigate


def test_open_room_gives_a_new_and_a_loaded_game_the_same_token_scheme(store: Store) -> None:
    new = Game(["Ana", "Ben"], seed=3, dice="1-2")
    played = Game(["Ana", "Ben"], seed=3, dice="1-2")
    played.apply(A.Roll(played.actor))
    for game in (new, played):
        table = open_room(store, game, ["person", "basic"], OWNER, "es")
        room = store.room(table.room_id)
        assert [s.token_hash for s in room.seats] == [digest(seat_token(OWNER, room.id, i)) for i in range(2)]
        assert room.is_spectator(seat_token(OWNER, room.id, "view")) and room.is_owner(OWNER)
        assert [s.joined for s in room.seats] == [True, False] and room.lang == "es" and table.seat == 0
        assert replay(room.setup, store.actions(room.id)).digest() == game.digest()
        assert owner_link(OWNER, room.id) == f"?room={room.id}&seat={seat_token(OWNER, room.id, 0)}&me={OWNER}"
    assert len(store.rooms_of(OWNER)) == 2


def test_the_model_acts_alike_at_a_local_and_a_room_table(store: Store) -> None:
    local = GameModel(Game(["Ana", "Ben", "Cy"], seed=4, dice="1-2 3-4 2-2"), ["person", "person", "basic"])
    room = _room(store, seats=("person", "basic", "basic"))
    local.set_seat(1, "basic")
    assert isinstance(local.table, LocalTable) and isinstance(room.table, RoomTable)
    for m in (local, room):
        assert not m.act(A.Buy(0)) and "Ana cannot buy" in m.message
        assert m.act(A.Roll(0)) and m.act(A.Buy(0)) and m.person_to_move == 0
    assert local.game.digest() == room.game.digest() and local.cash_history == room.cash_history
    for m in (local, room):  # nobody else has joined the room: undo takes the decision back there too
        assert m.undo() and m.game.owner[3] == -1 and m.game.phase == "buy"
    assert local.game.digest() == room.game.digest()


def test_advance_claims_rent_for_bots_C6_and_stops_at_a_persons_decision() -> None:
    m = GameModel()
    assert m.new_game(["Bot", "Ana"], ["basic", "person"], preset="classic", seed=1, dice="6-6 1-1 1-2 1-2")
    m.advance()
    assert m.person_to_move == 1
    m.act(A.Roll(1))
    owed = [(owner, field) for _, owner, field, _ in m.game.claims]
    assert owed == [(0, 3)], "the scene: Ana landed on the bot's Baltic Avenue and owes it rent"
    assert m.advance() == 1  # the claim, and nothing more: it is Ana's decision
    assert m.game.claims == [] and isinstance(m.game.log[-1], E.Paid) and m.person_to_move == 1


def test_a_shared_rooms_bots_move_by_themselves_one_decision_per_poll(store: Store) -> None:
    ana = _room(store, dice="1-2 3-4")
    ben = _join(store, ana, 1)
    ana.sync()
    assert not ana.bots_move_alone  # Ana is to move
    for who in (0, 1):
        model = (ana, ben)[who]
        model.act(A.Roll(who))
        model.act(A.DeclineBuy(who))
        model.act(A.EndTurn(who))
        (ben, ana)[who].sync()
    assert ana.bots_move_alone and ben.bots_move_alone and ana.game.actor == 2
    assert ana.advance(max_actions=1) == 1 and len(ana.game.history) == 7


class _Watched:
    """A store that notes which module calls each of its methods."""

    def __init__(self, store: Store) -> None:
        self._store, self.callers = store, set()

    def __getattr__(self, name: str) -> Any:
        method = getattr(self._store, name)

        def call(*args: Any, **kwargs: Any) -> Any:
            self.callers.add(inspect.currentframe().f_back.f_globals["__name__"])  # type: ignore[union-attr]
            return method(*args, **kwargs)

        return call


def test_a_view_never_touches_the_store(store: Store) -> None:
    from laspoly.ui.app import Dashboard

    watched = _Watched(store)
    open_room(store, Game(["Old", "Game"], seed=1), ["person", "basic"], OWNER)
    m = GameModel(table=open_room(watched, Game(["Ana", "Ben"], seed=4), ["person", "person"], OWNER))  # type: ignore[arg-type]
    d = Dashboard(m)
    for tab in range(len(d.tabs)):  # every view is made, and refreshes, when its tab is shown
        d.tabs.active = tab
    games = d._view("my_games")
    export = games.list.objects[1].objects[2]
    assert export.callback().getvalue().startswith(b"{")
    games.list.objects[1].objects[1].clicks += 1  # delete the old game
    m.act(A.Roll(0))
    m.set_seat(1, "greedy")
    assert len(store.rooms_of(OWNER)) == 1
    assert watched.callers == {"laspoly.server.rooms"}
    for path in (ROOT / "laspoly" / "ui").glob("*.py"):
        imported = {node.module for node in ast.walk(ast.parse(path.read_text())) if isinstance(node, ast.ImportFrom)}
        assert "laspoly.server.store" not in imported or path.name == "app.py", f"{path.name} imports the store"


def test_rooms_and_tables_import_no_ui_library() -> None:
    code = ("import sys, laspoly.server.rooms, laspoly.server.table, laspoly.server.store\n"
            "print(','.join(m for m in ('panel', 'bokeh', 'param') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_a_guest_who_starts_a_new_game_gets_a_key_of_their_own_and_no_say_over_this_room(store: Store) -> None:
    ana = _room(store)
    ben = _join(store, ana, 1)
    assert ben.new_game(["X", "Y"], ["person", "basic"], seed=2)
    assert "&me=" in ben.navigate and f"&me={OWNER}" not in ben.navigate
    assert ben.links() == {} and ben.my_games() is None
    ben.set_seat(2, "greedy")
    assert "Only the person who started" in ben.message and store.room(ana.table.room_id).seats[2].kind == "basic"  # type: ignore[attr-defined]


# ---------------------------------------------------------------- owner keys, unplayed pages, refusals (issue 31)


def _page(monkeypatch: pytest.MonkeyPatch, db_url: str, query: str) -> Any:
    """What ``laspoly serve`` builds for a page opened at ``query`` (the address's arguments, without a browser)."""
    from urllib.parse import parse_qs

    from laspoly.ui import app

    args = {k: [v.encode() for v in vs] for k, vs in parse_qs(query.lstrip("?"), keep_blank_values=True).items()}
    monkeypatch.setattr(app, "_arg", lambda name: args.get(name, [b""])[0].decode()[:100])
    monkeypatch.setattr(app, "_has_arg", lambda name: name in args)
    return app.build_app(db_url)


def _play_a_move(model: GameModel) -> None:
    """The page's first stored decision: the person's roll, or the bots' turns when a bot drew the first move."""
    if model.table.is_person(model.game.actor):
        assert model.act(A.Roll(model.game.actor)), model.message
    else:
        model.advance()
    assert model.game.history, "a move was stored"


def test_an_owner_key_is_adopted_only_when_the_server_issued_it_and_it_owns_the_room(store: Store) -> None:
    mine = open_room(store, Game(["Ana", "Ben"], seed=1), ["person", "basic"], OWNER)
    theirs = open_room(store, Game(["Ana", "Ben"], seed=1), ["person", "basic"], new_owner_key())
    room = store.room(mine.room_id)
    assert adopt_owner_key(store, OWNER, room) == OWNER
    for me in ("attackerChosenKey", "", None, OWNER + "x", "<script>alert(1)</script>", "a" * 24):
        assert adopt_owner_key(store, me, room) is None
    assert adopt_owner_key(store, OWNER, store.room(theirs.room_id)) is None  # a real key, but not this room's owner
    # a room stored under a key the server never issued (a database from before keys were issued) adopts nothing
    legacy = store.create_room(Game(["Ana", "Ben"], seed=1).setup, ["person", "basic"], "chosen-long-ago-0000000")
    with store._tx() as cur:
        cur.execute("DELETE FROM owners WHERE key_hash = ?", (digest("chosen-long-ago-0000000"),))
    assert adopt_owner_key(store, "chosen-long-ago-0000000", store.room(legacy.room.id)) is None


def test_a_chosen_me_opened_by_two_browsers_shares_nothing(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'rooms.db'}"
    chosen = "attackerChosenKey0000000"  # of the form of a real key, so only the server's records can refuse it
    victim, attacker = (_page(monkeypatch, db, f"?me={chosen}").model for _ in range(2))
    keys = {victim.table.owner_key, attacker.table.owner_key}
    assert chosen not in keys and len(keys) == 2
    _play_a_move(victim)
    assert victim.new_game(["X", "Y"], ["person", "basic"], seed=2) and f"me={chosen}" not in victim.navigate
    store = open_store(db)
    assert store.rooms_of(chosen) == [] and not store.knows_owner(chosen)
    assert attacker.my_games() == [] and len(victim.my_games()) == 2
    # the attacker's own stored game, opened with the chosen key next to its seat link, does not hand the key over
    _play_a_move(attacker)
    room_id = attacker.table.room_id
    forged = _page(monkeypatch, db, f"?room={room_id}&seat={seat_token(chosen, room_id, 0)}&me={chosen}")
    assert chosen not in (forged.model.table.owner_key or "") and forged.model.my_games() != attacker.my_games()


def test_a_page_nobody_played_leaves_no_room_and_its_reload_is_a_new_game(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from laspoly.server.classes import create_class

    db = f"sqlite:///{tmp_path / 'rooms.db'}"
    store = open_store(db)
    made = create_class(store, "6B")
    for query in ("", "?class=" + made.code, "?class=NOSUCH", "?room=bogus&seat=forged", "?me=x"):  # 40 loads, no move
        for _ in range(8):
            _page(monkeypatch, db, query)
    with store._tx(write=False) as cur:
        cur.execute("SELECT COUNT(*) FROM rooms")
        assert cur.fetchone()[0] == 0
    assert store.class_rooms(made.code) == []
    page = _page(monkeypatch, db, "").model
    room_id, key = page.table.room_id, page.table.owner_key
    address = owner_link(key, room_id)
    again = _page(monkeypatch, db, address).model  # reloaded before any move: a new game, no complaint
    assert again.message == "" and again.table.room_id != room_id and store.refusals(room_id) == []
    _play_a_move(page)  # the first move stores the room
    assert store.room(room_id).id == room_id and len(store.actions(room_id)) == len(page.game.history)
    resumed = _page(monkeypatch, db, address).model
    assert resumed.table.room_id == room_id and resumed.table.owner_key == key and resumed.game.digest() == page.game.digest()


def test_showing_the_links_or_swapping_a_seat_stores_a_new_pages_room(store: Store) -> None:
    shown = GameModel(table=open_room(store, Game(["Ana", "Ben"], seed=1), ["person", "person"], OWNER, stored=False))
    swapped = GameModel(table=open_room(store, Game(["Ana", "Ben"], seed=1), ["person", "person"], OWNER, stored=False))
    assert store.rooms_of(OWNER) == [] and not shown.sync() and shown.guesses() == []
    links = shown.links()  # a link shown may be opened at once on another device
    assert [r[0] for r in store.rooms_of(OWNER)] == [shown.table.room_id]
    ben = GameModel(table=join_room(store, shown.table.room_id, links["seat 2"].split("seat=")[1]))
    assert ben.table.seat == 1
    swapped.set_seat(1, "basic")
    assert store.room(swapped.table.room_id).seats[1].kind == "basic"


def test_every_refused_act_is_logged_once_without_a_traceback(store: Store, caplog: pytest.LogCaptureFixture) -> None:
    import logging

    ana = _room(store, seats=("person", "person", "basic"))
    ben = _join(store, ana, 1)
    view = _join(store, ana, "view")
    with caplog.at_level(logging.WARNING, logger="laspoly.server.rooms"):
        assert not ben.act(A.Roll(0))  # a seat's page moving for another seat
        assert not ben.advance(to_end=True)  # "Run to end" while others play
        assert not view.advance()  # the projector moving the bots
        assert not view.act(A.Roll(0))
    refusals = store.refusals(ana.table.room_id)
    assert refusals == ["seat 2 tried to act for seat 1", "seat 2 asked to run to the end while others play",
                        "a spectator tried to move the bots", "a spectator tried to act"]
    records = [r for r in caplog.records if r.name == "laspoly.server.rooms"]
    assert [r.getMessage() for r in records] == [f"refused in a room: {reason}" for reason in refusals]
    assert all(r.exc_info is None for r in records)
