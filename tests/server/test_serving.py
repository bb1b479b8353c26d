"""The server log: one "connection was closed" line per page closed early, not one per queued message."""

from __future__ import annotations

import inspect
import json
import logging
import subprocess
import sys
from pathlib import Path

import pytest

from laspoly import cli
from laspoly.server.serving import CLOSED, LOGGERS, ClosedConnectionFilter, quiet_closed_connection_warnings


def _record(message: str, page: object = None) -> logging.LogRecord:
    record = logging.LogRecord("bokeh.server.views.ws", logging.WARNING, __file__, 1, message, None, None)
    record.page = page
    return record


class _Page:
    """Stands for a page's Document (weakly referenced, like the real one)."""


def test_the_first_closed_connection_warning_of_each_page_passes_and_the_repeats_are_dropped() -> None:
    one, two = _Page(), _Page()
    keep = ClosedConnectionFilter(page_of=lambda r: r.page)
    sequence = [(CLOSED, one)] * 6 + [(CLOSED, two)] * 3 + [("WebSocket connection opened", one), (CLOSED, one)]
    passed = [(msg, page) for msg, page in sequence if keep.filter(_record(msg, page))]
    assert passed == [(CLOSED, one), (CLOSED, two), ("WebSocket connection opened", one)]


def test_a_warning_whose_page_is_unknown_is_never_dropped() -> None:
    keep = ClosedConnectionFilter(page_of=lambda r: None)
    assert all(keep.filter(_record(CLOSED)) for _ in range(3))


def test_a_closed_page_is_forgotten_when_it_is_collected() -> None:
    keep = ClosedConnectionFilter(page_of=lambda r: r.page)
    page = _Page()
    keep.filter(_record(CLOSED, page))
    del page
    assert len(keep._seen) == 0


class _Socket:
    """Stands for Bokeh's WSHandler: its send_message logs the warning, as Bokeh's does."""

    def __init__(self, document: object) -> None:
        self.connection = type("Connection", (), {"_session": type("Session", (), {"document": document})()})()

    def send_message(self) -> None:
        logging.getLogger("bokeh.server.views.ws").warning(CLOSED)


def test_the_page_is_found_on_the_logging_call_s_stack(caplog: pytest.LogCaptureFixture) -> None:
    """Through the real logger: two sockets of one document log once, another document logs once more."""
    logger = logging.getLogger("bokeh.server.views.ws")
    before = list(logger.filters)
    quiet_closed_connection_warnings()
    quiet_closed_connection_warnings()  # installing twice installs once
    try:
        assert sum(isinstance(f, ClosedConnectionFilter) for f in logger.filters) == 1
        assert all(any(isinstance(f, ClosedConnectionFilter) for f in logging.getLogger(n).filters) for n in LOGGERS)
        doc, other = _Page(), _Page()
        with caplog.at_level(logging.WARNING, logger="bokeh.server.views.ws"):
            for sock in (_Socket(doc), _Socket(doc), _Socket(other)):
                for _ in range(6):
                    sock.send_message()
        assert [r.getMessage() for r in caplog.records] == [CLOSED, CLOSED]
    finally:
        for name in LOGGERS:
            for f in [f for f in logging.getLogger(name).filters if isinstance(f, ClosedConnectionFilter)]:
                logging.getLogger(name).removeFilter(f)
        assert logger.filters == before


#: Ten pages built on a server whose collector is tuned, in a fresh process; it reports what the collector did.
_TEN_PAGES = """
import gc, json
from laspoly.server.serving import FULL_COLLECTION_AFTER, tune_collector
tune_collector()
frozen, threshold = gc.get_freeze_count(), gc.get_threshold()
tune_collector()  # a second call (the next page of `panel serve`) freezes nothing more
again = gc.get_freeze_count()
import panel as pn
from bokeh.document import Document
from laspoly.ui.app import Dashboard
from laspoly.ui.model import GameModel
full = []
gc.callbacks.append(lambda phase, info: full.append(1) if phase == "stop" and info["generation"] == 2 else None)
pages = []
for seed in range(10):
    m = GameModel()
    m.new_game(["A", "B", "C"], ["basic", "greedy", "trader"], seed=seed)
    d = Dashboard(m)
    doc = Document()
    doc.add_root(pn.panel(d).get_root(doc))
    pages.append(doc)
print(json.dumps({"frozen": frozen, "again": again, "full_after": threshold[2], "expected": FULL_COLLECTION_AFTER,
                  "full_collections": len(full)}))
"""


@pytest.mark.slow
def test_a_class_opening_ten_pages_causes_no_full_garbage_collection_pause_on_a_tuned_server() -> None:
    """Untuned, ten pages cause about three full collections, each a pause of every game on the server."""
    out = subprocess.run([sys.executable, "-c", _TEN_PAGES], capture_output=True, text=True, timeout=300, check=True)
    report = json.loads(out.stdout.strip().splitlines()[-1])
    assert report["frozen"] > 10_000 and report["again"] == report["frozen"]
    assert report["full_after"] == report["expected"] == 100
    assert report["full_collections"] == 0


def test_laspoly_serve_and_the_panel_serve_app_tune_the_collector_before_the_first_page() -> None:
    source = inspect.getsource(cli.cmd_serve)
    assert source.index("tune_collector()") < source.index("pn.serve(")
    app = (Path(__file__).resolve().parents[2] / "apps" / "laspoly_app.py").read_text()
    assert app.index("tune_collector()") < app.index("build_app()")


#: Three sessions on a real server, in a fresh process: a seat that autoplays (its timer and its room's poll), a
#: projector's view (its poll), and a seat that only polls; all closed, it reports how many game models live on.
_CLOSED_SESSIONS = """
import gc, json, os, sys, tempfile, threading, time
sys.setrecursionlimit(200_000)
threading.stack_size(512 * 1024 * 1024)  # Bokeh's client applies each message one await deeper
os.environ["LASPOLY_DB"] = f"sqlite:///{tempfile.mkdtemp()}/closed.db"
sys.path.insert(0, BENCHMARKS)
import load, load_server
import panel as pn
port = load.free_port()
pn.serve(load_server.app, port=port, address="127.0.0.1", show=False, threaded=True,
         websocket_origin=[f"127.0.0.1:{port}"], unused_session_lifetime_milliseconds=500, check_unused_sessions_milliseconds=250)
import socket
for _ in range(600):  # until the server listens (at most a minute)
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
        break
    except OSError:
        time.sleep(0.1)
rooms = load.make_rooms(os.environ["LASPOLY_DB"], 2, seed=5)
plan = [(rooms[0]["seat"], True), (rooms[0]["view"], False), (rooms[1]["seat"], False)]
clients = [load.LightClient(f"http://127.0.0.1:{port}/", query, drive, 4.0) for query, drive in plan]
for c in clients:
    c.start()
for c in clients:
    c.ready.wait(60)
for _ in range(60):  # autoplay steps and the polls run: a few timed steps, however busy the machine
    time.sleep(0.5)
    if len(load_server.TICKS) >= 3:
        break
steps = len(load_server.TICKS)
for c in clients:
    c.stop()
for c in clients:
    c.join(30)
alive = -1
for _ in range(40):
    time.sleep(0.5)
    gc.collect()
    alive = sum(1 for ref in load_server.MODELS if ref() is not None)
    if alive == 0 and load_server.OPEN[0] == 0:
        break
print(json.dumps({"models": len(load_server.MODELS), "alive": alive, "open": load_server.OPEN[0], "steps": steps}))
os._exit(0)
"""


@pytest.mark.slow
def test_closed_sessions_whose_timers_ran_leave_no_game_model_behind_on_a_real_server() -> None:
    """A page's autoplay and polls are periodic callbacks of its document, which can outlive the session; stopped,
    they must leave nothing that leads back to the page's game (``make load`` checks the same for thirty)."""
    script = _CLOSED_SESSIONS.replace("BENCHMARKS", repr(str(Path(__file__).resolve().parents[2] / "benchmarks")))
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300, check=True)
    report = json.loads(out.stdout.strip().splitlines()[-1])
    assert report["models"] == 3 and report["steps"] >= 3, report
    assert report["alive"] == 0 and report["open"] == 0, report


def test_a_write_to_a_closed_page_that_nothing_awaited_is_one_warning_line_and_other_errors_keep_their_traceback() -> None:
    import sys

    from tornado.websocket import WebSocketClosedError

    from laspoly.server.serving import CLOSED_WRITE, UnretrievedClosedWriteFilter

    def record(exc: BaseException) -> logging.LogRecord:
        try:
            raise exc
        except BaseException:
            info = sys.exc_info()
        return logging.LogRecord("asyncio", logging.ERROR, "tasks.py", 1, "Task exception was never retrieved\nfuture: %s",
                                 ("<Task>",), info)

    closed, other = record(WebSocketClosedError()), record(ValueError("a real bug"))
    assert UnretrievedClosedWriteFilter().filter(closed) and UnretrievedClosedWriteFilter().filter(other)
    assert closed.getMessage() == CLOSED_WRITE and closed.exc_info is None and closed.levelno == logging.WARNING
    assert other.exc_info is not None and other.levelno == logging.ERROR
