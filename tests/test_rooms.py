"""Game rooms: one stored game, several devices, each acting for its own seat only."""

from __future__ import annotations

from pathlib import Path

import pytest

from laspoly.engine import actions as A
from laspoly.record import replay
from laspoly.store import StoreError, open_store
from laspoly.ui.room import RoomGameModel, RoomModel, seat_token

OWNER = "owner-key-for-tests"


@pytest.fixture()
def store(tmp_path: Path):  # type: ignore[no-untyped-def]
    return open_store(f"sqlite:///{tmp_path / 'rooms.db'}")


def _room(store, seats=("person", "person", "basic"), dice="1-2 3-4 2-2"):  # type: ignore[no-untyped-def]
    return RoomModel.create(store, ["Ana", "Ben", "Cy"], list(seats), OWNER, seed=4, dice=dice)


def test_every_action_is_stored_and_a_reload_resumes_exactly(store) -> None:  # type: ignore[no-untyped-def]
    ana = _room(store)
    ana.act(A.Roll(0))
    ana.act(A.Buy(0))
    again = RoomModel.join(store, ana.room_id, seat_token(OWNER, ana.room_id, 0), owner_key=OWNER)
    assert again.game.digest() == ana.game.digest() and again.seat == 0
    assert replay(store.room(ana.room_id).setup, store.actions(ana.room_id)).digest() == ana.game.digest()


def test_each_seat_sees_the_others_moves_and_acts_only_for_itself(store) -> None:  # type: ignore[no-untyped-def]
    ana = _room(store)
    ben = RoomModel.join(store, ana.room_id, seat_token(OWNER, ana.room_id, 1))
    ana.poll()
    assert ana.is_person(1) and ben.seat == 1
    assert ana.act(A.Roll(0))
    assert ben.poll() and ben.game.digest() == ana.game.digest()
    assert not ben.act(A.DeclineBuy(0)) and "You play seat 2 (Ben) only" in ben.message
    assert store.refusals(ana.room_id) == ["seat 2 tried to act for seat 1"]
    assert ben.person_to_move is None and ana.person_to_move == 0


def test_a_spectator_sees_everything_and_cannot_act(store) -> None:  # type: ignore[no-untyped-def]
    ana = _room(store)
    view = RoomModel.join(store, ana.room_id, seat_token(OWNER, ana.room_id, "view"))
    ana.act(A.Roll(0))
    view.poll()
    assert view.seat is None and view.game.digest() == ana.game.digest()
    assert not view.act(A.Buy(0)) and "spectator" in view.message
    assert "a spectator tried to act" in store.refusals(ana.room_id)


def test_a_wrong_or_forged_token_is_refused_and_logged(store) -> None:  # type: ignore[no-untyped-def]
    ana = _room(store)
    with pytest.raises(StoreError, match="not valid"):
        RoomModel.join(store, ana.room_id, "forged" * 5)
    with pytest.raises(StoreError):
        RoomModel.join(store, "no-such-room", seat_token(OWNER, ana.room_id, 0))
    assert store.refusals(ana.room_id) == ["wrong or forged token"]
    assert store.refusals("no-such-room") == ["unknown room"]


def test_two_devices_acting_at_once_apply_exactly_one_action(store) -> None:  # type: ignore[no-untyped-def]
    first = _room(store)
    second = RoomModel.join(store, first.room_id, seat_token(OWNER, first.room_id, 0), owner_key=OWNER)
    first.act(A.Roll(0))  # second has not seen it yet
    second.game = replay(store.room(first.room_id).setup, [])  # a stale device
    assert not second._commit(A.Roll(0))
    assert "changed on another device" in second.message
    assert store.count(first.room_id) == 1 and second.game.digest() == first.game.digest()


def test_bots_fill_unjoined_seats_and_the_owner_swaps_seats(store) -> None:  # type: ignore[no-untyped-def]
    ana = _room(store, dice="1-2")
    ana.act(A.Roll(0))
    ana.act(A.DeclineBuy(0))
    ana.act(A.EndTurn(0))
    assert ana.step() > 0 and ana.game.current != 1  # Ben's seat, not joined, was played by a bot
    ana.set_seat(2, "greedy")
    assert store.room(ana.room_id).seats[2].kind == "greedy"
    ben = RoomModel.join(store, ana.room_id, seat_token(OWNER, ana.room_id, 1))
    ben.set_seat(0, "basic")
    assert "Only the person who started" in ben.message


def test_only_the_owner_can_show_the_links(store) -> None:  # type: ignore[no-untyped-def]
    ana = _room(store)
    assert set(ana.links()) == {"seat 1", "seat 2", "seat 3", "spectator"}
    ben = RoomModel.join(store, ana.room_id, seat_token(OWNER, ana.room_id, 1))
    assert ben.links() == {}


def test_a_new_game_or_a_loaded_file_opens_a_new_room(store) -> None:  # type: ignore[no-untyped-def]
    m = RoomGameModel._from(_room(store))
    assert m.new_game(["X", "Y"], ["person", "basic"], seed=2) and m.navigate.startswith("?room=")
    raw = m.save_json().getvalue()
    m2 = RoomGameModel._from(_room(store))
    assert not m2.load_json(b"{broken", "bad.json") and "Could not load" in m2.message
    assert m2.load_json(raw, "game.json") and m2.navigate != m.navigate
    assert len(store.rooms_of(OWNER)) == 4
