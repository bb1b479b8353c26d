"""The Demonstrations tab in a real browser: a shipped demonstration opens as a new room and plays on."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect
from test_browser import _button, _input, _open, _tab

pytestmark = pytest.mark.browser


def test_a_teacher_starts_the_casino_demonstration_and_the_first_roll_wins_half_the_pot_L8(server: str, page: Page) -> None:
    _open(page, server)
    _tab(page, "Demonstrations")
    _input(page, "Demonstration").select_option(label="The casino pot on double six")
    expect(page.get_by_text("half", exact=False).first).to_be_visible()
    with page.expect_navigation(timeout=60_000):  # a new room, as a new game
        _button(page, "Start this demonstration").click()
    expect(_button(page, "Roll")).to_be_enabled(timeout=60_000)
    _button(page, "Roll").click()
    expect(page.get_by_text("87", exact=False).first).to_be_visible()


def test_the_editor_refuses_an_impossible_position_with_its_reason_and_the_game_stays(server: str, page: Page) -> None:
    _open(page, server)
    _tab(page, "Demonstrations")
    _input(page, "Owner").select_option(label="Ana")
    houses = _input(page, "Houses")
    houses.fill("4")
    houses.press("Enter")
    _button(page, "Play from this position").click()
    expect(page.get_by_text("L11", exact=False).first).to_be_visible()
    _tab(page, "Play")
    expect(_button(page, "Roll")).to_be_enabled()
