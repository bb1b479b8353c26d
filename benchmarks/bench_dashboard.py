"""Dashboard speed and memory: step latency, first page, autoplay pace, session cost and clean-up.

    python benchmarks/bench_dashboard.py [--quick] [--pages]

Runs the dashboard in this process (``pn.serve`` on loopback, threaded) and
drives it with Playwright and the system Chromium, so it can see both the
page and the server's own state:

* a step's server-side update (``GameModel.advance``, as "Next", with every view redrawing), median over 200 steps;
* the first page interactive (the "Roll" button visible), median of 5 fresh pages;
* the server's CPU for each of those pages (its loop thread, from the request until the Play tab's last piece), and
  each piece's own (``laspoly.ui.pieces`` at DEBUG): a class opening its pages at once waits for these on one loop;
* autoplay at 10 turns per second for 60 s: the turn the page shows against the server's turn;
* the memory of an idle session (RSS growth over 10 open sessions, per session);
* 50 open-and-close cycles: RSS after each 10, and how many closed sessions' game models are still alive (weakrefs).
"""

from __future__ import annotations

import argparse
import gc
import logging
import re
import socket
import statistics
import threading
import time
import weakref
from typing import Any

import panel as pn
from bench_engine import machine, rss_mb
from playwright.sync_api import sync_playwright

from laspoly.server.serving import tune_collector
from laspoly.ui.app import PIECES_LOG, Dashboard, build_app
from laspoly.ui.model import GameModel

ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--disable-quic", "--no-first-run"]
MODELS: list[weakref.ref[GameModel]] = []
DASHBOARDS: list[Dashboard] = []
MODE = {"autoplay": False}
#: Every piece of a served Play tab as (its number, how many, CPU ms), as ``Dashboard._fill_play`` logs them.
PIECES: list[tuple[int, int, float]] = []
#: The thread that runs the server's event loop.
SERVER: dict[str, threading.Thread] = {}


class _Pieces(logging.Handler):
    def emit(self, record: logging.LogRecord) -> None:
        index, count, ms = record.args  # type: ignore[misc]
        PIECES.append((int(index), int(count), float(ms)))


def server_cpu_ms() -> float:
    """CPU time of the server's loop thread so far, in milliseconds."""
    ident = SERVER["thread"].ident
    assert ident is not None
    return 1000 * time.clock_gettime(time.pthread_getcpuclockid(ident))


def page_build(builds: list[tuple[float, list[float]]]) -> str:
    """The server's CPU per page and per piece of its Play tab, as medians over ``builds`` (the first page left out)."""
    later = builds[1:] or builds
    pieces = [statistics.median(build[1][k] for build in later) for k in range(min(len(b[1]) for b in later))]
    return (f"page build on the server (median of {len(later)}): {statistics.median(b[0] for b in later):.0f} ms CPU, "
            f"of which the Play tab's {len(pieces)} pieces {sum(pieces):.0f} ms: "
            + " / ".join(f"{p:.0f}" for p in pieces) + f" ms (largest {max(pieces):.0f} ms)")


def step_latency(steps: int = 200) -> float:
    """Median milliseconds of one server-side step with every view redrawing."""
    model = GameModel()
    model.new_game(["A", "B", "C"], ["basic", "greedy", "trader"], seed=3, max_rounds=2000)
    Dashboard(model)
    times = []
    for _ in range(steps):
        if model.game.is_over:
            model.new_game(["A", "B", "C"], ["basic", "greedy", "trader"], seed=len(times), max_rounds=2000)
        t = time.perf_counter()
        model.advance()
        times.append(1000 * (time.perf_counter() - t))
    return statistics.median(times)


def odds_latency(steps: int = 200) -> float:
    """Median milliseconds to work out the live odds after a step: the overlay (this turn) and the stakes' lines."""
    from laspoly.ui.odds import overlay
    from laspoly.ui.playview import buy_lines, casino_line, prison_lines

    model = GameModel()
    model.new_game(["A", "B", "C"], ["basic", "greedy", "trader"], seed=3, max_rounds=2000)
    overlay(model.game, "turn", "en")  # the chain is solved once per rule set and process
    times = []
    for _ in range(steps):
        if model.game.is_over:
            model.new_game(["A", "B", "C"], ["basic", "greedy", "trader"], seed=len(times), max_rounds=2000)
        model.advance()
        t = time.perf_counter()
        overlay(model.game, "turn", model.lang)
        buy_lines(model), prison_lines(model), casino_line(model)
        times.append(1000 * (time.perf_counter() - t))
    return statistics.median(times)


def _app() -> Dashboard:
    if MODE["autoplay"]:
        from laspoly.engine.game import Game

        # a rich start keeps the game going for the whole measurement
        game = Game(["A", "B", "C"], seed=5, max_rounds=5000, rules={"start_money": 100_000})
        model = GameModel(game, seats=["basic", "greedy", "trader"], speed=10.0)
        d = Dashboard(model)
        d.controls.speed.value = 10.0
        DASHBOARDS.append(d)
        return d
    d = build_app()
    MODELS.append(weakref.ref(d.model))
    return d


def _serve() -> str:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    pn.extension("filedropper", notifications=False)
    SERVER["thread"] = threading.Thread(target=lambda: pn.serve(_app, port=port, address="127.0.0.1", show=False, threaded=False,
                                                                check_unused_sessions=500, unused_session_lifetime=500,
                                                                websocket_origin=[f"127.0.0.1:{port}"]), daemon=True)
    SERVER["thread"].start()
    time.sleep(3)
    return f"http://127.0.0.1:{port}/"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="shorter runs (autoplay 20 s, 20 cycles)")
    parser.add_argument("--pages", action="store_true", help="only the first pages and their build on the server")
    args = parser.parse_args()
    print(f"machine: {machine()}")
    if not args.pages:
        print(f"server-side step (median of 200): {step_latency():.1f} ms")
        print(f"live odds after a step (median of 200): {odds_latency():.2f} ms")
    tune_collector()  # as ``laspoly serve`` does before its first page
    url = _serve()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
        firsts = []
        builds: list[tuple[float, list[float]]] = []
        PIECES_LOG.setLevel(logging.DEBUG)
        PIECES_LOG.addHandler(_Pieces())
        for _ in range(5):
            page = browser.new_page()
            before, pieces = server_cpu_ms(), len(PIECES)
            t = time.perf_counter()
            page.goto(url)
            page.get_by_role("button", name="Roll", exact=True).wait_for(state="visible", timeout=60_000)
            firsts.append(time.perf_counter() - t)
            waited = time.perf_counter() + 60
            while (not PIECES[pieces:] or PIECES[-1][0] < PIECES[-1][1]) and time.perf_counter() < waited:  # its last piece
                time.sleep(0.05)
            builds.append((server_cpu_ms() - before, [ms for _, _, ms in PIECES[pieces:]]))
            page.close()
        PIECES_LOG.setLevel(logging.NOTSET)
        print(f"first page interactive (median of 5): {statistics.median(firsts):.2f} s")
        print(page_build(builds))
        if args.pages:
            browser.close()
            return
        autoplay(browser, url, 20 if args.quick else 60)
        sessions(browser, url, 20 if args.quick else 50)
        browser.close()


def _page_turn(page: Any) -> int:
    text = page.get_by_text(re.compile(r"^Round \d+ \(turn \d+\)")).first.inner_text()
    return int(re.search(r"turn (\d+)", text).group(1))  # type: ignore[union-attr]


def autoplay(browser: Any, url: str, seconds: int) -> None:
    """Autoplay all-bot seats at 10 turns/s; compare the page's turn with the server's."""
    MODE["autoplay"] = True
    page = browser.new_page()
    page.goto(url)
    page.get_by_role("button", name="Autoplay", exact=True).wait_for(state="visible", timeout=60_000)
    MODE["autoplay"] = False
    d = DASHBOARDS[-1]
    page.get_by_role("button", name="Autoplay", exact=True).click()
    time.sleep(0.5)
    start_turn = d.model.game.turns
    time.sleep(seconds)
    server = d.model.game.turns
    shown = _page_turn(page)
    lag = (server - shown) / 10
    rate = (server - start_turn) / seconds
    print(f"autoplay at 10 turns/s for {seconds} s: server turn {server}, page shows {shown} "
          f"(behind by {lag:.1f} s of play), achieved {rate:.1f} turns/s")
    page.close()


def sessions(browser: Any, url: str, cycles: int) -> None:
    """Idle session memory, and memory and model clean-up over open-and-close cycles."""
    gc.collect()
    before = rss_mb()
    pages = []
    for _ in range(10):
        page = browser.new_page()
        page.goto(url)
        page.get_by_role("button", name="Roll", exact=True).wait_for(state="visible", timeout=60_000)
        pages.append(page)
    time.sleep(2)
    gc.collect()
    print(f"idle session: {(rss_mb() - before) / 10:.1f} MB each (10 open sessions)")
    for page in pages:
        page.close()
    levels = []
    for k in range(cycles):
        page = browser.new_page()
        page.goto(url)
        page.get_by_role("button", name="Roll", exact=True).wait_for(state="visible", timeout=60_000)
        page.close()
        if (k + 1) % 10 == 0:
            time.sleep(2)
            gc.collect()
            levels.append(rss_mb())
    alive = len(MODELS)
    waited = 0
    while alive and waited < 60:  # the server discards closed sessions on its own schedule
        time.sleep(1)
        waited += 1
        gc.collect()
        alive = sum(1 for r in MODELS if r() is not None)
    print(f"memory after each 10 of {cycles} open-and-close cycles: " + ", ".join(f"{v:.0f}" for v in levels) + " MB")
    print(f"game models still alive after all sessions closed: {alive} of {len(MODELS)} (checked for {waited} s)")


if __name__ == "__main__":
    main()
