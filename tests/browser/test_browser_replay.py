"""The Replay tab in a real browser, in English and Spanish."""

from __future__ import annotations

import re
from typing import Any

import pytest
from pages import DEEP, settled
from playwright.sync_api import Page, expect
from test_browser import _button, _open, _tab

pytestmark = pytest.mark.browser


def test_the_replay_slider_steps_back_through_the_game_in_english_and_spanish(server: str, page: Page) -> None:
    _open(page, server)
    _button(page, "Roll").click()
    expect(page.get_by_text("rolled", exact=False).first).to_be_visible()
    _tab(page, "Replay")
    head = page.get_by_text(re.compile(r"^Step \d+ of \d+"))
    expect(head).to_be_visible()
    total = int(re.search(r"of (\d+)", head.inner_text()).group(1))
    assert total >= 1
    page.get_by_role("button", name="◀").click()
    expect(page.get_by_text(f"Step {total - 1} of {total}")).to_be_visible()
    page.get_by_role("button", name="Español").click()
    expect(page.get_by_text(f"Paso {total - 1} de {total}")).to_be_visible()
    page.get_by_role("button", name="▶").click()
    expect(page.get_by_text(f"Paso {total} de {total}")).to_be_visible()


def test_predict_then_roll_asks_for_a_guess_and_scores_it_in_english_and_spanish(server: str, page: Page) -> None:
    _open(page, server)
    page.locator(".lp-predict-switch").first.click()  # not the live odds' switch beside it
    expect(page.get_by_text("what total will you roll?", exact=False)).to_be_visible()
    expect(_button(page, "Roll")).to_be_disabled()  # until a guess is clicked, and the reasons say so
    expect(page.get_by_text("click your guess of the total (2 to 12) first", exact=False)).to_be_visible()
    page.get_by_role("button", name="7", exact=True).click()
    expect(page.get_by_text("Ana guesses 7. Now Roll.")).to_be_visible()
    _button(page, "Roll").click()
    expect(page.get_by_text(re.compile(r"Last roll: Ana guessed 7 and rolled \d+\."))).to_be_visible()
    page.get_by_role("button", name="Español").click()
    expect(page.get_by_text(re.compile(r"Última tirada: Ana apostó 7 y sacó \d+\."))).to_be_visible()


def test_a_lesson_link_opens_with_the_live_odds_and_their_legend_in_english_and_spanish(server: str, page: Page) -> None:
    page.goto(server + "?lesson=1&seed=7", timeout=60_000)
    expect(_button(page, "Roll")).to_be_visible(timeout=60_000)
    expect(page.get_by_text(re.compile(r"^Darker fields: where Ana's next roll is more likely to end"))).to_be_visible()
    page.get_by_role("button", name="this turn").click()
    expect(page.get_by_text(re.compile(r"^Darker fields: where Ana's turn is more likely to end"))).to_be_visible()
    page.get_by_role("button", name="Español").click()
    expect(page.get_by_text(re.compile(r"^Casillas más oscuras: donde es más probable que acabe el turno de Ana"))).to_be_visible()
    page.get_by_role("button", name="English").click()
    page.wait_for_url(re.compile(r"\?room=.*&lesson=1$"), timeout=15_000)  # the room's address keeps the lesson
    room = page.url
    _tab(page, "New game")
    with page.expect_navigation(timeout=60_000):  # a new room, whose address keeps the lesson too
        _button(page, "New game").click()
    expect(_button(page, "Roll")).to_be_visible(timeout=60_000)
    assert page.url != room and re.search(r"\?room=.*&lesson=1$", page.url)
    expect(page.get_by_text(re.compile(r"^Darker fields: where \w+'s next roll is more likely to end"))).to_be_visible()


def test_lesson_mode_shows_the_stakes_of_buying_and_run_to_end_says_how_many_turns_it_played(server: str, page: Page) -> None:
    page.goto(server + "?lesson=1&seed=7", timeout=60_000)
    expect(_button(page, "Roll")).to_be_enabled(timeout=60_000)
    _button(page, "Roll").click()  # the default game's first roll (seed 7) lands Ana on a station for sale
    expect(page.get_by_text(re.compile(r"^Long run \(an average over many turns\): about [\d.]+ LPD rent per opponent turn"))).to_be_visible()
    expect(page.get_by_text(re.compile(r"^Short run \(before your next turn\): [\d./= ]+% that an opponent lands here\."))).to_be_visible()
    page.get_by_role("button", name="Español").click()
    expect(page.get_by_text(re.compile(r"^A la larga .* se recupera en cerca de \d+ turnos de rival\."))).to_be_visible()
    page.get_by_role("button", name="English").click()
    _button(page, "Run to end").click()
    expect(page.get_by_text(re.compile(r"^Run to end played \d+ turns\."))).to_be_visible(timeout=120_000)
    expect(page.locator(".lp-winner")).to_be_visible()


#: The replay board's box (the square canvas the Replay tab adds: the Play tab's board stays in the page) and the window.
REPLAY_BOARD = """(() => {
  const square = (c) => { const r = c.getBoundingClientRect(); return c.checkVisibility() && r.width > 200 && Math.abs(r.width - r.height) < 2; };
  const board = lpDeep('canvas').filter((c) => square(c) && !window.lpPlayBoards.includes(c))[0];
  if (!board) return null;
  const r = board.getBoundingClientRect();
  return [r.left, r.top, r.right, r.bottom, innerWidth, innerHeight];
})()"""


@pytest.mark.parametrize("screen", [(1280, 720), (1024, 768), (1600, 1000)], ids=["1280x720", "1024x768", "1600x1000"])
def test_the_replay_board_is_whole_in_the_window_its_bottom_row_too(server: str, browser: Any, screen: tuple[int, int]) -> None:
    width, height = screen
    page = browser.new_context(viewport={"width": width, "height": height}).new_page()
    _open(page, server)
    _button(page, "Roll").click()
    expect(page.get_by_text("rolled", exact=False).first).to_be_visible()
    page.evaluate(DEEP)
    page.evaluate("window.lpPlayBoards = lpDeep('canvas')")
    _tab(page, "Replay")
    expect(page.get_by_text(re.compile(r"^Step \d+ of \d+"))).to_be_visible()
    page.wait_for_function(REPLAY_BOARD, timeout=30_000)
    settled(page)
    left, top, right, bottom, view_w, view_h = page.evaluate(REPLAY_BOARD)
    assert right - left >= 400, "a board one can read"
    assert left >= 0 and top >= 0 and right <= view_w and bottom <= view_h, ("the whole board is in the window", screen)
    page.context.close()
