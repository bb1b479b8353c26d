"""Real-browser tests: Playwright with the system Chromium against a real ``laspoly serve``."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest
from pages import settled, shown_text
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser
# a loaded 2-core machine can take more than Playwright's default 5 s to push an update to the page
expect.set_options(timeout=15_000)

SCRIPT = "3-4 6-5 1-2 3-4 1-1 3-4 2-3 1-2 1-2 2-3"
#: Actions autoplay must have stored before the server is killed in the middle of it.
AUTOPLAY_ACTIONS = 30


def _errors(page: Page) -> list[str]:
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    return errors


def _outside_requests(page: Page) -> list[str]:
    """Requests the page makes to any host but the laspoly server (a classroom may have no internet)."""
    urls: list[str] = []
    page.on("request", lambda r: urls.append(r.url) if r.url.startswith("http") and not re.match(r"https?://(localhost|127\.0\.0\.1)[:/]", r.url) else None)
    return urls


def _button(page: Page, name: str):  # type: ignore[no-untyped-def]
    """The button labelled ``name``, or ``name`` with its stakes in brackets ("Buy (80 LPD)", "Roll (tries left: 2)")."""
    return page.get_by_role("button", name=re.compile(rf"^{re.escape(name)}( \(.+\))?$"))


def _tab(page: Page, name: str) -> None:
    page.locator(".bk-tab", has_text=name).first.click()


def _input(page: Page, label: str, nth: int = 0):  # type: ignore[no-untyped-def]
    """The input or select whose label reads exactly ``label``."""
    return page.locator(f".bk-input-group:has(> label:text-is('{label}'))").nth(nth).locator("input, select").first


#: The seed of a new page's game in these tests, where Ana rolls first: without one, every page draws its own.
SEED = 7


def _seeded(url: str) -> str:
    """``url`` asking for the tests' seed when it opens a new game (a room's link opens the room's own game)."""
    return url if "room=" in url or "seed=" in url else url + ("&" if "?" in url else "?") + f"seed={SEED}"


def _open(page: Page, url: str, whole: bool = True) -> None:
    """Open the dashboard (a new page's game with the tests' :data:`SEED`); with ``whole``, wait for the log too.

    The turn's buttons arrive first and the rest of the tab in later pieces.  ``whole=False`` stops at
    the buttons, for tests of pages closed while the rest is still on its way.
    """
    page.goto(_seeded(url), timeout=60_000)
    expect(_button(page, "Roll")).to_be_visible(timeout=60_000)
    if whole:
        expect(page.get_by_role("heading", name="Log (newest first)")).to_be_visible(timeout=60_000)


def _new_game(page: Page, names: list[str], seats: list[str], seed: int, dice: str = "") -> None:
    _tab(page, "New game")
    for k, name in enumerate(names):
        box = _input(page, f"Player {k + 1}")
        box.fill(name)
        box.press("Enter")
        _input(page, "Seat", k).select_option(seats[k])
    seed_box = _input(page, "Seed")
    seed_box.fill(str(seed))
    seed_box.press("Enter")
    if dice:
        dice_box = _input(page, "Scripted dice (optional), e.g. 6-6 2-3")
        dice_box.fill(dice)
        dice_box.press("Enter")
    with page.expect_navigation(timeout=60_000):
        _button(page, "New game").click()
    expect(_button(page, "Roll")).to_be_visible(timeout=60_000)


def _status(page: Page):  # type: ignore[no-untyped-def]
    return page.get_by_text(re.compile(r"^Round \d+ \(turn \d+\)")).first


def test_play_a_whole_game_by_clicking(server: str, page: Page, screenshot_dir: Path) -> None:
    errors = _errors(page)
    _open(page, server)
    _new_game(page, ["Ana", "Trader", "Bot"], ["person", "trader", "basic"], seed=4, dice=SCRIPT)
    expect(page.get_by_text("Round 1 (turn 1): Ana to play.")).to_be_visible()
    _button(page, "Roll").click()
    expect(page.get_by_text("Round 1 (turn 1): Ana to decide whether to buy.")).to_be_visible()
    _button(page, "Buy").click()
    _input(page, "Property").select_option(label="Hoover Dam Road")
    _button(page, "Build house").click()
    expect(shown_text(page, "Ana built a house on Hoover Dam Road for 50 LPD.")).to_be_visible()
    _button(page, "End turn").click()
    _button(page, "Next").click()
    _button(page, "Next").click()
    expect(page.get_by_text("Round 2 (turn 4): Ana to play.")).to_be_visible()
    _button(page, "Roll").click()
    _button(page, "Buy").click()
    # a trade: Ana offers Bot 130 LPD for Glitter Gulch; the bot answers on its turn
    page.locator(".card-header", has_text="Trade").first.click()
    _input(page, "Trade with").select_option(label="Bot")
    get_box = page.locator(".bk-input-group:has(> label:text-is('You get'))").first
    take = get_box.locator("input.choices__input--cloned").first
    # the partner's properties arrive from the server after "Trade with" changes: wait for them first
    expect(get_box.locator(".choices__item--choice", has_text="Glitter Gulch")).not_to_have_count(0)
    take.click()
    take.fill("Glitter")
    take.press("Enter")
    expect(get_box.locator(".choices__list--multiple .choices__item", has_text="Glitter Gulch").first).to_be_visible()
    cash = _input(page, "Cash you pay (negative: you receive)")
    cash.fill("130")
    cash.press("Tab")  # the value goes to the server before the click below: one connection, in order
    expect(_button(page, "Propose trade")).to_be_enabled()
    _button(page, "Propose trade").click()
    try:
        expect(shown_text(page, "Ana offered trade #1 to Bot.")).to_be_visible()
        expect(page.get_by_text("you get Glitter Gulch, you pay 130 LPD", exact=False)).to_be_visible()
    finally:
        page.screenshot(path=str(screenshot_dir / "dashboard-trade.png"), full_page=True)
    _button(page, "End turn").click()
    _button(page, "Next").click()
    _button(page, "Next").click()
    expect(shown_text(page, "Bot accepted trade #1 from Ana.")).to_be_visible()
    _button(page, "Roll").click()
    _button(page, "End turn").click()
    _button(page, "Next").click()
    _button(page, "Next").click()
    # the trader's offer for Graceland Avenue waits for Ana's answer on her turn
    expect(_button(page, "Accept offer")).to_be_visible()
    _button(page, "Accept offer").click()
    expect(shown_text(page, "Ana accepted trade #2 from Trader.")).to_be_visible()
    _button(page, "Autoplay").click()
    _button(page, "Run to end").click()
    expect(page.get_by_text("wins", exact=False).first).to_be_visible(timeout=60_000)
    page.screenshot(path=str(screenshot_dir / "dashboard-game-over.png"), full_page=True)
    assert errors == []


def _upload_during_a_game(page: Page, server: str, path: Path) -> str:
    """Open the dashboard, roll once, and upload ``path`` under "Save and load"; returns the status before."""
    _open(page, server)
    _button(page, "Roll").click()
    expect(shown_text(page, "Ana rolled", exact=False)).to_be_visible()
    status_before = str(_status(page).inner_text())
    _tab(page, "Save and load")
    page.locator("input[type=file]").first.set_input_files(str(path))
    return status_before


def test_a_corrupt_save_file_shows_an_error_and_keeps_the_game(server: str, page: Page, tmp_path: Path) -> None:
    errors = _errors(page)
    outside = _outside_requests(page)
    bad = tmp_path / "broken.json"
    bad.write_text('{"format": "laspoly-save", "version": 1, "setup": {"players": ["A"')
    status_before = _upload_during_a_game(page, server, bad)
    expect(page.get_by_text("Could not load broken.json", exact=False).first).to_be_visible(timeout=20_000)
    _tab(page, "Play")
    expect(page.get_by_text(status_before, exact=True)).to_be_visible()
    assert outside == []
    assert errors == []


def test_a_file_over_the_size_limit_is_refused_in_the_browser(server: str, page: Page, tmp_path: Path) -> None:
    from pages import SENT

    huge = tmp_path / "huge.json"
    huge.write_bytes(b" " * 6_000_000)  # over the 5 MB limit of laspoly.record.MAX_SAVE_BYTES
    page.add_init_script(SENT)
    status_before = _upload_during_a_game(page, server, huge)
    expect(page.get_by_text("File is too large", exact=False).first).to_be_visible()
    assert page.evaluate("Math.max(0, ...lpSent.map((m) => m.length))") < 1_000_000, "the file went to the server"
    expect(page.get_by_text("Could not load", exact=False)).to_have_count(0)
    _tab(page, "Play")
    expect(page.get_by_text(status_before, exact=True)).to_be_visible()


def test_two_browser_contexts_keep_separate_games_and_closing_one_leaves_the_other(server: str, browser) -> None:  # type: ignore[no-untyped-def]
    a, b = browser.new_context().new_page(), browser.new_context().new_page()
    _open(a, server)
    _open(b, server)
    _button(a, "Roll").click()
    expect(shown_text(a, "Ana rolled", exact=False)).to_be_visible()
    settled(b)  # anything on its way to b has arrived
    expect(shown_text(b, "Ana rolled", exact=False)).to_have_count(0)
    expect(b.get_by_text("Round 1 (turn 1): Ana to play.")).to_be_visible()
    a.context.close()
    _button(b, "Roll").click()
    expect(shown_text(b, "Ana rolled", exact=False)).to_be_visible()


def test_pages_closed_while_the_play_tab_is_still_arriving_leave_no_error_on_the_server(tmp_path: Path, browser) -> None:  # type: ignore[no-untyped-def]
    from servers import start_server

    log = tmp_path / "server.log"
    proc, url = start_server(f"sqlite:///{tmp_path / 'rooms.db'}", log=log)
    try:
        for _ in range(6):  # the turn's buttons come first; the board and the rest are still on their way
            page = browser.new_page()
            _open(page, url, whole=False)
            page.close()
        page = browser.new_page()
        _open(page, url)
        _button(page, "Roll").click()
        expect(shown_text(page, "Ana rolled", exact=False)).to_be_visible()
        page.close()
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    assert "never retrieved" not in log.read_text(errors="replace")
    assert log.read_text(errors="replace").count("connection was closed") <= 7  # at most one line per page (laspoly.server.serving)


def test_a_hostile_player_name_is_shown_as_text(server: str, page: Page, screenshot_dir: Path) -> None:
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    _open(page, server)
    hostile = "<img src=x onerror=alert(1)>"
    _new_game(page, [hostile, "Ben"], ["person", "basic"], seed=4)
    _button(page, "Roll").click()
    expect(shown_text(page, f"{hostile} rolled", exact=False)).to_be_visible()
    _tab(page, "Players")
    expect(page.get_by_text(hostile).first).to_be_visible()
    settled(page)  # the tab drawn whole: a script in the name would have run by now
    assert dialogs == []
    page.screenshot(path=str(screenshot_dir / "dashboard-hostile-name.png"))


def test_save_game_downloads_json(server: str, page: Page) -> None:
    _open(page, server)
    _button(page, "Roll").click()
    _tab(page, "Save and load")
    with page.expect_download() as info:
        _button(page, "Save game").click()
    data = json.loads(Path(info.value.path()).read_text())
    assert data["format"] == "laspoly-save" and data["actions"][0]["type"] == "Roll"


def _finish_turn(page: Page) -> None:
    """Decline, stay and roll again as needed until the turn can end, then end it."""
    for _ in range(20):
        settled(page)  # the last click answered
        if _button(page, "End turn").is_enabled():
            _button(page, "End turn").click()
            return
        for name in ("Don't buy", "Stay", "Roll"):
            if _button(page, name).is_visible() and _button(page, name).is_enabled():
                _button(page, name).click()
                break
    raise AssertionError("the turn could not be ended")


def _invite_link(page: Page, label: str) -> str:
    _tab(page, "Invite")
    row = page.locator(".lp-invite-text", has_text=label).first
    expect(row.locator("code")).to_contain_text("http", timeout=15_000)
    return str(row.locator("code").inner_text()).strip()


@pytest.mark.parametrize("procs", [1, 2])
def test_two_seats_of_one_room_in_two_browsers_and_a_spectator(procs: int, browser, screenshot_dir: Path,  # type: ignore[no-untyped-def]
                                                                tmp_path: Path) -> None:
    """One server process, or two (panel serve --num-procs 2) sharing the room through the database."""
    from servers import start_server

    proc, server = start_server(f"sqlite:///{tmp_path / 'rooms.db'}", num_procs=procs)
    try:
        _two_seats(browser, server, screenshot_dir)
    finally:
        proc.terminate()
        proc.wait(timeout=20)


def _two_seats(browser, server: str, screenshot_dir: Path) -> None:  # type: ignore[no-untyped-def]
    a = browser.new_context().new_page()
    errors = _errors(a)
    outside = _outside_requests(a)
    _open(a, server)
    _new_game(a, ["Ana", "Ben", "Cy"], ["person", "person", "basic"], seed=4, dice="1-3 1-2")
    seat2 = _invite_link(a, "seat 2")
    view = _invite_link(a, "spectator")
    b = browser.new_context().new_page()
    _open(b, seat2)
    c = browser.new_context().new_page()
    c.goto(view, timeout=60_000)  # the projector's view: the board, the cards and the log, with nothing to click
    expect(c.locator(".lp-card")).to_have_count(3, timeout=60_000)
    _tab(a, "Play")
    # Ana moves on her device; Ben and the projector see it within a second or two
    _button(a, "Roll").click()
    expect(b.get_by_text("Ana rolled 1 and 3.", exact=True)).to_be_visible(timeout=15_000)
    expect(c.get_by_text("Ana rolled 1 and 3.", exact=True)).to_be_visible(timeout=15_000)
    # neither Ben nor the spectator can act for Ana: the spectator's page has no controls at all
    expect(_button(b, "Roll")).to_be_disabled()
    expect(c.locator("button, input, select, textarea")).to_have_count(0)
    _button(a, "End turn").click()
    # Ben's turn, on Ben's device; now Ana cannot act
    expect(_button(b, "Roll")).to_be_enabled(timeout=15_000)
    expect(_button(a, "Roll")).to_be_disabled()
    _button(b, "Roll").click()
    expect(a.get_by_text("Ben rolled 1 and 2.", exact=True)).to_be_visible(timeout=15_000)
    _button(b, "Don't buy").click()
    _button(b, "End turn").click()
    # the bot in seat 3 moves by itself; then it is Ana's turn again, on every device
    expect(shown_text(a, "Cy rolled", exact=False)).to_be_visible(timeout=15_000)
    expect(c.get_by_text(re.compile(r"^Round 2 \(turn 4\): Ana"))).to_be_visible(timeout=15_000)
    # a reload keeps the game (read once Ben's page has caught up, with Ana, a person, to play)
    expect(b.get_by_text(re.compile(r"^Round 2 \(turn 4\): Ana"))).to_be_visible(timeout=15_000)
    status = _status(b).inner_text()
    b.reload()
    expect(b.get_by_text(status, exact=True)).to_be_visible(timeout=60_000)
    c.screenshot(path=str(screenshot_dir / "dashboard-spectator.png"))
    for name in ("Players", "Probability", "Rules", "Save and load", "Invite", "My games"):  # tabs render when first shown
        _tab(a, name)
        settled(a)
    assert errors == []
    assert outside == [], "every stylesheet and script must come from the laspoly server, not a CDN"


def test_a_room_survives_killing_the_server_during_autoplay(browser, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from servers import start_server

    from laspoly.record import replay
    from laspoly.server.store import open_store

    db = f"sqlite:///{tmp_path / 'rooms.db'}"
    proc, url = start_server(db)
    page = browser.new_page()
    _open(page, url)
    page.wait_for_url(re.compile("room="), timeout=15_000)
    _tab(page, "Invite")
    _input(page, "Seat 1: Ana").select_option("basic")
    _tab(page, "Play")
    room_url = page.url
    room_id = room_url.split("room=")[1].split("&")[0]
    store = open_store(db)
    _button(page, "Autoplay").click()
    # wait on the store, not the clock: a loaded machine may play a few actions in the time another plays dozens
    deadline = time.monotonic() + 180
    while store.count(room_id) < AUTOPLAY_ACTIONS:
        assert time.monotonic() < deadline, f"autoplay stored {store.count(room_id)} actions in 180 s"
        page.wait_for_timeout(200)
    proc.kill()  # SIGKILL in the middle of autoplay
    proc.wait(timeout=10)
    stored = store.actions(room_id)
    assert len(stored) >= AUTOPLAY_ACTIONS
    game = replay(store.room(room_id).setup, stored)
    assert replay(store.room(room_id).setup, stored).digest() == game.digest()
    port = int(url.rsplit(":", 1)[1].strip("/"))
    proc2, _ = start_server(db, port)
    try:
        page.goto(room_url, timeout=60_000)
        expect(page.get_by_text(f"Round {game.round} (turn {game.turns})", exact=False)).to_be_visible(timeout=60_000)
        assert store.count(room_id) == len(stored)
    finally:
        proc2.terminate()
        proc2.wait(timeout=10)
