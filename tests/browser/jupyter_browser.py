"""Shared by the browser tests that run the lessons in JupyterLab and in Jupyter Notebook 7: a Jupyter server on
loopback over copies of the lessons (PANEL_INLINE=true and the lessons' notebook settings, as ``make lab`` starts
it), a page with every request outside the machine blocked, Run All, code run in the notebook's kernel, and lesson 01's live plot moved."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from test_lessons_offline import DRAWN_CANVASES

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "lessons-test"
APP = "window.jupyterapp"  # exposed by --expose-app-in-browser, in JupyterLab and in Notebook 7 alike
NOTEBOOK = f"{APP}.shell.currentWidget"
KERNEL = f"{NOTEBOOK}.sessionContext.session.kernel"


@contextmanager
def jupyter(folder: Path, module: str, lessons: tuple[str, ...], *options: str) -> Iterator[str]:
    """``python -m module`` (jupyterlab or notebook) on loopback over copies of ``lessons``; yields its base URL."""
    for name in lessons:
        shutil.copy(ROOT / "notebooks" / name, folder / name)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    shutil.copytree(ROOT / "tools" / "lab-settings", folder / "settings")  # as make lab copies them into .lab/settings
    # a workspace of its own: JupyterLab's default one is shared by every server of the machine's user and reopens
    # the notebooks an earlier server had open, one of which could become the current notebook instead of this one
    env = {**os.environ, "PANEL_INLINE": "true", "JUPYTERLAB_SETTINGS_DIR": str(folder / "settings"),
           "JUPYTERLAB_WORKSPACES_DIR": str(folder / "workspaces"),
           "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    log = folder / "jupyter.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen([sys.executable, "-m", module, "--no-browser", "--allow-root", "--ip=127.0.0.1",
                                 f"--port={port}", f"--IdentityProvider.token={TOKEN}", f"--ServerApp.root_dir={folder}",
                                 "--expose-app-in-browser", *options],
                                env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + 180
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/api/status?token={TOKEN}", timeout=5).close()
                break
            except OSError:
                assert proc.poll() is None, log.read_text(errors="replace")[-2000:]
                assert time.monotonic() < deadline, f"{module} did not start within 180 s"
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


def open_notebook(page: Any, url: str) -> None:
    """Open a lesson at ``url``, offline, wait for its kernel and start Run All."""
    page.route("**/*", _offline)
    page.goto(f"{url}?token={TOKEN}")
    name = urlsplit(url).path.rsplit("/", 1)[-1]
    page.wait_for_function(f"() => {APP} && {NOTEBOOK} && {NOTEBOOK}.context && {NOTEBOOK}.context.path === {name!r}"
                           f" && {NOTEBOOK}.sessionContext && {NOTEBOOK}.sessionContext.session"
                           f" && {KERNEL} && {KERNEL}.status === 'idle'", timeout=180_000, polling=500)
    page.evaluate(f"() => {APP}.commands.execute('notebook:run-all-cells')")


def ran(page: Any) -> None:
    """Wait for Run All to finish; no cell may end in an error."""
    page.wait_for_function(f"() => {KERNEL}.status === 'idle' && [...document.querySelectorAll('.jp-InputPrompt')]"
                           ".every(e => !e.textContent.includes('*')) && document.querySelector('.jp-OutputArea-output')",
                           timeout=480_000, polling=1000)
    errors = page.evaluate("() => [...document.querySelectorAll('.jp-OutputArea-output[data-mime-type=\"application/vnd.jupyter.stderr\"]')]"
                           ".map(e => e.innerText).filter(t => /Error|Traceback/.test(t))")
    assert not errors, errors


def printed(page: Any, code: str) -> str:
    """What ``code`` prints, run in the notebook's kernel."""
    return page.evaluate("""async (code) => {
      const future = KERNEL.requestExecute({code});
      let text = '';
      future.onIOPub = (msg) => { if (msg.header.msg_type === 'stream') text += msg.content.text; };
      await future.done;
      return text;
    }""".replace("KERNEL", KERNEL), code)


def no_news_question(page: Any) -> None:
    """The lessons' settings turn Jupyter's news feed off: no notification asks a student about it once the app is up."""
    toasts = page.evaluate("() => [...document.querySelectorAll('.Toastify__toast')].map(e => e.innerText)")
    assert not [t for t in toasts if "news" in t.lower()], toasts


def changes(locator: Any, before: bytes, what: str, seconds: float = 60) -> None:
    """Wait until the element no longer looks as in the screenshot ``before``."""
    deadline = time.monotonic() + seconds
    while locator.screenshot() == before:
        assert time.monotonic() < deadline, f"{what} did not change"
        locator.page.wait_for_timeout(200)


def lesson_01_draws_and_its_live_plot_moves(page: Any, url: str, screenshot: str) -> None:
    """Run lesson 01 at ``url`` offline: its figures draw, its checks answer, and its player moves the live plot."""
    page.set_viewport_size({"width": 1300, "height": 1000})
    open_notebook(page, url)
    ran(page)
    page.wait_for_function(f"() => ({DRAWN_CANVASES})() >= 4", timeout=120_000)
    assert "Not answered yet" in printed(page, "check('01.2', ...)")  # the checks answer in the kernel
    no_news_question(page)
    # the live plot: the player's value moves the line and the title
    live = page.locator(".jp-CodeCell", has_text="live_source = ColumnDataSource").locator(".jp-OutputArea-output canvas").first
    live.scroll_into_view_if_needed()
    before = live.screenshot()
    printed(page, "player.value = 300")
    changes(live, before, "the live plot")
    page.screenshot(path=str(ROOT / "test-output" / screenshot))
