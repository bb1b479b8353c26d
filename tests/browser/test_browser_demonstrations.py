"""The Demonstrations tab in a real browser: a shipped demonstration opens as a new room and plays on."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pages import settled
from playwright.sync_api import Page, expect
from servers import start_server
from test_browser import SEED, _button, _input, _open, _tab

from laspoly.analysis import log as gamelog
from laspoly.engine import events as E
from laspoly.record import replay
from laspoly.server.store import open_store

pytestmark = pytest.mark.browser


def test_a_teacher_starts_the_casino_demonstration_and_the_first_roll_wins_half_the_pot_L8(server: str, page: Page) -> None:
    _open(page, server)
    _tab(page, "For teachers")
    _input(page, "Demonstration").select_option(label="The casino pot on double six")
    expect(page.get_by_text("half", exact=False).first).to_be_visible()
    with page.expect_navigation(timeout=60_000):  # a new room, as a new game
        _button(page, "Start this demonstration").click()
    expect(_button(page, "Roll")).to_be_enabled(timeout=60_000)
    _button(page, "Roll").click()
    expect(page.get_by_text("87", exact=False).first).to_be_visible()


def test_the_editor_refuses_an_impossible_position_with_its_reason_and_the_game_stays(server: str, page: Page) -> None:
    _open(page, server)
    _tab(page, "For teachers")
    _input(page, "Owner").select_option(label="Ana")
    houses = _input(page, "Houses")
    houses.fill("4")
    houses.press("Enter")
    _button(page, "Play from this position").click()
    expect(page.get_by_text("L11", exact=False).first).to_be_visible()
    _tab(page, "Play")
    expect(_button(page, "Roll")).to_be_enabled()


def _rolls_and_landings(db_url: str, code: str) -> tuple[int, int]:
    """Counted straight from each class room's stored log, replayed: the sum the teacher's page must show."""
    store = open_store(db_url)
    rolls = landings = 0
    for room_id in store.class_rooms(code):
        game = replay(store.room(room_id).setup, store.actions(room_id))
        rolls += sum(isinstance(e, E.Rolled) for e in game.log)
        landings += sum(gamelog.roll_landings(game))  # where each roll ended, as the chain (and the page) counts
    return rolls, landings


def test_a_class_of_three_rooms_in_three_browsers_pools_on_the_teachers_page_and_survives_a_restart(
        browser, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    db = f"sqlite:///{tmp_path / 'rooms.db'}"
    proc, url = start_server(db)
    try:
        teacher = browser.new_context().new_page()
        _open(teacher, url)
        _tab(teacher, "For teachers")
        name = _input(teacher, "Class name")
        name.fill("6B maths")
        name.press("Enter")
        _button(teacher, "Create a class").click()
        link = teacher.locator("a", has_text="teacher=").first
        expect(link).to_be_visible()
        query = "?" + link.get_attribute("href").split("?", 1)[1]
        code = re.search(r"class=([A-Z0-9]{6})", query).group(1)
        for k in range(3):  # three students, each in a browser of their own, from the student link
            student = browser.new_context().new_page()
            student.goto(f"{url}?class={code}&seed={SEED}", timeout=60_000)  # a name first; the seed where seat 1 rolls first
            box = student.locator(".bk-input-group:has(> label:text-is(\"Your name or your team's name\")) input")
            expect(box).to_be_editable(timeout=60_000)
            settled(student)  # the form drawn and connected: a name typed into a page still loading can be drawn over
            box.fill(f"Student {k + 1}")
            expect(box).to_have_value(f"Student {k + 1}")  # typed into the form the page shows, not one drawn over it
            _button(student, "Join and play").click()
            expect(_button(student, "Roll")).to_be_visible(timeout=60_000)
            assert "room=" in student.url  # the joined game at its own address: a reload resumes it
            _button(student, "Roll").click()
            expect(student.get_by_text("rolled", exact=False).first).to_be_visible()
            student.context.close()
        teacher.goto(url + query)
        rows = teacher.locator("table[aria-label=\"The class's games\"] tr")
        expect(rows).to_have_count(4)  # a header and three rooms
        expect(teacher.get_by_role("link", name="watch")).to_have_count(3)
        rolls, landings = _rolls_and_landings(db, code)
        assert rolls >= 3
        expect(teacher.get_by_text(f"{rolls} rolls and {landings} landings from 3 games, pooled")).to_be_visible()
        with teacher.expect_popup() as watched:  # the teacher watches a room read-only
            teacher.get_by_role("link", name="watch").first.click()
        watching = watched.value
        expect(watching.get_by_text("Student ").first).to_be_visible(timeout=60_000)
        assert all(b.is_disabled() for b in watching.get_by_role("button", name=re.compile(r"^(Roll|End turn)")).all())
        teacher.goto(url + query.replace("teacher=", "teacher=x"))  # a wrong key is refused
        expect(teacher.get_by_text("This teacher link does not open that class")).to_be_visible()
    finally:
        proc.terminate()
        proc.wait(timeout=20)
    proc, url = start_server(db)  # the class is in the database, not in the server's memory
    try:
        page = browser.new_context().new_page()
        page.goto(url + query, timeout=60_000)
        expect(page.locator("table[aria-label=\"The class's games\"] tr")).to_have_count(4, timeout=60_000)
    finally:
        proc.terminate()
        proc.wait(timeout=20)


def test_the_demonstration_menu_keeps_its_choice_when_the_page_turns_spanish(server: str, page: Page) -> None:
    _open(page, server)
    _tab(page, "For teachers")
    _input(page, "Demonstration").select_option(label="Train fares from the Airport")
    page.get_by_role("button", name="Español").click()
    menu = _input(page, "Demostración")
    expect(menu).to_be_visible()
    expect(page.get_by_text("Ana saca 3+1", exact=False).first).to_be_visible()
    assert menu.evaluate("e => e.options[e.selectedIndex] ? e.options[e.selectedIndex].text : ''") == "Tarifas de tren desde el aeropuerto"


def test_the_demonstration_menu_shows_its_first_choice_on_a_page_already_in_spanish(server: str, page: Page) -> None:
    _open(page, server)
    page.get_by_role("button", name="Español").click()
    _tab(page, "Para docentes")
    menu = _input(page, "Demostración")
    expect(menu).to_be_visible()
    assert menu.evaluate("e => e.options[e.selectedIndex] ? e.options[e.selectedIndex].text : ''") == "El bote del casino con 2+2"
