"""Lessons 01 and 05 in JupyterLab, started as ``make lab`` starts it (copies of the lessons, PANEL_INLINE=true),
with every request outside the machine blocked: all cells run, the figures draw, the dashboard plays, and a key
pressed in JupyterLab's command mode leaves the dashboard alone and ``print`` working."""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from test_lessons_offline import DRAWN_CANVASES

ROOT = Path(__file__).resolve().parents[1]
TOKEN = "lessons-test"
APP = "window.jupyterapp"
NOTEBOOK = f"{APP}.shell.currentWidget"
KERNEL = f"{NOTEBOOK}.sessionContext.session.kernel"

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """JupyterLab on loopback, over copies of lessons 01 and 05 (as make lab copies them into .lab/)."""
    pytest.importorskip("jupyterlab")
    folder = tmp_path_factory.mktemp("lab")
    for name in ("01_two_dice.ipynb", "05_play_las_poly.ipynb"):
        shutil.copy(ROOT / "notebooks" / name, folder / name)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    env = {**os.environ, "PANEL_INLINE": "true", "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    log = folder / "lab.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen([sys.executable, "-m", "jupyterlab", "--no-browser", "--allow-root", "--ip=127.0.0.1",
                                 f"--port={port}", f"--IdentityProvider.token={TOKEN}", f"--ServerApp.root_dir={folder}",
                                 "--expose-app-in-browser", "--LabApp.news_url=",
                                 "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate"],
                                env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + 180
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/api/status?token={TOKEN}", timeout=5).close()
                break
            except OSError:
                assert proc.poll() is None, log.read_text(errors="replace")[-2000:]
                assert time.monotonic() < deadline, "JupyterLab did not start within 180 s"
                time.sleep(0.3)
        yield f"http://127.0.0.1:{port}"
    finally:
        os.killpg(proc.pid, 15)
        proc.wait(30)


def _offline(route: Any) -> None:
    url = urlsplit(route.request.url)
    if url.hostname in ("127.0.0.1", "localhost") or url.scheme in ("data", "blob"):
        route.continue_()
    else:
        route.abort()


def _open(page: Any, lab: str, name: str) -> None:
    """Open a lesson, offline, and start Run All."""
    page.route("**/*", _offline)
    page.goto(f"{lab}/lab/tree/{name}?token={TOKEN}")
    page.wait_for_function(f"() => {APP} && {NOTEBOOK} && {NOTEBOOK}.sessionContext && {NOTEBOOK}.sessionContext.session"
                           f" && {KERNEL} && {KERNEL}.status === 'idle'", timeout=180_000, polling=500)
    page.evaluate(f"() => {APP}.commands.execute('notebook:run-all-cells')")


def _ran(page: Any) -> None:
    """Wait for Run All to finish; no cell may end in an error."""
    page.wait_for_function(f"() => {KERNEL}.status === 'idle' && [...document.querySelectorAll('.jp-InputPrompt')]"
                           ".every(e => !e.textContent.includes('*')) && document.querySelector('.jp-OutputArea-output')",
                           timeout=480_000, polling=1000)
    errors = page.evaluate("() => [...document.querySelectorAll('.jp-OutputArea-output[data-mime-type=\"application/vnd.jupyter.stderr\"]')]"
                           ".map(e => e.innerText).filter(t => /Error|Traceback/.test(t))")
    assert not errors, errors


def _run_all(page: Any, lab: str, name: str) -> None:
    _open(page, lab, name)
    _ran(page)


def _printed(page: Any, code: str) -> str:
    """What ``code`` prints, run in the notebook's kernel."""
    return page.evaluate("""async (code) => {
      const future = KERNEL.requestExecute({code});
      let text = '';
      future.onIOPub = (msg) => { if (msg.header.msg_type === 'stream') text += msg.content.text; };
      await future.done;
      return text;
    }""".replace("KERNEL", KERNEL), code)


def test_lesson_01_runs_and_draws_its_figures_offline_in_jupyterlab(lab: str, page: Any) -> None:
    page.set_viewport_size({"width": 1300, "height": 1000})
    _run_all(page, lab, "01_two_dice.ipynb")
    page.wait_for_function(f"() => ({DRAWN_CANVASES})() >= 4", timeout=120_000)
    assert "Not answered yet" in _printed(page, "check('01.2', ...)")  # the checks answer in the kernel
    # the live plot: the player's value moves the line and the title
    live = page.locator(".jp-CodeCell", has_text="live_source = ColumnDataSource").locator(".jp-OutputArea-output canvas").first
    live.scroll_into_view_if_needed()
    before = live.screenshot()
    _printed(page, "player.value = 300")
    deadline = time.monotonic() + 60
    while live.screenshot() == before:
        assert time.monotonic() < deadline, "the live plot did not move"
        page.wait_for_timeout(200)
    page.screenshot(path=str(ROOT / "test-output" / "jupyterlab_lesson_01.png"))


def test_lesson_05_dashboard_takes_a_click_during_run_all_and_command_mode_keys_leave_it_alone(lab: str, page: Any) -> None:
    page.set_viewport_size({"width": 1300, "height": 1000})
    _open(page, lab, "05_play_las_poly.ipynb")
    # a click on Roll as soon as the dashboard shows, while the later cells still run, is acted on, not dropped
    roll = page.get_by_role("button", name=re.compile(r"^Roll")).first
    board = page.locator(".jp-OutputArea-output", has=roll).locator("canvas").first  # the board, drawn by Bokeh
    board.wait_for(timeout=240_000)
    before = board.screenshot()
    roll.click(timeout=120_000)  # the page is busy while the later cells run and draw
    _ran(page)
    page.wait_for_function(f"() => ({DRAWN_CANVASES})() >= 2", timeout=120_000)
    assert _printed(page, "print(any(type(e).__name__ == 'Rolled' for e in m.game.log))") == "True\n", \
        "the click made during Run All was dropped"
    deadline = time.monotonic() + 60
    while board.screenshot() == before:  # the token moved on the board
        assert time.monotonic() < deadline, "the board did not change after a roll"
        page.wait_for_timeout(200)
    board.scroll_into_view_if_needed()
    page.screenshot(path=str(ROOT / "test-output" / "jupyterlab_lesson_05.png"))

    # command mode, the focus on a cell and not in the dashboard: r is JupyterLab's, not the dashboard's
    page.evaluate(f"() => {{ const nb = {NOTEBOOK}.content; nb.activeCellIndex = 0; nb.mode = 'command';"
                  " nb.activeCell.node.focus(); }")
    page.wait_for_function(f"() => {NOTEBOOK}.content.mode === 'command'")
    logged = int(_printed(page, "print(len(m.game.log))"))
    page.keyboard.press("r")
    page.wait_for_function(f"() => {NOTEBOOK}.content.activeCell.model.type === 'raw'", timeout=30_000)
    assert int(_printed(page, "print(len(m.game.log))")) == logged, "r in command mode played in the dashboard"
    assert _printed(page, "print('print works')") == "print works\n"
