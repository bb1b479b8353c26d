"""A lesson end to end, in a real browser: a teacher, three phones and a projector on one ``laspoly serve``.

The teacher creates a class on the page that creates classes; three phone-sized
browsers open the class's student link (with no ``?seed=``, so each game draws
its own), join with a name and play; the projector opens a watch link from the
teacher's page and follows one room.  What the pages show is checked against the
server's own database: each room's stored log, replayed.  Everything connects
to 127.0.0.1 only.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from servers import start_server
from test_browser import _button, _errors, _input, _open, _tab

from laspoly.engine import actions as A
from laspoly.engine import events as E
from laspoly.engine.game import Game
from laspoly.engine.registry import action_from_dict
from laspoly.record import replay
from laspoly.server.roomlog import played_actions
from laspoly.server.store import Store, open_store

pytestmark = pytest.mark.browser

STUDENTS = ["Amira", "Bruno", "Chen"]
#: Rolls compared between the games: three games of one seed would start with the same ten.
FIRST_ROLLS = 10
ROOMS_TABLE = "table[aria-label=\"The class's games\"]"


def _phone(browser: Any) -> Page:
    """A phone upright: laid out at 390×844 CSS pixels, touch and a mobile viewport."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True, has_touch=True)
    page: Page = context.new_page()
    return page


def _create_class(page: Page, url: str, name: str) -> tuple[str, str]:
    """Create a class on the "For teachers" tab, as a teacher does; its teacher link's query string and its code."""
    _open(page, url)
    _tab(page, "For teachers")
    field = _input(page, "Class name")
    field.fill(name)
    field.press("Enter")
    _button(page, "Create a class").click()
    link = page.locator("a", has_text="teacher=").first
    expect(link).to_be_visible(timeout=30_000)
    href = link.get_attribute("href")
    assert href is not None and "?" in href
    query = "?" + href.split("?", 1)[1]
    code = re.search(r"class=([A-Z0-9]{6})", query)
    assert code is not None, query
    return query, code.group(1)


def _join(page: Page, url: str, code: str, name: str) -> None:
    """Open the student link on a phone, give a name (one person at this device, two bots) and tap "Join and play"."""
    page.goto(f"{url}?class={code}", timeout=60_000)
    page.locator(".bk-input-group:has(> label:text-is(\"Your name or your team's name\")) input").fill(name)
    _button(page, "Join and play").tap()
    expect(_button(page, "Roll")).to_be_visible(timeout=60_000)
    assert "room=" in page.url  # the joined game at its own address


def _first_roll(page: Page, name: str) -> None:
    """The student's own first roll, tapped: "Autoplay" first if bots move before them (each seed draws its own order)."""
    roll = _button(page, "Roll")
    expect(page.get_by_role("heading", name="Log (newest first)")).to_be_visible(timeout=60_000)
    if not roll.is_enabled():
        _button(page, "Autoplay").tap()  # the bots play on by themselves until the student must decide
    expect(roll).to_be_enabled(timeout=30_000)
    roll.tap()
    expect(page.get_by_text(re.compile(rf"^{re.escape(name)} rolled \d")).first).to_be_visible(timeout=30_000)


def _run_to_end(page: Page) -> None:
    """Tap "Run to end": bots play every seat to the game's end (far more than ten rolls, in a second or two)."""
    _button(page, "Run to end").tap()
    expect(page.get_by_text(re.compile(r"Run to end played \d+ turns")).first).to_be_visible(timeout=60_000)


def _room_of(store: Store, code: str, name: str) -> str:
    """The class room whose first seat is ``name``."""
    for room_id in store.class_rooms(code):
        if store.room(room_id).setup["players"][0] == name:
            return room_id
    raise AssertionError(f"no room of {name} in class {code}")


def _replayed(store: Store, room_id: str) -> tuple[Game, list[A.Action]]:
    """A room's game as its stored log gives it, and the actions it stands on."""
    room = store.room(room_id)
    actions = [action_from_dict(raw) for raw in played_actions(store.actions(room_id))]
    return replay(room.setup, actions), actions


def _counted(store: Store, room_id: str) -> tuple[list[int], list[int]]:
    """A room's dice totals (2-12) and landings per field (then "in prison"), counted roll by roll from its log.

    As the movement chain counts a landing: where the roller stands after the roll
    (its cards and a go-to-prison included), "in prison" apart; a try for doubles from
    prison is a roll but no landing (the chain pays the fine before rolling).
    """
    _, actions = _replayed(store, room_id)
    game = replay(store.room(room_id).setup, [])
    dice, landings = [0] * 11, [0] * (len(game.fields) + 1)
    for action in actions:
        seen = len(game.log)
        from_prison = isinstance(action, A.Roll) and game.players[action.player].in_prison
        game.apply(action)
        if isinstance(action, A.Roll):
            rolled = next(e for e in game.log[seen:] if isinstance(e, E.Rolled))
            dice[rolled.d1 + rolled.d2 - 2] += 1
            player = game.players[action.player]
            if not from_prison:
                landings[len(game.fields) if player.in_prison else player.pos] += 1
    return dice, landings


#: The teacher's pooled charts as the page holds them: each Bokeh source's columns, read from the page's document.
CHART_DATA = """(() => {
  const sources = [...Bokeh.documents[0].all_models].filter((m) => m.data != null && m.data.share !== undefined);
  const col = (s, k) => Array.from(s.data[k]);
  const dice = sources.find((s) => s.data.total !== undefined);
  const land = sources.find((s) => s.data.field !== undefined);
  return {dice: dice ? col(dice, 'share') : null, land: land ? col(land, 'share') : null};
})()"""


def _shares(counts: list[int]) -> list[float]:
    n = sum(counts)
    return [c / n if n else 0.0 for c in counts]


def test_a_class_of_three_phones_plays_its_own_games_and_the_teacher_and_projector_follow(
        browser: Any, tmp_path: Path, screenshot_dir: Path) -> None:
    db = f"sqlite:///{tmp_path / 'rooms.db'}"
    proc, url = start_server(db, log=tmp_path / "server.log")
    try:
        teacher = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
        teacher_query, code = _create_class(teacher, url, "6B maths")
        store = open_store(db)

        phones = {}
        for name in STUDENTS:  # each student on a phone of their own, from the class's student link, with no seed
            phone = _phone(browser)
            errors = _errors(phone)
            _join(phone, url, code, name)
            _first_roll(phone, name)
            phones[name] = (phone, errors)
        rooms = {name: _room_of(store, code, name) for name in STUDENTS}
        assert len(set(rooms.values())) == 3

        # the teacher's page lists the three students by name, each room with its watch link
        teacher.goto(url + teacher_query, timeout=60_000)
        table = teacher.locator(ROOMS_TABLE)
        expect(table.locator("tr")).to_have_count(1 + len(STUDENTS), timeout=60_000)
        for name in STUDENTS:
            expect(table.locator("tr", has_text=f"{name}, Bot 1, Bot 2")).to_have_count(1)

        # the projector opens the watch link of Amira's room from the teacher's page, then follows her game
        watched = STUDENTS[0]
        href = table.locator("tr", has_text=watched).get_by_role("link", name="watch").get_attribute("href")
        assert href is not None and "view=" in href and href.startswith("http://127.0.0.1:")
        projector = browser.new_context(viewport={"width": 1600, "height": 1000}).new_page()
        projector_errors = _errors(projector)
        projector.goto(href, timeout=60_000)
        expect(projector.locator(".lp-card")).to_have_count(3, timeout=60_000)
        game, _ = _replayed(store, rooms[watched])
        expect(projector.locator(".lp-log li").first).to_have_text(game.describe(game.log[-1], "en"), timeout=30_000)
        assert not game.is_over

        for name in STUDENTS:  # then each game plays on to its end: far more than ten rolls each
            _run_to_end(phones[name][0])

        game, _ = _replayed(store, rooms[watched])
        assert game.is_over
        expect(projector.locator(".lp-log li").first).to_have_text(game.describe(game.log[-1], "en"), timeout=30_000)
        expect(projector.locator(".lp-projector-status")).to_contain_text(game.players[game.winner].name)
        projector.screenshot(path=str(screenshot_dir / "class-projector.png"))

        # each game drew its own seed: the first ten rolls of the three games differ
        firsts = {}
        for name, room_id in rooms.items():
            game, _ = _replayed(store, room_id)
            rolls = [(e.d1, e.d2) for e in game.log if isinstance(e, E.Rolled)]
            assert len(rolls) >= FIRST_ROLLS, f"{name}'s game has only {len(rolls)} rolls"
            firsts[name] = rolls[:FIRST_ROLLS]
            assert game.players[0].name == name
        assert len({tuple(r) for r in firsts.values()}) == len(STUDENTS), f"two games began with the same rolls: {firsts}"
        assert len({store.room(r).setup["seed"] for r in rooms.values()}) == len(STUDENTS)

        # the pooled counts on the teacher's page are the sums of the three rooms' logs, replayed
        counted = [_counted(store, room_id) for room_id in rooms.values()]
        dice = [sum(c) for c in zip(*(d for d, _ in counted), strict=True)]
        landings = [sum(c) for c in zip(*(land for _, land in counted), strict=True)]
        assert sum(dice) >= sum(landings)  # one landing per roll that did not start in prison
        expect(teacher.get_by_text(f"{sum(dice)} rolls and {sum(landings)} landings from 3 games, pooled")).to_be_visible(timeout=30_000)
        charts = teacher.evaluate(CHART_DATA)
        assert charts["dice"] == pytest.approx(_shares(dice), abs=1e-9)
        assert charts["land"] == pytest.approx(_shares(landings), abs=1e-9)
        for name in STUDENTS:  # every game over: the list names its winner
            expect(table.locator("tr", has_text=f"{name}, Bot 1, Bot 2")).to_contain_text("won", timeout=30_000)
        teacher.screenshot(path=str(screenshot_dir / "class-teacher.png"), full_page=True)

        for name, (phone, errors) in phones.items():
            assert errors == [], f"{name}'s phone: {errors}"
            assert phone.evaluate("document.scrollingElement.scrollWidth <= innerWidth"), f"{name}'s phone scrolls sideways"
        assert projector_errors == []
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
