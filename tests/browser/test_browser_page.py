"""The page in a real browser: all of it in Spanish, a layout that fits and holds still, a focus ring and keyboard shortcuts."""

from __future__ import annotations

from typing import Any

import pytest
from helpers import english_in
from pages import DEEP, DEEP_TEXT, PRESSES_SENT, SENT, answered, settled
from playwright.sync_api import Page, expect
from test_browser import _button, _errors, _open, _tab

pytestmark = pytest.mark.browser

def _prepare(page: Page) -> None:
    page.evaluate(DEEP)


def _visible_text(page: Page) -> list[str]:
    _prepare(page)
    return list(page.evaluate("lpVisibleText()"))


def _in_spanish(page: Page, server: str) -> None:
    _open(page, server)
    _button(page, "Español").click()
    expect(_button(page, "Tirar")).to_be_visible()
    expect(page.locator(".bk-tab", has_text="Jugadores").first).to_be_visible()


def test_a_spanish_page_shows_no_english_text_of_the_catalogues_on_any_tab(server: str, page: Page) -> None:
    errors = _errors(page)
    _in_spanish(page, server)
    _button(page, "Tirar").click()
    expect(page.get_by_text("Ana sacó", exact=False).first).to_be_visible()
    for tab in ("Jugar", "Jugadores", "Probabilidad", "Repetición", "Reglas", "Nueva partida", "Para docentes", "Guardar y cargar",
                "Invitar", "Mis partidas"):
        _tab(page, tab)
        _prepare(page)
        settled(page, "lpVisibleText()")  # the tab's words, all arrived
        text = _visible_text(page)
        assert text, tab
        assert english_in(text) == [], tab
    assert errors == []


def _page(browser: Any, width: int, height: int, scale: float = 1.0) -> Page:
    return browser.new_context(viewport={"width": width, "height": height}, device_scale_factor=scale).new_page()


@pytest.mark.parametrize("spanish", [False, True])
def test_no_sideways_scrolling_at_768_by_1024(server: str, browser: Any, spanish: bool) -> None:
    page = _page(browser, 768, 1024)
    _in_spanish(page, server) if spanish else _open(page, server)
    _button(page, "Tirar" if spanish else "Roll").click()
    expect(page.get_by_text("Ana sacó" if spanish else "Ana rolled", exact=False).first).to_be_visible()
    settled(page)
    width, client = page.evaluate("[document.scrollingElement.scrollWidth, document.scrollingElement.clientWidth]")
    assert width <= client
    page.context.close()


def test_the_whole_board_is_visible_at_1280_by_720_zoomed_to_150_percent(server: str, browser: Any) -> None:
    page = _page(browser, 1280, 720, 1.5)
    _open(page, server)
    _prepare(page)
    page.wait_for_function("lpDeep('canvas').length > 0", timeout=30_000)
    settled(page)
    box = page.evaluate("(() => { const r = lpDeep('canvas')[0].getBoundingClientRect();"
                        " return [r.left, r.top, r.right, r.bottom, innerWidth, innerHeight]; })()")
    left, top, right, bottom, width, height = box
    assert right - left > 400 and abs((right - left) - (bottom - top)) < 2, "the board keeps its square and a useful size"
    assert left >= 0 and top >= 0 and right <= width and bottom <= height, box
    page.context.close()


def _contrast(rgb_a: tuple[float, ...], rgb_b: tuple[float, ...]) -> float:
    def lum(rgb: tuple[float, ...]) -> float:
        c = [v / 255 for v in rgb[:3]]
        c = [v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4 for v in c]
        return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]

    hi, lo = sorted((lum(rgb_a), lum(rgb_b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_a_keyboard_user_sees_a_focus_ring_on_buttons_and_inputs(server: str, page: Page) -> None:
    _open(page, server)
    expect(page.locator(".card-header", has_text="Build, sell, mortgage").first).to_be_visible()  # the Property list is on the page
    _prepare(page)
    page.locator("h2", has_text="Las Poly").click()
    seen: dict[str, dict[str, str]] = {}
    for _ in range(120):
        page.keyboard.press("Tab")
        style = page.evaluate("(() => { const e = lpFocused(); if (!e) return null; const s = getComputedStyle(e);"
                              " return {tag: e.tagName, text: (e.textContent || '').trim(), width: s.outlineWidth, style: s.outlineStyle,"
                              " color: s.outlineColor}; })()")
        if style and style["tag"] in ("BUTTON", "INPUT", "SELECT") and style["tag"] not in seen:
            seen[style["tag"]] = style
        if {"BUTTON", "SELECT"} <= set(seen):
            break
    assert {"BUTTON", "SELECT"} <= set(seen), seen
    for tag, style in seen.items():
        assert float(style["width"].removesuffix("px")) >= 2 and style["style"] != "none", (tag, style)
        rgb = tuple(float(v) for v in style["color"][style["color"].index("(") + 1:-1].split(",")[:3])
        assert _contrast(rgb, (255, 255, 255)) >= 3, (tag, style)


def test_keys_r_e_and_n_roll_end_the_turn_and_move_the_bots_but_not_while_typing(server: str, page: Page) -> None:
    from test_browser import _new_game

    page.add_init_script(SENT)
    _open(page, server)
    _new_game(page, ["Ana", "Ben"], ["person", "basic"], seed=4, dice="3-4 1-2 2-3")
    expect(page.get_by_text("Keys: R roll · E end turn · N next")).to_be_visible()
    # a key typed into a box is text, not a shortcut: the page sends no key press to the server
    page.locator(".card-header", has_text="Trade").first.click()
    cash = page.locator(".bk-input-group:has(> label:text-is('Cash you pay (negative: you receive)'))").first.locator("input")
    cash.click()
    cash.press("r")
    page.locator("h2", has_text="Las Poly").click()
    page.keyboard.press("r")
    expect(page.get_by_text("Ana rolled 3 and 4.")).to_be_visible()
    assert page.evaluate(PRESSES_SENT) == 1, "the r typed into the box was sent as a shortcut too"
    _button(page, "Don't buy").click()
    page.keyboard.press("e")
    expect(page.get_by_text("Round 1 (turn 2): Ben to play.")).to_be_visible()
    page.keyboard.press("n")
    expect(page.get_by_text("Ben rolled 1 and 2.")).to_be_visible()


def test_the_cards_below_the_buttons_hold_still_as_the_turn_goes_on(server: str, page: Page) -> None:
    """The reasons, the message and the decisions that come and go keep their room, so the Build card does not jump."""
    from test_browser import _new_game

    _open(page, server)
    # Ana rolls 1-2 onto a street she declines, ends her turn, and Next plays Ben's (a bot's) turn
    _new_game(page, ["Ana", "Ben"], ["person", "basic"], seed=4, dice="1-2 3-4 2-3")
    card = page.locator(".card-header", has_text="Build, sell, mortgage").first
    expect(card).to_be_visible()
    places = [card.bounding_box()["y"]]  # type: ignore[index]
    _prepare(page)
    for name in ("Roll", "Don't buy", "End turn", "Next"):
        expect(_button(page, name)).to_be_enabled()
        before = page.evaluate(DEEP_TEXT)
        _button(page, name).click()
        answered(page, before)
        settled(page, DEEP_TEXT)
        places.append(card.bounding_box()["y"])  # type: ignore[index]
    assert len(places) == 5 and max(places) - min(places) < 1, places


def test_the_save_tabs_file_input_speaks_the_pages_language_spanish_then_english(server: str, page: Page) -> None:
    """Panel's file dropper says "Drag & Drop your files or Browse" in English on every page: the page sets its words."""
    _in_spanish(page, server)
    _tab(page, "Guardar y cargar")
    expect(page.get_by_text("Arrastra y suelta aquí tu archivo o", exact=False)).to_be_visible(timeout=30_000)
    expect(page.get_by_text("Busca", exact=True)).to_be_visible()
    _prepare(page)
    settled(page, "lpVisibleText()")
    text = " ".join(_visible_text(page))
    assert "Drag" not in text and "Browse" not in text, text
    _button(page, "English").click()
    expect(page.get_by_text("Drag and drop your file here or", exact=False)).to_be_visible()
    expect(page.get_by_text("Browse", exact=True)).to_be_visible()


def test_a_pickers_remove_buttons_speak_the_pages_language(server: str, page: Page) -> None:
    """The lab's bot picker (Choices.js, under Panel's MultiChoice) names each chosen bot's remove button "Remove item"
    in English on every page: the page's accessibility script names it in the page's language, and says it again
    on a switch of language."""
    def names() -> list[str]:
        _prepare(page)
        return list(page.evaluate("lpDeep('.choices__button').map((b) => b.getAttribute('aria-label') + '|' + b.textContent)"))

    _in_spanish(page, server)
    _tab(page, "Probabilidad")
    _prepare(page)
    page.wait_for_function("() => lpDeep('.choices__button').length >= 2 && "
                           "lpDeep('.choices__button').every((b) => (b.getAttribute('aria-label') || '').startsWith('Quitar '))",
                           timeout=30_000)
    spanish = names()
    assert len(spanish) >= 2 and all(n.startswith("Quitar ") and n.endswith("|Quitar") for n in spanish), spanish
    assert not any("Remove" in n for n in spanish), spanish
    _button(page, "English").click()
    page.wait_for_function("() => lpDeep('.choices__button').every((b) => (b.getAttribute('aria-label') || '').startsWith('Remove '))",
                           timeout=30_000)
    english = names()
    assert all(n.endswith("|Remove") for n in english) and not any("item" in n for n in english), english
