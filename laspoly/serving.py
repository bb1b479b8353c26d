"""What ``laspoly serve`` adds to Panel's server: a port check first, a quieter log, and a calmer garbage collector.

A page closed while the server is still sending it (the dashboard arrives in
steps) makes Bokeh log "Failed sending message as connection was closed" once
for every message still queued, six for a page closed early.
:class:`ClosedConnectionFilter` keeps the first of these per page and drops the
repeats; ``laspoly serve`` and ``apps/laspoly_app.py`` (for ``panel serve``)
install it.
"""

from __future__ import annotations

import errno
import gc
import logging
import sys
import weakref
from collections.abc import Callable
from typing import Any

from laspoly.errors import LaspolyError

CLOSED = "Failed sending message as connection was closed"
#: The loggers that report a message sent to a closed page: Bokeh's websocket handler, and Panel's write queue.
LOGGERS = ("bokeh.server.views.ws", "panel.io.document")
_STACK_DEPTH = 12


def check_can_listen(address: str, port: int) -> None:
    """Raise :class:`LaspolyError` if the server could not listen on ``address:port`` (taken, or no such address)."""
    from tornado.netutil import bind_sockets

    try:
        sockets = bind_sockets(port, address)  # as Tornado binds them when the server starts
    except OSError as exc:  # socket.gaierror for an unknown address is an OSError too
        hint = "; is another server running there? Choose another --port" if exc.errno == errno.EADDRINUSE else ""
        raise LaspolyError(f"cannot listen on {address}:{port}: {exc.strerror or exc}{hint}") from None
    for sock in sockets:
        sock.close()


def sending_page(record: logging.LogRecord) -> Any:
    """The page whose message could not be sent: its Document, found on the logging call's stack, or None."""
    frame = sys._getframe(1)
    for _ in range(_STACK_DEPTH):
        if frame is None:
            return None
        local = frame.f_locals
        if frame.f_code.co_name == "send_message" and "self" in local:  # bokeh's WSHandler.send_message
            handler = local["self"]
            session = getattr(getattr(handler, "connection", None), "_session", None)
            return getattr(session, "document", None) or handler
        if frame.f_code.co_name == "_run_write_futures" and "doc" in local:  # panel.io.document
            return local["doc"]
        frame = frame.f_back
    return None


class ClosedConnectionFilter(logging.Filter):
    """Let the first "connection was closed" warning of each page through and drop the repeats.

    ``page_of`` names the page a record is about (by default found on the
    stack); a record whose page cannot be found is always let through.
    """

    def __init__(self, page_of: Callable[[logging.LogRecord], Any] = sending_page) -> None:
        super().__init__()
        self._page_of = page_of
        self._seen: weakref.WeakSet[Any] = weakref.WeakSet()  # a closed page's objects are collected, and leave it

    def filter(self, record: logging.LogRecord) -> bool:
        """False for a repeated "connection was closed" warning of a page already reported."""
        if record.getMessage() != CLOSED:
            return True
        page = self._page_of(record)
        if page is None:
            return True
        try:
            if page in self._seen:
                return False
            self._seen.add(page)
        except TypeError:  # an object that takes no weak reference: never hide its warnings
            pass
        return True


def quiet_closed_connection_warnings() -> None:
    """Install :class:`ClosedConnectionFilter` on Bokeh's and Panel's loggers (once, however often called)."""
    for name in LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(f, ClosedConnectionFilter) for f in logger.filters):
            logger.addFilter(ClosedConnectionFilter())


#: Full collections wait for this many collections of the middle generation (Python's default is 10).
FULL_COLLECTION_AFTER = 100
_collector_tuned = [False]


def tune_collector() -> None:
    """Keep the garbage collector's full passes from stalling every game on the server while a class arrives (once).

    Each new page makes many Python objects that live as long as the page.
    Python runs a full collection, which walks every one of them while the one
    event loop waits, whenever the long-lived objects have grown by a quarter
    (and ten middle-generation passes have run), so a class opening the
    dashboard set off several.  The objects made at start-up (the imported
    libraries) are frozen, so no pass walks them again, and full passes wait
    for ten times as many middle passes.  Closed pages' cycles are
    still collected, a little later.  It is called before the first page is
    built (by ``laspoly serve``, and by ``apps/laspoly_app.py`` the first time
    ``panel serve`` runs it); later calls do nothing, so that a page's own
    objects are never frozen.
    """
    if _collector_tuned[0]:
        return
    _collector_tuned[0] = True
    gc.collect()
    gc.freeze()
    first, middle, _ = gc.get_threshold()
    gc.set_threshold(first, middle, FULL_COLLECTION_AFTER)
