"""Load test: 30 concurrent dashboard sessions on one server process (``make load``).

    python benchmarks/load.py [--sessions 30] [--browsers 3] [--turns 60] [--rounds 3] [--lab-sessions 5]
                              [--class-round] [--num-procs 2 --db postgresql] [--json FILE]

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

With ``--class-round`` one more round follows, the class round: a class is
created, and ``--sessions`` students join it, each in a room of their own
("Student 01", "Student 02", ...: one person and two bots, stored in the class
under the student's name).  The ``--browsers`` Chromium students join on the
page itself, on a phone's screen (390x844, touch): the student link, their
name, "Join and play" (the link asks for a seed whose game lasts the round).
The others are joined before the round as that page joins them
(:func:`laspoly.server.joining.join_class`), and open their game at the address the
joined page moves to.  Autoplay goes on only while no person must decide, so
the student's seat is handed to a bot (as the room's owner may; a joined
phone's page is then reloaded), and each game plays on by itself at 1 turn per
second as in the other rounds.  The class's teacher page and its
projector view (the teacher link with ``&projector=1``), each refreshing
itself every 2 seconds from every room of the class, are open from before the
first student arrives to the end, and a watch link (from the teacher's list)
follows one room as a projector does.  The round reports the teacher pages'
refresh times as well; a teacher page that did not refresh, or failed to,
is an error.

``--num-procs N`` runs the server as N processes sharing its port (the Bokeh
server's ``num_procs``, as ``panel serve --num-procs N``), and ``--db
postgresql`` stores the games in a throw-away PostgreSQL server on loopback
(``benchmarks/pg_server.py``) instead of SQLite.  Each process counts its own
steps, errors, memory and models: the figures are added up over the
processes (memory too), and ``per_process`` gives each process's own.

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
import functools
import json
import os
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from contextlib import nullcontext
from pathlib import Path
from typing import Any

from bench_dashboard import ARGS
from bench_engine import machine
from pg_server import postgres_server

from laspoly.analysis.stats import percentile

ROOT = Path(__file__).resolve().parent
TURN = re.compile(r"Round \d+ \(turn (\d+)\)")
LAB_DONE = re.compile(r"(\d+) games, seats rotated")
#: A generous bound on a lab game's time in the pool: four trading bots' Las Poly games take one worker about 40 ms each
#: on the pure-Python build of a 2-core machine whose other core serves the pages.  A lab not done by then is an error.
LAB_SECONDS_PER_GAME = 0.12


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def get_stats(base: str, since: int = 0, collect: bool = True, after: float = 0.0) -> dict[str, Any]:
    """One server process's ``/load-stats``; ``collect`` runs the garbage collector first (it pauses the server)."""
    with urllib.request.urlopen(f"{base}load-stats?since={since}&collect={int(collect)}&after={after}", timeout=30) as r:
        return dict(json.loads(r.read()))


def gather(bases: list[str], since: list[int] | None = None, collect: bool = True, after: float = 0.0) -> dict[str, Any]:
    """Every server process's ``/load-stats`` (``since``: each process's tick index), added up; ``per_process`` keeps each."""
    parts = [get_stats(b, since[i] if since else 0, collect, after) for i, b in enumerate(bases)]
    return {
        "rss_mb": sum(p["rss_mb"] for p in parts),
        "open_sessions": sum(p["open_sessions"] for p in parts),
        "models": sum(p["models"] for p in parts),
        "alive": sum(p["alive"] for p in parts),
        "ticks_total": [p["ticks_total"] for p in parts],
        "ticks": [t for p in parts for t in p["ticks"]],
        "refreshes": [r for p in parts for r in p["refreshes"]],
        "per_process": parts,
    }


def new_errors(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    """The errors each server process logged between two :func:`gather`."""
    return [e for b, a in zip(before["per_process"], after["per_process"], strict=True) for e in a["errors"][len(b["errors"]):]]


def stats_bases(stats_dir: Path, procs: int, server: subprocess.Popen[bytes]) -> list[str]:
    """Each server process's own ``/load-stats`` address, once all ``procs`` of them answer (by process id)."""
    for _ in range(360):
        files = sorted(stats_dir.iterdir()) if stats_dir.exists() else []
        if len(files) >= procs:
            bases = [f"http://127.0.0.1:{int(f.read_text())}/" for f in files if not f.name.endswith(".tmp")]
            try:
                for b in bases:
                    get_stats(b, collect=False)
                return bases
            except OSError:
                pass
        if server.poll() is not None:
            raise RuntimeError(f"the load server exited with status {server.returncode}")
        time.sleep(0.5)
    raise RuntimeError("the load server did not start within 180 s")


def make_rooms(db_url: str, count: int, seed: int) -> list[dict[str, str]]:
    """``count`` stored rooms of three bots, rich enough to last; their seat-1 and spectator queries."""
    from laspoly.engine.game import Game
    from laspoly.server.rooms import new_owner_key, open_room
    from laspoly.server.store import open_store

    store = open_store(db_url)
    rooms = []
    for i in range(count):
        game = Game(["Ana", "Ben", "Cy"], seed=seed + i, max_rounds=1000, rules={"start_money": 100_000})
        links = open_room(store, game, ["basic", "greedy", "trader"], new_owner_key()).links()
        rooms.append({"seat": links["seat 1"], "view": links["spectator"]})
    return rooms


def make_class(db_url: str, count: int, seed: int, on_page: int = 0) -> dict[str, Any]:
    """A class, and ``count`` students, of whom all but the first ``on_page`` joined to it now through
    :func:`laspoly.server.joining.join_class`, as the student link's page does (the first ``on_page`` join on the page itself).

    Each student ("Student 01", ...) has a room of their own in the class: one
    person (their name, claimed in the class) and two of the table's bots.  The
    game is rich enough to last the round, and its person's seat is handed to a
    bot, so that autoplay plays on.  Returns the class's code, the address of each
    student joined here (the owner's seat link the joined page moves to), the
    teacher's page, its projector view and the watch link of the first of their rooms.
    """
    from laspoly.engine.game import Game
    from laspoly.server.classes import ClassData, create_class
    from laspoly.server.joining import join_class
    from laspoly.server.rooms import owner_link
    from laspoly.server.store import open_store
    from laspoly.server.table import DEFAULT_OPPONENT, PERSON, default_seats
    from laspoly.ui.join import seat_names

    store = open_store(db_url)
    new = create_class(store, f"Load test {seed}")
    students, rooms = [], []
    for i in range(on_page, count):
        game = Game(seat_names(f"Student {i + 1:02d}", 1, 2), seed=seed + i, max_rounds=1000, rules={"start_money": 100_000})
        table = join_class(store, new.code, game, [PERSON, *default_seats(3)[1:]])
        table.set_seat(0, DEFAULT_OPPONENT)  # autoplay stops where a person must decide: a bot plays the student's seat
        students.append(owner_link(table.owner_key or "", table.room_id))
        rooms.append(table.room_id)
    data = ClassData(store, new.code, new.teacher_key)
    data.refresh()  # as the teacher's page does: each room gets its watch link
    watch = next(s.watch for s in data.summaries() if s.room_id == rooms[0])
    return {"code": new.code, "students": students, "rooms": rooms, "teacher": new.teacher_link,
            "projector": new.teacher_link + "&projector=1", "watch": watch}


def lasting_seed(turns: int, start: int) -> int:
    """The first seed from ``start`` whose class game (three of the table's bots, the page's rules) lasts ``turns`` turns.

    A student who joins on the page plays the page's game, which can end within
    60 turns; the student's link asks for this seed (``&seed=N``), and as all three
    seats are bots once the student's is handed over, the game plays as here.
    """
    from laspoly.bots.runner import play_bot_turns
    from laspoly.engine.game import Game
    from laspoly.server.table import DEFAULT_OPPONENT, seat_bots
    from laspoly.ui.join import seat_names
    from laspoly.ui.model import DEFAULT_MAX_ROUNDS

    for seed in range(start, start + 1000):
        game = Game(seat_names("Student", 1, 2), seed=seed, max_rounds=DEFAULT_MAX_ROUNDS)
        play_bot_turns(game, seat_bots([DEFAULT_OPPONENT] * 3, seed), max_actions=10**6,
                       until=lambda g: g.turns >= turns)
        if not game.is_over:
            return seed
    raise RuntimeError(f"no seed from {start} lasts {turns} turns")


def hand_seat_to_bot(db_url: str, address: str) -> None:
    """The student's seat of a joined game's address (the owner's seat link) handed to a bot, by the room's owner."""
    from laspoly.server.rooms import join_room
    from laspoly.server.store import open_store
    from laspoly.server.table import DEFAULT_OPPONENT

    args = query_args(address.split("?", 1)[1])
    join_room(open_store(db_url), args["room"], args["seat"], owner_key=args["me"]).set_seat(0, DEFAULT_OPPONENT)


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

    def __init__(self, url: str, query: str, drive: bool, speed: float, lab_games: int = 0, lab_after: float = 3.0,
                 page_only: bool = False) -> None:
        """``page_only``: a page with no game (a class's teacher page), open and left to refresh itself."""
        super().__init__(daemon=True)
        self.url, self.args, self.drive, self.speed = url, query_args(query), drive, speed
        self.page_only = page_only
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
                if client._lab_state in ("waiting", "opening"):  # the lab's controls will be wanted: the copy is kept
                    super()._handle_patch(message)  # whole until then (a later patch may name a model an earlier one made)
                    client._look_for_lab()
                for event in message.content.get("events", []):
                    if event.get("kind") == "ModelChanged" and event.get("attr") == "text":
                        client._seen(str(event.get("new")))

        try:
            self.session = Session(websocket_url=websocket_url_for_server_url(self.url), arguments=self.args)
            self.session.pull()  # as bokeh.client.pull_session, keeping the session to close it on failure
            # as BokehJS does once a page has rendered: Panel connects the session, and builds the Play tab, on this event
            self.session.document.callbacks.send_event(DocumentReady())
            if self.page_only:
                self.built.set()  # nothing to wait for: its updates are read no further
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

    def __init__(self, browser: Any, url: str, query: str, drive: bool, speed: float, phone: bool = False,
                 join: tuple[str, Any] | None = None) -> None:
        """``phone``: a phone upright (390x844 CSS pixels, a mobile viewport and touch), as a class's students have.

        ``join``: ``query`` is a class's student link; the page joins under this name, as a student does, then
        calls the function given with its game's address (which hands the student's seat to a bot) and reloads.
        """
        self.errors: list[str] = []
        self.turns: list[tuple[float, int]] = []
        self.drive, self.phone = drive, phone
        if phone:
            self.context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
        else:
            self.context = browser.new_context(viewport={"width": 1280, "height": 900})
        self.page = self.context.new_page()
        self.page.on("console", lambda m: self.errors.append(f"console: {m.text}"[:300]) if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.errors.append(f"page error: {e}"[:300]))
        try:
            self.page.goto(url + query, timeout=120_000)
            autoplay = self.page.get_by_role("button", name="Autoplay", exact=True)
            if join is not None:
                name, joined = join
                self.page.locator(".bk-input-group:has(> label:text-is(\"Your name or your team's name\")) input").fill(name)
                self.page.get_by_role("button", name="Join and play", exact=True).tap()
                autoplay.wait_for(state="visible", timeout=120_000)  # the joined game, at its own address
                joined(self.page.url)
                self.page.reload(timeout=120_000)
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
                if phone:
                    autoplay.tap()
                else:
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
        self.context.close()


def quantile_ms(values: list[float], q: float) -> float | None:
    """The ``q`` quantile, rounded to 0.1 ms; None when there were no steps (JSON has no NaN)."""
    return round(percentile(values, q), 1) if values else None


def played(turns: list[tuple[float, int]]) -> int:
    """Turns a session saw go by."""
    return turns[-1][1] - turns[0][1] if turns else 0


def run_round(k: int, args: argparse.Namespace, url: str, bases: list[str], db_url: str, browser: Any, labs: int = 0,
              klass: bool = False) -> dict[str, Any]:
    """One round: open every session, autoplay until each seat has played ``--turns`` turns, close, clean up.

    ``url`` is the page's address, ``bases`` each server process's ``/load-stats``.  With ``labs``, that many seats
    of Bokeh clients also run a ``--lab-games`` lab during play.  With ``klass``, the round is the class round: the
    students of one class, its teacher's page and projector view, and a watch link.
    """
    pages: list[BrowserClient] = []
    front: list[LightClient] = []  # pages open before the first session arrives: a class's teacher page and projector
    joins: list[tuple[str, Any] | None] = [None] * args.browsers
    if klass:
        # the Chromium students join on the page itself; the others were joined as that page joins
        c = make_class(db_url, args.sessions, seed=1000 * k, on_page=args.browsers)
        seed = 1000 * k
        browser_plan = []
        for i in range(args.browsers):
            seed = lasting_seed(2 * args.turns, seed + 1)
            browser_plan.append((f"?class={c['code']}&seed={seed}", True))
            joins[i] = (f"Student {i + 1:02d}", functools.partial(hand_seat_to_bot, db_url))
        light_plan = [(q, True) for q in c["students"]] + [(c["watch"], False)]
        front = [LightClient(url, c[name], False, args.speed, page_only=True) for name in ("teacher", "projector")]
        shared = 0
    else:
        shared = max(1, args.sessions // 8)  # shared rooms: a seat plus a spectator each
        solo = args.sessions - 2 * shared
        rooms = make_rooms(db_url, solo + shared, seed=1000 * k)
        plan = [(r["seat"], True) for r in rooms] + [(r["view"], False) for r in rooms[solo:]]
        # the browsers: two seats and one spectator (of a shared room, whose seat is a light client)
        browser_plan = [plan[0], plan[1], plan[-1]][: args.browsers]
        light_plan = [p for p in plan if p not in browser_plan]
    before = gather(bases)
    since = before["ticks_total"]
    started = time.monotonic()
    for c_ in front:
        c_.start()
        c_.ready.wait(120)
    # people arrive over half a minute or so: one new session every --stagger seconds
    for (q, drive), join in zip(browser_plan, joins, strict=False):
        pages.append(BrowserClient(browser, url, q, drive, args.speed, phone=klass, join=join))
        time.sleep(args.stagger)
    lab_seats = [p for p in light_plan if p[1]][:labs]
    lights = [LightClient(url, q, drive, args.speed, lab_games=args.lab_games if (q, drive) in lab_seats else 0)
              for q, drive in light_plan]
    for c_ in lights:
        c_.start()
        time.sleep(args.stagger)
    for c_ in lights:
        c_.ready.wait(120)
    all_open = time.monotonic()  # Linux's monotonic clock is shared by the server's processes
    opened = all_open - started
    peak = before["rss_mb"]
    peak_each = [p["rss_mb"] for p in before["per_process"]]
    open_each = [p["open_sessions"] for p in before["per_process"]]
    players = [*lights, *pages]  # the sessions that follow a game
    deadline = time.monotonic() + args.turns / args.speed + 120
    if labs:  # the round lasts until every lab has finished: the labs share the pool's workers, one chunk each at a time
        deadline += labs * args.lab_games * LAB_SECONDS_PER_GAME
    while time.monotonic() < deadline:
        time.sleep(5)
        for p in pages:
            p.look()
        now = gather(bases, since=[10**9] * len(bases), collect=False)
        peak = max(peak, now["rss_mb"])
        peak_each = [max(a, p["rss_mb"]) for a, p in zip(peak_each, now["per_process"], strict=True)]
        open_each = [max(a, p["open_sessions"]) for a, p in zip(open_each, now["per_process"], strict=True)]
        if all(played(c_.turns) >= args.turns for c_ in players) and all(c_.lab_done for c_ in lights if c_.lab_games):
            break
    during = gather(bases, since=since, collect=False, after=started)
    for c_ in [*front, *lights]:
        c_.stop()
    for p in pages:
        p.close()
    for c_ in [*front, *lights]:
        c_.join(30)
    # the server discards a closed session after its unused-session lifetime (15 s), checked every 17 s
    after = gather(bases)
    for _ in range(120):
        if after["alive"] == 0 and after["open_sessions"] == 0:
            break
        time.sleep(1)
        after = gather(bases)
    ms = [late + update for _, late, update in during["ticks"]]
    steady = [late + update for t, late, update in during["ticks"] if t >= all_open]
    arriving = [late + update for t, late, update in during["ticks"] if t < all_open]
    clients = [*front, *lights, *pages]
    errors = [e for c_ in clients for e in c_.errors] + new_errors(before, during) + new_errors(during, after)
    short = sum(1 for c_ in players if played(c_.turns) < args.turns)
    lab_clients = [c_ for c_ in lights if c_.lab_games]
    lab_s = sorted(round(c_.lab_done - c_.lab_clicked, 1) for c_ in lab_clients if c_.lab_done and c_.lab_clicked)
    unfinished = len(lab_clients) - len(lab_s)
    errors += [f"a {args.lab_games}-game lab did not finish"] * unfinished
    refresh_ms = [r for _, r in during["refreshes"]]
    if klass and len(refresh_ms) < 2:
        errors.append(f"the teacher's pages refreshed {len(refresh_ms)} times")
    per_process = []
    for i, (b, d, a) in enumerate(zip(before["per_process"], during["per_process"], after["per_process"], strict=True)):
        each = [late + update for _, late, update in d["ticks"]]
        per_process.append({"pid": d["pid"], "steps": len(each), "p50_ms": quantile_ms(each, 0.5), "p95_ms": quantile_ms(each, 0.95),
                            "max_ms": round(max(each, default=0), 1), "refreshes": len(d["refreshes"]),
                            "peak_open_sessions": open_each[i], "errors": len(a["errors"]) - len(b["errors"]),
                            "rss_before_mb": round(b["rss_mb"], 1), "rss_peak_mb": round(peak_each[i], 1),
                            "rss_after_mb": round(a["rss_mb"], 1), "models": a["models"] - b["models"], "models_alive_after": a["alive"]})
    return {
        "round": k + 1, "kind": "class" if klass else "lab" if labs else "rooms", "processes": len(bases),
        "sessions": len(clients), "browsers": len(pages), "shared_rooms": shared,
        "open_s": round(opened, 1), "steps": len(ms),
        "p50_ms": quantile_ms(ms, 0.5), "p95_ms": quantile_ms(ms, 0.95), "max_ms": round(max(ms, default=0), 1),
        "update_p50_ms": round(statistics.median([u for _, _, u in during["ticks"]] or [0]), 1),
        "all_open_p50_ms": quantile_ms(steady, 0.5), "all_open_p95_ms": quantile_ms(steady, 0.95),
        "arriving_p95_ms": quantile_ms(arriving, 0.95), "steps_over_1s": sum(1 for v in ms if v > 1000),
        "min_turns": min((played(c_.turns) for c_ in players), default=0), "short_sessions": short,
        "errors": len(errors) + short, "error_samples": errors[:5],
        "labs": len(lab_clients), "lab_games": args.lab_games if lab_clients else 0, "lab_s": lab_s,
        "teacher_refreshes": len(refresh_ms), "refresh_p50_ms": quantile_ms(refresh_ms, 0.5),
        "refresh_p95_ms": quantile_ms(refresh_ms, 0.95), "refresh_max_ms": round(max(refresh_ms, default=0), 1),
        "rss_before_mb": round(before["rss_mb"], 1), "rss_peak_mb": round(peak, 1), "rss_after_mb": round(after["rss_mb"], 1),
        "models": after["models"] - before["models"], "models_alive_after": after["alive"],
        "per_process": per_process,
    }


def start_load_server(port: int, db_url: str, procs: int, tmp: Path) -> subprocess.Popen[bytes]:
    """``load_server.py`` on loopback in a process group of its own (stopping it stops every process it forked)."""
    stats_dir = tmp / "stats"
    stats_dir.mkdir()
    env = {**os.environ, "LASPOLY_DB": db_url}
    return subprocess.Popen([sys.executable, str(ROOT / "load_server.py"), "--port", str(port), "--num-procs", str(procs),
                             "--stats-dir", str(stats_dir)], env=env, start_new_session=True,
                            stdout=subprocess.DEVNULL, stderr=open(tmp / "server.log", "w"))


def stop(server: subprocess.Popen[bytes]) -> None:
    """Stop the server and every process it forked."""
    try:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(30)
    except ProcessLookupError:
        pass
    except subprocess.TimeoutExpired:
        os.killpg(server.pid, signal.SIGKILL)
        server.wait(30)


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
    parser.add_argument("--class-round", action="store_true",
                        help="add the class round: --sessions students of one class, its teacher's page and projector view")
    parser.add_argument("--num-procs", type=int, default=1, help="server processes sharing the port (as panel serve --num-procs)")
    parser.add_argument("--db", choices=["sqlite", "postgresql"], default="sqlite",
                        help="the games' database: a throw-away SQLite file, or a throw-away PostgreSQL server on loopback")
    parser.add_argument("--json", help="also write the results to this file")
    args = parser.parse_args()
    if not 0 <= args.browsers <= 3 or args.sessions < 4:
        parser.error("use 0-3 browsers and at least 4 sessions")
    if args.lab_sessions and (not 0 < args.lab_sessions <= args.sessions - 8 or not 4 <= args.lab_games <= 5000):
        parser.error("use at most sessions - 8 lab sessions, of 4 to 5000 games each")
    if args.rounds < 0 or args.rounds + bool(args.lab_sessions) + args.class_round == 0 or not 1 <= args.num_procs <= 8:
        parser.error("run at least one round, on 1 to 8 server processes")
    print(f"machine: {machine()}", flush=True)
    port = free_port()
    url = f"http://127.0.0.1:{port}/"
    kinds = ["rooms"] * args.rounds + ["lab"] * bool(args.lab_sessions) + ["class"] * args.class_round
    results = []
    with tempfile.TemporaryDirectory() as tmp, (postgres_server() if args.db == "postgresql" else nullcontext(None)) as pg:
        db_url = pg or f"sqlite:///{tmp}/load.db"
        server = start_load_server(port, db_url, args.num_procs, Path(tmp))
        try:
            bases = stats_bases(Path(tmp) / "stats", args.num_procs, server)
            from playwright.sync_api import sync_playwright

            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS) if args.browsers else None
                for k, kind in enumerate(kinds):
                    r = run_round(k, args, url, bases, db_url, browser, labs=args.lab_sessions if kind == "lab" else 0,
                                  klass=kind == "class")
                    results.append(r)
                    print(json.dumps(r), flush=True)
                if browser is not None:
                    browser.close()
        finally:
            stop(server)
    ok = all(r["p95_ms"] is not None and r["p95_ms"] < 250 and r["errors"] == 0 and r["models_alive_after"] == 0 for r in results)
    print(f"server: {args.num_procs} process{'es' if args.num_procs > 1 else ''}, {args.db}")
    print(f"{'round':>5} {'kind':>5} {'sessions':>8} {'steps':>6} {'p50 ms':>7} {'p95 ms':>7} {'errors':>6} "
          f"{'MB before':>9} {'MB peak':>8} {'MB after':>8} {'models alive':>12}  labs / teacher refreshes")
    for r in results:
        extra = "-"
        if r["labs"]:
            extra = f"{r['labs']} x {r['lab_games']} games, {min(r['lab_s'], default=0)}-{max(r['lab_s'], default=0)} s"
        elif r["kind"] == "class":
            extra = f"{r['teacher_refreshes']} refreshes, p50 {r['refresh_p50_ms']} ms, p95 {r['refresh_p95_ms']} ms"
        print(f"{r['round']:>5} {r['kind']:>5} {r['sessions']:>8} {r['steps']:>6} {r['p50_ms']:>7} {r['p95_ms']:>7} {r['errors']:>6} "
              f"{r['rss_before_mb']:>9} {r['rss_peak_mb']:>8} {r['rss_after_mb']:>8} {r['models_alive_after']:>5} of {r['models']}  {extra}")
        if r["processes"] > 1:
            for q in r["per_process"]:
                print(f"      process {q['pid']}: {q['peak_open_sessions']} sessions at most, {q['steps']} steps, p95 {q['p95_ms']} ms, "
                      f"{q['refreshes']} teacher refreshes, {q['errors']} errors, {q['rss_before_mb']} / {q['rss_peak_mb']} MB, "
                      f"{q['models_alive_after']} of {q['models']} models alive")
    print("goals (p95 < 250 ms, 0 errors, every closed model collected): " + ("met" if ok else "MISSED"))
    if args.json:
        Path(args.json).write_text(json.dumps({"machine": machine(), "args": vars(args), "rounds": results}, indent=2))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
