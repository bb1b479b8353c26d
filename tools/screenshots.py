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
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, expect, sync_playwright

from laspoly.bots.registry import make_bot
from laspoly.engine import actions as A
from laspoly.engine import events as E
from laspoly.engine.game import TURN, Game
from laspoly.record import game_to_dict, replay

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--disable-quic", "--no-first-run"]
VIEWPORTS = ((1600, 1000), (1024, 768), (768, 1024), (1280, 720))
#: Viewports per preset: Las Poly at every size; the classic board (two decks, no pot) at the largest only.
PRESET_VIEWPORTS = {"laspoly": VIEWPORTS, "classic": VIEWPORTS[:1]}
SCALE = 1.5
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


def find_position(preset: str, seeds: range = range(1, 200)) -> Game:
    """The first position, over seeds, where the first player's turn begins on a rich board and their roll draws a card."""
    for seed in seeds:
        game = Game(list(NAMES), preset=preset, seed=seed, max_rounds=400)
        bots = [make_bot(t, seed=seed + i) for i, t in enumerate(TEMPERS)]
        while not game.is_over and game.turns < 600:
            if (game.actor == 0 and game.phase == TURN and game.rolls_due and not game.claims and not game.offers
                    and not game.players[0].in_prison and not _turn_has_begun(game) and _is_rich(game)
                    and _roll_draws_a_card(game)):
                return game
            game.apply(bots[game.actor].choose(game.observe()))
    raise SystemExit(f"no position found for {preset} in seeds {seeds.start}-{seeds.stop - 1}")


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
        return paths
    finally:
        context.close()


def main(argv: list[str] | None = None) -> int:
    """Write the screenshots; prints each file's path."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "img", help="folder for the PNG files")
    parser.add_argument("--presets", nargs="+", default=["laspoly", "classic"], help="presets to picture")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="laspoly-shots-") as tmp, serve(Path(tmp) / "rooms.db") as url, \
            sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            for preset in args.presets:
                for path in picture(browser, url, preset, args.out, Path(tmp)):
                    print(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path)
        finally:
            browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
