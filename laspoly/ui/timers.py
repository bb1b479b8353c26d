"""A session's periodic callbacks: autoplay, a room's poll, the projector's poll and the teacher's view.

On a served page each is the Bokeh document's own periodic callback
(``Document.add_periodic_callback``): Bokeh runs it under the document's lock,
one period after its previous run started, and stops it when the session ends.
Panel's ``pn.state.add_periodic_callback`` runs the same callback through
Panel's global busy bookkeeping as well (``pn.state.busy``): a list of the
callbacks running in every session of the server, copied and watched on each
run, for a busy indicator the page does not show.  With thirty sessions polling
twice a second and stepping once a second, that bookkeeping was among the
server's largest costs in ``make load``.  Where there is no served document (a notebook), Panel's
periodic callback runs it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import panel as pn
from panel.io.state import set_curdoc

from laspoly.ui.common import is_served


class _Call:
    """What the document holds: the callback until its timer stops, run as its page's.

    Panel's ``pn.state.curdoc`` reads a context variable before Bokeh's current
    document, and a periodic callback runs in the context it was scheduled from,
    which may name another page's document; so each run names its own, as Panel's
    periodic callbacks do.  A session's document can outlive the session (Panel's
    own tasks keep the context they were started in), so a stopped timer leaves it
    nothing that leads back to the page's views and game.
    """

    __slots__ = ("callback", "doc")

    def __init__(self, callback: Callable[[], None], doc: Any) -> None:
        self.callback: Callable[[], None] | None = callback
        self.doc: Any = doc

    def __call__(self) -> None:
        callback = self.callback
        if callback is not None:
            with set_curdoc(self.doc):
                callback()


class Timer:
    """Calls ``callback`` every ``period`` milliseconds until :meth:`stop`; ``period`` can change while it runs."""

    def __init__(self, callback: Callable[[], None], period: int) -> None:
        self._callback = callback
        self._period = int(period)
        self._doc: Any = pn.state.curdoc if is_served() else None
        self._handle: Any = None
        self._call: _Call | None = None
        self._start()

    @property
    def served(self) -> bool:
        """True when the served document runs the callback (not Panel's periodic callback)."""
        return self._doc is not None

    @property
    def running(self) -> bool:
        """True until :meth:`stop`."""
        return self._handle is not None

    @property
    def period(self) -> int:
        """Milliseconds between two runs."""
        return self._period

    @period.setter
    def period(self, value: int) -> None:
        if int(value) == self._period:
            return
        self._period = int(value)
        if self.running:  # Bokeh keeps a callback's period: the next run comes one new period from now
            self.stop()
            self._start()

    def _start(self) -> None:
        if self._doc is not None:
            self._call = _Call(self._callback, self._doc)
            self._handle = self._doc.add_periodic_callback(self._call, self._period)
        else:
            self._handle = pn.state.add_periodic_callback(self._callback, period=self._period)

    def stop(self) -> None:
        """Stop calling back (also safe after the session ended, or twice)."""
        handle, self._handle = self._handle, None
        if handle is None:
            return
        if self._call is not None:
            self._call.callback = self._call.doc = None
        if self._doc is None:
            handle.stop()
        elif self._doc.session_context is not None:  # a destroyed document has none, and its callbacks went with it
            self._doc.remove_periodic_callback(handle)
