"""The Play tab at four screen sizes, in English and Spanish: the board and the turn's buttons in view, nothing sideways, no button cut, keys that act."""

from __future__ import annotations

import re
from typing import Any

import pytest
from pages import settled
from playwright.sync_api import Page, expect
from test_browser import _button, _errors, _open
from test_browser_page import _in_spanish, _page, _prepare

pytestmark = pytest.mark.browser

#: (width, height, device scale factor): a laptop, a small laptop, a tablet upright, and 1280 x 720 zoomed to 150 %.
SCREENS = [(1600, 1000, 1.0), (1024, 768, 1.0), (768, 1024, 1.0), (1280, 720, 1.5)]
WORDS = {
    "en": {"roll": "Roll", "next": "Next", "decline": "Don't buy", "end": "End turn", "keys": "Keys: R roll · E end turn · N next",
           "rolled": r"rolled \d"},
    "es": {"roll": "Tirar", "next": "Siguiente", "decline": "No comprar", "end": "Terminar turno",
           "keys": "Teclas: R tirar · E terminar turno · N siguiente", "rolled": r"sacó \d"},
}

#: The board's box, the page's widths, and every shown button whose box leaves the window or whose label does not fit in it.
MEASURE = """(() => {
  const r = lpDeep('canvas')[0].getBoundingClientRect();
  const cut = lpDeep('button').filter((b) => b.checkVisibility() && b.getBoundingClientRect().width > 0).filter((b) => {
    const box = b.getBoundingClientRect();
    return box.left < -0.5 || box.right > innerWidth + 0.5 || b.scrollWidth > b.clientWidth + 1;
  }).map((b) => (b.textContent || '').trim());
  const s = document.scrollingElement;
  return {board: [r.left, r.top, r.right, r.bottom], view: [innerWidth, innerHeight],
          scroll: [s.scrollWidth, s.clientWidth], cut: cut};
})()"""


def _rolls(page: Page, pattern: str) -> int:
    return page.get_by_text(re.compile(pattern)).count()


@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.parametrize("screen", SCREENS, ids=[f"{w}x{h}@{s:g}" for w, h, s in SCREENS])
def test_the_table_fits_the_screen_holds_its_board_in_view_and_answers_its_keys(
        server: str, browser: Any, screen: tuple[int, int, float], lang: str) -> None:
    width, height, scale = screen
    words = WORDS[lang]
    page = _page(browser, width, height, scale)
    errors = _errors(page)
    _in_spanish(page, server) if lang == "es" else _open(page, server)
    _prepare(page)
    page.wait_for_function("lpDeep('canvas').length > 0", timeout=30_000)
    settled(page)
    found = page.evaluate(MEASURE)
    left, top, right, bottom = found["board"]
    assert right - left > 300 and abs((right - left) - (bottom - top)) < 2, f"the board keeps its square: {found}"
    assert left >= 0 and top >= 0 and right <= width and bottom <= height, f"the whole board is in view: {found}"
    assert found["scroll"][0] <= found["scroll"][1], f"no sideways scrolling: {found}"
    assert found["cut"] == [], f"buttons cut off: {found}"
    roll = _button(page, words["roll"]).bounding_box()
    assert roll is not None and roll["y"] + roll["height"] <= height, f"whose turn and the turn's buttons are in view: {roll}"

    expect(page.get_by_text(words["keys"])).to_be_visible()
    page.locator("h2", has_text="Las Poly").click()  # the page has the keyboard, no control has
    before = _rolls(page, words["rolled"])
    key = "r" if _button(page, words["roll"]).is_enabled() else "n"
    page.keyboard.press(key)
    expect(page.get_by_text(re.compile(words["rolled"]))).not_to_have_count(before, timeout=15_000)
    if _button(page, words["decline"]).is_visible():
        _button(page, words["decline"]).click()
    if _button(page, words["end"]).is_enabled():
        page.locator("h2", has_text="Las Poly").click()
        page.keyboard.press("e")
        expect(_button(page, words["end"])).to_be_disabled(timeout=15_000)
    assert errors == []
    page.context.close()
