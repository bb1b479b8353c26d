"""The dashboard server under load: ``laspoly serve``'s own app, plus a ``/load-stats`` page for the load test.

    python benchmarks/load_server.py --port 5106 [--num-procs 2] [--stats-dir DIR]

``benchmarks/load.py`` starts this in a subprocess.  It serves exactly what
``laspoly serve`` serves (``laspoly.ui.app.session_app``, same defaults) and
adds only measurement:

* a weak reference to every session's game model (or a teacher page's), to see that closed sessions' models are collected;
* for every autoplay tick, how late it started against its schedule and how long its server update took;
* for every refresh of a class's teacher page (every 2 s), how long it took;
* a count of the errors logged (laspoly, Panel, Bokeh, Tornado);
* ``GET /load-stats?since=N`` returns these, the resident memory and the open sessions as JSON.

With ``--num-procs N`` the server forks N processes that share the port, as
``panel serve --num-procs N`` does (the same Bokeh server option).  Each
process keeps its own figures, and a request to the shared port reaches any
one of them; so with ``--stats-dir DIR`` every process also answers
``/load-stats`` on a loopback port of its own, written to ``DIR/<pid>``.
"""

from __future__ import annotations

import argparse
import gc
import json
import logging
import os
import threading
import time
import weakref
from typing import Any

import panel as pn
from bench_engine import rss_mb
from tornado.httpserver import HTTPServer
from tornado.netutil import bind_sockets
from tornado.web import Application, RequestHandler

from laspoly.server.serving import tune_collector
from laspoly.ui import controls
from laspoly.ui.app import Dashboard, session_app
from laspoly.ui.presentation import ProjectorView
from laspoly.ui.teacher import TeacherView

MODELS: list[weakref.ref[Any]] = []  # every session's game model, or its teacher page's
TICKS: list[tuple[float, float, float]] = []  # (start on the monotonic clock, lateness ms, update ms) of every autoplay tick
REFRESHES: list[tuple[float, float]] = []  # (start on the monotonic clock, ms) of every refresh of a teacher's page
ERRORS: list[str] = []
OPEN = [0]  # sessions opened and not yet destroyed by the server
_LOCK = threading.Lock()


class _Errors(logging.Handler):
    """Counts every error record, whoever logs it."""

    def emit(self, record: logging.LogRecord) -> None:
        with _LOCK:
            ERRORS.append(f"{record.name}: {record.getMessage()}"[:300])


_plain_tick = controls.ControlsView._tick


def _timed_tick(self: controls.ControlsView) -> None:
    """The dashboard's own autoplay tick, timed.

    Bokeh runs a periodic callback one period after the previous run started
    (``bokeh.util.tornado._AsyncPeriodic``), so a tick is due one period after
    the previous tick of the same timer; it starts late when the server is busy.  A tick's step
    latency is that lateness plus its server update (the step and every view
    redrawing).  The first tick of a timer has no due time and is not counted.
    """
    now = time.monotonic()
    timer = self._timer
    period = (timer.period if timer is not None else 1000) / 1000
    last = self.__dict__.get("_load_last")
    self.__dict__["_load_last"] = (now, period, id(timer))
    _plain_tick(self)
    if last is not None and last[1:] == (period, id(timer)):
        with _LOCK:
            TICKS.append((now, 1000 * max(0.0, now - last[0] - period), 1000 * (time.monotonic() - now)))


controls.ControlsView._tick = _timed_tick  # type: ignore[method-assign]

_plain_refresh = TeacherView._tick


def _timed_refresh(self: TeacherView) -> None:
    """The teacher page's own timed refresh (every 2 s: every room caught up, the list and the charts redrawn), timed."""
    now = time.monotonic()
    _plain_refresh(self)
    with _LOCK:
        REFRESHES.append((now, 1000 * (time.monotonic() - now)))


TeacherView._tick = _timed_refresh  # type: ignore[method-assign]


class Stats(RequestHandler):
    """``/load-stats?since=N``: memory, sessions, live game models, errors and the ticks from index N."""

    def get(self) -> None:
        if self.get_argument("collect", "1") == "1":
            gc.collect()
        since = int(self.get_argument("since", "0"))
        with _LOCK:
            ticks = TICKS[since:]
            refreshes = [r for r in REFRESHES if r[0] >= float(self.get_argument("after", "0"))]
            errors = list(ERRORS)
        self.set_header("Content-Type", "application/json")
        self.write(json.dumps({
            "pid": os.getpid(),
            "rss_mb": rss_mb(),
            "open_sessions": OPEN[0],
            "models": len(MODELS),
            "alive": sum(1 for r in MODELS if r() is not None),
            "ticks_total": since + len(ticks),
            "ticks": ticks,
            "refreshes": refreshes,
            "errors": errors,
        }))


def app() -> Any:
    """``laspoly serve``'s session app, with a weak reference kept to its game model (a teacher page: to the page)."""
    d = session_app()
    if isinstance(d, Dashboard | ProjectorView):
        MODELS.append(weakref.ref(d.model))
    elif isinstance(d, TeacherView):
        MODELS.append(weakref.ref(d))
    with _LOCK:
        OPEN[0] += 1

    def closed(_ctx: Any) -> None:
        with _LOCK:
            OPEN[0] -= 1

    pn.state.on_session_destroyed(closed)
    return d


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=5106)
    parser.add_argument("--address", default="127.0.0.1")
    parser.add_argument("--num-procs", type=int, default=1, help="server processes sharing the port (as panel serve --num-procs)")
    parser.add_argument("--stats-dir", help="each process answers /load-stats on a port of its own, written to DIR/<pid>")
    args = parser.parse_args()
    handler = _Errors(level=logging.ERROR)
    for name in ("", "laspoly", "panel", "bokeh", "tornado"):
        logging.getLogger(name).addHandler(handler)
    tune_collector()  # as ``laspoly serve`` does
    print(f"load server on http://{args.address}:{args.port}/", flush=True)
    kwargs: dict[str, Any] = {"extra_patterns": [(r"/load-stats", Stats)], "num_procs": args.num_procs}
    server = pn.serve(app, port=args.port, address=args.address, show=False, title="Las Poly", start=False,
                      websocket_origin=[f"{args.address}:{args.port}", f"localhost:{args.port}"], **kwargs)
    # from here on, each of the --num-procs processes runs this on its own
    if args.stats_dir:
        sockets = bind_sockets(0, "127.0.0.1")
        HTTPServer(Application([(r"/load-stats", Stats)])).add_sockets(sockets)
        port = sockets[0].getsockname()[1]
        path = os.path.join(args.stats_dir, str(os.getpid()))
        with open(path + ".tmp", "w") as f:
            f.write(str(port))
        os.replace(path + ".tmp", path)  # whole, or not there yet
    server.start()
    server.io_loop.start()


if __name__ == "__main__":
    main()
