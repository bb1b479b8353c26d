"""The server log: one "connection was closed" line per page closed early, not one per queued message."""

from __future__ import annotations

import logging

import pytest

from laspoly.serving import CLOSED, LOGGERS, ClosedConnectionFilter, quiet_closed_connection_warnings


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
