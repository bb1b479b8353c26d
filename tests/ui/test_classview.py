"""The class model, without a browser: what the teacher's page shows of a class, read from the store through it."""

from __future__ import annotations

from pathlib import Path

import pytest

from laspoly.engine import actions as A
from laspoly.engine.game import Game
from laspoly.server.classes import ClassData, create_class, find_class
from laspoly.server.rooms import open_room
from laspoly.server.store import Store, open_store
from laspoly.ui.classview import PAGE_SIZE, TWO_DICE, ClassModel, ago
from laspoly.ui.model import GameModel

OWNER = "owner-key-for-tests-0004"


@pytest.fixture()
def store(tmp_path: Path) -> Store:
    return open_store(f"sqlite:///{tmp_path / 'classview.db'}")


def _play(m: GameModel, decisions: int) -> None:
    """Roll, decline, stay, end turns: ``decisions`` moves of the people at the table."""
    for _ in range(decisions):
        legal = m.game.legal_actions()
        pick = next((a for a in legal if isinstance(a, (A.Roll, A.DeclineBuy, A.StayPut, A.PayFine))), None) or \
            next((a for a in legal if isinstance(a, A.EndTurn)), legal[0])
        assert m.act(pick), m.message


def _model(store: Store, rooms: int = 2, decisions: int = 20) -> ClassModel:
    made = create_class(store, "6B")
    for seed in range(rooms):
        m = GameModel(table=open_room(store, Game(["Ana", "Ben"], seed=seed), ["person", "person"], OWNER, class_code=made.code))
        _play(m, decisions)
    model = ClassModel(ClassData(store, made.code, made.teacher_key), find_class(store, made.code), clock=lambda: 1e12)
    model.refresh()
    return model


def test_an_empty_class_shows_no_rooms_no_place_and_no_landing_chart(store: Store) -> None:
    model = _model(store, rooms=0)
    v = model.view("en")
    assert (v.name, v.rooms, v.place, v.newer_on, v.older_on) == ("6B", (), "", False, False)
    assert v.rolls == 0 and v.dice_shares == (0.0,) * 11 and v.landing_names == () and v.rulebook == "-"
    assert v.student_link == f"?class={v.code}"


def test_the_pooled_dice_and_landings_are_the_rooms_together_against_the_exact_answers(store: Store) -> None:
    model = _model(store, rooms=2)
    v = model.view("en")
    assert len(v.rooms) == 2 and v.followed == 2 and v.place.startswith("Games 1–2 of 2")
    assert v.rolls == sum(model.data.dice_totals()) > 0 and sum(v.dice_shares) == pytest.approx(1.0)
    assert len(TWO_DICE) == len(v.dice_shares)
    assert v.landed == v.rolls  # one landing per roll, as the chain counts
    assert len(v.landing_names) == len(v.landing_shares) == len(v.landing_exact) and v.landing_names[-1] == "in prison"
    assert sum(v.landing_shares) == pytest.approx(1.0) and sum(v.landing_exact) == pytest.approx(1.0)
    assert v.lln_n and len(v.lln_n) == len(v.lln_tv) == len(v.lln_envelope) and v.lln_n[-1] == v.rolls
    assert v.rooms[0].players == "Ana, Ben" and v.rooms[0].ago == ago(1e12 - model.data.summaries()[0].last_activity, "en")
    assert model.view("es").rooms[0].ago != "" and model.view("es").landing_names[-1] != "in prison"


def test_the_list_turns_pages_and_stays_within_them(store: Store) -> None:
    model = _model(store, rooms=1, decisions=1)
    model.turn_page(+1)
    assert model.view("en").newer_on is False and model.page == 0  # one page: nowhere to turn
    model.turn_page(-5)
    assert model.page == 0 and PAGE_SIZE > 1
