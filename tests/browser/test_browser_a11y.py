"""The page for keyboards and screen readers: the tabs pattern, named controls, switches toggled from their text, a
turn played without the mouse, and axe-core (pinned through ``axe-playwright-python``) finding no serious or critical
violation."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from pages import DEEP, shown_text
from playwright.sync_api import Page, expect
from test_browser import _button, _errors, _open, _tab

pytestmark = pytest.mark.browser

#: The tab headers, the open one, and the element with the focus (through the shadow roots).
TABS = """(() => {
  const tabs = lpDeep('.bk-tab');
  let focused = document.activeElement;
  while (focused && focused.shadowRoot && focused.shadowRoot.activeElement) focused = focused.shadowRoot.activeElement;
  return {
    list: lpDeep('.bk-headers-wrapper').map((l) => l.getAttribute('role')),
    names: tabs.map((t) => t.textContent.trim()),
    roles: tabs.map((t) => t.getAttribute('role')),
    selected: tabs.map((t) => t.getAttribute('aria-selected')),
    order: tabs.map((t) => t.tabIndex),
    focused: focused && focused.classList.contains('bk-tab') ? focused.textContent.trim() : null,
  };
})()"""

#: The element with the focus, through the shadow roots: its text, its ring and its accessible name.
FOCUSED = """(() => {
  let e = document.activeElement;
  while (e && e.shadowRoot && e.shadowRoot.activeElement) e = e.shadowRoot.activeElement;
  const s = getComputedStyle(e);
  return {text: e.textContent.trim(), label: e.getAttribute('aria-label'), outline: s.outlineWidth + ' ' + s.outlineStyle,
          tag: e.tagName, cls: e.className};
})()"""

#: Impacts the page may not have.
BLOCKING = ("serious", "critical")
SIZES = [(1600, 1000), (390, 844)]


def _axe(page: Page) -> list[dict[str, Any]]:
    """axe-core's serious and critical violations on the page as it is now."""
    from axe_playwright_python.sync_playwright import Axe

    violations = Axe().run(page).response["violations"]
    return [{"id": v["id"], "impact": v["impact"], "nodes": [n["target"] for n in v["nodes"]][:3]}
            for v in violations if v["impact"] in BLOCKING]


def _focused(page: Page) -> dict[str, Any]:
    return page.evaluate(FOCUSED)  # type: ignore[no-any-return]


def _tab_to(page: Page, predicate: Any, limit: int = 80, here: bool = False) -> dict[str, Any]:
    """Press Tab until ``predicate(focused)`` holds (at most ``limit`` presses); returns the focused element.

    ``here``: the focus may already be there, or behind it (where a pressed button left it): look first, then
    Tab forwards, then Shift+Tab backwards.
    """
    focused = _focused(page)
    if here and predicate(focused):
        return focused
    for key in ("Tab", "Shift+Tab") if here else ("Tab",):
        for _ in range(limit):
            page.keyboard.press(key)
            focused = _focused(page)
            if predicate(focused):
                return focused
    buttons = page.evaluate("lpDeep('.bk-btn').filter((b) => !b.disabled).map((b) => b.textContent)")
    raise AssertionError(f"Tab never reached the element (last: {focused}; enabled buttons: {buttons})")


def test_the_tab_list_follows_the_tabs_pattern_and_a_turn_is_played_without_the_mouse(
        server: str, page: Page, screenshot_dir: Path) -> None:
    errors = _errors(page)
    page.set_viewport_size({"width": 1600, "height": 1000})
    page.add_init_script(DEEP)
    _open(page, server)
    page.wait_for_function("lpDeep('.bk-tab[role=tab]').length > 0")
    tabs = page.evaluate(TABS)
    assert tabs["list"] == ["tablist"]
    assert set(tabs["roles"]) == {"tab"}
    assert tabs["selected"][0] == "true" and set(tabs["selected"][1:]) == {"false"}
    assert tabs["order"] == [0] + [-1] * (len(tabs["names"]) - 1), "only the open tab is in the Tab order"
    # the first Tab press reaches the open tab's header, which shows the 3 px ring
    focused = _tab_to(page, lambda f: "bk-tab" in f["cls"], limit=5)
    assert focused["text"] == "Play" and focused["outline"] == "3px solid"
    names = tabs["names"]
    # the arrow keys walk every tab (and wrap); Enter opens the one with the focus
    for k in range(1, len(names)):
        page.keyboard.press("ArrowRight")
        page.wait_for_function(f"(() => {{ const r = {TABS}; return r.focused === {names[k]!r}; }})()")
        page.keyboard.press("Enter")
        page.wait_for_function(f"(() => {{ const r = {TABS}; return r.selected[{k}] === 'true'; }})()")
    assert errors == []
    page.keyboard.press("ArrowRight")  # wraps to the first
    page.wait_for_function(f"(() => {{ const r = {TABS}; return r.focused === {names[0]!r}; }})()")
    page.keyboard.press("End")
    page.wait_for_function(f"(() => {{ const r = {TABS}; return r.focused === {names[-1]!r}; }})()")
    page.keyboard.press("Home")
    page.wait_for_function(f"(() => {{ const r = {TABS}; return r.focused === {names[0]!r}; }})()")
    page.keyboard.press(" ")
    page.wait_for_function(f"(() => {{ const r = {TABS}; return r.selected[0] === 'true' && r.order[0] === 0; }})()")
    page.screenshot(path=str(screenshot_dir / "a11y-tab-focus-1600.png"))
    # a turn with Tab and Enter only: Roll; Ana lands on a station: Buy, Stay (no train); End turn
    assert _tab_to(page, lambda f: f["tag"] == "BUTTON" and f["text"].startswith("Roll"))["outline"] == "3px solid"
    page.keyboard.press("Enter")
    expect(shown_text(page, "Ana rolled").first).to_be_visible()
    # Roll is off now: the focus went to the nearest button that is on, not to the page's body
    page.wait_for_function(f"(() => {{ const f = {FOCUSED}; return f.tag === 'BUTTON'; }})()", timeout=10_000)
    _tab_to(page, lambda f: f["tag"] == "BUTTON" and f["text"].startswith("Buy"), here=True)
    page.keyboard.press("Enter")
    expect(shown_text(page, "Ana bought").first).to_be_visible()
    _tab_to(page, lambda f: f["tag"] == "BUTTON" and f["text"] == "Stay", here=True)  # a station offers the train: she stays
    page.keyboard.press("Enter")
    _tab_to(page, lambda f: f["tag"] == "BUTTON" and f["text"].startswith("End turn"), here=True)
    page.keyboard.press("Enter")
    expect(page.get_by_text("Round 1 (turn 2)").first).to_be_visible()
    assert errors == []


def test_cards_and_switches_have_names_a_ring_and_a_switch_toggles_from_its_text(
        server: str, page: Page, screenshot_dir: Path) -> None:
    page.set_viewport_size({"width": 1600, "height": 1000})
    page.add_init_script(DEEP)
    _open(page, server)
    page.wait_for_function("lpDeep('[role=switch][aria-label]').length === 2")
    names = page.evaluate("lpDeep('[role=switch]').map((s) => s.getAttribute('aria-label'))")
    assert all(names) and len(set(names)) == 2
    cards = page.evaluate("lpDeep('button.card-header').map((b) => [b.getAttribute('aria-label'), b.getAttribute('aria-expanded')])")
    assert ["Build, sell, mortgage", "true"] in cards and ["Trade", "false"] in cards
    focused = _tab_to(page, lambda f: f["label"] == "Build, sell, mortgage")
    assert focused["outline"] == "3px solid"
    focused = _tab_to(page, lambda f: f["label"] == "Trade")
    assert focused["outline"] == "3px solid"
    page.keyboard.press("Enter")  # opens the trade card
    page.wait_for_function("lpDeep('button.card-header').some((b) => b.getAttribute('aria-label') === 'Trade'"
                           " && b.getAttribute('aria-expanded') === 'true')")
    # the switch's knob takes the focus and shows the ring; clicking the switch's text toggles it
    odds = page.locator(".lp-odds-switch")
    expect(odds).to_have_attribute("aria-checked", "false")
    page.locator(".lp-switch-label").first.click()
    expect(odds).to_have_attribute("aria-checked", "true")
    page.locator(".lp-switch-label").first.click()
    expect(odds).to_have_attribute("aria-checked", "false")
    knob = _tab_to(page, lambda f: "bk-knob" in f["cls"] or "knob" in f["cls"])
    assert knob["outline"] == "3px solid"
    page.screenshot(path=str(screenshot_dir / "a11y-switch-focus-1600.png"))


@pytest.mark.parametrize(("width", "height"), SIZES)
@pytest.mark.parametrize("lang", ["en", "es"])
def test_axe_finds_no_serious_violation_on_the_play_tab(server: str, page: Page, lang: str, width: int, height: int,
                                                        screenshot_dir: Path) -> None:
    page.set_viewport_size({"width": width, "height": height})
    page.add_init_script(DEEP)
    _open(page, server)
    if lang == "es":
        page.get_by_role("button", name="Español").click()
        expect(_button(page, "Tirar")).to_be_visible()
    page.wait_for_function("lpDeep('[role=switch][aria-label]').length === 2")
    assert _axe(page) == []
    page.screenshot(path=str(screenshot_dir / f"a11y-play-{lang}-{width}.png"))


#: The open tab's panel has been drawn: the panel beside the tab list that is not hidden has something in it.
DRAWN = """(() => {
  const header = lpDeep('.bk-headers-wrapper')[0].parentElement;
  const panel = [...header.parentNode.children].find((e) => e !== header && e.shadowRoot && e.getAttribute('aria-hidden') !== 'true');
  return !!panel && [...panel.shadowRoot.children].some((e) => !['STYLE', 'LINK'].includes(e.tagName) && e.shadowRoot
                                                             && e.shadowRoot.children.length > 0);
})()"""

#: Every tab besides Play (English names).
OTHER_TABS = ["Players", "Probability", "Replay", "Rules", "New game", "For teachers", "Save and load", "Invite", "My games"]


#: Each of them in the page's languages: English and Spanish, at 1600 x 1000 (the phone's pass is the Play tab's).
TAB_PASSES = [("en", name) for name in OTHER_TABS] + [("es", name) for name in OTHER_TABS]


@pytest.mark.parametrize(("lang", "name"), TAB_PASSES)
def test_axe_finds_no_serious_violation_on_the_other_tabs(server: str, page: Page, lang: str, name: str) -> None:
    from laspoly.ui.app import TABS
    from laspoly.ui.i18n import tr

    title = tr(next(tab.key for tab in TABS if tr(tab.key, "en") == name), lang)
    page.set_viewport_size({"width": 1600, "height": 1000})
    page.add_init_script(DEEP)
    _open(page, server)
    if lang == "es":
        page.get_by_role("button", name="Español").click()
        expect(_button(page, "Tirar")).to_be_visible()
    _tab(page, title)
    page.wait_for_function(f"lpDeep('.bk-tab.bk-active')[0].textContent.trim() === {title!r}")
    page.wait_for_function(DRAWN)
    page.wait_for_function("lpDeep('.bk-spin-btn:not([aria-hidden])').length === 0")
    assert _axe(page) == []


def test_after_a_roll_the_live_region_and_the_landed_fields_row_are_in_the_accessibility_tree(
        server: str, page: Page) -> None:
    errors = _errors(page)
    page.set_viewport_size({"width": 1600, "height": 1000})
    page.add_init_script(DEEP)
    _open(page, server)
    news = page.get_by_role("status", name="Last move")
    table = page.get_by_role("table", name="The board, field by field")
    expect(table.get_by_role("columnheader", name="Tokens")).to_be_attached()
    _button(page, "Roll").click()
    expect(news).to_have_text(re.compile(r"^Ana rolled \d and \d and landed on [^.,]+"))
    landed = re.match(r"^Ana rolled \d and \d and landed on ([^.,]+)", news.text_content() or "")
    assert landed is not None, repr(news.text_content())
    field = landed.group(1)
    # the region is a polite status whose words are in the accessibility tree; the field's row names Ana's token
    expect(news).to_match_aria_snapshot(f'- status "Last move": /Ana rolled \\d and \\d and landed on {re.escape(field)}.*/')
    row = table.get_by_role("row").filter(has=page.get_by_role("rowheader", name=field, exact=True))
    expect(row).to_have_count(1)
    expect(row.get_by_role("cell").last).to_have_text(re.compile(r"\bAna\b"))
    assert "Ana" in row.aria_snapshot()
    assert errors == []
