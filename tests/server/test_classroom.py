"""Serving a classroom: the LAN address phones reach, and a class's student link that asks for a name first.

The LAN detection is a pure function of the interface list it is given; the
served test advertises a TEST-NET address (192.0.2.10) and connects only over
loopback.  Nothing here sends a packet to any address but 127.0.0.1.
"""

from __future__ import annotations

import http.client
import os
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest

from laspoly.server.classes import ClassData, class_names, create_class, find_class
from laspoly.server.serving import allowed_hosts, lan_address, phone_base
from laspoly.server.store import open_store
from laspoly.ui.join import JoinView, seat_names
from laspoly.ui.teacher import TeacherView

# ------------------------------------------------------------------ the LAN address, from a given interface list


@pytest.mark.parametrize(("candidates", "expected"), [
    (["127.0.0.1", "192.168.1.20"], "192.168.1.20"),
    (["127.0.1.1", "10.4.0.7"], "10.4.0.7"),  # Debian names the machine 127.0.1.1: loopback all the same
    (["172.17.0.1", "172.20.3.4"], "172.20.3.4"),  # Docker's bridge is skipped, another 172.16/12 network is not
    (["169.254.10.1", "10.0.0.2"], "10.0.0.2"),  # link-local: a network without DHCP, no phone is on it
    (["10.0.0.2", "192.168.0.9"], "192.168.0.9"),  # a home or school Wi-Fi's 192.168 first
    (["fe80::1", "::1", "2001:db8::5", "192.168.2.2"], "192.168.2.2"),  # IPv6 is never printed
    (["100.100.1.1", "172.31.0.5"], "172.31.0.5"),  # a VPN's carrier-grade NAT range after every private one
    (["8.8.4.4"], "8.8.4.4"),  # a public address, when it is all there is
    (["127.0.0.1", "172.17.0.1", "169.254.0.3"], None),
    ([], None),
    (["not an address", "", "999.1.1.1"], None),
])
def test_the_lan_address_prefers_private_ipv4_and_skips_loopback_link_local_and_docker(candidates: list[str], expected: str | None) -> None:
    assert lan_address(candidates) == expected


def test_among_equal_addresses_the_first_given_wins() -> None:
    assert lan_address(["192.168.5.5", "192.168.1.1"]) == "192.168.5.5"


@pytest.mark.parametrize(("href", "base", "swapped"), [
    ("http://localhost:5006/?room=x&seat=y", "http://192.0.2.10:5006/", True),
    ("http://127.0.0.1:5006/app?class=K7QM2X", "http://192.0.2.10:5006/app", True),
    ("http://LOCALHOST:8080/", "http://192.0.2.10:8080/", True),
    ("http://192.168.1.20:5006/?x", "http://192.168.1.20:5006/", False),  # phones already reach it
    ("http://school-laptop:5006/", "http://school-laptop:5006/", False),
])
def test_a_page_opened_at_localhost_links_to_the_lan_address_instead(href: str, base: str, swapped: bool) -> None:
    assert phone_base(href, "192.0.2.10") == (base, swapped)


def test_without_a_lan_address_links_keep_the_page_s_own_address() -> None:
    assert phone_base("http://localhost:5006/?a=1", None) == ("http://localhost:5006/", False)


def test_the_lan_address_is_a_host_the_server_answers_to() -> None:
    assert "192.0.2.10:5006" in allowed_hosts("0.0.0.0", 5006, lan="192.0.2.10")


# ------------------------------------------------------------------ joining a class with a name


def _page(monkeypatch: pytest.MonkeyPatch, db: str, query: str) -> Any:
    from test_rooms import _page as page

    return page(monkeypatch, db, query)


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'rooms.db'}"


def test_the_student_link_asks_for_a_name_first_and_stores_nothing_until_joined(monkeypatch: pytest.MonkeyPatch, db: str) -> None:
    made = create_class(open_store(db), "6B")
    page = _page(monkeypatch, db, f"?class={made.code}")
    assert isinstance(page, JoinView) and page.model is None
    assert "Join the class 6B" in page.head.object and page.name_input.label == "Your name or your team's name"
    assert page.people.options == [1, 2, 3, 4]
    assert open_store(db).class_rooms(made.code) == []


def test_joining_with_a_name_makes_a_stored_class_game_with_that_name_and_its_people(monkeypatch: pytest.MonkeyPatch, db: str) -> None:
    from laspoly.ui.app import Dashboard

    store = open_store(db)
    made = create_class(store, "6B")
    page = _page(monkeypatch, db, f"?class={made.code}")
    page.name_input.value_input = "  Team   Blue "
    page.people.value, page.bots.value = 2, 1
    page.go.clicks += 1
    m = page.model
    assert m is not None and isinstance(page.game_page, Dashboard)
    assert [p.name for p in m.game.players] == ["Team Blue", "Team Blue 2", "Bot 1"]
    assert m.table.seats[:2] == ["person", "person"] and m.table.seats[2] != "person"
    assert store.class_rooms(made.code) == [m.table.room_id]  # stored at once: the teacher sees the name
    assert list(class_names(store, made.code).values()) == ["Team Blue", "Team Blue 2"]
    teacher = TeacherView(ClassData(store, made.code, made.teacher_key), find_class(store, made.code))
    assert "Team Blue, Team Blue 2, Bot 1" in teacher.rooms.object


def test_a_name_already_playing_in_the_class_is_refused_in_any_case_or_width(monkeypatch: pytest.MonkeyPatch, db: str) -> None:
    store = open_store(db)
    made = create_class(store, "6B")
    assert _page(monkeypatch, db, f"?class={made.code}").join("Ana", 1, 2) is not None
    again = _page(monkeypatch, db, f"?class={made.code}")
    for twin in ("Ana", "ANA", "Ａｎａ", " ana "):
        assert again.join(twin, 1, 1) is None
        assert "already playing in this class" in again.message.object
    assert again.join("Ana 2", 1, 1) is not None and len(store.class_rooms(made.code)) == 2
    other = create_class(store, "6C")  # another class may have its own Ana
    assert _page(monkeypatch, db, f"?class={other.code}").join("Ana", 1, 1) is not None


@pytest.mark.parametrize(("people", "bots"), [(1, 0), (4, 1), (0, 2), (3, 2), (5, 0)])
def test_a_game_of_fewer_than_two_or_more_than_four_players_is_refused(monkeypatch: pytest.MonkeyPatch, db: str, people: int, bots: int) -> None:
    made = create_class(open_store(db), "6B")
    page = _page(monkeypatch, db, f"?class={made.code}")
    assert page.join("Zoe", people, bots) is None and "2 to 4 players" in page.message.object
    assert open_store(db).class_rooms(made.code) == []


@pytest.mark.parametrize("name", ["", "   ", "x" * 41, "a\u202eb", None])
def test_an_empty_long_or_invisible_name_is_refused_with_its_reason(monkeypatch: pytest.MonkeyPatch, db: str, name: Any) -> None:
    made = create_class(open_store(db), "6B")
    page = _page(monkeypatch, db, f"?class={made.code}")
    assert page.join(name, 1, 1) is None and "That name cannot be used" in page.message.object
    assert open_store(db).class_rooms(made.code) == []


def test_a_hostile_name_is_kept_as_text_and_escaped_on_the_teacher_s_page(monkeypatch: pytest.MonkeyPatch, db: str) -> None:
    store = open_store(db)
    made = create_class(store, "6B")
    hostile = "<img src=x onerror=alert(1)>"
    m = _page(monkeypatch, db, f"?class={made.code}").join(hostile, 1, 1)
    assert m is not None and m.game.players[0].name == hostile
    teacher = TeacherView(ClassData(store, made.code, made.teacher_key), find_class(store, made.code))
    assert hostile not in teacher.rooms.object and "&lt;img src=x onerror=alert(1)&gt;" in teacher.rooms.object
    refused = _page(monkeypatch, db, f"?class={made.code}")
    assert refused.join(hostile.upper(), 1, 1) is None and "<IMG" not in refused.message.object


def test_a_long_team_name_still_numbers_its_people_within_forty_characters() -> None:
    names = seat_names("T" * 40, 3, 1)
    assert [len(n) for n in names[:3]] == [40, 40, 40] and names[1].endswith(" 2") and names[3] == "Bot 1"
    assert seat_names("Bot 1", 1, 2) == ["Bot 1", "Bot 2", "Bot 3"]  # a person called "Bot 1" keeps the name


def test_the_seed_asked_in_the_student_link_is_the_joined_game_s(monkeypatch: pytest.MonkeyPatch, db: str) -> None:
    made = create_class(open_store(db), "6B")
    m = _page(monkeypatch, db, f"?class={made.code}&seed=42").join("Ana", 1, 1)
    assert m is not None and m.game.setup["seed"] == 42


# ------------------------------------------------------------------ laspoly serve --classroom, over loopback only


@pytest.fixture(scope="module")
def classroom(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """``laspoly serve --classroom`` on loopback, told its LAN address is 192.0.2.10 (TEST-NET: no machine has it)."""
    from servers import free_port, start_server

    folder = tmp_path_factory.mktemp("classroom")
    port, log = free_port(), folder / "server.log"
    env = {k: v for k, v in os.environ.items() if k != "LASPOLY_LAN_ADDRESS"}
    proc, _ = start_server(f"sqlite:///{folder / 'rooms.db'}", port, log=log, env=env,
                           args=("--classroom", "6B maths", "--lan-address", "192.0.2.10"))
    try:
        yield port, log.read_text(errors="replace")
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


def _get(port: int, host: str, path: str = "/") -> int:
    """The status of a GET over loopback that names ``host`` in its Host header."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    try:
        conn.putrequest("GET", path, skip_host=True)
        conn.putheader("Host", host)
        conn.endheaders()
        response = conn.getresponse()
        response.read()
        return response.status
    finally:
        conn.close()


def test_serve_classroom_prints_the_teacher_link_and_the_student_link_with_a_qr_code(classroom: Any) -> None:
    port, out = classroom
    assert re.search(rf"Teacher's page .*: http://192\.0\.2\.10:{port}/\?class=[A-Z0-9]{{6}}&teacher=\S+", out)
    assert re.search(rf"Students' link: http://192\.0\.2\.10:{port}/\?class=[A-Z0-9]{{6}}\n", out)
    assert sum(1 for line in out.splitlines() if "█" in line or "▀" in line) >= 10  # the code, drawn in the terminal


def test_the_served_classroom_answers_to_its_lan_name_and_refuses_others(classroom: Any) -> None:
    port, _ = classroom
    assert _get(port, f"192.0.2.10:{port}") == 200  # the phones' Host, sent over loopback
    assert _get(port, f"evil.example:{port}") == 403


@pytest.mark.browser
def test_the_teacher_page_opened_at_localhost_shows_the_lan_links_its_qr_code_and_says_why(classroom: Any, browser: Any) -> None:
    from playwright.sync_api import expect

    port, out = classroom
    teacher = re.search(r"Teacher's page .*: http://192\.0\.2\.10:\d+/(\?\S+)", out).group(1)  # type: ignore[union-attr]
    code = re.search(r"class=([A-Z0-9]{6})", teacher).group(1)  # type: ignore[union-attr]
    page = browser.new_context().new_page()
    page.goto(f"http://localhost:{port}/{teacher}", timeout=120_000)
    expect(page.get_by_text(f"http://192.0.2.10:{port}/?class={code}").first).to_be_visible(timeout=60_000)
    expect(page.get_by_text("This page is open at localhost").first).to_be_visible()
    expect(page.get_by_role("img", name="QR code of the class's student link").first).to_be_visible()
    expect(page.get_by_role("button", name="Copy link")).to_be_visible()
    page.context.close()


# ------------------------------------------------------------------ links on the pages, opened at localhost


@pytest.fixture
def at_localhost(monkeypatch: pytest.MonkeyPatch) -> None:
    """A page opened at http://localhost:5006/ on a server whose LAN address is 192.0.2.10 (nothing is sent anywhere)."""
    from laspoly.server.serving import LAN_ENV
    from laspoly.ui import common

    monkeypatch.setenv(LAN_ENV, "192.0.2.10")
    monkeypatch.setattr(common, "_phone_base", lambda: phone_base("http://localhost:5006/?room=x", os.environ[LAN_ENV]))


@pytest.mark.usefixtures("at_localhost")
def test_the_invite_tab_opened_at_localhost_says_so_and_links_to_the_lan_address(tmp_path: Path) -> None:
    from laspoly.engine.game import Game
    from laspoly.server.rooms import open_room
    from laspoly.ui.invite import InviteView
    from laspoly.ui.model import GameModel

    store = open_store(f"sqlite:///{tmp_path / 'rooms.db'}")
    m = GameModel(table=open_room(store, Game(["Ana", "Ben"], seed=1), ["person", "person"], "owner-key"))
    view = InviteView(model=m)
    assert "This page is open at localhost" in view.intro.object and "192.0.2.10" in view.intro.object
    shown = [text.object for text, _ in view._rows]
    assert shown and all("http://192.0.2.10:5006/?room=" in text for text in shown) and "localhost" not in " ".join(shown)


@pytest.mark.usefixtures("at_localhost")
def test_the_teacher_page_shows_the_student_link_at_the_lan_address_with_its_qr_code_and_copy_button(tmp_path: Path) -> None:
    store = open_store(f"sqlite:///{tmp_path / 'rooms.db'}")
    made = create_class(store, "6B")
    view = TeacherView(ClassData(store, made.code, made.teacher_key), find_class(store, made.code))
    assert f"http://192.0.2.10:5006/?class={made.code}" in view.head.object and "This page is open at localhost" in view.head.object
    qr, copy = view.invite.objects
    assert "<svg" in qr.object and "QR code of the class&#x27;s student link" in qr.object and copy.label == "Copy link"


@pytest.mark.usefixtures("at_localhost")
def test_the_student_link_s_qr_code_grows_in_projector_mode_to_be_read_from_the_back_of_the_room(tmp_path: Path) -> None:
    store = open_store(f"sqlite:///{tmp_path / 'rooms.db'}")
    made = create_class(store, "6B")
    view = TeacherView(ClassData(store, made.code, made.teacher_key), find_class(store, made.code))

    def size() -> tuple[int, int]:
        qr = view.invite.objects[0]
        return int(re.search(r'<svg[^>]* width="(\d+)"', qr.object)[1]), qr.width  # type: ignore[index]

    small, pane = size()
    view.projector = True
    big, big_pane = size()
    assert big >= 3 * small and big_pane >= big, (small, big, big_pane)
    view.projector = False
    assert size() == (small, pane)


def test_a_page_opened_at_the_lan_address_needs_no_note(monkeypatch: pytest.MonkeyPatch) -> None:
    from laspoly.server.serving import LAN_ENV
    from laspoly.ui import common

    monkeypatch.setenv(LAN_ENV, "192.0.2.10")
    monkeypatch.setattr(common, "_phone_base", lambda: phone_base("http://192.0.2.10:5006/", "192.0.2.10"))
    assert common.lan_note("en") == "" and common.base_url() == "http://192.0.2.10:5006/"


@pytest.mark.parametrize("bad", ["not-an-ip", "::1", "192.0.2"])
def test_a_malformed_lan_address_is_a_usage_error(bad: str, capsys: pytest.CaptureFixture[str]) -> None:
    from laspoly.cli import main

    assert main(["serve", "--classroom", "--lan-address", bad]) == 2
    assert "is not an IPv4 address" in capsys.readouterr().err


def test_the_join_form_speaks_spanish_and_the_game_joined_from_it_too(monkeypatch: pytest.MonkeyPatch, db: str) -> None:
    made = create_class(open_store(db), "6B")
    page = _page(monkeypatch, db, f"?class={made.code}")
    page.language.value = "es"
    assert "Unirse a la clase 6B" in page.head.object and page.go.label == "Unirse y jugar"
    assert page.join("Zoe", 1, 0) is None and "de 2 a 4 jugadores" in page.message.object
    m = page.join("Zoe", 1, 1)
    assert m is not None and m.lang == "es"
