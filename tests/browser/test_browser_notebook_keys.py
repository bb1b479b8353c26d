"""A dashboard's shortcuts in a notebook belong to that dashboard: a key acts only with the focus inside its
output, never page-wide, and a key it takes never reaches the page (JupyterLab's command mode, other outputs)."""

from __future__ import annotations

import socket
import time
from collections.abc import Callable, Iterator
from typing import Any

import panel as pn
import pytest

from laspoly.ui.common import KeyShortcuts

pytestmark = pytest.mark.browser


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _until(condition: Callable[[], bool], what: str, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"gave up waiting: {what}"
        time.sleep(0.05)


@pytest.fixture
def two_outputs() -> Iterator[tuple[str, list[KeyShortcuts]]]:
    """A page with two separate outputs, as two dashboards in two notebook cells: a button and scoped shortcuts each."""
    made: list[KeyShortcuts] = []

    def app() -> None:
        doc = pn.state.curdoc
        for name in ("first", "second"):
            keys = KeyShortcuts(scoped=True)
            made.append(keys)
            pn.Column(pn.widgets.Button(label=f"{name} button"), keys).server_doc(doc)

    port = _port()
    server = pn.serve(app, port=port, address="127.0.0.1", show=False, threaded=True,
                      websocket_origin=f"127.0.0.1:{port}")
    try:
        yield f"http://127.0.0.1:{port}/", made
    finally:
        server.stop()


def test_a_key_acts_only_in_the_output_that_has_the_focus_and_stops_there(two_outputs: tuple[str, list[KeyShortcuts]],
                                                                           page: Any) -> None:
    url, made = two_outputs
    page.goto(url)
    page.get_by_role("button", name="second button").wait_for()
    _until(lambda: len(made) == 2, "both outputs made")
    first, second = made
    # the page's own listener, as JupyterLab's command mode listens on the document
    page.evaluate("() => { window.seen = []; document.addEventListener('keydown', e => window.seen.push(e.key)); }")

    page.get_by_role("button", name="first button").click()
    page.keyboard.press("r")
    _until(lambda: first.press.startswith("r "), "the first output's shortcut")
    assert second.press == "" and page.evaluate("() => window.seen") == [], "the key went on past its dashboard"

    page.keyboard.press("x")  # not a shortcut: the page gets it as usual
    assert page.evaluate("() => window.seen") == ["x"]

    page.evaluate("() => document.activeElement && document.activeElement.blur()")  # focus on the page, not an output
    page.keyboard.press("r")
    taken = first.press
    page.get_by_role("button", name="second button").click()
    page.keyboard.press("r")
    _until(lambda: second.press.startswith("r "), "the second output's shortcut")
    assert first.press == taken, "a key pressed outside every output acted in one"
    assert page.evaluate("() => window.seen") == ["x", "r"], "only the key pressed outside the outputs reached the page"
