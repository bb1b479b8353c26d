"""Nothing moves under the pointer and things show where a person looks, in a real browser.

The turn's buttons keep their boxes when a rent claim or a trade offer comes and when the lesson or predict
switch is turned on; the guess buttons are buttons beside Roll and the predict switch survives a reload; a
clicked field's card opens over the board; the lesson's legend and modes are in the first screen at 1024 x 768;
a 1920 x 1080 projector draws field names of 20 px or more and the "to play" badge on one line.
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

from laspoly.engine import actions as A
from laspoly.engine.game import Game
from laspoly.server.rooms import join_room, new_owner_key, open_room, owner_link, seat_token
from laspoly.server.store import Store
from laspoly.ui.board import SIDE, cell_xy
from laspoly.ui.model import GameModel

pytestmark = pytest.mark.browser
expect.set_options(timeout=15_000)

#: The turn's buttons, which must never move under the pointer.
TURN_BUTTONS = ("Roll", "End turn", "Next", "Autoplay", "Run to end", "Undo")


@pytest.fixture(scope="module")
def room_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Store]]:
    """A ``laspoly serve`` of this module's own, and its store, in which the tests open rooms."""
    with serving_rooms(tmp_path_factory.mktemp("layout")) as served:
        yield served


def _page(browser: Any, width: int, height: int) -> Page:
    return browser.new_context(viewport={"width": width, "height": height}).new_page()


def _boxes(page: Page, names: tuple[str, ...] = TURN_BUTTONS) -> dict[str, tuple[float, float, float]]:
    """Each button's place (left, top) and height, once the page holds still."""
    page.evaluate(DEEP)
    settled(page)
    out = {}
    for name in names:
        box = _button(page, name).bounding_box()
        assert box is not None, name
        out[name] = (round(box["x"], 1), round(box["y"], 1), round(box["height"], 1))
    return out


def _moved(before: dict[str, tuple[float, float, float]], after: dict[str, tuple[float, float, float]]) -> dict[str, Any]:
    return {name: (before[name], after[name]) for name in before if any(abs(a - b) > 0.5 for a, b in zip(before[name], after[name], strict=True))}


def _room(room_server: tuple[str, Store], game: Game, seats: list[str]) -> tuple[str, str, str]:
    """A room of ``game`` stored as it stands: the owner's page address, the room and the owner's key."""
    url, store = room_server
    me = new_owner_key()
    table = open_room(store, game, seats, me)
    return url + "/" + owner_link(me, table.room_id), table.room_id, me


@pytest.mark.parametrize("screen", [(1600, 1000), (1024, 768)], ids=["1600x1000", "1024x768"])
def test_the_turns_buttons_stay_put_when_the_lesson_and_predict_switches_are_turned_on(
        server: str, browser: Any, screen: tuple[int, int]) -> None:
    page = _page(browser, *screen)
    errors = _errors(page)
    _open(page, server)
    before = _boxes(page)
    page.locator(".lp-odds-switch").first.click()
    expect(page.get_by_text(re.compile(r"^Darker fields: where Ana's next roll"))).to_be_visible()
    assert _moved(before, _boxes(page)) == {}, "lesson mode moved the turn's buttons"
    page.locator(".lp-predict-switch").first.click()
    expect(page.get_by_role("button", name="7", exact=True)).to_be_visible()
    assert _moved(before, _boxes(page)) == {}, "predict, then roll moved the turn's buttons"
    assert errors == []
    page.context.close()


@pytest.mark.parametrize("screen", [(1600, 1000), (1024, 768)], ids=["1600x1000", "1024x768"])
def test_the_turns_buttons_stay_put_when_a_rent_claim_comes_and_goes(
        room_server: tuple[str, Store], browser: Any, screen: tuple[int, int]) -> None:
    game = Game(["Ana", "Ben"], preset="classic", seed=2, dice="1-2 1-2 1-2 1-2")
    game.apply(A.Roll(0))  # Ana lands on St. Charles Place and buys it; Ben, a bot, will land there too
    game.apply(A.Buy(0))
    game.apply(A.EndTurn(0))
    address, _, _ = _room(room_server, game, ["person", "basic"])
    page = _page(browser, *screen)
    errors = _errors(page)
    _open(page, address)
    _button(page, "Next").click()  # Ben's turn: he owes Ana rent, which she must claim (C6)
    claim = _button(page, "Claim rent")
    expect(claim).to_have_text(re.compile(r"^Claim rent \(\$\d+ from Ben\)$"))
    expect(page.get_by_text("lapses at the next roll", exact=False)).to_be_visible()
    with_claim = _boxes(page, (*TURN_BUTTONS, "Claim rent"))
    claim.click()
    expect(claim).to_have_text("Claim rent")
    expect(claim).to_be_disabled()
    assert _moved(with_claim, _boxes(page, (*TURN_BUTTONS, "Claim rent"))) == {}, "the claim moved the turn's buttons"
    assert errors == []
    page.context.close()


def test_the_turns_buttons_stay_put_when_a_trade_offer_arrives_from_another_device(
        room_server: tuple[str, Store], browser: Any) -> None:
    game = Game(["Ana", "Ben"], seed=4, dice="1-2 1-2 3-4 3-4")
    game.apply(A.Roll(0))
    game.apply(A.Buy(0))
    street = game.owner.index(0)
    game.apply(A.EndTurn(0))
    address, room, me = _room(room_server, game, ["person", "person"])
    page = _page(browser, 1600, 1000)
    errors = _errors(page)
    _open(page, address)
    ben = GameModel(table=join_room(room_server[1], room, seat_token(me, room, 1)))  # Ben's own phone
    expect(page.locator(".lp-turn-title", has_text="Waiting for Ben")).to_be_visible()
    before = _boxes(page)
    assert ben.act(A.ProposeTrade(1, 0, (), (street,), 100)), ben.message
    expect(page.locator(".lp-card-alert").first).to_be_visible()  # Ana's page follows the room: the offer is on her card
    assert _moved(before, _boxes(page)) == {}, "the offer moved the turn's buttons"
    assert errors == []
    page.context.close()


def test_the_guess_buttons_sit_under_roll_roll_waits_for_a_guess_and_the_switch_survives_a_reload(
        server: str, browser: Any) -> None:
    page = _page(browser, 1600, 1000)
    errors = _errors(page)
    _open(page, server)
    page.locator(".lp-predict-switch").first.click()
    seven = page.get_by_role("button", name="7", exact=True)
    expect(seven).to_be_enabled()
    expect(_button(page, "Roll")).to_be_disabled()
    expect(page.get_by_text("click your guess of the total (2 to 12) first", exact=False)).to_be_visible()  # the reason
    roll, guess = _button(page, "Roll").bounding_box(), seven.bounding_box()
    assert roll is not None and guess is not None
    assert 0 <= guess["y"] - (roll["y"] + roll["height"]) <= 20, f"the guesses sit right under Roll: {roll} {guess}"
    seven.click()
    expect(page.locator(".lp-turn-hint")).to_have_text("Ana guesses 7. Now Roll.")
    _button(page, "Roll").click()
    last = page.get_by_text(re.compile(r"Last roll: Ana guessed 7 and rolled \d+\."))
    expect(last).to_be_visible()
    page.wait_for_url(re.compile(r"\?room=.*&predict=1$"))  # the room's address keeps the switch
    page.reload()
    expect(page.get_by_role("button", name="7", exact=True)).to_be_visible(timeout=60_000)  # still on
    expect(page.locator(".lp-predict-switch")).to_have_attribute("aria-checked", "true")
    expect(last).to_be_visible()
    page.locator(".lp-predict-switch").first.click()  # off again: the address forgets it
    page.wait_for_url(re.compile(r"\?room=[^&]+&seat=[^&]+&me=[^&]+$"))
    assert errors == []
    page.context.close()


def test_a_clicked_fields_card_opens_over_the_board_beside_the_field(server: str, browser: Any) -> None:
    page = _page(browser, 1600, 1000)
    _open(page, server)
    page.evaluate(DEEP)
    page.wait_for_function("lpDeep('canvas').length > 0", timeout=30_000)
    settled(page)
    board = page.locator("canvas").first.bounding_box()
    assert board is not None
    for field, name in ((6, "Boulder Highway"), (16, "Magic Show Row"), (26, "Bellagio Fountains"), (37, "Penthouse Row")):
        x, y = cell_xy(field)
        page.mouse.click(board["x"] + board["width"] * x / SIDE, board["y"] + board["height"] * (1 - y / SIDE))
        card = page.locator(".lp-field-card")
        expect(card.get_by_role("heading", name=name)).to_be_visible()
        settled(page)  # held still: the next click is a click of its own, not the second of a double tap
        box = card.bounding_box()
        assert box is not None
        inside = (board["x"] - 1 <= box["x"] and box["x"] + box["width"] <= board["x"] + board["width"] + 1
                  and board["y"] - 1 <= box["y"] and box["y"] + box["height"] <= board["y"] + board["height"] + 1)
        assert inside and box["y"] + box["height"] <= 1000, f"the card opens over the board, in view: {box} {board}"
    _button(page, "Close").click()
    expect(page.locator(".lp-field-card")).to_be_hidden()
    page.context.close()


@pytest.mark.parametrize(("lang", "legend", "long_run"), [("en", r"^Darker fields: where Ana's next roll", "in the long run"),
                                                         ("es", r"^Casillas más oscuras: donde", "a la larga")])
def test_the_lessons_legend_and_modes_are_in_the_first_screen_at_1024_by_768(
        server: str, browser: Any, lang: str, legend: str, long_run: str) -> None:
    page = _page(browser, 1024, 768)
    page.goto(server + "?lesson=1&predict=1&seed=7", timeout=60_000)
    expect(_button(page, "Roll")).to_be_visible(timeout=60_000)
    if lang == "es":
        _button(page, "Español").click()
    words = page.get_by_text(re.compile(legend))
    expect(words).to_be_visible(timeout=60_000)
    page.evaluate(DEEP)
    settled(page)
    for part in (words, page.get_by_role("button", name=long_run), page.get_by_role("button", name="12", exact=True)):
        box = part.bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 768, f"below the first screen: {box}"
    page.context.close()


#: The size of every field name the projector's board draws, read from its Bokeh models.
NAME_SIZES = """[...Bokeh.documents[0].all_models].filter((m) => m.glyph !== undefined && m.glyph.text !== undefined
    && m.glyph.text.field === 'short').map((r) => parseFloat(r.glyph.text_font_size.value))"""


def test_a_1920_by_1080_projector_draws_names_of_20_px_and_the_to_play_badge_on_one_line(
        room_server: tuple[str, Store], browser: Any) -> None:
    url, store = room_server
    game = Game(["Ana", "Bernadette Montgomery", "Cy"], seed=4)
    table = open_room(store, game, ["person", "person", "basic"], new_owner_key())
    page = _page(browser, 1920, 1080)
    errors = _errors(page)
    page.goto(url + "/" + table.links()["spectator"], timeout=60_000)
    expect(page.locator(".lp-card")).to_have_count(3, timeout=60_000)
    page.wait_for_function(f"{NAME_SIZES}.length > 0", timeout=30_000)
    page.evaluate(DEEP)
    settled(page)
    sizes = page.evaluate(NAME_SIZES)
    assert sizes and min(sizes) >= 20, f"field names at the back of the room: {sizes}"
    badge = page.locator(".lp-card-now").first
    expect(badge).to_be_visible()
    assert badge.evaluate("e => e.getClientRects().length") == 1
    box = badge.bounding_box()
    assert box is not None and box["height"] <= 1.6 * float(badge.evaluate("e => parseFloat(getComputedStyle(e).fontSize)"))
    assert errors == []
    page.context.close()


#: The board's figure as BokehJS laid it out: the width of its frame, and how many of its canvas pixels are not white.
BOARD_DRAWN = """() => {
  const fig = [...Bokeh.documents[0].all_models].find((m) => m.type === 'Figure' && m.sizing_mode === 'scale_width');
  const view = Bokeh.index.find_one(fig);
  const canvas = view.canvas_view.primary.canvas;
  const d = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
  let ink = 0;
  for (let i = 0; i < d.length; i += 4) if (d[i + 3] > 0 && (d[i] < 240 || d[i + 1] < 240 || d[i + 2] < 240)) ink++;
  return {frame: view.frame.bbox.width, ink: ink};
}"""


@pytest.mark.parametrize("screen", [(1600, 1000), (390, 844)], ids=["1600x1000", "390x844"])
def test_a_finished_games_page_draws_its_board_under_the_winner_screen(
        room_server: tuple[str, Store], browser: Any, screen: tuple[int, int]) -> None:
    from laspoly.bots.registry import make_bot
    from laspoly.bots.runner import play_game

    game = play_game(Game(["Ana", "Ben", "Cy"], seed=4, max_rounds=400), [make_bot("basic", seed=k) for k in range(3)], validate=True)
    url, _, _ = _room(room_server, game, ["person", "basic", "basic"])
    page = _page(browser, *screen)
    errors = _errors(page)
    page.goto(url, timeout=60_000)
    expect(_button(page, "Rematch (same seed)")).to_be_visible(timeout=60_000)
    page.wait_for_function(f"({BOARD_DRAWN})().ink > 1000", timeout=30_000)  # a figure laid out at zero size draws nothing
    drawn = page.evaluate(BOARD_DRAWN)
    assert drawn["frame"] > 200, drawn
    assert errors == []
    page.context.close()
