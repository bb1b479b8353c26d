"""The Play tab as a game table, in a real browser: the lab, one selection, a hot seat and the end of a game.

Each test drives a real ``laspoly serve`` (the session's ``server`` fixture)
with Playwright and the system Chromium, and reads what a student would see.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect
from test_browser import _button, _errors, _input, _new_game, _open, _tab

pytestmark = pytest.mark.browser
expect.set_options(timeout=15_000)

LOCK_ERROR = "_pending_writes should be non-None"


def test_the_lab_and_autoplay_run_on_a_served_page_without_a_lock_error(server: str, server_log: Path, page: Page) -> None:
    errors = _errors(page)
    _open(page, server)
    _tab(page, "Probability")
    games = _input(page, "Games")
    games.fill("8")
    games.press("Enter")
    _button(page, "Run lab").click()
    expect(page.get_by_text(re.compile(r"^8 games, seats rotated"))).to_be_visible(timeout=60_000)
    expect(_button(page, "Run lab")).to_be_enabled()
    # the other background work of a page (the room's poll, autoplay's timer) changes the page under the lock too
    _tab(page, "Invite")
    _input(page, "Seat 1: Ana").select_option("basic")
    _tab(page, "Play")
    _button(page, "Autoplay").click()
    expect(page.get_by_text(re.compile(r"^Round [3-9]")).first).to_be_visible(timeout=60_000)
    # the page redraws every turn while autoplay runs, and a loaded machine may never see the button at rest:
    # the click event itself is what is tested here, not Playwright's wait for a still layout
    _button(page, "Autoplay").dispatch_event("click")
    expect(_button(page, "Autoplay")).not_to_have_class(re.compile(r"bk-active"), timeout=30_000)
    assert LOCK_ERROR not in server_log.read_text(errors="replace")
    assert errors == []


def test_the_property_list_and_the_board_share_one_selection(server: str, page: Page) -> None:
    """Choosing a property in the list enables the buttons for it, with no stale reason."""
    _open(page, server)
    _new_game(page, ["Ana", "Ben"], ["person", "basic"], seed=4, dice="1-2 1-1 1-2 1-1 3-4")
    _button(page, "Roll").click()  # Ana lands on her first street and buys it
    _button(page, "Buy").click()
    expect(page.get_by_text("Ana bought", exact=False).first).to_be_visible()
    _input(page, "Property").select_option(index=1)
    expect(page.get_by_text(re.compile(r"^Price 80 LPD · mortgage"))).to_be_visible()  # the property card follows the list
    expect(_button(page, "Mortgage")).to_be_enabled()
    _button(page, "Mortgage").click()
    expect(page.get_by_text("Ana mortgaged", exact=False).first).to_be_visible()
    expect(_button(page, "Repay")).to_be_enabled()


def test_two_people_share_the_owners_screen_in_turn(server: str, page: Page, screenshot_dir: Path) -> None:
    """Hot seat: Ben's seat, which no link has claimed, plays on the owner's device; the header says whose turn it is."""
    _open(page, server)
    _new_game(page, ["Ana", "Ben"], ["person", "person"], seed=4, dice="1-2 1-2")
    expect(page.locator(".lp-turn-title", has_text="Ana, your turn")).to_be_visible()
    _button(page, "Roll").click()
    _button(page, "Don't buy").click()
    _button(page, "End turn").click()
    expect(page.locator(".lp-turn-title", has_text="Ben, your turn")).to_be_visible()
    expect(_button(page, "Roll")).to_be_enabled()
    _button(page, "Roll").click()
    expect(page.get_by_text("Ben rolled 1 and 2.", exact=True)).to_be_visible()
    page.screenshot(path=str(screenshot_dir / "dashboard-hot-seat.png"))


def test_a_finished_game_shows_the_winner_standings_and_a_rematch(server: str, page: Page, screenshot_dir: Path) -> None:
    errors = _errors(page)
    _open(page, server)
    _new_game(page, ["Ana", "Ben", "Cy"], ["person", "basic", "greedy"], seed=11)
    _button(page, "Run to end").click()
    winner = page.locator(".lp-winner")
    expect(winner).to_be_visible(timeout=60_000)
    expect(winner.get_by_text("Seed 11", exact=False)).to_be_visible()
    for name in ("Ana", "Ben", "Cy"):
        expect(winner.get_by_role("cell", name=name, exact=True)).to_be_visible()  # a cell of its own: not "Venetian Canal"
    page.screenshot(path=str(screenshot_dir / "dashboard-winner.png"))
    with page.expect_navigation(timeout=60_000):
        _button(page, "Rematch (same seed)").click()
    expect(_button(page, "Roll")).to_be_visible(timeout=60_000)
    expect(page.locator(".lp-winner")).to_be_hidden()
    assert errors == []


def test_a_chosen_me_in_two_browsers_gives_each_its_own_key_and_an_unplayed_page_stores_nothing(
        browser, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from urllib.parse import parse_qs, urlsplit

    from servers import start_server

    from laspoly.server.store import open_store

    db = f"sqlite:///{tmp_path / 'rooms.db'}"
    proc, url = start_server(db)
    chosen = "attackerChosenKey0000000"
    try:
        pages, keys = [], []
        for _ in range(2):  # the victim's browser and the attacker's, both from the attacker's link
            page = browser.new_context().new_page()
            _open(page, f"{url}?me={chosen}")
            page.wait_for_url(re.compile("room="), timeout=30_000)
            keys.append(parse_qs(urlsplit(page.url).query)["me"][0])
            pages.append(page)
        assert chosen not in keys and len(set(keys)) == 2
        store = open_store(db)
        assert store.rooms_of(keys[0]) == store.rooms_of(keys[1]) == []  # two pages nobody played: no room
        victim, attacker = pages
        _button(victim, "Roll").click()
        expect(victim.get_by_text("Ana rolled", exact=False).first).to_be_visible(timeout=30_000)
        assert len(store.rooms_of(keys[0])) == 1 and store.rooms_of(chosen) == [] and store.rooms_of(keys[1]) == []
        attacker.reload()  # an unplayed page's address, reloaded: a new game, not a refused link
        expect(_button(attacker, "Roll")).to_be_visible(timeout=60_000)
        expect(attacker.get_by_text("not valid", exact=False)).to_have_count(0)
        _tab(attacker, "My games")
        expect(attacker.get_by_text("No saved games yet.", exact=True)).to_be_visible()  # nothing of the victim's
    finally:
        proc.terminate()
        proc.wait(timeout=20)
