"""The projector's view and the Invite tab, in a real browser, in English and Spanish, at several screen sizes.

Each test opens a room made straight in the server's database (so its language
and dice are known) and reads what the class would see: the watch link shows
the board, the player cards, the pot and the log, in large type and with no
control at all, and follows a move made on the owner's page; the Invite tab
shows a QR code of each link and a copy button that puts it on the clipboard.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import segno
from pages import settled
from playwright.sync_api import Page, expect
from servers import serving_rooms
from test_browser import _button, _errors

from laspoly.engine import actions as A
from laspoly.engine.game import Game
from laspoly.server.rooms import new_owner_key, open_room, owner_link
from laspoly.server.store import Store
from laspoly.ui.board import centre_data
from laspoly.ui.i18n import tr
from laspoly.ui.model import GameModel

pytestmark = pytest.mark.browser
expect.set_options(timeout=15_000)

NAMES = ["Ana", "Ben", "Cy"]
SEATS = ["person", "person", "basic"]
DICE = "1-3 1-2 2-4"
#: The issue's screens: a projector or laptop, a small laptop, an old projector, and a tablet upright.
VIEWPORTS = [(1600, 1000), (1280, 720), (1024, 768), (768, 1024)]
#: Anything a person could click or type into.
CONTROLS = "button, input, select, textarea, [role=button], [role=tab], [role=slider], [contenteditable=true]"


@pytest.fixture(scope="module")
def room_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Store]]:
    """A ``laspoly serve`` of this module's own, and its store, in which the tests open rooms."""
    with serving_rooms(tmp_path_factory.mktemp("projector")) as served:
        yield served


def _room(room_server: tuple[str, Store], lang: str) -> tuple[str, dict[str, str], Game]:
    """A new room of Ana and Ben (people) and Cy (a bot) with scripted dice: the owner's link, every link, the game."""
    url, store = room_server
    me = new_owner_key()
    game = Game(NAMES, seed=4, dice=DICE)
    table = open_room(store, game, SEATS, me, lang=lang)
    links = {label: url.rstrip("/") + "/" + query for label, query in table.links().items()}
    return url.rstrip("/") + "/" + owner_link(me, table.room_id), links, game


def _in_english(page: Page) -> None:
    """Show the owner's own page in English (the room, and so the projector, keeps its language)."""
    page.locator(".bk-btn-group button", has_text=re.compile(r"^(English|Inglés)$")).first.click()
    expect(_button(page, "Roll")).to_be_visible(timeout=60_000)


def _fits(page: Page, width: int, height: int, parts: str = "") -> None:
    """No sideways scrolling at this screen size: of the whole page, or of its ``parts`` (a CSS selector)."""
    page.set_viewport_size({"width": width, "height": height})
    settled(page)  # the layout settles after a resize
    if not parts:
        assert page.evaluate("document.documentElement.scrollWidth") <= width, f"sideways scrolling at {width}x{height}"
        return
    for box in (page.locator(parts).nth(k).bounding_box() for k in range(page.locator(parts).count())):
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width + 1, f"{parts} overflows at {width}x{height}"


def _px(locator: Any, prop: str = "font-size") -> float:
    return float(locator.evaluate(f"e => parseFloat(getComputedStyle(e).getPropertyValue('{prop}'))"))


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_watch_link_shows_the_game_in_large_type_with_no_controls_and_follows_the_owner(
        lang: str, room_server: tuple[str, Store], browser: Any, screenshot_dir: Path) -> None:
    owner_url, links, game = _room(room_server, lang)
    projector = browser.new_page(viewport={"width": 1600, "height": 1000})
    errors = _errors(projector)
    projector.goto(links["spectator"], timeout=60_000)
    cards = projector.locator(".lp-card")
    expect(cards).to_have_count(len(NAMES), timeout=60_000)
    expect(projector.locator(".lp-log li").first).to_have_text(game.describe(game.log[-1], lang))

    # the owner rolls on their own page; the projector shows the dice, the move and the log line by itself
    owner = browser.new_page(viewport={"width": 1600, "height": 1000})
    owner.goto(owner_url, timeout=60_000)
    if lang != "en":
        _in_english(owner)
    expect(_button(owner, "Roll")).to_be_enabled(timeout=60_000)
    seen = len(game.log)
    game.apply(A.Roll(0))
    _button(owner, "Roll").click()
    model = GameModel(game, lang=lang)
    roll, _, _, move, _ = centre_data(model)["lines"]["text"]
    expect(projector.locator(".lp-turn-roll")).to_have_text(roll)
    expect(projector.locator(".lp-turn-move")).to_have_text(move.replace("\n", " "))
    expect(projector.locator(".lp-log li").first).to_have_text(game.describe(game.log[-1], lang))
    assert game.describe(game.log[seen], lang) in projector.locator(".lp-log").inner_text()
    expect(projector.locator(".lp-projector-status")).to_have_text(model.status())
    expect(projector.locator(".lp-turn-pot")).to_have_text(centre_data(model)["head"]["text"][0])
    expect(projector.get_by_text(tr("projector.this_turn", lang), exact=True)).to_be_visible()
    for k, name in enumerate(NAMES):
        expect(cards.nth(k)).to_contain_text(name)
        expect(cards.nth(k)).to_contain_text(game.money(game.players[k].cash))
    expect(cards.nth(0)).to_have_attribute("aria-current", "true")  # Ana's turn

    assert projector.locator(CONTROLS).count() == 0, "the projector's view has nothing to click or type into"
    for width, height in VIEWPORTS:
        _fits(projector, width, height)
        board = projector.locator("canvas").first.bounding_box()
        assert board is not None and board["width"] >= min(0.5 * width, 0.8 * height) - 60, f"a small board at {width}x{height}"
        assert board["x"] + board["width"] <= width + 1 and board["y"] + board["height"] <= height + 1, \
            f"the board does not fit the screen at {width}x{height}"
        assert _px(projector.locator(".lp-projector-status")) >= 28, "the turn reads from the back of the room"
        assert _px(cards.first.locator(".lp-card-cash")) >= 30 and _px(projector.locator(".lp-log li").first) >= 20
        projector.screenshot(path=str(screenshot_dir / f"projector-{lang}-{width}x{height}.png"))
    assert errors == []


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_invite_tab_shows_a_qr_code_and_a_copy_button_for_every_link(
        lang: str, room_server: tuple[str, Store], browser: Any, screenshot_dir: Path) -> None:
    owner_url, links, _ = _room(room_server, lang)
    context = browser.new_context(viewport={"width": 1600, "height": 1000}, permissions=["clipboard-read", "clipboard-write"])
    page = context.new_page()
    errors = _errors(page)
    page.goto(owner_url, timeout=60_000)
    page.locator(".bk-tab", has_text=re.compile(r"^(Invite|Invitar)$")).first.click()
    rows = page.locator(".lp-invite-text")
    expect(rows).to_have_count(len(links), timeout=30_000)
    codes = page.locator(".lp-qr svg")
    expect(codes).to_have_count(len(links))
    copies = page.get_by_role("button", name=tr("invite.copy", lang), exact=True)
    expect(copies).to_have_count(len(links))
    labels = [tr("invite.seat", lang, n=k + 1) for k in range(len(NAMES))] + [tr("invite.watch", lang)]
    for k, (label, link) in enumerate(zip(labels, links.values(), strict=True)):
        expect(rows.nth(k)).to_contain_text(label)
        expect(rows.nth(k).locator("code")).to_have_text(link)
        # the code on the page is the link beside it, as segno encodes it
        expected = segno.make(link, error="m").svg_inline(scale=4, border=4, lineclass="qrline")
        drawn = re.search(r'class="qrline"[^>]* d="([^"]+)"', expected)
        assert drawn is not None and codes.nth(k).locator("path.qrline").get_attribute("d") == drawn.group(1)
    spectator = page.locator(".lp-copy button").last  # by place: its name changes while it says the link was copied
    spectator.click()
    expect(spectator).to_have_text(tr("invite.copied", lang))
    assert page.evaluate("navigator.clipboard.readText()") == links["spectator"]
    for width, height in [(1600, 1000), (768, 1024)]:
        _fits(page, width, height, ".lp-invite-text, .lp-qr, .lp-copy")
        box = codes.first.bounding_box()
        assert box is not None and box["width"] >= 150, "a code a phone can read from a screen"
        page.screenshot(path=str(screenshot_dir / f"invite-{lang}-{width}x{height}.png"), full_page=True)
    assert errors == []
    context.close()
