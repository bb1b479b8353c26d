"""The class round of ``make load`` (``benchmarks/load.py --class-round``) sets up what a class's lesson opens.

The class is made as the class pages make it: its students join through
:func:`laspoly.server.joining.join_class`, each under a name of their own in a room of
the class, and each link the round opens gives the page a lesson has there: the
student's game (played by a bot, so that autoplay goes on), the teacher's page,
its projector view and a watch link.  The round itself runs in ``make load``.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from test_rooms import _page

from laspoly.engine.state import name_key
from laspoly.server.rooms import owner_link
from laspoly.server.store import open_store
from laspoly.server.table import PERSON
from laspoly.ui.app import Dashboard
from laspoly.ui.join import JoinView
from laspoly.ui.presentation import ProjectorView
from laspoly.ui.teacher import TeacherView

pytestmark = pytest.mark.load

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


@pytest.fixture()
def load(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    return importlib.import_module("load")


def test_the_class_rounds_students_join_one_class_each_in_a_room_of_their_own_under_their_name(
        load: ModuleType, tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'load.db'}"
    setup = load.make_class(db, 4, seed=7)
    store = open_store(db)
    assert sorted(store.class_rooms(setup["code"])) == sorted(setup["rooms"])
    # each name was claimed in the class as the join page claims it (the seat is a bot's now, the claim stays)
    assert store.held_names(setup["code"]) >= {name_key(f"Student {i:02d}") for i in range(1, 5)}
    for i, room_id in enumerate(setup["rooms"]):
        room = store.room(room_id)
        assert room.setup["players"] == [f"Student {i + 1:02d}", "Bot 1", "Bot 2"]
        assert room.seats[0].kind != PERSON, "a bot plays the student's seat, so autoplay goes on"
    assert len(set(setup["students"])) == 4 and all("&me=" in q for q in setup["students"])
    assert setup["projector"] == setup["teacher"] + "&projector=1"


def test_each_link_of_the_class_round_opens_the_page_a_lesson_has(load: ModuleType, tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    db = f"sqlite:///{tmp_path / 'load.db'}"
    setup = load.make_class(db, 4, seed=7)
    student: Any = _page(monkeypatch, db, setup["students"][1])
    assert isinstance(student, Dashboard) and student.model.can_drive
    assert student.model.game.players[0].name == "Student 02"
    assert student.model.table.class_code == setup["code"]
    teacher: Any = _page(monkeypatch, db, setup["teacher"])
    assert isinstance(teacher, TeacherView) and not teacher.projector and len(teacher.data.rooms) == 4
    projector: Any = _page(monkeypatch, db, setup["projector"])
    assert isinstance(projector, TeacherView) and projector.projector
    watch: Any = _page(monkeypatch, db, setup["watch"])
    assert isinstance(watch, ProjectorView) and watch.model.table.room_id == setup["rooms"][0]


def test_a_student_who_joins_on_the_page_plays_a_game_that_lasts_the_round_once_their_seat_is_a_bots(
        load: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The Chromium students join on the page (``&seed=N`` from ``lasting_seed``); the page's own play then lasts."""
    db = f"sqlite:///{tmp_path / 'load.db'}"
    setup = load.make_class(db, 4, seed=7, on_page=1)
    assert len(setup["students"]) == len(setup["rooms"]) == 3  # Student 01 joins on the page
    seed = load.lasting_seed(40, 1)
    form: Any = _page(monkeypatch, db, f"?class={setup['code']}&seed={seed}")
    assert isinstance(form, JoinView)
    model = form.join("Student 01", 1, 2)
    assert model is not None
    address = "http://127.0.0.1:5006/" + owner_link(model.table.owner_key or "", model.table.room_id)
    load.hand_seat_to_bot(db, address)
    store = open_store(db)
    assert store.room(model.table.room_id).seats[0].kind != PERSON
    assert len(store.class_rooms(setup["code"])) == 4
    page: Any = _page(monkeypatch, db, address.split("/", 3)[3])  # the page reloaded
    assert isinstance(page, Dashboard) and page.model.person_to_move is None
    while page.model.game.turns < 40:
        page.model.advance()
        assert not page.model.game.is_over, f"seed {seed}'s game ended at turn {page.model.game.turns}"


def test_the_load_test_adds_up_its_server_processes_figures_and_keeps_each_ones(load: ModuleType,
                                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """``--num-procs``: each process's /load-stats is its own; steps, sessions, memory and models are added up, errors kept apart."""
    stats = {
        "a": {"pid": 1, "rss_mb": 100.0, "open_sessions": 3, "models": 3, "alive": 0, "ticks_total": 2,
              "ticks": [[1.0, 5.0, 5.0], [2.0, 0.0, 8.0]], "refreshes": [[1.5, 40.0]], "errors": ["x"]},
        "b": {"pid": 2, "rss_mb": 90.0, "open_sessions": 2, "models": 2, "alive": 1, "ticks_total": 1,
              "ticks": [[1.2, 1.0, 9.0]], "refreshes": [], "errors": []},
    }
    monkeypatch.setattr(load, "get_stats", lambda base, since=0, collect=True, after=0.0: stats[base])
    before = load.gather(["a", "b"])
    assert (before["rss_mb"], before["open_sessions"], before["models"], before["alive"]) == (190.0, 5, 5, 1)
    assert before["ticks_total"] == [2, 1] and len(before["ticks"]) == 3 and len(before["refreshes"]) == 1
    stats["b"] = {**stats["b"], "errors": ["y"]}
    assert load.new_errors(before, load.gather(["a", "b"])) == ["y"]


def test_the_class_round_sets_up_on_its_own_throw_away_postgresql_server_on_loopback(load: ModuleType) -> None:
    """``--db postgresql``: the round's server listens on 127.0.0.1 only, holds the class, and is deleted afterwards."""
    pg_server = importlib.import_module("pg_server")
    if pg_server.pg_bin() is None:
        pytest.skip("PostgreSQL is not installed (make postgres)")
    with pg_server.postgres_server() as url:
        assert url.startswith("postgresql://postgres@127.0.0.1:")
        setup = load.make_class(url, 4, seed=11)
        assert sorted(open_store(url).class_rooms(setup["code"])) == sorted(setup["rooms"])
        data_dirs = {p for p in Path("/tmp").glob("laspoly-load-pg-*")}
        assert data_dirs
    assert not any(p.exists() for p in data_dirs)
