"""Undo in a room: it takes a decision back where nobody else has seen it, stored as an entry of the room's log.

A reload, a second process and the teacher's page replay the log with its undo
entries and see the same game; where undo cannot work the button is off and
says why, in English and Spanish.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from laspoly.engine import actions as A
from laspoly.engine import events as E
from laspoly.engine.game import Game
from laspoly.errors import SaveFileError
from laspoly.predict import Guess
from laspoly.record import replay
from laspoly.server.classes import ClassData, create_class
from laspoly.server.roomlog import UNDO, catch_up, played_actions, replay_log, undo_entry
from laspoly.server.rooms import RoomTable, join_room, open_room, seat_token
from laspoly.server.store import Store, open_store
from laspoly.ui.controls import ControlsView
from laspoly.ui.model import GameModel

OWNER = "owner-key-for-tests-0002"


@pytest.fixture()
def store(tmp_path: Path) -> Store:
    return open_store(f"sqlite:///{tmp_path / 'undo.db'}")


def _room(store: Store, seats: tuple[str, ...] = ("person", "person", "basic"), lang: str = "en",
          class_code: str | None = None) -> GameModel:
    table = open_room(store, Game(["Ana", "Ben", "Cy"], seed=4, dice="1-2 3-4 2-2"), list(seats), OWNER, lang,
                      class_code=class_code)
    return GameModel(table=table, lang=lang)


def _join(store: Store, model: GameModel, seat: int | str, owner_key: str | None = None) -> GameModel:
    room_id = model.table.room_id  # type: ignore[attr-defined]
    return GameModel(table=join_room(store, room_id, seat_token(OWNER, room_id, seat), owner_key=owner_key))


def test_undo_in_a_room_nobody_joined_takes_back_the_last_decision_and_a_reload_shows_it(store: Store) -> None:
    ana = _room(store)
    assert ana.act(A.Roll(0)) and ana.act(A.Buy(0)) and ana.game.owner[3] == 0
    assert ana.undo_refusal() is None
    assert ana.undo() and ana.game.owner[3] == -1 and ana.game.phase == "buy"
    room_id = ana.table.room_id  # type: ignore[attr-defined]
    assert store.actions(room_id)[-1] == undo_entry(1)  # kept as an entry of the log, never by rewriting it
    again = _join(store, ana, 0, owner_key=OWNER)
    assert again.game.digest() == ana.game.digest() and again.game.owner[3] == -1
    # play on after the undo: the next entries follow the undo entry, and a reload still agrees
    assert ana.act(A.DeclineBuy(0))
    assert _join(store, ana, 0, owner_key=OWNER).game.digest() == ana.game.digest()
    assert again.sync() and again.game.digest() == ana.game.digest()


def test_a_spectator_follows_an_undo_and_the_undone_game_is_what_it_sees(store: Store) -> None:
    ana = _room(store)
    watcher = _join(store, ana, "view")
    ana.act(A.Roll(0))
    ana.act(A.Buy(0))
    assert watcher.sync() and watcher.game.owner[3] == 0
    ana.undo()
    assert watcher.sync() and watcher.game.digest() == ana.game.digest() and watcher.game.owner[3] == -1


def test_with_a_second_device_joined_undo_is_off_with_its_reason_in_both_languages(store: Store) -> None:
    for lang, words in (("en", "seat 2 plays on another device"), ("es", "el asiento 2 juega en otro dispositivo")):
        ana = _room(store, lang=lang)
        ana.act(A.Roll(0))
        ana.act(A.Buy(0))
        _join(store, ana, 1)  # Ben opens his seat's link on his phone
        ana.sync()
        reason = ana.undo_refusal()
        assert reason is not None and words in reason
        controls = ControlsView(model=ana)
        controls.refresh()
        assert controls.undo.disabled and words in controls.why.object
        before = ana.game.digest()
        assert not ana.undo() and words in ana.message and ana.game.digest() == before  # the request itself, refused


def test_undo_is_on_exactly_when_it_would_work(store: Store) -> None:
    ana = _room(store)
    controls = ControlsView(model=ana)
    controls.refresh()
    assert controls.undo.disabled, "nothing to take back yet"
    ana.act(A.Roll(0))
    controls.refresh()
    assert not controls.undo.disabled and ana.undo()
    controls.refresh()
    assert controls.undo.disabled and ana.game.history == []
    ana.act(A.Roll(0))
    watcher = _join(store, ana, "view")
    ControlsView(model=watcher).refresh()
    assert watcher.undo_refusal() is not None and "spectator" in (watcher.undo_refusal() or "")
    spectator_controls = ControlsView(model=watcher)
    spectator_controls.refresh()
    assert spectator_controls.undo.disabled


def test_a_seat_joined_after_the_page_drew_its_button_still_stops_the_undo(store: Store) -> None:
    ana = _room(store)
    ana.act(A.Roll(0))
    _join(store, ana, 1)  # joined, but Ana's page has not synced yet
    before = ana.game.digest()
    assert not ana.undo() and ana.game.digest() == before
    assert any("undo refused" in r for r in store.refusals(ana.table.room_id))  # type: ignore[attr-defined]


def test_an_undone_roll_takes_its_stored_guess_with_it(store: Store) -> None:
    ana = _room(store)
    ana.act(A.Roll(0))
    table = ana.table
    assert isinstance(table, RoomTable)
    table.add_guess(Guess(0, 0, 7, 3))
    assert ana.undo() and table.guesses() == [] and store.guesses(table.room_id) == []


def test_the_class_pools_the_rooms_as_they_stand_after_an_undo(store: Store) -> None:
    new = create_class(store, "6B")
    ana = _room(store, seats=("person", "basic", "basic"), class_code=new.code)
    ana.act(A.Roll(0))
    ana.act(A.Buy(0))
    ana.undo()  # the buy is taken back; the roll stays
    ana.act(A.DeclineBuy(0))
    data = ClassData(store, new.code, new.teacher_key)
    data.refresh()
    rolled = [e for e in ana.game.log if isinstance(e, E.Rolled)]
    assert sum(data.dice_totals()) == len(rolled)
    ana.undo()  # the decline is taken back
    ana.undo()  # and then the roll itself
    data.refresh()
    room_id = ana.table.room_id  # type: ignore[attr-defined]
    as_stands = replay_log(store.room(room_id).setup, store.actions(room_id))
    assert as_stands.digest() == ana.game.digest() == data.rooms[room_id].game.digest()
    assert sum(data.dice_totals()) == sum(isinstance(e, E.Rolled) for e in as_stands.log) == 0
    assert data.csv().getvalue().count(",roll,") == 0


def test_a_log_without_undo_entries_replays_as_before_and_a_forged_undo_entry_is_refused() -> None:
    game = Game(["Ana", "Ben"], seed=3, dice="1-2")
    game.apply(A.Roll(game.actor))
    entries = [a.as_dict() for a in game.history]
    assert played_actions(entries) == entries
    assert replay_log(game.setup, entries).digest() == replay(game.setup, entries).digest()
    assert played_actions([*entries, undo_entry(0)]) == []
    for forged in ({"type": UNDO, "keep": 5}, {"type": UNDO, "keep": -1}, {"type": UNDO, "keep": "1"},
                   {"type": UNDO, "keep": True}, {"type": UNDO}, {"type": UNDO, "keep": 0, "more": 1}):
        with pytest.raises(SaveFileError):
            played_actions([*entries, forged])
        with pytest.raises(SaveFileError):
            catch_up(replay(game.setup, entries), [forged])


def test_my_games_counts_the_decisions_a_game_stands_on_not_its_undo_entries(store: Store) -> None:
    ana = _room(store)
    assert ana.act(A.Roll(0)) and ana.act(A.Buy(0)) and ana.undo()
    assert ana.act(A.DeclineBuy(0))  # entries: Roll, Buy, undo (keeps 1), DeclineBuy: the game stands on 2
    room_id = ana.table.room_id  # type: ignore[attr-defined]
    assert len(store.actions(room_id)) == 4
    (mine,) = [g for g in ana.my_games() or [] if g.room_id == room_id]
    assert mine.actions == len(ana.game.history)
    assert ana.undo()  # an undo as the last entry: the game stands on what it kept
    (mine,) = [g for g in ana.my_games() or [] if g.room_id == room_id]
    assert mine.actions == len(ana.game.history)
