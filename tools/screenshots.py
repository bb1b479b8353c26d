"""Screenshots of the Play tab at four screen sizes, in English and Spanish, for ``docs/img/``.

    python tools/screenshots.py [--out docs/img] [--presets laspoly classic]

Starts ``laspoly serve`` on a free loopback port with a temporary game database
and opens it in the system Chromium.  For each preset it finds a mid-game
position (bots have bought, built houses, a hotel and a factory, and mortgaged
a field) where the person's next roll draws a card, loads it through the page's
own "Load game", clicks Roll, and saves the table at every viewport; then it
switches the page to Español with the page's own language control and saves the
same views again.  The files are named ``table-WxH-LANG.png`` (the Las Poly
preset, at 1600x1000, 1024x768, 768x1024 and 1280x720) and
``table-PRESET-WxH-LANG.png`` (the others, at 1600x1000), all at a device scale
factor of 1.5.

The Las Poly position is also opened on phones (a touch screen at 390x844 and
412x915 upright and 844x390 on its side, device scale factor 2), where a field
with buildings is tapped so that its card shows in the middle of the board; each
phone's first screen is saved as ``table-WxH-LANG.png`` too.

    python tools/screenshots.py --states lesson,predict,claim,offer,buy,winner --out /tmp/shots

instead pictures the Play tab in each of these states, at the four screen sizes and on the three phones
(touch), in English and Spanish, as ``state-STATE-WxH-LANG.png``: the live odds on, predict-then-roll on
(Roll off until a guess), a rent the person may claim (a seeded classic game: Las Poly's rents need no
claim), a bot's trade offer waiting for the person at the start of their turn, the person deciding
whether to buy the street they landed on, and a finished game's winner screen.

    python tools/screenshots.py --classroom [--out docs/img]

instead pictures a lesson for ``docs/classroom.md`` (``classroom-*.png``): it
starts ``laspoly serve --classroom "6B"`` on loopback, told that the laptop's
LAN address is 192.0.2.10 (a documentation address no machine has: every
request still goes to 127.0.0.1), and saves the terminal's output, the
teacher's page before the lesson, a student joining on a phone and playing,
the teacher's page and its projector mode during the lesson, the projector
following one room, and the class's CSV.  Ten more groups' games are played
straight into the class's database first, so that the charts have data.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, expect, sync_playwright

from laspoly.bots.registry import make_bot
from laspoly.engine import actions as A
from laspoly.engine import events as E
from laspoly.engine.game import BUYING, TURN, Game
from laspoly.record import game_to_dict, replay
from laspoly.ui.board import SIDE, cell_xy

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--disable-quic", "--no-first-run"]
VIEWPORTS = ((1600, 1000), (1024, 768), (768, 1024), (1280, 720))
#: Viewports per preset: Las Poly at every size; the classic board (two decks, no pot) at the largest only.
PRESET_VIEWPORTS = {"laspoly": VIEWPORTS, "classic": VIEWPORTS[:1]}
SCALE = 1.5
#: Phones: two upright and one on its side, as a student holds them; the Las Poly preset only.
PHONES = ((390, 844), (412, 915), (844, 390))
PHONE_SCALE = 2.0
NAMES = ["Ana", "Ben", "Cy"]
TEMPERS = ["hotel", "factory", "greedy"]  # the bots that play the game up to the pictured position


# ---------------------------------------------------------------- the position to picture

def _is_rich(game: Game) -> bool:
    """A board worth a picture: three owners, houses, a hotel, a factory where the preset has them, a mortgage."""
    owners = {o for o in game.owner if o >= 0}
    houses = any(0 < lvl < game.hotel_level for lvl in game.level)
    hotel = any(lvl == game.hotel_level for lvl in game.level)
    factories = any(f.factory_price for f in game.fields)
    return (len(owners) >= 3 and houses and hotel and any(game.mortgaged)
            and (any(game.factory) or not factories))


def _turn_has_begun(game: Game) -> bool:
    """Whether the player to move has rolled already this turn (after doubles, say)."""
    for e in reversed(game.log):
        if isinstance(e, E.TurnStarted):
            return False
        if isinstance(e, E.Rolled):
            return True
    return False


def _roll_draws_a_card(game: Game) -> bool:
    """Whether the first player's roll from here is not doubles and draws a card (tried on a copy).

    Without doubles, the page's Roll button turns off once the roll is made, which tells the page has it.
    """
    copy = replay(game.setup, list(game.history))
    start = len(copy.log)
    copy.apply(A.Roll(0))
    new = copy.log[start:]
    return any(isinstance(e, E.CardDrawn) for e in new) and not any(isinstance(e, E.Rolled) and e.d1 == e.d2 for e in new)


def _bots(seed: int) -> list[Any]:
    return [make_bot(t, seed=seed + i) for i, t in enumerate(TEMPERS)]


def _first_position(found: Callable[[Game], bool], what: str, seeds: range, preset: str = "laspoly") -> Game:
    """The first position, over seeds, where ``found`` holds in a game the bots play; ``what`` names it in the error."""
    for seed in seeds:
        game = Game(list(NAMES), preset=preset, seed=seed, max_rounds=400)
        bots = _bots(seed)
        while not game.is_over and game.turns < 600:
            if found(game):
                return game
            game.apply(bots[game.actor].choose(game.observe()))
    raise SystemExit(f"no {what} found in seeds {seeds.start}-{seeds.stop - 1}")


def find_position(preset: str, seeds: range = range(1, 200)) -> Game:
    """The first position, over seeds, where the first player's turn begins on a rich board and their roll draws a card."""
    return _first_position(lambda game: (game.actor == 0 and game.phase == TURN and game.rolls_due and not game.claims
                                         and not game.offers and not game.players[0].in_prison
                                         and not _turn_has_begun(game) and _is_rich(game) and _roll_draws_a_card(game)),
                           f"position for {preset}", seeds, preset)


#: The states ``--states`` pictures: the live odds on, predict-then-roll on, a rent for the person to claim, a bot's offer,
#: a purchase to decide, and the winner screen.
STATES = ("lesson", "predict", "claim", "offer", "buy", "winner")
#: Where ``--states`` pictures each state: the four screens at :data:`SCALE`, and the phones.
STATE_VIEWPORTS = VIEWPORTS
STATE_PHONES = PHONES
#: The page's switches (query keys) on in each state.
STATE_SWITCHES = {"lesson": "?lesson=1", "predict": "?predict=1", "claim": "", "offer": "", "buy": "", "winner": ""}


def parse_states(text: str) -> list[str]:
    """``lesson,predict`` as a list of known states, in the order given; unknown names are a clear error."""
    names = [n.strip() for n in text.split(",") if n.strip()]
    unknown = [n for n in names if n not in STATES]
    if not names or unknown:
        raise argparse.ArgumentTypeError(f"states are a comma-separated list of {', '.join(STATES)}, not {text!r}")
    return list(dict.fromkeys(names))


def find_claim(seeds: range = range(1, 200), preset: str = "classic") -> Game:
    """The first position, over seeds, where a bot has just landed on the person's (seat 0's) property and owes a rent to claim.

    Rents wait to be claimed (C6, S9) in the classic and Sculptprice presets, not in Las Poly's.
    """
    return _first_position(lambda game: (game.actor != 0 and any(owner == 0 for (_, owner, _, _) in game.claims)
                                         and sum(1 for o in game.owner if o == 0) >= 3), "claim", seeds, preset)


def _offer(game: Game) -> A.ProposeTrade | None:
    """A fair-looking offer from the bot to move to the person: one of its unbuilt properties for one of the person's, or for cash."""
    me = game.current
    mine = [i for i, o in enumerate(game.owner) if o == me and not game.level[i] and not game.factory[i] and not game.mortgaged[i]]
    theirs = [i for i, o in enumerate(game.owner) if o == 0 and not game.level[i] and not game.factory[i] and not game.mortgaged[i]]
    if not mine or not theirs:
        return None
    action = A.ProposeTrade(me, 0, give=(mine[0],), take=(theirs[0],), cash=min(50, game.players[me].cash))
    return action if game.is_legal(action) else None


def find_offer(seeds: range = range(1, 200)) -> Game:
    """The first position, over seeds, where the person's turn begins with a bot's trade offer waiting for an answer.

    The last bot before the person makes the offer (ProposeTrade) on its turn and plays the turn out; a
    person answers an offer on their own turn.
    """
    last = len(NAMES) - 1
    for seed in seeds:
        game = Game(list(NAMES), seed=seed, max_rounds=400)
        bots = _bots(seed)
        offered = False
        while not game.is_over and game.turns < 600:
            if offered and game.actor == 0:
                if game.phase == TURN and game.offers and not _turn_has_begun(game):
                    return game
                break
            if not offered and game.actor == last and game.phase == TURN and not game.offers and game.turns >= 20:
                offer = _offer(game)
                if offer is not None:
                    game.apply(offer)
                    offered = True
                    continue
            game.apply(bots[game.actor].choose(game.observe()))
    raise SystemExit(f"no offer found in seeds {seeds.start}-{seeds.stop - 1}")


def find_buy(seeds: range = range(1, 200)) -> Game:
    """The first position, over seeds, where the person (seat 0) has landed on a street nobody owns, on a board others own
    fields of: buy it or not."""
    return _first_position(lambda game: game.actor == 0 and game.phase == BUYING and sum(1 for o in game.owner if o >= 0) >= 6,
                           "purchase", seeds)


def find_winner(seed: int = 1) -> Game:
    """A game the bots have played to its end: the page opens on its winner screen."""
    game = Game(list(NAMES), seed=seed, max_rounds=400)
    bots = _bots(seed)
    while not game.is_over:
        game.apply(bots[game.actor].choose(game.observe()))
    return game


def state_position(state: str) -> Game:
    """The game each state is pictured on: the rich position of :func:`find_position` for the switches, else its scene."""
    if state == "claim":
        return find_claim()
    if state == "offer":
        return find_offer()
    if state == "buy":
        return find_buy()
    if state == "winner":
        return find_winner()
    return find_position("laspoly")


# ---------------------------------------------------------------- the server

def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def serve(db: Path) -> Iterator[str]:
    """``laspoly serve`` on a free loopback port with its own game database; yields its URL."""
    port = _free_port()
    env = {**os.environ, "LASPOLY_DB": f"sqlite:///{db}"}
    cmd = [sys.executable, "-m", "laspoly", "serve", "--port", str(port), "--address", "127.0.0.1"]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    url = f"http://127.0.0.1:{port}/"
    try:
        deadline = time.time() + 120
        while True:
            try:
                with urllib.request.urlopen(url, timeout=30) as r:  # a loaded machine takes seconds to render the page
                    if r.status == 200:
                        break
            except OSError:
                if time.time() > deadline or proc.poll() is not None:
                    raise SystemExit("laspoly serve did not start within 120 s") from None
                time.sleep(0.3)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


# ---------------------------------------------------------------- the page

def _button(page: Page, name: str) -> Any:
    return page.get_by_role("button", name=name, exact=True)


def _load(page: Page, url: str, save: Path) -> None:
    """Open the dashboard and load ``save`` with the page's "Load game"; the page moves to the loaded game's room."""
    page.goto(url, timeout=60_000)
    expect(_button(page, "Roll")).to_be_visible(timeout=60_000)
    page.locator(".bk-tab", has_text="Save and load").first.click()
    with page.expect_navigation(timeout=60_000):
        page.locator("input[type=file]").first.set_input_files(str(save))
    expect(_button(page, "Roll")).to_be_visible(timeout=60_000)


def _settle(page: Page) -> None:
    """Give the board's canvas time to lay out and paint after a change."""
    page.wait_for_timeout(1200)


def shoot(page: Page, out: Path, stem: str, lang: str, viewports: tuple[tuple[int, int], ...]) -> list[Path]:
    """One PNG per viewport of what the page shows now."""
    paths = []
    for width, height in viewports:
        page.set_viewport_size({"width": width, "height": height})
        _settle(page)
        path = out / f"{stem}-{width}x{height}-{lang}.png"
        page.screenshot(path=str(path))
        paths.append(path)
    return paths


def tap_field(page: Page, field: int, size: int = 40) -> None:
    """Tap a field on the board's canvas, as a finger would."""
    box = page.locator("canvas").first.bounding_box()
    assert box is not None, "the board is drawn"
    x, y = cell_xy(field, size)
    page.touchscreen.tap(box["x"] + box["width"] * x / SIDE, box["y"] + box["height"] * (1 - (y + 0.1) / SIDE))


def _phone(browser: Any, width: int, height: int, scale: float = PHONE_SCALE) -> Any:
    """A browser context laid out as a phone of ``width`` x ``height`` CSS pixels: a mobile viewport and touch."""
    return browser.new_context(viewport={"width": width, "height": height}, device_scale_factor=scale, is_mobile=True, has_touch=True)


def shoot_phones(browser: Any, room_url: str, out: Path, stem: str, field: int) -> list[Path]:
    """The room's game on each phone of :data:`PHONES`, in English and Spanish, with ``field`` tapped: the first screen of each."""
    paths = []
    for width, height in PHONES:
        context = _phone(browser, width, height)
        page = context.new_page()
        try:
            page.goto(room_url, timeout=60_000)
            expect(page.get_by_role("heading", name=re.compile(r"^(Log|Registro) \(")).first).to_be_visible(timeout=60_000)
            for lang, switch, log in (("en", "English", "Log (newest first)"), ("es", "Español", "Registro (lo último primero)")):
                _button(page, switch).tap()
                expect(page.get_by_role("heading", name=log)).to_be_visible(timeout=30_000)
                page.evaluate("window.scrollTo(0, 0)")
                _settle(page)
                if lang == "en":  # once: the selection stays when the language changes, and a second tap would clear it
                    tap_field(page, field)
                    _settle(page)
                path = out / f"{stem}-{width}x{height}-{lang}.png"
                page.screenshot(path=str(path))
                paths.append(path)
        finally:
            context.close()
    return paths


def picture(browser: Any, url: str, preset: str, out: Path, tmp: Path) -> list[Path]:
    """Load a rich position of ``preset``, roll for the person, and shoot it in English and Spanish."""
    game = find_position(preset)
    save = tmp / f"{preset}.json"
    save.write_text(json.dumps(game_to_dict(game)))
    context = browser.new_context(viewport={"width": VIEWPORTS[0][0], "height": VIEWPORTS[0][1]}, device_scale_factor=SCALE)
    page = context.new_page()
    try:
        _load(page, url, save)
        expect(_button(page, "Roll")).to_be_enabled(timeout=30_000)
        _button(page, "Roll").click()
        expect(_button(page, "Roll")).to_be_disabled(timeout=30_000)
        stem = "table" if preset == "laspoly" else f"table-{preset}"
        viewports = PRESET_VIEWPORTS.get(preset, VIEWPORTS)
        paths = shoot(page, out, stem, "en", viewports)
        _button(page, "Español").click()
        expect(page.get_by_text(f"{NAMES[0]} cogió una carta", exact=False).first).to_be_visible(timeout=30_000)
        _settle(page)
        paths += shoot(page, out, stem, "es", viewports)
        if preset == "laspoly":
            built = next(i for i, level in enumerate(game.level) if level)  # a street with houses: its card has the most to show
            paths += shoot_phones(browser, page.url, out, stem, built)
        return paths
    finally:
        context.close()


#: What shows, in English, once a state's page is ready: a name for its button, or None (the log's heading is enough).
STATE_SIGNS: dict[str, re.Pattern[str] | None] = {"lesson": None, "predict": None,
                                                  "claim": re.compile(r"^Claim rent"), "offer": re.compile(r"^Accept offer"),
                                                  "buy": re.compile(r"^Buy \("), "winner": re.compile(r"^Rematch")}


def _ready(page: Page, state: str, lang: str) -> None:
    """Wait until the page shows the state in ``lang``."""
    log = "Log (newest first)" if lang == "en" else "Registro (lo último primero)"
    expect(page.get_by_role("heading", name=log)).to_be_visible(timeout=30_000)
    sign = STATE_SIGNS[state]
    if sign is not None and lang == "en":
        expect(page.get_by_role("button", name=sign).first).to_be_visible(timeout=30_000)
    if state == "predict":
        expect(_button(page, "Roll" if lang == "en" else "Tirar")).to_be_disabled(timeout=30_000)


def picture_states(browser: Any, url: str, states: list[str], out: Path, tmp: Path) -> list[Path]:
    """Each state's page at :data:`STATE_VIEWPORTS` and on :data:`STATE_PHONES`, in English and Spanish: ``state-STATE-WxH-LANG.png``."""
    paths: list[Path] = []
    for state in states:
        save = tmp / f"state-{state}.json"
        save.write_text(json.dumps(game_to_dict(state_position(state))))
        stem = f"state-{state}"
        width, height = STATE_VIEWPORTS[0]
        context = browser.new_context(viewport={"width": width, "height": height}, device_scale_factor=SCALE)
        page = context.new_page()
        try:
            _load(page, url + STATE_SWITCHES[state], save)
            _ready(page, state, "en")
            paths += shoot(page, out, stem, "en", STATE_VIEWPORTS)
            _button(page, "Español").click()
            _ready(page, state, "es")
            paths += shoot(page, out, stem, "es", STATE_VIEWPORTS)
            room = page.url
        finally:
            context.close()
        for width, height in STATE_PHONES:
            phone = _phone(browser, width, height)
            page = phone.new_page()
            try:
                page.goto(room, timeout=60_000)
                for lang, switch in (("en", "English"), ("es", "Español")):
                    _button(page, switch).tap()
                    _ready(page, state, lang)
                    page.evaluate("window.scrollTo(0, 0)")
                    _settle(page)
                    path = out / f"{stem}-{width}x{height}-{lang}.png"
                    page.screenshot(path=str(path))
                    paths.append(path)
            finally:
                phone.close()
    return paths


# ---------------------------------------------------------------- a lesson, for docs/classroom.md

#: The advertised LAN address: TEST-NET-1 (RFC 5737), so that no picture sends anything off loopback.
LAN = "192.0.2.10"
GROUPS = [["Dana", "Eli"], ["Fatima", "Gus"], ["Hana", "Ivo"], ["Jon", "Kim"], ["Lea", "Max"], ["Noa", "Omar"],
          ["Pia", "Quim"], ["Rosa", "Sam"], ["Teo", "Uma"], ["Vera", "Wim"]]


@contextmanager
def serve_classroom(db: Path, log: Path) -> Iterator[tuple[str, str]]:
    """``laspoly serve --classroom "6B"`` on a free loopback port; yields its loopback URL and what it printed."""
    port = _free_port()
    env = {**os.environ, "LASPOLY_DB": f"sqlite:///{db}"}
    env.pop("LASPOLY_LAN_ADDRESS", None)
    cmd = [sys.executable, "-m", "laspoly", "serve", "--classroom", "6B", "--address", "127.0.0.1", "--port", str(port),
           "--lan-address", LAN]
    with open(log, "wb") as sink:
        proc = subprocess.Popen(cmd, stdout=sink, stderr=subprocess.STDOUT, env=env)
    url = f"http://127.0.0.1:{port}/"
    try:
        deadline = time.time() + 180
        while True:
            try:
                with urllib.request.urlopen(url + "favicon.ico", timeout=30):
                    break
            except OSError:
                if time.time() > deadline or proc.poll() is not None:
                    raise SystemExit("laspoly serve --classroom did not start within 180 s:\n" + log.read_text(errors="replace")) from None
                time.sleep(0.3)
        yield url, log.read_text(errors="replace")
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


def play_groups(db: Path, code: str, decisions: int = 160) -> None:
    """Games of :data:`GROUPS` stored in the class, each person rolling and declining to buy: data for the charts."""
    from laspoly.server.rooms import open_room
    from laspoly.server.store import open_store
    from laspoly.ui.model import GameModel

    store = open_store(f"sqlite:///{db}")
    for i, names in enumerate(GROUPS):
        m = GameModel(table=open_room(store, Game(names, seed=1000 + i), ["person"] * len(names), f"shots-owner-{i:04d}-key",
                                      class_code=code))
        for _ in range(decisions):
            if m.game.is_over:
                break
            legal = m.game.legal_actions()
            pick = next((a for a in legal if isinstance(a, (A.Roll, A.DeclineBuy, A.StayPut, A.PayFine))), None) or \
                next((a for a in legal if isinstance(a, A.EndTurn)), legal[0])
            m.act(pick)


def _terminal(page: Page, text: str, path: Path) -> None:
    """What the terminal printed, drawn as a terminal shows it."""
    body = (text.replace("&", "&amp;").replace("<", "&lt;"))
    page.set_content("<body style='margin:0;background:#1e1e1e'><pre style='color:#e8e8e8;font:13px/1.1 monospace;"
                     f"padding:12px;margin:0;display:inline-block'>{body}</pre></body>")
    page.locator("pre").screenshot(path=str(path))


def _csv_table(page: Page, csv_text: str, path: Path, rows: int = 14) -> None:
    """The first rows of the class's CSV as a spreadsheet shows them."""
    import csv as csv_module
    import html
    import io

    table = list(csv_module.reader(io.StringIO(csv_text)))[:rows]
    cells = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>" for row in table)
    page.set_content("<body style='margin:0;font:13px sans-serif'><table style='border-collapse:collapse' border=1 cellpadding=4>"
                     f"{cells}</table></body>")
    page.locator("table").screenshot(path=str(path))


def picture_classroom(browser: Any, out: Path, tmp: Path) -> list[Path]:
    """The lesson's pictures, in the order docs/classroom.md tells it."""
    paths: list[Path] = []
    db = tmp / "class.db"
    with serve_classroom(db, tmp / "server.log") as (url, printed):
        teacher = re.search(r"Teacher's page .*?: http://\S+?/(\?\S+)", printed)
        student = re.search(r"Students' link: http://\S+?/(\?class=([A-Z0-9]{6}))", printed)
        if teacher is None or student is None:
            raise SystemExit("laspoly serve --classroom printed no links:\n" + printed)
        teacher_query, student_query, code = teacher.group(1), student.group(1), student.group(2)
        desk = browser.new_context(viewport={"width": 1280, "height": 800})
        page = desk.new_page()
        _terminal(page, printed.split("Launching server")[0].strip(), out / "classroom-terminal.png")
        paths.append(out / "classroom-terminal.png")
        page.goto(url + teacher_query, timeout=120_000)
        expect(page.get_by_role("img", name="QR code of the class's student link").first).to_be_visible(timeout=60_000)
        _settle(page)
        page.screenshot(path=str(out / "classroom-teacher-start.png"))
        paths.append(out / "classroom-teacher-start.png")

        phone = _phone(browser, 390, 844, scale=1.5)
        student_page = phone.new_page()
        student_page.goto(url + student_query, timeout=120_000)
        name = student_page.get_by_label("Your name or your team's name")
        expect(name).to_be_visible(timeout=60_000)
        name.fill("Ana & Ben")
        _settle(student_page)
        student_page.screenshot(path=str(out / "classroom-phone-join.png"))
        paths.append(out / "classroom-phone-join.png")
        _button(student_page, "Join and play").tap()
        expect(student_page.get_by_role("heading", name=re.compile(r"^Log \(")).first).to_be_visible(timeout=60_000)
        for _ in range(8):  # the bots move ("Next") until the group's turn, then the group rolls
            try:
                expect(_button(student_page, "Roll")).to_be_enabled(timeout=5_000)
            except AssertionError:
                if _button(student_page, "Next").is_enabled():
                    _button(student_page, "Next").tap()
                continue
            _button(student_page, "Roll").tap()
            expect(_button(student_page, "Roll")).to_be_disabled(timeout=30_000)
            break
        student_page.evaluate("window.scrollTo(0, 0)")
        _settle(student_page)
        student_page.screenshot(path=str(out / "classroom-phone-game.png"))
        paths.append(out / "classroom-phone-game.png")

        play_groups(db, code)
        expect(page.get_by_text("Fatima, Gus").first).to_be_visible(timeout=60_000)  # the page refreshes itself
        _settle(page)
        page.screenshot(path=str(out / "classroom-teacher-lesson.png"), full_page=True)
        paths.append(out / "classroom-teacher-lesson.png")

        big = browser.new_context(viewport={"width": 1280, "height": 720})
        projector = big.new_page()
        projector.goto(url + teacher_query + "&projector=1", timeout=120_000)
        expect(projector.get_by_text("Fatima, Gus").first).to_be_visible(timeout=60_000)
        _settle(projector)
        projector.get_by_text(re.compile(r"games, pooled")).first.evaluate("e => e.scrollIntoView()")  # the charts, from the top
        _settle(projector)
        projector.screenshot(path=str(out / "classroom-projector.png"))
        paths.append(out / "classroom-projector.png")

        watch = page.get_by_role("link", name="watch").first
        href = watch.get_attribute("href") or ""
        projector.goto(url + href[href.index("?"):], timeout=120_000)
        expect(projector.get_by_role("heading", name=re.compile(r"^Log \(")).first).to_be_visible(timeout=60_000)
        _settle(projector)
        projector.screenshot(path=str(out / "classroom-watch.png"))
        paths.append(out / "classroom-watch.png")

        from laspoly.server.classes import ClassData
        from laspoly.server.store import open_store

        key = re.search(r"teacher=([^&\s]+)", teacher_query).group(1)  # type: ignore[union-attr]
        data = ClassData(open_store(f"sqlite:///{db}"), code, key)
        data.refresh()
        _csv_table(page, data.csv().getvalue(), out / "classroom-csv.png")
        paths.append(out / "classroom-csv.png")
        for context in (desk, phone, big):
            context.close()
    return paths


def main(argv: list[str] | None = None) -> int:
    """Write the screenshots; prints each file's path."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "img", help="folder for the PNG files")
    parser.add_argument("--presets", nargs="+", default=["laspoly", "classic"], help="presets to picture")
    parser.add_argument("--classroom", action="store_true", help="picture a lesson for docs/classroom.md instead")
    parser.add_argument("--states", type=parse_states, metavar="STATE,...",
                        help=f"picture the Play tab in these states instead ({','.join(STATES)})")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    if args.classroom:
        with tempfile.TemporaryDirectory(prefix="laspoly-class-shots-") as tmp, sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            try:
                for path in picture_classroom(browser, args.out, Path(tmp)):
                    print(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path)
            finally:
                browser.close()
        return 0
    with tempfile.TemporaryDirectory(prefix="laspoly-shots-") as tmp, serve(Path(tmp) / "rooms.db") as url, \
            sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            pictures = picture_states(browser, url, args.states, args.out, Path(tmp)) if args.states else \
                [path for preset in args.presets for path in picture(browser, url, preset, args.out, Path(tmp))]
            for path in pictures:
                print(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path)
        finally:
            browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
