"""A class: a code and a teacher key stored like room tokens, its rooms, the teacher's read-only view, pooled data."""

from __future__ import annotations

import csv
import io
import logging
from pathlib import Path

import pytest

from laspoly.engine import actions as A
from laspoly.engine.game import Game
from laspoly.errors import LaspolyError, StoreError
from laspoly.server.classes import ClassData, check_code, create_class, find_class, open_class, watch_token
from laspoly.server.rooms import join_room, open_room
from laspoly.server.store import Store, open_store
from laspoly.server.table import Refused
from laspoly.ui.model import GameModel
from laspoly.ui.teacher import TeacherView

OWNER = "owner-key-of-a-student"


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Store:
    if request.param == "sqlite":
        return open_store(f"sqlite:///{tmp_path / 'rooms.db'}")
    return open_store(request.getfixturevalue("postgres_url"))



def _class_room(store: Store, code: str, seed: int, owner: str = OWNER) -> GameModel:
    return GameModel(table=open_room(store, Game(["Ana", "Ben"], seed=seed), ["person", "person"], owner, class_code=code))


def _roll_and_end(m: GameModel, turns: int) -> None:
    for _ in range(turns):
        for _ in range(10):
            legal = m.game.legal_actions()
            pick = next((a for a in legal if isinstance(a, (A.Roll, A.DeclineBuy, A.StayPut, A.PayFine))), None) or \
                next((a for a in legal if isinstance(a, A.EndTurn)), legal[0])
            assert m.act(pick), m.message
            if isinstance(pick, A.EndTurn):
                break


def test_a_class_keeps_only_the_hash_of_its_teacher_key(store: Store) -> None:
    made = create_class(store, "6B maths")
    assert len(made.code) == 6 and made.teacher_key not in find_class(store, made.code).teacher_hash
    assert made.student_link == f"?class={made.code}" and made.teacher_key in made.teacher_link
    assert open_class(store, made.code.lower(), made.teacher_key).name == "6B maths"  # a code may be typed in lower case


def test_a_wrong_teacher_key_is_refused_and_logged(store: Store, caplog: pytest.LogCaptureFixture) -> None:
    made = create_class(store, "6B")
    with caplog.at_level(logging.WARNING, logger="laspoly.server.classes"), pytest.raises(StoreError, match="not valid"):
        open_class(store, made.code, "a-guessed-key")
    assert "wrong teacher key" in store.refusals(f"class:{made.code}") and "wrong teacher key" in caplog.text


@pytest.mark.parametrize("code", ["", "ABC", "ABCDE0", "<script>", "ABCDEFG"])
def test_a_malformed_class_code_gets_one_clear_error(code: str) -> None:
    with pytest.raises(StoreError, match="a class code is 6 letters and digits"):
        check_code(code)


@pytest.mark.parametrize("name", ["", "   ", "x" * 41, "a\u202eb"])
def test_a_hostile_class_name_is_refused(store: Store, name: str) -> None:
    with pytest.raises(LaspolyError, match="a class's name"):
        create_class(store, name)


def test_games_started_from_a_class_room_belong_to_the_class(store: Store) -> None:
    made = create_class(store, "6B")
    m = _class_room(store, made.code, seed=1)
    assert m.table.class_code == made.code
    m.new_game(["Cy", "Di"], ["person", "basic"], seed=2)  # "New game" in a class room: a new room of the class
    assert len(store.class_rooms(made.code)) == 2
    open_room(store, Game(["Eve", "Fay"], seed=3), ["person", "person"], OWNER)  # a game outside any class
    assert len(store.class_rooms(made.code)) == 2


def test_a_watch_link_opens_its_class_room_read_only_and_the_teacher_key_opens_no_room(store: Store) -> None:
    made = create_class(store, "6B")
    other = create_class(store, "6C")
    m = _class_room(store, made.code, seed=1)
    room_id = m.table.room_id
    data = ClassData(store, made.code, made.teacher_key)
    data.refresh()
    (summary,) = data.summaries()
    assert summary.watch == f"?room={room_id}&view={watch_token(made.teacher_key, room_id)}"
    assert made.teacher_key not in summary.watch and watch_token(made.teacher_key, room_id) not in str(store.room(room_id))
    watching = join_room(store, room_id, watch_token(made.teacher_key, room_id))
    assert watching.seat is None and watching.owner_key is None
    with pytest.raises(Refused):
        watching.check_act(A.Roll(0))
    for wrong in (made.teacher_key, other.teacher_key, watch_token(other.teacher_key, room_id)):
        with pytest.raises(StoreError):
            join_room(store, room_id, wrong)
    outside = open_room(store, Game(["Eve", "Fay"], seed=3), ["person", "person"], OWNER)
    with pytest.raises(StoreError):  # a watch token of one room opens no other
        join_room(store, outside.room_id, watch_token(made.teacher_key, room_id))


def test_the_pooled_counts_are_the_sum_of_every_rooms_log_and_follow_new_moves(store: Store) -> None:
    made = create_class(store, "6B")
    rooms = [_class_room(store, made.code, seed=s) for s in (1, 2, 3)]
    for k, m in enumerate(rooms):
        _roll_and_end(m, 3 + k)
    data = ClassData(store, made.code, made.teacher_key)
    data.refresh()
    assert sum(data.dice_totals()) == sum(m.dice_totals()[t] for m in rooms for t in range(11)) > 0
    assert [sum(x) for x in zip(*(m.dice_totals() for m in rooms), strict=True)] == data.dice_totals()
    rolls = sum(isinstance(a, A.Roll) for m in rooms for a in m.game.history)
    assert sum(data.landings()["laspoly"]) == rolls  # one landing per roll, as the chain counts (tests/ui/test_teacher_charts.py)
    _roll_and_end(rooms[0], 2)  # the class plays on: the next refresh catches up
    data.refresh()
    assert [sum(x) for x in zip(*(m.dice_totals() for m in rooms), strict=True)] == data.dice_totals()
    leaders = {s.leader for s in data.summaries()}
    assert leaders <= {"Ana", "Ben"} and all(made.teacher_key not in s.watch for s in data.summaries())


def test_the_class_csv_has_every_roll_and_keeps_a_hostile_name_as_text(store: Store) -> None:
    made = create_class(store, "6B")
    m = GameModel(table=open_room(store, Game(["=HYPERLINK(\"x\")", "Ben"], seed=1), ["person", "person"], OWNER, class_code=made.code))
    _roll_and_end(m, 2)
    data = ClassData(store, made.code, made.teacher_key)
    data.refresh()
    rows = list(csv.DictReader(io.StringIO(data.csv().getvalue())))
    assert sum(1 for r in rows if r["kind"] == "roll") == sum(data.dice_totals())
    assert all(not r["player"].startswith("=") for r in rows) and any(r["player"].startswith("'=") for r in rows)


def test_a_class_and_its_rooms_survive_a_restart(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'rooms.db'}"
    store = open_store(url)
    made = create_class(store, "6B")
    _roll_and_end(_class_room(store, made.code, seed=1), 2)
    again = open_store(url)  # a new process: nothing in memory
    data = ClassData(again, made.code, made.teacher_key)
    data.refresh()
    assert open_class(again, made.code, made.teacher_key).name == "6B" and len(data.rooms) == 1 and sum(data.dice_totals()) > 0


def test_the_teacher_page_lists_the_rooms_and_the_pooled_totals_in_both_languages(store: Store) -> None:
    made = create_class(store, "6B maths")
    for s in (1, 2):
        _roll_and_end(_class_room(store, made.code, seed=s), 2)
    view = TeacherView(ClassData(store, made.code, made.teacher_key), find_class(store, made.code))
    assert "6B maths" in view.head.object and made.code in view.head.object and view.rooms.object.count("<tr>") == 3
    assert "from 2 games, pooled" in view.totals.object
    view.lang = "es"
    assert "de 2 partidas, juntas" in view.totals.object and "Ver (solo lectura)" in view.rooms.object


def test_one_room_s_pooled_totals_say_from_1_game_in_the_singular_in_both_languages(store: Store) -> None:
    made = create_class(store, "6B maths")
    _roll_and_end(_class_room(store, made.code, seed=1), 2)
    view = TeacherView(ClassData(store, made.code, made.teacher_key), find_class(store, made.code))
    assert "from 1 game, pooled" in view.totals.object and "1 games" not in view.totals.object
    view.lang = "es"
    assert "de 1 partida," in view.totals.object and "1 partidas" not in view.totals.object


def test_a_class_needs_a_served_dashboard() -> None:
    m = GameModel()
    assert m.create_class("6B") is None and "laspoly serve" in m.message


# ---------------------------------------------------------------- watch links, paging, teacher keys (issue 31)


def _shown(view: object) -> list[str]:
    """Every text a page shows or holds for the browser: panes, widgets' values and the links its buttons copy."""
    import panel as pn

    root = view.__panel__() if hasattr(view, "__panel__") else view
    out: list[str] = []
    for obj in root.select():
        if isinstance(obj, pn.pane.HTML | pn.pane.Markdown | pn.pane.Str):
            out.append(str(obj.object))
        if isinstance(obj, pn.widgets.Widget):
            out.extend(str(v) for v in obj.param.values().values())
        out.extend(str(v) for cb in pn.links.Callback.registry.get(obj, []) for v in (cb.args or {}).values())
    return out


def _links(texts: list[str]) -> list[str]:
    """The addresses in those texts: every href and every query string of a room or a class."""
    import html
    import re

    found = (m for t in texts for m in re.findall(r"href='([^']*)'|(\?(?:room|class)=[^\s'\"<]*)", t) for m in m if m)
    return sorted({html.unescape(link) for link in found})


def test_no_link_on_any_page_holds_the_teacher_key(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from test_rooms import _page

    from laspoly.ui.app import Dashboard
    from laspoly.ui.presentation import ProjectorView

    db = f"sqlite:///{tmp_path / 'rooms.db'}"
    creator = _page(monkeypatch, db, "")  # the teacher's own page, where the class is made
    creator.teacher.class_name.value = "6B"
    made = creator.teacher.new_class()
    assert made is not None
    joining = _page(monkeypatch, db, f"?class={made.code}")
    m = joining.join("Ana", 1, 2)  # Ana and two bots, stored in the class as she joins
    assert m is not None
    student = joining.game_page
    assert m.act(A.Roll(0)) if m.person_to_move == 0 else m.advance() > 0
    teacher = _page(monkeypatch, db, f"?class={made.code}&teacher={made.teacher_key}")
    assert isinstance(teacher, TeacherView)
    (watch,) = [link for link in _links(_shown(teacher)) if "view=" in link]
    projector = _page(monkeypatch, db, watch[watch.index("?"):])
    assert isinstance(projector, ProjectorView) and not projector.model.can_drive
    pages: list[object] = [teacher, projector, student, creator]
    for dashboard in (student, creator):
        assert isinstance(dashboard, Dashboard)
        for tab in range(len(dashboard.tabs)):  # every tab is made, and shows its links
            dashboard.tabs.active = tab
    links = [link for page in pages for link in _links(_shown(page))]
    assert any("view=" in link for link in links) and any("seat=" in link for link in links) and any("me=" in link for link in links)
    # the key is in one link only: the teacher link, shown once to the teacher who made the class
    assert {link for link in links if made.teacher_key in link} == {made.teacher_link}
    assert made.teacher_key not in " ".join(text for page in pages[:3] for text in _shown(page))


def test_the_class_lists_its_newest_rooms_first_a_page_at_a_time(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    import laspoly.server.classes
    from laspoly.ui import classview

    monkeypatch.setattr(laspoly.server.classes, "MAX_CLASS_ROOMS", 12)
    monkeypatch.setattr(classview, "PAGE_SIZE", 5)
    made = create_class(store, "6B")
    for seed in range(15):  # a flood of rooms, each with a move
        _roll_and_end(_class_room(store, made.code, seed=seed, owner=f"flood-{seed}"), 1)
    real = GameModel(table=open_room(store, Game(["Zoe", "Ben"], seed=99), ["person", "person"], OWNER, class_code=made.code))
    _roll_and_end(real, 1)  # the real student, who joined last
    assert store.class_rooms(made.code)[0] == real.table.room_id and store.class_room_count(made.code) == 16
    assert store.class_rooms(made.code, limit=5, offset=5) == store.class_rooms(made.code)[5:10]
    view = TeacherView(ClassData(store, made.code, made.teacher_key), find_class(store, made.code))
    assert view.rooms.object.count("<tr>") == 6 and "Zoe" in view.rooms.object.split("</tr>")[1]  # newest first
    assert "Games 1–5 of 12, newest first" in view.pages.object and "has 16 games: the newest 12" in view.pages.object
    assert view.newer.disabled and not view.older.disabled
    view.older.clicks += 1
    view.older.clicks += 1
    assert "Games 11–12 of 12" in view.pages.object and view.older.disabled and "Zoe" not in view.rooms.object
    view.newer.clicks += 1
    assert "Games 6–10 of 12" in view.pages.object and len(view.data.rooms) == 12


def test_an_empty_teacher_key_is_a_clear_refusal_not_a_student_link(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from test_rooms import _page

    db = f"sqlite:///{tmp_path / 'rooms.db'}"
    store = open_store(db)
    made = create_class(store, "6B")
    with pytest.raises(StoreError, match="has no key"):
        open_class(store, made.code, "")
    page = _page(monkeypatch, db, f"?class={made.code}&teacher=")
    assert not isinstance(page, TeacherView) and not hasattr(page, "model")
    assert "has no key" in page.objects[0].object and "a teacher link without its key" in store.refusals(f"class:{made.code}")


def test_wrong_teacher_keys_are_throttled_per_device_with_a_clear_message(store: Store) -> None:
    from laspoly.server.classes import TeacherKeyThrottle

    now = [1000.0]
    throttle = TeacherKeyThrottle(limit=5, window=60, entries=3, clock=lambda: now[0])
    made = create_class(store, "6B")
    for k in range(5):
        with pytest.raises(StoreError, match="not valid"):
            open_class(store, made.code, f"guess-{k}", client="10.0.0.9", throttle=throttle)
    with pytest.raises(StoreError, match=r"too many wrong teacher keys from this device: try again in 6\d seconds"):
        open_class(store, made.code, made.teacher_key, client="10.0.0.9", throttle=throttle)  # even the right key, for now
    assert open_class(store, made.code, made.teacher_key, client="10.0.0.7", throttle=throttle).code == made.code  # another device
    assert store.refusals(f"class:{made.code}").count("wrong teacher key") == 5  # the held-off attempt wrote nothing
    now[0] += 61
    assert open_class(store, made.code, made.teacher_key, client="10.0.0.9", throttle=throttle).code == made.code
    for k in range(10):  # many devices: the throttle remembers at most its `entries`
        with pytest.raises(StoreError):
            open_class(store, made.code, "wrong", client=f"10.0.1.{k}", throttle=throttle)
    assert len(throttle._wrong) == 3


def test_names_that_look_alike_through_invisible_characters_are_one_name() -> None:
    from laspoly.engine.state import clean_name, name_key

    with pytest.raises(LaspolyError, match="printable"):
        clean_name("A\u200dna")  # a joiner between letters
    with pytest.raises(LaspolyError, match="printable"):
        create_class_name("6\u200dB")
    assert clean_name("👩🏽\u200d🏫 Ana") == "👩🏽\u200d🏫 Ana" and clean_name("❤️\u200d🔥") == "❤️\u200d🔥"  # emoji sequences
    assert name_key("ANA") == name_key("Ana") == name_key("Ａｎａ") and name_key("👩🏽\u200d🏫") == name_key("👩🏽🏫")
    with pytest.raises(LaspolyError, match="names must differ"):
        Game(["Ana", "Ａｎａ"])
    with pytest.raises(LaspolyError, match="names must differ"):
        Game(["👩🏽\u200d🏫 Ana", "👩🏽🏫 Ana"])


def create_class_name(name: str) -> str:
    from laspoly.server.classes import check_class_name

    return check_class_name(name)


def test_a_name_is_held_by_the_database_so_two_devices_joining_at_once_get_one_room(store: Store,
                                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Both devices read the class before either stored its room: the database's key still lets the name in once."""
    import laspoly.server.joining as joining

    made = create_class(store, "6B")
    monkeypatch.setattr(joining, "class_names", lambda *_: {})  # both looked before either joined
    first = joining.join_class(store, made.code, Game(["Ana", "Bot 1"], seed=1), ["person", "basic"])
    with pytest.raises(joining.NameTaken, match="'ANA' is already playing"):
        joining.join_class(store, made.code, Game(["ANA", "Bot 1"], seed=2), ["person", "basic"])
    assert store.class_rooms(made.code) == [first.room_id]
    assert store.held_names(made.code) == {"ana"}


def test_of_eight_devices_joining_with_one_name_at_once_exactly_one_plays(store: Store) -> None:
    import threading

    from laspoly.server.joining import NameTaken, join_class

    made = create_class(store, "6B")
    start, joined, refused = threading.Barrier(8), [], []

    def join(seed: int) -> None:
        start.wait()
        try:
            joined.append(join_class(store, made.code, Game(["Ana", "Bot 1"], seed=seed), ["person", "basic"]))
        except NameTaken:
            refused.append(seed)

    threads = [threading.Thread(target=join, args=(s,)) for s in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert len(joined) == 1 and len(refused) == 7
    assert store.class_rooms(made.code) == [joined[0].room_id]


def test_a_deleted_room_lets_its_names_join_again(store: Store) -> None:
    from laspoly.server.joining import join_class

    made = create_class(store, "6B")
    table = join_class(store, made.code, Game(["Ana", "Bot 1"], seed=1), ["person", "basic"])
    assert table.owner_key and store.delete_room(table.room_id, table.owner_key)
    assert store.held_names(made.code) == set()
    join_class(store, made.code, Game(["Ana", "Bot 1"], seed=2), ["person", "basic"])
