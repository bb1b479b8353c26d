"""Predict, then roll: a guess before each roll of a person, kept beside the roll on every screen, and the LLN live."""

from __future__ import annotations

from pathlib import Path

import pytest

from laspoly.engine import actions as A
from laspoly.engine.game import Game
from laspoly.predict import TWO_DICE, Guess, check_guess, distance, running_distance, scores
from laspoly.server.rooms import join_room, open_room, seat_token
from laspoly.server.store import open_store
from laspoly.ui.guessing import GuessView
from laspoly.ui.model import GameModel

OWNER = "owner-key"


def test_the_distance_from_two_dice_is_zero_for_the_exact_shares_and_shrinks_with_many_fair_rolls() -> None:
    exact = [6 - abs(t - 7) for t in range(2, 13)]  # one of each of the 36 rolls
    assert distance(exact) == pytest.approx(0) and distance([0] * 11) == 1.0
    assert distance([0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0]) == pytest.approx(1 - TWO_DICE[5])
    import random

    rng = random.Random(1)
    totals = [rng.randint(1, 6) + rng.randint(1, 6) for _ in range(5000)]
    d = running_distance(totals)
    assert d[49] > d[499] > d[4999] and d[4999] < 0.03


def test_scores_count_right_guesses_per_player() -> None:
    guesses = [Guess(0, 0, 7, 7), Guess(3, 1, 6, 8), Guess(5, 0, 2, 9)]
    assert scores(guesses, 2) == [(1, 2), (0, 1)]


@pytest.mark.parametrize("bad", [1, 13, 7.0, "7", True, None])
def test_a_guess_is_a_whole_number_from_2_to_12(bad: object) -> None:
    with pytest.raises(ValueError, match="from 2 to 12"):
        check_guess(bad)


def _two_people(dice: str = "3-4 1-2 5-5 2-1") -> GameModel:
    m = GameModel()
    assert m.new_game(["Ana", "Ben"], ["person", "person"], seed=4, dice=dice)
    m.predict = True
    return m


def test_with_predict_on_a_person_cannot_roll_before_guessing() -> None:
    m = _two_people()
    assert not m.act(A.Roll(0)) and "guess" in m.message and not m.game.history


def test_two_seats_on_one_screen_each_guess_their_own_roll_and_score() -> None:
    m = _two_people()
    m.guess = 7
    assert m.act(A.Roll(0)) and m.guess is None  # the guess is used up by its roll
    m.act(A.DeclineBuy(0))
    m.act(A.EndTurn(0))
    m.guess = 4
    assert m.act(A.Roll(1))
    assert m.guesses() == [Guess(0, 0, 7, 7), Guess(3, 1, 4, 3)]  # Ben's roll is the fourth action
    view = GuessView(model=m)
    assert "Ben guessed 4 and rolled 3" in view.table.object and view.gap.data["distance"]


def test_undo_takes_the_guess_of_an_undone_roll_with_it() -> None:
    m = _two_people()
    m.guess = 7
    m.act(A.Roll(0))
    m.undo()
    assert m.guesses() == []


def test_in_a_room_a_guess_is_stored_and_every_device_sees_the_scores(tmp_path: Path) -> None:
    store = open_store(f"sqlite:///{tmp_path / 'rooms.db'}")
    table = open_room(store, Game(["Ana", "Ben"], seed=4, dice="3-4 1-2"), ["person", "person"], OWNER)
    ana = GameModel(table=table)
    ben = GameModel(table=join_room(store, table.room_id, seat_token(OWNER, table.room_id, 1)))
    watcher = GameModel(table=join_room(store, table.room_id, seat_token(OWNER, table.room_id, "view")))
    ana.predict = True
    ana.guess = 8
    assert ana.act(A.Roll(0))
    for other in (ben, watcher):
        other.sync()
        assert other.guesses() == [Guess(0, 0, 8, 7)]


def test_bots_roll_without_guessing() -> None:
    m = GameModel()
    assert m.new_game(["Ana", "Bot"], ["person", "basic"], seed=4, dice="3-4 1-2")
    m.predict = True
    m.guess = 7
    m.act(A.Roll(0))
    m.act(A.DeclineBuy(0))
    m.act(A.EndTurn(0))
    m.advance()
    assert len(m.guesses()) == 1 and m.game.current == 0


def test_the_prompt_speaks_spanish() -> None:
    """A person's guess is asked for, and said back, by the turn's hint beside Roll (the Play tab's view-model)."""
    from laspoly.ui.playview import play_view

    m = _two_people()
    m.lang = "es"
    GuessView(model=m)
    assert "¿qué suma vas a sacar?" in play_view(m).header.hint
    m.guess = 9
    assert "apuesta por 9" in play_view(m).header.hint


def test_the_projector_shows_the_rooms_guesses_and_scores(tmp_path: Path) -> None:
    from laspoly.ui.presentation import ProjectorView

    store = open_store(f"sqlite:///{tmp_path / 'rooms.db'}")
    table = open_room(store, Game(["Ana", "Ben"], seed=4, dice="3-4 1-2"), ["person", "person"], OWNER)
    ana = GameModel(table=table)
    wall = ProjectorView(GameModel(table=join_room(store, table.room_id, seat_token(OWNER, table.room_id, "view"))))
    assert not wall.guesses.visible  # nobody guesses: nothing to show
    ana.predict = True
    ana.guess = 7
    assert ana.act(A.Roll(0))
    wall.model.sync()
    wall.model.redraw()
    assert wall.guesses.visible and "Ana guessed 7 and rolled 7" in wall.guesses.object
