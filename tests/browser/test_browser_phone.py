"""A seat's page on phones: laid out at the phone's width, the whole board in view and legible, whose turn, the cash,
the pot and the turn's buttons (44 px targets) in the first screen, nothing sideways, and taps that play.

Also, in a browser, that each new page draws its own seed and shows it, and ``?seed=N`` reproduces one.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from test_browser import _button, _errors, _open
from test_browser_page import _prepare

from laspoly.ui.board import SIDE, cell_xy

pytestmark = pytest.mark.browser

#: Two phones upright and one on its side (CSS pixels).
PHONES = [(390, 844), (412, 915), (844, 390)]
WORDS = {
    "en": {"roll": "Roll", "next": "Next", "rolled": r"^Ana rolled \d", "pot": "Casino pot", "tapped": "6. Boulder Highway",
           "price": "Price 100 LPD"},
    "es": {"roll": "Tirar", "next": "Siguiente", "rolled": r"^Ana sacó \d", "pot": "Bote del casino", "tapped": "6. Boulder Highway",
           "price": "Precio 100 LPD"},
}

#: What the first screen holds: the page's widths, the board's box, the turn's title and the cards' cash, and the
#: board's own drawing (read from its Bokeh models: the canvas has no text to query).
MEASURE = """(() => {
  const box = (e) => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  const s = document.scrollingElement;
  const meta = document.querySelector('meta[name=viewport]');
  const renderers = [...Bokeh.documents[0].all_models].filter((m) => m.glyph !== undefined && m.data_source !== undefined);
  const texts = (field) => renderers.filter((r) => r.glyph.text !== undefined && r.glyph.text.field === field);
  const size = (r) => parseFloat(r.glyph.text_font_size.value);
  const head = renderers.find((r) => r.data_source.data.text !== undefined && r.data_source.data.text.length === 1
                                     && r.data_source.data.y[0] > 8);
  const picked = renderers.find((r) => r.data_source.data.text !== undefined && r.data_source.data.text.length === 1
                                       && r.data_source.data.y[0] < 3.5 && r.data_source.data.y[0] > 2);
  return {
    scroll: [s.scrollWidth, innerWidth], view: [innerWidth, innerHeight], meta: meta ? meta.content : '',
    board: box(lpDeep('canvas')[0]),
    turn: box(lpDeep('.lp-turn-title')[0]),
    cash: lpDeep('.lp-card-cash').map(box),
    numbers: texts('number').map(size),
    pot: head ? [head.data_source.data.text[0], size(head)] : null,
    picked: picked ? [picked.data_source.data.text[0], size(picked)] : null,
  };
})()"""


def _phone(browser: Any, width: int, height: int) -> Page:
    context = browser.new_context(viewport={"width": width, "height": height}, device_scale_factor=2, is_mobile=True, has_touch=True)
    return context.new_page()


def _inside(box: list[float], width: int, height: int) -> bool:
    left, top, right, bottom = box
    return left >= -0.5 and top >= -0.5 and right <= width + 0.5 and bottom <= height + 0.5


def _tap_field(page: Page, field: int) -> None:
    box = page.locator("canvas").first.bounding_box()
    assert box is not None
    x, y = cell_xy(field)
    page.touchscreen.tap(box["x"] + box["width"] * x / SIDE, box["y"] + box["height"] * (1 - y / SIDE))


@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.parametrize("screen", PHONES, ids=[f"{w}x{h}" for w, h in PHONES])
def test_a_phone_shows_the_whole_board_the_turn_the_cash_and_the_pot_with_big_buttons_and_taps_play(
        server: str, browser: Any, screen: tuple[int, int], lang: str) -> None:
    width, height = screen
    words = WORDS[lang]
    page = _phone(browser, width, height)
    errors = _errors(page)
    _open(page, server)  # the tests' seed: Ana rolls first
    if lang == "es":
        _button(page, "Español").tap()
        expect(_button(page, "Tirar")).to_be_visible()
    _prepare(page)
    page.wait_for_function("lpDeep('canvas').length > 0 && lpDeep('canvas')[0].getBoundingClientRect().width > 100", timeout=30_000)
    page.wait_for_function("[...Bokeh.documents[0].all_models].some((m) => m.glyph && m.glyph.text && m.glyph.text.field === 'number')",
                           timeout=30_000)  # the board has been drawn for its size
    found = page.evaluate(MEASURE)
    assert "width=device-width" in found["meta"], "laid out at the phone's width, not 980 px shrunk"
    assert found["scroll"][0] <= found["scroll"][1], f"nothing scrolls sideways: {found}"
    left, top, right, bottom = found["board"]
    assert right - left >= 280 and abs((right - left) - (bottom - top)) < 2, f"the board keeps its square: {found}"
    assert _inside(found["board"], width, height), f"the whole board is in view: {found}"
    assert found["numbers"] and min(found["numbers"]) >= 9, f"each field shows its number in legible type: {found}"
    assert found["pot"] is not None and found["pot"][0].startswith(words["pot"]) and found["pot"][1] >= 10, f"the pot: {found}"
    assert _inside(found["turn"], width, height), f"whose turn it is, in view: {found}"
    assert len(found["cash"]) == 3 and all(_inside(c, width, height) for c in found["cash"]), f"every cash in view: {found}"
    for name in (words["roll"], words["next"]):
        box = _button(page, name).bounding_box()
        assert box is not None and box["height"] >= 44 and box["width"] >= 44, f"{name} is a 44 px target: {box}"
        assert box["y"] >= 0 and box["y"] + box["height"] <= height + 0.5, f"{name} is in the first screen: {box}"

    _tap_field(page, 6)  # a street: its card shows in the middle of the board
    page.wait_for_function(f"{MEASURE}.picked[0].startsWith('{words['tapped']}')", timeout=15_000)
    picked = page.evaluate(MEASURE)["picked"]
    assert words["price"] in picked[0].replace("\n", " ") and picked[1] >= 10, picked

    rolled = page.get_by_text(re.compile(words["rolled"]))
    expect(rolled).to_have_count(0)
    _button(page, words["roll"]).tap()
    expect(rolled.first).to_be_visible(timeout=15_000)  # the tap played: the log moved on
    expect(_button(page, words["roll"])).to_be_disabled()
    assert page.evaluate("document.scrollingElement.scrollWidth <= innerWidth")
    assert errors == []
    page.context.close()


def _seed_shown(page: Page) -> int:
    foot = page.locator(".lp-cards-foot").first
    expect(foot).to_have_text(re.compile(r"seed \d+"), timeout=60_000)
    match = re.search(r"seed (\d+)", foot.inner_text())
    assert match is not None
    return int(match.group(1))


def test_each_new_page_draws_its_own_seed_and_a_seed_in_the_address_reproduces_one(server: str, browser: Any) -> None:
    pages = [_phone(browser, 390, 844) for _ in range(2)]
    for page in pages:
        page.goto(server, timeout=60_000)
    first, second = (_seed_shown(page) for page in pages)
    assert first != second
    pages[0].goto(f"{server}?seed=4242", timeout=60_000)
    expect(pages[0].locator(".lp-cards-foot").first).to_have_text(re.compile(r"seed 4242\b"), timeout=60_000)
    pages[1].goto(f"{server}?seed=-3", timeout=60_000)
    expect(pages[1].get_by_text(re.compile(r"A seed is a whole number from 0 to 999999999, not “-3”"))).to_be_visible(timeout=60_000)
    assert _seed_shown(pages[1]) != 3
