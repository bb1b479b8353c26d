"""A seat's page on phones: laid out at the phone's width, the whole board in view and legible, whose turn, the cash,
the pot and the turn's buttons (44 px targets) in the first screen, a decision's buttons there too, nothing sideways,
and taps that play; the winner screen fits the phone's width and Rematch is a tap away.

Also, in a browser, that each new page draws its own seed and shows it, and ``?seed=N`` reproduces one.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from pages import DEEP, settled
from playwright.sync_api import Page, expect
from servers import serving_rooms
from test_browser import _button, _errors, _open
from test_browser_page import _prepare

from laspoly.engine import actions as A
from laspoly.engine.game import Game
from laspoly.server.rooms import new_owner_key, open_room, owner_link
from laspoly.server.store import Store
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


def _target_in_first_screen(page: Page, name: str, width: int, height: int) -> dict[str, float]:
    """The button ``name``'s box, once checked to be a 44 px target lying whole in the phone's first screen."""
    box = _button(page, name).bounding_box()
    assert box is not None and box["height"] >= 44 and box["width"] >= 44, f"{name} is a 44 px target: {box}"
    assert box["y"] >= 0 and box["y"] + box["height"] <= height + 0.5, f"{name} is in the first screen: {box}"
    assert box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5, f"{name} is within the screen's width: {box}"
    return box


def _laid_out_at_its_width(page: Page, width: int) -> bool:
    """Whether the page is laid out at the phone's own width: nothing scrolls sideways, nor is the page zoomed out."""
    return bool(page.evaluate("[document.scrollingElement.scrollWidth, innerWidth]") == [width, width])


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
    assert found["scroll"][0] <= found["scroll"][1] == width, f"nothing scrolls sideways, nor is the page zoomed out: {found}"
    left, top, right, bottom = found["board"]
    assert right - left >= 280 and abs((right - left) - (bottom - top)) < 2, f"the board keeps its square: {found}"
    assert _inside(found["board"], width, height), f"the whole board is in view: {found}"
    assert found["numbers"] and min(found["numbers"]) >= 9, f"each field shows its number in legible type: {found}"
    assert found["pot"] is not None and found["pot"][0].startswith(words["pot"]) and found["pot"][1] >= 10, f"the pot: {found}"
    assert _inside(found["turn"], width, height), f"whose turn it is, in view: {found}"
    assert len(found["cash"]) == 3 and all(_inside(c, width, height) for c in found["cash"]), f"every cash in view: {found}"
    for name in (words["roll"], words["next"]):
        _target_in_first_screen(page, name, width, height)

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


@pytest.fixture(scope="module")
def room_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Store]]:
    """A ``laspoly serve`` of this module's own, and its store, in which the tests open rooms of a game as it stands."""
    with serving_rooms(tmp_path_factory.mktemp("phone")) as served:
        yield served


#: A long name, so that a name's width is part of what must fit.
LONG_NAMES = ["Ana", "Bernadette Montgomery", "Cy"]
ROOM_WORDS = {
    "en": {"switch": "English", "buy": "Buy", "decline": "Don't buy", "roll": "Roll", "end": "End turn",
           "run": "Run to end", "rematch": "Rematch (same seed)"},
    "es": {"switch": "Español", "buy": "Comprar", "decline": "No comprar", "roll": "Tirar", "end": "Terminar turno",
           "run": "Jugar hasta el final", "rematch": "Revancha (misma semilla)"},
}


def _room_on_phone(room_server: tuple[str, Store], browser: Any, game: Game, screen: tuple[int, int], lang: str,
                   ready: str) -> Page:
    """``game`` in a room of its own (Ana a person, two bots) on a phone, in ``lang``, once ``ready`` (English) shows."""
    url, store = room_server
    me = new_owner_key()
    table = open_room(store, game, ["person", "basic", "basic"], me)
    page = _phone(browser, *screen)
    page.goto(url + "/" + owner_link(me, table.room_id), timeout=60_000)
    expect(_button(page, ready)).to_be_visible(timeout=60_000)
    if lang == "es":
        _button(page, "Español").tap()
        expect(_button(page, ROOM_WORDS["es"]["roll"])).to_be_visible(timeout=30_000)
    return page


@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.parametrize("screen", PHONES, ids=[f"{w}x{h}" for w, h in PHONES])
def test_a_decisions_buttons_are_in_a_phones_first_screen_under_roll_as_44_px_targets_and_a_tap_decides(
        room_server: tuple[str, Store], browser: Any, screen: tuple[int, int], lang: str) -> None:
    width, height = screen
    words = ROOM_WORDS[lang]
    game = Game(list(LONG_NAMES), seed=4, dice="1-2 1-2 3-4 3-4")
    game.apply(A.Roll(0))  # Ana lands on Glitter Gulch, which nobody owns: buy it or not
    page = _room_on_phone(room_server, browser, game, screen, lang, "Buy")
    errors = _errors(page)
    expect(_button(page, words["buy"])).to_be_enabled()
    page.evaluate(DEEP)
    settled(page)
    assert _laid_out_at_its_width(page, width), "nothing sideways"
    turn = page.locator(".lp-turn-title").first.bounding_box()
    assert turn is not None and turn["y"] >= 0 and turn["y"] + turn["height"] <= height + 0.5, f"whose turn, in view: {turn}"
    boxes = {name: _target_in_first_screen(page, name, width, height)
             for name in (words["buy"], words["decline"], words["roll"], words["end"])}
    assert boxes[words["buy"]]["y"] > boxes[words["roll"]]["y"], "the decision sits under Roll and End turn, which stay put"
    _button(page, words["buy"]).tap()
    expect(page.locator(".lp-card-cash").first).to_have_text("1220 LPD")  # the tap bought the street for 80 LPD
    expect(_button(page, words["buy"])).to_be_hidden()
    assert errors == []
    page.context.close()


#: Every part of the winner screen that shows something (a text of its own, a button, a chart, a table) lying beyond the
#: screen's left or right edge, and how many parts were measured.
WINNER_OUTSIDE = """(width) => {
  const out = [], seen = [];
  const walk = (root) => root.querySelectorAll('*').forEach((e) => {
    if (e.shadowRoot) walk(e.shadowRoot);
    const own = [...e.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent.trim());
    if (!own && !['BUTTON', 'CANVAS', 'TABLE'].includes(e.tagName)) return;
    const r = e.getBoundingClientRect();
    if (!e.checkVisibility() || r.width === 0 || r.height === 0) return;
    seen.push(e.tagName + ' ' + e.textContent.trim().slice(0, 60));
    if (r.left < -0.5 || r.right > width + 0.5) out.push([e.tagName, e.textContent.trim().slice(0, 60), r.left, r.right]);
  });
  const winner = lpDeep('.lp-winner')[0];
  walk(winner.shadowRoot || winner);
  return {outside: out, seen: seen};
}"""


@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.parametrize("screen", PHONES, ids=[f"{w}x{h}" for w, h in PHONES])
def test_a_phones_winner_screen_fits_its_width_and_rematch_is_a_44_px_tap_away(
        room_server: tuple[str, Store], browser: Any, screen: tuple[int, int], lang: str) -> None:
    width, _ = screen
    words = ROOM_WORDS[lang]
    page = _room_on_phone(room_server, browser, Game(list(LONG_NAMES), seed=4), screen, lang, "Roll")
    errors = _errors(page)
    _button(page, words["run"]).tap()
    rematch = _button(page, words["rematch"])
    expect(rematch).to_be_visible(timeout=120_000)
    page.evaluate(DEEP)
    settled(page)
    found = page.evaluate(WINNER_OUTSIDE, width)
    assert found["outside"] == [], f"the winner screen runs past the screen's edge: {found['outside']}"
    assert f"BUTTON {words['rematch']}" in found["seen"], found["seen"]  # the buttons were measured
    assert any(text.startswith("SPAN ") and ", " in text for text in found["seen"]), found["seen"]  # and the winner's fields
    assert _laid_out_at_its_width(page, width), "nothing sideways"
    rematch.scroll_into_view_if_needed()
    box = rematch.bounding_box()
    assert box is not None and box["height"] >= 44 and box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5, box
    with page.expect_navigation(timeout=60_000):
        rematch.tap()
    expect(_button(page, words["roll"])).to_be_enabled(timeout=60_000)
    expect(page.locator(".lp-winner")).to_be_hidden()
    assert errors == []
    page.context.close()


#: Each player's cash, as the Players tab's card shows it under its word, read from the page.
PLAYER_CARDS = """() => lpDeep('table.lp-players tbody tr').map((tr) => {
  const cells = [...tr.children];
  const r = tr.getBoundingClientRect();
  return {name: cells[0].textContent.trim(), cash: cells[2].textContent.trim(), left: r.left, right: r.right,
          label: getComputedStyle(cells[2], '::before').content};
})"""


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_players_tab_on_a_phone_is_a_card_per_player_with_each_value_under_its_word_and_nothing_sideways(
        room_server: tuple[str, Store], browser: Any, lang: str) -> None:
    from laspoly.bots.registry import make_bot
    from laspoly.bots.runner import play_bot_turns

    game = Game(list(LONG_NAMES), seed=11)
    # properties to list, and seven columns' worth of values
    play_bot_turns(game, [make_bot("dealer", seed=k) for k in range(3)], validate=True, until=lambda g: g.turns >= 90)
    assert not game.is_over
    page = _room_on_phone(room_server, browser, game, (390, 844), lang, "Roll")
    errors = _errors(page)
    page.locator(".bk-tab", has_text="Jugadores" if lang == "es" else "Players").first.tap()
    page.evaluate(DEEP)
    page.wait_for_function("lpDeep('table.lp-players tbody tr').length === 3", timeout=30_000)
    settled(page)
    assert _laid_out_at_its_width(page, 390), "the table is laid out at the phone's width, not zoomed out"
    cards = page.evaluate(PLAYER_CARDS)
    cash = "Dinero" if lang == "es" else "Cash"
    for card, player in zip(cards, game.players, strict=True):
        assert card["name"].endswith(player.name) and card["cash"] == game.money(player.cash), card
        assert card["left"] >= 0 and card["right"] <= 390.5, f"{player.name}'s card is within the screen: {card}"
        assert card["label"] == f'"{cash}"', f"the cash is shown under its word: {card}"
    assert errors == []
    page.context.close()
