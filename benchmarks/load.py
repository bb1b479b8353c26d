"""Load test: 30 concurrent dashboard sessions on one server process (``make load``).

    python benchmarks/load.py [--sessions 30] [--browsers 3] [--turns 60] [--rounds 3] [--lab-sessions 5] [--json FILE]

Starts ``benchmarks/load_server.py`` (``laspoly serve``'s app plus a
``/load-stats`` page) on loopback in a subprocess, with a throw-away SQLite
database, and in each round opens ``--sessions`` sessions at once:

* every session is a seat or the spectator of a stored room whose three seats are bots;
* ``--browsers`` of them are real Chromium pages (two seats and one spectator);
  the rest are Bokeh clients (``bokeh.client.pull_session``) that open real
  server sessions without a browser;
* a quarter of the rooms are shared: a seat that drives plus a spectator that watches;
* each seat sets the pace to 1 turn per second and switches "Autoplay" on,
  exactly as a person does, and the round lasts until every session has
  seen ``--turns`` turns go by;
* sessions open one a second (``--stagger``), as a class arrives, and all run together.

With ``--lab-sessions N`` one more round follows, the lab round: the same, but
``N`` of the seats (Bokeh clients) also open the Probability tab a few seconds
after their autoplay starts, run a ``--lab-games`` lab (1,000 by default) and
go back to the game; the round lasts until every lab has finished as well.
The labs are played in the server's shared pool of worker processes, so the
games on the server's loop should not slow down; the round reports how long
each lab took.

It reports the step latency (from the moment an autoplay step was due to the
end of its server update, for every step of every session, p50 and p95), the
errors (server log, clients, browser consoles, sessions that stalled), the
server's memory before, during and after the sessions, and whether every
closed session's game model was collected.  Over ``--rounds`` rounds the
memory after each round shows whether it levels off.  Exit status 1 when a goal
is missed: p95 over 250 ms, any error, or a closed session's model still alive.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

from bench_dashboard import ARGS
from bench_engine import machine

from laspoly.analysis.stats import percentile

ROOT = Path(__file__).resolve().parent
TURN = re.compile(r"Round \d+ \(turn (\d+)\)")
LAB_DONE = re.compile(r"(\d+) games, seats rotated")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def get_stats(base: str, since: int = 0, collect: bool = True) -> dict[str, Any]:
    """The server's ``/load-stats``; ``collect`` runs the garbage collector first (it pauses the server)."""
    with urllib.request.urlopen(f"{base}load-stats?since={since}&collect={int(collect)}", timeout=30) as r:
        return dict(json.loads(r.read()))


def make_rooms(db_url: str, count: int, seed: int) -> list[dict[str, str]]:
    """``count`` stored rooms of three bots, rich enough to last; their seat-1 and spectator queries."""
    from laspoly.engine.game import Game
    from laspoly.rooms import new_owner_key, open_room
    from laspoly.store import open_store

    store = open_store(db_url)
    rooms = []
    for i in range(count):
        game = Game(["Ana", "Ben", "Cy"], seed=seed + i, max_rounds=1000, rules={"start_money": 100_000})
        links = open_room(store, game, ["basic", "greedy", "trader"], new_owner_key()).links()
        rooms.append({"seat": links["seat 1"], "view": links["spectator"]})
    return rooms


def query_args(query: str) -> dict[str, str]:
    return dict(part.split("=", 1) for part in query.lstrip("?").split("&"))


def register_panel_models() -> None:
    """Import every Panel Bokeh model, so that a Bokeh client can read the dashboard's document."""
    import importlib
    import pkgutil

    import panel.models

    for info in pkgutil.iter_modules(panel.models.__path__):
        importlib.import_module(f"panel.models.{info.name}")


class LightClient(threading.Thread):
    """A session opened through Bokeh's client, without a browser.

    It pulls the real document, tells the server it is ready as a page does,
    and a seat sets the pace and switches autoplay on through the page's own
    slider and toggle models; every session records the turn in its status line.
    """

    def __init__(self, url: str, query: str, drive: bool, speed: float, lab_games: int = 0, lab_after: float = 3.0) -> None:
        super().__init__(daemon=True)
        self.url, self.args, self.drive, self.speed = url, query_args(query), drive, speed
        self.lab_games, self.lab_after = lab_games, lab_after
        self.lab_clicked: float | None = None  # when "Run lab" was clicked, on the monotonic clock
        self.lab_done: float | None = None  # when the lab's result reached the page
        self._lab_state = "off" if not lab_games else "waiting"  # waiting -> opening -> clicked -> done
        self.turns: list[tuple[float, int]] = []
        self.errors: list[str] = []
        self.session: Any = None
        self.ready = threading.Event()
        self.built = threading.Event()  # the Play tab's controls have arrived
        self.stopping = False

    def run(self) -> None:
        from bokeh.client import ClientSession
        from bokeh.client.util import websocket_url_for_server_url
        from bokeh.events import DocumentReady

        register_panel_models()
        client = self

        class Session(ClientSession):
            """Reads the server's updates, once the page is built, without rebuilding them as Bokeh models.

            A served page gets its Play tab in steps after it has loaded, so the
            first updates are applied to the document as a browser does, until
            the status line, the pace slider and the autoplay toggle are there.
            After that, applying every patch to a Python copy of the document
            would cost the load generator more CPU than the server spends making
            it; on a 2-core machine that would starve the server it measures.
            The status line's text is then read straight from the patch.
            """

            def _handle_patch(self, message: Any) -> None:
                if not client.built.is_set():
                    super()._handle_patch(message)
                    client._look_for_controls()
                    return
                if client._lab_state == "opening":  # the Probability tab is arriving: its lab's controls are wanted
                    super()._handle_patch(message)
                    client._look_for_lab()
                for event in message.content.get("events", []):
                    if event.get("kind") == "ModelChanged" and event.get("attr") == "text":
                        client._seen(str(event.get("new")))

        try:
            self.session = Session(websocket_url=websocket_url_for_server_url(self.url), arguments=self.args)
            self.session.pull()  # as bokeh.client.pull_session, keeping the session to close it on failure
            # as BokehJS does once a page has rendered: Panel connects the session, and builds the Play tab, on this event
            self.session.document.callbacks.send_event(DocumentReady())
            self._look_for_controls()
            self.ready.set()
            self.session._connection.loop_until_closed()  # Bokeh 3 keeps this loop on the connection
            if not self.stopping:
                self.errors.append("the server closed the connection")
        except Exception as exc:  # every failure is counted, none stops the test
            self.errors.append(f"{type(exc).__name__}: {exc}"[:300])
            if self.session is not None:
                self.session.close()
        finally:
            self.ready.set()

    def _look_for_controls(self) -> None:
        """Once the status line and controls are in the document: note the turn, and a seat starts autoplay."""
        from bokeh.models import Slider, Toggle

        doc = self.session.document
        status = next((m for m in doc.models if type(m).__name__ == "HTML" and TURN.search(str(m.text))), None)
        slider = next((m for m in doc.select({"type": Slider}) if m.title == "Turns per second"), None)
        toggle = next((m for m in doc.select({"type": Toggle}) if m.label == "Autoplay"), None)
        # a spectator's page is the projector's view: its status line is all there is to wait for
        if self.built.is_set() or status is None or (self.drive and (slider is None or toggle is None)):
            return
        self.built.set()
        self._seen(str(status.text))
        if self.lab_games:
            self.session._connection._loop.call_later(self.lab_after, self._open_lab)
        if self.drive:
            def start() -> None:  # from inside the client's loop, as a page's clicks arrive
                slider.value = self.speed
                toggle.active = True

            self.session._connection._loop.call_later(0.5, start)

    def _open_lab(self) -> None:
        """Show the Probability tab, as a person clicks it; its lab's controls arrive in the next patches."""
        from bokeh.models import Tabs

        tabs = next(iter(self.session.document.select({"type": Tabs})), None)
        index = next((k for k, t in enumerate(tabs.tabs) if t.title == "Probability"), None) if tabs is not None else None
        if index is None:
            self.errors.append("the lab: no Probability tab")
            return
        self._lab_state = "opening"
        self._tabs = tabs
        tabs.active = index
        self._look_for_lab()

    def _look_for_lab(self) -> None:
        """Once the lab's game box and button are there: ask for ``lab_games`` games, click "Run lab", back to Play."""
        from bokeh.events import ButtonClick
        from bokeh.models import Spinner

        doc = self.session.document
        games = next((m for m in doc.select({"type": Spinner}) if m.title == "Games"), None)
        button = next((m for m in doc.models if type(m).__name__ == "Button" and getattr(m, "label", "") == "Run lab"), None)
        if self._lab_state != "opening" or games is None or button is None:
            return
        self._lab_state = "clicked"
        games.value = self.lab_games

        def click() -> None:  # after the new value has reached the server, as a person's typing comes before the click
            self.lab_clicked = time.monotonic()
            doc.callbacks.send_event(ButtonClick(button))
            self._tabs.active = 0  # back to the game: its status line is what the load test reads

        self.session._connection._loop.call_later(0.3, click)

    def _seen(self, text: str) -> None:
        found = TURN.search(text)
        if found:
            self.turns.append((time.monotonic(), int(found.group(1))))
        elif self._lab_state == "clicked" and LAB_DONE.search(text):
            self._lab_state = "done"
            self.lab_done = time.monotonic()

    def stop(self) -> None:
        self.stopping = True
        if self.session is not None:
            self.session._connection._loop.add_callback(self.session.close)


class BrowserClient:
    """A real Chromium page on the dashboard: a seat clicks its way to autoplay; a spectator watches the projector's view."""

    def __init__(self, browser: Any, url: str, query: str, drive: bool, speed: float) -> None:
        self.errors: list[str] = []
        self.turns: list[tuple[float, int]] = []
        self.drive = drive
        self.page = browser.new_page(viewport={"width": 1280, "height": 900})
        self.page.on("console", lambda m: self.errors.append(f"console: {m.text}"[:300]) if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.errors.append(f"page error: {e}"[:300]))
        try:
            self.page.goto(url + query, timeout=120_000)
            autoplay = self.page.get_by_role("button", name="Autoplay", exact=True)
            if not drive:  # the projector's view has no controls: it is ready when it shows the turn
                self.page.get_by_text(TURN).first.wait_for(state="visible", timeout=120_000)
            else:
                autoplay.wait_for(state="visible", timeout=120_000)
                handle = self.page.locator(".noUi-handle:visible").first
                handle.focus()
                steps = round((4.0 - speed) / 0.5)  # the slider starts at 4 turns per second, in steps of 0.5
                for _ in range(steps):
                    handle.press("ArrowLeft")
                self.page.wait_for_timeout(300)
                autoplay.click()
        except Exception as exc:  # counted as an error; the round goes on
            self.errors.append(f"opening the page: {type(exc).__name__}: {exc}"[:300])
        self.look()

    def look(self) -> None:
        try:
            text = self.page.get_by_text(TURN).first.inner_text(timeout=5_000)
            found = TURN.search(text)
            if found:
                self.turns.append((time.monotonic(), int(found.group(1))))
        except Exception as exc:
            self.errors.append(f"reading the page: {type(exc).__name__}")

    def close(self) -> None:
        self.page.close()


def quantile_ms(values: list[float], q: float) -> float | None:
    """The ``q`` quantile, rounded to 0.1 ms; None when there were no steps (JSON has no NaN)."""
    return round(percentile(values, q), 1) if values else None


def played(turns: list[tuple[float, int]]) -> int:
    """Turns a session saw go by."""
    return turns[-1][1] - turns[0][1] if turns else 0


def run_round(k: int, args: argparse.Namespace, base: str, db_url: str, browser: Any, labs: int = 0) -> dict[str, Any]:
    """One round: open every session, autoplay until each seat has played ``--turns`` turns, close, clean up.

    With ``labs``, that many seats of Bokeh clients also run a ``--lab-games`` lab during play.
    """
    shared = max(1, args.sessions // 8)  # shared rooms: a seat plus a spectator each
    solo = args.sessions - 2 * shared
    rooms = make_rooms(db_url, solo + shared, seed=1000 * k)
    plan = [(r["seat"], True) for r in rooms] + [(r["view"], False) for r in rooms[solo:]]
    # the browsers: two seats and one spectator (of a shared room, whose seat is a light client)
    browser_plan = [plan[0], plan[1], plan[-1]][: args.browsers]
    light_plan = [p for p in plan if p not in browser_plan]
    before = get_stats(base)
    tick0 = before["ticks_total"]
    started = time.monotonic()
    # people arrive over half a minute or so: one new session every --stagger seconds
    pages = []
    for q, drive in browser_plan:
        pages.append(BrowserClient(browser, base, q, drive, args.speed))
        time.sleep(args.stagger)
    lab_seats = [p for p in light_plan if p[1]][:labs]
    lights = [LightClient(base, q, drive, args.speed, lab_games=args.lab_games if (q, drive) in lab_seats else 0)
              for q, drive in light_plan]
    for c in lights:
        c.start()
        time.sleep(args.stagger)
    for c in lights:
        c.ready.wait(120)
    all_open = time.monotonic()  # Linux's monotonic clock is shared by the server's process
    opened = all_open - started
    peak = before["rss_mb"]
    deadline = time.monotonic() + args.turns / args.speed + 120
    while time.monotonic() < deadline:
        time.sleep(5)
        for p in pages:
            p.look()
        peak = max(peak, get_stats(base, since=10**9, collect=False)["rss_mb"])
        if all(played(c.turns) >= args.turns for c in [*lights, *pages]) and all(c.lab_done for c in lights if c.lab_games):
            break
    during = get_stats(base, since=tick0, collect=False)
    for c in lights:
        c.stop()
    for p in pages:
        p.close()
    for c in lights:
        c.join(30)
    # the server discards a closed session after its unused-session lifetime (15 s), checked every 17 s
    after = get_stats(base)
    for _ in range(120):
        if after["alive"] == 0 and after["open_sessions"] == 0:
            break
        time.sleep(1)
        after = get_stats(base)
    ms = [late + update for _, late, update in during["ticks"]]
    steady = [late + update for t, late, update in during["ticks"] if t >= all_open]
    arriving = [late + update for t, late, update in during["ticks"] if t < all_open]
    clients = [*lights, *pages]
    errors = [e for c in clients for e in c.errors] + during["errors"][len(before["errors"]):]
    short = sum(1 for c in clients if played(c.turns) < args.turns)
    lab_clients = [c for c in lights if c.lab_games]
    lab_s = sorted(round(c.lab_done - c.lab_clicked, 1) for c in lab_clients if c.lab_done and c.lab_clicked)
    unfinished = len(lab_clients) - len(lab_s)
    errors += [f"a {args.lab_games}-game lab did not finish"] * unfinished
    return {
        "round": k + 1, "sessions": len(clients), "browsers": len(pages), "shared_rooms": shared,
        "open_s": round(opened, 1), "steps": len(ms),
        "p50_ms": quantile_ms(ms, 0.5), "p95_ms": quantile_ms(ms, 0.95), "max_ms": round(max(ms, default=0), 1),
        "update_p50_ms": round(statistics.median([u for _, _, u in during["ticks"]] or [0]), 1),
        "all_open_p50_ms": quantile_ms(steady, 0.5), "all_open_p95_ms": quantile_ms(steady, 0.95),
        "arriving_p95_ms": quantile_ms(arriving, 0.95), "steps_over_1s": sum(1 for v in ms if v > 1000),
        "min_turns": min((played(c.turns) for c in clients), default=0), "short_sessions": short,
        "errors": len(errors) + short, "error_samples": errors[:5],
        "labs": len(lab_clients), "lab_games": args.lab_games if lab_clients else 0, "lab_s": lab_s,
        "rss_before_mb": round(before["rss_mb"], 1), "rss_peak_mb": round(peak, 1), "rss_after_mb": round(after["rss_mb"], 1),
        "models": after["models"] - before["models"], "models_alive_after": after["alive"],
    }


def main() -> int:
    # Bokeh's client handles each incoming message one await deeper than the last
    # (ClientConnection._next -> _handle_messages -> _next), so a session that
    # receives thousands of updates needs a deep stack in its thread
    sys.setrecursionlimit(200_000)
    threading.stack_size(512 * 1024 * 1024)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=30)
    parser.add_argument("--browsers", type=int, default=3)
    parser.add_argument("--turns", type=int, default=60)
    parser.add_argument("--speed", type=float, default=1.0, help="autoplay pace, turns per second")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--stagger", type=float, default=1.0, help="seconds between two sessions opening")
    parser.add_argument("--lab-sessions", type=int, default=0,
                        help="add a round in which this many seats also run a lab during play (make load: 5)")
    parser.add_argument("--lab-games", type=int, default=1000, help="games of each lab in the lab round")
    parser.add_argument("--json", help="also write the results to this file")
    args = parser.parse_args()
    if not 0 <= args.browsers <= 3 or args.sessions < 4:
        parser.error("use 0-3 browsers and at least 4 sessions")
    if not 0 <= args.lab_sessions <= args.sessions - 8 or not 4 <= args.lab_games <= 5000:
        parser.error("use at most sessions - 8 lab sessions, of 4 to 5000 games each")
    print(f"machine: {machine()}", flush=True)
    port = free_port()
    base = f"http://127.0.0.1:{port}/"
    with tempfile.TemporaryDirectory() as tmp:
        db_url = f"sqlite:///{tmp}/load.db"
        env = {**os.environ, "LASPOLY_DB": db_url}
        server = subprocess.Popen([sys.executable, str(ROOT / "load_server.py"), "--port", str(port)], env=env,
                                  stdout=subprocess.DEVNULL, stderr=open(Path(tmp) / "server.log", "w"))
        try:
            for _ in range(120):
                try:
                    get_stats(base)
                    break
                except OSError:
                    time.sleep(0.5)
            results = []
            from playwright.sync_api import sync_playwright

            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS) if args.browsers else None
                for k in range(args.rounds + (1 if args.lab_sessions else 0)):
                    labs = args.lab_sessions if k == args.rounds else 0  # the lab round comes last
                    r = run_round(k, args, base, db_url, browser, labs=labs)
                    results.append(r)
                    print(json.dumps(r), flush=True)
                if browser is not None:
                    browser.close()
        finally:
            server.terminate()
            server.wait(30)
    ok = all(r["p95_ms"] is not None and r["p95_ms"] < 250 and r["errors"] == 0 and r["models_alive_after"] == 0 for r in results)
    print(f"{'round':>5} {'sessions':>8} {'steps':>6} {'p50 ms':>7} {'p95 ms':>7} {'errors':>6} "
          f"{'MB before':>9} {'MB peak':>8} {'MB after':>8} {'models alive':>12}  labs")
    for r in results:
        labs = f"{r['labs']} x {r['lab_games']} games, {min(r['lab_s'], default=0)}-{max(r['lab_s'], default=0)} s" if r["labs"] else "-"
        print(f"{r['round']:>5} {r['sessions']:>8} {r['steps']:>6} {r['p50_ms']:>7} {r['p95_ms']:>7} {r['errors']:>6} "
              f"{r['rss_before_mb']:>9} {r['rss_peak_mb']:>8} {r['rss_after_mb']:>8} {r['models_alive_after']:>5} of {r['models']}  {labs}")
    print("goals (p95 < 250 ms, 0 errors, every closed model collected): " + ("met" if ok else "MISSED"))
    if args.json:
        Path(args.json).write_text(json.dumps({"machine": machine(), "args": vars(args), "rounds": results}, indent=2))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
