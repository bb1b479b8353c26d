"""The dashboard server under load: ``laspoly serve``'s own app, plus a ``/load-stats`` page for the load test.

    python benchmarks/load_server.py --port 5106

``benchmarks/load.py`` starts this in a subprocess.  It serves exactly what
``laspoly serve`` serves (``laspoly.ui.app.session_app``, same defaults) and
adds only measurement:

* a weak reference to every session's game model, to see that closed sessions' models are collected;
* for every autoplay tick, how late it started against its schedule and how long its server update took;
* a count of the errors logged (laspoly, Panel, Bokeh, Tornado);
* ``GET /load-stats?since=N`` returns these, the resident memory and the open sessions as JSON.
"""

from __future__ import annotations

import argparse
import gc
import json
import logging
import threading
import time
import weakref
from typing import Any

import panel as pn
from bench_engine import rss_mb
from tornado.web import RequestHandler

from laspoly.serving import tune_collector
from laspoly.ui import controls
from laspoly.ui.app import Dashboard, session_app
from laspoly.ui.model import GameModel
from laspoly.ui.presentation import ProjectorView

MODELS: list[weakref.ref[GameModel]] = []
TICKS: list[tuple[float, float, float]] = []  # (start on the monotonic clock, lateness ms, update ms) of every autoplay tick
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


class Stats(RequestHandler):
    """``/load-stats?since=N``: memory, sessions, live game models, errors and the ticks from index N."""

    def get(self) -> None:
        if self.get_argument("collect", "1") == "1":
            gc.collect()
        since = int(self.get_argument("since", "0"))
        with _LOCK:
            ticks = TICKS[since:]
            errors = list(ERRORS)
        self.set_header("Content-Type", "application/json")
        self.write(json.dumps({
            "rss_mb": rss_mb(),
            "open_sessions": OPEN[0],
            "models": len(MODELS),
            "alive": sum(1 for r in MODELS if r() is not None),
            "ticks_total": since + len(ticks),
            "ticks": ticks,
            "errors": errors,
        }))


def app() -> Dashboard | ProjectorView:
    """``laspoly serve``'s session app, with a weak reference kept to its game model."""
    d = session_app()
    MODELS.append(weakref.ref(d.model))
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
    args = parser.parse_args()
    handler = _Errors(level=logging.ERROR)
    for name in ("", "laspoly", "panel", "bokeh", "tornado"):
        logging.getLogger(name).addHandler(handler)
    tune_collector()  # as ``laspoly serve`` does
    print(f"load server on http://{args.address}:{args.port}/", flush=True)
    kwargs: dict[str, Any] = {"extra_patterns": [(r"/load-stats", Stats)]}
    pn.serve(app, port=args.port, address=args.address, show=False, title="Las Poly",
             websocket_origin=[f"{args.address}:{args.port}", f"localhost:{args.port}"], **kwargs)


if __name__ == "__main__":
    main()
